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
  (:mod:`cmtlab.sim.registry`, kind ``"scheduler"``).  Implemented: ``"round_robin"``,
  ``"lowest_rtt"``, ``"cwnd_aware"``, ``"flow_level"``, ``"edpf"`` (below) and ``"osia"``
  (:mod:`cmtlab.sim.osia_scheduler`).

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


# ---------------------------------------------------------------------------------------------
# Connection-level schedulers (registered by name, kind "scheduler")
# ---------------------------------------------------------------------------------------------

def _has_room(sub) -> bool:
    """A new segment can go out on ``sub`` now: ``available_window() >= seg`` (bytes)."""
    return sub.available_window() >= sub.seg


def _register(name):
    from .registry import register

    return register("scheduler", name)


@_register("round_robin")
class RoundRobinConnectionScheduler(ConnectionScheduler):
    """Round robin over subflows, as the papers' ns-3 model schedules (Chihani–Collange code).

    The next subflow in turn after the one that carried the previous DSN, skipping subflows
    whose window has no room for a segment; one segment per turn.  ``None`` when no subflow has
    room.  The first DSN goes to subflow 0 (if it has room).
    """

    def __init__(self):
        self._next = 0

    def init(self, conn) -> None:
        self._next = 0

    def select(self, conn, now_ns: int):
        subs = conn.subflows
        n = len(subs)
        i = self._next
        for _ in range(n):
            s = subs[i]
            if s.available_window() >= s.seg:  # _has_room, inlined (called for every segment)
                return i
            i += 1
            if i == n:
                i = 0
        return None

    def on_sent(self, conn, subflow: int, dsn: int, now_ns: int) -> None:
        self._next = (subflow + 1) % len(conn.subflows)


@_register("lowest_rtt")
class LowestRttScheduler(ConnectionScheduler):
    """Lowest RTT first, the multipath-tcp.org kernel's default scheduler (``mptcp_sched.c``).

    Among the subflows with room in their window, the one with the smallest smoothed RTT.
    A subflow without an RTT sample yet (``n_rtt_samples == 0``) counts as RTT 0 — it is
    chosen first, as the kernel's ``srtt_us = 0`` makes it — and ties go to the lower
    index.  ``None`` when no subflow has room.

    Like ``round_robin`` and ``edpf`` it only picks among subflows with room, so with a bulk
    sender whose windows bind — an ACK opens room on one subflow, which is refilled at once —
    nearly every decision has a single candidate and the three make the same run (counted by
    :func:`cmtlab.osia.experiments.decision_profile`; the OSIA Figs. 7–9 chapter).
    """

    def select(self, conn, now_ns: int):
        best, best_rtt = None, None
        for i, sub in enumerate(conn.subflows):
            if not _has_room(sub):
                continue
            rtt = sub.srtt if getattr(sub, "n_rtt_samples", 0) > 0 else 0
            if best is None or rtt < best_rtt:
                best, best_rtt = i, rtt
        return best


@_register("cwnd_aware")
class CwndAwareScheduler(ConnectionScheduler):
    """CWND-aware probabilistic scheduling, OSIA's baseline (Wang et al. sec. 5.1, after Saadawi & Lee).

    Each DSN is given to subflow ``i`` with probability ``P(i) = cwnd_i / sum_j cwnd_j`` (windows
    read when the DSN's draw is made), drawn from ``conn.make_rng(stream)``.  When the drawn
    subflow has no room the answer is ``None`` and the same draw stands until it has
    (``when_full="wait"``, the default: the per-packet probabilities stay exactly ``P(i)``), or
    the draw is repeated among the subflows with room (``when_full="redraw"``; ``None`` when
    none has room).
    """

    WHEN_FULL = ("wait", "redraw")

    def __init__(self, stream: int = 5000, when_full: str = "wait"):
        from .._validate import check_choice, check_int

        self.stream = check_int("stream", stream, minimum=0)
        self.when_full = check_choice("when_full", when_full, self.WHEN_FULL)
        self._rng = None
        self._pending = None

    def init(self, conn) -> None:
        self._rng = conn.make_rng(self.stream)
        self._pending = None

    def _draw(self, subs, candidates):
        total = float(sum(subs[i].cwnd for i in candidates))
        if total <= 0:
            return candidates[0]
        u = self._rng.random() * total
        acc = 0.0
        for i in candidates:
            acc += subs[i].cwnd
            if u < acc:
                return i
        return candidates[-1]

    def select(self, conn, now_ns: int):
        if self._rng is None:
            self.init(conn)
        subs = conn.subflows
        if self.when_full == "redraw":
            room = [i for i, s in enumerate(subs) if _has_room(s)]
            return self._draw(subs, room) if room else None
        if self._pending is None:
            self._pending = self._draw(subs, list(range(len(subs))))
        return self._pending if _has_room(subs[self._pending]) else None

    def on_sent(self, conn, subflow: int, dsn: int, now_ns: int) -> None:
        self._pending = None


