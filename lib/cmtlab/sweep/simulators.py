"""Simulators as a sweep sees them: a name, a callable ``scenario -> TransferResult`` and a code version."""

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

from ..scenario import StripedScenario, TransferResult
from .errors import StaleSimulatorError
from .versions import code_version

__all__ = ["Simulator", "SIMULATORS", "get_simulator", "as_simulator"]

#: Registered simulators: name → ``"module:function"``.  The module's ``CODE_VERSION`` is the
#: simulator's code version (if it has none, a hash of the module's source files).
SIMULATORS: dict[str, str] = {
    "cmtlab": "cmtlab.sim:run",
    "ns-3": "cmtlab.ns3:run",
}
_ALIASES = {"sim": "cmtlab", "cmtlab.sim": "cmtlab", "ns3": "ns-3", "cmtlab.ns3": "ns-3"}


def _resolve_target(target: str) -> Callable:
    module, _, attribute = target.partition(":")
    return getattr(importlib.import_module(module), attribute)  # sys.modules lookup after the first import


_FIRST_SEEN_VERSIONS: dict[str, tuple[types.ModuleType, str]] = {}


def _loaded_version(module: types.ModuleType) -> str:
    """Code version of ``module`` as this process loaded it: its ``CODE_VERSION`` (read live, so
    ``importlib.reload`` counts), else a hash of its source files taken when first seen here."""
    version = getattr(module, "CODE_VERSION", None)
    if version:
        return str(version)
    seen = _FIRST_SEEN_VERSIONS.get(module.__name__)
    if seen is None or seen[0] is not module:
        seen = _FIRST_SEEN_VERSIONS[module.__name__] = (module, code_version(module))
    return seen[1]


def _check_loaded_code(simulator: "Simulator") -> None:
    if not (simulator.verify_loaded_code and isinstance(simulator.run, str)):
        return
    module = importlib.import_module(simulator.run.partition(":")[0])
    loaded = _loaded_version(module)
    if loaded != simulator.code_version:
        raise StaleSimulatorError(
            f"process {os.getpid()} runs {module.__name__} with code version {loaded}, but the sweep expects "
            f"{simulator.code_version}: the source changed after one of the processes imported it")


@dataclasses.dataclass(frozen=True)
class Simulator:
    """A simulator as a sweep sees it: ``name``, the callable ``run(scenario) -> TransferResult``
    and ``code_version`` (part of every cache key: change it and old results are not reused).

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

    def __call__(self, scenario: StripedScenario) -> TransferResult:
        fn = _resolve_target(self.run) if isinstance(self.run, str) else self.run
        return fn(scenario)


def get_simulator(name: str) -> Simulator:
    """The registered simulator ``name`` (``"cmtlab"`` or ``"ns-3"``, see :data:`SIMULATORS`).

    Imports the simulator's module to read its ``CODE_VERSION`` (falling back to a hash of
    its sources); the simulation function itself is imported only where it runs.
    """
    if not isinstance(name, str):
        raise ValueError(f"simulator name must be a string, got {name!r}")
    key = name.strip().lower()
    key = _ALIASES.get(key, key)
    if key not in SIMULATORS:
        raise ValueError(f"simulator must be one of {sorted(SIMULATORS)} (or a callable / Simulator), got {name!r}")
    target = SIMULATORS[key]
    module_name = target.partition(":")[0]
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ImportError(f"simulator {key!r} is not available: importing {module_name} failed ({exc})") from exc
    return Simulator(name=key, run=target, code_version=_loaded_version(module), verify_loaded_code=True)


def as_simulator(simulator) -> Simulator:
    """A :class:`Simulator` from a registered name, a :class:`Simulator`, or any callable.

    A registered simulator's own function (``cmtlab.sim.run``) is that simulator.  For any
    other callable the name is ``module.qualname`` and the code version is, in order, its
    ``CODE_VERSION`` attribute, the ``CODE_VERSION`` of its module or of the nearest package
    above it, or a hash of its module's source file (of its own source text if the file is
    unknown, e.g. a notebook cell; of its bytecode if there is no source at all).  For a
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
                         f"scenario -> TransferResult, got {simulator!r}")
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
    version = getattr(fn, "CODE_VERSION", None)
    parts = module_name.split(".")
    while not version and parts:  # the module's, else its package's CODE_VERSION
        version = getattr(sys.modules.get(".".join(parts)), "CODE_VERSION", None)
        parts.pop()
    if not version:
        source_file = None
        with contextlib.suppress(TypeError, OSError):
            source_file = inspect.getsourcefile(owner)
        if source_file and Path(source_file).is_file() and module_name != "__main__":
            version = code_version(source_file)
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

