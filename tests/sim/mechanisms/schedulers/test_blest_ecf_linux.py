"""BLEST, ECF and Linux's MPTCP scheduler (cmtlab.sim.mechanisms.schedulers) on scripted states with stub
subflows, then in the engine."""

from types import SimpleNamespace

import pytest

from cmtlab.sim import registry, simulate_mptcp
from cmtlab.sim.mechanisms.schedulers import BlestScheduler, EcfScheduler, LinuxScheduler

SEG = 1000
MS = 1_000_000


class Sub:
    def __init__(self, rtt_ms, cwnd_segs, inflight_segs, rttvar_ms=0.0, ssthresh_segs=2):
        self.seg = SEG
        self.srtt = int(rtt_ms * MS)
        self.rttvar = int(rttvar_ms * MS)
        self.n_rtt_samples = 1
        self.cwnd = cwnd_segs * SEG
        self.ssthresh = ssthresh_segs * SEG
        self.inflight = inflight_segs * SEG
        self.path = SimpleNamespace(rate_bps=10e6, delay_s=rtt_ms / 1000)

    def in_flight(self):
        return self.inflight

    def available_window(self):
        return self.cwnd - self.inflight


def conn(subs, *, next_dsn=0, n_dsn=None, data_ack=0, rcvbuf_segs=1000):
    return SimpleNamespace(subflows=subs, next_dsn=next_dsn, n_dsn=n_dsn, data_ack_seen=data_ack,
                           rcvbuf_segs=rcvbuf_segs, seg=SEG)


def test_registered():
    for name, cls in (("blest", BlestScheduler), ("ecf", EcfScheduler), ("linux", LinuxScheduler)):
        assert isinstance(registry.make("scheduler", name), cls)
    with pytest.raises(ValueError, match="beta"):
        EcfScheduler(beta=-1)
    with pytest.raises(ValueError, match="lambda_init"):
        BlestScheduler(lambda_init=float("nan"))
    with pytest.raises(ValueError, match="burst_bytes"):
        LinuxScheduler(burst_bytes=1.5)


def test_blest_fast_first_then_the_blocking_inequality():
    """Ferlin et al. Alg. 1: the fast subflow when it has room; the slow one only if
    X * lambda <= |SW| - MSS_s (inflight_s + 1), X = MSS_f (CWND_f + (rtts - 1)/2) rtts."""
    fast, slow = Sub(10, 10, 9), Sub(100, 10, 0)
    assert BlestScheduler().select(conn([fast, slow]), 0) == 0
    fast.inflight = 10 * SEG  # fast subflow full
    b = BlestScheduler()
    x = b.blocking_estimate_bytes(fast, slow)
    assert x == pytest.approx(SEG * (10 + 4.5) * 10)  # 145 segments during one slow RTT
    # window: 100 segments free -> 145 > 100 - 1: wait for the fast subflow
    assert b.select(conn([fast, slow], next_dsn=900, rcvbuf_segs=1000), 0) is None and b.skips == 1
    # window: 200 segments free -> 145 <= 199: the slow subflow may send
    assert b.select(conn([fast, slow], next_dsn=800, rcvbuf_segs=1000), 0) == 1
    # the boundary, exactly: |SW| - MSS_s (0 + 1) = 145 segments is still allowed, 144 is not
    assert BlestScheduler().select(conn([fast, slow], next_dsn=854, rcvbuf_segs=1000), 0) == 1
    assert BlestScheduler().select(conn([fast, slow], next_dsn=855, rcvbuf_segs=1000), 0) is None
    # lambda scales X: lambda = 0.5 lets the slow subflow send with 100 segments free
    assert BlestScheduler(lambda_init=0.5).select(conn([fast, slow], next_dsn=900), 0) == 1


def test_blest_lambda_adapts():
    fast, slow = Sub(10, 10, 10), Sub(100, 10, 0)
    b = BlestScheduler(delta_lambda=0.1)
    assert b.select(conn([fast, slow], next_dsn=900), 0) is None
    fast.inflight = 5 * SEG  # the fast subflow opened room, window not full: the skip was too cautious
    assert b.select(conn([fast, slow], next_dsn=900), 0) == 0
    assert b.lam == pytest.approx(0.9)
    # the fast subflow has room but the connection window is full: blocking -> lambda grows
    assert b.select(conn([fast, slow], next_dsn=1000), 0) == 0
    assert b.lam == pytest.approx(1.0)


