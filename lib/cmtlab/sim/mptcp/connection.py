"""An MPTCP connection (RFC 8684): subflows, a data-sequence map, a connection-level scheduler and receive buffer.

Structure
---------
* :class:`~cmtlab.sim.mptcp.subflow.MptcpSubflow` — a :class:`~cmtlab.sim.tcp.TcpSender` (own subflow sequence space,
  congestion state and RTT estimator) whose data *source* is the connection: where a bulk
  sender's application writes the next segments into the send buffer
  (``TcpSender._app_fill``), a subflow asks the connection, which asks the
  :class:`~cmtlab.sim.mechanisms.schedulers.ConnectionScheduler` whether this subflow carries the next
  data-level segment (DSN) and records the mapping subflow segment → DSN (the DSS option,
  RFC 8684 sec. 3.3).
* :class:`MptcpConnection` — the sender's DSN counter and map, the scheduler, and the
  receiver's connection-level reorder buffer (Alheid et al. Fig. 1): each subflow receiver
  (a :class:`~cmtlab.sim.tcp.TcpReceiver` with a *sink*) hands its in-order segments up;
  the connection translates them to DSNs, delivers the in-order ones to the application and
  keeps the rest in the out-of-order buffer, whose occupancy it records over time.
* :class:`MptcpSimulation` — wires a :class:`~cmtlab.sim.mptcp.scenario.MptcpScenario`:
  one path (a chain of links, :mod:`cmtlab.sim.net.topology`) per subflow and direction, the
  event loop, and the result.

Equivalence with single-path TCP
--------------------------------
A subflow asks for data exactly where a bulk sender's application would write it, and it
is handed enough to fill its window plus one segment (so RFC 6675 ``NextSeg`` and the
silly-window rule see the same "new data available" as with a full send buffer).  With one
subflow, DSS overhead 0 and ``dupack_mode="rfc"`` the connection therefore sends the
same packets at the same nanoseconds as :func:`cmtlab.sim.simulate_striped` on one link
without the tunnel (tested: ``tests/sim/test_multipath.py``).

Connection-level flow control: a DSN is handed out only while it lies within
``receive_buffer_bytes`` of the data-level cumulative ACK the sender last saw (carried on
every subflow ACK, RFC 8684 DATA_ACK), so the receiver's buffer never overflows.

Retransmissions stay on the subflow that sent the segment (RFC 8684 sec. 3.3.6: a subflow
is a TCP connection); with ``retransmit="reinject"`` a segment retransmitted by a fast
retransmit or timeout is also sent once more on the other subflow with the most
available window (its copy is a new subflow segment mapped to the same DSN).

Both per-segment structures are rings of C-sized entries (compiled, ``connection.pxd``): a
subflow's mapping (:class:`DsnMap`) and the out-of-order buffer (a
:class:`~cmtlab.sim.tcp.segment_set.SegmentSet`, as a subflow receiver's).
"""

from __future__ import annotations

import random
from array import array

import cython

from ..tcp.receiver import TcpReceiver
from ..tcp.decisions import OutOfOrderAck
from ..mechanisms.schedulers.base import NO_SUBFLOW, USE_SELECT, ConnectionScheduler, HoldUntil, SchedulerView
from ..tcp.data_sink import DataSink
from ..tcp.segment_set import SegmentSet, _pow2_at_least
from .out_of_order import OutOfOrderPolicy, RfcOutOfOrder
from .subflow import MptcpSubflow

_ACK = OutOfOrderAck.ACK  # a subflow receiver's usual ACK (the common answer of deliver)

#: "no end yet" for a subflow's sequence space (the connection sets the real end when it
#: maps the transfer's last DSN onto the subflow)
UNBOUNDED_SEGS = 1 << 60

#: Retransmission policies.
RETRANSMIT_POLICIES = ("original", "reinject")

