"""The scoreboard page and the verdict-policy page against the chapters and the library.

* every chapter with a paper-vs-reproduction table is on the scoreboard, with every verdict count glued
  (never typed) from that chapter, and every glue key it uses is glued by the chapter's source;
* in every chapter's *stored* outputs the glued counts equal the counts of the stored table's verdict
  column and add up to its number of rows (the scoreboard adds up to the chapters' own counts);
* the policy page states the library's default rules.
"""

from __future__ import annotations

import html
import json
import re
from collections import Counter

import pytest

from cmtlab import report
from cmtlab._paths import REPO

BOARD = (REPO / "book" / "scoreboard.md").read_text(encoding="utf-8")
KEYS = ["reproduced", "partly", "not_reproduced", "undecided", "by_construction", "not_assessed"]
GLUE = re.compile(r"\{glue:text\}`\.\./notebooks/([\w.-]+)\.ipynb::(\w+)(?::[^`]*)?`")


def _source(nb: str) -> str:
    d = json.loads((REPO / "notebooks" / f"{nb}.ipynb").read_text(encoding="utf-8"))
    return "\n".join("".join(c["source"]) for c in d["cells"] if c["cell_type"] == "code")


def _stored_names(nb: str) -> set[str]:
    d = json.loads((REPO / "notebooks" / f"{nb}.ipynb").read_text(encoding="utf-8"))
    return {(o.get("metadata", {}).get("scrapbook", {}) or {}).get("name", "") for c in d["cells"]
            for o in c.get("outputs", [])}


def _chapters_with_tables() -> set[str]:
    return {p.stem for p in (REPO / "notebooks").glob("*.ipynb") if re.search(r"\.glue\(\)", _source(p.stem))}


def test_every_chapter_with_a_table_is_on_the_scoreboard_with_glued_counts():
    refs = GLUE.findall(BOARD)
    on_board = {nb for nb, _ in refs}
    assert _chapters_with_tables() <= on_board, _chapters_with_tables() - on_board
    for nb in on_board:
        src = _source(nb)
        keys = {k for n, k in refs if n == nb}
        if any(k.startswith("verdicts_") for k in keys):
            assert {f"verdicts_{k}" for k in KEYS + ["claims", "checks", "checks_met"]} <= keys, nb
            assert ".glue()" in src, f"{nb} does not glue its verdict counts"
        stored = _stored_names(nb)
        for k in keys - {f"verdicts_{k}" for k in KEYS + ["claims", "checks", "checks_met"]}:
            literal = re.search(rf"glue\(\s*[\"']{k}[\"']", src)
            assert literal or k in stored, f"{nb} does not glue {k}"
    # no typed count: every table row of the scoreboard's count columns is glue
    for line in BOARD.splitlines():
        if line.startswith("| ") and "{doc}" in line:
            cells = [c.strip() for c in line.strip("|").split("|")][2:]
            assert all(c.startswith("{glue:text}") for c in cells), line


