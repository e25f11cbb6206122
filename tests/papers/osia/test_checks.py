"""cmtlab.papers.osia.checks: Table 1 worked through, the linear program on Table 1, the RTO estimator with and
without a minimum, the operation count of the closed form."""

import numpy as np
import pandas as pd
import pytest

from cmtlab.papers import osia
from cmtlab.papers.osia import checks


def test_worked_example_lines_read_as_numbers_and_show_the_printed_sum():
    """Table I worked through: the consistent f_h sum to one, eq. 13 as printed does not (3 paths:
    1.4211), and the lines hold numbers, never an array's repr."""
    sets = {n: osia.preprocess(*osia.table1_paths(n)) for n in (2, 3, 4)}
    lines = checks.worked_example_lines(sets)
    assert not any("[" in ln or "]" in ln or "nan" in ln for ln in lines)
    i = lines.index("3 paths (sorted)")
    assert lines[i + 1].endswith("(sum 1.0000)")
    assert lines[i + 2] == "  f_h, eq. 13 as printed: 0.4211, 1.0000 (sum 1.4211)"
    assert sum(ln.startswith("  chunk") for ln in lines) == 2 + 3 + 4


# ----------------------------------------------------------------------------- the chapter's new checks

def test_averaged_rto_thresholds_meet_eq25_with_rfc6298_and_one_seventh_as_printed():
    from cmtlab.papers import osia
    from cmtlab.stats import mean_ci

    r = osia.rtt_s([3e6, 1e6], [0.04, 0.08], 1000)
    rfc = checks.averaged_rto_thresholds(r, n_packets=3000, n_runs=80, seed=3)
    printed = checks.averaged_rto_thresholds(r, deviation="printed", n_packets=3000, n_runs=80, seed=3)
    m, half, _ = mean_ci(rfc)
    assert abs(m - 0.125) <= max(half, 0.002) and half < 0.004         # eq. 25: 1/(2K)
    m, half, _ = mean_ci(printed)
    assert abs(m - 1 / 7) <= max(half, 0.003)                          # 1/(2K alpha)
    k2 = checks.averaged_rto_thresholds(r, K=2.0, n_packets=2000, n_runs=40, seed=3)
    assert abs(np.mean(k2) - 0.25) < 0.01                              # the threshold follows K
    again = checks.averaged_rto_thresholds(r, n_packets=3000, n_runs=80, seed=3)
    assert np.array_equal(again, rfc)                                  # seeded
    with pytest.raises(ValueError, match="r_1 < r_2"):
        checks.averaged_rto_thresholds([0.2, 0.1])
    with pytest.raises(ValueError, match="deviation must be one of"):
        checks.averaged_rto_thresholds(r, deviation="x")


def test_spurious_timeouts_vanish_above_the_slow_path_rtt_floor():
    from cmtlab.papers import osia

    r = osia.rtt_s([3e6, 1e6], [0.04, 0.08], 1000)
    t = checks.spurious_timeouts(r, [0.75, 0.25], n_packets=1500, n_runs=40, seed=1).set_index(["deviation", "floor"])
    assert t.loc[("rfc6298", "none"), "mean"] > 0.005                  # the per-packet estimator times out
    assert t.loc[("printed", "none"), "mean"] > t.loc[("rfc6298", "none"), "mean"]   # V shrinks as printed
    for form in checks.DEVIATIONS:                                     # 1 s, and R + 200 ms > 168 ms: none
        assert t.loc[(form, "rfc6298"), "mean"] == 0 and t.loc[(form, "linux"), "mean"] == 0
    assert len(t.loc[("rfc6298", "none"), "per_run"]) == 40
    # a floor below the slow RTT keeps some timeouts (it is the floor, not the flag, that removes them)
    low = checks.rto_montecarlo(r, [0.75, 0.25], n_packets=1500, n_runs=40, seed=1, floor="rfc6298", min_rto_s=0.1)
    assert low["timeout_fraction"] > 0
    with pytest.raises(ValueError, match="floor must be one of"):
        checks.rto_montecarlo(r, [0.75, 0.25], floor="x")


