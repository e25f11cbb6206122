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

from ...report import BY_CONSTRUCTION, NO_CHANGE, Comparison, Condition, Threshold, share_rule
from .experiments import SOLUTION_ORDER
from .paper import (PAPER_DSACK_GAIN_BEYOND_50M_PCT, PAPER_DSACK_MAX_MBPS, PAPER_GAIN_UP_TO_50M_PCT,
                    PAPER_PRR_GAIN_BEYOND_50M_PCT, PAPER_PRR_GAIN_PDRS_PCT, PAPER_SINGLE_TCP_MAX_INTRO_MBPS,
                    PAPER_SINGLE_TCP_MAX_VB_MBPS, PAPER_TABLE3, PAPER_TABLE4, PAPER_TCPDOOR_GAIN_PDR0_PCT,
                    QUOTE_BEYOND_50M, QUOTE_GAIN_UP_TO_50M, QUOTE_SINGLE_TCP_INTRO, QUOTE_SINGLE_TCP_VB)

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
        ha, hb = a.get("gthroughput_mbps_ci95", np.nan), b.get("gthroughput_mbps_ci95", np.nan)
        hs.append(100 * r * np.hypot(ha / a.gthroughput_mbps, hb / b.gthroughput_mbps))
    g = float(np.mean(gains))
    h = float(np.sqrt(np.sum(np.square(hs))) / len(hs))
    n = int(s.loc[(points[0], solution)].get("n_seeds", 0)) if "n_seeds" in s.columns else None
    return g, ((g - h, g + h) if np.isfinite(h) else (np.nan, np.nan)), n


#: Table III/IV metrics: name, summary column, unit, number format.
TABLE_METRICS = (("OOO-BO", "ooo_bo_kbyte", "Kbyte", ".0f"), ("OOO-R", "ooo_r_pct", "%", ".1f"),
                 ("LU", "lu_pct", "%", ".2f"))


def _add_table_values(table: Comparison, frame: pd.DataFrame, paper: dict, label, where: str) -> None:
    """Rows "OOO-BO, OOO-R, LU" of Table III/IV for every (point, solution) of ``paper`` that was run, each with
    its 95 % CI over the seeds (an interval across a band edge gives "undecided at n seeds").  Each row is a
    cell of the verdict grid ``where`` (row: point · solution, column: metric and unit), shown as a grid of
    coloured cells under the claim table (:meth:`cmtlab.report.Comparison.show`).  A metric the summary
    lacks (NaN) is not compared."""
    idx = frame.index
    for (x, sol), values in paper.items():
        if (x, sol) not in idx:
            continue
        row = frame.loc[(x, sol)]
        n = _n(row)
        for (name, metric, unit, fmt), p in zip(TABLE_METRICS, values):
            if metric not in row or not np.isfinite(float(row[metric])):
                continue
            table.add_value(f"{label(x)} {sol}: {name}", where=where, paper=p, ours=float(row[metric]), unit=unit,
                            fmt=fmt, ci=_ci(row, metric), n_seeds=n,
                            cell=(where, f"{label(x).split(' ', 2)[-1]} · {sol}", f"{name} ({unit})"))


#: The reference column of the model's stand-in runs (:func:`add_reference`).
MODEL_STANDIN_COLUMN = "papers' simulator, point-to-point stand-in (run here)"


def add_reference(table: Comparison, other: Comparison, column: str = MODEL_STANDIN_COLUMN) -> int:
    """Put ``other``'s value and verdict of every claim it shares with ``table`` into ``table``'s reference
    column ``column`` (e.g. the same comparison computed on the papers' simulator).  Only ``table``'s own
    value decides its verdicts.  Returns how many rows got a reference."""
    by_claim = {r.claim: r for r in other.rows}
    n = 0
    for r in table.rows:
        o = by_claim.get(r.claim)
        if o is None or r.cell is not None or o.verdict == BY_CONSTRUCTION:
            continue
        if re.search(r"\bnan\b|not computed", o.here):   # a quantity the other simulator does not measure (the model's OOO-R)
            r.references[column] = "not measured there"
        else:
            r.references[column] = f"{o.here} → {o.verdict}"
        n += 1
    return n


