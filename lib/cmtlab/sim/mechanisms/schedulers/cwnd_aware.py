"""CWND-aware probabilistic scheduling, OSIA's baseline (Wang et al. sec. 5.1, after Saadawi & Lee)."""

from __future__ import annotations

from ...registry import register
from .base import ConnectionScheduler, _has_room


@register("scheduler", "cwnd_aware")
class CwndAwareScheduler(ConnectionScheduler):
    """CWND-aware probabilistic scheduling, OSIA's baseline (Wang et al. sec. 5.1, after Saadawi & Lee).

    Each DSN is given to subflow ``i`` with probability ``P(i) = cwnd_i / sum_j cwnd_j`` (windows
    read when the DSN's draw is made), drawn from ``conn.make_rng(stream)``.  When the drawn
    subflow has no room the answer is ``None`` and the same draw stands until it has
    (``when_full="wait"``, the default: the per-packet probabilities stay exactly ``P(i)``), or
    the draw is repeated among the subflows with room (``when_full="redraw"``; ``None`` when
    none has room).
    """

    WHEN_FULL = ("wait", "redraw")

    def __init__(self, stream: int = 5000, when_full: str = "wait"):
        from ...._validate import check_choice, check_int

        self.stream = check_int("stream", stream, minimum=0)
        self.when_full = check_choice("when_full", when_full, self.WHEN_FULL)
        self._rng = None
        self._pending = None

    def init(self, conn) -> None:
        self._rng = conn.make_rng(self.stream)
        self._pending = None

    def _draw(self, subs, candidates):
        total = float(sum(subs[i].cwnd for i in candidates))
        if total <= 0:
            return candidates[0]
        u = self._rng.random() * total
        acc = 0.0
        for i in candidates:
            acc += subs[i].cwnd
            if u < acc:
                return i
        return candidates[-1]

    def select(self, conn, now_ns: int):
        if self._rng is None:
            self.init(conn)
        subs = conn.subflows
        if self.when_full == "redraw":
            room = [i for i, s in enumerate(subs) if _has_room(s)]
            return self._draw(subs, room) if room else None
        if self._pending is None:
            self._pending = self._draw(subs, list(range(len(subs))))
        return self._pending if _has_room(subs[self._pending]) else None

    def on_sent(self, conn, subflow: int, dsn: int, now_ns: int) -> None:
        self._pending = None


__all__ = ["CwndAwareScheduler"]
