"""cmtlab.papers.osia: preprocessing, progressive water-filling, errata of eqs. 3 and 13, Theorem 2, round robin."""

import numpy as np
import pytest

from cmtlab.papers import osia
from cmtlab.papers.osia import checks, timeline

# ----------------------------------------------------------------------------- preprocessing (sec. 3.2)


def test_preprocess_sorts_and_merges_equal_delays():
    ps = osia.preprocess([1e6, 2e6, 3e6, 4e6], [0.080, 0.0401, 0.0399, 0.020])
    assert np.allclose(ps.delays_s, [0.020, 0.0399, 0.080])
    assert np.allclose(ps.rates_bps, [4e6, 5e6, 1e6])  # 40.1 ms and 39.9 ms round to 0.04 s
    assert ps.members[1] == (2, 1)


def test_merge_rules_differ_at_a_rounding_boundary():
    rates, delays = [1e6, 1e6], [0.0149, 0.0151]  # 0.2 ms apart, but round to 0.01 and 0.02 s
    assert osia.preprocess(rates, delays).n == 2
    assert osia.preprocess(rates, delays, merge="window").n == 1
    assert osia.preprocess(rates, delays, resolution_s=0).n == 2
    assert osia.preprocess(rates, [0.0151, 0.0151], resolution_s=0).n == 1


def test_merged_delay_choice():
    ps = osia.preprocess([1e6, 1e6], [0.041, 0.044], merged_delay="max")
    assert ps.n == 1 and ps.delays_s[0] == pytest.approx(0.044)


@pytest.mark.parametrize("kwargs, match", [
    (dict(rates_bps=[], delays_s=[]), "rates_bps"),
    (dict(rates_bps=[1e6, 0.0], delays_s=[0.01, 0.02]), "rates_bps must be > 0"),
    (dict(rates_bps=[1e6], delays_s=[-0.01]), "delays_s must be >= 0"),
    (dict(rates_bps=[1e6, 2e6], delays_s=[0.01]), "one value per path"),
    (dict(rates_bps=[1e6], delays_s=[0.01], merge="chain"), "merge must be one of"),
    (dict(rates_bps=[1e6], delays_s=[0.01], resolution_s=-1), "resolution_s must be >= 0"),
])
def test_preprocess_rejects_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        osia.preprocess(**kwargs)


# ----------------------------------------------------------------------------- water-filling (eqs. 7-13)


def _random_pathset(rng, n):
    return osia.preprocess(rng.uniform(0.2e6, 10e6, n), rng.uniform(0.005, 0.2, n))


@pytest.mark.parametrize("seed", range(5))
def test_bucket_model_identities(seed):
    rng = np.random.default_rng(seed)
    ps = _random_pathset(rng, 5)
    L = ps.delays_s[-1] + 0.3
    x = osia.chunk_bits(ps, L)
    W = osia.total_data_bits(ps, L)
    assert x.sum() == pytest.approx(W)  # eq. 11
    # eq. 8: every bucket filled to the common level L*
    q = osia.path_shares(ps, L)
    assert np.allclose(W * q / ps.rates_bps + ps.delays_s, L)
    assert np.allclose(x.sum(axis=1), W * q)
    # eq. 9: equal height increase of all participating buckets per chunk
    width = np.diff(osia.borders_s(ps, L))
    for h in range(ps.n):
        assert np.allclose(x[: h + 1, h] / ps.rates_bps[: h + 1], width[h])
    f = osia.chunk_fractions(ps, L)
    g = osia.path_probabilities(ps)
    assert f.sum() == pytest.approx(1.0)  # eq. 6
    assert np.allclose(g.sum(axis=0), 1.0)
    assert np.allclose(f[None, :] * g * W, x)  # eq. 10 = eq. 12 x f_h


@pytest.mark.parametrize("seed", range(5))
def test_printed_eq13_is_the_cumulative_fraction(seed):
    ps = _random_pathset(np.random.default_rng(seed), 4)
    cons = osia.chunk_fractions(ps)
    printed = osia.chunk_fractions(ps, form="printed")
    assert np.allclose(printed[:-1], np.cumsum(cons)[:-1])
    assert printed[-2] == pytest.approx(1.0)
    assert np.nansum(printed) > 1.0 + 1e-9  # violates f_1 + ... + f_N = 1 of eq. 6


