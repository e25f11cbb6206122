"""Connection-level schedulers (cmtlab.sim.mechanisms.schedulers) on scripted calls with stub subflows."""

import math
import random
from types import SimpleNamespace

import pytest

from cmtlab.sim import registry
from cmtlab.sim.mechanisms.schedulers import ConnectionScheduler

SEG = 1000


class Sub:
    def __init__(self, room=True, cwnd_segs=10, srtt_s=None, rate_bps=10e6, rtt_s=0.1):
        self.seg = SEG
        self.cwnd = cwnd_segs * SEG
        self.room = room
        self.srtt = int(round((srtt_s or 0) * 1e9))
        self.n_rtt_samples = 1 if srtt_s is not None else 0
        self.path = SimpleNamespace(rate_bps=rate_bps, delay_s=rtt_s)
        self.ssthresh = 2 * SEG
        self.rttvar = 0

    def available_window(self):
        return SEG if self.room else SEG - 1  # one byte short of a segment = no room

    def in_flight(self):
        return self.cwnd - self.available_window()


class Conn:
    def __init__(self, subs, seed=0, n_dsn=None):
        self.subflows = subs
        self.next_dsn = 0
        self.n_dsn = n_dsn
        self.seed = seed
        self.data_ack_seen = 0  # connection-level window (the scheduler contract): ample here
        self.rcvbuf_segs = 10**6
        self.seg = SEG

    def make_rng(self, stream):
        return random.Random(self.seed * 1_000_003 + stream)


def drive(sched, conn, n, now_ns=0):
    out = []
    for k in range(n):
        i = sched.select(conn, now_ns)
        out.append(i)
        if isinstance(i, int):
            sched.on_sent(conn, i, conn.next_dsn, now_ns)
            conn.next_dsn += 1
    return out


def make(name, conn, **params):
    s = registry.make("scheduler", name, **params)
    assert isinstance(s, ConnectionScheduler)
    s.init(conn)
    return s


def test_round_robin_order_skips_full_subflows_and_waits_when_all_full():
    conn = Conn([Sub(), Sub(), Sub()])
    rr = make("round_robin", conn)
    assert drive(rr, conn, 7) == [0, 1, 2, 0, 1, 2, 0]
    conn.subflows[1].room = False
    assert drive(rr, conn, 4) == [2, 0, 2, 0]  # after 0 came 1 (full) -> 2
    for s in conn.subflows:
        s.room = False
    assert rr.select(conn, 0) is None


def test_select_index_gives_select_s_answers_as_integers_or_defers_to_select():
    from cmtlab.sim.mechanisms.schedulers import NO_SUBFLOW, USE_SELECT
    from cmtlab.sim.mechanisms.schedulers.round_robin import RoundRobinConnectionScheduler

    # the round robin answers in C (select_index), with select()'s answers and effects
    conn_a, conn_b = Conn([Sub(), Sub(), Sub()]), Conn([Sub(), Sub(), Sub()])
    by_select, by_index = make("round_robin", conn_a), make("round_robin", conn_b)
    for k in range(8):
        if k == 4:
            conn_a.subflows[1].room = conn_b.subflows[1].room = False
        i = by_select.select(conn_a, 0)
        j = by_index.select_index(conn_b, 0)
        assert j == i
        by_select.on_sent(conn_a, i, k, 0)
        by_index.on_sent(conn_b, j, k, 0)
    for s in conn_b.subflows:
        s.room = False
    assert by_index.select_index(conn_b, 0) == NO_SUBFLOW and by_index.select(conn_b, 0) is None

    # a subclass's own select() is what counts: its select_index defers to it
    class Always2(RoundRobinConnectionScheduler):
        def select(self, conn, now_ns):
            return 2

    assert Always2().select_index(conn_b, 0) == USE_SELECT
    # a scheduler written in Python answers through select() (the default select_index)
    assert ConnectionScheduler().select_index(conn_b, 0) == USE_SELECT


