"""The result box that opens every chapter (book/_ext/cmtlab_book.py, :func:`result_box_html`): its counts are
the verdicts of the registered claims the chapter decides, one finding per claim (headline claims first, all
but the first few folded), and the checks of this book it met; the browser test
tests/browser/test_result_first.py checks the built pages."""

from __future__ import annotations

import html
import json
import re
import sys

import pytest

from cmtlab._paths import REPO
from cmtlab.papers import all_claims
from cmtlab.report.claims import Decision

sys.path.insert(0, str(REPO / "book" / "_ext"))
cmtlab_book = pytest.importorskip("cmtlab_book")


def _counts(box: str) -> dict:
    return json.loads(html.unescape(re.search(r'data-counts="([^"]*)"', box).group(1)))


def test_counts_findings_and_checks():
    registry = all_claims()
    keys = [k for k, c in registry.items() if c.paper == "alheid"][:5]
    verdicts = ["reproduced", "not reproduced", "undecided at 30 seeds", "reproduced", "partly"]
    decisions = [Decision(k, f"{i} %", "rule", v) for i, (k, v) in enumerate(zip(keys, verdicts))]
    decisions.append(Decision("no-such-claim", "1", "rule", "reproduced"))   # not registered: not counted
    box = cmtlab_book.result_box_html(registry, decisions, (2, 3), "key-figure")
    assert _counts(box) == {"reproduced": 2, "partly": 1, "not reproduced": 1, "undecided": 1,
                            "by construction": 0, "not assessed": 0}
    assert 'data-claims="5"' in box and "Alheid et al." in box
    shown, folded = box.split('<details class="cmtlab-result-more">')
    assert shown.count("<li>") == cmtlab_book.RESULT_FINDINGS_SHOWN and folded.count("<li>") == 5 - shown.count("<li>")
    assert "All 5 findings" in folded
    assert 'data-met="2" data-checks="3"' in box and "2 of 3" in box
    assert 'href="#key-figure"' in box and 'href="#claims-table"' in box
    for k in keys:
        assert f'href="#claim-{k}"' in box or f'href="#claim-{re.sub(r"[^A-Za-z0-9_-]+", "-", k)}"' in box


def test_a_chapter_of_checks_only():
    box = cmtlab_book.result_box_html(all_claims(), [], (4, 4), None)
    assert sum(_counts(box).values()) == 0 and 'data-claims="0"' in box
    assert "No claim of the papers is decided here" in box and "4 of 4" in box
    assert "claims-table" not in box and "key-figure" not in box and "<li>" not in box