def test_sec41_worked_example_on_table1_three_paths():
    ps = osia.preprocess(*osia.table1_paths(3))  # sorted: 40 ms/2, 60 ms/0.75, 80 ms/1.25 Mbit/s
    b, d = ps.rates_bps, ps.delays_s
    denom = (b * (d[-1] - d)).sum()
    sec41 = osia.chunk_fractions(ps, form="sec4.1")
    cons = osia.chunk_fractions(ps)
    # f_1 = g_11 ... = b_1 (d_2 - d_1) / sum: printed and consistent agree
    assert sec41[0] == pytest.approx(b[0] * (d[1] - d[0]) / denom) == pytest.approx(cons[0])
    # f_2 of sec. 4.1 drops b_1 (d_3 - d_2): neither the chunk fraction nor eq. 13
    assert sec41[1] == pytest.approx(b[1] * (d[2] - d[1]) / denom)
    assert cons[1] == pytest.approx((b[0] + b[1]) * (d[2] - d[1]) / denom)
    assert sec41[1] < cons[1]
    g = osia.path_probabilities(ps)
    assert g[0, 1] == pytest.approx(b[0] / (b[0] + b[1]))  # g_12 of sec. 4.1
    assert g[1, 1] == pytest.approx(b[1] / (b[0] + b[1]))


def test_start_times_consistent_vs_corollary1():
    ps = osia.preprocess(*osia.table1_paths(4))  # delays 20, 40, 80, 100 ms: uneven gaps
    c = osia.start_times(ps)
    p = osia.start_times(ps, form="printed")
    assert np.allclose(np.diag(c), 0) and np.allclose(np.diag(p), 0)
    for h in range(ps.n - 1):  # eq. 2 holds for the consistent form
        for i in range(h + 1):
            assert c[i, h] == pytest.approx(c[i, h + 1] - (ps.delays_s[h + 1] - ps.delays_s[h]))
    assert c[1, 2] == pytest.approx(0.040) and p[1, 2] == pytest.approx(0.020)  # ST_2^3
    even = osia.preprocess([1e6, 2e6, 3e6], [0.01, 0.03, 0.05])
    assert np.allclose(osia.start_times(even), osia.start_times(even, form="printed"), equal_nan=True)


def test_leaky_bucket_plan_is_in_order_in_the_fluid_model_only_when_consistent():
    ps = osia.preprocess(*osia.table1_paths(4))
    ok = osia.fluid_order_violation_s(osia.leaky_buckets(ps, ps.delays_s[-1] + 0.1))
    assert max(ok.values()) < 1e-12
    bad_start = osia.fluid_order_violation_s(osia.leaky_buckets(ps, start_form="printed"))
    assert bad_start["overlap_s"] == pytest.approx(0.020)
    bad_f = osia.fluid_order_violation_s(osia.leaky_buckets(ps, fraction_form="printed"))
    assert bad_f["disorder_s"] > 1e-3


def test_water_filling_rejects_bad_input():
    ps = osia.preprocess(*osia.table1_paths(2))
    with pytest.raises(ValueError, match="level_s"):
        osia.chunk_bits(ps, 0.01)
    with pytest.raises(ValueError, match="form must be one of"):
        osia.chunk_fractions(ps, form="typo")
    with pytest.raises(ValueError, match="paths must be"):
        osia.chunk_bits([1e6, 2e6])
    with pytest.raises(ValueError, match="n_paths"):
        osia.table1_paths(5)


# ----------------------------------------------------------------------------- the LP of eqs. 5-6


def test_lp_agrees_with_water_filling_on_random_path_sets():
    lp = checks.lp_check(25, seed=3)
    assert len(lp) > 15
    assert lp.W_rel_err.max() < 1e-7
    assert lp.x_rel_err.max() < 1e-7
    assert lp.f_err_consistent.max() < 1e-7
    assert lp.g_err.max() < 1e-7
    assert lp.f_err_printed[lp.N >= 3].min() > 1e-3
    # eq. 6 with the printed start-time equalities is feasible exactly for evenly spaced delays
    assert (lp.printed_feasible == lp.evenly_spaced).all()
    assert (~lp.printed_feasible).sum() > 5


# ----------------------------------------------------------------------------- per-packet timeline


