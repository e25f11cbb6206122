"""Schedulers *below* TCP: which path of Song et al.'s round-robin tunnel (Fig. 5) carries a packet.

Asked once per IP packet, :meth:`Scheduler.select` answers with a 0-based path index without
seeing TCP state; the receiver's tunnel uses a second one for the ACKs
(``ack_path="round_robin"``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod


class Scheduler(ABC):
    """Chooses a path (0-based index) for each packet."""

    n_paths: int

    @abstractmethod
    def select(self, now_ns: int, seq: int, retransmission: bool) -> int:
        """Path index for the packet carrying segment ``seq`` handed down at ``now_ns`` (integer ns)."""

    def reset(self) -> None:
        """Forget all state (start of a run)."""

    def first_path(self) -> int:
        """The path the connection set-up (SYN, SYN-ACK, handshake ACK) takes in this direction."""
        return 0

    def rotation(self):
        """``(paths, next_index)`` if every answer of :meth:`select` follows a strict rotation
        over ``paths`` starting at ``paths[next_index]`` — the engine may then inline it on its
        hot path — else ``None`` (the engine calls :meth:`select` for every packet)."""
        return None

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

    def select(self, now_ns: int, seq: int, retransmission: bool) -> int:
        i = self._next
        self._next = i + 1 if i + 1 < self.n_paths else 0
        return self.paths[i]

    def reset(self) -> None:
        self._next = 0

    def first_path(self) -> int:
        return self.paths[0]

    def rotation(self):
        # only this class's own select is a plain rotation (a subclass may answer otherwise)
        return (self.paths, self._next) if type(self).select is RoundRobinScheduler.select else None

class FixedScheduler(Scheduler):
    """Always the same path (``ack_path="first"`` or ``"fastest"``)."""

    __slots__ = ("path", "n_paths")

    def __init__(self, path: int):
        self.path = int(path)
        self.n_paths = 1

    def select(self, now_ns: int, seq: int, retransmission: bool) -> int:
        return self.path

    def first_path(self) -> int:
        return self.path

    def rotation(self):
        return ((self.path,), 0) if type(self).select is FixedScheduler.select else None


__all__ = ["Scheduler", "RoundRobinScheduler", "FixedScheduler"]
