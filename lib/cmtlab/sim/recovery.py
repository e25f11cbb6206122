"""Loss recovery: the congestion window while a fast retransmit is being repaired.

Interface
---------
A :class:`RecoveryAlgorithm` (ns-3's ``TcpRecoveryOps``) is called by the sender

* :meth:`~RecoveryAlgorithm.enter` once, when fast recovery starts (after ``ssthresh``
  has been lowered), with the duplicate-ACK count, the unacknowledged bytes, the bytes
  the triggering ACK delivered and the reordering response's
  :class:`~cmtlab.sim.tcp.decisions.FastRetransmitDecision` (``KEEP_WINDOW``: the window must
  not be reduced);
* :meth:`~RecoveryAlgorithm.on_ack` for every duplicate ACK and every partial ACK that
  acknowledged at least one segment during recovery (``is_dupack`` tells which);
* :meth:`~RecoveryAlgorithm.exit` when a cumulative ACK covers the recovery point (the
  sender has already set ``cwnd = ssthresh``);
* :meth:`~RecoveryAlgorithm.bytes_sent` for every data packet sent during recovery.

It reads and writes the subflow's ``cwnd``/``ssthresh`` (bytes), ``seg`` and
``pipe_snapshot`` — the sender's last computed bytes-in-flight (RFC 6675 ``pipe``, ns-3's
``m_bytesInFlight``) — and ``retrans_data_acked`` (a retransmission was cumulatively
acknowledged by the current ACK).

How many segments the sender may send is always ``cwnd - pipe`` (RFC 6675 sec. 5, step
C), with ``pipe`` computed from the scoreboard; without SACK every duplicate ACK counts as
one SACKed segment (ns-3's "Reno SACK" emulation).  This is why classic NewReno recovery
keeps ``cwnd = ssthresh`` instead of inflating it: the deflation of ``pipe`` by the
duplicate ACKs plays the role of RFC 6582's window inflation.

Implemented: :class:`ClassicRecovery` (RFC 6582 NewReno / ns-3 ``TcpClassicRecovery``)
and :class:`PrrRecovery` (RFC 6937 Proportional Rate Reduction as ns-3.44's
``TcpPrrRecovery``); the Chihani–Collange model's loss response is
:class:`cmtlab.sim.models.chihani.ChihaniRecovery`.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod

from .registry import make, register
from .tcp.decisions import FastRetransmitDecision


class RecoveryAlgorithm(ABC):
    """cwnd during fast recovery (see the module docstring)."""

    name: str = "abstract"

    @abstractmethod
    def enter(self, sub, dupacks: int, unacked_bytes: int, delivered_bytes: int,
              decision: FastRetransmitDecision = FastRetransmitDecision.REDUCE) -> None:
        """Fast recovery starts; ``sub.ssthresh`` is already the reduced threshold (or ``cwnd``
        when ``decision`` is ``KEEP_WINDOW``)."""

    @abstractmethod
    def on_ack(self, sub, delivered_bytes: int, is_dupack: bool) -> None:
        """A duplicate or partial ACK arrived during recovery."""

    def exit(self, sub) -> None:
        """Recovery is over (``sub.cwnd`` has been set to ``sub.ssthresh``)."""

    def bytes_sent(self, sub, nbytes: int) -> None:
        """``nbytes`` of data were sent while in recovery."""


@register("recovery", "newreno")
class ClassicRecovery(RecoveryAlgorithm):
    """NewReno fast recovery, RFC 6582 sec. 3.2, in ns-3's pipe-based form.

    On entry ``cwnd = ssthresh`` (step 2 without the ``+ 3 SMSS`` inflation: the three
    duplicate ACKs have already reduced ``pipe``); duplicate and partial ACKs leave
    ``cwnd`` alone (they reduce ``pipe`` instead); on exit ``cwnd = ssthresh`` (step 6,
    option 2).  ``inflated_cwnd`` is the RFC 6582 inflated window, kept for traces only.
    """

    name = "newreno"
    __slots__ = ("inflated_cwnd",)

    def __init__(self):
        self.inflated_cwnd = 0

    def enter(self, sub, dupacks, unacked_bytes, delivered_bytes, decision=FastRetransmitDecision.REDUCE):
        sub.cwnd = sub.ssthresh
        self.inflated_cwnd = sub.ssthresh + dupacks * sub.seg

    def on_ack(self, sub, delivered_bytes, is_dupack):
        self.inflated_cwnd += sub.seg

    def exit(self, sub):
        self.inflated_cwnd = sub.ssthresh


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


def make_recovery(style: str) -> RecoveryAlgorithm:
    """The recovery algorithm for ``TcpOptions.recovery`` (a registered name: ``"newreno"``,
    ``"prr"``, or the Chihani–Collange model's ``"chihani"`` of :mod:`cmtlab.sim.models.chihani`)."""
    return make("recovery", style)


def __getattr__(name: str):
    # the model's loss response moved to cmtlab.sim.models.chihani; the old import path still works
    if name == "ChihaniRecovery":
        from .models.chihani import ChihaniRecovery

        return ChihaniRecovery
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
