"""Validation checks of coupled congestion control against RFC 6356's goals (issue 7).

Each check runs a multipath connection over several seeds and returns a tidy table with the
mean, a Student-t confidence interval and the theoretical expectation
(:mod:`cmtlab.mptcp_theory`):

* :func:`disjoint_paths_table` — random loss ``p`` on ``n`` identical disjoint paths: uncoupled
  ≈ ``n`` single-path TCPs, LIA and OLIA ≈ one (RFC 6356 sec. 2, goal 1 generalised to
  disjoint paths: "do no harm", and sec. 3's equilibrium);
* :func:`congested_clean_table` — one congested and one clean path: LIA and OLIA move traffic
  off the congested path (goal 3, "balance congestion").

What runs a connection is a *runner*: a callable ``runner(congestion, loss_rates, rtts_s,
seed) -> per-subflow throughputs (bit/s)``.  The default, :func:`round_runner`, is the
engine-free round model (:func:`cmtlab.sim.round_model.simulate_rounds`) driving the real
congestion classes; a packet-level runner built on :func:`cmtlab.sim.simulate_mptcp` has the
same shape.  ``"single"`` in place of a congestion name runs one single-path NewReno flow on
the first path — the reference a multipath connection is compared with.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ._validate import as_float_array, check_int, check_positive
from .progress import progress


def mean_ci(values, confidence: float = 0.95):
    """Mean and half-width of the Student-t confidence interval of ``values`` (0 for one value)."""
    from scipy import stats

    x = as_float_array("values", values)
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}")
    m = float(x.mean())
    if x.size < 2:
        return m, 0.0
    half = float(stats.t.ppf(0.5 + confidence / 2, x.size - 1) * x.std(ddof=1) / np.sqrt(x.size))
    return m, half


def round_runner(duration_s: float = 300.0, seg_bytes: int = 1448):
    """A runner on the round model (module docstring) with this run length and segment size."""
    from .sim.round_model import simulate_rounds

    duration_s = check_positive("duration_s", duration_s)

    def run(congestion, loss_rates, rtts_s, seed):
        if congestion == "single":
            return simulate_rounds("newreno", loss_rates[:1], rtts_s[:1], duration_s=duration_s,
                                   seg_bytes=seg_bytes, seed=seed).subflow_bps
        return simulate_rounds(congestion, loss_rates, rtts_s, duration_s=duration_s, seg_bytes=seg_bytes,
                               seed=seed).subflow_bps

    run.description = f"round model, {duration_s:g} s per run, {seg_bytes} B segments"
    return run


def _runs(runner, algorithms, loss_rates, rtts_s, seeds, desc):
    rows = []
    jobs = [(a, s) for a in algorithms for s in seeds]
    for a, s in progress(jobs, desc=desc, unit="run"):
        bps = np.asarray(runner(a, list(loss_rates), list(rtts_s), s), dtype=float)
        rows.append(dict(congestion=a, seed=s, total_bps=float(bps.sum()),
                         **{f"subflow{i}_bps": float(v) for i, v in enumerate(bps)}))
    return pd.DataFrame(rows)


def disjoint_paths_table(n_paths: int = 3, loss_rate: float = 0.01, rtt_s: float = 0.1, *,
                         algorithms=("uncoupled", "lia", "olia"), seeds=range(5), runner=None,
                         confidence: float = 0.95) -> pd.DataFrame:
    """Total throughput of each algorithm on ``n_paths`` identical disjoint paths, in single-TCP units.

    One row per algorithm (and one for ``"single"``, the single-path TCP reference measured
    with the same runner): ``mean_bps``, ``ci_bps`` (half-width), ``ratio_to_single`` (mean over
    mean of the reference), ``expected_ratio`` (``n`` for uncoupled, 1 for the coupled ones,
    from :func:`cmtlab.mptcp_theory.multipath_throughput_bps`) and ``mathis_bps``.
    """
    from .mptcp_theory import mathis_throughput_bps, multipath_throughput_bps

    n = check_int("n_paths", n_paths, minimum=1)
    check_positive("rtt_s", rtt_s)
    if not 0 < loss_rate < 1:
        raise ValueError(f"loss_rate must be in (0, 1), got {loss_rate!r}")
    runner = runner or round_runner()
    p, r = [float(loss_rate)] * n, [float(rtt_s)] * n
    runs = _runs(runner, ("single",) + tuple(algorithms), p, r, list(seeds), "disjoint paths")
    single = runs.loc[runs.congestion == "single", "total_bps"].mean()
    mathis = mathis_throughput_bps(loss_rate, rtt_s)
    rows = []
    for a, g in runs.groupby("congestion", sort=False):
        m, h = mean_ci(g.total_bps, confidence)
        exp = 1.0 if a == "single" else multipath_throughput_bps(a if a in ("lia", "olia", "uncoupled") else "lia",
                                                                  p, r) / mathis
        rows.append(dict(congestion=a, n_paths=n, loss_rate=loss_rate, rtt_s=rtt_s, n_seeds=len(g), mean_bps=m,
                         ci_bps=h, ratio_to_single=m / single, ci_ratio=h / single, expected_ratio=exp,
                         mathis_bps=mathis))
    return pd.DataFrame(rows)


def congested_clean_table(loss_rates=(0.02, 0.002), rtt_s: float = 0.1, *,
                          algorithms=("uncoupled", "lia", "olia"), seeds=range(5), runner=None,
                          confidence: float = 0.95) -> pd.DataFrame:
    """Share of each algorithm's throughput on the congested path (path 0) of two disjoint paths.

    ``expected_share``: uncoupled ``sqrt(p1)/(sqrt(p0)+sqrt(p1))`` (two independent TCPs), LIA
    from its fluid equilibrium (windows ∝ ``1/p``), OLIA 0 (only the best path in equilibrium).
    """
    from .mptcp_theory import lia_equilibrium_windows

    p = as_float_array("loss_rates", loss_rates)
    if p.size != 2 or np.any(p <= 0) or np.any(p >= 1):
        raise ValueError(f"loss_rates must be two values in (0, 1), got {loss_rates!r}")
    check_positive("rtt_s", rtt_s)
    runner = runner or round_runner()
    r = [float(rtt_s)] * 2
    runs = _runs(runner, tuple(algorithms), list(p), r, list(seeds), "congested + clean")
    runs["congested_share"] = runs.subflow0_bps / runs.total_bps
    w = lia_equilibrium_windows(p, r)
    expected = {"uncoupled": float((1 / np.sqrt(p[0])) / (1 / np.sqrt(p)).sum()), "lia": float(w[0] / w.sum()),
                "olia": 0.0}
    rows = []
    for a, g in runs.groupby("congestion", sort=False):
        m, h = mean_ci(g.congested_share, confidence)
        tm, th = mean_ci(g.total_bps, confidence)
        rows.append(dict(congestion=a, loss_rate_congested=float(p[0]), loss_rate_clean=float(p[1]),
                         n_seeds=len(g), congested_share=m, ci_share=h, expected_share=expected.get(a, np.nan),
                         mean_total_bps=tm, ci_total_bps=th))
    return pd.DataFrame(rows)


__all__ = ["mean_ci", "round_runner", "disjoint_paths_table", "congested_clean_table"]
