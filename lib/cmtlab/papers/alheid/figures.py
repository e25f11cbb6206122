"""Figures of the Alheid chapters (the book's style: call :func:`cmtlab.report.style.use_style` first)."""

from __future__ import annotations

from ...report.style import figsize, series_style
from ...scenario import DELAY_DIFFERENCE_MEANINGS
from .experiments import COLOURS, SOLUTION_ORDER

#: Marker, line style, marker fill and size per solution (distinct, so that coinciding curves stay
#: visible); markers and colours are the book's (:func:`cmtlab.report.style.series_style`).
STYLES = {"NoPR": (series_style("NoPR")["marker"], "-", True, 4),
          "D-SACK": (series_style("D-SACK")["marker"], "-.", False, 7),
          "TCP-DOOR": (series_style("TCP-DOOR")["marker"], "-", True, 4),
          "PR-R": (series_style("PR-R")["marker"], ":", False, 7), "single TCP": ("o", "--", True, 3)}


def plot_vs(summary, x: str, *, ax=None, xscale: float = 1.0, xlabel: str = "", title: str = "",
            metric: str = "gthroughput_mbps", ylabel: str = "gThroughput (Mbit/s)", solutions=None,
            paper_lines=()):
    """One line per solution with 95 % confidence bars (``summary`` from :func:`experiments.summarise`).

    ``paper_lines``: ``(value, label)`` pairs of the paper's numbers on the y axis (targets), drawn as
    dashed grey lines with their label in the legend.
    """
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=figsize(1, panel_height_in=3.6), constrained_layout=True)
    order = list(solutions or SOLUTION_ORDER) + (["single TCP"] if solutions is None else [])
    for sol in order:
        g = summary[summary.solution == sol]
        if g.empty:
            continue
        ci = g.get(f"{metric}_ci95")
        marker, ls, filled, ms = STYLES.get(sol, ("o", "-", True, 4))
        ax.errorbar(g[x] * xscale, g[metric], yerr=None if ci is None else ci.fillna(0), marker=marker, ms=ms,
                    mfc=COLOURS.get(sol) if filled else "none", capsize=2, lw=1.2, color=COLOURS.get(sol), ls=ls,
                    label=sol)
    for k, (value, label) in enumerate(paper_lines):
        ax.axhline(float(value), color="0.45", lw=1, ls=("--", ":", "-.")[k % 3], label=label, zorder=0)
    ax.set_xlabel(xlabel or x)
    ax.set_ylabel(ylabel)
    ax.set_ylim(bottom=0)
    if title:
        ax.set_title(title, fontsize=9)
    ax.legend(fontsize=9)
    return ax


def plot_cwnd(cwnd, *, solutions=SOLUTION_ORDER, title: str = ""):
    """Fig. 6: cwnd (segments) of both subflows over time, one panel per solution.

    Each panel has its own y axis: the windows differ by more than an order of magnitude between
    solutions (a few segments under NoPR, hundreds under PR-R), and one shared axis would flatten
    the small ones.  The panel title gives each panel's largest window.
    """
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(len(solutions), 1, figsize=figsize(1, len(solutions), panel_height_in=1.6),
                             sharex=True, constrained_layout=True)
    axes = [axes] if len(solutions) == 1 else list(axes)
    for ax, sol in zip(axes, solutions):
        c = cwnd[cwnd.solution == sol]
        for sf, colour in ((0, "#0072B2"), (1, "#D55E00")):
            s = c[c.subflow == sf]
            ax.step(s.time_s, s.cwnd_segments, where="post", lw=0.8, color=colour, label=f"SF {sf + 1}")
        top = float(c.cwnd_segments.max()) if len(c) else 1.0
        ax.set_ylim(0, top * 1.15)
        ax.set_ylabel("cwnd (seg.)")
        ax.set_title(f"{sol} (largest window {top:.0f} segments)", loc="left")
    axes[0].legend(loc="upper right", ncols=2)
    axes[-1].set_xlabel("time (s)")
    if title:
        fig.suptitle(title)
    return fig


