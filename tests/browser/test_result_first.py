"""A chapter read as a researcher reads it: its result first, a quiet body, figures legible on a phone.

Every notebook chapter of _toc.yml opened in headless Chromium:

* **Result first** (1400 × 900): the result box (``aside.cmtlab-result``, book/_ext/cmtlab_book.py) sits
  under the title, and its counts are inside the first screen; its verdict counts equal the verdicts the
  chapter's own claim table (and verdict grids) show for the registered claims — each claim's row carries
  the id ``claim-<key>`` — and it has one finding per claim; a chapter with checks of this book says how
  many it met.
* **Quiet pages**: no printed text output (stream, stderr, a bare ``text/plain`` result) in the chapter's
  body — what the code prints is folded at the end (``details.cmtlab-printed``) — and no run time, kernel
  build string or commit hash outside the page's provenance line (``div.cmtlab-provenance``) and the
  "Re-run this page" box (whose expected run time is guidance for re-running).
* **Phone width** (390 × 844): every figure is shown at its drawn size (in-cell numbers as legible as at
  1400 px: the smallest text of each PNG, ``cmtlab:min-font-pt`` at ``cmtlab:dpi``, is displayed at ≥ 9 pt)
  and scrolls sideways in its own box; the page itself never scrolls sideways.
"""

from __future__ import annotations

import re

import pytest

from test_legibility import MIN_DISPLAYED_PT, _png_text, displayed_font_pt
from test_pages import PAGES

CHAPTERS = [p for p in PAGES if p.startswith("notebooks/")]
SCREEN = {"width": 1400, "height": 900}
PHONE = {"width": 390, "height": 844}
VERDICT_MARKS = {"✓": "reproduced", "≈": "partly", "✗": "not reproduced", "?": "undecided",
                 "■": "by construction", "–": "not assessed"}

#: Build noise in a chapter's body: a run time, a kernel build string ("6.18.44-fc-v669"), a commit hash.
BUILD_NOISE = re.compile(
    r"\bran in (?:about )?\d|\bminutes of real time\b|\btook \d+(?:\.\d+)? (?:s|min|minutes)\b"
    r"|\b\d+\.\d+(?:\.\d+)?-[A-Za-z0-9]+-v\d+\b"
    r"|\bcommit [0-9a-f]{7,40}\b|(?<![\w/.-])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{10,40}(?![\w/.-])")


@pytest.fixture(scope="module")
def screen_page(page_at):
    return page_at(SCREEN)


@pytest.fixture(scope="module")
def phone_page(page_at):
    return page_at(PHONE)


def _open(page, base_url, doc):
    response = page.goto(f"{base_url}/{doc}.html", wait_until="load")
    assert response is not None and response.status == 200, f"{doc}: HTTP {response and response.status}"


def test_build_noise_is_found():
    for text in ("This page ran in 2.0 minutes.", "took 2.0 minutes of real time", "this kernel 6.18.44-fc-v973",
                 "recorded on 6.18.44-fc-v669", "(commit 19df3994b6)", "at 319d53a8c1 the"):
        assert BUILD_NOISE.search(text), text
    for text in ("96.1 %", "RFC 6356", "ns-3.44", "2026-11-25", "sha256 pinned", "fig4-runs.jsonl.gz",
                 "Linux 6.18", "deadbeefcafe", "T_622b9_level0"):
        assert not BUILD_NOISE.search(text), text


@pytest.mark.parametrize("doc", CHAPTERS)
def test_result_first(screen_page, base_url, doc):
    page = screen_page
    _open(page, base_url, doc)
    box = page.evaluate("""() => {
        const box = document.querySelector('article.bd-article aside.cmtlab-result');
        if (!box) return null;
        const h1 = document.querySelector('article.bd-article h1');
        const head = box.querySelector('p.cmtlab-result-head').getBoundingClientRect();
        const findings = box.querySelectorAll('ul.cmtlab-result-findings li').length;
        const checks = box.querySelector('.cmtlab-result-checks');
        return {top: box.getBoundingClientRect().top + window.scrollY, head_bottom: head.bottom + window.scrollY,
                after_title: !!h1 && (h1.compareDocumentPosition(box) & Node.DOCUMENT_POSITION_FOLLOWING) > 0,
                counts: JSON.parse(box.dataset.counts), claims: parseInt(box.dataset.claims), findings,
                checks: checks ? [parseInt(checks.dataset.met), parseInt(checks.dataset.checks)] : null};
    }""")
    assert box, f"{doc}: no result box (aside.cmtlab-result)"
    assert box["after_title"], f"{doc}: the result box is not under the title"
    assert box["head_bottom"] <= SCREEN["height"], (
        f"{doc}: the result's counts end at {box['head_bottom']:.0f} px, below the first screen ({SCREEN['height']} px)")
    # the verdicts the chapter's own table shows for its registered claims (rows and grid cells with a claim id)
    shown = page.evaluate("""() => {
        const out = [];
        document.querySelectorAll('article.bd-article table.cmtlab-claims td.cmtlab-claim[id^="claim-"]').forEach(td => {
            const v = td.parentElement.querySelector('td.cmtlab-verdict');
            out.push({key: td.id, verdict: v ? v.innerText.trim() : ''});
        });
        document.querySelectorAll('article.bd-article table.cmtlab-verdict-grid td span[id^="claim-"]').forEach(s => {
            const text = s.parentElement.innerText.trim();
            out.push({key: s.id, mark: text.slice(-1)});
        });
        return out;
    }""")
    counted = {k: 0 for k in box["counts"]}
    for row in shown:
        verdict = row.get("verdict") or VERDICT_MARKS.get(row.get("mark"), f"mark {row.get('mark')!r}")
        kind = "undecided" if verdict.startswith("undecided") else verdict
        counted[kind] = counted.get(kind, 0) + 1
    assert len({r["key"] for r in shown}) == len(shown), f"{doc}: a claim's row id appears twice"
    assert counted == box["counts"], f"{doc}: result box {box['counts']} != the claim table's verdicts {counted}"
    assert box["claims"] == sum(box["counts"].values()) == box["findings"], (
        f"{doc}: {box['claims']} claims, {box['findings']} findings in the box")
    if box["checks"]:
        met, n = box["checks"]
        assert 0 <= met <= n and n > 0, f"{doc}: checks met {met} of {n}"
    assert box["claims"] or box["checks"], f"{doc}: the result box shows neither a verdict nor a check"


