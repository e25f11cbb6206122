"""Model checks behind the book's model-check and errata chapters.

* :func:`first_arrival_check` — eq. 4, ``P(F) = 1/C``, against the Monte-Carlo;
* :func:`pmf_check` — eqs. 5–6 and 9 (both variants) against the Monte-Carlo of
  :mod:`.montecarlo`, with the Monte-Carlo standard error;
* :func:`expected_ack_check` — eqs. 8, 11, 13 (``F(C) = E(A)``) against Monte-Carlo means;
* :func:`queue_position_check` — eq. 3 against event-driven FIFO links;
* :func:`errata_effects` — the key numbers of Figs. 7 and 8 under each variant.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..._validate import check_int
from ...progress import progress
from . import figures, montecarlo
from .model import Variant, queue_position, throughput_many
from .probabilities import ack_pmf, expected_acked

#: Variants the errata chapter compares: each erratum alone, both, neither.
ERRATA_VARIANTS = {
    "exact (default)": Variant("exact", "exact"),
    "printed eq. 3 only": Variant("as_printed", "exact"),
    "printed eqs. 9/11 only": Variant("exact", "as_printed"),
    "as printed": Variant("as_printed", "as_printed"),
}


def _progress(iterable, enabled: bool, desc: str):
    return progress(iterable, desc=desc, enabled_=enabled)


def pmf_check(c_values, m_ack: int = 2, *, n_samples: int = 200_000, seed: int = 0, sigmas: float = 5.0,
              progress: bool = False) -> pd.DataFrame:
    """For each ``C``: max abs(closed form − Monte-Carlo) of each conditional distribution.

    Columns: ``C, distribution (eqs. 5–6 | eq. 9), variant, sum, mc_rounds, max_abs_error,
    worst_k`` and ``agrees`` (every ``k`` within ``sigmas`` binomial standard errors + 1e-3;
    ``<NA>`` where the case cannot occur, i.e. case II with ``C = 1``).
    """
    n_samples = check_int("n_samples", n_samples, minimum=1000)
    rows = []
    for C in _progress(list(c_values), progress, "Monte-Carlo over C"):
        C = check_int("C", C, minimum=1, maximum=10_000)
        mc = montecarlo.empirical_pmfs(C, m_ack, n_samples=n_samples, seed=seed + C)
        for variant in ("exact", "as_printed"):
            p1, p2 = ack_pmf(C, m_ack, variant)
            for label, p, emp, n in (("case I, eqs. 5–6", p1, mc["case1"], mc["n_case1"]),
                                     ("case II, eq. 9", p2, mc["case2"], mc["n_case2"])):
                if n == 0:  # the case cannot occur (case II with C = 1): nothing to compare
                    rows.append(dict(C=C, distribution=label, variant=variant, sum=float(p.sum()), mc_rounds=0,
                                     max_abs_error=np.nan, worst_k=np.nan, agrees=pd.NA))
                    continue
                se = np.sqrt(np.clip(p * (1 - p), 1e-12, None) / n)
                err = np.abs(p - emp)
                rows.append(dict(C=C, distribution=label, variant=variant, sum=float(p.sum()), mc_rounds=n,
                                 max_abs_error=float(err.max()), worst_k=int(err.argmax() + 1),
                                 agrees=bool(np.all(err <= sigmas * se + 1e-3))))
    return pd.DataFrame(rows)


def pmf_summary(pmf: pd.DataFrame) -> pd.DataFrame:
    """:func:`pmf_check` per distribution and variant: the values of ``C`` checked, how many agree with
    the Monte-Carlo, the worst absolute error and the smallest sum of the distribution."""
    return (pmf.groupby(["distribution", "variant"])
            .agg(C_checked=("agrees", lambda a: int(a.notna().sum())),
                 C_agreeing=("agrees", lambda a: int((a == True).sum())),  # noqa: E712
                 worst_error=("max_abs_error", "max"), min_sum=("sum", "min"))
            .rename(columns={"C_checked": "values of C checked", "C_agreeing": "agreeing with the Monte-Carlo",
                             "worst_error": "worst absolute error", "min_sum": "smallest sum"}))


def first_arrival_check(c_values=(4, 8), m_ack: int = 2, *, n_samples: int = 200_000, seed: int = 0) -> dict:
    """``{C: Monte-Carlo P(F)}``: how often the first segment of a round of ``C`` arrives first (eq. 4 says
    ``1/C``), each ``C`` from a Monte-Carlo of ``n_samples`` arrival orders seeded with ``seed``."""
    return {int(C): float(montecarlo.empirical_pmfs(C, m_ack, n_samples=n_samples, seed=seed)["P_F"])
            for C in c_values}


def expected_ack_check(c_values, m_ack: int = 2, *, n_samples: int = 200_000, seed: int = 0,
                       progress: bool = False) -> pd.DataFrame:
    """``E'(A)`` (eq. 8), ``E''(A)`` (eq. 11) and ``F(C) = E(A)`` (eq. 13): exact, printed, Monte-Carlo, with the
    standard error of each Monte-Carlo mean of a case (``E1_mc_se``, ``E2_mc_se``: the sample standard deviation
    of ``A`` in that case over the square root of its rounds; NaN where the case cannot occur)."""
    rows = []
    k_all = np.arange(1, max(list(c_values) + [1]) + 1)
    for C in _progress(list(c_values), progress, "E(A) over C"):
        mc = montecarlo.empirical_pmfs(C, m_ack, n_samples=n_samples, seed=seed + 1000 + C)
        ex = expected_acked(C, m_ack, "exact")
        pr = expected_acked(C, m_ack, "as_printed")
        k = k_all[:C]
        se = {}
        for case, n in (("case1", mc["n_case1"]), ("case2", mc["n_case2"])):
            p = mc[case]
            se[case] = float(np.sqrt(max(k ** 2 @ p - (k @ p) ** 2, 0.0) / n)) if n > 1 else float("nan")
        rows.append(dict(C=C, E1_closed=ex["E1"], E1_mc=mc["E1"], E1_mc_se=se["case1"], E2_exact=ex["E2"],
                         E2_printed=pr["E2"], E2_mc=mc["E2"], E2_mc_se=se["case2"], F_exact=ex["E"], F_printed=pr["E"],
                         F_mc=mc["E"]))
    return pd.DataFrame(rows)


def queue_position_check(C: int, bandwidths_bps, delays_s, *, first_link: int = 0,
                         segment_bytes: float = 536) -> pd.DataFrame:
    """Arrival time of each SGM_{i,j}: event-driven FIFO links vs eq. 3 (exact and printed), in ms."""
    b = np.asarray(bandwidths_bps, dtype=float)
    d = np.asarray(delays_s, dtype=float)
    n = b.size
    j = np.arange(1, C + 1)
    link = (first_link + j - 1) % n
    fifo = montecarlo.fifo_arrival_times(C, first_link, b, d, segment_bytes)
    tx = segment_bytes * 8.0 / b[link]
    return pd.DataFrame({
        "j": j, "link": link + 1,
        "fifo_ms": fifo * 1e3,
        "eq3_exact_ms": (queue_position(j, n, "exact") * tx + d[link]) * 1e3,
        "eq3_printed_ms": (queue_position(j, n, "as_printed") * tx + d[link]) * 1e3,
    })


def errata_effects(*, grid_points: int = 36, ada_step_ms: float = 0.5, transfer_bytes: float = 1_000_000,
                   variants: dict | None = None, progress: bool = False) -> pd.DataFrame:
    """Key numbers of Song Figs. 7(d) and 8 under each variant (rows) — the errata's effect.

    Fig. 7 uses the paper's axes (ADA 0–35 ms, ABA 0–700 kbit/s, 5 ms / 100 kbit/s minima);
    Fig. 8 the 10–90 ms ADA sweep at 100 kbit/s with minimum delays 5 and 50 ms.
    """
    variants = variants or ERRATA_VARIANTS
    ada7 = np.linspace(0.0, 0.035, grid_points)
    aba7 = np.linspace(0.0, 700e3, grid_points)
    ada8 = np.arange(10.0, 90.0 + 1e-9, ada_step_ms) / 1e3
    rows = []
    for name, variant in _progress(list(variants.items()), progress, "variants"):
        kw = dict(variant=variant, transfer_bytes=transfer_bytes)
        r7 = figures.fig7_ratios(figures.fig7_surfaces(ada7, aba7, n_links=(4,), **kw)[4])
        curves = figures.fig8_curves([0.005, 0.05], ada8, **kw)
        thr = figures.fig8_thresholds(curves)
        one = curves[(curves.n_links == 1)].groupby("min_delay_ms").throughput_kbps.first()
        rows.append({"variant": name,
                     "Fig. 7(d): fall over ABA at max ADA (x)": r7["aba_fall_at_max_ada"],
                     "Fig. 7(d): fall over ADA at max ABA (x)": r7["ada_fall_at_max_aba"],
                     "Fig. 8: 4 links = 1 link, min delay 5 ms (ADA ms)": thr.loc[5.0, 4],
                     "Fig. 8: 4 links = 1 link, min delay 50 ms (ADA ms)": thr.loc[50.0, 4],
                     "1 link, 5 ms, 100 kbit/s (kbit/s)": one.loc[5.0]})
    return pd.DataFrame(rows).set_index("variant")


# ----------------------------------------------------------------------------- interpretations


def fractional_c_effect(bandwidths_bps, delays_s, **model_kwargs) -> pd.DataFrame:
    """Throughput (kbit/s) of each link set (rows of the 2-D inputs) with fractional ``C_i``
    interpolated (default) and rounded, and their relative difference."""
    b = np.atleast_2d(np.asarray(bandwidths_bps, dtype=float))
    d = np.atleast_2d(np.asarray(delays_s, dtype=float))
    interp = throughput_many(b, d, fractional_c="interpolate", **model_kwargs)
    rnd = throughput_many(b, d, fractional_c="round", **model_kwargs)
    return pd.DataFrame({"n_links": b.shape[1], "interpolate_kbps": interp / 1e3, "round_kbps": rnd / 1e3,
                         "relative_difference": rnd / interp - 1})


def transfer_size_effect(bandwidths_bps, delays_s, transfer_sizes, **model_kwargs) -> pd.DataFrame:
    """Model throughput (kbit/s) of one link set as a function of the transfer size ``E`` (bytes)."""
    rows = [dict(transfer_bytes=float(E), throughput_kbps=float(throughput_many(bandwidths_bps, delays_s,
                                                                                transfer_bytes=E, **model_kwargs)[0]) / 1e3)
            for E in transfer_sizes]
    return pd.DataFrame(rows)


def capacity_ratio(bandwidths_bps, delays_s, **model_kwargs) -> pd.DataFrame:
    """Single-link model throughput divided by the link bandwidth, on a bandwidth × delay grid.

    A physically possible throughput is below 1 (below ``s/(s+40)`` counting TCP/IP headers).
    Columns: ``bandwidth_kbps, delay_ms, throughput_kbps, ratio``.
    """
    bw = np.asarray(bandwidths_bps, dtype=float)
    dl = np.asarray(delays_s, dtype=float)
    B, D = np.meshgrid(bw, dl, indexing="ij")
    thr = throughput_many(B.reshape(-1, 1), D.reshape(-1, 1), **model_kwargs)
    return pd.DataFrame({"bandwidth_kbps": B.ravel() / 1e3, "delay_ms": D.ravel() * 1e3,
                         "throughput_kbps": thr / 1e3, "ratio": thr / B.ravel()})


# ----------------------------------------------------------------------------- figures


def plot_pmf_check(C: int, m_ack: int = 2, *, n_samples: int = 200_000, seed: int = 0):
    """Both conditional ACK distributions at ``C``: exact and printed closed forms vs Monte-Carlo."""
    import matplotlib.pyplot as plt

    mc = montecarlo.empirical_pmfs(C, m_ack, n_samples=n_samples, seed=seed)
    k = np.arange(1, C + 1)
    from ...report.style import figsize

    fig, axes = plt.subplots(1, 2, figsize=figsize(2, panel_height_in=3.2), constrained_layout=True)
    for ax, case, title in ((axes[0], 0, f"case I, eqs. 5–6: P(A = k | F), C = {C}"),
                            (axes[1], 1, f"case II, eq. 9: P(q = k | F̄), C = {C}")):
        exact = ack_pmf(C, m_ack, "exact")[case]
        printed = ack_pmf(C, m_ack, "as_printed")[case]
        ax.bar(k, exact, color="#a6cee3", label="closed form (exact)")
        ax.plot(k, printed, "o", color="#d95f02", label="as printed")
        ax.plot(k, mc["case1" if case == 0 else "case2"], "x", color="black", ms=7,
                label=f"Monte-Carlo ({n_samples:,} rounds)")
        ax.set_xlabel("k (segments acknowledged)")
        ax.set_title(title, fontsize=9)
        ax.set_xticks(k)
    axes[0].set_ylabel("probability")
    axes[1].legend(loc="upper right", fontsize=9)
    return fig


def plot_ack_function(expected: pd.DataFrame):
    """``F(C) = E(A_{i+1})`` (eq. 13): exact, printed and Monte-Carlo (from :func:`expected_ack_check`)."""
    import matplotlib.pyplot as plt

    from ...report.style import figsize

    fig, ax = plt.subplots(figsize=figsize(1, panel_height_in=3.2), constrained_layout=True)
    ax.plot(expected.C, expected.F_exact, "-", color="#1b9e77", label="exact (eqs. 8, 11 corrected)")
    ax.plot(expected.C, expected.F_printed, "--", color="#d95f02", label="as printed")
    ax.plot(expected.C, expected.F_mc, "x", color="black", label="Monte-Carlo")
    ax.set_xlabel("C (segments sent in the round)")
    ax.set_ylabel("F(C) = E(A) (segments)")
    ax.legend(fontsize=9)
    return fig


def plot_transfer_size_effect(curves: dict[str, pd.DataFrame], default_bytes: float):
    """Model throughput against the transfer size E, one line per link set (``{label: frame}``, frames
    of :func:`transfer_size_effect`), the book's default E marked."""
    import matplotlib.pyplot as plt

    from ...report.style import figsize

    fig, ax = plt.subplots(figsize=figsize(1, panel_height_in=3.2), constrained_layout=True)
    for (label, te), marker in zip(curves.items(), "osd^v"):
        ax.semilogx(te.transfer_bytes, te.throughput_kbps, f"{marker}-", label=label)
    ax.axvline(default_bytes, color="0.5", ls=":", label=f"book default E = {default_bytes / 1e6:g} MB")
    ax.set_xlabel("transfer size E (bytes)")
    ax.set_ylabel("model throughput (kbit/s)")
    ax.legend()
    return fig


def plot_rounds(rounds: pd.DataFrame):
    """The model's rounds of one transfer (:func:`cmtlab.papers.song.rounds`): (left) window ``w_i`` (eq. 15)
    and segments ``C_i`` (eq. 16) per round; (right) bytes sent against the model time."""
    import matplotlib.pyplot as plt

    from ...report.style import figsize

    fig, ax = plt.subplots(1, 2, figsize=figsize(2, panel_height_in=3.2), constrained_layout=True)
    ax[0].plot(rounds["round"], rounds["w"], label="$w_i$ (eq. 15)")
    ax[0].plot(rounds["round"], rounds["C"], label="$C_i$ (eq. 16)")
    ax[0].set_xlabel("round i")
    ax[0].set_ylabel("segments")
    ax[0].set_yscale("log")
    ax[0].legend()
    ax[1].plot(rounds["T_hat_s"], rounds["sent_bytes"] / 1e3)
    ax[1].set_xlabel("model time $\\hat T$ (s)")
    ax[1].set_ylabel("bytes sent (kB)")
    return fig
