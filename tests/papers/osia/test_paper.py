"""cmtlab.papers.osia.paper: the paper's claims, once, and the numbers the chapters read; the registry stays out of
the simulator's code version (editing a claim keeps every cached simulation)."""

from cmtlab.papers.osia import paper
from cmtlab.report import claims
from cmtlab.sweep.versions import import_closure


def test_the_registry_holds_each_chapters_claims_in_the_papers_order():
    reg = paper.CLAIMS
    assert reg.chapters() == [paper.FIGS7_9, paper.FIGS3_5]        # the abstract first, then secs. 3–4 and App. A
    assert len(reg.of_chapter(paper.FIGS3_5)) == 12 and len(reg.of_chapter(paper.FIGS7_9)) == 17
    for c in reg:
        want = "model" if c.chapter == paper.FIGS3_5 else "cmtlab.sim"
        assert c.reference == want, c.key                   # OPNET/cmpSCTP cannot run: the book's simulator decides
        assert c.quote and "“" not in c.title.replace("“1 kb”", "")   # no paraphrase in quotation marks
    heads = [c.id for c in reg if c.headline]
    assert 2 <= len(heads) <= 4 and "sec5.2.osia-prevents" in heads
    # the audit's locations: sec. 3.3 (eq. 13, PWF), sec. 3.4 (Theorem 2), Appendix A (eqs. 22-31), never sec. 4.2
    assert claims.location_parts(reg["sec3.3.eq13"].location) == ("3.3",)
    assert claims.location_parts(reg["sec3.4.theorem2"].location) == ("3.4",)
    assert claims.location_parts(reg["appendix-a.two-path-threshold"].location) == ("Appendix A",)
    assert not any("4.2" in c.location for c in reg)
    # the conclusions the today's-transport chapter quotes are here, verbatim
    for cid in ("abstract.alleviates-reordering", "sec5.2.osia-prevents", "sec5.3.rr-slow", "sec5.4.rr-smallest"):
        assert reg[cid].quote


def test_table1_is_the_papers_and_sums_to_4_mbps():
    for n in paper.TABLE1:
        rates, delays = paper.table1_paths(n)
        assert len(rates) == len(delays) == n and abs(sum(rates) - paper.TOTAL_RATE_MBPS * 1e6) < 1e-6


def test_the_claims_are_outside_the_simulators_import_closure():
    closure = import_closure("cmtlab.sim")
    assert "cmtlab.papers.osia.scheduler" in closure                     # the plug-in is hashed
    for name in ("cmtlab.papers.osia.paper", "cmtlab.papers.osia.comparison", "cmtlab.report.claims"):
        assert name not in closure, name
