"""Simulators as a sweep sees them: a name, a callable ``scenario -> result`` and a code version."""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import hashlib
import importlib
import inspect
import marshal
import os
import pickle
import re
import sys
import types
from collections.abc import Callable
from pathlib import Path

from .errors import StaleSimulatorError
from .versions import closure_version

__all__ = ["Simulator", "SIMULATORS", "get_simulator", "as_simulator", "register_simulator", "module_version"]

#: Registered simulators: name → ``"module:function"`` (add one with :func:`register_simulator`).
#: The code version is :func:`module_version` of the module: its ``CODE_VERSION`` (if any) and
#: a hash of every source file it can import within ``cmtlab``.
SIMULATORS: dict[str, str] = {
    "cmtlab": "cmtlab.sim:run",
    "ns-3": "cmtlab.ns3:run",
    "papers-sim": "cmtlab.papers_sim:run",
}
_ALIASES = {"sim": "cmtlab", "cmtlab.sim": "cmtlab", "ns3": "ns-3", "cmtlab.ns3": "ns-3",
            "papers_sim": "papers-sim", "cmtlab.papers_sim": "papers-sim"}


def _resolve_target(target: str) -> Callable:
    module, _, attribute = target.partition(":")
    return getattr(importlib.import_module(module), attribute)  # sys.modules lookup after the first import


_FIRST_SEEN_VERSIONS: dict[str, tuple[object, str]] = {}


def module_version(module: types.ModuleType) -> str:
    """The code version of a simulator module as this process loaded it.

    ``"<CODE_VERSION>+<closure>"``: the module's own ``CODE_VERSION`` (read live, so
    ``importlib.reload`` counts; it may carry what no source file shows, e.g. the installed
    ns-3 version) and :func:`~cmtlab.sweep.versions.closure_version` of the module — every
    source file it can import within ``cmtlab`` and its own package, and every data file it
    names in ``CODE_DATA_FILES`` (paths, relative ones to the module's folder; e.g. a table the
    simulator reads at run time), hashed when this process first sees the module (again after a
    reload).  Without ``CODE_VERSION``, the closure alone.
    """
    own = getattr(module, "CODE_VERSION", None)
    spec = getattr(module, "__spec__", None)
    seen = _FIRST_SEEN_VERSIONS.get(module.__name__)
    if seen is None or seen[0] is not (spec or module):
        seen = _FIRST_SEEN_VERSIONS[module.__name__] = (spec or module, _closure_now(module))
    return f"{own}+{seen[1]}" if own else seen[1]


def _closure_now(module: types.ModuleType) -> str:
    """:func:`closure_version` of ``module`` and its ``CODE_DATA_FILES`` as they are on disk now."""
    source = getattr(module, "__file__", None)
    if not source or not str(source).endswith(".py"):
        raise ValueError(f"simulator module {module.__name__} has no Python source to hash; register it "
                         f"with an explicit code_version")
    data = getattr(module, "CODE_DATA_FILES", ())
    if isinstance(data, (str, os.PathLike)):
        data = (data,)
    extra = []
    for item in data:
        path = Path(item) if Path(item).is_absolute() else Path(source).parent / item
        try:
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
        except OSError:
            digest = "missing"
        extra.append(f"data:{path.name}:{digest}")
    main = module.__name__ == "__main__"
    return closure_version(Path(source).stem if main else module.__name__, file=source if main else None,
                           extra=tuple(extra))


def _check_loaded_code(simulator: "Simulator", *, after_runs: bool = False) -> None:
    """Refuse to run (or, with ``after_runs``, to hand back results) under a code version the
    process does not hold.

    Before a chunk: the process's :func:`module_version` must be the sweep's.  After it: the
    closure on disk must still be the one hashed when the process first saw the module — else a
    module imported lazily during the runs (say, the OSIA planner on the first OSIA run) may
    have been loaded from an edited file, and the rows would enter the cache under the old version.
    """
    if not (simulator.verify_loaded_code and isinstance(simulator.run, str)):
        return
    module = importlib.import_module(simulator.run.partition(":")[0])
    loaded = module_version(module)
    if loaded != simulator.code_version:
        raise StaleSimulatorError(
            f"process {os.getpid()} runs {module.__name__} with code version {loaded}, but the sweep expects "
            f"{simulator.code_version}: the source changed after one of the processes imported it")
    if after_runs:
        first_seen = _FIRST_SEEN_VERSIONS[module.__name__][1]
        now = _closure_now(module)
        if now != first_seen:
            raise StaleSimulatorError(
                f"process {os.getpid()}: a source file {module.__name__} can import changed while it ran (code "
                f"version {simulator.code_version}, files on disk now {now}); its results are not kept")


