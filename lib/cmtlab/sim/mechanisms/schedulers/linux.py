"""Upstream Linux MPTCP's default packet scheduler (``mptcp_subflow_get_send``, net/mptcp/protocol.c,
Linux 6.18 — the testbed's running kernel is 6.18.44)."""

from __future__ import annotations

from ...registry import register
from ._paths import rtt_ns
from .base import ConnectionScheduler, HoldUntil, _has_room
from .linux_send_buffers import LinuxSendBuffers

#: Linux's ``MPTCP_SEND_BURST_SIZE``: 64 KiB minus the TCP header, the largest TCP option space,
#: an IPv6 header and an IPv6 fragment header (65536 - 20 - 40 - 40 - 8).
LINUX_SEND_BURST_BYTES = 65428
#: When a subflow other than the first can carry data (``join``): ``"at_start"`` — every subflow from the
#: first data segment on (what this scheduler did first); ``"mp_join"`` — as the in-kernel path manager
#: opens them: the additional subflows' MP_JOIN handshakes start once the first subflow is established, and a
#: joined subflow carries data one round trip of its own path later (RFC 8684 sec. 3.2).
JOINS = ("at_start", "mp_join")
#: When a picked subflow's send buffer is tested (``memory_check``): ``"segment"`` — before each segment of the
#: burst (what this scheduler did first); ``"burst"`` — when the scheduler picks it, then the burst goes to it
#: whole.
MEMORY_CHECKS = ("segment", "burst")


