"""Coupled congestion control (cmtlab.sim.mechanisms.congestion) on scripted calls with stub subflows.

The stubs carry exactly the attributes of the engine/mechanism contract (TEAM.md): cwnd,
ssthresh, seg (bytes), srtt (ns) with n_rtt_samples, connection (with .subflows), index, path, cc.
"""

import random
from types import SimpleNamespace

import pytest

from cmtlab.sim import registry
from cmtlab.sim.mechanisms.congestion import NewReno, rfc6356_alpha
from cmtlab.sim.tcp.base import SenderBase

SEG = 1000
COUPLED = ("uncoupled", "fully_coupled", "rtt_compensation", "lia", "olia")


class Sub(SenderBase):
    """A sender's state record (the attributes the mechanisms read) without a sender."""

    def __init__(self, cwnd_segs, rtt_s, conn=None, index=0, ssthresh=None, cc=None):
        self.cwnd = int(cwnd_segs * SEG)
        self.ssthresh = ssthresh if ssthresh is not None else 2  # congestion avoidance by default
        self.seg = SEG
        self.srtt = int(round(rtt_s * 1e9))
        self.n_rtt_samples = 1
        self.connection = conn
        self.index = index
        self.path = SimpleNamespace(rate_bps=10e6, delay_s=rtt_s)
        self.cc = cc


def connection(windows_segs, rtts_s, name="lia", **params):
    conn = SimpleNamespace(subflows=[])
    for i, (w, r) in enumerate(zip(windows_segs, rtts_s)):
        cc = registry.make("congestion", name, **params)
        s = Sub(w, r, conn, i, cc=cc)
        cc.init(s)
        conn.subflows.append(s)
    return conn


def script(seed, n=400):
    rng = random.Random(seed)
    return [("loss", rng.randrange(2, 80) * SEG) if rng.random() < 0.03 else ("ack", rng.choice([0, 1, 1, 1, 2, 3]))
            for _ in range(n)]


def run_script(cc, sub, steps):
    trace = []
    for kind, v in steps:
        if kind == "ack":
            cc.increase_window(sub, v)
        else:
            sub.ssthresh = cc.ssthresh(sub, v)
            sub.cwnd = sub.ssthresh
        trace.append((sub.cwnd, sub.ssthresh))
    return trace


@pytest.mark.parametrize("name,variant", [(n, v) for n in COUPLED for v in ("spec", "chihani")
                                           if not (n == "olia" and v == "chihani")])   # OLIA has no Chihani variant
def test_single_path_tcp_behaves_exactly_as_newreno(name, variant):
    for seed in range(3):
        steps = script(seed)
        ref = Sub(1, 0.05, ssthresh=8 * SEG)
        sub = Sub(1, 0.05, ssthresh=8 * SEG)
        cc = registry.make("congestion", name, variant=variant)
        cc.init(sub)
        assert run_script(cc, sub, steps) == run_script(NewReno(), ref, steps)


def test_uncoupled_is_newreno_on_every_subflow_of_a_connection():
    conn = connection([10, 40], [0.02, 0.2], "uncoupled")
    refs = [Sub(10, 0.02, ssthresh=2), Sub(40, 0.2, ssthresh=2)]
    for i, steps in enumerate([script(7), script(8)]):
        assert run_script(conn.subflows[i].cc, conn.subflows[i], steps) == run_script(NewReno(), refs[i], steps)


def test_lia_alpha_is_rfc6356_formula_by_hand():
    # 2 subflows: windows 20 and 10 segments, RTT 100 and 50 ms
    # total 30000 B; max(w/rtt^2) = 10000/0.0025 = 4e6; sum w/rtt = 2e5 + 2e5 = 4e5
    # alpha = 30000 * 4e6 / 1.6e11 = 0.75
    conn = connection([20, 10], [0.1, 0.05])
    assert conn.subflows[0].cc.alpha(conn.subflows[0]) == pytest.approx(0.75, rel=1e-12)
    # 3 subflows: windows 10, 20, 30 segments, RTT 50, 100, 200 ms
    # max(w/rtt^2) = 10000/0.0025 = 4e6; sum w/rtt = 2e5 + 2e5 + 1.5e5 = 5.5e5
    # alpha = 60000 * 4e6 / 3.025e11 = 240/302.5
    conn = connection([10, 20, 30], [0.05, 0.1, 0.2])
    for s in conn.subflows:
        assert s.cc.alpha(s) == pytest.approx(240 / 302.5, rel=1e-12)
    # equal windows and RTTs: alpha = 1/n
    assert rfc6356_alpha([5, 5, 5, 5], [0.1] * 4) == pytest.approx(0.25)


