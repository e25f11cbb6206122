"""Link models: how long a packet takes over one direction of one link, and whether it arrives.

Time base
---------
The engine keeps time as **integer nanoseconds** (ns-3's default resolution), so that
events that coincide in ns-3 coincide here too and are processed in the same order —
with round-robin striping, which of two simultaneous arrivals is processed first decides
whether the receiver sends a duplicate ACK.  :func:`seconds_to_ns` converts a duration the
way ns-3's ``Seconds(double)`` does (exact product with 1e9, rounded half away from zero).

The link interface
------------------
:class:`LinkModel` is what the engine sees of one direction of a link.  Its single hot
method, :meth:`LinkModel.transmit`, is called once per packet when the packet is handed
to the link at time ``now_ns`` and returns the time (ns) the packet arrives at the far
end, or a negative code when it never arrives (:data:`DROPPED_QUEUE`: tail-dropped because
the transmit queue was full; :data:`DROPPED_LOSS`: serialised but lost on the wire).  It
also leaves the time the packet started serialisation in ``last_start_ns`` (the engine
orders simultaneous arrivals by it, as ns-3 orders events by when they were scheduled).
A FIFO link's departure times follow arithmetically from the previous departure, so a
packet costs one call and one event (its arrival); the multipath engine adds one event per
further hop of a path (:mod:`cmtlab.sim.net.topology`), so that a link shared by several paths
is handed its packets in time order.

Implemented: :class:`PointToPointLink` (rate in bit/s, one-way propagation delay in s,
drop-tail transmit queue limited in packets and/or bytes, random loss from a
:class:`cmtlab.scenario.LossModel`) and :class:`IdealPath` (zero delay, unlimited rate —
the receiver→sender path of Song et al.'s model, sec. 3).  Trace-driven links (rate and
delay read from measurements, e.g. the public 5G/Starlink traces of
:mod:`cmtlab.measurements.public`) plug in later as another :class:`LinkModel` whose
``transmit`` integrates a rate trace instead of dividing by a constant rate.

ns-3 equivalence (``PointToPointNetDevice`` + ``PointToPointChannel``, ns-3.44): a packet
handed to an idle device starts serialising at once; otherwise it waits in the device's
``DropTailQueue`` whose limit (``MaxSize``, default 100 packets) counts *waiting* packets
only — the packet being serialised has already left the queue.  Serialisation takes
``DataRate::CalculateBytesTxTime`` = ``8 * wire_bytes / rate`` rounded to the nanosecond,
with ``wire_bytes`` including the 2-byte PPP header, and the packet arrives ``delay``
after its last bit left (``InterframeGap`` = 0).  A receive error model in ns-3 drops the
packet at the far end after it used the link, which is what :data:`DROPPED_LOSS` means.
"""

from __future__ import annotations

import functools
import math
import random
from array import array
from fractions import Fraction

from ..._validate import check_duration_s
from ...scenario import NO_LOSS, LossModel
from ..registry import register

#: What a drop-tail queue's limit counts (:class:`PointToPointLink` ``queue_counts``): ``"waiting"`` — the
#: packets (and bytes) waiting behind the one being serialised, as ns-3's ``PointToPointNetDevice`` queue;
#: ``"unserialised"`` — every packet whose serialisation has not ended, the one on the wire included, as the
#: testbed's delay line (``delayline.c``: a packet is dropped when ``q_pkts + 1 > limit`` or
#: ``q_bytes + size > limit``, both counting what is not yet serialised).
QUEUE_COUNTS = ("waiting", "unserialised")

#: :meth:`LinkModel.transmit` result: tail-dropped at the transmit queue (never serialised).
DROPPED_QUEUE = -1
#: :meth:`LinkModel.transmit` result: serialised, then lost on the wire (random loss).
DROPPED_LOSS = -2

NS_PER_S = 1_000_000_000
#: ``order_ns`` of a packet handed over outside any event (a test, the handshake's set-up): later
#: than every serialisation start, so a packet in service finishing at that very nanosecond has
#: left the queue.
NO_ORDER = 1 << 62


def _round_half_away(x: Fraction) -> int:
    return int(x + Fraction(1, 2)) if x >= 0 else -int(-x + Fraction(1, 2))


