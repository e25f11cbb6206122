"""A value column states when its interval was cut to the quantity's domain (cmtlab.stats.Interval), and the
premise rule's rows (Comparison.add_premise_absent)."""

from cmtlab.report import NOT_ASSESSED, PREMISE_ABSENT, Comparison, Threshold
from cmtlab.report.claims import Claim
from cmtlab.stats import mean_ci


def test_value_column_says_cut_at_0_only_when_cut():
    t = Comparison()
    ci = mean_ci([0.1, 1.9])
    t.add_value("a rate", paper=1.0, ours=ci.mean, ci=ci.within(), n_seeds=2)
    t.add_value("a rate, plain tuple", paper=1.0, ours=ci.mean, ci=ci.interval, n_seeds=2)
    t.add_threshold("a ratio", rule=Threshold("r", "<=", 0.95, "test"), value=ci.mean, ours=f"{ci.mean:.2f}",
                    ci=ci.within(), n_seeds=2)
    t.add_check_threshold("a check", rule=Threshold("r", "<=", 0.95, "test"), value=ci.mean, ours="x", target="y",
                          ci=ci.within(), n_seeds=2)
    here = [r.here for r in t.rows]
    assert "95 % CI 0 to " in here[0] and "cut at 0, 2 seeds)" in here[0]
    assert "cut at" not in here[1] and "95 % CI -" in here[1]
    assert "cut at 0, 2 seeds)" in here[2]
    assert "cut at 0, 2 seeds)" in t.checks[0]["reproduction"]
    wide = mean_ci([1.0, 1.2, 1.1]).within()
    t.add_value("no cut", paper=1.0, ours=1.1, ci=wide, n_seeds=3)
    assert "cut" not in t.rows[-1].here


def test_premise_absent_rows_are_not_assessed_and_say_so():
    c = Claim("s.x", "arabi", "a conditional", "when a spurious retransmission is detected it decreases", "sec. 6",
              "cases", "drops", "papers-sim", "ch", cases=("detected", "drops"))
    t = Comparison()
    t.add_premise_absent(c, case="detected", paper="detected", premise="0 detections in 8 runs", ours="")
    t.add_premise_absent(c, case="drops", paper="drops", premise="no detection", ours="0.40 × none")
    t.add_cases(c)
    rows = t.rows
    assert [r.verdict for r in rows] == [NOT_ASSESSED] * 3
    assert rows[0].rule == PREMISE_ABSENT and rows[0].here == "premise absent: 0 detections in 8 runs"
    assert rows[1].here == "premise absent: no detection; instead: 0.40 × none"
    import pytest
    with pytest.raises(ValueError, match="premise"):
        t.add_premise_absent("x", paper="p", premise="", ours="")
