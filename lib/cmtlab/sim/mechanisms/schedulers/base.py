"""The connection-level scheduler interface (MPTCP, RFC 8684 sec. 3.3.8 leaves the policy open).

* :class:`ConnectionScheduler` — *above* the subflows of an MPTCP connection (RFC 8684
  sec. 3.3.8 leaves the policy open): asked by the connection whenever it has data-level
  segments (DSNs) to send, :meth:`ConnectionScheduler.select` sees every subflow's state
  and answers with the subflow that carries the next DSN, ``None`` (nothing can be sent
  now: ask again after the next ACK), or :class:`HoldUntil` (ask again at that time — the
  release time OSIA's chunk start offsets need, Wang et al. eq. 1).  Registered by name
  (:mod:`cmtlab.sim.registry`, kind ``"scheduler"``).  Implemented: ``"round_robin"``,
  ``"lowest_rtt"``, ``"cwnd_aware"``, ``"flow_level"``, ``"edpf"`` (below) and ``"osia"``
  (:mod:`cmtlab.papers.osia.scheduler`).

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
``conn.data_ack_seen`` / ``conn.rcvbuf_segs`` / ``conn.seg``
    the last DATA_ACK seen by the sender, the receiver's connection-level buffer (segments) and the
    segment size (bytes): the connection-level window is ``[data_ack_seen, data_ack_seen + rcvbuf_segs)``.
``conn.make_rng(stream)``
    a seeded ``random.Random``-like generator, independent per ``stream`` number, for
    probabilistic schedulers (repeatable for a scenario's seed).

The attributes are declared by :class:`SchedulerView`, the base class of the simulator's
connection: compiled, a compiled scheduler reads them as C fields (:func:`_subflows`).  Any
object with them works alike (tests use stubs).
"""

from __future__ import annotations

from dataclasses import dataclass

import cython

from ...tcp.scoreboard import Scoreboard


#: :meth:`ConnectionScheduler.select_index`: no subflow now (:meth:`ConnectionScheduler.select` answers ``None``).
NO_SUBFLOW = -1
#: :meth:`ConnectionScheduler.select_index`: no integer answer; the connection calls :meth:`~ConnectionScheduler.select`.
USE_SELECT = -3


class SchedulerView:
    """The attributes of an MPTCP connection a connection scheduler reads (the contract above), declared
    once: the base class of :class:`~cmtlab.sim.mptcp.MptcpConnection`, which sets them (no methods)."""

    __slots__ = ("subflows", "n_dsn", "next_dsn", "data_ack_seen", "rcvbuf_segs", "seg")


@dataclass(frozen=True)
class HoldUntil:
    """Answer of :meth:`ConnectionScheduler.select`: send nothing now, ask again at ``time_ns``."""

    time_ns: int


class ConnectionScheduler:
    """Chooses the subflow for each data-level segment of an MPTCP connection (see the module docstring).

    One instance per connection.  The connection calls :meth:`init` once before the first
    segment, then :meth:`select` in a loop while it has data to send, and :meth:`on_sent`
    after each assignment.  ``now_ns`` is the engine's integer-nanosecond clock.  A subclass
    implements :meth:`select` (the base raises ``NotImplementedError``).  This class and the
    round robin are compiled (:mod:`cmtlab.compiled`; ``base.pxd`` beside this file); a
    scheduler written in Python works alike.
    """

    name = "abstract"
    #: Segments of unsent data a subflow may be handed beyond what its window lets it send now
    #: (the connection keeps every subflow's send buffer one segment ahead).  ``0``: a DSN is
    #: given to a subflow only when it can send it at once — the Chihani–Collange model numbers
    #: the data sequence at transmission (``SendPendingData``).
    prefetch_segments = 1
    #: ``True``: a subflow the scheduler picks is handed the next data-sequence number even while it holds
    #: unsent data its window cannot send yet (it queues it, as a Linux subflow's write queue does); the
    #: scheduler bounds what a subflow holds (e.g. by its send buffer).  ``False``: a subflow that holds
    #: unsent data is blocked by its window and nothing more goes out now.
    subflow_send_queues = False

    def init(self, conn) -> None:
        """Called once with the connection before the first data segment."""

    def select(self, conn, now_ns: int):
        """The subflow index for the next DSN, ``None`` (wait for an ACK) or :class:`HoldUntil`."""
        raise NotImplementedError(f"{type(self).__name__} must implement select")

    def select_index(self, conn, now_ns: int) -> int:
        """:meth:`select`'s answer as an integer, for a scheduler that can give it without
        making Python objects (the connection asks this first, once per segment): the subflow
        index, :data:`NO_SUBFLOW` for ``None``, or :data:`USE_SELECT` — no integer answer, call
        :meth:`select` (the default; a :class:`HoldUntil` answer always goes through
        :meth:`select`).  A scheduler that implements it gives the same answer as its
        :meth:`select`, with the same effects."""
        return USE_SELECT

    def on_sent(self, conn, subflow: int, dsn: int, now_ns: int) -> None:
        """DSN ``dsn`` was handed to subflow ``subflow``."""


def _subflows(conn) -> list:
    """``conn.subflows`` (compiled: read in C from a :class:`SchedulerView`)."""
    if cython.compiled and isinstance(conn, SchedulerView):
        return cython.cast(SchedulerView, conn).subflows
    return conn.subflows


def _has_room(sub) -> bool:
    """A new segment can go out on ``sub`` now: ``available_window() >= seg`` (bytes)."""
    if cython.compiled and isinstance(sub, Scoreboard):  # a simulator's sender: C calls, no attribute lookups
        s = cython.cast(Scoreboard, sub)
        return s.available_window() >= s.seg
    return sub.available_window() >= sub.seg


__all__ = ["HoldUntil", "ConnectionScheduler", "SchedulerView", "NO_SUBFLOW", "USE_SELECT"]
