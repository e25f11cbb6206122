"""Linux's send buffers of an MPTCP connection: one per subflow, autotuned, and the connection's, their sum.

Linux (6.x) does not hand a subflow only what its congestion window can send now: the MPTCP scheduler
(``mptcp_subflow_get_send``, :class:`~cmtlab.sim.mechanisms.schedulers.linux.LinuxScheduler`) pushes data
into a subflow's write queue as long as the subflow's socket has send-buffer memory
(``sk_stream_memory_free``: ``sk_wmem_queued < sk_sndbuf``), and the application's data waits in the
connection's queue as long as that has memory (``mptcp_sendmsg``: the connection's ``sk_wmem_queued``,
everything written and not yet DATA_ACKed, below its ``sk_sndbuf``).  What the kernel does with them:

* a subflow's buffer starts at ``tcp_wmem[1]`` and is expanded (``tcp_init_buffer_space`` then
  ``tcp_new_space`` -> ``tcp_sndbuf_expand``, ``net/ipv4/tcp_input.c``) to
  ``2 * per_mss * max(TCP_INIT_CWND, cwnd, reordering + 1)``, capped at ``tcp_wmem[2]``; it never shrinks.
  ``per_mss`` is ``roundup_pow_of_two(mss + MAX_TCP_HEADER + sizeof(skb_shared_info)) + sizeof(sk_buff)``:
  2304 bytes on the testbed's kernel (6.18; ``ss -m`` shows ``tb46080`` = 2 x 10 x 2304 on a new subflow);
* the connection's buffer is ``tcp_wmem[0]`` plus the sum of its subflows' (``__mptcp_sync_sndbuf``,
  ``net/mptcp/protocol.h``), so data held back by one subflow's losses (written, sent on the fast subflow,
  not yet DATA_ACKed because a segment of the slow one is missing) uses the memory the fast one needs;
* a subflow's memory counts its skbs' ``truesize``, more than the payload: ``wmem_per_byte`` (``ss -m``'s
  ``w`` over ``Send-Q`` on the testbed: 1.13 to 1.24, median of four traced runs, 1.2); the connection's
  counts its data fragments (``mptcp_sendmsg``: the payload, plus one ``struct mptcp_data_frag`` per page
  fragment of up to 32 KiB), the payload to within 0.2 % (``connection_wmem_per_byte`` 1.0).

:class:`LinuxSendBuffers` models that in segments of payload: a subflow's buffer follows the largest window
it has had (``tcp_sndbuf_expand`` runs on the ACKs that free memory: measured on the testbed, the final
``tb`` of five of six subflows is ``2 x 2304 x`` their largest ``cwnd``); a subflow may hold (in flight and
queued) while ``held * wmem_per_byte < sndbuf``; the connection may hand out a new data-sequence number while
what it holds beyond the last DATA_ACK, times ``connection_wmem_per_byte``, is below ``tcp_wmem[0]`` plus the
sum.
When the buffer grows (``expand``, :data:`EXPANDS`): ``"largest_window"`` (the default, the first model) — a
subflow's buffer follows the largest window it has had, whenever it is read; ``"not_cwnd_limited"`` — as
``tcp_should_expand_sndbuf`` lets it: ``tcp_check_space`` runs after an ACK's transmissions and expands the buffer
only if the window was not filled by them ("If we filled the congestion window, do not expand"), so a subflow that
holds unsent data, whose window its queue keeps full, keeps the buffer it had, and its buffer catches up with its
window only when the subflow has sent everything it held with room left in its window.  On the testbed's kernel
(``ss -m`` every 20 ms, ``mptcp cubic Arabi s2 5M/200ms + 2M/20ms + 7M/100ms``, an unrecorded probe of issue 37,
stop 51) the 2-Mbit/s subflow's buffer stayed at 142848 bytes (2 x 2304 x 31) from 0.88 s to 1.64 s while its
window grew from 31 to 38 segments, the 7-Mbit/s one's at 364032 (79 segments) while its window grew from 79 to 91,
and the connection's at 1317376 bytes while every window grew; the first model had expanded each at once.
The memory-pressure conditions of ``tcp_should_expand_sndbuf``, ``SOCK_NOSPACE`` (``tcp_check_space`` expands only a
socket a writer found full) and ``tp->reordering`` are not modelled.
"""

from __future__ import annotations

import math

#: ``tcp_sndbuf_expand``'s memory per segment on the testbed's kernel (bytes; see the module docstring).
PER_MSS_BYTES = 2304
#: Socket memory per payload byte of queued data (``ss -m``: ``w`` / ``Send-Q``, testbed median).
WMEM_PER_BYTE = 1.2
#: The connection's memory per payload byte (its data fragments: the payload and a small header per page).
CONNECTION_WMEM_PER_BYTE = 1.0
#: ``net.ipv4.tcp_wmem`` (bytes): minimum, initial, maximum (the kernel's defaults, those of the testbed).
TCP_WMEM = (4096, 16384, 4 * 1024 * 1024)
#: ``TCP_INIT_CWND`` (segments).
INIT_CWND_SEGMENTS = 10
#: When a subflow's buffer grows (:class:`LinuxSendBuffers`'s ``expand``; the module docstring).
EXPANDS = ("largest_window", "not_cwnd_limited")


