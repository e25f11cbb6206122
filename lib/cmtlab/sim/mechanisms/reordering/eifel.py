"""Eifel: detection from timestamps (RFC 3522) and the Eifel response (RFC 4015)."""

from __future__ import annotations

from ...registry import register
from ...tcp.decisions import FastRetransmitDecision, TimeoutDecision, UndoMode
from .base import ReorderingResponse


@register("reordering", "eifel")
class Eifel(ReorderingResponse):
    """The Eifel detection and response algorithms (needs ``timestamps=True``).

    ``variant="rfc"`` (default; the receiver echoes timestamps as RFC 7323 sec. 4.3 says):

    * RFC 4015 sec. 3.1 step (0): the congestion state is saved when loss recovery starts
      (fast retransmit or timeout), before the reduction (``pipe_prev`` is
      ``max(FlightSize, ssthresh)`` of that record);
    * RFC 3522 sec. 3.2 steps (1)-(2): the TSval of the first retransmission of the
      episode is stored as ``RetransmitTS``;
    * steps (3)-(5): the first *acceptable* ACK after it (one that acknowledges new data,
      ``ack > SND.UNA``) decides once: the retransmission was spurious when its TSecr is
      smaller than ``RetransmitTS`` (the ACK was caused by the original transmission);
    * response, RFC 4015 sec. 3.2, applied before the ACK is processed:
      ``restore_congestion_state(saved, how=UndoMode.RFC4015, ack=ack)`` — ``ssthresh =
      pipe_prev``, ``cwnd = FlightSize + min(bytes_acked, IW)``, recovery ends and nothing
      more is retransmitted (step 5: after a spurious timeout, go on with unsent data); the
      ACK is then processed in Open state.  Not modelled: the RTO adaptation of step (7).

    The Chihani–Collange model's version is :class:`cmtlab.sim.models.chihani.ChihaniEifel`.
    """

    name = "eifel"
    wants_every_ack = True
    wants_rfc7323_echo = True

    def __init__(self, variant: str | None = None):
        super().__init__(variant)
        self.saved = None
        self.retransmit_ts = None  # TSval (ms) of the episode's first retransmission
        self.detections = 0
        self.checks = 0

    def attach(self, sub):
        super().attach(sub)
        self.check_options(sub)

    def check_options(self, options):
        if not options.timestamps:
            raise ValueError("reordering 'eifel' needs the timestamp option: timestamps must be True")

    def _start(self, sub, now):
        self.saved = sub.snapshot_congestion_state(now)
        self.retransmit_ts = None

    def on_fast_retransmit(self, sub, now):
        self._start(sub, now)
        return FastRetransmitDecision.REDUCE

    def on_timeout(self, sub, now):
        if self.saved is None:
            self._start(sub, now)
        return TimeoutDecision.STANDARD

    def on_retransmit(self, sub, k, now):
        if self.saved is not None and self.retransmit_ts is None:
            self.retransmit_ts = sub.timestamp_now(now)

    def on_ack(self, sub, ack, ts_echo, sack, now):
        if self.retransmit_ts is None or ack <= sub.una:
            return  # the first acceptable ACK decides, once
        self.checks += 1
        if ts_echo < self.retransmit_ts:
            # restored before the ACK is processed: it is then an ordinary ACK in Open state
            sub.restore_congestion_state(self.saved, now, how=UndoMode.RFC4015, ack=ack)
            self.detections += 1
        self.saved = None
        self.retransmit_ts = None
