"""Linux's congestion-window validation: the window grows only while the flow uses it (``tcp_is_cwnd_limited``).

Linux calls a congestion control's ``cong_avoid`` only when ``tcp_is_cwnd_limited`` (``include/net/tcp.h``) says
the flow is limited by its window: it was cwnd-limited at some transmission of the current window of data
(``tp->is_cwnd_limited``: packets in flight reached ``cwnd`` when ``tcp_write_xmit`` stopped), or, in slow start,
``cwnd < 2 * max_packets_out`` (the most packets it had out in that window).  ``tcp_cwnd_validate``
(``net/ipv4/tcp_output.c``) starts a new window of measurement when ``snd_una`` passes ``cwnd_usage_seq`` (the
``snd_nxt`` of the last measurement), when the flow is cwnd-limited, or when it has more out than measured.
A flow its application — an MPTCP subflow its scheduler — keeps short of data therefore keeps its window, where
RFC 5681's sender would grow a window it never fills (RFC 7661 calls such a window non-validated).

:class:`LinuxCwndValidation` keeps that state for one sender, from what the sender shows on each ACK: the packets
it had out before the ACK (``pipe_snapshot`` plus the segments the ACK delivered) against its window.
"""

from __future__ import annotations


class LinuxCwndValidation:
    """``tcp_is_cwnd_limited`` for one sender (see the module docstring); ``cwnd_limited(sub, acked)`` on each ACK."""

    __slots__ = ("is_cwnd_limited", "max_packets_out", "cwnd_usage_seq")

    def __init__(self):
        self.is_cwnd_limited = False
        self.max_packets_out = 0
        self.cwnd_usage_seq = -1  # segment index (the sender's sequence numbers)

    def cwnd_limited(self, sub, segments_acked: int) -> bool:
        """Whether the window may grow on this ACK (``sub``: the sender; ``segments_acked``: what the ACK delivered)."""
        seg = sub.seg
        cwnd = sub.cwnd // seg
        out = sub.pipe_snapshot // seg + max(int(segments_acked), 0)  # packets out when the ACK left the receiver
        limited = out >= cwnd
        if sub.una >= self.cwnd_usage_seq or limited or (not self.is_cwnd_limited and out > self.max_packets_out):
            self.is_cwnd_limited = limited
            self.max_packets_out = out
            self.cwnd_usage_seq = sub.high
        if self.is_cwnd_limited:
            return True
        if sub.cwnd < sub.ssthresh:  # slow start: grow to twice what was out
            return cwnd < 2 * self.max_packets_out
        return False


__all__ = ["LinuxCwndValidation"]
