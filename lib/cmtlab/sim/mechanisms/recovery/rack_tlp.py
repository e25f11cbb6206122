"""RACK-TLP loss detection (RFC 8985) as a state machine driven by the sender's events.

RACK ("recent acknowledgment", RFC 8985 sec. 6) marks a segment lost when a segment *sent after
it* has been delivered (cumulatively or selectively acknowledged) and more than ``RTT + reo_wnd``
has passed since it was sent — time instead of the three duplicate ACKs of RFC 5681/6675, so a
reordering shorter than the reordering window costs nothing.  TLP ("tail loss probe", sec. 7)
sends one probe ``PTO`` after the last transmission when the ACK clock has stopped, so a loss at
the tail is repaired by RACK instead of by the retransmission timeout.

This class keeps RACK's and TLP's state and answers the sender's questions; the sender owns the
scoreboard and the timers.  Segments are numbered like the sender's (segment indices; a segment
``k`` ends at ``k + 1``), times are integer nanoseconds.  The calls:

* :meth:`RackTlp.on_sent` — a segment left (new or retransmitted) at ``now_ns``;
* :meth:`RackTlp.on_ack` — an ACK delivered segments (cumulatively and/or by SACK) and maybe carried a
  D-SACK; returns the segments RACK now deems lost and the deadline of the RACK reordering timer
  (``None``: not needed), as a :class:`RackVerdict`;
* :meth:`RackTlp.on_reorder_timer` — the RACK timer expired: the segments lost now;
* :meth:`RackTlp.pto_ns` / :meth:`RackTlp.on_pto` — TLP's probe timeout and what to send when it fires
  (:class:`~cmtlab.sim.tcp.decisions.ProbeKind`);
* :meth:`RackTlp.on_recovery_exit` — a fast or RTO recovery ended (the reordering window's persistence).

Implemented per RFC 8985: sec. 6.2 step 1 (``RACK.xmit_ts``/``RACK.end_seq`` of the most recently
*sent* delivered segment, skipping possibly-spurious retransmission samples: the ACK echoes a
timestamp older than the retransmission, or the sample is shorter than ``min_RTT``), step 2
(``RACK.rtt``), step 3 (reordering detection: a delivered segment below the highest delivered
one that was never retransmitted — a late retransmission repaired a loss — or a D-SACK, as Linux counts it), step 4 (``reo_wnd = min(reo_wnd_mult * min_RTT / 4, SRTT)``, 0 before any reordering was
seen while in recovery or with ``DupThresh`` segments SACKed; ``reo_wnd_mult += 1`` on a D-SACK
at most once per round trip (``RACK.dsack_round``), reset to 1 after 16 recoveries without one),
step 5 (detect loss, arm the timer for the earliest ``xmit_ts + RACK.rtt + reo_wnd``); sec. 7.2
(``PTO = 2 SRTT``, ``+ WCDelAckT`` (200 ms) when one segment is in flight, at most the RTO; 1 s
without an RTT sample), sec. 7.3 (probe: new data if available, else the highest segment sent),
sec. 7.4 (``TLP_process_ack``: the probe's retransmission D-SACKed — no loss; an ACK beyond
``TLP.end_seq`` without that D-SACK — a loss repaired by the probe, the congestion control must
reduce: :attr:`RackVerdict.tlp_loss`; a pure duplicate ACK at ``TLP.end_seq`` — no evidence, the
episode ends).

The sender's side is :class:`RackTlpDetection` (``TcpOptions.loss_detection = "rack-tlp"``), a
:class:`~cmtlab.sim.mechanisms.recovery.loss_detection.LossDetection` that feeds this state machine
from the sender's scoreboard, marks what it deems lost, keeps the RACK reordering timer and TLP's
probe timer, and sends the probe.  Its choices where RFC 8985 leaves room follow Linux
(``net/ipv4/tcp_recovery.c``, ``tcp_output.c``, 6.x): the probe is armed only in the Open state
(``tcp_schedule_loss_probe``: not in Disorder, Recovery or Loss) and not while the RACK timer is
pending; the probe timer replaces the retransmission timer when that would expire first (the
retransmission timer is then restarted from the probe); a retransmission timeout ends a probe
episode, and marks lost only the first unacknowledged segment and what was sent at least ``RACK.rtt``
ago (``tcp_timeout_mark_lost``); a probe that repaired a loss reduces the window once.  Entering
recovery is Linux's
``tcp_time_to_recover`` with RACK: some segment is marked lost.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...engine.timers import LazyTimer
from ...registry import register
from ...tcp.decisions import LossDecision, ProbeKind, TimeoutMarking
from ...tcp.state import LOSS, OPEN, RECOVERY
from .loss_detection import LossDetection

#: RFC 8985 sec. 7.2: the worst-case delayed-ACK time added to the PTO with one segment in flight.
WC_DEL_ACK_NS = 200_000_000
#: Linux's ``TCP_TIMEOUT_MIN`` (2 jiffies at the testbed kernel's ``HZ`` = 250), added to the probe timeout when
#: more than one segment is outstanding (``tcp_schedule_loss_probe``).
LINUX_TIMEOUT_MIN_NS = 8_000_000
#: RFC 8985 sec. 6.2 step 4: recoveries a raised reordering window persists without a D-SACK.
REO_WND_PERSIST = 16


@dataclass(frozen=True)
class RackVerdict:
    """RACK's answer to one ACK: the segments now deemed lost (ascending), the deadline of the RACK
    reordering timer (``None`` when no segment waits), and whether TLP detected a loss its probe
    repaired (the congestion control must reduce once, RFC 8985 sec. 7.4.2)."""

    lost: tuple = ()
    timer_ns: int | None = None
    tlp_loss: bool = False


@dataclass(frozen=True)
class TlpProbe:
    """What to send when the probe timer fires: ``kind`` and the segment (``seq``)."""

    kind: ProbeKind
    seq: int


@dataclass
class _Seg:
    xmit_ns: int
    retransmitted: bool = False
    delivered: bool = False
    lost: bool = False


@dataclass
class RackTlp:
    """RACK-TLP state of one connection (RFC 8985; see the module docstring).

    ``dupthresh`` (3) is RFC 8985's ``DupThresh`` for the step-4 rule; ``tlp`` turns the probe on.
    """

    dupthresh: int = 3
    tlp: bool = True
    # RACK (sec. 6.1)
    xmit_ns: int | None = None
    end_seq: int = -1
    rtt_ns: int | None = None
    min_rtt_ns: int | None = None
    fack: int = -1  # highest end of a delivered segment
    reordering_seen: bool = False
    #: Linux's ``tp->reordering``: the largest reordering distance seen, in segments (from 3, the default
    #: ``net.ipv4.tcp_reordering``): the highest delivered segment's end minus the late segment's start
    reordering_degree: int = 3
    reo_wnd_mult: int = 1
    reo_wnd_persist: int = 0
    dsack_round: int | None = None
    # TLP (sec. 7.1)
    tlp_end_seq: int | None = None
    tlp_is_retrans: bool = False
    # scoreboard mirror: segment -> state, for segments not cumulatively acknowledged
    segs: dict = field(default_factory=dict)
    snd_una: int = 0
    snd_nxt: int = 0
    in_recovery: bool = False
    sacked_count: int = 0  # delivered segments above SND.UNA (step 4's "DupThresh segments SACKed")

    # ------------------------------------------------------------------ events
    def on_sent(self, seq: int, now_ns: int) -> None:
        """Segment ``seq`` was (re)transmitted at ``now_ns``."""
        s = self.segs.get(seq)
        if s is None or seq >= self.snd_nxt:
            self.segs[seq] = _Seg(now_ns)
            self.snd_nxt = max(self.snd_nxt, seq + 1)
        else:
            s.xmit_ns = now_ns
            s.retransmitted = True
            s.lost = False

    def reo_wnd_ns(self, srtt_ns: int) -> int:
        """RFC 8985 sec. 6.2 step 4, the reordering window now."""
        if not self.reordering_seen:
            if self.in_recovery:
                return 0
            if self.sacked_count >= self.dupthresh:
                return 0
        if self.min_rtt_ns is None:
            return 0
        return min(self.reo_wnd_mult * self.min_rtt_ns // 4, srtt_ns)

    def on_ack(self, now_ns: int, cum_ack: int, sacked=(), *, srtt_ns: int, dsack: bool = False,
               dsack_seq: int | None = None, ts_echo_ns: int | None = None) -> RackVerdict:
        """An ACK at ``now_ns``: cumulative ACK ``cum_ack`` (next expected segment), newly SACKed
        segments ``sacked``, a D-SACK (``dsack``; ``dsack_seq`` the duplicated segment) and the echoed
        timestamp in the sender's clock (``ts_echo_ns``, optional)."""
        segs = self.segs
        newly = [k for k in range(self.snd_una, cum_ack) if k in segs and not segs[k].delivered]
        newly += sorted({k for k in sacked if k >= cum_ack and k in segs and not segs[k].delivered})
        tlp_loss = self._tlp_on_ack(cum_ack, dsack, dsack_seq,
                                    pure_dupack=cum_ack <= self.snd_una and not sacked and not dsack)
        # step 1-3: update RACK from the delivered segments (RACK_update), detect reordering
        for k in newly:
            s = segs[k]
            s.delivered = True
            self.sacked_count += 1
            rtt = now_ns - s.xmit_ns
            if s.retransmitted and ((ts_echo_ns is not None and ts_echo_ns < s.xmit_ns)
                                    or (self.min_rtt_ns is not None and rtt < self.min_rtt_ns)):
                continue  # possibly the ACK of the original transmission: no sample
            self.rtt_ns = rtt
            if self.min_rtt_ns is None or rtt < self.min_rtt_ns:
                self.min_rtt_ns = rtt
            if self._sent_after(s.xmit_ns, k + 1, self.xmit_ns, self.end_seq):
                self.xmit_ns, self.end_seq = s.xmit_ns, k + 1
        for k in newly:
            if k + 1 < self.fack and not segs[k].retransmitted:
                # delivered below the highest delivered segment, and never retransmitted: a retransmission
                # delivered late repaired a loss, it is not reordering (RFC 8985 sec. 6.2 step 2; Linux
                # tcp_check_sack_reordering skips TCPCB_RETRANS)
                self.reordering_seen = True
                if self.fack - k > self.reordering_degree:
                    self.reordering_degree = self.fack - k
            self.fack = max(self.fack, k + 1)
        for k in range(self.snd_una, cum_ack):
            s = segs.pop(k, None)
            if s is not None and s.delivered:
                self.sacked_count -= 1
        self.snd_una = max(self.snd_una, cum_ack)  # SND.UNA after this ACK (step 4 compares with it)
        # step 4: the D-SACK part of RACK_update_reo_wnd
        if self.dsack_round is not None and self.snd_una >= self.dsack_round:
            self.dsack_round = None
        if dsack:
            # a D-SACK: a retransmission was spurious, its original only late — reordering (Linux counts it in
            # tcp_sacktag_one: a D-SACKed retransmission moves state->reord, tp->reord_seen)
            self.reordering_seen = True
        if dsack and self.dsack_round is None:
            self.dsack_round = self.snd_nxt
            self.reo_wnd_mult += 1
            self.reo_wnd_persist = REO_WND_PERSIST
        lost, timer = self._detect_loss(now_ns, srtt_ns)
        return RackVerdict(lost=lost, timer_ns=timer, tlp_loss=tlp_loss)

    def on_reorder_timer(self, now_ns: int, *, srtt_ns: int) -> RackVerdict:
        """The RACK reordering timer fired (RFC 8985 sec. 6.3): detect loss again."""
        lost, timer = self._detect_loss(now_ns, srtt_ns)
        return RackVerdict(lost=lost, timer_ns=timer)

    def on_recovery_exit(self) -> None:
        """A fast or RTO recovery ended (step 4: the raised window persists 16 recoveries)."""
        self.in_recovery = False
        self.reo_wnd_persist -= 1
        if self.reo_wnd_persist <= 0:
            self.reo_wnd_mult = 1

    # ------------------------------------------------------------------ TLP
    def pto_ns(self, *, srtt_ns: int | None, rto_ns: int, flight_segments: int) -> int:
        """RFC 8985 sec. 7.2: the probe timeout."""
        if srtt_ns is None or srtt_ns <= 0:
            pto = 1_000_000_000
        else:
            pto = 2 * srtt_ns
            if flight_segments == 1:
                pto += WC_DEL_ACK_NS
        return min(pto, rto_ns)

    def on_pto(self, *, new_data_available: bool) -> TlpProbe | None:
        """The probe timer fired: what to send (RFC 8985 sec. 7.3), or ``None`` when a probe is
        already outstanding (one per episode)."""
        if not self.tlp or self.tlp_end_seq is not None or self.snd_nxt <= self.snd_una:
            return None
        if new_data_available:
            probe = TlpProbe(ProbeKind.NEW_DATA, self.snd_nxt)
            self.tlp_is_retrans = False
            self.tlp_end_seq = self.snd_nxt + 1
        else:
            probe = TlpProbe(ProbeKind.RETRANSMIT_LAST, self.snd_nxt - 1)
            self.tlp_is_retrans = True
            self.tlp_end_seq = self.snd_nxt
        return probe

    def _tlp_on_ack(self, cum_ack: int, dsack: bool, dsack_seq: int | None, pure_dupack: bool) -> bool:
        """RFC 8985 sec. 7.4.2 (``TLP_process_ack``): was the episode's loss repaired by the probe?"""
        end = self.tlp_end_seq
        if end is None:
            return False
        if self.tlp_is_retrans and dsack and dsack_seq == end - 1:
            self.tlp_end_seq = None  # the probe's retransmission is redundant: the original arrived
            return False
        if cum_ack < end:
            return False
        if not self.tlp_is_retrans:
            self.tlp_end_seq = None  # a probe of new data was delivered: RACK handles any loss
            return False
        if cum_ack > end:
            self.tlp_end_seq = None  # beyond the probe without its D-SACK: the probe repaired a loss
            return True
        if pure_dupack:
            self.tlp_end_seq = None  # insufficient evidence
        return False

    # ------------------------------------------------------------------ internals
    @staticmethod
    def _sent_after(t1: int, seq1: int, t2: int | None, seq2: int) -> bool:
        """RACK_sent_after (sec. 6.2): (t1, seq1) sent after (t2, seq2)."""
        if t2 is None:
            return True
        return t1 > t2 or (t1 == t2 and seq1 > seq2)

    def _detect_loss(self, now_ns: int, srtt_ns: int):
        """RFC 8985 sec. 6.2 step 5 (RACK_detect_loss)."""
        if self.xmit_ns is None or self.rtt_ns is None:
            return (), None
        reo = self.reo_wnd_ns(srtt_ns)
        lost = []
        timeout = 0
        rack_ns, rack_end = self.xmit_ns, self.end_seq
        segs = self.segs
        # in sequence order; an original transmission is sent no earlier than any lower one, so the
        # first original transmission not sent before RACK's segment ends the walk (the later
        # retransmissions above it were sent after it too)
        for k in range(self.snd_una, self.snd_nxt):
            s = segs.get(k)
            if s is None or s.delivered or s.lost:
                continue
            before = s.xmit_ns < rack_ns or (s.xmit_ns == rack_ns and k + 1 < rack_end)
            if not before:
                if s.retransmitted:
                    continue
                break
            remaining = s.xmit_ns + self.rtt_ns + reo - now_ns
            if remaining <= 0:
                s.lost = True
                lost.append(k)
            else:
                timeout = max(remaining, timeout)
        return tuple(lost), (now_ns + timeout if timeout > 0 else None)


