"""Sweeps: run one simulator over many scenarios × seeds, in parallel, with an on-disk result cache.

Every comparison of the book is "same :class:`~cmtlab.scenario.StripedScenario`, two simulators"
(Song et al., sec. 5: the ns-3 simulations of Fig. 5 against the model).  A figure needs
hundreds of such transfers; :func:`run_sweep` runs them and returns one table::

    from cmtlab.sweep import run_sweep
    table = run_sweep("cmtlab", [({"group": g, "ada_ms": a}, sc) for g, a, sc in cases],
                      seeds=range(5))

* **Simulators.**  A simulator is a picklable callable ``scenario -> TransferResult`` with a
  name and a code-version string (:class:`Simulator`).  ``"cmtlab"`` and ``"ns-3"`` resolve
  lazily to :func:`cmtlab.sim.run` and :func:`cmtlab.ns3.run` and their ``CODE_VERSION``
  (nothing is imported before a sweep asks for it); any other callable works too
  (:func:`as_simulator`).
* **Parallelism.**  Local cores by default (a process pool whose workers are kept and reused
  by later sweeps of the same session, so ns-3's ~10 s import is paid once per worker);
  ``workers=1`` runs in-process.  With a Dask scheduler address (``dask_scheduler=`` or the
  environment variable ``CMTLAB_DASK_SCHEDULER``) the same tasks go to a Dask cluster instead.
* **Cache.**  One JSON file per result, keyed by SHA-256 of (simulator name, simulator code
  version, :meth:`StripedScenario.key`) (:class:`ResultCache`).  A re-built book does not
  re-simulate; a changed scenario field or simulator source does.  Entries are written by the
  process that collects the results (the notebook's), atomically (temporary file + rename), so
  neither parallel sweeps nor an interrupted run leave a corrupt entry, and a Dask cluster
  needs no shared file system.  Kept worker processes that imported a registered simulator
  before its source changed are detected and replaced (:class:`StaleSimulatorError`), so no
  result enters the cache under a code version other than the one that computed it.
* **Determinism.**  Rows come in input order (scenario by scenario, seeds in the order given)
  whatever the number of workers or the order in which runs finish; each run is seeded by its
  scenario's ``seed`` field, so the table is the same for ``workers=1``, ``workers=8`` and Dask.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import hashlib
import importlib
import importlib.util
import inspect
import json
import marshal
import math
import numbers
import os
import pickle
import re
import sys
import tempfile
import traceback
import types
import uuid
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

import numpy as np
import pandas as pd

from .scenario import StripedScenario, TransferResult

__all__ = [
    "Simulator", "SIMULATORS", "get_simulator", "as_simulator", "code_version", "ResultCache",
    "SimulationError", "StaleSimulatorError", "run_sweep", "default_cache_dir", "resolve_cache_dir", "shutdown_workers",
    "CACHE_DIR_ENV", "DASK_SCHEDULER_ENV",
]

#: Environment variable naming the result-cache directory (overridden by ``cache_dir=``).
CACHE_DIR_ENV = "CMTLAB_CACHE_DIR"
#: Environment variable with a Dask scheduler address, e.g. ``tcp://host:8786``.
DASK_SCHEDULER_ENV = "CMTLAB_DASK_SCHEDULER"
#: Version of the cache-entry layout; bumping it invalidates every entry.
CACHE_FORMAT = 1

#: Registered simulators: name → ``"module:function"``.  The module's ``CODE_VERSION`` is the
#: simulator's code version (if it has none, a hash of the module's source files).
SIMULATORS: dict[str, str] = {
    "cmtlab": "cmtlab.sim:run",
    "ns-3": "cmtlab.ns3:run",
    "papers-sim": "cmtlab.papers_sim:run",
}
_ALIASES = {"sim": "cmtlab", "cmtlab.sim": "cmtlab", "ns3": "ns-3", "cmtlab.ns3": "ns-3",
            "papers_sim": "papers-sim", "cmtlab.papers_sim": "papers-sim"}


# ---------------------------------------------------------------------------------------- code versions

def code_version(*sources, extra=()) -> str:
    """A short, machine-independent hash of source files: the ``CODE_VERSION`` of a simulator.

    Each source is a module object (a package means all its ``*.py`` files, recursively), a
    dotted module name (found without importing the module itself), a file, or a directory
    (its ``*.py`` files, recursively; ``__pycache__`` and hidden folders skipped).  Files are
    hashed with their path relative to the source's own folder, so moving the checkout does
    not change the version but renaming or editing a file does.  ``extra`` strings (e.g. the
    version of an external package, ``f"ns3=={ns.__version__}"``) are mixed in.

    A simulator package would write::

        CODE_VERSION = code_version(Path(__file__).parent, cmtlab.scenario)
    """
    if not sources:
        raise ValueError("code_version needs at least one source (a module, module name, file or directory)")
    if isinstance(extra, str):
        extra = (extra,)
    h = hashlib.sha256(b"cmtlab-code-version-1\0")
    for source in sources:
        for label, path in _source_files(source):
            data = path.read_bytes()
            h.update(f"{label}\0{len(data)}\0".encode())
            h.update(data)
    for item in extra:
        if not isinstance(item, str):
            raise ValueError(f"extra must contain strings, got {item!r}")
        h.update(f"extra\0{item}\0".encode())
    return h.hexdigest()[:16]


def _python_files(directory: Path) -> list[tuple[str, Path]]:
    out = []
    for path in sorted(directory.rglob("*.py")):
        rel = path.relative_to(directory)
        if any(part == "__pycache__" or part.startswith(".") for part in rel.parts[:-1]):
            continue
        out.append((f"{directory.name}/{rel.as_posix()}", path))
    return out


def _source_files(source) -> list[tuple[str, Path]]:
    if isinstance(source, types.ModuleType):
        locations = getattr(source, "__path__", None)
        origin = getattr(source, "__file__", None)
        name = source.__name__
    elif isinstance(source, (str, os.PathLike)) and Path(source).exists():
        path = Path(source)
        return _python_files(path) if path.is_dir() else [(path.name, path)]
    elif isinstance(source, str) and re.fullmatch(r"[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)*", source):
        try:
            spec = importlib.util.find_spec(source)
        except (ImportError, ValueError) as exc:
            raise ValueError(f"code_version source {source!r} is neither a path nor an importable module") from exc
        if spec is None:
            raise ValueError(f"code_version source {source!r} is neither a path nor an importable module")
        locations, origin, name = spec.submodule_search_locations, spec.origin, source
    else:
        raise ValueError(f"code_version source must be a module, a module name, a file or a directory, "
                         f"got {source!r}")
    if locations:
        files = [f for loc in locations for f in _python_files(Path(loc))]
    elif origin and Path(origin).is_file():
        files = [(Path(origin).name, Path(origin))]
    else:
        files = []
    if not files:
        raise ValueError(f"code_version source {name!r} has no source files to hash")
    return files


# ---------------------------------------------------------------------------------------- simulators

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


class StaleSimulatorError(RuntimeError):
    """A process holds other simulator code than the sweep's code version says (the source
    changed after that process imported it); its results must not enter the cache."""


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


# ---------------------------------------------------------------------------------------- errors

class SimulationError(RuntimeError):
    """A simulator failed on one scenario (it raised, or returned something else than a
    :class:`TransferResult` for that scenario).

    Attributes: ``simulator`` (name), ``scenario`` (the :class:`StripedScenario`, seed
    applied), ``position`` (index of the scenario in the sweep's input, when known),
    ``labels``, ``error_type`` (class name of the original exception) and ``worker_traceback``
    (the traceback text in the process that ran it).
    """

    simulator: str | None = None
    scenario: StripedScenario | None = None
    task_id: int | None = None
    position: int | None = None
    labels: dict | None = None
    error_type: str | None = None
    worker_traceback: str | None = None


def _simulation_error(message: str, **attributes) -> SimulationError:
    err = SimulationError(message)
    for k, v in attributes.items():  # instance attributes travel with pickle (BaseException.__reduce__)
        setattr(err, k, v)
    return err


# ---------------------------------------------------------------------------------------- result rows

def _json_default(value):
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError(f"value {value!r} of type {type(value).__name__} cannot be stored in a result row")


def _normalise_row(row: dict) -> dict:
    """The row as it reads back from the cache (plain Python scalars), so fresh = cached."""
    return json.loads(json.dumps(row, default=_json_default, allow_nan=True))


def _run_one(simulator: Simulator, scenario: StripedScenario) -> dict:
    try:
        result = simulator(scenario)
        if not isinstance(result, TransferResult):
            raise TypeError(f"simulator returned {type(result).__name__}, expected TransferResult")
        if result.scenario is not scenario and result.scenario.key() != scenario.key():
            raise ValueError("simulator returned a TransferResult for a different scenario")
        return _normalise_row(result.to_row())
    except Exception as exc:
        raise _simulation_error(f"{type(exc).__name__}: {exc}", simulator=simulator.name, scenario=scenario,
                                error_type=type(exc).__name__, worker_traceback=traceback.format_exc()) from exc


def _run_chunk(simulator: Simulator, chunk: list[tuple[int, StripedScenario]]) -> list[tuple[int, dict]]:
    """Worker task: run a few scenarios, return ``(task id, row)`` pairs."""
    _check_loaded_code(simulator)
    out = []
    for tid, sc in chunk:
        try:
            out.append((tid, _run_one(simulator, sc)))
        except SimulationError as err:
            err.task_id = tid
            raise
    return out


# ---------------------------------------------------------------------------------------- cache

def default_cache_dir() -> Path:
    """Per-user default: ``$XDG_CACHE_HOME/cmtlab/sweeps`` (``~/.cache/cmtlab/sweeps``)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "cmtlab" / "sweeps"


def resolve_cache_dir(cache_dir=None) -> Path:
    """``cache_dir`` if given, else ``$CMTLAB_CACHE_DIR``, else :func:`default_cache_dir`."""
    if cache_dir is not None:
        if not isinstance(cache_dir, (str, os.PathLike)) or not str(cache_dir):
            raise ValueError(f"cache_dir must be a non-empty path, got {cache_dir!r}")
        return Path(cache_dir).expanduser()
    env = os.environ.get(CACHE_DIR_ENV, "").strip()
    return Path(env).expanduser() if env else default_cache_dir()


class ResultCache:
    """One JSON file per (simulator name, code version, scenario): ``<dir>/<name>/<kk>/<key>.json``.

    The file holds the key's ingredients (for inspection), the scenario as a dict and the
    result row.  Writes go to a temporary file in the same folder that is then renamed over
    the entry (atomic on POSIX and Windows), so a reader sees either nothing or a complete
    entry; an unreadable or foreign file is treated as a miss and overwritten.
    """

    def __init__(self, directory):
        self.directory = Path(directory)

    @staticmethod
    def key(simulator: Simulator, scenario: StripedScenario) -> str:
        blob = json.dumps({"format": CACHE_FORMAT, "simulator": simulator.name,
                           "code_version": simulator.code_version, "scenario": scenario.key()},
                          sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()

    def path(self, simulator: Simulator, scenario: StripedScenario) -> Path:
        key = self.key(simulator, scenario)
        folder = re.sub(r"[^A-Za-z0-9._-]", "_", simulator.name)
        return self.directory / folder / key[:2] / f"{key}.json"

    def load(self, simulator: Simulator, scenario: StripedScenario) -> dict | None:
        """The cached row, or ``None`` (missing, unreadable or not this key)."""
        path = self.path(simulator, scenario)
        try:
            entry = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if (not isinstance(entry, dict) or entry.get("format") != CACHE_FORMAT or entry.get("key") != path.stem
                or not isinstance(entry.get("row"), dict)):
            return None
        return entry["row"]

    def store(self, simulator: Simulator, scenario: StripedScenario, row: dict) -> Path:
        path = self.path(simulator, scenario)
        entry = {"format": CACHE_FORMAT, "key": path.stem, "simulator": simulator.name,
                 "code_version": simulator.code_version, "scenario_key": scenario.key(),
                 "scenario": scenario.to_dict(), "row": row}
        text = json.dumps(entry, default=_json_default, allow_nan=True, indent=1)  # row keys keep their order
        _write_atomic(path, text)
        return path


def _write_atomic(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem[:16]}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


# ---------------------------------------------------------------------------------------- local pool

_POOL = None  # (key, executor): kept between sweeps so worker processes (and their imports) are reused


def _local_pool(workers: int, start_method: str):
    global _POOL
    from concurrent.futures import ProcessPoolExecutor
    import multiprocessing

    key = (workers, start_method)
    if _POOL is not None:
        old_key, pool = _POOL
        if old_key == key and not getattr(pool, "_broken", False) and not getattr(pool, "_shutdown_thread", False):
            return pool
        shutdown_workers()
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context(start_method),
                               initializer=_worker_init)
    _POOL = (key, pool)
    return pool


def _worker_init() -> None:
    """Worker processes ignore SIGINT: a Ctrl-C (or a Jupyter kernel shutting down) reaches the
    parent, which stops the pool (:func:`shutdown_workers`), instead of printing one traceback per
    idle worker."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def shutdown_workers(*, kill: bool = False) -> None:
    """Stop the worker processes kept between sweeps (``kill=True``: without waiting for running tasks)."""
    global _POOL
    if _POOL is None:
        return
    _, pool = _POOL
    _POOL = None
    if kill:
        for proc in list((getattr(pool, "_processes", None) or {}).values()):
            with contextlib.suppress(Exception):
                proc.terminate()
    pool.shutdown(wait=not kill, cancel_futures=True)


def _default_workers() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _chunks(items: list, n_slots: int, chunksize: int | None) -> list[list]:
    if chunksize is None:  # ~8 chunks per worker for load balance, at most 32 runs per progress step
        chunksize = max(1, min(32, len(items) // (8 * n_slots)))
    return [items[i:i + chunksize] for i in range(0, len(items), chunksize)]


# ---------------------------------------------------------------------------------------- input parsing

def _scenario_types() -> tuple:
    """Scenario classes a sweep accepts: :class:`StripedScenario` and :class:`cmtlab.sim.multipath.MptcpScenario`."""
    from .papers_sim.model import PapersSimScenario
    from .sim.multipath import MptcpScenario
    return (StripedScenario, MptcpScenario, PapersSimScenario)


def _parse_scenarios(scenarios) -> list[tuple[dict, StripedScenario]]:
    types = _scenario_types()
    if isinstance(scenarios, types):
        raise ValueError("scenarios must be a sequence of scenarios (wrap a single one in a list)")
    if isinstance(scenarios, pd.DataFrame):
        if "scenario" not in scenarios.columns:
            raise ValueError(f"scenarios given as a DataFrame need a 'scenario' column (the other columns are "
                             f"labels), got columns {list(scenarios.columns)}")
        label_cols = [c for c in scenarios.columns if c != "scenario"]
        items = [(dict(zip(label_cols, labels)), sc) for *labels, sc in
                 zip(*(scenarios[c].tolist() for c in label_cols), scenarios["scenario"].tolist())]
    elif isinstance(scenarios, (str, bytes, Mapping)) or not isinstance(scenarios, Iterable):
        raise ValueError(f"scenarios must be a sequence of StripedScenario, of (labels dict, StripedScenario) "
                         f"pairs, or a DataFrame with a 'scenario' column, got {type(scenarios).__name__}")
    else:
        items = []
        for i, item in enumerate(scenarios):
            if isinstance(item, types):
                items.append(({}, item))
            elif isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], Mapping):
                items.append((dict(item[0]), item[1]))
            else:
                raise ValueError(f"scenarios[{i}] must be a StripedScenario or a (labels dict, StripedScenario) "
                                 f"pair, got {item!r:.200}")
    for i, (labels, sc) in enumerate(items):
        if not isinstance(sc, types):
            raise ValueError(f"scenarios[{i}]: the scenario must be a StripedScenario or an MptcpScenario, "
                             f"got {sc!r:.200}")
        for name in labels:
            if not isinstance(name, str):
                raise ValueError(f"scenarios[{i}]: label names must be strings, got {name!r}")
    return items


def _parse_seeds(seeds) -> list[int] | None:
    if seeds is None:
        return None
    if isinstance(seeds, (numbers.Number, str, bytes)) or not isinstance(seeds, Iterable):
        raise ValueError(f"seeds must be None or a sequence of non-negative integers (e.g. range(5)), got {seeds!r}")
    out = []
    for s in seeds:
        if isinstance(s, (bool, np.bool_)) or not isinstance(s, numbers.Integral) or s < 0:
            raise ValueError(f"seeds must be non-negative integers, got {s!r}")
        out.append(int(s))
    if not out:
        raise ValueError("seeds must contain at least one seed (or be None for each scenario's own seed)")
    if len(set(out)) != len(out):
        raise ValueError(f"seeds must be distinct, got {out}")
    return out


def _same_value(a, b) -> bool:
    try:
        if a == b:
            return True
    except Exception:  # e.g. arrays
        return False
    return (isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b))


# ---------------------------------------------------------------------------------------- the sweep

def run_sweep(simulator, scenarios, *, seeds=None, workers: int | None = None, cache=True, cache_dir=None,
              progress: bool = True, dask_scheduler=None, chunksize: int | None = None,
              start_method: str = "spawn") -> pd.DataFrame:
    """Run ``simulator`` on every scenario (× every seed) and return one row per run.

    Parameters
    ----------
    simulator
        ``"cmtlab"`` (:func:`cmtlab.sim.run`), ``"ns-3"`` (:func:`cmtlab.ns3.run`), a
        :class:`Simulator`, or any callable ``scenario -> TransferResult`` (:func:`as_simulator`).
    scenarios
        A sequence of :class:`StripedScenario`, or of ``(labels, scenario)`` pairs where
        ``labels`` is a dict of columns to keep next to the results (``{"group": "Fig. 8",
        "ada_ms": 20}``), or a DataFrame with a ``scenario`` column whose other columns are the
        labels.  A label may share its name with a result column (``n_links``) only if the
        values agree (else ``ValueError``).
    seeds
        ``None``: run each scenario once with its own ``seed`` field.  Otherwise a sequence of
        distinct non-negative integers: each scenario runs once per seed, as
        ``scenario.replace(seed=s)``.
    workers
        Worker processes on this machine (default: the usable cores).  ``1`` runs in this
        process (for debugging; the simulator need not be picklable).  The pool is kept for
        later sweeps with the same ``workers`` (see :func:`shutdown_workers`).  Ignored on the
        Dask path, where the cluster's size decides.
    cache
        ``True``: reuse cached results and store new ones; ``"refresh"``: recompute everything
        and overwrite the cache; ``False``: neither read nor write.
    cache_dir
        Cache folder; default ``$CMTLAB_CACHE_DIR``, else ``~/.cache/cmtlab/sweeps``.
    progress
        Show a tqdm progress bar (cached results count as done at once).
    dask_scheduler
        Address of a Dask scheduler (``"tcp://host:8786"``) or a ``distributed.Client``; when
        ``None``, ``$CMTLAB_DASK_SCHEDULER`` if set.  Pass ``False`` to force local workers.
        The cluster's workers need ``cmtlab`` (and the simulator's dependencies) installed;
        results come back here and are cached here.
    chunksize
        Runs per task sent to a worker (default: about eight tasks per worker, at most 32
        runs each).
    start_method
        ``multiprocessing`` start method of the local pool (``"spawn"``: the same on every
        platform and safe in a threaded Jupyter kernel; ``"fork"`` also accepts simulators
        defined in a notebook).

    Returns
    -------
    DataFrame
        The label columns, then the columns of :meth:`TransferResult.to_row` (``simulator``,
        ``seed``, ``completion_time_s``, ``throughput_bps`` in bit/s, ..., ``scenario_key``),
        one row per (scenario, seed) in input order.  ``df.attrs["sweep"]`` records the
        simulator's code version, the cache folder, how many distinct runs were cached and
        simulated, and where they ran (``executor``).

    Raises
    ------
    ValueError
        Invalid arguments (the message names the parameter).
    SimulationError
        The simulator failed on a scenario; the message gives the scenario's position,
        seed, labels and key, and the original error.  Results finished before the failure
        are already cached, so a re-run resumes where it stopped.
    """
    sim = as_simulator(simulator)
    items = _parse_scenarios(scenarios)
    seed_list = _parse_seeds(seeds)
    if workers is None:
        n_workers = _default_workers()
    else:
        if isinstance(workers, bool) or not isinstance(workers, numbers.Integral) or workers < 1:
            raise ValueError(f"workers must be an integer >= 1 (1 runs in this process), got {workers!r}")
        n_workers = int(workers)
    if isinstance(cache, (bool, np.bool_)):
        cache = bool(cache)
    elif not (isinstance(cache, str) and cache == "refresh"):
        raise ValueError(f"cache must be True, False or 'refresh', got {cache!r}")
    if not isinstance(progress, (bool, np.bool_)):
        raise ValueError(f"progress must be True or False, got {progress!r}")
    if chunksize is not None and (isinstance(chunksize, bool) or not isinstance(chunksize, numbers.Integral)
                                  or chunksize < 1):
        raise ValueError(f"chunksize must be None or an integer >= 1, got {chunksize!r}")
    import multiprocessing
    if start_method not in multiprocessing.get_all_start_methods():
        raise ValueError(f"start_method must be one of {multiprocessing.get_all_start_methods()}, "
                         f"got {start_method!r}")
    if dask_scheduler is None:
        dask_scheduler = os.environ.get(DASK_SCHEDULER_ENV, "").strip() or None
    elif dask_scheduler is False:
        dask_scheduler = None
    elif isinstance(dask_scheduler, str):
        if not dask_scheduler.strip():
            raise ValueError("dask_scheduler must be a scheduler address like 'tcp://host:8786', got ''")
        dask_scheduler = dask_scheduler.strip()
    elif not (hasattr(dask_scheduler, "submit") and hasattr(dask_scheduler, "nthreads")):
        raise ValueError(f"dask_scheduler must be an address like 'tcp://host:8786', a distributed.Client, "
                         f"None or False, got {dask_scheduler!r}")
    store = ResultCache(resolve_cache_dir(cache_dir)) if cache is not False else None

    # One entry per input row; identical runs (same scenario and seed) are simulated once.
    entries = []  # (position, labels, task id)
    tasks: list[StripedScenario] = []
    task_ids: dict[str, int] = {}
    for pos, (labels, sc) in enumerate(items):
        for s in (seed_list if seed_list is not None else [None]):
            run = sc if s is None or s == sc.seed else sc.replace(seed=s)
            k = run.key()
            if k not in task_ids:
                task_ids[k] = len(tasks)
                tasks.append(run)
            entries.append((pos, labels, task_ids[k]))

    rows: list[dict | None] = [None] * len(tasks)
    if store is not None and cache != "refresh":
        for tid, run in enumerate(tasks):
            rows[tid] = store.load(sim, run)
    todo = [(tid, run) for tid, run in enumerate(tasks) if rows[tid] is None]
    n_cached = len(tasks) - len(todo)

    def failure(err: SimulationError) -> SimulationError:
        # name the input row(s) behind the failed run
        failed = getattr(err, "task_id", None)
        where = [(pos, labels) for pos, labels, tid in entries if tid == failed]
        pos, labels = where[0] if where else (None, None)
        sc = err.scenario
        msg = (f"simulator {sim.name!r} failed on scenarios[{pos}]"
               + (f" (labels {labels})" if labels else "")
               + (f", seed {sc.seed}, scenario key {sc.key()[:12]}: {err}\n  scenario: {sc!r}" if sc is not None
                  else f": {err}"))
        return _simulation_error(msg, simulator=sim.name, scenario=sc, position=pos, labels=labels,
                                 error_type=err.error_type, worker_traceback=err.worker_traceback)

    def collect(tid: int, row: dict) -> None:
        rows[tid] = row
        if store is not None:
            store.store(sim, tasks[tid], row)

    bar = _progress_bar(len(tasks), f"{sim.name} sweep") if progress and tasks else None
    if bar is not None:
        if n_cached:
            bar.update(n_cached)
            bar.set_postfix(cached=n_cached)

    if not todo:
        executor = "cache"
    elif dask_scheduler is not None:
        executor = f"dask {dask_scheduler if isinstance(dask_scheduler, str) else dask_scheduler.scheduler.address}"
    elif n_workers == 1:
        executor = "in-process"
    else:
        executor = f"{n_workers} local worker processes ({start_method})"
    try:
        if not todo:
            pass
        elif dask_scheduler is not None:
            _run_dask(sim, todo, dask_scheduler, chunksize, collect, bar, failure)
        elif n_workers == 1:
            for tid, run in todo:
                try:
                    ((_, row),) = _run_chunk(sim, [(tid, run)])
                except SimulationError as err:
                    raise failure(err) from err
                except StaleSimulatorError as exc:
                    raise StaleSimulatorError(f"{exc}.  Restart this session (or importlib.reload the "
                                              f"simulator's module) so that it runs the current source") from None
                collect(tid, row)
                if bar is not None:
                    bar.update(1)
        else:
            _run_local_pool(sim, todo, n_workers, start_method, chunksize, collect, bar, failure)
    finally:
        if bar is not None:
            bar.close()

    # Assemble: label columns first, then result columns, in first-seen order.
    out, label_cols, result_cols = [], {}, {}
    for pos, labels, tid in entries:
        row = rows[tid]
        for name, value in labels.items():
            if name in row and not _same_value(value, row[name]):
                raise ValueError(f"scenarios[{pos}]: label {name!r} = {value!r} disagrees with the result column "
                                 f"of the same name ({row[name]!r}); rename the label")
            label_cols.setdefault(name, None)
        for name in row:
            if name not in labels:
                result_cols.setdefault(name, None)
        out.append({**row, **labels})
    table = pd.DataFrame(out, columns=[*label_cols, *(c for c in result_cols if c not in label_cols)])
    table.attrs["sweep"] = {"simulator": sim.name, "code_version": sim.code_version,
                            "cache_dir": str(store.directory) if store is not None else None,
                            "runs": len(tasks), "cached": n_cached, "simulated": len(todo), "executor": executor}
    return table


def _progress_bar(total: int, desc: str):
    """A text bar on stderr via :mod:`cmtlab.progress` (honours ``CMTLAB_PROGRESS=0``)."""
    try:
        from .progress import progress as shared_bar
    except ImportError:  # pragma: no cover - older checkouts without cmtlab.progress
        from tqdm.std import tqdm
        return tqdm(total=total, desc=desc, unit="run", file=sys.stderr, dynamic_ncols=True)
    return shared_bar(total=total, desc=desc, unit="run")


def _check_picklable(sim: Simulator, where: str) -> None:
    run = sim.run
    if not isinstance(run, str) and getattr(run, "__module__", None) == "__main__" and where == "spawn":
        main = sys.modules.get("__main__")
        if not getattr(main, "__file__", None):
            raise ValueError(f"simulator {sim.name} is defined in an interactive session (__main__) and cannot be "
                             f"sent to spawned worker processes; move it into a module, or pass workers=1 "
                             f"(or start_method='fork')")
    try:
        pickle.dumps(sim)
    except Exception as exc:
        raise ValueError(f"simulator {sim.name} cannot be pickled for worker processes ({exc}); use a module-level "
                         f"function, a 'module:function' string, or workers=1") from exc


def _run_local_pool(sim, todo, n_workers, start_method, chunksize, collect, bar, failure):
    _check_picklable(sim, start_method)
    finished: set[int] = set()

    def collect_here(tid, row):
        finished.add(tid)
        collect(tid, row)

    try:
        _drain_pool(sim, todo, n_workers, start_method, chunksize, collect_here, bar, failure)
    except StaleSimulatorError:
        # Kept workers imported the simulator before its source changed: start fresh ones, once.
        shutdown_workers(kill=True)
        remaining = [(tid, run) for tid, run in todo if tid not in finished]
        try:
            _drain_pool(sim, remaining, n_workers, start_method, chunksize, collect_here, bar, failure)
        except StaleSimulatorError as exc:
            shutdown_workers(kill=True)
            raise StaleSimulatorError(
                f"{exc}.  Fresh worker processes import the source as it is on disk now, so this session holds "
                f"an older version: restart it (or importlib.reload the simulator's module)") from None


def _drain_pool(sim, todo, n_workers, start_method, chunksize, collect, bar, failure):
    from concurrent.futures import FIRST_COMPLETED, wait
    from concurrent.futures.process import BrokenProcessPool

    pool = _local_pool(n_workers, start_method)
    chunks = _chunks(todo, n_workers, chunksize)
    futures = {pool.submit(_run_chunk, sim, chunk): chunk for chunk in chunks}
    pending = set(futures)
    try:
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                try:
                    results = fut.result()
                except SimulationError as err:
                    raise failure(err) from err
                except BrokenProcessPool as exc:
                    chunk = futures[fut]
                    raise _simulation_error(
                        f"a worker process of simulator {sim.name!r} died (crash or out of memory) while running "
                        f"one of {len(chunk)} scenario(s), first: {chunk[0][1]!r}", simulator=sim.name,
                        scenario=chunk[0][1]) from exc
                for tid, row in results:
                    collect(tid, row)
                if bar is not None:
                    bar.update(len(results))
    except BaseException as exc:
        for fut in pending:
            fut.cancel()
        if isinstance(exc, (KeyboardInterrupt, BrokenProcessPool)) or (
                isinstance(exc, SimulationError) and isinstance(exc.__cause__, BrokenProcessPool)):
            shutdown_workers(kill=True)  # do not leave long runs behind in the kept pool
        raise


def _run_dask(sim, todo, dask_scheduler, chunksize, collect, bar, failure):
    try:
        import distributed
    except ImportError as exc:
        raise ImportError("a Dask scheduler is configured (dask_scheduler= or $CMTLAB_DASK_SCHEDULER) but the "
                          "'distributed' package is not installed: pip install 'dask[distributed]'") from exc
    own_client = isinstance(dask_scheduler, str)
    client = distributed.Client(dask_scheduler, set_as_default=False) if own_client else dask_scheduler
    try:
        n_slots = max(1, sum(client.nthreads().values()))
        chunks = _chunks(todo, n_slots, chunksize)
        token = uuid.uuid4().hex[:8]
        futures = [client.submit(_run_chunk, sim, chunk, pure=False,
                                 key=f"cmtlab-sweep-{re.sub(r'[^A-Za-z0-9_.-]', '_', sim.name)}-{token}-{i}")
                   for i, chunk in enumerate(chunks)]
        try:
            for fut in distributed.as_completed(futures, loop=client.loop):
                try:
                    results = fut.result()
                except SimulationError as err:
                    raise failure(err) from err
                except StaleSimulatorError as exc:
                    raise StaleSimulatorError(f"{exc}.  Restart the cluster's workers (client.restart()) so "
                                              f"they import the current source") from None
                for tid, row in results:
                    collect(tid, row)
                if bar is not None:
                    bar.update(len(results))
        except BaseException:
            client.cancel(futures)
            raise
    finally:
        if own_client:
            client.close()
