"""Tables of the Arabi chapter and its paper-vs-reproduction comparison (Arabi et al., sec. 5–6).

Everything here works on what a run computed — the ``summary`` of
:func:`~cmtlab.arabi.experiments.summarise` and the ``traces`` of
:func:`~cmtlab.arabi.experiments.throughput_traces` — and on *any subset* of the chapter's grid:
a papermill re-run with one scenario, two congestion controls, one preset or without the modern
baseline gets the same tables with fewer rows, and each claim of the paper that needs a scenario,
congestion control, algorithm or preset the run left out gets a row "not run with these parameters"
with the verdict :data:`cmtlab.report.NOT_ASSESSED` instead of a guess.

* :func:`mean_table` — mean ± 95 % CI (Mbit/s), congestion control × algorithm (Figs. 8–9's means);
* :func:`response_counters` — fast retransmits, timeouts and restores behind one scenario's means;
* :func:`late_ratio` — throughput of an algorithm relative to none late in the run (F-RTO, sec. 5);
* :func:`modern_table` — LIA and OLIA under round robin and lowest-RTT (the modern baseline);
* :func:`sensitivity_table`, :func:`loss_free_check`, :func:`mean_of` — "where a choice changes a
  conclusion";
* :func:`comparison` — the whole paper-vs-reproduction table (:class:`ArabiComparison`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..report import NO_CHANGE, SAME, Comparison, Condition, trend_rule
from .experiments import (BIN_S, CC_LABELS, PAPER_CONGESTION, QUEUE_PACKETS, REORDERING, RO_LABELS, claims,
                          pivot)

#: What a claim's row says when the run did not compute what the claim needs.
NOT_RUN = "not run with these parameters"
#: Comparisons at a cut point are inclusive up to floating-point rounding.
EPS = 1e-12
#: The congestion controls of the claim "Eifel improves only with two subflows" (sec. 5).
EIFEL_CLAIM_CONGESTION = ("uncoupled", "lia", "rtt_compensation")
from ..report import VERDICT_COLOURS  # noqa: E402  (re-exported: the chapter's verdict colours)

#: Sec. 5 and 6 of the paper, quoted (the figures themselves are not in the text).
QUOTE_FIG8 = ("when using the linked increases congestion control algorithm the throughput of using DSACK stays the "
              "same. However, the throughput of both the Eifel and FRTO algorithms is decreased when they detects a "
              "spurious retransmission and the throughput when no packet reordering algorithm is used remains the same "
              "as when using uncoupled congestion control algorithm")
QUOTE_FIG9 = ("the best result is the throughput for DSACK as it reaches about 10 Mbps and the throughput of both FRTO "
              "and Eifel algorithms is 40 less than the one when no packet reordering algorithms have been used")
QUOTE_BEST = ("The best throughput can be obtained in the scenario of three subflows is when using DSACK with uncoupled "
              "algorithm which is about 10Mbps")
QUOTE_EIFEL = ("The Eifel algorithm can improve the performance of the connection only when using two subflows with "
               "uncoupled, linked increases and RTT compensation congestion control algorithms")
QUOTE_RANK = ("a good results but is not the best can be obtained when using DSACK packet reordering algorithm with RTT "
              "compensation congestion control algorithm in the first scenario when using two subflows")
QUOTE_FRTO = ("The throughput of FRTO increases exponentially in each scenario however; when a spurious retransmission "
              "is detected it decreases and stays in the recovery state")
QUOTE_NONE_OPTIMAL = ("none of the three packet reordering algorithms is the optimal solution for the out of order "
                      "packets in the MPTCP scenario, although they improve the performance of the connection")


def _select(frame: pd.DataFrame, *, preset=None, scheduler="round_robin", setting="main") -> pd.DataFrame:
    m = pd.Series(True, index=frame.index)
    for col, v in (("preset", preset), ("scheduler", scheduler), ("setting", setting)):
        if v is not None and col in frame.columns:
            m &= frame[col] == v
    return frame[m]


def mean_table(summary: pd.DataFrame, preset: str, scenario_id: int, *, scheduler: str = "round_robin",
               setting: str = "main", digits: int = 2) -> pd.DataFrame:
    """Mean throughput ± 95 % CI half-width (Mbit/s, as text), congestion control × reordering algorithm.

    The means behind Arabi et al.'s Figs. 8–9 (sec. 5) for one preset and scenario, labelled with
    :data:`~cmtlab.arabi.experiments.CC_LABELS` / ``RO_LABELS``; only the combinations run appear.
    Raises :class:`ValueError` (from :func:`~cmtlab.arabi.experiments.pivot`) if the selection is empty.
    """
    m = pivot(summary, preset=preset, scenario_id=scenario_id, scheduler=scheduler, setting=setting) / 1e6
    h = pivot(summary, preset=preset, scenario_id=scenario_id, scheduler=scheduler, setting=setting,
              value="ci95_bps") / 1e6
    out = m.round(digits).astype(str) + " ± " + h.round(digits).astype(str)
    out.index = [CC_LABELS.get(c, c) for c in out.index]
    out.columns = [RO_LABELS.get(c, c) for c in out.columns]
    return out


def response_counters(summary: pd.DataFrame, *, scenario_id: int = 2, congestion: str = "lia",
                      scheduler: str = "round_robin", setting: str = "main") -> pd.DataFrame:
    """Why the algorithms differ (sec. 5): per preset and algorithm the mean throughput (``Mbit/s``) and
    the per-run means of fast retransmits, timeouts, the responses' restores (``spurious_undos``) and
    retransmissions, for one scenario and congestion control.  Empty if that was not run.
    """
    cols = ["preset", "reordering", "mean_bps", "fast_retransmits", "timeouts", "spurious_undos", "retransmissions"]
    s = _select(summary, scheduler=scheduler, setting=setting)
    s = s[(s.scenario == scenario_id) & (s.congestion == congestion)]
    s = s[[c for c in cols if c in s.columns]]
    return s.assign(mean_bps=s.mean_bps / 1e6).rename(columns={"mean_bps": "Mbit/s"}).reset_index(drop=True)


def late_ratio(traces: pd.DataFrame, *, preset: str, scenario_id: int, reordering: str, congestion=PAPER_CONGESTION,
               from_s: float | None = None, scheduler: str = "round_robin", setting: str = "main") -> float:
    """Throughput of ``reordering`` relative to no algorithm late in the run, averaged over ``congestion``.

    For each congestion control run, the mean of the throughput-over-time bins after ``from_s``
    (default: the second half of the run, from the bins' extent) with ``reordering`` divided by
    the same without an algorithm; the mean of those ratios.  Arabi et al. (sec. 5) say F-RTO's
    throughput drops after a detection and stays low: then this ratio stays below 1.  NaN if the
    traces lack the scenario, ``reordering``, ``"none"`` or every congestion control of ``congestion``.
    """
    t = _select(traces, preset=preset, scheduler=scheduler, setting=setting)
    t = t[(t.scenario == scenario_id) & t.congestion.isin(list(congestion))]
    if t.empty:
        return float("nan")
    if from_s is None:
        from_s = (t.time_s.max() + BIN_S / 2) / 2
    g = t[t.time_s > from_s].groupby(["congestion", "reordering"]).mean_bps.mean().unstack()
    if reordering not in g.columns or "none" not in g.columns:
        return float("nan")
    return float((g[reordering] / g["none"]).mean())


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
    (sec. 5; :func:`~cmtlab.arabi.experiments.claims`).  A number the runs cannot give is NaN; the best
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


# ---------------------------------------------------------------------------------------- comparison

def _pct(x: float) -> str:
    return f"{x:+.0%}"


def _cc_list(ccs) -> str:
    return ", ".join(CC_LABELS.get(c, c) for c in ccs)


@dataclass
class _Grid:
    """What one preset/scheduler/setting of a summary holds: scenarios, congestion controls, algorithms."""

    preset: str
    scheduler: str
    scenarios: set
    congestion: set
    reordering: set

    @classmethod
    def of(cls, summary, preset, scheduler, setting="main"):
        s = _select(summary, preset=preset, scheduler=scheduler, setting=setting)
        return cls(preset, scheduler, set(s.scenario), set(s.congestion), set(s.reordering))

    def missing(self, scenarios=(), congestion=(), reordering=(), any_congestion=()) -> list[str]:
        """What of the requirements was not run (empty: everything was)."""
        if not (self.scenarios and self.congestion and self.reordering):
            return [f"preset {self.preset}" + (f" with the {self.scheduler} scheduler"
                                               if self.scheduler != "round_robin" else "")]
        out = [f"scenario {s}" for s in scenarios if s not in self.scenarios]
        out += [CC_LABELS.get(c, c) for c in congestion if c not in self.congestion]
        if any_congestion and not (set(any_congestion) & self.congestion):
            out.append("one of " + _cc_list(any_congestion))
        out += [RO_LABELS.get(r, r) for r in reordering if r not in self.reordering]
        return out

    def present(self, ccs) -> list[str]:
        return [c for c in ccs if c in self.congestion]


def _not_run(missing: list[str]) -> str:
    return f"{NOT_RUN} (needs {', '.join(missing)})"


@dataclass
class ArabiComparison:
    """The chapter's paper-vs-reproduction table: ``table`` (the reproduction column and the verdicts,
    a :class:`cmtlab.report.Comparison`) plus the same numbers under RFC behaviour and for the modern
    baseline, one entry per row of ``table``."""

    table: Comparison
    rfc: list = field(default_factory=list)
    modern: list = field(default_factory=list)
    best: tuple | None = None        # (congestion, reordering, bit/s) of the reproduction's best in scenario 2
    rfc_label: str = "RFC preset"
    modern_label: str = "modern baseline: OLIA + lowest-RTT (model / RFC preset)"

    def frame(self) -> pd.DataFrame:
        """The table with the RFC and modern-baseline columns beside the reproduction (row references)."""
        return self.table.to_frame()

    def summary(self) -> dict:
        return self.table.summary()

    def best_label(self) -> str:
        """"Eifel + uncoupled" for the reproduction's best combination in scenario 2, or :data:`NOT_RUN`."""
        if self.best is None:
            return NOT_RUN
        return f"{RO_LABELS[self.best[1]]} + {CC_LABELS.get(self.best[0], self.best[0])}"

    def style(self):
        """A pandas Styler with the verdicts coloured (:data:`VERDICT_COLOURS`)."""
        return self.table.style()

    def show(self):
        self.table.show()

    def glue(self, prefix: str = "verdicts") -> dict:
        return self.table.glue(prefix)

    def consistency(self) -> str:
        return self.table.consistency()

    def summary_text(self) -> str:
        return self.table.summary_text()


