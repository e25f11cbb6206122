"""The event loop shared by every topology (:mod:`cmtlab.sim.striped`, :mod:`cmtlab.sim.multipath`)."""

from __future__ import annotations

import enum
from .events import RunComplete


class StopReason(str, enum.Enum):
    """Why a run ended (``result.extra["stop_reason"]``)."""

    COMPLETED = "completed"  # the receiving application holds every byte (EventQueue.done)
    DURATION = "duration"  # a duration-limited run reached its duration
    MAX_SIM_TIME = "max_sim_time"  # simulated time passed the scenario's max_sim_time_s
    MAX_EVENTS = "max_events"  # the event budget ran out
    STALLED = "stalled"  # no event left before completion


def run_events(queue, *, tmax_ns: int, budget: int, t_end_ns: int | None = None) -> tuple[StopReason, int, int]:
    """Process events in order until the run completes or a limit is reached.

    ``tmax_ns``: simulated-time limit (an event later than it is not processed and the clock
    stops at ``tmax_ns``); ``t_end_ns``: the end of a duration-limited run (same rule);
    ``budget``: at most this many events.  Returns ``(reason, now_ns, events)``.
    """
    if t_end_ns is not None and t_end_ns < tmax_ns:
        limit, limit_reason = t_end_ns, StopReason.DURATION
    else:
        limit, limit_reason = tmax_ns, StopReason.MAX_SIM_TIME
    events = 0
    now = 0
    reason = StopReason.STALLED
    try:
        while queue.count:
            ev = queue.pop()
            now = ev.time_ns
            if now > limit:
                reason = limit_reason
                now = limit
                break
            queue.order_ns = ev.order_ns
            ev.fire(now)
            events += 1
            if events >= budget:
                reason = StopReason.MAX_EVENTS
                break
    except RunComplete:  # EventQueue.complete(): the application holds every byte
        events += 1
        reason = StopReason.COMPLETED
    return reason, now, events


__all__ = ["StopReason", "run_events"]
