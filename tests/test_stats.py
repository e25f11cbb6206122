"""cmtlab.stats: the book's one mean / Student-t confidence interval, and its one rule for one value."""

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from cmtlab.stats import MeanCI, half_width, mean_ci, t_quantile


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