def test_ecf_inequality_and_hysteresis():
    """Lim et al. Alg. 1 with k segments left, n = 1 + k/CWND_f, delta = max(RTTVAR)."""
    fast, slow = Sub(10, 10, 10), Sub(100, 10, 0)
    # k = 20: n*RTT_f = 3*10 = 30 ms < RTT_s = 100 ms, and k/CWND_s*RTT_s = 200 >= 2*RTT_f = 20: wait
    e = EcfScheduler()
    assert e.select(conn([fast, slow], next_dsn=0, n_dsn=20), 0) is None and e.waiting == 1
    # k = 1000: n*RTT_f = 1010 ms >= 100 ms: the slow subflow is used and waiting resets
    assert e.select(conn([fast, slow], next_dsn=0, n_dsn=1000), 0) == 1 and e.waiting == 0
    # the second condition: slow subflow fast enough to finish first -> use it
    big = Sub(100, 1000, 0)
    assert EcfScheduler().select(conn([fast, big], n_dsn=20), 0) == 1
    # hysteresis: n*RTT_f = 110 ms; without waiting 110 >= 100 -> slow; while waiting (beta = 0.25)
    # 110 < 125 -> keep waiting
    e2 = EcfScheduler()
    c = conn([fast, slow], n_dsn=100)
    assert e2.select(c, 0) == 1
    e2.waiting = 1
    assert e2.select(c, 0) is None
    # RTT variation widens the slow side: delta = 20 ms -> 110 < 120 -> wait even without waiting
    slow_var = Sub(100, 10, 0, rttvar_ms=20)
    assert EcfScheduler().select(conn([fast, slow_var], n_dsn=100), 0) is None
    # fast with room always wins; duration-limited (n_dsn None) -> the slow one with room
    assert EcfScheduler().select(conn([Sub(10, 10, 0), slow], n_dsn=5), 0) == 0
    assert EcfScheduler().select(conn([fast, slow]), 0) == 1


def test_linux_lowest_linger_time_and_burst():
    """Linux 6.18 mptcp_subflow_get_send: smallest wmem / pacing rate; none if that subflow cannot
    send; then a burst of up to 64 KiB on it."""
    a = Sub(10, 20, 10)  # linger = 10 seg / (1.2 * 20 seg / 10 ms) = 4.17 ms
    b = Sub(100, 100, 10)  # linger = 10 / (1.2 * 100 / 100 ms) = 8.33 ms
    lx = LinuxScheduler()
    c = conn([a, b])
    assert lx.linger_time_ns(0, a) == pytest.approx(10 / (1.2 * 20 / (10 * MS)))
    assert lx.select(c, 0) == 0 and lx.burst_left == 65428
    # during the burst subflow 0 stays chosen while it can send, even when b's linger time is lower
    b.inflight = 0
    for dsn in range(3):
        assert lx.select(c, 0) == 0
        lx.on_sent(c, 0, dsn, 0)
    assert lx.burst_left == 65428 - 3 * SEG
    # burst over: b (nothing queued) is picked
    lx.burst_left = 0
    assert lx.select(c, 0) == 1
    # the lowest-linger subflow cannot send -> None, even though another has room
    full = Sub(10, 20, 20)  # linger 8.3 ms ... vs
    other = Sub(200, 20, 10)  # 83 ms
    assert LinuxScheduler().select(conn([full, other]), 0) is None
    # slow start paces at 200 %
    ss = Sub(10, 20, 0, ssthresh_segs=100)  # cwnd < ssthresh / 2: slow start
    assert LinuxScheduler.pacing_rate(ss) == pytest.approx(2 * 20 * SEG / (10 * MS))
    # the burst is bounded by the connection-level window
    lx3 = LinuxScheduler()
    assert lx3.select(conn([Sub(10, 20, 0)], next_dsn=995, rcvbuf_segs=1000), 0) == 0 and lx3.burst_left == 5 * SEG


def test_engine_short_transfer_over_asymmetric_paths():
    """In the engine, 2 MB over 10 Mbit/s paths of 20 and 200 ms RTT: BLEST and the Linux rule finish
    no later than lowest-RTT-with-room plus 10 %, every scheduler delivers every byte."""
    kw = dict(transfer_bytes=2_000_000, congestion="uncoupled", seed=1, receive_buffer_bytes=200_000,
              segment_bytes=1448, initial_window_bytes=14480, ssthresh_bytes=1 << 30)
    ct = {}
    for s in ("lowest_rtt", "blest", "ecf", "linux"):
        r = simulate_mptcp([10e6, 10e6], [0.02, 0.2], scheduler=s, **kw)
        assert r.completed
        ct[s] = r.completion_time_s
    assert ct["blest"] < ct["lowest_rtt"]  # 1.46 s vs 1.84 s: BLEST avoids the slow path's blocking
