# cython: boundscheck=False, wraparound=False
"""Events and the event queue: one heap of :class:`Event` objects, ordered as ns-3 orders its events.

An :class:`Event` is something that happens at ``time_ns`` (integer nanoseconds, the engine's
clock): the loop (:mod:`cmtlab.sim.engine.loop`) calls its :meth:`Event.fire` then.  Events
due at the same nanosecond are taken in the order ns-3 would take them: by ``order_ns`` — when
the event was scheduled (for a packet arrival, when the packet started serialisation:
``last_start_ns`` of :class:`cmtlab.sim.net.link.LinkModel`) — then in insertion order
(``serial``, given by the queue).

The kinds of event are small classes, each firing one thing:

* :class:`Call` — ``handler(time_ns, *args)``, for anything scheduled with
  :meth:`EventQueue.schedule` (a connection's wake-up, a test's probe);
* :class:`~cmtlab.sim.engine.timers.TimerExpiry` — a :class:`~cmtlab.sim.engine.timers.LazyTimer`
  comes due;
* :class:`~cmtlab.sim.net.packet.Packet` — a packet reaches the end of a link.

Modules put events on the queue with :meth:`EventQueue.push` (an event object they made)
or :meth:`EventQueue.schedule` (a :class:`Call`); nothing else touches the heap.  An event
is in the queue at most once at a time; once fired, the same object may be pushed again (a
packet crossing its next link, a timer's next expiry), so that most events cost no new object.

Compiled (:mod:`cmtlab.compiled`), the heap keeps the three integer keys in arrays of C integers
(``events.pxd``; see :class:`EventQueue`); as Python it is :mod:`heapq` over ``(time_ns,
order_ns, serial, event)`` tuples.  The keys are unique (``serial``), so both take the same next
event.
"""

from __future__ import annotations

import heapq
from array import array

import cython  # Cython's shadow module as Python: cython.compiled is False, cython.cast returns its value

#: The module runs compiled (:mod:`cmtlab.compiled`).
COMPILED = bool(cython.compiled)


class RunComplete(Exception):
    """Raised by :meth:`EventQueue.complete` to end the loop (no per-event check of a flag)."""


class Event:
    """Something that happens at ``time_ns``; subclasses implement :meth:`fire`.

    ``time_ns``, ``order_ns`` and ``serial`` are set by :meth:`EventQueue.push`.
    """

    __slots__ = ("time_ns", "order_ns", "serial")

    def fire(self, now: int) -> None:
        """The event is due (``now == time_ns``)."""
        raise NotImplementedError(f"{type(self).__name__} must implement fire()")


class Call(Event):
    """An event that calls ``handler(time_ns, *args)``."""

    __slots__ = ("handler", "args")

    def __init__(self, handler, args: tuple = ()):
        self.handler = handler
        self.args = args

    def fire(self, now: int) -> None:
        self.handler(now, *self.args)


def _before(t1: int, o1: int, s1: int, t2: int, o2: int, s2: int) -> bool:
    """Keys ``(t1, o1, s1)`` come before ``(t2, o2, s2)``: by time, then order, then insertion."""
    if t1 != t2:
        return t1 < t2
    if o1 != o2:
        return o1 < o2
    return s1 < s2


