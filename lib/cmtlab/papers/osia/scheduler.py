"""OSIA as an MPTCP connection-level scheduler (Wang, Liao, Li, secs. 3.4 and 4.1): a plug-in of the simulator.

The planner of :class:`cmtlab.sim.mechanisms.schedulers.planned.PlannedScheduler` (periods,
estimates, holds and the choice among merged subflows are that class's); this module, part of
the paper package, gives it OSIA's plan and registers it as the ``"osia"`` connection scheduler
when :mod:`cmtlab.papers.osia` is imported.

Cascaded leaky buckets with one faucet per path, re-planned every scheduling period
(``period_s``, 1 s in sec. 5.1).  At the start of a period the scheduler reads the paths
(rate ``b_i`` = ``sub.path.rate_bps``; one-way delay ``d_i`` = half the round trip,
``sub.path.delay_s / 2`` or, with ``delay_source="srtt"``, ``sub.srtt / 2`` once measured),
preprocesses them (sec. 3.2: sort, merge delays equal to ``resolution_s``; :func:`cmtlab.papers.osia.preprocess`)
and lays out the period's faucet plan (:func:`continuous_faucet_plan`): path ``i`` sends back to back
from time 0 and its packets are numbered with the others in order of planned arrival, so chunk
``h`` (arrivals in ``[d_h, d_{h+1})``) falls on paths ``1…h`` with shares ``b_i (d_{h+1} − d_h)`` up to
a fraction of a packet (eqs. 9–12, the consistent forms of the OSIA chapter) and the open chunk
``N`` runs on all paths until the period ends.  The connection's next DSN is always the plan's next
slot, and :meth:`OsiaScheduler.select` answers with that slot's subflow.

Why in-order DSN assignment suffices.  OSIA sends later data first on slow paths.  With one
DSN at a time, this happens in the paths' queues instead: in the consistent plan every path is
busy without a gap from the start of its first chunk to the end of the period (``ST_i^i = 0``
and each chunk starts where the previous one ends, eq. 2), so DSNs handed to a path as soon as
the plan reaches them leave its bottleneck at exactly the planned times.  Where the plan has a
gap on a path (the probabilistic assignment below leaves some), the slot is held until its
planned start (:class:`~cmtlab.sim.mechanisms.schedulers.base.HoldUntil`), the faucet's release time.  A path
still draining the previous period's data counts as a path with a longer delay: its queueing
time — the scheduler's own estimate of when the path's bottleneck finishes the segments handed
to it, each taking ``8 seg / b_i`` — is added to ``d_i`` when the next period is planned.  When the slot's
subflow has no room in its window the answer is ``None`` (the faucet does not divert: wait for an
ACK); merged paths take the member with room on which the segment would arrive first.

Limits.  The plan is open loop for a whole period, as in the paper ("there always exist
tokens"): it assumes every path can take its share when the plan reaches it.  When a subflow's
congestion window is the limit, its slot blocks the next DSNs (one DSN at a time), the other
paths idle and later packets overtake — in the stub tests with 10-segment windows over Table 1's
paths some hundred packets of 1500 arrive out of order, none with windows of 40 segments or
more on three and four paths.  End to end (the OSIA Figs. 7–9 chapter, 500-packet transfers on the
Fig. 8 grid without cross traffic or bit errors) OSIA has about 16 3-dupACK events per transfer
with an initial window of one segment and about 4 — the fewest of the six schedulers — with 64
segments.  And where the receiver answers data that arrives ahead of the data sequence with a
duplicate ACK instead of an acknowledgement (``dupack_mode="paper"``), the data OSIA sends early on
a slow path waits for its ACK whenever the faster paths fall behind the plan, and may time out
spuriously.

Merging.  The paper merges paths whose delays agree to 0.01 s (sec. 3.2) so that its analysis
needs fewer chunks.  The whole-packet plan needs no merging, and merging hurts it: a merged path
takes the smallest delay of its members and is planned as one pipe of the summed rate, while its
members deliver whole packets at their own rates and delays.  The default ``merge="none"`` plans
every subflow separately (paths sorted by delay; equal delays are fine); ``merge="round"`` with
``resolution_s=0.01`` is the paper's rule (a one- or two-packet reordering now and then in the
stub tests, never a 3-dupACK event).

Periods.  Every ``period_s`` the scheduler reads the paths again; a new plan starts only when the
estimates changed (a rate at all, a one-way delay by ``resolution_s`` or more) or the plan's slots
are used up (``replan="on_change"``, the default: sec. 3.3, "if the condition of the network is not
changed, the next period is not triggered and thus the current L* can be large").
``replan="every_period"`` restarts the plan at every period boundary, as this class did before:
when a window-limited fast path cannot hand out its chunk 1 within a period, every restart hands
chunk 1 to it again and the slower paths starve (seen end to end: on the OSIA Fig. 8 grid under the
paper's BER the slow path carried 0 of 500 packets at ``D2/D1`` = 8).

``assignment="probabilistic"`` draws each packet's path within a chunk with probability
``g_ih`` (eq. 12), as the paper describes its second step; the OSIA chapter shows that this
reorders packets even in an ideal network.  The default ``"faucet"`` is deterministic.
"""