class LinuxSendBuffers:
    """The send buffers of one MPTCP connection's subflows and of the connection (see the module docstring).

    ``per_mss_bytes``, ``wmem_per_byte``, ``connection_wmem_per_byte``, ``tcp_wmem`` (a triple),
    ``init_cwnd_segments``: the kernel's values (defaults: the testbed's); ``expand`` (:data:`EXPANDS`): when a
    subflow's buffer grows.  :meth:`sndbuf_bytes` is a subflow's buffer now (it grows with the subflow's
    window), :meth:`subflow_has_room` whether the subflow may take one more segment, :meth:`wmem_bytes` what it
    holds in socket memory (the scheduler's ``sk_wmem_queued``), :meth:`connection_has_room` whether the
    connection may hand out one more data-sequence number.
    """

    def __init__(self, per_mss_bytes: int = PER_MSS_BYTES, wmem_per_byte: float = WMEM_PER_BYTE,
                 tcp_wmem: tuple = TCP_WMEM, init_cwnd_segments: int = INIT_CWND_SEGMENTS,
                 connection_wmem_per_byte: float = CONNECTION_WMEM_PER_BYTE, expand: str = "largest_window"):
        if expand not in EXPANDS:
            raise ValueError(f"expand must be one of {EXPANDS}, got {expand!r}")
        self.expand = expand
        for name, v in (("per_mss_bytes", per_mss_bytes), ("init_cwnd_segments", init_cwnd_segments)):
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise ValueError(f"{name} must be an integer >= 1, got {v!r}")
        for name, v in (("wmem_per_byte", wmem_per_byte), ("connection_wmem_per_byte", connection_wmem_per_byte)):
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or not 1.0 <= v <= 10.0:
                raise ValueError(f"{name} must be a number in [1, 10] (socket memory per payload byte), got {v!r}")
        if (not isinstance(tcp_wmem, (tuple, list)) or len(tcp_wmem) != 3
                or any(isinstance(v, bool) or not isinstance(v, int) or v < 1 for v in tcp_wmem)
                or not tcp_wmem[0] <= tcp_wmem[1] <= tcp_wmem[2]):
            raise ValueError(f"tcp_wmem must be three integers min <= default <= max (bytes), got {tcp_wmem!r}")
        self.per_mss_bytes = per_mss_bytes
        self.wmem_per_byte = float(wmem_per_byte)
        self.connection_wmem_per_byte = float(connection_wmem_per_byte)
        self.tcp_wmem = tuple(tcp_wmem)
        self.init_cwnd_segments = init_cwnd_segments
        self._sndbuf: list = []  # per subflow (bytes)

    def _expanded(self, sub) -> int:
        """``tcp_sndbuf_expand`` for the subflow's window now (bytes, capped at ``tcp_wmem[2]``)."""
        segs = max(self.init_cwnd_segments, sub.cwnd // sub.seg)
        return min(2 * self.per_mss_bytes * segs, self.tcp_wmem[2])

    def sndbuf_bytes(self, i: int, sub) -> int:
        """Subflow ``i``'s send buffer (bytes): the largest expansion of its window so far — with
        ``expand="not_cwnd_limited"`` only of windows it had when it held no unsent data and had room in its window
        (``tcp_should_expand_sndbuf``); ``tcp_init_buffer_space``'s ``TCP_INIT_CWND`` expansion from the start."""
        buf = self._sndbuf
        while len(buf) <= i:
            buf.append(0)
        if buf[i] == 0:  # tcp_init_buffer_space: tcp_sndbuf_expand at the handshake's end
            buf[i] = min(2 * self.per_mss_bytes * self.init_cwnd_segments, self.tcp_wmem[2])
        if self.expand == "largest_window" or (sub.app_tail <= sub.high and sub.in_flight() < sub.cwnd):
            b = self._expanded(sub)
            if b > buf[i]:
                buf[i] = b
        return buf[i]

    def wmem_bytes(self, sub) -> float:
        """Socket memory of what subflow ``sub`` holds: its data not cumulatively acknowledged, sent or not."""
        return (sub.app_tail - sub.una) * sub.seg * self.wmem_per_byte

    def subflow_has_room(self, i: int, sub) -> bool:
        """``sk_stream_memory_free`` of subflow ``i``: what it holds is below its send buffer."""
        return self.wmem_bytes(sub) < self.sndbuf_bytes(i, sub)

    def connection_has_room(self, conn) -> bool:
        """The connection's ``sk_wmem_queued < sk_sndbuf``: the data beyond the last DATA_ACK it holds is below
        ``tcp_wmem[0]`` plus its subflows' send buffers."""
        return self.connection_wmem_bytes(conn) < self.connection_sndbuf_bytes(conn)

    def connection_sndbuf_bytes(self, conn) -> int:
        """The connection's ``sk_sndbuf``: ``tcp_wmem[0]`` plus its subflows' send buffers."""
        return self.tcp_wmem[0] + sum(self.sndbuf_bytes(i, s) for i, s in enumerate(conn.subflows))

    def connection_wmem_bytes(self, conn) -> float:
        """The connection's ``sk_wmem_queued``: the data it holds beyond the last DATA_ACK, in socket memory."""
        return (conn.next_dsn - conn.data_ack_seen) * conn.seg * self.connection_wmem_per_byte

    @staticmethod
    def writeable(held_bytes: float, sndbuf_bytes: float) -> bool:
        """``__sk_stream_is_writeable`` of a socket holding ``held_bytes`` of socket memory in a ``sndbuf_bytes``
        buffer: memory free (``held < sndbuf``) and the free space at least half of what it holds
        (``sk_stream_wspace >= sk_stream_min_wspace``), i.e. a third of the buffer free — when ``poll`` reports
        ``EPOLLOUT`` and ``sk_stream_write_space`` wakes a writer."""
        return held_bytes < sndbuf_bytes and sndbuf_bytes - held_bytes >= held_bytes / 2


__all__ = ["LinuxSendBuffers", "PER_MSS_BYTES", "WMEM_PER_BYTE", "CONNECTION_WMEM_PER_BYTE", "TCP_WMEM",
           "INIT_CWND_SEGMENTS", "EXPANDS"]
