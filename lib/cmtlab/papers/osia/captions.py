"""Captions of the OSIA chapters' figures (:class:`cmtlab.report.figure.Caption`), with the paper's numbers read
from :mod:`cmtlab.papers.osia.paper` (targets, never inputs)."""

from __future__ import annotations

from ...report.figure import Caption
from . import paper

_WANG = "Wang et al. (OSIA)"


def fig3_buckets() -> Caption:
    return Caption(
        "osia-fig3-buckets", "The leaky buckets of OSIA's water filling for Table 1's 2-, 3- and 4-path sets: bucket i, "
        "as wide as path i's rate, pre-filled to its delay (grey); the chunks fill the buckets band by band",
        f"{_WANG}, Figs. 3–4, on the path sets of Table 1")


def fig5_schedule() -> Caption:
    return Caption(
        "osia-fig5-schedule", "(left) OSIA's schedule on Table 1's four paths: sequence number against sending time "
        "(hollow) and arrival time (filled); (right) the order of the first arrivals under every schedule form (a "
        "diagonal is in order)",
        f"{_WANG}, Fig. 5")


def theorem2() -> Caption:
    return Caption(
        "osia-theorem2", "Share of packets that time out spuriously in the RTO Monte-Carlo against the slow path's "
        "share g22 of the traffic; the dashed line marks Table 1's two-path g22 and the dotted one 1/(2K)",
        f"{_WANG}, Theorem 2 and Appendix A.1 (no figure of the paper)",
        f"the two-path threshold g22 = {paper.PAPER_G22_THRESHOLD:g} for K = 4, a rate ratio of "
        f"{paper.PAPER_RATE_RATIO:g}")


def rr_checks() -> Caption:
    return Caption(
        "osia-rr-checks", "Round robin's 3-dupACK events: the closed form (lines) against the per-packet timeline "
        "(markers) over the rate ratio BW2/BW1, one line per delay ratio, one panel per sender")


def path_model() -> Caption:
    return Caption(
        "osia-path-model", "The path model of sec. 5.1: (left) the share of one link's capacity the Pareto on-off cross "
        "traffic takes over time, its mean load dashed; (right) the distribution of the bit-error rate per period "
        "(log–log), its mean dashed",
        f"{_WANG}, sec. 5.1 (the set-up of Figs. 7–9)",
        f"bit-error rate between {paper.BER_RANGE[0]:g} and {paper.BER_RANGE[1]:g}, mean {paper.BER_MEAN:g}")


def fig7(model: str, n_seeds: int) -> Caption:
    return Caption(
        "osia-fig7", f"3-dupACK events per transfer on the grid of delay ratio D2/D1 (rows) × rate ratio BW2/BW1 "
        f"(columns), one heat map per scheduler (means over {n_seeds} seeds, {model}), after round robin's closed "
        "form (no window) and round robin over a tunnel; numbers in the cells",
        f"{_WANG}, Fig. 7",
        "OSIA has the fewest 3-dupACK events (the paper reads the figure in words only)")


def fig8(model: str, n_packets: int) -> Caption:
    return Caption(
        "osia-fig8", f"Goodput (kbit/s) of a {n_packets}-packet transfer on the grid of D2/D1 (rows) × BW2/BW1 "
        f"(columns), one heat map per scheduler ({model}); numbers in the cells",
        f"{_WANG}, Fig. 8",
        "OSIA has the highest goodput (the paper reads the figure in words only)")


def fig9(n_seeds: int) -> Caption:
    return Caption(
        "osia-fig9", f"Goodput (Mbit/s, mean ± standard error over {n_seeds} seeds) against the number of paths, one "
        "line per scheduler, with the path model (left) and with reordering only (right); dotted: the capacity left "
        "to the transfer",
        f"{_WANG}, Fig. 9",
        f"the paths share {paper.TOTAL_RATE_MBPS:g} Mbit/s in total; round robin's goodput is the smallest, "
        "CWND-aware's and flow-level's fall as paths are added, OSIA's is not hurt by more paths (in words; no number)")


__all__ = ["fig3_buckets", "fig5_schedule", "theorem2", "rr_checks", "path_model", "fig7", "fig8", "fig9"]
