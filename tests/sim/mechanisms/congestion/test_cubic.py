"""CUBIC (RFC 9438, cmtlab.sim.mechanisms.congestion.cubic) on scripted ACK sequences with a stub
subflow, then inside the engine.

The stub carries the congestion-control contract: cwnd, ssthresh, seg (bytes), srtt (ns) with
n_rtt_samples, path, and ack_time_ns — the time of the ACK being processed.
"""

from types import SimpleNamespace

import pytest

from cmtlab.scenario import LossModel, TcpOptions
from cmtlab.sim import registry, simulate_mptcp
from cmtlab.sim.mechanisms.congestion import Cubic
from cmtlab.sim.mechanisms.congestion.cubic import cubic_k_s, w_cubic
from cmtlab.sim.tcp.base import SenderBase
from cmtlab.validation.kernel_sim import LINUX_TCP_OPTIONS

SEG = 1000
MS = 1_000_000


class Sub(SenderBase):
    """A sender's state record (the attributes the mechanisms read) without a sender."""

    def __init__(self, cwnd_segs, ssthresh_segs=2, rtt_s=0.1):
        self.cwnd = int(cwnd_segs * SEG)
        self.ssthresh = int(ssthresh_segs * SEG)
        self.seg = SEG
        self.srtt = int(round(rtt_s * 1e9))
        self.n_rtt_samples = 1
        self.path = SimpleNamespace(rate_bps=10e6, delay_s=rtt_s)
        self.ack_time_ns = 0


def after_loss(cc, sub, flight_segs=None):
    """A congestion event as the sender makes it: ssthresh from the CC, then cwnd = ssthresh."""
    sub.ssthresh = cc.ssthresh(sub, int((flight_segs if flight_segs is not None else sub.cwnd / SEG) * SEG))
    sub.cwnd = sub.ssthresh


def ack_clock(cc, sub, t_end_s, t0_ns=0, per_ack=1, dt_ns=None):
    """ACKs as a full window would return them: cwnd/RTT segments per second, ``per_ack`` each.
    Returns [(t_s, cwnd_segs)] sampled at every ACK."""
    rtt_ns = sub.srtt
    t = t0_ns
    out = []
    while t < t0_ns + t_end_s * 1e9:
        w = sub.cwnd / SEG
        step = dt_ns if dt_ns is not None else int(rtt_ns * per_ack / w)
        t += step
        sub.ack_time_ns = t
        cc.increase_window(sub, per_ack)
        out.append(((t - t0_ns) / 1e9, sub.cwnd / SEG))
    return out


def test_registered_and_parameters_checked():
    assert isinstance(registry.make("congestion", "cubic"), Cubic)
    for bad in (dict(beta=1.0), dict(beta=0), dict(beta=float("nan")), dict(c=-0.4), dict(beta=True)):
        with pytest.raises(ValueError, match=list(bad)[0]):
            Cubic(**bad)
    with pytest.raises(ValueError, match="counting"):
        Cubic(counting="bytes")
    with pytest.raises(ValueError, match="reduce_from"):
        Cubic(reduce_from="pipe")
    with pytest.raises(ValueError, match="fast_convergence"):
        Cubic(fast_convergence="yes")


def test_window_after_a_loss_and_fast_convergence():
    """RFC 9438 sec. 4.6/4.7: ssthresh = floor(0.7 cwnd); W_max = cwnd, or cwnd (1 + beta) / 2 when
    the window did not get back to the last W_max (fast convergence)."""
    cc, sub = Cubic(), Sub(100)
    cc.init(sub)
    assert cc.ssthresh(sub, 100 * SEG) == 70 * SEG
    assert cc.w_max == 100 and cc.cwnd_prior == 100 and cc.t_epoch_ns is None
    sub.cwnd = 80 * SEG  # the next loss comes before cwnd regained W_max
    assert cc.ssthresh(sub, 80 * SEG) == 56 * SEG
    assert cc.w_max == pytest.approx(80 * 1.7 / 2)
    slow = Cubic(fast_convergence=False)
    sub = Sub(100)
    slow.init(sub)
    slow.ssthresh(sub, 100 * SEG)
    sub.cwnd = 80 * SEG
    slow.ssthresh(sub, 80 * SEG)
    assert slow.w_max == 80
    # never below 2 segments; beta multiplies the flight size when asked to
    tiny = Sub(2)
    cc2 = Cubic()
    cc2.init(tiny)
    assert cc2.ssthresh(tiny, 2 * SEG) == 2 * SEG
    fl = Cubic(reduce_from="flight")
    s = Sub(100)
    fl.init(s)
    assert fl.ssthresh(s, 50 * SEG) == 35 * SEG