def test_reorder_stats_counts_dupacks_and_events():
    # packet 0 arrives last: 1, 2, 3, 4 are four duplicates of ACK 0 -> one 3-dupACK event
    stats = timeline.reorder_stats([5.0, 1.0, 2.0, 3.0, 4.0])
    assert stats == dict(late_packets=1, dupacks=4, events=1, max_dupacks=4, in_order=False)
    assert timeline.reorder_stats([1.0, 1.0, 2.0])["in_order"]  # ties are taken in sequence order


def test_arrival_times_serialise_per_path():
    arr = timeline.arrival_times_s([0, 0, 1], [0.0, 0.0, 0.5], [8000.0, 8000.0], [0.1, 0.2], 1000)
    assert np.allclose(arr, [1.1, 2.1, 1.7])


@pytest.mark.parametrize("n_paths", [2, 3, 4])
def test_consistent_schedule_arrives_in_order_on_table1(n_paths):
    ps = osia.preprocess(*osia.table1_paths(n_paths))
    r = checks.packet_run(ps)
    assert r["in_order"] and r["events"] == 0
    sched = r["schedule"]
    assert np.allclose(r["arrival_s"], sched.planned_arrival_s)  # the faucets' plan is what happens


def test_consistent_schedule_in_order_on_random_sets_printed_forms_not():
    pc = checks.packet_check(20, seed=11)
    by = pc.groupby("form").in_order.mean()
    assert by["consistent (default)"] == 1.0
    assert by["printed eq. 13 chunk fractions"] < 0.9
    assert by["printed eq. 3 start times"] < 0.9
    assert by["consistent, probabilistic faucets (paper)"] < 0.5


def test_round_robin_closed_form_matches_timeline():
    paced = checks.rr_closed_form_check([0.5, 1, 2, 4, 8], [0.25, 1, 4], spacing_s=0.02)
    assert (paced.closed_form == paced.timeline).all()
    filled = checks.rr_closed_form_check([0.5, 2, 8], [0.125, 0.5, 1, 2, 8])
    assert (filled.closed_form - filled.timeline).abs().max() <= 1.0


def test_paced_round_robin_needs_five_spacings_of_delay_difference():
    tau = 0.01
    for delta_spacings, events in ((4.9, 0), (5.1, 1)):
        b = [1e6, 1e6]
        d = [0.05, 0.05 + delta_spacings * tau]
        cf = timeline.rr_three_dupack_closed_form(b, d, 1000, 200, tau)
        tl = timeline.run_schedule((b, d), timeline.round_robin_schedule(2, 200, tau), 1000)
        assert cf["expected"] == tl["events"] == events


# ----------------------------------------------------------------------------- Theorem 2


def test_two_path_condition_is_b1_less_than_7_b2():
    assert osia.two_path_threshold(4) == pytest.approx(0.125)
    assert osia.two_path_condition(6.9e6, 1e6) and not osia.two_path_condition(7.1e6, 1e6)
    r = np.array([0.1, 0.3])
    for b1 in (3.0, 6.9, 7.1, 10.0):
        g22 = 1 / (b1 + 1)  # eq. 12 with b_2 = 1
        assert osia.theorem2_holds(r, [1 - g22, g22]) == osia.two_path_condition(b1, 1.0)


def test_theorem2_ratio_equal_rtts_and_bad_input():
    assert np.all(osia.theorem2_ratio([0.1, 0.1], [0.5, 0.5]) == 0)
    with pytest.raises(ValueError, match="probs"):
        osia.theorem2_ratio([0.1, 0.2], [0.5, 0.6])
    with pytest.raises(ValueError, match="K must be > 0"):
        osia.two_path_threshold(0)


def test_theorem2_against_rto_montecarlo():
    r = osia.rtt_s([3e6, 1e6], [0.04, 0.08], 1000)
    grid = np.round(np.arange(0.0575, 0.40, 0.025), 4)  # 0.0575, 0.0825, ..., avoids the tie at 1/8
    th = checks.theorem2_check(r, grid, n_packets=1500, n_runs=100, seed=5)
    assert checks.threshold_from(th, "eq22_holds") == pytest.approx(0.1325)  # first grid point > 1/8
    # the averaged RTO of eq. 21 (RFC 6298 deviation) switches where eq. 25 says
    assert checks.threshold_from(th, "mean_field_holds_rfc6298") == pytest.approx(0.125, abs=0.03)
    # with the deviation of eq. 17 as printed (|RTT - R_i|) V shrinks by alpha: threshold near 1/7
    assert checks.threshold_from(th, "mean_field_holds_printed") == pytest.approx(1 / 7, abs=0.03)
    # but the per-packet estimator still times out spuriously above the threshold (Table 1: g_22 = 1/4)
    at_table1 = checks.theorem2_check(r, [0.25], n_packets=1500, n_runs=100, seed=5).iloc[0]
    assert at_table1.eq22_holds and at_table1.timeout_fraction_rfc6298 > 0.005


