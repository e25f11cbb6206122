"""Diagnostics of the papers' simulator: what its receiver sends, seen on the wire.

:func:`wire_trace` runs one :class:`~cmtlab.papers_sim.model.PapersSimScenario` with the wire-trace
variant of the driver (``driver/wire-trace.patch``: read-only ns-3 trace sinks on the server's
devices; the model and its results are unchanged) and returns, per subflow, the data segments that
arrived, how many were ahead of the data-level sequence, how many arrived below the highest subflow
sequence already seen (without loss on FIFO links: the retransmissions), and the pure ACKs and the
duplicate ACKs the receiver sent.  This is how the book traced why the model and ``cmtlab.sim``'s
``chihani`` preset differ (the model's receiver does not advance a subflow past a segment it holds
for data-level order, so every later segment of that subflow is answered by a duplicate ACK).
"""

from __future__ import annotations

import json
import os
import subprocess

import pandas as pd

from . import build as bld
from .model import PapersSimScenario, binary, parse_output


def wire_trace(sc: PapersSimScenario) -> tuple[pd.DataFrame, object]:
    """``(per-subflow wire counts, PapersSimResult)`` of one run (the model is built first if needed)."""
    if not isinstance(sc, PapersSimScenario):
        raise ValueError(f"wire_trace() takes a PapersSimScenario, got {type(sc).__name__}")
    binary()  # builds both executables
    exe = bld.wire_binary_path()
    env = {k: v for k, v in os.environ.items() if k != "NS_LOG"}
    res = subprocess.run(sc.command(exe), capture_output=True, text=True, env=env)
    if res.returncode != 0:
        raise RuntimeError(f"the wire-trace driver failed (exit {res.returncode}): {res.stderr[-2000:]}")
    out = json.loads(res.stdout)
    wire = pd.DataFrame(out.pop("wire"))
    wire.insert(0, "subflow", range(len(wire)))
    wire = wire.rename(columns={"data": "data_segments_received", "wire_ssn_ooo": "below_highest_subflow_seq",
                                "dsn_ahead": "ahead_of_data_sequence", "acks": "acks_sent",
                                "dupacks": "duplicate_acks_sent"})
    return wire, parse_output(sc, out)


__all__ = ["wire_trace"]