def test_counted_plan_is_the_librarys_plan_and_grows_as_n_squared():
    from cmtlab.papers import osia

    rates, delays = osia.table1_paths(4)
    plan = checks.counted_plan(rates, delays)
    ps = osia.preprocess(rates, delays)
    assert np.allclose(plan["g"], osia.path_probabilities(ps)) and np.allclose(plan["f"], osia.chunk_fractions(ps))
    assert np.allclose(plan["st"], osia.start_times(ps), equal_nan=True)
    merged = checks.counted_plan([1e6, 2e6, 1e6], [0.040, 0.0401, 0.08])    # 40 and 40.1 ms merge (0.01 s)
    assert merged["n_paths"] == 2 and merged["g"][0, 1] == pytest.approx(3 / 4)
    ops = checks.operation_counts([8, 16, 32, 64, 128, 256], seed=2)
    assert (ops.max_abs_diff < 1e-12).all()
    assert ops.exponent.iloc[-1] <= 2.0 and ops.exponent.iloc[-1] > 1.9   # quadratic: doubling N, ×4 at most
    assert ops.per_N2.is_monotonic_decreasing                          # the lower-order terms fade
    # the same count for a scheme that re-sums Σ b_j for every (i, h) would be cubic: the test can fail
    assert ops.operations.iloc[-1] < 256 ** 3 / 6


def test_table1_lp_and_the_worked_example_tables():
    from cmtlab.papers import osia

    sets = {n: osia.preprocess(*osia.table1_paths(n)) for n in (2, 3, 4)}
    lp = checks.table1_lp(sets)
    ex = checks.sec41_example(sets)
    assert list(lp.index) == [3, 4] == list(ex.index)
    assert np.allclose(lp.f1, ex["f1 consistent"]) and np.allclose(lp.f2, ex["f2 consistent"])
    assert np.allclose(lp.g12, ex.g12) and np.allclose(lp.g22, ex.g22)
    assert not np.allclose(lp.f2, ex["f2 sec. 4.1"])                   # the example's f_2 is a third form
    with pytest.raises(ValueError, match="three or more paths"):
        checks.table1_lp({2: sets[2]})
    frame = checks.worked_example_frame(sets)
    assert len(frame) == 2 + 3 + 4 and frame[frame.paths == 4]["ST_i^h by Corollary 1 (ms)"].iloc[2] == "60, 20, 0"
    assert checks.table1_lines(sets)[0].startswith("2 paths: path 1: 40 ms, 3 Mbit/s")
    assert list(checks.table1_frame(sets).paths) == [2, 2, 3, 3, 3, 4, 4, 4, 4]
    fluid = checks.fluid_violations(sets[4], sets[4].delays_s[-1] + 0.05)
    assert (fluid.loc["consistent (default)"] < 1e-12).all() and fluid.loc["printed eq. 3 start times", "overlap_s"] > 1e-3


def test_theorem2_tables_and_appendix_summary():
    th, to = checks.theorem2_tables({"rfc6298": [0.12, 0.13], "printed": [0.14, 0.145]},
                                    pd.DataFrame([{"deviation": d, "floor": f, "per_run": np.zeros(2), "mean": 0.01}
                                                  for d in ("printed", "rfc6298") for f in ("none", "rfc6298", "linux")]))
    assert th["threshold g_22 (mean)"].tolist() == pytest.approx([0.125, 0.1425])
    assert to.shape == (2, 3) and (to.to_numpy() == 1.0).all()
    a3 = checks.appendix_a3_check(300, seed=1)
    s = checks.appendix_a3_summary(a3)
    assert s.draws.sum() == 300 and (s["eq. 28 agrees with eq. 22"].iloc[0] == 1.0)
