"""The Chihani–Collange ns-3 MPTCP model (``mp-tcp-socket-impl.cc``, 2011), in one place.

Arabi et al. and Alheid et al. ran this model; where it departs from the RFCs the book
reproduces it here, as subclasses of the RFC mechanisms registered as their ``"chihani"``
variant (:func:`cmtlab.sim.registry.register_variant`): a scenario names
``congestion_params={"variant": "chihani"}``, ``recovery="chihani"``,
``reordering_params={"variant": "chihani"}`` and ``dupack_mode="chihani"``, and nothing in the
engine or in the RFC mechanisms branches on it.  What the model does (``MECHANISMS.md``):

=====================  =================================================================================
part                   the model
=====================  =================================================================================
congestion control     increase once per ACK (``counting="ack"``), no cap (LIA: ``+alpha/total`` segments
                       per ACK), alpha (RFC 6356's formula) on EWMA-smoothed windows
                       (``scwnd = 0.875 scwnd + 0.125 cwnd``, ``calculateSmoothedCWND``); ssthresh
                       ``max(min(rwnd, cwnd)/2, 2 MSS)`` with ``cwnd`` in segments and ``2 MSS`` in bytes —
                       2 segments in every practical case.  OLIA: none in the model.
loss response          at the third duplicate ACK halve the window and retransmit one segment, no fast
                       recovery, no inflation (:class:`ChihaniRecovery`, ``recovery="chihani"``)
receiver               a segment in order on its subflow but ahead of the data sequence is buffered and
                       not acknowledged until the data-level gap closes (``dupack_mode="chihani"``,
                       :class:`ChihaniWithheldAck`); ``chihani_ns3``: the model's receiver exactly, its
                       header sizes and D-SACK option (:class:`ChihaniNs3Receiver`)
``dsack``              the first D-SACK of a retransmitted segment: slow start back to the saved window;
                       ``chihani_ns3``: the model's own D-SACK option and its connection-level duplicate
                       counting (:class:`ModelDsackBoard`)
``eifel``              checked only on duplicate ACKs; restores the saved ``cwnd``/``ssthresh`` exactly
``frto``               duplicate ACKs ignored (no fast retransmit), the spurious verdict never used
``tcp-door``           a no-op that ignores duplicate ACKs
=====================  =================================================================================
"""

from __future__ import annotations

from typing import NamedTuple

import cython

from ..mechanisms.congestion import CoupledCongestionControl, FullyCoupled, Lia, NewReno, RttCompensation, Uncoupled
from ..mechanisms.congestion.coupled import _rtt_s
from ..mechanisms.recovery import RecoveryAlgorithm
from ..mechanisms.schedulers.base import SchedulerView
from ..mechanisms.schedulers.round_robin import RoundRobinConnectionScheduler
from ..registry import register, register_variant
from ..mechanisms.reordering.base import ReorderingResponse
from ..mechanisms.reordering.dsack import DsackUndo
from ..mechanisms.reordering.eifel import Eifel
from ..mechanisms.reordering.frto import Frto
from ..mechanisms.reordering.tcp_door import TcpDoor
from ..mptcp.out_of_order import HoldUntilInOrder, OutOfOrderPolicy
from ..tcp.decisions import AckDecision, FastRetransmitDecision, OutOfOrderAck, TimeoutDecision, UndoMode

_ACK = OutOfOrderAck.ACK  # a subflow receiver's usual ACK

#: EWMA gain of the smoothed window used in alpha (``scwnd = 0.875 scwnd + 0.125 cwnd``,
#: ``calculateSmoothedCWND``).
SCWND_GAIN = 0.125

#: ns-3.7 ``RttEstimator``: initial estimate (1 s), ``RttMeanDeviation`` gain, maximum multiplier.
RTT_INITIAL_ESTIMATE_NS = 1_000_000_000
RTT_GAIN = 0.1
RTO_MAX_MULTIPLIER = 64

#: What the model's subflow receiver sends for a segment that went into the connection's
#: out-of-order buffer (``dupack_mode="chihani"``): nothing until the data-level gap closes.
RECEIVER_OUT_OF_ORDER_ACK = OutOfOrderAck.WITHHOLD


class ModelDsackOption(NamedTuple):
    """The model's D-SACK option on an ACK (``OptDSACK``, ``createOptDSACK``), in data-level
    segment numbers (DSNs): ``dsn`` the segment that triggered the ACK (first block), ``block``
    ``(first, end)`` the lowest contiguous run of the receiver's out-of-order list (second block,
    end exclusive).  It rides on the ACK as the engine's ``sack`` argument."""

    dsn: int
    block: tuple[int, int]


#: The ``nblocks`` an ACK carrying the model's D-SACK option is sent with: the index of its size
#: in :func:`model_wire_bytes`'s ACK sizes.
MODEL_DSACK_OPTION_BLOCKS = 4

#: The model's TCP options (``mp-tcp-socket-impl.cc``, the ``olen`` of each sender): the DSN
#: mapping on every data segment, the timestamp option (Eifel), the D-SACK option.
DSN_OPTION_BYTES, TIMESTAMP_OPTION_BYTES, DSACK_OPTION_BYTES = 15, 17, 33


