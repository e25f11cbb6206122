"""Figures of the OSIA chapter (the book's style: call :func:`cmtlab.report.style.use_style` first)."""

from __future__ import annotations

import textwrap

import numpy as np

from ...report.style import MIN_FONT_PT, figsize, series_style
from .model import _as_pathset, borders_s, chunk_bits

CHUNK_COLOURS = ["#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02"]


def plot_buckets(paths, level_s, ax=None, title: str = ""):
    """Fig. 4: bucket ``i`` of width ``∝ b_i`` pre-loaded to ``d_i`` (grey); chunk ``h`` is the band
    ``[d_h, d_{h+1}]``."""
    import matplotlib.pyplot as plt

    ps = _as_pathset(paths)
    border = borders_s(ps, level_s)
    x = chunk_bits(ps, level_s)
    if ax is None:
        _, ax = plt.subplots(figsize=(4.5, 3.2), constrained_layout=True)
    widths = ps.rates_bps / ps.rates_bps.max()
    left = 0.0
    for i in range(ps.n):
        w = widths[i]
        ax.bar(left, ps.delays_s[i] * 1e3, width=w, align="edge", color="0.8", edgecolor="0.3")
        for h in range(i, ps.n):
            if x[i, h] > 0:
                ax.bar(left, (border[h + 1] - border[h]) * 1e3, bottom=border[h] * 1e3, width=w, align="edge",
                       color=CHUNK_COLOURS[h % len(CHUNK_COLOURS)], edgecolor="0.3",
                       label=f"chunk {h + 1}" if i == h else None)
        ax.text(left + w / 2, -3, f"{i + 1}\n{ps.rates_bps[i] / 1e6:g}", ha="center", va="top", fontsize=MIN_FONT_PT)
        left += w + 0.15
    ax.axhline(level_s * 1e3, color="black", ls=":", lw=1)
    ax.set_xticks([])
    ax.set_xlabel("path, rate (Mbit/s); width ∝ rate", labelpad=28)
    ax.set_ylabel("level = arrival time (ms)")
    ax.set_ylim(0, level_s * 1e3 * 1.05)
    ax.set_title(title or f"{ps.n} paths, L* = {level_s * 1e3:.0f} ms", fontsize=9)
    return ax


def plot_schedule(schedule, arrival_s, ax=None, title: str = ""):
    """Fig. 5 as data: sequence number against sending time (hollow) and arrival time (filled), by chunk."""
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(5, 3.4), constrained_layout=True)
    for h, grp in schedule.groupby("chunk"):
        c = CHUNK_COLOURS[(h - 1) % len(CHUNK_COLOURS)]
        ax.plot(grp.release_s * 1e3, grp.seq, "o", mfc="none", mec=c, ms=3, label=f"chunk {h}: sent")
        ax.plot(np.asarray(arrival_s)[grp.seq.to_numpy()] * 1e3, grp.seq, "o", color=c, ms=2.5,
                label=f"chunk {h}: arrived")
    ax.set_xlabel("time (ms)")
    ax.set_ylabel("sequence number")
    ax.set_title(title, fontsize=9)
    return ax


def plot_arrival_order(arrival_by_form: dict, ax=None):
    """Sequence number in order of arrival, one line per schedule form (a diagonal = in order)."""
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(5, 3.4), constrained_layout=True)
    for name, arr in arrival_by_form.items():
        order = np.lexsort((np.arange(len(arr)), np.rint(np.asarray(arr) * 1e9)))
        ax.plot(np.arange(len(arr)), order, lw=1, label=name)
    ax.set_xlabel("arrival rank")
    ax.set_ylabel("sequence number")
    ax.legend(fontsize=9)
    return ax


def plot_theorem2(frame, K: float = 4.0, ax=None):
    """Spurious-timeout fraction of the RTO Monte-Carlo against the slow path's share ``g_22``."""
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(5, 3.2), constrained_layout=True)
    ax.plot(frame.g22, frame.timeout_fraction_printed, "o-", ms=3, label="eq. 17 as printed (|RTT − R_i|)")
    ax.plot(frame.g22, frame.timeout_fraction_rfc6298, "s-", ms=3, label="RFC 6298 deviation (|RTT − R_{i−1}|)")
    ax.axvline(1 / (2 * K), color="black", ls=":", lw=1, label=f"eq. 25: g22 = 1/(2K) = {1 / (2 * K):.3f}")
    ax.set_xlabel("share of the slower path g22")
    ax.set_ylabel("packets timing out spuriously")
    ax.legend(fontsize=9)
    return ax


