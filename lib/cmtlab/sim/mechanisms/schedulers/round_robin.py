"""Round robin over subflows, as the papers' ns-3 model schedules (Chihani–Collange code)."""

from __future__ import annotations

from ...registry import register
from .base import ConnectionScheduler


@register("scheduler", "round_robin")
class RoundRobinConnectionScheduler(ConnectionScheduler):
    """Round robin over subflows, as the papers' ns-3 model schedules (Chihani–Collange code).

    The next subflow in turn after the one that carried the previous DSN, skipping subflows
    whose window has no room for a segment; one segment per turn.  ``None`` when no subflow has
    room.  The first DSN goes to subflow 0 (if it has room).
    """

    def __init__(self):
        self._next = 0

    def init(self, conn) -> None:
        self._next = 0

    def select(self, conn, now_ns: int):
        subs = conn.subflows
        n = len(subs)
        i = self._next
        for _ in range(n):
            s = subs[i]
            # _has_room, with available_window() inlined (called for every segment)
            cwnd = s.cwnd
            rwnd = s.rwnd
            high = s.high
            una = s.una
            seg = s.seg
            if s.short and high == s.n_segs and una < high:
                if (cwnd if cwnd < rwnd else rwnd) - s.in_flight() >= seg:
                    return i
            elif ((cwnd if cwnd < rwnd else rwnd)
                  - (high - una - s.sacked_out - s.lost_out + s.retrans_out) * seg >= seg):
                return i
            i += 1
            if i == n:
                i = 0
        return None

    def on_sent(self, conn, subflow: int, dsn: int, now_ns: int) -> None:
        self._next = (subflow + 1) % len(conn.subflows)


__all__ = ["RoundRobinConnectionScheduler"]