def test_appendix_a_reductions():
    a3 = checks.appendix_a3_check(600, seed=2)
    for case, col in (("r2 above rbar (eq. 28)", "eq28_holds"), ("r2 below rbar (eq. 29)", "eq29_holds")):
        sub = a3[a3.case == case]
        assert (sub.eq22_holds == sub[col]).all()
    sub = a3[a3.case == "r2 above rbar (eq. 28)"]
    assert (sub.eq22_holds != sub.eq30_holds).any() and (sub.eq22_holds != sub.eq31_holds).any()


def test_rto_montecarlo_is_seeded_and_validates():
    a = checks.rto_montecarlo([0.1, 0.2], [0.5, 0.5], n_packets=300, n_runs=10, warmup=10, seed=1)
    b = checks.rto_montecarlo([0.1, 0.2], [0.5, 0.5], n_packets=300, n_runs=10, warmup=10, seed=1)
    assert a["timeout_fraction"] == b["timeout_fraction"]
    with pytest.raises(ValueError, match="deviation must be one of"):
        checks.rto_montecarlo([0.1, 0.2], [0.5, 0.5], deviation="x")


def test_eq31_is_eq28_without_the_g23_term_and_eq30_is_inverted():
    from cmtlab.papers.osia.model import appendix_a3_printed_bounds

    rng = np.random.default_rng(4)
    K = 4.0
    n = 0
    for _ in range(3000):
        r1, r2, r3 = np.sort(rng.uniform(0.02, 0.3, 3))
        g1, g2, g3 = rng.dirichlet(np.ones(3))
        if 2 * K * g3 <= 1:
            continue
        n += 1
        approx = g1 * (r3 - r1) + g2 * (r3 - r2) < 2 * K * g1 * g3 * (r3 - r1)
        bounds = appendix_a3_printed_bounds([r1, r2, r3], g3, K)
        assert approx == (g1 > bounds["g13_min"])
        inverted = (1 - g3) * (r3 - r1) * (2 * K * g3 - 1) / (2 * K * g3 * (r3 - r1) + r1 - r2)
        assert approx == (g2 < inverted)
    assert n > 1000


@pytest.mark.parametrize("scale", [1e100, 1e200, 1e300, 1e-300])
def test_chunk_fractions_are_scale_free_for_huge_and_tiny_rates(scale):
    """chunk_fractions overflowed to NaN (or 0) on huge rates: the fractions depend on rate ratios only."""
    from cmtlab.papers.osia.model import chunk_fractions, path_probabilities, path_shares

    rates, delays = np.array([1e6, 3e6, 2e6]), [0.01, 0.05, 0.2]
    for form in ("consistent", "printed", "sec4.1"):
        want = chunk_fractions((rates, delays), form=form)
        got = chunk_fractions((rates * scale, delays), form=form)
        assert np.array_equal(np.isnan(want), np.isnan(got))
        assert np.allclose(got[~np.isnan(got)], want[~np.isnan(want)], rtol=1e-12, atol=0), form
    for level in (0.3, 1e300):
        assert np.allclose(chunk_fractions((rates * scale, delays), level), chunk_fractions((rates, delays), level),
                           rtol=1e-12, atol=0)
        assert np.allclose(path_shares((rates * scale, delays), level), path_shares((rates, delays), level),
                           rtol=1e-12, atol=0)
    assert np.allclose(path_probabilities((rates * scale, delays)), path_probabilities((rates, delays)),
                       rtol=1e-12, atol=0)


def test_osia_model_bounds_are_explicit():
    from cmtlab.papers.osia.model import preprocess, total_data_bits

    with pytest.raises(ValueError, match="exceeds the float range"):
        total_data_bits(([1e308, 1e308], [0.01, 0.05]), 1.0)
    with pytest.raises(ValueError, match=r"delays_s must be >= 0 and <= 1e\+09"):
        preprocess([1e6, 1e6], [0.01, 1e300])
    with pytest.raises(ValueError, match="resolution_s must be 0 .* or >= 1e-12"):
        preprocess([1e6], [0.1], resolution_s=1e-300)