def model_summary(runs: pd.DataFrame, x: str) -> pd.DataFrame:
    """The recorded runs of the papers' simulator (:func:`cmtlab.papers.alheid.papers_sim.recorded_fig`) summarised
    like :func:`~cmtlab.papers.alheid.experiments.summarise` by ``[x, "solution"]`` (means and 95 % CIs over the
    loss seeds), so that the chapters' comparison functions run on them; OOO-R, which the model's driver
    does not count, is NaN (its claims and cells are then not compared)."""
    from .papers_sim import fig_summary

    s = fig_summary(runs, x)
    s["ooo_r_pct"] = np.nan
    s["ooo_r_pct_ci95"] = np.nan
    return s


def model_cwnd(trace: pd.DataFrame) -> pd.DataFrame:
    """The recorded cwnd traces of the papers' simulator (``alheid-fig6-cwnd``) in the layout of
    :func:`~cmtlab.papers.alheid.experiments.fig6_traces` (subflows numbered from 0)."""
    return trace.assign(subflow=trace.subflow.astype(int) - 1)[["solution", "time_s", "subflow", "cwnd_segments"]]


#: Fig. 4 text (sec. V.B): "unable to utilize the available bandwidth" read as NoPR / single TCP below this.
NOPR_UNABLE_RATIO = 1.2
NOPR_UNABLE = Threshold("NoPR / single TCP (mean over the distances)", "<", NOPR_UNABLE_RATIO,
                        "'unable to utilize the available bandwidth' read as less than 20 % above one TCP flow over "
                        "one link; using both links would give about 2")


