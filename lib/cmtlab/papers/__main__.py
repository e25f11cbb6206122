"""Command line of :mod:`cmtlab.papers`: what the papers' chapters record.

    python -m cmtlab.papers record-papers-sim [--only NAME ...] [--workers N]   # make papers-sim-data

``record-papers-sim`` re-runs the papers' scenarios on the papers' own simulator and rewrites
``data/papers-sim/`` (:func:`cmtlab.papers_sim.record.record_all` with the record sets of
:mod:`cmtlab.papers.arabi.papers_sim` and :mod:`cmtlab.papers.alheid.papers_sim`).  The book's own simulator
records nothing: its runs are simulated when a chapter executes.
"""

from __future__ import annotations

import argparse
import sys


def record_sets() -> dict:
    """Every paper's record sets on the papers' simulator: name → function returning ``(cases, run keyword
    arguments, runner)``."""
    from .alheid import papers_sim as alheid
    from .arabi import papers_sim as arabi

    return {**arabi.RECORD_SETS, **alheid.RECORD_SETS}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cmtlab.papers", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("record-papers-sim", help="re-run the recorded scenarios and rewrite data/papers-sim/")
    r.add_argument("--only", nargs="*", default=None, help="record sets to regenerate (default: all)")
    r.add_argument("--workers", type=int, default=None, help="parallel runs (default: usable cores)")
    args = parser.parse_args(argv)
    if args.command == "record-papers-sim":
        from ..papers_sim import record

        record.record_all(record_sets(), only=args.only, workers=args.workers)
        return 0
    return 2


if __name__ == "__main__":
    sys.exit(main())