def plot_rr_check(frame, ax=None):
    """Round robin: closed form (lines) vs per-packet counter (markers) of 3-dupACK events over BW2/BW1."""
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(5, 3.2), constrained_layout=True)
    for k, (dr, grp) in enumerate(frame.groupby("D2/D1")):
        c = CHUNK_COLOURS[k % len(CHUNK_COLOURS)]
        ax.plot(grp["BW2/BW1"], grp.closed_form, "-", color=c, label=f"D2/D1 = {dr:g}")
        ax.plot(grp["BW2/BW1"], grp.timeline, "x", color=c)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("BW2/BW1")
    ax.set_ylabel("3-dupACK events")
    ax.legend(fontsize=9, title="line: closed form, x: timeline", title_fontsize=9)
    return ax


SCHEDULER_LABELS = {"round_robin": "Round robin", "cwnd_aware": "CWND-aware", "flow_level": "Flow-level",
                    "osia": "OSIA", "lowest_rtt": "Lowest RTT", "edpf": "EDPF", "closed_form": "RR closed form",
                    "osia_every_period": "OSIA, plan restarted every period", "rr_tunnel": "RR below one TCP"}
#: One colour and marker per scheduler, the book's (:func:`cmtlab.report.style.series_style`).
SCHEDULER_STYLES = {name: series_style(name, i) for i, name in enumerate(
    ["round_robin", "cwnd_aware", "flow_level", "osia", "lowest_rtt", "edpf", "osia_every_period"])}
SCHEDULER_STYLES["rr_tunnel"] = dict(color="#000000", marker="x")
SCHEDULER_COLOURS = {name: style["color"] for name, style in SCHEDULER_STYLES.items()}


def _cell_numbers_fit(ax, n_cols: int, values, fmt: str, fontsize: float) -> bool:
    """Whether ``fmt``-formatted values fit in the heat map's cells at ``fontsize`` (pt)."""
    fig = ax.figure
    width_pt = ax.get_position().width * fig.get_figwidth() * 72
    widest = max((len(fmt.format(v)) for v in np.ravel(values) if np.isfinite(v)), default=0)
    return widest * 0.62 * fontsize <= 0.85 * width_pt / max(n_cols, 1)


def plot_heatmaps(tables: dict, *, title: str = "", fmt: str = "{:.0f}", scale: float = 1.0, cmap: str = "viridis",
                  ncols: int = 3, shared: bool = True, colorbar_label: str = "", numbers: bool | None = None):
    """Figs. 7–8: one heat map per scheduler, ``D2/D1`` (rows) × ``BW2/BW1`` (columns).

    ``tables`` maps a panel name (a scheduler, or ``"closed_form"``) to a DataFrame from
    :func:`cmtlab.papers.osia.experiments.heatmap`; ``scale`` multiplies the values (e.g. 1e-3 for kbit/s).
    The panels are small multiples at the column's width (``ncols`` per row, shared axes, labels
    on the outer panels).  With ``shared`` every panel uses one colour scale (one colour bar,
    labelled ``colorbar_label``), otherwise each panel has its own.  ``numbers``: write the value
    in each cell (at 9 pt) — by default only when the numbers fit in the cells.
    """
    import matplotlib.pyplot as plt

    if not 1 <= ncols <= 4:
        raise ValueError(f"ncols must be 1-4 (panels per row at the column's width), got {ncols}")
    names = list(tables)
    ncols = min(ncols, len(names))
    nrows = -(-len(names) // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=figsize(ncols, nrows, panel_height_in=2.2), constrained_layout=True,
                             squeeze=False, sharex=True, sharey=True)
    finite = [np.asarray(t.to_numpy(dtype=float)) * scale for t in tables.values()]
    allv = np.concatenate([v[np.isfinite(v)].ravel() for v in finite]) if finite else np.array([0.0])
    vmin, vmax = (float(allv.min()), float(allv.max())) if shared and allv.size else (None, None)
    for ax, name, val in zip(axes.ravel(), names, finite):
        t = tables[name]
        im = ax.imshow(val, origin="lower", aspect="auto", cmap=cmap, vmin=vmin, vmax=vmax)
        ax.set_xticks(range(t.shape[1]), [f"{x:g}" for x in t.columns])
        ax.set_yticks(range(t.shape[0]), [f"{y:g}" for y in t.index])
        ax.set_title(SCHEDULER_LABELS.get(name, name))
        ax.grid(False)
        if not shared:
            fig.colorbar(im, ax=ax, label=colorbar_label)
    fig.canvas.draw_idle()
    write = numbers
    if write is None:
        write = all(_cell_numbers_fit(ax, t.shape[1], v, fmt, MIN_FONT_PT)
                    for ax, t, v in zip(axes.ravel(), tables.values(), finite))
    if write:
        for ax, t, val in zip(axes.ravel(), tables.values(), finite):
            lo, hi = (vmin, vmax) if shared else (np.nanmin(val), np.nanmax(val))
            mid = (lo + hi) / 2
            for i in range(t.shape[0]):
                for j in range(t.shape[1]):
                    v = val[i, j]
                    if np.isfinite(v):
                        ax.text(j, i, fmt.format(v), ha="center", va="center", fontsize=MIN_FONT_PT,
                                color="white" if v < mid else "black")
    for ax in axes[-1, :]:
        ax.set_xlabel("BW2/BW1")
    for ax in axes[:, 0]:
        ax.set_ylabel("D2/D1")
    for ax in axes.ravel()[len(names):]:
        ax.axis("off")
    if shared and names:
        fig.colorbar(im, ax=axes.ravel().tolist(), shrink=0.8, label=colorbar_label)
    if title:  # wrapped to the figure's width, so that a long title does not widen the figure
        fig.suptitle(textwrap.fill(title, width=int(fig.get_figwidth() * 11)))
    return fig


