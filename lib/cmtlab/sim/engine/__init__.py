"""The event core shared by every topology: an event queue, lazy timers and the loop.

* :class:`~cmtlab.sim.engine.events.EventQueue` — :class:`~cmtlab.sim.engine.events.Event`
  objects due at integer nanoseconds, ties ordered as ns-3 orders them (a packet reaching the end
  of a link, :class:`~cmtlab.sim.net.packet.Packet`; a timer's expiry; a scheduled call);
* :class:`~cmtlab.sim.engine.timers.LazyTimer` — a restartable timer (retransmission,
  delayed ACK) costing one event per expiry;
* :func:`~cmtlab.sim.engine.loop.run_events` — the loop, with its limits (simulated time,
  duration, event budget) and :class:`~cmtlab.sim.engine.loop.StopReason`.

Topologies (:mod:`cmtlab.sim.striped`, :mod:`cmtlab.sim.multipath`) build links, endpoints
and the handlers of their events, then hand the queue to :func:`run_events`.
"""

from .events import Call, Event, EventQueue
from .loop import StopReason, run_events
from .timers import LazyTimer, TimerHandler

__all__ = ["Call", "Event", "EventQueue", "LazyTimer", "StopReason", "TimerHandler", "run_events"]
