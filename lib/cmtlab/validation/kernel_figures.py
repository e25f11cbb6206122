"""Figures of the chapter "The Linux kernel's MPTCP as reference" (the book's style, :mod:`cmtlab.report.style`)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ..report import style
from ..papers.alheid.paper import PAPER_LINUX_GAIN_PCT

_STYLES = {("reno", "rtt"): "o-", ("reno", "one_way"): "o--", ("cubic", "rtt"): "s-", ("cubic", "one_way"): "s--"}


def _reading(meaning: str) -> str:
    return "RTT" if meaning == "rtt" else "one-way"


def _paper(ax):
    paper = PAPER_LINUX_GAIN_PCT
    ax.plot(list(paper), list(paper.values()), "k*", ms=11, label="Alheid Table I, Linux")


def _errorbar(ax, gg: pd.DataFrame, fmt: str, **kw):
    ax.errorbar(gg.delta_ms, gg.gain_pct, yerr=[gg.gain_pct - gg.gain_min_pct, gg.gain_max_pct - gg.gain_pct],
                fmt=fmt, capsize=3, **kw)


def gain_floor(g: pd.DataFrame, step: float = 10.0) -> float:
    """Lower y limit of a gain axis: 0, or below the lowest gain over the repetitions (``gain_min_pct``) rounded
    down to ``step`` percentage points, so that negative gains stay visible."""
    lowest = float(np.nanmin(g.gain_min_pct)) if len(g) else 0.0
    return 0.0 if not np.isfinite(lowest) or lowest >= 0 else step * np.floor(lowest / step - 0.5)


def calibration(pings: pd.DataFrame, rates: pd.DataFrame):
    """Two panels: the distribution of the ping RTT error per rate (the 1 ms contract dotted) and the single-path
    TCP goodput error per configured rate (± 2 % shaded)."""
    fig, (a1, a2) = plt.subplots(1, 2, figsize=style.figsize(2, panel_height_in=3.2))
    for r, g in pings.groupby("rate_bps"):
        a1.plot(np.sort(g.error_s * 1e3), np.linspace(0, 1, len(g)), label=f"{r / 1e6:g} Mbit/s")
    a1.axvline(1.0, color="k", ls=":", lw=1)
    a1.set(xlabel="ping RTT − expected (ms)", ylabel="fraction of echoes", title="delay")
    a1.legend()
    a2.plot(rates.path0_rate_bps / 1e6, 100 * rates.rate_error, "o-")
    a2.axhspan(-2, 2, color="0.9", zorder=0)
    a2.set(xlabel="configured rate (Mbit/s)", ylabel="TCP goodput error (%)", title="rate", ylim=(-3, 3))
    fig.tight_layout()
    return fig


def table1_gains(g: pd.DataFrame):
    """Alheid Table I on the kernel: the gain (mean, min..max over the repetitions) per congestion control and
    reading of Δ, and the paper's Linux column."""
    fig, ax = plt.subplots(figsize=(6.5, 3.6))
    for (cc, meaning), gg in g.groupby(["congestion", "meaning"]):
        _errorbar(ax, gg, _STYLES.get((cc, meaning), "^-"),
                  label=f"kernel, {cc}, Δ = {_reading(meaning)} difference")
    _paper(ax)
    ax.axhline(0, color="0.5", lw=0.8)
    ax.set(xlabel="delay difference Δ (ms)", ylabel="MPTCP gain over best-path TCP (%)", ylim=(gain_floor(g), 110))
    ax.legend(loc="lower left")
    fig.tight_layout()
    return fig


def kernel_vs_simulator(g: pd.DataFrame, sim_g: pd.DataFrame | None, sim_g_none: pd.DataFrame | None, reordering: str):
    """The kernel's Reno gains beside the kernel-like simulator's (with ``reordering`` and with ``none``) per
    reading of Δ, and the paper's Linux column; the kernel alone when the simulator column is missing."""
    fig, ax = plt.subplots(figsize=(6.5, 3.6))
    for meaning, ls in (("rtt", "-"), ("one_way", "--")):
        kk = g[(g.congestion == "reno") & (g.meaning == meaning)]
        if not len(kk):
            continue
        lab = _reading(meaning)
        _errorbar(ax, kk, "o" + ls, color="C0", label=f"kernel Reno, Δ {lab}")
        for sg, fmt, colour, name in ((sim_g, "D", "C1", reordering), (sim_g_none, "x", "C2", "none")):
            if sg is None:
                continue
            s = sg[sg.meaning == meaning]
            ax.plot(s.delta_ms, s.gain_pct, fmt + ls, color=colour, label=f"cmtlab.sim ({name}), Δ {lab}")
    _paper(ax)
    ax.axhline(0, color="0.5", lw=0.8)
    ax.set(xlabel="delay difference Δ (ms)", ylabel="MPTCP gain over best-path TCP (%)")
    ax.legend(loc="lower left")
    fig.tight_layout()
    return fig


__all__ = ["gain_floor", "calibration", "table1_gains", "kernel_vs_simulator"]
