"""The verdict policy (cmtlab.report): every rule at and around each of its thresholds."""


import pytest

from cmtlab import report
from cmtlab.report import (BY_CONSTRUCTION, COMPUTED, MEASURED, NOT_ASSESSED, NOT_REPRODUCED, PARTLY, REPRODUCED,
                           SAME, UNDECIDED, Band, Comparison, Condition, Threshold)

EPS = 1e-9


@pytest.mark.parametrize("band", [MEASURED, COMPUTED, SAME, Band(0.05, 0.15, reason="quoted to 0.1 ms")])
def test_band_at_and_around_both_thresholds(band):
    p = 40.0
    for sign in (1, -1):                               # above and below the paper's number
        at_r = p * (1 + sign * band.reproduced)
        at_p = p * (1 + sign * band.partly)
        assert band.verdict(p, at_r) == REPRODUCED                       # exactly at: inclusive
        assert band.verdict(p, at_r + sign * p * 1e-6) == (PARTLY if band.partly > band.reproduced else NOT_REPRODUCED)
        assert band.verdict(p, at_r - sign * p * 1e-6) == REPRODUCED
        assert band.verdict(p, at_p) == (PARTLY if band.partly > band.reproduced else REPRODUCED)
        assert band.verdict(p, at_p + sign * p * 1e-6) == NOT_REPRODUCED
    assert band.verdict(p, float("nan")) == NOT_REPRODUCED
    assert band.verdict(p, float("inf")) == NOT_REPRODUCED


def test_band_rule_text_comes_from_the_deciding_object():
    assert MEASURED.text() == "|Δ| ≤ 10 % → reproduced; ≤ 30 % → partly; else not reproduced"
    assert COMPUTED.text() == "|Δ| ≤ 1 % → reproduced; ≤ 5 % → partly; else not reproduced"
    b = Band(0.05, 0.15, reason="quoted to 0.1 ms")
    t = Comparison()
    t.add_value("x", paper=35.6, ours=35.6 * 1.06, band=b, unit="ms")
    row = t.to_frame().iloc[0]
    assert row.verdict == PARTLY and "5 %" in row.rule and "15 %" in row.rule and "quoted to 0.1 ms" in row.rule


def test_band_undecided_when_the_ci_straddles_a_threshold():
    p = 10.0
    # point inside the reproduced band, CI reaching beyond 10 %: undecided at 3 seeds
    assert MEASURED.verdict(p, 10.9, ci=(10.5, 11.3), n_seeds=3) == "undecided at 3 seeds"
    # CI entirely inside the band: reproduced; entirely beyond 30 %: not reproduced
    assert MEASURED.verdict(p, 10.5, ci=(10.2, 10.8), n_seeds=3) == REPRODUCED
    assert MEASURED.verdict(p, 14.0, ci=(13.5, 14.5), n_seeds=5) == NOT_REPRODUCED
    # CI straddling the paper's number itself: minimum deviation 0
    assert MEASURED.verdict(p, 10.0, ci=(8.5, 11.5), n_seeds=4) == "undecided at 4 seeds"
    assert MEASURED.verdict(p, 10.0, ci=(9.1, 10.9), n_seeds=4) == REPRODUCED
    # CI ending exactly at the threshold: still decided (the threshold is inclusive)
    assert MEASURED.verdict(p, 10.5, ci=(10.0, 11.0), n_seeds=3) == REPRODUCED
    assert MEASURED.verdict(p, 10.5, ci=(10.0, 11.0 + EPS), n_seeds=3).startswith(UNDECIDED)
    # straddling the partly / not-reproduced threshold
    assert MEASURED.verdict(p, 12.9, ci=(12.5, 13.2), n_seeds=2) == "undecided at 2 seeds"
    # a one-seed CI (nan) gives the point verdict
    assert MEASURED.verdict(p, 12.9, ci=(float("nan"), float("nan")), n_seeds=1) == PARTLY
    with pytest.raises(ValueError, match="low <= high"):
        MEASURED.verdict(p, 10.0, ci=(11.0, 9.0))


