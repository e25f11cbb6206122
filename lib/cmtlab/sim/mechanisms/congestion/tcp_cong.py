"""Linux's additive increase, shared by its Reno and CUBIC (``net/ipv4/tcp_cong.c``)."""

from __future__ import annotations


def tcp_cong_avoid_ai(cwnd: int, cwnd_cnt: int, w: int, acked: int) -> tuple[int, int]:
    """``tcp_cong_avoid_ai(tp, w, acked)``: one segment of growth per ``w`` acknowledged segments, the remainder kept
    in ``snd_cwnd_cnt``; credits accumulated at a higher ``w`` give one segment first.  Windows in segments; returns
    the new ``(cwnd, cwnd_cnt)``.  Reno passes ``w = cwnd``, CUBIC its ``cnt``."""
    if cwnd_cnt >= w:
        cwnd_cnt = 0
        cwnd += 1
    cwnd_cnt += acked
    if cwnd_cnt >= w:
        delta = cwnd_cnt // w
        cwnd_cnt -= delta * w
        cwnd += delta
    return cwnd, cwnd_cnt


__all__ = ["tcp_cong_avoid_ai"]
