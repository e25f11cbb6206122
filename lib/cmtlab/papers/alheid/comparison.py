"""Tables of the Alheid chapters A2–A4 and their paper-vs-reproduction comparisons (Alheid et al., sec. V).

Everything here works on what a chapter computed — the per-run rows of
:func:`cmtlab.papers.alheid.experiments.run` and their ``summary`` (:func:`~cmtlab.papers.alheid.experiments.summarise`),
or the cwnd traces of :func:`~cmtlab.papers.alheid.experiments.fig6_runs` — and never simulates.  Paper
numbers enter only as comparison targets (the ``PAPER_*`` constants, each with the section or
table it comes from); the verdicts are computed from the reproduced values
(:class:`cmtlab.report.Comparison`).

Units follow the paper (sec. IV.B): gThroughput in Mbit/s, OOO-BO in Kbyte, OOO-R and LU in %,
improvements as 100 × (solution / NoPR − 1) %, congestion windows in segments of 1400 B.

* :func:`mean_improvement`, :func:`best_at` — the paper's "on average" gains and the best solution
  at one point (secs. V.A, V.B);
* :func:`diagnostics` — per-run counters behind the means (fast retransmits, timeouts, duplicates);
* :func:`variant_change`, :func:`variant_changes_markdown` — the lowest-RTT scheduler and OLIA
  against the paper's round robin + LIA;
* :func:`rule_table`, :func:`max_rule_difference_pct` — PR-R's ``ssthresh`` rule at a fast
  retransmit: Algorithm 1 (keep) against ``ssthresh = cwnd``;
* :func:`recovery_table`, :func:`recovery_gains`, :func:`recovery_summary` — the runs under two loss responses (NewReno fast
  recovery and the Chihani–Collange model's halving, ``recovery=``) side by side;
* :func:`timeout_causes`, :func:`timeout_cause_counts` — what preceded each timeout of a traced run;
* :func:`cwnd_means`, :func:`run_means` — Fig. 6's time-averaged windows and per-run results;
* :func:`fig4_comparison` (A2: Fig. 4, Table III), :func:`fig5_comparison` (A3: Fig. 5, Table IV),
  :func:`fig6_comparison` (A4: Fig. 6).
"""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd

from ...report import (BY_CONSTRUCTION, NO_CHANGE, NOT_ASSESSED, NOT_REPRODUCED, PARTLY, REPRODUCED, SAME,
                       Comparison, Condition, Threshold, share_rule)
from .cases import spell_cases
from .experiments import SOLUTION_ORDER
from .paper import (CLAIMS, FIG4, FIG5, FIG6, PAPER_DSACK_GAIN_BEYOND_50M_PCT, PAPER_DSACK_MAX_MBPS,  # noqa: F401
                    PAPER_GAIN_UP_TO_50M_PCT, PAPER_PRR_GAIN_BEYOND_50M_PCT, PAPER_PRR_GAIN_PDRS_PCT, PAPER_SINGLE_TCP_MAX_INTRO_MBPS,
                    PAPER_SINGLE_TCP_MAX_VB_MBPS, PAPER_TABLE3, PAPER_TABLE4, PAPER_TCPDOOR_GAIN_PDR0_PCT)

#: The paper's scheduler and coupled congestion control, as ``experiments.run`` labels them (``sched + " + " + cc``).
BASE_VARIANT = "round_robin + lia"
#: Variant → (what it is, what it replaces), for :func:`variant_changes_markdown`.
VARIANT_LABELS = {"lowest_rtt + lia": ("lowest-RTT scheduler", "round robin"), "round_robin + olia": ("OLIA", "LIA")}
#: Tolerance of :func:`best_at`: solutions within 1 % of the best count as tied.
BEST_TIE_TOL = 0.01
#: Fig. 6: "favours one subflow" read as a ratio of the two subflows' mean windows of at least this (either way).
FAVOUR_RATIO = 1.5
#: Fig. 6: PR-R's "large windows" hold partly if its total is at least this times NoPR's and TCP-DOOR's.
LARGE_RATIO = 1.5
#: Fig. 5: "decreases dramatically" read as at least 30 % lower at the largest PDR (10–30 %: partly).
DRAMATIC_DROP = 0.3
PARTLY_DROP = 0.1
#: A timeout counts as "during a progressing recovery" when the subflow's cumulative ACK advanced at most
#: this long before it (s); as "after a stall" when it had not advanced for at least :data:`STALL_S` (s).
PROGRESS_S = 0.05
STALL_S = 0.15
#: Fig. 5: "stable against the PDR" read as at the largest PDR within 15 % of the PDR-0 value.
STABLE_RATIO = 0.85


def gthroughput_wide(summary: pd.DataFrame, x: str) -> pd.DataFrame:
    """gThroughput (Mbit/s), one row per value of ``x`` and one column per solution (first-seen order)."""
    return summary.pivot_table(index=x, columns="solution", values="gthroughput_mbps", sort=False)


def mean_improvement(imp: pd.DataFrame, solution: str, points) -> float:
    """The paper's "on average" gain (sec. V.A/B): mean of ``solution``'s improvement over NoPR (%) over ``points``.

    ``imp`` is :func:`cmtlab.papers.alheid.experiments.improvement_pct` (index: the swept value).  The mean
    of the per-point percentages, not the percentage of the means.  Raises :class:`KeyError` for a
    point or solution that was not run, and :class:`ValueError` for no points.
    """
    points = list(points)
    if not points:
        raise ValueError("mean_improvement needs at least one point")
    return float(imp.loc[points, solution].mean())


def best_at(wide: pd.DataFrame, point, *, solutions=SOLUTION_ORDER, tol: float = BEST_TIE_TOL) -> str:
    """The solutions within ``tol`` (relative, 1 %) of the best gThroughput at ``point``, joined by " = ".

    ``wide`` is gThroughput with one column per solution (:func:`gthroughput_wide`); the result
    lists the tied solutions in ``solutions`` order, e.g. ``"D-SACK = TCP-DOOR"``.
    """
    row = wide.loc[point, list(solutions)]
    return " = ".join(row[row >= (1 - tol) * row.max()].index)


def diagnostics(runs: pd.DataFrame, x: str, points, columns) -> pd.DataFrame:
    """Per-run means of ``columns`` per (``x``, solution) at ``points``, the multipath runs only (no single TCP).

    The counters behind the chapter's means: fast retransmits and timeouts per run, the share of
    data segments sent that were duplicates (``spurious_share_pct``, %), LU (%) and buffer (Kbyte).
    """
    sel = runs[runs[x].isin(list(points)) & (runs.solution != "single TCP")]
    return sel.groupby([x, "solution"], sort=False)[list(columns)].mean()


