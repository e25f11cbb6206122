"""Reno as Linux runs it (``tcp_reno_cong_avoid``, ``tcp_slow_start``, ``tcp_cong_avoid_ai``,
``tcp_reno_ssthresh``): RFC 5681 with every acknowledged segment counted (RFC 3465 byte counting)."""

from __future__ import annotations

from ...registry import register
from .base import CongestionControl


@register("congestion", "reno")
class LinuxReno(CongestionControl):
    """RFC 5681 Reno in Linux's integer form, counting acknowledged segments.

    * slow start: ``cwnd = min(cwnd + acked, ssthresh)`` segments, the segments left over go to
      congestion avoidance (``tcp_slow_start``);
    * congestion avoidance: a counter of acknowledged segments; each time it reaches ``cwnd`` the
      window grows by one segment (``tcp_cong_avoid_ai``) — one segment per window of *segments*,
      so delayed ACKs do not slow it down, unlike ns-3's :class:`NewReno` (one increase per ACK,
      about half a segment per RTT with an ACK every second segment);
    * on loss ``ssthresh = max(cwnd / 2, 2)`` segments (``tcp_reno_ssthresh``: Linux halves cwnd,
      not the flight size).

    Windows are whole segments (``sub.cwnd // sub.seg``), as Linux's ``snd_cwnd``.
    """

    def __init__(self):
        self.cwnd_cnt = 0

    def increase_window(self, sub, segments_acked: int) -> None:
        seg = sub.seg
        w = sub.cwnd // seg
        ss = sub.ssthresh // seg
        acked = int(segments_acked)
        if acked <= 0:
            return
        if w < ss:
            new = min(w + acked, ss)
            acked -= new - w
            w = new
        if acked > 0 and w >= ss:
            if self.cwnd_cnt >= w:
                self.cwnd_cnt = 0
                w += 1
            self.cwnd_cnt += acked
            if self.cwnd_cnt >= w:
                delta = self.cwnd_cnt // w
                self.cwnd_cnt -= delta * w
                w += delta
        sub.cwnd = w * seg

    def ssthresh(self, sub, bytes_in_flight: int) -> int:
        return max((sub.cwnd // sub.seg) >> 1, 2) * sub.seg


__all__ = ["LinuxReno"]
