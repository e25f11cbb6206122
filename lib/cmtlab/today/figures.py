"""Figures of the chapter "Today's transport" (the book's style, :mod:`cmtlab.plotting`)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from .. import plotting

_METRIC_LABELS = {"goodput_mbps": "goodput (Mbit/s)", "retransmissions": "retransmissions per run",
                  "spurious_retransmissions": "spurious retransmissions per run"}


def kernel_agreement(agree: pd.DataFrame, configs=("today", "today-dupack", "before")):
    """One panel per metric: the kernel's min..max over its repetitions (bar) and each simulator
    configuration's mean (marker), per cell; a marker inside its bar is a cell inside the kernel's spread."""
    metrics = list(dict.fromkeys(agree.metric))
    cells = list(dict.fromkeys(agree.cell))
    fig, axes = plt.subplots(len(metrics), 1, figsize=plotting.figsize(1, len(metrics), panel_height_in=2.6),
                             sharex=True)
    axes = np.atleast_1d(axes)
    y = np.arange(len(cells))
    for ax, m in zip(axes, metrics):
        a = agree[agree.metric == m]
        k = a.drop_duplicates("cell").set_index("cell").reindex(cells)
        scale = k.kernel_mean.replace(0, np.nan).fillna(1.0)
        ax.barh(y, (k.kernel_max - k.kernel_min) / scale, left=k.kernel_min / scale, height=0.6, color="0.85",
                label="kernel, min..max")
        for i, cfg in enumerate(configs):
            s = a[a.sim_config == cfg].set_index("cell").reindex(cells)
            ax.plot(s.sim_mean / scale, y + (i - 1) * 0.18, ls="none", ms=5, label=f"cmtlab.sim, {cfg}",
                    **plotting.series_style(cfg, i))
        ax.set_title(f"{_METRIC_LABELS.get(m, m)} / kernel mean (1 where the kernel's mean is 0)", fontsize=9)
        ax.axvline(1.0, color="k", lw=0.6, ls=":")
        ax.set_yticks(y, cells, fontsize=7)
        ax.invert_yaxis()
    axes[0].legend(fontsize=7, loc="lower right")
    axes[-1].set_xlabel("relative to the kernel's mean")
    fig.tight_layout()
    return fig


def axes_goodput(summary: pd.DataFrame):
    """One panel per (axis, scenario): mean goodput with its 95 % confidence interval per mechanism, the
    papers' mechanisms in grey, today's in colour."""
    keys = list(dict.fromkeys(zip(summary.axis, summary.scenario)))
    rows, cols = plotting.grid_shape(len(keys), 2)
    fig, axes = plt.subplots(rows, cols, figsize=plotting.figsize(cols, rows, panel_height_in=2.4), squeeze=False)
    for ax, (axis, scen) in zip(axes.flat, keys):
        s = summary[(summary.axis == axis) & (summary.scenario == scen)]
        x = np.arange(len(s))
        err = np.vstack([s.goodput_mbps - s.ci_lo, s.ci_hi - s.goodput_mbps])
        colours = ["0.6" if p else plotting.series_style(m, i)["color"] for i, (p, m) in
                   enumerate(zip(s.papers, s.mechanism))]
        ax.bar(x, s.goodput_mbps, yerr=np.nan_to_num(err), color=colours, capsize=2)
        ax.set_xticks(x, s.mechanism, rotation=35, ha="right", fontsize=7)
        ax.set_title(f"{axis}: {scen}", fontsize=9)
        ax.set_ylabel("goodput (Mbit/s)")
    for ax in list(axes.flat)[len(keys):]:
        ax.axis("off")
    fig.tight_layout()
    return fig


__all__ = ["kernel_agreement", "axes_goodput"]