def variant_change(mod_s: pd.DataFrame, variant: str, metric: str, x: str, *, base: str = BASE_VARIANT) -> pd.Series:
    """Per solution, the mean over the ``x`` points of ``variant``'s change against ``base`` in ``metric``.

    ``mod_s`` is :func:`~cmtlab.papers.alheid.experiments.summarise` by ``["variant", x, "solution"]``.
    For gThroughput (``gthroughput_mbps``) the change is relative, 100 × (variant / base − 1) %;
    for any other metric (a percentage such as ``ooo_r_pct``) it is the difference in points.
    """
    ms = mod_s.set_index(["variant", x, "solution"])
    a = ms.xs(variant, level="variant")[metric]
    b = ms.xs(base, level="variant")[metric]
    d = (a / b - 1) * 100 if metric == "gthroughput_mbps" else a - b
    return d.groupby(level="solution").mean()


def _signed_change(fmt: str, x: float) -> str:
    """``fmt`` applied to a change, a change that rounds to zero without its sign ("0 %", not "-0 %" or "+0 %").

    >>> _signed_change("{:+.0f} %", -0.2), _signed_change("{:+.1f} points", 0.04), _signed_change("{:+.1f} points", -0.5)
    ('0 %', '0.0 points', '-0.5 points')
    """
    return re.sub(r"^[+-](?=0(\.0+)?(?![\d.]))", "", fmt.format(x))


def variant_changes_markdown(mod_s: pd.DataFrame, x: str, *, metrics=("gthroughput_mbps",), over: str = "",
                             base: str = BASE_VARIANT, solutions=SOLUTION_ORDER) -> str:
    """Markdown bullets: each variant of :data:`VARIANT_LABELS` that was run, against round robin + LIA.

    gThroughput changes in % (:func:`variant_change`), OOO-R (``ooo_r_pct``) changes in points;
    ``over`` names what the mean is over (e.g. "the Table III distances").
    """
    names = {"gthroughput_mbps": ("gThroughput", "{:+.0f} %"), "ooo_r_pct": ("OOO-R", "{:+.1f} points")}
    lines = []
    run_variants = set(mod_s.variant)
    for var, (what, replaced) in VARIANT_LABELS.items():
        if var not in run_variants:
            continue
        parts = []
        for metric in metrics:
            name, fmt = names[metric]
            c = variant_change(mod_s, var, metric, x, base=base)
            parts.append(f"{name} " + ", ".join(f"{s} {_signed_change(fmt, c[s])}" for s in solutions))
        lines.append(f"* **{what}** instead of {replaced}: " + "; ".join(parts) + ".")
    return f"Changes against round robin + LIA (mean over {over}):\n\n" + "\n".join(lines)


def rule_table(rules: pd.DataFrame, x: str) -> pd.DataFrame:
    """PR-R under both ``ssthresh`` rules: mean gThroughput (Mbit/s), fast retransmits and timeouts per run,
    per (``x``, ``prr_ssthresh``) — the runs of :func:`cmtlab.papers.alheid.experiments.prr_rule_cases`."""
    return rules.groupby([x, "prr_ssthresh"], sort=False)[["gthroughput_mbps", "fast_retransmits", "timeouts"]].mean()


def max_rule_difference_pct(rule_s: pd.DataFrame, *, rule: str = "keep", other: str = "cwnd") -> float:
    """The largest abs(100 × (gThroughput under ``rule`` / under ``other`` − 1)) (%) over the points of :func:`rule_table`."""
    rw = rule_s.gthroughput_mbps.unstack("prr_ssthresh")
    return float(((rw[rule] / rw[other] - 1) * 100).abs().max())


RECOVERY_COLUMNS = ("gthroughput_mbps", "fast_retransmits", "timeouts", "spurious_share_pct")


def recovery_table(runs: pd.DataFrame, x: str, points, *, columns=RECOVERY_COLUMNS) -> pd.DataFrame:
    """Per-run means of ``columns`` per (``x``, ``recovery``, solution) at ``points``, multipath runs only.

    ``runs`` holds :func:`~cmtlab.papers.alheid.experiments.run` rows of cases built with each loss response
    (``fig4_cases(..., recovery=r)``; the labels carry a ``recovery`` column).  Default columns:
    gThroughput (Mbit/s), fast retransmits and timeouts per run, duplicates sent (% of data segments).
    """
    if "recovery" not in runs.columns:
        raise ValueError("recovery_table needs a 'recovery' column (cases from fig4_cases(..., recovery=...))")
    sel = runs[runs[x].isin(list(points)) & (runs.solution != "single TCP")]
    if sel.empty:
        raise ValueError(f"no multipath runs at {x} = {list(points)}")
    return sel.groupby([x, "recovery", "solution"], sort=False)[list(columns)].mean()


def recovery_gains(rec_table: pd.DataFrame, *, solution: str = "PR-R", base: str = "NoPR") -> pd.DataFrame:
    """``solution``'s gThroughput gain over ``base`` (%, 100 × (ratio − 1)) per point (rows) and loss
    response (columns), from :func:`recovery_table`."""
    g = rec_table["gthroughput_mbps"].unstack("solution")
    return ((g[solution] / g[base] - 1) * 100).unstack("recovery")


def recovery_summary(rec_table: pd.DataFrame, alternative: str, *, default: str = "newreno") -> dict:
    """The numbers a chapter quotes from :func:`recovery_table` (means over its points).

    ``gain_default_max`` / ``gain_alt_min`` / ``gain_alt_max``: PR-R's gain over NoPR (%) under the
    ``default`` and the ``alternative`` loss response; ``nopr_default`` / ``nopr_alt``: NoPR's mean
    gThroughput (Mbit/s); ``prr_change_pct``: the largest |change| of PR-R's gThroughput between the
    two (%); ``nopr_alt_timeouts``, ``nopr_alt_dup_pct``: NoPR's timeouts per run and duplicates sent
    (%) under ``alternative``.
    """
    for r in (default, alternative):
        if r not in set(rec_table.index.get_level_values("recovery")):
            raise ValueError(f"recovery {r!r} was not run (have {sorted(set(rec_table.index.unique('recovery')))})")
    gain = recovery_gains(rec_table)
    g = rec_table["gthroughput_mbps"].unstack("solution")
    nopr, prr = g["NoPR"].unstack("recovery"), g["PR-R"].unstack("recovery")
    nopr_alt = rec_table.xs(alternative, level="recovery").xs("NoPR", level="solution")
    return {"gain_default_max": float(gain[default].max()), "gain_alt_min": float(gain[alternative].min()),
            "gain_alt_max": float(gain[alternative].max()), "nopr_default": float(nopr[default].mean()),
            "nopr_alt": float(nopr[alternative].mean()),
            "prr_change_pct": float((prr[alternative] / prr[default] - 1).abs().max() * 100),
            "nopr_alt_timeouts": float(nopr_alt.timeouts.mean()),
            "nopr_alt_dup_pct": float(nopr_alt.spurious_share_pct.mean())}


