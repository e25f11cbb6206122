"""``run_sweep``: one simulator over many scenarios × seeds, one table back."""

from __future__ import annotations

import math
import numbers
import os
import warnings
from collections.abc import Iterable, Mapping
from typing import Protocol, runtime_checkable

import numpy as np
import pandas as pd

from .cache import CacheEntryWarning, ResultCache, resolve_cache_dir
from .errors import SimulationError, StaleSimulatorError, _simulation_error
from .executors import (DASK_SCHEDULER_ENV, _default_workers, _run_chunk, _run_dask, _run_local_pool)
from .simulators import as_simulator

__all__ = ["run_sweep", "SweepScenario"]


@runtime_checkable
class SweepScenario(Protocol):
    """What :func:`run_sweep` needs of a scenario (:class:`~cmtlab.scenario.StripedScenario`,
    :class:`~cmtlab.sim.mptcp.scenario.MptcpScenario`, :class:`~cmtlab.papers.osia.experiments.OsiaRun`, …).

    ``key()`` — a stable string (SHA-256 hex) that changes with every field that changes the
    result (the cache keys on it); ``replace(seed=s)`` — a copy with another seed (the book's scenario
    classes take both from :class:`cmtlab.scenario.KeyedScenario`); ``seed`` —
    the seed of every random stream of the run.  For parallel runs it must be picklable.
    Optional: ``to_dict()`` (stored in the cache entry for inspection), ``transfer_bytes``,
    ``n_links``, ``bandwidths_bps``/``rates_bps`` or ``capacity_bps()``, ``max_sim_time_s``
    (checked against cached rows, :func:`~cmtlab.sweep.cache.check_row`), ``ROW_FIELDS`` (the
    columns every row of it has, :func:`~cmtlab.sweep.cache.row_fields`).
    """

    seed: int

    def key(self) -> str: ...

    def replace(self, **changes) -> "SweepScenario": ...


def _is_scenario(obj) -> bool:
    return isinstance(obj, SweepScenario) and not isinstance(obj, (str, bytes, Mapping, pd.DataFrame, type))


_WHAT = ("a scenario (an object with key(), replace(seed=...) and seed, e.g. a StripedScenario), "
         "a (labels dict, scenario) pair")


def _parse_scenarios(scenarios) -> list[tuple[dict, SweepScenario]]:
    if _is_scenario(scenarios) and not isinstance(scenarios, (list, tuple)):
        raise ValueError("scenarios must be a sequence of scenarios (wrap a single one in a list)")
    if isinstance(scenarios, pd.DataFrame):
        if "scenario" not in scenarios.columns:
            raise ValueError(f"scenarios given as a DataFrame need a 'scenario' column (the other columns are "
                             f"labels), got columns {list(scenarios.columns)}")
        label_cols = [c for c in scenarios.columns if c != "scenario"]
        items = [(dict(zip(label_cols, labels)), sc) for *labels, sc in
                 zip(*(scenarios[c].tolist() for c in label_cols), scenarios["scenario"].tolist())]
    elif isinstance(scenarios, (str, bytes, Mapping)) or not isinstance(scenarios, Iterable):
        raise ValueError(f"scenarios must be a sequence of scenarios (objects with key(), replace(seed=...) and "
                         f"seed, e.g. StripedScenario), of (labels dict, scenario) pairs, or a DataFrame with a "
                         f"'scenario' column, got {type(scenarios).__name__}")
    else:
        items = []
        for i, item in enumerate(scenarios):
            if isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], Mapping):
                items.append((dict(item[0]), item[1]))
            elif _is_scenario(item):
                items.append(({}, item))
            else:
                raise ValueError(f"scenarios[{i}] must be {_WHAT}, got {item!r:.200}")
    for i, (labels, sc) in enumerate(items):
        if not _is_scenario(sc):
            raise ValueError(f"scenarios[{i}]: the scenario must be an object with key(), replace(seed=...) and seed "
                             f"(a StripedScenario, an MptcpScenario, ...), got {sc!r:.200}")
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


def run_sweep(simulator, scenarios, *, seeds=None, workers: int | None = None, cache=True, cache_dir=None,
              progress: bool = True, dask_scheduler=None, chunksize: int | None = None,
              start_method: str = "spawn") -> pd.DataFrame:
    """Run ``simulator`` on every scenario (× every seed) and return one row per run.

    Parameters
    ----------
    simulator
        ``"cmtlab"`` (:func:`cmtlab.sim.run`), ``"ns-3"`` (:func:`cmtlab.ns3.run`), another
        registered name (:func:`~cmtlab.sweep.simulators.register_simulator`), a
        :class:`Simulator`, or any callable ``scenario -> result`` (:func:`as_simulator`).  The
        result is a :class:`~cmtlab.scenario.TransferResult` (anything with ``to_row()`` and the
        ``scenario`` it ran) or a dict: one row.
    scenarios
        A sequence of scenarios — any object with ``key()``, ``replace(seed=...)`` and ``seed``
        (:class:`SweepScenario`: a :class:`~cmtlab.scenario.StripedScenario`, an
        :class:`~cmtlab.sim.mptcp.scenario.MptcpScenario`, an OSIA run, …) — or of ``(labels, scenario)`` pairs where
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
    tasks: list[SweepScenario] = []
    task_ids: dict[str, int] = {}
    for pos, (labels, sc) in enumerate(items):
        for s in (seed_list if seed_list is not None else [None]):
            run = sc if s is None or s == sc.seed else sc.replace(seed=s)
            k = run.key()
            if not isinstance(k, str) or not k:
                raise ValueError(f"scenarios[{pos}]: key() must return a non-empty string, got {k!r:.80}")
            if k not in task_ids:
                task_ids[k] = len(tasks)
                tasks.append(run)
            entries.append((pos, labels, task_ids[k]))

    rows: list[dict | None] = [None] * len(tasks)
    rejected = []  # (path, why) of cache entries that must not be served
    if store is not None and cache != "refresh":
        for tid, run in enumerate(tasks):
            rows[tid], why = store.lookup(sim, run)
            if why is not None:
                rejected.append((store.path(sim, run), why))
    if rejected:
        warnings.warn(_cache_report(f"{len(rejected)} cached result(s) of simulator {sim.name!r} failed their checks "
                                    f"and are recomputed", rejected), CacheEntryWarning, stacklevel=2)
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

    unsaved = []  # (path, why) of results that could not be cached (they are kept all the same)

    def collect(tid: int, row: dict) -> None:
        rows[tid] = row
        if store is not None:
            try:
                store.store(sim, tasks[tid], row)
            except (OSError, ValueError) as exc:  # a full disk, a read-only folder, an impossible row
                unsaved.append((store.path(sim, tasks[tid]), f"{type(exc).__name__}: {exc}"))

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

    if unsaved:
        warnings.warn(_cache_report(f"{len(unsaved)} result(s) of simulator {sim.name!r} could not be written to the "
                                    f"cache (they are in the returned table)", unsaved),
                      CacheEntryWarning, stacklevel=2)

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


def _cache_report(headline: str, problems: list) -> str:
    shown = "; ".join(f"{path}: {why}" for path, why in problems[:3])
    more = f"; and {len(problems) - 3} more" if len(problems) > 3 else ""
    return f"{headline}: {shown}{more}"


def _progress_bar(total: int, desc: str):
    """A text bar on stderr via :mod:`cmtlab.progress` (honours ``CMTLAB_PROGRESS=0``)."""
    from ..progress import progress

    return progress(total=total, desc=desc, unit="run")


