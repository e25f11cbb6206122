"""Captions of the Arabi chapter's figures (:class:`cmtlab.report.figure.Caption`), with the paper's numbers
read from :mod:`cmtlab.papers.arabi.paper` (targets, never inputs)."""

from __future__ import annotations

from ...report.figure import Caption
from .paper import PAPER

_ARABI = "Arabi et al."
_SOURCES = ("the papers' own simulator (ns-3.7 with the Chihani–Collange MPTCP model: global throughput as the paper "
            "plots it, its goodput, and with variateDelay on), this book's preset chihani_ns3 and RFC behaviour")


def fig8() -> Caption:
    return Caption(
        "arabi-fig8", "Global throughput (Mbit/s) over time (log scale) of scenario 1 (two subflows) under LIA, one "
        f"line per reordering algorithm (none, DSACK, Eifel, F-RTO; bands: 95 % CI over seeds), one panel per source: "
        f"{_SOURCES}",
        f"{_ARABI}, Fig. 8",
        "the paper reads the figure in words only (no number)",
        "Each line ends where its transfer ends; F-RTO's runs last longest")


def fig9() -> Caption:
    return Caption(
        "arabi-fig9", "Global throughput (Mbit/s) over time (log scale) of scenario 2 (three subflows) under uncoupled "
        "congestion control, one line per reordering algorithm (bands: 95 % CI over seeds), one panel per source: "
        f"{_SOURCES}; dashed: the paper's number",
        f"{_ARABI}, Fig. 9",
        f"DSACK best at about {PAPER['best_s2'][2] / 1e6:g} Mbit/s; F-RTO and Eifel \u201c40 less\u201d than no "
        f"algorithm (no unit printed; read as {abs(PAPER['frto_eifel_vs_none_s2']) * 100:g} %)")


def per_congestion(scenario_id: int) -> Caption:
    return Caption(
        f"arabi-s{scenario_id}-congestion", f"Global throughput (Mbit/s) over time (log scale) of scenario {scenario_id} "
        "on the papers' simulator, one panel per congestion control, one line per reordering algorithm (bands: 95 % "
        "CI over seeds)",
        f"{_ARABI}, Figs. 8–9, extended to every congestion control of the paper")


def frto_clocks() -> Caption:
    return Caption(
        "arabi-frto-clocks", "F-RTO on the papers' simulator against the wall clock it reads: (left) the residue of "
        "each subflow for every clock value of the runs; (right) F-RTO's global throughput and goodput against the "
        "summed ACK-discarding probability of its subflows, with no algorithm's throughput (dashed) and the paper's "
        "\u201c40 less\u201d (no unit printed; read as 40 %) as a dotted line",
        "",
        f"F-RTO and Eifel \u201c40 less\u201d than no algorithm in scenario 2 (no unit printed; read as "
        f"{abs(PAPER['frto_eifel_vs_none_s2']) * 100:g} %)")


__all__ = ["fig8", "fig9", "per_congestion", "frto_clocks"]
