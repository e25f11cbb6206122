"""Song eqs. 22–24 (the verdict policy is tested in test_report.py)."""

import itertools

import numpy as np
import pytest

from cmtlab.papers.song import asymmetry


def test_ada_matches_explicit_double_sum():
    rng = np.random.default_rng(0)
    d = rng.uniform(0, 0.2, 6)
    n = d.size
    explicit = 2 * sum(abs(d[r] - d[q]) for q in range(1, n) for r in range(q)) / (n * (n - 1))
    assert asymmetry.average_delay_asymmetry(d) == pytest.approx(explicit)
    assert asymmetry.average_delay_asymmetry([0.01, 0.01, 0.01]) == 0.0
    pairs = list(itertools.combinations([1e5, 3e5, 7e5], 2))
    assert asymmetry.average_bandwidth_asymmetry([1e5, 3e5, 7e5]) == pytest.approx(
        np.mean([abs(a - b) for a, b in pairs]))


def test_prediction_accuracy_eq24():
    assert asymmetry.prediction_accuracy(100.0, 90.0) == pytest.approx(0.9)
    assert asymmetry.prediction_accuracy(100.0, 110.0) == pytest.approx(0.9)
    assert np.allclose(asymmetry.prediction_accuracy([10, 20], [10, 10]), [1.0, 0.5])
    with pytest.raises(ValueError, match="T_S"):
        asymmetry.prediction_accuracy(0.0, 1.0)


def test_asymmetry_needs_two_links():
    with pytest.raises(ValueError, match="at least 2"):
        asymmetry.average_delay_asymmetry([0.01])
    with pytest.raises(ValueError, match="delays_s"):
        asymmetry.average_delay_asymmetry([0.01, -0.02])