@_register("flow_level")
class FlowLevelScheduler(ConnectionScheduler):
    """Flow-level splitting by bandwidth, OSIA's baseline (Wang et al. sec. 5.1).

    The paper says only that it "stripes the flow adaptively based on the path bandwidth" with
    a scheduling period of 1 s, and (sec. 1) that flow-level splitting "pins each flow to a
    specific path" — no packet-level interleaving.  Our reading: every period the data of the
    period (``sum_i b_i * period / (8 seg)`` segments, at most what is left of the transfer) is
    cut into **contiguous** DSN blocks, one per subflow in index order, sized in proportion
    to the subflows' rates ``b_i`` (largest-remainder rounding); DSN ``k`` of the period goes to
    the subflow whose block holds it.  ``None`` while that subflow has no room (the split does not
    divert).  The connection hands out DSNs in order, so the blocks go out one after the other,
    not side by side: a subflow idles while the blocks before its own are sent.  A new plan (rates
    read again) starts when the blocks are used up — not when the clock passes the period:
    restarting at a period boundary would hand the first subflow's block out again and starve
    the later ones whenever the first cannot send its share within the period (seen end to end:
    99 % on the fast path).  ``rate_source``:
    ``"path"`` — the static ``sub.path.rate_bps``; ``"cwnd"`` — ``cwnd / srtt`` (the path rate
    until the subflow has an RTT sample).
    """

    RATE_SOURCES = ("path", "cwnd")

    def __init__(self, period_s: float = 1.0, rate_source: str = "path"):
        from .._validate import check_choice, check_positive

        self.period_ns = int(round(check_positive("period_s", period_s) * 1e9))
        self.rate_source = check_choice("rate_source", rate_source, self.RATE_SOURCES)
        self.blocks = []
        self._k = 0
        self._period_end_ns = -1
        self.n_plans = 0

    def init(self, conn) -> None:
        self.blocks = []
        self._k = 0
        self._period_end_ns = -1
        self.n_plans = 0

    def _rate_bps(self, sub) -> float:
        if self.rate_source == "cwnd" and getattr(sub, "n_rtt_samples", 0) > 0 and sub.srtt > 0:
            return 8.0 * sub.cwnd / (sub.srtt / 1e9)
        return float(sub.path.rate_bps)

    def _replan(self, conn, now_ns: int) -> None:
        subs = conn.subflows
        rates = [self._rate_bps(s) for s in subs]
        seg = subs[0].seg
        n = int(sum(rates) * self.period_ns / 1e9 // (8 * seg))
        if getattr(conn, "n_dsn", None) is not None:
            n = min(n, conn.n_dsn - conn.next_dsn)
        n = max(n, 1)
        total = sum(rates)
        exact = [n * r / total for r in rates]
        q = [int(x) for x in exact]
        for i in sorted(range(len(q)), key=lambda i: -(exact[i] - q[i]))[: n - sum(q)]:
            q[i] += 1
        self.blocks = [i for i, c in enumerate(q) for _ in range(c)]
        self._k = 0
        self._period_end_ns = now_ns + self.period_ns
        self.n_plans += 1

    def select(self, conn, now_ns: int):
        if self._k >= len(self.blocks):
            self._replan(conn, now_ns)
        i = self.blocks[self._k]
        return i if _has_room(conn.subflows[i]) else None

    def on_sent(self, conn, subflow: int, dsn: int, now_ns: int) -> None:
        self._k += 1


@_register("edpf")
class EdpfScheduler(ConnectionScheduler):
    """Earliest Delivery Path First (Chebrolu & Rao, IEEE TMC 2006, sec. 4).

    For each subflow with room, the estimated arrival time of the next segment at the receiver::

        A_i = max(now, busy_i) + 8 seg / b_i + d_i

    ``busy_i`` the time the path's bottleneck finishes the segments this scheduler already
    handed to it (its own estimate: each takes ``8 seg / b_i``, the queue backlog over the rate),
    ``b_i = sub.path.rate_bps``, ``d_i`` the one-way delay: half the path's round trip
    (``delay_source="path"``) or half the smoothed RTT once measured (``"srtt"``).  The segment
    goes to the smallest ``A_i`` (ties: lower index).  Only subflows with room compete (EDPF
    picks a path, it never holds); ``None`` when none has room.  So where windows bind it
    decides like ``round_robin`` and ``lowest_rtt`` (see :class:`LowestRttScheduler`).
    """

    DELAY_SOURCES = ("path", "srtt")

    def __init__(self, delay_source: str = "path"):
        from .._validate import check_choice

        self.delay_source = check_choice("delay_source", delay_source, self.DELAY_SOURCES)
        self._busy_ns = {}

    def init(self, conn) -> None:
        self._busy_ns = {}

    def _one_way_ns(self, sub) -> float:
        if self.delay_source == "srtt" and getattr(sub, "n_rtt_samples", 0) > 0:
            return sub.srtt / 2.0
        return float(sub.path.delay_s) * 1e9 / 2.0

    def arrival_ns(self, sub, i: int, now_ns: int) -> float:
        """``A_i`` above, in ns."""
        tx = 8.0 * sub.seg / float(sub.path.rate_bps) * 1e9
        return max(now_ns, self._busy_ns.get(i, 0)) + tx + self._one_way_ns(sub)

    def select(self, conn, now_ns: int):
        best, best_a = None, None
        for i, sub in enumerate(conn.subflows):
            if not _has_room(sub):
                continue
            a = self.arrival_ns(sub, i, now_ns)
            if best is None or a < best_a:
                best, best_a = i, a
        return best

    def on_sent(self, conn, subflow: int, dsn: int, now_ns: int) -> None:
        sub = conn.subflows[subflow]
        tx = 8.0 * sub.seg / float(sub.path.rate_bps) * 1e9
        self._busy_ns[subflow] = max(now_ns, self._busy_ns.get(subflow, 0)) + tx
