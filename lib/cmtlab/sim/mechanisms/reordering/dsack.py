"""D-SACK based undo: RFC 2883 reports, RFC 3708 detection, the saved window restored."""

from __future__ import annotations

from ...registry import register
from ...tcp.state import LOSS
from ...tcp.decisions import FastRetransmitDecision, TimeoutDecision, UndoMode
from .base import ReorderingResponse


@register("reordering", "dsack")
class DsackUndo(ReorderingResponse):
    """Undo a window reduction whose retransmissions all turn out to be duplicates.

    ``variant="rfc"`` (default):

    * the receiver reports every duplicate segment in a D-SACK block (RFC 2883 sec. 4;
      needs ``sack=True``);
    * a *retransmission episode* starts at a fast retransmit or a timeout; the congestion
      state is saved before the reduction; every retransmission of the episode is counted
      (RFC 3708 sec. 3, "the number of retransmitted segments");
    * each D-SACK block for a segment retransmitted in the episode counts one down; when
      every retransmission has been D-SACKed and the cumulative ACK has passed the end of
      the episode (the recovery point), the episode was spurious (RFC 3708 sec. 3);
    * response (RFC 3708 leaves it to the implementation; MECHANISMS: Linux's DSACK undo):
      ``restore_congestion_state(saved, how=UndoMode.UNDO)`` — ``cwnd`` and ``ssthresh`` back to
      at least their saved values.

    A D-SACK that arrives before the episode has ended leaves the decision to a later
    D-SACK (conservative: no undo if the last one came early).  The Chihani–Collange model's
    version is :class:`cmtlab.sim.models.chihani.ChihaniDsack`.
    """

    name = "dsack"
    wants_dsack = True

    def __init__(self, variant: str | None = None):
        super().__init__(variant)
        self.saved = None  # CongestionState before the episode's reduction
        self.retx = {}  # segment -> retransmissions not yet D-SACKed
        self.recover = 0  # end of the episode (segment index)
        self.detections = 0

    def attach(self, sub):
        super().attach(sub)
        self.check_options(sub)

    def check_options(self, options):
        if not options.sack:
            raise ValueError("reordering 'dsack' needs D-SACK reports, which ride on SACK: sack must be True")

    def _start(self, sub, now):
        self.saved = sub.snapshot_congestion_state(now)
        self.retx = {}
        self.recover = sub.high

    def on_fast_retransmit(self, sub, now):
        self._start(sub, now)
        return FastRetransmitDecision.REDUCE

    def on_timeout(self, sub, now):
        if sub.state != LOSS:  # a timeout during a timeout recovery continues the same episode
            self._start(sub, now)
        return TimeoutDecision.STANDARD

    def on_retransmit(self, sub, k, now):
        if self.saved is not None:
            self.retx[k] = self.retx.get(k, 0) + 1

    def on_dsack(self, sub, block, now):
        if self.saved is None:
            return
        retx = self.retx
        hit = False
        for k in range(block[0], block[1]):
            n = retx.get(k)
            if n:
                hit = True
                if n == 1:
                    del retx[k]
                else:
                    retx[k] = n - 1
        if hit:
            self._on_retransmission_dsacked(sub, now)

    def _on_retransmission_dsacked(self, sub, now):
        """A D-SACK reported a retransmission of the episode (RFC 3708 sec. 3: spurious once
        every one was reported and the cumulative ACK passed the recovery point)."""
        if not self.retx and sub.una >= self.recover:
            self._undo(sub, now, UndoMode.UNDO)

    def _undo(self, sub, now, how):
        sub.restore_congestion_state(self.saved, now, how=how)
        self.detections += 1
        self.saved = None
        self.retx = {}
