"""Recorded 30-seed runs of Alheid Figs. 4-5 and Table I (sec. IV.A: 30 seeds per point), served after a live check.

Alheid et al. ran 30 seeds per point.  The full profile of the two chapters simulates the first
:data:`LIVE_SEEDS` seeds while the page builds and takes the other seeds from a record of the
same runs in ``data/alheid/`` — only after the live runs equal their recorded rows in every
column (:func:`cmtlab.sweep.recorded.run_with_records`); a simulator change that moves any of
these runs stops the build with the command that re-records them::

    make alheid-records            # = python -m cmtlab.alheid.records (about 5 minutes on two cores)

A record holds exactly the cases of the chapters' full profile (:func:`cases`); a case a reader
changes by papermill is not in it and is simulated.  Table I's base runs are recorded the same way
(:mod:`cmtlab.alheid.table1`).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from .._paths import DATA
from ..sweep.recorded import RecordedRuns, record_runs
from . import experiments as ex

__all__ = ["RECORDED", "LIVE_SEEDS", "N_SEEDS", "DATA_DIR", "path", "load", "cases", "sweep", "record", "main"]

DATA_DIR = DATA / "alheid"
#: Seeds per point in the record: the paper's count.
N_SEEDS = ex.N_SEEDS_PAPER
#: Seeds the full profile simulates while the page builds (and checks against the record).
LIVE_SEEDS = 4
COMMAND = "make alheid-records"

def _fig4_cases():
    return ex.fig4_cases(ex.DISTANCES_M, presets=("paper",), duration_s=ex.DURATION_S, single_tcp=True,
                         prr_ssthresh="keep")


def _fig5_cases():
    return ex.fig5_cases(ex.PDRS, distance_m=ex.SCENARIO2_DISTANCE_M, presets=("paper",), duration_s=ex.DURATION_S,
                         single_tcp=True, prr_ssthresh="keep")


def _table1_cases():
    from . import table1 as t1

    return t1.cases(t1.DELTAS_MS, t1.MEANINGS, variants=t1.VARIANTS, setups=("base",), duration_s=ex.DURATION_S)


#: Record name → (file, the full profile's cases).
RECORDED = {
    "fig4": ("fig4-runs.jsonl.gz", _fig4_cases),
    "fig5": ("fig5-runs.jsonl.gz", _fig5_cases),
    "table1": ("table1-runs.jsonl.gz", _table1_cases),
}


def _check(name: str) -> None:
    if name not in RECORDED:
        raise ValueError(f"record must be one of {sorted(RECORDED)}, got {name!r}")


def path(name: str) -> Path:
    """The file of record ``name`` (``"fig4"``, ``"fig5"`` or ``"table1"``)."""
    _check(name)
    return DATA_DIR / RECORDED[name][0]


def load(name: str) -> RecordedRuns:
    """Record ``name`` as :class:`~cmtlab.sweep.recorded.RecordedRuns`."""
    return RecordedRuns.load(path(name))


def cases(name: str) -> list:
    """The ``(labels, scenario)`` cases record ``name`` holds: the chapter's full-profile main runs (Figs. 4-5: the
    points × the four solutions and single TCP, preset ``"paper"``, PR-R's Algorithm 1; Table I: the base setup,
    Δ 0/100/500 ms read both ways, the four scheduler + congestion-control variants and single TCP), 50 s each."""
    _check(name)
    return RECORDED[name][1]()


def sweep(cases, *, seeds, workers=None, progress=True, records: str | None = None, live_seeds=None):
    """``cases`` × ``seeds`` as one sweep table: :func:`cmtlab.sweep.run_sweep`, or with ``records`` (a name of
    :data:`RECORDED`) :func:`cmtlab.sweep.recorded.run_with_records` over that record with ``live_seeds`` simulated."""
    if records is None:
        from ..sweep import run_sweep

        return run_sweep("cmtlab", cases, seeds=list(seeds), workers=workers, progress=progress)
    from ..sweep.recorded import run_with_records

    return run_with_records("cmtlab", cases, seeds=list(seeds), records=load(records),
                            live_seeds=list(live_seeds) if live_seeds is not None else None, workers=workers,
                            progress=progress)


def record(name: str, *, workers=None, progress=True) -> Path:
    """Simulate record ``name`` (all cases × :data:`N_SEEDS` seeds) and write its file."""
    out = path(name)
    record_runs(out, "cmtlab", cases(name), seeds=range(N_SEEDS), command=COMMAND, workers=workers,
                progress=progress)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m cmtlab.alheid.records",
                                 description="Re-simulate the recorded 30-seed runs of Alheid Figs. 4-5 and Table I into data/alheid/.")
    ap.add_argument("names", nargs="*", default=sorted(RECORDED), help=f"records to write (default: all of {sorted(RECORDED)})")
    ap.add_argument("--workers", type=int, default=None, help="worker processes (default: all cores)")
    args = ap.parse_args(argv)
    for name in args.names:
        if name not in RECORDED:
            ap.error(f"unknown record {name!r}; choose from {sorted(RECORDED)}")
    if args.workers is not None and args.workers < 1:
        ap.error("--workers must be >= 1")
    for name in args.names:
        t0 = time.monotonic()
        out = record(name, workers=args.workers)
        rec = RecordedRuns.load(out)
        print(f"{name}: {len(rec)} runs ({rec.header['cases']} cases x {len(rec.header['seeds'])} seeds) -> {out} "
              f"in {time.monotonic() - t0:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
