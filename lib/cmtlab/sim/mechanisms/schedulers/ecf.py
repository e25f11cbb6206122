"""ECF, the earliest-completion-first scheduler (Lim, Nahum, Towsley, Gibbens, CoNEXT 2017, sec. 3, Algorithm 1)."""

from __future__ import annotations

from ...registry import register
from ._paths import fastest, rtt_ns, rttvar_ns
from .base import ConnectionScheduler, _has_room


@register("scheduler", "ecf")
class EcfScheduler(ConnectionScheduler):
    """ECF (Lim et al. 2017, Algorithm 1): use a slower subflow only if the data left would finish
    later by waiting for the fastest one.

    ``x_f`` = lowest smoothed RTT; if it has room it gets the segment.  Otherwise ``x_s`` = the fastest
    subflow with room, ``k`` = segments still to send at the connection level (``n_dsn - next_dsn``;
    unbounded for a duration-limited run, so ECF then behaves as lowest-RTT-with-room),
    ``n = 1 + k / CWND_f``, ``delta = max(RTTVAR_f, RTTVAR_s)``::

        if n * RTT_f < (1 + waiting * beta) * (RTT_s + delta):      # waiting for x_f finishes first
            if k / CWND_s * RTT_s >= 2 * RTT_f + delta:             # and x_s would not finish sooner
                waiting = 1; send nothing (None)
            else: send on x_s
        else: waiting = 0; send on x_s

    ``beta`` (0.25 in the paper) is the hysteresis that keeps the decision from flapping; windows in
    segments, RTT and RTTVAR as the subflow's RFC 6298 estimator has them.
    """

    def __init__(self, beta: float = 0.25):
        if isinstance(beta, bool) or not isinstance(beta, (int, float)) or not 0 <= beta < float("inf"):
            raise ValueError(f"beta must be a finite number >= 0, got {beta!r}")
        self.beta = float(beta)
        self.waiting = 0
        self.waits = 0  # decisions that waited for the fast subflow

    def select(self, conn, now_ns: int):
        subs = conn.subflows
        f = fastest(subs)
        if f is None:
            return None
        if _has_room(subs[f]):
            return f
        room = [i for i, s in enumerate(subs) if _has_room(s)]
        if not room:
            return None
        s = fastest(subs, room)
        if conn.n_dsn is None:
            return s  # k unbounded: n * RTT_f is never smaller
        k = conn.n_dsn - conn.next_dsn
        xf, xs = subs[f], subs[s]
        rf, rs = rtt_ns(xf), rtt_ns(xs)
        cwnd_f, cwnd_s = xf.cwnd / xf.seg, xs.cwnd / xs.seg
        delta = max(rttvar_ns(xf), rttvar_ns(xs))
        n = 1.0 + k / cwnd_f
        if n * rf < (1.0 + self.waiting * self.beta) * (rs + delta):
            if k / cwnd_s * rs >= 2.0 * rf + delta:
                self.waiting = 1
                self.waits += 1
                return None
            return s
        self.waiting = 0
        return s


__all__ = ["EcfScheduler"]