@dataclasses.dataclass(frozen=True)
class Simulator:
    """A simulator as a sweep sees it: ``name``, the callable ``run(scenario) -> result`` (a
    :class:`~cmtlab.scenario.TransferResult` or a dict row) and ``code_version`` (part of every
    cache key: change it and old results are not reused).

    ``run`` may be a ``"module:function"`` string, imported on first call in each worker
    process (so the process that plans the sweep never imports, say, ns-3).  For parallel
    runs the simulator must be picklable: a module-level function, a ``"module:function"``
    string or an instance of a module-level class.
    """

    name: str
    run: Callable | str
    code_version: str
    #: Check, in every process that runs it, that the ``run`` module as loaded there has this
    #: ``code_version`` (set by :func:`get_simulator`; see :class:`StaleSimulatorError`).
    verify_loaded_code: bool = dataclasses.field(default=False, compare=False, repr=False)

    def __post_init__(self):
        if not isinstance(self.name, str) or not self.name.strip():
            raise ValueError(f"Simulator name must be a non-empty string, got {self.name!r}")
        if not isinstance(self.code_version, str) or not self.code_version.strip():
            raise ValueError(f"Simulator code_version must be a non-empty string, got {self.code_version!r}")
        if isinstance(self.run, str):
            if not re.fullmatch(r"[\w.]+:\w+", self.run):
                raise ValueError(f"Simulator run must be a callable or 'module:function', got {self.run!r}")
        elif not callable(self.run):
            raise ValueError(f"Simulator run must be callable, got {self.run!r}")

    def __call__(self, scenario):
        fn = _resolve_target(self.run) if isinstance(self.run, str) else self.run
        return fn(scenario)


#: Simulators registered with an explicit code version (name → :class:`Simulator`).
_FIXED: dict[str, tuple[str, "Simulator"]] = {}


def register_simulator(name: str, run, *, code_version: str | None = None, aliases=()) -> None:
    """Make a simulator available to :func:`run_sweep` by ``name``, e.g.::

        register_simulator("papers-ns3.7", "cmtlab.papers_sim:run", aliases=("ns-3.7",))

    ``run`` is a ``"module:function"`` string (imported lazily, in the processes that run it;
    its code version is then :func:`module_version` of the module, checked in every worker
    process) or a picklable callable.  ``code_version`` replaces the computed version (say,
    for a simulator whose behaviour lives outside Python sources; the caller then owns its
    correctness).  Registering a name again with the same target is allowed; with another
    target it raises ``ValueError``.
    """
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"simulator name must be a non-empty string, got {name!r}")
    key = name.strip().lower()
    if isinstance(run, str):
        if not re.fullmatch(r"[\w.]+:\w+", run):
            raise ValueError(f"run must be a 'module:function' string or a callable, got {run!r}")
        target = run
    elif callable(run):
        target = f"{getattr(run, '__module__', '?')}:{getattr(run, '__qualname__', type(run).__name__)}"
    else:
        raise ValueError(f"run must be a 'module:function' string or a callable, got {run!r}")
    if code_version is not None and (not isinstance(code_version, str) or not code_version.strip()):
        raise ValueError(f"code_version must be None or a non-empty string, got {code_version!r}")
    if isinstance(aliases, str):
        aliases = (aliases,)
    for alias in aliases:
        if not isinstance(alias, str) or not alias.strip():
            raise ValueError(f"aliases must be non-empty strings, got {alias!r}")
    old = SIMULATORS.get(key)
    if old is not None and old != target:
        raise ValueError(f"simulator {key!r} is already registered as {old!r}")
    for alias in aliases:
        a = alias.strip().lower()
        if a in SIMULATORS or _ALIASES.get(a, key) != key:
            raise ValueError(f"alias {alias!r} already names another simulator")
    SIMULATORS[key] = target
    for alias in aliases:
        _ALIASES[alias.strip().lower()] = key
    if code_version is not None or not isinstance(run, str):
        _FIXED[key] = (target, Simulator(name=key, run=run,
                                         code_version=code_version or as_simulator(run).code_version))
    else:
        _FIXED.pop(key, None)


