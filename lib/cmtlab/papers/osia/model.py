"""OSIA's analysis (Wang, Liao, Li, sec. 3): preprocessing, progressive water-filling, leaky buckets.

Notation of the paper.  After preprocessing (sec. 3.2) there are ``N`` paths with one-way
delays ``d_1 < d_2 < … < d_N`` (s) and rates ``b_i`` (bit/s).  The bucket model (Fig. 4):
bucket ``i`` has cross-section ``b_i`` and is pre-loaded to level ``d_i``; the *level* of a
bucket is a time at the receiver, so fluid poured into bucket ``i`` up to level ``L`` is the data
path ``i`` delivers by time ``L`` when it sends from time 0.  Filling all buckets to a common
level ``L* >= d_N`` (eq. 7) gives

* ``W = L* Σ b_i − Σ b_i d_i`` (eq. 11), the share ``q_i = b_i (L* − d_i)/W`` of path ``i`` (eq. 8);
* chunk ``h`` = the fluid between levels ``d_h`` and ``d_{h+1}`` (``d_{N+1} = L*``): path
  ``i <= h`` carries ``b_i (d_{h+1} − d_h)`` of it (eqs. 9–10), so ``g_ih = b_i / Σ_{j<=h} b_j``
  (eq. 12) and the chunk's fraction of ``W`` is ``f_h = (d_{h+1} − d_h) Σ_{i<=h} b_i / W``;
* path ``i`` sends chunk ``h`` during ``[d_h − d_i, d_{h+1} − d_i]`` (sec. 3.2, item (4), and
  Theorem 1 / eq. 1), i.e. ``ST_i^h = d_h − d_i``; chunk ``h`` then arrives during
  ``[d_h, d_{h+1}]`` on every path that carries it.

Two printed equations disagree with this model (checked in :mod:`cmtlab.papers.osia.checks`, shown on the errata
page); the consistent form is the default, the printed one selectable:

* **eq. 13** prints ``f_h = Σ_{i<=h} b_i (d_{h+1} − d_i) / Σ_{i<=N} b_i (d_N − d_i)``: that is the
  fluid below level ``d_{h+1}``, i.e. the *cumulative* share of chunks ``1…h`` (the border
  positions on the "actual data" axis of Fig. 5), not the share of chunk ``h``; read as chunk
  fractions the printed values sum to more than 1 (eq. 6 demands 1).  ``form="printed"``.
  Sec. 4.1 prints yet another ``f_2 = b_2 (d_3 − d_2)/Σ…`` (``form="sec4.1"``, ``h <= 2`` only).
* **eq. 3** (Corollary 1) prints ``ST_i^h = ST_{i+1}^{h+1}``; with eq. 1 this forces
  ``d_{h+1} − d_h = d_{i+1} − d_i``, true only for evenly spaced delays.  ``form="printed"`` of
  :func:`start_times` propagates eq. 3 from the last chunk, ``ST_i^h = ST_{N−h+i}^N = d_N − d_{N−h+i}``.

Preprocessing (sec. 3.2): paths are sorted by delay; paths whose delays are equal "accurate
to 0.01 s" are merged (rates added).  The paper does not say how; this library's default
(``merge="round"``) compares the delays rounded to the nearest multiple of ``resolution_s``
(0.01 s), the literal reading; ``merge="window"`` merges a path into the current group when its
delay is less than ``resolution_s`` above the group's smallest delay (no boundary effect at
x.xx5 s, no chaining).  The merged path takes the group's smallest delay (the paper's
``d_i = d'_i``; ``merged_delay="max"`` takes the largest).  Step (3) of the paper ends with
"``b_1 < b_2 < … < b_N``"; after sorting by delay the *delays* increase strictly, the rates need
not (Table 1, four paths), so that is read as a typo for ``d_1 < … < d_N``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..._validate import as_float_array, check_choice, check_non_negative, check_number, check_positive

#: Delay resolution of the preprocessing (sec. 3.2: "accurate to 0.01 s").
DELAY_RESOLUTION_S = 0.01

#: Largest one-way delay (s) a path may have, and the smallest non-zero merge resolution (s): the
#: preprocessing divides one by the other.
MAX_DELAY_S = 1e9
MIN_RESOLUTION_S = 1e-12

#: Default RTO deviation factor K of eq. 15 (Theorem 2: "typically K = 4").
K_DEFAULT = 4.0

FRACTION_FORMS = ("consistent", "printed", "sec4.1")
START_FORMS = ("consistent", "printed")
MERGE_RULES = ("round", "window")


@dataclass(frozen=True)
class PathSet:
    """Preprocessed paths (sec. 3.2): strictly increasing ``delays_s``, ``rates_bps`` (summed over merges).

    ``members[k]`` lists the indices (into the caller's original lists) merged into path ``k``;
    ``member_rates_bps[k]`` their rates, used to split a merged path's share in proportion to rate.
    """

    delays_s: np.ndarray
    rates_bps: np.ndarray
    members: tuple
    member_rates_bps: tuple

    @property
    def n(self) -> int:
        return int(self.delays_s.size)

    def to_frame(self) -> pd.DataFrame:
        return pd.DataFrame({"path": np.arange(1, self.n + 1), "delay_ms": self.delays_s * 1e3,
                             "rate_mbps": self.rates_bps / 1e6,
                             "original paths": [", ".join(str(m + 1) for m in g) for g in self.members]})


def _check_paths(rates_bps, delays_s):
    b = as_float_array("rates_bps", rates_bps)
    d = as_float_array("delays_s", delays_s)
    if b.shape != d.shape:
        raise ValueError(f"rates_bps and delays_s must have one value per path, got {b.size} and {d.size}")
    if np.any(b <= 0):
        raise ValueError(f"rates_bps must be > 0 (bit/s), got {b.tolist()}")
    if np.any(d < 0) or np.any(d > MAX_DELAY_S):
        raise ValueError(f"delays_s must be >= 0 and <= {MAX_DELAY_S:g} (seconds), got {d.tolist()}")
    return b, d


def preprocess(rates_bps, delays_s, *, resolution_s: float = DELAY_RESOLUTION_S, merge: str = "round",
               merged_delay: str = "min") -> PathSet:
    """Sort paths by delay and merge equal delays (sec. 3.2, steps 1–3); see the module docstring.

    ``resolution_s = 0`` merges only exactly equal delays.  Raises ValueError on empty,
    mismatched, non-positive rates or negative delays.
    """
    b, d = _check_paths(rates_bps, delays_s)
    res = check_non_negative("resolution_s", resolution_s)
    if 0 < res < MIN_RESOLUTION_S:
        raise ValueError(f"resolution_s must be 0 (merge equal delays only) or >= {MIN_RESOLUTION_S:g} s, got {res!r}")
    check_choice("merge", merge, MERGE_RULES)
    check_choice("merged_delay", merged_delay, ("min", "max"))
    order = np.argsort(d, kind="stable")
    groups: list[list[int]] = []
    for k in order:
        if groups:
            first = groups[-1][0]
            if res == 0:
                same = d[k] == d[first]
            elif merge == "round":
                same = np.floor(d[k] / res + 0.5) == np.floor(d[first] / res + 0.5)
            else:
                same = d[k] - d[first] < res
            if same:
                groups[-1].append(int(k))
                continue
        groups.append([int(k)])
    pick = min if merged_delay == "min" else max
    delays = np.array([pick(d[g]) for g in groups])
    rates = np.array([b[g].sum() for g in groups])
    return PathSet(delays, rates, tuple(tuple(g) for g in groups), tuple(tuple(b[g]) for g in groups))


def _as_pathset(paths) -> PathSet:
    if isinstance(paths, PathSet):
        return paths
    if isinstance(paths, tuple) and len(paths) == 2:
        return preprocess(*paths)
    raise ValueError("paths must be a cmtlab.papers.osia.PathSet or a (rates_bps, delays_s) tuple")


def _unit_scaled(ps: PathSet, level_s: float) -> tuple[np.ndarray, np.ndarray, float]:
    """``(b, d, L)`` divided by powers of two that bring the largest rate and ``max(d_N, L*)`` into
    [0.5, 1): scale-free quantities (fractions, shares, path probabilities) computed from them
    cannot overflow whatever the rates and delays, and are bit-for-bit those of the unscaled
    values whenever those do not overflow (scaling by a power of two is exact)."""
    b_exp = np.frexp(ps.rates_bps.max())[1]
    t_exp = np.frexp(max(float(ps.delays_s[-1]), float(level_s)))[1] if max(ps.delays_s[-1], level_s) > 0 else 0
    return np.ldexp(ps.rates_bps, -b_exp), np.ldexp(ps.delays_s, -t_exp), float(np.ldexp(level_s, -t_exp))


def _level(ps: PathSet, level_s) -> float:
    if level_s is None:
        return float(ps.delays_s[-1])
    L = check_number("level_s", level_s)
    if L < ps.delays_s[-1] - 1e-12:
        raise ValueError(f"level_s (L*) must be >= the largest delay d_N = {ps.delays_s[-1]:g} s, got {L:g}")
    return L


def borders_s(paths, level_s=None) -> np.ndarray:
    """Chunk borders on the level (receiver time) axis: ``d_1, …, d_N, L*`` (N + 1 values)."""
    ps = _as_pathset(paths)
    return np.append(ps.delays_s, _level(ps, level_s))


def _data_bits(b: np.ndarray, d: np.ndarray, L: float) -> float:
    return float(L * b.sum() - (b * d).sum())


def total_data_bits(paths, level_s) -> float:
    """``W = L* Σ b_i − Σ b_i d_i`` (eq. 11), bits: the fluid the buckets hold at common level ``L*``.

    ``ValueError`` if ``W`` exceeds the float range (rates × delays beyond about 1e308 bits).
    """
    ps = _as_pathset(paths)
    L = _level(ps, level_s)
    with np.errstate(over="ignore", invalid="ignore"):
        W = _data_bits(ps.rates_bps, ps.delays_s, L)
    if not np.isfinite(W):
        raise ValueError(f"rates_bps × level_s are too large: W = L* Σ b_i − Σ b_i d_i exceeds the float range "
                         f"(largest rate {ps.rates_bps.max():g} bit/s, L* = {L:g} s)")
    return W


def path_shares(paths, level_s) -> np.ndarray:
    """``q_i = b_i (L* − d_i) / W`` (eq. 8): share of ``W`` carried by path ``i`` (any finite rates and delays)."""
    ps = _as_pathset(paths)
    L = _level(ps, level_s)
    b, d, L = _unit_scaled(ps, L)
    W = _data_bits(b, d, L)
    if W <= 0:
        raise ValueError("level_s must exceed the smallest delay so that W > 0")
    return b * (L - d) / W


def chunk_bits(paths, level_s=None) -> np.ndarray:
    """``x[i, h]`` = bits path ``i`` carries in chunk ``h`` (0-based): ``b_i (d_{h+1} − d_h)`` for ``i <= h``
    (eq. 10), else 0.

    ``level_s`` (``L*``) closes the last chunk; the default ``L* = d_N`` leaves it empty
    (the pre-split part only: the N-th chunk "is transmitted continuously", sec. 3.3).
    """
    ps = _as_pathset(paths)
    return _chunk_bits(ps.rates_bps, ps.delays_s, _level(ps, level_s))


def _chunk_bits(b: np.ndarray, d: np.ndarray, L: float) -> np.ndarray:
    width = np.diff(np.append(d, L))  # d_{h+1} - d_h, h = 1..N
    i = np.arange(b.size)[:, None]
    h = np.arange(b.size)[None, :]
    return np.where(i <= h, b[:, None] * width[None, :], 0.0)


def path_probabilities(paths) -> np.ndarray:
    """``g[i, h] = b_i / Σ_{j<=h} b_j`` for ``i <= h``, else 0 (eq. 12); columns sum to 1."""
    ps = _as_pathset(paths)
    i = np.arange(ps.n)[:, None]
    h = np.arange(ps.n)[None, :]
    b = _unit_scaled(ps, ps.delays_s[-1])[0]  # sums of huge rates cannot overflow
    csum = np.cumsum(b)
    return np.where(i <= h, b[:, None] / csum[None, :], 0.0)


def chunk_fractions(paths, level_s=None, *, form: str = "consistent") -> np.ndarray:
    """Chunk fractions ``f_h``, h = 1…N (index 0…N−1).

    ``"consistent"`` (default): ``f_h = (d_{h+1} − d_h) Σ_{i<=h} b_i / W(L*)`` — the bucket model,
    summing to 1 (eq. 6).  With the default ``L* = d_N`` the denominator is eq. 13's
    ``Σ b_i (d_N − d_i)`` and ``f_N = 0``.

    ``"printed"``: eq. 13 as printed, ``Σ_{i<=h} b_i (d_{h+1} − d_i) / Σ_i b_i (d_N − d_i)`` for
    ``h <= N−1`` (``f_N`` is not printed; returned as NaN).  It equals the cumulative consistent
    fraction ``f_1 + … + f_h``.

    ``"sec4.1"``: the worked example of sec. 4.1, ``f_1 = b_1 (d_2 − d_1)/Σ``,
    ``f_2 = b_2 (d_3 − d_2)/Σ`` (NaN beyond h = 2, which the example does not give).
    """
    ps = _as_pathset(paths)
    check_choice("form", form, FRACTION_FORMS)
    # in units of the largest rate and of max(d_N, L*): fractions of any finite rates and delays
    if form == "consistent":
        b, d, L = _unit_scaled(ps, _level(ps, level_s))
        W = _data_bits(b, d, L)
        if W <= 0:
            raise ValueError("the paths must have distinct delays (N >= 2) or level_s > d_1 so that W > 0")
        return _chunk_bits(b, d, L).sum(axis=0) / W
    if ps.n < 2:
        raise ValueError("the printed forms need at least two paths with different delays")
    b, d, _ = _unit_scaled(ps, ps.delays_s[-1])
    denom = float((b * (d[-1] - d)).sum())
    out = np.full(ps.n, np.nan)
    if form == "printed":
        for h in range(ps.n - 1):
            out[h] = (b[: h + 1] * (d[h + 1] - d[: h + 1])).sum() / denom
    else:
        out[0] = b[0] * (d[1] - d[0]) / denom
        if ps.n >= 3:
            out[1] = b[1] * (d[2] - d[1]) / denom
    return out


def start_times(paths, *, form: str = "consistent") -> np.ndarray:
    """``ST[i, h]``: when path ``i`` starts sending chunk ``h`` (s, sender clock; NaN for ``i > h``).

    ``"consistent"``: ``ST_i^h = d_h − d_i`` (sec. 3.2 item (4); eqs. 1 and 2 hold).
    ``"printed"``: Corollary 1 (eq. 3, ``ST_i^h = ST_{i+1}^{h+1}``) propagated from the last chunk,
    whose start times eq. 1 fixes (``ST_i^N = d_N − d_i``): ``ST_i^h = d_N − d_{N−h+i}``.
    Both agree on the diagonal (``ST_h^h = 0``) and for evenly spaced delays.
    """
    ps = _as_pathset(paths)
    check_choice("form", form, START_FORMS)
    d = ps.delays_s
    n = ps.n
    st = np.full((n, n), np.nan)
    for h in range(n):
        for i in range(h + 1):
            st[i, h] = d[h] - d[i] if form == "consistent" else d[-1] - d[n - 1 - h + i]
    return st


def leaky_buckets(paths, level_s=None, *, fraction_form: str = "consistent",
                  start_form: str = "consistent") -> pd.DataFrame:
    """The cascaded leaky buckets with faucets (sec. 4.1, Fig. 6) as a plan: one row per (chunk, faucet).

    Bucket ``h`` receives the fraction ``f_h`` of the period's data; its faucet ``i`` leaks the
    share ``g_ih`` of it to path ``i`` at the path's rate ``b_i``, from ``ST_i^h`` for
    ``f_h g_ih W / b_i`` seconds.  Columns: ``chunk, path, g, f, bits, rate_bps, start_s, end_s,
    arrive_start_s, arrive_end_s`` (arrivals = sending times + ``d_i``, the fluid model).
    With ``fraction_form="printed"`` the chunk sizes follow eq. 13 read as chunk fractions of the
    pre-split data ``Σ b_i (d_N − d_i)`` (only ``h <= N−1``).
    """
    ps = _as_pathset(paths)
    L = _level(ps, level_s)
    g = path_probabilities(ps)
    st = start_times(ps, form=start_form)
    if fraction_form == "consistent":
        f = chunk_fractions(ps, L)
        W = total_data_bits(ps, L)
    else:
        f = chunk_fractions(ps, form=fraction_form)
        W = total_data_bits(ps, ps.delays_s[-1])
    rows = []
    for h in range(ps.n):
        if not np.isfinite(f[h]):
            continue
        for i in range(h + 1):
            bits = f[h] * g[i, h] * W
            dur = bits / ps.rates_bps[i]
            rows.append(dict(chunk=h + 1, path=i + 1, g=g[i, h], f=f[h], bits=bits, rate_bps=ps.rates_bps[i],
                             start_s=st[i, h], end_s=st[i, h] + dur, arrive_start_s=st[i, h] + ps.delays_s[i],
                             arrive_end_s=st[i, h] + dur + ps.delays_s[i]))
    return pd.DataFrame(rows)


def fluid_order_violation_s(plan: pd.DataFrame) -> dict:
    """How far a leaky-bucket plan is from in-order arrival in the fluid model (0 = in order).

    * ``overlap_s``: largest time a path would have to send two chunks at once (its chunk ``h``
      still sending when its chunk ``h+1`` starts);
    * ``disorder_s``: largest amount by which some part of chunk ``h`` arrives after some part
      of chunk ``h+1`` starts arriving (max over ``h`` of ``max arrive_end(h) − min arrive_start(h+1)``);
    * ``misalign_s``: largest spread of the arrival windows within one chunk (a fluid chunk
      interleaved over its paths in proportion arrives in order only if every path delivers it
      over the same window).
    """
    overlap = 0.0
    for _, grp in plan.groupby("path"):
        grp = grp.sort_values("chunk")
        if len(grp) > 1:
            overlap = max(overlap, float((grp.end_s.to_numpy()[:-1] - grp.start_s.to_numpy()[1:]).max()))
    disorder = 0.0
    misalign = 0.0
    chunks = sorted(plan.chunk.unique())
    for h in chunks:
        c = plan[plan.chunk == h]
        misalign = max(misalign, float(c.arrive_start_s.max() - c.arrive_start_s.min()),
                       float(c.arrive_end_s.max() - c.arrive_end_s.min()))
        if h + 1 in chunks:
            nxt = plan[plan.chunk == h + 1]
            disorder = max(disorder, float(c.arrive_end_s.max() - nxt.arrive_start_s.min()))
    return dict(overlap_s=max(overlap, 0.0), disorder_s=max(disorder, 0.0), misalign_s=misalign)


def buckets_frame(paths, level_s) -> pd.DataFrame:
    """The bucket picture of Fig. 4: per path the pre-load (``b_i d_i``), and per chunk the fluid level band."""
    ps = _as_pathset(paths)
    L = _level(ps, level_s)
    x = chunk_bits(ps, L)
    border = borders_s(ps, L)
    rows = []
    for i in range(ps.n):
        for h in range(ps.n):
            if i <= h:
                rows.append(dict(path=i + 1, chunk=h + 1, level_from_s=border[h], level_to_s=border[h + 1],
                                 bits=x[i, h], cross_section_bps=ps.rates_bps[i], preload_level_s=ps.delays_s[i]))
    return pd.DataFrame(rows)


# ----------------------------------------------------------------------------- Theorem 2 (Appendix A)


def rtt_s(rates_bps, delays_s, packet_bytes: float) -> np.ndarray:
    """``r_i = s_i / b_i + 2 d_i`` (eq. 18), seconds."""
    b, d = _check_paths(rates_bps, delays_s)
    s = check_positive("packet_bytes", packet_bytes)
    return s * 8.0 / b + 2.0 * d


def theorem2_ratio(rtts_s, probs) -> np.ndarray:
    """Left-hand side of eq. 22 for every ``m``: ``Σ_i g_i (r_m − r_i) / Σ_i g_i |Σ_j g_j (r_i − r_j)|``.

    ``probs`` (the ``g_ih`` of one chunk) must be >= 0 and sum to 1.  Where the numerator is <= 0
    the ratio is reported as its (non-positive) value over a positive denominator, or 0 when all
    RTTs with positive probability are equal (no deviation: eq. 21 holds trivially, as the
    paper states for ``r_1 = r_2``).
    """
    r = as_float_array("rtts_s", rtts_s)
    g = as_float_array("probs", probs)
    if r.shape != g.shape:
        raise ValueError(f"rtts_s and probs must have one value per path, got {r.size} and {g.size}")
    if np.any(g < 0) or abs(g.sum() - 1) > 1e-9:
        raise ValueError(f"probs must be >= 0 and sum to 1, got {g.tolist()}")
    rbar = float((g * r).sum())  # eq. 19
    vbar = float((g * np.abs(r - rbar)).sum())  # eq. 20
    num = r - rbar  # Σ_i g_i (r_m - r_i) = r_m - rbar, since Σ g_i = 1
    if vbar <= 1e-15 * max(1.0, abs(rbar)):
        return np.where(num > 1e-15, np.inf, 0.0)
    return num / vbar


def theorem2_holds(rtts_s, probs, K: float = K_DEFAULT) -> bool:
    """Eq. 22: ``max_m`` ratio ``< K`` over the paths with ``g > 0`` (and any slower path would also be checked)."""
    K = check_positive("K", K)
    ratio = theorem2_ratio(rtts_s, probs)
    g = np.asarray(probs, dtype=float)
    return bool(np.all(ratio[g > 0] < K))


def two_path_threshold(K: float = K_DEFAULT) -> float:
    """Eq. 25: the slower path's share must exceed ``1/(2K)`` (0.125 for K = 4)."""
    return 1.0 / (2.0 * check_positive("K", K))


def two_path_condition(rate_fast_bps: float, rate_slow_bps: float, K: float = K_DEFAULT) -> bool:
    """Corollary of eq. 25 with ``g_22 = b_2/(b_1 + b_2)`` (eq. 12): ``b_1 < (2K − 1) b_2``
    (``b_1 < 7 b_2`` for K = 4).

    ``rate_fast_bps`` is ``b_1``, the rate of the path with the *smaller* RTT.
    """
    b1 = check_positive("rate_fast_bps", rate_fast_bps)
    b2 = check_positive("rate_slow_bps", rate_slow_bps)
    K = check_positive("K", K)
    return bool(b1 < (2 * K - 1) * b2)


def appendix_a3_printed_bounds(rtts_s, g33: float, K: float = K_DEFAULT) -> dict:
    """Eqs. 30–31 as printed (h = 3, ``r_1 <= r_2 <= r_3``): upper bound on ``g_23`` and lower bound on ``g_13``."""
    r = as_float_array("rtts_s", rtts_s)
    if r.size != 3:
        raise ValueError(f"rtts_s must hold three RTTs (h = 3), got {r.size}")
    r1, r2, r3 = r
    K = check_positive("K", K)
    g33 = check_number("g33", g33)
    return dict(g23_max=(1 - g33) * (2 * K * g33 * (r3 - r1) + r1 - r2) / ((r3 - r1) * (2 * K * g33 - 1)),
                g13_min=(1 - g33) * (r3 - r2) / (2 * K * g33 * (r3 - r1) + r1 - r2))