def timeout_causes(events: pd.DataFrame, acks: pd.DataFrame, *, progress_s: float = PROGRESS_S,
                   stall_s: float = STALL_S) -> pd.DataFrame:
    """One row per timeout of a traced run: how long before it the subflow's cumulative ACK last advanced.

    ``events`` and ``acks`` are the ``"events"`` and ``"acks"`` traces of
    :func:`~cmtlab.papers.alheid.experiments.traced_run`.  ``cause`` is ``"progressing"`` when the cumulative
    ACK advanced at most ``progress_s`` before the timeout (a recovery under way, moved on by partial
    ACKs, whose timer RFC 6582 sec. 3.2 step 5 restarts only at the first partial ACK), ``"stall"``
    when it had not advanced for ``stall_s`` or more (duplicate ACKs only, or nothing), else ``"other"``.
    ``since_any_ack_s`` is the time since the subflow's last ACK of any kind (``inf`` before the first).
    """
    to = events[events.event == "timeout"]
    rows = []
    for sf, grp in to.groupby("subflow", sort=False):
        a = acks[acks.subflow == sf].sort_values("arrival_s")
        adv = a.ack.to_numpy() > np.maximum.accumulate(np.r_[-1, a.ack.to_numpy()[:-1]])
        t_all = a.arrival_s.to_numpy()
        t_adv = t_all[adv]
        for t in grp.time_s.to_numpy():
            i = np.searchsorted(t_adv, t, side="left")
            since = float(t - t_adv[i - 1]) if i > 0 else float(t)
            j = np.searchsorted(t_all, t, side="left")
            since_any = float(t - t_all[j - 1]) if j > 0 else math.inf
            cause = "progressing" if since <= progress_s else ("stall" if since >= stall_s else "other")
            rows.append({"subflow": int(sf), "time_s": float(t), "since_ack_advance_s": since,
                         "since_any_ack_s": since_any, "cause": cause})
    return pd.DataFrame(rows, columns=["subflow", "time_s", "since_ack_advance_s", "since_any_ack_s", "cause"])


def timeout_cause_counts(causes: pd.DataFrame) -> dict:
    """``{"progressing": n, "stall": n, "other": n}`` from :func:`timeout_causes` (zeros included)."""
    vc = causes.cause.value_counts()
    return {c: int(vc.get(c, 0)) for c in ("progressing", "stall", "other")}


def cwnd_means(cw_summary: pd.DataFrame) -> pd.DataFrame:
    """Fig. 6: per solution the time-averaged cwnd (segments) of each subflow, mean over the runs, and SF 1 / SF 2.

    ``cw_summary`` is :func:`~cmtlab.papers.alheid.experiments.cwnd_summary` of every run (subflows numbered 1, 2).
    """
    mean_cw = cw_summary.groupby(["solution", "subflow"], sort=False).mean_cwnd_segments.mean().unstack("subflow")
    mean_cw.columns = [f"SF {c} mean cwnd (seg.)" for c in mean_cw.columns]
    mean_cw["SF 1 / SF 2"] = mean_cw.iloc[:, 0] / mean_cw.iloc[:, 1]
    return mean_cw


def run_means(run_rows: pd.DataFrame) -> pd.DataFrame:
    """Per solution, the mean over runs of gThroughput (Mbit/s), fast retransmits, timeouts and duplicates sent (%)."""
    return run_rows.groupby("solution", sort=False)[["gthroughput_mbps", "fast_retransmits", "timeouts",
                                                     "spurious_share_pct"]].mean()


def _ci(row, metric: str):
    """(low, high) of the 95 % CI of ``metric`` in a summary row (NaN pair when it has no CI column or one seed)."""
    h = row.get(f"{metric}_ci95", np.nan) if hasattr(row, "get") else np.nan
    v = float(row[metric])
    return (v - h, v + h) if np.isfinite(h) else (np.nan, np.nan)


def _n(row) -> int | None:
    return int(row["n_seeds"]) if hasattr(row, "get") and row.get("n_seeds") is not None and np.isfinite(
        row.get("n_seeds", np.nan)) else None


def _half(row, metric: str) -> float:
    """The 95 % half-width of ``metric`` in a summary row: 0 for a deterministic point (``deterministic`` column
    true: a run of the papers' model without a random source, repeated identically), NaN without an interval."""
    if bool(row.get("deterministic", False)):
        return 0.0
    return float(row.get(f"{metric}_ci95", np.nan))


def gain_ci(summary: pd.DataFrame, x: str, solution: str, points, *, base: str = "NoPR") -> tuple:
    """The paper's "on average" gain of ``solution`` over ``base`` (%, mean over ``points``) and its 95 % CI.

    The interval comes from the seeds' 95 % half-widths of both gThroughputs at each point by first-order
    error propagation of the ratio, combined over the points as independent: h = sqrt(Σ h_i²) / k.  Returns
    ``(gain, (low, high), n_seeds)``; the interval is NaN without CI columns.
    """
    s = summary.set_index([x, "solution"])
    gains, hs = [], []
    for p in points:
        a, b = s.loc[(p, solution)], s.loc[(p, base)]
        r = a.gthroughput_mbps / b.gthroughput_mbps
        gains.append(100 * (r - 1))
        ha, hb = _half(a, "gthroughput_mbps"), _half(b, "gthroughput_mbps")
        hs.append(100 * r * np.hypot(ha / a.gthroughput_mbps, hb / b.gthroughput_mbps))
    g = float(np.mean(gains))
    h = float(np.sqrt(np.sum(np.square(hs))) / len(hs))
    ns = [_n(s.loc[(p, sol)]) for p in points for sol in (solution, base)] if "n_seeds" in s.columns else []
    n = max((k for k in ns if k), default=None)
    if h == 0.0:          # every point deterministic (the model without a random source): no interval to give
        return g, (np.nan, np.nan), None
    return g, ((g - h, g + h) if np.isfinite(h) else (np.nan, np.nan)), n


#: Table III/IV metrics: name, summary column, unit, number format.
TABLE_METRICS = (("OOO-BO", "ooo_bo_kbyte", "Kbyte", ".0f"), ("OOO-R", "ooo_r_pct", "%", ".1f"),
                 ("LU", "lu_pct", "%", ".2f"))


def ratio_ci(a: float, ha: float, b: float, hb: float) -> tuple:
    """``a / b`` and its 95 % interval from the half-widths ``ha``, ``hb`` of ``a`` and ``b`` (first-order error
    propagation, independent seeds); the interval is NaN where a half-width is (one seed: no interval)."""
    r = float(a) / float(b)
    h = r * float(np.hypot(ha / a, hb / b)) if a and b else np.nan
    return r, ((r - h, r + h) if np.isfinite(h) and h > 0 else (np.nan, np.nan))


def _point(summary: pd.DataFrame, x: str, point, solution: str, metric: str = "gthroughput_mbps") -> tuple:
    """``(mean, half-width, n_seeds)`` of ``metric`` at (``point``, ``solution``) of a summary."""
    row = summary.set_index([x, "solution"]).loc[(point, solution)]
    return float(row[metric]), _half(row, metric), (None if bool(row.get("deterministic", False)) else _n(row))


