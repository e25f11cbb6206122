"""A set of segment numbers held in a window: a receiver's out-of-order segments.

The members of a receiver's out-of-order buffer lie in a window above its cumulative ACK that
the sender's windows bound, so the set is a ring of flags indexed by ``k & mask`` over the span
``[lo, hi]`` that covers every member (``lo``/``hi`` tighten as the lowest or highest member
leaves, so the span follows the window); the ring doubles when a new member would not fit.
Every operation is O(1) but that growth (O(span)).
"""

from __future__ import annotations


def _pow2_at_least(n: int) -> int:
    """The smallest power of two >= ``n`` (the size of a ring indexed by ``k & mask``)."""
    p = 1
    while p < n:
        p <<= 1
    return p


class SegmentSet:
    """A set of non-negative integers (segment numbers) kept as a ring of flags (see the module docstring).

    ``count`` is the number of members; ``in``, ``len()`` and truth work as for a Python ``set``.
    """

    __slots__ = ("flags", "mask", "lo", "hi", "count")

    def __init__(self, capacity: int = 64):
        cap = _pow2_at_least(capacity)
        self.flags = bytearray(cap)
        self.mask = cap - 1
        self.lo = 0  # every member is in [lo, hi] (meaningless while count == 0)
        self.hi = -1
        self.count = 0

    def contains(self, k: int) -> bool:
        """``k`` is a member."""
        return self.count > 0 and self.lo <= k <= self.hi and self.flags[k & self.mask] != 0

    def add(self, k: int) -> None:
        """Add ``k`` (no effect if it is a member)."""
        if self.count == 0:
            self.lo = self.hi = k
        else:
            lo = self.lo if self.lo < k else k
            hi = self.hi if self.hi > k else k
            if hi - lo > self.mask:
                self._grow(hi - lo + 1)
            self.lo = lo
            self.hi = hi
        i = k & self.mask
        if not self.flags[i]:
            self.flags[i] = 1
            self.count += 1

    def discard(self, k: int) -> None:
        """Remove ``k`` if it is a member."""
        if not self.contains(k):
            return
        self.flags[k & self.mask] = 0
        self.count -= 1
        if k == self.lo:
            self.lo = k + 1
        if k == self.hi:
            self.hi = k - 1

    def release_run(self, k: int) -> int:
        """Remove the run of consecutive members starting at ``k``; the first number after it (not a member).

        A receiver's cumulative point passing what it held: ``rcv_nxt = ooo.release_run(rcv_nxt)``.
        """
        flags = self.flags
        mask = self.mask
        while self.count and self.lo <= k <= self.hi and flags[k & mask]:
            flags[k & mask] = 0
            self.count -= 1
            k += 1
            self.lo = k
        return k

    def lowest(self) -> int:
        """The lowest member (-1 if the set is empty)."""
        if not self.count:
            return -1
        k = self.lo
        while not self.flags[k & self.mask]:
            k += 1
        self.lo = k
        return k

    def _grow(self, span: int) -> None:
        """Double the ring until it holds ``span`` consecutive numbers, keeping the members."""
        members = [k for k in range(self.lo, self.hi + 1) if self.flags[k & self.mask]]
        cap = _pow2_at_least(span)
        self.flags = bytearray(cap)
        self.mask = cap - 1
        for k in members:
            self.flags[k & self.mask] = 1

    def __contains__(self, k) -> bool:
        return self.contains(k)

    def __len__(self) -> int:
        return self.count

    def __iter__(self):
        return iter([k for k in range(self.lo, self.hi + 1) if self.count and self.flags[k & self.mask]])

    def __repr__(self) -> str:
        return f"SegmentSet({sorted(self)})"


__all__ = ["SegmentSet"]
