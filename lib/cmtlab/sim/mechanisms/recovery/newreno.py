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
    option 2).
    """

    name = "newreno"

    def enter(self, sub, dupacks, unacked_bytes, delivered_bytes, decision=FastRetransmitDecision.REDUCE):
        sub.cwnd = sub.ssthresh

    def on_ack(self, sub, delivered_bytes, is_dupack):
        pass

    def exit(self, sub):
        pass


register("recovery", "newreno")(ClassicRecovery)  # a compiled class (newreno.pxd) takes no decorator


__all__ = ["ClassicRecovery"]