def test_lowest_rtt_picks_the_smallest_srtt_with_room_unsampled_first():
    conn = Conn([Sub(srtt_s=0.03), Sub(srtt_s=0.01), Sub(srtt_s=0.02)])
    lr = make("lowest_rtt", conn)
    assert lr.select(conn, 0) == 1
    conn.subflows[1].room = False
    assert lr.select(conn, 0) == 2
    conn.subflows.append(Sub(srtt_s=None))  # no RTT sample yet: tried first
    assert lr.select(conn, 0) == 3
    conn.subflows[3].room = False
    conn.subflows[2].srtt = conn.subflows[0].srtt  # tie -> lower index
    assert lr.select(conn, 0) == 0
    for s in conn.subflows:
        s.room = False
    assert lr.select(conn, 0) is None


def test_cwnd_aware_frequencies_follow_cwnd_share_within_binomial_tolerance():
    windows = [10, 30, 60]
    conn = Conn([Sub(cwnd_segs=w) for w in windows], seed=4)
    ca = make("cwnd_aware", conn)
    n = 20_000
    picks = drive(ca, conn, n)
    for i, w in enumerate(windows):
        p = w / sum(windows)
        sigma = math.sqrt(n * p * (1 - p))
        assert abs(picks.count(i) - n * p) < 4.5 * sigma, (i, picks.count(i), n * p)
    # repeatable for a seed, different for another
    again = Conn([Sub(cwnd_segs=w) for w in windows], seed=4)
    assert drive(make("cwnd_aware", again), again, 200) == picks[:200]
    other = Conn([Sub(cwnd_segs=w) for w in windows], seed=5)
    assert drive(make("cwnd_aware", other), other, 200) != picks[:200]


def test_cwnd_aware_full_subflow_wait_keeps_the_draw_redraw_avoids_it():
    conn = Conn([Sub(cwnd_segs=10), Sub(cwnd_segs=90)], seed=1)
    ca = make("cwnd_aware", conn)
    conn.subflows[1].room = False
    answers = [ca.select(conn, 0) for _ in range(50)]
    first_full = answers.index(None) if None in answers else None
    assert first_full is not None  # P(subflow 1) = 0.9: a draw of the full subflow comes at once
    assert all(a is None for a in answers[first_full:])  # the same draw stands
    rd = make("cwnd_aware", conn, when_full="redraw")
    assert drive(rd, conn, 50) == [0] * 50
    for s in conn.subflows:
        s.room = False
    assert rd.select(conn, 0) is None


def test_flow_level_cuts_contiguous_blocks_in_proportion_to_rate():
    conn = Conn([Sub(rate_bps=1e6), Sub(rate_bps=3e6)])
    fl = make("flow_level", conn)  # period 1 s: 4e6 bit / 8000 bit = 500 segments
    picks = drive(fl, conn, 500)
    assert picks == [0] * 125 + [1] * 375
    assert fl.n_plans == 1
    assert drive(fl, conn, 1) == [0] and fl.n_plans == 2  # blocks used up: next plan
    # the transfer's end bounds the plan; a full subflow blocks its own block
    conn = Conn([Sub(rate_bps=1e6), Sub(rate_bps=3e6)], n_dsn=8)
    fl = make("flow_level", conn)
    assert drive(fl, conn, 8) == [0, 0, 1, 1, 1, 1, 1, 1]
    conn = Conn([Sub(rate_bps=1e6, room=False), Sub(rate_bps=3e6)])
    fl = make("flow_level", conn)
    assert fl.select(conn, 0) is None


