"""Figures of the Alheid chapters (the book's style: call :func:`cmtlab.plotting.use_style` first)."""

from __future__ import annotations

from .experiments import COLOURS, SOLUTION_ORDER

#: Marker, line style and marker fill per solution (distinct, so that coinciding curves stay visible).
STYLES = {"NoPR": ("o", "-", True, 4), "D-SACK": ("s", "-.", False, 7), "TCP-DOOR": ("^", "-", True, 4),
          "PR-R": ("D", ":", False, 7), "single TCP": ("o", "--", True, 3)}


def plot_vs(summary, x: str, *, ax=None, xscale: float = 1.0, xlabel: str = "", title: str = "",
            metric: str = "gthroughput_mbps", ylabel: str = "gThroughput (Mbit/s)", solutions=None):
    """One line per solution with 95 % confidence bars (``summary`` from :func:`experiments.summarise`)."""
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(5.5, 3.6), constrained_layout=True)
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
    ax.set_xlabel(xlabel or x)
    ax.set_ylabel(ylabel)
    ax.set_ylim(bottom=0)
    if title:
        ax.set_title(title, fontsize=9)
    ax.legend(fontsize=8)
    return ax


def plot_cwnd(cwnd, *, solutions=SOLUTION_ORDER, title: str = ""):
    """Fig. 6: cwnd (segments) of both subflows over time, one panel per solution."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(len(solutions), 1, figsize=(6.5, 1.9 * len(solutions)), sharex=True,
                             constrained_layout=True)
    axes = [axes] if len(solutions) == 1 else list(axes)
    ymax = cwnd.cwnd_segments.max() * 1.05 if len(cwnd) else 1
    for ax, sol in zip(axes, solutions):
        c = cwnd[cwnd.solution == sol]
        for sf, colour in ((0, "#1b9e77"), (1, "#d95f02")):
            s = c[c.subflow == sf]
            ax.step(s.time_s, s.cwnd_segments, where="post", lw=0.8, color=colour, label=f"SF {sf + 1}")
        ax.set_ylabel("cwnd (seg.)")
        ax.set_ylim(0, ymax)
        ax.set_title(sol, fontsize=9, loc="left")
        ax.legend(fontsize=7, loc="upper right")
    axes[-1].set_xlabel("time (s)")
    if title:
        fig.suptitle(title, fontsize=10)
    return fig