@register("loss_detection", "rack-tlp")
class RackTlpDetection(LossDetection):
    """RACK-TLP (RFC 8985) for a :class:`~cmtlab.sim.tcp.TcpSender`: the sender's side of :class:`RackTlp`
    (see the module docstring for the choices that follow Linux).

    ``tlp``: send tail loss probes (RFC 8985 sec. 7; Linux ``tcp_early_retrans = 3``); ``dupthresh``:
    RFC 8985's ``DupThresh`` in the reordering-window rule (3).  Counters: ``probes`` (TLPs sent),
    ``tlp_losses`` (losses a probe repaired), ``reo_timeouts`` (RACK timer expiries that marked a
    segment lost), ``marked_lost`` (segments RACK marked lost).
    """

    name = "rack-tlp"
    #: RFC 8985 sec. 6.2 step 1: a delivered retransmission gives no sample when the ACK echoes a timestamp
    #: older than the retransmission (or the sample is shorter than ``min_RTT``).
    tsecr_sample_filter = True
    sees_every_ack = True
    next_seg_rule3 = False  # only what RACK marked lost is retransmitted (Linux tcp_xmit_retransmit_queue)
    wants_dsack = True

    def __init__(self, tlp: bool = True, dupthresh: int = 3):
        if not isinstance(tlp, bool):
            raise ValueError(f"tlp must be True or False, got {tlp!r}")
        if not isinstance(dupthresh, int) or dupthresh < 1:
            raise ValueError(f"dupthresh must be an integer >= 1, got {dupthresh!r}")
        self.rack = RackTlp(dupthresh=dupthresh, tlp=tlp)
        self.reo_timer = self.pto_timer = None
        self.probes = self.tlp_losses = self.reo_timeouts = self.marked_lost = 0

    def attach(self, sub) -> None:
        super().attach(sub)
        self.reo_timer = LazyTimer(sub.queue, self._reo_timeout)
        self.pto_timer = LazyTimer(sub.queue, self._probe_timeout)

    def timers(self) -> tuple:
        return (self.reo_timer, self.pto_timer)

    # ------------------------------------------------------------------ the sender's hooks
    def on_ack(self, sub, now: int, ack: int, sack, ts_echo: int) -> LossDecision:
        rack = self.rack
        self._catch_up(sub)
        state = sub.state
        rack.in_recovery = state == RECOVERY or state == LOSS
        dsack = None
        sacked = ()
        if sack is not None:
            dsack, blocks = sack
            if blocks:
                sacked = [k for first, end in blocks for k in range(max(first, ack), end)]
        echo_ns = None
        if sub.timestamps and ts_echo and self.tsecr_sample_filter:
            # the echoed millisecond, as the last nanosecond of that millisecond on the engine's clock:
            # "echo < transmission time" is then Linux's before(TSecr, TSval of the retransmission)
            echo_ns = (ts_echo + 1) * 1_000_000 - sub.ts_offset_ns - 1
        v = rack.on_ack(now, ack, sacked, srtt_ns=sub.srtt, dsack=dsack is not None,
                        dsack_seq=dsack[0] if dsack is not None else None, ts_echo_ns=echo_ns)
        return self._apply(sub, now, v)

    def after_ack(self, sub, now: int, una: int, high: int) -> None:
        rack = self.rack
        state = sub.state
        if rack.in_recovery and state != RECOVERY and state != LOSS:
            rack.on_recovery_exit()  # a fast or RTO recovery ended with this ACK
        rack.in_recovery = state == RECOVERY or state == LOSS
        if sub.una > una or sub.high > high:  # RFC 8985 sec. 7.2: new data acknowledged or sent
            self._arm_probe(sub, now, sub.high > high)

    def on_retransmit(self, sub, k: int, now: int) -> None:
        self._catch_up(sub)
        self.rack.on_sent(k, now)

    def retransmits_on_partial_ack(self, sub) -> bool:
        """No: a partial ACK retransmits nothing by itself; what RACK marked lost goes out as PRR allows
        (Linux ``tcp_xmit_retransmit_queue``)."""
        return False

    def recovery_exit_segments(self, sub, ack: int, old_head: int, segs_acked: int) -> int:
        """What the ACK newly delivered (Linux's ``acked_sacked``, ``tp->delivered``'s increase): the SACKed
        segments it covers were counted when they were SACKed."""
        return segs_acked

    def on_timeout(self, sub, now: int) -> None:
        self.pto_timer.cancel()
        self.reo_timer.cancel()
        self.rack.tlp_end_seq = None  # Linux tcp_enter_loss: the probe episode ends
        self.rack.in_recovery = True

    def mark_on_timeout(self, sub, now: int) -> TimeoutMarking:
        """Linux ``tcp_timeout_mark_lost`` with RACK (``net/ipv4/tcp_input.c``, 6.x): after a timeout the
        first unacknowledged segment and every segment sent at least ``RACK.rtt`` ago are lost; a segment
        sent more recently may still arrive and is left in flight (no go-back-N of what is queued).  The
        head is resent at once, whatever the window (``tcp_retransmit_timer``)."""
        self._catch_up(sub)
        rack = self.rack
        rtt = rack.rtt_ns if rack.rtt_ns is not None else 0
        for k in range(sub.una, sub.high):
            s = rack.segs.get(k)
            if s is not None and s.delivered:
                continue
            if k == sub.una or s is None or s.xmit_ns + rtt <= now:
                sub.mark_lost(k)
                if s is not None:
                    s.lost = True
        sub.lost_cursor = sub.una
        sub.recover = sub.high
        sub.recover_active = True
        return TimeoutMarking.HEAD_AT_ONCE

    # ------------------------------------------------------------------ internals
    def _catch_up(self, sub) -> None:
        """Register the segments the sender sent as new data since the last call (their send times)."""
        rack = self.rack
        mask = sub.mask
        sent_time = sub.sent_time
        for k in range(rack.snd_nxt, sub.high):
            rack.on_sent(k, sent_time[k & mask])

    def _apply(self, sub, now: int, v: RackVerdict) -> LossDecision:
        marked = 0
        for k in v.lost:
            marked += sub.mark_lost(k)
        self.marked_lost += marked
        if v.timer_ns is not None:
            self.reo_timer.arm(now, v.timer_ns)
            self.pto_timer.cancel()  # Linux: the RACK timer takes the place of the probe timer
        else:
            self.reo_timer.cancel()
        if v.lost:
            return LossDecision.LOSS
        if v.tlp_loss:
            self.tlp_losses += 1
            return LossDecision.TLP_LOSS
        return LossDecision.NO_LOSS

    def _reo_timeout(self, now: int) -> None:
        """RFC 8985 sec. 6.3: the RACK reordering timer expired."""
        sub = self._sub
        self._catch_up(sub)
        v = self.rack.on_reorder_timer(now, srtt_ns=sub.srtt)
        decision = self._apply(sub, now, v)
        if decision is LossDecision.LOSS:
            self.reo_timeouts += 1
        sub.act_on_loss(now, decision, 0)
        sub.send_pending(now)

    def _probe_allowed(self, sub) -> bool:
        """Whether a probe may be armed now (Linux ``tcp_schedule_loss_probe``: Open, data outstanding, no probe
        outstanding, the RACK timer not pending)."""
        rack = self.rack
        return (rack.tlp and sub.state == OPEN and sub.una < sub.high and rack.tlp_end_seq is None
                and not self.reo_timer.running)

    def _arm_probe(self, sub, now: int, sent_new: bool = False) -> None:
        """RFC 8985 sec. 7.2 (Linux ``tcp_schedule_loss_probe``): arm the probe timer, or cancel it (``sent_new``: the
        ACK's sends put new data out)."""
        rack = self.rack
        if not self._probe_allowed(sub):
            self.pto_timer.cancel()
            return
        rto_at = sub.rto_timer.deadline
        pto = rack.pto_ns(srtt_ns=sub.srtt if sub.n_rtt_samples else None,
                          rto_ns=(rto_at - now) if rto_at is not None else sub.rto,
                          flight_segments=sub.high - sub.una)
        at = now + pto
        self.pto_timer.arm(now, at)
        if rto_at is not None and at >= rto_at:
            # the probe takes the retransmission timer's place; the timer restarts from the probe
            sub.rto_timer.arm(now, at + sub.rto)

    def _probe_timeout(self, now: int) -> None:
        """RFC 8985 sec. 7.3: the probe timer expired: send one probe, restart the retransmission timer."""
        sub = self._sub
        rack = self.rack
        if sub.state != OPEN or sub.una >= sub.high:
            return
        self._catch_up(sub)
        sub._app_fill()
        k = sub.high
        new_data = k < sub.app_tail and (k - sub.una) * sub.seg + (
            sub.last_len if k == sub.n_segs - 1 else sub.seg) <= sub.rwnd
        probe = rack.on_pto(new_data_available=new_data)
        if probe is None:
            sub.rto_timer.arm(now, now)  # no probe to send: the retransmission timer's turn
            return
        self.probes += 1
        if probe.kind is ProbeKind.NEW_DATA:
            sub.send_new_data(now, 1)
            self._catch_up(sub)
        else:
            sub._send_segment(now, probe.seq)
        sub.rto_timer.arm(now, now + sub.rto)