def test_band_rejects_bad_parameters():
    with pytest.raises(ValueError, match="partly"):
        Band(0.3, 0.1, reason="r")
    with pytest.raises(ValueError, match="reason"):
        Band(0.1, 0.3, reason="")
    with pytest.raises(ValueError, match="reproduced"):
        Band(-0.1, 0.3, reason="r")


@pytest.mark.parametrize("direction,cut,partly,above", [(">=", 0.95, 0.5, True), (">", 0.0, None, True),
                                                        ("<=", 0.95, 1.2, False), ("<", 1.2, None, False)])
def test_threshold_at_and_around_its_cut_points(direction, cut, partly, above):
    r = Threshold("s", direction, cut, "reason", partly)
    inclusive = direction in (">=", "<=")
    better = (lambda x: x + 1e-6) if above else (lambda x: x - 1e-6)
    worse = (lambda x: x - 1e-6) if above else (lambda x: x + 1e-6)
    assert r.verdict(cut) == (REPRODUCED if inclusive else (PARTLY if partly is not None else NOT_REPRODUCED))
    assert r.verdict(better(cut)) == REPRODUCED
    assert r.verdict(worse(cut)) == (PARTLY if partly is not None else NOT_REPRODUCED)
    if partly is not None:
        assert r.verdict(partly) == PARTLY
        assert r.verdict(worse(partly)) == NOT_REPRODUCED
    # CI straddling the cut: undecided; the rule text names the cut point
    step = 0.01 if above else -0.01
    assert r.verdict(cut, ci=sorted((cut - step, cut + step)), n_seeds=3) == "undecided at 3 seeds"
    assert r.verdict(cut + 2 * step, ci=sorted((cut + step, cut + 3 * step)), n_seeds=3) == REPRODUCED
    assert f"{cut:g}" in r.text()
    assert r.verdict(float("nan")) == NOT_REPRODUCED


def test_threshold_rejects_bad_parameters():
    with pytest.raises(ValueError, match="direction"):
        Threshold("s", "=>", 1, "r")
    with pytest.raises(ValueError, match="reason"):
        Threshold("s", ">=", 1, "")
    with pytest.raises(ValueError, match="far side"):
        Threshold("s", ">=", 0.5, "r", partly=0.9)


def test_trend_and_share_rules_use_the_policy_constants():
    up = report.trend_rule("F-RTO / none", "higher")
    assert up.verdict(1 + report.NO_CHANGE) == REPRODUCED and up.verdict(1 + report.NO_CHANGE - 1e-9) == NOT_REPRODUCED
    down = report.trend_rule("F-RTO / none", "lower")
    assert down.verdict(0.95) == REPRODUCED and down.verdict(0.95 + 1e-9) == NOT_REPRODUCED
    assert "0.95" in down.text()
    with pytest.raises(ValueError, match="reason"):
        report.trend_rule("x", "lower", partly=1.0)
    s = report.share_rule()
    assert s.verdict(1.0) == REPRODUCED and s.verdict(0.999) == PARTLY and s.verdict(0.5) == PARTLY
    assert s.verdict(0.499) == NOT_REPRODUCED
    with pytest.raises(ValueError, match="reason"):
        report.share_rule(reproduced=0.95)
    assert report.share_rule(reproduced=0.95, reason="grid edges").verdict(0.95) == REPRODUCED


def test_condition():
    c = Condition("PR-R highest at every distance", partly_text="at some distances")
    assert c.verdict(True) == REPRODUCED and c.verdict(False) == NOT_REPRODUCED and c.verdict("partly") == PARTLY
    assert "PR-R highest at every distance → reproduced" in c.text()
    with pytest.raises(ValueError, match="partly_text"):
        Condition("x").verdict("partly")
    with pytest.raises(ValueError, match="holds"):
        c.verdict("maybe")