def plot_goodput_vs_paths(summary, ax=None, value: str = "goodput_bps", legend: bool = True):
    """Fig. 9: mean goodput (Mbit/s, ± standard error) against the number of paths, one line per
    scheduler, each with its own colour and marker (:data:`SCHEDULER_STYLES`)."""
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=figsize(1, panel_height_in=3.4), constrained_layout=True)
    for i, (name, grp) in enumerate(summary.groupby("scheduler", sort=False)):
        grp = grp.sort_values("n_paths")
        se = grp.get(f"{value}_se")
        style = SCHEDULER_STYLES.get(name) or series_style(name, i)
        ax.errorbar(grp.n_paths, grp[value] / 1e6, yerr=None if se is None else se / 1e6, ms=5,
                    capsize=2, label=SCHEDULER_LABELS.get(name, name), **style,
                    ls="--" if name in ("lowest_rtt", "edpf", "osia_every_period") else
                    (":" if name == "rr_tunnel" else "-"))
    ax.set_xticks(sorted(summary.n_paths.unique()))
    ax.set_xlabel("number of paths (Table 1)")
    ax.set_ylabel("goodput (Mbit/s)")
    if legend:
        ax.legend()
    return ax


def plot_fig9(panels: dict, capacity_mbps: dict, value: str = "goodput_bps"):
    """Fig. 9 as two panels side by side: goodput against the number of paths per scheduler.

    ``panels`` maps a panel title to a summary for :func:`plot_goodput_vs_paths`;
    ``capacity_mbps`` maps the same titles to the capacity left to the transfer (a dotted line,
    labelled).  One legend for both panels sits below them, so it hides no data and no line.
    """
    import matplotlib.pyplot as plt

    if set(capacity_mbps) != set(panels):
        raise ValueError(f"capacity_mbps must have the keys of panels {sorted(panels)}, got {sorted(capacity_mbps)}")
    fig, axes = plt.subplots(1, len(panels), figsize=figsize(len(panels), panel_height_in=3.0), sharey=True,
                             squeeze=False, constrained_layout=True)
    for ax, (name, summary) in zip(axes.flat, panels.items()):
        plot_goodput_vs_paths(summary, ax=ax, value=value, legend=False)
        ax.axhline(capacity_mbps[name], color="black", ls=":", lw=1)
        ax.annotate(f"capacity {capacity_mbps[name]:g} Mbit/s", (0.02, capacity_mbps[name]),
                    xycoords=("axes fraction", "data"), xytext=(0, 3), textcoords="offset points",
                    va="bottom", fontsize=MIN_FONT_PT)
        ax.set_title(name)
    for ax in axes.flat[1:]:
        ax.set_ylabel("")
    axes.flat[0].set_ylim(0, max(capacity_mbps.values()) * 1.2)  # room for the capacity labels (shared y)
    handles = {}
    for ax in axes.flat:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(lab, h)
    fig.legend(list(handles.values()), list(handles), loc="outside lower center", ncols=3)
    return fig


# ----------------------------------------------------------------------------- the figures of the chapters


