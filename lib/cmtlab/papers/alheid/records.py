"""Recorded 30-seed runs of Alheid Figs. 4-5 and Table I (sec. IV.A: 30 seeds per point), served after a live check.

Alheid et al. ran 30 seeds per point.  The full profile of the two chapters simulates the first
:data:`LIVE_SEEDS` seeds while the page builds and takes the other seeds from a record of the
same runs in ``data/alheid/`` — only after the live runs equal their recorded rows in every
column (:func:`cmtlab.sweep.recorded.run_with_records`); a simulator change that moves any of
these runs stops the build with the command that re-records them::

    make alheid-records            # = python -m cmtlab.papers.alheid.records (about 5 minutes on two cores)

A record holds exactly the cases of the chapters' full profile (:func:`cases`); a case a reader
changes by papermill is not in it and is simulated.  Table I's base runs are recorded the same way
(:mod:`cmtlab.papers.alheid.table1`).  Where the files are and how one is read:
:mod:`cmtlab.papers.alheid.record_files`; this module (the cases and the command line) is imported by none
of the chapter's modules.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from ...sweep.recorded import RecordedRuns, record_runs
from . import experiments as ex
from . import table1 as t1
from .paper import DELTAS_MS, DISTANCES_M, DURATION_S, N_SEEDS_PAPER, PDRS, SCENARIO2_DISTANCE_M
from .record_files import FILES, path

__all__ = ["RECORDED", "LIVE_SEEDS", "N_SEEDS", "cases", "record", "main"]

#: Seeds per point in the record: the paper's count.
N_SEEDS = N_SEEDS_PAPER
#: Seeds the full profile simulates while the page builds (and checks against the record).
LIVE_SEEDS = 4
COMMAND = "make alheid-records"

def _fig4_cases():
    return ex.fig4_cases(DISTANCES_M, presets=("paper",), duration_s=DURATION_S, single_tcp=True, prr_ssthresh="keep")


def _fig5_cases():
    return ex.fig5_cases(PDRS, distance_m=SCENARIO2_DISTANCE_M, presets=("paper",), duration_s=DURATION_S,
                         single_tcp=True, prr_ssthresh="keep")


def _table1_cases():
    return t1.cases(DELTAS_MS, t1.MEANINGS, variants=t1.VARIANTS, setups=("base",), duration_s=DURATION_S)


#: Record name → (file, the full profile's cases).
RECORDED = {
    "fig4": (FILES["fig4"], _fig4_cases),
    "fig5": (FILES["fig5"], _fig5_cases),
    "table1": (FILES["table1"], _table1_cases),
}


def _check(name: str) -> None:
    if name not in RECORDED:
        raise ValueError(f"record must be one of {sorted(RECORDED)}, got {name!r}")


def cases(name: str) -> list:
    """The ``(labels, scenario)`` cases record ``name`` holds: the chapter's full-profile main runs (Figs. 4-5: the
    points × the four solutions and single TCP, preset ``"paper"``, PR-R's Algorithm 1; Table I: the base setup,
    Δ 0/100/500 ms read both ways, the four scheduler + congestion-control variants and single TCP), 50 s each."""
    _check(name)
    return RECORDED[name][1]()


def record(name: str, *, workers=None, progress=True) -> Path:
    """Simulate record ``name`` (all cases × :data:`N_SEEDS` seeds) and write its file."""
    out = path(name)
    record_runs(out, "cmtlab", cases(name), seeds=range(N_SEEDS), command=COMMAND, workers=workers,
                progress=progress)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m cmtlab.papers.alheid.records",
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
