"""The receiving side of one TCP flow (or MPTCP subflow), with ns-3.44's semantics.

Sequence numbers are **segment indices** (segment ``k`` carries bytes ``[k*s, (k+1)*s)`` of
the transfer; only the last segment may be shorter); windows, ``ssthresh`` and
bytes-in-flight are in **bytes**; times (``now``, RTT, RTO) in **integer nanoseconds**,
the engine's clock (see :mod:`cmtlab.sim.net.link`).

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
for it, ``wants_dsack`` of :class:`~cmtlab.sim.mechanisms.reordering.ReorderingResponse`); a duplicate above
RCV.NXT is followed by the block that contains it (RFC 2883 sec. 4).  Timestamps:
``TS.Recent`` is updated only from in-order segments at or below the last ACK sent whose
TSval is at least the newest seen (ns-3.44), or, with ``rfc7323_echo`` (turned on when the
reordering response sets ``wants_rfc7323_echo``), exactly as RFC 7323 sec. 4.3 says:
when ``SEG.TSval >= TS.Recent`` — so the ACK of a late segment that fills a hole echoes
that segment's timestamp.

A receiver with a ``sink`` hands its in-order segments up (to the MPTCP connection's reorder
buffer, Alheid Fig. 1) instead of being the application itself.
"""

from __future__ import annotations

from ..engine.timers import LazyTimer
from ..net.link import seconds_to_ns
from ..net.packet import PacketSink
from .decisions import OutOfOrderAck
from .data_sink import data_sink
from .segment_set import SegmentSet
from .wire import ack_out