def test_snd_cwnd_reduction_is_linuxs_integer_arithmetic_on_whole_segments():
    """``bictcp_recalc_ssthresh``: ``snd_cwnd * 717 / 1024`` on the whole-segment window; ``last_max_cwnd`` under
    fast convergence ``snd_cwnd * 1741 / 2048`` — a window of 97.5 segments leaves 67 (the fraction leaves 68)."""
    for cwnd_segs, want, want_frac in ((97.5, 67, 68), (100, 70, 70), (10.9, 7, 7), (3.9, 2, 2), (2, 2, 2)):
        lin, frac = Cubic(reduce_from="snd_cwnd"), Cubic()
        a, b = Sub(cwnd_segs), Sub(cwnd_segs)
        lin.init(a)
        frac.init(b)
        assert lin.ssthresh(a, a.cwnd) == want * SEG, cwnd_segs
        assert frac.ssthresh(b, b.cwnd) == want_frac * SEG, cwnd_segs
        assert lin.w_max == int(cwnd_segs) and lin.cwnd_prior == int(cwnd_segs)
    cc, sub = Cubic(reduce_from="snd_cwnd"), Sub(120)
    cc.init(sub)
    cc.ssthresh(sub, sub.cwnd)
    sub.cwnd = int(97.5 * SEG)
    cc.ssthresh(sub, sub.cwnd)
    assert cc.w_max == (97 * (1024 + 717)) // 2048 == 82  # fast convergence, integer like Linux


def test_k_and_the_epoch_start_at_the_first_congestion_avoidance_ack():
    """RFC 9438 eq. 2: K = cbrt((W_max - cwnd_epoch) / C) = cbrt(30 / 0.4) s after a loss at 100 segments."""
    cc, sub = Cubic(), Sub(100)
    cc.init(sub)
    after_loss(cc, sub)
    sub.ack_time_ns = 5 * MS
    cc.increase_window(sub, 1)
    assert cc.t_epoch_ns == 5 * MS and cc.cwnd_epoch == 70
    assert cc.k_s == pytest.approx((30 / 0.4) ** (1 / 3)) == pytest.approx(4.2172, abs=1e-4)
    assert cubic_k_s(100, 70) == cc.k_s and cubic_k_s(50, 70) == 0.0
    assert w_cubic(cc.k_s, 100, cc.k_s) == 100 and w_cubic(0, 100, cc.k_s) == pytest.approx(70)


def test_growth_follows_w_cubic_concave_then_convex():
    """Without the Reno-friendly region the window tracks W_cubic(t) (RFC 9438 eq. 1): concave up to
    W_max at t = K, a plateau around it, convex beyond; within 3 % over [0.5 s, 2K]."""
    cc, sub = Cubic(reno_friendly=False), Sub(100, rtt_s=0.1)
    cc.init(sub)
    after_loss(cc, sub)
    trace = ack_clock(cc, sub, 2 * 4.2172)
    k = cc.k_s
    for t, w in trace:
        if t >= 0.5:
            assert w == pytest.approx(w_cubic(t, 100, k), rel=0.03), t
    near_k = [w for t, w in trace if abs(t - k) < 0.2]
    assert all(99 <= w <= 101.5 for w in near_k)  # the plateau at W_max
    # concave: faster growth early than just before K; convex: faster again after K
    def rate(a, b):
        pts = [(t, w) for t, w in trace if a <= t <= b]
        return (pts[-1][1] - pts[0][1]) / (pts[-1][0] - pts[0][0])
    assert rate(0.5, 1.5) > 3 * rate(k - 1.0, k) > 0
    assert rate(k + 1.0, k + 2.0) > 3 * rate(k, k + 1.0)


def test_target_is_clamped_to_one_and_a_half_cwnd():
    """RFC 9438 sec. 4.2: target <= 1.5 cwnd, so one ACK of n segments adds at most n * 0.5 segments."""
    cc, sub = Cubic(reno_friendly=False), Sub(10)
    cc.init(sub)
    cc.increase_window(sub, 1)  # epoch starts at t = 0 with W_max = cwnd_epoch = 10, K = 0
    sub.ack_time_ns = 100 * 10**9  # 100 s later W_cubic is enormous
    cc.increase_window(sub, 1)
    assert sub.cwnd == pytest.approx(10.5 * SEG, abs=1)


