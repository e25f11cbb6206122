"""Figures of the OSIA chapter (the book's style: call :func:`cmtlab.plotting.use_style` first)."""

from __future__ import annotations

import numpy as np

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
        ax.text(left + w / 2, -3, f"{i + 1}\n{ps.rates_bps[i] / 1e6:g} Mb/s", ha="center", va="top", fontsize=7)
        left += w + 0.15
    ax.axhline(level_s * 1e3, color="black", ls=":", lw=1)
    ax.set_xticks([])
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
    ax.legend(fontsize=7)
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
    ax.legend(fontsize=7)
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
    ax.legend(fontsize=7, title="line: closed form, x: timeline", title_fontsize=7)
    return ax


SCHEDULER_LABELS = {"round_robin": "Round robin", "cwnd_aware": "CWND-aware", "flow_level": "Flow-level",
                    "osia": "OSIA", "lowest_rtt": "Lowest RTT", "edpf": "EDPF", "closed_form": "RR closed form",
                    "osia_every_period": "OSIA, plan restarted every period", "rr_tunnel": "RR below one TCP"}
SCHEDULER_COLOURS = {"round_robin": "#d95f02", "cwnd_aware": "#7570b3", "flow_level": "#e7298a", "osia": "#1b9e77",
                     "lowest_rtt": "#666666", "edpf": "#a6761d", "osia_every_period": "#66a61e",
                     "rr_tunnel": "#000000"}


def plot_heatmaps(tables: dict, *, title: str = "", fmt: str = "{:.0f}", scale: float = 1.0, cmap: str = "viridis",
                  ncols: int = 3, shared: bool = True):
    """Figs. 7–8: one heat map per scheduler, ``D2/D1`` (rows) × ``BW2/BW1`` (columns), values written in.

    ``tables`` maps a panel name (a scheduler, or ``"closed_form"``) to a DataFrame from
    :func:`cmtlab.osia.experiments.heatmap`; ``scale`` multiplies the values (e.g. 1e-6 for Mbit/s).
    With ``shared`` every panel uses one colour scale.
    """
    import matplotlib.pyplot as plt

    names = list(tables)
    ncols = max(1, min(ncols, len(names)))
    nrows = -(-len(names) // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(3.3 * ncols, 2.9 * nrows), constrained_layout=True,
                             squeeze=False)
    finite = [np.asarray(t.to_numpy(dtype=float)) * scale for t in tables.values()]
    allv = np.concatenate([v[np.isfinite(v)].ravel() for v in finite]) if finite else np.array([0.0])
    vmin, vmax = (float(allv.min()), float(allv.max())) if shared and allv.size else (None, None)
    for ax, name, val in zip(axes.ravel(), names, finite):
        t = tables[name]
        im = ax.imshow(val, origin="lower", aspect="auto", cmap=cmap, vmin=vmin, vmax=vmax)
        ax.set_xticks(range(t.shape[1]), [f"{x:g}" for x in t.columns])
        ax.set_yticks(range(t.shape[0]), [f"{y:g}" for y in t.index])
        ax.set_xlabel("BW2/BW1")
        ax.set_ylabel("D2/D1")
        ax.set_title(SCHEDULER_LABELS.get(name, name), fontsize=9)
        mid = (np.nanmin(val) + np.nanmax(val)) / 2 if vmin is None else (vmin + vmax) / 2
        for i in range(t.shape[0]):
            for j in range(t.shape[1]):
                v = val[i, j]
                if np.isfinite(v):
                    ax.text(j, i, fmt.format(v), ha="center", va="center", fontsize=7,
                            color="white" if v < mid else "black")
        if not shared:
            fig.colorbar(im, ax=ax, shrink=0.8)
    for ax in axes.ravel()[len(names):]:
        ax.axis("off")
    if shared and names:
        fig.colorbar(im, ax=axes.ravel().tolist(), shrink=0.8)
    if title:
        fig.suptitle(title, fontsize=10)
    return fig


def plot_goodput_vs_paths(summary, ax=None, value: str = "goodput_bps"):
    """Fig. 9: mean goodput (Mbit/s, ± standard error) against the number of paths, one line per scheduler."""
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(5, 3.4), constrained_layout=True)
    for name, grp in summary.groupby("scheduler", sort=False):
        grp = grp.sort_values("n_paths")
        se = grp.get(f"{value}_se")
        ax.errorbar(grp.n_paths, grp[value] / 1e6, yerr=None if se is None else se / 1e6, marker="o", ms=4,
                    capsize=2, color=SCHEDULER_COLOURS.get(name), label=SCHEDULER_LABELS.get(name, name),
                    ls="--" if name in ("lowest_rtt", "edpf", "osia_every_period") else
                    (":" if name == "rr_tunnel" else "-"))
    ax.set_xticks(sorted(summary.n_paths.unique()))
    ax.set_xlabel("number of paths (Table 1)")
    ax.set_ylabel("goodput (Mbit/s)")
    ax.legend(fontsize=7)
    return ax
