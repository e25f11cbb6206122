"""Captions of the validation chapters' figures (:class:`cmtlab.report.figure.Caption`): checks of the simulators
and of the kernel testbed; where a check redraws a paper's table, the paper's numbers come from its registry."""

from __future__ import annotations

from ..papers.alheid import paper as alheid_paper
from ..report.figure import Caption


def _alheid_linux() -> str:
    return ("gain over single-path TCP on Linux " + ", ".join(f"{d} ms {v:+g} %" for d, v in
                                                               alheid_paper.PAPER_LINUX_GAIN_PCT.items())
            + " (Table I, the paper's markers)")


# ---- cmtlab.sim against ns-3 (cmtlab-vs-ns3-validation)
def ns3_single_link() -> Caption:
    return Caption("ns3-single-link", "(a) One NewReno flow over one link: cmtlab.sim's throughput against ns-3's "
                   "(log–log, the line y = x and the tolerance band), and the distribution of their relative "
                   "difference per group")


def ns3_mathis() -> Caption:
    return Caption("ns3-mathis", "Throughput of both simulators divided by the Mathis rate against the loss rate, "
                   "for the single-link runs where the Mathis formula applies")


def ns3_striped() -> Caption:
    return Caption("ns3-striped", "(b) Round-robin striping over random link sets: cmtlab.sim's throughput against "
                   "ns-3's (log–log, y = x and ±10 % band) and their relative difference",
                   look="The set-up is that of Song et al.'s Fig. 5 simulations; the figure checks the simulators, "
                   "not the paper")


def ns3_cwnd() -> Caption:
    return Caption("ns3-cwnd", "Congestion window (kB) over time of a 1 MB transfer over 10 + 5 Mbit/s links with "
                   "round-trip times of 20 and 60 ms, every simulator's trace on top of each other")


# ---- the Linux kernel testbed (linux-mptcp-validation)
def kernel_calibration() -> Caption:
    return Caption("kernel-calibration", "Calibration of the testbed: (left) the error of the ping round-trip time "
                   "per configured rate (the 1 ms contract dotted); (right) the single-path TCP goodput error per "
                   "configured rate (±2 % shaded)")


def kernel_table1() -> Caption:
    return Caption("kernel-table1", "Alheid et al.'s Table I on the Linux kernel: MPTCP's gain over single-path TCP "
                   "(mean, min–max over the repetitions) against the delay difference Δ, per congestion control and "
                   "reading of Δ", "Alheid et al., Table I (drawn as a figure)", _alheid_linux())


def kernel_vs_simulator() -> Caption:
    return Caption("kernel-vs-simulator", "The kernel's Reno gains beside the kernel-like cmtlab.sim's (with its "
                   "reordering response and without) per reading of Δ", "Alheid et al., Table I (drawn as a figure)",
                   _alheid_linux())


# ---- RFC 6356 goals (mptcp-validation)
def mptcp_goals() -> Caption:
    return Caption("mptcp-goals", "The checks of RFC 6356's goals on cmtlab.sim: disjoint paths, a shared "
                   "bottleneck (mean over the round-trip times, min–max) and a congested path beside a clean one; "
                   "measured (mean ± 95 % CI over seeds) beside what the RFC expects",
                   look="The RFC's goals are not a paper's figure; the check is of this book's engine")


# ---- the preset against the papers' simulator (papers-sim-agreement)
def papers_sim_agreement(tolerance: float) -> Caption:
    return Caption("papers-sim-agreement", "Goodput of each cmtlab.sim preset over the papers' simulator's, per case "
                   f"(scenario × congestion control), one panel per reordering algorithm; shaded: ±{tolerance:.0%} "
                   "(F-RTO: the model's own spread as a bar)")


def papers_sim_wifi_agreement(tolerance: float) -> Caption:
    return Caption("papers-sim-wifi-agreement", "gThroughput of cmtlab.sim's Alheid preset over the papers' "
                   "simulator's over Wi-Fi (ns-3.7, the 802.11g stand-in), per distance, one panel per reordering "
                   f"solution; shaded: ±{tolerance:.0%}; grey bars: the model's seeds (min–max) over their mean",
                   look="A calibration of this book's preset against the papers' model, not a paper's figure")


# ---- the Wi-Fi model (alheid-wifi-model-check)
def wifi_link() -> Caption:
    return Caption("wifi-link", "One 802.11g link with 1400-byte payloads: throughput against distance of the "
                   "book's Wi-Fi model (lines) and ns-3.44 (markers), UDP and TCP")


def wifi_single_flow() -> Caption:
    return Caption("wifi-single-flow", "Goodput (Mbit/s, mean and 95 % CI over the seeds) of one TCP flow against "
                   "the distance per simulator",
                   look=f"Alheid et al. give {alheid_paper.PAPER_SINGLE_TCP_MAX_INTRO_MBPS:g} Mbit/s at most "
                   f"(sec. V) and {alheid_paper.PAPER_SINGLE_TCP_MAX_VB_MBPS:g} Mbit/s (sec. V.B) for a single TCP "
                   "over one link")


__all__ = ["ns3_single_link", "ns3_mathis", "ns3_striped", "ns3_cwnd", "kernel_calibration", "kernel_table1",
           "kernel_vs_simulator", "mptcp_goals", "papers_sim_agreement",
           "papers_sim_wifi_agreement", "wifi_link", "wifi_single_flow"]
