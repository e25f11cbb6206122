"""Arabi, Bozed, Zerek — packet reordering algorithms (DSACK, Eifel, F-RTO) under MPTCP congestion control.

* :mod:`.paper` — the paper's scenarios and numbers, and its claims registry (:data:`.paper.CLAIMS`);
* :mod:`.experiments` — the two scenarios of sec. 4 on :mod:`cmtlab.sim`'s presets (Chihani–Collange model,
  RFC), runs through :func:`cmtlab.sweep.run_sweep`, throughput over time, means with 95 % CIs;
* :mod:`.papers_sim` — the same scenarios on the papers' own simulator, recorded (F_RTO over a design of
  wall-clock values);
* :mod:`.sources` — the runs of each source the claims are decided or compared on;
* :mod:`.comparison` — one function per claim of the registry, the paper-vs-reproduction table decided on
  the papers' simulator with every other source as a reference column, and the chapter's facts;
* :mod:`.tables` — the means, counters and sensitivity tables behind them;
* :mod:`.figures` — Figs. 8–9 (global throughput over time), F-RTO against the clock, mean throughput.
"""

from . import comparison, experiments, figures, sources, tables

__all__ = ["comparison", "experiments", "figures", "sources", "tables"]
