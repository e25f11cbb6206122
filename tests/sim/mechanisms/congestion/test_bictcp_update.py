"""Linux's fixed-point CUBIC increase (``arithmetic="linux"``, :mod:`cmtlab.sim.mechanisms.congestion.bictcp_update`)
against RFC 9438's curve in floating point (the independent method), and its integer rules one by one."""

import math

import pytest

from cmtlab.sim.mechanisms.congestion.bictcp_update import (CUBE_FACTOR, LINUX_HZ, BictcpUpdate, integer_cube_root,
                                                            usecs_to_jiffies)
from cmtlab.sim.mechanisms.congestion.cubic import LinuxCubic, w_cubic

SEG = 1000


class _Flow:
    """What CUBIC reads of a sender in congestion avoidance: window, threshold, the ACK's time and Linux's RTT
    sample (``ca_rtt``)."""

    def __init__(self, cwnd_segs, rtt_s):
        self.seg, self.cwnd, self.ssthresh = SEG, cwnd_segs * SEG, cwnd_segs * SEG
        self.ack_time_ns, self.rtt_ns = 0, int(rtt_s * 1e9)
        self.cc_rtt_samples, self.cc_rtt_ns, self.timeouts = 0, self.rtt_ns, 0

    def round_trip(self, cc):
        """One window of ACKs, one segment each, spread over one round trip."""
        n = self.cwnd // SEG
        for _ in range(n):
            self.ack_time_ns += self.rtt_ns // n
            self.cc_rtt_samples += 1
            cc.increase_window(self, 1)


def _epoch(arithmetic, w_max=100, cwnd=70, rtt_s=0.1, rounds=90):
    """Windows (segments) round trip by round trip after a loss at ``w_max`` left ``cwnd``, and the curve's
    W_cubic(t + RTT) at each (``t`` from the epoch's first ACK)."""
    cc = LinuxCubic(reduce_from="snd_cwnd", arithmetic=arithmetic)
    f = _Flow(cwnd, rtt_s)
    cc.init(f)
    cc.w_max, cc.had_loss = float(w_max), True
    cc._delay_min_us = int(rtt_s * 1e6)  # a sample from before the loss
    k = ((w_max - cwnd) / 0.4) ** (1 / 3)
    out = []
    for _ in range(rounds):
        f.round_trip(cc)
        t = (f.ack_time_ns - cc.t_epoch_ns) / 1e9
        out.append((f.cwnd // SEG, w_cubic(t + rtt_s, w_max, k)))
    return out


def test_linux_arithmetic_follows_the_cubic_curve():
    """Over an epoch (70 -> back past W_max = 100 and beyond) the fixed-point window stays within a few segments of
    RFC 9438's curve, and where the curve climbs fast, ahead of the floating-point window: ``cnt`` is rounded down."""
    lx, fl = _epoch("linux"), _epoch("float")
    for (w_lx, curve), (w_fl, _) in zip(lx, fl):
        assert w_lx <= max(curve, 100) + 3
        assert w_lx >= w_fl - 1
    assert lx[-1][0] > 140  # convex region reached
    assert sum(a for a, _ in lx) > sum(b for b, _ in fl)  # integer division: faster, never slower


def test_cnt_is_an_integer_division_and_growth_keeps_the_remainder():
    """``cnt = cwnd / (target - cwnd)`` by integer division; ``tcp_cong_avoid_ai`` adds one segment per ``cnt``
    acknowledged and keeps the remainder in ``snd_cwnd_cnt``."""
    b = BictcpUpdate()
    # epoch at jiffy 0, window 82 below a maximum of 99, delay_min 44 ms; 2 s later:
    b.update(0, 0, True, 82, 1, 99, 44_000)
    now = 2 * 10**9
    b.update(now, 0, False, 82, 1, 99, 44_000)
    t = ((2 * LINUX_HZ + usecs_to_jiffies(44_000)) << 10) // LINUX_HZ
    k = integer_cube_root(CUBE_FACTOR * 17)
    target = 99 - ((410 * (k - t) ** 3) >> 40)
    assert b.cnt == 82 // (target - 82)
    # the same in seconds, RFC 9438: K = cbrt(17 / 0.4), target one delay_min ahead
    assert abs(k / 1024 - (17 / 0.4) ** (1 / 3)) < 2e-3
    assert abs(target - w_cubic(2.044, 99, (17 / 0.4) ** (1 / 3))) < 1.5
    w = b.cnt
    cwnd = b.cong_avoid_ai(82, w - 1)
    assert (cwnd, b.snd_cwnd_cnt) == (82, w - 1)
    cwnd = b.cong_avoid_ai(cwnd, 2)
    assert (cwnd, b.snd_cwnd_cnt) == (83, 1)
    b.reset_count()  # tcp_init_cwnd_reduction
    assert b.snd_cwnd_cnt == 0


def test_cnt_is_recomputed_at_most_every_hz_over_32_while_the_window_is_unchanged():
    b = BictcpUpdate()
    b.update(0, 0, True, 50, 1, 0, 40_000)
    first = b.cnt
    assert first == 20  # no loss yet (last_max_cwnd 0): at most 20, 5 % a round trip
    b.cnt = 7  # a marker: a recomputation would overwrite it
    b.update((LINUX_HZ // 32) * 10**9 // LINUX_HZ, 0, False, 50, 1, 0, 40_000)
    assert b.cnt == 7
    b.update((LINUX_HZ // 32 + 1) * 10**9 // LINUX_HZ, 0, False, 50, 1, 0, 40_000)
    assert b.cnt == 20


def test_reno_friendly_bound_in_whole_segments():
    """``tcp_friendliness``: ``tcp_cwnd`` grows by one per ``cwnd * 15 >> 3`` acknowledged segments (0.53 a round
    trip); once it is ahead of the window, ``cnt <= cwnd / (tcp_cwnd - cwnd)``."""
    b = BictcpUpdate()
    b.update(0, 0, True, 80, 0, 80, 1_000)  # K = 0 at the maximum: the curve is flat at first
    delta = (80 * 15) >> 3
    b.ack_cnt = 3 * delta + 1
    b.tcp_cwnd = 80
    b.last_time = -100  # force a recomputation
    b.update(4_000_000, 0, False, 80, 0, 80, 1_000)
    assert b.tcp_cwnd == 83 and b.ack_cnt == 1
    assert b.cnt <= 80 // 3


def test_integer_helpers():
    for a in (0, 1, 7, 8, 26, 27, 10**12, 10**12 + 1, 2**63):
        r = integer_cube_root(a)
        assert r ** 3 <= a < (r + 1) ** 3
    with pytest.raises(ValueError, match="a >= 0"):
        integer_cube_root(-1)
    assert usecs_to_jiffies(1) == 1 and usecs_to_jiffies(4000) == 1 and usecs_to_jiffies(4001) == 2
    assert math.isclose(CUBE_FACTOR * 410, 2**40, rel_tol=1e-9)


def test_linux_arithmetic_needs_linux_reduction_and_counting():
    with pytest.raises(ValueError, match="arithmetic='linux' needs reduce_from='snd_cwnd'"):
        LinuxCubic(arithmetic="linux")
    with pytest.raises(ValueError, match="arithmetic"):
        LinuxCubic(reduce_from="snd_cwnd", arithmetic="fixed")
    assert LinuxCubic().arithmetic == "float"
