"""Congestion control: how the congestion window grows on ACKs and shrinks on loss.

Interface
---------
A :class:`CongestionControl` owns no state of its own by default; it reads and writes the
window of the *subflow* it is called for (a :class:`cmtlab.sim.tcp.TcpSender`: attributes
``cwnd`` and ``ssthresh`` in bytes, ``seg`` the segment size in bytes).  The sender calls

* :meth:`CongestionControl.increase_window` with the number of segments a new cumulative
  ACK acknowledged, in the states where the window may grow (ns-3's
  ``TcpCongestionOps::IncreaseWindow``);
* :meth:`CongestionControl.ssthresh` with the bytes in flight when it detects a loss
  (fast retransmit or retransmission timeout) to get the new slow-start threshold
  (``GetSsThresh``).  What happens to ``cwnd`` then is the loss-recovery algorithm's
  business (:mod:`cmtlab.sim.recovery`) or the timeout's (cwnd = 1 segment).

Coupled multipath congestion control plugs in here: the linked-increase algorithm of RFC
6356 (LIA; Arabi sec. 3.3: increase ``w_r`` by ``min(alpha / w_total, 1 / w_r)`` per ACK),
OLIA, the fully coupled and RTT-compensation variants of Arabi sec. 3.2/3.4 are each a
class constructed with the MPTCP connection (its list of subflows) so that
``increase_window`` can read the other subflows' windows and RTTs.  The uncoupled case is
one :class:`NewReno` per subflow.

Implemented: :class:`NewReno`, the RFC 5681 slow start / congestion avoidance in ns-3's
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

from abc import ABC, abstractmethod

from .registry import register


class CongestionControl(ABC):
    """Window growth and loss reaction of one subflow (see the module docstring)."""

    name: str = "abstract"

    def init(self, sub) -> None:
        """Called once when the subflow starts (``sub.cwnd``/``sub.ssthresh`` already set)."""

    @abstractmethod
    def increase_window(self, sub, segments_acked: int) -> None:
        """Grow ``sub.cwnd`` for an ACK that acknowledged ``segments_acked`` new segments."""

    @abstractmethod
    def ssthresh(self, sub, bytes_in_flight: int) -> int:
        """New slow-start threshold (bytes) after a loss with ``bytes_in_flight`` outstanding."""


@register("congestion", "newreno")
class NewReno(CongestionControl):
    """RFC 5681 slow start and congestion avoidance as ns-3's ``TcpNewReno`` implements them."""

    name = "newreno"
    __slots__ = ()

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