def test_edpf_sends_to_the_path_with_the_earliest_estimated_arrival():
    # path 0: 10 Mbit/s, 100 ms RTT (tx 0.8 ms + 50 ms); path 1: 1 Mbit/s, 20 ms RTT (tx 8 ms + 10 ms)
    conn = Conn([Sub(rate_bps=10e6, rtt_s=0.1), Sub(rate_bps=1e6, rtt_s=0.02)])
    ed = make("edpf", conn)
    # path 1: 18, 26, 34, 42, 50 ms < 50.8 ms; its sixth (58 ms) loses to path 0 (50.8, 51.6, ... ms)
    assert drive(ed, conn, 7) == [1, 1, 1, 1, 1, 0, 0]
    conn.subflows[1].room = False
    assert ed.select(conn, 0) == 0
    conn.subflows[0].room = False
    assert ed.select(conn, 0) is None


@pytest.mark.parametrize("name,params,match", [
    ("cwnd_aware", {"stream": -1}, r"stream must be >= 0"),
    ("cwnd_aware", {"when_full": "drop"}, r"when_full must be one of \['redraw', 'wait'\]"),
    ("flow_level", {"period_s": 0}, r"period_s must be"),
    ("flow_level", {"rate_source": "x"}, r"rate_source must be one of \['cwnd', 'path'\]"),
    ("edpf", {"delay_source": "x"}, r"delay_source must be one of \['path', 'srtt'\]"),
    ("round_robin", {"speed": 1}, r"scheduler 'round_robin': invalid parameters"),
])
def test_bad_parameters_name_the_parameter_and_the_allowed_values(name, params, match):
    with pytest.raises(ValueError, match=match):
        registry.make("scheduler", name, **params)


def test_edpf_srtt_delay_source_and_flow_level_cwnd_rates():
    conn = Conn([Sub(rate_bps=10e6, rtt_s=0.1, srtt_s=0.01), Sub(rate_bps=10e6, rtt_s=0.02, srtt_s=0.2)])
    assert make("edpf", conn).select(conn, 0) == 1  # static path delays: 10 ms one way beats 50 ms
    assert make("edpf", conn, delay_source="srtt").select(conn, 0) == 0  # measured: 5 ms beats 100 ms
    # cwnd/srtt rates: 10 segments / 10 ms = 8 Mbit/s and 30 segments / 10 ms = 24 Mbit/s -> 1:3
    conn = Conn([Sub(cwnd_segs=10, srtt_s=0.01, rate_bps=1e6), Sub(cwnd_segs=30, srtt_s=0.01, rate_bps=1e6)])
    fl = make("flow_level", conn, rate_source="cwnd", period_s=0.01)
    picks = drive(fl, conn, 40)  # 32 Mbit/s * 10 ms / 8000 bit = 40 segments per period
    assert picks == [0] * 10 + [1] * 30


def test_every_registered_scheduler_builds_with_defaults_and_answers_on_a_stub_connection():
    for name in registry.names("scheduler"):
        if name.startswith("test_"):  # stubs other test modules register (tests/sim/test_multipath.py)
            continue
        conn = Conn([Sub(rate_bps=2e6, rtt_s=0.05, srtt_s=0.05), Sub(rate_bps=1e6, rtt_s=0.1, srtt_s=0.1)], n_dsn=50)
        sched = make(name, conn)
        picks = drive(sched, conn, 50)
        assert all(p in (0, 1) for p in picks if isinstance(p, int)), name
        assert any(isinstance(p, int) for p in picks), name
        for s in conn.subflows:
            s.room = False
        assert not isinstance(sched.select(conn, 10**9), int), name  # nothing fits: no subflow


def test_flow_level_reaches_every_block_even_when_a_period_passes():
    conn = Conn([Sub(rate_bps=1e6), Sub(rate_bps=3e6)])
    fl = make("flow_level", conn, period_s=0.01)  # 5 segments: blocks 1 + 4 (largest remainder: 1.25 -> 1)
    picks = []
    for k in range(10):  # the clock jumps a whole period between picks: the plan still runs to its end
        i = fl.select(conn, k * 10**8)
        fl.on_sent(conn, i, k, k * 10**8)
        picks.append(i)
    assert picks == [0, 1, 1, 1, 1] * 2
