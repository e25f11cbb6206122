"""Wang, Liao, Li (OSIA) — the paper's numbers and set-ups, once (inputs, never results): Table 1's path sets,
the paths and packets of secs. 5.1–5.2, the scheduling period and the paper's schedulers.  The chapters'
modules read them from here.  (The claims' quotes are still written beside each claim in
:mod:`cmtlab.papers.osia.comparison`.)"""

from __future__ import annotations

#: Table 1 of the paper: (rates in Mbit/s, propagation delays in ms) per number of paths.
TABLE1 = {
    1: ([4.0], [60.0]),
    2: ([3.0, 1.0], [40.0, 80.0]),
    3: ([2.0, 1.25, 0.75], [40.0, 80.0, 60.0]),
    4: ([1.25, 1.0, 1.0, 0.75], [40.0, 20.0, 100.0, 80.0]),
}
#: The paper's schedulers (Figs. 7–9), as registered names.
PAPER_SCHEDULERS = ("round_robin", "cwnd_aware", "flow_level", "osia")
#: Sec. 5.2: path 1 of the two-path experiments (one-way delay, rate).
PATH1_DELAY_S = 0.050
PATH1_RATE_BPS = 1e6
#: TCP payload per packet (sec. 5.1, 1 KB).
SEGMENT_BYTES = 1000
#: "The scheduling periods of all schemes are set as 1 s."
SCHEDULING_PERIOD_S = 1.0


def table1_paths(n_paths: int):
    """``(rates_bps, delays_s)`` of Table 1 for 1…4 paths (the paper's inputs, not results)."""
    if n_paths not in TABLE1:
        raise ValueError(f"n_paths must be one of {sorted(TABLE1)} (Table 1), got {n_paths!r}")
    rates, delays = TABLE1[n_paths]
    return [r * 1e6 for r in rates], [d / 1e3 for d in delays]


__all__ = ["TABLE1", "PAPER_SCHEDULERS", "PATH1_DELAY_S", "PATH1_RATE_BPS", "SEGMENT_BYTES", "SCHEDULING_PERIOD_S",
           "table1_paths"]
