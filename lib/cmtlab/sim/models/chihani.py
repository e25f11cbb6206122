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
                       not acknowledged until the data-level gap closes (``dupack_mode="chihani"``:
                       :data:`RECEIVER_OUT_OF_ORDER_ACK`)
``dsack``              the first D-SACK of a retransmitted segment: slow start back to the saved window
``eifel``              checked only on duplicate ACKs; restores the saved ``cwnd``/``ssthresh`` exactly
``frto``               duplicate ACKs ignored (no fast retransmit), the spurious verdict never used
``tcp-door``           a no-op that ignores duplicate ACKs
=====================  =================================================================================
"""

from __future__ import annotations

from ..mechanisms.congestion import CoupledCongestionControl, FullyCoupled, Lia, NewReno, RttCompensation, Uncoupled
from ..mechanisms.recovery import RecoveryAlgorithm
from ..mechanisms.schedulers.round_robin import RoundRobinConnectionScheduler
from ..registry import register, register_variant
from ..mechanisms.reordering.dsack import DsackUndo
from ..mechanisms.reordering.eifel import Eifel
from ..mechanisms.reordering.frto import Frto
from ..mechanisms.reordering.tcp_door import TcpDoor
from ..tcp.decisions import AckDecision, FastRetransmitDecision, OutOfOrderAck, TimeoutDecision, UndoMode

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
        total = sum(s.cwnd for s in self._subflows(sub))
        return self.alpha(sub) * bytes_acked * sub.seg / total


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
    """:class:`ChihaniRecovery` calibrated against the built model (``DupAck``): the sender keeps
    no loss marks (:attr:`~cmtlab.sim.mechanisms.recovery.RecoveryAlgorithm.loss_marks` ``False``) —
    only the third duplicate ACK retransmits, one segment; partial ACKs retransmit nothing and
    duplicate ACKs during recovery open nothing."""

    name = "chihani_ns3"
    loss_marks = False
    __slots__ = ("est_ns", "var_ns", "multiplier", "samples", "last_fast_retransmit")

    def __init__(self):
        super().__init__()
        self.last_fast_retransmit = -1
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


__all__ = ["SCWND_GAIN", "RECEIVER_OUT_OF_ORDER_ACK", "ChihaniCoupled", "ChihaniUncoupled", "ChihaniFullyCoupled",
           "ChihaniLia", "ChihaniRttCompensation", "loss_window", "ChihaniRecovery", "ChihaniNs3Recovery", "ChihaniNs3RoundRobin", "ChihaniDsack", "ChihaniEifel", "ChihaniNs3Eifel",
           "ChihaniFrto", "ChihaniNs3Frto", "FRTO_PRIMES", "ChihaniTcpDoor"]
