"""The congestion-control interface (ns-3's ``TcpCongestionOps``)."""

from __future__ import annotations

from abc import ABC, abstractmethod


class CongestionControl(ABC):
    """Window growth and loss reaction of one subflow (see the module docstring)."""

    name: str = "abstract"

    def init(self, sub) -> None:
        """Called once when the subflow starts (``sub.cwnd``/``sub.ssthresh`` already set)."""

    @abstractmethod
    def increase_window(self, sub, segments_acked: int) -> None:
        """Grow ``sub.cwnd`` for an ACK that acknowledged ``segments_acked`` new segments.

        ``sub.ack_time_ns`` is the engine time (integer ns) of that ACK, for time-based
        algorithms (CUBIC's ``W_cubic(t)``); it is also current in :meth:`ssthresh` when a fast
        retransmit calls it."""

    @abstractmethod
    def ssthresh(self, sub, bytes_in_flight: int) -> int:
        """New slow-start threshold (bytes) after a loss with ``bytes_in_flight`` outstanding."""


__all__ = ["CongestionControl"]