@register("loss_detection", "rack-tlp-linux")
class LinuxRackTlpDetection(RackTlpDetection):
    """RACK-TLP with the window growth Linux's ACK processing gives around it (``"rack-tlp-linux"``).

    Linux grows the window on an ACK when it is not reducing it (``tcp_cong_control``: not in Recovery or
    CWR) and ``tcp_may_raise_cwnd`` allows it: the ACK advanced ``snd_una`` (``FLAG_DATA_ACKED``) — or, once
    the reordering it has measured exceeds ``net.ipv4.tcp_reordering`` (``tp->reordering > 3``), any ACK that
    delivered data (``FLAG_FORWARD_PROGRESS``, a SACK alone included) — and it grows by every segment the ACK
    newly acknowledged *or SACKed* (``acked_sacked``).  The sender counts growth only on an ACK that leaves
    it in Open, i.e. one that carries no new SACK information: on a reordering path, where many segments are
    SACKed before the cumulative ACK covers them, those segments never count towards its window.  This class
    adds, on an ACK that marks nothing lost in Open or Disorder, the growth Linux gives and the sender does
    not: the ACK's newly acknowledged and SACKed segments when it advanced ``snd_una`` and SACKed new data, the
    newly SACKed ones on a SACK-only ACK once :attr:`RackTlp.reordering_degree` > 3.  The reordering degree is
    Linux's: the highest delivered segment's end minus the late (never retransmitted) segment's start.
    """

    name = "rack-tlp-linux"

    def on_ack(self, sub, now: int, ack: int, sack, ts_echo: int) -> LossDecision:
        rack = self.rack
        self._catch_up(sub)
        state = sub.state
        segs = rack.segs
        old_una = rack.snd_una
        n_sacked = 0
        if sack is not None and sack[1]:
            sacked = {k for first, end in sack[1] for k in range(max(first, ack), end)}
            n_sacked = sum(1 for k in sacked if k in segs and not segs[k].delivered)
        n_acked = sum(1 for k in range(old_una, ack) if k in segs and not segs[k].delivered) if n_sacked else 0
        decision = super().on_ack(sub, now, ack, sack, ts_echo)
        if n_sacked and state != RECOVERY and state != LOSS and decision is LossDecision.NO_LOSS:
            if ack > old_una:
                sub.cc.increase_window(sub, n_acked + n_sacked)  # FLAG_DATA_ACKED: acked_sacked
            elif rack.reordering_degree > 3:
                sub.cc.increase_window(sub, n_sacked)  # high reordering: FLAG_FORWARD_PROGRESS
        return decision


