"""Reno as Linux runs it (``tcp_reno_cong_avoid``, ``tcp_slow_start``, ``tcp_cong_avoid_ai``,
``tcp_reno_ssthresh``): RFC 5681 with every acknowledged segment counted (RFC 3465 byte counting)."""

from __future__ import annotations

from ...registry import register
from .base import CongestionControl
from .cwnd_validation import LinuxCwndValidation
from .tcp_cong import tcp_cong_avoid_ai


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

    ``reset_count_on_reduction``: Linux zeroes the congestion-avoidance counter (``snd_cwnd_cnt``)
    whenever it reduces the window — ``tcp_init_cwnd_reduction`` on entering fast recovery (or CWR),
    ``tcp_enter_loss`` on a timeout — so the first increase after a reduction needs a whole new
    window of acknowledged segments.  ``False`` (the default, kept for the results recorded with it)
    carries the count across the reduction: when it had reached the new, halved window the next ACK
    grows the window at once (``tcp_cong_avoid_ai``'s "credits accumulated at a higher w"), on
    average half a segment earlier per loss than Linux.  ``True``: Linux's reset.

    ``cwnd_validation``: Linux's ``tcp_is_cwnd_limited`` (default off): the window grows only when the flow
    used it (:class:`~.cwnd_validation.LinuxCwndValidation`).
    """

    def __init__(self, reset_count_on_reduction: bool = False, cwnd_validation: bool = False):
        if not isinstance(reset_count_on_reduction, bool):
            raise ValueError(f"reset_count_on_reduction must be a boolean, got {reset_count_on_reduction!r}")
        if not isinstance(cwnd_validation, bool):
            raise ValueError(f"cwnd_validation must be a boolean, got {cwnd_validation!r}")
        self.reset_count_on_reduction = reset_count_on_reduction
        self.validation = LinuxCwndValidation() if cwnd_validation else None
        self.cwnd_cnt = 0

    def increase_window(self, sub, segments_acked: int) -> None:
        seg = sub.seg
        w = sub.cwnd // seg
        ss = sub.ssthresh // seg
        acked = int(segments_acked)
        if acked <= 0:
            return
        if self.validation is not None and not self.validation.cwnd_limited(sub, acked):
            return  # Linux tcp_is_cwnd_limited: the window was not used
        if w < ss:
            new = min(w + acked, ss)
            acked -= new - w
            w = new
        if acked > 0 and w >= ss:
            w, self.cwnd_cnt = tcp_cong_avoid_ai(w, self.cwnd_cnt, w, acked)
        sub.cwnd = w * seg

    def ssthresh(self, sub, bytes_in_flight: int) -> int:
        if self.reset_count_on_reduction:
            self.cwnd_cnt = 0  # tcp_init_cwnd_reduction / tcp_enter_loss: tp->snd_cwnd_cnt = 0
        return max((sub.cwnd // sub.seg) >> 1, 2) * sub.seg


__all__ = ["LinuxReno"]
