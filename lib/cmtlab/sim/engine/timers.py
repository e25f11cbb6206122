"""Lazy timers (ns-3's ``EventId`` reschedule, at one event per expiry instead of one per restart).

Restarting a timer only moves its deadline; the queue holds at most one event per timer at
any time.  When that event comes due and the deadline has moved later, it re-schedules
itself at the new deadline, ordered by when the deadline was set (as ns-3's ``Schedule``
would have ordered it); when the deadline is gone (cancelled) it does nothing.  So ACKs that
restart the retransmission timer add no events.
"""

from __future__ import annotations

from .heap import heappush


class LazyTimer:
    """One restartable timer calling ``expire(now_ns)`` at its deadline.

    ``deadline`` (ns, ``None`` when not running) may be read by the owner; change it with
    :meth:`arm` and :meth:`cancel`.  :attr:`handler` is what the queue calls when the timer's
    event comes due (by default :meth:`fire`; a topology may wrap it, e.g. to let an MPTCP
    connection send after every timer event of a subflow).
    """

    __slots__ = ("queue", "expire", "deadline", "event_ns", "armed_at", "handler", "_heap", "_ids")

    def __init__(self, queue, expire):
        self.queue = queue
        self._heap = queue.heap  # the timer schedules its own event (one heap push, no call layers)
        self._ids = queue._ids
        self.expire = expire
        self.deadline = None
        self.event_ns = None  # time of the timer's event in the queue (None: none queued)
        self.armed_at = 0  # when the current deadline was set (orders ties, as ns-3's Schedule)
        self.handler = self.fire

    def arm(self, now: int, deadline: int) -> None:
        """(Re)start the timer to expire at ``deadline`` (ns)."""
        self.deadline = deadline
        self.armed_at = now
        ev = self.event_ns
        if ev is None or deadline < ev:
            self.event_ns = deadline
            heappush(self._heap, (deadline, now, next(self._ids), self.handler, ()))

    def cancel(self) -> None:
        self.deadline = None

    def fire(self, now: int) -> None:
        """The timer's event came due (it may be stale: see the module docstring)."""
        if now != self.event_ns:
            return
        self.event_ns = None
        deadline = self.deadline
        if deadline is None:
            return
        if deadline > now:
            self.event_ns = deadline
            heappush(self._heap, (deadline, self.armed_at, next(self._ids), self.handler, ()))
            return
        self.deadline = None
        self.expire(now)


__all__ = ["LazyTimer"]