def plot_table1(gains, *, kernel=None, model=None, meanings=DELAY_DIFFERENCE_MEANINGS, setup: str = "base", title: str = ""):
    """Table I: gain over single-path TCP against the delay difference, one panel per reading of Δ.

    ``gains`` from :func:`cmtlab.papers.alheid.table1.gains` (one line per variant, 95 % CI bars); the
    paper's Linux and ns-3 columns as markers; ``kernel`` (optional, from
    :func:`cmtlab.papers.alheid.table1.kernel_gains_from_chapter`) as open markers per congestion control;
    ``model`` (optional, :func:`cmtlab.papers.alheid.papers_sim.gains`) the papers' simulator's D_SACK runs
    as a thick line.
    """
    import matplotlib.pyplot as plt

    from .table1 import COLOURS as T1_COLOURS
    from .paper import PAPER_LINUX_GAIN_PCT, PAPER_NS3_GAIN_PCT
    from .table1 import MEANING_LABELS

    meanings = [m for m in meanings if (gains.meaning == m).any()] or list(meanings)[:1]
    fig, axes = plt.subplots(1, len(meanings), figsize=figsize(len(meanings), panel_height_in=3.3), sharey=True,
                             constrained_layout=True, squeeze=False)
    markers = {"round robin + LIA": ("o", "-"), "lowest-RTT + LIA": ("s", "--"), "round robin + OLIA": ("^", "-."),
               "lowest-RTT + OLIA": ("v", ":")}
    for ax, meaning in zip(axes[0], meanings):
        g = gains[(gains.setup == setup) & (gains.meaning == meaning)]
        for var, gg in g.groupby("variant", sort=False):
            gg = gg.sort_values("delta_ms")
            marker, ls = markers.get(var, ("o", "-"))
            ax.errorbar(gg.delta_ms, gg.gain_pct, yerr=gg.gain_ci95_pct.fillna(0), marker=marker, ls=ls, capsize=2,
                        lw=1.2, ms=5, mfc="none" if ls != "-" else None, color=T1_COLOURS.get(var), label=var)
        if model is not None and len(model):
            m = model[(model.reordering == "dsack") & (model.meaning == meaning)].sort_values("delta_ms")
            ax.plot(m.delta_ms, m.gain_pct, marker="s", ms=6, lw=2.2, color="#882255",
                    label="papers' simulator (run here), D_SACK")
        ax.plot(list(PAPER_LINUX_GAIN_PCT), list(PAPER_LINUX_GAIN_PCT.values()), "k*", ms=11, ls="none",
                label="paper, Linux")
        ax.plot(list(PAPER_NS3_GAIN_PCT), list(PAPER_NS3_GAIN_PCT.values()), "D", color="0.45", ms=7, ls="none",
                label="paper, ns-3")
        if kernel is not None and len(kernel):
            for cc, km in (("reno", "P"), ("cubic", "X")):
                k = kernel[(kernel.congestion == cc) & (kernel.meaning == meaning)].sort_values("delta_ms")
                if len(k):
                    ax.plot(k.delta_ms, k.gain_pct, km, mfc="none", color="0.2", ms=8, ls="none",
                            label=f"kernel testbed, {cc} (stored)")
        ax.axhline(0, color="0.6", lw=0.8)
        ax.axhline(100, color="0.6", lw=0.8, ls=":")
        ax.set_xlabel("delay difference Δ (ms)")
        ax.set_title(MEANING_LABELS.get(meaning, meaning), fontsize=9)
    axes[0][0].set_ylabel("gain over best-path TCP (%)")
    handles = {}
    for ax in axes[0]:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(lab, h)
    fig.legend(list(handles.values()), list(handles), loc="outside lower center", ncols=2)
    if title:
        fig.suptitle(title, fontsize=10)
    return fig


def plot_table1_sensitivity(gains, *, variant: str = "round robin + LIA", deltas_ms=(100, 500), title: str = ""):
    """The gain of ``variant`` under each setup (one-factor changes), grouped by (reading, Δ)."""
    import matplotlib.pyplot as plt
    import numpy as np

    from .paper import PAPER_LINUX_GAIN_PCT, PAPER_NS3_GAIN_PCT

    g = gains[(gains.variant == variant) & gains.delta_ms.isin([float(d) for d in deltas_ms])]
    groups = [(m, d) for m in DELAY_DIFFERENCE_MEANINGS for d in deltas_ms if ((g.meaning == m) & (g.delta_ms == d)).any()]
    setups = list(dict.fromkeys(g.setup))
    fig, ax = plt.subplots(figsize=figsize(1, panel_height_in=3.4), constrained_layout=True)
    width = 0.8 / max(len(setups), 1)
    colours = ["#d95f02", "#1b9e77", "#7570b3", "#e7298a", "#66a61e", "#e6ab02"]
    for j, st in enumerate(setups):
        ys, es = [], []
        for m, d in groups:
            s = g[(g.setup == st) & (g.meaning == m) & (g.delta_ms == d)]
            ys.append(float(s.gain_pct.iloc[0]) if len(s) else np.nan)
            es.append(float(s.gain_ci95_pct.fillna(0).iloc[0]) if len(s) else 0.0)
        x = np.arange(len(groups)) + (j - (len(setups) - 1) / 2) * width
        ax.bar(x, ys, width, yerr=es, capsize=2, color=colours[j % len(colours)], label=st)
    labelled = False
    for i, (m, d) in enumerate(groups):
        if d not in PAPER_LINUX_GAIN_PCT:
            continue  # a Δ Table I does not report: no paper line
        ax.plot([i - 0.4, i + 0.4], [PAPER_LINUX_GAIN_PCT[int(d)]] * 2, "k-", lw=1.5,
                label=None if labelled else "paper, Linux")
        ax.plot([i - 0.4, i + 0.4], [PAPER_NS3_GAIN_PCT[int(d)]] * 2, color="0.45", ls="--", lw=1.5,
                label=None if labelled else "paper, ns-3")
        labelled = True
    ax.set_xticks(np.arange(len(groups)))
    ax.set_xticklabels([f"Δ = {d:g} ms\n({'RTT' if m == 'rtt' else 'one-way'})" for m, d in groups])
    ax.axhline(0, color="0.4", lw=0.8)
    ax.set_ylabel("gain over best-path TCP (%)")
    fig.legend(loc="outside lower center", ncols=3)
    if title:
        ax.set_title(title, fontsize=9)
    return fig
