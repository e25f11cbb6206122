"""Captions of the Song chapters' figures (:class:`cmtlab.report.figure.Caption`), with the paper's numbers
read from :mod:`cmtlab.papers.song.paper` (targets, never inputs)."""

from __future__ import annotations

from ...report.figure import Caption
from . import paper

_SONG = "Song et al."


def _mbps(values) -> str:
    return ", ".join(f"{v:g}" for v in values)


def fig1() -> Caption:
    return Caption(
        "song-fig1", "(a) Round-trip times of the eight field links (CT1–CM2) as boxes (IQR, median, whiskers at "
        "1.5 IQR; log scale), coloured by operator; (b) each link's maximum download data rate (the paper's values) "
        "and the average this book chose, in Mbit/s",
        f"{_SONG}, Fig. 1 (a reconstruction: the paper's field data is not public)",
        f"maximum data rates {_mbps(paper.PAPER_MAX_DR_MBPS)} Mbit/s (the dark bars and their labels); "
        f"the largest maximum is {paper.PAPER_MAX_DR_RATIO:g} × the smallest, the largest average "
        f"{paper.PAPER_AVG_DR_RATIO:g} × the smallest")


def fig1_data(rtt, rates):
    """The data behind Fig. 1: per link, its RTT quartiles and extremes (ms) and its data rates (Mbit/s)."""
    import pandas as pd

    q = rtt.groupby("modem", observed=True)["rtt_ms"].describe()[["count", "min", "25%", "50%", "75%", "max"]]
    q.columns = ["rtt_samples", "rtt_min_ms", "rtt_p25_ms", "rtt_median_ms", "rtt_p75_ms", "rtt_max_ms"]
    r = rates.assign(modem=rates["modem"].astype(str)).set_index("modem")
    q.index = q.index.astype(str)
    return pd.concat([r, q], axis=1).reset_index(names="modem")


def fig1_public() -> Caption:
    return Caption(
        "song-fig1-public", "The asymmetry of Fig. 1 in public measurements: (a) ping round-trip times of 5G NSA, LTE "
        "and HSPA+ (Raca et al. 2020) and Starlink (Laniewski et al. 2024), log scale, n = samples; (b) their "
        "download data rate while transferring, 95th percentile and mean (Mbit/s, log scale)",
        look="It sets the asymmetry of Fig. 1 beside today's public data; ""the dashed line separates the cellular sets from Starlink")


def fig6(n_seeds: int | None = None) -> Caption:
    acc = ", ".join(f"{n} links {v:.2f} %" for n, v in paper.PAPER_ACCURACY_PCT.items())
    return Caption(
        "song-fig6", "Throughput (Mbit/s, log scale) of every delay group of the field links against its average "
        "delay asymmetry (ADA, ms), one panel per number of links (2–8): the model (exact and as printed) and the "
        "simulators (ns-3 with the 2018 MPTCP model, plain NewReno, cmtlab.sim)",
        f"{_SONG}, Fig. 6 (a–g)",
        f"prediction accuracy {acc}; {paper.PAPER_ACCURACY_AVG_PCT:.2f} % on average (written under each panel's "
        "title)",
        "Where the model's markers sit above the simulators', the model over-predicts")


def fig7() -> Caption:
    return Caption(
        "song-fig7", "Model throughput (kbit/s) over average delay asymmetry (ADA, ms, rows) × average bandwidth "
        "asymmetry (ABA, kbit/s, columns) for one to four links; each panel has its own colour bar (the ranges "
        "differ), white contours mark equal throughput",
        f"{_SONG}, Fig. 7 (a–d)",
        f"with four links the throughput falls {paper.PAPER_FIG7_ABA_FALL:g} × as the ABA grows (at the largest "
        f"ADA) and {paper.PAPER_FIG7_ADA_FALL:g} × as the ADA grows (at the largest ABA)",
        "Compare the numbers on the colour bars and contours across panels, not the colours")


def fig8() -> Caption:
    return Caption(
        "song-fig8", "Model throughput (kbit/s) of one to four 100 kbit/s links against the average delay "
        "asymmetry (ADA, ms), one panel per minimum delay (5, 20, 35, 50 ms); dashed lines: the paper's ADA at "
        "which four links fall to one link's throughput",
        f"{_SONG}, Fig. 8 (a–d)",
        f"four links equal one link at ADA {paper.PAPER_FIG8_CROSS_5MS:g} ms (minimum delay 5 ms) and "
        f"{paper.PAPER_FIG8_CROSS_50MS:g} ms (50 ms)",
        "Where the 4-links line crosses the 1-link line is this book's crossing; the dashed line is the paper's")


def pmf_check() -> Caption:
    return Caption("song-pmf-check", "Both conditional distributions of the ACKs of the next round at C = 6 "
                   "segments: the exact and the printed closed forms (bars) against a Monte-Carlo count (markers)")


def ack_function() -> Caption:
    return Caption("song-ack-function", "F(C) = E(A_{i+1}) of eq. 13 against the segments C of a round: exact, "
                   "as printed and Monte-Carlo")


def transfer_size() -> Caption:
    return Caption("song-transfer-size", "Model throughput against the transfer size E, one line per link set; "
                   "the dotted line marks the book's default E")


def rounds() -> Caption:
    return Caption("song-rounds", "The model's rounds of one 1 MB transfer over one 1 Mbit/s, 50 ms link: (left) "
                   "window w_i (eq. 15) and segments C_i (eq. 16) per round; (right) bytes sent against model time")


__all__ = ["fig1", "fig1_data", "fig1_public", "fig6", "fig7", "fig8", "pmf_check", "ack_function", "transfer_size", "rounds"]
