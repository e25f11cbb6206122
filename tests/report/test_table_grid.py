"""Verdict grids of cmtlab.report.Comparison (issue 24: Alheid Tables III–IV as coloured cells)."""

from __future__ import annotations

import re

import pytest

from cmtlab import report
from cmtlab.report import Comparison


def _table():
    t = Comparison()
    t.add_claim("a claim", paper="p", ours="o", holds=True)
    cells = {("50 m · NoPR", "OOO-BO (Kbyte)"): (196, 190), ("50 m · NoPR", "LU (%)"): (12.26, 20.0),
             ("50 m · PR-R", "OOO-BO (Kbyte)"): (442, 350), ("50 m · PR-R", "LU (%)"): (19.88, 19.0)}
    for (row, col), (paper, ours) in cells.items():
        t.add_value(f"Table III {row}: {col}", paper=paper, ours=ours, fmt=".0f", ci=(ours - 1, ours + 1), n_seeds=4,
                    cell=("Table III", row, col))
    return t


def test_grid_cells_count_like_rows_and_keep_their_verdicts():
    t = _table()
    assert t.summary()["reproduced"] == 3 and t.summary()["partly"] == 1 and len(t.rows) == 5
    assert t.grids() == ["Table III"]
    text, verdicts = t.grid_frame("Table III")
    assert list(text.index) == ["50 m · NoPR", "50 m · PR-R"] and list(text.columns) == ["OOO-BO (Kbyte)", "LU (%)"]
    assert text.loc["50 m · NoPR", "LU (%)"] == "20 (paper 12) ✗"                   # 63 % off
    assert verdicts.loc["50 m · NoPR", "OOO-BO (Kbyte)"] == "reproduced"           # 190 vs 196
    assert text.loc["50 m · NoPR", "OOO-BO (Kbyte)"] == "190 (paper 196) ✓"         # no CI in a cell
    assert verdicts.loc["50 m · PR-R", "OOO-BO (Kbyte)"] == "partly"               # 350 vs 442: 21 % off
    with pytest.raises(ValueError, match="grid"):
        t.grid_frame("Table IV")
    with pytest.raises(ValueError, match="cell"):
        t.add_value("x", paper=1.0, ours=1.0, cell=("only", "two"))


def test_grid_html_states_the_rule_once_and_colours_each_cell():
    t = _table()
    html = t.style_grid("Table III", caption="Table III (50 m).").to_html()
    assert report.GRID_CLASS in html
    caption = re.search(r"<caption>(.*?)</caption>", html, re.S).group(1)
    assert caption.startswith("Table III (50 m).") and caption.count("reproduced") >= 1
    assert html.count("|Δ| ≤ 10 %") == 1                                              # the rule once
    css = html.split("</style>")[0]
    for r in range(2):
        for c in range(2):
            assert re.search(rf"#T_\w+_row{r}_col{c}\b[^{{]*\{{\s*background-color: #", css) or \
                re.search(rf"#T_\w+_row{r}_col{c}\b", css), (r, c)          # every cell coloured
    assert report.VERDICT_COLOURS["reproduced"] in css and report.VERDICT_COLOURS["partly"] in css
    assert report.GRID_CLASS not in t.style_grid("Table III", counted=False).to_html()
    # the claim table shown by show() leaves the cells out; to_frame keeps every row
    assert len(t.to_frame()) == 5
