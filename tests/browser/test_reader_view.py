"""What a reader sees of each chapter: code folded, no test markers, a re-run box, verdicts in short.

Every notebook chapter of _toc.yml opened in headless Chromium:

* the ``parameters`` cell is shown; every cell tagged ``hide-input`` shows a closed toggle and not
  its code, and there is at least one such toggle;
* no visible text contains an nbval marker (``NBVAL_``);
* the "Re-run this page" box sits before the parameters cell and shows the papermill command of
  this notebook;
* the computed "Verdicts in short." paragraph is on the page.
"""

from __future__ import annotations

import pytest

from test_pages import PAGES

CHAPTERS = [p for p in PAGES if p.startswith("notebooks/")]
# re-executed by the lead when this test was written: folded, boxed and tagged after the merge
PENDING: set[str] = set()


def _open(page, base_url, doc):
    response = page.goto(f"{base_url}/{doc}.html", wait_until="load")
    assert response is not None and response.status == 200, f"{doc}: HTTP {response and response.status}"


@pytest.mark.parametrize("doc", [c for c in CHAPTERS if c not in PENDING])
def test_code_folded_and_markers_invisible(page, base_url, doc):
    _open(page, base_url, doc)
    params = page.locator("div.cell.tag_parameters div.cell_input")
    assert params.count() == 1 and params.first.is_visible(), f"{doc}: the parameters cell is not shown"
    hidden = page.locator("div.cell.tag_hide-input")
    assert hidden.count() >= 1, f"{doc}: no folded code cell"
    shown = []
    for i in range(hidden.count()):
        cell = hidden.nth(i)
        assert cell.locator("details.hide.above-input summary").count() == 1, f"{doc}: folded cell {i} has no toggle"
        if cell.locator("div.cell_input").first.is_visible():
            shown.append(i)
    assert not shown, f"{doc}: code of hide-input cells {shown} is visible"
    text = page.evaluate("() => document.querySelector('main').innerText")
    assert "NBVAL_" not in text, f"{doc}: an nbval marker shows to readers"


@pytest.mark.parametrize("doc", [c for c in CHAPTERS if c not in PENDING])
def test_rerun_box_and_verdicts_in_short(page, base_url, doc):
    _open(page, base_url, doc)
    box = page.locator("div.admonition.tip", has_text="Re-run this page")
    assert box.count() == 1 and box.first.is_visible(), f"{doc}: no 'Re-run this page' box"
    box_text = box.first.inner_text()
    name = doc.split("/", 1)[1]
    assert "papermill -k python3" in box_text and f"notebooks/{name}.ipynb" in box_text, box_text
    assert "Expected run time:" in box_text
    before_params = page.evaluate(
        """() => { const b = [...document.querySelectorAll('div.admonition.tip')]
                     .find(e => e.innerText.includes('Re-run this page'));
                   const p = document.querySelector('div.cell.tag_parameters');
                   return !!(b.compareDocumentPosition(p) & Node.DOCUMENT_POSITION_FOLLOWING); }""")
    assert before_params, f"{doc}: the re-run box is not above the parameters cell"
    verdicts = page.locator("div.cell.tag_verdicts-in-short div.cell_output", has_text="Verdicts in short.")
    assert verdicts.count() == 1 and verdicts.first.is_visible(), f"{doc}: no computed 'Verdicts in short.' paragraph"
