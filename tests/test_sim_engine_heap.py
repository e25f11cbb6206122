"""The event heap (cmtlab.sim.engine.heap): the same next event as heapq, whatever runs (compiled or Python)."""

from __future__ import annotations

import heapq
import random

from cmtlab.sim.engine import heap


def _events(n: int, seed: int) -> list:
    rng = random.Random(seed)
    # many ties in time and in order: the id decides, as in the event core
    return [(rng.randrange(20), rng.randrange(5), i, None, (i,)) for i in range(n)]


def test_pop_order_is_heapq_order_with_ties():
    events = _events(2000, 1)
    mine, ref = [], []
    for e in events:
        heap.heappush(mine, e)
        heapq.heappush(ref, e)
    assert [heap.heappop(mine) for _ in range(len(events))] == [heapq.heappop(ref) for _ in range(len(events))]
    assert mine == []


def test_interleaved_push_pop_and_heapq_compatible_list():
    rng = random.Random(7)
    mine, ref = [], []
    ids = 0
    for step in range(5000):
        if ref and rng.random() < 0.45:
            assert heap.heappop(mine) == heapq.heappop(ref)
        else:
            # times never go back below what was popped (a simulation's clock), big values too
            e = (10**12 + rng.randrange(50) + step // 10, rng.randrange(3), ids, None, ())
            ids += 1
            heap.heappush(mine, e)
            heapq.heappush(ref, e)
        if step % 500 == 0:
            # the list stays a heapq heap: code that pops it with heapq gets the same events
            copy = list(mine)
            assert [heapq.heappop(copy) for _ in range(len(copy))] == sorted(ref)


def test_pop_from_empty_heap_raises():
    try:
        heap.heappop([])
    except IndexError:
        return
    raise AssertionError("heappop([]) must raise IndexError, as heapq does")