def test_table_rows_summary_checks_and_consistency():
    t = Comparison()
    t.add_value("x", paper=35.6, ours=21.5, unit="ms", quote="35.6 ms", where="sec. 6.2")
    t.add_claim("y", paper="holds", ours="does not", holds=False, rule="two links best")
    t.add_input("z", paper="35.9 Mbps", ours="35.9 Mbps")
    t.add_constructed("w", paper="8.2", ours="8.2", how="the reconstruction was built to meet it")
    t.add_threshold("v", rule=Threshold("share", ">=", 0.95, "r", 0.5), value=0.6, ours="60 %",
                    ci=(0.4, 0.8), n_seeds=3)
    t.add_not_assessed("u", paper="10", reason="not run with these parameters (needs scenario 1)")
    t.add_check("ns-3 agreement", target="median ≤ 5 %", ours="3 %", holds=True, rule="median ≤ 5 % → met")
    f = t.to_frame()
    assert f.verdict.tolist() == [NOT_REPRODUCED, NOT_REPRODUCED, BY_CONSTRUCTION, BY_CONSTRUCTION,
                                  "undecided at 3 seeds", NOT_ASSESSED]
    assert f.loc[0, "paper's words"] == "“35.6 ms”" and f.loc[0, "where"] == "sec. 6.2"
    assert f.loc[5, "reproduction"].startswith("not run")
    assert t.summary() == {REPRODUCED: 0, PARTLY: 0, NOT_REPRODUCED: 2, UNDECIDED: 1, BY_CONSTRUCTION: 2,
                           NOT_ASSESSED: 1}
    assert "ns-3 agreement" not in f.claim.tolist() and len(t.checks_frame()) == 1
    assert t.consistency().startswith("verdict counts = the table's verdict column")
    assert "#f0e0f8" in t.style().to_html() and "#d8f0d8" in t.style_checks().to_html()
    with pytest.raises(ValueError, match="note"):
        t.add_claim("w", paper="a", ours="b", holds="partly")
    with pytest.raises(ValueError, match="reason"):
        t.add_not_assessed("x", paper="p", reason="")
    with pytest.raises(ValueError, match="how"):
        t.add_constructed("x", paper="p", ours="o", how="")
    t.rows[0].verdict = "reproduced"          # a tampered row: consistency still holds (counts follow rows) ...
    t.rows[1].verdict = "maybe"               # ... an unknown verdict does not
    with pytest.raises((AssertionError, KeyError)):
        t.consistency()


def test_reference_columns_sit_beside_the_reproduction():
    t = Comparison()
    t.add_value("a", paper=10, ours=9.5, references={"RFC preset": "9.1"})
    t.add_claim("b", paper="x", ours="y", holds=True, references={"papers' simulator (run here)": "yes"})
    cols = t.to_frame().columns.tolist()
    assert cols[4:7] == ["reproduction", "RFC preset", "papers' simulator (run here)"]
    assert t.to_frame().loc[0, "papers' simulator (run here)"] == ""


def test_values_are_plain_text_without_negative_zero():
    assert report.fmt_number(-0.0004, ".1f") == "0.0"
    assert report.fmt_number(-0.4, ".0f") == "0"
    assert report.fmt_number(-1.4, ".0f") == "-1"
    assert report.fmt_number(float("nan")) == "not computed"
    t = Comparison()
    t.add_value("x", paper=0.0, ours=-0.01, fmt=".1f", unit="%")
    assert t.to_frame().loc[0, "reproduction"] == "0.0 %"


def test_value_verdict_kept_for_old_callers():
    assert report.value_verdict(10.0, 10.5) == REPRODUCED
    assert report.value_verdict(10.0, 12.0) == PARTLY
    assert report.value_verdict(10.0, 20.0) == NOT_REPRODUCED