def model_tcp_header_bytes(option_bytes: int) -> int:
    """The model's TCP header on the wire with ``option_bytes`` of options: ``MpTcpHeader::
    GetSerializedSize`` is ``4 * GetLength() + GetOptionsLength()``, and the senders set the length
    to ``5 + w`` words and the options length to ``w`` words (``w`` the options padded to words),
    so the options count twice: ``20 + 5 w`` bytes (data segment with its DSN mapping: 40 B)."""
    w = (int(option_bytes) + 3) // 4
    return 20 + 5 * w


def model_wire_bytes(segment_bytes: int, *, timestamps: bool, ip_bytes: int = 20, link_bytes: int = 2):
    """``(data segment bytes, ACK bytes by nblocks)`` on the wire of the model's connection
    (IPv4 and PPP as ns-3.7's point-to-point device): data carry the DSN mapping (and, with
    Eifel, the timestamp option); a pure ACK none (with Eifel, the timestamp option — the model
    sends its released-segment ACKs without it: approximated); index
    :data:`MODEL_DSACK_OPTION_BLOCKS` is an ACK with the D-SACK option."""
    ts = TIMESTAMP_OPTION_BYTES if timestamps else 0
    data = int(segment_bytes) + ip_bytes + model_tcp_header_bytes(DSN_OPTION_BYTES + ts) + link_bytes
    plain = ip_bytes + model_tcp_header_bytes(ts) + link_bytes
    acks = [plain] * 5
    acks[MODEL_DSACK_OPTION_BLOCKS] = ip_bytes + model_tcp_header_bytes(DSACK_OPTION_BYTES) + link_bytes
    return data, tuple(acks)


# ---------------------------------------------------------------- receiver

class ChihaniWithheldAck(HoldUntilInOrder):
    """``dupack_mode="chihani"`` (the Chihani–Collange code): a segment in order on its subflow but
    ahead of the data sequence is buffered and **not** acknowledged until the data-level gap closes
    (:data:`RECEIVER_OUT_OF_ORDER_ACK`); then every subflow receiver that withheld an ACK sends one
    cumulative ACK.  Plain cumulative ACKs, no SACK blocks: the model has no SACK."""

    name = "chihani"
    CODE = RECEIVER_OUT_OF_ORDER_ACK


class ChihaniNs3Receiver(OutOfOrderPolicy):
    """``dupack_mode="chihani_ns3"``: the model's receiver exactly (``ProcessHeaderOptions`` and
    ``ReadUnOrderedData`` of ``mp-tcp-socket-impl.cc``, calibrated against the built model).

    The subflow's ACK does not advance past a segment held for data-level order — the first such
    segment gets no ACK, every later segment of that subflow a duplicate ACK of the held one; when
    the data sequence reaches held segments, one ACK per segment released, each advancing by one.
    The model's connection has its own header sizes (:meth:`wire_bytes`: :func:`model_wire_bytes`),
    its receiver echoes the timestamp of the segment each ACK answers, and with the model's D_SACK
    (a reordering response that ``wants_model_dsack``) it answers held segments with its own D-SACK
    option (:meth:`model_dsack_ack`).
    """

    name = "chihani_ns3"

    def wire_bytes(self, segment_bytes: int, *, timestamps: bool):
        """The model's packet sizes on the wire (:func:`model_wire_bytes`)."""
        return model_wire_bytes(segment_bytes, timestamps=timestamps)

    def setup_receiver(self, receiver, reordering) -> None:
        """The model's receiver echoes the TSval of the segment each ACK answers; with the model's
        D_SACK it reports held segments and their copies (``TcpReceiver.held_copy``)."""
        receiver.echo_arrival = receiver.timestamps
        if getattr(reordering, "wants_model_dsack", False):
            receiver.held_copy = self.model_dsack_ack  # the model's D_SACK receiver

    def answer(self, now: int, rcv, first: int, end: int, old: int, nxt: int, held: bool):
        """What the model's subflow receiver answers, and the ACKs of the segments the data sequence
        released (``ReadUnOrderedData``: one ACK per segment, on its subflow, the subflow ACK
        advancing by one segment each).

        The model keeps the subflow's expected sequence (``RxSeqNumber``) at the first segment it
        holds for data-level order: that segment is stored without an ACK (``subflowSeqNumber ==
        RxSeqNumber``, data ahead: ``TxACK = false``); every later segment of the subflow is
        "above" the expected sequence and answered with an ACK of it — a duplicate ACK
        (``subflowSeqNumber > RxSeqNumber``: ``TxACK`` stays true).
        """
        conn = self.connection
        if rcv.held_copy is not None:  # the D_SACK receiver (ProcessHeaderOptions, AlgoPR == D_SACK)
            reply = _ACK
            if rcv.ack_cap is not None or conn.maps[rcv.index].at(first) >= nxt:
                # ahead of the data sequence: stored, RxSeqNumber unchanged, answered at once with
                # an ACK of RxSeqNumber carrying the D-SACK option (TxAckOpt)
                if rcv.ack_cap is None:
                    rcv.ack_cap = first
                self.model_dsack_ack(now, rcv, first)
                reply = OutOfOrderAck.WITHHOLD
        elif rcv.ack_cap is not None:
            reply = OutOfOrderAck.DUPLICATE
        else:
            reply = _ACK
            m = conn.maps[rcv.index]
            for k in range(first, end):
                if m.at(k) >= nxt:  # held for data-level order: the subflow ACK stops here
                    rcv.ack_cap = k
                    if k == first:
                        # a segment with the timestamp option is always answered (TxAckOpt)
                        reply = OutOfOrderAck.DUPLICATE if rcv.echo_arrival else OutOfOrderAck.WITHHOLD
                    break
        if nxt > old:
            for j, r in enumerate(conn.receivers):
                cap = r.ack_cap
                if cap is None or j == rcv.index and reply is not _ACK:
                    continue
                m = conn.maps[j]
                k = cap
                top = r.rcv_nxt
                while k < top and m.at(k) < nxt:
                    k += 1
                r.ack_cap = None if k >= top else k
                for a in range(cap + 1, k + 1):  # one ACK per released segment
                    r.acks_sent += 1
                    if a > r.high_tx_ack:
                        r.high_tx_ack = a
                    r.net_ack(now, a, r.ts_recent, None, 0)
        return reply

    def model_dsack_ack(self, now: int, rcv, k: int) -> None:
        """The Chihani–Collange D_SACK receiver's answer to subflow segment ``k`` held for
        data-level order, or to a copy of one (``TcpReceiver.held_copy``): an ACK of the subflow's
        expected sequence (``RxSeqNumber``, not advanced) with the model's D-SACK option
        (``createOptDSACK``): the segment's DSN, and the lowest contiguous run of the
        out-of-order list (:class:`ModelDsackOption`)."""
        conn = self.connection
        dsn = conn.dsn_of(rcv.index, k)
        ooo = conn.ooo
        base = conn.rcv_dsn
        lo = ooo.lowest() if ooo.count else dsn
        hi = lo + 1
        while hi >= base and ooo.contains(hi):
            hi += 1
        ack = rcv.ack_cap if rcv.ack_cap is not None else rcv.rcv_nxt
        rcv.acks_sent += 1
        rcv.dsacks_sent += 1
        rcv.net_ack(now, ack, rcv.ts_recent, ModelDsackOption(dsn, (lo, hi)), MODEL_DSACK_OPTION_BLOCKS)