def get_simulator(name: str) -> Simulator:
    """The registered simulator ``name`` (``"cmtlab"``, ``"ns-3"``, …, see :data:`SIMULATORS`).

    Imports the simulator's module to compute its code version (:func:`module_version`); the
    simulation function itself is imported only where it runs.
    """
    if not isinstance(name, str):
        raise ValueError(f"simulator name must be a string, got {name!r}")
    key = name.strip().lower()
    key = _ALIASES.get(key, key)
    if key not in SIMULATORS:
        raise ValueError(f"simulator must be one of {sorted(SIMULATORS)} (or a callable / Simulator), got {name!r}")
    fixed = _FIXED.get(key)
    if fixed is not None and fixed[0] == SIMULATORS[key]:
        return fixed[1]
    target = SIMULATORS[key]
    module_name = target.partition(":")[0]
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ImportError(f"simulator {key!r} is not available: importing {module_name} failed ({exc})") from exc
    return Simulator(name=key, run=target, code_version=module_version(module), verify_loaded_code=True)


def as_simulator(simulator) -> Simulator:
    """A :class:`Simulator` from a registered name, a :class:`Simulator`, or any callable.

    A registered simulator's own function (``cmtlab.sim.run``) is that simulator.  For any
    other callable the name is ``module.qualname`` and the code version is its own
    ``CODE_VERSION`` attribute if it has one; else the :func:`~cmtlab.sweep.versions.closure_version`
    of its module (every source file the module can import within ``cmtlab`` and its own
    package), prefixed by the ``CODE_VERSION`` of the module or of the nearest package above it;
    without a source file (a notebook cell), that ``CODE_VERSION``, else a hash of the callable's
    own source text (of its bytecode if there is no source at all — its imports are then not
    covered: give such a simulator an explicit ``code_version``).  For a
    ``functools.partial`` the bound arguments' ``repr`` is part of the version, and for a
    callable object its pickled state, so differently parameterised simulators never share
    cache entries.  When that is not the right notion of "same code", wrap the callable in a
    :class:`Simulator` with an explicit ``code_version``.
    """
    if isinstance(simulator, Simulator):
        return simulator
    if isinstance(simulator, str):
        return get_simulator(simulator)
    if not callable(simulator):
        raise ValueError(f"simulator must be a registered name {sorted(SIMULATORS)}, a Simulator or a callable "
                         f"scenario -> TransferResult (or dict row), got {simulator!r}")
    for key, target in SIMULATORS.items():
        module_name, _, attribute = target.partition(":")
        if getattr(sys.modules.get(module_name), attribute, None) is simulator:
            return get_simulator(key)
    if isinstance(simulator, functools.partial):
        base = as_simulator(simulator.func)
        bound = repr((simulator.args, sorted(simulator.keywords.items()))).encode()
        return Simulator(name=base.name, run=simulator,
                         code_version=hashlib.sha256(base.code_version.encode() + b"\0" + bound).hexdigest()[:16])
    fn = simulator
    is_function = isinstance(fn, (types.FunctionType, types.BuiltinFunctionType, types.MethodType))
    owner = fn if is_function else type(fn)
    module_name = getattr(owner, "__module__", None) or "__main__"
    qualname = getattr(owner, "__qualname__", None) or type(fn).__name__
    name = f"{module_name}.{qualname}"
    version = getattr(fn, "CODE_VERSION", None)  # declared on the callable itself: taken as it is
    if not version:
        own, parts = None, module_name.split(".")
        while not own and parts:  # the module's, else its package's CODE_VERSION
            own = getattr(sys.modules.get(".".join(parts)), "CODE_VERSION", None)
            parts.pop()
        source_file = None
        with contextlib.suppress(TypeError, OSError):
            source_file = inspect.getsourcefile(owner)
        if source_file and Path(source_file).is_file() and module_name != "__main__":
            try:
                closure = closure_version(module_name)
            except ValueError:  # not importable by name (e.g. loaded from a path): start from its file
                closure = closure_version(module_name, file=source_file)
            version = f"{own}+{closure}" if own else closure
        elif own:
            version = own
        else:
            try:
                blob = inspect.getsource(owner).encode()
            except (TypeError, OSError):
                code = getattr(getattr(owner, "__func__", owner), "__code__", None)  # no source: the bytecode
                if code is None:
                    raise ValueError(f"cannot determine a code version for simulator {name}; wrap it as "
                                     f"Simulator(name, run, code_version=...)") from None
                blob = marshal.dumps(code)
            version = hashlib.sha256(blob).hexdigest()[:16]
        if not is_function:
            with contextlib.suppress(Exception):  # an object's parameters are part of what it computes
                state = pickle.dumps(fn, protocol=4)
                version = hashlib.sha256(str(version).encode() + b"\0" + state).hexdigest()[:16]
    return Simulator(name=name, run=fn, code_version=str(version))

