"""TCP NewReno sender (one subflow): the state machine of ns-3.44's ``TcpSocketBase``.

Sequence numbers are **segment indices** (segment ``k`` carries bytes ``[k*s, (k+1)*s)`` of
the transfer; only the last segment may be shorter); windows, ``ssthresh`` and
bytes-in-flight are in **bytes**; times (``now``, RTT, RTO) in **integer nanoseconds**,
the engine's clock (see :mod:`cmtlab.sim.net.link`).

Sender (:class:`TcpSender`)
---------------------------
RFC 5681 slow start / congestion avoidance (via a :class:`~cmtlab.sim.mechanisms.congestion.CongestionControl`),
fast retransmit on the ``dupack_threshold``-th duplicate ACK, NewReno fast recovery with
partial ACKs (RFC 6582) or PRR (RFC 6937) via a :class:`~cmtlab.sim.mechanisms.recovery.RecoveryAlgorithm`,
SACK scoreboard, limited transmit (RFC 3042), RFC 6298 retransmission timer, timestamps
(RFC 7323), a :class:`~cmtlab.sim.mechanisms.reordering.ReorderingResponse` hook, and a
:class:`~cmtlab.sim.mechanisms.recovery.loss_detection.LossDetection` that decides which segments
are lost: the duplicate-ACK threshold with RFC 6675 ``IsLost`` (the default, ns-3's rules, described
below) or RACK-TLP (``TcpOptions.loss_detection="rack-tlp"``), which marks lost segments by time and
answers the sender's other questions as Linux does (no ``NextSeg`` rule 3, a timeout resends the head
whatever the window, the ACK that ends a recovery counts only the segments it newly delivered towards
the window).  The sender calls the detection at every decision point and acts on its typed answers
(:class:`~cmtlab.sim.tcp.decisions.LossDecision`: :meth:`TcpSender.act_on_loss`;
:class:`~cmtlab.sim.tcp.decisions.TimeoutMarking`); it never asks which detection it runs.

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
  step 5; every time with a recovery algorithm whose ``partial_ack_restarts_timer`` is set);  the full ACK sets ``cwnd = ssthresh`` and then applies the window increase for
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

Files (one concern each, one class chain ending in :class:`TcpSender`; see :mod:`~cmtlab.sim.tcp.base`)
---------------------------------------------------------------------------------------------------------
* :mod:`~cmtlab.sim.tcp.base` — the sender's attributes, declared once;
* :mod:`~cmtlab.sim.tcp.source` — the data source (bulk application; MPTCP overrides it);
* :mod:`~cmtlab.sim.tcp.rto` — RTT estimator and retransmission timer;
* :mod:`~cmtlab.sim.tcp.scoreboard` — SACK/lost/retransmitted flags, ``pipe``, ``NextSeg``;
* :mod:`~cmtlab.sim.tcp.undo` — the snapshot/undo API of the reordering responses;
* this module — sending (``SendPendingData``), ACK processing, fast retransmit/recovery,
  timeouts: the state machine, which asks the mechanisms and acts on their typed decisions
  (:mod:`~cmtlab.sim.tcp.decisions`).

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

from array import array

from ..engine.timers import LazyTimer
from ..net.link import NS_PER_S, seconds_to_ns
from .decisions import AckDecision, FastRetransmitDecision, LossDecision, TimeoutDecision, TimeoutMarking
from .flags import HIST_RETX, LOST, RETRANS, SACKED
from .segment_set import _pow2_at_least
from .state import DISORDER, LOSS, OPEN, RECOVERY
from .undo import UndoApi


class TcpSender(UndoApi):
    """The sending side of one TCP subflow (see the module docstring)."""

    __slots__ = ()  # the attributes are declared once, in SenderBase

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
        # RFC 6298 rules 5.2 and 5.3 (Linux): the timer stops when nothing is outstanding and restarts on every
        # ACK of new data, partial ACKs in recovery included; ns-3 keeps it running while idle and restarts it
        # only on the first partial ACK (RFC 6582 sec. 3.2 step 5, the "Impatient" variant)
        self._rto_rfc6298 = getattr(options, "rto_timer", "ns3") == "rfc6298"
        self.cc = cc
        self.recovery = recovery
        #: ``None`` (RFC 6298, :mod:`cmtlab.sim.tcp.rto`) or an object with ``sample(sub, rtt_ns)``,
        #: ``update(sub)`` and ``backoff(sub)`` that owns ``sub.rto`` (a model's own estimator,
        #: e.g. :class:`cmtlab.sim.models.chihani.ChihaniNs3Recovery`): given by the recovery algorithm.
        self.rto_rule = getattr(recovery, "rto_rule", None)
        self.reordering = reordering
        self.net_send = net_send
        self.queue = queue
        self.trace = trace

        cap = _pow2_at_least(self.max_out + 2)
        self.mask = cap - 1
        self.flags = bytearray(cap)
        self.sent_time = array("q", bytes(8 * cap))  # send time (ns) of each segment in the ring
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
        self.ack_time_ns = 0  # engine time (ns) of the ACK being processed: read by time-based congestion control
        self.last_rtt_sample_ns = 0  # the latest RTT sample (ns; rtt_samples_taken counts them): HyStart reads it
        # Linux's congestion-control RTT sample (ns; cc_rtt_samples counts them), when the congestion control asks for
        # it (cc_rtt_linux, set in its init): the RTT of the newest segment this ACK SACKed, else of the newest it
        # acknowledged cumulatively (none when it acknowledged a retransmission: Karn), not SACKed before
        self.cc_rtt_linux = False
        self.cc_rtt_ns = 0
        self.cc_rtt_samples = 0
        self._sack_newest = -1
        from ..registry import make  # the socket names its loss detection; the mechanism is a plug-in

        self.loss_detection = make("loss_detection", getattr(options, "loss_detection", "dupack"))
        # the fast paths skip the per-ACK hooks: only for a detection that does not need them
        self._plain = self._plain and not self.loss_detection.sees_every_ack
        self._rule3 = bool(self.loss_detection.next_seg_rule3)
        self._rearm_on_send = bool(self.loss_detection.rearms_on_send)
        self.loss_detection.attach(self)
        cc.init(self)
        attach = getattr(reordering, "attach", None)
        if attach is not None:
            attach(self)

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
            self.loss_detection.on_retransmit(self, k, now)
        else:
            self.flags[i] = 0
            self.sent_time[i] = now
            self.high = k + 1
        self.segments_sent += 1
        if not self.rto_timer.running:
            self.rto_timer.arm(now, now + self.rto)
        nbytes = self.last_len if k == self.n_segs - 1 else self.seg
        if self.state == RECOVERY:
            self.recovery.bytes_sent(self, nbytes)
        self._net_send.send(now, k, nbytes, retx)
        # ns-3 SendDataPacket calls BytesInFlight() after sending: the recovery algorithm may
        # see this value later in the same ACK (a fast retransmit followed by a partial ACK)
        self.pipe_snapshot = self.in_flight()
        if self._rearm_on_send and not retx:
            self.loss_detection.on_new_data_sent(self, now)

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
        # NextSeg rule 3 (RFC 6675), if the loss detection allows it (RACK-TLP retransmits only what it marked
        # lost: RFC 8985, Linux's tcp_xmit_retransmit_queue)
        rule3 = state == RECOVERY and self.sack and self._rule3
        if high >= self.app_tail and not self.lost_pending and not rule3:
            return  # nothing to send whatever the window (NextSeg finds nothing; see the loop below)
        no_lt = state == DISORDER and not self.limited_transmit
        if no_lt:
            # without limited transmit, SACKed data does not open the window before recovery
            pipe += self.sacked_out * seg
        avail = win - pipe
        if avail <= 0:
            return
        n_segs = self.n_segs
        last_k = n_segs - 1  # the transfer's last segment
        short = self.short
        short_end = n_segs if short else -1  # n_segs when that segment is short
        rwnd = self.rwnd
        rwnd_end = una + rwnd // seg  # every segment below it fits in the receive window
        while True:
            tail = self.app_tail
            if self.lost_pending or high >= tail:
                if not rule3 and not self.lost_pending:
                    return  # _next_seg would find nothing: no lost segment, no unsent data, no rule 3
                k = self._next_seg(rule3)
                if k < 0:
                    return
            else:  # NextSeg rule 2 without a scan: new data, if the receive window allows
                if high >= rwnd_end and (high - una) * seg + (self.last_len if high == last_k else seg) > rwnd:
                    return
                k = high
            data = (tail - k) * seg  # buffered from k on
            if tail == short_end:
                data -= short
            if data < avail:
                self._app_fill()  # ns-3 NotifySend: the application tops the send buffer up
            if avail < seg and data > avail:
                return  # silly-window avoidance: wait for a whole segment of window
            if k == high and state != RECOVERY and self.rto_timer.running:
                # new data: _send_segment inlined (the hot path)
                i = k & self.mask
                self.flags[i] = 0
                self.sent_time[i] = now
                self.high = high = k + 1
                self.segments_sent += 1
                nbytes = self.last_len if k == last_k else seg
                self._net_send.send(now, k, nbytes, False)
                if self._rearm_on_send:
                    self.loss_detection.on_new_data_sent(self, now)
                if high == short_end:
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

    def receive(self, now: int, packet) -> None:
        """An ACK packet arrived (the end of its path, :class:`~cmtlab.sim.net.packet.PacketSink`)."""
        self.on_ack(now, packet.seq, packet.ts, packet.sack)

    def on_ack(self, now: int, ack: int, ts_echo: int, sack) -> None:
        """Process one ACK (``sack``: ``None`` or ``(dsack_block_or_None, blocks)``)."""
        self.acks_rx += 1
        self.ack_time_ns = now  # the clock of CongestionControl.increase_window / ssthresh (e.g. CUBIC)
        if self._every_ack:
            # the response sees every ACK first, stale and reordered ones included
            if self.reordering.on_ack(self, ack, ts_echo, sack, now) is AckDecision.DISCARD:
                return
        una = self.una
        trace = self.trace
        if ack > self.high_rx_ack:
            self.high_rx_ack = ack
        # --- ns-3 EstimateRtt: sample from the oldest segment in the transmission history
        front = una if una > self.hist_lo else self.hist_lo
        rto_fresh = False  # RFC 6298's RTO was just computed from this ACK's sample (no model rule)
        if ack > front and front < self.high:
            if self.timestamps:
                now_ms = (now + self.ts_offset_ns) // 1_000_000  # ns-3 TcpOptionTS: a millisecond clock
                rtt = (now_ms - ts_echo) * 1_000_000 if now_ms > ts_echo else 1000
                self.rtt_sample(rtt)
                self.rtt_samples_taken += 1
                rto_fresh = self.rto_rule is None
            elif not self.flags[front & self.mask] & HIST_RETX:
                self.rtt_sample(now - self.sent_time[front & self.mask])
                self.rtt_samples_taken += 1
                rto_fresh = self.rto_rule is None
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
            if self.cc_rtt_linux:
                self._cc_rtt_sample(now, una, ack)
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
            if not rto_fresh:  # (after a sample, SRTT and RTTVAR are unchanged since: the same RTO)
                self._update_rto()
            self.rto_timer.arm(now, now + self.rto)
            self._app_fill()
            if ack >= self.n_segs or (self._rto_rfc6298 and ack >= self.high):
                self.rto_timer.cancel()
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
        high_before = self.high
        newly_sacked = 0
        self._sack_newest = -1
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
        if self.cc_rtt_linux:
            if self._sack_newest >= 0:
                self.cc_rtt_ns = now - self.sent_time[self._sack_newest & self.mask]
                self.cc_rtt_samples += 1
            elif ack > una:
                self._cc_rtt_sample(now, una, ack)
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
        # the loss detection marks lost segments from this ACK's information (RACK; the duplicate-ACK rules
        # decide in _dupack instead, and answer NO_LOSS here)
        loss = self.loss_detection.on_ack(self, now, ack, sack if self.sack else None, ts_echo)
        self._process_ack(now, ack, una, newly_sacked > 0, delivered)
        self.act_on_loss(now, loss, delivered)
        self.retrans_data_acked = False
        if self._every_ack:
            # after the standard processing, before sending: a restored window is used at once
            self.reordering.after_ack(self, ack, now)
        self.send_pending(now)
        self.loss_detection.after_ack(self, now, una, high_before)
        if trace is not None and (self.cwnd != old_cwnd or self.ssthresh != old_ssthresh or self.state != old_state):
            trace.cwnd(now, self.cwnd, self.ssthresh, self.state)

    def _cc_rtt_sample(self, now: int, una: int, ack: int) -> None:
        """Linux's ``ca_rtt_us`` from a cumulative ACK (``tcp_clean_rtx_queue``): the RTT of the newest segment in
        ``[una, ack)`` not SACKed before; none if the ACK covers a retransmitted segment (``FLAG_RETRANS_DATA_ACKED``)."""
        flags = self.flags
        mask = self.mask
        newest = -1
        k = una
        while k < ack:
            f = flags[k & mask]
            if f & HIST_RETX:
                return
            if not f & SACKED:
                newest = k
            k += 1
        if newest >= 0:
            self.cc_rtt_ns = now - self.sent_time[newest & mask]
            self.cc_rtt_samples += 1

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
            marks = self.recovery.loss_marks
            if not self.sack and marks:
                self._mark_head_lost()
            if segs_acked >= 1:
                self.recovery.on_ack(self, delivered, False)
            if (marks and self.loss_detection.retransmits_on_partial_ack(self)
                    and not (self.flags[ack & self.mask] & (RETRANS | SACKED) == RETRANS and ack < self.high)):
                self._do_retransmit(now)
            if self.trace is not None:
                self.trace.event(now, "partial_ack", ack, self)
            self._new_ack(now, ack, self.first_partial_ack or self._rto_rfc6298
                          or self.recovery.partial_ack_restarts_timer)
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
            # ns-3: every segment the full ACK covers, SACKed ones included; RACK-TLP (as Linux's acked_sacked,
            # tp->delivered's increase): only what this ACK newly delivered
            segs_acked = self.loss_detection.recovery_exit_segments(self, ack, old_head, segs_acked)
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
            if not self.sack and self.recovery.loss_marks:
                self._add_reno_sack()
            self.recovery.on_ack(self, delivered, True)
        elif state == DISORDER:
            # the duplicate-ACK threshold, RFC 6675 IsLost, RFC 3042 (DupAckThreshold); RACK-TLP decides per ACK
            if self.loss_detection.on_dupack(self, now) is LossDecision.LOSS:
                self._enter_recovery(now, delivered)

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
        if not self.recovery.loss_marks:
            pass  # no scoreboard: the one segment is retransmitted below, nothing marked
        elif not self.sack:
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
        elif self.recovery.keep_window_sets_ssthresh:
            self.ssthresh = self.cwnd  # retransmit but keep the window (and end any slow start)
        self.recovery.enter(self, self.dupacks, (self.high - self.una) * seg, delivered, decision)
        self.fast_retransmits += 1
        if self.trace is not None:
            self.trace.event(now, "fast_retransmit", self.una, self)
        self._send_segment(now, self.una)

    def act_on_loss(self, now: int, decision: LossDecision, delivered: int) -> None:
        """Act on the loss detection's :class:`~cmtlab.sim.tcp.decisions.LossDecision` after an ACK
        (``delivered`` its delivered bytes) or from the detection's timers (0)."""
        if decision is LossDecision.NO_LOSS:
            return
        if decision is LossDecision.LOSS:
            if self.state <= DISORDER and self.lost_out:
                self._enter_recovery(now, delivered)  # Linux tcp_time_to_recover: something is marked lost
        elif decision is LossDecision.TLP_LOSS:
            if self.state <= DISORDER:
                # RFC 8985 sec. 7.4.2 / Linux tcp_process_tlp_ack: one window reduction, no recovery
                self.ssthresh = self.cc.ssthresh(self, self.in_flight())
                if self.cwnd > self.ssthresh:
                    self.cwnd = self.ssthresh
                if self.trace is not None:
                    self.trace.event(now, "tlp_loss", self.una, self)
        else:
            raise ValueError(f"{type(self.loss_detection).__name__} must answer with a LossDecision, got {decision!r}")

    def _do_retransmit(self, now: int) -> None:
        """ns-3 ``DoRetransmit``: the first lost segment (or new data), else the head."""
        k = self._next_seg(False)
        if k < 0:
            k = self.una
        self._send_segment(now, k)

    def _new_ack(self, now: int, ack: int, reset_rto: bool) -> None:
        """ns-3 ``NewAck``: restart the retransmission timer (RFC 6298 rule 5.3); with ``rto_timer="rfc6298"``
        stop it when nothing is outstanding (rule 5.2: the next segment sent starts it, rule 5.1)."""
        if reset_rto:
            self._update_rto()
            self.rto_timer.arm(now, now + self.rto)
        self._app_fill()
        if ack >= self.n_segs or (self._rto_rfc6298 and ack >= self.high):
            self.rto_timer.cancel()

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
        self.loss_detection.on_timeout(self, now)
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
        if not self.recovery.loss_marks:
            # no scoreboard (the Chihani-Collange model's ReTxTimeout): one segment retransmitted
            self.recover = self.high
            self.recover_active = True
            self._loss_state(now, in_flight_before)
            self._send_segment(now, self.una)
            return
        # the loss detection marks what is lost: every outstanding segment not SACKed (go-back-N), or, e.g.
        # RACK, only the head and what has had time to arrive, the head resent whatever the window (Linux
        # tcp_retransmit_timer, which also restarts the timer)
        marking = self.loss_detection.mark_on_timeout(self, now)
        self.hist_lo = self.high  # the RTT history is emptied
        self._loss_state(now, in_flight_before)
        if marking is TimeoutMarking.HEAD_AT_ONCE:
            self._send_segment(now, self.una)
        elif marking is not TimeoutMarking.GO_BACK_N:
            raise ValueError(f"{type(self.loss_detection).__name__}.mark_on_timeout must return a TimeoutMarking, "
                             f"got {marking!r}")
        self.send_pending(now)

    def _loss_state(self, now: int, in_flight_before: int) -> None:
        """The congestion part of the timeout reaction: backoff, ``ssthresh``, ``cwnd = 1 SMSS``, Loss."""
        if self.rto_rule is not None:
            self.rto_rule.backoff(self)
        else:
            doubled = self.rto * 2
            self.rto = doubled if doubled < 60 * NS_PER_S else 60 * NS_PER_S
        self.ssthresh = self.cc.ssthresh(self, in_flight_before)
        self.state = LOSS
        self.cwnd = self.recovery.timeout_window(self)
        if self.trace is not None:
            self.trace.event(now, "timeout", self.una, self)
            self.trace.cwnd(now, self.cwnd, self.ssthresh, self.state)


__all__ = ["TcpSender"]
