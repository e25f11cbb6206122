"""The Alheid chapters' facts: every value a chapter's prose shows, computed by one function per chapter from
what the chapter ran, glued in one call (``cmtlab.report.glue_all(facts.fig4_facts(...))``) so that no notebook
cell computes a number or a sentence (issue 33, "facts from the library").

* :func:`table1_facts` — A1, Table I (``alheid-table1-mptcp-gain``);
* :func:`fig4_facts` — A2, Fig. 4 and Table III (``alheid-fig4-table3-distance``);
* :func:`fig5_facts` — A3, Fig. 5 and Table IV (``alheid-fig5-table4-pdr``);
* :func:`fig6_facts` — A4, Fig. 6 (``alheid-fig6-cwnd``).

Every function also gives the chapter's verdict counts on its deciding reference (``<prefix>_decided_*``) and the
reference's name (``<prefix>_reference``), so the prose can say what decided.
"""

from __future__ import annotations

import pandas as pd

from ...report.claims import REFERENCE_WORDS
from . import comparison as comp
from .experiments import SOLUTION_ORDER, improvement_pct


def _decided(prefix: str, table) -> dict:
    counts = comp.verdict_counts(table)
    out = {f"{prefix}_decided_{k.replace(' ', '_')}": n for k, n in counts.items()}
    out[f"{prefix}_decided_text"] = table.summary_text()
    return out


def _reference(prefix: str, reference: str) -> dict:
    return {f"{prefix}_reference": REFERENCE_WORDS.get(reference, reference)}


def table1_facts(g: pd.DataFrame, runs: pd.DataFrame, kernel: pd.DataFrame, model: pd.DataFrame,
                 story: pd.DataFrame, model_runs: pd.DataFrame, *, deltas_ms, meanings, n_seeds: int,
                 duration_s: float, table, minutes: float) -> dict:
    """A1: the base setup's gains (:func:`~cmtlab.papers.alheid.table1.table1_glue`), the papers' simulator's
    (:func:`~cmtlab.papers.alheid.table1.model_glue`), the sensitivity rows
    (:func:`~cmtlab.papers.alheid.table1.sensitivity_glue`), the decided claims and the page's run time."""
    from . import table1 as t1

    out = {}
    out.update(t1.table1_glue(g, deltas_ms, meanings, n_seeds=n_seeds, duration_s=duration_s))
    out.update(t1.model_glue(model, story, model_runs, deltas_ms))
    out.update(t1.sensitivity_glue(g, runs, kernel, deltas_ms))
    out.update(_decided("a1", table))
    out["a1_minutes"] = float(minutes)
    return out


