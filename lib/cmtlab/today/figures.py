"""Figures of the chapter "Today's transport" (the book's style, :mod:`cmtlab.report.style`)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ..report import style

_METRIC_LABELS = {"goodput_mbps": "goodput (Mbit/s)", "retransmissions": "retransmissions per run",
                  "spurious_retransmissions": "spurious retransmissions per run"}


def kernel_agreement(agree: pd.DataFrame, configs=("today", "today-dupack", "before")):
    """One panel per metric: the kernel's min..max over its repetitions (bar) and each simulator
    configuration's mean (marker), per cell; a marker inside its bar is a cell inside the kernel's spread.
    Goodput and retransmissions relative to the kernel's mean (clipped at 3); spurious retransmissions in
    counts per run on a symmetric-log axis (the kernel's mean is often 0)."""
    metrics = list(dict.fromkeys(agree.metric))
    cells = list(dict.fromkeys(agree.cell))
    fig, axes = plt.subplots(1, len(metrics), figsize=style.figsize(len(metrics), 1, panel_height_in=4.6),
                             sharey=True)
    axes = np.atleast_1d(axes)
    y = np.arange(len(cells))
    for ax, m in zip(axes, metrics):
        a = agree[agree.metric == m]
        k = a.drop_duplicates("cell").set_index("cell").reindex(cells)
        absolute = m == "spurious_retransmissions"
        scale = pd.Series(1.0, index=k.index) if absolute else k.kernel_mean.replace(0, np.nan).fillna(1.0)
        lo, hi = k.kernel_min / scale, k.kernel_max / scale
        ax.barh(y, np.maximum(hi - lo, 0.02 if not absolute else 0.1), left=lo, height=0.6, color="0.8",
                label="kernel, min..max")
        for i, cfg in enumerate(configs):
            s = a[a.sim_config == cfg].set_index("cell").reindex(cells)
            v = s.sim_mean / scale
            ax.plot(v if absolute else v.clip(upper=3.0), y + (i - 1) * 0.2, ls="none", ms=4,
                    label=f"cmtlab.sim, {cfg}", **style.series_style(cfg, i))
        if absolute:
            ax.set_xscale("symlog", linthresh=1.0)
            ax.set_xlabel("per run")
        else:
            ax.axvline(1.0, color="k", lw=0.6, ls=":")
            ax.set_xlim(0, 3.05)
            ax.set_xlabel("÷ kernel mean")
        ax.set_title(_METRIC_LABELS.get(m, m).replace(" per run", ""), fontsize=9)
        ax.set_yticks(y, cells, fontsize=8)
    axes[0].invert_yaxis()
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, fontsize=8, loc="lower center", ncol=4, frameon=False)
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    return fig


def axes_goodput(summary: pd.DataFrame):
    """One panel per (axis, scenario): mean goodput with its 95 % confidence interval per mechanism, the
    papers' mechanisms in grey, today's in colour."""
    keys = list(dict.fromkeys(zip(summary.axis, summary.scenario)))
    rows, cols = style.grid_shape(len(keys), 2)
    fig, axes = plt.subplots(rows, cols, figsize=style.figsize(cols, rows, panel_height_in=2.4), squeeze=False)
    for ax, (axis, scen) in zip(axes.flat, keys):
        s = summary[(summary.axis == axis) & (summary.scenario == scen)]
        x = np.arange(len(s))
        err = np.vstack([s.goodput_mbps - s.ci_lo, s.ci_hi - s.goodput_mbps])
        colours = ["0.6" if p else style.series_style(m, i)["color"] for i, (p, m) in
                   enumerate(zip(s.papers, s.mechanism))]
        ax.bar(x, s.goodput_mbps, yerr=np.nan_to_num(err), color=colours, capsize=2)
        ax.set_xticks(x, s.mechanism, rotation=35, ha="right", fontsize=8)
        ax.set_title(f"{axis}: {scen}", fontsize=9)
        ax.set_ylabel("goodput (Mbit/s)")
    for ax in list(axes.flat)[len(keys):]:
        ax.axis("off")
    fig.tight_layout()
    return fig


_TRACE_TITLES = {"5g": "5G drive (Raca et al.)", "starlink": "Starlink (Laniewski et al.)"}


def replay_check(table: pd.DataFrame):
    """One panel per trace: the scheduled rate per interval (steps) and what each replay delivered in it
    (markers: the testbed's delay line and cmtlab.sim's RateTraceLink, both saturated by one CUBIC flow);
    an open marker is an interval in which the line was not backlogged (idle > 1 %)."""
    traces = list(dict.fromkeys(table.trace))
    fig, axes = plt.subplots(1, len(traces), figsize=style.figsize(len(traces), 1, panel_height_in=2.6),
                             squeeze=False)
    for ax, tr in zip(axes.flat, traces):
        t = table[table.trace == tr]
        sched = t.drop_duplicates("interval").sort_values("interval")
        ax.step(sched.t_s, sched.scheduled_bps / 1e6, where="post", color="0.3", lw=1.2, label="schedule")
        for i, (where, g) in enumerate(t.groupby("where", sort=False)):
            st = style.series_style(where, i)
            mid = g.t_s + 0.5
            for back, fill in ((True, None), (False, "none")):
                h = g.backlogged == back
                ax.plot(mid[h], g.delivered_bps[h] / 1e6, ls="none", ms=4, marker=st.get("marker", "o"),
                        color=st["color"], mfc=fill, label=f"delivered, {where}" if back else None)
        ax.set_title(_TRACE_TITLES.get(tr, tr), fontsize=9)
        ax.set_xlabel("time into the schedule (s)")
        ax.set_ylabel("rate (Mbit/s)")
    axes.flat[0].legend(fontsize=8, frameon=False)
    fig.tight_layout()
    return fig


__all__ = ["kernel_agreement", "axes_goodput", "replay_check"]
