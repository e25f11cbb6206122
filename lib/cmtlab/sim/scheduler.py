"""Schedulers: which path (tunnel) or which subflow (MPTCP connection) carries the next packet.

Two interfaces live here, one per place a scheduler can sit:

* :class:`Scheduler` — *below* TCP, in Song et al.'s round-robin tunnel (Fig. 5): asked once
  per IP packet, :meth:`Scheduler.select` answers with a 0-based path index without seeing
  TCP state; the receiver's tunnel uses a second one for the ACKs
  (``ack_path="round_robin"``).  Implemented: :class:`RoundRobinScheduler` (Song sec. 3 and
  eq. 2: link ``((j - 1 + sum C_k) mod n) + 1`` for the j-th segment of round i, i.e. strict
  rotation over all packets, first packet on link 1) and :class:`FixedScheduler` (a single
  path: ``ack_path="first"`` or ``"fastest"``).
* :class:`ConnectionScheduler` — *above* the subflows of an MPTCP connection (RFC 8684
  sec. 3.3.8 leaves the policy open): asked by the connection whenever it has data-level
  segments (DSNs) to send, :meth:`ConnectionScheduler.select` sees every subflow's state
  and answers with the subflow that carries the next DSN, ``None`` (nothing can be sent
  now: ask again after the next ACK), or :class:`HoldUntil` (ask again at that time — the
  release time OSIA's chunk start offsets need, Wang et al. eq. 1).  Registered by name
  (:mod:`cmtlab.sim.registry`, kind ``"scheduler"``).

What a connection scheduler may read (the contract with :mod:`cmtlab.sim`'s MPTCP
connection; never write it):

``conn.subflows``
    the :class:`~cmtlab.sim.tcp.TcpSender` subflows, index = subflow number; each has
    ``cwnd``/``ssthresh``/``seg`` (bytes), ``srtt`` (ns, valid when ``n_rtt_samples > 0``),
    ``state``, ``in_flight()`` (bytes, RFC 6675 pipe), ``available_window()`` (bytes:
    ``min(cwnd, rwnd) - pipe``; a new segment goes out at once only when it is >= ``seg``),
    and ``path`` (its path's static description: ``rate_bps``, ``delay_s`` round trip).
``conn.next_dsn`` / ``conn.n_dsn``
    the next new data-level segment and the number of segments of the transfer (``None``
    for a duration-limited run).
``conn.make_rng(stream)``
    a seeded ``random.Random``-like generator, independent per ``stream`` number, for
    probabilistic schedulers (repeatable for a scenario's seed).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass


class Scheduler(ABC):
    """Chooses a path (0-based index) for each packet."""

    n_paths: int

    @abstractmethod
    def select(self, now: float, seq: int, retransmission: bool) -> int:
        """Path index for the packet carrying segment ``seq`` handed down at ``now`` (s)."""

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

    def select(self, now: float, seq: int, retransmission: bool) -> int:
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

    def select(self, now: float, seq: int, retransmission: bool) -> int:
        return self.path

    def first_path(self) -> int:
        return self.path

    def rotation(self):
        return ((self.path,), 0) if type(self).select is FixedScheduler.select else None


@dataclass(frozen=True)
class HoldUntil:
    """Answer of :meth:`ConnectionScheduler.select`: send nothing now, ask again at ``time_ns``."""

    time_ns: int


class ConnectionScheduler(ABC):
    """Chooses the subflow for each data-level segment of an MPTCP connection (see the module docstring).

    One instance per connection.  The connection calls :meth:`init` once before the first
    segment, then :meth:`select` in a loop while it has data to send, and :meth:`on_sent`
    after each assignment.  ``now_ns`` is the engine's integer-nanosecond clock.
    """

    name: str = "abstract"

    def init(self, conn) -> None:
        """Called once with the connection before the first data segment."""

    @abstractmethod
    def select(self, conn, now_ns: int):
        """The subflow index for the next DSN, ``None`` (wait for an ACK) or :class:`HoldUntil`."""

    def on_sent(self, conn, subflow: int, dsn: int, now_ns: int) -> None:
        """DSN ``dsn`` was handed to subflow ``subflow``."""
