"""cmtlab.report.verdicts_in_short: the chapter's closing paragraph, computed from its table."""

import re

import pandas as pd
import pytest

from cmtlab.report import (BY_CONSTRUCTION, NOT_REPRODUCED, PARTLY, REPRODUCED, VERDICTS, Comparison,
                           verdicts_in_short)


def _frame(verdicts):
    return pd.DataFrame({"claim": [f"claim {i}" for i in range(len(verdicts))], "verdict": verdicts})


def _counts(text):
    """Parse "k is/are VERDICT" back out of the paragraph."""
    found = {}
    for v in VERDICTS:
        m = re.search(r"(\d+) (?:is|are) (?:set )?" + re.escape(v) + r"(?![a-z])", text)
        if m:
            found[v] = int(m.group(1))
    return found


def test_counts_per_verdict_add_up_and_match_the_table():
    verdicts = [REPRODUCED] * 5 + [PARTLY] * 2 + [NOT_REPRODUCED] * 3 + ["undecided at 3 seeds"] + [BY_CONSTRUCTION]
    text = verdicts_in_short(_frame(verdicts))
    assert text.startswith("**Verdicts in short.** Of 12 paper claims compared,")
    counts = _counts(text)
    assert counts == {REPRODUCED: 5, PARTLY: 2, NOT_REPRODUCED: 3, "undecided": 1, BY_CONSTRUCTION: 1}
    assert sum(counts.values()) == 12
    # the not-reproduced claims are named, and only they
    assert "Not reproduced: *claim 7*, *claim 8* and *claim 9*." in text
    assert "*claim 0*" not in text
    assert "1 claim is undecided" in text


def test_comparison_object_and_its_frame_give_the_same_text():
    t = Comparison()
    t.add_value("gain at Δ = 0", paper=2.0, ours=2.05)
    t.add_value("4 links = 1 link at ADA", paper=35.6, ours=20.0, unit="ms")
    t.add_check("a check of this book", target="x", ours="y", holds=False, rule="r")  # not a paper claim
    text = verdicts_in_short(t)
    assert text == verdicts_in_short(t.to_frame())
    assert "Of 2 paper claims compared, 1 is reproduced and 1 is not reproduced." in text
    assert "Not reproduced: *4 links = 1 link at ADA*." in text
    assert "check" not in text


def test_all_the_same_verdict_and_empty_table():
    assert verdicts_in_short(_frame([REPRODUCED] * 3)) == "**Verdicts in short.** All 3 paper claims compared are reproduced."
    assert "No claim of a paper" in verdicts_in_short(Comparison())
    assert verdicts_in_short(_frame([PARTLY])) == "**Verdicts in short.** Of 1 paper claim compared, 1 is partly reproduced."


def test_long_lists_of_failures_are_cut():
    text = verdicts_in_short(_frame([NOT_REPRODUCED] * 9), max_named=4)
    assert "*claim 3* and 5 more." in text and "*claim 4*" not in text


def test_bad_input_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown verdict 'great'"):
        verdicts_in_short(_frame([REPRODUCED, "great"]))
    with pytest.raises(ValueError, match="missing: \\['verdict'\\]"):
        verdicts_in_short(pd.DataFrame({"claim": ["a"]}))
    with pytest.raises(TypeError, match="Comparison or a pandas DataFrame"):
        verdicts_in_short([REPRODUCED])
    with pytest.raises(ValueError, match="max_named"):
        verdicts_in_short(_frame([REPRODUCED]), max_named=0)