def _interval(v: float, h: float):
    """``(v − h, v + h)``, or None for a deterministic value (h = 0) or one without an interval."""
    return (v - h, v + h) if np.isfinite(h) and h > 0 else None


def _add_table_cells(table: Comparison, claim, frame: pd.DataFrame, paper: dict, label, grid: str) -> None:
    """The cells of Table III/IV (``claim``'s cases ``"<point> · <solution>: <metric>"``), each with its 95 % CI over
    the seeds (an interval across a band edge gives "undecided at n seeds"), shown as the grid ``grid``; a cell the
    deciding simulator does not measure (NaN, e.g. OOO-R without the receiver's counters) is *not assessed*."""
    idx = frame.index
    for (x, sol), values in paper.items():
        for (name, metric, unit, fmt), p in zip(TABLE_METRICS, values):
            case = f"{label(x)} · {sol}: {name}"
            row = frame.loc[(x, sol)] if (x, sol) in idx else None
            if row is None or metric not in row or not np.isfinite(float(row[metric])):
                table.add_not_assessed(claim, paper=f"{p:g} {unit}", case=case,
                                       reason=f"{name} not measured on this simulator" if row is not None
                                       else f"{label(x)} not run")
                continue
            det = bool(row.get("deterministic", False))     # a run of the model without a random source: no seeds
            table.add_value(claim, paper=p, ours=float(row[metric]), unit=unit, fmt=fmt,
                            ci=None if det else _ci(row, metric), n_seeds=None if det else _n(row), case=case,
                            cell=(grid, f"{label(x)} · {sol}", f"{name} ({unit})"))


#: The deciding reference's column heading per reference (the chapter's ``here_column``).
HERE_COLUMNS = {"papers-sim-p2p": "papers' simulator, point-to-point stand-in (deciding)",
                "papers-sim-wifi": "papers' simulator over Wi-Fi (deciding)"}
#: The reference column of the book's own Wi-Fi imitation (``cmtlab.sim``, preset "paper"): shown, not counted.
PRESET_COLUMN = "cmtlab.sim's Wi-Fi imitation (not counted)"
#: The reference column of the papers' point-to-point stand-in where the Wi-Fi runs decide.
MODEL_STANDIN_COLUMN = "papers' simulator, point-to-point stand-in (not counted)"
#: Why the point-to-point stand-in decides (every deciding row's note says it).
P2P_REASON = "point-to-point stand-in: the model's Wi-Fi runs are not recorded yet"
_EVIDENCE = (REPRODUCED, PARTLY, NOT_REPRODUCED)


def add_reference(table: Comparison, other: Comparison, column: str) -> int:
    """Put ``other``'s value and verdict of every claim (and case) it shares with ``table`` into ``table``'s
    reference column ``column`` (the same claim computed on another reference: the book's imitation preset, the
    other stand-in).  Only ``table``'s own value decides; where ``other``'s verdict differs (both decided), the
    row's note says so.  Grid cells and by-construction rows get none.  Returns how many rows got a reference."""
    by_key = {(r.key, r.case): r for r in other.rows if r.key}
    n = 0
    for r in table.rows:
        o = by_key.get((r.key, r.case))
        if o is None or r.cell is not None or o.verdict == BY_CONSTRUCTION or r.verdict == BY_CONSTRUCTION:
            continue
        if o.verdict == NOT_ASSESSED or re.search(r"\bnan\b|not computed", o.here):
            r.references[column] = "not measured there"
        else:
            r.references[column] = f"{o.here} → {o.verdict}"
            if r.verdict != o.verdict and r.verdict in _EVIDENCE and o.verdict in _EVIDENCE:
                r.note = (r.note + "; " if r.note else "") + f"{column.split(' (')[0]} gives {o.verdict}"
        n += 1
    return n


def model_summary(runs: pd.DataFrame, x: str) -> pd.DataFrame:
    """The recorded runs of the papers' simulator (:func:`cmtlab.papers.alheid.papers_sim.recorded_fig`) summarised
    like :func:`~cmtlab.papers.alheid.experiments.summarise` by ``[x, "solution"]`` (means and 95 % CIs over the
    loss seeds), so that the chapters' comparison functions run on them; OOO-R, which the model's point-to-point
    driver does not count, is NaN (its claims and cells are then *not assessed*)."""
    from .papers_sim import fig_summary

    s = fig_summary(runs, x)
    s["deterministic"] = s["n_seeds"] == 1     # a lossless run of the model has no random source: it runs once
    s["ooo_r_pct"] = np.nan
    s["ooo_r_pct_ci95"] = np.nan
    return s


def model_cwnd(trace: pd.DataFrame) -> pd.DataFrame:
    """The recorded cwnd traces of the papers' simulator (``alheid-fig6-cwnd``) in the layout of
    :func:`~cmtlab.papers.alheid.experiments.fig6_traces` (subflows numbered from 0)."""
    return trace.assign(subflow=trace.subflow.astype(int) - 1)[["solution", "time_s", "subflow", "cwnd_segments"]]


#: Sec. V.B: "unable to utilize the available bandwidth" read as NoPR / single TCP below this.
NOPR_UNABLE_RATIO = 1.2
NOPR_UNABLE = Threshold("NoPR / single TCP (mean over the distances)", "<", NOPR_UNABLE_RATIO,
                        "'unable to utilize the available bandwidth' read as less than 20 % above one TCP flow over "
                        "one link; using both links would give about 2")
#: "do not exceed": at most the ceiling plus the policy's no-change band.
NOT_EXCEED = 1 + NO_CHANGE


def _gain_row(table, claim, summary, x, solution, points, target, *, case="", note=""):
    g, ci, n = gain_ci(summary, x, solution, points)
    return table.add_value(claim, paper=target, ours=g, unit="%", fmt=".1f", ci=ci, n_seeds=n, case=case,
                           note=note or f"mean over {', '.join(f'{p:g}' for p in points)}")


def _share_row(table, claim, holds: list, labels: list, what: str, *, case: str, ours: str = ""):
    return table.add_threshold(claim, rule=share_rule(f"share of {what} where it holds"),
                               value=float(np.mean(holds)) if holds else float("nan"), case=case,
                               ours=f"{sum(holds)} of {len(holds)}" + (f"; {ours}" if ours else ""),
                               paper="at every " + what.rstrip("s"))