def fig4_comparison(summary: pd.DataFrame, *, table_distances_m, duration_s: float, n_seeds: int,
                    preset: str, chihani_prr_gain=None) -> Comparison:
    """A2: the paper-vs-reproduction table of Fig. 4 and Table III (sec. V.A, scenario 1).

    ``summary`` is :func:`~cmtlab.papers.alheid.experiments.summarise` by ``["distance_m", "solution"]``
    of :func:`~cmtlab.papers.alheid.experiments.fig4_cases` with ``single_tcp=True``.  Gains are
    gThroughput ratios to NoPR averaged over the distances named ("up to 50 m": ≤ 50 m, "beyond":
    > 50 m), with their 95 % CI (:func:`gain_ci`); Table III cells are the means over seeds at
    ``table_distances_m`` with their CIs.  Every rule is the book's verdict policy
    (:mod:`cmtlab.report`) unless the row declares otherwise.

    ``chihani_prr_gain`` (optional): PR-R's gain over NoPR (%) per distance under the model's loss
    response (``recovery="chihani"``; a column of :func:`recovery_gains`).  It adds two rows: the mean
    over its distances up to 50 m against 64 %, and beyond 50 m against 50 % (the paper's averages; it
    names no gain at a single distance).
    """
    from .experiments import improvement_pct

    if "single TCP" not in set(summary.solution):
        raise ValueError("fig4_comparison needs the single-TCP runs (fig4_cases(..., single_tcp=True))")
    wide = gthroughput_wide(summary, "distance_m")
    imp = improvement_pct(summary, "distance_m")
    t3 = summary[summary.distance_m.isin(list(table_distances_m)) & (summary.solution != "single TCP")]
    up_to_50 = [d for d in imp.index if d <= 50]
    beyond_50 = [d for d in imp.index if d > 50]
    single = summary[summary.solution == "single TCP"].set_index("distance_m").gthroughput_mbps
    d_lo, d_hi = min(summary.distance_m), max(summary.distance_m)
    rec_note = ("; NewReno fast recovery, see the recovery='chihani' rows for the model's loss response"
                if chihani_prr_gain is not None else "")
    tie = (f"best: no other solution within {BEST_TIE_TOL:.0%}; second: the best of the others, ties within "
           f"{BEST_TIE_TOL:.0%}")
    table = Comparison()
    table.add_input("two 802.11g paths, 100 Mbit/s 10 ms backbone, 1400 B, LIA, 10 MB buffer, 50 s runs",
                    where="sec. IV.A", paper="sec. IV.A", ours=f"{duration_s:g} s runs, {n_seeds} seeds (paper: 30), "
                    f"distances {d_lo:g}–{d_hi:g} m, preset '{preset}'")
    for sol in ("TCP-DOOR", "PR-R"):
        g, ci, n = gain_ci(summary, "distance_m", sol, up_to_50)
        table.add_value(f"{sol}: gThroughput gain over NoPR up to 50 m", where="sec. V.A, Fig. 4",
                        quote=QUOTE_GAIN_UP_TO_50M, paper=PAPER_GAIN_UP_TO_50M_PCT, ours=g, unit="%", fmt=".1f",
                        ci=ci, n_seeds=n, note=f"mean over {', '.join(f'{d:g}' for d in up_to_50)} m"
                        + (rec_note if sol == "PR-R" else ""))
    best_small = [best_at(wide, d) for d in up_to_50]
    table.add_claim("up to 50 m TCP-DOOR and PR-R outperform NoPR and D-SACK", where="sec. V.A, Fig. 4",
                    quote=QUOTE_GAIN_UP_TO_50M, paper="outperform others",
                    ours="best per distance: " + "; ".join(best_small),
                    holds=all(wide.loc[d, s] >= 1.05 * wide.loc[d, ["NoPR", "D-SACK"]].max()
                              for d in up_to_50 for s in ("TCP-DOOR", "PR-R")),
                    rule="at every distance ≤ 50 m both at least 5 % above the better of NoPR and D-SACK "
                         "(the policy's no-change band)")
    if beyond_50:
        for sol, target in (("PR-R", PAPER_PRR_GAIN_BEYOND_50M_PCT), ("D-SACK", PAPER_DSACK_GAIN_BEYOND_50M_PCT)):
            g, ci, n = gain_ci(summary, "distance_m", sol, beyond_50)
            table.add_value(f"{sol}: gain over NoPR beyond 50 m, average", where="sec. V.A, Fig. 4",
                            quote=QUOTE_BEYOND_50M if sol == "PR-R" else "", paper=target, ours=g, unit="%",
                            fmt=".1f", ci=ci, n_seeds=n,
                            note=f"mean over {', '.join(f'{d:g}' for d in beyond_50)} m" + (rec_note if sol == "PR-R" else ""))
        best_far = [best_at(wide, d) for d in beyond_50]
        first = [b == "PR-R" for b in best_far]
        rest = [x for x in SOLUTION_ORDER if x != "PR-R"]
        second = ["D-SACK" in best_at(wide, d, solutions=rest).split(" = ") for d in beyond_50]
        both = [a and b for a, b in zip(first, second)]
        table.add_threshold("beyond 50 m PR-R is best, D-SACK second", where="sec. V.A, Fig. 4", quote=QUOTE_BEYOND_50M,
                            paper="PR-R best, D-SACK second", rule=share_rule("share of distances > 50 m where both hold"),
                            value=float(np.mean(both)),
                            ours=f"{sum(both)} of {len(both)}; best per distance: " + "; ".join(best_far),
                            note=tie)
    multi = summary[summary.solution != "single TCP"]
    lu = multi.pivot_table(index="distance_m", columns="solution", values="lu_pct")
    lu_best = [lu.loc[d].idxmax() for d in lu.index]
    table.add_threshold("PR-R utilises both links more than the others (LU)", where="sec. V.A, Table III",
                        quote="The PR-R utilizes both links more than the others along all distances",
                        paper="highest LU at all distances",
                        rule=share_rule("share of the distances run where PR-R has the highest LU"),
                        value=float(np.mean([b == "PR-R" for b in lu_best])),
                        ours=f"{sum(b == 'PR-R' for b in lu_best)} of {len(lu_best)}; highest LU at "
                             + ", ".join(f"{d:g} m: {b}" for d, b in zip(lu.index, lu_best)))
    bo = t3.pivot_table(index="distance_m", columns="solution", values="ooo_bo_kbyte")
    table.add_claim("PR-R needs more OOO buffer than TCP-DOOR", where="sec. V.A, Table III",
                    quote="PR-R requires more buffer size than TCP-DOOR", paper="more buffer",
                    ours=", ".join(f"{d:g} m: PR-R {bo.loc[d, 'PR-R']:.0f} vs TCP-DOOR {bo.loc[d, 'TCP-DOOR']:.0f} Kbyte"
                                   for d in bo.index),
                    holds=all(bo.loc[d, "PR-R"] > bo.loc[d, "TCP-DOOR"] for d in bo.index),
                    rule="PR-R's OOO-BO above TCP-DOOR's at every Table III distance")
    table.add_value("single TCP over Wi-Fi: maximum", where="sec. V (introduction)", quote=QUOTE_SINGLE_TCP_INTRO,
                    paper=PAPER_SINGLE_TCP_MAX_INTRO_MBPS, ours=float(single.max()), unit="Mbit/s", fmt=".1f",
                    note="the paper contradicts itself: sec. V.B gives 15 Mbit/s as the single-TCP maximum over one "
                         "link (checked in the Fig. 5 chapter)")
    nopr_vs_single = float((wide["NoPR"] / wide["single TCP"]).mean())
    table.add_threshold("MPTCP-NoPR is unable to use the available bandwidth, even without losses",
                        where="sec. V.B (Fig. 6 text)",
                        quote="MPTCP-NoPR is unable to utilize the available bandwidth, even with lossless networks",
                        paper="unable to utilize", rule=NOPR_UNABLE, value=nopr_vs_single,
                        ours=f"NoPR / single TCP = {nopr_vs_single:.2f} on average over the distances")
    if chihani_prr_gain is not None:
        _add_recovery_rows(table, chihani_prr_gain)
    _add_table_values(table, t3.set_index(["distance_m", "solution"]), PAPER_TABLE3, lambda d: f"Table III {d:g} m",
                      "Table III")
    return table


