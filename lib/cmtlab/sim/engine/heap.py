# cython: boundscheck=False, wraparound=False
"""The event heap's two operations, ordered as the event core orders events.

An event is the tuple ``(time_ns, order_ns, id, handler, args)`` (:mod:`cmtlab.sim.engine.events`);
``id`` is unique, so ``(time_ns, order_ns, id)`` orders any two events and the heap always
yields the same next event, whatever its internal layout.  As Python these are
``heapq.heappush`` and ``heapq.heappop`` (tuples compared item by item).  Compiled
(:mod:`cmtlab.compiled`), the same binary heap is kept with the three keys compared as 64-bit
integers (``heap.pxd``) instead of through Python's tuple and integer comparisons — the
comparisons were an eighth of an Alheid run.  The list stays a valid ``heapq`` heap either
way.
"""

from __future__ import annotations

try:
    import cython
    COMPILED = bool(cython.compiled)
except ImportError:  # no Cython: these sources run as Python
    COMPILED = False


def _before(a: tuple, b: tuple) -> bool:
    """Event ``a`` comes before event ``b``: by time, then order, then id (the tuples' order)."""
    ta = a[0]
    tb = b[0]
    if ta != tb:
        return ta < tb
    oa = a[1]
    ob = b[1]
    if oa != ob:
        return oa < ob
    ia = a[2]
    ib = b[2]
    return ia < ib


def _sift_up(heap: list, pos: int, event: tuple) -> None:
    """Put ``event`` at ``pos`` or above it: every later event on its way to the top moves down one level."""
    while pos > 0:
        parent = (pos - 1) >> 1
        above = heap[parent]
        if not _before(event, above):
            break
        heap[pos] = above
        pos = parent
    heap[pos] = event


def heappush(heap: list, event: tuple) -> None:
    """Add ``event`` to ``heap`` (as ``heapq.heappush``)."""
    heap.append(event)
    _sift_up(heap, len(heap) - 1, event)


def heappop(heap: list) -> tuple:
    """Remove and return the first event of ``heap`` (as ``heapq.heappop``: the hole left at the
    top goes down to a leaf along the earlier children, then the last event fills it from there)."""
    last = heap.pop()
    n = len(heap)
    if n == 0:
        return last
    first = heap[0]
    pos = 0
    child = 1
    while child < n:
        right = child + 1
        if right < n and not _before(heap[child], heap[right]):
            child = right
        heap[pos] = heap[child]
        pos = child
        child = 2 * pos + 1
    _sift_up(heap, pos, last)
    return first


if not COMPILED:
    # as Python, the standard library's C implementation of the same operations is faster
    from heapq import heappop, heappush  # noqa: F811


__all__ = ["heappush", "heappop", "COMPILED"]
