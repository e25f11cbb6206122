"""Link sets with a prescribed asymmetry, and the sweeps behind Song Figs. 7 and 8.

The paper sets "Average Delay Asymmetry" (eq. 22) and "Average Bandwidth Asymmetry"
(eq. 23) with a given minimum delay / bandwidth, but never says which delays and
bandwidths realise a given ADA/ABA.  Every construction here keeps the minimum fixed and
hits the requested asymmetry exactly (verified with eqs. 22–23 in the tests):

* ``"even"`` (default) — evenly spaced values ``min + (k-1) Δ``; since the mean pairwise
  distance of an arithmetic progression is ``Δ (n+1)/3``, ``Δ = 3·asym/(n+1)``;
* ``"one_outlier"`` — ``n-1`` links at the minimum and one at ``min + n·asym/2``;
* ``"two_groups"`` — ``⌊n/2⌋`` links at the minimum, the rest at ``min + x`` with
  ``x = asym·n(n-1) / (2 ⌊n/2⌋ ⌈n/2⌉)``;
* ``"geometric"`` — ``min·r^(k-1)`` with the ratio ``r >= 1`` solved (bisection) so that
  eq. 22/23 equals the request.  Unlike the additive constructions, its *shape* depends on
  the minimum: with a small minimum most of the spread sits in the last link.

``anchor`` says what stays fixed as the asymmetry grows (the paper only says "the minimum
delay and bandwidth are 5 ms and 100 kbps"):

* ``"minimum"`` (default) — every set has the stated minimum; the mean grows with the
  asymmetry (an ADA sweep is then also a sweep of the mean delay);
* ``"mean"`` — every set has the same mean, chosen so that the set with the *largest*
  requested asymmetry has the stated minimum (the minimum over the whole figure).

For two links all constructions coincide.  A single link has no asymmetry (eq. 22 is 0/0): its
"set" is just the minimum, and the 1-link curves of Figs. 7–8 are flat.

``pairing`` decides which delay goes with which bandwidth: ``"same"`` (default) gives
link *k* both the *k*-th smallest delay and the *k*-th smallest bandwidth (link 1, the
first in the round-robin order, is the 5 ms / 100 kbit/s link); ``"reverse"`` gives the
longest delay to the smallest bandwidth.
"""

from __future__ import annotations

import numpy as np

from ..._validate import as_float_array, check_choice, check_int, check_non_negative, check_positive
from .model import throughput_many

CONSTRUCTIONS = ("even", "one_outlier", "two_groups", "geometric")
#: Most links a set may have (the paper's figures use up to 8; the geometric construction is O(n²)).
MAX_LINKS = 1000
PAIRINGS = ("same", "reverse")
ANCHORS = ("minimum", "mean")


def spread(n_links: int, asymmetry, minimum: float, construction: str = "even",
           anchor: str = "minimum") -> np.ndarray:
    """Values (one row per requested asymmetry) with eq. 22/23 = ``asymmetry``.

    With ``anchor="minimum"`` every row has minimum ``minimum``; with ``anchor="mean"``
    every row has the same mean and the row of the largest requested asymmetry has minimum
    ``minimum`` (additive constructions only).  ``asymmetry`` may be a scalar (returns shape
    ``(n,)``) or 1-D (returns ``(len, n)``).  Units are whatever the caller uses (seconds
    for delays, bit/s for bandwidths); ``minimum`` and ``asymmetry`` are finite and >= 0, and
    a request whose values would not be finite raises ``ValueError``.
    """
    n = check_int("n_links", n_links, minimum=1, maximum=MAX_LINKS)
    check_choice("construction", construction, CONSTRUCTIONS)
    check_choice("anchor", anchor, ANCHORS)
    minimum = check_non_negative("minimum", minimum)
    with np.errstate(over="ignore", invalid="ignore"):
        out = _spread(n, asymmetry, minimum, construction, anchor)
    if not np.all(np.isfinite(out)):
        raise ValueError(f"asymmetry {asymmetry!r} with minimum {minimum!r} gives values beyond the float range; "
                         f"ask for a smaller asymmetry")
    return out


