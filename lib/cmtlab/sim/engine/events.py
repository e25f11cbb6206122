"""The event queue: one heap of timed calls, ordered as ns-3 orders its events.

An event is a call ``handler(time_ns, *args)`` due at ``time_ns`` (integer nanoseconds, the
engine's clock).  Events due at the same nanosecond are taken in the order ns-3 would take
them: by ``order_ns`` — when the event was scheduled (for a packet arrival, when the packet
started serialisation: ``last_start_ns`` of :class:`cmtlab.sim.net.link.LinkModel`) — then in insertion
order.  Modules schedule through :meth:`EventQueue.schedule` only; the heap's entries never
leave this module and :mod:`cmtlab.sim.engine.loop`.
"""

from __future__ import annotations

import itertools
from .heap import heappush


class RunComplete(Exception):
    """Raised by :meth:`EventQueue.complete` to end the loop (no per-event check of a flag)."""


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

    __slots__ = ("heap", "_ids", "order_ns", "done")

    def __init__(self):
        self.heap: list = []
        self._ids = itertools.count()
        self.order_ns = 0
        self.done = False

    def schedule(self, time_ns: int, order_ns: int, handler, *args) -> None:
        """Call ``handler(time_ns, *args)`` at ``time_ns`` (ties: ``order_ns``, then insertion)."""
        heappush(self.heap, (time_ns, order_ns, next(self._ids), handler, args))

    def scheduler_for(self, handler):
        """A fast ``push(time_ns, order_ns, args_tuple)`` for one handler (hot paths: one call per packet)."""
        heap = self.heap
        ids = self._ids

        def push(time_ns: int, order_ns: int, args: tuple) -> None:
            heappush(heap, (time_ns, order_ns, next(ids), handler, args))

        return push

    def complete(self) -> None:
        """The run is complete: stop the loop now (the rest of the current event's handlers is skipped)."""
        self.done = True
        raise RunComplete

    def __len__(self) -> int:
        return len(self.heap)


__all__ = ["EventQueue", "RunComplete"]
