"""Linux's congestion-window validation (``tcp_is_cwnd_limited`` / ``tcp_cwnd_validate``) step by step, and in
CUBIC and Reno: a window the flow does not fill does not grow, in slow start beyond twice what was out, in
congestion avoidance at all."""

from types import SimpleNamespace

import pytest

from cmtlab.sim.mechanisms.congestion.cubic import LinuxCubic
from cmtlab.sim.mechanisms.congestion.cwnd_validation import LinuxCwndValidation
from cmtlab.sim.mechanisms.congestion.linux_reno import LinuxReno

SEG = 1000


def _init(cc, sub):
    if isinstance(cc, LinuxCubic):  # Reno's init is the compiled base's, for a real sender
        cc.init(sub)


def _sub(cwnd, ssthresh, out, *, una=0, high=0):
    return SimpleNamespace(seg=SEG, cwnd=cwnd * SEG, ssthresh=ssthresh * SEG, pipe_snapshot=out * SEG,
                           una=una, high=high, ack_time_ns=0, srtt=0, n_rtt_samples=0)


def test_a_full_window_is_cwnd_limited_for_the_rest_of_its_round():
    v = LinuxCwndValidation()
    sub = _sub(10, 5, 9, una=0, high=10)
    assert v.cwnd_limited(sub, 1)  # 9 + 1 out = cwnd: limited; the measurement runs to snd_nxt = 10
    assert v.cwnd_usage_seq == 10 and v.max_packets_out == 10
    sub.pipe_snapshot, sub.una = 2 * SEG, 5  # the flow went short of data within the round
    assert v.cwnd_limited(sub, 1)  # still the round that was limited
    sub.una, sub.high = 10, 13  # snd_una passed cwnd_usage_seq: a new measurement, 3 out of 10
    assert not v.cwnd_limited(sub, 1)
    assert (v.is_cwnd_limited, v.max_packets_out, v.cwnd_usage_seq) == (False, 3, 13)


def test_slow_start_grows_to_twice_the_most_packets_out():
    v = LinuxCwndValidation()
    assert v.cwnd_limited(_sub(7, 1000, 3, una=0, high=5), 1)  # 4 out: 7 < 2 * 4
    assert not LinuxCwndValidation().cwnd_limited(_sub(8, 1000, 3, una=0, high=5), 1)  # 8 = 2 * 4
    sub = _sub(10, 1000, 3, una=5, high=9)
    v2 = LinuxCwndValidation()
    assert not v2.cwnd_limited(_sub(10, 1000, 3, una=0, high=5), 0)  # 3 out: 10 >= 6
    assert v2.cwnd_limited(sub, 3)  # 6 out, more than measured: 10 < 12


@pytest.mark.parametrize("make", [lambda: LinuxCubic(hystart=False, cwnd_validation=True),
                                  lambda: LinuxReno(cwnd_validation=True)], ids=["cubic", "reno"])
def test_congestion_controls_keep_a_window_the_flow_does_not_use(make):
    # congestion avoidance, 40 segments, 10 out (a subflow the scheduler leaves short): no growth over many ACKs
    cc = make()
    sub = _sub(40, 20, 10, high=50)
    _init(cc, sub)
    for k in range(200):
        sub.una, sub.high, sub.ack_time_ns = k, k + 11, k * 1_000_000
        cc.increase_window(sub, 1)
    assert sub.cwnd == 40 * SEG
    # with the window full it grows
    cc = make()
    sub = _sub(40, 20, 39, high=50)
    _init(cc, sub)
    for k in range(200):
        sub.una, sub.high, sub.ack_time_ns = k, k + 40, k * 1_000_000
        cc.increase_window(sub, 1)
    assert sub.cwnd > 40 * SEG


def test_validation_off_keeps_the_old_growth_and_refuses_non_booleans():
    cc = LinuxReno()
    sub = _sub(40, 20, 10)
    _init(cc, sub)
    for _ in range(81):
        cc.increase_window(sub, 1)
    assert sub.cwnd == 42 * SEG  # RFC 5681: one segment per window acknowledged, used or not
    with pytest.raises(ValueError, match="cwnd_validation"):
        LinuxReno(cwnd_validation=1)
    with pytest.raises(ValueError, match="cwnd_validation"):
        LinuxCubic(cwnd_validation="yes")
