"""Every figure of every chapter is a numbered, captioned figure with its data (issue 38).

For each chapter (``notebooks/*`` in _toc.yml) opened in headless Chromium:

* every figure in a cell output (an ``img``) is followed, in the same cell, by one caption block
  (``.cmtlab-figcaption``, drawn by :func:`cmtlab.report.figure.show`) that starts "Figure N." — N
  counting 1, 2, 3 … down the page — and says what the figure reproduces (a paper's figure, or that it
  reproduces none);
* the figure's ``alt`` text is the caption ("Figure N. …", written by ``book/_ext/cmtlab_figures.py``),
  not the image's hash name;
* the caption's data link resolves over HTTP to a CSV file next to the page: a header of named columns
  and at least one row of values.
"""

from __future__ import annotations

import csv
import io
import re

import pytest

from test_pages import PAGES

CHAPTERS = [p for p in PAGES if p.startswith("notebooks/")]
#: Chapters whose figure cells do not call :func:`cmtlab.report.figure.show` yet (their full-profile re-execution
#: did not fit the session that converted the others).  Strict: a chapter that gets its captions must leave the list.
PENDING: set[str] = set()

_FIGURES_JS = """() => {
  const out = [];
  for (const cell of document.querySelectorAll('article.bd-article div.cell')) {
    const imgs = Array.from(cell.querySelectorAll('.cell_output img'));
    const caps = Array.from(cell.querySelectorAll('.cell_output .cmtlab-figcaption'));
    out.push({imgs: imgs.map(i => ({alt: i.getAttribute('alt') || '', src: i.getAttribute('src') || ''})),
              caps: caps.map(c => ({text: c.innerText.trim(), alt: c.getAttribute('data-alt') || '',
                                    href: (c.querySelector('a.cmtlab-figdata') || {href: ''}).href}))});
  }
  return out;
}"""


def test_every_chapter_is_checked():
    assert len(CHAPTERS) >= 18, CHAPTERS


@pytest.mark.parametrize("doc", [pytest.param(d, marks=pytest.mark.xfail(
    strict=True, reason="figures not yet shown with captions (re-execution pending)")) if d in PENDING else d
    for d in CHAPTERS])
def test_figures_have_numbered_captions_alt_text_and_data(page, base_url, doc):
    response = page.goto(f"{base_url}/{doc}.html", wait_until="load")
    assert response is not None and response.status == 200
    cells = page.evaluate(_FIGURES_JS)
    problems, number = [], 0
    for k, cell in enumerate(cells, 1):
        if len(cell["imgs"]) != len(cell["caps"]):
            problems.append(f"cell {k}: {len(cell['imgs'])} figure(s) but {len(cell['caps'])} caption(s)")
            continue
        for img, cap in zip(cell["imgs"], cell["caps"]):
            number += 1
            head = f"Figure {number}."
            if not cap["text"].startswith(head):
                problems.append(f"figure {number}: caption does not start with {head!r}: {cap['text'][:60]!r}")
            if not re.search(r"Reproduces .+|reproduces no figure of a paper", cap["text"]):
                problems.append(f"figure {number}: the caption does not say what it reproduces")
            if not (img["alt"].startswith(head) and img["alt"] == cap["alt"] and len(img["alt"]) > 40):
                problems.append(f"figure {number}: alt text {img['alt'][:60]!r} is not its caption")
            if re.fullmatch(r"[0-9a-f]{32,}(\.png)?", img["alt"] or "0" * 64):
                problems.append(f"figure {number}: alt text is a hash name")
            href = cap["href"]
            if not href or href.startswith("data:"):
                problems.append(f"figure {number}: no data file link (got {href[:40]!r})")
                continue
            resp = page.request.get(href)
            if resp.status != 200:
                problems.append(f"figure {number}: data link {href} -> HTTP {resp.status}")
                continue
            rows = list(csv.reader(io.StringIO(resp.text())))
            if len(rows) < 2 or len(rows[0]) < 2 or not all(h.strip() for h in rows[0]):
                problems.append(f"figure {number}: {href} is not a CSV with named columns and a row of values")
    assert not problems, f"{doc}: " + "; ".join(problems)
    assert number > 0, f"{doc}: no figure"
