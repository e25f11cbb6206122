"""The loss-recovery interface (ns-3's ``TcpRecoveryOps``)."""

from __future__ import annotations

from ...tcp.decisions import FastRetransmitDecision


class RecoveryAlgorithm:
    """cwnd during fast recovery (see the module docstring).

    A subclass implements :meth:`enter` and :meth:`on_ack` (the base raises
    ``NotImplementedError``).  This class and :class:`~.newreno.ClassicRecovery` are compiled
    (:mod:`cmtlab.compiled`; ``base.pxd`` beside this file); an algorithm written in Python works
    alike.
    """

    name = "abstract"
    #: The sender keeps loss marks without SACK (RFC 6582/ns-3 "Reno SACK"): a partial ACK marks
    #: and retransmits the next segment, each duplicate ACK in recovery marks one more segment as
    #: received, a head marked lost re-enters recovery at once.  ``False``: a sender without any
    #: scoreboard, which retransmits only at the third duplicate ACK (the Chihani–Collange model).
    loss_marks = True
    #: Every partial ACK restarts the retransmission timer (ns-3.7's ``NewAck`` in a sender without
    #: recovery state, the Chihani–Collange model); ``False`` (RFC 6582 sec. 3.2 step 5, ns-3's
    #: "Impatient" variant): only the first partial ACK of a recovery does.
    partial_ack_restarts_timer = False
    #: A fast retransmit that keeps the window (``KEEP_WINDOW``, e.g. PR-R) sets ``ssthresh = cwnd``, ending
    #: any slow start; ``False``: ``ssthresh`` is left as it was (the Chihani–Collange model, where the
    #: window-reduction function is all that changes it).
    keep_window_sets_ssthresh = True

    def enter(self, sub, dupacks: int, unacked_bytes: int, delivered_bytes: int,
              decision: FastRetransmitDecision = FastRetransmitDecision.REDUCE) -> None:
        """Fast recovery starts; ``sub.ssthresh`` is already the reduced threshold (or ``cwnd``
        when ``decision`` is ``KEEP_WINDOW``)."""
        raise NotImplementedError(f"{type(self).__name__} must implement enter")

    def on_ack(self, sub, delivered_bytes: int, is_dupack: bool) -> None:
        """A duplicate or partial ACK arrived during recovery."""
        raise NotImplementedError(f"{type(self).__name__} must implement on_ack")

    def timeout_window(self, sub) -> int:
        """``cwnd`` (bytes) after a retransmission timeout: one segment (RFC 5681 eq. 4)."""
        return sub.seg

    def allows_fast_retransmit(self, sub) -> bool:
        """At the duplicate-ACK threshold: may ``sub.una`` be fast-retransmitted?  (RFC: always;
        the Chihani–Collange model: once per segment.)"""
        return True

    def exit(self, sub) -> None:
        """Recovery is over (``sub.cwnd`` has been set to ``sub.ssthresh``)."""

    def bytes_sent(self, sub, nbytes: int) -> None:
        """``nbytes`` of data were sent while in recovery."""


__all__ = ["RecoveryAlgorithm"]
