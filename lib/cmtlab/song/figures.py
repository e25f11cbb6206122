"""Data and plots for Song Figs. 7 and 8 (compute functions return tidy data; plot functions draw it).

Units in the returned tables are spelled out in column names (``_ms``, ``_kbps``).
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from .._validate import as_float_array
from ..plotting import LINK_COLOURS, figure_name
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
    """Four heat-map panels (one per number of links) on a shared colour scale, kbit/s."""
    ada_ms = np.asarray(ada_s) * 1e3
    aba_kbps = np.asarray(aba_bps) / 1e3
    vmax = max(s.max() for s in surfaces.values()) / 1e3
    vmin = min(s.min() for s in surfaces.values()) / 1e3
    fig, axes = plt.subplots(1, len(surfaces), figsize=(3.0 * len(surfaces) + 1.2, 3.4), sharey=True,
                             constrained_layout=True)
    axes = np.atleast_1d(axes)
    for ax, (n, S), panel in zip(axes, surfaces.items(), "abcdefgh"):
        mesh = ax.pcolormesh(aba_kbps, ada_ms, S / 1e3, shading="nearest", vmin=vmin, vmax=vmax)
        if np.ptp(S) > 0:
            cs = ax.contour(aba_kbps, ada_ms, S / 1e3, levels=6, colors="white", linewidths=0.6)
            ax.clabel(cs, fontsize=7, fmt="%.0f")
        ax.set_title(f"({panel}) {n} link{'s' if n > 1 else ''}")
        ax.set_xlabel("Average Bandwidth Asymmetry (kbit/s)")
        ax.grid(False)
    axes[0].set_ylabel("Average Delay Asymmetry (ms)")
    fig.colorbar(mesh, ax=axes, label="model throughput (kbit/s)", shrink=0.9)
    fig.suptitle(title or figure_name("Song", "7") + " — throughput over delay and bandwidth asymmetry")
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
    """One panel per minimum delay, one line per number of links (throughput in kbit/s vs ADA in ms)."""
    delays = sorted(curves.min_delay_ms.unique())
    fig, axes = plt.subplots(1, len(delays), figsize=(3.1 * len(delays), 3.3), sharey=True,
                             constrained_layout=True)
    axes = np.atleast_1d(axes)
    for ax, dmin, panel in zip(axes, delays, "abcdefgh"):
        g = curves[curves.min_delay_ms == dmin]
        for n, h in g.groupby("n_links"):
            ax.plot(h.ada_ms, h.throughput_kbps, color=LINK_COLOURS[n - 1], label=f"{n} link{'s' if n > 1 else ''}")
        ax.set_title(f"({panel}) min delay {dmin:g} ms")
        ax.set_xlabel("Average Delay Asymmetry (ms)")
    axes[0].set_ylabel("model throughput (kbit/s)")
    axes[-1].legend(loc="upper right")
    fig.suptitle(title or figure_name("Song", "8") + " — throughput vs ADA, 100 kbit/s links")
    return fig