@register("scheduler", "linux")
class LinuxScheduler(ConnectionScheduler):
    """The rule of upstream Linux's ``mptcp_subflow_get_send`` (6.18), as it maps onto cmtlab.sim.

    Linux picks, among the active non-backup subflows, the one with the smallest *linger time*
    ``wmem_queued / avg_pacing_rate`` — the time to flush what the subflow already holds at its
    pacing rate (the kernel's comment calls it BLEST's idea in a simple form) — returns nothing if
    that subflow's send buffer is full, and then keeps sending on it for a *burst* of up to
    :data:`LINUX_SEND_BURST_BYTES` (less if the connection-level window is smaller) before asking
    again.  ``avg_pacing_rate`` starts at the socket's pacing rate and, at each pick, becomes the
    byte-weighted average ``(avg * wmem + pacing_rate * burst) / (burst + wmem)``.  The pacing rate is
    Linux's ``tcp_update_pacing_rate``: ``cwnd / SRTT`` times 2 in slow start (``cwnd < ssthresh / 2``
    in Linux: ``pacing_ss_ratio`` 200 %) and 1.2 otherwise (``pacing_ca_ratio`` 120 %), with the path's
    static round trip before the first RTT sample.  No backup subflows, no stale-subflow detection.
    Ties go to the lower index (the kernel's list order).

    ``send_buffers``: what a subflow's "send buffer full" is.

    * ``False`` (the default, the first mapping): a subflow holds no unsent data beyond its window, so
      ``wmem_queued`` is its bytes in flight (``in_flight()``) and "send buffer full" is "no room in the
      window" (:func:`~.base._has_room`) — where the kernel queues up to the send buffer on the picked
      subflow, this scheduler waits (``None``) and asks again on the next ACK.  While the subflow with the
      smallest linger time has a full window, no other subflow gets data: a subflow can idle behind it, then
      send its whole window at once;
    * ``True``: Linux's send buffers (:class:`~.linux_send_buffers.LinuxSendBuffers`): a subflow holds data
      beyond its window, queued on it, up to its autotuned send buffer (``sk_stream_memory_free``), its
      ``wmem_queued`` is everything it holds (sent and unsent, in socket memory), and no new data-sequence
      number goes out while the connection's send buffer — the sum of its subflows' — is full of data not
      yet DATA_ACKed (``mptcp_sendmsg`` waits for memory).  The connection lets a subflow hold unsent data
      (:attr:`subflow_send_queues`).

    ``join`` (:data:`JOINS`): when a subflow other than the first is active (``mptcp_subflow_active``: fully
    established).  With ``"mp_join"`` subflow ``i >= 1`` becomes active ``RTT_0 + RTT_i`` after the first data
    segment (its path's static round trips): measured on the testbed's kernel (``tcp_probe``), subflow ``i``'s
    first ACK arrives ``RTT_0 + 2 RTT_i`` after the first data segment on every traced run.  While a subflow is
    not active the scheduler answers :class:`~.base.HoldUntil` its joining time when nothing else can send.

    ``memory_check`` (:data:`MEMORY_CHECKS`, with ``send_buffers``): when the picked subflow's send buffer is
    tested.  Linux tests it once, in ``mptcp_subflow_get_send``; ``__subflow_push_pending`` then moves whole data
    fragments onto the subflow (``mptcp_sendmsg_frag`` charges the socket's memory without testing its send
    buffer) and tests ``sk_stream_memory_free`` only between fragments, which the testbed's sender writes up to
    64 KB long: on the testbed's kernel a pick moved 32 to 65 KB at once onto the picked subflow (``tracepoint
    mptcp:mptcp_sendmsg_frag``, ``data_len`` 32728 to 64080 bytes), beyond its buffer.  ``"burst"``: the burst
    (:data:`LINUX_SEND_BURST_BYTES`) goes to the picked subflow whole.  With ``"segment"`` the burst stopped at
    the buffer's edge: a subflow in slow start that had been picked once held too little to fill its next
    round, while the subflow with the smaller linger time and a full buffer held the scheduler at ``None``.
    """

    def __init__(self, burst_bytes: int = LINUX_SEND_BURST_BYTES, send_buffers: bool = False, join: str = "at_start",
                 memory_check: str = "segment"):
        if isinstance(burst_bytes, bool) or not isinstance(burst_bytes, int) or burst_bytes < 0:
            raise ValueError(f"burst_bytes must be an integer >= 0, got {burst_bytes!r}")
        if not isinstance(send_buffers, bool):
            raise ValueError(f"send_buffers must be True or False, got {send_buffers!r}")
        if join not in JOINS:
            raise ValueError(f"join must be one of {JOINS}, got {join!r}")
        if memory_check not in MEMORY_CHECKS:
            raise ValueError(f"memory_check must be one of {MEMORY_CHECKS}, got {memory_check!r}")
        if memory_check == "burst" and not send_buffers:
            raise ValueError("memory_check='burst' needs send_buffers=True (a subflow holding data beyond its window)")
        self.memory_check = memory_check
        self.burst_bytes = burst_bytes
        self.avg_rate = None  # per subflow, bytes/ns
        self.current = None
        self.burst_left = 0
        self.join = join
        self.buffers = LinuxSendBuffers() if send_buffers else None
        if send_buffers:
            #: the connection lets a subflow hold unsent data beyond its window (its send buffer bounds it here)
            self.subflow_send_queues = True
            self.prefetch_segments = 1 << 30

    @staticmethod
    def pacing_rate(sub) -> float:
        """Linux's ``sk_pacing_rate`` (bytes/ns) of a subflow: ratio * cwnd / SRTT."""
        rtt = rtt_ns(sub) or 1.0
        ratio = 2.0 if sub.cwnd < sub.ssthresh // 2 else 1.2
        return ratio * sub.cwnd / rtt

    def wmem_bytes(self, sub) -> float:
        """The subflow's ``sk_wmem_queued`` as this scheduler maps it (see the class docstring)."""
        return self.buffers.wmem_bytes(sub) if self.buffers is not None else sub.in_flight()

    def has_room(self, i: int, sub) -> bool:
        """``sk_stream_memory_free`` of subflow ``i`` as this scheduler maps it (see the class docstring)."""
        return self.buffers.subflow_has_room(i, sub) if self.buffers is not None else _has_room(sub)

    def linger_time_ns(self, i: int, sub) -> float:
        """``wmem_queued / avg_pacing_rate`` of subflow ``i`` (ns)."""
        if self.avg_rate is None or len(self.avg_rate) <= i:
            self.avg_rate = (self.avg_rate or []) + [None] * (i + 1 - len(self.avg_rate or []))
        if self.avg_rate[i] is None:
            self.avg_rate[i] = self.pacing_rate(sub)
        return self.wmem_bytes(sub) / self.avg_rate[i]

    def active_from_ns(self, conn, i: int):
        """When subflow ``i`` can carry data (ns after the first data segment; see ``join``), None: from the start."""
        if self.join == "at_start" or i == 0:
            return None
        subs = conn.subflows
        return int(round((subs[0].path.delay_s + subs[i].path.delay_s) * 1e9))

    def select(self, conn, now_ns: int):
        subs = conn.subflows
        if self.avg_rate is None or len(self.avg_rate) != len(subs):
            self.avg_rate = [None] * len(subs)
        if self.buffers is not None and not self.buffers.connection_has_room(conn):
            return None  # the application waits for memory: nothing new to schedule until a DATA_ACK
        if self.current is not None and self.burst_left > 0:  # the burst goes on while the subflow can send
            sub = subs[self.current]
            if self.memory_check == "burst" or self.has_room(self.current, sub):
                return self.current
        best, best_t = None, None
        joining = None
        for i, sub in enumerate(subs):
            start = self.active_from_ns(conn, i)
            if start is not None and now_ns < start:
                joining = start if joining is None or start < joining else joining
                continue
            t = self.linger_time_ns(i, sub)
            if best is None or t < best_t:
                best, best_t = i, t
        sub = subs[best]
        if not self.has_room(best, sub):
            self.current, self.burst_left = None, 0
            return HoldUntil(joining) if joining is not None else None
        window = (conn.data_ack_seen + conn.rcvbuf_segs - conn.next_dsn) * conn.seg
        burst = min(self.burst_bytes, max(window, 0))
        if burst:
            wmem = self.wmem_bytes(sub)
            self.avg_rate[best] = (self.avg_rate[best] * wmem + self.pacing_rate(sub) * burst) / (burst + wmem)
        self.current, self.burst_left = best, burst
        return best

    def on_sent(self, conn, subflow: int, dsn: int, now_ns: int) -> None:
        if subflow == self.current:
            self.burst_left -= conn.seg


__all__ = ["LinuxScheduler", "LINUX_SEND_BURST_BYTES", "JOINS", "MEMORY_CHECKS"]
