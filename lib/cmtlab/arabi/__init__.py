"""Arabi, Bozed, Zerek — packet reordering algorithms (DSACK, Eifel, F-RTO) under MPTCP congestion control.

* :mod:`.experiments` — the two scenarios of sec. 4, the presets (Chihani–Collange model / RFC),
  runs through :func:`cmtlab.sweep.run_sweep`, throughput over time, means with 95 % CIs, the
  numbers behind the claims of sec. 5–6;
* :mod:`.figures` — Figs. 8–9 (global throughput over time) and the mean-throughput panels.
"""

from . import experiments, figures

__all__ = ["experiments", "figures"]
