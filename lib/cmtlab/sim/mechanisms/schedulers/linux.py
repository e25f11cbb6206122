"""Upstream Linux MPTCP's default packet scheduler (``mptcp_subflow_get_send``, net/mptcp/protocol.c,
Linux 6.18 — the testbed's running kernel is 6.18.44)."""

from __future__ import annotations

from ...registry import register
from ._paths import rtt_ns
from .base import ConnectionScheduler, _has_room

#: Linux's ``MPTCP_SEND_BURST_SIZE``: 64 KiB minus the TCP header, the largest TCP option space,
#: an IPv6 header and an IPv6 fragment header (65536 - 20 - 40 - 40 - 8).
LINUX_SEND_BURST_BYTES = 65428


@register("scheduler", "linux")
class LinuxScheduler(ConnectionScheduler):
    """The rule of upstream Linux's ``mptcp_subflow_get_send`` (6.18), as it maps onto cmtlab.sim.

    Linux picks, among the active non-backup subflows, the one with the smallest *linger time*
    ``wmem_queued / avg_pacing_rate`` — the time to flush what the subflow already holds at its
    pacing rate (the kernel's comment calls it BLEST's idea in a simple form) — returns nothing if
    that subflow's send buffer is full, and then keeps sending on it for a *burst* of up to
    :data:`LINUX_SEND_BURST_BYTES` (less if the connection-level window is smaller) before asking
    again.  ``avg_pacing_rate`` starts at the socket's pacing rate and, at each pick, becomes the
    byte-weighted average ``(avg * wmem + pacing_rate * burst) / (burst + wmem)``.

    Mapping (stated choices): a cmtlab subflow holds no unsent data beyond its window, so
    ``wmem_queued`` is its bytes in flight (``in_flight()``) and "send buffer full" is "no room in the
    window" (:func:`~.base._has_room`) — where the kernel queues up to the send buffer on the picked
    subflow, this scheduler waits (``None``) and asks again on the next ACK;  the pacing rate is
    Linux's ``tcp_update_pacing_rate``: ``cwnd / SRTT`` times 2 in slow start (``cwnd < ssthresh / 2``
    in Linux: ``pacing_ss_ratio`` 200 %) and 1.2 otherwise (``pacing_ca_ratio`` 120 %), with the path's
    static round trip before the first RTT sample.  No backup subflows, no stale-subflow detection.
    Ties go to the lower index (the kernel's list order).
    """

    def __init__(self, burst_bytes: int = LINUX_SEND_BURST_BYTES):
        if isinstance(burst_bytes, bool) or not isinstance(burst_bytes, int) or burst_bytes < 0:
            raise ValueError(f"burst_bytes must be an integer >= 0, got {burst_bytes!r}")
        self.burst_bytes = burst_bytes
        self.avg_rate = None  # per subflow, bytes/ns
        self.current = None
        self.burst_left = 0

    @staticmethod
    def pacing_rate(sub) -> float:
        """Linux's ``sk_pacing_rate`` (bytes/ns) of a subflow: ratio * cwnd / SRTT."""
        rtt = rtt_ns(sub) or 1.0
        ratio = 2.0 if sub.cwnd < sub.ssthresh // 2 else 1.2
        return ratio * sub.cwnd / rtt

    def linger_time_ns(self, i: int, sub) -> float:
        """``wmem_queued / avg_pacing_rate`` of subflow ``i`` (ns)."""
        if self.avg_rate is None or len(self.avg_rate) <= i:
            self.avg_rate = (self.avg_rate or []) + [None] * (i + 1 - len(self.avg_rate or []))
        if self.avg_rate[i] is None:
            self.avg_rate[i] = self.pacing_rate(sub)
        return sub.in_flight() / self.avg_rate[i]

    def select(self, conn, now_ns: int):
        subs = conn.subflows
        if self.avg_rate is None or len(self.avg_rate) != len(subs):
            self.avg_rate = [None] * len(subs)
        if self.current is not None and self.burst_left > 0:  # the burst goes on while the subflow can send
            sub = subs[self.current]
            if _has_room(sub):
                return self.current
        best, best_t = None, None
        for i, sub in enumerate(subs):
            t = self.linger_time_ns(i, sub)
            if best is None or t < best_t:
                best, best_t = i, t
        sub = subs[best]
        if not _has_room(sub):
            self.current, self.burst_left = None, 0
            return None
        window = (conn.data_ack_seen + conn.rcvbuf_segs - conn.next_dsn) * conn.seg
        burst = min(self.burst_bytes, max(window, 0))
        if burst:
            wmem = sub.in_flight()
            self.avg_rate[best] = (self.avg_rate[best] * wmem + self.pacing_rate(sub) * burst) / (burst + wmem)
        self.current, self.burst_left = best, burst
        return best

    def on_sent(self, conn, subflow: int, dsn: int, now_ns: int) -> None:
        if subflow == self.current:
            self.burst_left -= conn.seg


__all__ = ["LinuxScheduler", "LINUX_SEND_BURST_BYTES"]
