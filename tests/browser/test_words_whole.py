"""No word or number is broken across lines, on any page of the book.

Every page of _toc.yml is opened in headless Chromium at the reading width (1400 × 900) and, for the
intro and the scoreboard, at phone width (390 × 844).  Every text node of the article (outside code
blocks and typeset math) is split into words — runs of characters without white space — and each word's
characters are measured with a DOM ``Range``: a word whose client rectangles lie on more than one line
is broken ("So ng", "0.92 38", "repro duced").  The only breaks allowed inside a run are the ones a
typesetter makes too: right after a hyphen, a dash, a slash or an ellipsis between letters or digits
("round-robin" → "round-" / "robin", "CT1…" / "CM2"), never after a leading minus sign.  The count must be 0 on every page.

A table too wide for the text column keeps its words whole and scrolls sideways in its own box
(``_static/cmtlab-layout.css``); the claim tables of the chapters fit the column (one line per claim,
the details folded in the row: :meth:`cmtlab.report.Comparison.show`).
"""

from __future__ import annotations

import pytest

from test_pages import PAGES

WINDOW = {"width": 1400, "height": 900}
PHONE = {"width": 390, "height": 844}
PHONE_PAGES = ["book/intro", "book/scoreboard"]
MATH_TIMEOUT_MS = 30_000

# Returns up to `limit` broken words {word, lines, where} and the total count.  A word is measured only
# when its text node spans more than one line (a cheap first test, so the long API pages stay fast).
BROKEN_WORDS = """(limit) => {
  const root = document.querySelector('article.bd-article');
  if (!root) return {count: 0, words: []};
  const skip = el => !el || el.closest('pre, script, style, mjx-container, .MathJax, .math, svg');
  const lineCount = rects => {
    const tops = [];
    for (const r of rects) {
      if (r.width === 0 || r.height === 0) continue;
      if (!tops.some(t => Math.abs(t.top - r.top) < Math.min(t.h, r.height) / 2)) tops.push({top: r.top, h: r.height});
    }
    return tops.length;
  };
  const allowed = /[-\\u2010\\u2013\\u2014\\/\\u2026]/;
  const range = document.createRange();
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const words = [];
  let count = 0;
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n.textContent;
    if (!text.trim() || skip(n.parentElement)) continue;
    const el = n.parentElement;
    if (el.getClientRects().length === 0) continue;           // not displayed (a closed toggle)
    range.selectNodeContents(n);
    if (lineCount(range.getClientRects()) < 2) continue;      // the whole node is on one line
    const re = /\\S{2,}/g;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      // split the run at the break points a typesetter allows (after - – — / between two characters)
      let start = m.index;
      const pieces = [];
      for (let i = m.index; i < m.index + m[0].length - 1; i++) {
        // after a hyphen, dash, slash or ellipsis inside the run (or right after an inline element such
        // as typeset math, "$h$-th"), never after a leading minus sign ("-11.38")
        const inside = i > m.index ? /[\\p{L}\\p{N})\\]\\u2019'\\u201d"]/u.test(text[i - 1]) : i === 0;
        if (allowed.test(text[i]) && inside && /[\\p{L}\\p{N}(]/u.test(text[i + 1])) {
          pieces.push([start, i + 1]);
          start = i + 1;
        }
      }
      pieces.push([start, m.index + m[0].length]);
      for (const [a, b] of pieces) {
        if (b - a < 2) continue;
        range.setStart(n, a);
        range.setEnd(n, b);
        const lines = lineCount(range.getClientRects());
        if (lines > 1) {
          count += 1;
          if (words.length < limit) {
            const cell = el.closest('td, th, dt, dd, p, li, caption, summary, h1, h2, h3, h4');
            words.push({word: text.slice(a, b), lines: lines,
                        where: (cell ? cell.tagName.toLowerCase() : el.tagName.toLowerCase())});
          }
        }
      }
    }
  }
  return {count: count, words: words};
}"""


def broken_words(page, limit: int = 20) -> dict:
    """``{count, words}``: the words of the page's article broken across lines (see the module docstring)."""
    return page.evaluate(BROKEN_WORDS, limit)


def _open(page, base_url, doc):
    response = page.goto(f"{base_url}/{doc}.html", wait_until="load")
    assert response is not None and response.status == 200, f"{doc}: HTTP {response and response.status}"
    page.wait_for_function("() => Array.from(document.images).every(img => img.complete)")
    if page.evaluate("() => !!document.querySelector('.math')"):
        page.wait_for_function("() => window.MathJax && MathJax.startup && MathJax.startup.promise",
                               timeout=MATH_TIMEOUT_MS)
        page.evaluate("() => MathJax.startup.promise")


@pytest.fixture(scope="module")
def wide_page(page_at):
    return page_at(WINDOW)


@pytest.fixture(scope="module")
def phone_page(page_at):
    return page_at(PHONE)


def test_the_measure_finds_a_broken_word(wide_page, base_url):
    """The measure is not blind: a word forced to break ("repro|duced" in a 3-character column) is found,
    a hyphenated word broken at its hyphen and a sentence wrapped between words are not."""
    _open(wide_page, base_url, PAGES[0])
    found = wide_page.evaluate(
        """(js) => {
             const article = document.querySelector('article.bd-article');
             const probe = document.createElement('div');
             probe.innerHTML = '<p style="width:3em;overflow-wrap:anywhere">reproduced</p>'
               + '<p style="width:6em">round-robin scheduler and a few more words</p>';
             article.prepend(probe);
             const out = eval(js)(50);
             probe.remove();
             return out.words.map(w => w.word);
           }""",
        BROKEN_WORDS,
    )
    assert any(w in "reproduced" for w in found), found
    assert not any(w.startswith(("round", "robin", "scheduler")) for w in found), found


@pytest.mark.parametrize("doc", PAGES)
def test_no_word_is_broken(wide_page, base_url, doc):
    _open(wide_page, base_url, doc)
    out = broken_words(wide_page)
    shown = ", ".join(f"{w['word']!r} ({w['where']}, {w['lines']} lines)" for w in out["words"])
    assert out["count"] == 0, f"{doc}: {out['count']} words broken across lines at 1400 px: {shown}"


@pytest.mark.parametrize("doc", PHONE_PAGES)
def test_no_word_is_broken_at_phone_width(phone_page, base_url, doc):
    _open(phone_page, base_url, doc)
    out = broken_words(phone_page)
    shown = ", ".join(f"{w['word']!r} ({w['where']}, {w['lines']} lines)" for w in out["words"])
    assert out["count"] == 0, f"{doc}: {out['count']} words broken across lines at 390 px: {shown}"
