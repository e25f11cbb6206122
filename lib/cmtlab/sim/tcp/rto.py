"""RTT estimation and the retransmission timer (RFC 6298, ns-3's ``RttMeanDeviation``).

A class of :class:`~cmtlab.sim.tcp.sender.TcpSender`'s chain (see :mod:`~cmtlab.sim.tcp.base`):
``srtt``, ``rttvar``, ``rto`` in integer nanoseconds; the timer is a
:class:`~cmtlab.sim.engine.timers.LazyTimer` (``sub.rto_timer``).
``RTO = max(SRTT + max(G, 4 RTTVAR), MinRto)``; the first sample sets ``SRTT = R``,
``RTTVAR = R / 2``; gains 1/8 and 1/4 as integer shifts.
"""

from __future__ import annotations

from .source import BulkSource


class RttEstimator(BulkSource):
    """RFC 6298 estimator and timer access of a sender (see the module docstring)."""

    __slots__ = ()

    def rtt_sample(self, rtt: int) -> None:
        """Feed one RTT sample (ns) to the RFC 6298 estimator.

        ns-3 ``RttMeanDeviation`` with gains 1/8 and 1/4 in integer nanoseconds
        (Jacobson/Karels shifts): ``SRTT += (R - SRTT) / 8``,
        ``RTTVAR += (|R - SRTT| - RTTVAR) / 4``; the first sample sets ``SRTT = R``,
        ``RTTVAR = R / 2``.
        """
        self.last_rtt_sample_ns = rtt
        if self.n_rtt_samples:
            delta = rtt - self.srtt
            self.srtt = ((self.srtt << 3) + delta) >> 3
            if delta < 0:
                delta = -delta
            self.rttvar = ((self.rttvar << 2) + delta - self.rttvar) >> 2
        else:
            self.srtt = rtt
            self.rttvar = rtt // 2
        self.n_rtt_samples += 1
        rule = self.rto_rule
        if rule is not None:
            rule.sample(self, rtt)  # a model's own estimator owns rto (and srtt)
            return
        self._update_rto()

    def _update_rto(self) -> None:
        rule = self.rto_rule
        if rule is not None:
            rule.update(self)
            return
        if self.n_rtt_samples:
            v4 = 4 * self.rttvar
            r = self.srtt + (v4 if v4 > self.clock_g else self.clock_g)
            self.rto = r if r > self.min_rto else self.min_rto
        else:
            self.rto = self.initial_rto

    @property
    def rto_event(self):
        """Time (ns) of the retransmission timer's pending event (``None``: none queued)."""
        return self.rto_timer.event_ns

    def on_rto_event(self, now: int) -> None:
        """The retransmission timer's event came due (lazy timer: may be stale; see :class:`~cmtlab.sim.engine.timers.LazyTimer`)."""
        self.rto_timer.fire(now)


__all__ = ["RttEstimator"]