def _spread(n: int, asymmetry, minimum: float, construction: str, anchor: str) -> np.ndarray:
    if anchor == "mean":
        if construction == "geometric":
            raise ValueError("anchor='mean' needs an additive construction, not construction='geometric'")
        rows = np.atleast_2d(_spread(n, asymmetry, 0.0, construction, "minimum"))
        top = rows[int(np.argmax(np.atleast_1d(asymmetry)))]
        out = rows - rows.mean(axis=1, keepdims=True) + (minimum + top.mean())
        return out[0] if np.ndim(asymmetry) == 0 else out
    scalar = np.ndim(asymmetry) == 0
    a = as_float_array("asymmetry", asymmetry)
    if np.any(a < 0):
        raise ValueError(f"asymmetry must be >= 0, got min {a.min():g}")
    if n == 1:
        if np.any(a > 0):
            raise ValueError("asymmetry must be 0 for n_links=1: one link has no delay/bandwidth asymmetry")
        out = np.zeros((a.size, 1))
    elif construction == "even":
        out = np.arange(n)[None, :] * (3.0 * a[:, None] / (n + 1))
    elif construction == "one_outlier":
        out = np.zeros((a.size, n))
        out[:, -1] = n * a / 2.0
    elif construction == "two_groups":
        g1, g2 = n // 2, n - n // 2
        out = np.zeros((a.size, n))
        out[:, g1:] = (a * n * (n - 1) / (2.0 * g1 * g2))[:, None]
    else:  # geometric
        if not minimum > 0:
            raise ValueError(f"minimum must be > 0 for the geometric construction, got {minimum!r}")
        return _geometric(n, a, minimum)[0] if scalar else _geometric(n, a, minimum)
    out = out + minimum
    return out[0] if scalar else out


def _geometric(n: int, a: np.ndarray, minimum: float) -> np.ndarray:
    """Rows ``minimum · r^(0..n-1)`` whose mean pairwise distance is ``a`` (bisection on ``r``)."""
    k = np.arange(n)
    iu = np.triu_indices(n, 1)

    def mean_gap(r):  # eq. 22 of the row minimum * r**k, vectorised over r
        v = minimum * r[:, None] ** k[None, :]
        return np.abs(v[:, iu[0]] - v[:, iu[1]]).mean(axis=1)

    lo = np.ones_like(a)
    hi = np.full_like(a, 2.0)
    with np.errstate(invalid="ignore", over="ignore"):
        while np.any(mean_gap(hi) < a):  # grow the bracket; ends when mean_gap overflows (inf or nan)
            hi = np.where(mean_gap(hi) < a, hi * 2.0, hi)
        for _ in range(80):
            mid = 0.5 * (lo + hi)
            too_small = mean_gap(mid) < a
            lo = np.where(too_small, mid, lo)
            hi = np.where(too_small, hi, mid)
    r = 0.5 * (lo + hi)
    with np.errstate(invalid="ignore", over="ignore"):
        got = mean_gap(r)
    if not np.all(np.isfinite(got)) or not np.allclose(got, a, rtol=1e-9, atol=0):
        raise ValueError(f"asymmetry {a.tolist()!r} cannot be reached by the geometric construction of {n} links "
                         f"with minimum {minimum!r} within the float range; ask for a smaller asymmetry or fewer links")
    return minimum * r[:, None] ** k[None, :]


def delays_for_ada(n_links: int, ada_s, min_delay_s: float, construction: str = "even",
                   anchor: str = "minimum") -> np.ndarray:
    """Round-trip delays (s) with minimum ``min_delay_s`` and Average Delay Asymmetry ``ada_s`` (eq. 22)."""
    check_non_negative("min_delay_s", min_delay_s)
    return spread(n_links, ada_s, min_delay_s, construction, anchor)


def bandwidths_for_aba(n_links: int, aba_bps, min_bandwidth_bps: float, construction: str = "even",
                       anchor: str = "minimum") -> np.ndarray:
    """Bandwidths (bit/s) with minimum ``min_bandwidth_bps`` and Average Bandwidth Asymmetry ``aba_bps`` (eq. 23)."""
    check_positive("min_bandwidth_bps", min_bandwidth_bps)
    return spread(n_links, aba_bps, min_bandwidth_bps, construction, anchor)


