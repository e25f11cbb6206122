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



def seed_range(n_seeds) -> str:
    """The seed count of a set of points as prose: "5" when every point has 5, "3–5" when they differ
    (the Wi-Fi recordings add seeds point by point)."""
    lo, hi = int(min(n_seeds)), int(max(n_seeds))
    return f"{hi}" if lo == hi else f"{lo}–{hi}"

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
    out.update(t1.prose_glue(g, runs, model, deltas_ms, meanings))
    out.update(_decided("a1", table))
    out["a1_minutes"] = float(minutes)
    return out


def _points_text(points, unit: str) -> str:
    """"10, 50, 70 and 100 m" from the points run."""
    pts = [f"{p:g}" for p in points]
    return (", ".join(pts[:-1]) + " and " + pts[-1] if len(pts) > 1 else pts[0]) + f" {unit}"


def order_text(wide: pd.DataFrame, *, unit: str, label=lambda p: f"{p:g} m", solutions=SOLUTION_ORDER,
               tol: float = comp.BEST_TIE_TOL, points_word: str = "distance") -> str:
    """The solutions' order by gThroughput at every point of ``wide``
    (:func:`~cmtlab.papers.alheid.comparison.gthroughput_wide`), in words: one order if it is the same at every
    point (with the values at the first and the last point), else the order point by point.  Two solutions within ``tol`` (relative) of each other are written
    ``A = B`` (a tie), never ``A > B``."""
    rank = {s: i for i, s in enumerate(solutions)}

    def order(p):
        row = wide.loc[p, list(solutions)].sort_values(ascending=False)
        names, vals = list(row.index), list(row.to_numpy())
        groups = [[names[0]]]
        for i in range(1, len(names)):
            if vals[i] >= (1 - tol) * vals[i - 1]:
                groups[-1].append(names[i])
            else:
                groups.append([names[i]])
        return " > ".join(" = ".join(sorted(g, key=rank.get)) for g in groups), row

    pts = list(wide.index)
    orders = {p: order(p) for p in pts}

    def values(p):
        text, row = orders[p]
        names = [n for g in text.split(" > ") for n in g.split(" = ")]
        return f"{label(p)}: " + ", ".join(f"{row[n]:.1f}" for n in names) + f" {unit}"

    if len({o for o, _ in orders.values()}) == 1:
        ends = [pts[0], pts[-1]] if len(pts) > 1 else pts
        return (f"the same order at every {points_word} run, {orders[pts[0]][0]} (" + "; ".join(values(p) for p in ends) + ")")
    return f"the order changes from {points_word} to {points_word}: " + "; ".join(f"{label(p)} {orders[p][0]}" for p in pts)


def _wifi_fig4(wifi: pd.DataFrame, table_distances_m) -> dict:
    """``a2w_*``: the papers' model over Wi-Fi (the deciding reference) in the Fig. 4 chapter's reading."""
    out = {}
    wide = comp.gthroughput_wide(wifi, "distance_m").sort_index()
    imp = improvement_pct(wifi, "distance_m")
    near = [d for d in imp.index if d <= 50]
    far = [d for d in imp.index if d > 50]
    out["a2w_points"] = _points_text(list(wide.index), "m")
    out["a2w_n_seeds"] = seed_range(wifi.n_seeds)
    for sol, tag in (("D-SACK", "dsack"), ("TCP-DOOR", "door"), ("PR-R", "prr")):
        out[f"a2w_gain_near_{tag}"] = comp.mean_improvement(imp, sol, near) if near else float("nan")
        out[f"a2w_gain_far_{tag}"] = comp.mean_improvement(imp, sol, far) if far else float("nan")
    ratio = float((wide["NoPR"] / wide["single TCP"]).mean())
    out["a2w_nopr_over_single"] = ratio
    out["a2w_nopr_text"] = ("holds" if ratio < comp.NOPR_UNABLE_RATIO else "does not hold") + \
        f" (NoPR / single TCP = {ratio:.2f} on average over the distances; the rule's cut: {comp.NOPR_UNABLE_RATIO:g})"
    out["a2w_order_text"] = order_text(wide, unit="Mbit/s")
    gap = (1 - wide["PR-R"] / wide["TCP-DOOR"]) * 100
    out["a2w_prr_below_door_min"] = float(gap.min())
    out["a2w_prr_below_door_max"] = float(gap.max())
    out["a2w_single_max_mbps"] = float(wide["single TCP"].max())
    t3 = wifi.set_index(["distance_m", "solution"])
    lu_best, bo_more = [], []
    for d in table_distances_m:
        d = float(d)
        if d not in wide.index:
            continue
        lu = t3.loc[d].loc[list(SOLUTION_ORDER), "lu_pct"]
        lu_best.append(f"at {d:g} m " + ("PR-R's LU is the highest" if lu.idxmax() == "PR-R" else
                                         f"{lu.idxmax()}'s LU is the highest") +
                       f" ({lu.idxmax()} {lu.max():.1f} %" + ("" if lu.idxmax() == "PR-R" else
                                                           f", PR-R {lu['PR-R']:.1f} %") + ")")
        bo = t3.loc[d].loc[list(SOLUTION_ORDER), "ooo_bo_kbyte"]
        bo_more.append(f"at {d:g} m PR-R needs " + ("more" if bo["PR-R"] > bo["TCP-DOOR"] else "less") +
                       f" buffer than TCP-DOOR ({bo['PR-R']:.0f} against {bo['TCP-DOOR']:.0f} Kbyte)")
    out["a2w_lu_text"] = "; ".join(lu_best)
    out["a2w_bo_text"] = "; ".join(bo_more)
    out["a2w_far_text"] = _best_text(wide, far, "m") if far else "no distance beyond 50 m is run"
    out["a2w_near_text"] = _best_text(wide, near, "m") if near else "no distance up to 50 m is run"
    return out


