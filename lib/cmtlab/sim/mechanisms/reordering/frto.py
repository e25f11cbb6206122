"""F-RTO: detection of spurious retransmission timeouts (RFC 5682 sec. 2.1)."""

from __future__ import annotations

from ...registry import register
from ...tcp.state import LOSS
from ...tcp.decisions import TimeoutDecision, UndoMode
from .base import ReorderingResponse


@register("reordering", "frto")
class Frto(ReorderingResponse):
    """Forward RTO recovery, the basic algorithm of RFC 5682 sec. 2.1.

    ``variant="rfc"`` (default):

    1. on a timeout the state is saved and the sender *defers* the go-back-N
       (``on_timeout`` → ``DEFER``): the usual reduction (``ssthresh``, ``cwnd = 1 SMSS``,
       timer backoff) but only the first unacknowledged segment is retransmitted; ``recover``
       is the highest segment sent;
    2. first ACK after the timeout: (a) a duplicate ACK, or one that covers ``recover`` →
       conventional RTO recovery (``sub.conventional_rto_recovery``; nothing to do when it
       covers ``recover``: the timeout recovery is over anyway); (b) an ACK that advances
       the window → send up to two new segments (``sub.send_new_data(now, 2)``); when none
       can be sent, conventional recovery;
    3. second ACK: (a) a duplicate ACK → conventional recovery (``cwnd`` at most 3 SMSS);
       (b) an ACK that advances the window → the timeout was spurious.  Response (RFC 5682
       sec. 4 recommends RFC 4015): ``restore_congestion_state(saved, how=UndoMode.RFC4015)`` and
       go on with new data.

    A timeout that recurs before any ACK, on the same ``SND.UNA``, restarts F-RTO at step 1
    with the state saved before the first one (RFC 5682 sec. 3.2, as Linux); any other
    timeout during an RTO recovery (after F-RTO sent new data, or a go-back-N) takes the
    standard reaction.
    Fast retransmits are untouched.  The Chihani–Collange model's version is
    :class:`cmtlab.sim.models.chihani.ChihaniFrto`.
    """

    name = "frto"
    wants_every_ack = True

    def __init__(self, variant: str | None = None):
        super().__init__(variant)
        self.phase = 0  # 0: idle, 1: waiting for the first ACK after the RTO, 2: for the second
        self.saved = None
        self.recover = 0
        self.una_at_timeout = -1
        self.una_before = 0
        self.stale = False
        self.detections = 0
        self.reverts = 0

    def on_timeout(self, sub, now):
        if self.phase == 1 and sub.una == self.una_at_timeout:
            # a recurring timeout before any ACK, on the same SND.UNA: F-RTO again, the state
            # saved before the first timeout kept (RFC 5682 sec. 3.2; Linux does the same)
            self.recover = sub.high
            return TimeoutDecision.DEFER
        if self.phase or sub.state == LOSS:
            # a timeout during an RTO recovery (after F-RTO sent new data, or a go-back-N)
            # continues with the conventional recovery (RFC 5682 sec. 2.1, step 1)
            self.phase = 0
            return TimeoutDecision.STANDARD
        self.saved = sub.snapshot_congestion_state(now)
        self.recover = sub.high
        self.una_at_timeout = sub.una
        self.phase = 1
        return TimeoutDecision.DEFER

    def on_ack(self, sub, ack, ts_echo, sack, now):
        una = self.una_before = sub.una
        if self.phase == 2 and ack > una:
            # step 3b: the second ACK advances the window -> spurious; restored before the
            # ACK is processed, which then continues in Open state with new data
            self.phase = 0
            self.detections += 1
            self._respond(sub, ack, now)

    def _respond(self, sub, ack, now):
        """The response to a spurious timeout (RFC 5682 sec. 4 recommends RFC 4015's)."""
        sub.restore_congestion_state(self.saved, now, how=UndoMode.RFC4015, ack=ack)

    def _conventional(self, sub, now):
        sub.conventional_rto_recovery(now)
        self.phase = 0
        self.reverts += 1

    def after_ack(self, sub, ack, now):
        phase = self.phase
        if not phase:
            return
        una = self.una_before
        dup = ack == una
        if phase == 1:
            if dup:
                self._conventional(sub, now)
            elif ack >= self.recover:
                self.phase = 0
            elif sub.send_new_data(now, 2) == 0:
                self._conventional(sub, now)
            else:
                self.phase = 2
        elif dup:
            self._conventional(sub, now)
        else:  # the second ACK covers everything sent: the timeout recovery is over anyway
            self.phase = 0