@functools.lru_cache(maxsize=4096)  # (exact rational arithmetic: a scenario asks for the same few values every run)
def seconds_to_ns(seconds: float) -> int:
    """A duration in s → integer ns, as ns-3's ``Seconds(double)`` (exact × 1e9, round half away)."""
    return _round_half_away(Fraction(float(seconds)) * NS_PER_S)


@functools.lru_cache(maxsize=4096)
def transmission_ns(wire_bytes: int, rate_bps: float) -> int:
    """Serialisation time (ns) of ``wire_bytes`` at ``rate_bps``, as ns-3's ``CalculateBytesTxTime``."""
    return _round_half_away(Fraction(8 * int(wire_bytes) * NS_PER_S) / Fraction(float(rate_bps)))


class TimeFifo:
    """A first-in first-out queue of times (integer ns): a link's packets waiting for its transmitter.

    The times sit in a ring of 64-bit integers (an ``array("q")``, replaced by one twice as large
    when full), not as Python objects, so that compiled (``link.pxd``) a push or a pop allocates
    nothing.  ``size`` is the number of times held; :meth:`first` and :meth:`at` read them
    (``0 <= i < size``) without removing them.
    """

    __slots__ = ("_ring", "_mask", "_head", "size")

    def __init__(self, capacity: int = 16):
        n = 16
        while n < capacity:
            n *= 2
        self._ring = array("q", bytes(8 * n))
        self._mask = n - 1
        self._head = 0
        self.size = 0

    def __len__(self) -> int:
        return self.size

    def first(self) -> int:
        """The time at the front."""
        return self._ring[self._head]

    def at(self, i: int) -> int:
        """The ``i``-th time from the front."""
        return self._ring[(self._head + i) & self._mask]

    def push(self, t: int) -> None:
        """Append ``t`` at the back."""
        if self.size > self._mask:
            self._grow()
        self._ring[(self._head + self.size) & self._mask] = t
        self.size += 1

    def pop(self) -> int:
        """Remove the time at the front and return it."""
        t = self._ring[self._head]
        self._head = (self._head + 1) & self._mask
        self.size -= 1
        return t

    def drop_through(self, t: int) -> None:
        """Remove the times ``<= t`` at the front."""
        while self.size and self._ring[self._head] <= t:
            self._head = (self._head + 1) & self._mask
            self.size -= 1

    def _grow(self) -> None:
        ring = array("q", bytes(16 * (self._mask + 1)))
        for i in range(self.size):
            ring[i] = self.at(i)
        self._ring = ring
        self._mask = 2 * self._mask + 1
        self._head = 0


class LinkModel:
    """One direction of one link (times in integer ns).

    Subclasses implement :meth:`transmit`.  They keep their own counters in the
    attributes ``packets``, ``bytes``, ``queue_drops`` and ``loss_drops`` (used for the
    result's ``extra`` statistics), ``last_start_ns`` (serialisation start of the last
    packet) and may keep ``max_queue`` (largest number of waiting packets seen).
    """

    def transmit(self, now_ns: int, wire_bytes: int, order_ns: int = NO_ORDER) -> int:
        """Hand a packet of ``wire_bytes`` bytes to the link at time ``now_ns``.

        Returns its arrival time (ns, ``>= now_ns``) at the far end, or
        :data:`DROPPED_QUEUE` / :data:`DROPPED_LOSS`.  Calls come in non-decreasing time.
        ``order_ns`` is when the event handing over the packet was scheduled; it decides
        ties at the same nanosecond (see :class:`PointToPointLink`; :data:`NO_ORDER` outside events).
        """
        raise NotImplementedError(f"{type(self).__name__} must implement transmit()")

    def serialisation_ns(self, wire_bytes: int) -> int:
        """Time (ns) to put ``wire_bytes`` bytes on the wire (0 for an ideal path)."""
        return 0

    def handshake_ack(self, now_ns: int, wire_bytes: int) -> int:
        """The handshake's final ACK, handed over just before the first window (:mod:`cmtlab.sim.engine.handshake`):
        by default a packet like any other, as in ns-3 (it delays the first data segment by its serialisation
        and takes a loss draw)."""
        return self.transmit(now_ns, wire_bytes, now_ns)

    def propagation_ns(self) -> int:
        """One-way propagation delay (ns)."""
        return 0

    def drop_probability(self, wire_bytes: int) -> float:
        """Probability that a packet of ``wire_bytes`` bytes is lost on this link."""
        return 0.0

    @classmethod
    def for_path(cls, *, rate_bps: float, delay_s: float, queue_packets: int, loss, rng, seed: int, stream: int,
                 **params) -> tuple["LinkModel", "LinkModel"]:
        """``(forward, reverse)`` access links of one path of a multipath scenario.

        The engine calls this for path ``stream`` with the scenario's rate (bit/s), *one-way*
        delay (s), queue limit, the path's :class:`cmtlab.scenario.LossModel` and its loss
        generator ``rng``; ``seed``/``stream`` seed a model's own random streams (path ``i`` uses
        stream ``i``, so adding a path leaves the others' draws unchanged).  ``params`` are the
        scenario's parameters for this model.  Override it in a link model that needs more than
        its constructor (a shared medium for both directions, its own generators).
        """
        raise ValueError(f"link model {cls.__name__} cannot be named in a scenario (it has no for_path)")

    def stats(self) -> dict:
        """Counters of this direction (packets and bytes handed to it, drops)."""
        return {"packets": self.packets, "bytes": self.bytes, "queue_drops": self.queue_drops,
                "loss_drops": self.loss_drops, "max_queue": getattr(self, "max_queue", 0)}


