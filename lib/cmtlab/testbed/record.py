"""Record the Linux-MPTCP chapter's kernel runs (full profile) into ``data/testbed/`` (root, real time).

    make testbed-record                     # or, from the repository root:
    PYTHONPATH=lib python -m cmtlab.testbed.record [--out DIR]

Runs every kernel run the chapter's ``parameters`` cell asks for under the full profile — the calibration,
Alheid et al.'s Table I (autotuned and fixed socket buffers) and the Arabi runs, about 12 minutes of real time
— and writes them with their provenance (:func:`cmtlab.testbed.recorded.record`), then ``history.csv``: the earlier
executions of the chapter stored in git with the same Table I parameters (:func:`cmtlab.testbed.recorded.history_from_git`;
``--history-only`` rewrites just that file, no kernel needed).  Run nothing else on the
testbed meanwhile (other load slows the delay line's timers; the rows record the load average).
"""

from __future__ import annotations

import argparse
import sys

from . import recorded


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m cmtlab.testbed.record", description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=str(recorded.DATA_DIR), help="directory to write (default: data/testbed)")
    ap.add_argument("--history-only", action="store_true",
                    help="only rewrite history.csv (earlier executions of the chapter, from git) of the recording in --out")
    a = ap.parse_args(argv)
    if a.history_only:
        hist = recorded.write_history(a.out)
        print(f"history.csv: {len(hist)} cells of {hist.commit.nunique()} earlier executions", file=sys.stderr)
        return 0
    rec = recorded.record(directory=a.out, command="make testbed-record (python -m cmtlab.testbed.record)")
    p = rec.provenance
    print(f"recorded {rec.describe()}; {p['real_time_minutes']} min of real time; files in {a.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
