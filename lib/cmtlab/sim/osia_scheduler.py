"""OSIA as an MPTCP connection-level scheduler (Wang, Liao, Li, secs. 3.4 and 4.1).

Cascaded leaky buckets with one faucet per path, re-planned every scheduling period
(``period_s``, 1 s in sec. 5.1).  At the start of a period the scheduler reads the paths
(rate ``b_i`` = ``sub.path.rate_bps``; one-way delay ``d_i`` = half the round trip,
``sub.path.delay_s / 2`` or, with ``delay_source="srtt"``, ``sub.srtt / 2`` once measured),
preprocesses them (sec. 3.2: sort, merge delays equal to ``resolution_s``; :func:`cmtlab.osia.preprocess`)
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
planned start (:class:`~cmtlab.sim.scheduler.HoldUntil`), the faucet's release time.  A path
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

from .._validate import check_choice, check_non_negative, check_positive
from .registry import register
from .scheduler import ConnectionScheduler, HoldUntil

DELAY_SOURCES = ("path", "srtt")
#: When a new plan starts besides the plan's slots running out (see :class:`OsiaScheduler`).
REPLAN_RULES = ("on_change", "every_period")


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
class OsiaScheduler(ConnectionScheduler):
    """OSIA's cascaded leaky buckets with one faucet per path (see the module docstring)."""

    def __init__(self, period_s: float = 1.0, assignment: str = "faucet", delay_source: str = "path",
                 resolution_s: float = 0.01, merge: str = "none", replan: str = "on_change"):
        from ..osia.model import MERGE_RULES
        from ..osia.timeline import ASSIGNMENTS

        self.period_ns = int(round(check_positive("period_s", period_s) * 1e9))
        self.assignment = check_choice("assignment", assignment, ASSIGNMENTS)
        self.delay_source = check_choice("delay_source", delay_source, DELAY_SOURCES)
        self.resolution_s = check_non_negative("resolution_s", resolution_s)
        self.merge = check_choice("merge", merge, ("none",) + MERGE_RULES)
        self.replan = check_choice("replan", replan, REPLAN_RULES)
        self.n_plans = 0
        self._estimates = None
        self._period_end_ns = -1
        self._k = 0
        self._slot_path = np.zeros(0, dtype=int)
        self._hold_ns = np.zeros(0, dtype=np.int64)
        self._members: tuple = ()
        self._wire_end_ns: dict = {}
        self.pathset = None

    def init(self, conn) -> None:
        self._period_end_ns = -1
        self._k = 0
        self._slot_path = np.zeros(0, dtype=int)
        self._wire_end_ns = {}
        self.n_plans = 0
        self._estimates = None

    # ------------------------------------------------------------------ planning

    def _changed(self, conn) -> bool:
        """The paths' estimates (rate, one-way delay; backlog not included) differ from the plan's.

        A delay counts as changed when it moved by ``resolution_s`` or more (the paper's 0.01 s
        accuracy, sec. 3.2; any change when ``resolution_s`` is 0), a rate when it moved at all.
        """
        old = self._estimates
        if old is None:
            return True
        rates, delays = self._base_estimates(conn)
        if len(rates) != len(old[0]) or not np.allclose(rates, old[0], rtol=1e-9, atol=0.0):
            return True
        moved = np.abs(delays - old[1])
        return bool(np.any(moved >= self.resolution_s) if self.resolution_s > 0 else np.any(moved > 0))

    def _base_estimates(self, conn):
        rates = np.array([float(sub.path.rate_bps) for sub in conn.subflows])
        rtts = np.array([sub.srtt / 1e9 if self.delay_source == "srtt" and getattr(sub, "n_rtt_samples", 0) > 0
                         else float(sub.path.delay_s) for sub in conn.subflows])
        return rates, rtts / 2.0

    def _path_estimates(self, conn, now_ns: int):
        rates, delays, backlogs = [], [], []
        self._one_way_ns = []
        for s, sub in enumerate(conn.subflows):
            b = float(sub.path.rate_bps)
            rtt = float(sub.path.delay_s)
            if self.delay_source == "srtt" and getattr(sub, "n_rtt_samples", 0) > 0:
                rtt = sub.srtt / 1e9
            backlog = max(0, self._wire_end_ns.get(s, 0) - now_ns) / 1e9
            rates.append(b)
            delays.append(rtt / 2.0 + backlog)
            backlogs.append(backlog)
            self._one_way_ns.append(rtt / 2.0 * 1e9)
        return np.array(rates), np.array(delays), np.array(backlogs)

    def _replan(self, conn, now_ns: int) -> None:
        from ..osia.model import PathSet, preprocess, total_data_bits
        from ..osia.timeline import osia_schedule

        rates, delays, backlogs = self._path_estimates(conn, now_ns)
        if self.merge == "none":
            order = np.argsort(delays, kind="stable")
            ps = PathSet(delays[order], rates[order], tuple((int(k),) for k in order),
                         tuple((float(rates[k]),) for k in order))
        else:
            ps = preprocess(rates, delays, resolution_s=self.resolution_s, merge=self.merge)
        seg = float(conn.subflows[0].seg)
        period_s = self.period_ns / 1e9
        n = int(total_data_bits(ps, ps.delays_s[-1] + period_s) // (8 * seg))
        if getattr(conn, "n_dsn", None) is not None:
            n = min(n, max(1, conn.n_dsn - conn.next_dsn))
        if self.assignment == "probabilistic":
            seed = int(conn.make_rng(7000 + self.n_plans).random() * 2**31)
            plan = osia_schedule(ps, max(n, 1), seg, assignment="probabilistic", seed=seed)
            path, rel = plan.path.to_numpy(), plan.release_s.to_numpy()
        else:
            path, rel = continuous_faucet_plan(ps, seg, max(n, 1))
        # hold a slot until its planned start where its path would otherwise idle before it; a path
        # still busy with earlier segments frees up only after its backlog, so the hold ends
        # that much later (the plan's clock starts when the path is free)
        backlog = np.array([backlogs[list(m)].min() for m in ps.members])
        tx = 8.0 * seg / ps.rates_bps
        hold = np.full(path.size, -1, dtype=np.int64)
        busy = np.zeros(ps.n)
        for k in range(path.size):
            i = path[k]
            if rel[k] > busy[i] + 1e-9:
                hold[k] = now_ns + int(round((rel[k] + backlog[i]) * 1e9))
            busy[i] = max(busy[i], rel[k]) + tx[i]
        self.pathset = ps
        self._slot_path = path
        self._hold_ns = hold
        self._members = ps.members
        self._k = 0
        self._period_end_ns = now_ns + self.period_ns
        self._estimates = self._base_estimates(conn)
        self.n_plans += 1

    # ------------------------------------------------------------------ interface

    def select(self, conn, now_ns: int):
        if self._k >= self._slot_path.size:
            self._replan(conn, now_ns)
        elif now_ns >= self._period_end_ns:
            if self.replan == "every_period" or self._changed(conn):
                self._replan(conn, now_ns)
            else:  # the paths look as planned: the plan runs on (sec. 3.3, "the next period is not triggered")
                self._period_end_ns += self.period_ns * ((now_ns - self._period_end_ns) // self.period_ns + 1)
        k = self._k
        if self._hold_ns[k] > now_ns:
            return HoldUntil(int(self._hold_ns[k]))
        best, finish = None, 0
        for s in self._members[self._slot_path[k]]:
            sub = conn.subflows[s]
            if sub.available_window() < sub.seg:
                continue
            f = (max(now_ns, self._wire_end_ns.get(s, 0)) + 8.0 * sub.seg / float(sub.path.rate_bps) * 1e9
                 + self._one_way_ns[s])
            if best is None or f < finish:
                best, finish = s, f
        return best

    def on_sent(self, conn, subflow: int, dsn: int, now_ns: int) -> None:
        self._k += 1
        sub = conn.subflows[subflow]
        tx_ns = int(round(8.0 * sub.seg / float(sub.path.rate_bps) * 1e9))
        self._wire_end_ns[subflow] = max(now_ns, self._wire_end_ns.get(subflow, 0)) + tx_ns

    def planned_subflows(self) -> list:
        """The current period's plan: for each slot, the subflows (merged path members) that may carry it."""
        return [self._members[p] for p in self._slot_path]
