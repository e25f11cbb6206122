"""PR-R (Alheid et al., ICT 2016, sec. III, Algorithm 1): retransmit at the third duplicate ACK, keep cwnd."""

from __future__ import annotations

from ...registry import register
from ...tcp.decisions import FastRetransmitDecision, TimeoutDecision
from .base import ReorderingResponse

#: What PR-R does to ``ssthresh`` at a fast retransmit (the first is the default).
SSTHRESH_RULES = ("keep", "cwnd")


@register("reordering", "pr-r")
class PacketReorderingResponse(ReorderingResponse):
    """Alheid et al.'s packet reordering response.

    Algorithm 1: when the duplicate-ACK count for a packet reaches three (line 1), NoPR
    calls "the CWND reduction function for SF_k" (line 6) but PR-R does not (lines 3-4:
    ``case PR-R: break``); in both cases the RTT is noted, the retransmission timer set and
    the packet retransmitted (lines 9-11).  Sec. III: the sender triggers "the fast
    retransmission and recovery algorithm without reducing the size of CWND but rather
    maintaining it. Then, when the sender receives the ACK of the lost packet, the CWND will
    increase based on the CC calculation"; the timeout reaction is unchanged ("the RTO
    response will take action as legacy TCP").

    ``ssthresh`` selects what happens to the slow-start threshold:

    * ``"keep"`` (default, Algorithm 1 as written): the reduction function — which in the
      model the authors extended (Chihani–Collange) and in NewReno is what sets ``ssthresh``
      as well as ``cwnd`` — is not called, so **neither** changes.  The sender's fast
      recovery runs at the kept ``cwnd`` and, when it ends, ``ssthresh`` is what it was
      before: a slow start under way (the first one, or one after a timeout) goes on.
      (``on_fast_retransmit`` keeps ``ssthresh`` in ``kept_ssthresh`` and answers
      ``KEEP_WINDOW``; ``on_recovery_exit`` gives it back; a timeout forgets it.)
    * ``"cwnd"`` (this book's first implementation, kept for comparison): ``ssthresh =
      cwnd`` at every fast retransmit, so the window is kept but any slow start ends there
      (``on_fast_retransmit`` → ``KEEP_WINDOW``).

    Both differ only while ``cwnd < ssthresh``; in congestion avoidance ``ssthresh = cwnd``
    changes nothing the sender uses before its next reduction.  The timer is not restarted
    at the retransmission (line 10 read as "the timer runs", as in RFC 6298).  Alheid's
    code is not public, so there is no separate model preset (``variant`` ``"paper"`` only).
    """

    name = "pr-r"
    VARIANT = "paper"

    def __init__(self, variant: str | None = None, ssthresh: str = "keep"):
        super().__init__(variant)
        if ssthresh not in SSTHRESH_RULES:
            raise ValueError(f"ssthresh of reordering response 'pr-r' must be one of {list(SSTHRESH_RULES)}, "
                             f"got {ssthresh!r}")
        self.ssthresh = ssthresh
        self.kept_ssthresh = None  # ssthresh before the current "keep" episode (None: none under way)

    def on_fast_retransmit(self, sub, now):
        self.kept_ssthresh = sub.ssthresh if self.ssthresh == "keep" else None
        return FastRetransmitDecision.KEEP_WINDOW

    def on_recovery_exit(self, sub, now):
        if self.kept_ssthresh is not None:  # the threshold was never reduced: slow start goes on
            sub.ssthresh = self.kept_ssthresh
            self.kept_ssthresh = None

    def on_timeout(self, sub, now):
        self.kept_ssthresh = None  # the timeout reacts as legacy TCP (sec. III)
        return TimeoutDecision.STANDARD