# MptcpConnection._select's answers besides a subflow index
_NO_SUBFLOW = NO_SUBFLOW  # the scheduler answered None: wait for an ACK
_USE_SELECT = USE_SELECT  # the scheduler has no integer answer (select_index): ask select()
_HOLD = -2  # it answered HoldUntil: the connection wakes up then (MptcpConnection._hold)
# The occupancy integral is summed in segment * ns in a 64-bit integer (compiled) while each step
# (count * dt, both below _OCC_SPLIT) and the sum stay below 2**62, and moved into an exact Python
# integer (MptcpConnection._occ_spill) otherwise.
_OCC_SPLIT = 1 << 31


class DsnMap:
    """One subflow's data-sequence mapping (the DSS option's, RFC 8684 sec. 3.3): the DSN its segment ``k`` carries.

    Segments are mapped in subflow order: :meth:`append` maps segment :attr:`end`.  The map keeps
    the last ``capacity`` mappings (a ring indexed by ``k & mask``), which is all either end ever
    asks for when ``capacity`` exceeds the subflow sender's send buffer (``max_out`` segments):
    the sender maps a segment only while ``app_tail - SND.UNA <= max_out`` and asks only for
    segments at or above SND.UNA (to send them), and the receiver hands up only segments at or
    above its RCV.NXT, which SND.UNA never passes.

    ``delivered`` counts this subflow's segments the connection took in (the first copy of each DSN).
    """

    __slots__ = ("dsns", "mask", "end", "delivered")

    def __init__(self, capacity: int):
        cap = _pow2_at_least(capacity)
        self.dsns = array("q", bytes(8 * cap))
        self.mask = cap - 1
        self.end = 0
        self.delivered = 0

    def append(self, dsn: int) -> None:
        """Map the subflow's next segment (:attr:`end`) to ``dsn``."""
        self.dsns[self.end & self.mask] = dsn
        self.end += 1

    def at(self, k: int) -> int:
        """The DSN of segment ``k``, mapped and not forgotten (the connection's own reads)."""
        return self.dsns[k & self.mask]

    def get(self, k: int):
        """The DSN of segment ``k`` (``None``: not mapped yet, or forgotten)."""
        if 0 <= k < self.end and self.end - k <= self.mask + 1:
            return self.dsns[k & self.mask]
        return None


class DataLevel(DataSink):
    """The connection's data level as its subflow receivers see it (their ``sink``) and as their
    ACKs read their DATA_ACK (``AckSend.data_level``): :meth:`MptcpConnection.deliver` and
    ``rcv_dsn``, the data-level RCV.NXT."""

    __slots__ = ("connection",)

    def __init__(self, connection: "MptcpConnection"):
        self.connection = connection

    def deliver(self, now: int, receiver, first: int, end: int):
        return self.connection.deliver(now, receiver, first, end)

    def data_ack(self) -> int:
        return self.connection.rcv_dsn


