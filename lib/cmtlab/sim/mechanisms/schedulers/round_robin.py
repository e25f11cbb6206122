"""Round robin over subflows, as the papers' ns-3 model schedules (Chihani–Collange code)."""

from __future__ import annotations

from ...registry import register
from .base import NO_SUBFLOW, USE_SELECT, ConnectionScheduler, _has_room, _subflows

_NO_SUBFLOW = NO_SUBFLOW  # (C integers when compiled)
_USE_SELECT = USE_SELECT


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
        i = self._turn(conn)
        return None if i == _NO_SUBFLOW else i

    def select_index(self, conn, now_ns: int) -> int:
        if type(self) is not RoundRobinConnectionScheduler:
            return _USE_SELECT  # a subclass's own select() answers
        return self._turn(conn)

    def _turn(self, conn) -> int:
        """The next subflow in turn with room for a segment (its index), or ``NO_SUBFLOW``."""
        subs = _subflows(conn)
        n = len(subs)
        i = self._next
        for _ in range(n):
            if _has_room(subs[i]):
                return i
            i += 1
            if i == n:
                i = 0
        return _NO_SUBFLOW

    def on_sent(self, conn, subflow: int, dsn: int, now_ns: int) -> None:
        self._next = (subflow + 1) % len(_subflows(conn))


register("scheduler", "round_robin")(RoundRobinConnectionScheduler)  # compiled (round_robin.pxd): no decorator


__all__ = ["RoundRobinConnectionScheduler"]
