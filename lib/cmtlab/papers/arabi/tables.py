"""The Arabi chapter's descriptive tables — the means and counters behind the claims and "where a choice
changes a conclusion" — on summaries in the layout of :func:`cmtlab.papers.arabi.experiments.summarise` (every
source under its label in the ``preset`` column; the papers' simulator's from
:func:`cmtlab.papers.arabi.papers_sim.chapter_sources`).

* :func:`mean_table` — mean ± 95 % CI (Mbit/s), congestion control × algorithm (Figs. 8–9's means);
* :func:`response_counters`, :func:`case_counters` — fast retransmits, timeouts and spurious events;
* :func:`modern_table` — LIA and OLIA under round robin and lowest-RTT (the modern baseline);
* :func:`sensitivity_table`, :func:`style_sensitivity`, :func:`loss_free_table`, :func:`loss_free_check`,
  :func:`mean_of` — the choices the paper leaves open, one at a time.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .experiments import CC_LABELS, RO_LABELS, claims, pivot
from .paper import PAPER_CONGESTION, REORDERING
from .sources import NOT_RUN, source_label


def _select(frame: pd.DataFrame, *, preset=None, scheduler="round_robin", setting="main") -> pd.DataFrame:
    m = pd.Series(True, index=frame.index)
    for col, v in (("preset", preset), ("scheduler", scheduler), ("setting", setting)):
        if v is not None and col in frame.columns:
            m &= frame[col] == v
    return frame[m]


def mean_table(summary: pd.DataFrame, preset: str, scenario_id: int, *, scheduler: str = "round_robin",
               setting: str = "main", digits: int = 2) -> pd.DataFrame:
    """Mean throughput ± 95 % CI half-width (Mbit/s, as text; a cell of one run shows its value alone),
    congestion control × reordering algorithm.

    The means behind Arabi et al.'s Figs. 8–9 (sec. 5) for one preset and scenario, labelled with
    :data:`~cmtlab.papers.arabi.experiments.CC_LABELS` / ``RO_LABELS``; only the combinations run appear.
    Raises :class:`ValueError` (from :func:`~cmtlab.papers.arabi.experiments.pivot`) if the selection is empty.
    """
    m = pivot(summary, preset=preset, scenario_id=scenario_id, scheduler=scheduler, setting=setting) / 1e6
    h = pivot(summary, preset=preset, scenario_id=scenario_id, scheduler=scheduler, setting=setting,
              value="ci95_bps") / 1e6
    n = pivot(summary, preset=preset, scenario_id=scenario_id, scheduler=scheduler, setting=setting, value="seeds")
    out = m.round(digits).astype(str)
    out = out.where(n <= 1, out + " ± " + h.round(digits).astype(str))   # one run: exact (the model) or no interval
    out.index = [CC_LABELS.get(c, c) for c in out.index]
    out.columns = [RO_LABELS.get(c, c) for c in out.columns]
    return out


def response_counters(summary: pd.DataFrame, *, scenario_id: int = 2, congestion: str = "lia",
                      scheduler: str = "round_robin", setting: str = "main") -> pd.DataFrame:
    """Why the algorithms differ (sec. 5): per preset and algorithm the mean throughput (``Mbit/s``) and
    the per-run means of fast retransmits, timeouts, the responses' restores (``spurious_undos``) and
    retransmissions, for one scenario and congestion control.  Empty if that was not run.
    """
    cols = ["preset", "reordering", "mean_bps", "fast_retransmits", "timeouts", "spurious_undos", "spurious_detections",
            "retransmissions"]
    s = _select(summary, scheduler=scheduler, setting=setting)
    s = s[(s.scenario == scenario_id) & (s.congestion == congestion)]
    s = s[[c for c in cols if c in s.columns]]
    return s.assign(mean_bps=s.mean_bps / 1e6).rename(columns={"mean_bps": "Mbit/s"}).reset_index(drop=True)


def modern_table(summary: pd.DataFrame, *, presets=None, scenarios=None, reordering=REORDERING,
                 congestion=("lia", "olia"), schedulers=("round_robin", "lowest_rtt"),
                 setting: str = "main") -> pd.DataFrame:
    """The modern baseline the paper lacks: mean throughput (Mbit/s) per algorithm for LIA and OLIA
    (Khalili et al.) under round robin and lowest-RTT-first; one row per preset × scenario ×
    scheduler × congestion control that was run (NaN for an algorithm not run)."""
    s = summary[summary.setting == setting] if "setting" in summary.columns else summary
    presets = list(dict.fromkeys(s.preset)) if presets is None else list(presets)
    scenarios = sorted(set(s.scenario)) if scenarios is None else list(scenarios)
    rows = []
    for preset in presets:
        for sid in scenarios:
            for sched in schedulers:
                for cc in congestion:
                    g = s[(s.preset == preset) & (s.scenario == sid) & (s.scheduler == sched) & (s.congestion == cc)]
                    if g.empty:
                        continue
                    means = dict(zip(g.reordering, g.mean_bps))
                    rows.append({"preset": preset, "scenario": sid, "scheduler": sched, "congestion": cc,
                                 **{RO_LABELS[r]: means.get(r, np.nan) / 1e6 for r in reordering}})
    return pd.DataFrame(rows, columns=["preset", "scenario", "scheduler", "congestion",
                                       *(RO_LABELS[r] for r in reordering)])


def mean_of(summary: pd.DataFrame, **labels) -> float:
    """Mean of ``mean_bps`` over the summary rows matching every ``label=value`` (NaN if none match)."""
    m = pd.Series(True, index=summary.index)
    for col, v in labels.items():
        if col not in summary.columns:
            raise ValueError(f"{col} is not a column of the summary (columns: {list(summary.columns)})")
        m &= summary[col] == v
    return float(summary[m].mean_bps.mean()) if m.any() else float("nan")


def sensitivity_table(summary: pd.DataFrame, *, scheduler: str = "round_robin") -> pd.DataFrame:
    """Per setting × preset of the sensitivity runs, the numbers behind the paper's claims in scenario 2
    (best combination, DSACK + uncoupled, F-RTO and Eifel against none) and Eifel's gain per scenario
    (sec. 5; :func:`~cmtlab.papers.arabi.experiments.claims`).  A number the runs cannot give is NaN; the best
    combination then reads :data:`NOT_RUN`."""
    rows = []
    for (setting, preset), _ in summary.groupby(["setting", "preset"], sort=False):
        c = claims(summary, preset=preset, setting=setting, scheduler=scheduler)
        b = c["best"]
        rows.append({"setting": setting, "preset": preset,
                     "best in scenario 2": (f"{CC_LABELS.get(b[0], b[0])} + {RO_LABELS[b[1]]} ({b[2] / 1e6:.2f} Mbit/s)"
                                            if b else NOT_RUN),
                     "DSACK+uncoupled s2 (Mbit/s)": c["dsack_uncoupled_s2_bps"] / 1e6,
                     "F-RTO vs none s2": c["frto_vs_none"], "Eifel vs none s2": c["eifel_vs_none"],
                     "Eifel gain s1": c["eifel_gain"].get(1, np.nan), "Eifel gain s2": c["eifel_gain"].get(2, np.nan)})
    return pd.DataFrame(rows)


def style_sensitivity(table: pd.DataFrame):
    """The :func:`sensitivity_table` for display: Mbit/s with two decimals, changes in per cent."""
    return table.style.hide(axis="index").format(
        {"DSACK+uncoupled s2 (Mbit/s)": "{:.2f}", "F-RTO vs none s2": "{:+.0%}", "Eifel vs none s2": "{:+.0%}",
         "Eifel gain s1": "{:+.0%}", "Eifel gain s2": "{:+.0%}"}, na_rep=NOT_RUN)


def loss_free_check(runs: pd.DataFrame, *, setting: str = "loss 0") -> dict:
    """The check behind "without random loss nothing differs" (sec. 5's figures need losses).

    Over the runs of ``setting``: ``identical`` — whether the four algorithms give the same mean
    throughput for every scenario × preset × scheduler × congestion control (None if no such runs);
    ``fast_retransmits`` and ``timeouts`` — their totals over those runs.
    """
    r = runs[runs.setting == setting]
    if r.empty:
        return {"identical": None, "fast_retransmits": 0, "timeouts": 0, "runs": 0}
    by = [c for c in ("scenario", "preset", "scheduler", "congestion", "seed") if c in r.columns]
    same = bool((r.groupby(by).mean_throughput_bps.nunique() == 1).all())
    return {"identical": same, "fast_retransmits": int(r.fast_retransmits.sum()), "timeouts": int(r.timeouts.sum()),
            "runs": len(r)}


def loss_free_table(summary: pd.DataFrame, *, setting: str = "main", sources=None) -> pd.DataFrame:
    """Why the main setting has no random loss: per source (``preset`` column) of a summary without
    random loss, whether the four algorithms tie in every scenario × congestion control
    (``algorithms tie``), the largest spread over the algorithms (``largest spread``: max / min − 1 of
    the means of one scenario × congestion control), and the fast retransmits and timeouts per run
    (means over every case).  The old ``chihani`` imitation ties (nothing is retransmitted); the
    papers' simulator does not.  ``sources``: which, in order (default: all in the summary).
    """
    s = _select(summary, scheduler="round_robin", setting=setting)
    s = s[s.reordering.isin(REORDERING) & s.congestion.isin(PAPER_CONGESTION)]
    sources = list(dict.fromkeys(s.preset)) if sources is None else list(sources)
    rows = []
    for src in sources:
        g = s[s.preset == src]
        if g.empty:
            raise ValueError(f"no rows for source {src!r} at setting={setting!r}")
        spread = g.groupby(["scenario", "congestion"]).mean_bps.agg(lambda v: v.max() / v.min() - 1).max()
        rows.append({"source": source_label(src), "algorithms tie": bool(spread <= 1e-9),
                     "largest spread": float(spread),
                     "fast retransmits per run": float(g.fast_retransmits.mean()) if "fast_retransmits" in g else np.nan,
                     "timeouts per run": float(g.timeouts.mean()) if "timeouts" in g else np.nan})
    return pd.DataFrame(rows)


def case_counters(summary: pd.DataFrame, *, scenario_id: int, congestion: str, reordering, sources,
                  setting: str = "main") -> pd.DataFrame:
    """The counters behind one scenario × congestion control: per source and algorithm the mean
    throughput (Mbit/s), fast retransmits, timeouts and spurious-retransmission events per run (the
    model's detections, ``spurious_detections``; a preset's restores, ``spurious_undos``)."""
    s = _select(summary, scheduler="round_robin", setting=setting)
    rows = []
    for src in sources:
        for r in reordering:
            g = s[(s.preset == src) & (s.scenario == scenario_id) & (s.congestion == congestion) & (s.reordering == r)]
            if g.empty:
                continue
            x = g.iloc[0]
            spur = x.get("spurious_detections", np.nan)
            if not np.isfinite(spur):
                spur = x.get("spurious_undos", np.nan)
            rows.append({"source": source_label(src), "algorithm": RO_LABELS.get(r, r), "Mbit/s": x.mean_bps / 1e6,
                         "fast retransmits": x.get("fast_retransmits", np.nan), "timeouts": x.get("timeouts", np.nan),
                         "spurious events": spur})
    return pd.DataFrame(rows, columns=["source", "algorithm", "Mbit/s", "fast retransmits", "timeouts", "spurious events"])


__all__ = ["mean_table", "response_counters", "modern_table", "mean_of", "sensitivity_table", "style_sensitivity",
           "loss_free_check", "loss_free_table", "case_counters"]