@pytest.mark.parametrize("doc", CHAPTERS)
def test_quiet_page(page, base_url, doc):
    _open(page, base_url, doc)
    found = page.evaluate("""() => {
        const article = document.querySelector('article.bd-article');
        const outside = el => !el.closest('details.cmtlab-printed, div.cmtlab-provenance');
        const printed = [...article.querySelectorAll('.cell_output .output.stream, .cell_output .output.stderr, '
                                                      + '.cell_output div.output.text_plain, .cell_output pre.output')]
            .filter(outside).map(el => el.innerText.slice(0, 80));
        const clone = article.cloneNode(true);
        clone.querySelectorAll('details.cmtlab-printed, div.cmtlab-provenance, script, style').forEach(el => el.remove());
        // the "Re-run this page" box tells how long its example takes to re-run: guidance, not build noise
        clone.querySelectorAll('.admonition').forEach(el => {
            const title = el.querySelector('.admonition-title');
            if (title && /Re-run this page/.test(title.textContent)) el.remove();
        });
        clone.querySelectorAll('details').forEach(d => d.setAttribute('open', ''));
        return {printed, text: clone.textContent};
    }""")
    assert not found["printed"], f"{doc}: printed text outputs in the chapter's body: {found['printed'][:5]}"
    noise = sorted({m.group(0) for m in BUILD_NOISE.finditer(found["text"])})
    assert not noise, f"{doc}: run times, kernel builds or commit hashes in the chapter's body: {noise[:8]}"


@pytest.mark.parametrize("doc", CHAPTERS)
def test_figures_legible_at_phone_width(phone_page, base_url, doc):
    page = phone_page
    _open(page, base_url, doc)
    page.wait_for_function("() => Array.from(document.images).every(img => img.complete)")
    out = page.evaluate("""() => {
        const images = [...document.querySelectorAll('article.bd-article img')]
            .filter(img => (img.currentSrc || img.src).endsWith('.png'))
            .map(img => {
                let scroller = null;
                for (let el = img.parentElement; el && el.tagName !== 'ARTICLE'; el = el.parentElement) {
                    const s = getComputedStyle(el);
                    if (el.scrollWidth > el.clientWidth + 1 && /(auto|scroll)/.test(s.overflowX)) { scroller = el; break; }
                }
                return {src: img.currentSrc || img.src, natural: img.naturalWidth,
                        shown: img.getBoundingClientRect().width, scrolls: !!scroller};
            });
        const doc = document.scrollingElement;
        return {images, page_overflow: doc.scrollWidth - window.innerWidth};
    }""")
    assert out["page_overflow"] <= 1, f"{doc}: the page scrolls sideways by {out['page_overflow']} px at 390 px"
    problems = []
    for i, img in enumerate(out["images"], 1):
        if img["shown"] == 0:  # inside a folded output
            continue
        info, _ = _png_text(img["src"])
        if "cmtlab:min-font-pt" not in info:
            continue  # test_legibility.py reports a figure without its font metadata
        shown_pt = displayed_font_pt(float(info["cmtlab:min-font-pt"]), float(info["cmtlab:dpi"]), img["natural"],
                                     img["shown"])
        if shown_pt < MIN_DISPLAYED_PT:
            problems.append(f"figure {i}: smallest text {shown_pt:.1f} pt at 390 px (shown {img['shown']:.0f} of "
                            f"{img['natural']} px)")
        elif img["natural"] > PHONE["width"] and not img["scrolls"]:
            problems.append(f"figure {i}: wider than the screen and not in a box that scrolls sideways")
    assert not problems, f"{doc}: " + "; ".join(problems)