class MptcpConnection(SchedulerView):
    """Sender- and receiver-side connection state of one MPTCP connection (what its scheduler reads:
    :class:`~cmtlab.sim.mechanisms.schedulers.base.SchedulerView`).

    Parameters
    ----------
    n_dsn, last_len
        Data-level segments of the transfer and the length of the last one (``n_dsn=None``:
        a duration-limited transfer without end).
    scheduler
        The :class:`~cmtlab.sim.mechanisms.schedulers.ConnectionScheduler` instance (``None``: a
        connection that only receives).
    receive_buffer_bytes
        Connection-level receive buffer (bytes): the out-of-order buffer plus data not yet
        acknowledged at the data level never exceed it.
    out_of_order
        What a subflow receiver answers for a segment that went into the out-of-order buffer —
        the scenario's ``dupack_mode`` (an :class:`~cmtlab.sim.mptcp.out_of_order.OutOfOrderPolicy`,
        ``registry.make("dupack_mode", name)``; ``None``: ``"rfc"``, the usual ACK).  It is given to
        this connection alone (:meth:`~cmtlab.sim.mptcp.out_of_order.OutOfOrderPolicy.attach`).
    """

    def __init__(self, *, n_dsn, last_len: int, segment_bytes: int, scheduler, receive_buffer_bytes: int,
                 retransmit: str, seed: int, queue, trace_buffer: bool, out_of_order=None):
        if scheduler is not None and not isinstance(scheduler, ConnectionScheduler):
            raise TypeError(f"scheduler must be a ConnectionScheduler, got {type(scheduler).__name__}")
        if out_of_order is None:
            out_of_order = RfcOutOfOrder()
        if not isinstance(out_of_order, OutOfOrderPolicy):
            raise TypeError(f"out_of_order must be an OutOfOrderPolicy, got {type(out_of_order).__name__}")
        self.subflows: list[MptcpSubflow] = []
        self.receivers: list[TcpReceiver] = []
        self.n_dsn = n_dsn
        self.last_len = last_len
        self.seg = segment_bytes
        self.next_dsn = 0
        self.scheduler = scheduler
        # unsent data a subflow may hold beyond its window (bytes; ConnectionScheduler.prefetch_segments)
        self.prefetch_bytes = segment_bytes * int(getattr(scheduler, "prefetch_segments", 1))
        # a subflow may be handed data while it holds unsent data (ConnectionScheduler.subflow_send_queues)
        self.send_queues = bool(getattr(scheduler, "subflow_send_queues", False))
        self.rcvbuf_segs = receive_buffer_bytes // segment_bytes
        self._short_dsn = n_dsn - 1 if n_dsn is not None and last_len != segment_bytes else -1
        self._dsn_cap = n_dsn if n_dsn is not None else 1 << 62
        self.retransmit = retransmit
        self.seed = seed
        self.queue = queue
        self.now = 0
        self.maps: list[DsnMap] = []  # per subflow: the DSN of each of its segments
        self.data_ack_seen = 0  # DATA_ACK last seen by the sender
        # receiver
        self.rcv_dsn = 0  # data-level RCV.NXT: next DSN the application expects
        # DSNs received ahead of rcv_dsn: the DSNs handed out stay within the data-level receive window
        # (rcvbuf_segs) of the DATA_ACK, so this capacity suffices up to 2**16 segments (beyond, it grows)
        self.ooo = SegmentSet(min(self.rcvbuf_segs + 1, 1 << 16))
        self.max_ooo = 0
        self.ooo_events = 0  # segments that arrived ahead of the data sequence (OOO-R numerator)
        self._occ_seg_ns = 0  # integral of the out-of-order buffer occupancy (segment * ns) ...
        self._occ_spill = 0  # ... kept in these two parts (see _OCC_SPLIT), up to:
        self._occ_t = 0
        self.buffer_trace = [] if trace_buffer else None
        self.duplicate_dsn = 0
        self.done = False
        self.done_time = -1
        self.held_until = None
        # the scheduler's last refusal of a subflow asking for data (MptcpSubflow._app_fill): its answer
        # (_select) while next_dsn was _refused_dsn (-1: none)
        self._refused_dsn = -1
        self._refused = _NO_SUBFLOW
        self.reinjections = 0
        #: What the subflow receivers hand their segments to and their ACKs read DATA_ACK from.
        self.data_level = DataLevel(self)
        #: What a subflow receiver answers for a segment that went into the out-of-order buffer.
        self.out_of_order = out_of_order
        self._plain_receiver = bool(out_of_order.plain)  # subflow ACKs never withheld or duplicated: not asked
        out_of_order.attach(self)

    def add_subflow(self, sender, receiver: TcpReceiver) -> None:
        """Add subflow ``len(subflows)``: its sender (an :class:`~cmtlab.sim.mptcp.MptcpSubflow`) and receiver."""
        self.subflows.append(sender)
        self.receivers.append(receiver)
        self.maps.append(DsnMap(sender.max_out + 2))

    @property
    def delivered_segments(self) -> int:
        """Data-level segments delivered in order to the application (= the data-level RCV.NXT)."""
        return self.rcv_dsn

    def make_rng(self, stream: int) -> random.Random:
        """A seeded generator, independent per ``stream`` (repeatable for the scenario's seed)."""
        return random.Random((self.seed + 1) * 1_000_003 + int(stream))

    # ------------------------------------------------------------------ sender side
    def _select(self, now: int) -> int:
        """The scheduler's answer (:meth:`~cmtlab.sim.mechanisms.schedulers.ConnectionScheduler.select`) as an
        integer: the subflow for the next DSN, ``_NO_SUBFLOW`` (``None``: wait for an ACK) or ``_HOLD``
        (:class:`~cmtlab.sim.mechanisms.schedulers.HoldUntil`: the connection wakes up then)."""
        sched = self.scheduler
        index = sched.select_index(self, now)  # a compiled scheduler's answer as a C integer
        if index != _USE_SELECT:
            if index < _NO_SUBFLOW:
                raise ValueError(f"{type(sched).__name__}.select_index must answer a subflow index >= 0, "
                                 f"NO_SUBFLOW or USE_SELECT, got {index!r}")
            return index
        choice = sched.select(self, now)
        if choice is None:
            return _NO_SUBFLOW
        if type(choice) is HoldUntil:
            self._hold(choice.time_ns)
            return _HOLD
        if choice < 0:
            raise ValueError(f"{type(self.scheduler).__name__}.select must answer a subflow index >= 0, None or "
                             f"HoldUntil, got {choice!r}")
        return choice

    def _assign(self, sub: MptcpSubflow) -> None:
        dsn = self.next_dsn
        k = sub.app_tail
        m = self.maps[sub.index]
        m.append(dsn)
        sub.app_tail = k + 1
        self.next_dsn = dsn + 1
        if dsn == self._short_dsn:
            # the transfer's short last segment: this subflow's sequence space ends here
            sub.n_segs = k + 1
            sub.last_len = self.last_len
            sub.short = self.seg - self.last_len
        self.scheduler.on_sent(self, sub.index, dsn, self.now)

    def dsn_of(self, i: int, k: int):
        """The DSN subflow ``i``'s segment ``k`` carries (``None`` if not mapped, or forgotten)."""
        return self.maps[i].get(k)

    def _hold(self, t: int) -> None:
        if self.held_until is None or t < self.held_until:
            self.held_until = t
            self.queue.schedule(t, self.now, self.on_wake)

    def pump(self, now: int) -> None:
        """Let the subflows the scheduler picks send (after every event that may open a window).

        The picked subflow is handed the next DSN and sends it; its own request for more
        data (``MptcpSubflow._app_fill``) goes on while the scheduler keeps picking it.  A subflow that
        still holds unsent data is blocked by its window: then nothing more goes out now — unless the
        scheduler lets subflows queue (``subflow_send_queues``): then it is handed the DSN all the same,
        and the scheduler decides when a subflow holds enough.
        """
        self.now = now
        # room: a DSN left, within the data-level receive window (the DATA_ACK seen does not
        # change while the connection sends: only an arriving ACK moves it)
        cap = self._dsn_cap
        window_end = self.data_ack_seen + self.rcvbuf_segs
        if window_end < cap:
            cap = window_end
        if self.next_dsn >= cap:
            return  # (the common answer to an ACK while the data-level window is full)
        subs = self.subflows
        seg = self.seg
        maps = self.maps
        short_dsn = self._short_dsn
        ask = True
        choice = _NO_SUBFLOW
        while True:
            nxt = self.next_dsn
            if nxt >= cap:
                return
            if ask:
                choice = self._select(now)
            if choice < 0:
                return  # no subflow now (or held: the wake-up is scheduled)
            sub = subs[choice]
            tail = sub.app_tail
            if (tail > sub.high and not self.send_queues) or (tail - sub.una + 1) * seg > sub.buf_bytes:
                return
            # self._assign(sub), inlined (once per segment)
            m = maps[choice]
            m.append(nxt)
            sub.app_tail = tail + 1
            self.next_dsn = nxt + 1
            if nxt == short_dsn:
                sub.n_segs = tail + 1
                sub.last_len = self.last_len
                sub.short = seg - self.last_len
            self.scheduler.on_sent(self, choice, nxt, now)
            self._refused_dsn = -1
            # the subflow sends (its send_pending asks for more data through MptcpSubflow._app_fill); the
            # sender is compiled (cmtlab.compiled), so this call is cheaper than inlining its common case here
            sub.send_pending(now)
            # the subflow asked the scheduler for more and was refused: that answer stands
            # (sending only shrank this subflow's window), so it is not asked twice
            ask = self._refused_dsn != self.next_dsn
            choice = self._refused

    def on_wake(self, now: int) -> None:
        if self.held_until is not None and now >= self.held_until:
            self.held_until = None
            self.pump(now)

    # ------------------------------------------------------------------ receiver side
    @property
    def ooo_bytes_time(self) -> int:
        """Integral of the out-of-order buffer's occupancy (byte * ns), up to the last change (or :meth:`_occupancy`)."""
        return (self._occ_spill + self._occ_seg_ns) * self.seg

    def _occupancy(self, now: int) -> None:
        """Add the out-of-order buffer's occupancy since the last change to its integral."""
        n = self.ooo.count
        dt = now - self._occ_t
        self._occ_t = now
        if n < _OCC_SPLIT and dt < _OCC_SPLIT:  # n * dt < 2**62
            self._occ_seg_ns += n * dt
            if self._occ_seg_ns < _OCC_SPLIT * _OCC_SPLIT:
                return
            self._occ_spill += self._occ_seg_ns
            self._occ_seg_ns = 0
        else:
            self._occ_spill += cython.cast(object, n) * dt  # a Python integer product, exact

    def deliver(self, now: int, rcv: TcpReceiver, first: int, end: int) -> int:
        """The sink of subflow receiver ``rcv``: its segments ``[first, end)`` are in subflow order.

        Returns what the subflow receiver sends (an :class:`~cmtlab.sim.tcp.decisions.OutOfOrderAck`):
        ``ACK`` (the usual ACK), or what the connection's :attr:`out_of_order` policy answers
        (``WITHHOLD``: no ACK now; ``DUPLICATE``: an immediate duplicate of the last ACK sent).
        """
        i = rcv.index
        m = self.maps[i]
        ooo = self.ooo
        old = nxt = self.rcv_dsn
        n_before = ooo.count
        ooo_added = False
        if n_before:
            self._occupancy(now)
        for k in range(first, end):  # (one segment, the common case, but for a hole just filled)
            dsn = m.at(k)
            if dsn == nxt:  # next in data order (never in the out-of-order buffer)
                m.delivered += 1
                nxt += 1
                if ooo.count:
                    nxt = ooo.release_run(nxt)
            elif dsn < nxt or ooo.contains(dsn):
                self.duplicate_dsn += 1  # a re-injected copy already received
            else:
                m.delivered += 1
                if not n_before and not ooo.count:
                    self._occ_t = now
                ooo.add(dsn)
                self.ooo_events += 1
                ooo_added = True
        self.rcv_dsn = nxt
        if ooo_added and ooo.count > self.max_ooo:
            self.max_ooo = ooo.count
        if self.buffer_trace is not None and (n_before or ooo.count):
            self.buffer_trace.append((now, ooo.count * self.seg, nxt))
        if nxt >= self._dsn_cap:  # the transfer's last DSN (a duration-limited run has no cap)
            self.done = True
            self.done_time = now
            rcv.done = True
            rcv.done_time = now
            self.queue.complete()  # the application holds every byte: the run ends here
        if self._plain_receiver:
            return _ACK  # dupack_mode "rfc": the usual ACK, nothing withheld
        return self.out_of_order.answer(now, rcv, first, end, old, nxt, ooo_added and ooo.count > 0)


__all__ = ["MptcpConnection", "DsnMap", "DataLevel", "RETRANSMIT_POLICIES", "UNBOUNDED_SEGS"]