class EventQueue:
    """Pending events of one run, and the clock state a handler may read.

    The heap: as Python, :mod:`heapq` over ``(time_ns, order_ns, serial, event)`` tuples
    (``_heap``).  Compiled, a binary heap of the keys in three arrays of 64-bit integers
    (``_ht``, ``_ho``, ``_hs``) with, per position, the slot of its event in ``_slots`` (``_hx``):
    sifting moves integers only, and ``_free`` holds the unused slots.  Both take the events in
    the same order, as the keys are unique.

    Attributes
    ----------
    order_ns
        ``order_ns`` of the event being processed (a link transmitting a packet now orders its
        arrival after events scheduled earlier, see :class:`~cmtlab.sim.net.link.LinkModel`).
    done
        Set by :meth:`complete` (the receiving application holds everything): the loop stops
        after the event being processed.
    count
        Events on the queue.
    spare_packets
        Packets that reached their sink, for the next packets to reuse
        (:func:`cmtlab.sim.net.packet.data_packet`).

    """

    __slots__ = ("_heap", "_seq", "order_ns", "done", "count", "spare_packets",
                 "_ht", "_ho", "_hs", "_hx", "_slots", "_free", "_nfree", "_cap")

    def __init__(self):
        self._heap = []
        self._seq = 0
        self.order_ns = 0
        self.done = False
        self.count = 0
        self.spare_packets = []
        self._cap = 0
        self._nfree = 0
        self._slots = []
        self._grow()

    def _grow(self) -> None:
        """Double the compiled heap's arrays (64 entries to start)."""
        old = self._cap
        cap = 2 * old if old else 64
        ht = array("q", bytes(8 * cap))
        ho = array("q", bytes(8 * cap))
        hs = array("q", bytes(8 * cap))
        hx = array("q", bytes(8 * cap))
        free = array("q", bytes(8 * cap))
        for i in range(old):
            ht[i] = self._ht[i]
            ho[i] = self._ho[i]
            hs[i] = self._hs[i]
            hx[i] = self._hx[i]
        # every old slot is in use (the heap is full when it grows): the new ones are free
        for j in range(cap - old):
            free[j] = cap - 1 - j
        self._ht, self._ho, self._hs, self._hx, self._free = ht, ho, hs, hx, free
        self._nfree = cap - old
        self._slots.extend([None] * (cap - old))
        self._cap = cap

    def push(self, event: Event, time_ns: int, order_ns: int) -> None:
        """Put ``event`` on the queue, due at ``time_ns`` (ties: ``order_ns``, then insertion).

        The event must not be on the queue already (an event that fired may be pushed again).
        """
        serial = self._seq
        self._seq = serial + 1
        event.time_ns = time_ns
        event.order_ns = order_ns
        event.serial = serial
        self.count += 1
        if not cython.compiled:
            heapq.heappush(self._heap, (time_ns, order_ns, serial, event))
            return
        if self.count > self._cap:
            self._grow()
        self._nfree -= 1
        slot = self._free[self._nfree]
        self._slots[slot] = event
        self._sift_up(self.count - 1, time_ns, order_ns, serial, slot)

    def _sift_up(self, pos: int, t: int, o: int, s: int, x: int) -> None:
        """Put the keys ``(t, o, s)`` of slot ``x`` at heap position ``pos`` or above it."""
        # raw pointers to the arrays' data (this code runs compiled only; _grow reallocates between calls)
        ht = cython.address(self._ht[0])
        ho = cython.address(self._ho[0])
        hs = cython.address(self._hs[0])
        hx = cython.address(self._hx[0])
        while pos > 0:
            parent = (pos - 1) >> 1
            if not _before(t, o, s, ht[parent], ho[parent], hs[parent]):
                break
            ht[pos] = ht[parent]
            ho[pos] = ho[parent]
            hs[pos] = hs[parent]
            hx[pos] = hx[parent]
            pos = parent
        ht[pos] = t
        ho[pos] = o
        hs[pos] = s
        hx[pos] = x

    def pop(self) -> Event:
        """Remove and return the next event (``IndexError`` when the queue is empty).

        As ``heapq.heappop``: the hole left at the top goes down to a leaf along the earlier
        children, then the last entry fills it from there.
        """
        if self.count == 0:
            raise IndexError("pop from an empty event queue")
        self.count -= 1
        if not cython.compiled:
            return heapq.heappop(self._heap)[3]
        # raw pointers to the arrays' data (this code runs compiled only; _grow reallocates between calls)
        ht = cython.address(self._ht[0])
        ho = cython.address(self._ho[0])
        hs = cython.address(self._hs[0])
        hx = cython.address(self._hx[0])
        slot = hx[0]
        first = cython.cast(Event, self._slots[slot])
        self._slots[slot] = None
        self._free[self._nfree] = slot
        self._nfree += 1
        n = self.count
        if n == 0:
            return first
        pos = 0
        child = 1
        while child < n:
            right = child + 1
            if right < n and not _before(ht[child], ho[child], hs[child], ht[right], ho[right], hs[right]):
                child = right
            ht[pos] = ht[child]
            ho[pos] = ho[child]
            hs[pos] = hs[child]
            hx[pos] = hx[child]
            pos = child
            child = 2 * pos + 1
        self._sift_up(pos, ht[n], ho[n], hs[n], hx[n])
        return first

    def next_time_ns(self):
        """When the next event is due (ns), ``None`` when the queue is empty."""
        if self.count == 0:
            return None
        if not cython.compiled:
            return self._heap[0][0]
        return self._ht[0]

    def schedule(self, time_ns: int, order_ns: int, handler, *args) -> None:
        """Call ``handler(time_ns, *args)`` at ``time_ns`` (ties: ``order_ns``, then insertion)."""
        self.push(Call(handler, args), time_ns, order_ns)

    def complete(self) -> None:
        """The run is complete: stop the loop now (the rest of the current event's handlers is skipped)."""
        self.done = True
        raise RunComplete

    def __len__(self) -> int:
        return self.count


__all__ = ["Event", "Call", "EventQueue", "RunComplete", "COMPILED"]
