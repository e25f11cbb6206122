"""Every registered claim of the four papers (``cmtlab.papers.<paper>.paper.CLAIMS``): verbatim in its paper
under the part its location names, decided by a chapter of the book, once."""

from pathlib import Path

import pytest

from cmtlab import papers
from cmtlab.report import claims

NOTEBOOKS = {p.stem for p in (Path(__file__).resolve().parents[2] / "notebooks").glob("*.ipynb")}
REGISTERED = [c for r in papers.registries().values() for c in r]


@pytest.mark.parametrize("claim", REGISTERED, ids=[c.key for c in REGISTERED])
def test_every_quote_is_verbatim_under_its_location(claim, papers_texts):
    where = claims.location_parts(claim.location)
    if claim.quote:
        found = papers_texts.find(claim.paper, claim.quote)
        assert found, f"{claim.key}: the quote is not verbatim in the paper: {claim.quote_text()}"
        assert papers_texts.stands_under(claim.paper, claim.quote, where), (
            f"{claim.key}: the quote stands in {sorted({k for _, k in found})}, not under {claim.location!r}")
    if claim.printed:
        assert papers_texts.stands_under(claim.paper, claim.printed, where), (
            f"{claim.key}: {claim.printed!r} is not printed in {claim.location!r}")


@pytest.mark.parametrize("claim", REGISTERED, ids=[c.key for c in REGISTERED])
def test_every_claim_is_decided_by_a_chapter_of_the_book(claim):
    assert claim.chapter in NOTEBOOKS, f"{claim.key}: no notebook {claim.chapter!r}"


def test_keys_are_unique_across_the_papers():
    keys = [c.key for c in REGISTERED]
    assert len(keys) == len(set(keys))