def _add_recovery_rows(table: Comparison, gain) -> None:
    """The rows "PR-R gain under the model's loss response" of :func:`fig4_comparison`: the mean over the
    distances up to 50 m against 64 %, the mean beyond 50 m against 50 % (the paper's two averages)."""
    gain = pd.Series(gain).dropna()
    if gain.empty:
        raise ValueError("chihani_prr_gain has no values")
    note = ("the model's halving without window inflation instead of NewReno fast recovery; PR-R never calls the "
            "reduction, so its runs do not change and the gain moves with NoPR")
    for label, pts, target, quote in (("up to 50 m", [d for d in gain.index if d <= 50], PAPER_GAIN_UP_TO_50M_PCT,
                                       QUOTE_GAIN_UP_TO_50M),
                                      ("beyond 50 m", [d for d in gain.index if d > 50], PAPER_PRR_GAIN_BEYOND_50M_PCT,
                                       QUOTE_BEYOND_50M)):
        if not pts:
            continue
        table.add_value(f"PR-R: gain over NoPR {label} under the model's loss response (recovery='chihani')",
                        where="sec. V.A, Fig. 4", quote=quote, paper=target, ours=float(gain.loc[pts].mean()), unit="%",
                        fmt=".0f", note=f"at {', '.join(f'{d:g}' for d in pts)} m only (the recovery runs); " + note)


