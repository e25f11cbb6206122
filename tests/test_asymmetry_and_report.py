"""Song eqs. 22–24 and the paper-vs-reproduction verdicts."""

import itertools

import numpy as np
import pytest

from cmtlab import asymmetry, report


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


def test_verdicts_follow_tolerances():
    assert report.value_verdict(10.0, 10.5) == "reproduced"
    assert report.value_verdict(10.0, 12.0) == "partly"
    assert report.value_verdict(10.0, 20.0) == "not reproduced"
    assert report.value_verdict(10.0, float("nan")) == "not reproduced"
    t = report.Comparison()
    t.add_value("x", paper=35.6, ours=21.5, unit="ms")
    t.add_claim("y", paper="holds", ours="does not", holds=False)
    t.add_input("z", paper="35.9 Mbps", ours="35.9 Mbps")
    assert t.to_frame()["verdict"].tolist() == ["not reproduced", "not reproduced", "by construction"]
    assert t.summary()["not reproduced"] == 2
    with pytest.raises(ValueError, match="note"):
        t.add_claim("w", paper="a", ours="b", holds="partly")


def test_not_assessed_rows_are_counted_only_when_present():
    t = report.Comparison()
    t.add_claim("y", paper="holds", ours="holds", holds=True)
    assert report.NOT_ASSESSED not in t.summary()          # other chapters' summaries are unchanged
    assert t.add_not_assessed("x", paper="10 Mbit/s", reason="not run with these parameters (needs scenario 1)") \
        == report.NOT_ASSESSED
    assert t.summary() == {"reproduced": 1, "partly": 0, "not reproduced": 0, "by construction": 0,
                           report.NOT_ASSESSED: 1}
    assert t.to_frame().loc[1, "reproduction"].startswith("not run")
    with pytest.raises(ValueError, match="reason"):
        t.add_not_assessed("x", paper="p", reason="")
    assert "#eeeeee" in t.style().to_html()