def plot_fig3_buckets(pathsets: dict, extra_level_s: float = 0.05):
    """OSIA Figs. 3–4 on Table 1: the leaky buckets of the 2-, 3- and 4-path sets (``{n: PathSet}``),
    one panel each, filled to ``extra_level_s`` above the longest delay; the legend in the fourth panel."""
    import matplotlib.pyplot as plt

    fig, grid = plt.subplots(2, 2, figsize=figsize(2, 2, panel_height_in=3.0), constrained_layout=True)
    axes = list(grid.flat)[:len(pathsets)]
    for ax, (n, ps) in zip(axes, pathsets.items()):
        plot_buckets(ps, ps.delays_s[-1] + extra_level_s, ax=ax, title=f"Table 1, {n} paths")
    for ax in list(grid.flat)[len(pathsets):]:
        ax.axis("off")
    grid.flat[3].legend(*axes[-1].get_legend_handles_labels(), loc="center")
    return fig


def plot_fig5_schedule(runs: dict, shown: str = "consistent (default)", title: str = "Table 1, 4 paths",
                       first_arrivals: int = 60):
    """OSIA Fig. 5 on one path set: (left) the schedule of the ``shown`` form and when its packets
    arrive; (right) the order of the first ``first_arrivals`` arrivals under every form
    (``runs``: ``{form: run}`` of :func:`cmtlab.papers.osia.checks.packet_run`)."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=figsize(2, panel_height_in=3.4), constrained_layout=True)
    r = runs[shown]
    plot_schedule(r["schedule"], r["arrival_s"], ax=axes[0], title=f"{title}: {shown.split(' (')[0]} schedule")
    axes[0].legend(ncol=2)
    plot_arrival_order({name: run["arrival_s"] for name, run in runs.items()}, ax=axes[1])
    axes[1].set_xlim(0, first_arrivals)
    axes[1].set_ylim(0, first_arrivals)
    axes[1].set_title(f"first {first_arrivals} arrivals, {title}", fontsize=9)
    return fig


def plot_theorem2_table1(frame, K: float, g_table1: float):
    """OSIA Theorem 2 over g22 (:func:`plot_theorem2`) with Table 1's two-path g22 marked."""
    ax = plot_theorem2(frame, K)
    ax.axvline(g_table1, color="0.5", ls="--", lw=1)
    ax.text(g_table1, ax.get_ylim()[1] * 0.05, " Table 1", fontsize=MIN_FONT_PT, color="0.4")
    return ax.figure


def plot_rr_checks(panels: dict):
    """Round robin's 3-dupACK events, closed form against the timeline, one panel per sender
    (``{title: frame of cmtlab.papers.osia.checks.rr_closed_form_check}``)."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(panels), figsize=figsize(len(panels), panel_height_in=3.2),
                             constrained_layout=True)
    for ax, (title, frame) in zip(np.atleast_1d(axes), panels.items()):
        plot_rr_check(frame, ax=ax)
        ax.set_title(title, fontsize=9)
    return fig


def plot_path_model(trace, ber: dict, cross_load: float):
    """The path model of OSIA sec. 5.1: (left) the share of one link's capacity the Pareto on-off cross
    traffic takes (``trace`` of :func:`cmtlab.papers.osia.experiments.cross_traffic_trace`), its mean load
    marked; (right) the distribution of the bit-error rate per period (``ber`` of
    :func:`cmtlab.papers.osia.experiments.ber_check`), log-log, its mean marked."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=figsize(2, panel_height_in=3.2), constrained_layout=True)
    axes[0].step(trace.time_s, trace.cross_share * 100, where="post", lw=0.8)
    axes[0].axhline(cross_load * 100, color="black", ls=":", lw=1, label=f"mean load {cross_load:.0%}")
    axes[0].set_xlabel("time (s)")
    axes[0].set_ylabel("link capacity taken (%), 100 ms bins")
    axes[0].legend()
    axes[0].set_title("Pareto on-off cross traffic, one link", fontsize=9)
    bins = np.logspace(-5, -3, 41)
    axes[1].hist(ber["values"], bins=bins, color="0.5")
    axes[1].axvline(ber["mean"], color="black", ls=":", lw=1, label=f"mean {ber['mean']:.2e}")
    axes[1].set_xscale("log")
    axes[1].set_yscale("log")
    axes[1].set_xlabel("bit-error rate of a 100 ms period")
    axes[1].set_ylabel("periods")
    axes[1].legend()
    axes[1].set_title(f"BER: bounded Pareto, shape {ber['shape']:.3f}", fontsize=9)
    return fig
