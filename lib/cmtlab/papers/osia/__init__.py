"""Wang, Liao, Li — OSIA: out-of-order scheduling for in-order arrival (analysis, sec. 3 and Appendix A).

* :mod:`cmtlab.papers.osia.model` — preprocessing (sec. 3.2), progressive water-filling (eqs. 7–13), start times
  (eqs. 1–3), the cascaded leaky buckets with faucets (sec. 4.1), Theorem 2 (eqs. 14, 18–25);
* :mod:`.timeline` — an independent per-packet arrival timeline and dupACK counter, OSIA's and
  round robin's packet schedules, the round-robin 3-dupACK closed form;
* :mod:`cmtlab.papers.osia.checks` — the checks of the OSIA chapter: linear program of eqs. 5–6, packet-level
  in-order check, Monte-Carlo of the RTO estimator (eqs. 15–17);
* :mod:`.paper` — the paper's numbers and set-ups (Table 1, the paths of sec. 5.2, its schedulers) and its
  claims (:data:`cmtlab.papers.osia.paper.CLAIMS`);
* :mod:`.comparison` — the chapters' paper-vs-reproduction tables and their facts;
* :mod:`.experiments` — the simulation experiments of secs. 5.2–5.4 (Figs. 7–9) on the path model of
  sec. 5.1 (:mod:`cmtlab.sim.net.cross_traffic`).
"""

import importlib

# The simulator imports this package for its "osia" scheduler plug-in (cmtlab.sim.registry): only what
# the plug-in runs is imported here, so that the simulator's code version (the import closure,
# cmtlab.sweep.versions) does not change with the chapter's checks, experiments or figures.
from . import model, scheduler, timeline  # noqa: F401  (scheduler registers "osia" with cmtlab.sim)
from .model import (DELAY_RESOLUTION_S, K_DEFAULT, PathSet, borders_s, buckets_frame, chunk_bits, chunk_fractions,
                    fluid_order_violation_s, leaky_buckets, path_probabilities, path_shares, preprocess, rtt_s,
                    start_times, theorem2_holds, theorem2_ratio, total_data_bits, two_path_condition,
                    two_path_threshold)
from .timeline import (arrival_times_s, osia_schedule, reorder_stats, round_robin_schedule,
                       rr_three_dupack_closed_form, run_schedule)


#: Submodules imported on first use (``cmtlab.papers.osia.figures`` etc. work as before).
_ON_DEMAND = ("checks", "comparison", "experiments", "figures", "paper", "studies")
#: Names of :mod:`.paper` read on first use: the paper's numbers and claims stay out of the simulator's
#: code version (its import closure), so editing a claim does not invalidate the cached runs.
_FROM_PAPER = ("TABLE1", "table1_paths", "CLAIMS")


def __getattr__(name: str):
    if name in _ON_DEMAND:
        return importlib.import_module(f"{__name__}.{name}")
    if name in _FROM_PAPER:
        return getattr(importlib.import_module(f"{__name__}.paper"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "model", "timeline", "checks", "figures", "experiments", "PathSet", "preprocess", "borders_s", "buckets_frame", "chunk_bits",
    "chunk_fractions", "path_probabilities", "path_shares", "start_times", "total_data_bits", "leaky_buckets",
    "fluid_order_violation_s", "rtt_s", "theorem2_ratio", "theorem2_holds", "two_path_condition",
    "two_path_threshold", "arrival_times_s", "osia_schedule", "reorder_stats", "round_robin_schedule",
    "rr_three_dupack_closed_form", "run_schedule", "TABLE1", "table1_paths", "DELAY_RESOLUTION_S", "K_DEFAULT",
]
