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
one), step 4 (``reo_wnd = min(reo_wnd_mult * min_RTT / 4, SRTT)``, 0 before any reordering was
seen while in recovery or with ``DupThresh`` segments SACKed; ``reo_wnd_mult += 1`` on a D-SACK
at most once per round trip (``RACK.dsack_round``), reset to 1 after 16 recoveries without one),
step 5 (detect loss, arm the timer for the earliest ``xmit_ts + RACK.rtt + reo_wnd``); sec. 7.2
(``PTO = 2 SRTT``, ``+ WCDelAckT`` (200 ms) when one segment is in flight, at most the RTO; 1 s
without an RTT sample), sec. 7.3 (probe: new data if available, else the highest segment sent),
sec. 7.4 (TLP loss detection: the probe's retransmission D-SACKed — no loss; the ACK covering
``TLP.end_seq`` without that D-SACK — a loss repaired by the probe, the congestion control must
reduce: :attr:`RackVerdict.tlp_loss`).

Not here yet: the sender hook that lets this replace the duplicate-ACK threshold (see
``book/simulator.md``: the interface to come) — this module is tested on scripted sequences.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...tcp.decisions import ProbeKind

#: RFC 8985 sec. 7.2: the worst-case delayed-ACK time added to the PTO with one segment in flight.
WC_DEL_ACK_NS = 200_000_000
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
            if sum(1 for s in self.segs.values() if s.delivered) >= self.dupthresh:
                return 0
        if self.min_rtt_ns is None:
            return 0
        return min(self.reo_wnd_mult * self.min_rtt_ns // 4, srtt_ns)

    def on_ack(self, now_ns: int, cum_ack: int, sacked=(), *, srtt_ns: int, dsack: bool = False,
               dsack_seq: int | None = None, ts_echo_ns: int | None = None) -> RackVerdict:
        """An ACK at ``now_ns``: cumulative ACK ``cum_ack`` (next expected segment), newly SACKed
        segments ``sacked``, a D-SACK (``dsack``; ``dsack_seq`` the duplicated segment) and the echoed
        timestamp in the sender's clock (``ts_echo_ns``, optional)."""
        newly = [k for k in range(self.snd_una, cum_ack) if k in self.segs and not self.segs[k].delivered]
        newly += [k for k in sacked if k in self.segs and not self.segs[k].delivered and k >= cum_ack]
        tlp_loss = self._tlp_on_ack(cum_ack, dsack, dsack_seq)
        # step 1-3: update RACK from the delivered segments (RACK_update), detect reordering
        for k in sorted(newly):
            s = self.segs[k]
            s.delivered = True
            rtt = now_ns - s.xmit_ns
            if s.retransmitted and ((ts_echo_ns is not None and ts_echo_ns < s.xmit_ns)
                                    or (self.min_rtt_ns is not None and rtt < self.min_rtt_ns)):
                continue  # possibly the ACK of the original transmission: no sample
            self.rtt_ns = rtt
            if self.min_rtt_ns is None or rtt < self.min_rtt_ns:
                self.min_rtt_ns = rtt
            if self._sent_after(s.xmit_ns, k + 1, self.xmit_ns, self.end_seq):
                self.xmit_ns, self.end_seq = s.xmit_ns, k + 1
        for k in sorted(newly):
            if k + 1 < self.fack:
                self.reordering_seen = True  # delivered below the highest delivered segment
            self.fack = max(self.fack, k + 1)
        self.snd_una = max(self.snd_una, cum_ack)  # SND.UNA after this ACK (step 4 compares with it)
        # step 4: the D-SACK part of RACK_update_reo_wnd
        if self.dsack_round is not None and self.snd_una >= self.dsack_round:
            self.dsack_round = None
        if dsack and self.dsack_round is None:
            self.dsack_round = self.snd_nxt
            self.reo_wnd_mult += 1
            self.reo_wnd_persist = REO_WND_PERSIST
        for k in [k for k in self.segs if k < cum_ack]:
            del self.segs[k]
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

    def _tlp_on_ack(self, cum_ack: int, dsack: bool, dsack_seq: int | None) -> bool:
        """RFC 8985 sec. 7.4.2: was the episode's loss repaired by the probe?"""
        if self.tlp_end_seq is None:
            return False
        if self.tlp_is_retrans and dsack and dsack_seq == self.tlp_end_seq - 1:
            self.tlp_end_seq = None  # the original arrived too: no loss
            return False
        if cum_ack >= self.tlp_end_seq:
            was_retrans = self.tlp_is_retrans
            self.tlp_end_seq = None
            return was_retrans  # the probe repaired a loss (a new-data probe: RACK/SACK handle it)
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
        for k in sorted(self.segs):
            s = self.segs[k]
            if s.delivered or s.lost:
                continue
            if self._sent_after(self.xmit_ns, self.end_seq, s.xmit_ns, k + 1):
                remaining = s.xmit_ns + self.rtt_ns + reo - now_ns
                if remaining <= 0:
                    s.lost = True
                    lost.append(k)
                else:
                    timeout = max(remaining, timeout)
        return tuple(lost), (now_ns + timeout if timeout > 0 else None)


__all__ = ["RackTlp", "RackVerdict", "TlpProbe", "WC_DEL_ACK_NS", "REO_WND_PERSIST"]