def fig4_comparison(summary: pd.DataFrame, *, table_distances_m, reference: str = "papers-sim-p2p",
                    note: str = "") -> Comparison:
    """A2: the claims of Fig. 4, Table III and sec. V's single-TCP sentence decided on ``summary`` (the deciding
    reference's runs: :func:`model_summary` of the papers' model, or the book's imitation as a reference
    column — call it again and :func:`add_reference`).

    ``summary`` is :func:`~cmtlab.papers.alheid.experiments.summarise` by ``["distance_m", "solution"]`` with the
    single-TCP runs.  Gains are gThroughput ratios to NoPR averaged over the distances named ("up to 50 m": ≤ 50
    m, "beyond": > 50 m) with their 95 % CI (:func:`gain_ci`); each claim's reading is in the registry
    (:data:`cmtlab.papers.alheid.paper.CLAIMS`).  ``note`` is added to every row (e.g. why this reference).
    """
    if "single TCP" not in set(summary.solution):
        raise ValueError("fig4_comparison needs the single-TCP runs (fig4_cases(..., single_tcp=True))")
    wide = gthroughput_wide(summary, "distance_m")
    dists = sorted(d for d in wide.index)
    t3 = summary[summary.distance_m.isin(list(table_distances_m)) & (summary.solution != "single TCP")]
    up_to_50 = [d for d in dists if d <= 50]
    beyond_50 = [d for d in dists if d > 50]
    table = Comparison(here_column=HERE_COLUMNS.get(reference, "reproduction"))

    c = CLAIMS["sec5.single-tcp-5mbps"]
    d_max = wide["single TCP"].idxmax()
    v, h, n = _point(summary, "distance_m", d_max, "single TCP")
    table.add_value(c, paper=PAPER_SINGLE_TCP_MAX_INTRO_MBPS, ours=v, unit="Mbit/s", fmt=".1f",
                    ci=_interval(v, h), n_seeds=n, note=f"at {d_max:g} m" + (f"; {note}" if note else ""))

    c = CLAIMS["sec5a.gain-up-to-50m"]
    for sol in ("TCP-DOOR", "PR-R"):
        _gain_row(table, c, summary, "distance_m", sol, up_to_50, PAPER_GAIN_UP_TO_50M_PCT, case=f"{sol} +64 %",
                  note=f"mean over {', '.join(f'{d:g}' for d in up_to_50)} m")
    table.add_claim(c, case="both outperform NoPR and D-SACK", paper="outperform others",
                    ours="best per distance: " + "; ".join(f"{d:g} m {best_at(wide, d)}" for d in up_to_50),
                    holds=all(wide.loc[d, s] >= (1 + NO_CHANGE) * wide.loc[d, ["NoPR", "D-SACK"]].max()
                              for d in up_to_50 for s in ("TCP-DOOR", "PR-R")),
                    rule="at every distance ≤ 50 m both at least 5 % above the better of NoPR and D-SACK")
    table.add_cases(c, note=note)
    spell_cases(table, c)

    c = CLAIMS["sec5a.beyond-50m"]
    if beyond_50:
        first = [best_at(wide, d) == "PR-R" for d in beyond_50]
        rest = [x for x in SOLUTION_ORDER if x != "PR-R"]
        second = ["D-SACK" in best_at(wide, d, solutions=rest).split(" = ") for d in beyond_50]
        _share_row(table, c, first, beyond_50, "distances > 50 m", case="PR-R best",
                   ours="best: " + "; ".join(f"{d:g} m {best_at(wide, d)}" for d in beyond_50))
        _gain_row(table, c, summary, "distance_m", "PR-R", beyond_50, PAPER_PRR_GAIN_BEYOND_50M_PCT,
                  case="PR-R +50 % on average")
        _share_row(table, c, second, beyond_50, "distances > 50 m", case="D-SACK second",
                   ours="best after PR-R: " + "; ".join(f"{d:g} m {best_at(wide, d, solutions=rest)}" for d in beyond_50))
        _gain_row(table, c, summary, "distance_m", "D-SACK", beyond_50, PAPER_DSACK_GAIN_BEYOND_50M_PCT,
                  case="D-SACK +22.7 % on average")
    else:
        for case in c.cases:
            table.add_not_assessed(c, case=case, paper=c.target, reason="no distance beyond 50 m was run")
    table.add_cases(c, note=note)
    spell_cases(table, c)

    multi = summary[summary.solution != "single TCP"]
    lu = multi.pivot_table(index="distance_m", columns="solution", values="lu_pct")
    c = CLAIMS["sec5a.prr-utilizes-both"]
    for d, case in ((50, "50 m"), (70, "70 m")):
        if d not in lu.index:
            table.add_not_assessed(c, case=case, paper="highest LU", reason=f"{d} m not run")
            continue
        table.add_claim(c, case=case, paper="highest LU", holds=bool(lu.loc[d].idxmax() == "PR-R"),
                        ours=", ".join(f"{k} {v:.1f} %" for k, v in lu.loc[d].items()),
                        rule="PR-R's mean LU the highest of the four")
    table.add_cases(c, note=note)
    spell_cases(table, c)

    c = CLAIMS["sec5a.prr-more-buffer"]
    bo = t3.pivot_table(index="distance_m", columns="solution", values="ooo_bo_kbyte")
    for d, case in ((50, "more buffer at 50 m"), (70, "more buffer at 70 m")):
        if d not in bo.index:
            table.add_not_assessed(c, case=case, paper="more buffer", reason=f"{d} m not run")
            continue
        table.add_claim(c, case=case, paper="more buffer", holds=bool(bo.loc[d, "PR-R"] > bo.loc[d, "TCP-DOOR"]),
                        ours=f"PR-R {bo.loc[d, 'PR-R']:.0f} vs TCP-DOOR {bo.loc[d, 'TCP-DOOR']:.0f} Kbyte",
                        rule="PR-R's OOO-BO above TCP-DOOR's")
    ratio = float((wide.loc[up_to_50, "TCP-DOOR"] / wide.loc[up_to_50, "PR-R"]).mean())
    table.add_value(c, case="comparable gThroughput up to 50 m", paper=1.0, ours=ratio, band=SAME, fmt=".2f",
                    paper_text="comparable (ratio 1)", note="TCP-DOOR / PR-R, mean over the distances ≤ 50 m")
    table.add_cases(c, note=note)
    spell_cases(table, c)

    nopr_vs_single = float((wide["NoPR"] / wide["single TCP"]).mean())
    table.add_threshold(CLAIMS["sec5b.nopr-unable"], paper="unable to utilize", rule=NOPR_UNABLE,
                        value=nopr_vs_single, ours=f"NoPR / single TCP = {nopr_vs_single:.2f} on average over the "
                        "distances", note=note)

    c = CLAIMS["table3.cells"]
    _add_table_cells(table, c, t3.set_index(["distance_m", "solution"]), PAPER_TABLE3, lambda d: f"{d:g} m",
                     "Table III")
    table.add_cases(c, note=note)          # 24 cells: the grid under the table shows them
    return table


