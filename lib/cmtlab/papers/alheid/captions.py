"""Captions of the Alheid chapters' figures (:class:`cmtlab.report.figure.Caption`), with the paper's numbers
read from :mod:`cmtlab.papers.alheid.paper` (targets, never inputs)."""

from __future__ import annotations

from ...report.figure import Caption
from . import paper

_ALHEID = "Alheid et al."


def _runs(n_runs: int | None) -> str:
    return "the runs" if n_runs is None else f"{int(n_runs)} runs"


def _slug(base: str, reference: str) -> str:
    """One figure name per reference a chapter draws (the figure's anchor, number and CSV file): the papers'
    simulator over Wi-Fi, its point-to-point stand-in, cmtlab.sim's imitation."""
    if "papers" in reference:
        return f"{base}-wifi" if "Wi-Fi" in reference else f"{base}-model"
    return base


def _table1_paper() -> str:
    linux = ", ".join(f"{d} ms {v:+g} %" for d, v in paper.PAPER_LINUX_GAIN_PCT.items())
    ns3 = ", ".join(f"{d} ms {v:+g} %" for d, v in paper.PAPER_NS3_GAIN_PCT.items())
    return f"gain over single-path TCP on Linux {linux}; on ns-3 {ns3} (Table I; the star and cross markers)"


def fig4(*, reference: str, n_runs: int | None = None) -> Caption:
    slug = _slug("alheid-fig4", reference)
    return Caption(
        slug, f"gThroughput (Mbit/s, mean and 95 % CI over {_runs(n_runs)}) of MPTCP with each reordering solution "
        f"(NoPR, D-SACK, TCP-DOOR, PR-R) and of single TCP against the distance to both access points, PDR 0, on "
        f"{reference}",
        f"{_ALHEID}, Fig. 4",
        f"TCP-DOOR and PR-R {paper.PAPER_GAIN_UP_TO_50M_PCT:+g} % over NoPR up to 50 m; beyond 50 m PR-R "
        f"{paper.PAPER_PRR_GAIN_BEYOND_50M_PCT:+g} % and D-SACK {paper.PAPER_DSACK_GAIN_BEYOND_50M_PCT:+g} % on average "
        f"(gains; the paper prints no absolute values for this figure)")


#: The paper's y values of Fig. 5 (Mbit/s), drawn on the figure as dashed lines: (value, label).
FIG5_PAPER_LINES = ((paper.PAPER_SINGLE_TCP_MAX_VB_MBPS, f"paper: single TCP max {paper.PAPER_SINGLE_TCP_MAX_VB_MBPS:g}"),
                    (paper.PAPER_DSACK_MAX_MBPS, f"paper: D-SACK max {paper.PAPER_DSACK_MAX_MBPS:g}"))


def fig5(*, reference: str, n_runs: int | None = None, distance_m: float = paper.SCENARIO2_DISTANCE_M) -> Caption:
    slug = _slug("alheid-fig5", reference)
    return Caption(
        slug, f"gThroughput (Mbit/s, mean and 95 % CI over {_runs(n_runs)}) of MPTCP with each reordering solution and "
        f"of single TCP against the packet drop rate (PDR) of subflow 2, {distance_m:g} m from both access points, "
        f"on {reference}; dashed lines: the paper's numbers",
        f"{_ALHEID}, Fig. 5",
        f"NoPR does not exceed {paper.PAPER_SINGLE_TCP_MAX_VB_MBPS:g} Mbit/s (one TCP over one link); D-SACK "
        f"{paper.PAPER_DSACK_MAX_MBPS:g} Mbit/s at most; TCP-DOOR {paper.PAPER_TCPDOOR_GAIN_PDR0_PCT:+g} % over NoPR "
        f"at PDR 0; PR-R {paper.PAPER_PRR_GAIN_PDRS_PCT:+g} % on average over the PDRs")


def fig6(*, reference: str, detail: str, slug: str = "alheid-fig6") -> Caption:
    return Caption(
        slug, f"Congestion window (segments) of subflows 1 and 2 over time, one panel per reordering solution (each "
        f"with its own y axis), {detail}, on {reference}",
        f"{_ALHEID}, Fig. 6",
        "both windows small under NoPR and, under loss, under TCP-DOOR; PR-R keeps its windows; D-SACK makes one "
        "subflow's window grow faster than the other's (the paper gives no numbers for this figure)")


def table1(n_seeds: int) -> Caption:
    return Caption(
        "alheid-table1", f"Gain of MPTCP over single-path TCP (%) on two 10 Mbit/s paths against their delay "
        f"difference Δ, one panel per reading of Δ, one line per scheduler and congestion control (mean and 95 % CI "
        f"over {n_seeds} seeds), with the kernel and the papers' simulator where run",
        f"{_ALHEID}, Table I (drawn as a figure)", _table1_paper())


def table1_sensitivity() -> Caption:
    return Caption(
        "alheid-table1-sensitivity", "The gain of round robin + LIA over single-path TCP (%, 95 % CI) when one choice "
        "of the set-up is changed at a time, grouped by reading of Δ and by Δ",
        f"{_ALHEID}, Table I (a sensitivity check of its rows)", _table1_paper())


__all__ = ["fig4", "fig5", "fig6", "table1", "table1_sensitivity", "FIG5_PAPER_LINES"]
