"""Proportional Rate Reduction (RFC 6937) as ns-3.44's ``TcpPrrRecovery``."""

from __future__ import annotations

import math

from ...registry import register
from ...tcp.decisions import FastRetransmitDecision
from .base import RecoveryAlgorithm


@register("recovery", "prr")
class PrrRecovery(RecoveryAlgorithm):
    """Proportional Rate Reduction (RFC 6937 sec. 3) as ns-3.44's ``TcpPrrRecovery``.

    ``prr_delivered`` counts the bytes delivered during recovery (a duplicate ACK counts
    one SMSS extra while ``prr_delivered < RecoverFS``, as ns-3.44 does even with SACK),
    ``prr_out`` the bytes sent.  While ``pipe > ssthresh``:
    ``sndcnt = ceil(prr_delivered * ssthresh / RecoverFS) - prr_out``; otherwise the
    reduction bound is PRR-CRB, ``limit = max(prr_delivered - prr_out, DeliveredData)``
    (``prr_delivered - prr_out`` alone when it is negative, as ns-3.44's unsigned
    arithmetic yields), plus one SMSS (PRR-SSRB) when the ACK cumulatively acknowledged
    a retransmission, and ``sndcnt = min(ssthresh - pipe, limit)``.  At least one segment
    is allowed before anything has been sent (the fast retransmit).
    ``cwnd = pipe + sndcnt``.  ``pipe`` is the sender's last computed bytes-in-flight.

    ``ns3_344_overflow`` (default ``True``): ns-3.44 computes ``prr_delivered * ssthresh`` as
    a product of two 32-bit unsigned integers, which wraps modulo 2**32 once a recovery has
    delivered more than 4 GiB / ssthresh (e.g. 65 kB with a 64 kB ssthresh) and then allows
    far fewer segments; the default reproduces that, so that the book's simulators agree
    exactly.  ``False`` computes RFC 6937's product exactly (as ns-3 releases after 3.44 do).
    """

    name = "prr"
    __slots__ = ("prr_delivered", "prr_out", "recover_fs", "ns3_344_overflow")

    def __init__(self, ns3_344_overflow: bool = True):
        self.prr_delivered = self.prr_out = self.recover_fs = 0
        self.ns3_344_overflow = bool(ns3_344_overflow)

    def enter(self, sub, dupacks, unacked_bytes, delivered_bytes, decision=FastRetransmitDecision.REDUCE):
        self.prr_out = 0
        self.prr_delivered = 0
        self.recover_fs = sub.pipe_snapshot  # RFC 6675 pipe before recovery
        self.on_ack(sub, delivered_bytes, True)

    def on_ack(self, sub, delivered_bytes, is_dupack):
        seg = sub.seg
        if is_dupack and self.prr_delivered < self.recover_fs:
            delivered_bytes += seg
        if delivered_bytes == 0:
            return
        self.prr_delivered += delivered_bytes
        pipe = sub.pipe_snapshot
        ssthresh = sub.ssthresh
        if pipe > ssthresh:
            fs = self.recover_fs if self.recover_fs > 0 else 1
            product = self.prr_delivered * ssthresh
            if self.ns3_344_overflow:
                product &= 0xFFFFFFFF  # uint32_t * uint32_t in ns-3.44's TcpPrrRecovery
            sndcnt = math.ceil(product / fs) - self.prr_out
        else:
            diff = self.prr_delivered - self.prr_out
            limit = diff if diff < 0 else max(diff, delivered_bytes)
            if sub.retrans_data_acked:
                limit += seg
            sndcnt = min(limit, ssthresh - pipe)
        if sndcnt < (0 if self.prr_out > 0 else seg):
            sndcnt = 0 if self.prr_out > 0 else seg
        cwnd = pipe + sndcnt
        sub.cwnd = cwnd if cwnd > 0 else 0

    def exit(self, sub):
        pass

    def bytes_sent(self, sub, nbytes):
        self.prr_out += nbytes


__all__ = ["PrrRecovery"]