def fig5_comparison(summary: pd.DataFrame, *, table_pdrs, reference: str = "papers-sim-p2p",
                    note: str = "") -> Comparison:
    """A3: the claims of Fig. 5 and Table IV (sec. V.B, scenario 2) decided on ``summary``.

    ``summary`` is :func:`~cmtlab.papers.alheid.experiments.summarise` by ``["pdr2", "solution"]`` with the
    single-TCP runs and PDR 0 among the points.  Gains are gThroughput ratios to NoPR (%), at PDR 0 or averaged
    over the PDR grid (the paper's "on average"); ratios ("dramatically", "stable", "do not exceed") carry the 95 %
    CI of the ratio (:func:`ratio_ci`), and an interval across a cut point gives *undecided at n seeds*.
    """
    sols = set(summary.solution)
    if "single TCP" not in sols:
        raise ValueError("fig5_comparison needs the single-TCP runs (fig5_cases(..., single_tcp=True))")
    if 0.0 not in set(summary.pdr2):
        raise ValueError("fig5_comparison needs the PDR-0 runs (the paper's TCP-DOOR gain is at PDR 0)")
    wide = gthroughput_wide(summary, "pdr2")
    t4i = summary[summary.pdr2.isin(list(table_pdrs)) & (summary.solution != "single TCP")].set_index(
        ["pdr2", "solution"])
    p0, pmax = min(summary.pdr2), max(summary.pdr2)
    pdrs = sorted(set(summary.pdr2))
    table = Comparison(here_column=HERE_COLUMNS.get(reference, "reproduction"))

    _gain_row(table, CLAIMS["sec5b.tcpdoor-62-lossless"], summary, "pdr2", "TCP-DOOR", [0.0],
              PAPER_TCPDOOR_GAIN_PDR0_PCT, note=note or "at PDR 0")

    a, ha, n = _point(summary, "pdr2", pmax, "TCP-DOOR")
    b, hb, _ = _point(summary, "pdr2", p0, "TCP-DOOR")
    r, ci = ratio_ci(a, ha, b, hb)
    table.add_threshold(CLAIMS["sec5b.tcpdoor-decreases"], paper="decreases dramatically",
                        rule=Threshold("drop from PDR 0 to the largest PDR", ">=", DRAMATIC_DROP,
                                       "'dramatically' read as at least 30 % lower, partly 10 %", partly=PARTLY_DROP),
                        value=1 - r, ci=(1 - ci[1], 1 - ci[0]), n_seeds=n, note=note,
                        ours=f"{1 - r:.2f}: {b:.1f} → {a:.1f} Mbit/s")

    c = CLAIMS["sec5b.prr-60-stable"]
    _gain_row(table, c, summary, "pdr2", "PR-R", pdrs, PAPER_PRR_GAIN_PDRS_PCT, case="+60 % on average",
              note=f"mean over the {len(pdrs)} PDRs {100 * p0:.1f}–{100 * pmax:.1f} %")
    a, ha, n = _point(summary, "pdr2", pmax, "PR-R")
    b, hb, _ = _point(summary, "pdr2", p0, "PR-R")
    r, ci = ratio_ci(a, ha, b, hb)
    table.add_threshold(c, case="stable", paper="stable", value=r, ci=ci, n_seeds=n,
                        rule=Threshold("PR-R at the largest PDR / at PDR 0", ">=", STABLE_RATIO,
                                       "'stable' read as within 15 % of its PDR-0 value"),
                        ours=f"{r:.3f} (PDR {100 * pmax:.1f} %)")
    table.add_cases(c, note=note)
    spell_cases(table, c)

    c = CLAIMS["sec5b.nopr-15-dsack-21.5"]
    p_nopr = wide["NoPR"].idxmax()
    v, h, n = _point(summary, "pdr2", p_nopr, "NoPR")
    table.add_threshold(c, case="NoPR does not exceed 15 Mbit/s", paper="≤ 15 Mbit/s",
                        rule=Threshold("largest NoPR gThroughput (Mbit/s)", "<=",
                                       PAPER_SINGLE_TCP_MAX_VB_MBPS * NOT_EXCEED,
                                       "'do not exceed' with the policy's no-change band"),
                        value=v, ci=_interval(v, h), n_seeds=n, ours=f"{v:.1f} Mbit/s at PDR {100 * p_nopr:.1f} %")
    single = summary[summary.solution == "single TCP"]
    s_mean, s_h = float(single.gthroughput_mbps.mean()), _half(single.iloc[0], "gthroughput_mbps")
    s_n = None if bool(single.iloc[0].get("deterministic", False)) else _n(single.iloc[0])
    table.add_value(c, case="single TCP over one link: 15 Mbit/s", paper=PAPER_SINGLE_TCP_MAX_VB_MBPS, ours=s_mean,
                    unit="Mbit/s", fmt=".1f", ci=_interval(s_mean, s_h), n_seeds=s_n,
                    note="sec. V (introduction) says 5 Mbit/s for the same quantity (decided in the Fig. 4 chapter)")
    r, ci = ratio_ci(v, h, s_mean, s_h)
    table.add_threshold(c, case="NoPR does not exceed one TCP flow", paper="≤ single TCP",
                        rule=Threshold("largest NoPR / single TCP", "<=", NOT_EXCEED,
                                       "'do not exceed' with the policy's no-change band"),
                        value=r, ci=ci, n_seeds=n, ours=f"{r:.3f} ({v:.1f} vs {s_mean:.1f} Mbit/s)")
    order = wide[list(SOLUTION_ORDER)].mean().sort_values(ascending=False)
    table.add_claim(c, case="D-SACK second after PR-R", paper="PR-R > D-SACK > others",
                    ours=" > ".join(f"{k} {v_:.1f}" for k, v_ in order.items()),
                    holds=bool(order.index[0] == "PR-R" and order.index[1] == "D-SACK"),
                    rule="order of the mean gThroughput over the PDRs: PR-R first, D-SACK second")
    p_ds = wide["D-SACK"].idxmax()
    v, h, n = _point(summary, "pdr2", p_ds, "D-SACK")
    table.add_value(c, case="D-SACK 21.5 Mbit/s at maximum", paper=PAPER_DSACK_MAX_MBPS, ours=v, unit="Mbit/s",
                    fmt=".1f", ci=_interval(v, h), n_seeds=n,
                    note=f"“at maximum” read as the largest over every PDR run, PDR 0 included: at PDR {100 * p_ds:.1f} %")
    table.add_cases(c, note=note)
    spell_cases(table, c)

    c = CLAIMS["sec5b.prr-fully-utilizes"]
    for q in (0.001, 0.009):
        case = f"highest LU at PDR {100 * q:.1f} %"
        if q not in t4i.index.get_level_values("pdr2"):
            table.add_not_assessed(c, case=case, paper="highest LU", reason=f"PDR {100 * q:.1f} % not run")
            continue
        lu = t4i.xs(q, level="pdr2").lu_pct
        table.add_claim(c, case=case, paper="highest LU", holds=bool(lu.idxmax() == "PR-R"),
                        ours=", ".join(f"{k} {v_:.1f} %" for k, v_ in lu.items()),
                        rule="PR-R's mean LU the highest of the four")
    table.add_claim(c, case="highest gThroughput over the PDRs", paper="outperforms",
                    ours=" > ".join(f"{k} {v_:.1f}" for k, v_ in order.items()),
                    holds=bool(order.index[0] == "PR-R"), rule="PR-R first in the mean gThroughput over the PDRs")
    table.add_cases(c, note=note)
    spell_cases(table, c)

    has_ooo_r = t4i.ooo_r_pct.notna().any()
    c = CLAIMS["sec5b.prr-highest-ooo-r"]
    c2 = CLAIMS["sec5b.prr-more-buffer-than-dsack"]
    for q in (0.001, 0.009):
        pct = f"{100 * q:.1f} %"
        run_here = q in t4i.index.get_level_values("pdr2")
        for claim, case in ((c, f"PDR {pct}"), (c2, f"highest OOO-R at PDR {pct}")):
            if not (run_here and has_ooo_r):
                table.add_not_assessed(claim, case=case, paper="highest OOO-R",
                                       reason="OOO-R not measured on this simulator" if run_here
                                       else f"PDR {pct} not run")
                continue
            r_ = t4i.xs(q, level="pdr2").ooo_r_pct
            table.add_claim(claim, case=case, paper="highest OOO-R", holds=bool(r_.idxmax() == "PR-R"),
                            ours=", ".join(f"{k} {v_:.1f} %" for k, v_ in r_.items()),
                            rule="PR-R's mean OOO-R the highest of the four")
        case = f"more buffer at PDR {pct}"
        if not run_here:
            table.add_not_assessed(c2, case=case, paper="more buffer", reason=f"PDR {pct} not run")
            continue
        table.add_claim(c2, case=case, paper="more buffer than D-SACK",
                        holds=bool(t4i.loc[(q, "PR-R")].ooo_bo_kbyte > t4i.loc[(q, "D-SACK")].ooo_bo_kbyte),
                        ours=f"PR-R {t4i.loc[(q, 'PR-R')].ooo_bo_kbyte:.0f} vs D-SACK "
                             f"{t4i.loc[(q, 'D-SACK')].ooo_bo_kbyte:.0f} Kbyte",
                        rule="PR-R's OOO-BO above D-SACK's")
    # sec. V.B says "PR-R has the highest OOO-R" twice, in two sentences (each one claim, counted once): the OOO-R
    # cells of Table IV decide both, and each row says so
    same = "the same Table IV OOO-R cells decide {} (sec. V.B says it in two sentences; each is one claim)"
    table.add_cases(c, note="; ".join(x for x in (note, same.format(f"the OOO-R cases of “{c2.title}”")) if x))
    spell_cases(table, c)
    table.add_cases(c2, note="; ".join(x for x in (note, same.format(f"“{c.title}”")) if x))
    spell_cases(table, c2)

    c = CLAIMS["table4.cells"]
    _add_table_cells(table, c, t4i, PAPER_TABLE4, lambda q: f"{100 * q:.1f} %", "Table IV")
    table.add_cases(c, note=note)          # 24 cells: the grid under the table shows them
    return table