def fig4_facts(*, summary: pd.DataFrame, runs: pd.DataFrame, table_distances_m, causes: pd.DataFrame,
               cause_counts: pd.DataFrame, rec: pd.DataFrame, rec_t: pd.DataFrame, recovery_alternative: str,
               alt_seeds: int, rule_s: pd.DataFrame, alt_w: pd.DataFrame, model_sum: pd.DataFrame,
               model_runs: pd.DataFrame, table, reference: str) -> dict:
    """A2: the numbers of the Fig. 4 chapter's prose (``a2_*`` on the book's imitation, ``a2m_*`` on the papers'
    model's point-to-point stand-in) and its decided claims."""
    out = {}
    wide = comp.gthroughput_wide(summary, "distance_m")
    imp = improvement_pct(summary, "distance_m")
    near, far = [d for d in imp.index if d <= 50], [d for d in imp.index if d > 50]
    for sol, tag in (("D-SACK", "dsack"), ("TCP-DOOR", "door"), ("PR-R", "prr")):
        out[f"a2_gain_near_{tag}"] = comp.mean_improvement(imp, sol, near)
        out[f"a2_gain_far_{tag}"] = comp.mean_improvement(imp, sol, far) if far else float("nan")
    out["a2_nopr_over_single"] = float((wide["NoPR"] / wide["single TCP"]).mean())
    out["a2_single_max_mbps"] = float(wide["single TCP"].max())
    t3 = summary[summary.distance_m.isin(list(table_distances_m)) & (summary.solution != "single TCP")]
    out["a2_ooo_r_min"] = float(t3.ooo_r_pct.min())
    out["a2_ooo_r_max"] = float(t3.ooo_r_pct.max())
    diag = comp.diagnostics(runs, "distance_m", table_distances_m, ["spurious_share_pct"])
    out["a2_nopr_dup_pct"] = float(diag.xs("NoPR", level="solution").spurious_share_pct.mean())
    out["a2_prr_dup_pct"] = float(diag.xs("PR-R", level="solution").spurious_share_pct.mean())
    rr = runs[runs.distance_m.isin(list(table_distances_m)) & runs.solution.isin(["NoPR", "PR-R"])]
    out["a2_nopr_prr_timeouts"] = float(rr.timeouts.mean())
    out["a2_nopr_prr_drops"] = float((rr.loss_drops + rr.queue_drops).mean())
    n_to = max(int(cause_counts.to_numpy().sum()), 1)
    stalls = causes[causes.cause == "stall"]
    out["a2_trace_distance_m"] = float(list(table_distances_m)[0])
    out["a2_to_progress_pct"] = float(100 * cause_counts.progressing.sum() / n_to)
    out["a2_to_stall_pct"] = float(100 * cause_counts.stall.sum() / n_to)
    out["a2_to_stall_median_ms"] = float(stalls.since_ack_advance_s.median() * 1000)
    out["a2_to_stall_any_ack_ms"] = float(stalls.since_any_ack_s.median() * 1000)
    out["a2_rec_seeds"] = float(alt_seeds)
    out.update({f"a2_rec_{k}": v for k, v in comp.recovery_summary(rec_t, recovery_alternative).items()})
    nopr_alt_runs = rec[(rec.recovery == recovery_alternative) & (rec.solution == "NoPR")]
    out["a2_rec_nopr_alt_runs"] = float(len(nopr_alt_runs))
    out["a2_rec_nopr_alt_to_runs"] = float((nopr_alt_runs.timeouts > 0).sum())
    out["a2_prr_rule_diff_pct"] = comp.max_rule_difference_pct(rule_s)
    rfc_spread = alt_w.loc["rfc"].max(axis=1) / alt_w.loc["rfc"].min(axis=1) - 1
    out["a2_rfc_spread_pct"] = float(rfc_spread.max() * 100)
    # the papers' model, point-to-point stand-in
    model_wide = comp.gthroughput_wide(model_sum, "distance_m")
    model_imp = improvement_pct(model_sum, "distance_m")
    m_near = [d for d in model_imp.index if d <= 50]
    m_far = [d for d in model_imp.index if d > 50]
    for sol, tag in (("D-SACK", "dsack"), ("TCP-DOOR", "door"), ("PR-R", "prr")):
        out[f"a2m_gain_near_{tag}"] = comp.mean_improvement(model_imp, sol, m_near)
        out[f"a2m_gain_far_{tag}"] = comp.mean_improvement(model_imp, sol, m_far) if m_far else float("nan")
    out["a2m_nopr_over_single"] = float((model_wide["NoPR"] / model_wide["single TCP"]).mean())
    out["a2m_prr_over_single"] = float((model_wide["PR-R"] / model_wide["single TCP"]).mean())
    out["a2m_single_max_mbps"] = float(model_wide["single TCP"].max())
    nopr_m = model_runs[model_runs.solution == "NoPR"]
    prr_m = model_runs[model_runs.solution == "PR-R"]
    out["a2m_nopr_fast_retransmits"] = float(nopr_m.fast_retransmits.mean())
    out["a2m_prr_fast_retransmits"] = float(prr_m.fast_retransmits.mean())
    out["a2m_prr_drops"] = float(prr_m.queue_drops.sum())
    out["a2m_nopr_drops"] = float(nopr_m.queue_drops.mean())
    out["a2m_nopr_sf_share_pct"] = float((100 * nopr_m[["sf0_bytes_sent", "sf1_bytes_sent"]].max(axis=1)
                                          / (nopr_m.sf0_bytes_sent + nopr_m.sf1_bytes_sent)).mean())
    rates = model_runs.groupby("distance_m").rate_bps.first() / 1e6
    out["a2m_rate_near_mbps"] = float(rates.max())
    out["a2m_rate_far_mbps"] = float(rates.min())
    out.update(_decided("a2", table))
    out.update(_reference("a2", reference))
    return out


