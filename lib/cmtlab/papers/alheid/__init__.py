"""Alheid, Doufexi, Kaleshi — Packet reordering response for MPTCP under a wireless heterogeneous environment (ICT 2016).

* :mod:`.experiments` — the simulations of secs. IV–V (Figs. 4–6, Tables III–IV) on two 802.11g paths
  behind a 100 Mbit/s, 10 ms backbone (:mod:`cmtlab.sim.net.wifi`, :mod:`cmtlab.sim.multipath`);
* :mod:`.table1` — Table I (SPEC row A1): the MPTCP gain over single-path TCP against the delay
  difference of two equal-rate paths, with D-SACK;
* :mod:`.paper` — the paper's numbers, quotes and set-ups, and its claims (``CLAIMS``, decided on the papers' own
  simulator: Table I on it, Figs. 4–6 and Tables III–IV on it over Wi-Fi where recorded, else on point-to-point
  stand-ins);
* :mod:`.comparison` — the tables of A2–A4 and their paper-vs-reproduction comparisons;
* :mod:`.facts` — each chapter's glued facts, one function per chapter;
* :mod:`.figures` — their plots.

The Wi-Fi link model's check against ns-3 lives in :mod:`cmtlab.validation.wifi`.
"""

from . import comparison, experiments, figures, table1

__all__ = ["comparison", "experiments", "figures", "table1"]
