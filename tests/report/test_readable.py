"""Tables as readers read them (cmtlab.report.readable and the notebook display hook).

A reader of the book sees no library identifier in snake case, no raw Python value (True, NaN,
None), no float tail and no negative zero in a table; names a reader types (a preset, an option)
are in code font; TeX stays TeX for MathJax.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from cmtlab import report
from cmtlab.report.readable import _column_label

SNAKE_OUTSIDE_CODE = re.compile(r"(?<![\w./\\-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w(])")


def _visible_text(html: str) -> str:
    """Table text outside <code>, <style> and math spans."""
    html = re.sub(r"<style.*?</style>", " ", html, flags=re.S)
    html = re.sub(r"<code>.*?</code>", " ", html, flags=re.S)
    html = re.sub(r'<span class="math[^"]*">.*?</span>', " ", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def _frame():
    df = pd.DataFrame({"goodput_mbps": [20.38456, np.nan], "fast_retransmits": [12.0, 3.0],
                       "within_5pct": [True, False], "preset": ["chihani_ns3", "rfc"],
                       "options": ["limited_transmit=True, sack=True", "-0.00%"]},
                      index=pd.MultiIndex.from_tuples([("round_robin + lia", 50), ("one_way", 70)],
                                                      names=["variant", "distance_m"]))
    df.columns.name = "prr_ssthresh"
    return df


def test_readable_leaves_no_library_name_or_raw_value():
    html = report.readable(_frame()).to_html()
    text = _visible_text(html)
    assert not SNAKE_OUTSIDE_CODE.findall(text), SNAKE_OUTSIDE_CODE.findall(text)
    for raw in ("True", "False", "nan", "NaN", "None", "-0.00", "20.38456"):
        assert raw not in text, raw
    for shown in ("goodput (Mbit/s)", "fast retransmits", "within 5 %", "round-robin + LIA", "one-way",
                  "distance (m)", "yes", "no", "—", "20.38", "0.00%"):
        assert shown in text, shown
    assert "<code>chihani_ns3</code>" in html and "<code>limited_transmit=True</code>" in html


def test_an_unstacked_table_names_its_column_levels_in_words():
    """Alheid Fig. 4's PR-R rule table: ``rule.unstack("prr_ssthresh")`` (it showed prr_ssthresh,
    gthroughput_mbps and distance_m to readers)."""
    rule = pd.DataFrame({"distance_m": [50, 50, 70, 70], "prr_ssthresh": ["keep", "cwnd"] * 2,
                         "gthroughput_mbps": [13.55, 13.57, 11.07, 11.17], "fast_retransmits": [326.5] * 4}
                        ).set_index(["distance_m", "prr_ssthresh"])
    html = report.readable(rule.unstack("prr_ssthresh")).to_html()
    text = _visible_text(html)
    assert not SNAKE_OUTSIDE_CODE.findall(text), SNAKE_OUTSIDE_CODE.findall(text)
    assert "PR-R ssthresh at a fast retransmit" in text and "gThroughput (Mbit/s)" in text and "distance (m)" in text


def test_readable_text_keeps_tex_and_escapes():
    out = report.render_math(report.readable_text("Theorem 2: $g_{22} > 1/(2K)$, $b_1 < 4 b_2$ and a<b"))
    assert out.count('class="math') == 2 and "a&lt;b" in out
    assert "<code>" not in out          # g_22 inside math is TeX, not an identifier


@pytest.mark.parametrize("value, shown", [(True, "yes"), (np.bool_(False), "no"), (None, "—"), (np.nan, "—"),
                                          (2.0, "2"), (96.906716, "96.91"), (-0.0, "0")])
def test_format_value(value, shown):
    assert report.format_value(value) == shown


def test_a_displayed_frame_and_styler_go_through_readable():
    """In a notebook (an IPython shell) use_table_format makes DataFrames and Stylers readable."""
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    try:
        report.use_table_format()
        html = shell.display_formatter.formatters["text/html"]
        frame_html = html(_frame())
        assert "goodput (Mbit/s)" in frame_html and "round-robin + LIA" in frame_html
        styled = _frame().style.format({"goodput_mbps": "{:.1f}"})
        styler_html = html(styled)
        text = _visible_text(styler_html)
        assert "20.4" in text and "round-robin + LIA" in text and "yes" in text
        assert not SNAKE_OUTSIDE_CODE.findall(text.replace("goodput_mbps", "")), SNAKE_OUTSIDE_CODE.findall(text)
        # the notebook's own frame keeps its names
        assert styled.data.index.names == ["variant", "distance_m"] or styled.data is not None
    finally:
        InteractiveShell.clear_instance()
        pd.reset_option("display.float_format")
        pd.reset_option("styler.format.formatter")


def test_a_bit_rate_column_of_a_styler_keeps_its_name():
    """A Styler's numbers are the notebook's: a bit/s column is not relabelled Mbit/s."""
    assert _column_label("throughput_bps") == "<code>throughput_bps</code>"
    assert _column_label("goodput_mbps") == "goodput (Mbit/s)"


def test_references_are_a_table_of_their_own(monkeypatch):
    """A comparison with other references (Arabi had 14 columns in one table) shows the claims, their
    rules and verdicts in one table and the references beside the claims in a second one; a
    "paper's words" column with no quote is left out."""
    import IPython.display

    shown = []
    monkeypatch.setattr(IPython.display, "display", lambda obj, **kw: shown.append(obj))
    t = report.Comparison()
    t.add_value("gain", paper=2.0, ours=2.05)
    t.add_value("threshold", paper=35.6, ours=20.0, unit="ms")
    for r in t.rows:
        r.references["papers' simulator"] = "1.9"
        r.references["model preset (chihani_ns3)"] = "2.1"
    t.show()
    tables = [o.data for o in shown if isinstance(o, IPython.display.HTML)]
    assert len(tables) == 2
    claims, refs = tables
    assert "verdict" in claims and "papers&#x27; simulator" not in claims and "papers' simulator" not in claims
    assert "paper's words" not in claims and "paper&#x27;s words" not in claims
    assert "papers' simulator" in refs and "<code>chihani_ns3</code>" in refs and "verdict" not in refs


@pytest.mark.parametrize("text, shown", [
    ("random sets (W, x_ih, g_ih)", "random sets (W, <i>x</i><sub>ih</sub>, <i>g</i><sub>ih</sub>)"),
    ("Corollary 1 (eq. 3): ST_i^h = ST_{i+1}^{h+1}", "Corollary 1 (eq. 3): ST<sub>i</sub><sup>h</sup> = ST<sub>i+1</sub><sup>h+1</sup>"),
    ("Theorem 2: g_22 > 1/(2K), b_1 < 4 b_2", "Theorem 2: <i>g</i><sub>22</sub> &gt; 1/(2K), <i>b</i><sub>1</sub> &lt; 4 <i>b</i><sub>2</sub>"),
])
def test_plain_text_symbols_are_typeset_with_subscripts(text, shown):
    """OSIA's claims write x_ih, ST_i^h … in plain text (its module is hashed into the simulator's
    code version, so the table shows them typeset rather than the module being edited)."""
    assert report.readable_text(text) == shown
    assert not SNAKE_OUTSIDE_CODE.findall(_visible_text(report.readable_text(text)))
