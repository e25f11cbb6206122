"""Earliest Delivery Path First (Chebrolu & Rao, IEEE TMC 2006, sec. 4)."""

from __future__ import annotations

from ...registry import register
from .base import ConnectionScheduler, _has_room


@register("scheduler", "edpf")
class EdpfScheduler(ConnectionScheduler):
    """Earliest Delivery Path First (Chebrolu & Rao, IEEE TMC 2006, sec. 4).

    For each subflow with room, the estimated arrival time of the next segment at the receiver::

        A_i = max(now, busy_i) + 8 seg / b_i + d_i

    ``busy_i`` the time the path's bottleneck finishes the segments this scheduler already
    handed to it (its own estimate: each takes ``8 seg / b_i``, the queue backlog over the rate),
    ``b_i = sub.path.rate_bps``, ``d_i`` the one-way delay: half the path's round trip
    (``delay_source="path"``) or half the smoothed RTT once measured (``"srtt"``).  The segment
    goes to the smallest ``A_i`` (ties: lower index).  Only subflows with room compete (EDPF
    picks a path, it never holds); ``None`` when none has room.  So where windows bind it
    decides like ``round_robin`` and ``lowest_rtt`` (see :class:`LowestRttScheduler`).
    """

    DELAY_SOURCES = ("path", "srtt")

    def __init__(self, delay_source: str = "path"):
        from ...._validate import check_choice

        self.delay_source = check_choice("delay_source", delay_source, self.DELAY_SOURCES)
        self._busy_ns = {}

    def init(self, conn) -> None:
        self._busy_ns = {}

    def _one_way_ns(self, sub) -> float:
        if self.delay_source == "srtt" and getattr(sub, "n_rtt_samples", 0) > 0:
            return sub.srtt / 2.0
        return float(sub.path.delay_s) * 1e9 / 2.0

    def arrival_ns(self, sub, i: int, now_ns: int) -> float:
        """``A_i`` above, in ns."""
        tx = 8.0 * sub.seg / float(sub.path.rate_bps) * 1e9
        return max(now_ns, self._busy_ns.get(i, 0)) + tx + self._one_way_ns(sub)

    def select(self, conn, now_ns: int):
        best, best_a = None, None
        for i, sub in enumerate(conn.subflows):
            if not _has_room(sub):
                continue
            a = self.arrival_ns(sub, i, now_ns)
            if best is None or a < best_a:
                best, best_a = i, a
        return best

    def on_sent(self, conn, subflow: int, dsn: int, now_ns: int) -> None:
        sub = conn.subflows[subflow]
        tx = 8.0 * sub.seg / float(sub.path.rate_bps) * 1e9
        self._busy_ns[subflow] = max(now_ns, self._busy_ns.get(subflow, 0)) + tx


__all__ = ["EdpfScheduler"]
