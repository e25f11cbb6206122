"""Arabi, Bozed, Zerek — packet reordering algorithms (DSACK, Eifel, F-RTO) under MPTCP congestion control.

* :mod:`.experiments` — the two scenarios of sec. 4, the presets (Chihani–Collange model / RFC),
  runs through :func:`cmtlab.sweep.run_sweep`, throughput over time, means with 95 % CIs, the
  numbers behind the claims of sec. 5–6;
* :mod:`.comparison` — the chapter's tables (means ± CI, response counters, modern baseline,
  sensitivity) and its paper-vs-reproduction table, for any subset of scenarios, congestion
  controls, algorithms and presets (claims a run cannot assess are marked, not guessed);
* :mod:`.figures` — Figs. 8–9 (global throughput over time) and the mean-throughput panels.
"""

from . import comparison, experiments, figures

__all__ = ["comparison", "experiments", "figures"]
