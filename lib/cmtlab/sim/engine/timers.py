"""Lazy timers (ns-3's ``EventId`` reschedule, at one event per expiry instead of one per restart).

Restarting a timer only moves its deadline; the queue holds at most one live event per timer.
When that event comes due and the deadline has moved later, it re-schedules itself at the new
deadline, ordered by when the deadline was set (as ns-3's ``Schedule`` would have ordered it);
when the deadline is gone (cancelled) it does nothing.  So ACKs that restart the
retransmission timer add no events.  A deadline moved *earlier* than the queued event gets an
event of its own; the later one then finds itself stale and does nothing.
"""

from __future__ import annotations

from .events import Event


class TimerHandler:
    """What a :class:`LazyTimer`'s event calls instead of :meth:`LazyTimer.fire` (``timer.handler``):
    :meth:`due` must call the timer's ``fire(now)``, and may do more around it."""

    __slots__ = ()

    def due(self, now: int) -> None:
        raise NotImplementedError(f"{type(self).__name__} must implement due()")


class TimerExpiry(Event):
    """The queue's event of a :class:`LazyTimer` (it may be stale: see the module docstring)."""

    __slots__ = ("timer",)

    def fire(self, now: int) -> None:
        timer = self.timer
        timer._spare = self  # off the queue now: the timer's next event reuses this object
        if timer.handler is None:
            timer.fire(now)
        else:
            timer.handler.due(now)


class LazyTimer:
    """One restartable timer calling ``expire(now_ns)`` at its deadline.

    :attr:`deadline` (ns, ``None`` when not running) may be read by the owner; change it with
    :meth:`arm` and :meth:`cancel` (``running`` tells whether it runs, ``deadline_ns`` its
    deadline then).  ``handler`` is ``None`` (the timer's event calls :meth:`fire`) or a
    :class:`TimerHandler` whose ``due(now)`` the event calls instead, and which calls
    :meth:`fire` — a topology may wrap the timer so, e.g. to let an MPTCP connection send after
    every timer event of a subflow.
    """

    __slots__ = ("queue", "expire", "deadline_ns", "running", "_event_ns", "_queued", "armed_at", "handler",
                 "_spare")

    def __init__(self, queue, expire):
        self.queue = queue
        self.expire = expire
        self.deadline_ns = 0
        self.running = False
        self._event_ns = 0  # time of the timer's live event in the queue (when _queued)
        self._queued = False
        self.armed_at = 0  # when the current deadline was set (orders ties, as ns-3's Schedule)
        self.handler = None
        self._spare = None  # a TimerExpiry off the queue, reused by the next push

    @property
    def deadline(self):
        """When the timer expires (ns), ``None`` when it is not running."""
        return self.deadline_ns if self.running else None

    @property
    def event_ns(self):
        """Time (ns) of the timer's live event in the queue, ``None`` when none is queued."""
        return self._event_ns if self._queued else None

    def _push(self, time_ns: int, order_ns: int) -> None:
        ev = self._spare
        if ev is None:
            ev = TimerExpiry.__new__(TimerExpiry)
            ev.timer = self
        else:
            self._spare = None
        self._event_ns = time_ns
        self._queued = True
        self.queue.push(ev, time_ns, order_ns)

    def arm(self, now: int, deadline: int) -> None:
        """(Re)start the timer to expire at ``deadline`` (ns)."""
        self.deadline_ns = deadline
        self.running = True
        self.armed_at = now
        if not self._queued or deadline < self._event_ns:
            self._push(deadline, now)

    def cancel(self) -> None:
        """Stop the timer (its queued event, if any, will find nothing to do)."""
        self.running = False

    def fire(self, now: int) -> None:
        """The timer's event came due (it may be stale: see the module docstring)."""
        if not self._queued or now != self._event_ns:
            return
        self._queued = False
        if not self.running:
            return
        deadline = self.deadline_ns
        if deadline > now:
            self._push(deadline, self.armed_at)
            return
        self.running = False
        self.expire(now)


__all__ = ["LazyTimer", "TimerExpiry", "TimerHandler"]