def fig5_comparison(summary: pd.DataFrame, *, table_pdrs, duration_s: float, n_seeds: int,
                    preset: str) -> Comparison:
    """A3: the paper-vs-reproduction table of Fig. 5 and Table IV (sec. V.B, scenario 2).

    ``summary`` is :func:`~cmtlab.papers.alheid.experiments.summarise` by ``["pdr2", "solution"]`` of
    :func:`~cmtlab.papers.alheid.experiments.fig5_cases` with ``single_tcp=True`` and PDR 0 among the
    points.  Gains are gThroughput ratios to NoPR (%), at PDR 0 or averaged over the PDR grid (the
    paper's "on average"), with 95 % CIs (:func:`gain_ci`); "dramatically" is read as
    :data:`DRAMATIC_DROP`, "stable" as :data:`STABLE_RATIO` (declared in their rows).  Table IV cells are
    the means over seeds at ``table_pdrs`` with their CIs.
    """
    sols = set(summary.solution)
    if "single TCP" not in sols:
        raise ValueError("fig5_comparison needs the single-TCP runs (fig5_cases(..., single_tcp=True))")
    if 0.0 not in set(summary.pdr2):
        raise ValueError("fig5_comparison needs the PDR-0 runs (the paper's TCP-DOOR gain is at PDR 0)")
    s = summary.set_index(["pdr2", "solution"]).gthroughput_mbps
    wide = gthroughput_wide(summary, "pdr2")
    t4i = summary[summary.pdr2.isin(list(table_pdrs)) & (summary.solution != "single TCP")].set_index(
        ["pdr2", "solution"])
    p0, pmax = min(summary.pdr2), max(summary.pdr2)
    pdrs = sorted(set(summary.pdr2))
    table = Comparison()
    table.add_input("10 m, PDR of subflow 2 0–0.9 %, two 802.11g paths, LIA, 1400 B, 10 MB buffer, 50 s",
                    where="sec. IV.A, Table II", paper="sec. IV.A, Table II",
                    ours=f"{duration_s:g} s runs, {n_seeds} seeds (paper: 30), PDR "
                    f"{100 * p0:.1f}–{100 * pmax:.1f} %, preset '{preset}'")
    g, ci, n = gain_ci(summary, "pdr2", "TCP-DOOR", [0.0])
    table.add_value("TCP-DOOR: gain over NoPR at PDR 0", where="sec. V.B, Fig. 5",
                    quote="TCP-DOOR provides a 62% improvement in gThroughput with lossless case (PDR = 0)",
                    paper=PAPER_TCPDOOR_GAIN_PDR0_PCT, ours=g, unit="%", fmt=".1f", ci=ci, n_seeds=n)
    drop = float(1 - s.loc[(pmax, "TCP-DOOR")] / s.loc[(p0, "TCP-DOOR")])
    table.add_threshold("TCP-DOOR's gThroughput decreases dramatically as the PDR grows", where="sec. V.B, Fig. 5",
                        quote="when the PDR increases, the gThroughput decreases dramatically",
                        paper="decreases dramatically",
                        rule=Threshold("drop from PDR 0 to the largest PDR", ">=", DRAMATIC_DROP,
                                       "'dramatically' read as at least 30 % lower, partly 10 %", partly=PARTLY_DROP),
                        value=drop,
                        ours=f"{drop:.2f}: {s.loc[(p0, 'TCP-DOOR')]:.1f} → {s.loc[(pmax, 'TCP-DOOR')]:.1f} Mbit/s")
    g, ci, n = gain_ci(summary, "pdr2", "PR-R", pdrs)
    table.add_value("PR-R: gain over NoPR, average over the PDRs", where="sec. V.B, Fig. 5",
                    quote="The PR-R improves the gThroughput of MPTCP by 60% on average",
                    paper=PAPER_PRR_GAIN_PDRS_PCT, ours=g, unit="%", fmt=".1f", ci=ci, n_seeds=n)
    stab = float(s.loc[(pmax, "PR-R")] / s.loc[(p0, "PR-R")])
    table.add_threshold("PR-R is stable against the PDR", where="sec. V.B, Fig. 5",
                        quote="provides a stable performance against the increasing rate of packet drops",
                        paper="stable", rule=Threshold("PR-R at the largest PDR / at PDR 0", ">=", STABLE_RATIO,
                                                       "'stable' read as within 15 % of its PDR-0 value"),
                        value=stab, ours=f"{stab:.2f} (PDR {100 * pmax:.1f} %)")
    nopr_max = float(wide["NoPR"].max())
    table.add_value("NoPR: maximum gThroughput", where="sec. V.B, Fig. 5", quote=QUOTE_SINGLE_TCP_VB,
                    paper=PAPER_SINGLE_TCP_MAX_VB_MBPS, ours=nopr_max, unit="Mbit/s", fmt=".1f",
                    note="the paper says 'do not exceed 15 Mbps': a ceiling, compared here as a value")
    single = float(s.xs("single TCP", level="solution").mean())
    table.add_value("single TCP over one link: maximum", where="sec. V.B", quote=QUOTE_SINGLE_TCP_VB,
                    paper=PAPER_SINGLE_TCP_MAX_VB_MBPS, ours=single, unit="Mbit/s", fmt=".1f",
                    note="the introduction of sec. V says 5 Mbit/s for the same quantity: the paper "
                         "contradicts itself; both rows are checked against the same runs")
    table.add_value("single TCP over Wi-Fi: maximum", where="sec. V (introduction)", quote=QUOTE_SINGLE_TCP_INTRO,
                    paper=PAPER_SINGLE_TCP_MAX_INTRO_MBPS, ours=single, unit="Mbit/s", fmt=".1f",
                    note="see the row above")
    table.add_threshold("NoPR stays at or below one TCP flow over one link", where="sec. V.B", quote=QUOTE_SINGLE_TCP_VB,
                        paper="does not exceed", rule=Threshold("max NoPR / single TCP", "<=", 1 + NO_CHANGE,
                                       "'do not exceed' with the policy's no-change band"),
                        value=nopr_max / single, ours=f"{nopr_max / single:.2f} ({nopr_max:.1f} vs {single:.1f} Mbit/s)")
    table.add_value("D-SACK: maximum gThroughput", where="sec. V.B, Fig. 5",
                    quote="D-SACK is the second best after PR-R with 21.5 Mbps at maximum",
                    paper=PAPER_DSACK_MAX_MBPS, ours=float(wide["D-SACK"].max()), unit="Mbit/s", fmt=".1f")
    order = wide[list(SOLUTION_ORDER)].mean().sort_values(ascending=False)
    table.add_claim("PR-R best, D-SACK second (gThroughput over the PDRs)", where="sec. V.B",
                    quote="D-SACK is the second best after PR-R", paper="PR-R > D-SACK > others",
                    ours=" > ".join(f"{k} {v:.1f}" for k, v in order.items()),
                    holds=bool(order.index[0] == "PR-R" and order.index[1] == "D-SACK"),
                    rule="order of the mean gThroughput over the PDRs: PR-R first, D-SACK second")
    if t4i.ooo_r_pct.notna().any():
        hi_r = [t4i.xs(q, level="pdr2").ooo_r_pct.idxmax() for q in table_pdrs]
        table.add_claim("PR-R has the highest OOO-R (Table IV)", where="sec. V.B, Table IV",
                        quote="PR R provides the highest OOO-R compared to others", paper="highest OOO-R",
                        ours="highest: " + ", ".join(hi_r), holds=all(h == "PR-R" for h in hi_r),
                        rule="PR-R highest at every Table IV PDR")
    else:   # a simulator that does not count OOO-R (the papers' model: its driver does not)
        table.add_not_assessed("PR-R has the highest OOO-R (Table IV)", where="sec. V.B, Table IV",
                               quote="PR R provides the highest OOO-R compared to others", paper="highest OOO-R",
                               reason="not computed: OOO-R was not measured in these runs")
    more_bo = [t4i.loc[(q, "PR-R")].ooo_bo_kbyte > t4i.loc[(q, "D-SACK")].ooo_bo_kbyte for q in table_pdrs]
    table.add_claim("PR-R needs more buffer than D-SACK (Table IV)", where="sec. V.B, Table IV",
                    quote="PR-R has the highest OOO-R and requires more buffer space compared to D-SACK",
                    paper="more buffer than D-SACK",
                    ours=", ".join(f"{100 * q:.1f} %: {t4i.loc[(q, 'PR-R')].ooo_bo_kbyte:.0f} vs "
                                   f"{t4i.loc[(q, 'D-SACK')].ooo_bo_kbyte:.0f} Kbyte" for q in table_pdrs),
                    holds=all(more_bo), rule="PR-R's OOO-BO above D-SACK's at every Table IV PDR")
    hi_lu = [t4i.xs(q, level="pdr2").lu_pct.idxmax() for q in table_pdrs]
    table.add_claim("PR-R utilises the links best (LU, Table IV)", where="sec. V.B, Table IV",
                    quote="PR-R fully utilizes both links, as illustrated in Table IV", paper="highest LU",
                    ours="highest LU: " + ", ".join(hi_lu), holds=all(h == "PR-R" for h in hi_lu),
                    rule="'fully utilizes' read as: the highest LU at every Table IV PDR")
    _add_table_values(table, t4i, PAPER_TABLE4, lambda q: f"Table IV {100 * q:.1f} %", "Table IV")
    return table


