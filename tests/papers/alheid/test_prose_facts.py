"""The Alheid chapters' generated sentences (cmtlab.papers.alheid.facts) and the reference columns beside the
Figs. 4-6 claims (cmtlab.papers.alheid.comparison.decide_figs): the words follow the numbers, on small synthetic
frames (no simulation)."""

import pandas as pd
import pytest

from cmtlab.papers.alheid import comparison as comp, facts
from cmtlab.report.claims import RFC_COLUMN, TODAY_COLUMN


def _wide(rows):
    return pd.DataFrame(rows, columns=["NoPR", "D-SACK", "TCP-DOOR", "PR-R"],
                        index=pd.Index([10.0, 100.0], name="distance_m"))


def test_order_text_names_ties_and_changes():
    same = _wide([[19.4, 23.2, 33.5, 32.1], [5.8, 7.6, 10.5, 10.0]])
    assert facts.order_text(same, unit="Mbit/s") == (
        "the same order at every distance run, TCP-DOOR > PR-R > D-SACK > NoPR "
        "(10 m: 33.5, 32.1, 23.2, 19.4 Mbit/s; 100 m: 10.5, 10.0, 7.6, 5.8 Mbit/s)")
    # within 1 % of each other: a tie, written in the solutions' order whatever the values' order, each value
    # beside its own name
    tied = _wide([[27.8, 50.38, 50.55, 50.50], [5.2, 9.87, 9.86, 9.84]])
    t = facts.order_text(tied, unit="Mbit/s")
    assert t.startswith("the same order at every distance run, D-SACK = TCP-DOOR = PR-R > NoPR (10 m: 50.4, 50.5, 50.5")
    changed = _wide([[19.4, 23.2, 33.5, 32.1], [5.8, 7.6, 9.0, 10.0]])
    assert facts.order_text(changed, unit="Mbit/s") == (
        "the order changes from distance to distance: 10 m TCP-DOOR > PR-R > D-SACK > NoPR; "
        "100 m PR-R > TCP-DOOR > D-SACK > NoPR")


@pytest.mark.parametrize("gains, close", [([-3, 2], True), ([-5, 5], True), ([-5.2, 1], False), ([1, 32], False)])
def test_prr_close_only_inside_the_no_change_band(gains, close):
    text = facts.prr_close_text(gains)
    assert text.startswith("stays within ±5 % of NoPR") is close
    assert text.startswith("does not stay close") is (not close)
    assert f"between {min(gains):+.0f} and {max(gains):+.0f} %" in text


def test_fig6_rows_carry_the_rfc_and_today_columns():
    cw = pd.DataFrame({"SF 1 mean cwnd (seg.)": [5.0, 200.0, 7.0, 160.0], "SF 2 mean cwnd (seg.)": [3.0, 3.0, 7.0, 155.0]},
                      index=pd.Index(["NoPR", "D-SACK", "TCP-DOOR", "PR-R"], name="solution"))
    cw["SF 1 / SF 2"] = cw.iloc[:, 0] / cw.iloc[:, 1]
    rfc = cw.copy()
    rfc.loc["PR-R"] = [1.0, 1.0, 1.0]          # under RFC behaviour PR-R's windows are the smallest: another verdict
    refs = {"papers-sim-p2p": cw, "papers-sim-wifi": cw}
    table = comp.decide_figs(comp.fig6_comparison, comp.FIG6, refs, cw, n_runs=1, rfc=rfc, rfc_kw={"n_runs": 1})
    counted = [r for r in table.rows if r.counted]
    assert len(counted) == 4
    for r in counted:
        assert r.references[TODAY_COLUMN] == comp.TODAY_NOT_APPLICABLE
        assert RFC_COLUMN in r.references
    robust = next(r for r in counted if r.key.endswith(":sec5b.prr-robust"))
    assert robust.verdict == "reproduced" and robust.references[RFC_COLUMN].endswith("→ not reproduced")
    assert "under RFC behaviour gives not reproduced" in robust.note
    # without RFC runs, neither column
    bare = comp.decide_figs(comp.fig6_comparison, comp.FIG6, refs, cw, n_runs=1)
    assert all(RFC_COLUMN not in r.references and TODAY_COLUMN not in r.references for r in bare.rows)


def test_today_column_of_the_single_tcp_claim_says_not_run():
    """Sec. V's single-TCP claim would apply to today's stack (one TCP flow), so its row says it was not run, not
    that it does not apply; the rows comparing the four responses say they do not apply."""
    assert comp.TODAY_SINGLE_TCP_CLAIMS == ("sec5.single-tcp-5mbps",)
    assert comp.CLAIMS["sec5.single-tcp-5mbps"].chapter == comp.FIG4
    assert comp.TODAY_NOT_RUN.startswith("not run") and comp.TODAY_NOT_APPLICABLE.startswith("does not apply")