def test_lia_increase_per_ack_in_bytes_and_fraction_carry():
    conn = connection([20, 10], [0.1, 0.05])
    s = conn.subflows[1]
    # min(alpha * bytes_acked * MSS / total, bytes_acked * MSS / cwnd_1) = min(0.75*2000*1000/30000, 2000*1000/10000)
    assert s.cc.ca_increase(s, 2 * SEG) == pytest.approx(50.0)
    before = s.cwnd
    s.cc.increase_window(s, 2)  # bytes_acked = segments_acked * seg
    assert s.cwnd - before + s.cc._frac == pytest.approx(50.0)
    # a fractional increase is carried, not lost: 7 ACKs of 1 segment at ~25 B each
    exp = 0.0
    for _ in range(7):
        exp += s.cc.ca_increase(s, SEG)
        s.cc.increase_window(s, 1)
    assert abs((s.cwnd - before - 50) - exp) < 1.0


def test_lia_cap_binds_on_the_long_rtt_large_window_subflow():
    # subflow 0: 100 segments at 1 s; subflow 1: 10 segments at 10 ms
    conn = connection([100, 10], [1.0, 0.01])
    s0 = conn.subflows[0]
    a = s0.cc.alpha(s0)
    assert a * s0.cwnd / 110_000 > 1  # the linked term would exceed TCP's increase
    assert s0.cc.ca_increase(s0, SEG) == pytest.approx(SEG * SEG / s0.cwnd)
    for s in conn.subflows:  # the model's LIA, smoothed windows equal to the windows: the same alpha as above
        s.cc = registry.make("congestion", "lia", variant="chihani")
        s.cc.scwnd = float(s.cwnd)
    chihani = s0.cc
    assert chihani.ca_increase(s0, SEG) > SEG * SEG / s0.cwnd  # the Chihani code has no cap


