"""cmtlab.papers.arabi.experiments.chapter_cases: the Arabi chapter's grid of main cases (no simulation)."""

import pytest

from cmtlab.papers.arabi import experiments as ex


def _labels(cases):
    return [(c["scenario"], c["preset"], c["scheduler"], c["congestion"], c["reordering"]) for c, _ in cases]


def test_chapter_cases_add_the_modern_mechanisms_to_the_papers_grid():
    grid = dict(scenarios=[1, 2], congestion=["uncoupled", "lia"], reordering=["none", "dsack"], presets=["rfc"],
                transfer_bytes=1_000_000)
    papers = ex.chapter_cases(modern=False, **grid)
    assert len(papers) == 2 * 2 * 2 and {c["scheduler"] for c, _ in papers} == {"round_robin"}
    modern = ex.chapter_cases(modern=True, **grid)
    labels = _labels(modern)
    assert labels[:len(papers)] == _labels(papers)                     # the paper's grid first, unchanged
    extra = labels[len(papers):]
    assert len(extra) == 2 * 2 * (1 + 2) and len(set(labels)) == len(labels)
    assert {(s, cc) for _, _, s, cc, _ in extra} == {("round_robin", "olia"), ("lowest_rtt", "lia"), ("lowest_rtt", "olia")}
    assert all(c["setting"] == "main" for c, _ in modern)
    with pytest.raises(ValueError, match="presets must be a non-empty sequence"):
        ex.chapter_cases(scenarios=[1], presets=[], modern=False)
