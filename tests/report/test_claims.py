"""Claims as data (cmtlab.report.claims) and their decisions in a chapter's table (cmtlab.report.Comparison):
a registered claim carries its own words and location, is decided once per table, a claim over cases is
decided by the policy's rule for statements over cases, and the decisions a chapter glues read back."""

import pytest

from cmtlab.report import Comparison, claims, verdicts
from cmtlab.report.verdicts import cases_verdict


def _claim(**kw):
    base = dict(id="fig4.prr-gain", paper="alheid", title="PR-R gain beyond 50 m",
                quote="PR-R is the best in terms of gThroughput by providing a 50% improvement on average",
                location="sec. V.A", kind="measured", target="+50 %", reference="papers-sim-p2p",
                chapter="alheid-fig4-table3-distance")
    base.update(kw)
    return claims.Claim(**base)


def test_a_claim_needs_what_the_registry_promises():
    c = _claim()
    assert c.key == "alheid:fig4.prr-gain" and c.quote == (c.quote[0],)
    with pytest.raises(ValueError, match="kind"):
        _claim(kind="vibes")
    with pytest.raises(ValueError, match="reference"):
        _claim(reference="somewhere")
    with pytest.raises(ValueError, match="quote.*printed"):
        _claim(quote="")
    with pytest.raises(ValueError, match="location"):
        _claim(location="somewhere in the text")
    with pytest.raises(ValueError, match="cases"):
        _claim(kind="cases")
    with pytest.raises(ValueError, match="id"):
        _claim(id="Fig 4")


def test_location_parts_read_as_a_reader_cites():
    assert claims.location_parts("sec. V.A, Fig. 4 and Table III") == ("V.A", "Fig. 4", "Table III")
    assert claims.location_parts("secs. 5-6") == ("5",)
    assert claims.location_parts("Appendix A, eq. 22") == ("Appendix A",)
    assert claims.location_parts("abstract") == ("abstract",)


def test_registry_refuses_twins_and_strangers():
    with pytest.raises(ValueError, match="twice"):
        claims.Registry("alheid", (_claim(), _claim()))
    with pytest.raises(ValueError, match="belongs to paper"):
        claims.Registry("song", (_claim(),))
    r = claims.Registry("alheid", (_claim(), _claim(id="fig4.dsack-gain")))
    assert len(r) == 2 and r["fig4.dsack-gain"].id == "fig4.dsack-gain"
    with pytest.raises(KeyError, match="close: fig4"):
        r["fig4.nothing"]
    assert [c.id for c in r.of_chapter("alheid-fig4-table3-distance")] == ["fig4.prr-gain", "fig4.dsack-gain"]


def test_a_registered_claim_brings_its_words_and_is_decided_once():
    c = _claim()
    t = Comparison()
    t.add_value(c, paper=50, ours=48, unit="%")
    row = t.rows[0]
    assert row.claim == c.title and row.quote == c.quote_text() and row.where == "sec. V.A" and row.key == c.key
    with pytest.raises(ValueError, match="decided twice"):
        t.add_value(c, paper=50, ours=30, unit="%")
    with pytest.raises(ValueError, match="registered"):
        Comparison().add_value(c, paper=50, ours=48, quote="other words")


@pytest.mark.parametrize("case_verdicts, expected", [
    (["reproduced"] * 3, "reproduced"),
    (["reproduced", "reproduced", "partly"], "partly"),
    (["reproduced", "not reproduced"], "partly"),                 # exactly half → partly
    (["reproduced", "not reproduced", "not reproduced"], "not reproduced"),
    (["reproduced", "undecided at 5 seeds"], "undecided at 5 seeds"),           # could be either
    (["not reproduced", "not reproduced", "undecided at 5 seeds"], "not reproduced"),  # cannot change it
    (["by construction", "by construction"], "by construction"),
    (["reproduced", "by construction"], "reproduced"),           # by construction is no evidence
])
def test_cases_are_decided_by_the_rule_for_statements_over_cases(case_verdicts, expected):
    assert cases_verdict(case_verdicts)[0] == expected


def test_a_claim_over_cases_counts_once():
    c = _claim(id="t3.lu", kind="cases", cases=("50 m", "70 m"), printed="12.26")
    t = Comparison()
    t.add_value(c, paper=12.26, ours=12.0, case="50 m", cell=("Table III", "NoPR", "50 m"))
    with pytest.raises(ValueError, match="case must be one of"):
        t.add_value(c, paper=9.76, ours=2.0, case="80 m")
    with pytest.raises(ValueError, match="misses the cases"):
        t.add_cases(c)
    t.add_value(c, paper=9.76, ours=2.0, case="70 m")
    assert t.add_cases(c) == verdicts.PARTLY
    assert t.summary()[verdicts.PARTLY] == 1 and sum(t.summary().values()) == 1
    assert len(t.to_frame()) == 1 and len(t.to_frame(cases=True)) == 2
    (d,) = t.decisions()
    assert d.claim == c.key and set(d.cases) == {"50 m", "70 m"} and d.cases["70 m"]["verdict"] == "not reproduced"
    assert t.consistency()


def test_decisions_read_back_and_render_one_finding():
    c = _claim()
    t = Comparison()
    t.add_value(c, paper=50, ours=83, unit="%", ci=(70, 96), n_seeds=30)
    text = claims.dumps(t.decisions())
    (back,) = claims.loads(text)
    assert back == t.decisions()[0]
    sentence = claims.finding(c, back)
    assert sentence.startswith("Alheid et al., sec. V.A: “PR-R is the best")
    assert "83 % (95 % CI 70 to 96, 30 seeds)" in sentence and sentence.endswith("**not reproduced**.")
    with pytest.raises(ValueError, match="decision is of claim"):
        claims.finding(_claim(id="other"), back)
