"""Where a quote stands in its paper (cmtlab.report.quotes): the normalisation a reader would not notice,
the parts of each paper, and quotes found only under the part that holds them."""

import pytest

from cmtlab.report import quotes


def test_normalise_folds_what_a_reader_would_not_notice():
    assert quotes.normalise("“PR-\n\nR fully” — **both**   links") == '"PR-R fully" - both links'
    assert quotes.normalise("it’s 10 – 100 m") == "it's 10 - 100 m"
    # case, punctuation and words count
    assert quotes.normalise("PR-R") != quotes.normalise("pr-r")
    assert quotes.normalise("a, b") != quotes.normalise("a b")


def test_every_paper_has_its_sections_captions_and_tables(papers_texts):
    keys = {p: [part.key for part in papers_texts.parts(p)] for p in papers_texts.PAPER_FILES}
    assert {"abstract", "V.A", "V.B", "Table I", "Table III", "Table IV", "Fig. 4", "Fig. 6", "VI"} <= set(keys["alheid"])
    assert {"abstract", "6.1", "6.2", "7", "Fig. 6", "Fig. 7", "Fig. 8", "Table 2"} <= set(keys["song"])
    assert {"3.3", "3.4", "4.2", "5.2", "Appendix A", "Table 1", "Fig. 7"} <= set(keys["osia"])
    assert {"3.7", "5", "6", "Fig. 8", "Fig. 9"} <= set(keys["arabi"])
    for paper, ks in keys.items():
        assert len(ks) == len(set(ks)), f"{paper}: a part found twice: {ks}"


def test_a_quote_is_found_under_its_section_only(papers_texts):
    q = "Beyond 50 m, PR-R is the best in terms of gThroughput by providing a 50% improvement on average"
    assert papers_texts.stands_under("alheid", q, "V.A")
    assert papers_texts.stands_under("alheid", q, "V")          # a section holds its subsections
    assert not papers_texts.stands_under("alheid", q, "V.B")
    assert not papers_texts.stands_under("alheid", q, "IV")


def test_hyphenation_across_a_line_break_and_pieces(papers_texts):
    # the text breaks "PR-" / "R fully utilizes both links" across two lines
    assert papers_texts.stands_under("alheid", "PR-R fully utilizes both links", "V.B")
    # an omission "…" splits a quote into pieces that must stand in order in one part
    assert papers_texts.stands_under("alheid", "The PR-R improves the gThroughput … stable performance", "V.B")
    assert not papers_texts.stands_under("alheid", "stable performance … The PR-R improves the gThroughput", "V.B")


def test_a_paraphrase_is_not_found(papers_texts):
    for paraphrase in ("OSIA best", "RR lowest", "scenario 2 best: DSACK + uncoupled",
                       "PR-R +50 % on average vs NoPR"):
        assert not any(papers_texts.find(p, paraphrase) for p in papers_texts.PAPER_FILES), paraphrase


def test_a_table_body_is_its_own_part(papers_texts):
    assert papers_texts.stands_under("alheid", "PR-R\t442", "Table III")
    assert not papers_texts.stands_under("alheid", "PR-R\t442", "Table IV")
    # the text after a table is not in the table
    assert not papers_texts.stands_under("alheid", "By looking at the CWND evolution", "Table IV")


def test_song_quotes_may_stand_in_either_text(papers_texts):
    files = {f for f, _ in papers_texts.find("song", "the dominant factor")}
    assert files == set(quotes.PAPER_FILES["song"])


def test_unknown_paper_and_empty_quote_are_errors():
    with pytest.raises(ValueError, match="paper must be one of"):
        quotes.find("nobody", "x")
    with pytest.raises(ValueError, match="non-empty"):
        quotes.find("alheid", " … ")