def comparison(summary: pd.DataFrame, traces: pd.DataFrame, *, duration_s: float, loss_rate: float,
               receive_buffer_bytes: int, sensitivity: pd.DataFrame | None = None, preset: str = "chihani",
               rfc_preset: str = "rfc", modern_presets=("chihani", "rfc"), modern_scheduler: str = "lowest_rtt",
               modern_congestion: str = "olia") -> ArabiComparison:
    """Paper (Arabi et al., sec. 4–6) vs reproduction, with verdicts computed from the runs.

    The reproduction column and the verdicts use ``preset`` (the papers' model, round robin,
    ``setting="main"``); the RFC column the same numbers under ``rfc_preset``; the modern column
    ``modern_congestion`` with ``modern_scheduler`` under each of ``modern_presets`` that was run.
    ``duration_s``, ``loss_rate`` and ``receive_buffer_bytes`` are the run's choices (the summary does
    not hold them); ``sensitivity`` (a summary with ``setting="loss 0"`` rows) adds the loss-free
    throughput to the DSACK + uncoupled row.

    Each claim needs certain runs.  Claims about *every* combination (the best one in scenario 2,
    the rank of DSACK + RTT compensation) need all four congestion controls and algorithms; claims
    averaged over the congestion controls take those run and say so; the others need their
    scenario, congestion controls and algorithms.  A claim whose runs are missing gets the row
    "not run with these parameters (needs …)" and the verdict :data:`cmtlab.report.NOT_ASSESSED`.
    """
    ch = claims(summary, preset=preset)
    rf = claims(summary, preset=rfc_preset)
    gr = _Grid.of(summary, preset, "round_robin")
    gr_rfc = _Grid.of(summary, rfc_preset, "round_robin")
    mods = {p: (claims(summary, preset=p, scheduler=modern_scheduler, congestion=[modern_congestion]),
                _Grid.of(summary[summary.congestion == modern_congestion], p, modern_scheduler))
            for p in modern_presets}
    mods = {p: v for p, v in mods.items() if v[1].scenarios}
    out = ArabiComparison(Comparison(), best=ch["best"])
    table = out.table
    all_cc, all_ro = PAPER_CONGESTION, REORDERING

    def rfc_text(needs: dict, text):
        if not gr_rfc.scenarios:
            return "not run"
        miss = gr_rfc.missing(**needs)
        return "not run" if miss else text()

    def modern_text(needs: dict, text):
        if not mods:
            return "not run"
        return "; ".join(f"{p}: {'not run' if g.missing(**needs) else text(c)}" for p, (c, g) in mods.items())

    def add(needs: dict, claim: str, paper: str, adder, rfc, modern="-"):
        """One claim: assessed by ``adder()`` if the reproduction preset ran what ``needs`` says."""
        miss = gr.missing(**needs)
        if miss:
            table.add_not_assessed(claim, paper=paper, reason=_not_run(miss))
        else:
            adder()
        out.rfc.append(rfc)
        out.modern.append(modern)
        table.rows[-1].references = {out.rfc_label: rfc, out.modern_label: modern}

    def mean_note(ccs, what="mean over the four congestion controls"):
        return what if len(ccs) == len(PAPER_CONGESTION) else f"mean over {_cc_list(ccs)} (the others not run)"

    # --- inputs (sec. 4)
    run = _select(summary, preset=None, scheduler="round_robin")
    subset = []
    if {1, 2} - set(run.scenario):
        subset.append("scenario " + ", ".join(str(s) for s in sorted(set(run.scenario))))
    ccs_run = [c for c in PAPER_CONGESTION if c in set(run.congestion)]
    if len(ccs_run) < len(PAPER_CONGESTION):
        subset.append(_cc_list(ccs_run))
    ros_run = [r for r in REORDERING if r in set(run.reordering)]
    if len(ros_run) < len(REORDERING):
        subset.append(", ".join(RO_LABELS[r] for r in ros_run))
    table.add_input("scenarios 1 and 2, four congestion controls, four algorithms", paper="sec. 4",
                    ours=f"one-way delays; {duration_s:g} s, {loss_rate:.1%} loss, {QUEUE_PACKETS}-packet queues, "
                         f"{receive_buffer_bytes // 1024} KB receive buffer (our choices)"
                         + (f"; run here: {'; '.join(subset)} only" if subset else ""))
    out.rfc.append("same" if gr_rfc.scenarios else "not run")
    out.modern.append("same" if mods else "not run")
    table.rows[-1].references = {out.rfc_label: out.rfc[-1], out.modern_label: out.modern[-1]}
    table.rows[-1].where = "sec. 4"

    # --- scenario 2: the best combination
    every = dict(scenarios=(2,), congestion=all_cc, reordering=all_ro)
    b = ch["best"]

    def best():
        table.add_claim("scenario 2: the best combination is DSACK + uncoupled", paper="DSACK + uncoupled",
                        where="sec. 6", quote=QUOTE_BEST,
                        ours=f"{RO_LABELS[b[1]]} + {CC_LABELS[b[0]]} ({b[2] / 1e6:.2f} Mbit/s)",
                        holds=(b[0], b[1]) == ("uncoupled", "dsack"),
                        rule="DSACK + uncoupled has the highest mean of the 16 combinations in scenario 2",
                        note="the model's Eifel ignores most losses (see above)" if b[1] == "eifel" else "")

    def rfc_best():
        rb = pivot(summary, preset=rfc_preset, scenario_id=2).loc[rf["best"][0]]
        return (f"{RO_LABELS[rf['best'][1]]} + {CC_LABELS[rf['best'][0]]}; the four algorithms within "
                f"{rb.max() / rb.min() - 1:.1%} of each other")

    add(every, "scenario 2: the best combination is DSACK + uncoupled", "DSACK + uncoupled", best,
        rfc_text(every, rfc_best),
        modern_text(dict(scenarios=(2,), reordering=all_ro), lambda c: f"{RO_LABELS[c['best'][1]]} best"))

    def s2_change(p, r, cc="uncoupled"):
        t = pivot(summary, preset=p, scenario_id=2)
        return float(t.loc[cc, r] / t.loc[cc, "none"] - 1)

    def s2_change_ci(p, r, cc="uncoupled"):
        """(low, high) of 100 × (r / none − 1) from the seeds' 95 % half-widths (first-order propagation) and n."""
        t = pivot(summary, preset=p, scenario_id=2)
        h = pivot(summary, preset=p, scenario_id=2, value="ci95_bps") if "ci95_bps" in summary.columns else None
        n = pivot(summary, preset=p, scenario_id=2, value="seeds") if "seeds" in summary.columns else None
        ratio = t.loc[cc, r] / t.loc[cc, "none"]
        if h is None:
            return None, None
        hr = 100 * ratio * np.hypot(h.loc[cc, r] / t.loc[cc, r], h.loc[cc, "none"] / t.loc[cc, "none"])
        g = 100 * (ratio - 1)
        return (g - hr, g + hr), (int(n.loc[cc, r]) if n is not None else None)

    def s2_ci(p, r, cc):
        if "ci95_bps" not in summary.columns:
            return None, None
        m = pivot(summary, preset=p, scenario_id=2).loc[cc, r] / 1e6
        h = pivot(summary, preset=p, scenario_id=2, value="ci95_bps").loc[cc, r] / 1e6
        n = pivot(summary, preset=p, scenario_id=2, value="seeds").loc[cc, r] if "seeds" in summary.columns else None
        return (m - h, m + h), (int(n) if n is not None else None)

    # --- scenario 2: DSACK + uncoupled about 10 Mbit/s
    needs = dict(scenarios=(2,), congestion=("uncoupled",), reordering=("dsack",))
    loss0 = (mean_of(sensitivity, setting="loss 0", preset=preset, scenario=2, scheduler="round_robin",
                     congestion="uncoupled", reordering="dsack")
             if sensitivity is not None and "loss 0" in set(sensitivity.setting) else float("nan"))
    add(needs, "scenario 2: throughput of DSACK + uncoupled", "10 Mbit/s",
        lambda: table.add_value("scenario 2: throughput of DSACK + uncoupled", paper=10.0, where="sec. 5, Fig. 9",
                                quote=QUOTE_FIG9, paper_text="about 10 Mbit/s",
                                ours=ch["dsack_uncoupled_s2_bps"] / 1e6, unit="Mbit/s", fmt=".2f",
                                ci=s2_ci(preset, "dsack", "uncoupled")[0], n_seeds=s2_ci(preset, "dsack", "uncoupled")[1],
                                note=(f"without random loss {loss0 / 1e6:.2f} Mbit/s, the same for every algorithm"
                                      if np.isfinite(loss0) else "")),
        rfc_text(needs, lambda: f"{rf['dsack_uncoupled_s2_bps'] / 1e6:.2f} Mbit/s"),
        modern_text(dict(scenarios=(2,), reordering=("dsack",)),
                    lambda c: f"DSACK + OLIA {c['dsack_s2_bps'][modern_congestion] / 1e6:.2f} Mbit/s"))

    # --- scenario 2 (Fig. 9, uncoupled): F-RTO and Eifel "40 less" than no algorithm

    for r, name in (("frto", "F-RTO"), ("eifel", "Eifel")):
        needs = dict(scenarios=(2,), congestion=("uncoupled",), reordering=("none", r))
        claim = f"scenario 2, uncoupled: {name} relative to no algorithm"
        add(needs, claim, "-40 %",
            lambda r=r, claim=claim: table.add_value(
                claim, paper=-40.0, paper_text="“40 less” (no unit; read as −40 %)", where="sec. 5, Fig. 9",
                quote=QUOTE_FIG9, ours=100 * s2_change(preset, r), unit="%", fmt=".0f",
                ci=s2_change_ci(preset, r)[0], n_seeds=s2_change_ci(preset, r)[1],
                note=f"the paper's condition (Fig. 9: uncoupled, three subflows); {mean_note(gr.present(all_cc))}: "
                     f"{100 * ch[f'{r}_vs_none']:+.0f} %"),
            rfc_text(needs, lambda r=r: _pct(s2_change(rfc_preset, r))),
            modern_text(dict(scenarios=(2,), reordering=("none", r)), lambda c, r=r: _pct(c[f"{r}_vs_none"])))

    # --- Eifel helps only with two subflows
    needs = dict(scenarios=(1, 2), reordering=("none", "eifel"), any_congestion=EIFEL_CLAIM_CONGESTION)
    claim = "Eifel improves on no algorithm only with two subflows (uncoupled, LIA, RTT compensation)"

    def eifel():
        g1, g2 = ch["eifel_gain"][1], ch["eifel_gain"][2]
        ccs = gr.present(EIFEL_CLAIM_CONGESTION)
        sub = "" if len(ccs) == len(EIFEL_CLAIM_CONGESTION) else f"over {_cc_list(ccs)} (the others not run)"
        up = NO_CHANGE
        table.add_claim(claim, paper="gain in scenario 1 only", where="sec. 6", quote=QUOTE_EIFEL,
                        ours=f"gain {g1:+.0%} (s1), {g2:+.0%} (s2)",
                        holds=True if (g1 > up + EPS and g2 <= up + EPS) else ("partly" if g1 > up + EPS else False),
                        rule=Condition(f"gain > {100 * up:g} % in scenario 1 and ≤ {100 * up:g} % in scenario 2 (the "
                                       "policy's no-change band)", partly_text=f"gain > {100 * up:g} % in both scenarios"),
                        note=sub)

    add(needs, claim, "gain in scenario 1 only", eifel,
        rfc_text(needs, lambda: f"{rf['eifel_gain'][1]:+.0%} / {rf['eifel_gain'][2]:+.0%}"),
        modern_text(dict(scenarios=(1, 2), reordering=("none", "eifel")),
                    lambda c: f"{c['eifel_gain'][1]:+.0%} / {c['eifel_gain'][2]:+.0%}"))

    # --- scenario 1: DSACK + RTT compensation good, not the best
    needs = dict(scenarios=(1,), congestion=all_cc, reordering=all_ro)

    def rank():
        r_, n_ = ch["dsack_rttc_rank_s1"], ch["n_combinations"]
        top = max(2, n_ // 4)
        table.add_claim("scenario 1: DSACK + RTT compensation good, not the best", paper="good, not best",
                        where="sec. 6", quote=QUOTE_RANK, ours=f"rank {r_} of {n_}",
                        holds=True if 2 <= r_ <= top else ("partly" if 1 < r_ <= n_ // 2 else False),
                        rule=Condition(f"rank 2 to {top} of {n_} ('good': the best quarter; 'not the best': not rank 1)",
                                       partly_text=f"rank {top + 1} to {n_ // 2} (upper half)"))

    add(needs, "scenario 1: DSACK + RTT compensation good, not the best", "good, not best", rank,
        rfc_text(needs, lambda: f"rank {rf['dsack_rttc_rank_s1']} of {rf['n_combinations']} (ties: min rank)"))

    # --- LIA, scenario 1 (Fig. 8)
    def s1(p):
        return pivot(summary, preset=p, scenario_id=1)

    def within(claim, paper, ours, ratio):
        table.add_value(claim, paper=1.0, paper_text=paper, where="sec. 5, Fig. 8", quote=QUOTE_FIG8, ours=ratio,
                        band=SAME, fmt=".2f", note=ours + " ('the same' read as: ratio 1)")

    needs = dict(scenarios=(1,), congestion=("lia",), reordering=("none", "dsack"))
    claim = "LIA, scenario 1 (Fig. 8): DSACK's throughput stays the same as with no algorithm"

    def lia_dsack():
        lia1 = s1(preset).loc["lia"]
        within(claim, "stays the same", f"DSACK {lia1['dsack'] / 1e6:.2f} vs none {lia1['none'] / 1e6:.2f} Mbit/s;"
               " 'stays the same' read as: the same as with no algorithm", float(lia1["dsack"] / lia1["none"]))

    add(needs, claim, "same", lia_dsack,
        rfc_text(needs, lambda: "DSACK {dsack:.2f} vs none {none:.2f}".format(**(s1(rfc_preset).loc["lia"] / 1e6))))

    needs = dict(scenarios=(1,), congestion=("lia",), reordering=("none", "eifel", "frto"))
    claim = "LIA, scenario 1 (Fig. 8): Eifel's and F-RTO's throughput decreases below no algorithm"

    def lia_below():
        lia1 = s1(preset).loc["lia"]
        below = [lia1["eifel"] / lia1["none"] <= 1 - NO_CHANGE + EPS, lia1["frto"] / lia1["none"] <= 1 - NO_CHANGE + EPS]
        table.add_claim(claim, paper="is decreased", where="sec. 5, Fig. 8", quote=QUOTE_FIG8,
                        rule=Condition(f"Eifel / none and F-RTO / none both ≤ {1 - NO_CHANGE:g} (the policy's no-change "
                                       "band)", partly_text="one of the two"),
                        ours=f"Eifel {lia1['eifel'] / 1e6:.2f}, F-RTO {lia1['frto'] / 1e6:.2f} vs none "
                             f"{lia1['none'] / 1e6:.2f} Mbit/s",
                        holds=True if all(below) else ("partly" if any(below) else False))

    add(needs, claim, "both below", lia_below,
        rfc_text(needs, lambda: "Eifel {eifel:.2f}, F-RTO {frto:.2f}".format(**(s1(rfc_preset).loc["lia"] / 1e6))))

    needs = dict(scenarios=(1,), congestion=("lia", "uncoupled"), reordering=("none",))
    claim = "scenario 1, no algorithm: LIA's throughput is the same as uncoupled"

    def lia_unc():
        t = s1(preset)
        within(claim, "remains the same", f"LIA {t.loc['lia', 'none'] / 1e6:.2f} vs uncoupled "
               f"{t.loc['uncoupled', 'none'] / 1e6:.2f} Mbit/s", float(t.loc["lia", "none"] / t.loc["uncoupled", "none"]))

    add(needs, claim, "same", lia_unc,
        rfc_text(needs, lambda: (lambda t: f"LIA {t.loc['lia', 'none'] / 1e6:.2f} vs uncoupled "
                                           f"{t.loc['uncoupled', 'none'] / 1e6:.2f}")(s1(rfc_preset))))

    # --- F-RTO stays low after a detection
    needs = dict(scenarios=(2,), reordering=("none", "frto"), any_congestion=all_cc)
    claim = "F-RTO: after a detection the throughput drops and stays low"

    def frto_late():
        late = late_ratio(traces, preset=preset, scenario_id=2, reordering="frto", congestion=all_cc)
        table.add_threshold(claim, paper="decreases and stays in the recovery state", where="sec. 6", quote=QUOTE_FRTO,
                        rule=trend_rule("F-RTO / no algorithm, second half of the run (scenario 2)", "lower"),
                        value=late, ours=f"{late:.2f}",
                        note="the model's F-RTO never fast-retransmits; every loss waits for a timeout"
                        if preset.startswith("chihani") else "")

    add(needs, claim, "stays in recovery", frto_late,
        rfc_text(needs, lambda: f"{late_ratio(traces, preset=rfc_preset, scenario_id=2, reordering='frto', congestion=all_cc):.0%} "
                                "of no algorithm"))

    # --- sec. 6: the algorithms improve the connection, none is optimal
    needs = dict(scenarios=(2,), reordering=all_ro, any_congestion=all_cc)
    claim = "the algorithms improve the connection but none is optimal (sec. 6)"
    names = (("dsack", "DSACK"), ("eifel", "Eifel"), ("frto", "F-RTO"))

    def improve():
        better = [n for r, n in names if ch[f"{r}_vs_none"] > NO_CHANGE + EPS]
        if not gr_rfc.missing(**needs):
            flat = all(abs(rf[f"{r}_vs_none"]) <= 0.05 for r, _ in names)
            rfc_part = ("under RFC behaviour none changes anything" if flat
                        else "under RFC behaviour see that column")
        else:
            rfc_part = "the RFC preset was not run"
        note = (f"{', '.join(better)} improve(s) by more than 5 %, under the model's quirks; {rfc_part}"
                if better else f"no algorithm improves by more than 5 %; {rfc_part}")
        sub = "" if len(gr.present(all_cc)) == len(all_cc) else "; " + mean_note(gr.present(all_cc))
        table.add_claim(claim, paper="improve, none optimal", where="sec. 6", quote=QUOTE_NONE_OPTIMAL,
                        ours="scenario 2: " + ", ".join(f"{n} {ch[f'{r}_vs_none']:+.0%}" for r, n in names),
                        holds=True if len(better) == len(names) else ("partly" if better else False),
                        rule=Condition(f"all three improve on no algorithm by more than {100 * NO_CHANGE:g} % in scenario 2 "
                                       "(mean over the congestion controls)", partly_text="some of them do"),
                        note=note + sub)

    add(needs, claim, "improve, none optimal", improve,
        rfc_text(needs, lambda: ", ".join(f"{n} {rf[f'{r}_vs_none']:+.0%}" for r, n in names)),
        modern_text(dict(scenarios=(2,), reordering=all_ro),
                    lambda c: ", ".join(f"{n} {c[f'{r}_vs_none']:+.0%}" for r, n in names)))
    return out


__all__ = ["NOT_RUN", "EIFEL_CLAIM_CONGESTION", "VERDICT_COLOURS", "mean_table", "response_counters", "late_ratio",
           "modern_table", "mean_of", "sensitivity_table", "style_sensitivity", "loss_free_check", "ArabiComparison",
           "comparison"]
