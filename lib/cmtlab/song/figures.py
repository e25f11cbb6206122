"""Data and plots for Song Figs. 7 and 8 (compute functions return tidy data; plot functions draw it).

Units in the returned tables are spelled out in column names (``_ms``, ``_kbps``).
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from .._validate import as_float_array
from ..plotting import LINK_COLOURS, MIN_FONT_PT, figsize, figure_name, grid_shape
from ..progress import progress as _progress
from . import linksets

# ----------------------------------------------------------------------------- Fig. 7


def fig7_surfaces(ada_s, aba_bps, *, n_links=(1, 2, 3, 4), **kwargs) -> dict[int, np.ndarray]:
    """Song Fig. 7: ``{n: throughput (bit/s) on the ADA × ABA grid}``; kwargs go to
    :func:`cmtlab.song.linksets.asymmetry_surface`."""
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

    One row per case: the case's keywords of :func:`cmtlab.song.linksets.asymmetry_surface`,
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


def fig8_thresholds(curves: pd.DataFrame, reference_links: int = 1) -> pd.DataFrame:
    """ADA (ms) at which ``n`` links first fall to the ``reference_links`` throughput, per min delay.

    Rows: min delay (ms); columns: number of links.  ``NaN`` where the curve stays above
    the reference over the whole ADA range (no crossing in range).
    """
    out = {}
    for dmin, g in curves.groupby("min_delay_ms"):
        ref = g[g.n_links == reference_links].sort_values("ada_ms")
        row = {}
        for n, h in g[g.n_links != reference_links].groupby("n_links"):
            h = h.sort_values("ada_ms")
            x = linksets.crossover(h.ada_ms.to_numpy(), h.throughput_kbps.to_numpy(),
                                   ref.throughput_kbps.to_numpy())
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


def plot_fig8(curves: pd.DataFrame, *, title: str | None = None):
    """One panel per minimum delay (two per row), one line per number of links (kbit/s vs ADA in ms)."""
    delays = sorted(curves.min_delay_ms.unique())
    nrows, ncols = grid_shape(len(delays))
    fig, axes = plt.subplots(nrows, ncols, figsize=figsize(ncols, nrows, panel_height_in=2.6), sharey=True,
                             sharex=True, squeeze=False, constrained_layout=True)
    for ax, dmin, panel in zip(axes.flat, delays, "abcdefgh"):
        g = curves[curves.min_delay_ms == dmin]
        for n, h in g.groupby("n_links"):
            ax.plot(h.ada_ms, h.throughput_kbps, color=LINK_COLOURS[n - 1], label=f"{n} link{'s' if n > 1 else ''}")
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
