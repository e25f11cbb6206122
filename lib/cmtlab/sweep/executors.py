"""Where the runs of a sweep execute: in this process, a kept local process pool, or a Dask cluster."""

from __future__ import annotations

import contextlib
import os
import pickle
import re
import sys
import traceback
import uuid
from collections.abc import Mapping

from ..scenario import TransferResult
from .cache import _normalise_row
from .errors import SimulationError, StaleSimulatorError, _simulation_error
from .simulators import Simulator, _check_loaded_code

__all__ = ["shutdown_workers", "DASK_SCHEDULER_ENV"]

#: Environment variable with a Dask scheduler address, e.g. ``tcp://host:8786``.
DASK_SCHEDULER_ENV = "CMTLAB_DASK_SCHEDULER"


def _run_one(simulator: Simulator, scenario) -> dict:
    try:
        result = simulator(scenario)
        if isinstance(result, Mapping):
            return _normalise_row(dict(result))
        if not (isinstance(result, TransferResult) or callable(getattr(result, "to_row", None))):
            raise TypeError(f"simulator returned {type(result).__name__}, expected TransferResult (or any result "
                            f"with to_row()) or a dict row")
        ran = getattr(result, "scenario", scenario)
        if ran is not scenario and ran.key() != scenario.key():
            raise ValueError("simulator returned a result for a different scenario")
        return _normalise_row(result.to_row())
    except Exception as exc:
        raise _simulation_error(f"{type(exc).__name__}: {exc}", simulator=simulator.name, scenario=scenario,
                                error_type=type(exc).__name__, worker_traceback=traceback.format_exc()) from exc


def _run_chunk(simulator: Simulator, chunk: list[tuple[int, object]]) -> list[tuple[int, dict]]:
    """Worker task: run a few scenarios, return ``(task id, row)`` pairs."""
    _check_loaded_code(simulator)
    out = []
    for tid, sc in chunk:
        try:
            out.append((tid, _run_one(simulator, sc)))
        except SimulationError as err:
            err.task_id = tid
            raise
    _check_loaded_code(simulator, after_runs=True)
    return out


_POOL = None  # (key, executor, creating thread): kept between sweeps so workers (and their imports) are reused


def _local_pool(workers: int, start_method: str):
    global _POOL
    import multiprocessing
    import threading
    from concurrent.futures import ProcessPoolExecutor

    key = (workers, start_method)
    if _POOL is not None:
        old_key, pool, creator = _POOL
        if (old_key == key and creator.is_alive() and not getattr(pool, "_broken", False)
                and not getattr(pool, "_shutdown_thread", False)):
            return pool
        shutdown_workers()
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context(start_method),
                               initializer=_worker_init, initargs=(os.getpid(),))
    # Workers are started by the thread that submits; on Linux they die with it (PR_SET_PDEATHSIG),
    # so a pool is kept only while the thread that created it lives.
    _POOL = (key, pool, threading.current_thread())
    return pool


#: prctl option: signal this process when its parent (the thread that created it) exits.
PR_SET_PDEATHSIG = 1
#: Seconds between two checks of the parent by a worker's watchdog thread.
PARENT_POLL_S = 0.5


def _worker_init(parent_pid: int) -> None:
    """Set up a worker process of the local pool.

    * It ignores SIGINT: a Ctrl-C (or a Jupyter kernel shutting down) reaches the parent, which
      stops the pool (:func:`shutdown_workers`), instead of printing one traceback per idle worker.
    * It dies with its parent, however the parent ends (a SIGKILL, an out-of-memory kill): on
      Linux the kernel sends it SIGKILL when the parent exits (``prctl(PR_SET_PDEATHSIG)``, which
      works even while the worker is inside a long C++ call such as an ns-3 run); everywhere a
      watchdog thread exits the worker as soon as its parent process id is no longer ``parent_pid``.
    """
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _die_with_parent(parent_pid)


def _die_with_parent(parent_pid: int) -> None:
    import signal
    import threading
    import time

    if sys.platform.startswith("linux"):
        with contextlib.suppress(Exception):
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    if os.getppid() != parent_pid:  # the parent died before we could ask to follow it
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(PARENT_POLL_S)
            if os.getppid() != parent_pid:
                os._exit(1)

    threading.Thread(target=watch, name="cmtlab-sweep-parent-watchdog", daemon=True).start()


def shutdown_workers(*, kill: bool = False) -> None:
    """Stop the worker processes kept between sweeps (``kill=True``: without waiting for running tasks)."""
    global _POOL
    if _POOL is None:
        return
    _, pool, _ = _POOL
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