register("dupack_mode", "chihani")(ChihaniWithheldAck)  # compiled classes (chihani.pxd) take no decorator
register("dupack_mode", "chihani_ns3")(ChihaniNs3Receiver)


# ---------------------------------------------------------------- congestion control

class ChihaniCoupled:
    """The model's coupled congestion control (a mixin before the RFC class, see the module docstring).

    Keeps its own smoothed window ``scwnd`` (bytes; 0 until the first congestion-avoidance ACK),
    which the other subflows' instances read in alpha.
    """

    def __init__(self, variant: str = "chihani", counting: str = "bytes", **params):
        super().__init__(variant, counting, **params)
        self.counting = "ack"  # the model increases once per ACK, whatever it covers
        self.scwnd = 0.0

    def init(self, sub) -> None:
        super().init(sub)
        self.scwnd = 0.0

    def _window_for_alpha(self, other) -> float:
        """``other``'s smoothed window as ``calculate_alpha`` uses it: as it stands (0 for a
        subflow without a congestion-avoidance ACK yet, which then adds nothing to alpha's sums;
        an RFC coupled instance has none: 0); another algorithm counts with its cwnd."""
        cc = getattr(other, "cc", None)
        if isinstance(cc, CoupledCongestionControl):
            return getattr(cc, "scwnd", 0.0)
        return float(other.cwnd)

    def _update_scwnd(self, cwnd: int, seg: int) -> None:
        if self.scwnd < seg:
            self.scwnd = float(cwnd)
        else:
            self.scwnd = (1.0 - SCWND_GAIN) * self.scwnd + SCWND_GAIN * cwnd

    def increase_window(self, sub, segments_acked: int) -> None:
        """The RFC frame (:meth:`CoupledCongestionControl.increase_window`, also for "uncoupled"),
        with ``scwnd`` smoothed on every congestion-avoidance ACK of a multipath subflow, from the
        window as it is after this ACK's slow-start step and before its increase."""
        if getattr(sub, "connection", None) is not None:
            cwnd, ssthresh, n = sub.cwnd, sub.ssthresh, segments_acked
            if cwnd < ssthresh:
                if n >= 1:
                    cwnd += sub.seg
                    n -= 1
                else:
                    n = 0
            if cwnd >= ssthresh and n > 0:
                self._update_scwnd(cwnd, sub.seg)
        CoupledCongestionControl.increase_window(self, sub, segments_acked)

    def ssthresh(self, sub, bytes_in_flight: int) -> int:
        if getattr(sub, "connection", None) is None:
            return NewReno.ssthresh(self, sub, bytes_in_flight)
        # max(min(rwnd, cwnd) / 2, 2 * MSS): cwnd in segments, 2 * MSS in bytes
        return int(max((sub.cwnd / sub.seg) / 2.0, 2 * sub.seg))

    def loss_window(self, sub) -> int:
        """The window after a loss (bytes), :func:`loss_window`."""
        return loss_window(sub)


@register_variant("congestion", "uncoupled", "chihani")
class ChihaniUncoupled(ChihaniCoupled, Uncoupled):
    """``+1/cwnd`` segment per ACK in congestion avoidance (``SMSS^2/cwnd`` bytes, unrounded)."""


@register_variant("congestion", "fully_coupled", "chihani")
class ChihaniFullyCoupled(ChihaniCoupled, FullyCoupled):
    """``+1/total`` segment per ACK; after a loss ``max(cwnd - total/2, 1 segment)`` (:func:`loss_window`)."""