def test_policy_lists_every_kind_with_a_reason():
    assert len(report.POLICY) >= 3
    for kind, (rule, reason) in report.POLICY.items():
        assert "→" in rule and reason, kind


def test_ci_without_a_seed_count_says_no_seeds():
    t = Comparison()
    t.add_value("x", paper=1.0, ours=1.5, ci=(1.2, 1.8), fmt=".2f")
    assert t.to_frame().loc[0, "reproduction"] == "1.50 (95 % CI 1.20 to 1.80)"
    assert t.to_frame().loc[0, "verdict"] == UNDECIDED


# ------------------------------------------------------------------ the table as shown
def _table_with(rules_shared: int, unique: int = 1, long_note: bool = True) -> report.Comparison:
    t = report.Comparison()
    for i in range(rules_shared):
        t.add_value(f"value {i}", paper=10.0, ours=10.0 + i, unit="ms",
                    note=("a long explanation " * 10) if (long_note and i == 0) else "short")
    for i in range(unique):
        t.add_claim(f"statement {i}", paper="holds", ours="holds", holds=i % 2 == 0, rule=f"condition {i}")
    return t


def test_shared_rule_goes_to_the_caption_once():
    t = _table_with(4, unique=2)
    frame, caption, _ = t.layout()
    assert report.MEASURED.text() in caption
    assert (frame["rule"] == report.SHARED_RULE_CELL).sum() == 4
    assert not frame["rule"].str.contains("≤ 10 %", regex=False).any(), "the shared rule is still repeated"
    assert frame["rule"].str.startswith("condition").sum() == 2      # unique rules stay in their rows
    html = t.style().to_html()
    assert "<caption>" in html and html.count("≤ 10 %") == 1
    # verdicts are untouched: the shown table counts as the table
    assert list(frame["verdict"]) == list(t.to_frame()["verdict"])


def test_rule_of_a_minority_stays_in_its_rows():
    t = _table_with(2, unique=3)          # 2 of 5 rows: not shared by half, fewer than 3
    frame, caption, _ = t.layout()
    assert caption == "" and report.SHARED_RULE_CELL not in set(frame["rule"])


def test_long_notes_move_under_the_table():
    t = _table_with(3)
    frame, _, notes = t.layout()
    assert len(notes) == 1 and notes[0].startswith("a long explanation")
    assert frame.loc[0, "note"] == "note 1" and frame.loc[1, "note"] == "short"
    html = t._html(t.to_frame(), "claims")
    assert html.index("</table>") < html.index("cmtlab-table-notes") and "a long explanation" in html


def test_the_same_long_note_under_several_rows_is_written_once():
    t = report.Comparison()
    long = "the same long explanation, " * 6
    for name in ("a", "b", "c"):
        t.add_claim(name, paper="x", ours="y", holds=True, note=long if name != "b" else long + "and more")
    frame, _, notes = t.layout()
    assert len(notes) == 2 and list(frame["note"]) == ["note 1", "note 2", "note 1"]


def test_no_negative_zero_anywhere_in_the_shown_table():
    t = report.Comparison()
    t.add_claim("gain", paper="+5 %", ours="rfc: -0%, chihani: -9 %; -0.00 pp; -0 %", holds=False)
    html = t._html(t.to_frame(), "claims")
    assert "-0%" not in html and "-0.00" not in html and "-0 %" not in html and "-9 %" in html
    assert report.no_negative_zero("-0.5 and -0.0 and x-0") == "-0.5 and 0.0 and x-0"


def test_inline_tex_in_a_cell_is_typeset():
    t = report.Comparison()
    t.add_claim("window", paper="$W_{max}$ halves", ours="costs $5 and $6", holds=True)
    html = t._html(t.to_frame(), "claims")
    assert r'<span class="math notranslate nohighlight">\(W_{max}\)</span>' in html
    assert "costs $5 and $6" in html        # dollars that are not TeX stay dollars
