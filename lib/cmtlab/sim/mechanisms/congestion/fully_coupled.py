"""Fully coupled (Arabi sec. 3.2, after Wischik et al., NSDI 2011 "COUPLED")."""

from __future__ import annotations

from ...registry import register
from .coupled import CoupledCongestionControl


@register("congestion", "fully_coupled")
class FullyCoupled(CoupledCongestionControl):
    """Fully coupled (Arabi sec. 3.2, after Wischik et al., NSDI 2011 "COUPLED").

    Per ACK on subflow ``r``, increase ``w_r`` by ``1/w`` segments, ``w = sum_p w_p`` (the total
    window): ``bytes_acked * SMSS / cwnd_total`` bytes — the connection grows like one TCP
    whose window is the total.  Per loss on ``r``, decrease ``w_r`` by ``w/2``: Arabi prints
    ``max(wc^r - w/2)`` without its second argument; the floor here is RFC 5681's 2 segments
    for the threshold: ``ssthresh = max(FlightSize_r - W/2, 2 SMSS)`` with
    ``W = FlightSize_r + sum_{p != r} cwnd_p`` (FlightSize stands for ``cwnd_r`` as in NewReno;
    with one subflow this is NewReno's ``FlightSize/2``).
    """

    def ca_increase(self, sub, bytes_acked: int) -> float:
        total = sum(s.cwnd for s in self._subflows(sub))
        return bytes_acked * sub.seg / total

    def ssthresh(self, sub, bytes_in_flight: int) -> int:
        if getattr(sub, "connection", None) is None:
            return CoupledCongestionControl.ssthresh(self, sub, bytes_in_flight)
        others = sum(s.cwnd for s in self._subflows(sub) if s is not sub)
        total = bytes_in_flight + others
        v = bytes_in_flight - total // 2
        return max(v, 2 * sub.seg)


__all__ = ["FullyCoupled"]