def fig6_comparison(mean_cw: pd.DataFrame, *, pdr2: float, distance_m: float, duration_s: float, n_seeds: int,
                    preset: str) -> Comparison:
    """A4: the paper-vs-reproduction table of Fig. 6 (sec. V.B).

    ``mean_cw`` is :func:`cwnd_means`.  The paper gives no numbers for Fig. 6: "small" and "large"
    are read relative to the other solutions in the same runs (total of both subflows' mean
    windows, segments): PR-R's "large windows" as the largest total of the four, or partly as at
    least :data:`LARGE_RATIO` times the totals of NoPR and TCP-DOOR (clearly larger than the two
    the paper calls small); "favours one subflow" as a ratio of the two subflows' mean windows of
    at least :data:`FAVOUR_RATIO` either way, and the largest ratio of the four.  Each reading is in
    its row's rule.
    """
    tot = mean_cw.iloc[:, 0] + mean_cw.iloc[:, 1]
    sf2 = mean_cw.iloc[:, 1]
    ratio = np.maximum(mean_cw["SF 1 / SF 2"], 1 / mean_cw["SF 1 / SF 2"])
    table = Comparison()
    table.add_input("PDR 0.5 % on SF 2, 10 m, four solutions", where="sec. V.B, Fig. 6",
                    quote="the CWND evolution of both SFs for four PR solutions when PDR is equal to 0.5%",
                    paper="PDR 0.5 %",
                    ours=f"PDR {100 * pdr2:.1f} %, {distance_m:g} m, {duration_s:g} s, {n_seeds} run(s) per solution, "
                         f"preset '{preset}'")
    table.add_claim("NoPR: both windows small", where="sec. V.B, Fig. 6",
                    quote="the size of both CWNDs is small when using the MPTCP-NoPR", paper="small",
                    ours=f"NoPR {tot['NoPR']:.1f} seg. in total vs PR-R {tot['PR-R']:.1f}, D-SACK {tot['D-SACK']:.1f}",
                    holds=bool(tot["NoPR"] < min(tot["PR-R"], tot["D-SACK"])),
                    rule="'small' read as: NoPR's total below PR-R's and D-SACK's")
    table.add_claim("TCP-DOOR: windows small under loss", where="sec. V.B, Fig. 6",
                    quote="TCP-DOOR suffers from the small size of both CWNDs under high PDR networks", paper="small",
                    ours=f"TCP-DOOR {tot['TCP-DOOR']:.1f} seg. in total, SF 2 {sf2['TCP-DOOR']:.1f}; PR-R "
                         f"{tot['PR-R']:.1f}, SF 2 {sf2['PR-R']:.1f}",
                    holds=bool(tot["TCP-DOOR"] < tot["PR-R"] and sf2["TCP-DOOR"] < sf2["PR-R"]),
                    rule="'small' read as: TCP-DOOR's total and lossy-subflow windows below PR-R's")
    largest = tot.idxmax() == "PR-R"
    clearly = bool(tot["PR-R"] >= LARGE_RATIO * max(tot["NoPR"], tot["TCP-DOOR"]))
    table.add_claim("PR-R: large windows", where="sec. V.B, Fig. 6",
                    quote="PR-R is more robust to the PDR because it triggers a retransmission when receiving the third "
                          "DUPACK and maintains the value of CWND", paper="maintains its CWND (Fig. 6)",
                    ours="largest total: " + tot.idxmax() + " (" + ", ".join(f"{k} {v:.1f}" for k, v in tot.items()) + ")",
                    holds=True if largest else ("partly" if clearly else False),
                    rule=Condition("PR-R has the largest total of the four",
                                   partly_text=f"at least {LARGE_RATIO:g} × NoPR's and TCP-DOOR's totals"),
                    note="" if largest else "smaller than D-SACK's (its loss-free subflow 1)" if clearly else "")
    table.add_claim("D-SACK favours one subflow", where="sec. V.B, Fig. 6",
                    quote="The double increase in the CWND makes the related SF to increase its transmission rate faster "
                          "than the other SF, which makes the utilization of one SF better than the other",
                    paper="one SF better than the other",
                    ours=f"D-SACK SF 1 / SF 2 = {mean_cw.loc['D-SACK', 'SF 1 / SF 2']:.2f} (others: " +
                         ", ".join(f"{k} {v:.2f}" for k, v in mean_cw['SF 1 / SF 2'].items() if k != 'D-SACK') + ")",
                    holds=bool(ratio["D-SACK"] >= FAVOUR_RATIO and ratio["D-SACK"] == ratio.max()),
                    rule=f"D-SACK's subflow ratio (either way) at least {FAVOUR_RATIO:g} and the largest of the four")
    return table


__all__ = ["BASE_VARIANT", "VARIANT_LABELS", "BEST_TIE_TOL", "FAVOUR_RATIO", "LARGE_RATIO", "DRAMATIC_DROP",
           "PARTLY_DROP", "STABLE_RATIO", "gthroughput_wide", "mean_improvement", "best_at", "diagnostics",
           "variant_change", "variant_changes_markdown", "rule_table", "max_rule_difference_pct", "cwnd_means",
           "run_means", "gain_ci", "NOPR_UNABLE", "NOPR_UNABLE_RATIO", "fig4_comparison", "fig5_comparison",
           "fig6_comparison"]
