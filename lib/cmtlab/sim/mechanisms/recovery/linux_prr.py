"""Proportional Rate Reduction as Linux runs it (``tcp_cwnd_reduction``, ``net/ipv4/tcp_input.c``).

Linux's PRR (since 3.2; the code quoted is 6.x) differs from ns-3.44's ``TcpPrrRecovery``
(:class:`~cmtlab.sim.mechanisms.recovery.prr.PrrRecovery`, the simulator's default ``"prr"``) in
what it counts, and the difference sends more data during every recovery in ns-3's version:

* ``prr_delivered`` grows by ``newly_acked_sacked`` — the segments this ACK newly acknowledged or
  SACKed (``tp->delivered``'s increase) — and by nothing else.  ns-3.44 adds one more segment for
  every duplicate ACK while ``prr_delivered < RecoverFS``, even with SACK, where the SACK block
  already counted that segment: up to twice Linux's sending rate early in a recovery;
* ``RecoverFS`` is ``prior_cwnd``, the window when recovery started (``tcp_init_cwnd_reduction``);
  ns-3.44 takes the bytes in flight then (RFC 6675 ``pipe``, which excludes the SACKed and lost
  segments and is smaller, so again more is sent);
* proportional part (``tcp_packets_in_flight > ssthresh``)::

      sndcnt = ceil(ssthresh * prr_delivered / prior_cwnd) - prr_out

  reduction bound otherwise (PRR-SSRB, Linux's default since 3.10)::

      sndcnt = min(ssthresh - in_flight,
                   max(prr_delivered - prr_out, newly_acked_sacked) + (1 if snd_una advanced
                                                                        and nothing newly lost))

* ``sndcnt >= 1`` until something was sent (the fast retransmit), an ACK that delivered nothing
  changes nothing (``newly_acked_sacked <= 0``: return), and ``cwnd = in_flight + sndcnt``.

Linux counts in segments; so does this class (``sub.seg`` bytes each).  The sender may call
``on_ack`` twice for one ACK (once as a duplicate ACK, once as a partial ACK, when an ACK both
SACKs and advances ``snd_una``); Linux calls ``tcp_cwnd_reduction`` once per ACK, so the second
call adds no delivered segments — it only sets the ``snd_una``-advanced bonus.  Entering recovery
from a timer (RACK's reordering timer, nothing delivered) counts one segment, as Linux's
``tcp_rack_reo_timeout`` does (``tcp_cwnd_reduction(sk, 1, 0, 0)``).  "Nothing newly lost" is read
from the sender's count of segments marked lost (``lost_out``) not having grown since the last ACK.

``in_flight`` is the flight after this ACK's losses are marked (``sub.in_flight()``, RFC 6675 ``pipe``: sent -
SACKed - lost + retransmitted), as Linux reads ``tcp_packets_in_flight()`` in ``tcp_cwnd_reduction``, which
``tcp_cong_control`` calls after ``tcp_fastretrans_alert`` has run RACK's ``tcp_identify_packet_loss``.  (Until
stop 47 of issue 37 this class read the sender's ``pipe_snapshot``, taken before the marking: an ACK that marked k
segments lost let its window admit k segments more than Linux's ``sndcnt``.)
"""

from __future__ import annotations

from ...registry import register
from ...tcp.decisions import FastRetransmitDecision
from .base import RecoveryAlgorithm


@register("recovery", "linux_prr")
class LinuxPrrRecovery(RecoveryAlgorithm):
    """Linux's PRR (``tcp_cwnd_reduction``); see the module docstring."""

    name = "linux_prr"
    __slots__ = ("prr_delivered", "prr_out", "prior_cwnd", "_last_ack", "_lost_seen")

    def __init__(self):
        self.prr_delivered = self.prr_out = self.prior_cwnd = 0  # segments
        self._last_ack = None
        self._lost_seen = 0

    def enter(self, sub, dupacks, unacked_bytes, delivered_bytes, decision=FastRetransmitDecision.REDUCE):
        seg = sub.seg
        self.prior_cwnd = max(sub.cwnd // seg, 1)
        self.prr_delivered = self.prr_out = 0
        self._last_ack = (getattr(sub, "ack_time_ns", None), sub.una)  # this ACK is counted here
        self._lost_seen = getattr(sub, "lost_out", 0)
        # Linux reduces on the ACK that entered recovery with what it delivered; from a timer, one segment
        self._reduce(sub, max(delivered_bytes // seg, 1), una_advanced=False, newly_lost=True)

    def on_ack(self, sub, delivered_bytes, is_dupack):
        key = (getattr(sub, "ack_time_ns", None), sub.una)
        lost = getattr(sub, "lost_out", 0)
        newly_lost = lost > self._lost_seen
        self._lost_seen = lost
        if key == self._last_ack:  # the same ACK, seen again as a partial ACK: snd_una advanced
            if not is_dupack:
                self._reduce(sub, 0, una_advanced=True, newly_lost=newly_lost, again=True)
            return
        self._last_ack = key
        self._reduce(sub, delivered_bytes // sub.seg, una_advanced=not is_dupack, newly_lost=newly_lost)

    def _reduce(self, sub, newly: int, *, una_advanced: bool, newly_lost: bool, again: bool = False) -> None:
        if newly <= 0 and not again:
            return
        seg = sub.seg
        self.prr_delivered += newly
        in_flight = sub.in_flight() // seg  # after this ACK's loss marking, as tcp_packets_in_flight() in Linux
        ssthresh = sub.ssthresh // seg
        delta = ssthresh - in_flight
        if delta < 0:
            sndcnt = (ssthresh * self.prr_delivered + self.prior_cwnd - 1) // self.prior_cwnd - self.prr_out
        else:
            sndcnt = max(self.prr_delivered - self.prr_out, newly)
            if una_advanced and not newly_lost:
                sndcnt += 1
            sndcnt = min(delta, sndcnt)
        sndcnt = max(sndcnt, 0 if self.prr_out else 1)
        sub.cwnd = (in_flight + sndcnt) * seg

    def bytes_sent(self, sub, nbytes):
        self.prr_out += 1  # Linux counts packets (tcp_xmit_retransmit_queue, tcp_write_xmit)


__all__ = ["LinuxPrrRecovery"]