def fig6_comparison(mean_cw: pd.DataFrame, *, n_runs: int, reference: str = "papers-sim-p2p",
                    note: str = "") -> Comparison:
    """A4: the four claims of Fig. 6 (sec. V.B) decided on ``mean_cw`` (:func:`cwnd_means` of ``n_runs`` runs per
    solution).  The paper gives no numbers for Fig. 6: "small" and "large" are read relative to the other
    solutions in the same runs (total of both subflows' mean windows, segments); each reading is in the registry.
    With one run per solution there is no interval: the row says how many runs decided."""
    tot = mean_cw.iloc[:, 0] + mean_cw.iloc[:, 1]
    sf2 = mean_cw.iloc[:, 1]
    ratio = np.maximum(mean_cw["SF 1 / SF 2"], 1 / mean_cw["SF 1 / SF 2"])
    runs = f"{n_runs} run{'s' if n_runs != 1 else ''} per solution, no interval"
    note = f"{runs}; {note}" if note else runs
    table = Comparison(here_column=HERE_COLUMNS.get(reference, "reproduction"))
    table.add_claim(CLAIMS["sec5b.nopr-cwnd-small"], paper="small",
                    ours=f"NoPR {tot['NoPR']:.1f} seg. in total vs PR-R {tot['PR-R']:.1f}, D-SACK {tot['D-SACK']:.1f}",
                    holds=bool(tot["NoPR"] < min(tot["PR-R"], tot["D-SACK"])),
                    rule="NoPR's total below PR-R's and D-SACK's", note=note)
    table.add_claim(CLAIMS["sec5b.tcpdoor-cwnd-small"], paper="small",
                    ours=f"TCP-DOOR {tot['TCP-DOOR']:.1f} seg. in total, SF 2 {sf2['TCP-DOOR']:.1f}; PR-R "
                         f"{tot['PR-R']:.1f}, SF 2 {sf2['PR-R']:.1f}",
                    holds=bool(tot["TCP-DOOR"] < tot["PR-R"] and sf2["TCP-DOOR"] < sf2["PR-R"]),
                    rule="TCP-DOOR's total and lossy-subflow windows below PR-R's", note=note)
    largest = tot.idxmax() == "PR-R"
    clearly = bool(tot["PR-R"] >= LARGE_RATIO * max(tot["NoPR"], tot["TCP-DOOR"]))
    table.add_claim(CLAIMS["sec5b.prr-robust"], paper="maintains its CWND (Fig. 6)",
                    ours="largest total: " + tot.idxmax() + " (" + ", ".join(f"{k} {v:.1f}" for k, v in tot.items()) + ")",
                    holds=True if largest else ("partly" if clearly else False),
                    rule=Condition("PR-R has the largest total of the four",
                                   partly_text=f"at least {LARGE_RATIO:g} × NoPR's and TCP-DOOR's totals"),
                    note=note if largest else f"smaller than {tot.idxmax()}'s; {note}")
    table.add_claim(CLAIMS["sec5b.dsack-one-sf-better"], paper="one SF better than the other",
                    ours=f"D-SACK SF 1 / SF 2 = {mean_cw.loc['D-SACK', 'SF 1 / SF 2']:.2f} (others: " +
                         ", ".join(f"{k} {v:.2f}" for k, v in mean_cw['SF 1 / SF 2'].items() if k != 'D-SACK') + ")",
                    holds=bool(ratio["D-SACK"] >= FAVOUR_RATIO and ratio["D-SACK"] == ratio.max()),
                    rule=f"D-SACK's subflow ratio (either way) at least {FAVOUR_RATIO:g} and the largest of the four",
                    note=note)
    return table


def decide(deciding: Comparison, references: dict) -> Comparison:
    """``deciding`` with every table of ``references`` (column → :class:`Comparison` of the same claims on another
    reference) put beside it (:func:`add_reference`); returns ``deciding``."""
    for column, other in references.items():
        if other is not None:
            add_reference(deciding, other, column)
    return deciding


