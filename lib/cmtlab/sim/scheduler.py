"""Schedulers: which path carries the next packet.

Interface
---------
A :class:`Scheduler` is asked once per packet, :meth:`Scheduler.select`, and answers
with a 0-based path index.  In Song et al.'s topology (Fig. 5) the scheduler sits in the
round-robin tunnel *below* TCP and chooses a link for every IP packet, original or
retransmission, without seeing TCP state; the receiver's tunnel uses a second scheduler
for the ACKs (``ack_path="round_robin"``).  In MPTCP (RFC 6824/8684) the same interface is
the connection-level scheduler that maps each data segment to a subflow; schedulers that
need state (the Linux min-RTT scheduler, CWND-aware, OSIA's bandwidth-proportional
probabilistic assignment, Wang et al. sec. 3.4) read it from the ``context`` they are
given at construction, and schedulers that must *hold* a packet back (OSIA's chunk start
offsets ``ST_i = d_N - d_i``, eq. 1) will extend the interface with a release time.

Implemented: :class:`RoundRobinScheduler` (Song sec. 3 and eq. 2: link
``((j - 1 + sum C_k) mod n) + 1`` for the j-th segment of round i, i.e. strict
rotation over all packets, first packet on link 1) and :class:`FixedScheduler` (a single
path: ``ack_path="first"`` or ``"fastest"``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod


class Scheduler(ABC):
    """Chooses a path (0-based index) for each packet."""

    n_paths: int

    @abstractmethod
    def select(self, now: float, seq: int, retransmission: bool) -> int:
        """Path index for the packet carrying segment ``seq`` handed down at ``now`` (s)."""

    def reset(self) -> None:
        """Forget all state (start of a run)."""


class RoundRobinScheduler(Scheduler):
    """Strict rotation over ``paths`` (Song sec. 3, eq. 2), starting with ``paths[0]``.

    Every packet — new data or retransmission — takes the next path in turn, as the
    virtual network device of Song Fig. 5 does: it sees IP packets, not TCP segments.
    """

    __slots__ = ("paths", "n_paths", "_next")

    def __init__(self, paths):
        paths = tuple(int(p) for p in paths)
        if not paths:
            raise ValueError("paths must name at least one path index")
        self.paths = paths
        self.n_paths = len(paths)
        self._next = 0

    def select(self, now: float, seq: int, retransmission: bool) -> int:
        i = self._next
        self._next = i + 1 if i + 1 < self.n_paths else 0
        return self.paths[i]

    def reset(self) -> None:
        self._next = 0


class FixedScheduler(Scheduler):
    """Always the same path (``ack_path="first"`` or ``"fastest"``)."""

    __slots__ = ("path", "n_paths")

    def __init__(self, path: int):
        self.path = int(path)
        self.n_paths = 1

    def select(self, now: float, seq: int, retransmission: bool) -> int:
        return self.path