def fig5_facts(*, summary: pd.DataFrame, runs: pd.DataFrame, pdrs, table_pdrs, alt_w: pd.DataFrame,
               model_sum: pd.DataFrame, table, reference: str) -> dict:
    """A3: the numbers of the Fig. 5 chapter's prose (``a3_*`` on the book's imitation, ``a3m_*`` on the papers'
    model's point-to-point stand-in) and its decided claims."""
    out = {}
    for tag, q in (("0", min(pdrs)), ("lo", min(table_pdrs))):                # NoPR and PR-R, per run
        sel = runs[(runs.pdr2 == q) & runs.solution.isin(["NoPR", "PR-R"])]
        out[f"a3_{tag}_pdr_pct"] = 100 * q
        out[f"a3_{tag}_timeouts"] = float(sel.timeouts.mean())
        out[f"a3_{tag}_drops"] = float((sel.loss_drops + sel.queue_drops).mean())
    rfc_gain = (alt_w.loc["rfc", "PR-R"] / alt_w.loc["rfc", "NoPR"] - 1) * 100
    out["a3_rfc_prr_gain_lo"] = float(rfc_gain.min())
    out["a3_rfc_prr_gain_hi"] = float(rfc_gain.max())
    s = summary.set_index(["pdr2", "solution"]).gthroughput_mbps
    imp_raw = improvement_pct(summary, "pdr2")
    p0, pmax = min(summary.pdr2), max(summary.pdr2)
    lossy = imp_raw.loc[[q for q in imp_raw.index if q > 0], "PR-R"]
    out["a3_single_mbps"] = float(s.xs("single TCP", level="solution").mean())
    out["a3_door_gain0"] = float(imp_raw.loc[0.0, "TCP-DOOR"])
    out["a3_prr_gain0"] = float(imp_raw.loc[0.0, "PR-R"])
    out["a3_prr_gain_mean"] = float(imp_raw["PR-R"].mean())
    out["a3_prr_gain_min"] = float(lossy.min())
    out["a3_prr_gain_max"] = float(lossy.max())
    out["a3_prr_stability"] = float(s.loc[(pmax, "PR-R")] / s.loc[(p0, "PR-R")])
    out["a3_door_drop_pct"] = float(100 * (1 - s.loc[(pmax, "TCP-DOOR")] / s.loc[(p0, "TCP-DOOR")]))
    out["a3_dsack_max_lossy"] = float(s.xs("D-SACK", level="solution").loc[lambda v: v.index > 0].max())
    order = comp.gthroughput_wide(summary, "pdr2")[list(SOLUTION_ORDER)].mean().sort_values(ascending=False)
    out["a3_order"] = " > ".join(order.index)
    # the papers' model, point-to-point stand-in
    model_wide = comp.gthroughput_wide(model_sum, "pdr2")
    model_imp = improvement_pct(model_sum, "pdr2")
    ms = model_sum.set_index(["pdr2", "solution"]).gthroughput_mbps
    m0, mmax = min(model_sum.pdr2), max(model_sum.pdr2)
    out["a3m_n_rep"] = float(model_sum[model_sum.pdr2 > 0].n_seeds.max()) if (model_sum.pdr2 > 0).any() else 1.0
    for sol, tag in (("NoPR", "nopr"), ("D-SACK", "dsack"), ("TCP-DOOR", "door"), ("PR-R", "prr")):
        out[f"a3m_{tag}_0"] = float(ms.loc[(m0, sol)])
        out[f"a3m_{tag}_max"] = float(ms.loc[(mmax, sol)])
        if sol != "NoPR":
            out[f"a3m_{tag}_gain_mean"] = float(model_imp[sol].mean())
    out["a3m_single"] = float(ms.xs("single TCP", level="solution").mean())
    out["a3m_pmax_pct"] = 100 * mmax
    out["a3m_prr_stability"] = float(ms.loc[(mmax, "PR-R")] / ms.loc[(m0, "PR-R")])
    out["a3m_order"] = " > ".join(model_wide.drop(columns=["single TCP"], errors="ignore").mean()
                                  .sort_values(ascending=False).index)
    out.update(_decided("a3", table))
    out.update(_reference("a3", reference))
    return out


def fig6_facts(*, mean_cw: pd.DataFrame, run_rows: pd.DataFrame, model_cw: pd.DataFrame, model_trace: pd.DataFrame,
               model_pdr: float, table, reference: str) -> dict:
    """A4: the numbers of the Fig. 6 chapter's prose (``a4_*`` on the book's imitation, ``a4m_*`` on the papers'
    model's point-to-point stand-in) and its decided claims."""
    out = {}
    perf = comp.run_means(run_rows)
    ds = run_rows[run_rows.solution == "D-SACK"]   # subflow 1 (sf0) is the loss-free one
    out["a4_dsack_sf1_timeouts"] = float(ds.sf0_timeouts.mean())
    out["a4_dsack_sf1_drops"] = int((ds.sf0_loss_drops + ds.sf0_queue_drops).sum())
    out["a4_dsack_sf1_spurious_pct"] = float(100 * ds.sf0_spurious_retransmissions.sum()
                                             / max(ds.sf0_retransmissions.sum(), 1))
    out["a4_dsack_sf1_fast_retransmits"] = float(ds.sf0_fast_retransmits.mean())
    for sol, tag in (("NoPR", "nopr"), ("PR-R", "prr"), ("TCP-DOOR", "door")):
        out[f"a4_{tag}_timeouts"] = float(perf.loc[sol, "timeouts"])
        rs = run_rows[run_rows.solution == sol]
        out[f"a4_{tag}_drops"] = float((rs.loss_drops + rs.queue_drops).mean())
        out[f"a4_{tag}_total_cwnd"] = float(mean_cw.loc[sol].iloc[0] + mean_cw.loc[sol].iloc[1])
        out[f"a4_{tag}_sf2_cwnd"] = float(mean_cw.loc[sol].iloc[1])
    out["a4m_pdr_pct"] = 100 * float(model_pdr)
    ends = model_trace.groupby("solution", sort=False).time_s.max()
    for sol, tag in (("NoPR", "nopr"), ("D-SACK", "dsack"), ("TCP-DOOR", "door"), ("PR-R", "prr")):
        out[f"a4m_{tag}_total_cwnd"] = float(model_cw.loc[sol].iloc[0] + model_cw.loc[sol].iloc[1])
        out[f"a4m_{tag}_ratio"] = float(model_cw.loc[sol, "SF 1 / SF 2"])
        out[f"a4m_{tag}_seconds"] = float(ends.loc[sol])
    out.update(_decided("a4", table))
    out.update(_reference("a4", reference))
    return out


__all__ = ["table1_facts", "fig4_facts", "fig5_facts", "fig6_facts"]
