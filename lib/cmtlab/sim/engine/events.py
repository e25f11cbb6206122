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

Compiled (:mod:`cmtlab.compiled`), the heap is a list of events compared on their three
integer keys in C (``events.pxd``); as Python it is :mod:`heapq` over ``(time_ns, order_ns,
serial, event)`` tuples.  The keys are unique (``serial``), so both take the same next event.
"""

from __future__ import annotations

import heapq

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


def _before(a: Event, b: Event) -> bool:
    """Event ``a`` is due before event ``b``: by time, then order, then insertion."""
    if a.time_ns != b.time_ns:
        return a.time_ns < b.time_ns
    if a.order_ns != b.order_ns:
        return a.order_ns < b.order_ns
    return a.serial < b.serial


class EventQueue:
    """Pending events of one run, and the clock state a handler may read.

    Attributes
    ----------
    order_ns
        ``order_ns`` of the event being processed (a link transmitting a packet now orders its
        arrival after events scheduled earlier, see :class:`~cmtlab.sim.net.link.LinkModel`).
    done
        Set by :meth:`complete` (the receiving application holds everything): the loop stops
        after the event being processed.
    """

    __slots__ = ("heap", "_seq", "order_ns", "done")

    def __init__(self):
        self.heap: list = []
        self._seq = 0
        self.order_ns = 0
        self.done = False

    def push(self, event: Event, time_ns: int, order_ns: int) -> None:
        """Put ``event`` on the queue, due at ``time_ns`` (ties: ``order_ns``, then insertion).

        The event must not be on the queue already (an event that fired may be pushed again).
        """
        event.time_ns = time_ns
        event.order_ns = order_ns
        event.serial = self._seq
        self._seq += 1
        if not cython.compiled:
            heapq.heappush(self.heap, (time_ns, order_ns, event.serial, event))
            return
        heap = self.heap
        heap.append(event)
        self._sift_up(len(heap) - 1, event)

    def _sift_up(self, pos: int, event: Event) -> None:
        """Put ``event`` at ``pos`` or above it: every later event on its way to the top moves down one level."""
        heap = self.heap
        while pos > 0:
            parent = (pos - 1) >> 1
            above = cython.cast(Event, heap[parent])
            if not _before(event, above):
                break
            heap[pos] = above
            pos = parent
        heap[pos] = event

    def pop(self) -> Event:
        """Remove and return the next event (``IndexError`` when the queue is empty).

        As ``heapq.heappop``: the hole left at the top goes down to a leaf along the earlier
        children, then the last event fills it from there.
        """
        if not cython.compiled:
            return heapq.heappop(self.heap)[3]
        heap = self.heap
        last = cython.cast(Event, heap.pop())
        n = len(heap)
        if n == 0:
            return last
        first = cython.cast(Event, heap[0])
        pos = 0
        child = 1
        while child < n:
            right = child + 1
            if right < n and not _before(cython.cast(Event, heap[child]), cython.cast(Event, heap[right])):
                child = right
            heap[pos] = heap[child]
            pos = child
            child = 2 * pos + 1
        self._sift_up(pos, last)
        return first

    def next_time_ns(self):
        """When the next event is due (ns), ``None`` when the queue is empty."""
        if not self.heap:
            return None
        if not cython.compiled:
            return self.heap[0][0]
        return cython.cast(Event, self.heap[0]).time_ns

    def schedule(self, time_ns: int, order_ns: int, handler, *args) -> None:
        """Call ``handler(time_ns, *args)`` at ``time_ns`` (ties: ``order_ns``, then insertion)."""
        self.push(Call(handler, args), time_ns, order_ns)

    def complete(self) -> None:
        """The run is complete: stop the loop now (the rest of the current event's handlers is skipped)."""
        self.done = True
        raise RunComplete

    def __len__(self) -> int:
        return len(self.heap)


__all__ = ["Event", "Call", "EventQueue", "RunComplete", "COMPILED"]
