"""The claim table as a chapter shows it (:meth:`cmtlab.report.Comparison.show`): one line per claim — claim,
paper, value here, verdict — and the paper's words, their place, the rule and the note folded into the row."""

from __future__ import annotations

import html
import re

import pytest

from cmtlab import report
from cmtlab.papers import all_claims
from cmtlab.report.table import CLAIMS_CLASS, claims_html, row_id


def _rows(text: str) -> list[list[str]]:
    """The rows' cell texts, read as the book's tests read stored outputs (tests/book/test_scoreboard_page.py)."""
    return [[html.unescape(re.sub(r"<[^>]+>", "", x)).strip() for x in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", r, re.S)]
            for r in re.findall(r"<tr>(.*?)</tr>", text, re.S)]


def _table():
    claims = list(all_claims().values())[:3]
    t = report.Comparison()
    t.add_value(claims[0], paper=35.6, ours=21.5, unit="ms", ci=(20.0, 23.0), n_seeds=30, note="a short note")
    t.add_claim(claims[1], paper="holds", ours="does not hold", holds=False, rule="$W_{max}$ halves")
    t.add_value("an unregistered row", paper=2.0, ours=2.05)
    return t, claims


def test_one_line_per_claim_the_rest_folded():
    t, claims = _table()
    out = t.claims_html()
    assert f'<table class="{CLAIMS_CLASS}">' in out
    rows = _rows(out)
    assert rows[0] == ["claim", "paper", "reproduction", "verdict"]
    assert [r[3] for r in rows[1:]] == t.to_frame()["verdict"].tolist()          # the verdict cell is the verdict
    assert out.count("<details>") == 3 and out.count("<summary>") == 3
    quote = html.escape(claims[0].quote_text(), quote=False)
    assert quote in out and claims[0].location in out                         # the paper's words, folded
    assert out.index(quote) > out.index("<details>")
    assert "a short note" in out and "rule that decided" in out and "|Δ| ≤ 10 %" in out
    assert r'<span class="math notranslate nohighlight">\(W_{max}\)</span>' in out   # inline TeX typeset
    # registered claims carry their row's id (the front pages' grid links to it); the unregistered row none
    assert out.count('id="claim-') == 2 and f'id="{row_id(claims[0].key)}"' in out


def test_row_ids_are_plain_html_ids():
    assert row_id("song:fig8.threshold") == "claim-song-fig8-threshold"
    assert re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]*", row_id("osia:fig7(c–d) x"))


def test_the_frame_needs_a_claim_and_a_verdict():
    t, _ = _table()
    with pytest.raises(ValueError, match="verdict"):
        claims_html(t.to_frame().drop(columns=["verdict"]))
    with pytest.raises(ValueError, match="one key per row"):
        claims_html(t.to_frame(), keys=["a"])


def test_show_displays_the_compact_table(monkeypatch):
    import IPython.display

    shown = []
    monkeypatch.setattr(IPython.display, "display", lambda obj, **kw: shown.append(obj))
    t, _ = _table()
    t.show()
    tables = [o.data for o in shown if isinstance(o, IPython.display.HTML)]
    assert CLAIMS_CLASS in tables[0] and "<details>" in tables[0]


def test_grid_cells_carry_their_claims_row_id():
    claims = list(all_claims().values())[:2]
    t = report.Comparison()
    t.add_value(claims[0], paper=1.0, ours=1.05, cell=("Table III", "50 m", "PR-R"))
    t.add_value(claims[1], paper=1.0, ours=1.5, cell=("Table III", "50 m", "NoPR"))
    out = t.grid_html("Table III")
    assert report.GRID_CLASS in out
    for c in claims:
        assert re.search(rf'<td id="T_\w+_row0_col\d"[^>]*><span id="{row_id(c.key)}"></span>', out), c.key
