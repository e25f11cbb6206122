"""cmtlab.stats: the book's one mean / Student-t confidence interval, and its one rule for one value."""

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from cmtlab.stats import (NON_NEGATIVE, Interval, MeanCI, clip_bounds, clip_interval, half_width, interval_words,
                          mean_ci, t_quantile)


def test_mean_ci_is_student_t_against_scipy_interval():
    rng = np.random.default_rng(3)
    for n in (2, 3, 5, 30):
        x = rng.normal(10, 2, n)
        ci = mean_ci(x)
        lo, hi = sps.t.interval(0.95, n - 1, loc=x.mean(), scale=sps.sem(x))
        assert ci.n == n and ci.mean == pytest.approx(x.mean())
        assert ci.low == pytest.approx(lo, rel=1e-12) and ci.high == pytest.approx(hi, rel=1e-12)
    # t(0.975, 2) = 4.302653: (1, 2, 3) has s = 1
    assert mean_ci([1.0, 2.0, 3.0]).half_width == pytest.approx(4.302652729749462 / math.sqrt(3), rel=1e-12)
    assert mean_ci([1.0, 2.0, 3.0], 0.9).half_width < mean_ci([1.0, 2.0, 3.0]).half_width


def test_one_value_gives_no_interval_never_zero():
    ci = mean_ci([5.0])
    assert isinstance(ci, MeanCI) and ci.mean == 5.0 and ci.n == 1
    assert math.isnan(ci.half_width) and all(math.isnan(v) for v in ci.interval)
    assert math.isnan(t_quantile(1)) and math.isnan(half_width(2.0, 1))
    # n >= 2 identical (deterministic) runs: a real interval of width 0
    assert mean_ci([4.0, 4.0]).half_width == 0.0


def test_half_width_from_summaries_elementwise_with_the_index():
    sd = pd.Series([1.0, 2.0, np.nan, 3.0], index=list("abcd"))
    n = pd.Series([3, 1, 4, 30], index=list("abcd"))
    h = half_width(sd, n)
    assert list(h.index) == list("abcd")
    assert h["a"] == mean_ci([1.0, 2.0, 3.0]).half_width       # the same arithmetic as mean_ci, bit for bit
    assert math.isnan(h["b"]) and math.isnan(h["c"])
    assert h["d"] == pytest.approx(2.045229642132703 * 3 / math.sqrt(30))
    assert t_quantile(2) == pytest.approx(12.706204736174694) and t_quantile(30) == pytest.approx(2.045229642132703)
    assert np.isnan(t_quantile(np.array([1, 2]))[0])


def test_bad_input_names_the_parameter():
    with pytest.raises(ValueError, match="values must be finite"):
        mean_ci([1.0, float("nan")])
    assert mean_ci([1.0, float("nan"), 3.0], drop_nan=True) == mean_ci([1.0, 3.0])
    with pytest.raises(ValueError, match="at least one finite"):
        mean_ci([float("nan")], drop_nan=True)
    with pytest.raises(ValueError, match="at least 1 value"):
        mean_ci([])
    with pytest.raises(ValueError, match="booleans"):
        mean_ci([True, False])
    for bad in (0, 1, 1.5, True):
        with pytest.raises(ValueError, match="confidence must be in"):
            mean_ci([1.0, 2.0], bad)


def test_two_seed_interval_of_a_non_negative_quantity_is_reported_cut_at_zero():
    """Two seeds (the quick profile): the symmetric t interval reaches below 0; reported, it is cut there and says
    so, with the same mean and half-width (one CI concept)."""
    ci = mean_ci([0.1, 1.9])
    assert ci.low < 0                                           # t(1) = 12.7: far below zero
    iv = ci.within()
    assert tuple(iv) == (0.0, ci.high) and iv.clipped and iv.raw == (ci.low, ci.high)
    assert interval_words(iv) == ", cut at 0"
    lo, hi = iv                                                 # unpacks as a pair
    assert (lo, hi) == (iv.low, iv.high) and isinstance(iv, tuple)


@pytest.mark.parametrize("low,high,clipped,words", [(0.0, 2.0, False, ""), (1e-12, 2.0, False, ""),
                                                    (-1e-12, 2.0, True, ", cut at 0"), (-3.0, -1.0, True, ", cut at 0")])
def test_clip_interval_at_and_around_the_bound(low, high, clipped, words):
    iv = clip_interval(low, high)
    assert iv.clipped is clipped and interval_words(iv) == words
    assert iv.low == max(low, 0.0) and iv.high == max(high, 0.0)


def test_clip_interval_on_a_share_and_bad_input():
    iv = clip_interval(-0.1, 1.2, domain=(0.0, 1.0))
    assert tuple(iv) == (0.0, 1.0) and interval_words(iv) == ", cut at 0 and 1"
    assert not clip_interval(0.2, 0.8, domain=(0, 1)).clipped
    one = mean_ci([5.0]).within()                               # one value: no interval, nothing cut
    assert math.isnan(one.low) and math.isnan(one.high) and not one.clipped and interval_words(one) == ""
    assert interval_words((-1.0, 2.0)) == ""                    # a plain tuple carries no cut
    with pytest.raises(ValueError, match="domain"):
        clip_interval(0, 1, domain=(1, 0))
    with pytest.raises(ValueError, match="low must be <= high"):
        clip_interval(2, 1)
    assert NON_NEGATIVE == (0.0, math.inf) and isinstance(iv, Interval)


def test_clip_bounds_is_element_wise_and_keeps_a_series_index():
    lo = pd.Series([-0.5, 0.2, float("nan")], index=["a", "b", "c"])
    hi = pd.Series([1.0, 0.4, float("nan")], index=lo.index)
    new_lo, new_hi, cut = clip_bounds(lo, hi)
    assert list(new_lo.index) == ["a", "b", "c"] and new_lo["a"] == 0.0 and new_lo["b"] == 0.2
    assert math.isnan(new_lo["c"]) and list(cut) == [True, False, False] and new_hi["a"] == 1.0


def test_cutting_changes_no_verdict_of_a_positive_target():
    """The cut never moves a verdict: the deviation of 0 from a positive target is 100 %, beyond every band, and
    no trend or share cut point lies below 0."""
    from cmtlab.report import COMPUTED, MEASURED, SAME, share_rule, trend_rule

    ci = mean_ci([0.1, 1.9])
    for band in (MEASURED, COMPUTED, SAME):
        for paper in (0.5, 1.0, 2.0):
            assert band.verdict(paper, ci.mean, ci=ci.interval, n_seeds=2) == \
                band.verdict(paper, ci.mean, ci=ci.within(), n_seeds=2)
    for rule in (trend_rule("r", "lower"), trend_rule("r", "higher"), share_rule()):
        assert rule.verdict(ci.mean, ci=ci.interval, n_seeds=2) == rule.verdict(ci.mean, ci=ci.within(), n_seeds=2)