@register_variant("congestion", "lia", "chihani")
class ChihaniLia(ChihaniCoupled, Lia):
    """``+alpha/total`` segments per ACK without the cap; alpha from the smoothed windows
    (``calculate_alpha``: RFC 6356's formula on ``scwnd``), ``total`` the raw windows' sum.

    With equal RTTs the total increase per RTT over all subflows is ``alpha = max_i cwnd_i /
    cwnd_total`` segments (one segment only when one subflow carries everything); the
    equilibrium is still one TCP's throughput (RFC 6356 sec. 3's design).
    """

    def ca_increase(self, sub, bytes_acked: int) -> float:
        """``alpha * bytes_acked * MSS / total`` (:func:`_model_lia_increase`)."""
        return _model_lia_increase(sub, bytes_acked)


def _model_lia_increase(sub, bytes_acked: int) -> float:
    """The model's LIA increase (bytes) of subflow ``sub`` for ``bytes_acked`` (:meth:`ChihaniLia.ca_increase`):
    ``alpha * bytes_acked * MSS / total``, alpha RFC 6356's formula on the smoothed windows
    (:meth:`ChihaniCoupled._window_for_alpha`; the operations of
    :func:`~cmtlab.sim.mechanisms.congestion.rfc6356_alpha`, in its order) and ``total`` the raw windows' sum —
    in one pass over the subflows, compiled (``chihani.pxd``): the hot path of the papers' runs (the general
    form, :meth:`Lia.alpha` and a sum, takes twice the instructions of a whole run's event loop).
    ``tests/sim/mechanisms/congestion/test_coupled.py`` holds it equal, bit for bit, to ``alpha(sub) *
    bytes_acked * MSS / total`` with :meth:`Lia.alpha`."""
    conn = sub.connection
    # the simulator's connection is a SchedulerView: its subflows read as a C field when compiled
    subs = cython.cast(SchedulerView, conn).subflows if isinstance(conn, SchedulerView) else list(conn.subflows)
    total_w = 0.0
    best = 0.0
    ssum = 0.0
    total = 0
    for s in subs:
        total += s.cwnd
        other = s.cc
        w = getattr(other, "scwnd", 0.0) if isinstance(other, CoupledCongestionControl) else float(s.cwnd)
        total_w += w
        if s.n_rtt_samples > 0 and s.srtt > 0:
            r = s.srtt / 1e9
        else:
            rtt = _rtt_s(s)
            if rtt is None:
                continue
            r = rtt
        x = w / (r * r)
        if x > best:
            best = x
        ssum += w / r
    alpha = 1.0 if ssum <= 0.0 or total_w <= 0.0 else total_w * best / (ssum * ssum)
    return alpha * bytes_acked * sub.seg / total


@register_variant("congestion", "rtt_compensation", "chihani")
class ChihaniRttCompensation(ChihaniCoupled, RttCompensation):
    """Per ACK, RFC 6356's alpha from the smoothed windows, with the ``min`` (the only capped
    algorithm of the model)."""

    def __init__(self, variant: str = "chihani", counting: str = "bytes", alpha_rule: str = "arabi"):
        super().__init__(variant, counting, alpha_rule=alpha_rule)
        self.alpha_rule = "rfc6356"


