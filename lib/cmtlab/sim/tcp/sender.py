"""TCP NewReno sender (one subflow) and receiver, with the semantics of ns-3.44's ``TcpSocketBase``.

Sequence numbers are **segment indices** (segment ``k`` carries bytes ``[k*s, (k+1)*s)`` of
the transfer; only the last segment may be shorter); windows, ``ssthresh`` and
bytes-in-flight are in **bytes**; times (``now``, RTT, RTO) in **integer nanoseconds**,
the engine's clock (see :mod:`cmtlab.sim.link`).

Sender (:class:`TcpSender`)
---------------------------
RFC 5681 slow start / congestion avoidance (via a :class:`~cmtlab.sim.congestion.CongestionControl`),
fast retransmit on the ``dupack_threshold``-th duplicate ACK, NewReno fast recovery with
partial ACKs (RFC 6582) or PRR (RFC 6937) via a :class:`~cmtlab.sim.recovery.RecoveryAlgorithm`,
SACK scoreboard and RFC 6675 loss detection, limited transmit (RFC 3042), RFC 6298
retransmission timer, timestamps (RFC 7323), and a
:class:`~cmtlab.sim.reordering.ReorderingResponse` hook.

The sender mirrors ns-3.44's ``TcpSocketBase`` + ``TcpTxBuffer`` where the RFCs leave
room; it has been checked segment by segment against :mod:`cmtlab.ns3` on hundreds of
random scenarios (every option, 1–8 links, random loss) and agrees to the nanosecond.
The choices, each also cited at the code:

* the scoreboard keeps per-segment ``SACKED``/``LOST``/``RETRANS`` flags and
  ``pipe = sent - sacked - lost + retransmitted`` (RFC 6675 ``SetPipe`` as ns-3 counts it);
  the sender may send while ``min(cwnd, rwnd) - pipe > 0`` and, to avoid silly-window
  segments, only whole segments (except the last, short segment of the transfer);
* ``NextSeg`` (RFC 6675): first the lowest segment marked lost, not yet retransmitted and
  below the highest SACKed segment (rule 1.b; without any SACK information every lost
  segment qualifies), then new data, then (SACK recovery only) an un-SACKed segment below
  the highest SACK (rule 3);  "highest SACKed" follows ns-3's bookkeeping, which lets a
  newly SACKed segment just below it take its place;
* a duplicate ACK is an ACK that repeats SND.UNA (without SACK) or one that SACKs new
  data (with SACK, RFC 6675 sec. 2, even if it also advances SND.UNA);
* without SACK each duplicate ACK during recovery marks one more segment as SACKed
  ("Reno SACK"), and so does every duplicate ACK before recovery when limited transmit
  is on — that is how limited transmit sends one new segment per duplicate ACK (with
  SACK the pipe does it; ns-3 cannot switch it off, cmtlab can);  a cumulative ACK that
  uncovers a wrongly Reno-SACKed segment marks it lost, and a lost head re-enters
  recovery at the next duplicate ACK;
* entering recovery: ``RecoveryPoint = HighData``, ``ssthresh = max(2 SMSS, pipe / 2)``
  (``pipe`` + 1 SMSS without SACK), the first unacknowledged segment is marked lost and
  retransmitted at once, whatever the window;  a partial ACK retransmits the next lost
  segment and restarts the retransmission timer only the first time (RFC 6582 sec. 3.2
  step 5);  the full ACK sets ``cwnd = ssthresh`` and then applies the window increase for
  that ACK;  the recovery algorithm sees the bytes-in-flight computed last (ns-3's
  ``m_bytesInFlight``: before the Reno SACK of the current duplicate ACK);
* after a retransmission timeout every outstanding segment not SACKed is lost (without
  SACK the Reno SACKs are forgotten), ``ssthresh = max(2 SMSS, pipe / 2)`` (recomputed
  on every timeout), ``cwnd = 1 SMSS``, the timer is doubled (at most 60 s), the RTT
  history is emptied and the lost segments are resent in slow start;  duplicate ACKs are
  ignored until the ACK passes the recovery point;
* RTT samples (RFC 6298 / ns-3 ``RttMeanDeviation``): on each ACK that covers the oldest
  segment still in the transmission history, ``now - send time`` of that segment,
  skipped when it was retransmitted (Karn); with timestamps the sample is
  ``now - TSecr`` on a millisecond clock (ns-3's) and retransmissions are not skipped.
  ``SRTT``/``RTTVAR`` with gains 1/8 and 1/4 in integer nanoseconds,
  ``RTO = max(SRTT + max(G, 4 RTTVAR), MinRto)``; the timer is restarted (and the backoff
  forgotten) on every ACK of new data;  the first sample comes from the connection's
  SYN/SYN-ACK exchange, as in ns-3, unless the simulation is told otherwise;
* buffers: the bulk-send application writes whole segments into a send buffer of
  ``send_buffer_bytes`` (the rest of the transfer once it fits) when TCP notifies it —
  after a new cumulative ACK, or when the data left is less than the window (ns-3's
  ``NotifySend``; a SACK duplicate ACK that advances SND.UNA does not refill it);  the
  receiver advertises ``receive_buffer_bytes`` (in units of its window-scale factor) and
  the sender keeps ``HighData - SND.UNA`` within it — in whole segments: where ns-3 would
  send a segment cut short by the receive window, cmtlab waits for room for a full one
  (this matters only when the receive buffer, not the congestion window, is the limit).

Receiver (:class:`TcpReceiver`)
-------------------------------
Cumulative ACKs; a delayed ACK after every ``m_ack`` in-order segments or when the
delayed-ACK timer expires; an immediate ACK when a segment arrives out of order, fills
(part of) a gap, or is a duplicate (ns-3 ``TcpSocketBase::ReceivedData``: "a gap exists
in the buffer, or we filled a gap: always ACK"); the first data segment is acknowledged
at once (ns-3 primes the delayed-ACK counter at connection set-up).  With SACK, up to 4
blocks (3 with timestamps: TCP option space) in ns-3's ``TcpRxBuffer`` order — the block
containing the newest segment first, merged with adjacent blocks — preceded by a D-SACK
block (RFC 2883) when the segment that triggered the ACK was a duplicate and D-SACK is
on (ns-3.44 never sends D-SACK; the engine turns it on when the reordering response asks
for it, :attr:`~cmtlab.sim.reordering.ReorderingResponse.wants_dsack`); a duplicate above
RCV.NXT is followed by the block that contains it (RFC 2883 sec. 4).  Timestamps:
``TS.Recent`` is updated only from in-order segments at or below the last ACK sent whose
TSval is at least the newest seen (ns-3.44), or, with ``rfc7323_echo`` (turned on when the
reordering response sets ``wants_rfc7323_echo``), exactly as RFC 7323 sec. 4.3 says:
when ``SEG.TSval >= TS.Recent`` — so the ACK of a late segment that fills a hole echoes
that segment's timestamp.

Extension points
----------------
One :class:`TcpSender` is one subflow with its own congestion state.  Where its data comes
from is ``_app_fill`` (the bulk application: a plain bound ``n_segs`` on the hot path); an
MPTCP subflow (:class:`cmtlab.sim.mptcp.MptcpSubflow`) overrides it to take the next
data-sequence numbers from its connection.  A receiver with a ``sink`` hands its in-order
segments up (to the MPTCP connection's reorder buffer, Alheid Fig. 1) instead of being the
application itself.  ``index`` tags a flow's timer events in a shared event queue.
"""

from __future__ import annotations

from typing import NamedTuple

from ..engine.timers import LazyTimer
from .decisions import FastRetransmitDecision, OutOfOrderAck, TimeoutDecision, UndoMode
from ..link import NS_PER_S, seconds_to_ns

