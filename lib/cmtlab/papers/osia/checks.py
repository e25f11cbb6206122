"""Checks of OSIA's printed equations behind the OSIA chapter and the errata page.

* :func:`lp_solve` / :func:`lp_check` — eqs. 5–6 as an independent linear program (scipy's HiGHS)
  on random path sets, against eqs. 10–13;
* :func:`packet_check` — the faucet schedule of every form through the per-packet timeline of
  :mod:`.timeline` on random path sets: does it arrive in order?
* :func:`table1_lp` — Table 1's path sets through the same linear program (the reference of sec. 4.1's
  worked example);
* :func:`rto_montecarlo` / :func:`theorem2_check` — Theorem 2 (eqs. 22, 25) against a Monte-Carlo
  of the RTO estimator (eqs. 15–17); :func:`averaged_rto_thresholds` — the two-path threshold of the
  averaged estimator, located run by run (eq. 25); :func:`spurious_timeouts` — the per-packet estimator's
  spurious timeouts, with a minimum RTO or without;
* :func:`operation_counts` — the arithmetic of the closed form (preprocessing, eqs. 11–13, eq. 1) counted
  operation by operation against the number of paths (sec. 3.3's O(N²));
* :func:`rr_closed_form_check` — the round-robin 3-dupACK closed form against the timeline counter;
* :func:`worked_example_lines` / :func:`worked_example_frame` — Table 1's path sets through eqs. 1, 10–13
  and Corollary 1, in words and as a table.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..._validate import as_float_array, check_choice, check_int, check_non_negative, check_positive
from ...progress import progress
from .model import (_as_pathset, chunk_bits, chunk_fractions, path_probabilities, preprocess, start_times,
                    theorem2_ratio, total_data_bits)
from .timeline import (osia_schedule, period_packets, round_robin_schedule, rr_three_dupack_closed_form,
                       run_schedule)

# ----------------------------------------------------------------------------- eqs. 5–6 as a linear program


def lp_solve(paths, level_s: float, *, fix_borders: bool = False, printed_constraints: bool = False) -> dict:
    """Solve eqs. 5–6 as a linear program, independently of the water-filling algebra.

    Variables: ``x[i,h] >= 0`` (bits path ``i`` sends of chunk ``h``, ``i <= h``), ``ST[i,h] >= 0``
    (its start, sender clock) and the chunk borders ``A_1 <= … <= A_{N+1}`` on the receiver clock.
    Constraints: chunk ``h`` arrives within ``[A_h, A_{h+1}]`` on every path that carries it
    (``ST + d_i >= A_h``, ``ST + x/b_i + d_i <= A_{h+1}``) — the in-order requirement; a path sends
    its chunks one after the other (``ST[i,h] + x[i,h]/b_i <= ST[i,h+1]``); ``ST_h^h = 0`` (eq. 6);
    everything arrives within the period ``t_x = L*`` (``A_{N+1} <= L*``).  Objective: maximise
    ``W = Σ x`` (eq. 5).

    ``fix_borders=True`` also fixes ``A_h = d_h`` (chunk ``h`` is the data arriving between
    ``d_h`` and ``d_{h+1}``, sec. 3.2), which makes the optimum ``x`` unique.
    ``printed_constraints=True`` adds eq. 6's start-time equalities as printed
    (``ST_i^h = ST_{i-1}^h − (d_i − d_{i−1})`` and ``ST_i^h = ST_{i+1}^{h+1}``).

    Returns ``status`` ("optimal" or "infeasible"), ``W_bits`` and ``x_bits`` (N × N).
    """
    from scipy.optimize import linprog

    ps = _as_pathset(paths)
    N = ps.n
    b = ps.rates_bps / 1e6  # Mbit/s keeps the LP well scaled
    d = ps.delays_s
    L = check_positive("level_s", level_s)
    if L < d[-1]:
        raise ValueError(f"level_s must be >= d_N = {d[-1]:g} s, got {L:g}")
    pairs = [(i, h) for h in range(N) for i in range(h + 1)]
    nx = len(pairs)
    xi = {p: k for k, p in enumerate(pairs)}
    si = {p: nx + k for k, p in enumerate(pairs)}
    ai = [2 * nx + h for h in range(N + 1)]
    nv = 2 * nx + N + 1
    A_ub, b_ub, A_eq, b_eq = [], [], [], []

    def row():
        return np.zeros(nv)

    for (i, h) in pairs:
        r = row()  # A_h - ST <= d_i
        r[ai[h]] = 1
        r[si[i, h]] = -1
        A_ub.append(r)
        b_ub.append(d[i])
        r = row()  # ST + x/b - A_{h+1} <= -d_i
        r[si[i, h]] = 1
        r[xi[i, h]] = 1 / b[i]
        r[ai[h + 1]] = -1
        A_ub.append(r)
        b_ub.append(-d[i])
        if h + 1 < N:
            r = row()  # ST[i,h] + x/b - ST[i,h+1] <= 0
            r[si[i, h]] = 1
            r[xi[i, h]] = 1 / b[i]
            r[si[i, h + 1]] = -1
            A_ub.append(r)
            b_ub.append(0.0)
        if i == h:
            r = row()
            r[si[i, h]] = 1
            A_eq.append(r)
            b_eq.append(0.0)
    for h in range(N):
        r = row()
        r[ai[h]] = 1
        r[ai[h + 1]] = -1
        A_ub.append(r)
        b_ub.append(0.0)
    r = row()
    r[ai[N]] = 1
    A_ub.append(r)
    b_ub.append(L)
    if fix_borders:
        for h in range(N):
            r = row()
            r[ai[h]] = 1
            A_eq.append(r)
            b_eq.append(d[h])
    if printed_constraints:
        for (i, h) in pairs:
            if i >= 1:
                r = row()
                r[si[i, h]] = 1
                r[si[i - 1, h]] = -1
                A_eq.append(r)
                b_eq.append(-(d[i] - d[i - 1]))
            if h + 1 < N:
                r = row()
                r[si[i, h]] = 1
                r[si[i + 1, h + 1]] = -1
                A_eq.append(r)
                b_eq.append(0.0)
    c = np.zeros(nv)
    c[:nx] = -1.0
    bounds = [(0, None)] * (2 * nx) + [(0, None)] * (N + 1)
    res = linprog(c, A_ub=np.array(A_ub), b_ub=np.array(b_ub), A_eq=np.array(A_eq) if A_eq else None,
                  b_eq=np.array(b_eq) if b_eq else None, bounds=bounds, method="highs")
    if res.status == 2:
        return dict(status="infeasible", W_bits=float("nan"), x_bits=np.full((N, N), np.nan))
    if res.status != 0:
        raise RuntimeError(f"linprog failed: {res.message}")
    x = np.zeros((N, N))
    for (i, h), k in xi.items():
        x[i, h] = res.x[k] * 1e6
    return dict(status="optimal", W_bits=float(-res.fun * 1e6), x_bits=x)


def random_path_sets(n_sets: int, *, n_paths=(2, 6), rate_bps=(0.25e6, 10e6), delay_s=(0.005, 0.2), seed: int = 0):
    """``n_sets`` random (rates_bps, delays_s) lists: ``N`` uniform in ``n_paths``, rates and delays uniform."""
    n_sets = check_int("n_sets", n_sets, minimum=1)
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n_sets):
        N = int(rng.integers(n_paths[0], n_paths[1] + 1))
        out.append((rng.uniform(*rate_bps, N), rng.uniform(*delay_s, N)))
    return out


def lp_check(n_sets: int = 200, *, seed: int = 0, progress_: bool = False) -> pd.DataFrame:
    """Eqs. 10–13 against the LP of eqs. 5–6 (:func:`lp_solve`) on random path sets; one row per set.

    Columns: ``N``, ``level_s``, ``W_rel_err`` (abs(LP optimum − eq. 11) / eq. 11, free borders),
    ``x_rel_err`` (max abs(x_LP − eq. 10) / W with borders at ``d_h``), ``f_err_consistent`` and
    ``f_err_printed`` (max abs(f_h − f_h from the LP's x), h <= N−1, against the consistent form and
    eq. 13 as printed), ``g_err`` (eq. 12 vs the LP's shares), ``printed_feasible`` (eq. 6 with
    its printed start-time equalities), ``evenly_spaced`` (delays evenly spaced).
    """
    rows = []
    for rates, delays in progress(random_path_sets(n_sets, seed=seed), desc="LP of eqs. 5-6", enabled_=progress_):
        ps = preprocess(rates, delays)
        if ps.n < 2:
            continue
        rng = np.random.default_rng(int(1e6 * ps.delays_s[0]))
        L = float(ps.delays_s[-1] + rng.uniform(0.0, 0.5))
        free = lp_solve(ps, L)
        fixed = lp_solve(ps, L, fix_borders=True)
        printed = lp_solve(ps, L, printed_constraints=True)
        W = total_data_bits(ps, L)
        x_cf = chunk_bits(ps, L)
        x_lp = fixed["x_bits"]
        w_pre = float((ps.rates_bps * (ps.delays_s[-1] - ps.delays_s)).sum())
        f_lp = x_lp.sum(axis=0)[:-1] / w_pre
        f_cons = chunk_fractions(ps)[:-1]
        f_pr = chunk_fractions(ps, form="printed")[:-1]
        with np.errstate(invalid="ignore", divide="ignore"):
            g_lp = x_lp / x_lp.sum(axis=0, keepdims=True)
        g_cf = path_probabilities(ps)
        mask = np.isfinite(g_lp) & (x_lp.sum(axis=0, keepdims=True) > 0)
        gaps = np.diff(ps.delays_s)
        rows.append(dict(N=ps.n, level_s=L, W_rel_err=abs(free["W_bits"] - W) / W,
                         x_rel_err=float(np.abs(x_lp - x_cf).max() / W),
                         f_err_consistent=float(np.abs(f_lp - f_cons).max()),
                         f_err_printed=float(np.abs(f_lp - f_pr).max()),
                         g_err=float(np.abs(g_lp - g_cf)[mask].max()),
                         printed_feasible=printed["status"] == "optimal",
                         evenly_spaced=bool(np.allclose(gaps, gaps[0], rtol=1e-9, atol=1e-12))))
    return pd.DataFrame(rows)


def table1_lp(pathsets: dict) -> pd.DataFrame:
    """Table 1's path sets (``{n: PathSet}``, n >= 3) through the linear program of eqs. 5–6 with the chunk
    borders at the delays (:func:`lp_solve`, ``fix_borders=True``, ``L* = d_N``): the reference the worked
    example of sec. 4.1 is checked against, independent of the water-filling algebra.  One row per path set:
    ``paths``, ``f1``, ``f2`` (the chunks' fractions of the pre-split data ``Σ b_i (d_N − d_i)``), ``g12``,
    ``g22`` (path 1's and path 2's shares of chunk 2)."""
    rows = []
    for n, ps in pathsets.items():
        ps = _as_pathset(ps)
        if ps.n < 3:
            continue
        x = lp_solve(ps, float(ps.delays_s[-1]), fix_borders=True)["x_bits"]
        pre = float((ps.rates_bps * (ps.delays_s[-1] - ps.delays_s)).sum())
        chunk = x.sum(axis=0)
        rows.append({"paths": n, "f1": chunk[0] / pre, "f2": chunk[1] / pre, "g12": x[0, 1] / chunk[1],
                     "g22": x[1, 1] / chunk[1]})
    if not rows:
        raise ValueError("pathsets must hold at least one path set of three or more paths (sec. 4.1 needs d_3)")
    return pd.DataFrame(rows).set_index("paths")


# ----------------------------------------------------------------------------- packet-level in-order check

FORMS = {
    "consistent (default)": dict(fraction_form="consistent", start_form="consistent"),
    "printed eq. 3 start times": dict(fraction_form="consistent", start_form="printed"),
    "printed eq. 13 chunk fractions": dict(fraction_form="printed", start_form="consistent"),
    "as printed (eqs. 3 and 13)": dict(fraction_form="printed", start_form="printed"),
}


def packet_run(paths, *, packet_bytes: float = 1000, extra_level_s: float = 0.2, assignment: str = "faucet",
               seed: int = 0, **forms) -> dict:
    """One period's packets (``⌊W(d_N + extra_level_s)/8s⌋``) scheduled by OSIA and run on the timeline."""
    ps = _as_pathset(paths)
    n = period_packets(ps, packet_bytes, ps.delays_s[-1] + extra_level_s)
    sched = osia_schedule(ps, n, packet_bytes, assignment=assignment, seed=seed, **forms)
    out = run_schedule(ps, sched, packet_bytes)
    out["n_packets"] = n
    out["schedule"] = sched
    return out


#: The schedules the Table 1 packet runs compare: (name, faucet assignment, forms of the equations).
TABLE1_VARIANTS = tuple([(name, "faucet", kw) for name, kw in FORMS.items()]
                        + [("consistent, probabilistic faucets (paper)", "probabilistic", FORMS["consistent (default)"])])


def table1_packet_runs(pathsets: dict, *, packet_bytes: float = 1000, extra_level_s: float = 0.2,
                       seed: int = 0, variants=TABLE1_VARIANTS):
    """One period of packets on each of Table 1's path sets (``{n: PathSet}``) under every schedule of
    ``variants`` (:func:`packet_run`).  Returns ``(runs, table)``: ``runs[n, name]`` the run, ``table``
    one row per (paths, schedule) with packets, late packets, dupACKs, 3-dupACK events, completion (ms)."""
    runs, rows = {}, []
    for n, ps in pathsets.items():
        for name, assignment, kw in variants:
            r = packet_run(ps, packet_bytes=packet_bytes, extra_level_s=extra_level_s, assignment=assignment,
                           seed=seed, **kw)
            runs[n, name] = r
            rows.append({"paths": n, "schedule": name, "packets": r["n_packets"], "late packets": r["late_packets"],
                         "dupACKs": r["dupacks"], "3-dupACK events": r["events"],
                         "completion (ms)": r["completion_s"] * 1e3})
    return runs, pd.DataFrame(rows)


def packet_check(n_sets: int = 200, *, packet_bytes: float = 1000, extra_level_s: float = 0.2, seed: int = 0,
                 progress_: bool = False) -> pd.DataFrame:
    """Every form of :data:`FORMS` (and the paper's probabilistic faucets) on random path sets.

    One row per (set, form): ``N, form, assignment, n_packets, late_packets, events, in_order``.
    """
    rows = []
    sets = random_path_sets(n_sets, seed=seed)
    for k, (rates, delays) in enumerate(progress(sets, desc="packet timeline", enabled_=progress_)):
        ps = preprocess(rates, delays)
        if ps.n < 2:
            continue
        variants = [(name, "faucet", kw) for name, kw in FORMS.items()]
        variants.append(("consistent, probabilistic faucets (paper)", "probabilistic", FORMS["consistent (default)"]))
        for name, assignment, kw in variants:
            r = packet_run(ps, packet_bytes=packet_bytes, extra_level_s=extra_level_s, assignment=assignment,
                           seed=seed + k, **kw)
            rows.append(dict(N=ps.n, form=name, assignment=assignment, n_packets=r["n_packets"],
                             late_packets=r["late_packets"], events=r["events"], in_order=r["in_order"]))
    return pd.DataFrame(rows)


# ----------------------------------------------------------------------------- Theorem 2 vs the RTO estimator

DEVIATIONS = ("printed", "rfc6298")


#: How a minimum RTO bounds the estimator's RTO (:func:`rto_montecarlo`): none; RFC 6298 sec. 2.4 (the RTO is
#: rounded up to the minimum); Linux (``tcp_set_rto``: the minimum bounds the deviation term, RTO = R + max(K V, min)).
RTO_FLOORS = ("none", "rfc6298", "linux")


def rto_montecarlo(rtts_s, probs, *, n_packets: int = 2000, n_runs: int = 200, warmup: int = 200,
                   K: float = 4.0, alpha: float = 7 / 8, beta: float = 3 / 4, deviation: str = "rfc6298",
                   seed: int = 0, floor: str = "none", min_rto_s: float = 0.0) -> dict:
    """Monte-Carlo of the RTO estimator of eqs. 15–17 over a random path sequence.

    Each packet takes path ``i`` with probability ``probs[i]`` (independently, the probabilistic
    scheduling of a chunk) and returns the RTT sample ``rtts_s[i]``.  The estimator is
    ``R_n = α R_{n−1} + (1−α) RTT_n`` (eq. 16) and ``V_n = β V_{n−1} + (1−β)|RTT_n − R|`` (eq. 17)
    with ``R = R_{n−1}`` as in Jacobson's algorithm and RFC 6298 (``deviation="rfc6298"``, the default: the
    errata's corrected eq. 17) or ``R = R_n`` as printed (``"printed"``); ``RTO_n = R_n + K V_n`` (eq. 15).
    Packet ``n`` times out spuriously if ``RTT_n > RTO_{n−1}``.  Started at ``R = RTT_1``,
    ``V = RTT_1/2`` (RFC 6298); the first ``warmup`` packets are not counted.  ``floor`` (:data:`RTO_FLOORS`)
    with ``min_rto_s`` bounds the RTO from below: ``"rfc6298"`` RTO = max(R + K V, min) (RFC 6298 sec. 2.4: 1 s),
    ``"linux"`` RTO = R + max(K V, min) (Linux: 200 ms); ``"none"`` (default) no bound.

    Returns ``timeout_fraction`` (per packet, all paths), ``timeout_fraction_by_run`` (one value per run),
    ``timeout_fraction_by_path``,
    ``mean_R_s``, ``mean_V_s``, ``mean_field_holds`` (``max r < mean R + K mean V``: the
    averaged form the paper analyses, eq. 21) and ``n_counted``.
    """
    r = as_float_array("rtts_s", rtts_s)
    g = as_float_array("probs", probs)
    if r.shape != g.shape or np.any(g < 0) or abs(g.sum() - 1) > 1e-9:
        raise ValueError("probs must have one value per RTT, be >= 0 and sum to 1")
    check_choice("deviation", deviation, DEVIATIONS)
    check_choice("floor", floor, RTO_FLOORS)
    min_rto_s = check_non_negative("min_rto_s", min_rto_s)
    n_packets = check_int("n_packets", n_packets, minimum=2)
    n_runs = check_int("n_runs", n_runs, minimum=1)
    warmup = check_int("warmup", warmup, minimum=0, maximum=n_packets - 1)
    K = check_positive("K", K)
    rng = np.random.default_rng(seed)
    paths = rng.choice(r.size, size=(n_packets, n_runs), p=g)
    samples = r[paths]
    R = samples[0].copy()
    V = R / 2
    timeouts = np.zeros(r.size)
    sent = np.zeros(r.size)
    by_run = np.zeros(n_runs)
    sumR = sumV = 0.0
    for n in range(1, n_packets):
        x = samples[n]
        if n >= warmup:
            if floor == "none":
                rto = R + K * V
            elif floor == "rfc6298":
                rto = np.maximum(R + K * V, min_rto_s)
            else:
                rto = R + np.maximum(K * V, min_rto_s)
            late = x > rto
            by_run += late
            timeouts += np.bincount(paths[n][late], minlength=r.size)
            sent += np.bincount(paths[n], minlength=r.size)
        R_prev = R
        R = alpha * R + (1 - alpha) * x
        V = beta * V + (1 - beta) * np.abs(x - (R if deviation == "printed" else R_prev))
        if n >= warmup:
            sumR += R.mean()
            sumV += V.mean()
    counted = n_packets - max(warmup, 1)
    mean_R = sumR / counted
    mean_V = sumV / counted
    used = g > 0
    with np.errstate(invalid="ignore"):
        by_path = np.where(sent > 0, timeouts / np.maximum(sent, 1), np.nan)
    per_run = by_run / max(n_packets - max(warmup, 1), 1)
    return dict(timeout_fraction=float(timeouts.sum() / max(sent.sum(), 1)), timeout_fraction_by_run=per_run,
                timeout_fraction_by_path=by_path,
                mean_R_s=float(mean_R), mean_V_s=float(mean_V),
                mean_field_holds=bool(r[used].max() < mean_R + K * mean_V), n_counted=int(sent.sum()))


def theorem2_check(rtts_s, g_slow_values, *, K: float = 4.0, n_packets: int = 2000, n_runs: int = 200,
                   seed: int = 0, progress_: bool = False) -> pd.DataFrame:
    """Two paths (``r_1 < r_2``) over a grid of the slow path's share ``g_22``: eq. 22 vs the Monte-Carlo.

    Columns: ``g22``, ``eq22_ratio`` (max over m), ``eq22_holds``, and for both deviation forms
    of eq. 17 (``printed``, ``rfc6298``): ``timeout_fraction`` (per packet) and
    ``mean_field_holds``.
    """
    r = as_float_array("rtts_s", rtts_s)
    if r.size != 2 or not r[0] < r[1]:
        raise ValueError(f"rtts_s must be two RTTs with r_1 < r_2, got {r.tolist()}")
    rows = []
    for k, g2 in enumerate(progress(list(g_slow_values), desc="Theorem 2 Monte-Carlo", enabled_=progress_)):
        g = np.array([1 - g2, g2])
        ratio = float(theorem2_ratio(r, g).max())
        row = dict(g22=float(g2), eq22_ratio=ratio, eq22_holds=ratio < K)
        for dev in DEVIATIONS:
            mc = rto_montecarlo(r, g, n_packets=n_packets, n_runs=n_runs, K=K, deviation=dev, seed=seed + k)
            row[f"timeout_fraction_{dev}"] = mc["timeout_fraction"]
            row[f"mean_field_holds_{dev}"] = mc["mean_field_holds"]
        rows.append(row)
    return pd.DataFrame(rows)


def threshold_from(frame: pd.DataFrame, column: str) -> float:
    """Smallest ``g22`` of a :func:`theorem2_check` grid from which ``column`` holds for every larger value."""
    ok = frame[column].to_numpy(dtype=bool)
    g = frame.g22.to_numpy()
    bad = np.flatnonzero(~ok)
    if bad.size == 0:
        return float(g[0])
    if bad[-1] + 1 >= g.size:
        return float("nan")
    return float(g[bad[-1] + 1])


def averaged_rto_thresholds(rtts_s, *, K: float = 4.0, deviation: str = "rfc6298", n_packets: int = 2000,
                            n_runs: int = 200, warmup: int = 200, alpha: float = 7 / 8, beta: float = 3 / 4,
                            tol: float = 1e-4, seed: int = 0) -> np.ndarray:
    """The two-path threshold of the *averaged* RTO (Appendix A, eqs. 19–21, and eq. 25), located run by run.

    Two paths (``r_1 < r_2``); in run ``k`` packet ``n`` takes the slow path when a uniform draw ``u[n, k]``
    is below its share ``g_22`` (the same draws for every share: common random numbers), and the estimator of
    eqs. 16–17 (``deviation`` as in :func:`rto_montecarlo`) runs over the samples.  Eq. 21 with the time means
    ``R̄``, ``V̄`` of the run (after ``warmup`` packets) holds when ``r_2 < R̄ + K V̄``; the run's threshold is
    the smallest ``g_22`` from which it holds, found by bisection to ``tol`` on (0, 1).  Eq. 25 says it is
    ``1/(2K)``.  Returns one threshold per run (NaN where eq. 21 fails even at ``g_22`` near 1).
    """
    r = as_float_array("rtts_s", rtts_s)
    if r.size != 2 or not r[0] < r[1]:
        raise ValueError(f"rtts_s must be two RTTs with r_1 < r_2, got {r.tolist()}")
    K = check_positive("K", K)
    check_choice("deviation", deviation, DEVIATIONS)
    n_packets = check_int("n_packets", n_packets, minimum=2)
    n_runs = check_int("n_runs", n_runs, minimum=1)
    warmup = check_int("warmup", warmup, minimum=0, maximum=n_packets - 1)
    tol = check_positive("tol", tol)
    u = np.random.default_rng(seed).random((n_packets, n_runs))

    def holds(g: np.ndarray) -> np.ndarray:
        samples = np.where(u < g[None, :], r[1], r[0])
        R = samples[0].copy()
        V = R / 2
        sumR = np.zeros(n_runs)
        sumV = np.zeros(n_runs)
        for n in range(1, n_packets):
            x = samples[n]
            R_prev = R
            R = alpha * R + (1 - alpha) * x
            V = beta * V + (1 - beta) * np.abs(x - (R if deviation == "printed" else R_prev))
            if n >= warmup:
                sumR += R
                sumV += V
        counted = n_packets - max(warmup, 1)
        return r[1] < sumR / counted + K * sumV / counted

    lo = np.zeros(n_runs)
    hi = np.full(n_runs, 1.0 - 1e-9)
    found = holds(hi)
    while float((hi - lo).max()) > tol:
        mid = (lo + hi) / 2
        ok = holds(mid)
        hi = np.where(ok, mid, hi)
        lo = np.where(ok, lo, mid)
    return np.where(found, hi, np.nan)


def spurious_timeouts(rtts_s, probs, *, K: float = 4.0, n_packets: int = 2000, n_runs: int = 200,
                      seed: int = 0) -> pd.DataFrame:
    """The per-packet estimator's spurious timeouts (:func:`rto_montecarlo`) on one chunk's paths, under each
    deviation form of eq. 17 and each minimum RTO: none (the paper's eq. 15), RFC 6298's 1 s (sec. 2.4) and
    Linux's 200 ms on the deviation term.  One row per (``deviation``, ``floor``) with ``min_rto_s`` and the
    per-run fractions of packets that time out (``per_run``, an array; ``mean``)."""
    rows = []
    for dev in DEVIATIONS:
        for floor, min_rto in (("none", 0.0), ("rfc6298", 1.0), ("linux", 0.2)):
            mc = rto_montecarlo(rtts_s, probs, n_packets=n_packets, n_runs=n_runs, K=K, deviation=dev, seed=seed,
                                floor=floor, min_rto_s=min_rto)
            rows.append({"deviation": dev, "floor": floor, "min_rto_s": min_rto,
                         "per_run": mc["timeout_fraction_by_run"], "mean": mc["timeout_fraction"]})
    return pd.DataFrame(rows)


def appendix_a3_check(n_sets: int = 2000, *, K: float = 4.0, seed: int = 0) -> pd.DataFrame:
    """Eqs. 30–31 as printed against eq. 22 itself (h = 3) on random RTTs and shares.

    One row per draw with the draw (``r1``–``r3``, ``g13``, ``g23``; g_33 = 1 − g_13 − g_23), ``case`` (sign of
    ``r_2 − r̄``, eqs. 28/29), ``eq22_holds``,
    ``eq28_holds``/``eq29_holds`` (the two reductions), and
    ``eq30_holds``/``eq31_holds`` (the printed bounds on ``g_23``/``g_13`` given ``g_33``).
    """
    from .model import appendix_a3_printed_bounds

    rng = np.random.default_rng(seed)
    rows = []
    for _ in range(check_int("n_sets", n_sets, minimum=1)):
        r = np.sort(rng.uniform(0.02, 0.3, 3))
        g = rng.dirichlet(np.ones(3))
        rbar = float(g @ r)
        bounds = appendix_a3_printed_bounds(r, g[2], K)
        rows.append(dict(r1=float(r[0]), r2=float(r[1]), r3=float(r[2]), g13=float(g[0]), g23=float(g[1]),
                         case="r2 above rbar (eq. 28)" if r[1] > rbar else "r2 below rbar (eq. 29)",
                         eq22_holds=bool(theorem2_ratio(r, g).max() < K),
                         eq28_holds=bool((r[2] - rbar) / (g[0] * (rbar - r[0])) < 2 * K),
                         eq29_holds=bool(g[2] > 1 / (2 * K)),
                         eq30_holds=bool(g[1] < bounds["g23_max"]), eq31_holds=bool(g[0] > bounds["g13_min"])))
    return pd.DataFrame(rows)



# ----------------------------------------------------------------------------- Appendix A in exact arithmetic

def _eq22_ratios_exact(r, g) -> list:
    """Eq. 22's left-hand side for every ``m`` in exact rational arithmetic (``r``, ``g``: Fractions, Σ g = 1):
    ``(r_m − r̄) / v̄`` with r̄ and v̄ of eqs. 19–20; ``None`` where v̄ = 0 (all RTTs equal: eq. 22 holds)."""
    rbar = sum(gi * ri for gi, ri in zip(g, r))
    vbar = sum(gi * abs(ri - rbar) for gi, ri in zip(g, r))
    return [None if vbar == 0 else (rm - rbar) / vbar for rm in r]


def two_path_threshold_exact(K=4, *, rtt_pairs=((1, 2), (3, 7), (1, 100), (40, 41), (20, 180)),
                             denominator: int = 64) -> dict:
    """Appendix A.1 (eqs. 22–25) in exact rational arithmetic: two paths, ``r_1 < r_2``, the slower path's share
    ``g_22`` over ``k / denominator`` (k = 1 … denominator − 1) and at ``1/(2K)`` and one part in 10⁹ on each side
    of it, for every pair of ``rtt_pairs`` (any unit: eq. 22 depends on the RTTs' differences only through
    their ratios).

    Returns ``threshold`` (``1/(2K)`` as a Fraction: eq. 25's bound), ``rate_ratio`` (``b_1/b_2`` at the
    threshold with ``g_22 = b_2/(b_1+b_2)``, eq. 12: ``2K − 1``), ``points`` (shares × pairs evaluated),
    ``identity`` (eq. 24's left side equals ``1/(2 g_22)`` at every point: the step from eq. 24 to eq. 25),
    ``switch`` (eq. 22 holds exactly where ``g_22 > 1/(2K)``, at every point), ``m1_holds`` (eq. 23, ``m = 1``,
    holds at every point) and ``first_failure`` (the first point where one of them fails, or None).  Nothing
    is sampled: the check either holds at every point or names where it fails."""
    from fractions import Fraction

    K = Fraction(K)
    if K <= 0:
        raise ValueError(f"K must be > 0, got {K}")
    denominator = check_int("denominator", denominator, minimum=2)
    t = 1 / (2 * K)
    shares = sorted({Fraction(k, denominator) for k in range(1, denominator)}
                    | {t, t - Fraction(1, 10**9), t + Fraction(1, 10**9)})
    shares = [x for x in shares if 0 < x < 1]
    identity = switch = m1 = True
    first = None
    points = 0
    for r1, r2 in rtt_pairs:
        r1, r2 = Fraction(r1), Fraction(r2)
        if not 0 < r1 < r2:
            raise ValueError(f"rtt_pairs must hold pairs with 0 < r_1 < r_2, got {(r1, r2)}")
        for g22 in shares:
            points += 1
            lhs1, lhs2 = _eq22_ratios_exact((r1, r2), (1 - g22, g22))
            ok_id = lhs2 == 1 / (2 * g22)
            ok_sw = (lhs2 < K) == (g22 > t)
            ok_m1 = lhs1 < K
            if first is None and not (ok_id and ok_sw and ok_m1):
                first = dict(r1=r1, r2=r2, g22=g22, lhs=lhs2)
            identity &= ok_id
            switch &= ok_sw
            m1 &= ok_m1
    return dict(threshold=t, rate_ratio=(1 - t) / t, points=points, identity=identity, switch=switch,
                m1_holds=m1, first_failure=first, K=K)


def appendix_a3_exact(rtts, probs, K=4) -> dict:
    """Eqs. 22, 30 and 31 at one point in exact rational arithmetic (``rtts``: r_1 ≤ r_2 ≤ r_3; ``probs``:
    g_13, g_23 — g_33 is 1 − g_13 − g_23, so the shares sum to 1 exactly).  Floats are converted exactly
    (``fractions.Fraction``).  Returns ``eq22_holds``, ``eq30_holds``, ``eq31_holds``."""
    from fractions import Fraction

    r1, r2, r3 = (Fraction(x) for x in rtts)
    if not r1 <= r2 <= r3:
        raise ValueError(f"rtts must be sorted (r_1 <= r_2 <= r_3), got {rtts!r}")
    g13, g23 = (Fraction(x) for x in probs[:2])
    g33 = 1 - g13 - g23
    if min(g13, g23, g33) < 0:
        raise ValueError(f"probs must be shares summing to at most 1, got {probs!r}")
    K = Fraction(K)
    ratios = _eq22_ratios_exact((r1, r2, r3), (g13, g23, g33))
    eq22 = all(x is None or x < K for x in ratios)
    den = 2 * K * g33 * (r3 - r1) + r1 - r2
    eq30 = g23 < (1 - g33) * den / ((r3 - r1) * (2 * K * g33 - 1))
    eq31 = g13 > (1 - g33) * (r3 - r2) / den
    return dict(eq22_holds=eq22, eq30_holds=bool(eq30), eq31_holds=bool(eq31))


# ----------------------------------------------------------------------------- sec. 3.3: O(N^2)


def counted_plan(rates_bps, delays_s, level_s=None) -> dict:
    """The closed form of the scheduling scheme with every arithmetic operation and comparison counted.

    A plain implementation, independent of :mod:`.model`'s vectorised one, of what the sender computes per
    period: preprocessing (sec. 3.2: sort by delay — its comparisons counted —, merge delays equal to
    0.01 s), ``W`` (eq. 11), per chunk ``h`` the sum ``Σ_{j<=h} b_j`` (evaluated as written, once per chunk: it
    does not depend on ``i``), the faucets ``g_ih`` (eq. 12), the chunk fraction ``f_h`` (consistent eq. 13),
    the start times ``ST_i^h = d_h − d_i`` (eq. 1) and each faucet's bits and sending time (sec. 4.1).
    Returns ``g``, ``f``, ``st`` (as :func:`cmtlab.papers.osia.path_probabilities`,
    :func:`~cmtlab.papers.osia.chunk_fractions`, :func:`~cmtlab.papers.osia.start_times`) and ``operations``.
    """
    import functools

    b_in = [float(x) for x in as_float_array("rates_bps", rates_bps)]
    d_in = [float(x) for x in as_float_array("delays_s", delays_s)]
    ops = 0

    def cmp(a, c):
        nonlocal ops
        ops += 1
        return (d_in[a] > d_in[c]) - (d_in[a] < d_in[c])

    order = sorted(range(len(d_in)), key=functools.cmp_to_key(cmp))
    b, d, key_prev = [], [], None
    for k in order:                               # merge delays equal to 0.01 s (rounded), rates added
        key = math.floor(d_in[k] / 0.01 + 0.5)
        ops += 3
        if key_prev is not None and key == key_prev:
            b[-1] += b_in[k]
            ops += 1
        else:
            b.append(b_in[k])
            d.append(d_in[k])
        key_prev = key
    n = len(b)
    L = d[-1] if level_s is None else float(level_s)
    W = 0.0
    for i in range(n):                            # eq. 11: W = Σ b_i (L − d_i)
        W += b[i] * (L - d[i])
        ops += 3
    g = np.zeros((n, n))
    st = np.full((n, n), np.nan)
    f = np.zeros(n)
    for h in range(n):
        total = 0.0
        for j in range(h + 1):                    # Σ_{j<=h} b_j, as written
            total += b[j]
            ops += 1
        width = (d[h + 1] if h + 1 < n else L) - d[h]
        f[h] = width * total / W                  # consistent eq. 13
        ops += 3
        for i in range(h + 1):
            g[i, h] = b[i] / total                # eq. 12
            st[i, h] = d[h] - d[i]                # eq. 1
            bits = f[h] * g[i, h] * W             # sec. 4.1: faucet i of bucket h
            _ = st[i, h] + bits / b[i]            # ... leaks until then
            ops += 6
    return {"g": g, "f": f, "st": st, "operations": ops, "n_paths": n}


def operation_counts(ns=(4, 8, 16, 32, 64, 128, 256, 512), *, seed: int = 0) -> pd.DataFrame:
    """:func:`counted_plan` on a random path set of each size ``N`` of ``ns`` (rates 0.25–10 Mbit/s, delays
    distinct at the preprocessing's 0.01 s), checked against the library's closed form (``max_abs_diff`` of ``g``, ``f``, ``ST``).
    Columns: ``N``, ``operations``, ``per_N2`` (operations / N²), ``exponent`` (log2 of the growth from the
    previous ``N``, which doubles: 2 for a count that grows as N²) and ``max_abs_diff``."""
    from .model import chunk_fractions as _f, path_probabilities as _g, start_times as _st

    rng = np.random.default_rng(seed)
    rows = []
    for N in ns:
        N = check_int("ns", N, minimum=2)
        # distinct multiples of 10 ms (+ 2 ms): no two merge in the preprocessing
        delays = 0.01 * rng.choice(np.arange(1, 3 * N + 1), size=N, replace=False) + 0.002
        rates = rng.uniform(0.25e6, 10e6, N)
        plan = counted_plan(rates, delays)
        ps = preprocess(rates, delays)
        diff = max(float(np.abs(plan["g"] - _g(ps)).max()), float(np.abs(plan["f"] - _f(ps)).max()),
                   float(np.nanmax(np.abs(plan["st"] - _st(ps)))))
        rows.append({"N": plan["n_paths"], "operations": plan["operations"], "max_abs_diff": diff})
    out = pd.DataFrame(rows)
    out["per_N2"] = out.operations / out.N ** 2
    out["exponent"] = np.log2(out.operations / out.operations.shift()) / np.log2(out.N / out.N.shift())
    return out


# ----------------------------------------------------------------------------- round robin, closed form


def rr_closed_form_check(delay_ratios, rate_ratios, *, base_rate_bps: float = 1e6, base_delay_s: float = 0.05,
                         packet_bytes: float = 1000, n_packets: int = 500, spacing_s=None) -> pd.DataFrame:
    """Round robin over two paths on a ``D2/D1 × BW2/BW1`` grid: closed form vs the per-packet counter.

    Path 1 has ``base_rate_bps`` and one-way delay ``base_delay_s`` (Fig. 7: 1 Mbit/s, 50 ms).
    ``spacing_s`` is the sender's packet spacing ``τ``; ``None`` means the aggregate rate,
    ``τ = 8 s / (b_1 + b_2)`` (a sender that fills both paths).  Columns: ``D2/D1, BW2/BW1,
    spacing_ms, closed_form, timeline, m_first, rho``.
    """
    rows = []
    for dr in delay_ratios:
        for br in rate_ratios:
            b = np.array([base_rate_bps, base_rate_bps * br])
            d = np.array([base_delay_s, base_delay_s * dr])
            tau = 8.0 * packet_bytes / b.sum() if spacing_s is None else float(spacing_s)
            cf = rr_three_dupack_closed_form(b, d, packet_bytes, n_packets, tau)
            sched = round_robin_schedule(2, n_packets, tau)
            tl = run_schedule((b, d), sched, packet_bytes)
            rows.append({"D2/D1": dr, "BW2/BW1": br, "spacing_ms": tau * 1e3, "closed_form": cf["expected"],
                         "timeline": tl["events"], "m_first": cf["m_first"], "rho": cf["rho"]})
    return pd.DataFrame(rows)


# ----------------------------------------------------------------------------- Table I, worked through


def _numbers(values, digits: int) -> str:
    """``0.4211, 0.5789`` (``undefined`` for a NaN) — numbers as a reader reads them, not an array's repr."""
    return ", ".join("undefined" if not np.isfinite(v) else f"{v:.{digits}f}" for v in np.asarray(values, float))


def worked_example_lines(pathsets: dict) -> list[str]:
    """Table I's path sets worked through OSIA's equations, one line per quantity.

    For each path set (``{n_paths: PathSet}``, sorted as the paper sorts): the chunk fractions
    ``f_h`` of the consistent form and as eq. 13 prints them (with their sums: the printed form
    need not sum to one), then per chunk ``h`` the path probabilities ``g_ih`` (eq. 12) and the
    start times ``ST_i^h`` of eq. 1 beside Corollary 1's (ms).
    """
    lines = []
    for n, ps in pathsets.items():
        f = chunk_fractions(ps)
        fp = chunk_fractions(ps, form="printed")
        g = path_probabilities(ps)
        st, stp = start_times(ps) * 1e3, start_times(ps, form="printed") * 1e3
        lines.append(f"{n} paths (sorted)")
        lines.append(f"  f_h, consistent form: {_numbers(f[:-1], 4)} (sum {f[:-1].sum():.4f})")
        lines.append(f"  f_h, eq. 13 as printed: {_numbers(fp[:-1], 4)} (sum {np.nansum(fp):.4f})")
        for h in range(ps.n):
            lines.append(f"  chunk {h + 1}: g_ih = {_numbers(g[:h + 1, h], 3)}; ST_i^h by eq. 1 = "
                         f"{_numbers(st[:h + 1, h], 1)} ms, by Corollary 1 = {_numbers(stp[:h + 1, h], 1)} ms")
    return lines


def worked_example_frame(pathsets: dict) -> pd.DataFrame:
    """:func:`worked_example_lines` as a table: one row per (path set, chunk) of Table 1 with the chunk's
    fraction ``f_h`` in the consistent form and as eq. 13 prints it (empty for the last chunk, which is sent
    continuously), the faucets ``g_ih`` (eq. 12) and the start times of eq. 1 and of Corollary 1 (ms)."""
    rows = []
    for n, ps in pathsets.items():
        f = chunk_fractions(ps)
        fp = chunk_fractions(ps, form="printed")
        g = path_probabilities(ps)
        st, stp = start_times(ps) * 1e3, start_times(ps, form="printed") * 1e3
        for h in range(ps.n):
            last = h == ps.n - 1
            rows.append({"paths": n, "chunk": h + 1,
                         "f_h (consistent)": "" if last else f"{f[h]:.4g}",
                         "f_h (eq. 13 as printed)": "" if last else f"{fp[h]:.4g}",
                         "g_ih (eq. 12)": _numbers(g[:h + 1, h], 3),
                         "ST_i^h by eq. 1 (ms)": _numbers(st[:h + 1, h], 0),
                         "ST_i^h by Corollary 1 (ms)": _numbers(stp[:h + 1, h], 0)})
    return pd.DataFrame(rows)


def fluid_violations(paths, level_s: float) -> pd.DataFrame:
    """How far each form of :data:`FORMS` is from in-order arrival in the fluid model
    (:func:`cmtlab.papers.osia.fluid_order_violation_s` of its leaky-bucket plan at level ``level_s``): one row
    per form, columns ``overlap_s``, ``disorder_s``, ``misalign_s`` (0 = in order)."""
    from .model import fluid_order_violation_s, leaky_buckets

    ps = _as_pathset(paths)
    return pd.DataFrame({name: fluid_order_violation_s(leaky_buckets(ps, level_s, **kw))
                         for name, kw in FORMS.items()}).T


def lp_summary(lp: pd.DataFrame) -> pd.DataFrame:
    """:func:`lp_check`'s rows summed up: one row per quantity (``value``)."""
    return pd.DataFrame({"value": pd.Series({
        "path sets": len(lp),
        "largest |W_LP − eq. 11| / W": lp.W_rel_err.max(),
        "largest |x_LP − eq. 10| / W": lp.x_rel_err.max(),
        "largest |g_LP − eq. 12|": lp.g_err.max(),
        "largest |f_LP − f consistent|": lp.f_err_consistent.max(),
        "largest |f_LP − f eq. 13 as printed|": lp.f_err_printed.max(),
        "printed eq. 6 infeasible (sets)": int((~lp.printed_feasible).sum()),
        "... of which unevenly spaced delays": int((~lp.printed_feasible & ~lp.evenly_spaced).sum()),
        "unevenly spaced delays (sets)": int((~lp.evenly_spaced).sum()),
    }, dtype=object)})


def sec41_example(pathsets: dict) -> pd.DataFrame:
    """Sec. 4.1's worked example on Table 1's three- and four-path sets (``{n: PathSet}``): its ``f_1``,
    ``f_2`` beside the consistent form and eq. 13 as printed, and the faucets ``g_12``, ``g_22`` it spells out
    (= eq. 12).  Index ``paths``."""
    rows = []
    for n, ps in pathsets.items():
        if _as_pathset(ps).n < 3:
            continue
        s41, cons, pr = (chunk_fractions(ps, form=f) for f in ("sec4.1", "consistent", "printed"))
        b = _as_pathset(ps).rates_bps
        rows.append({"paths": n, "f1 sec. 4.1": s41[0], "f1 consistent": cons[0], "f2 sec. 4.1": s41[1],
                     "f2 eq. 13": pr[1], "f2 consistent": cons[1], "g12": b[0] / (b[0] + b[1]),
                     "g22": b[1] / (b[0] + b[1])})
    return pd.DataFrame(rows).set_index("paths")


def packet_summary(pc: pd.DataFrame) -> pd.DataFrame:
    """:func:`packet_check`'s rows per form: ``sets``, ``in_order`` (share of the sets), ``late_packets`` and
    ``events`` (means)."""
    return pc.groupby("form", sort=False).agg(sets=("in_order", "size"), in_order=("in_order", "mean"),
                                              late_packets=("late_packets", "mean"), events=("events", "mean"))


def theorem2_tables(thresholds: dict, timeouts: pd.DataFrame, K: float = 4.0) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The Theorem 2 results as tables: the averaged estimator's threshold per deviation form of eq. 17
    (``thresholds``: form → per-run thresholds, :func:`averaged_rto_thresholds`) with its mean, 95 % CI and
    eq. 25's ``1/(2K)``; and the per-packet estimator's spurious timeouts (:func:`spurious_timeouts`) as a
    deviation form × minimum RTO table of percentages."""
    from ...stats import mean_ci

    rows = []
    for form, values in thresholds.items():
        x = np.asarray(values, dtype=float)
        x = x[np.isfinite(x)]
        m, half, _ = mean_ci(x)
        rows.append({"eq. 17": {"rfc6298": "deviation against R_{n−1} (RFC 6298)",
                                "printed": "deviation against R_n (as printed)"}.get(form, form),
                     "threshold g_22 (mean)": m, "95 % CI low": m - half, "95 % CI high": m + half,
                     "runs": int(x.size), "eq. 25: 1/(2K)": 1 / (2 * K)})
    floors = {"none": "no minimum (eq. 15)", "rfc6298": "RFC 6298: RTO ≥ 1 s", "linux": "Linux: R + max(K V, 200 ms)"}
    forms = {"rfc6298": "deviation against R_{n−1} (RFC 6298)", "printed": "deviation against R_n (as printed)"}
    to = timeouts.assign(floor=timeouts.floor.map(floors), deviation=timeouts.deviation.map(forms))
    pct = to.pivot(index="deviation", columns="floor", values="mean") * 100
    return pd.DataFrame(rows), pct[[floors[f] for f in ("none", "rfc6298", "linux")]]


def table1_frame(pathsets: dict) -> pd.DataFrame:
    """Table 1's path sets after preprocessing (``{n: PathSet}``) as one table: ``paths``, then each path's
    number, delay (ms), rate (Mbit/s) and the original paths merged into it."""
    return pd.concat([ps.to_frame().assign(paths=n)[["paths", "path", "delay_ms", "rate_mbps", "original paths"]]
                      for n, ps in pathsets.items()], ignore_index=True)


def table1_lines(pathsets: dict) -> list[str]:
    """:func:`table1_frame` in words, one line per path set (the chapter's profile-independent check)."""
    return [f"{n} paths: " + "; ".join(f"path {i + 1}: {d * 1e3:g} ms, {b / 1e6:g} Mbit/s (original "
                                        f"{', '.join(str(m + 1) for m in g)})"
                                        for i, (d, b, g) in enumerate(zip(ps.delays_s, ps.rates_bps, ps.members)))
            for n, ps in pathsets.items()]


def appendix_a3_summary(a3: pd.DataFrame) -> pd.DataFrame:
    """:func:`appendix_a3_check`'s draws per case: how many, and the share in which each of eqs. 28–31
    agrees with eq. 22."""
    rows = []
    for case, g in a3.groupby("case", sort=True):
        rows.append({"case": case, "draws": len(g),
                     **{f"eq. {c[2:4]} agrees with eq. 22": float((g.eq22_holds == g[c]).mean())
                        for c in ("eq28_holds", "eq29_holds", "eq30_holds", "eq31_holds")}})
    return pd.DataFrame(rows)