def test_reno_friendly_region():
    """RFC 9438 sec. 4.3: small W_max, short RTT — W_est = cwnd_epoch + alpha per RTT (alpha =
    3(1-b)/(1+b) = 0.529) is above W_cubic, so cwnd = W_est; once W_est reaches cwnd_prior the
    increase is Reno's one segment per RTT.  Without the region the window stays at W_cubic <= W_max."""
    alpha = 3 * 0.3 / 1.7
    cc, sub = Cubic(), Sub(10, rtt_s=0.01)
    cc.init(sub)
    after_loss(cc, sub)
    assert sub.cwnd == 7 * SEG
    trace = ack_clock(cc, sub, 0.0405)  # four round trips
    assert trace[-1][1] == pytest.approx(7 + 4 * alpha, abs=0.15)
    assert cc.alpha == pytest.approx(alpha)
    trace = ack_clock(cc, sub, 0.2, t0_ns=sub.ack_time_ns)  # 20 more round trips
    assert cc.alpha == 1.0  # W_est passed cwnd_prior = 10
    w0 = [w for t, w in trace if t >= 0.1][0]
    assert trace[-1][1] - w0 == pytest.approx(10, abs=1.0)  # one segment per RTT for 10 RTTs
    plain = Cubic(reno_friendly=False)
    s2 = Sub(10, rtt_s=0.01)
    plain.init(s2)
    after_loss(plain, s2)
    t2 = ack_clock(plain, s2, 0.24)
    assert max(w for _, w in t2) <= 10.0 + 1e-9 < trace[-1][1]


def test_slow_start_counting():
    """Slow start (RFC 5681): Linux counts acknowledged segments, one ACK of 2 segments adds 2;
    counting='ack' adds one per ACK.  Segments left over past ssthresh go to congestion avoidance."""
    for counting, expect in (("segments", 12), ("ack", 11)):
        cc, sub = Cubic(counting=counting), Sub(10, ssthresh_segs=100)
        cc.init(sub)
        cc.increase_window(sub, 2)
        assert sub.cwnd == expect * SEG
    cc, sub = Cubic(), Sub(99, ssthresh_segs=100)
    cc.init(sub)
    cc.increase_window(sub, 3)
    assert cc.t_epoch_ns == 0 and cc.cwnd_epoch == 100 and 100 * SEG < sub.cwnd <= 101 * SEG


def test_resynchronises_with_a_window_set_by_the_sender():
    """Recovery exit, timeout or undo write sub.cwnd directly: CUBIC continues from that value."""
    cc, sub = Cubic(), Sub(40)
    cc.init(sub)
    cc.increase_window(sub, 1)
    sub.cwnd = 1 * SEG  # a timeout
    sub.ssthresh = 28 * SEG
    cc.increase_window(sub, 1)
    assert sub.cwnd == 2 * SEG


def test_engine_single_path_and_uncoupled_subflows():
    """In the engine: on a long fat path with rare loss CUBIC outgrows Reno (RFC 9438 sec. 1: its reason
    to exist); as MPTCP subflow control each subflow runs its own instance (uncoupled)."""
    opts = TcpOptions(**dict(LINUX_TCP_OPTIONS, send_buffer_bytes=2**26, receive_buffer_bytes=2**26))
    kw = dict(duration_s=15, loss=[LossModel("packet", 5e-5)], seed=3, scheduler="lowest_rtt",
              segment_bytes=1448, initial_window_bytes=10 * 1448, ssthresh_bytes=100 * 1448, queue_packets=500,
              receive_buffer_bytes=2**26, options=opts)
    reno = simulate_mptcp([50e6], [0.1], congestion="uncoupled", **kw)
    cubic = simulate_mptcp([50e6], [0.1], congestion="cubic", **kw)
    assert reno.subflows.loc[0, "fast_retransmits"] >= 1 and cubic.subflows.loc[0, "fast_retransmits"] >= 1
    assert cubic.throughput_bps > 1.5 * reno.throughput_bps  # 25.1 vs 12.7 Mbit/s
    two = simulate_mptcp([20e6, 5e6], [0.03, 0.08], congestion="cubic",
                         **{**kw, "duration_s": 3, "queue_packets": 100, "loss": [LossModel("packet", 1e-3)] * 2})
    assert (two.subflows["goodput_bps"] > 0).all()
    assert two.throughput_bps > 0.5 * 25e6


def test_linux_variant_keeps_alpha_and_uses_the_minimum_rtt():
    """Linux's tcp_friendliness (and ns-3.44's TcpCubic) keep alpha_cubic = 3(1-b)/(1+b) past
    cwnd_prior; RFC 9438 sec. 4.3 switches to 1.  The variant's target adds the smallest SRTT seen."""
    lin = registry.make("congestion", "cubic", variant="linux")
    assert type(lin).__name__ == "LinuxCubic" and lin.rtt == "min" and not lin.alpha_to_one
    with pytest.raises(ValueError, match="variant"):
        Cubic(variant="bsd")
    rfc, sub_r = Cubic(), Sub(10, rtt_s=0.01)
    sub_l = Sub(10, rtt_s=0.01)
    for cc, sub in ((rfc, sub_r), (lin, sub_l)):
        cc.init(sub)
        after_loss(cc, sub)
        ack_clock(cc, sub, 0.3)
    assert rfc.alpha == 1.0 and lin.alpha == pytest.approx(3 * 0.3 / 1.7)
    assert sub_l.cwnd < sub_r.cwnd  # 30 RTTs: 7 + 30 * 0.53 = 22.9 vs about 10 + 24 = 34 segments
    assert sub_l.cwnd / SEG == pytest.approx(7 + 30 * 3 * 0.3 / 1.7, abs=0.6)
    # the minimum RTT: a later, larger SRTT does not change the RTT added to t
    s = Sub(50, ssthresh_segs=2, rtt_s=0.01)
    lin2 = registry.make("congestion", "cubic", variant="linux")
    lin2.init(s)
    lin2.increase_window(s, 1)
    s.srtt = int(0.5e9)
    assert lin2._rtt_s(s) == pytest.approx(0.01)