def _stored(nb: str):
    """(glued verdict counts, verdict column of the stored paper-claim table) or None if not executed."""
    d = json.loads((REPO / "notebooks" / f"{nb}.ipynb").read_text(encoding="utf-8"))
    glued, verdicts, grid_cells = {}, None, []
    for c in d["cells"]:
        for o in c.get("outputs", []):
            name = (o.get("metadata", {}).get("scrapbook", {}) or {}).get("name", "")
            if name.startswith("verdicts_"):
                glued[name[len("verdicts_"):]] = o["data"].get("application/papermill.record/text/plain")
            h = "".join(o.get("data", {}).get("text/html", ""))
            rows = [[html.unescape(re.sub(r"<[^>]+>", "", x)).strip()
                     for x in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", r, re.S)] for r in re.findall(r"<tr>(.*?)</tr>", h, re.S)]
            # the paper-claim table (its "paper's words" column is left out when no claim is quoted; the
            # table of the other references beside the claims has no verdict column)
            if verdicts is None and rows and rows[0][:1] == ["claim"] and "verdict" in rows[0]:
                i = rows[0].index("verdict")
                verdicts = [r[i] for r in rows[1:]]
            if report.GRID_CLASS in h:  # a verdict grid: each cell ends with its verdict's mark
                marks = {m: v for v, m in report.VERDICT_MARKS.items()}
                grid_cells += [marks[c[-1]] for r in rows[1:] for c in r[1:] if c and c[-1] in marks]
    if not glued:
        return None
    if verdicts is None:          # a chapter with checks of this book only shows no paper-claim table
        verdicts = []
    return glued, verdicts + grid_cells


@pytest.mark.parametrize("nb", sorted({nb for nb, k in GLUE.findall(BOARD) if k.startswith("verdicts_")}))
def test_glued_counts_add_up_to_the_chapters_table(nb):
    stored = _stored(nb)
    if stored is None:
        pytest.skip(f"{nb}: no stored verdict table with glued counts (re-execute the notebook)")
    glued, verdicts = stored
    kinds = Counter(report.UNDECIDED if v.startswith(report.UNDECIDED) else v for v in verdicts)
    for k in KEYS:
        assert int(glued[k]) == kinds.get(k.replace("_", " "), 0), (nb, k)
    assert sum(int(glued[k]) for k in KEYS) == int(glued["claims"]) == len(verdicts)
    assert set(kinds) <= set(report.VERDICTS)


def test_policy_page_states_the_librarys_rules():
    page = (REPO / "book" / "verdict-policy.md").read_text(encoding="utf-8").replace("\\|", "|")
    for band in (report.MEASURED, report.COMPUTED):
        assert band.text() in page
    assert f"1 ± {100 * report.NO_CHANGE:g} %" in page
    for v in report.VERDICTS:
        assert f"**{v}" in page, v
    toc = (REPO / "_toc.yml").read_text(encoding="utf-8")
    assert toc.index("book/scoreboard") < toc.index("book/verdict-policy") < toc.index("notebooks/")


# ------------------------------------------------------------------ totals and the intro's findings
SUM = re.compile(r"\{glue-sum\}`([^`]+)::(\w+)`")


def _matched(patterns: str) -> set[str]:
    """The notebooks (stems) a glue-sum's comma-separated patterns name (as the book extension does)."""
    import fnmatch

    stems = {p.stem for p in (REPO / "notebooks").glob("*.ipynb")}
    out = set()
    for pattern in patterns.split(","):
        pattern = pattern.strip().removeprefix("../notebooks/").removesuffix(".ipynb")
        hit = {s for s in stems if fnmatch.fnmatchcase(s, pattern)}
        assert hit, f"{pattern!r} matches no notebook"
        out |= hit
    return out


def test_scoreboard_totals_row_sums_every_chapter_on_the_board():
    totals = [line for line in BOARD.splitlines() if line.startswith("| **all**")]
    assert len(totals) == 1
    sums = SUM.findall(totals[0])
    assert {k for _, k in sums} == {f"verdicts_{k}" for k in KEYS + ["claims", "checks", "checks_met"]}
    # "@scoreboard": the notebooks whose key the board itself glues, so a new row is counted at once
    assert all(p == "@scoreboard" for p, _ in sums), totals[0]


def test_intro_findings_count_each_chapter_once():
    intro = (REPO / "book" / "intro.md").read_text(encoding="utf-8")
    assert intro.index("## What the book found") < intro.index("## The four papers"), "findings come first"
    table = [line for line in intro.splitlines() if line.startswith("| ") and "{glue-sum}" in line]
    rows = [(line, SUM.findall(line)) for line in table]
    assert len(rows) >= 5
    on_board = {nb for nb, k in GLUE.findall(BOARD) if k.startswith("verdicts_")}
    seen: list[str] = []
    for line, sums in rows[:-1]:
        assert {k for _, k in sums} == {f"verdicts_{k}" for k in KEYS + ["claims"]}, line
        assert len({p for p, _ in sums}) == 1, f"one set of chapters per row: {line}"
        seen += sorted(_matched(sums[0][0]))
    assert sorted(seen) == sorted(set(seen)), "a chapter is counted in two rows"
    assert set(seen) <= on_board, "a paper row counts a chapter the scoreboard does not show"
    for paper in ("song-", "osia-", "arabi-", "alheid-"):   # every chapter of the four papers is in a row
        assert {nb for nb in on_board if nb.startswith(paper)} <= set(seen), paper
    last_line, last = rows[-1]
    assert "all" in last_line and all(p == "@scoreboard" for p, _ in last), "the last row is the scoreboard's total"
    # headline results: numbers glued, never typed
    for line in intro.split("## The four papers")[0].splitlines():
        if line.lstrip().startswith("* "):
            bare = re.sub(r"\{glue:text\}`[^`]*`|\{doc\}`[^`]*`|\{cite\}`[^`]*`|ns-3\.\d+", "", line)
            assert not re.search(r"\d+\.\d+|\d+ ?%", bare), f"typed number in a headline: {line}"