def loss_window(sub) -> int:
    """The model's window after a loss (bytes): ``max(cwnd/2, 1 segment)``; fully coupled
    ``max(cwnd - total/2, 1 segment)`` (``total`` the connection's windows; a single path: its own)."""
    if isinstance(getattr(sub, "cc", None), FullyCoupled):
        total = sum(s.cwnd for s in sub.connection.subflows) if sub.connection is not None else sub.cwnd
        return max(sub.cwnd - total // 2, sub.seg)
    return max(sub.cwnd // 2, sub.seg)


# ---------------------------------------------------------------- loss response

@register("recovery", "chihani")
class ChihaniRecovery(RecoveryAlgorithm):
    """The model's loss response (see ``MECHANISMS.md``).

    At the third duplicate ACK the model halves the window and retransmits one segment, with no
    fast recovery and no window inflation: on entry ``cwnd`` becomes :func:`loss_window`;
    duplicate and partial ACKs leave it alone; on exit the sender has set ``cwnd = ssthresh``
    (two segments with the model's ssthresh), and the window after the loss is put back — the
    model has no recovery state to leave.  Pair it with ``variant="chihani"`` congestion control.
    When the reordering response kept the window at this fast retransmit (decision
    ``KEEP_WINDOW``: PR-R, TCP-DOOR while disabled) the halving is skipped — it is the "CWND
    reduction function" that Alheid et al.'s Algorithm 1 does not call.
    Approximations: the sender's window still counts the RFC 6675 ``pipe`` (duplicate ACKs deflate
    it), the model's counts unacknowledged data; and the sender's recovery state is still the
    engine's (until the recovery point is acknowledged, a partial ACK retransmits the next
    segment, RFC 6582 sec. 3.2 step 5), where the model retransmits only at a third duplicate ACK.
    """

    name = "chihani"
    __slots__ = ("window_after_loss",)

    def __init__(self):
        self.window_after_loss = 0

    def enter(self, sub, dupacks, unacked_bytes, delivered_bytes, decision=FastRetransmitDecision.REDUCE):
        if decision is FastRetransmitDecision.KEEP_WINDOW:  # PR-R (Algorithm 1): no reduction at all
            self.window_after_loss = sub.cwnd
            return
        self.window_after_loss = loss_window(sub)
        sub.cwnd = self.window_after_loss

    def on_ack(self, sub, delivered_bytes, is_dupack):
        pass

    def exit(self, sub):
        sub.cwnd = max(sub.cwnd, self.window_after_loss)


@register("recovery", "chihani_ns3")
class ChihaniNs3Recovery(ChihaniRecovery):
    """:class:`ChihaniRecovery` calibrated against the built model (``DupAck``, ``NewACK``): the
    sender keeps no loss marks (:attr:`~cmtlab.sim.mechanisms.recovery.RecoveryAlgorithm.loss_marks`
    ``False``) — only the third duplicate ACK of a segment retransmits it, one segment, once; the
    model has no recovery state, so during the engine's recovery partial ACKs retransmit nothing
    but open the window as any new ACK, and duplicate ACKs are still counted per segment
    (:meth:`on_ack`)."""

    name = "chihani_ns3"
    loss_marks = False
    #: ``NewACK`` cancels and reschedules the retransmission timer on every ACK of new data
    #: (``mp-tcp-socket-impl.cc`` lines 1083-1096 of d4ad7bf): the model has no recovery state, so a
    #: partial ACK to the engine restarts it too (found tracing PR-R over Wi-Fi, where the engine's
    #: recovery lasts: without this its timer fired 4 ms after a fast retransmit, the model's never).
    partial_ack_restarts_timer = True
    #: A fast retransmit that keeps the window (PR-R, patch 05: ``DupAck`` without ``reduceCWND``) leaves
    #: ``ssthresh`` alone: only ``reduceCWND`` changes it in the model, so a slow start goes on.
    keep_window_sets_ssthresh = False
    __slots__ = ("est_ns", "var_ns", "multiplier", "samples", "last_fast_retransmit", "dup_head", "dups")

    def __init__(self):
        super().__init__()
        self.last_fast_retransmit = -1
        self.dup_head = -1  # the segment whose duplicate ACKs are counted during the engine's recovery
        self.dups = 0
        self.est_ns = float(RTT_INITIAL_ESTIMATE_NS)
        self.var_ns = 0.0
        self.multiplier = 1
        self.samples = 0

    # ns-3.7 RttMeanDeviation as the model uses it: the sender's RTO (sub.rto) is owned here

    @property
    def rto_rule(self):
        return self

    def sample(self, sub, rtt_ns: int) -> None:
        """``Measurement``: ``est += g (m - est)``, ``var += g (|m - est| - var)`` (g = 0.1; the
        first sample sets ``est = var = m``); a valid sample resets the multiplier (``AckSeq``)."""
        m = float(rtt_ns)
        if self.samples:
            err = m - self.est_ns
            self.est_ns += RTT_GAIN * err
            self.var_ns += RTT_GAIN * (abs(err) - self.var_ns)
        else:
            self.est_ns = m
            self.var_ns = m
        self.samples += 1
        self.multiplier = 1
        sub.srtt = int(self.est_ns)
        self.update(sub)

    def update(self, sub) -> None:
        """``RetransmitTimeout``: ``2 est`` while ``var < est/4``, else ``est + 4 var``; times the
        multiplier; at least the minimum RTO."""
        est, var = self.est_ns, self.var_ns
        r = (2.0 * est if var < est / 4.0 else est + 4.0 * var) * self.multiplier
        sub.rto = max(int(r), sub.min_rto)

    def backoff(self, sub) -> None:
        """``IncreaseMultiplier`` (every ``reduceCWND``: a fast retransmit or a timeout), up to 64."""
        self.multiplier = min(self.multiplier * 2, RTO_MAX_MULTIPLIER)
        self.update(sub)

    def timeout_window(self, sub) -> int:
        """``ReTxTimeout`` calls ``reduceCWND``: the window after a timeout is the one after a
        loss (:func:`loss_window`: halved), not one segment."""
        return loss_window(sub)

    def allows_fast_retransmit(self, sub) -> bool:
        """``DupAck``: the retransmission happens when *that segment's* duplicate-ACK counter
        reaches exactly 3; the counter is never reset, so a segment is fast-retransmitted once."""
        return sub.una > self.last_fast_retransmit

    def enter(self, sub, dupacks, unacked_bytes, delivered_bytes, decision=FastRetransmitDecision.REDUCE):
        self.last_fast_retransmit = sub.una
        super().enter(sub, dupacks, unacked_bytes, delivered_bytes, decision)
        if decision is FastRetransmitDecision.REDUCE:
            self.backoff(sub)

    def on_ack(self, sub, delivered_bytes, is_dupack):
        """The model has no recovery state (``NewACK``, ``DupAck``): an ACK of new data after a fast
        retransmit — a partial ACK to the engine — opens the window as any new ACK does
        (``OpenCWND``: slow start while ``cwnd`` is below ``ssthresh``, else the congestion
        control's increase), and the window so reached is the one kept when the engine's recovery
        ends (:meth:`exit`); duplicate ACKs are counted per segment as outside recovery."""
        if is_dupack:
            # DupAck: a counter per segment, whatever state the sender is in — the third duplicate
            # ACK of a new first unacknowledged segment fast-retransmits it even while the engine
            # is still in the recovery of an earlier one (the engine counts none there)
            if sub.una != self.dup_head:
                self.dup_head, self.dups = sub.una, 0
            self.dups += 1
            if self.dups == sub.dupthresh:
                sub.fast_retransmit_now(sub.ack_time_ns)
            return
        if delivered_bytes <= 0:
            return
        sub.cc.increase_window(sub, max(1, delivered_bytes // sub.seg))
        self.window_after_loss = sub.cwnd


# ---------------------------------------------------------------- scheduler

@register_variant("scheduler", "round_robin", "chihani_ns3")
class ChihaniNs3RoundRobin(RoundRobinConnectionScheduler):
    """Round robin as the built model sends (``SendPendingData``): the data sequence number is
    given at transmission, so a subflow is handed a DSN only when its window lets it send it at
    once (no unsent segment waits on a subflow while later DSNs leave on others)."""

    prefetch_segments = 0

    def __init__(self, variant: str = "chihani_ns3"):
        super().__init__()

    def select(self, conn, now_ns: int):
        """The next subflow in turn whose window has room as the model counts it
        (``AvailableWindow``): ``floor(cwnd in segments) * MSS`` minus all data handed to the subflow
        and not yet acknowledged (``maxSeqNb - highestAck``)."""
        subs = conn.subflows
        n = len(subs)
        i = self._next
        for _ in range(n):
            s = subs[i]
            seg = s.seg
            win = s.cwnd if s.cwnd < s.rwnd else s.rwnd
            if (win // seg - (s.app_tail - s.una)) >= 1:
                return i
            i += 1
            if i == n:
                i = 0
        return None


# ---------------------------------------------------------------- reordering responses

@register_variant("reordering", "dsack", "chihani")
class ChihaniDsack(DsackUndo):
    """Arabi sec. 3.6: the first D-SACK for a segment retransmitted in the episode declares it
    spurious and the sender slow-starts back to the saved window (``ssthresh`` = saved ``cwnd``)."""

    def _on_retransmission_dsacked(self, sub, now):
        self._undo(sub, now, UndoMode.SLOW_START)


class ModelDsackBoard:
    """The model's connection-level D-SACK accounting, one per connection, shared by its
    subflows' :class:`ChihaniNs3Dsack` (``mp-tcp-socket-impl.cc``: ``ProcessOption``,
    ``DupDSACK``, ``DupAck``).

    On every ACK carrying the option (:meth:`on_option`):

    1. ``ProcessOption`` counts the reported segments (``ackedSeg[dsn] += 1`` once per segment
       that the first block names or the second block contains);
    2. ``DupDSACK`` looks, over all subflows, for the first unacknowledged segment
       (``subflowSeqNumber == highestAck + 1``) that was never reported; of several, the one with
       the lowest DSN — switching only while it is above the last one switched to
       (``lastRetransmit``, a quirk of the code kept as it is);
    3. if the reported segment was retransmitted (``retransSeg``) and reported more than once,
       the retransmission was spurious: the found segment's subflow (or the ACK's own, if none)
       slow-starts back to its saved window (``phase = DSACK_SS``,
       :meth:`ChihaniNs3Dsack.dsack_slow_start`);
    4. otherwise the found segment gets one duplicate ACK (``DupAck``: a counter per segment);
       its third fast-retransmits it on *its own* subflow (``sub.fast_retransmit_now``) — a
       segment held at the receiver on one path counts against the segment missing on another.

    Not modelled: the ``ackedSeg`` counts that plain cumulative ACKs add (``IsDuplicatedAck``
    counts every acknowledged segment of the subflow once per ACK) — they concern segments
    below the subflows' first unacknowledged ones, which step 2 never looks at, and segments
    that cannot be reported again.
    """

    __slots__ = ("conn", "acked", "retransmitted", "dupacks", "last_switch", "options", "fast_retransmits",
                 "spurious")

    def __init__(self, conn):
        self.conn = conn
        self.acked: dict[int, int] = {}  # ackedSeg: DSN -> times reported
        self.retransmitted: set[int] = set()  # retransSeg: DSNs retransmitted
        self.dupacks: dict[tuple[int, int], int] = {}  # (subflow, segment) -> dupAckCount
        self.last_switch = None  # lastRetransmit's DSN
        self.options = self.fast_retransmits = self.spurious = 0

    def first_unreported(self):
        """Step 2: ``(subflow sender, its first unacknowledged segment's DSN)`` or ``(None, None)``."""
        conn, acked = self.conn, self.acked
        target = tdsn = None
        for i, s in enumerate(conn.subflows):
            if s.una >= s.high:
                continue  # nothing outstanding: the segment after highestAck was never sent
            d = conn.dsn_of(i, s.una)
            if d is None or d in acked:
                continue
            if target is None:
                target, tdsn = s, d
            elif tdsn > d and (self.last_switch is None or self.last_switch < d):
                self.last_switch = d
                target, tdsn = s, d
        return target, tdsn

    def on_option(self, sub, opt: ModelDsackOption, now: int) -> None:
        """An ACK with the option arrived on subflow ``sub`` (steps 1–4 of the class docstring)."""
        self.options += 1
        acked = self.acked
        acked[opt.dsn] = acked.get(opt.dsn, 0) + 1
        for d in range(opt.block[0], opt.block[1]):
            if d != opt.dsn:  # one count per segment, whichever block (or both) reports it
                acked[d] = acked.get(d, 0) + 1
        target, _ = self.first_unreported()
        if opt.dsn in self.retransmitted and acked[opt.dsn] > 1:
            self.spurious += 1
            origin = target if target is not None else sub
            origin.reordering.dsack_slow_start(origin, now)
            return
        if target is None:
            return
        key = (target.index, target.una)
        n = self.dupacks.get(key, 0) + 1
        self.dupacks[key] = n
        if n == 3 and target.fast_retransmit_now(now):
            self.fast_retransmits += 1


@register_variant("reordering", "dsack", "chihani_ns3")
class ChihaniNs3Dsack(DsackUndo):
    """D_SACK exactly as the built model runs it (``AlgoPR == D_SACK``), on the connection's
    shared :class:`ModelDsackBoard`.

    The receiver (``wants_model_dsack``: ``ProcessHeaderOptions``) stores every segment ahead of
    the data sequence and answers each — and each copy of one — at once with an ACK of the
    subflow's expected sequence carrying the model's D-SACK option
    (:class:`ModelDsackOption`, :meth:`ChihaniNs3Receiver.model_dsack_ack`).
    The sender takes such an ACK out of the subflow's processing (it is a duplicate:
    ``IsDuplicatedAck`` → ``DupDSACK``, nothing else) and counts it on the board, which may
    fast-retransmit on another subflow or start this one's "DSACK slow start".  Every window
    reduction (third duplicate ACK or timeout, ``reduceCWND``) saves ``max(cwnd, saved)``.
    """

    name = "dsack"
    wants_every_ack = True
    #: No RFC 2883 blocks (they ride on SACK, which the model does not have).
    wants_dsack = False
    #: The receiver answers held segments with the model's D-SACK option.
    wants_model_dsack = True

    def __init__(self, variant: str = "chihani_ns3"):
        super().__init__(variant)
        self.board = None
        self.saved_cwnd = 0  # savedCWND (bytes; 0: none)
        self.detections = 0

    def check_options(self, options):
        pass  # no SACK needed: the option is the model's own

    def attach(self, sub):
        ReorderingResponse.attach(self, sub)  # (not DsackUndo.attach: no SACK needed)
        conn = getattr(sub, "connection", None)
        if conn is None:
            raise ValueError("the model's D_SACK counts duplicates across subflows: it needs an MPTCP connection")
        for s in conn.subflows:  # the subflows built before this one share their board
            b = getattr(s.reordering, "board", None)
            if isinstance(b, ModelDsackBoard):
                self.board = b
                break
        else:
            self.board = ModelDsackBoard(conn)

    def on_ack(self, sub, ack, ts_echo, sack, now):
        if isinstance(sack, ModelDsackOption):
            self.board.on_option(sub, sack, now)
            return AckDecision.DISCARD
        return None

    def on_dsack(self, sub, block, now):
        pass  # RFC 2883 blocks: none (see wants_dsack)

    def on_retransmit(self, sub, k, now):
        d = sub.connection.dsn_of(sub.index, k)
        if d is not None:
            self.board.retransmitted.add(d)

    def _save(self, sub):
        if sub.cwnd > self.saved_cwnd:
            self.saved_cwnd = sub.cwnd  # savedCWND = max(cwnd, savedCWND)

    def on_fast_retransmit(self, sub, now):
        self._save(sub)
        return FastRetransmitDecision.REDUCE

    def on_timeout(self, sub, now):
        self._save(sub)
        return TimeoutDecision.STANDARD

    def dsack_slow_start(self, sub, now) -> None:
        """``phase = DSACK_SS``: one segment more per new ACK while ``cwnd + 1 < savedCWND``
        (``OpenCWND``), then back to congestion avoidance with ``savedCWND = 0`` — here a slow
        start to the saved window (``UndoMode.SLOW_START``) and the saved window forgotten at
        once; nothing when the window is already within a segment of it."""
        saved = self.saved_cwnd
        self.saved_cwnd = 0
        if saved > sub.cwnd + sub.seg:
            self.detections += 1
            record = sub.snapshot_congestion_state(now)._replace(cwnd=saved)
            sub.restore_congestion_state(record, now, how=UndoMode.SLOW_START)


@register_variant("reordering", "eifel", "chihani")
class ChihaniEifel(Eifel):
    """Detection only on a *duplicate* ACK while a retransmission is outstanding, whose TSecr
    predates the retransmission; the response restores the saved ``cwnd`` and ``ssthresh`` exactly."""

    def on_ack(self, sub, ack, ts_echo, sack, now):
        if self.retransmit_ts is None or not (ack == sub.una and ack < sub.high):
            return
        self.checks += 1
        if ts_echo < self.retransmit_ts:
            sub.restore_congestion_state(self.saved, now, how=UndoMode.EXACT)
            self.detections += 1
            self.saved = None
            self.retransmit_ts = None


@register_variant("reordering", "eifel", "chihani_ns3")
class ChihaniNs3Eifel(ChihaniEifel):
    """Eifel exactly as the built model runs it (``IsDuplicatedAck``, case ``Eifel``): each
    segment remembers the timestamp of its first retransmission; *every* duplicate ACK for a
    retransmitted segment whose echoed timestamp is older restores the window saved at the last
    reduction (``cwnd = savedCWND``, ``ssthresh = savedSSThresh``) — not once per episode."""

    def __init__(self, variant: str = "chihani_ns3"):
        super().__init__(variant)
        self.retransmitted: dict[int, int] = {}

    def _start(self, sub, now):
        self.saved = sub.snapshot_congestion_state(now)  # reduceCWND saves at every reduction

    def on_timeout(self, sub, now):
        self._start(sub, now)
        return TimeoutDecision.STANDARD

    def on_retransmit(self, sub, k, now):
        if k not in self.retransmitted:
            self.retransmitted[k] = sub.timestamp_now(now)

    def on_ack(self, sub, ack, ts_echo, sack, now):
        if not (ack == sub.una and ack < sub.high):
            return
        ts = self.retransmitted.get(ack)
        if ts is None or self.saved is None:
            return
        self.checks += 1
        if ts > ts_echo:
            sub.restore_congestion_state(self.saved, now, how=UndoMode.EXACT)
            self.detections += 1
        if len(self.retransmitted) > 64:
            una = sub.una
            self.retransmitted = {k: v for k, v in self.retransmitted.items() if k >= una}


@register_variant("reordering", "frto", "chihani")
class ChihaniFrto(Frto):
    """Duplicate ACKs are ignored (no fast retransmit at all, losses wait for the timer); the
    RFC 5682 steps run but the spurious-timeout verdict is never used: no undo.  (The model's
    random ACK dropping, seeded from the wall clock, is not reproduced.)"""

    def on_fast_retransmit(self, sub, now):
        return FastRetransmitDecision.IGNORE

    def _respond(self, sub, ack, now):
        pass


#: F_RTO's ACK discarding (``NewACK``): one prime per subflow index.
FRTO_PRIMES = (389, 211, 457, 277, 367, 479, 233)
#: F_RTO's largest ACK-discarding probability (``0.061 * (clock % p) / p``).
FRTO_MAX_THRESHOLD = 0.061


@register_variant("reordering", "frto", "chihani_ns3")
class ChihaniNs3Frto(ChihaniFrto):
    """F_RTO as the built model runs it: duplicate ACKs ignored, and ACKs *discarded* (``NewACK``):
    with probability ``threshold = 0.061 (clock mod p_i) / p_i`` (``clock`` the wall clock in
    seconds, ``time(NULL)``; ``p_i`` a prime per subflow, :data:`FRTO_PRIMES`) an ACK starts a run
    in which the following ACKs are dropped unprocessed until ``cwnd`` (segments) of them have
    been counted.  The draws are seeded (the connection's generator), the model's come from
    ``rand()`` (``rejectPacket``: ``(rand() % 1013) / 1013 < threshold``), so runs agree in
    distribution, not ACK by ACK.  ``clock``: the model run's ``frto_clock``."""

    wants_every_ack = True

    def __init__(self, variant: str = "chihani_ns3", clock: int = 0):
        super().__init__(variant)
        if isinstance(clock, bool) or not isinstance(clock, int) or clock < 0:
            raise ValueError(f"clock must be a non-negative integer (seconds), got {clock!r}")
        self.clock = clock
        self.threshold = 0.0
        self.rng = None
        self.discarding = -1
        self.discarded = 0

    def attach(self, sub):
        super().attach(sub)
        p = FRTO_PRIMES[sub.index % len(FRTO_PRIMES)]
        self.threshold = FRTO_MAX_THRESHOLD * ((self.clock % p) / p)
        conn = getattr(sub, "connection", None)
        import random

        self.rng = conn.make_rng(7001 + sub.index) if conn is not None else random.Random(7001 + sub.index)

    def on_ack(self, sub, ack, ts_echo, sack, now):
        if self.discarding == -1:
            if self.rng.randrange(1013) / 1013.0 < self.threshold:
                self.discarding = 0
        else:
            self.discarding += 1
            if self.discarding < sub.cwnd / sub.seg:
                self.discarded += 1
                return AckDecision.DISCARD
            self.discarding = -1
        return super().on_ack(sub, ack, ts_echo, sack, now)


@register_variant("reordering", "tcp-door", "chihani")
class ChihaniTcpDoor(TcpDoor):
    """A no-op that ignores duplicate ACKs — no fast retransmit at all, losses wait for the timer;
    no detection.  This is also how Alheid et al. describe TCP-DOOR's behaviour (sec. V: it "does
    not take any action when receiving the third DUPACK and depends on the RTO response only")."""

    wants_every_ack = False

    def on_fast_retransmit(self, sub, now):
        return FastRetransmitDecision.IGNORE

    def on_timeout(self, sub, now):
        return TimeoutDecision.STANDARD


__all__ = ["SCWND_GAIN", "RECEIVER_OUT_OF_ORDER_ACK", "ChihaniWithheldAck", "ChihaniNs3Receiver", "ChihaniCoupled", "ChihaniUncoupled", "ChihaniFullyCoupled",
           "ChihaniLia", "ChihaniRttCompensation", "loss_window", "ChihaniRecovery", "ChihaniNs3Recovery", "ChihaniNs3RoundRobin", "ChihaniDsack", "ChihaniEifel", "ChihaniNs3Eifel",
           "ChihaniFrto", "ChihaniNs3Frto", "FRTO_PRIMES", "ChihaniTcpDoor", "ModelDsackOption",
           "MODEL_DSACK_OPTION_BLOCKS", "ModelDsackBoard", "ChihaniNs3Dsack", "DSN_OPTION_BYTES",
           "TIMESTAMP_OPTION_BYTES", "DSACK_OPTION_BYTES", "model_tcp_header_bytes", "model_wire_bytes"]
