"""A published reproduction's conventions and the at-a-glance picture of every claim, as a reader finds them.

* The intro and the scoreboard show every registered claim as one cell of the grid
  (``#claims-at-a-glance``, rendered by the book extension from the claims registries and the chapters'
  decisions): as many cells per verdict as the findings table counts; every cell links to its claim's row in
  the chapter that decides it, and that row (``id="claim-<key>"``) exists there.
* The intro and the citation page carry the version line (library version, commit and its date, build date),
  computed at build time.
* The API reference is split into one page per package, none of them a 500,000-px page.
* The search ranks the chapters above the API reference's entries.
* The references give a venue and a year (or say that none is stated) for every reproduced paper, and no
  citation reads "n.d.".
"""

from __future__ import annotations

import re
from urllib.parse import urljoin, urlparse

import pytest

from test_pages import PAGES

VERDICTS = ["reproduced", "partly", "not reproduced", "undecided", "by construction", "not assessed"]
API_PAGES = [p for p in PAGES if p.startswith("book/api/")]
#: No page of the API reference may be taller than this at 1400 px (the one-page reference was 504,000 px).
API_MAX_HEIGHT_PX = 80_000


def _open(page, base_url, doc, query=""):
    response = page.goto(f"{base_url}/{doc}.html{query}", wait_until="load")
    assert response is not None and response.status == 200, f"{doc}: HTTP {response and response.status}"


def _grid(page):
    return page.evaluate(
        """() => { const g = document.querySelector('article.bd-article #claims-at-a-glance');
                   if (!g) return null;
                   return [...g.querySelectorAll('.cmtlab-grid-cells .cmtlab-grid-cell')].map(c => ({
                     href: c.getAttribute('href'), title: c.getAttribute('title') || '',
                     missing: c.classList.contains('cmtlab-grid-missing')})); }""")


def _verdict_of(title: str) -> str:
    said = title.rsplit(": ", 1)[1].split(" — ")[0]
    return "undecided" if said.startswith("undecided") else said


@pytest.mark.parametrize("doc", ["book/intro", "book/scoreboard"])
def test_every_claim_at_a_glance(page, base_url, doc):
    _open(page, base_url, doc)
    cells = _grid(page)
    assert cells, f"{doc}: no grid of every claim (#claims-at-a-glance)"
    decided = [c for c in cells if not c["missing"]]
    assert decided, f"{doc}: no decided claim in the grid"
    counts = {v: sum(_verdict_of(c["title"]) == v for c in decided) for v in VERDICTS}
    assert sum(counts.values()) == len(decided), [c["title"] for c in decided if _verdict_of(c["title"]) not in VERDICTS]
    # the same counts as the findings table's "all four papers" row / the scoreboard's totals row
    table = "table#findings-verdicts" if doc == "book/intro" else "table#scoreboard-verdicts"
    rows = page.evaluate(
        """(sel) => [...document.querySelectorAll(sel + ' tr')].map(r => [...r.querySelectorAll('th, td')]
                     .map(c => c.innerText.trim()))""", table)
    header = rows[0]
    total = next(r for r in rows[1:] if r[0].startswith("all"))
    assert {v: int(total[header.index(v)]) for v in VERDICTS} == counts, (doc, counts)
    # every cell links to its claim's row in its chapter
    targets: dict[str, set[str]] = {}
    for c in decided:
        url = urlparse(urljoin(f"{base_url}/{doc}.html", c["href"]))
        assert url.path.startswith("/notebooks/") and url.fragment.startswith("claim-"), c
        targets.setdefault(url.path, set()).add(url.fragment)
    for path, ids in targets.items():
        page.goto(f"{base_url}{path}", wait_until="load")
        present = set(page.evaluate("(ids) => ids.filter(i => document.getElementById(i))", sorted(ids)))
        assert ids <= present, f"{path}: no row for {sorted(ids - present)[:5]}"


@pytest.mark.parametrize("doc", ["book/intro", "book/cite"])
def test_version_and_date(page, base_url, doc):
    _open(page, base_url, doc)
    text = page.evaluate("() => (document.querySelector('article.bd-article p.cmtlab-version') || {}).innerText || ''")
    assert re.search(r"^Version \d+\.\d+\.\d+", text), f"{doc}: no version line: {text!r}"
    assert re.search(r"built on \d{4}-\d{2}-\d{2}\.$", text), f"{doc}: no build date: {text!r}"


def test_api_reference_is_split():
    assert len(API_PAGES) >= 10, API_PAGES


@pytest.mark.parametrize("doc", ["book/api"] + API_PAGES)
def test_api_pages_are_not_endless(browser, base_url, doc):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    try:
        _open(page, base_url, doc)
        height = page.evaluate("() => document.documentElement.scrollHeight")
    finally:
        context.close()
    assert height <= API_MAX_HEIGHT_PX, f"{doc}: {height} px tall"


@pytest.mark.parametrize("query", ["Eifel", "Starlink", "reordering"])
def test_search_ranks_chapters_first(page, base_url, query):
    _open(page, base_url, "search", f"?q={query}")
    page.wait_for_function("() => document.querySelectorAll('#search-results ul.search li').length > 0",
                           timeout=30_000)
    hrefs = page.evaluate("() => [...document.querySelectorAll('#search-results ul.search li a')]"
                          ".map(a => a.getAttribute('href'))")
    pages = [h for h in hrefs if h]
    api = [i for i, h in enumerate(pages) if "book/api" in h]
    prose = [i for i, h in enumerate(pages) if "book/api" not in h]
    assert prose, f"{query}: no chapter found"
    assert not api or max(prose) < min(api), f"{query}: an API entry ranks above a chapter: {pages[:8]}"


def test_references_are_complete(page, base_url):
    _open(page, base_url, "book/references")
    text = page.evaluate("() => document.querySelector('article.bd-article').innerText")
    assert "n.d." not in text
    for needle in ("Sustainability", "10.3390/su10051337", "Journal of Network and Computer Applications",
                   "10.1109/ICT.2016.7500468", "names no journal, conference, year or DOI"):
        assert needle in text, needle
    _open(page, base_url, "book/intro")
    intro = page.evaluate("() => document.querySelector('article.bd-article').innerText")
    assert "n.d." not in intro and "year not stated" in intro
