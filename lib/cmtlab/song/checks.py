"""Model checks behind the book's model-check and errata chapters.

* :func:`pmf_check` — eqs. 5–6 and 9 (both variants) against the Monte-Carlo of
  :mod:`.montecarlo`, with the Monte-Carlo standard error;
* :func:`expected_ack_check` — eqs. 8, 11, 13 (``F(C) = E(A)``) against Monte-Carlo means;
* :func:`queue_position_check` — eq. 3 against event-driven FIFO links;
* :func:`errata_effects` — the key numbers of Figs. 7 and 8 under each variant.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._validate import check_int
from . import figures, montecarlo
from .model import Variant, queue_position
from .probabilities import ack_pmf, expected_acked

#: Variants the errata chapter compares: each erratum alone, both, neither.
ERRATA_VARIANTS = {
    "exact (default)": Variant("exact", "exact"),
    "printed eq. 3 only": Variant("as_printed", "exact"),
    "printed eqs. 9/11 only": Variant("exact", "as_printed"),
    "as printed": Variant("as_printed", "as_printed"),
}


def _progress(iterable, enabled: bool, desc: str):
    if not enabled:
        return iterable
    from tqdm.auto import tqdm
    return tqdm(iterable, desc=desc)


def pmf_check(c_values, m_ack: int = 2, *, n_samples: int = 200_000, seed: int = 0, sigmas: float = 5.0,
              progress: bool = False) -> pd.DataFrame:
    """For each ``C``: max |closed form − Monte-Carlo| of each conditional distribution.

    Columns: ``C, distribution (eqs. 5–6 | eq. 9), variant, sum, max_abs_error,
    tolerance`` (``sigmas`` binomial standard errors + 1e-3) and ``agrees``.
    """
    n_samples = check_int("n_samples", n_samples, minimum=1000)
    rows = []
    for C in _progress(list(c_values), progress, "Monte-Carlo over C"):
        C = check_int("C", C, minimum=1)
        mc = montecarlo.empirical_pmfs(C, m_ack, n_samples=n_samples, seed=seed + C)
        for variant in ("exact", "as_printed"):
            p1, p2 = ack_pmf(C, m_ack, variant)
            for label, p, emp, n in (("case I, eqs. 5–6", p1, mc["case1"], mc["n_case1"]),
                                     ("case II, eq. 9", p2, mc["case2"], mc["n_case2"])):
                se = np.sqrt(np.clip(p * (1 - p), 1e-12, None) / max(n, 1))
                err = np.abs(p - emp)
                rows.append(dict(C=C, distribution=label, variant=variant, sum=float(p.sum()),
                                 max_abs_error=float(err.max()), worst_k=int(err.argmax() + 1),
                                 agrees=bool(np.all(err <= sigmas * se + 1e-3))))
    return pd.DataFrame(rows)


def expected_ack_check(c_values, m_ack: int = 2, *, n_samples: int = 200_000, seed: int = 0,
                       progress: bool = False) -> pd.DataFrame:
    """``E'(A)`` (eq. 8), ``E''(A)`` (eq. 11) and ``F(C) = E(A)`` (eq. 13): exact, printed, Monte-Carlo."""
    rows = []
    for C in _progress(list(c_values), progress, "E(A) over C"):
        mc = montecarlo.empirical_pmfs(C, m_ack, n_samples=n_samples, seed=seed + 1000 + C)
        ex = expected_acked(C, m_ack, "exact")
        pr = expected_acked(C, m_ack, "as_printed")
        rows.append(dict(C=C, E1_closed=ex["E1"], E1_mc=mc["E1"], E2_exact=ex["E2"], E2_printed=pr["E2"],
                         E2_mc=mc["E2"], F_exact=ex["E"], F_printed=pr["E"], F_mc=mc["E"]))
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
