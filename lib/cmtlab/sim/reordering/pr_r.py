"""PR-R (Alheid et al., ICT 2016, sec. III, Algorithm 1): retransmit at the third duplicate ACK, keep cwnd."""

from __future__ import annotations

from ..registry import register
from .base import ReorderingResponse


@register("reordering", "pr-r")
class PacketReorderingResponse(ReorderingResponse):
    """Alheid et al.'s packet reordering response.

    Algorithm 1: when the duplicate-ACK count for a packet reaches three (line 1), NoPR
    calls the window reduction (line 6) but PR-R does not (lines 3-4); in both cases the
    RTT is noted, the retransmission timer set and the packet retransmitted (lines 9-11).
    Here: the fast retransmit and recovery go ahead with ``cwnd`` kept (``ssthresh =
    cwnd``, so recovery ends at the same window); the timeout reaction is unchanged
    ("the RTO response will take action as legacy TCP", sec. III).  The timer is not
    restarted at the retransmission (line 10 read as "the timer runs", as in RFC 6298).
    Alheid's code is not public, so there is no separate model preset (``variant``
    ``"paper"`` only).
    """

    name = "pr-r"
    VARIANTS = ("paper",)

    def on_fast_retransmit(self, sub, now):
        return False