from __future__ import annotations

import numpy as np

from ..._validate import check_choice
from ...sim.mechanisms.schedulers.planned import DELAY_SOURCES, REPLAN_RULES, PlannedScheduler
from ...sim.registry import register
from .model import MERGE_RULES, PathSet, preprocess, total_data_bits
from .timeline import ASSIGNMENTS, osia_schedule


def continuous_faucet_plan(paths, seg_bytes: float, n_packets: int):
    """The faucet plan of one period without idle gaps: ``(path, release_s)`` per packet, in DSN order.

    Path ``i`` sends back to back from time 0 (``ST_i^i = 0``); its ``j``-th packet arrives at
    ``d_i + j · 8 seg / b_i``, and DSNs follow the arrival times (ties to the faster path).  Chunk
    ``h`` then holds the packets arriving in ``[d_h, d_{h+1})``: path ``i`` carries
    ``b_i (d_{h+1} − d_h) / 8 seg`` of them up to a fraction of a packet carried into the next
    chunk — the whole-packet form of eqs. 9–12 in which no faucet idles.
    """
    b, d = paths.rates_bps, paths.delays_s
    tx = 8.0 * seg_bytes / b
    # the n-th earliest arrival is no later than the n-th arrival on any single path
    horizon = float((d + n_packets * tx).min()) + 1e-12
    slots = []
    for i in range(b.size):
        j = np.arange(1, int(max(0.0, horizon - d[i]) / tx[i]) + 2)
        slots.append(np.stack([d[i] + j * tx[i], np.full(j.size, i), (j - 1) * tx[i]], axis=1))
    allslots = np.concatenate(slots)
    order = np.lexsort((allslots[:, 1], np.round(allslots[:, 0] * 1e9)))[:n_packets]
    return allslots[order, 1].astype(int), allslots[order, 2]


@register("scheduler", "osia")
class OsiaScheduler(PlannedScheduler):
    """OSIA's cascaded leaky buckets with one faucet per path (see the module docstring)."""

    def __init__(self, period_s: float = 1.0, assignment: str = "faucet", delay_source: str = "path",
                 resolution_s: float = 0.01, merge: str = "none", replan: str = "on_change"):
        super().__init__(period_s=period_s, delay_source=delay_source, resolution_s=resolution_s, replan=replan)
        self.assignment = check_choice("assignment", assignment, ASSIGNMENTS)
        self.merge = check_choice("merge", merge, ("none",) + MERGE_RULES)

    def plan_paths(self, rates_bps, delays_s) -> PathSet:
        """Sec. 3.2: paths sorted by delay; with ``merge`` the paper's merging of close delays."""
        if self.merge == "none":
            order = np.argsort(delays_s, kind="stable")
            return PathSet(delays_s[order], rates_bps[order], tuple((int(k),) for k in order),
                           tuple((float(rates_bps[k]),) for k in order))
        return preprocess(rates_bps, delays_s, resolution_s=self.resolution_s, merge=self.merge)

    def period_packets(self, paths: PathSet, period_s: float, seg_bytes: float) -> int:
        """The data the buckets release until the slowest path's delay plus one period (eq. 13)."""
        return int(total_data_bits(paths, paths.delays_s[-1] + period_s) // (8 * seg_bytes))

    def assign(self, paths: PathSet, seg_bytes: float, n_packets: int, seed):
        if self.assignment == "probabilistic":
            plan = osia_schedule(paths, n_packets, seg_bytes, assignment="probabilistic", seed=seed())
            return plan.path.to_numpy(), plan.release_s.to_numpy()
        return continuous_faucet_plan(paths, seg_bytes, n_packets)


__all__ = ["OsiaScheduler", "continuous_faucet_plan", "DELAY_SOURCES", "REPLAN_RULES"]
