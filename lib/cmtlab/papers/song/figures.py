"""Data and plots for Song Figs. 7 and 8 (compute functions return tidy data; plot functions draw it).

Units in the returned tables are spelled out in column names (``_ms``, ``_kbps``).
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ..._validate import as_float_array, check_positive
from ...report.style import LINK_COLOURS, MIN_FONT_PT, figsize, figure_name, grid_shape
from ...progress import progress as _progress
from . import linksets

# ----------------------------------------------------------------------------- Fig. 7


def fig7_surfaces(ada_s, aba_bps, *, n_links=(1, 2, 3, 4), **kwargs) -> dict[int, np.ndarray]:
    """Song Fig. 7: ``{n: throughput (bit/s) on the ADA × ABA grid}``; kwargs go to
    :func:`cmtlab.papers.song.linksets.asymmetry_surface`."""
    return {n: linksets.asymmetry_surface(n, ada_s, aba_bps, **kwargs) for n in n_links}


def fig7_ratios(surface: np.ndarray) -> dict[str, float]:
    """The two ratios Song quote for Fig. 7(d) (section 6.1), from one surface.

    * ``aba_fall_at_max_ada`` — throughput at (max ADA, ABA 0) / at (max ADA, max ABA);
    * ``ada_fall_at_max_aba`` — throughput at (ADA 0, max ABA) / at (max ADA, max ABA).

    A value > 1 is a fall as the asymmetry grows, < 1 a rise.
    """
    S = np.asarray(surface, dtype=float)
    return {"aba_fall_at_max_ada": float(S[-1, 0] / S[-1, -1]),
            "ada_fall_at_max_aba": float(S[0, -1] / S[-1, -1])}


#: Link-set interpretations compared in the Fig. 7 chapter (the first is the book's default).
FIG7_CASES = (
    dict(construction="even", pairing="same", delay_anchor="minimum", bandwidth_anchor="minimum"),
    dict(construction="even", pairing="reverse", delay_anchor="minimum", bandwidth_anchor="minimum"),
    dict(construction="one_outlier", pairing="same", delay_anchor="minimum", bandwidth_anchor="minimum"),
    dict(construction="two_groups", pairing="same", delay_anchor="minimum", bandwidth_anchor="minimum"),
    dict(construction="geometric", pairing="same", delay_anchor="minimum", bandwidth_anchor="minimum"),
    dict(construction="even", pairing="same", delay_anchor="minimum", bandwidth_anchor="mean"),
    dict(construction="even", pairing="same", delay_anchor="mean", bandwidth_anchor="minimum"),
)


def fig7_sensitivity(ada_s, aba_bps, *, n_links: int = 4, cases=FIG7_CASES, **model_kwargs) -> pd.DataFrame:
    """The two Fig. 7 ratios of :func:`fig7_ratios` under each link-set interpretation in ``cases``.

    One row per case: the case's keywords of :func:`cmtlab.papers.song.linksets.asymmetry_surface`,
    both ratios, and the smallest/largest throughput on the grid (kbit/s).
    """
    rows = []
    for case in cases:
        S = linksets.asymmetry_surface(n_links, ada_s, aba_bps, **case, **model_kwargs)
        rows.append({**case, **fig7_ratios(S), "min_kbps": S.min() / 1e3, "max_kbps": S.max() / 1e3})
    return pd.DataFrame(rows)


def mean_delay_equivalent(n_links: int, ada_s, *, min_delay_s: float = 0.005, bandwidths_bps=None,
                          construction: str = "even", **model_kwargs) -> pd.DataFrame:
    """Throughput of the ADA link sets vs the same links all at the set's *mean* delay.

    In Song's model ``C_i`` never depends on the delays and ``E(T_i)`` is linear in the
    delays of the links that carry each round's first ``m_ACK`` segments; since round robin
    rotates that link, the delays act (almost) only through their mean.  Columns:
    ``ada_ms, mean_delay_ms, throughput_kbps, equal_delay_kbps`` (bit/s → kbit/s).
    """
    ada = as_float_array("ada_s", ada_s)
    D = linksets.delays_for_ada(n_links, ada, min_delay_s, construction)
    b = np.full(n_links, 100e3) if bandwidths_bps is None else as_float_array("bandwidths_bps", bandwidths_bps)
    B = np.tile(b, (ada.size, 1))
    from .model import throughput_many
    thr = throughput_many(B, D, **model_kwargs)
    eq = throughput_many(B, np.repeat(D.mean(axis=1, keepdims=True), n_links, axis=1), **model_kwargs)
    return pd.DataFrame({"ada_ms": ada * 1e3, "mean_delay_ms": D.mean(axis=1) * 1e3,
                         "throughput_kbps": thr / 1e3, "equal_delay_kbps": eq / 1e3})


def plot_fig7(surfaces: dict[int, np.ndarray], ada_s, aba_bps, *, title: str | None = None):
    """Song Fig. 7: one heat map per number of links (two per row), kbit/s.

    Each panel has its own colour scale and labelled colour bar: the panels' magnitudes differ
    (one link is flat in ABA, four links span several times more), and a shared scale would
    leave panel (a) one flat block.  White contour lines mark equal throughput.
    """
    ada_ms = np.asarray(ada_s) * 1e3
    aba_kbps = np.asarray(aba_bps) / 1e3
    nrows, ncols = grid_shape(len(surfaces))
    fig, axes = plt.subplots(nrows, ncols, figsize=figsize(ncols, nrows, panel_height_in=2.9), sharey=True,
                             sharex=True, squeeze=False, constrained_layout=True)
    for ax, (n, S), panel in zip(axes.flat, surfaces.items(), "abcdefgh"):
        values = S / 1e3
        ax.set_title(f"({panel}) {n} link{'s' if n > 1 else ''}")
        ax.grid(False)
        if np.ptp(S) == 0:  # e.g. one link: no asymmetry, one value — say it instead of a colour scale
            ax.pcolormesh(aba_kbps, ada_ms, values, shading="nearest", cmap="Greys", vmin=0, vmax=4 * values.max())
            ax.text(0.5, 0.5, f"{values.flat[0]:.0f} kbit/s everywhere\n(no asymmetry with {n} link{'s' if n > 1 else ''})",
                    transform=ax.transAxes, ha="center", va="center")
            continue
        mesh = ax.pcolormesh(aba_kbps, ada_ms, values, shading="nearest")
        cs = ax.contour(aba_kbps, ada_ms, values, levels=5, colors="white", linewidths=0.6)
        ax.clabel(cs, fontsize=MIN_FONT_PT, fmt="%.0f")
        fig.colorbar(mesh, ax=ax, label="throughput (kbit/s)")
    for ax in axes[-1, :]:
        ax.set_xlabel("ABA (kbit/s)")
    for ax in axes[:, 0]:
        ax.set_ylabel("ADA (ms)")
    for ax in list(axes.flat)[len(surfaces):]:
        ax.axis("off")
    fig.suptitle(title or figure_name("Song", "7") + " — model throughput over ADA × ABA")
    return fig


# ----------------------------------------------------------------------------- Fig. 8


def fig8_curves(min_delays_s, ada_s, *, n_links=(1, 2, 3, 4), bandwidth_bps: float = 100e3,
                construction: str = "even", **model_kwargs) -> pd.DataFrame:
    """Song Fig. 8 as a tidy table: ``min_delay_ms, n_links, ada_ms, throughput_kbps``."""
    ada = as_float_array("ada_s", ada_s, min_len=2)
    frames = []
    for dmin in as_float_array("min_delays_s", min_delays_s):
        for n in n_links:
            thr = linksets.throughput_vs_ada(n, ada, min_delay_s=dmin, bandwidth_bps=bandwidth_bps,
                                             construction=construction, **model_kwargs)
            frames.append(pd.DataFrame({"min_delay_ms": dmin * 1e3, "n_links": n, "ada_ms": ada * 1e3,
                                        "throughput_kbps": thr / 1e3}))
    return pd.concat(frames, ignore_index=True)


def fig8_thresholds(curves: pd.DataFrame, reference_links: int = 1, *,
                    reference_cap_kbps: float | None = None) -> pd.DataFrame:
    """ADA (ms) at which ``n`` links first fall to the ``reference_links`` throughput, per min delay.

    Rows: min delay (ms); columns: number of links.  ``NaN`` where the curve stays above
    the reference over the whole ADA range (no crossing in range).  ``reference_cap_kbps``: the
    reference line is at most this (e.g. the capacity of one link: the model predicts more than a
    100 kbit/s link can carry at a 5 ms round trip, see the model-check chapter).
    """
    if reference_cap_kbps is not None:
        check_positive("reference_cap_kbps", reference_cap_kbps)
    out = {}
    for dmin, g in curves.groupby("min_delay_ms"):
        ref = g[g.n_links == reference_links].sort_values("ada_ms").throughput_kbps.to_numpy()
        if reference_cap_kbps is not None:
            ref = np.minimum(ref, reference_cap_kbps)
        row = {}
        for n, h in g[g.n_links != reference_links].groupby("n_links"):
            h = h.sort_values("ada_ms")
            x = linksets.crossover(h.ada_ms.to_numpy(), h.throughput_kbps.to_numpy(), ref)
            row[n] = np.nan if x is None else x
        out[dmin] = row
    table = pd.DataFrame(out).T
    table.index.name = "min_delay_ms"
    table.columns.name = "n_links"
    return table


def fig8_sensitivity(min_delays_s, ada_s, *, constructions=linksets.CONSTRUCTIONS, transfer_sizes=(1_000_000,),
                     n_links: int = 4, progress: bool = False, **model_kwargs) -> pd.DataFrame:
    """ADA (ms) at which ``n_links`` fall to the 1-link throughput, per construction × transfer size × min delay.

    Columns: ``construction, transfer_bytes, min_delay_ms, crossing_ms`` (NaN: no crossing in range).
    """
    combos = [(c, E) for c in constructions for E in transfer_sizes]
    combos = _progress(combos, desc="Fig. 8 interpretations", enabled_=progress)
    rows = []
    for construction, E in combos:
        curves = fig8_curves(min_delays_s, ada_s, n_links=(1, n_links), construction=construction,
                             transfer_bytes=E, **model_kwargs)
        thr = fig8_thresholds(curves)
        for dmin, x in thr[n_links].items():
            rows.append(dict(construction=construction, transfer_bytes=E, min_delay_ms=dmin, crossing_ms=x))
    return pd.DataFrame(rows)


def best_links(curves: pd.DataFrame) -> pd.DataFrame:
    """The number of links with the highest throughput, per (min delay, ADA)."""
    wide = curves.pivot_table(index=["min_delay_ms", "ada_ms"], columns="n_links", values="throughput_kbps")
    return wide.idxmax(axis=1).rename("best_n_links").reset_index()


def plot_fig8(curves: pd.DataFrame, *, title: str | None = None, paper_crossings_ms: dict | None = None):
    """One panel per minimum delay (two per row), one line per number of links (kbit/s vs ADA in ms).

    ``paper_crossings_ms``: ``{min delay (ms): ADA (ms)}`` where the paper says four links fall to one
    link's throughput (sec. 6.2: 35.6 ms at 5 ms, 30.6 ms at 50 ms), drawn as dashed lines labelled as
    the paper's; ``None`` draws none.
    """
    delays = sorted(curves.min_delay_ms.unique())
    nrows, ncols = grid_shape(len(delays))
    fig, axes = plt.subplots(nrows, ncols, figsize=figsize(ncols, nrows, panel_height_in=2.6), sharey=True,
                             sharex=True, squeeze=False, constrained_layout=True)
    marks = {} if paper_crossings_ms is None else dict(paper_crossings_ms)
    for ax, dmin, panel in zip(axes.flat, delays, "abcdefgh"):
        g = curves[curves.min_delay_ms == dmin]
        for n, h in g.groupby("n_links"):
            ax.plot(h.ada_ms, h.throughput_kbps, color=LINK_COLOURS[n - 1], label=f"{n} link{'s' if n > 1 else ''}")
        if dmin in marks:  # the paper's number, drawn as the paper's (a target, never an input)
            ax.axvline(marks[dmin], color="0.3", ls="--", lw=1, label="paper: 4 links = 1 link")
            ax.text(marks[dmin], 0.04, f" paper: {marks[dmin]:g} ms", transform=ax.get_xaxis_transform(),
                    fontsize=MIN_FONT_PT, color="0.2", ha="left", va="bottom")
        ax.set_title(f"({panel}) min delay {dmin:g} ms")
    for ax in axes[-1, :]:
        ax.set_xlabel("ADA (ms)")
    for ax in axes[:, 0]:
        ax.set_ylabel("throughput (kbit/s)")
    for ax in list(axes.flat)[len(delays):]:
        ax.axis("off")
    axes.flat[len(delays) - 1].legend(loc="upper right")  # the panel with the lowest curves has room
    fig.suptitle(title or figure_name("Song", "8") + " — throughput vs ADA, 100 kbit/s links")
    return fig


# ----------------------------------------------------------------------------- Fig. 1

#: Colours of the three Chinese operators of Song Fig. 1 and of the technologies of the public data.
OPERATOR_COLOURS = {"China Telecom": "#1b9e77", "China Unicom": "#d95f02", "China Mobile": "#7570b3"}
TECHNOLOGY_COLOURS = {"5G NSA": "#1b9e77", "LTE": "#d95f02", "HSPA+": "#7570b3", "Starlink": "#666666"}


def plot_fig1(rtt: pd.DataFrame, rates: pd.DataFrame):
    """Song Fig. 1 from the (reconstructed) field data: (a) RTT boxes per modem, coloured by operator;
    (b) maximum and average download data rate per modem.

    ``rtt`` has the columns ``modem``, ``rtt_ms``; ``rates`` ``modem``, ``operator``, ``max_dr_mbps``,
    ``avg_dr_mbps`` (as :func:`cmtlab.papers.song.field.load_rtt_samples` / ``load_data_rates``).
    """
    from . import field

    fig, (ax_rtt, ax_dr) = plt.subplots(1, 2, figsize=figsize(2, panel_height_in=4.0),
                                        gridspec_kw=dict(width_ratios=[1.1, 1]))
    modems = list(field.MODEMS)
    data = [rtt.loc[rtt["modem"] == m, "rtt_ms"].to_numpy() for m in modems]
    op = rates.set_index(rates["modem"].astype(str))["operator"]
    box = ax_rtt.boxplot(data, tick_labels=modems, whis=1.5, patch_artist=True, widths=0.6,
                         medianprops=dict(color="black"),
                         flierprops=dict(marker=".", markersize=2, alpha=0.4, markeredgecolor="0.4"))
    for patch, m in zip(box["boxes"], modems):
        patch.set_facecolor(OPERATOR_COLOURS[op[m]])
        patch.set_alpha(0.6)
    ax_rtt.set_yscale("log")
    ax_rtt.set_ylim(20, 5000)
    ax_rtt.set_ylabel("RTT (ms, log scale)")
    ax_rtt.set_title("(a) RTT — boxes: IQR and median; whiskers: 1.5 IQR")

    x = np.arange(len(modems))
    r = rates.set_index(rates["modem"].astype(str)).loc[modems]
    ax_dr.bar(x - 0.2, r["max_dr_mbps"], 0.4, label="maximum (paper's values)", color="#4c72b0")
    ax_dr.bar(x + 0.2, r["avg_dr_mbps"], 0.4, label="average (chosen)", color="#a6cee3")
    for xi, v in zip(x, r["max_dr_mbps"]):
        ax_dr.text(xi - 0.2, v + 0.4, f"{v:g}", ha="center", fontsize=MIN_FONT_PT)
    ax_dr.set_xticks(x, [f"{m}\n{field.LINKS[m]}" for m in modems])
    ax_dr.set_ylabel("download data rate (Mbit/s)")
    ax_dr.set_title("(b) download data rate")
    # headroom above the tallest bar label: the legend sits there, never over a bar or its label
    ax_dr.set_ylim(0, 1.5 * float(np.nanmax(r["max_dr_mbps"])))
    ax_dr.legend(loc="upper right")
    handles = [plt.Rectangle((0, 0), 1, 1, color=c, alpha=0.6) for c in OPERATOR_COLOURS.values()]
    ax_rtt.legend(handles, [f"{k} ({'TD' if k == 'China Mobile' else 'FDD'}-LTE)" for k in OPERATOR_COLOURS],
                  loc="upper left")
    fig.suptitle(figure_name("Song", "1") + " — reconstruction (the paper's data is not public)")
    fig.tight_layout()
    return fig


def plot_fig1_public(ucc: pd.DataFrame, starlink, summary: pd.DataFrame):
    """The asymmetry of Song Fig. 1 in public data: (a) RTT (ping averages) of 5G NSA, LTE, HSPA+
    (Raca et al.) and Starlink (Laniewski et al.); (b) their download data rate (95th percentile
    and mean, from ``summary``: :func:`cmtlab.measurements.public.technology_summary` and
    ``starlink_summary`` concatenated)."""
    order = list(TECHNOLOGY_COLOURS)
    rtt_sets = [ucc.loc[ucc["technology"] == t, "rtt_avg_ms"].dropna().to_numpy() for t in order[:3]]
    rtt_sets.append(starlink.ping["rtt_avg_ms"].to_numpy())

    fig, (ax_rtt, ax_dr) = plt.subplots(1, 2, figsize=figsize(2, panel_height_in=4.0))
    box = ax_rtt.boxplot(rtt_sets, tick_labels=[f"{t}\n(n={len(s)})" for t, s in zip(order, rtt_sets)],
                         whis=1.5, patch_artist=True, widths=0.6, medianprops=dict(color="black"),
                         flierprops=dict(marker=".", markersize=2, alpha=0.4, markeredgecolor="0.4"))
    for patch, t in zip(box["boxes"], order):
        patch.set_facecolor(TECHNOLOGY_COLOURS[t])
        patch.set_alpha(0.6)
    ax_rtt.axvline(3.5, color="0.6", lw=0.8, ls="--")
    ax_rtt.set_yscale("log")
    ax_rtt.set_ylabel("RTT (ms, log scale)")
    ax_rtt.set_title("(a) RTT (ping averages)")

    x = np.arange(len(order))
    s = summary.loc[order]
    ax_dr.bar(x - 0.2, s["dl_p95_mbps"], 0.4, label="95th percentile", color="#4c72b0")
    ax_dr.bar(x + 0.2, s["dl_mean_mbps"], 0.4, label="mean", color="#a6cee3")
    ax_dr.axvline(2.5, color="0.6", lw=0.8, ls="--")
    ax_dr.set_yscale("log")
    ax_dr.set_xticks(x, order)
    ax_dr.set_ylabel("download data rate (Mbit/s, log scale)")
    ax_dr.set_title("(b) download data rate while transferring")
    ax_dr.legend(loc="upper center")
    fig.suptitle("Beyond " + figure_name("Song", "1") +
                 ": Raca et al. 2020 (5G NSA/LTE/HSPA+, GPL-3.0)\nLaniewski et al. 2024 (Starlink, CC BY-SA 4.0)")
    fig.tight_layout()
    return fig
