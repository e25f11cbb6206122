"""TCP-DOOR: detection of out-of-order delivery and response (Wang & Zhang, MobiHoc 2002)."""

from __future__ import annotations

from ...._validate import check_real
from ...registry import register
from ...tcp.decisions import FastRetransmitDecision, TimeoutDecision, UndoMode
from .base import ReorderingResponse


@register("reordering", "tcp-door")
class TcpDoor(ReorderingResponse):
    """TCP with Detection of Out-of-Order and Response.

    ``variant="paper"`` (default).  Detection — Wang & Zhang mark data packets (TPSN) and
    ACKs (ADSN) with their own sequence numbers so that the sender sees out-of-order
    events.  The simulator's packets carry no such options; the sender detects the same
    events from what it has:

    * an out-of-order ACK: a cumulative ACK below the highest one received (an ACK
      overtaken by a later one: ACK-path reordering);
    * an out-of-order data delivery: an ACK that advances ``SND.UNA`` after duplicate ACKs
      while the segment at ``SND.UNA`` had not been retransmitted (the hole was filled by
      the late original, which the receiver acknowledges at once).

    Responses, both from the paper:

    * *temporarily disabling congestion control* for ``T1`` after a detection: a fast
      retransmit then keeps the window (``on_fast_retransmit`` → ``KEEP_WINDOW``) and a timeout
      retransmits without reducing it (``on_timeout`` → ``VETO``);
    * *instant recovery during congestion avoidance*: a detection within ``T2`` after a
      window reduction restores the state saved just before it (``how=UndoMode.EXACT``).

    ``T1 = t1_srtt × SRTT`` and ``T2 = t2_srtt × SRTT`` at the moment of use; defaults
    1 SRTT each — a choice of this book (the paper's text is not in the shared corpus, so
    its values could not be checked here); change them with the parameters.

    The Chihani–Collange model's version is :class:`cmtlab.sim.models.chihani.ChihaniTcpDoor`.
    """

    name = "tcp-door"
    VARIANT = "paper"
    wants_every_ack = True

    def __init__(self, variant: str | None = None, t1_srtt: float = 1.0, t2_srtt: float = 1.0):
        super().__init__(variant)
        self.t1_srtt = check_real("t1_srtt", t1_srtt, low=0, high=1000, low_open=True, what=" (multiples of SRTT)")
        self.t2_srtt = check_real("t2_srtt", t2_srtt, low=0, high=1000, low_open=True, what=" (multiples of SRTT)")
        self.high_ack = 0
        self.retransmitted = set()
        self.disabled_until = -1
        self.saved = None
        self.reduced_at = None
        self.detections = 0
        self.instant_recoveries = 0

    def _srtt(self, sub):
        return sub.srtt if sub.n_rtt_samples else sub.rto

    def on_fast_retransmit(self, sub, now):
        if now < self.disabled_until:
            return FastRetransmitDecision.KEEP_WINDOW
        self.saved = sub.snapshot_congestion_state(now)
        self.reduced_at = now
        return FastRetransmitDecision.REDUCE

    def on_timeout(self, sub, now):
        if now < self.disabled_until:
            return TimeoutDecision.VETO
        self.saved = sub.snapshot_congestion_state(now)
        self.reduced_at = now
        return TimeoutDecision.STANDARD

    def on_retransmit(self, sub, k, now):
        self.retransmitted.add(k)

    def on_ack(self, sub, ack, ts_echo, sack, now):
        una = sub.una
        ooo = False
        if ack < self.high_ack:
            ooo = True  # an ACK overtaken by a later one
        elif ack > una and sub.dupacks > 0 and una not in self.retransmitted:
            ooo = True  # the hole at SND.UNA was filled by the original: data reordering
        if ack > self.high_ack:
            self.high_ack = ack
        if self.retransmitted and ack > una:
            self.retransmitted = {k for k in self.retransmitted if k >= ack}
        if not ooo:
            return
        self.detections += 1
        srtt = self._srtt(sub)
        self.disabled_until = now + int(self.t1_srtt * srtt)
        if self.saved is not None and now - self.reduced_at <= int(self.t2_srtt * srtt):
            # instant recovery, before the ACK is processed
            sub.restore_congestion_state(self.saved, now, how=UndoMode.EXACT)
            self.instant_recoveries += 1
            self.saved = None
