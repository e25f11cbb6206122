"""A connection scheduler that follows a planner's release plan, re-planned every period.

The generic half of a plan-based scheduler (OSIA, Wang, Liao, Li secs. 3.4 and 4.1, is the
one the book has: :mod:`cmtlab.papers.osia.scheduler` provides its planner and registers it as the
``"osia"`` scheduler — the simulator imports no paper package).

At the start of a period the scheduler reads the paths (rate ``b_i`` = ``sub.path.rate_bps``;
one-way delay ``d_i`` = half the round trip, ``sub.path.delay_s / 2`` or, with
``delay_source="srtt"``, ``sub.srtt / 2`` once measured) and asks the planner for a plan: the
planned paths (each one or more subflows: merged paths), how many packets a period carries,
and for each data-level slot its planned path and release time.  The connection's next DSN is
always the plan's next slot, and :meth:`PlannedScheduler.select` answers with that slot's
subflow.  Where the plan has a gap on a path, the slot is held until its planned start
(:class:`~cmtlab.sim.mechanisms.schedulers.base.HoldUntil`); a path still draining the previous
period's data counts as a path with a longer delay (its queueing time, the scheduler's own
estimate of when the path's bottleneck finishes the segments handed to it, each taking
``8 seg / b_i``, is added to ``d_i``).  When the slot's subflow has no room in its window the
answer is ``None`` (wait for an ACK); a merged path takes the member with room on which the
segment would arrive first.

Periods: every ``period_s`` the paths are read again; a new plan starts only when the estimates
changed (a rate at all, a one-way delay by ``resolution_s`` or more) or the plan's slots are used
up (``replan="on_change"``), or at every period boundary (``replan="every_period"``).

The planner interface (methods a subclass provides):

``plan_paths(rates_bps, delays_s)``
    the planned paths, an object with ``members`` (tuple of tuples of subflow indices),
    ``rates_bps`` and ``delays_s`` (arrays, one entry per planned path, sorted by delay);
``period_packets(paths, period_s, seg_bytes)``
    how many packets one period's plan holds;
``assign(paths, seg_bytes, n_packets, seed)``
    ``(path index per slot, release time in s per slot)``, in DSN order (``seed()`` gives a
    seeded integer for a probabilistic plan).
"""

from __future__ import annotations

import numpy as np

from ...._validate import check_choice, check_duration_s
from .base import ConnectionScheduler, HoldUntil

DELAY_SOURCES = ("path", "srtt")
#: When a new plan starts besides the plan's slots running out (see the module docstring).
REPLAN_RULES = ("on_change", "every_period")


class PlannedScheduler(ConnectionScheduler):
    """Follows the planner's release plan (see the module docstring); subclasses are planners."""

    def __init__(self, period_s: float = 1.0, delay_source: str = "path", resolution_s: float = 0.01,
                 replan: str = "on_change"):
        self.period_ns = int(round(check_duration_s("period_s", period_s) * 1e9))
        self.delay_source = check_choice("delay_source", delay_source, DELAY_SOURCES)
        self.resolution_s = check_duration_s("resolution_s", resolution_s, zero=True)
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

    # ------------------------------------------------------------------ the planner
    def plan_paths(self, rates_bps, delays_s):
        raise NotImplementedError

    def period_packets(self, paths, period_s: float, seg_bytes: float) -> int:
        raise NotImplementedError

    def assign(self, paths, seg_bytes: float, n_packets: int, seed):
        raise NotImplementedError

    # ------------------------------------------------------------------ interface
    def init(self, conn) -> None:
        self._period_end_ns = -1
        self._k = 0
        self._slot_path = np.zeros(0, dtype=int)
        self._wire_end_ns = {}
        self.n_plans = 0
        self._estimates = None

    def _changed(self, conn) -> bool:
        """The paths' estimates (rate, one-way delay; backlog not included) differ from the plan's.

        A delay counts as changed when it moved by ``resolution_s`` or more (any change when
        ``resolution_s`` is 0), a rate when it moved at all.
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
        rates, delays, backlogs = self._path_estimates(conn, now_ns)
        ps = self.plan_paths(rates, delays)
        seg = float(conn.subflows[0].seg)
        n = self.period_packets(ps, self.period_ns / 1e9, seg)
        if getattr(conn, "n_dsn", None) is not None:
            n = min(n, max(1, conn.n_dsn - conn.next_dsn))
        n_plans = self.n_plans
        path, rel = self.assign(ps, seg, max(n, 1), lambda: int(conn.make_rng(7000 + n_plans).random() * 2**31))
        # hold a slot until its planned start where its path would otherwise idle before it; a path
        # still busy with earlier segments frees up only after its backlog, so the hold ends
        # that much later (the plan's clock starts when the path is free)
        backlog = np.array([backlogs[list(m)].min() for m in ps.members])
        tx = 8.0 * seg / ps.rates_bps
        hold = np.full(path.size, -1, dtype=np.int64)
        busy = np.zeros(len(ps.members))
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

    def select(self, conn, now_ns: int):
        if self._k >= self._slot_path.size:
            self._replan(conn, now_ns)
        elif now_ns >= self._period_end_ns:
            if self.replan == "every_period" or self._changed(conn):
                self._replan(conn, now_ns)
            else:  # the paths look as planned: the plan runs on
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


__all__ = ["PlannedScheduler", "DELAY_SOURCES", "REPLAN_RULES"]