# congestion states (ns-3 TcpSocketState::TcpCongState_t)
OPEN, DISORDER, RECOVERY, LOSS = 0, 1, 2, 3
STATE_NAMES = ("open", "disorder", "recovery", "loss")
# scoreboard flags per outstanding segment
SACKED, LOST, RETRANS, HIST_RETX = 1, 2, 4, 8


def _pow2_at_least(n: int) -> int:
    p = 1
    while p < n:
        p <<= 1
    return p


class CongestionState(NamedTuple):
    """Immutable record of a sender's congestion state (:meth:`TcpSender.snapshot_congestion_state`).

    Windows in bytes, ``state`` one of ``OPEN``/``DISORDER``/``RECOVERY``/``LOSS``,
    ``recover`` the recovery point (segment index), ``flight_bytes`` the RFC 6675 pipe,
    RTT/RTO values in ns, ``time_ns`` when the snapshot was taken.
    """

    cwnd: int
    ssthresh: int
    state: int
    recover: int
    recover_active: bool
    una: int
    high: int
    flight_bytes: int
    srtt: int
    rttvar: int
    rto: int
    time_ns: int


class TcpSender:
    """The sending side of one TCP subflow (see the module docstring)."""

    __slots__ = (
        # configuration
        "seg", "n_segs", "last_len", "short", "_last_delivered", "max_out", "buf_bytes", "rwnd", "app_tail",
        "sack", "sack_loss_detection", "limited_transmit",
        "timestamps", "dupthresh", "min_rto", "clock_g", "initial_rto", "cc", "recovery", "reordering",
        "net_send", "queue", "trace",
        # scoreboard
        "una", "high", "flags", "mask", "sent_time", "hist_lo", "sacked_out", "lost_out", "retrans_out",
        "highest_sack", "lost_cursor", "lost_marked_upto", "lost_pending",
        # congestion state
        "cwnd", "ssthresh", "state", "dupacks", "recover", "recover_active", "first_partial_ack",
        "high_rx_ack", "pipe_snapshot", "retrans_data_acked", "bytes_acked_not_processed",
        # rtt / rto
        "srtt", "rttvar", "n_rtt_samples", "rto", "rto_timer",
        # counters
        "ts_offset_ns", "segments_sent", "retransmissions", "fast_retransmits", "timeouts", "partial_acks",
        "dupacks_rx",
        "acks_rx", "stale_acks", "rtt_samples_taken", "max_backoff", "_consecutive_rto",
        # dupack run trace
        "_run_ack", "_run_len", "_run_start",
        # multipath plumbing (read by mechanisms; see cmtlab.sim.mptcp)
        "index", "connection", "path",
        # reordering-response hooks (see cmtlab.sim.reordering)
        "_every_ack", "_plain", "spurious_undos", "initial_cwnd",
    )

    def __init__(self, *, segment_bytes: int, transfer_bytes: int, initial_window_bytes: int,
                 ssthresh_bytes: int, options, cc, recovery, reordering, net_send, queue, trace=None,
                 index: int = 0, connection=None, path=None):
        seg = int(segment_bytes)
        self.seg = seg
        self.n_segs = -(-int(transfer_bytes) // seg)
        self.last_len = int(transfer_bytes) - (self.n_segs - 1) * seg
        self.short = seg - self.last_len  # bytes the last segment lacks (0: it is full)
        self._last_delivered = False  # the current ACK delivered the (short) last segment
        sndbuf, rcvbuf = int(options.send_buffer_bytes), int(options.receive_buffer_bytes)
        if min(sndbuf, rcvbuf) < seg:
            raise ValueError(f"send_buffer_bytes and receive_buffer_bytes must be >= segment_bytes ({seg}) "
                             f"so that a segment can ever be sent, got {sndbuf} and {rcvbuf}")
        self.buf_bytes = sndbuf
        self.max_out = sndbuf // seg
        # the receiver advertises its buffer, in units of its window-scale factor (RFC 7323)
        shift = 0
        while (rcvbuf >> shift) > 65535:
            shift += 1
        self.rwnd = (rcvbuf >> shift) << shift
        self.app_tail = 0  # segments the application has written into the send buffer so far
        self.sack = bool(options.sack)
        self.sack_loss_detection = bool(options.sack_loss_detection)
        self.limited_transmit = bool(options.limited_transmit)
        self.timestamps = bool(options.timestamps)
        self.dupthresh = int(options.dupack_threshold)
        self.min_rto = seconds_to_ns(options.min_rto_s)
        self.clock_g = seconds_to_ns(options.clock_granularity_s)
        self.initial_rto = seconds_to_ns(options.initial_rto_s)
        self.cc = cc
        self.recovery = recovery
        self.reordering = reordering
        self.net_send = net_send
        self.queue = queue
        self.trace = trace

        cap = _pow2_at_least(self.max_out + 2)
        self.mask = cap - 1
        self.flags = bytearray(cap)
        self.sent_time = [0] * cap
        self.una = 0
        self.high = 0
        self.hist_lo = 0
        self.sacked_out = self.lost_out = self.retrans_out = 0
        self.highest_sack = -1
        self.lost_cursor = 0
        self.lost_marked_upto = 0
        self.lost_pending = 0  # segments marked lost and not yet retransmitted (NextSeg rule 1)

        self.cwnd = int(initial_window_bytes)
        self.initial_cwnd = self.cwnd  # IW (RFC 4015 response)
        self.ssthresh = int(ssthresh_bytes)
        self.state = OPEN
        self.dupacks = 0
        self.recover = 0
        self.recover_active = False
        self.first_partial_ack = True
        self.high_rx_ack = 0
        self.pipe_snapshot = 0
        self.retrans_data_acked = False
        self.bytes_acked_not_processed = 0

        self.srtt = 0
        self.rttvar = 0
        self.n_rtt_samples = 0
        self.rto = self.initial_rto
        self.rto_timer = LazyTimer(queue, self._retransmission_timeout)  # RFC 6298 retransmission timer

        self.ts_offset_ns = 0  # phase of the millisecond timestamp clock (ns-3's absolute time)
        self.segments_sent = self.retransmissions = self.fast_retransmits = self.timeouts = 0
        self.partial_acks = self.dupacks_rx = self.acks_rx = self.stale_acks = self.rtt_samples_taken = 0
        self.max_backoff = 0
        self._consecutive_rto = 0
        self._run_ack = -1
        self._run_len = 0
        self._run_start = 0
        self.index = index  # subflow number (tags this sender's timer events)
        self.connection = connection  # the MPTCP connection, None for a single-path flow
        self.path = path  # static description of the path (rate_bps, delay_s)
        # a response that watches every ACK takes the general path (no fast paths)
        self._every_ack = bool(getattr(reordering, "wants_every_ack", False))
        self._plain = trace is None and not self._every_ack
        self.spurious_undos = 0  # times a reordering response restored a saved congestion state
        cc.init(self)
        attach = getattr(reordering, "attach", None)
        if attach is not None:
            attach(self)

    # ------------------------------------------------------------------ helpers
    def in_flight(self) -> int:
        """RFC 6675 ``pipe`` in bytes: sent - SACKed - lost + retransmitted (ns-3 ``BytesInFlight``).

        Counted per segment; the transfer's last segment counts with its real (short)
        length once it has been sent.
        """
        p = (self.high - self.una - self.sacked_out - self.lost_out + self.retrans_out) * self.seg
        if self.short and self.high == self.n_segs and self.una < self.high:
            f = self.flags[(self.n_segs - 1) & self.mask]
            p -= self.short * (1 - (f & SACKED) - ((f & LOST) >> 1) + ((f & RETRANS) >> 2))
        return p

    def available_window(self) -> int:
        """Bytes the window allows beyond the data in flight: ``min(cwnd, rwnd) - pipe``."""
        win = self.cwnd if self.cwnd < self.rwnd else self.rwnd
        high = self.high
        if self.short and high == self.n_segs and self.una < high:
            return win - self.in_flight()
        # in_flight() inlined (schedulers call this for every subflow on every decision)
        return win - (high - self.una - self.sacked_out - self.lost_out + self.retrans_out) * self.seg

    def rtt_sample(self, rtt: int) -> None:
        """Feed one RTT sample (ns) to the RFC 6298 estimator.

        ns-3 ``RttMeanDeviation`` with gains 1/8 and 1/4 in integer nanoseconds
        (Jacobson/Karels shifts): ``SRTT += (R - SRTT) / 8``,
        ``RTTVAR += (|R - SRTT| - RTTVAR) / 4``; the first sample sets ``SRTT = R``,
        ``RTTVAR = R / 2``.
        """
        if self.n_rtt_samples:
            delta = rtt - self.srtt
            self.srtt = ((self.srtt << 3) + delta) >> 3
            if delta < 0:
                delta = -delta
            self.rttvar = ((self.rttvar << 2) + delta - self.rttvar) >> 2
        else:
            self.srtt = rtt
            self.rttvar = rtt // 2
        self.n_rtt_samples += 1
        self._update_rto()

    def _update_rto(self) -> None:
        if self.n_rtt_samples:
            v4 = 4 * self.rttvar
            r = self.srtt + (v4 if v4 > self.clock_g else self.clock_g)
            self.rto = r if r > self.min_rto else self.min_rto
        else:
            self.rto = self.initial_rto

    @property
    def rto_deadline(self):
        """When the retransmission timer expires (ns), ``None`` when it is not running."""
        return self.rto_timer.deadline

    @property
    def rto_event(self):
        """Time (ns) of the retransmission timer's pending event (``None``: none queued)."""
        return self.rto_timer.event_ns

    # ------------------------------------------------------------------ reordering-response API
    def timestamp_now(self, now: int) -> int:
        """The TSval (ms) a segment sent at ``now`` carries (RFC 7323; ns-3's millisecond clock)."""
        return (now + self.ts_offset_ns) // 1_000_000

    def snapshot_congestion_state(self, now: int = 0) -> "CongestionState":
        """An immutable record of the congestion state (to be restored by a reordering response)."""
        return CongestionState(cwnd=self.cwnd, ssthresh=self.ssthresh, state=self.state, recover=self.recover,
                               recover_active=self.recover_active, una=self.una, high=self.high,
                               flight_bytes=self.in_flight(), srtt=self.srtt, rttvar=self.rttvar, rto=self.rto,
                               time_ns=now)

    def restore_congestion_state(self, record: "CongestionState", now: int, how: UndoMode = UndoMode.UNDO,
                                 ack: int | None = None) -> None:
        """Undo a window reduction that a reordering response found spurious.

        ``how`` (a :class:`~cmtlab.sim.tcp.decisions.UndoMode`):

        * ``UNDO`` — ``cwnd = max(cwnd, saved cwnd)``, ``ssthresh = max(ssthresh, saved
          ssthresh)`` (never lowers either; Linux's ``tcp_undo_cwnd_reduction``, the usual
          response to RFC 3708 detection);
        * ``EXACT`` — the saved ``cwnd`` and ``ssthresh`` as they were;
        * ``SLOW_START`` — ``ssthresh = saved cwnd``, ``cwnd`` unchanged: slow start back to
          the saved window (the Chihani–Collange model's "DSACK slow start");
        * ``RFC4015`` — RFC 4015 sec. 3.2 step (DW): ``ssthresh = pipe_prev =
          max(saved FlightSize, saved ssthresh)`` and ``cwnd = FlightSize + min(bytes_acked,
          IW)`` for the cumulative ACK ``ack`` about to be processed (call it from
          ``on_ack``): FlightSize is what stays outstanding above ``ack``.

        Called from :meth:`ReorderingResponse.on_ack`, the ACK is then processed in the
        restored state (a partial ACK no longer retransmits; the window grows as usual).

        Any fast recovery or timeout recovery under way ends (state Open), segments marked
        lost that were not retransmitted are no longer lost (so nothing more is resent: RFC
        4015 sec. 3.2 step 5, "resume transmission with previously unsent data").
        """
        if not isinstance(how, UndoMode):
            raise ValueError(f"how must be an UndoMode, one of {[m.name for m in UndoMode]}, got {how!r}")
        if self.state == RECOVERY:
            self.recovery.exit(self)
        if self.state != OPEN:
            self.state = OPEN
            self.first_partial_ack = True
        self.recover_active = False
        self.dupacks = 0
        self._clear_lost_marks()
        if how is UndoMode.UNDO:
            if record.cwnd > self.cwnd:
                self.cwnd = record.cwnd
            if record.ssthresh > self.ssthresh:
                self.ssthresh = record.ssthresh
        elif how is UndoMode.EXACT:
            self.cwnd = record.cwnd
            self.ssthresh = record.ssthresh
        elif how is UndoMode.SLOW_START:
            self.ssthresh = record.cwnd
        else:  # rfc4015
            self.ssthresh = max(record.flight_bytes, record.ssthresh)
            if ack is None or ack < self.una:
                ack = self.una
            seg = self.seg
            flags = self.flags
            mask = self.mask
            flight = 0  # RFC 6675 pipe of the segments above ack (lost marks are cleared by now)
            for k in range(ack, self.high):
                f = flags[k & mask]
                flight += (0 if f & SACKED else 1) + (1 if f & RETRANS else 0)
            acked = (ack - self.una) * seg
            iw = self.initial_cwnd
            self.cwnd = flight * seg + (acked if acked < iw else iw)
        self.spurious_undos += 1
        if self.trace is not None:
            self.trace.event(now, "undo", self.una, self)
            self.trace.cwnd(now, self.cwnd, self.ssthresh, self.state)

    def _clear_lost_marks(self) -> None:
        flags = self.flags
        mask = self.mask
        if self.lost_out:
            for k in range(self.una, self.high):
                i = k & mask
                f = flags[i]
                if f & LOST:
                    flags[i] = f & ~LOST
                    self.lost_out -= 1
                    if not f & RETRANS:
                        self.lost_pending -= 1

    def conventional_rto_recovery(self, now: int) -> None:
        """Go back to the conventional timeout recovery after a ``DEFER`` (RFC 5682 sec. 2.1
        steps 2a/3a): every outstanding segment not SACKed is lost and is resent in slow start
        (the sending happens at the end of the current ACK's processing).  Segments already
        retransmitted since the timeout stay in flight."""
        flags = self.flags
        mask = self.mask
        if not self.sack:  # the Reno-SACK guesses are forgotten, as on a timeout
            for k in range(self.una, self.high):
                flags[k & mask] &= ~SACKED
            self.sacked_out = 0
            self.highest_sack = -1
        for k in range(self.una, self.high):
            i = k & mask
            f = flags[i]
            if not f & (SACKED | LOST):
                flags[i] = f | LOST
                self.lost_out += 1
                if not f & RETRANS:
                    self.lost_pending += 1
        self.lost_cursor = self.una
        self.lost_marked_upto = self.high
        if self.cwnd > 3 * self.seg:
            self.cwnd = 3 * self.seg  # RFC 5682 step 3a: "no more than 3 * MSS"
        if self.trace is not None:
            self.trace.event(now, "conventional_rto_recovery", self.una, self)

    def send_new_data(self, now: int, max_segments: int) -> int:
        """Send up to ``max_segments`` never-sent segments whatever the congestion window
        (the receive window and the application's data still limit it; RFC 5682 sec. 2.1
        step 2b).  Returns how many were sent."""
        sent = 0
        seg = self.seg
        while sent < max_segments:
            self._app_fill()
            k = self.high
            if k >= self.app_tail:
                break
            if (k - self.una) * seg + (self.last_len if k == self.n_segs - 1 else seg) > self.rwnd:
                break
            self._send_segment(now, k)
            sent += 1
        return sent

    def check_scoreboard(self) -> None:
        """Recount the scoreboard from the per-segment flags; ``AssertionError`` on any mismatch.

        A debugging and testing aid (O(window)); the hot path keeps the counters incrementally.
        """
        flags = [self.flags[k & self.mask] for k in range(self.una, self.high)]
        sacked = sum(1 for f in flags if f & SACKED)
        lost = sum(1 for f in flags if f & LOST)
        retrans = sum(1 for f in flags if f & RETRANS)
        pending = sum(1 for f in flags if f & (LOST | RETRANS | SACKED) == LOST)
        assert not any(f & SACKED and f & LOST for f in flags), "a segment is both SACKed and lost"
        assert (sacked, lost, retrans, pending) == (self.sacked_out, self.lost_out, self.retrans_out,
                                                    self.lost_pending), \
            f"counters {(self.sacked_out, self.lost_out, self.retrans_out, self.lost_pending)} " \
            f"!= recount {(sacked, lost, retrans, pending)}"
        assert 0 <= self.una <= self.high <= self.n_segs
        assert self.high - self.una <= self.max_out + 1
        assert self.in_flight() >= 0

    # ------------------------------------------------------------------ sending
    def start(self, now: int) -> None:
        """Begin the transfer (connection already established)."""
        if self.trace is not None:
            self.trace.cwnd(now, self.cwnd, self.ssthresh, self.state)
        self._app_fill()
        self.send_pending(now)

    def _send_segment(self, now: int, k: int) -> None:
        """ns-3 ``SendDataPacket``: transmit segment ``k`` (new or retransmission)."""
        i = k & self.mask
        retx = k < self.high
        if retx:
            f = self.flags[i]
            if not f & RETRANS:
                self.retrans_out += 1
                if f & LOST:
                    self.lost_pending -= 1
                f |= RETRANS
            if k >= self.hist_lo:
                f |= HIST_RETX  # Karn: this history entry no longer gives RTT samples
            self.flags[i] = f
            self.retransmissions += 1
            self.reordering.on_retransmit(self, k, now)
        else:
            self.flags[i] = 0
            self.sent_time[i] = now
            self.high = k + 1
        self.segments_sent += 1
        if self.rto_timer.deadline is None:
            self.rto_timer.arm(now, now + self.rto)
        nbytes = self.last_len if k == self.n_segs - 1 else self.seg
        if self.state == RECOVERY:
            self.recovery.bytes_sent(self, nbytes)
        self.net_send(now, k, nbytes, retx)
        # ns-3 SendDataPacket calls BytesInFlight() after sending: the recovery algorithm may
        # see this value later in the same ACK (a fast retransmit followed by a partial ACK)
        self.pipe_snapshot = self.in_flight()

    def _next_seg(self, rule3: bool) -> int:
        """RFC 6675 ``NextSeg`` as ns-3's ``TcpTxBuffer::NextSeg``; -1 when nothing may be sent."""
        flags = self.flags
        mask = self.mask
        if self.lost_pending:
            k = self.lost_cursor if self.lost_cursor > self.una else self.una
            high = self.high
            if 0 <= self.highest_sack < high:
                # RFC 6675 rule (1.b), as ns-3.44 applies it: a lost segment is retransmitted
                # only below the highest SACKed segment (when something is SACKed)
                high = self.highest_sack
            while k < high:
                if flags[k & mask] & (LOST | RETRANS | SACKED) == LOST:
                    self.lost_cursor = k
                    return k
                k += 1
            self.lost_cursor = high
        # rule 2: new data the application has written, if the receiver's window allows
        high = self.high
        if high < self.app_tail:
            sent = (high - self.una) * self.seg
            if sent + (self.last_len if high == self.n_segs - 1 else self.seg) <= self.rwnd:
                return high
            return -1  # ns-3: unsent data but no receive window -> nothing (no rule 3)
        if rule3:
            # rule (3): an un-SACKed, not retransmitted segment below the highest SACK (1.b)
            for k in range(self.una, self.highest_sack):
                if not flags[k & mask] & (RETRANS | SACKED):
                    return k
        return -1

    def send_pending(self, now: int) -> None:
        """ns-3 ``SendPendingData`` (RFC 6675 step C): send while ``min(cwnd, rwnd) - pipe > 0``."""
        seg = self.seg
        state = self.state
        win = self.cwnd if self.cwnd < self.rwnd else self.rwnd
        high = self.high
        una = self.una
        # RFC 6675 SetPipe (ns-3 BytesInFlight); the short last segment counts its real length
        if self.short and high == self.n_segs and una < high:
            pipe = self.in_flight()
        else:
            pipe = (high - una - self.sacked_out - self.lost_out + self.retrans_out) * seg
        self.pipe_snapshot = pipe  # ns-3 AvailableWindow() -> BytesInFlight()
        if high >= self.app_tail and not self.lost_pending and not (state == RECOVERY and self.sack):
            return  # nothing to send whatever the window (NextSeg finds nothing; see the loop below)
        no_lt = state == DISORDER and not self.limited_transmit
        if no_lt:
            # without limited transmit, SACKed data does not open the window before recovery
            pipe += self.sacked_out * seg
        avail = win - pipe
        if avail <= 0:
            return
        n_segs = self.n_segs
        rule3 = state == RECOVERY and self.sack
        while True:
            if self.lost_pending or high >= self.app_tail:
                if not rule3 and not self.lost_pending:
                    return  # _next_seg would find nothing: no lost segment, no unsent data, no rule 3
                k = self._next_seg(rule3)
                if k < 0:
                    return
            else:  # NextSeg rule 2 without a scan: new data, if the receive window allows
                if (high - una) * seg + (self.last_len if high == n_segs - 1 else seg) > self.rwnd:
                    return
                k = high
            tail = self.app_tail
            data = (tail - k) * seg - (self.short if tail == n_segs else 0)  # buffered from k on
            if data < avail:
                self._app_fill()  # ns-3 NotifySend: the application tops the send buffer up
            if avail < seg and data > avail:
                return  # silly-window avoidance: wait for a whole segment of window
            if k == high and state != RECOVERY and self.rto_timer.deadline is not None:
                # new data: _send_segment inlined (the hot path)
                i = k & self.mask
                self.flags[i] = 0
                self.sent_time[i] = now
                self.high = high = k + 1
                self.segments_sent += 1
                nbytes = self.last_len if k == n_segs - 1 else seg
                self.net_send(now, k, nbytes, False)
                if self.short and high == n_segs:
                    raw = self.in_flight()
                    pipe = raw + (self.sacked_out * seg if no_lt else 0)
                else:
                    raw = self.pipe_snapshot + seg  # one more whole segment in flight
                    pipe += seg
                self.pipe_snapshot = raw
            else:
                self._send_segment(now, k)  # leaves pipe_snapshot = in_flight()
                high = self.high
                pipe = self.pipe_snapshot
                if no_lt:
                    pipe += self.sacked_out * seg
            avail = win - pipe
            if avail <= 0:
                return

    def _app_fill(self) -> None:
        """The bulk-send application writes whole segments into the free send buffer.

        As the application of :mod:`cmtlab.ns3`: whole segments while more than the free
        space remains, the rest of the transfer once it fits.  ns-3 lets the application
        write when TCP calls ``NotifySend``: after a new cumulative ACK (``NewAck``) and
        when the data left to send is less than the window.
        """
        tail = self.app_tail
        n = self.n_segs
        if tail >= n:
            return
        free = self.buf_bytes - (tail - self.una) * self.seg
        if (n - 1 - tail) * self.seg + self.last_len <= free:
            self.app_tail = n
        elif free >= self.seg:
            self.app_tail = tail + free // self.seg

    # ------------------------------------------------------------------ scoreboard
    def _discard_up_to(self, ack: int) -> int:
        """ns-3 ``DiscardUpTo``: drop segments below ``ack``; return segments newly delivered."""
        una = self.una
        n = ack - una
        if self.sacked_out or self.lost_out or self.retrans_out:
            flags = self.flags
            mask = self.mask
            delivered = 0
            sack = self.sack
            for k in range(una, ack):
                i = k & mask
                f = flags[i]
                if f & SACKED:
                    self.sacked_out -= 1
                    if not sack:
                        delivered += 1
                        if k == self.n_segs - 1:
                            self._last_delivered = True
                else:
                    delivered += 1
                    if k == self.n_segs - 1:
                        self._last_delivered = True
                if f & RETRANS:
                    self.retrans_out -= 1
                if f & LOST:
                    self.lost_out -= 1
                    if not f & RETRANS:
                        self.lost_pending -= 1
                flags[i] = 0
            self.una = ack
            if ack < self.high and flags[ack & mask] & SACKED:
                # the head cannot be SACKed: a wrong Reno-SACK guess moves on (ns-3)
                flags[ack & mask] &= ~SACKED
                self.sacked_out -= 1
                self._add_reno_sack()
                self._mark_head_lost()
            if self.highest_sack <= ack:
                self.highest_sack = -1
        else:
            delivered = n
            self.una = ack
            if ack == self.n_segs:
                self._last_delivered = True
        return delivered

    def _add_reno_sack(self) -> None:
        """ns-3 ``AddRenoSack``: one duplicate ACK = one more segment (after the head) left the network."""
        flags = self.flags
        mask = self.mask
        high = self.high
        if not self.sack:
            # without SACK the Reno-SACKed segments are always the run just above the head
            k = self.una + 1 + self.sacked_out
        else:
            k = self.una + 1
            while k < high and flags[k & mask] & SACKED:
                k += 1
        if k < high:
            flags[k & mask] |= SACKED
            self.sacked_out += 1
            self.highest_sack = k

    def _mark_head_lost(self) -> None:
        """ns-3 ``MarkHeadAsLost``."""
        if self.una >= self.high:
            return
        i = self.una & self.mask
        f = self.flags[i]
        if f & (LOST | RETRANS) != LOST:
            self.lost_pending += 1
        if f & SACKED:
            f &= ~SACKED
            self.sacked_out -= 1
        if f & RETRANS:
            f &= ~RETRANS
            self.retrans_out -= 1
        if not f & LOST:
            f |= LOST
            self.lost_out += 1
        self.flags[i] = f
        if self.lost_cursor > self.una:
            self.lost_cursor = self.una

    def _head_is_lost(self) -> bool:
        """ns-3 ``IsLost(SND.UNA)``: the head is marked lost and something above it is SACKed."""
        return self.una < self.high and self.highest_sack > self.una and bool(self.flags[self.una & self.mask] & LOST)

    def _update_sack(self, blocks) -> int:
        """ns-3 ``TcpTxBuffer::Update``: mark SACKed segments; return how many were newly SACKed."""
        flags = self.flags
        mask = self.mask
        una = self.una
        high = self.high
        newly = 0
        for first, end in blocks:
            if first > high:
                break  # ns-3 stops at the first block beyond what was sent
            if first < una:
                first = una
            if end > high:
                end = high
            for k in range(first, end):
                i = k & mask
                f = flags[i]
                if not f & SACKED:
                    if f & LOST:
                        self.lost_out -= 1
                        if not f & RETRANS:
                            self.lost_pending -= 1
                    flags[i] = (f & ~LOST) | SACKED
                    self.sacked_out += 1
                    newly += 1
                    if k == self.n_segs - 1:
                        self._last_delivered = True
                    # ns-3 TcpTxBuffer::Update keeps "highest SACKed" as the newly SACKed segment
                    # whose end reaches the current one's start (<=), so a segment just below it
                    # takes its place; UpdateLostCount and IsLost start from there
                    hs = self.highest_sack
                    if hs < 0 or hs <= k + 1:
                        self.highest_sack = k
        if newly:
            self._update_lost_count()
        return newly

    def _update_lost_count(self) -> None:
        """ns-3 ``UpdateLostCount`` (RFC 6675 ``IsLost``): a segment with ``dupthresh``
        SACKed segments above it is lost; so is the head once ``dupthresh`` are SACKed."""
        flags = self.flags
        mask = self.mask
        una = self.una
        thresh = self.dupthresh
        count = 0
        k = self.highest_sack
        # find the dupthresh-th SACKed segment from the top (never the head)
        while k > una:
            if flags[k & mask] & SACKED:
                count += 1
                if count >= thresh:
                    break
            k -= 1
        if count < thresh:
            return
        # every un-SACKed segment at or below k (above the head) is lost
        lo = self.lost_marked_upto if self.lost_marked_upto > una + 1 else una + 1
        marked = False
        for j in range(lo, k + 1):
            i = j & mask
            f = flags[i]
            if not f & (SACKED | LOST):
                flags[i] = f | LOST
                self.lost_out += 1
                if not f & RETRANS:
                    self.lost_pending += 1
                marked = True
        if k + 1 > self.lost_marked_upto:
            self.lost_marked_upto = k + 1
        i = una & mask
        if not flags[i] & LOST:
            if not flags[i] & RETRANS:
                self.lost_pending += 1
            flags[i] |= LOST
            self.lost_out += 1
            marked = True
        if marked and self.lost_cursor > una:
            self.lost_cursor = una

    # ------------------------------------------------------------------ ACK processing
    def on_ack(self, now: int, ack: int, ts_echo: int, sack) -> None:
        """Process one ACK (``sack``: ``None`` or ``(dsack_block_or_None, blocks)``)."""
        self.acks_rx += 1
        if self._every_ack:
            # the response sees every ACK first, stale and reordered ones included
            self.reordering.on_ack(self, ack, ts_echo, sack, now)
        una = self.una
        trace = self.trace
        if ack > self.high_rx_ack:
            self.high_rx_ack = ack
        # --- ns-3 EstimateRtt: sample from the oldest segment in the transmission history
        front = una if una > self.hist_lo else self.hist_lo
        if ack > front and front < self.high:
            if self.timestamps:
                now_ms = (now + self.ts_offset_ns) // 1_000_000  # ns-3 TcpOptionTS: a millisecond clock
                rtt = (now_ms - ts_echo) * 1_000_000 if now_ms > ts_echo else 1000
                self.rtt_sample(rtt)
                self.rtt_samples_taken += 1
            elif not self.flags[front & self.mask] & HIST_RETX:
                self.rtt_sample(now - self.sent_time[front & self.mask])
                self.rtt_samples_taken += 1
            self.hist_lo = ack
        if ack < una:
            self.stale_acks += 1  # an older ACK overtaken by a newer one (reordered ACK paths)
            return
        plain = self._plain

        if (sack is None and ack > una and self.state == OPEN and plain
                and not (self.sacked_out or self.lost_out or self.retrans_out)):
            # Fast path for the common case — a new cumulative ACK in Open state with a clean
            # scoreboard: exactly the steps of the general path below (ReceivedAck,
            # ProcessAck, NewAck) without walking the scoreboard.
            seg = self.seg
            delivered = (ack - una) * seg
            if ack == self.n_segs:
                delivered -= self.short
            self.una = ack
            self._consecutive_rto = 0
            segs_acked = delivered // seg
            rem = delivered - segs_acked * seg
            if rem:
                self.bytes_acked_not_processed += rem
                if self.bytes_acked_not_processed >= seg:
                    segs_acked += 1
                    self.bytes_acked_not_processed -= seg
            self.dupacks = 0
            if ack >= self.recover:
                self.recover_active = False
            self.cc.increase_window(self, segs_acked)
            self._update_rto()
            self.rto_timer.arm(now, now + self.rto)
            self._app_fill()
            if ack >= self.n_segs:
                self.rto_timer.deadline = None
            self.send_pending(now)
            return

        if (ack == una and sack is None and not self.sack and ack < self.high and self.state <= DISORDER
                and plain):
            # Fast path: a duplicate ACK without SACK before recovery (reordering makes these
            # common): ProcessAck -> DupAck, then SendPendingData, as the general path below.
            self.dupacks_rx += 1
            self._dupack(now, 0)
            self.send_pending(now)
            return

        # --- ns-3 ReceivedAck
        newly_sacked = 0
        if sack is not None and self.sack:
            dsack, blocks = sack
            if dsack is not None:
                self.reordering.on_dsack(self, dsack, now)
                if trace is not None:
                    trace.event(now, "dsack", dsack[0], self)
            if blocks:
                newly_sacked = self._update_sack(blocks)
        old_state = self.state
        if ack > una and old_state == RECOVERY and ack < self.recover:
            flags = self.flags
            mask = self.mask
            for k in range(una, ack):
                if flags[k & mask] & (RETRANS | SACKED) == RETRANS:
                    self.retrans_data_acked = True
                    break
        if ack > una:
            delivered_segs = self._discard_up_to(ack) + (newly_sacked if self.sack else 0)
        else:
            delivered_segs = newly_sacked
        delivered = delivered_segs * self.seg
        if self._last_delivered:
            delivered -= self.short
            self._last_delivered = False
        self.pipe_snapshot = self.in_flight()
        if trace is not None:
            self._trace_dupack_run(now, ack)
        old_cwnd = self.cwnd
        old_ssthresh = self.ssthresh
        self._process_ack(now, ack, una, newly_sacked > 0, delivered)
        self.retrans_data_acked = False
        if self._every_ack:
            # after the standard processing, before sending: a restored window is used at once
            self.reordering.after_ack(self, ack, now)
        self.send_pending(now)
        if trace is not None and (self.cwnd != old_cwnd or self.ssthresh != old_ssthresh or self.state != old_state):
            trace.cwnd(now, self.cwnd, self.ssthresh, self.state)

    def _process_ack(self, now: int, ack: int, old_head: int, scoreboard_updated: bool, delivered: int) -> None:
        """ns-3 ``ProcessAck`` (RFC 6675 sec. 5, RFC 6582)."""
        old_dupacks = self.dupacks
        if self.sack:
            is_dupack = scoreboard_updated
        else:
            is_dupack = ack == old_head and ack < self.high
        if is_dupack:
            self.dupacks_rx += 1
            self._dupack(now, delivered)
        if ack == old_head:
            return
        # ack > old_head: new data acknowledged
        self._consecutive_rto = 0
        seg = self.seg
        segs_acked = delivered // seg
        rem = delivered - segs_acked * seg
        if rem:
            self.bytes_acked_not_processed += rem
            if self.bytes_acked_not_processed >= seg:
                segs_acked += 1
                self.bytes_acked_not_processed -= seg
        if not is_dupack:
            self.dupacks = 0
        state = self.state
        if ack < self.recover and state == RECOVERY:
            # partial ACK (RFC 6582 sec. 3.2 step 5)
            self.partial_acks += 1
            if not self.sack:
                self._mark_head_lost()
            if segs_acked >= 1:
                self.recovery.on_ack(self, delivered, False)
            if not (self.flags[ack & self.mask] & (RETRANS | SACKED) == RETRANS and ack < self.high):
                self._do_retransmit(now)
            if self.trace is not None:
                self.trace.event(now, "partial_ack", ack, self)
            self._new_ack(now, ack, self.first_partial_ack)
            self.first_partial_ack = False
            return
        if ack < self.recover and state == LOSS:
            self.cc.increase_window(self, segs_acked)
            self._new_ack(now, ack, True)
            return
        exited_recovery = False
        if state == DISORDER:
            if not is_dupack:
                self.state = OPEN  # reordering, not loss: back to Open (ns-3)
        elif state == RECOVERY:
            self.first_partial_ack = True
            segs_acked = (ack - old_head)
            self.state = OPEN
            exited_recovery = True
            self.dupacks = 0
        elif state == LOSS:
            self.first_partial_ack = True
            segs_acked = ack - self.recover
            self.state = OPEN
        if ack >= self.recover:
            self.recover_active = False
        if exited_recovery:
            self._new_ack(now, ack, True)
            self.cwnd = self.ssthresh
            self.reordering.on_recovery_exit(self, now)  # e.g. PR-R gives its kept ssthresh back
            self.recovery.exit(self)
            if self.trace is not None:
                self.trace.event(now, "recovery_exit", ack, self)
        if self.state == OPEN:
            self.cc.increase_window(self, segs_acked)
            self._new_ack(now, ack, True)
        del old_dupacks

    def _dupack(self, now: int, delivered: int) -> None:
        """ns-3 ``DupAck`` (RFC 6675 sec. 5 steps 1-3, RFC 3042)."""
        state = self.state
        if state == LOSS:
            return  # duplicate ACKs after a timeout are ignored (ns-3)
        if state != RECOVERY:
            self.dupacks += 1
        if state == OPEN:
            self.state = state = DISORDER
        if state == RECOVERY:
            if not self.sack:
                self._add_reno_sack()
            self.recovery.on_ack(self, delivered, True)
        elif state == DISORDER:
            if self.dupacks == self.dupthresh and (self.high_rx_ack >= self.recover or not self.recover_active):
                self._enter_recovery(now, delivered)
            elif (self.sack_loss_detection or not self.sack) and self._head_is_lost():
                # RFC 6675 step 2: IsLost(HighACK + 1).  Without SACK the scoreboard holds
                # ns-3's Reno-SACK guesses, and a head already marked lost (a cumulative ACK
                # uncovered a wrongly Reno-SACKed segment) re-enters recovery at the first
                # duplicate ACK, as in ns-3.44.
                self._enter_recovery(now, delivered)
            elif not self.sack and self.limited_transmit:
                self._add_reno_sack()  # RFC 3042: one new segment per duplicate ACK

    def _enter_recovery(self, now: int, delivered: int) -> None:
        """ns-3 ``EnterRecovery`` (RFC 6675 step 4 / RFC 6582 steps 1-2) and fast retransmit.

        The reordering response decides first (:meth:`ReorderingResponse.on_fast_retransmit`,
        with the state still untouched), with a
        :class:`~cmtlab.sim.tcp.decisions.FastRetransmitDecision`: ``REDUCE`` — the standard
        reduction; ``KEEP_WINDOW`` — retransmit and enter recovery but keep the window
        (``ssthresh = cwnd``; the recovery algorithm is told, so it does not reduce ``cwnd``
        either); ``IGNORE`` — no fast retransmit at all (the duplicate ACKs are left to the timer).
        """
        decision = self.reordering.on_fast_retransmit(self, now)
        if decision is FastRetransmitDecision.IGNORE:
            return
        if decision is not FastRetransmitDecision.REDUCE and decision is not FastRetransmitDecision.KEEP_WINDOW:
            raise ValueError(f"{type(self.reordering).__name__}.on_fast_retransmit must return a "
                             f"FastRetransmitDecision, got {decision!r}")
        if not self.sack:
            self._add_reno_sack()
            self._mark_head_lost()
        elif not self._head_is_lost():
            self._mark_head_lost()
        self.recover = self.high
        self.recover_active = True
        self.state = RECOVERY
        seg = self.seg
        pipe = self.in_flight()
        self.pipe_snapshot = pipe
        flight = pipe if self.sack else pipe + seg
        if decision is FastRetransmitDecision.REDUCE:
            self.ssthresh = self.cc.ssthresh(self, flight)
        else:
            self.ssthresh = self.cwnd  # retransmit but keep the window (and end any slow start)
        self.recovery.enter(self, self.dupacks, (self.high - self.una) * seg, delivered, decision)
        self.fast_retransmits += 1
        if self.trace is not None:
            self.trace.event(now, "fast_retransmit", self.una, self)
        self._send_segment(now, self.una)

    def _do_retransmit(self, now: int) -> None:
        """ns-3 ``DoRetransmit``: the first lost segment (or new data), else the head."""
        k = self._next_seg(False)
        if k < 0:
            k = self.una
        self._send_segment(now, k)

    def _new_ack(self, now: int, ack: int, reset_rto: bool) -> None:
        """ns-3 ``NewAck``: restart the retransmission timer (RFC 6298 rule 5.3)."""
        if reset_rto:
            self._update_rto()
            self.rto_timer.arm(now, now + self.rto)
        self._app_fill()
        if ack >= self.n_segs:
            self.rto_timer.deadline = None

    def _trace_dupack_run(self, now: int, ack: int) -> None:
        if ack == self._run_ack:
            self._run_len += 1
        else:
            if self._run_len > 0:
                self.trace.dupack_run(self._run_start, now, self._run_ack, self._run_len)
            self._run_ack = ack
            self._run_len = 0
            self._run_start = now

    def flush_traces(self, now: int) -> None:
        if self.trace is not None and self._run_len > 0:
            self.trace.dupack_run(self._run_start, now, self._run_ack, self._run_len)
            self._run_len = 0

    # ------------------------------------------------------------------ timer
    def on_rto_event(self, now: int) -> None:
        """The retransmission timer's event came due (lazy timer: may be stale; see :class:`LazyTimer`)."""
        self.rto_timer.fire(now)

    def _retransmission_timeout(self, now: int) -> None:
        """ns-3 ``ReTxTimeout`` (RFC 6298 sec. 5, RFC 5681 sec. 3.1 eq. 4).

        The reordering response is asked first (:meth:`ReorderingResponse.on_timeout`), with a
        :class:`~cmtlab.sim.tcp.decisions.TimeoutDecision`: ``STANDARD`` — the reaction
        below; ``DEFER`` — the congestion reaction (``ssthresh``, ``cwnd = 1 SMSS``, Loss
        state, timer backoff) but only the first unacknowledged segment is retransmitted and
        marked lost, the go-back-N retransmission of the rest waits until the response calls
        :meth:`conventional_rto_recovery` (F-RTO, RFC 5682 sec. 2.1 step 1); ``VETO`` — the
        first unacknowledged segment is retransmitted and the timer backed off, the
        congestion state is left alone.
        """
        if self.una >= self.n_segs or self.una >= self.high:
            return
        how = self.reordering.on_timeout(self, now)
        if how.__class__ is not TimeoutDecision:
            raise ValueError(f"{type(self.reordering).__name__}.on_timeout must return a TimeoutDecision, "
                             f"got {how!r}")
        self.timeouts += 1
        self._consecutive_rto += 1
        if self._consecutive_rto > self.max_backoff:
            self.max_backoff = self._consecutive_rto
        if how is TimeoutDecision.VETO:
            doubled = self.rto * 2
            self.rto = doubled if doubled < 60 * NS_PER_S else 60 * NS_PER_S
            if self.trace is not None:
                self.trace.event(now, "timeout", self.una, self)
            self._send_segment(now, self.una)
            return
        in_flight_before = self.in_flight()
        self.dupacks = 0
        if how is TimeoutDecision.DEFER:
            self._mark_head_lost()
            self.recover = self.high
            self.recover_active = True
            self.hist_lo = self.high  # the RTT history is emptied
            self._loss_state(now, in_flight_before)
            self._send_segment(now, self.una)
            return
        self._mark_all_lost()
        self.hist_lo = self.high  # the RTT history is emptied
        self._loss_state(now, in_flight_before)
        self.send_pending(now)

    def _loss_state(self, now: int, in_flight_before: int) -> None:
        """The congestion part of the timeout reaction: backoff, ``ssthresh``, ``cwnd = 1 SMSS``, Loss."""
        doubled = self.rto * 2
        self.rto = doubled if doubled < 60 * NS_PER_S else 60 * NS_PER_S
        self.ssthresh = self.cc.ssthresh(self, in_flight_before)
        self.state = LOSS
        self.cwnd = self.seg
        if self.trace is not None:
            self.trace.event(now, "timeout", self.una, self)
            self.trace.cwnd(now, self.cwnd, self.ssthresh, self.state)

    def _mark_all_lost(self) -> None:
        """ns-3 ``SetSentListLost``: every outstanding segment not SACKed is lost, none in flight."""
        flags = self.flags
        mask = self.mask
        una, high = self.una, self.high
        # SetSentListLost: every outstanding segment not SACKed is lost, no retransmission in flight
        if not self.sack:
            for k in range(una, high):
                flags[k & mask] = LOST | (flags[k & mask] & HIST_RETX)
            self.sacked_out = 0
            self.lost_out = high - una
            self.highest_sack = -1
        else:
            lost = 0
            for k in range(una, high):
                i = k & mask
                f = flags[i] & ~RETRANS
                if not f & SACKED:
                    f |= LOST
                if f & LOST:
                    lost += 1
                flags[i] = f
            self.lost_out = lost
        self.retrans_out = 0
        self.lost_pending = self.lost_out
        self.lost_cursor = una
        self.lost_marked_upto = high
        self.recover = high
        self.recover_active = True


class TcpReceiver:
    """The receiving side: cumulative/delayed ACKs, SACK and D-SACK, timestamps (see module docstring)."""

    __slots__ = ("n_segs", "m_ack", "delack_timeout", "immediate_ooo", "sack", "dsack", "max_blocks", "timestamps",
                 "net_ack", "queue", "trace", "rcv_nxt", "ooo", "sack_list", "delack_count",
                 "delack_timer", "completes_run", "high_tx_ack", "ts_recent", "ts_last",
                 "done", "done_time",
                 "segments_rx", "duplicates_rx", "spurious_rx", "ooo_rx", "max_ooo", "acks_sent",
                 "delayed_acks", "timer_acks", "dsacks_sent", "_rd", "index", "sink", "rfc7323_echo")

    def __init__(self, *, n_segs: int, m_ack: int, options, net_ack, queue, trace=None, reorder=None,
                 dsack: bool = False, rfc7323_echo: bool = False):
        self.n_segs = n_segs
        self.m_ack = int(m_ack)
        self.delack_timeout = seconds_to_ns(options.delayed_ack_timeout_s)
        self.immediate_ooo = bool(options.immediate_ack_on_out_of_order)
        self.sack = bool(options.sack)
        self.dsack = self.sack and bool(dsack)
        # TSecr: ns-3.44's rule (default) or RFC 7323 sec. 4.3 exactly (see on_data)
        self.rfc7323_echo = bool(rfc7323_echo)
        self.timestamps = bool(options.timestamps)
        # TCP option space is 40 bytes: 4 SACK blocks, 3 next to the 10-byte timestamp option
        self.max_blocks = 3 if self.timestamps else 4
        self.net_ack = net_ack
        self.queue = queue
        self.trace = trace
        self._rd = reorder
        self.rcv_nxt = 0
        self.ooo = set()
        self.sack_list = []  # [first, end) blocks, most recent first (ns-3 TcpRxBuffer order)
        # ns-3 acknowledges the first data segment at once (delayed-ACK counter primed at set-up)
        self.delack_count = self.m_ack
        self.delack_timer = LazyTimer(queue, self._delayed_ack_timeout)
        self.high_tx_ack = 0
        self.ts_recent = 0
        self.ts_last = -1
        self.done = False
        self.done_time = -1
        self.segments_rx = self.duplicates_rx = self.spurious_rx = self.ooo_rx = self.max_ooo = 0
        self.acks_sent = self.delayed_acks = self.timer_acks = self.dsacks_sent = 0
        self.index = 0  # subflow number (tags this receiver's timer events)
        #: ``None``: the receiver is the application (done when ``n_segs`` are in order);
        #: else ``sink(now, receiver, first, end)`` takes segments ``[first, end)`` each time
        #: ``rcv_nxt`` reaches ``n_segs`` or more (an MPTCP subflow receiver has ``n_segs = 0``)
        #: and may set ``receiver.done`` to end the run; it returns an
        #: :class:`~cmtlab.sim.tcp.decisions.OutOfOrderAck` (anything but ``ACK`` replaces this
        #: segment's ACK).
        self.sink = None
        #: The receiver is the run's application: the run ends when it holds every segment.
        self.completes_run = True

    def on_data(self, now: int, k: int, tsval: int, retx: bool) -> None:
        """A data segment ``k`` arrived (``tsval``: sender's timestamp in ms; ``retx``: a retransmission)."""
        self.segments_rx += 1
        rcv_nxt = self.rcv_nxt
        if self.rfc7323_echo:
            # RFC 7323 sec. 4.3 (2) / sec. 5.3 R3, after the window check (R2): record
            # SEG.TSval when SEG.TSval >= TS.Recent and SEG.SEQ <= Last.ACK.sent — so the ACK
            # of a segment that fills a hole echoes that segment's timestamp
            if self.timestamps and k >= rcv_nxt and k <= self.high_tx_ack and tsval >= self.ts_recent:
                self.ts_recent = tsval
        elif self.timestamps and k + 1 >= rcv_nxt:
            # ns-3 ProcessOptionTimestamp (segments entirely below RCV.NXT are rejected before it);
            # TS.Recent only moves forward past the newest TSval seen from any segment
            if tsval >= self.ts_last:
                self.ts_last = tsval
                if k == rcv_nxt and k <= self.high_tx_ack:
                    self.ts_recent = tsval
        if k < rcv_nxt or k in self.ooo:
            # duplicate: ns-3 RxBuffer::Add fails -> immediate ACK
            self.duplicates_rx += 1
            if retx:
                self.spurious_rx += 1
            if self._rd is not None:
                self._rd.duplicate(k)
            self._send_ack(now, (k, k + 1) if self.dsack else None)
            return
        if self._rd is not None:
            self._rd.arrival(k)
        if k == rcv_nxt:
            rcv_nxt += 1
            ooo = self.ooo
            if ooo:
                while rcv_nxt in ooo:
                    ooo.discard(rcv_nxt)
                    rcv_nxt += 1
                if self.sack_list:
                    self.sack_list = [b for b in self.sack_list if b[1] > rcv_nxt]
            filled = rcv_nxt - k > 1
            self.rcv_nxt = rcv_nxt
            if self.trace is not None:
                self.trace.goodput(now, rcv_nxt)
            if rcv_nxt >= self.n_segs:
                sink = self.sink
                if sink is None:
                    self.done = True
                    self.done_time = now
                    if self.completes_run:
                        self.queue.done = True
                    return
                hold = sink(now, self, k, rcv_nxt)
                if self.done:
                    return
                if hold:
                    # the connection above answers this segment itself (MPTCP receiver
                    # duplicate-ACK semantics, cmtlab.sim.mptcp): WITHHOLD = no ACK now,
                    # DUPLICATE = a duplicate of the last ACK sent
                    self.delack_timer.deadline = None
                    self.delack_count = 0
                    if hold is OutOfOrderAck.DUPLICATE:
                        self.acks_sent += 1
                        self.net_ack(now, self.high_tx_ack, self.ts_recent, None, 0)
                    return
        else:
            self.ooo.add(k)
            self.ooo_rx += 1
            if len(self.ooo) > self.max_ooo:
                self.max_ooo = len(self.ooo)
            if self.sack:
                self._update_sack_list(k)
            filled = False
        if self.immediate_ooo and (self.ooo or filled):
            send_now = True  # a gap exists, or we filled one: always ACK
        else:
            self.delack_count += 1
            send_now = self.delack_count >= self.m_ack
            if send_now:
                self.delayed_acks += 1
        if send_now:
            if self.sack:
                self._send_ack(now, None)
            else:  # _send_ack without SACK, inlined (one ACK per one or two segments)
                self.delack_timer.deadline = None
                self.delack_count = 0
                if rcv_nxt > self.high_tx_ack:
                    self.high_tx_ack = rcv_nxt
                self.acks_sent += 1
                self.net_ack(now, rcv_nxt, self.ts_recent, None, 0)
        elif self.delack_timer.deadline is None:
            self.delack_timer.arm(now, now + self.delack_timeout)

    def _update_sack_list(self, k: int) -> None:
        """ns-3 ``TcpRxBuffer::UpdateSackList``: new block first, merged with adjacent blocks, at most 4."""
        lst = self.sack_list
        first, end = k, k + 1
        merged = True
        while merged:
            merged = False
            for j, (a, b) in enumerate(lst):
                if b == first or a == end:
                    first = a if a < first else first
                    end = b if b > end else end
                    del lst[j]
                    merged = True
                    break
        lst.insert(0, (first, end))
        if len(lst) > 4:
            lst.pop()

    def on_delack_event(self, now: int) -> None:
        """The delayed-ACK timer's event came due (lazy timer: may be stale)."""
        self.delack_timer.fire(now)

    def _delayed_ack_timeout(self, now: int) -> None:
        self.timer_acks += 1
        self._send_ack(now, None)

    def _send_ack(self, now: int, dsack) -> None:
        """ns-3 ``SendEmptyPacket(ACK)``: cancels the delayed ACK and sends RCV.NXT (+ SACK, TSecr)."""
        self.delack_timer.deadline = None
        self.delack_count = 0
        if self.rcv_nxt > self.high_tx_ack:
            self.high_tx_ack = self.rcv_nxt
        self.acks_sent += 1
        if self.sack:
            blocks = self.sack_list
            if dsack is not None:
                self.dsacks_sent += 1
                nb = self.max_blocks - 1
                if dsack[0] >= self.rcv_nxt:
                    # RFC 2883 sec. 4 (4): a duplicate above RCV.NXT — the second block is
                    # the SACK block that contains it
                    for j, b in enumerate(blocks):
                        if b[0] <= dsack[0] < b[1]:
                            if j:
                                blocks = [b] + blocks[:j] + blocks[j + 1:]
                            break
                sack = (dsack, tuple(blocks[:nb]) if len(blocks) > nb else tuple(blocks))
                nblocks = 1 + len(sack[1])
            elif blocks:
                nb = self.max_blocks
                sack = (None, tuple(blocks[:nb]) if len(blocks) > nb else tuple(blocks))
                nblocks = len(sack[1])
            else:
                sack = None
                nblocks = 0
        else:
            sack = None
            nblocks = 0
        self.net_ack(now, self.rcv_nxt, self.ts_recent, sack, nblocks)