def test_lia_never_more_aggressive_than_tcp_on_any_subflow():
    rng = random.Random(3)
    for _ in range(500):
        n = rng.randint(2, 4)
        conn = connection([rng.randint(1, 200) for _ in range(n)], [rng.uniform(0.005, 1.0) for _ in range(n)])
        for s in conn.subflows:
            k = rng.randint(1, 3)
            inc = s.cc.ca_increase(s, k * SEG)
            assert 0 < inc <= k * SEG * SEG / s.cwnd * (1 + 1e-12)  # RFC 5681 eq. 3 (byte counting)
            if k == 1:  # one segment: within rounding of ns-3's per-ACK NewReno
                assert inc < max(1, SEG * SEG // s.cwnd) + 1


def test_total_increase_per_rtt_with_equal_rtts():
    # one RTT: subflow i receives w_i ACKs of one segment each (windows frozen, fluid argument)
    def per_rtt(conn):
        return sum(s.cwnd // SEG * s.cc.ca_increase(s, SEG) for s in conn.subflows)

    # fully coupled: one NewReno increase (one segment) per RTT over all subflows
    for w in ([10, 20, 30], [5, 5], [1, 99]):
        assert per_rtt(connection(w, [0.1] * len(w), "fully_coupled")) == pytest.approx(SEG)
    # LIA: alpha = max_i w_i / total segments per RTT (1 only when one subflow carries it all)
    assert per_rtt(connection([10, 20, 30], [0.1] * 3)) == pytest.approx(SEG * 30 / 60)
    assert per_rtt(connection([5, 5], [0.1] * 2)) == pytest.approx(SEG / 2)
    assert per_rtt(connection([1000, 1], [0.1] * 2)) == pytest.approx(SEG * 1000 / 1001)
    # uncoupled: one segment per subflow per RTT
    assert per_rtt(connection([10, 20, 30], [0.1] * 3, "uncoupled")) == pytest.approx(3 * SEG, rel=0.01)


def test_fully_coupled_total_grows_like_one_flow_over_many_acks():
    conn = connection([10, 30], [0.1, 0.1], "fully_coupled")
    one = Sub(40, 0.1, ssthresh=2)
    one.connection = SimpleNamespace(subflows=[one])
    one.cc = registry.make("congestion", "fully_coupled")
    rng = random.Random(1)
    for _ in range(3000):
        s = conn.subflows[0] if rng.random() < conn.subflows[0].cwnd / sum(x.cwnd for x in conn.subflows) \
            else conn.subflows[1]
        s.cc.increase_window(s, 1)
        one.cc.increase_window(one, 1)
    total = sum(s.cwnd for s in conn.subflows)
    assert abs(total - one.cwnd) <= 2  # rounding carry of two instances


def test_fully_coupled_loss_takes_half_the_total_from_the_subflow():
    conn = connection([30, 10], [0.1, 0.1], "fully_coupled")
    s0, s1 = conn.subflows
    assert s0.cc.ssthresh(s0, 30 * SEG) == 10 * SEG  # 30 - (30 + 10)/2
    assert s1.cc.ssthresh(s1, 10 * SEG) == 2 * SEG  # 10 - 20 < 2 segments: the floor
    solo = connection([30], [0.1], "fully_coupled").subflows[0]
    assert solo.cc.ssthresh(solo, 30 * SEG) == 15 * SEG  # one subflow: NewReno's FlightSize/2
    from cmtlab.sim.models.chihani import loss_window  # the model's window after a loss (no fast recovery)
    assert loss_window(s0) == 10 * SEG


def test_rtt_compensation_alpha_as_printed_by_arabi():
    conn = connection([10, 10], [0.05, 0.1], "rtt_compensation")
    s0, s1 = conn.subflows
    assert s0.cc.alpha(s0) == pytest.approx(0.5)  # 1/|S| * 0.05/0.05
    assert s1.cc.alpha(s1) == pytest.approx(1.0)  # 1/|S| * 0.1/0.05
    assert s1.cc.ca_increase(s1, SEG) == pytest.approx(min(1.0 * SEG * SEG / 20000, SEG * SEG / 10000))


def test_olia_alpha_partitions_best_and_max_window_paths():
    conn = connection([30, 10, 10], [0.1, 0.1, 0.1], "olia")
    ccs = [s.cc for s in conn.subflows]
    for cc, l_bytes in zip(ccs, [5000, 20000, 8000]):
        cc.l_prev_bytes = l_bytes
    # B = {1} (largest l/rtt^2), M = {0} (largest window): alpha = (-1/(3*1), 1/(3*1), 0)
    assert ccs[0].alphas(conn.subflows[0]) == pytest.approx([-1 / 3, 1 / 3, 0.0])
    # two best paths not in M share the positive part
    ccs[2].l_prev_bytes = 20000
    assert ccs[0].alphas(conn.subflows[0]) == pytest.approx([-1 / 3, 1 / 6, 1 / 6])
    # the best path is the max-window path: B \ M empty, every alpha 0
    ccs[0].l_prev_bytes = 10**6
    assert ccs[0].alphas(conn.subflows[0]) == [0.0, 0.0, 0.0]


def test_olia_increase_formula_and_inter_loss_counting():
    conn = connection([30, 10], [0.1, 0.2], "olia")
    s0, s1 = conn.subflows
    s1.cc.l_prev_bytes = 10**6  # path 1 best, path 0 max window
    # seg^2 * [(W/rtt^2)/(sum W/rtt)^2 + alpha/W]
    denom = (30000 / 0.1 + 10000 / 0.2) ** 2
    exp = SEG * SEG * ((10000 / 0.04) / denom + 0.5 / 10000)  # alpha = 1/(n |B\\M|) = 1/2
    assert s1.cc.ca_increase(s1, SEG) == pytest.approx(exp)
    cc = s0.cc
    cc.init(s0)
    for _ in range(10):
        cc.increase_window(s0, 1)
    cc.ssthresh(s0, s0.cwnd)
    for _ in range(3):
        cc.increase_window(s0, 1)
    assert (cc.l_prev_bytes, cc.l_cur_bytes, cc.inter_loss_bytes) == (10 * SEG, 3 * SEG, 10 * SEG)
    solo = connection([20], [0.1], "olia").subflows[0]
    assert solo.cc.ca_increase(solo, SEG) == pytest.approx(SEG * SEG / solo.cwnd)  # TCP's 1/w


def test_slow_start_is_unchanged_in_a_connection():
    for name in COUPLED:
        conn = connection([2, 4], [0.1, 0.1], name)
        s = conn.subflows[0]
        s.ssthresh = 10 * SEG
        s.cc.increase_window(s, 2)
        assert s.cwnd == 3 * SEG, name  # one SMSS per ACK (RFC 5681), whatever it covers


def test_chihani_variant_counts_acks_and_sets_ssthresh_two_segments():
    grown = []
    for k in (1, 3):  # an ACK of 1 and an ACK of 3 segments grow the window alike (per ACK)
        s = connection([20, 20], [0.1, 0.1], "lia", variant="chihani").subflows[0]
        s.cc.increase_window(s, k)
        grown.append(s.cwnd - 20 * SEG + s.cc._frac)
    assert grown[0] == pytest.approx(grown[1]) and grown[0] > 0
    spec = []
    for k in (1, 3):
        x = connection([20, 20], [0.1, 0.1], "lia").subflows[0]
        x.cc.increase_window(x, k)
        spec.append(x.cwnd - 20 * SEG + x.cc._frac)
    assert spec[1] == pytest.approx(3 * spec[0])  # RFC: per byte acknowledged
    assert s.cc.ssthresh(s, 40 * SEG) == 2 * SEG
    assert s.cc.loss_window(s) == s.cwnd // 2


@pytest.mark.parametrize("name,params,match", [
    ("lia", {"variant": "rfc"}, r"variant must be one of \['chihani', 'spec'\]"),
    ("olia", {"counting": "packets"}, r"counting must be one of \['ack', 'bytes'\]"),
    ("olia", {"variant": "chihani"}, r"variant must be 'spec' for olia"),
    ("rtt_compensation", {"alpha_rule": "x"}, r"alpha_rule must be one of \['arabi', 'rfc6356'\]"),
])
def test_bad_parameters_name_the_parameter_and_the_allowed_values(name, params, match):
    with pytest.raises(ValueError, match=match):
        registry.make("congestion", name, **params)


# ---------------------------------------------------------------- theory and the round model

def test_mathis_and_rfc6356_equilibria():
    from cmtlab.validation import theory as th

    with pytest.raises(TypeError, match="segments_per_ack"):   # b has no default: the caller says what it is
        th.mathis_throughput_bps(1448, 0.1, 0.01)

    # Mathis: 8 * 1448 B / 0.1 s * sqrt(3/2) / sqrt(0.01) = 1.4187e6 bit/s
    assert th.mathis_throughput_bps(1448, 0.1, 0.01, segments_per_ack=1) == pytest.approx(8 * 1448 / 0.1 * 1.5**0.5 / 0.1)
    assert th.mathis_constant(2) == pytest.approx(0.75**0.5)
    one = th.mathis_throughput_bps(1448, 0.1, 0.01, segments_per_ack=1)
    assert th.multipath_throughput_bps("uncoupled", [0.01] * 3, [0.1] * 3) == pytest.approx(3 * one)
    assert th.multipath_throughput_bps("lia", [0.01] * 3, [0.1] * 3) == pytest.approx(one, rel=1e-6)
    # LIA on unequal paths: the best path's single-TCP throughput (RFC 6356 sec. 3's design)
    best = th.mathis_throughput_bps(1448, 0.05, 0.001, segments_per_ack=1)
    assert th.multipath_throughput_bps("lia", [0.01, 0.001], [0.1, 0.05]) == pytest.approx(best, rel=1e-6)
    assert th.multipath_throughput_bps("olia", [0.01, 0.001], [0.1, 0.05]) == pytest.approx(best)
    w = th.lia_equilibrium_windows([0.02, 0.002], [0.1, 0.1])
    assert w[0] / w.sum() == pytest.approx(1 / 11)  # w_i proportional to 1/p_i
    assert th.jain_fairness([1, 1, 1]) == 1.0 and th.jain_fairness([1, 0, 0]) == pytest.approx(1 / 3)
    for bad, match in [(lambda: th.mathis_throughput_bps(1448, 0.1, 0, segments_per_ack=1), "loss_rate must be in"),
                       (lambda: th.mathis_throughput_bps(1448, -1, 0.01, segments_per_ack=1), "rtt_s must be > 0"),
                       (lambda: th.mathis_throughput_bps(1448, 0.1, 0.01, segments_per_ack=1.5), "segments_per_ack"),
                       (lambda: th.multipath_throughput_bps("cubic", [0.01], [0.1]), "algorithm must be one of"),
                       (lambda: th.jain_fairness([-1, 1]), "throughputs must be >= 0")]:
        with pytest.raises(ValueError, match=match):
            bad()


def test_round_model_coupled_algorithms_meet_rfc6356_goals_on_disjoint_paths():
    from cmtlab.validation.round_model import simulate_rounds

    def mean_total(cc, p, rtt, **kw):
        return sum(simulate_rounds(cc, p, rtt, duration_s=300, seed=s, **kw).total_bps for s in range(3)) / 3

    single = mean_total("newreno", [0.01], [0.1])
    unc = mean_total("uncoupled", [0.01] * 3, [0.1] * 3)
    lia = mean_total("lia", [0.01] * 3, [0.1] * 3)
    olia = mean_total("olia", [0.01] * 3, [0.1] * 3)
    assert unc / single == pytest.approx(3, rel=0.15)  # uncoupled: n single TCPs
    assert lia / single == pytest.approx(1, rel=0.25)  # LIA: about one
    assert olia / single == pytest.approx(1, rel=0.25)
    # goal 3: congested path 0 (p = 2 %) and clean path 1 (0.2 %): coupled ones move off path 0
    share = {cc: simulate_rounds(cc, [0.02, 0.002], [0.1, 0.1], duration_s=300, seed=1).subflow_bps[0]
             for cc in ("uncoupled", "lia", "olia")}
    total = {cc: simulate_rounds(cc, [0.02, 0.002], [0.1, 0.1], duration_s=300, seed=1).total_bps
             for cc in ("uncoupled", "lia", "olia")}
    assert share["lia"] / total["lia"] < 0.75 * share["uncoupled"] / total["uncoupled"]
    assert share["olia"] / total["olia"] < 0.75 * share["uncoupled"] / total["uncoupled"]
    # single-path mode of a coupled name is NewReno exactly
    a = simulate_rounds("lia", [0.01, 0.02], [0.1, 0.05], duration_s=50, seed=2, single_path=True)
    b = simulate_rounds("newreno", [0.01, 0.02], [0.1, 0.05], duration_s=50, seed=2)
    assert (a.delivered_segments == b.delivered_segments).all()


def test_validation_tables_over_seeds_with_confidence_intervals():
    from cmtlab.validation import mptcp as v

    calls = []

    def fake(congestion, loss_rates, rtts_s, seed):  # a runner with known answers
        calls.append((congestion, seed))
        n = len(rtts_s) if congestion != "single" else 1
        per = {"single": 1.0, "uncoupled": 1.0, "lia": 1.0 / n, "olia": 0.9 / n}[congestion]
        return [per * 1e6 + seed] * n

    t = v.disjoint_paths_table(3, 0.01, 0.1, seeds=[0, 1], runner=fake).set_index("congestion")
    assert t.loc["uncoupled", "ratio_to_single"] == pytest.approx(3.0, rel=1e-5)
    assert t.loc["lia", "ratio_to_single"] == pytest.approx(1.0, rel=1e-5)
    assert t.loc["uncoupled", "expected_ratio"] == pytest.approx(3.0)
    assert t.loc["olia", "expected_ratio"] == pytest.approx(1.0)
    assert len(calls) == 8 and t.loc["lia", "ci_bps"] > 0
    c = v.congested_clean_table((0.02, 0.002), seeds=[0, 1], runner=v.round_runner(60)).set_index("congestion")
    assert c.loc["uncoupled", "expected_share"] == pytest.approx(0.002**0.5 / (0.02**0.5 + 0.002**0.5))
    assert c.loc["lia", "expected_share"] == pytest.approx(1 / 11)
    assert (c.congested_share > 0).all() and (c.congested_share < 0.5).all()
    with pytest.raises(ValueError, match="loss_rates must be two values in"):
        v.congested_clean_table((0.1,))
    with pytest.raises(ValueError, match="n_paths must be >= 1"):
        v.disjoint_paths_table(0)


def test_rtt_source_smoothed_then_path_then_left_out():
    conn = connection([10, 10], [0.1, 0.1])
    s0, s1 = conn.subflows
    s1.n_rtt_samples = 0  # no sample yet: the path's static round trip (0.1 s) stands in
    s1.srtt = 1
    assert s0.cc.alpha(s0) == pytest.approx(0.5)
    s1.path.delay_s = 0.4  # now in the sums with 0.4 s
    assert s0.cc.alpha(s0) == pytest.approx(rfc6356_alpha([10, 10], [0.1, 0.4]))
    s1.path = None  # no RTT at all: counts in cwnd_total only
    assert s0.cc.alpha(s0) == pytest.approx(rfc6356_alpha([10, 10], [0.1, None]))
    assert rfc6356_alpha([10, 10], [0.1, None]) == pytest.approx(20 * (10 / 0.01) / (10 / 0.1) ** 2)


def test_olia_max_window_path_can_shrink_but_not_below_one_segment():
    conn = connection([2, 1], [1.0, 0.1], "olia")  # path 0: largest window, small share of sum w/rtt
    s0, s1 = conn.subflows
    s1.cc.l_prev_bytes = 10**9  # path 1 best, path 0 (largest window) loses alpha = -1/2
    assert s0.cc.alphas(s0)[0] == pytest.approx(-0.5)
    assert s0.cc.ca_increase(s0, SEG) < 0
    for _ in range(50):
        s0.cc.increase_window(s0, 1)
    assert s0.cwnd == SEG


def test_chihani_alpha_uses_the_smoothed_windows():
    conn = connection([10, 10], [0.1, 0.1], "lia", variant="chihani")
    s0, s1 = conn.subflows
    s0.cc.increase_window(s0, 1)  # first CA ACK: scwnd starts at cwnd
    s1.cc.increase_window(s1, 1)
    assert s0.cc.scwnd == pytest.approx(10 * SEG)
    s1.cwnd = 30 * SEG
    s1.cc.increase_window(s1, 1)  # scwnd = 0.875 * 10000 + 0.125 * 30000 (+ the increase)
    assert s1.cc.scwnd == pytest.approx(0.875 * 10 * SEG + 0.125 * 30 * SEG)
    windows = [s0.cc.scwnd, s1.cc.scwnd]
    assert s0.cc.alpha(s0) == pytest.approx(rfc6356_alpha(windows, [0.1, 0.1]))
    assert s0.cc.alpha(s0) != pytest.approx(rfc6356_alpha([s0.cwnd, s1.cwnd], [0.1, 0.1]))
    # the increase divides by the raw total, without the cap
    assert s0.cc.ca_increase(s0, SEG) == pytest.approx(s0.cc.alpha(s0) * SEG * SEG / (s0.cwnd + s1.cwnd))
    # a subflow without a congestion-avoidance ACK yet has scwnd 0: it adds nothing to alpha
    fresh = connection([10, 40], [0.1, 0.1], "lia", variant="chihani")
    f0, f1 = fresh.subflows
    f0.cc.increase_window(f0, 1)
    assert f1.cc.scwnd == 0.0 and f0.cc.alpha(f0) == pytest.approx(1.0)


def test_lia_one_pass_increase_equals_the_rfc_formula_on_random_connections():
    rng = random.Random(11)
    for _ in range(1000):
        n = rng.randint(1, 4)
        conn = connection([rng.randint(1, 300) for _ in range(n)], [rng.uniform(0.001, 2.0) for _ in range(n)])
        total = sum(s.cwnd for s in conn.subflows)
        for s in conn.subflows:
            ref = min(s.cc.alpha(s) * 2 * SEG * SEG / total, 2 * SEG * SEG / s.cwnd)
            assert s.cc.ca_increase(s, 2 * SEG) == pytest.approx(ref, rel=1e-12)


def test_model_lia_one_pass_equals_its_general_path_exactly():
    """The model's LIA (``variant="chihani"``) in one pass (``ChihaniLia.increase_window``) against the
    general path it writes out (``ChihaniCoupled.increase_window`` over ``ca_increase``/``alpha``), on
    the same random scripts: every window, smoothed window and carried fraction equal to the bit."""
    from cmtlab.sim.models.chihani import ChihaniCoupled

    rng = random.Random(5)
    for trial in range(200):
        n = rng.randint(1, 4)
        wins = [rng.randint(1, 300) for _ in range(n)]
        rtts = [rng.uniform(0.001, 2.0) for _ in range(n)]
        fast = connection(wins, rtts, "lia", variant="chihani")
        slow = connection(wins, rtts, "lia", variant="chihani")
        ss = [w * SEG + rng.choice([-2, 0, 3]) * SEG for w in wins]  # some subflows in slow start
        for conn in (fast, slow):
            for s, ssthresh in zip(conn.subflows, ss):
                s.ssthresh = ssthresh
                if trial % 7 == 0:
                    s.n_rtt_samples = 0  # the path's RTT instead of the smoothed one
        steps = [(rng.randrange(n), rng.choice([0, 1, 1, 2, 3])) for _ in range(60)]
        for i, acked in steps:
            f, g = fast.subflows[i], slow.subflows[i]
            f.cc.increase_window(f, acked)
            ChihaniCoupled.increase_window(g.cc, g, acked)
            assert [(s.cwnd, s.cc.scwnd, s.cc._frac) for s in fast.subflows] == \
                [(s.cwnd, s.cc.scwnd, s.cc._frac) for s in slow.subflows]


def test_chihani_recovery_halves_the_window_without_inflation_and_keeps_it_on_exit():
    conn = connection([20, 20], [0.1, 0.1], "lia", variant="chihani")
    s = conn.subflows[0]
    rec = registry.make("recovery", "chihani")
    s.ssthresh = s.cc.ssthresh(s, 20 * SEG)
    assert s.ssthresh == 2 * SEG
    rec.enter(s, 3, 20 * SEG, 0)
    assert s.cwnd == 10 * SEG
    rec.on_ack(s, SEG, True)
    assert s.cwnd == 10 * SEG  # no inflation
    s.cwnd = s.ssthresh  # what the sender does at the end of recovery
    rec.exit(s)
    assert s.cwnd == 10 * SEG
    fc = connection([30, 10], [0.1, 0.1], "fully_coupled", variant="chihani")
    rec.enter(fc.subflows[0], 3, 30 * SEG, 0)
    assert fc.subflows[0].cwnd == 10 * SEG  # max(30 - 40/2, 1)


@pytest.mark.parametrize("kwargs,match", [
    (dict(loss_rates=[1.0], rtts_s=[0.1]), r"loss_rates must be in \[0, 1\)"),
    (dict(loss_rates=[0.01], rtts_s=[0.0]), r"rtts_s must be > 0"),
    (dict(loss_rates=[0.01, 0.02], rtts_s=[0.1, 0.1, 0.1]), "same length"),
    (dict(loss_rates=[0.01], rtts_s=[0.1], duration_s=0), "duration_s must be"),
    (dict(loss_rates=[0.01], rtts_s=[0.1], initial_cwnd_segments=0), "initial_cwnd_segments must be >= 1"),
])
def test_round_model_bad_input_names_the_parameter(kwargs, match):
    from cmtlab.validation.round_model import simulate_rounds

    with pytest.raises(ValueError, match=match):
        simulate_rounds("lia", **kwargs)


def test_every_registered_congestion_control_is_newreno_on_single_path_tcp():
    # every coupled algorithm (and NewReno itself); single-path algorithms of their own (CUBIC) are not NewReno
    from cmtlab.sim.mechanisms.congestion import CoupledCongestionControl

    steps = script(21)
    names = [n for n in registry.names("congestion")
             if n == "newreno" or issubclass(registry.lookup("congestion", n), CoupledCongestionControl)]
    assert set(COUPLED) <= set(names)
    for name in names:
        ref, sub = Sub(1, 0.05, ssthresh=8 * SEG), Sub(1, 0.05, ssthresh=8 * SEG)
        cc = registry.make("congestion", name)
        cc.init(sub)
        assert run_script(cc, sub, steps) == run_script(NewReno(), ref, steps), name


def test_single_path_runs_of_the_engine_are_identical_with_every_coupled_algorithm():
    # end to end through today's single-connection engine (its TcpSender has no connection):
    # every coupled name must reproduce the NewReno run exactly, losses and recoveries included
    from cmtlab.scenario import LossModel, striped_scenario
    from cmtlab.sim import Simulation

    sc = striped_scenario([5e6, 2e6], [0.04, 0.1], transfer_bytes=300_000, loss=LossModel("packet", 0.01), seed=3)
    ref = Simulation(sc, congestion=NewReno()).run()
    assert ref.fast_retransmits > 0
    for name in COUPLED:
        r = Simulation(sc, congestion=registry.make("congestion", name)).run()
        assert (r.completion_time_s, r.data_segments_sent, r.retransmissions, r.timeouts) == \
            (ref.completion_time_s, ref.data_segments_sent, ref.retransmissions, ref.timeouts), name


# ---------------------------------------------------------------- end to end (needs the MPTCP engine)

def test_packet_level_disjoint_paths_uncoupled_n_and_coupled_about_one():
    from cmtlab.validation import mptcp as v

    run = v.packet_runner(duration_s=120.0, congestion_params={"counting": "ack"})  # shorter runs: slow-start transients
    t = v.disjoint_paths_table(3, 0.01, 0.1, seeds=range(3), runner=run).set_index("congestion")
    assert t.loc["uncoupled", "ratio_to_single"] == pytest.approx(3, rel=0.25)
    for cc in ("lia", "olia"):
        assert t.loc[cc, "ratio_to_single"] == pytest.approx(1, rel=0.35), cc
        assert t.loc[cc, "ratio_to_single"] < t.loc["uncoupled", "ratio_to_single"] / 2


def test_packet_level_shared_bottleneck_lia_takes_about_one_tcp_share():
    from cmtlab.validation import mptcp as v

    t = v.shared_bottleneck_table(2, 10e6, 0.04, seeds=[0], duration_s=60.0, algorithms=("uncoupled", "lia"),
                                  congestion_params={"counting": "ack"}).set_index("congestion")
    assert t.loc["uncoupled", "ratio_to_tcp"] == pytest.approx(2, rel=0.25)  # two flows against one
    assert t.loc["lia", "ratio_to_tcp"] == pytest.approx(1, rel=0.25)  # RFC 6356 goal 2 (do no harm)


# ---------------------------------------------------------------- LIA is the frame over its ca_increase
from cmtlab.sim.mechanisms.congestion import Lia  # noqa: E402
from cmtlab.sim.models.chihani import ChihaniLia  # noqa: E402


class _PassLia(Lia):
    """LIA's own increase, reached as a subclass's (the compiled frame finds this Python override)."""

    def ca_increase(self, sub, bytes_acked):
        return Lia.ca_increase(self, sub, bytes_acked)


class _HalfLia(Lia):
    def ca_increase(self, sub, bytes_acked):
        return Lia.ca_increase(self, sub, bytes_acked) / 2


class _PassChihaniLia(ChihaniLia):
    def ca_increase(self, sub, bytes_acked):
        return ChihaniLia.ca_increase(self, sub, bytes_acked)


class _HalfChihaniLia(ChihaniLia):
    def ca_increase(self, sub, bytes_acked):
        return ChihaniLia.ca_increase(self, sub, bytes_acked) / 2


def _coupled_run(make_cc, seed, n_acks=1500):
    """Windows of three subflows of one connection under a seeded mix of ACKs (1-3 segments) and losses."""
    rng = random.Random(seed)
    conn = SimpleNamespace(subflows=[])
    for i, (w, r) in enumerate(zip((4, 12, 30), (0.03, 0.1, 0.25))):
        cc = make_cc()
        s = Sub(w, r, conn, i, ssthresh=8 * SEG, cc=cc)
        cc.init(s)
        conn.subflows.append(s)
    trace = []
    for _ in range(n_acks):
        s = rng.choice(conn.subflows)
        if rng.random() < 0.02:
            s.ssthresh = s.cc.ssthresh(s, s.cwnd)
            s.cwnd = s.ssthresh
        else:
            s.cc.increase_window(s, rng.choice([1, 1, 2, 3]))
        trace.append(tuple((x.cwnd, x.ssthresh) for x in conn.subflows))
    return trace


@pytest.mark.parametrize("counting", ["bytes", "ack"])
def test_lia_is_the_coupled_frame_over_its_ca_increase(counting):
    """LIA has one copy of its arithmetic (``Lia.ca_increase``): the frame calls it, so a subclass that only
    passes it through gives LIA's windows bit for bit, and one that halves it gives other, smaller windows
    (before, LIA's ``increase_window`` inlined ``ca_increase``: editing it changed nothing for LIA itself)."""
    for seed in range(4):
        lia = _coupled_run(lambda: Lia(counting=counting), seed)
        assert _coupled_run(lambda: _PassLia(counting=counting), seed) == lia
        half = _coupled_run(lambda: _HalfLia(counting=counting), seed)
        assert half != lia
        assert sum(w for w, _ in half[-1]) < sum(w for w, _ in lia[-1])


def test_the_models_lia_is_the_frame_over_its_ca_increase_and_alpha():
    """The model's LIA (``variant="chihani"``) is the same frame over its own ``ca_increase``: RFC 6356's
    alpha (:func:`rfc6356_alpha`) on the smoothed windows, over the raw windows' total, no cap.  A
    pass-through subclass agrees bit for bit, a halving one does not; and each increase equals
    ``alpha * bytes_acked * MSS / total`` computed from :meth:`Lia.alpha` exactly."""
    for seed in range(4):
        model = _coupled_run(lambda: registry.make("congestion", "lia", variant="chihani"), seed)
        assert type(registry.make("congestion", "lia", variant="chihani")) is ChihaniLia
        assert _coupled_run(_PassChihaniLia, seed) == model
        assert _coupled_run(_HalfChihaniLia, seed) != model
    conn = connection([4, 12, 30], [0.03, 0.1, 0.25], variant="chihani")
    rng = random.Random(5)
    for _ in range(300):
        s = rng.choice(conn.subflows)
        s.cc.increase_window(s, 1)
        k = rng.choice([1, 2])
        total = sum(x.cwnd for x in conn.subflows)
        windows = [x.cc.scwnd for x in conn.subflows]
        alpha = rfc6356_alpha(windows, [x.srtt / 1e9 for x in conn.subflows])
        assert s.cc.alpha(s) == alpha
        assert s.cc.ca_increase(s, k * SEG) == alpha * (k * SEG) * SEG / total


@pytest.mark.parametrize("variant, through", [("spec", _PassLia), ("chihani", _PassChihaniLia)])
def test_lia_in_the_engine_runs_its_ca_increase(variant, through):
    """In the simulator (compiled or not), LIA's windows are those of the frame over ``ca_increase``: a run whose
    subflows use a pass-through subclass is the run of ``"lia"`` itself, packet for packet."""
    from cmtlab.scenario import LossModel
    from cmtlab.sim.multipath import MptcpSimulation
    from cmtlab.sim.mptcp.scenario import mptcp_scenario

    sc = mptcp_scenario([5e6, 2e6, 7e6], [0.1, 0.01, 0.05], transfer_bytes=400_000, congestion="lia",
                        congestion_params={"variant": variant}, loss=LossModel("packet", 0.01), seed=4)

    def run(replace):
        r = MptcpSimulation(sc, trace=True)
        if replace:
            for sub in r.conn.subflows:
                sub.cc = through()
                sub.cc.init(sub)
        res = r.run()
        return res.traces["cwnd"].to_csv(), res.data_segments_sent, res.completion_time_s

    assert run(True) == run(False)