class PointToPointLink(LinkModel):
    """A FIFO point-to-point link direction: rate, propagation delay, drop-tail queue, random loss.

    Parameters
    ----------
    rate_bps
        Line rate in bit/s (> 0).
    delay_s
        One-way propagation delay in s (>= 0).
    queue_packets
        Drop-tail limit in packets (>= 1; ``None`` with a ``queue_bytes`` limit: none in packets): by
        default the packets *waiting* behind the one being serialised, as ns-3's
        ``PointToPointNetDevice`` queue (``queue_counts``).
    loss
        :class:`cmtlab.scenario.LossModel` applied to every packet (``unit="bit"`` uses the
        packet's wire size).
    rng
        Generator with a ``random()`` method used for the loss draws, one draw per packet
        whenever the loss rate is > 0 (one generator per link direction, so that adding a
        link does not change another link's loss pattern; the engine uses
        :class:`cmtlab.sim.net.rng.Mrg32k3a` streams laid out as ns-3's).
    queue_bytes
        Drop-tail limit in bytes (``None``: none; else an integer >= 1): a packet is dropped when the
        bytes the queue counts plus its own ``wire_bytes`` would exceed it.
    queue_counts
        What the limits count (:data:`QUEUE_COUNTS`): ``"waiting"`` (ns-3, the default) or
        ``"unserialised"`` (the packet being serialised counts too: the testbed's delay line).

    Notes
    -----
    Departure times are computed arithmetically: the link remembers when its transmitter
    becomes free and the start times of the packets still waiting, so a packet costs O(1)
    amortised work and no events.

    Ties: when a packet is handed over at the very nanosecond the transmitter finishes
    another one, ns-3 frees the queue slot in the device's ``TransmitComplete`` event,
    which it orders with the event handing over the new packet by when each was scheduled.
    ``order_ns`` (when the current event was scheduled) reproduces that: the packet that
    starts now still occupies its queue slot if the current event was scheduled before
    its predecessor started serialising.
    """

    name = "point_to_point"
    __slots__ = ("rate_bps", "delay_s", "delay_ns", "queue_packets", "loss", "rng", "_busy_until",
                 "_waiting", "_service_start", "_tx_cache", "_last_size", "_last_tx", "_last_p", "_p_cache",
                 "_size_cache", "packets", "bytes", "queue_drops", "loss_drops", "max_queue",
                 "last_start_ns", "queue_bytes", "queue_counts", "_wait_limit", "_count_service", "_wait_sizes",
                 "_wait_bytes", "_service_bytes")

    def __init__(self, rate_bps: float, delay_s: float, queue_packets: int | None = 100, loss: LossModel = NO_LOSS,
                 rng: random.Random | None = None, *, queue_bytes: int | None = None, queue_counts: str = "waiting"):
        if isinstance(rate_bps, bool) or not isinstance(rate_bps, (int, float)) or not math.isfinite(rate_bps) \
                or rate_bps <= 0:
            raise ValueError(f"rate_bps must be a finite number > 0 (bit/s), got {rate_bps!r}")
        check_duration_s("delay_s", delay_s, zero=True)
        queue_packets, queue_bytes = check_queue_limits(queue_packets, queue_bytes, queue_counts)
        if not isinstance(loss, LossModel):
            raise ValueError(f"loss must be a cmtlab.scenario.LossModel, got {loss!r}")
        self.rate_bps = float(rate_bps)
        self.delay_s = float(delay_s)
        self.delay_ns = seconds_to_ns(delay_s)
        self.queue_packets = queue_packets  # (0: no limit in packets)
        self.queue_bytes = queue_bytes  # (0: no limit in bytes)
        self.queue_counts = queue_counts
        self._count_service = queue_counts == "unserialised"
        # packets allowed to wait behind the one in service: the packet limit, less the one in service
        # when it counts too (a link that is idle always takes the packet)
        self._wait_limit = (queue_packets - self._count_service) if queue_packets else 1 << 62
        self._wait_sizes = TimeFifo() if queue_bytes else None  # sizes of the waiting packets (byte limit)
        self._wait_bytes = 0
        self._service_bytes = 0
        self.loss = loss
        self.rng = rng if rng is not None else random.Random(0)
        self._busy_until = -(1 << 62)  # idle since forever (the clock may start below 0)
        self._waiting = TimeFifo()  # start times of packets waiting behind the one in service
        self._service_start = 0  # start time of the packet in service (the last one started)
        self._tx_cache = {}
        self._p_cache = {}
        self._size_cache = {}  # wire bytes -> (serialisation ns, drop probability)
        self._last_size = -1
        self._last_tx = 0
        self._last_p = 0.0
        self.packets = self.bytes = self.queue_drops = self.loss_drops = self.max_queue = 0
        self.last_start_ns = 0

    @classmethod
    def for_path(cls, *, rate_bps, delay_s, queue_packets, loss, rng, seed, stream, queue_bytes=None, **params):
        """Forward: this link with the path's loss model; reverse (ACKs): a loss-free point-to-point link; both
        with the path's queue limits."""
        if params:
            raise ValueError(f"link 'point_to_point' takes no parameters, got {sorted(params)}")
        if queue_bytes is None:
            return (cls(rate_bps, delay_s, queue_packets, loss, rng),
                    PointToPointLink(rate_bps, delay_s, queue_packets))
        return (cls(rate_bps, delay_s, queue_packets, loss, rng, queue_bytes=queue_bytes),
                PointToPointLink(rate_bps, delay_s, queue_packets, queue_bytes=queue_bytes))

    def drop_probability(self, wire_bytes: int) -> float:
        """Loss probability of a packet of ``wire_bytes`` bytes (cached per size).

        Bit errors use ns-3's ``RateErrorModel`` expression ``1 - (1 - BER)**(8 L)``
        (numerically equal to :meth:`cmtlab.scenario.LossModel.drop_probability` to the last
        bits, and identical to ns-3's so that common random numbers give common losses).
        """
        p = self._p_cache.get(wire_bytes)
        if p is None:
            if self.loss.unit == "bit" and self.loss.rate > 0:
                p = 1.0 - (1.0 - self.loss.rate) ** (8 * wire_bytes)
            else:
                p = self.loss.drop_probability(wire_bytes)
            self._p_cache[wire_bytes] = p
        return p

    def serialisation_ns(self, wire_bytes: int) -> int:
        t = self._tx_cache.get(wire_bytes)
        if t is None:
            t = self._tx_cache[wire_bytes] = transmission_ns(wire_bytes, self.rate_bps)
        return t

    def propagation_ns(self) -> int:
        return self.delay_ns

    def busy_until_ns(self) -> int:
        """When the transmitter finishes the last packet handed to it (ns; the queue drains without a gap)."""
        return self._busy_until

    def transmit(self, now_ns: int, wire_bytes: int, order_ns: int = NO_ORDER) -> int:
        waiting = self._waiting
        by_bytes = self.queue_bytes  # (0: packets only, the common case)
        while waiting.size:
            s0 = waiting.first()
            if s0 < now_ns or (s0 == now_ns and order_ns > self._service_start):
                self._service_start = waiting.pop()
                if by_bytes:
                    self._service_bytes = self._wait_sizes.pop()
                    self._wait_bytes -= self._service_bytes
            else:
                break
        busy = self._busy_until
        if busy > now_ns:
            nwait = waiting.size
            if nwait >= self._wait_limit:
                self.queue_drops += 1
                return DROPPED_QUEUE
            if by_bytes:
                held = self._wait_bytes + (self._service_bytes if self._count_service else 0)
                if held + wire_bytes > by_bytes:
                    self.queue_drops += 1
                    return DROPPED_QUEUE
                self._wait_sizes.push(wire_bytes)
                self._wait_bytes += wire_bytes
            waiting.push(busy)
            if nwait >= self.max_queue:
                self.max_queue = nwait + 1
            start = busy
        else:
            start = now_ns
            self._service_start = now_ns
            if by_bytes:
                if wire_bytes > by_bytes:  # (only a packet larger than the whole queue: the delay line drops it too)
                    self.queue_drops += 1
                    return DROPPED_QUEUE
                self._service_bytes = wire_bytes
        size = wire_bytes  # (compiled: a C integer)
        if size == self._last_size:  # most packets have the size of the one before
            tx = self._last_tx
            p = self._last_p
        else:
            cached = self._size_cache.get(wire_bytes)  # (ACK sizes vary with their SACK blocks)
            if cached is None:
                cached = self._size_cache[wire_bytes] = (self.serialisation_ns(wire_bytes),
                                                         self.drop_probability(wire_bytes))
            tx, p = cached
            self._last_size, self._last_tx, self._last_p = size, tx, p
        finish = start + tx
        self._busy_until = finish
        self.last_start_ns = start
        self.packets += 1
        self.bytes += size
        if p and self.rng.random() < p:
            self.loss_drops += 1
            return DROPPED_LOSS
        return finish + self.delay_ns