def reference_note(reference: str, summary: pd.DataFrame | None = None) -> str:
    """What every deciding row of a Figs. 4–6 chapter says about its reference: why the point-to-point stand-in
    decides, or the Wi-Fi runs' seed count."""
    if reference == "papers-sim-p2p":
        return P2P_REASON
    x = next((c for c in ("distance_m", "pdr2") if summary is not None and c in summary), None)
    pts, seeds = "", ""
    if x is not None:
        vals = sorted(set(summary[x].astype(float)))
        pts = " at " + (", ".join(f"{v:g}" for v in vals) + " m" if x == "distance_m"
                        else ", ".join(f"{100 * v:g}" for v in vals) + " % PDR")
    if summary is not None and "n_seeds" in summary:
        if x is None or summary["n_seeds"].nunique() == 1:
            seeds = f", {int(summary['n_seeds'].max())} seeds per point"
        else:  # the seed count of every point (the recordings add seeds point by point)
            per = summary.groupby(x)["n_seeds"].min().sort_index()
            unit = (lambda v: f"{v:g} m") if x == "distance_m" else (lambda v: f"{100 * v:g} %")
            seeds = ", seeds per point: " + ", ".join(f"{int(n)} at {unit(float(v))}" for v, n in per.items())
        seeds += " (the paper: 30)"
    return "the model over Wi-Fi" + pts + seeds


def figs_summaries(name: str, x: str, points) -> dict:
    """The papers' model's runs of ``name`` (``"fig4"``, ``"fig5"``) summarised per reference:
    ``{"papers-sim-p2p": …, "papers-sim-wifi": … or None}`` (the Wi-Fi rows where recorded), restricted to
    ``points`` of ``x``."""
    from .papers_sim import recorded_fig, wifi_recorded, wifi_summary

    pts = [float(p) for p in points]
    p2p = recorded_fig(name)
    out = {"papers-sim-p2p": model_summary(p2p[p2p[x].astype(float).isin(pts)], x), "papers-sim-wifi": None}
    wifi = wifi_recorded(name)
    if wifi is not None:
        wifi = wifi[wifi[x].astype(float).isin(pts)]
        lossless = None
        if name == "fig5":   # PDR 0 of scenario 2 is scenario 1's 10-m run (the same scenario): its rows, single TCP too
            f4 = wifi_recorded("fig4")
            if f4 is not None:
                lossless = f4[f4.distance_m.astype(float) == 10.0].drop(columns=["distance_m"])
        out["papers-sim-wifi"] = wifi_summary(wifi, x, single_tcp=lossless)
    return out


#: Today's stack for the Figs. 4–6 claims: every claim compares the paper's four reordering responses (or one TCP
#: flow against NoPR), and today's Linux runs none of them (RACK-TLP with D-SACK undo, no NoPR / TCP-DOOR / PR-R).
TODAY_NOT_APPLICABLE = "does not apply: today's Linux runs none of the four responses (RACK-TLP, D-SACK undo)"
#: The one Figs. 4–6 claim about one TCP flow alone (sec. V, "maximum 5 Mbps"): it would apply to today's stack, but
#: these chapters do not run today's TCP over the 802.11g model.
TODAY_NOT_RUN = "not run: these chapters do not run today's TCP over the 802.11g model"
TODAY_SINGLE_TCP_CLAIMS = ("sec5.single-tcp-5mbps",)


def decide_figs(compare, claim_chapter: str, summaries: dict, preset, *, preset_kw: dict | None = None,
                standin_kw: dict | None = None, rfc=None, rfc_kw: dict | None = None, **kw) -> Comparison:
    """A Figs. 4–6 chapter's table: ``compare`` (:func:`fig4_comparison`, :func:`fig5_comparison`,
    :func:`fig6_comparison`) on the chapter's deciding reference (:func:`cmtlab.papers.alheid.paper.figs_reference`:
    the papers' model over Wi-Fi where recorded, else its point-to-point stand-in), with the same claims on the
    book's imitation (``preset``, :data:`PRESET_COLUMN`) and, where the Wi-Fi runs decide, on the stand-in
    (:data:`MODEL_STANDIN_COLUMN`) as reference columns, never counted.  ``kw`` go to every call, ``preset_kw`` and
    ``standin_kw`` replace them for the preset's and the stand-in's (e.g. Fig. 6's ``n_runs``).

    ``rfc``: the same runs of ``cmtlab.sim`` under RFC behaviour (``preset="rfc"``), for the column
    :data:`cmtlab.report.claims.RFC_COLUMN` ("does the claim hold under RFC behaviour?"; ``rfc_kw`` replace ``kw``
    for it); the column :data:`cmtlab.report.claims.TODAY_COLUMN` says for every row that today's stack does not
    apply (:data:`TODAY_NOT_APPLICABLE`).  Both are shown, never counted."""
    from ...report.claims import RFC_COLUMN, TODAY_COLUMN
    from .paper import figs_reference

    ref = figs_reference(claim_chapter)
    deciding = summaries[ref]
    if deciding is None:
        raise ValueError(f"the deciding reference {ref!r} has no runs for {claim_chapter}")
    table = compare(deciding, reference=ref, note=reference_note(ref, deciding if hasattr(deciding, "columns")
                                                                 else None), **kw)
    others = {PRESET_COLUMN: compare(preset, reference="cmtlab.sim", **{**kw, **(preset_kw or {})})}
    if ref == "papers-sim-wifi":
        others[MODEL_STANDIN_COLUMN] = compare(summaries["papers-sim-p2p"], reference="papers-sim-p2p",
                                               **{**kw, **(standin_kw or {})})
    if rfc is not None:
        others[RFC_COLUMN] = compare(rfc, reference="cmtlab.sim", **{**kw, **(rfc_kw or {})})
    decide(table, others)
    if rfc is not None:
        for r in table.rows:
            if r.counted and r.cell is None and r.verdict != BY_CONSTRUCTION:
                r.references[TODAY_COLUMN] = (TODAY_NOT_RUN if r.key.split(":")[-1] in TODAY_SINGLE_TCP_CLAIMS
                                              else TODAY_NOT_APPLICABLE)
    return table


def verdict_counts(table: Comparison) -> dict:
    """``{verdict: n}`` of the claims ``table`` decides (its counted rows), for a chapter's facts."""
    out = {}
    for r in table.rows:
        if r.counted:
            k = r.kind()
            out[k] = out.get(k, 0) + 1
    return out


__all__ = ["BASE_VARIANT", "VARIANT_LABELS", "BEST_TIE_TOL", "FAVOUR_RATIO", "LARGE_RATIO", "DRAMATIC_DROP",
           "PARTLY_DROP", "STABLE_RATIO", "gthroughput_wide", "mean_improvement", "best_at", "diagnostics",
           "variant_change", "variant_changes_markdown", "rule_table", "max_rule_difference_pct", "cwnd_means",
           "run_means", "gain_ci", "ratio_ci", "NOPR_UNABLE", "NOPR_UNABLE_RATIO", "NOT_EXCEED", "HERE_COLUMNS",
           "PRESET_COLUMN", "MODEL_STANDIN_COLUMN", "P2P_REASON", "add_reference", "decide", "verdict_counts",
           "reference_note", "figs_summaries", "decide_figs", "TODAY_NOT_APPLICABLE", "TODAY_NOT_RUN",
           "model_summary", "model_cwnd", "fig4_comparison", "fig5_comparison", "fig6_comparison"]
