"""Uncoupled subflows (Arabi sec. 3.1): each subflow runs its own TCP."""

from __future__ import annotations

from ...registry import register
from .coupled import CoupledCongestionControl
from .newreno import NewReno


@register("congestion", "uncoupled")
class Uncoupled(CoupledCongestionControl):
    """Uncoupled subflows (Arabi sec. 3.1): each subflow runs its own TCP.

    Exactly :class:`NewReno` on every subflow (ns-3's per-ACK congestion avoidance
    ``max(1, floor(SMSS^2/cwnd))``), whatever ``counting`` says.  :meth:`ca_increase` is
    ``SMSS^2/cwnd`` bytes unrounded per ACK: what the model variant uses.
    """

    def increase_window(self, sub, segments_acked: int) -> None:
        NewReno.increase_window(self, sub, segments_acked)

    def ca_increase(self, sub, bytes_acked: int) -> float:
        return bytes_acked * sub.seg / sub.cwnd


__all__ = ["Uncoupled"]