@register("loss_detection", "linux")
class LinuxLossDetection(LinuxRackTlpDetection):
    """Linux 6.18's loss detection (``"linux"``): :class:`LinuxRackTlpDetection` with RACK's RTT samples as
    Linux takes them.

    RFC 8985 sec. 6.2 step 1 skips the sample of a delivered retransmission when the ACK's echoed timestamp
    predates the retransmission or the sample is shorter than ``min_RTT``; Linux's ``tcp_rack_advance``
    (``net/ipv4/tcp_recovery.c``) uses the second test only (``rtt_us < tcp_min_rtt(tp) && sacked &
    TCPCB_RETRANS``).  The difference decides a recovery with many losses: the receiver echoes the timestamp
    of the last in-order segment (RFC 7323), so while the first hole is open every SACK of a retransmission
    echoes an older timestamp — with the RFC's test RACK's clock stops at the last original segment
    delivered, a retransmission lost again is never deemed lost, and the timer has to repair it; with
    Linux's, RACK advances with the delivered retransmissions and marks the lost one again
    (``TCPLostRetransmit``)."""

    name = "linux"
    tsecr_sample_filter = False


@register("loss_detection", "linux-probe-on-send")
class LinuxProbeOnSendDetection(LinuxLossDetection):
    """:class:`LinuxLossDetection` with the tail-loss probe armed as Linux 6.18 arms it (``"linux-probe-on-send"``):
    after every transmission of new data, not only on ACKs.

    ``tcp_write_xmit`` (``net/ipv4/tcp_output.c``) ends every transmission of new data with
    ``tcp_schedule_loss_probe(sk, false)``, and ``tcp_event_new_data_sent`` first re-arms the retransmission timer
    when the probe is pending (``tcp_rearm_rto``).  The probe timeout is twice SRTT plus ``TCP_RTO_MIN`` with one
    segment outstanding (a delayed ACK), else plus ``TCP_TIMEOUT_MIN`` (2 jiffies), capped by the RTO: on an ACK a
    whole one (``advancing_rto``), after a transmission what is left of it since the last transmission of the oldest
    outstanding segment (``tcp_rto_delta_us``), and not at all when that is past (the probe then stands in for the
    overdue timeout: Linux has one timer, ``icsk_retransmit_timer``).  :class:`LinuxLossDetection` arms the probe
    on ACKs only, capped by the retransmission timer as the ACK restarted it: a subflow fed by the MPTCP scheduler
    between its ACKs keeps the probe of its last ACK.  Modelled and off in the ``"linux-6.18"`` preset: the
    today's-transport chapter's mechanism ledger shows what it does to the agreement."""

    name = "linux-probe-on-send"
    #: the sender calls :meth:`on_new_data_sent` after every transmission of new data
    rearms_on_send = True

    def on_new_data_sent(self, sub, now: int) -> None:
        """``tcp_event_new_data_sent`` and ``tcp_write_xmit`` (``net/ipv4/tcp_output.c``): after a transmission of
        new data Linux schedules the probe again, capped by what is left of the retransmission timeout counted from
        the last transmission of the oldest outstanding segment (``tcp_rto_delta_us``); when that is already past,
        uncapped (the probe then stands in for the overdue timeout: one timer, ``icsk_retransmit_timer``).  Where the
        probe may not be armed (not Open, a probe outstanding, the RACK timer pending) the pending timer stays."""
        if self._probe_allowed(sub):
            self._arm_linux_probe(sub, now, advancing_rto=False)

    def _arm_probe(self, sub, now: int, sent_new: bool = False) -> None:
        """After an ACK: the probe armed as ``tcp_set_xmit_timer`` arms it (capped by a whole RTO from now,
        ``advancing_rto``), or, when the ACK's sends put new data out, as those sends left it
        (:meth:`on_new_data_sent`); cancelled where it may not be armed."""
        if not self._probe_allowed(sub):
            self.pto_timer.cancel()
            return
        self._arm_linux_probe(sub, now, advancing_rto=not sent_new)

    def _arm_linux_probe(self, sub, now: int, *, advancing_rto: bool) -> None:
        """``tcp_schedule_loss_probe`` (Linux 6.18): the probe timeout is twice SRTT plus ``TCP_RTO_MIN`` with one
        segment outstanding (a delayed ACK), else plus ``TCP_TIMEOUT_MIN`` (2 jiffies); capped by the RTO, a whole
        one (``advancing_rto``: on an ACK) or what is left of it since the head's last transmission (after
        sending), when that is positive.  The retransmission timer never fires before the probe (it is the same
        timer in Linux)."""
        flight = sub.high - sub.una
        if not sub.n_rtt_samples or not sub.srtt:
            pto = 1_000_000_000  # TCP_TIMEOUT_INIT
        else:
            pto = 2 * sub.srtt + (WC_DEL_ACK_NS if flight == 1 else LINUX_TIMEOUT_MIN_NS)
        if advancing_rto:
            rto_at = sub.rto_timer.deadline
            cap = (rto_at - now) if rto_at is not None else sub.rto
        else:
            self._catch_up(sub)
            s = self.rack.segs.get(sub.una)
            head_tx = s.xmit_ns if s is not None else sub.sent_time[sub.una & sub.mask]
            cap = head_tx + sub.rto - now
        if cap > 0 and cap < pto:
            pto = cap
        at = now + pto
        self.pto_timer.arm(now, at)
        rto_at = sub.rto_timer.deadline
        if rto_at is not None and at >= rto_at:
            sub.rto_timer.arm(now, at + sub.rto)


__all__ = ["RackTlp", "RackVerdict", "TlpProbe", "RackTlpDetection", "LinuxRackTlpDetection", "LinuxLossDetection",
           "LinuxProbeOnSendDetection", "WC_DEL_ACK_NS", "LINUX_TIMEOUT_MIN_NS", "REO_WND_PERSIST"]