def asymmetry_surface(n_links: int, ada_s, aba_bps, *, min_delay_s: float = 0.005,
                      min_bandwidth_bps: float = 100e3, construction: str = "even",
                      bandwidth_construction: str | None = None, pairing: str = "same",
                      delay_anchor: str = "minimum", bandwidth_anchor: str = "minimum",
                      **model_kwargs) -> np.ndarray:
    """Song Fig. 7: model throughput (bit/s) on the grid ADA × ABA, shape ``(len(ada_s), len(aba_bps))``.

    For ``n_links = 1`` there is no asymmetry: the single-link throughput at the minimum
    delay and bandwidth is returned on the whole grid (a flat surface).  ``delay_anchor`` and
    ``bandwidth_anchor`` are the ``anchor`` of :func:`spread` for each axis.
    ``model_kwargs`` go to :func:`cmtlab.papers.song.throughput_many`.
    """
    n = check_int("n_links", n_links, minimum=1, maximum=MAX_LINKS)
    check_choice("pairing", pairing, PAIRINGS)
    check_non_negative("min_delay_s", min_delay_s)
    check_positive("min_bandwidth_bps", min_bandwidth_bps)
    ada = as_float_array("ada_s", ada_s)
    aba = as_float_array("aba_bps", aba_bps)
    if n == 1:
        t = throughput_many([min_bandwidth_bps], [min_delay_s], **model_kwargs)[0]
        return np.full((ada.size, aba.size), t)
    D = delays_for_ada(n, ada, min_delay_s, construction, delay_anchor)  # (A, n)
    B = bandwidths_for_aba(n, aba, min_bandwidth_bps, bandwidth_construction or construction,
                           bandwidth_anchor)  # (K, n)
    if pairing == "reverse":
        B = B[:, ::-1]
    DD = np.repeat(D, aba.size, axis=0)
    BB = np.tile(B, (ada.size, 1))
    return throughput_many(BB, DD, **model_kwargs).reshape(ada.size, aba.size)


def throughput_vs_ada(n_links: int, ada_s, *, min_delay_s: float, bandwidth_bps: float = 100e3,
                      construction: str = "even", **model_kwargs) -> np.ndarray:
    """Song Fig. 8: throughput (bit/s) vs ADA for ``n_links`` equal-bandwidth links.

    One link has no ADA: its throughput (at ``min_delay_s``) is repeated for every ADA.
    """
    n = check_int("n_links", n_links, minimum=1, maximum=MAX_LINKS)
    ada = as_float_array("ada_s", ada_s)
    check_positive("bandwidth_bps", bandwidth_bps)
    check_non_negative("min_delay_s", min_delay_s)
    if n == 1:
        t = throughput_many([bandwidth_bps], [min_delay_s], **model_kwargs)[0]
        return np.full(ada.size, t)
    D = delays_for_ada(n, ada, min_delay_s, construction)
    B = np.full_like(D, float(bandwidth_bps))
    return throughput_many(B, D, **model_kwargs)


def crossover(x, y, reference) -> float | None:
    """First ``x`` at which the curve ``y(x)`` falls to ``reference`` (linear interpolation).

    ``reference`` is a scalar or an array like ``y``.  Returns ``None`` if ``y`` stays
    above the reference over the whole range, and ``x[0]`` if it starts at or below it.
    """
    x = as_float_array("x", x, min_len=2)
    y = as_float_array("y", y, min_len=2)
    if y.shape != x.shape:
        raise ValueError(f"x and y must have the same length, got {x.size} and {y.size}")
    try:
        r = np.broadcast_to(np.asarray(reference, dtype=float), y.shape)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"reference must be a number or an array like y ({y.size} values), got {reference!r}") from exc
    if not np.all(np.isfinite(r)):
        raise ValueError(f"reference must be finite, got {reference!r}")
    g = y - r
    if g[0] <= 0:
        return float(x[0])
    below = np.flatnonzero(g <= 0)
    if below.size == 0:
        return None
    j = below[0]
    return float(x[j - 1] + (x[j] - x[j - 1]) * g[j - 1] / (g[j - 1] - g[j]))