register("link", "point_to_point")(PointToPointLink)  # (a compiled class takes no decorator)


def check_queue_limits(queue_packets, queue_bytes, queue_counts: str = "waiting") -> tuple[int, int]:
    """A link's drop-tail limits as ``(packets, bytes)`` integers, 0 where there is none.

    ``queue_packets``: an integer >= 1, or ``None`` when ``queue_bytes`` is given; ``queue_bytes``: ``None`` or an
    integer >= 1; ``queue_counts``: one of :data:`QUEUE_COUNTS`.  ValueError naming the parameter otherwise."""
    if queue_counts not in QUEUE_COUNTS:
        raise ValueError(f"queue_counts must be one of {QUEUE_COUNTS}, got {queue_counts!r}")
    if queue_bytes is not None and (isinstance(queue_bytes, bool) or not isinstance(queue_bytes, int)
                                    or queue_bytes < 1):
        raise ValueError(f"queue_bytes must be None or an integer >= 1 (bytes), got {queue_bytes!r}")
    if queue_packets is None:
        if queue_bytes is None:
            raise ValueError("queue_packets must be an integer >= 1 when queue_bytes is None (a queue needs a limit)")
        return 0, int(queue_bytes)
    if isinstance(queue_packets, bool) or not isinstance(queue_packets, int) or queue_packets < 1:
        raise ValueError(f"queue_packets must be an integer >= 1, got {queue_packets!r}")
    return int(queue_packets), int(queue_bytes or 0)


class IdealPath(LinkModel):
    """Zero delay, unlimited rate, no loss: the model's receiver→sender path (Song sec. 3)."""

    __slots__ = ("packets", "bytes", "queue_drops", "loss_drops", "last_start_ns")

    def __init__(self):
        self.packets = self.bytes = self.queue_drops = self.loss_drops = self.last_start_ns = 0

    def transmit(self, now_ns: int, wire_bytes: int, order_ns: int = NO_ORDER) -> int:
        self.packets += 1
        self.bytes += wire_bytes
        self.last_start_ns = now_ns
        return now_ns
