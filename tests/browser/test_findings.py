"""What a reader landing on the book sees first: the intro's findings, the scoreboard's totals.

* The intro opens with the findings table (rendered from the papers' claim registries and the chapters'
  decisions): one row per paper, a last "all four papers" row; every count is a non-negative integer;
  each paper row's counts add up to its claims; the last row is the sum of the rows above and equals the
  scoreboard's totals row (each claim counted once, in one chapter).
* The scoreboard's totals row (its first) is the sum of its chapter rows.
* The headlines under the table are written from claims: each names its paper, quotes it, gives a
  verdict and links the deciding chapter.
"""

from __future__ import annotations

import re

from test_pages import PAGES  # noqa: F401  (skips the module without Chromium)

VERDICT_COLUMNS = ["reproduced", "partly", "not reproduced", "undecided", "by construction", "not assessed"]


def _table(page, selector):
    """Header and body rows (cell texts) of the first table matching ``selector``."""
    return page.evaluate(
        """(sel) => { const t = document.querySelector(sel); if (!t) return null;
                      const rows = [...t.querySelectorAll('tr')].map(r => [...r.querySelectorAll('th, td')]
                                    .map(c => c.innerText.replace(/\\s+/g, ' ').trim()));
                      return rows; }""", selector)


def _counts(row, header):
    out = {}
    for col in VERDICT_COLUMNS + ["claims"]:
        cell = row[header.index(col)]
        assert re.fullmatch(r"\d+", cell), f"column {col!r} of row {row[0]!r} is {cell!r}, not a count"
        out[col] = int(cell)
    return out


def _open(page, base_url, doc):
    response = page.goto(f"{base_url}/{doc}.html", wait_until="load")
    assert response is not None and response.status == 200, f"{doc}: HTTP {response and response.status}"


def _scoreboard_totals(page, base_url):
    _open(page, base_url, "book/scoreboard")
    rows = _table(page, "article.bd-article table#scoreboard-verdicts")
    assert rows, "the scoreboard has no table (table#scoreboard-verdicts)"
    header, body = rows[0], rows[1:]
    chapters = [r for r in body if not r[0].startswith("all")]
    totals = [r for r in body if r[0].startswith("all")]
    assert len(totals) == 1 and body[0] is totals[0], "the scoreboard's first row must be its totals row"
    return header, chapters, totals[0]


def test_scoreboard_totals_are_the_column_sums(page, base_url):
    header, chapters, total = _scoreboard_totals(page, base_url)
    assert len(chapters) >= 8
    sums = {c: sum(_counts(r, header)[c] for r in chapters) for c in VERDICT_COLUMNS + ["claims"]}
    assert _counts(total, header) == sums


def test_intro_opens_with_the_findings(page, base_url):
    _open(page, base_url, "book/intro")
    headings = page.evaluate("() => [...document.querySelectorAll('article.bd-article h2')].map(h => h.innerText)")
    assert headings and headings[0].startswith("What the book found"), headings
    rows = _table(page, "article.bd-article table#findings-verdicts")
    assert rows, "the intro has no findings table (table#findings-verdicts)"
    header, body = rows[0], rows[1:]
    assert header[0] == "paper" and set(VERDICT_COLUMNS + ["claims"]) <= set(header), header
    papers = [r for r in body if not r[0].startswith("all")]
    names = " ".join(r[0] for r in papers)
    for paper in ("Song", "OSIA", "Arabi", "Alheid"):
        assert paper in names, f"no row for {paper}"
    counts = [_counts(r, header) for r in papers]
    for r, c in zip(papers, counts):
        assert sum(c[v] for v in VERDICT_COLUMNS) == c["claims"] > 0, f"{r[0]}: verdicts do not add up to its claims"
    last = body[-1]
    assert last[0].startswith("all"), "the findings table ends with the 'all four papers' row"
    total = _counts(last, header)
    assert all(total[c] == sum(x[c] for x in counts) for c in total), "the total is not the sum of the papers"
    # every paper row links its first chapter
    links = page.evaluate("""() => [...document.querySelectorAll('table#findings-verdicts tbody tr')]
                                    .map(r => r.querySelectorAll('a[href*="notebooks/"]').length)""")
    assert all(n >= 1 for n in links[:-1]), links
    # the headlines: one sentence per claim, quoted, with a verdict and the deciding chapter linked
    items = page.evaluate("""() => [...document.querySelectorAll('article.bd-article ul.cmtlab-headlines li')]
                                    .map(li => [li.innerText, li.querySelectorAll('strong').length,
                                                li.querySelectorAll('a[href*="notebooks/"]').length])""")
    assert len(items) >= 4, items
    for text, strong, linked in items:
        assert strong == 1 and linked == 1 and any(p in text for p in ("Song", "OSIA", "Wang", "Arabi", "Alheid")), text
    # and the same totals as the scoreboard's
    sb_header, _, sb_total = _scoreboard_totals(page, base_url)
    assert _counts(sb_total, sb_header) == total
