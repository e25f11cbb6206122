"""The congestion-control interface (ns-3's ``TcpCongestionOps``)."""

from __future__ import annotations


class CongestionControl:
    """Window growth and loss reaction of one subflow (see the module docstring).

    A subclass implements :meth:`increase_window` and :meth:`ssthresh` (the base raises
    ``NotImplementedError``).  This class and the built-in algorithms are compiled
    (:mod:`cmtlab.compiled`; ``base.pxd`` beside this file); a subclass written in Python
    works alike, compiled base or not.
    """

    name = "abstract"

    def init(self, sub) -> None:
        """Called once when the subflow starts (``sub.cwnd``/``sub.ssthresh`` already set)."""

    def increase_window(self, sub, segments_acked: int) -> None:
        """Grow ``sub.cwnd`` for an ACK that acknowledged ``segments_acked`` new segments.

        ``sub.ack_time_ns`` is the engine time (integer ns) of that ACK, for time-based
        algorithms (CUBIC's ``W_cubic(t)``); it is also current in :meth:`ssthresh` when a fast
        retransmit calls it."""
        raise NotImplementedError(f"{type(self).__name__} must implement increase_window")

    def ssthresh(self, sub, bytes_in_flight: int) -> int:
        """New slow-start threshold (bytes) after a loss with ``bytes_in_flight`` outstanding."""
        raise NotImplementedError(f"{type(self).__name__} must implement ssthresh")


__all__ = ["CongestionControl"]
