"""NewReno fast recovery (RFC 6582 sec. 3.2) as ns-3's ``TcpClassicRecovery``."""

from __future__ import annotations

from ...registry import register
from ...tcp.decisions import FastRetransmitDecision
from .base import RecoveryAlgorithm


class ClassicRecovery(RecoveryAlgorithm):
    """NewReno fast recovery, RFC 6582 sec. 3.2, in ns-3's pipe-based form.

    On entry ``cwnd = ssthresh`` (step 2 without the ``+ 3 SMSS`` inflation: the three
    duplicate ACKs have already reduced ``pipe``); duplicate and partial ACKs leave
    ``cwnd`` alone (they reduce ``pipe`` instead); on exit ``cwnd = ssthresh`` (step 6,
    option 2).  ``inflated_cwnd`` is the RFC 6582 inflated window, kept for traces only.
    """

    name = "newreno"

    def __init__(self):
        self.inflated_cwnd = 0

    def enter(self, sub, dupacks, unacked_bytes, delivered_bytes, decision=FastRetransmitDecision.REDUCE):
        sub.cwnd = sub.ssthresh
        self.inflated_cwnd = sub.ssthresh + dupacks * sub.seg

    def on_ack(self, sub, delivered_bytes, is_dupack):
        self.inflated_cwnd += sub.seg

    def exit(self, sub):
        self.inflated_cwnd = sub.ssthresh


register("recovery", "newreno")(ClassicRecovery)  # a compiled class (newreno.pxd) takes no decorator


__all__ = ["ClassicRecovery"]