def test_linux_reno_counts_acknowledged_segments():
    """Linux's Reno (tcp_cong_avoid_ai): one segment per cwnd acknowledged *segments*, so an ACK of two
    segments counts two; ns-3's NewReno grows once per ACK.  Slow start to ssthresh, rest to CA;
    ssthresh = max(cwnd/2, 2) segments."""
    from cmtlab.sim.mechanisms.congestion import LinuxReno, NewReno

    lr, s = LinuxReno(), Sub(10, ssthresh_segs=10)
    for _ in range(5):  # 5 delayed ACKs of 2 segments = one window of 10 segments
        lr.increase_window(s, 2)
    assert s.cwnd == 11 * SEG
    nr, s2 = NewReno(), Sub(10, ssthresh_segs=10)
    for _ in range(5):
        nr.increase_window(s2, 2)
    assert s2.cwnd < 10.6 * SEG  # about half a segment
    ss = Sub(8, ssthresh_segs=10)
    lr2 = LinuxReno()
    lr2.increase_window(ss, 4)  # 2 to reach ssthresh, 2 counted in congestion avoidance
    assert ss.cwnd == 10 * SEG and lr2.cwnd_cnt == 2
    assert LinuxReno().ssthresh(Sub(11), 5 * SEG) == 5 * SEG and LinuxReno().ssthresh(Sub(3), 0) == 2 * SEG
    assert registry.make("congestion", "reno").__class__ is LinuxReno


def test_hystart_delay_detection_ends_slow_start():
    """Linux HyStart (delay): from 16 segments on, the minimum of a round's first 8 RTT samples at or
    above delay_min + clamp(delay_min/8, 4, 16 ms) ends slow start (ssthresh = cwnd); below, it goes on."""
    def run(rtt2_ms, hystart=True):
        cc, sub = Cubic(hystart=hystart, hystart_ack_train=False), Sub(20, ssthresh_segs=10**6)
        sub.una, sub.high, sub.rtt_samples_taken, sub.last_rtt_sample_ns = 0, 20, 0, 0
        cc.init(sub)
        for rnd, rtt_ms in ((0, 100), (1, rtt2_ms)):
            for j in range(10):
                sub.una = rnd * 20 + j + (1 if j == 0 and rnd else 0)
                sub.rtt_samples_taken += 1
                sub.last_rtt_sample_ns = int(rtt_ms * MS)
                cc.increase_window(sub, 0 if j else 1)
                sub.high = max(sub.high, sub.una + 20)
        return cc, sub
    cc, sub = run(113)  # 113 >= 100 + 12.5 ms
    assert cc.hystart_exits == 1 and sub.ssthresh == sub.cwnd // SEG * SEG
    cc, sub = run(112)
    assert cc.hystart_exits == 0 and sub.ssthresh == 10**6 * SEG
    cc, sub = run(200, hystart=False)
    assert cc.hystart_exits == 0
    with pytest.raises(ValueError, match="hystart"):
        Cubic(hystart="on")


def test_hystart_ack_train_ends_slow_start_when_the_train_outlasts_half_the_minimum_rtt():
    """Linux HYSTART_ACK_TRAIN: ACKs <= 2 ms apart from the round's start for more than delay_min/2."""
    def run(spacing_ms, n_acks):
        cc, sub = Cubic(hystart=True), Sub(32, ssthresh_segs=10**6)
        sub.una, sub.high, sub.rtt_samples_taken, sub.last_rtt_sample_ns = 0, 32, 0, 0
        cc.init(sub)
        t = 0
        for j in range(n_acks):
            t += int(spacing_ms * MS)
            sub.ack_time_ns = t
            sub.una = j + 1 if j else 0
            sub.rtt_samples_taken += 1
            sub.last_rtt_sample_ns = 40 * MS  # delay_min 40 ms: the train must outlast 20 ms
            cc.increase_window(sub, 0)
        return cc
    assert run(1.2, 15).hystart_exits == 0  # 16.8 ms of train
    assert run(1.2, 20).hystart_exits == 1  # 22.8 ms > 20 ms
    assert run(2.5, 30).hystart_exits == 0  # ACKs too far apart: no train