def _best_text(wide: pd.DataFrame, points, unit: str) -> str:
    """Which solution is best at ``points`` (ties within :data:`~cmtlab.papers.alheid.comparison.BEST_TIE_TOL` as
    ``A = B``) and PR-R's place, in words: "TCP-DOOR is best at 70 and 100 m, PR-R 4.9–5.3 % below it"."""
    bests = {p: comp.best_at(wide, p) for p in points}
    names = sorted(set(bests.values()))
    where = _points_text(list(points), unit)
    if len(names) == 1:
        head = f"{names[0]} {'are' if ' = ' in names[0] else 'is'} best at {where}"
    else:
        head = "the best changes: " + "; ".join(f"{p:g} {unit} {b}" for p, b in bests.items())
    if all("PR-R" in b for b in bests.values()):
        return head
    gaps = [(1 - wide.loc[p, "PR-R"] / wide.loc[p, list(SOLUTION_ORDER)].max()) * 100 for p in points]
    return head + (f", PR-R {min(gaps):.1f}–{max(gaps):.1f} % below the best" if len(gaps) > 1
                   else f", PR-R {gaps[0]:.1f} % below it")


def fig4_facts(*, summary: pd.DataFrame, runs: pd.DataFrame, table_distances_m, causes: pd.DataFrame,
               cause_counts: pd.DataFrame, rec: pd.DataFrame, rec_t: pd.DataFrame, recovery_alternative: str,
               alt_seeds: int, rule_s: pd.DataFrame, alt_w: pd.DataFrame, model_sum: pd.DataFrame,
               model_runs: pd.DataFrame, table, reference: str, wifi_sum: pd.DataFrame | None = None) -> dict:
    """A2: the numbers of the Fig. 4 chapter's prose (``a2_*`` on the book's imitation, ``a2m_*`` on the papers'
    model's point-to-point stand-in, ``a2w_*`` on the papers' model over Wi-Fi where recorded) and its decided
    claims."""
    out = {}
    if wifi_sum is not None:
        out.update(_wifi_fig4(wifi_sum, table_distances_m))
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
    out["a2_rfc_seeds"] = int(alt_seeds)
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
    three = model_wide[["D-SACK", "TCP-DOOR", "PR-R"]]
    out["a2m_three_spread_pct"] = float(((three.max(axis=1) / three.min(axis=1) - 1) * 100).max())
    out["a2m_order_text"] = order_text(model_wide.sort_index(), unit="Mbit/s")
    out["a2m_rate_near_mbps"] = float(rates.max())
    out["a2m_rate_far_mbps"] = float(rates.min())
    out.update(_decided("a2", table))
    out.update(_reference("a2", reference))
    return out


def _pdr_label(q) -> str:
    return f"PDR {100 * q:.1f} %"


