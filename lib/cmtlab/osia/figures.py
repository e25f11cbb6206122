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
