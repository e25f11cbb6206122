"""BLEST, the blocking-estimation scheduler (Ferlin, Alay, Mehani, Boreli, IFIP Networking 2016, sec. III)."""

from __future__ import annotations

from ...._validate import check_real
from ...registry import register
from ._paths import connection_window_free_bytes, fastest, rtt_ns
from .base import ConnectionScheduler, _has_room


@register("scheduler", "blest")
class BlestScheduler(ConnectionScheduler):
    """BLEST (Ferlin et al. 2016, Algorithm 1): lowest RTT first, but a slower subflow is used only if
    the data it takes cannot block the fastest one in the connection-level send window.

    When the fastest subflow ``x_f`` (lowest smoothed RTT) has room it gets the segment.  Otherwise the
    fastest subflow with room, ``x_s``, is considered: during one ``RTT_s`` the fast subflow could send
    (congestion avoidance, one segment more per ``RTT_f``; ``rtts = RTT_s / RTT_f``)::

        X = MSS_f * (CWND_f + (rtts - 1) / 2) * rtts            (bytes)

    and ``x_s`` is skipped (the answer is ``None``: wait for ``x_f``) when ``X * lambda > |SW| -
    MSS_s * (inflight_s + 1)``.  Choice stated: ``|SW|`` is the connection-level window the receiver
    leaves the sender — its free space (``connection_window_free_bytes``) plus the bytes
    already in flight on ``x_s`` (the formula subtracts those again), so the test reads "after this
    segment, would the window still hold what ``x_f`` sends during one ``RTT_s``".

    ``lambda`` (start ``lambda_init`` = 1) corrects the estimate (paper sec. III-B): each time the fast
    subflow had room but the connection-level window was full (the head-of-line blocking BLEST
    predicts), ``lambda += delta_lambda``; each time a skip decision is followed by the fast subflow
    opening room with the window not full, ``lambda -= delta_lambda`` (not below ``lambda_min``).
    """

    def __init__(self, lambda_init: float = 1.0, delta_lambda: float = 0.01, lambda_min: float = 0.0):
        self.lam = check_real("lambda_init", lambda_init, low=0)
        self.delta_lambda = check_real("delta_lambda", delta_lambda, low=0)
        self.lambda_min = check_real("lambda_min", lambda_min, low=0)
        self.skips = 0  # decisions that waited for the fast subflow
        self._skipped = False

    def blocking_estimate_bytes(self, fast, slow) -> float:
        """``X`` of the paper: bytes the fast subflow can send during one RTT of the slow one."""
        rf, rs = rtt_ns(fast), rtt_ns(slow)
        rtts = rs / rf if rf > 0 else 1.0
        cwnd_f = fast.cwnd / fast.seg
        return fast.seg * (cwnd_f + (rtts - 1.0) / 2.0) * rtts

    def select(self, conn, now_ns: int):
        subs = conn.subflows
        f = fastest(subs)
        if f is None:
            return None
        free = connection_window_free_bytes(conn)
        if _has_room(subs[f]):
            if self._skipped:
                self.lam = max(self.lambda_min, self.lam - self.delta_lambda)
                self._skipped = False
            if free < conn.seg:
                self.lam += self.delta_lambda  # the fast subflow is blocked by the window
            return f
        room = [i for i, s in enumerate(subs) if _has_room(s)]
        if not room:
            return None
        s = fastest(subs, room)
        slow = subs[s]
        inflight_s = slow.in_flight()
        sw = free + inflight_s
        if self.blocking_estimate_bytes(subs[f], slow) * self.lam > sw - slow.seg * (inflight_s // slow.seg + 1):
            self.skips += 1
            self._skipped = True
            return None
        return s


__all__ = ["BlestScheduler"]