def _wifi_fig5(wifi: pd.DataFrame) -> dict:
    """``a3w_*``: the papers' model over Wi-Fi (the deciding reference) in the Fig. 5 chapter's reading."""
    out = {}
    wide = comp.gthroughput_wide(wifi, "pdr2").sort_index()
    imp = improvement_pct(wifi, "pdr2")
    p0, pmax = min(wide.index), max(wide.index)
    out["a3w_points"] = "PDR " + _points_text([100 * q for q in wide.index], "%")
    out["a3w_n_seeds"] = seed_range(wifi.n_seeds)
    for sol, tag in (("NoPR", "nopr"), ("D-SACK", "dsack"), ("TCP-DOOR", "door"), ("PR-R", "prr")):
        out[f"a3w_{tag}_0"] = float(wide.loc[p0, sol])
        out[f"a3w_{tag}_max"] = float(wide.loc[pmax, sol])
    out["a3w_pmax_pct"] = 100 * pmax
    out["a3w_door_gain0"] = float(imp.loc[p0, "TCP-DOOR"])
    out["a3w_prr_gain_mean"] = float(imp["PR-R"].mean())
    out["a3w_prr_stability"] = float(wide.loc[pmax, "PR-R"] / wide.loc[p0, "PR-R"])
    out["a3w_door_drop_pct"] = float(100 * (1 - wide.loc[pmax, "TCP-DOOR"] / wide.loc[p0, "TCP-DOOR"]))
    out["a3w_single"] = float(wide.loc[p0, "single TCP"])
    out["a3w_nopr_peak"] = float(wide["NoPR"].max())
    out["a3w_dsack_peak"] = float(wide["D-SACK"].max())
    out["a3w_dsack_peak_pdr_pct"] = 100 * float(wide["D-SACK"].idxmax())
    lossy = wide.loc[[q for q in wide.index if q > 0], "D-SACK"]
    out["a3w_dsack_lossy_max"] = float(lossy.max()) if len(lossy) else float("nan")
    mean = wide[list(SOLUTION_ORDER)].mean().sort_values(ascending=False)
    out["a3w_order"] = " > ".join(f"{k} {v:.1f}" for k, v in mean.items()) + " Mbit/s"
    out["a3w_order_text"] = order_text(wide, unit="Mbit/s", label=_pdr_label, points_word="PDR")
    return out


def prr_close_text(gains, *, band_pct: float = 100 * comp.NO_CHANGE) -> str:
    """PR-R against NoPR at the lossy PDRs, in words that follow the numbers: "stays within the policy's no-change
    band of NoPR (…)" only when every gain lies within ±``band_pct`` %, else "differs from NoPR by …"."""
    lo, hi = float(min(gains)), float(max(gains))
    span = f"between {lo:+.0f} and {hi:+.0f} % at the PDRs above 0"
    if max(abs(lo), abs(hi)) <= band_pct:
        return f"stays within ±{band_pct:g} % of NoPR (the policy's no-change band): {span}"
    return f"does not stay close to NoPR: {span}"


def fig5_facts(*, summary: pd.DataFrame, runs: pd.DataFrame, pdrs, table_pdrs, alt_w: pd.DataFrame,
               model_sum: pd.DataFrame, table, reference: str, wifi_sum: pd.DataFrame | None = None,
               rfc_seeds: int | None = None) -> dict:
    """A3: the numbers of the Fig. 5 chapter's prose (``a3_*`` on the book's imitation, ``a3m_*`` on the papers'
    model's point-to-point stand-in, ``a3w_*`` on the papers' model over Wi-Fi where recorded) and its decided
    claims."""
    out = {}
    if wifi_sum is not None:
        out.update(_wifi_fig5(wifi_sum))
    if rfc_seeds is not None:
        out["a3_rfc_seeds"] = int(rfc_seeds)
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
    out["a3_prr_close_text"] = prr_close_text(lossy) if len(lossy) else "is not run at a PDR above 0"
    out["a3_dsack_peak"] = float(s.xs("D-SACK", level="solution").max())
    out["a3_dsack_peak_pdr_pct"] = 100 * float(s.xs("D-SACK", level="solution").idxmax())
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
               model_pdr: float, table, reference: str, wifi_cw: pd.DataFrame | None = None) -> dict:
    """A4: the numbers of the Fig. 6 chapter's prose (``a4_*`` on the book's imitation, ``a4m_*`` on the papers'
    model's point-to-point stand-in, ``a4w_*`` on the papers' model over Wi-Fi where recorded) and its decided
    claims."""
    out = {}
    if wifi_cw is not None:
        for sol, tag in (("NoPR", "nopr"), ("D-SACK", "dsack"), ("TCP-DOOR", "door"), ("PR-R", "prr")):
            out[f"a4w_{tag}_total_cwnd"] = float(wifi_cw.loc[sol].iloc[0] + wifi_cw.loc[sol].iloc[1])
            out[f"a4w_{tag}_ratio"] = float(wifi_cw.loc[sol, "SF 1 / SF 2"])
        ratio = wifi_cw["SF 1 / SF 2"].map(lambda r: max(r, 1 / r) if r > 0 else float("inf"))
        out["a4w_most_uneven"] = str(ratio.idxmax())
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


__all__ = ["order_text", "prr_close_text", "table1_facts", "fig4_facts", "fig5_facts", "fig6_facts"]