class TcpReceiver(PacketSink):
    """The receiving side: cumulative/delayed ACKs, SACK and D-SACK, timestamps (see module docstring)."""

    __slots__ = ("n_segs", "m_ack", "delack_timeout", "immediate_ooo", "sack", "dsack", "max_blocks", "timestamps",
                 "_net_ack", "queue", "trace", "rcv_nxt", "ooo", "sack_list", "delack_count",
                 "delack_timer", "completes_run", "high_tx_ack", "ts_recent", "ts_last",
                 "done", "done_time",
                 "segments_rx", "duplicates_rx", "ooo_rx", "max_ooo", "acks_sent",
                 "delayed_acks", "timer_acks", "dsacks_sent", "_rd", "index", "_sink", "rfc7323_echo", "ack_cap", "echo_arrival",
                 "held_copy", "rwin", "rwin_index")

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
        self.ooo = SegmentSet()  # out-of-order segments held (above rcv_nxt)
        self.sack_list = []  # [first, end) blocks, most recent first (ns-3 TcpRxBuffer order)
        # ns-3 acknowledges the first data segment at once (delayed-ACK counter primed at set-up)
        self.delack_count = self.m_ack
        self.delack_timer = LazyTimer(queue, self._delayed_ack_timeout)
        self.high_tx_ack = 0
        self.ts_recent = 0
        self.ts_last = -1
        self.done = False
        self.done_time = -1
        self.segments_rx = self.duplicates_rx = self.ooo_rx = self.max_ooo = 0
        self.acks_sent = self.delayed_acks = self.timer_acks = self.dsacks_sent = 0
        self.index = 0  # subflow number (tags this receiver's timer events)
        self.sink = None
        #: The receiver is the run's application: the run ends when it holds every segment.
        self.completes_run = True
        #: ``None``, or the highest subflow sequence an ACK may carry: the Chihani–Collange
        #: receiver (``dupack_mode="chihani_ns3"``) does not advance its subflow ACK past a
        #: segment held for data-level order (set and cleared by the MPTCP connection).
        self.ack_cap = None
        #: Echo the TSval of the segment that triggers each ACK (the Chihani–Collange receiver's
        #: timestamp option, ``dupack_mode="chihani_ns3"``) instead of RFC 7323's TS.Recent.
        self.echo_arrival = False
        #: ``None``, or ``held_copy(now, receiver, k)``: what answers a copy of a segment held for
        #: data-level order (``k >= ack_cap``) — the Chihani–Collange D_SACK receiver answers it
        #: with its D-SACK option (set by the MPTCP connection); otherwise no ACK at all.
        self.held_copy = None
        #: ``None``, or the :class:`~cmtlab.sim.tcp.receive_window.LinuxReceiveWindow` of the connection
        #: (``TcpOptions.ack_policy = "linux"``): a segment it answers True for is acknowledged at once
        #: (Linux's quick ACKs); ``rwin_index``: this receiver's index in it.
        self.rwin = None
        self.rwin_index = 0

    @property
    def net_ack(self):
        """How the receiver's ACKs leave (an :class:`~cmtlab.sim.tcp.wire.AckOut`; a function
        ``(now, ack, echo, sack, nblocks)`` assigned here is wrapped in an :class:`~cmtlab.sim.tcp.wire.AckCall`)."""
        return self._net_ack

    @net_ack.setter
    def net_ack(self, value) -> None:
        self._net_ack = ack_out(value)

    @property
    def sink(self):
        """``None``: the receiver is the application (done when ``n_segs`` are in order); else a
        :class:`~cmtlab.sim.tcp.data_sink.DataSink` whose ``deliver(now, receiver, first, end)``
        takes segments ``[first, end)`` each time ``rcv_nxt`` reaches ``n_segs`` or more (an MPTCP
        subflow receiver has ``n_segs = 0``) and answers an
        :class:`~cmtlab.sim.tcp.decisions.OutOfOrderAck` (anything but ``ACK`` replaces this
        segment's ACK); it may set ``receiver.done`` to end the run.  A function
        ``(now, receiver, first, end)`` assigned here is wrapped in a
        :class:`~cmtlab.sim.tcp.data_sink.DataSinkCall`."""
        return self._sink

    @sink.setter
    def sink(self, value) -> None:
        self._sink = data_sink(value)

    def receive(self, now: int, packet) -> None:
        """A data packet arrived (the end of its path, :class:`~cmtlab.sim.net.packet.PacketSink`)."""
        self.on_data(now, packet.seq, packet.ts, packet.retx)

    def on_data(self, now: int, k: int, tsval: int, retx: bool) -> None:
        """A data segment ``k`` arrived (``tsval``: sender's timestamp in ms; ``retx``: a retransmission)."""
        self.segments_rx += 1
        rcv_nxt = self.rcv_nxt
        if self.echo_arrival:
            self.ts_recent = tsval
        elif self.rfc7323_echo:
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
        if k < rcv_nxt or self.ooo.contains(k):
            # duplicate: ns-3 RxBuffer::Add fails -> immediate ACK
            self.duplicates_rx += 1
            if self.ack_cap is not None and k >= self.ack_cap and not self.echo_arrival:
                # the Chihani-Collange receiver: a copy of a segment it holds for data-level
                # order is rejected without an ACK (StoreUnOrderedData fails: TxACK = false),
                # except by its D_SACK receiver, which reports it (held_copy)
                if self.held_copy is not None:
                    self.held_copy(now, self, k)
                return
            if self._rd is not None:
                self._rd.duplicate(k)
            self._send_ack(now, (k, k + 1) if self.dsack else None)
            return
        if self._rd is not None:
            self._rd.arrival(k)
        if k == rcv_nxt:
            rcv_nxt += 1
            ooo = self.ooo
            if ooo.count:
                rcv_nxt = ooo.release_run(rcv_nxt)
                if self.sack_list:
                    self.sack_list = [b for b in self.sack_list if b[1] > rcv_nxt]
            filled = rcv_nxt - k > 1
            self.rcv_nxt = rcv_nxt
            if self.trace is not None:
                self.trace.goodput(now, rcv_nxt)
            if rcv_nxt >= self.n_segs:
                sink = self._sink
                if sink is None:
                    self.done = True
                    self.done_time = now
                    if self.completes_run:
                        self.queue.complete()  # ends the run here
                    return
                hold = sink.deliver(now, self, k, rcv_nxt)
                if self.done:
                    return
                if hold:
                    # the connection above answers this segment itself (MPTCP receiver
                    # duplicate-ACK semantics, cmtlab.sim.mptcp): WITHHOLD = no ACK now,
                    # DUPLICATE = a duplicate of the last ACK sent
                    self.delack_timer.cancel()
                    self.delack_count = 0
                    if hold is OutOfOrderAck.DUPLICATE:
                        self.acks_sent += 1
                        self._net_ack.send(now, self.high_tx_ack, self.ts_recent, None, 0)
                    return
        else:
            self.ooo.add(k)
            self.ooo_rx += 1
            if self.ooo.count > self.max_ooo:
                self.max_ooo = self.ooo.count
            if self.sack:
                self._update_sack_list(k)
            filled = False
        if self.rwin is not None and self.rwin.on_segment(now, self.rwin_index, rcv_nxt - k if rcv_nxt > k else 0):
            send_now = True  # Linux's quick-ACK mode (the receive window grows, or the first data)
        elif self.immediate_ooo and (self.ooo.count or filled):
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
                self.delack_timer.cancel()
                self.delack_count = 0
                cap = self.ack_cap
                if cap is not None and cap < rcv_nxt:
                    rcv_nxt = cap
                if rcv_nxt > self.high_tx_ack:
                    self.high_tx_ack = rcv_nxt
                self.acks_sent += 1
                self._net_ack.send(now, rcv_nxt, self.ts_recent, None, 0)
        elif not self.delack_timer.running:
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

    def _delayed_ack_timeout(self, now: int) -> None:
        self.timer_acks += 1
        self._send_ack(now, None)

    def _send_ack(self, now: int, dsack) -> None:
        """ns-3 ``SendEmptyPacket(ACK)``: cancels the delayed ACK and sends RCV.NXT (+ SACK, TSecr)."""
        self.delack_timer.cancel()
        self.delack_count = 0
        ack = self.rcv_nxt
        cap = self.ack_cap
        if cap is not None and cap < ack:
            ack = cap
        if ack > self.high_tx_ack:
            self.high_tx_ack = ack
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
        self._net_ack.send(now, ack, self.ts_recent, sack, nblocks)


__all__ = ["TcpReceiver"]
