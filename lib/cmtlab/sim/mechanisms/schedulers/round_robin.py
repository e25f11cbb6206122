"""Round robin over subflows, as the papers' ns-3 model schedules (Chihani–Collange code)."""

from __future__ import annotations

from ...registry import register
from .base import ConnectionScheduler, _has_room, _subflows


class RoundRobinConnectionScheduler(ConnectionScheduler):
    """Round robin over subflows, as the papers' ns-3 model schedules (Chihani–Collange code).

    The next subflow in turn after the one that carried the previous DSN, skipping subflows
    whose window has no room for a segment; one segment per turn.  ``None`` when no subflow has
    room.  The first DSN goes to subflow 0 (if it has room).
    """

    name = "round_robin"

    def __init__(self):
        self._next = 0

    def init(self, conn) -> None:
        self._next = 0

    def select(self, conn, now_ns: int):
        subs = _subflows(conn)
        n = len(subs)
        i = self._next
        for _ in range(n):
            if _has_room(subs[i]):
                return i
            i += 1
            if i == n:
                i = 0
        return None

    def on_sent(self, conn, subflow: int, dsn: int, now_ns: int) -> None:
        self._next = (subflow + 1) % len(_subflows(conn))


register("scheduler", "round_robin")(RoundRobinConnectionScheduler)  # compiled (round_robin.pxd): no decorator


__all__ = ["RoundRobinConnectionScheduler"]
