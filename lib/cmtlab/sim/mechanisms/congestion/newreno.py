"""The single-path algorithm is :class:`NewReno`, the RFC 5681 slow start / congestion avoidance in ns-3's
``TcpNewReno`` form (ns-3.44), which the simulator follows where the RFC leaves room:

* ``cwnd`` is kept in bytes;
* slow start adds one segment per ACK that acknowledges new data, however many
  segments it covers (RFC 5681 eq. 2, ``cwnd += min(N, SMSS)``); the segments of that ACK
  not used by slow start are passed on to congestion avoidance if the window crossed
  ``ssthresh``;
* congestion avoidance adds ``max(1, floor(SMSS * SMSS / cwnd))`` bytes once per ACK
  (not per acknowledged segment; ns-3 truncates to whole bytes) — about one segment per
  window of ACKs;
* on loss ``ssthresh = max(2 * SMSS, bytes_in_flight / 2)`` (RFC 5681 eq. 4 with
  FlightSize as ns-3 counts it, integer division).
"""

from __future__ import annotations

from ...registry import register
from .base import CongestionControl


class NewReno(CongestionControl):
    """RFC 5681 slow start and congestion avoidance as ns-3's ``TcpNewReno`` implements them."""

    name = "newreno"

    def increase_window(self, sub, segments_acked: int) -> None:
        cwnd = sub.cwnd
        ssthresh = sub.ssthresh
        seg = sub.seg
        if cwnd < ssthresh:  # slow start: one SMSS per ACK of new data (RFC 5681 sec. 3.1)
            if segments_acked >= 1:
                cwnd += seg
                segments_acked -= 1
            else:
                segments_acked = 0
        if cwnd >= ssthresh and segments_acked > 0:  # congestion avoidance, once per ACK
            add = (seg * seg) // cwnd
            cwnd += add if add > 1 else 1
        sub.cwnd = cwnd

    def ssthresh(self, sub, bytes_in_flight: int) -> int:
        half = bytes_in_flight // 2
        two = 2 * sub.seg
        return half if half > two else two


register("congestion", "newreno")(NewReno)  # a compiled class (newreno.pxd) takes no decorator


__all__ = ["NewReno"]
