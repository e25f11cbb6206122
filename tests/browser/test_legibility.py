"""What a reader sees at the book's reading width: legible figure text, tables that fit the column.

Every page of _toc.yml is opened in headless Chromium at a 1400 × 900 window (the width the
book is read at on a laptop; the text column is then about 780 px wide).

* **Figure text.**  Every figure of a notebook is drawn through :func:`cmtlab.report.style.use_style`,
  which writes into its PNG the smallest font size any of its texts uses (``cmtlab:min-font-pt``)
  and the resolution it is drawn at (``cmtlab:dpi``).  That text is ``min-font-pt / 72 × dpi``
  pixels high in the PNG; the browser shows the PNG at ``shown width / natural width`` of its
  size, so the text is displayed at
  ``min-font-pt × dpi / 72 × shown / natural`` CSS pixels, which must be at least 9 pt
  (12 CSS px; CSS has 96 px per inch, 72 pt per inch).  A figure drawn wider than the column is
  shrunk by the browser and fails here; so does a figure with a tiny label, legend or in-cell
  number, and a figure drawn without the book's style (no metadata).
* **Tables.**  No table reaches beyond the right edge of the text column.  A table whose words,
  kept whole (tests/browser/test_words_whole.py), need more than the column scrolls sideways in its
  own box; the tables the book itself lays out — the chapters' claim tables (``table.cmtlab-claims``:
  one line per claim, the details folded in the row) and the front pages' tables — fit the column
  without scrolling.
"""

from __future__ import annotations

import io
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from PIL import Image

from test_pages import HTML_DIR, PAGES

WINDOW = {"width": 1400, "height": 900}
MIN_DISPLAYED_PT = 9.0
CSS_PX_PER_PT = 96 / 72
CHAPTERS = [p for p in PAGES if p.startswith("notebooks/")]
# the tables the book lays out itself: they fit the column without a sideways scroll
FITTING = "table.cmtlab-claims, table.cmtlab-claims-grid, table#findings-verdicts, table#scoreboard-verdicts, table#checks-met"


@pytest.fixture(scope="module")
def reading_page(page_at):
    return page_at(WINDOW)


def _open(page, base_url, doc):
    response = page.goto(f"{base_url}/{doc}.html", wait_until="load")
    assert response is not None and response.status == 200, f"{doc}: HTTP {response and response.status}"
    page.wait_for_function("() => Array.from(document.images).every(img => img.complete)")


def _png_text(src: str) -> tuple[dict, int]:
    """The text chunks and pixel width of a PNG of the built book, from its URL."""
    path = HTML_DIR / unquote(urlparse(src).path).lstrip("/")
    with Image.open(io.BytesIO(Path(path).read_bytes())) as im:
        return dict(im.info), im.size[0]


def displayed_font_pt(min_font_pt: float, dpi: float, natural_px: float, shown_px: float) -> float:
    """Displayed size (pt) of text of ``min_font_pt`` in a PNG drawn at ``dpi``, shown at
    ``shown_px`` CSS pixels wide when it is ``natural_px`` pixels wide."""
    text_png_px = min_font_pt / 72 * dpi
    return text_png_px * (shown_px / natural_px) / CSS_PX_PER_PT


def test_displayed_font_arithmetic():
    # a 10 pt label in a 7 in figure at 110 dpi (770 px) shown at its natural size: 15.3 px = 11.5 pt
    assert displayed_font_pt(10, 110, 770, 770) == pytest.approx(10 * 110 / 96)
    # the same figure drawn 14 in wide and squeezed into a 784 px column: below 9 pt
    assert displayed_font_pt(10, 110, 1540, 784) < MIN_DISPLAYED_PT


@pytest.mark.parametrize("doc", CHAPTERS)
def test_figure_text_is_legible(reading_page, base_url, doc):
    _open(reading_page, base_url, doc)
    images = reading_page.evaluate(
        """() => Array.from(document.querySelectorAll('article.bd-article img'))
               .filter(img => (img.currentSrc || img.src).endsWith('.png'))
               .map(img => ({src: img.currentSrc || img.src, natural: img.naturalWidth,
                             shown: img.getBoundingClientRect().width}))"""
    )
    assert images, f"{doc}: no figure"
    problems = []
    for i, img in enumerate(images, 1):
        info, width_px = _png_text(img["src"])
        assert width_px == img["natural"], f"{doc}: figure {i}: PNG width {width_px} != naturalWidth {img['natural']}"
        if "cmtlab:min-font-pt" not in info or "cmtlab:dpi" not in info:
            problems.append(f"figure {i} ({Path(img['src']).name}): no font metadata — not drawn after "
                            "cmtlab.report.style.use_style()")
            continue
        if img["shown"] == 0:  # inside a folded (hidden) output: measured when a reader unfolds it
            continue
        min_pt, dpi = float(info["cmtlab:min-font-pt"]), float(info["cmtlab:dpi"])
        shown_pt = displayed_font_pt(min_pt, dpi, img["natural"], img["shown"])
        if shown_pt < MIN_DISPLAYED_PT:
            problems.append(f"figure {i} ({Path(img['src']).name}): smallest text {min_pt:g} pt at {dpi:g} dpi, "
                            f"{img['natural']} px shown at {img['shown']:.0f} px -> {shown_pt:.1f} pt "
                            f"< {MIN_DISPLAYED_PT:g} pt")
    assert not problems, f"{doc}: " + "; ".join(problems)


@pytest.mark.parametrize("doc", PAGES)
def test_tables_fit_the_column(reading_page, base_url, doc):
    _open(reading_page, base_url, doc)
    overflowing = reading_page.evaluate(
        """(FITTING) => {
             const article = document.querySelector('article.bd-article');
             const style = getComputedStyle(article);
             const right = article.getBoundingClientRect().right - parseFloat(style.paddingRight);
             const out = [];
             article.querySelectorAll('table').forEach((table, i) => {
               const beyond = table.getBoundingClientRect().right - right;
               let scroller = null;
               for (let el = table.parentElement; el && el !== article; el = el.parentElement) {
                 if (el.scrollWidth > el.clientWidth + 1) { scroller = el; break; }
               }
               const own = table.matches(FITTING);
               if (beyond > 1 && !scroller || own && (beyond > 1 || scroller)) {
                 const head = (table.querySelector('tr') || table).innerText.replace(/\\s+/g, ' ').slice(0, 60);
                 out.push(`table ${i + 1} ("${head}"): ` + (beyond > 1 ? `${Math.round(beyond)} px beyond the column` :
                          `in a box that scrolls sideways by ${scroller.scrollWidth - scroller.clientWidth} px`));
               }
             });
             return out;
           }""",
        FITTING,
    )
    assert not overflowing, f"{doc}: " + "; ".join(overflowing)
