"""The event queue (cmtlab.sim.engine.events): the same next event as heapq, whatever runs (compiled or Python)."""

from __future__ import annotations

import heapq
import random

import pytest

from cmtlab.sim.engine import Call, Event, EventQueue
from cmtlab.sim.engine.events import RunComplete


class Tag(Event):
    """An event that only carries a name (what the queue orders is its keys)."""

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def fire(self, now):
        raise AssertionError("not fired in these tests")


def _keys(n: int, seed: int) -> list:
    rng = random.Random(seed)
    # many ties in time and in order: insertion decides, as in the event core
    return [(rng.randrange(20), rng.randrange(5)) for _ in range(n)]


def test_pop_order_is_heapq_order_with_ties():
    keys = _keys(2000, 1)
    q, ref = EventQueue(), []
    for i, (t, o) in enumerate(keys):
        q.push(Tag(i), t, o)
        heapq.heappush(ref, (t, o, i))
    got = [(ev.time_ns, ev.order_ns, ev.name) for ev in (q.pop() for _ in range(len(keys)))]
    assert got == [heapq.heappop(ref) for _ in range(len(keys))]
    assert len(q) == 0 and q.next_time_ns() is None


def test_interleaved_push_pop_and_reuse_of_fired_events():
    rng = random.Random(7)
    q, ref = EventQueue(), []
    serial = 0
    spare = []  # events already popped: pushed again, as packets and timers are
    for step in range(5000):
        if ref and rng.random() < 0.45:
            t, o, s, name = heapq.heappop(ref)
            ev = q.pop()
            assert (ev.time_ns, ev.order_ns, ev.serial, ev.name) == (t, o, s, name)
            spare.append(ev)
        else:
            # times never go back below what was popped (a simulation's clock), big values too
            t, o = 10**12 + rng.randrange(50) + step // 10, rng.randrange(3)
            ev = spare.pop() if spare and rng.random() < 0.5 else Tag(step)
            q.push(ev, t, o)
            heapq.heappush(ref, (t, o, serial, ev.name))
            serial += 1
        assert q.next_time_ns() == (ref[0][0] if ref else None)


def test_pop_from_empty_queue_raises():
    with pytest.raises(IndexError):
        EventQueue().pop()


def test_schedule_calls_the_handler_with_its_arguments():
    q = EventQueue()
    calls = []
    q.schedule(5, 0, lambda now, a, b: calls.append((now, a, b)), "x", 2)
    ev = q.pop()
    assert isinstance(ev, Call)
    ev.fire(ev.time_ns)
    assert calls == [(5, "x", 2)]


def test_complete_raises_run_complete():
    q = EventQueue()
    with pytest.raises(RunComplete):
        q.complete()
    assert q.done


def test_an_event_without_fire_says_so():
    with pytest.raises(NotImplementedError, match="fire"):
        Event().fire(0)
