"""The scoreboard page and the verdict-policy page against the chapters and the library.

* the intro and the scoreboard render their counts and headlines from the claims (the book extension's
  directives), never from typed numbers or prose around glued values;
* in every chapter's *stored* outputs the glued counts equal the counts of the stored table's verdict
  column and add up to its number of rows, and every claim a chapter counts is a registered claim of its
  own that it decides once (the rendered counts are the chapters' own counts);
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


def _source(nb: str) -> str:
    d = json.loads((REPO / "notebooks" / f"{nb}.ipynb").read_text(encoding="utf-8"))
    return "\n".join("".join(c["source"]) for c in d["cells"] if c["cell_type"] == "code")


def _stored_names(nb: str) -> set[str]:
    d = json.loads((REPO / "notebooks" / f"{nb}.ipynb").read_text(encoding="utf-8"))
    return {(o.get("metadata", {}).get("scrapbook", {}) or {}).get("name", "") for c in d["cells"]
            for o in c.get("outputs", [])}


def _chapters_with_tables() -> set[str]:
    return {p.stem for p in (REPO / "notebooks").glob("*.ipynb") if re.search(r"\.glue\(\)", _source(p.stem))}


def test_intro_and_scoreboard_render_from_the_claims():
    intro = (REPO / "book" / "intro.md").read_text(encoding="utf-8")
    found = intro[intro.index("## What the book found"):intro.index("## The four papers")]
    for directive in ("{cmtlab-findings}", "{cmtlab-headlines}"):
        assert found.count(directive) == 1, directive
    for directive in ("{cmtlab-scoreboard}", "{cmtlab-headlines}", "{cmtlab-checks}"):
        assert BOARD.count(directive) == 1, directive
    for page in (found, BOARD):  # a headline is its claim's finding, never prose around a glued value
        assert "{glue" not in page
        bare = re.sub(r"\{doc\}`[^`]*`|\{cite\}`[^`]*`|ns-3\.\d+|eqs?\. [\d–-]+|RFC \d+|\d+ %", "", page)
        assert not re.search(r"\d+\.\d+", bare), "a typed number on the findings pages"


def _stored(nb: str):
    """(glued verdict counts, verdict column of the stored paper-claim table) or None if not executed."""
    d = json.loads((REPO / "notebooks" / f"{nb}.ipynb").read_text(encoding="utf-8"))
    glued, verdicts = {}, None
    for c in d["cells"]:
        for o in c.get("outputs", []):
            name = (o.get("metadata", {}).get("scrapbook", {}) or {}).get("name", "")
            if name.startswith("verdicts_"):
                glued[name[len("verdicts_"):]] = o["data"].get("application/papermill.record/text/plain")
            h = "".join(o.get("data", {}).get("text/html", ""))
            rows = [[html.unescape(re.sub(r"<[^>]+>", "", x)).strip()
                     for x in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", r, re.S)] for r in re.findall(r"<tr(?:\s[^>]*)?>(.*?)</tr>", h, re.S)]
            # the paper-claim table (its "paper's words" column is left out when no claim is quoted; the
            # table of the other references beside the claims has no verdict column)
            if verdicts is None and rows and rows[0][:1] == ["claim"] and "verdict" in rows[0]:
                i = rows[0].index("verdict")
                verdicts = [r[i] for r in rows[1:]]
            # a verdict grid's cells are the cases of one registered claim (decided once, in its table row)
    if not glued:
        return None
    if verdicts is None:          # a chapter with checks of this book only shows no paper-claim table
        verdicts = []
    return glued, verdicts


@pytest.mark.parametrize("nb", sorted(p.stem for p in (REPO / "notebooks").glob("*.ipynb")))
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


# ------------------------------------------------------------------ the claims a chapter counts
def _stored_decisions(nb: str):
    """The decisions a chapter glued (``claims_decided``) in its stored outputs, or None."""
    import ast

    from cmtlab.report import claims

    d = json.loads((REPO / "notebooks" / f"{nb}.ipynb").read_text(encoding="utf-8"))
    for c in d["cells"]:
        for o in c.get("outputs", []):
            if (o.get("metadata", {}).get("scrapbook", {}) or {}).get("name", "") == claims.GLUE_KEY:
                return claims.loads(ast.literal_eval(o["data"]["application/papermill.record/text/plain"]))
    return None


@pytest.mark.parametrize("nb", sorted(p.stem for p in (REPO / "notebooks").glob("*.ipynb")))
def test_every_claim_a_chapter_counts_is_registered_and_its_own(nb):
    from cmtlab.papers import all_claims

    stored = _stored(nb)
    if stored is None:
        pytest.skip(f"{nb}: no stored verdict table with glued counts (re-execute the notebook)")
    glued, _ = stored
    decisions = _stored_decisions(nb) or []
    registry = all_claims()
    for d in decisions:
        assert d.claim in registry, f"{nb} decides {d.claim!r}, which no registry holds"
        assert registry[d.claim].chapter == nb, f"{d.claim} belongs to {registry[d.claim].chapter}, not {nb}"
    assert len({d.claim for d in decisions}) == len(decisions), f"{nb} decides a claim twice"
    assert int(glued["claims"]) == len(decisions), (
        f"{nb} counts {glued['claims']} claims but decides {len(decisions)} registered ones: a claim outside "
        "the registry (or a check counted as a claim)")


def test_each_registered_claim_is_decided_by_one_stored_chapter():
    from cmtlab.papers import all_claims

    seen: dict[str, list[str]] = {}
    executed = set()
    for p in sorted((REPO / "notebooks").glob("*.ipynb")):
        decisions = _stored_decisions(p.stem)
        if decisions is None:
            continue
        executed.add(p.stem)
        for d in decisions:
            seen.setdefault(d.claim, []).append(p.stem)
    for key, claim in all_claims().items():
        if claim.chapter in executed:
            assert seen.get(key) == [claim.chapter], (key, seen.get(key))


def test_front_pages_show_every_claim_at_a_glance():
    """The intro (under its findings) and the scoreboard (under its table) carry the grid of every claim,
    rendered by the book extension — never a typed picture."""
    intro = (REPO / "book" / "intro.md").read_text(encoding="utf-8")
    found = intro[intro.index("## What the book found"):intro.index("## The four papers")]
    assert found.count("{cmtlab-claims-grid}") == 1
    assert found.index("{cmtlab-findings}") < found.index("{cmtlab-claims-grid}")
    assert BOARD.count("{cmtlab-claims-grid}") == 1
    assert BOARD.index("{cmtlab-scoreboard}") < BOARD.index("{cmtlab-claims-grid}")
    assert intro.count("{cmtlab-version}") == 1, "the intro states its version and date (computed at build time)"


def test_api_reference_is_one_page_per_package():
    toc = (REPO / "_toc.yml").read_text(encoding="utf-8")
    pages = sorted((REPO / "book" / "api").glob("*.md"))
    assert len(pages) >= 10
    for p in pages:
        assert f"book/api/{p.stem}\n" in toc, f"{p} is not in _toc.yml"
        assert "{cmtlab-api}" in p.read_text(encoding="utf-8") and ":page:" in p.read_text(encoding="utf-8")
    assert "{cmtlab-api}" not in (REPO / "book" / "api.md").read_text(encoding="utf-8"), "api.md is an index now"


def test_a_citation_without_a_year_says_so():
    """Arabi et al.'s copy states no year and no public record gives one: the author–year citation reads
    "year not stated" (book/_ext/cmtlab_book.py), never "n.d."."""
    import importlib.util

    import pybtex.database

    spec = importlib.util.spec_from_file_location("cmtlab_book", REPO / "book" / "_ext" / "cmtlab_book.py")
    book = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(book)
    book._citations_without_year()
    from sphinxcontrib.bibtex.style.referencing import basic_author_year, extra_year

    entries = pybtex.database.parse_file(REPO / "book" / "references.bib").entries
    for module in (basic_author_year, extra_year):
        assert str(module.year.format_data({"entry": entries["arabi"]})) == book.NO_YEAR
        assert str(module.year.format_data({"entry": entries["song2018"]})) == "2018"
    for key in ("song2018", "alheid2016", "wang_osia"):
        assert "year" in entries[key].fields and ("journal" in entries[key].fields or "booktitle" in entries[key].fields)
    assert "DOI" in entries["arabi"].fields["note"] and "2016" in entries["arabi"].fields["note"]
