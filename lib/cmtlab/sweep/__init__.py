"""Sweeps: run one simulator over many scenarios × seeds, in parallel, with an on-disk result cache.

Every comparison of the book is "same scenario, two simulators"
(Song et al., sec. 5: the ns-3 simulations of Fig. 5 against the model).  A figure needs
hundreds of such transfers; :func:`run_sweep` runs them and returns one table::

    from cmtlab.sweep import run_sweep
    table = run_sweep("cmtlab", [({"group": g, "ada_ms": a}, sc) for g, a, sc in cases],
                      seeds=range(5))

* **Scenarios.**  Any object with ``key()``, ``replace(seed=...)`` and ``seed``
  (:class:`SweepScenario`): a :class:`~cmtlab.scenario.StripedScenario`, an
  :class:`~cmtlab.sim.mptcp.scenario.MptcpScenario`, an :class:`~cmtlab.papers.osia.experiments.OsiaRun`.
* **Simulators** (:mod:`.simulators`).  A simulator is a picklable callable ``scenario ->
  TransferResult`` (or ``-> dict``, one row) with a name and a code-version string
  (:class:`Simulator`).  ``"cmtlab"`` and ``"ns-3"`` resolve lazily to :func:`cmtlab.sim.run`
  and :func:`cmtlab.ns3.run` (nothing is imported before a sweep asks for it);
  :func:`register_simulator` adds a name; any other callable works too (:func:`as_simulator`).
* **Code versions** (:mod:`.versions`).  A simulator's version hashes its whole import closure
  (:func:`import_closure`: every module it can import within ``cmtlab``, found by following
  the import statements, function-level ones included), so editing any file the simulator
  runs — not only ``cmtlab/sim/`` — invalidates its cached results.
* **Parallelism** (:mod:`.executors`).  Local cores by default (a process pool whose workers
  are kept and reused by later sweeps of the same session, so ns-3's ~10 s import is paid once
  per worker, and which die with the process that started them, even when it is SIGKILLed);
  ``workers=1`` runs in-process.  With a Dask scheduler address (``dask_scheduler=`` or the
  environment variable ``CMTLAB_DASK_SCHEDULER``) the same tasks go to a Dask cluster instead.
* **Cache** (:mod:`.cache`).  One JSON file per result, keyed by SHA-256 of (simulator name,
  code version, the scenario's ``key()``) (:class:`ResultCache`).  A re-built book does not
  re-simulate; a changed scenario field or simulator source does.  An entry is served only if
  it was written for this scenario, is unaltered, holds the columns of the scenario's rows
  (:func:`~cmtlab.sweep.cache.row_fields`: the scenario's schema, never the entry's) and no
  impossible value (:func:`check_row`: goodput above capacity, a negative counter, times that
  contradict each other); otherwise the run is recomputed with a :class:`CacheEntryWarning`.
  The cache can only miss: whatever is at an entry's path (random or non-UTF-8 bytes, JSON
  nested too deeply, a huge file, a FIFO or a directory) is a warned miss, read without blocking.
  Entries are written by the process that collects the results (the notebook's), atomically
  (temporary file + rename), so neither parallel sweeps nor an interrupted run leave a corrupt
  entry, and a Dask cluster needs no shared file system; a write that fails warns and keeps
  the result.  Kept worker processes that imported a registered simulator before its source
  changed are detected and replaced (:class:`StaleSimulatorError`), so no result enters the
  cache under a code version other than the one that computed it.
* **Determinism.**  Rows come in input order (scenario by scenario, seeds in the order given)
  whatever the number of workers or the order in which runs finish; each run is seeded by its
  scenario's ``seed`` field, so the table is the same for ``workers=1``, ``workers=8`` and Dask.
"""

from __future__ import annotations

from .api import SweepScenario, run_sweep
from .cache import (CACHE_DIR_ENV, CACHE_FORMAT, CacheEntryWarning, ResultCache, check_row, default_cache_dir,
                    resolve_cache_dir, scenario_capacity_bps)
from .errors import SimulationError, StaleSimulatorError
from .executors import DASK_SCHEDULER_ENV, shutdown_workers
from .simulators import SIMULATORS, Simulator, as_simulator, get_simulator, module_version, register_simulator
from .versions import closure_version, code_version, import_closure

__all__ = [
    "Simulator", "SIMULATORS", "get_simulator", "as_simulator", "code_version", "ResultCache",
    "SimulationError", "StaleSimulatorError", "run_sweep", "default_cache_dir", "resolve_cache_dir", "shutdown_workers",
    "CACHE_DIR_ENV", "CACHE_FORMAT", "DASK_SCHEDULER_ENV", "register_simulator", "module_version",
    "SweepScenario", "closure_version", "import_closure", "CacheEntryWarning", "check_row", "scenario_capacity_bps",
]
