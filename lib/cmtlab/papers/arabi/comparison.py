"""Tables of the Arabi chapter and its paper-vs-reproduction comparison (Arabi et al., sec. 5–6).

Everything here works on what was run, each *source* under its label in the ``preset`` column of a
summary (:func:`~cmtlab.papers.arabi.experiments.summarise`) and of its throughput traces
(:func:`~cmtlab.papers.arabi.experiments.throughput_traces`): the papers' simulator from its recorded runs
(:data:`PAPERS_SIM` — the model's logged global throughput with ``variateDelay`` off, which decides
the verdicts —, :data:`PAPERS_SIM_GOODPUT`, :data:`PAPERS_SIM_VARIATE`;
:func:`cmtlab.papers.arabi.papers_sim.chapter_sources`), the presets of :mod:`cmtlab.sim` run by the
chapter (``chihani_ns3``, ``rfc``) and the earlier chapter's setting
(:data:`cmtlab.papers.arabi.experiments.EARLIER`).  Any subset of the chapter's grid works: a papermill
re-run with one scenario, two congestion controls or one preset gets the same tables with fewer
rows, and each claim of the paper that needs a scenario, congestion control, algorithm or source
the run left out gets a row "not run with these parameters" with the verdict
:data:`cmtlab.report.NOT_ASSESSED` instead of a guess.

* :func:`mean_table` — mean ± 95 % CI (Mbit/s), congestion control × algorithm (Figs. 8–9's means);
* :func:`response_counters`, :func:`case_counters` — fast retransmits, timeouts and spurious
  events behind one scenario's means;
* :func:`late_ratio` — throughput of an algorithm relative to none late in each run (F-RTO, sec. 5);
* :func:`modern_table` — LIA and OLIA under round robin and lowest-RTT (the modern baseline);
* :func:`sensitivity_table`, :func:`loss_free_table`, :func:`loss_free_check`, :func:`mean_of` —
  "where a choice changes a conclusion";
* :func:`comparison` — the paper-vs-reproduction table (:class:`ArabiComparison`), decided on the
  papers' simulator with every reference as a column; :func:`explain_disagreements` — why a
  reference decides a claim otherwise; :func:`chapter_numbers` — the numbers the prose quotes.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ...report import BY_CONSTRUCTION, NO_CHANGE, NOT_ASSESSED, SAME, UNDECIDED, Comparison, Condition, trend_rule
from .experiments import BIN_S, CC_LABELS, QUEUE_PACKETS, RO_LABELS, claims, pivot, summarise, throughput_traces
from .paper import (EIFEL_CLAIM_CONGESTION, PAPER_CONGESTION, QUOTE_BEST, QUOTE_EIFEL, QUOTE_FIG8, QUOTE_FIG9,
                    QUOTE_FRTO, QUOTE_NONE_OPTIMAL, QUOTE_RANK, REORDERING)
from .papers_sim import MISS_REASONS, PAPERS_SIM, PAPERS_SIM_GOODPUT, PAPERS_SIM_VARIATE, TOLERANCE

#: What a claim's row says when the run did not compute what the claim needs.
NOT_RUN = "not run with these parameters"
#: Comparisons at a cut point are inclusive up to floating-point rounding.
EPS = 1e-12
from ...report import VERDICT_COLOURS  # noqa: E402  (re-exported: the chapter's verdict colours)



def _select(frame: pd.DataFrame, *, preset=None, scheduler="round_robin", setting="main") -> pd.DataFrame:
    m = pd.Series(True, index=frame.index)
    for col, v in (("preset", preset), ("scheduler", scheduler), ("setting", setting)):
        if v is not None and col in frame.columns:
            m &= frame[col] == v
    return frame[m]


def mean_table(summary: pd.DataFrame, preset: str, scenario_id: int, *, scheduler: str = "round_robin",
               setting: str = "main", digits: int = 2) -> pd.DataFrame:
    """Mean throughput ± 95 % CI half-width (Mbit/s, as text; the mean alone for one seed), congestion control ×
    reordering algorithm.

    The means behind Arabi et al.'s Figs. 8–9 (sec. 5) for one preset and scenario, labelled with
    :data:`~cmtlab.papers.arabi.experiments.CC_LABELS` / ``RO_LABELS``; only the combinations run appear.
    Raises :class:`ValueError` (from :func:`~cmtlab.papers.arabi.experiments.pivot`) if the selection is empty.
    """
    m = pivot(summary, preset=preset, scenario_id=scenario_id, scheduler=scheduler, setting=setting) / 1e6
    h = pivot(summary, preset=preset, scenario_id=scenario_id, scheduler=scheduler, setting=setting,
              value="ci95_bps") / 1e6
    out = m.round(digits).astype(str) + (" ± " + h.round(digits).astype(str)).where(h.notna(), "")  # one seed: no CI
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


def late_ratio(traces: pd.DataFrame, *, preset: str, scenario_id: int, reordering: str, congestion=PAPER_CONGESTION,
               from_s: float | None = None, scheduler: str = "round_robin", setting: str = "main") -> float:
    """Throughput of ``reordering`` relative to no algorithm late in the run, averaged over ``congestion``.

    For each congestion control run, the mean of the throughput-over-time bins after ``from_s``
    with ``reordering`` divided by the same without an algorithm; the mean of those ratios.  Without
    ``from_s``, each run's own second half (from the extent of its bins: a transfer of fixed size
    ends earlier with one algorithm than with another).  Arabi et al. (sec. 5) say F-RTO's
    throughput drops after a detection and stays low: then this ratio stays below 1.  NaN if the
    traces lack the scenario, ``reordering``, ``"none"`` or every congestion control of ``congestion``.
    """
    t = _select(traces, preset=preset, scheduler=scheduler, setting=setting)
    t = t[(t.scenario == scenario_id) & t.congestion.isin(list(congestion))]
    if t.empty:
        return float("nan")
    keys = ["congestion", "reordering"]
    if from_s is None:
        half = (t.groupby(keys).time_s.transform("max") + BIN_S / 2) / 2
        late = t[t.time_s > half]
    else:
        late = t[t.time_s > from_s]
    g = late.groupby(keys).mean_bps.mean().unstack()
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


# ---------------------------------------------------------------------------------------- comparison

#: Column titles of the sources of the table.
SOURCE_LABELS = {
    PAPERS_SIM: "papers' simulator (run here)",
    PAPERS_SIM_GOODPUT: "papers' simulator: goodput",
    PAPERS_SIM_VARIATE: "papers' simulator: variateDelay on",
    "chihani_ns3": "model preset (chihani_ns3)",
    "chihani": "old imitation preset (chihani)",
    "chihani_dupack": "imitation with duplicate-ACK receiver (chihani_dupack)",
    "rfc": "RFC behaviour (rfc preset)",
    "chihani 0.2 %": "earlier chapter: old preset chihani, 0.2 % loss",
}
#: Short names of the sources in the "would decide differently" column.
SOURCE_SHORT = {PAPERS_SIM: "papers' simulator", PAPERS_SIM_GOODPUT: "its goodput",
                PAPERS_SIM_VARIATE: "variateDelay on", "chihani_ns3": "preset", "chihani": "old preset",
                "chihani_dupack": "dup-ACK preset", "rfc": "RFC",
                "chihani 0.2 %": "earlier chapter"}
#: The column that names the references whose verdict differs from the deciding one.
DIFFERS = "a reference would decide differently"
#: The references of the chapter's table, in column order.
REFERENCES = (PAPERS_SIM_GOODPUT, PAPERS_SIM_VARIATE, "chihani_ns3", "rfc", "chihani 0.2 %")


def _kind(verdict: str) -> str:
    """The verdict's kind: "undecided at 3 repetitions" and "undecided at 5 seeds" are both undecided."""
    return UNDECIDED if str(verdict).startswith(UNDECIDED) else str(verdict)


def _differ(a: str, b: str) -> bool:
    """Whether two verdicts decide differently (neither "not assessed"; undecided counts as one kind)."""
    return _kind(a) != _kind(b) and NOT_ASSESSED not in (a, b)


def source_label(source: str) -> str:
    """The column title of a source (``"chihani_ns3"`` → "model preset (chihani_ns3)")."""
    return SOURCE_LABELS.get(source, f"preset {source}")


def _pct(x: float) -> str:
    return f"{x:+.0%}"


def _cc_list(ccs) -> str:
    return ", ".join(CC_LABELS.get(c, c) for c in ccs)


@dataclass
class _Grid:
    """What one source/scheduler/setting of a summary holds: scenarios, congestion controls, algorithms."""

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
            return [f"{source_label(self.preset)}" + (f" with the {self.scheduler} scheduler"
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
class ArabiTable(Comparison):
    """A :class:`cmtlab.report.Comparison` whose value column is titled after the source that decides
    (``here_label``, e.g. "papers' simulator (run here)")."""

    here_label: str = "reproduction"

    def to_frame(self) -> pd.DataFrame:
        return super().to_frame().rename(columns={"reproduction": self.here_label})


@dataclass
class ArabiComparison:
    """The chapter's paper-vs-reproduction table and the same claims judged on every reference.

    ``table`` — the rows as decided on ``decider`` (the papers' simulator run here), with one
    column per reference (its value and the verdict it would give) and the column :data:`DIFFERS`;
    ``by_source`` — every source's own table (:class:`ArabiTable`, the same rows in the same order),
    decider first; ``best`` — (congestion, reordering, bit/s) of the decider's best combination in
    scenario 2.
    """

    table: ArabiTable
    decider: str = PAPERS_SIM
    by_source: dict = field(default_factory=dict)
    best: tuple | None = None

    def frame(self) -> pd.DataFrame:
        """The table as a frame (the value column titled after the deciding source)."""
        return self.table.to_frame()

    def verdicts(self) -> pd.DataFrame:
        """Claim × source: the verdict every source gives (decider first)."""
        data = {"claim": [r.claim for r in self.table.rows]}
        for src, t in self.by_source.items():
            data[src] = [r.verdict for r in t.rows]
        return pd.DataFrame(data)

    def disagreements(self, other: str = "chihani_ns3") -> pd.DataFrame:
        """The claims on which ``other`` gives another verdict than the decider (neither "not
        assessed"): claim, the decider's value and verdict, ``other``'s value and verdict."""
        if other not in self.by_source:
            raise ValueError(f"other must be one of the sources {sorted(self.by_source)}, got {other!r}")
        rows = []
        for a, b in zip(self.by_source[self.decider].rows, self.by_source[other].rows):
            if _differ(a.verdict, b.verdict):
                rows.append({"claim": a.claim, source_label(self.decider): a.here, "verdict": a.verdict,
                             source_label(other): b.here, f"verdict ({SOURCE_SHORT.get(other, other)})": b.verdict})
        return pd.DataFrame(rows, columns=["claim", source_label(self.decider), "verdict", source_label(other),
                                           f"verdict ({SOURCE_SHORT.get(other, other)})"])

    def summary(self) -> dict:
        return self.table.summary()

    def best_label(self) -> str:
        """"DSACK + uncoupled" for the decider's best combination in scenario 2, or :data:`NOT_RUN`."""
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


def comparison(summary: pd.DataFrame, traces: pd.DataFrame, *, loss_rate: float, receive_buffer_bytes: int,
               transfer_bytes: int | None = None, duration_s: float | None = None, decider: str = PAPERS_SIM,
               references=REFERENCES, setting: str = "main") -> ArabiComparison:
    """Paper (Arabi et al., sec. 4–6) vs the papers' simulator run here, with the same claims judged on
    the references beside it.

    ``summary`` and ``traces`` hold every source under its label in the ``preset`` column: the
    papers' simulator (:data:`PAPERS_SIM`, :data:`PAPERS_SIM_GOODPUT`, :data:`PAPERS_SIM_VARIATE`;
    :func:`cmtlab.papers.arabi.papers_sim.chapter_sources`) and the presets of :mod:`cmtlab.sim` run by the
    chapter (:func:`~cmtlab.papers.arabi.experiments.summarise`, :func:`~cmtlab.papers.arabi.experiments.throughput_traces`).
    The verdicts are those of ``decider``; every source of ``references`` that the summary holds gets
    a column with its value and the verdict it would give, and :data:`DIFFERS` names those whose
    verdict differs.  ``transfer_bytes`` or ``duration_s``, ``loss_rate`` and ``receive_buffer_bytes``
    describe the presets' runs (the summary does not hold them).

    Each claim needs certain runs.  Claims about *every* combination (the best one in scenario 2,
    the rank of DSACK + RTT compensation) need all four congestion controls and algorithms; claims
    averaged over the congestion controls take those run and say so; the others need their
    scenario, congestion controls and algorithms.  A claim whose runs are missing gets the row
    "not run with these parameters (needs …)" and the verdict :data:`cmtlab.report.NOT_ASSESSED`.
    """
    if (transfer_bytes is None) == (duration_s is None):
        raise ValueError("exactly one of transfer_bytes and duration_s must describe the presets' runs, got "
                         f"transfer_bytes={transfer_bytes!r}, duration_s={duration_s!r}")
    if isinstance(references, str):
        raise ValueError(f"references must be a sequence of source labels, got {references!r}")
    held = set(_select(summary, setting=setting).preset)
    refs = [r for r in references if r != decider and r in held]
    run = (f"{transfer_bytes / 1e6:g}-MB transfer" if transfer_bytes is not None else f"{duration_s:g} s of bulk transfer")
    loss = f"{loss_rate:.1%} random loss" if loss_rate > 0 else "no random loss"
    model = "the model itself (ns-3.7 + Chihani–Collange MPTCP; recorded runs): mpTopology's 10-MB transfer and " \
            "buffers, no random loss"
    inputs = {PAPERS_SIM: f"{model}, variateDelay off; the logged global throughput (what Figs. 8–9 plot)",
              PAPERS_SIM_GOODPUT: f"{model}, variateDelay off; delivered goodput",
              PAPERS_SIM_VARIATE: f"{model}, variateDelay on; the logged global throughput"}
    preset_text = (f"cmtlab.sim, preset {{p}}: one-way delays; {run}, {loss}, {QUEUE_PACKETS}-packet queues, "
                   f"{receive_buffer_bytes // 1024} KB receive buffer; goodput")
    tables = {src: _assess(summary, traces, src, setting=setting,
                           inputs=inputs.get(src, preset_text.format(p=src)))
              for src in (decider, *refs)}
    main = tables[decider]
    out = ArabiComparison(ArabiTable(here_label=source_label(decider)), decider=decider,
                          by_source={src: t for src, t in tables.items()},
                          best=claims(summary, preset=decider, setting=setting)["best"])
    for i, row in enumerate(main.rows):
        columns, differ = {}, []
        for src in refs:
            r = tables[src].rows[i]
            columns[source_label(src)] = (r.here if r.verdict in (NOT_ASSESSED, BY_CONSTRUCTION)
                                          else f"{r.here} → {r.verdict}")
            if _differ(r.verdict, row.verdict):
                differ.append(f"{SOURCE_SHORT.get(src, src)}: {r.verdict}")
        if refs:
            columns[DIFFERS] = "; ".join(differ) if differ else "no"
        out.table.rows.append(dataclasses.replace(row, references=columns))
    return out


#: For each claim of the table, the runs that show why two sources judge it differently:
#: (scenario, congestion control, algorithms).
CLAIM_CASES = {
    "scenario 2: the best combination is DSACK + uncoupled": (2, "uncoupled", ("none", "dsack", "eifel", "frto")),
    "scenario 2: throughput of DSACK + uncoupled": (2, "uncoupled", ("dsack",)),
    "scenario 2, uncoupled: F-RTO relative to no algorithm": (2, "uncoupled", ("none", "frto")),
    "scenario 2, uncoupled: Eifel relative to no algorithm": (2, "uncoupled", ("none", "eifel")),
    "Eifel improves on no algorithm only with two subflows (uncoupled, LIA, RTT compensation)":
        (1, "uncoupled", ("none", "eifel")),
    "scenario 1: DSACK + RTT compensation good, not the best": (1, "rtt_compensation", ("none", "dsack")),
    "LIA, scenario 1 (Fig. 8): DSACK's throughput stays the same as with no algorithm": (1, "lia", ("none", "dsack")),
    "LIA, scenario 1 (Fig. 8): Eifel's and F-RTO's throughput decreases below no algorithm":
        (1, "lia", ("none", "eifel", "frto")),
    "scenario 1, no algorithm: LIA's throughput is the same as uncoupled": (1, "lia", ("none",)),
    "F-RTO: after a detection the throughput drops and stays low": (2, "uncoupled", ("none", "frto")),
    "the algorithms improve the connection but none is optimal (sec. 6)": (2, "uncoupled", ("none", "dsack", "eifel", "frto")),
}


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


def explain_disagreements(comparison: ArabiComparison, summary: pd.DataFrame, *, other: str = "chihani_ns3",
                          model: str = PAPERS_SIM_GOODPUT, setting: str = "main", reasons: bool | None = None) -> str:
    """Markdown: for every claim on which ``other`` (the preset) gives another verdict than the
    papers' simulator, both values and verdicts and, from the runs, why — the goodput of the preset
    against the model's (``model``: goodput, the quantity a preset computes) and the fast retransmits,
    timeouts and spurious events per run of the algorithms the claim compares (:data:`CLAIM_CASES`),
    with the calibration's reason where the preset misses the model by more than 5 %
    (:data:`cmtlab.validation.papers_sim.MISS_REASONS`; ``reasons`` — default: only for the
    calibrated preset ``chihani_ns3``, whose misses they describe).  "On no claim …" if there is none."""
    give_reasons = (other == "chihani_ns3") if reasons is None else bool(reasons)
    d = comparison.disagreements(other)
    if d.empty:
        return f"On no claim does the {source_label(other)} decide otherwise than the papers' simulator."
    s = _select(summary, scheduler="round_robin", setting=setting)
    out = []
    for row in d.itertuples(index=False):
        claim, here, verdict, there, v_other = row
        text = (f"* **{claim}** — papers' simulator: {here} (*{verdict}*); {source_label(other)}: {there} "
                f"(*{v_other}*).")
        case = CLAIM_CASES.get(claim)
        if case is not None:
            sid, cc, ros = case
            parts, reasons = [], []
            for r in ros:
                def one(src, col):
                    g = s[(s.preset == src) & (s.scenario == sid) & (s.congestion == cc) & (s.reordering == r)]
                    return float(g.iloc[0][col]) if len(g) and col in g.columns else float("nan")
                m, p = one(model, "mean_bps"), one(other, "mean_bps")
                fr_m, fr_p = one(model, "fast_retransmits"), one(other, "fast_retransmits")
                to_m, to_p = one(model, "timeouts"), one(other, "timeouts")
                if not (np.isfinite(m) and np.isfinite(p)):
                    continue
                parts.append(f"{RO_LABELS.get(r, r)}: goodput {p / 1e6:.2f} vs {m / 1e6:.2f} Mbit/s "
                             f"({p / m - 1:+.0%}), fast retransmits {fr_p:.0f} vs {fr_m:.0f}, timeouts {to_p:.0f} vs {to_m:.0f}")
                if give_reasons and abs(p / m - 1) > TOLERANCE and r in MISS_REASONS:
                    reasons.append(f"{RO_LABELS.get(r, r)}: {MISS_REASONS[r]}")
            if parts:
                text += (f" In scenario {sid}, {CC_LABELS.get(cc, cc)} ({SOURCE_SHORT.get(other, other)} vs model, per run): "
                         + "; ".join(parts) + ".")
            if reasons:
                text += " Where the preset misses the model by more than 5 %: " + "; ".join(reasons) + "."
        out.append(text)
    return "\n".join(out)


def chapter_numbers(summary: pd.DataFrame, comparison: ArabiComparison, *, sensitivity: pd.DataFrame | None = None,
                    preset: str = "chihani_ns3", rfc_preset: str = "rfc") -> dict:
    """The numbers the chapter's prose quotes (glued under these names, ``arabi_`` prefixed; Mbit/s
    unless the name says otherwise): scenario 2, uncoupled, per algorithm on the papers' simulator
    (global throughput ``ps_<alg>``, goodput ``psg_<alg>``, variateDelay on ``psv_<alg>``), on the
    preset (``pre_<alg>``) and under RFC behaviour (``rfc_<alg>``); the model's counters there
    (``ps_fr_none``, ``ps_spurious_eifel``, ``ps_to_frto``); how far F-RTO's global throughput sits above
    its goodput (``ps_frto_excess``, a fraction); the old imitation without loss (``old_none``, from
    ``sensitivity`` at its main setting); and the number of claims on which the preset, RFC behaviour
    or the earlier chapter's setting decides otherwise (``n_differ_preset``, ``n_differ_rfc``,
    ``n_differ_earlier``).  NaN where a run is missing."""
    ROS = REORDERING

    out = {}
    base = dict(setting="main", scheduler="round_robin", scenario=2, congestion="uncoupled")

    def mean(frame, src, ro, col="mean_bps"):
        g = _select(frame, preset=src, setting="main")
        g = g[(g.scenario == 2) & (g.congestion == "uncoupled") & (g.reordering == ro)]
        return float(g.iloc[0][col]) if len(g) and col in g.columns else float("nan")

    for ro in ROS:
        for key, src in (("ps", PAPERS_SIM), ("psg", PAPERS_SIM_GOODPUT), ("psv", PAPERS_SIM_VARIATE),
                         ("pre", preset), ("rfc", rfc_preset)):
            out[f"{key}_{ro}"] = mean(summary, src, ro) / 1e6
    out["ps_fr_none"] = mean(summary, PAPERS_SIM, "none", "fast_retransmits")
    out["ps_spurious_eifel"] = mean(summary, PAPERS_SIM, "eifel", "spurious_detections")
    out["ps_to_frto"] = mean(summary, PAPERS_SIM, "frto", "timeouts")
    out["pre_fr_dsack"] = mean(summary, preset, "dsack", "fast_retransmits")
    out["ps_fr_dsack"] = mean(summary, PAPERS_SIM, "dsack", "fast_retransmits")
    out["ps_frto_excess"] = out["ps_frto"] / out["psg_frto"] - 1
    out["old_none"] = (mean_of(sensitivity, preset="chihani", reordering="none", **base) / 1e6
                       if sensitivity is not None and "chihani" in set(sensitivity.preset) else float("nan"))
    v = comparison.verdicts()
    for key, src in (("n_differ_preset", preset), ("n_differ_rfc", rfc_preset), ("n_differ_earlier", "chihani 0.2 %")):
        if src in v.columns:
            out[key] = int(sum(_differ(a, b) for a, b in zip(v[src], v[comparison.decider])))
        else:
            out[key] = float("nan")
    return {f"arabi_{k}": val for k, val in out.items()}


def _assess(summary: pd.DataFrame, traces: pd.DataFrame, source: str, *, setting: str, inputs: str) -> ArabiTable:
    """Every claim of the paper judged on one source of the summary (its own table)."""
    ch = claims(summary, preset=source, setting=setting)
    gr = _Grid.of(summary, source, "round_robin", setting)
    table = ArabiTable(here_label=source_label(source))
    all_cc, all_ro = PAPER_CONGESTION, REORDERING
    deterministic = source.startswith(PAPERS_SIM)
    n_unit = "repetitions" if deterministic else "seeds"

    def add(needs: dict, claim: str, paper: str, adder):
        """One claim: assessed by ``adder()`` if the source ran what ``needs`` says."""
        miss = gr.missing(**needs)
        if miss:
            table.add_not_assessed(claim, paper=paper, reason=_not_run(miss))
        else:
            adder()

    def mean_note(ccs, what="mean over the four congestion controls"):
        return what if len(ccs) == len(PAPER_CONGESTION) else f"mean over {_cc_list(ccs)} (the others not run)"

    def piv(sid, value="mean_bps"):
        return pivot(summary, preset=source, scenario_id=sid, setting=setting, value=value)

    def spread(sid, r, cc):
        """(half-width, n) of one mean, or (0, None) where it has no spread (one run, or identical runs)."""
        if "ci95_bps" not in summary.columns:
            return 0.0, None
        h = float(piv(sid, "ci95_bps").loc[cc, r])
        n = int(piv(sid, "seeds").loc[cc, r]) if "seeds" in summary.columns else None
        return (h, n) if (h > 0 and n and n > 1) else (0.0, None)

    # --- inputs (sec. 4)
    run = _select(summary, preset=source, scheduler="round_robin", setting=setting)
    subset = []
    if run.empty:
        subset.append("not run")
    else:
        if {1, 2} - set(run.scenario):
            subset.append("scenario " + ", ".join(str(s) for s in sorted(set(run.scenario))))
        ccs_run = [c for c in PAPER_CONGESTION if c in set(run.congestion)]
        if len(ccs_run) < len(PAPER_CONGESTION):
            subset.append(_cc_list(ccs_run))
        ros_run = [r for r in REORDERING if r in set(run.reordering)]
        if len(ros_run) < len(REORDERING):
            subset.append(", ".join(RO_LABELS[r] for r in ros_run))
    table.add_input("scenarios 1 and 2, four congestion controls, four algorithms", paper="sec. 4", where="sec. 4",
                    ours=inputs + (f"; run here: {'; '.join(subset)} only" if subset else ""))

    # --- scenario 2: the best combination
    every = dict(scenarios=(2,), congestion=all_cc, reordering=all_ro)
    claim = "scenario 2: the best combination is DSACK + uncoupled"

    def best():
        b = ch["best"]
        du = float(piv(2).loc["uncoupled", "dsack"])
        ratio = du / b[2]
        holds = True if (b[0], b[1]) == ("uncoupled", "dsack") else ("partly" if ratio >= 1 - NO_CHANGE - EPS else False)
        table.add_claim(claim, paper="DSACK + uncoupled", where="sec. 6", quote=QUOTE_BEST,
                        ours=f"{RO_LABELS[b[1]]} + {CC_LABELS[b[0]]} ({b[2] / 1e6:.2f} Mbit/s)"
                             + ("" if holds is True else f"; DSACK + uncoupled {du / 1e6:.2f} ({ratio - 1:+.0%})"),
                        holds=holds,
                        rule=Condition("DSACK + uncoupled has the highest mean of the 16 combinations in scenario 2",
                                       partly_text=f"it is within {100 * NO_CHANGE:g} % of the highest (the policy's "
                                                   "no-change band: a tie)"))

    add(every, claim, "DSACK + uncoupled", best)

    # --- scenario 2: DSACK + uncoupled about 10 Mbit/s
    needs = dict(scenarios=(2,), congestion=("uncoupled",), reordering=("dsack",))

    def dsack10():
        m = ch["dsack_uncoupled_s2_bps"] / 1e6
        h, n = spread(2, "dsack", "uncoupled")
        table.add_value("scenario 2: throughput of DSACK + uncoupled", paper=10.0, where="sec. 5, Fig. 9",
                        quote=QUOTE_FIG9, paper_text="about 10 Mbit/s", ours=m, unit="Mbit/s", fmt=".2f",
                        ci=(m - h / 1e6, m + h / 1e6) if n else None, n_seeds=n, n_unit=n_unit)

    add(needs, "scenario 2: throughput of DSACK + uncoupled", "10 Mbit/s", dsack10)

    # --- scenario 2 (Fig. 9, uncoupled): F-RTO and Eifel "40 less" than no algorithm
    def s2_change(r, cc="uncoupled"):
        t = piv(2)
        return float(t.loc[cc, r] / t.loc[cc, "none"] - 1)

    def s2_change_ci(r, cc="uncoupled"):
        """(low, high) of 100 × (r / none − 1) from the 95 % half-widths (first-order propagation), and n."""
        t = piv(2)
        hr_, nr = spread(2, r, cc)
        hn, nn = spread(2, "none", cc)
        if not (nr or nn):
            return None, None
        ratio = t.loc[cc, r] / t.loc[cc, "none"]
        half = 100 * ratio * np.hypot(hr_ / t.loc[cc, r], hn / t.loc[cc, "none"])
        g = 100 * (ratio - 1)
        return (g - half, g + half), max(nr or 0, nn or 0)

    for r, name in (("frto", "F-RTO"), ("eifel", "Eifel")):
        needs = dict(scenarios=(2,), congestion=("uncoupled",), reordering=("none", r))
        claim = f"scenario 2, uncoupled: {name} relative to no algorithm"
        add(needs, claim, "-40 %",
            lambda r=r, claim=claim: table.add_value(
                claim, paper=-40.0, paper_text="“40 less” (no unit; read as −40 %)", where="sec. 5, Fig. 9",
                quote=QUOTE_FIG9, ours=100 * s2_change(r), unit="%", fmt=".0f",
                ci=s2_change_ci(r)[0], n_seeds=s2_change_ci(r)[1], n_unit=n_unit,
                note=f"the paper's condition (Fig. 9: uncoupled, three subflows); {mean_note(gr.present(all_cc))}: "
                     f"{100 * ch[f'{r}_vs_none']:+.0f} %"))

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
                        rule=Condition(f"mean gain > {100 * up:g} % in scenario 1 and ≤ {100 * up:g} % in scenario 2 "
                                       "(the policy's no-change band)",
                                       partly_text=f"gain > {100 * up:g} % in both scenarios"),
                        note=sub)

    add(needs, claim, "gain in scenario 1 only", eifel)

    # --- scenario 1: DSACK + RTT compensation good, not the best
    needs = dict(scenarios=(1,), congestion=all_cc, reordering=all_ro)

    def rank():
        r_, n_ = ch["dsack_rttc_rank_s1"], ch["n_combinations"]
        top = max(2, n_ // 4)
        table.add_claim("scenario 1: DSACK + RTT compensation good, not the best", paper="good, not best",
                        where="sec. 6", quote=QUOTE_RANK, ours=f"rank {r_} of {n_} (ties: the lower rank)",
                        holds=True if 2 <= r_ <= top else ("partly" if 1 < r_ <= n_ // 2 else False),
                        rule=Condition(f"rank 2 to {top} of {n_} ('good': the best quarter; 'not the best': not rank 1)",
                                       partly_text=f"rank {top + 1} to {n_ // 2} (upper half)"))

    add(needs, "scenario 1: DSACK + RTT compensation good, not the best", "good, not best", rank)

    # --- LIA, scenario 1 (Fig. 8)
    def within(claim, paper, ours, ratio):
        table.add_value(claim, paper=1.0, paper_text=paper, where="sec. 5, Fig. 8", quote=QUOTE_FIG8, ours=ratio,
                        band=SAME, fmt=".2f", note=ours + " ('the same' read as: ratio 1)")

    needs = dict(scenarios=(1,), congestion=("lia",), reordering=("none", "dsack"))
    claim = "LIA, scenario 1 (Fig. 8): DSACK's throughput stays the same as with no algorithm"

    def lia_dsack():
        lia1 = piv(1).loc["lia"]
        within(claim, "stays the same", f"DSACK {lia1['dsack'] / 1e6:.2f} vs none {lia1['none'] / 1e6:.2f} Mbit/s;"
               " 'stays the same' read as: the same as with no algorithm", float(lia1["dsack"] / lia1["none"]))

    add(needs, claim, "same", lia_dsack)

    needs = dict(scenarios=(1,), congestion=("lia",), reordering=("none", "eifel", "frto"))
    claim = "LIA, scenario 1 (Fig. 8): Eifel's and F-RTO's throughput decreases below no algorithm"

    def lia_below():
        lia1 = piv(1).loc["lia"]
        below = [lia1["eifel"] / lia1["none"] <= 1 - NO_CHANGE + EPS, lia1["frto"] / lia1["none"] <= 1 - NO_CHANGE + EPS]
        table.add_claim(claim, paper="is decreased", where="sec. 5, Fig. 8", quote=QUOTE_FIG8,
                        rule=Condition(f"Eifel / none and F-RTO / none both ≤ {1 - NO_CHANGE:g} (the policy's no-change "
                                       "band)", partly_text="one of the two"),
                        ours=f"Eifel {lia1['eifel'] / 1e6:.2f}, F-RTO {lia1['frto'] / 1e6:.2f} vs none "
                             f"{lia1['none'] / 1e6:.2f} Mbit/s",
                        holds=True if all(below) else ("partly" if any(below) else False))

    add(needs, claim, "both below", lia_below)

    needs = dict(scenarios=(1,), congestion=("lia", "uncoupled"), reordering=("none",))
    claim = "scenario 1, no algorithm: LIA's throughput is the same as uncoupled"

    def lia_unc():
        t = piv(1)
        within(claim, "remains the same", f"LIA {t.loc['lia', 'none'] / 1e6:.2f} vs uncoupled "
               f"{t.loc['uncoupled', 'none'] / 1e6:.2f} Mbit/s", float(t.loc["lia", "none"] / t.loc["uncoupled", "none"]))

    add(needs, claim, "same", lia_unc)

    # --- F-RTO stays low after a detection
    needs = dict(scenarios=(2,), reordering=("none", "frto"), any_congestion=all_cc)
    claim = "F-RTO: after a detection the throughput drops and stays low"

    def frto_late():
        late = late_ratio(traces, preset=source, scenario_id=2, reordering="frto", congestion=all_cc, setting=setting)
        table.add_threshold(claim, paper="decreases and stays in the recovery state", where="sec. 6", quote=QUOTE_FRTO,
                            rule=trend_rule("F-RTO / no algorithm, second half of each run (scenario 2)", "lower"),
                            value=late, ours=f"{late:.2f}", note=mean_note(gr.present(all_cc)))

    add(needs, claim, "stays in recovery", frto_late)

    # --- sec. 6: the algorithms improve the connection, none is optimal
    needs = dict(scenarios=(2,), reordering=all_ro, any_congestion=all_cc)
    claim = "the algorithms improve the connection but none is optimal (sec. 6)"
    names = (("dsack", "DSACK"), ("eifel", "Eifel"), ("frto", "F-RTO"))

    def improve():
        better = [n for r, n in names if ch[f"{r}_vs_none"] > NO_CHANGE + EPS]
        sub = "" if len(gr.present(all_cc)) == len(all_cc) else "; " + mean_note(gr.present(all_cc))
        table.add_claim(claim, paper="improve, none optimal", where="sec. 6", quote=QUOTE_NONE_OPTIMAL,
                        ours="scenario 2: " + ", ".join(f"{n} {ch[f'{r}_vs_none']:+.0%}" for r, n in names),
                        holds=True if len(better) == len(names) else ("partly" if better else False),
                        rule=Condition(f"all three improve on no algorithm by more than {100 * NO_CHANGE:g} % in scenario 2 "
                                       "(mean over the congestion controls)", partly_text="some of them do"),
                        note=(f"improve by more than {100 * NO_CHANGE:g} %: {', '.join(better) or 'none'}" + sub))

    add(needs, claim, "improve, none optimal", improve)
    return table


def chapter_tables(runs: pd.DataFrame, earlier_runs: pd.DataFrame, model_runs: pd.DataFrame, *, scenarios, congestion,
                   reordering) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``(summary, traces)`` of every source of the chapter, in the layout of
    :func:`~cmtlab.papers.arabi.experiments.summarise` / :func:`~cmtlab.papers.arabi.experiments.throughput_traces`:
    the papers' simulator (:func:`cmtlab.papers.arabi.papers_sim.chapter_sources` of ``model_runs``, restricted to
    the chapter's ``scenarios``, ``congestion`` and ``reordering``), then cmtlab's ``runs`` and the earlier
    chapter's ``earlier_runs``."""
    from . import papers_sim

    model_summary, model_traces = papers_sim.chapter_sources(model_runs)

    def keep(f):
        return f[f.scenario.isin(scenarios) & f.congestion.isin(congestion) & f.reordering.isin(reordering)]

    summary = pd.concat([keep(model_summary), summarise(runs), summarise(earlier_runs)], ignore_index=True)
    traces = pd.concat([keep(model_traces), throughput_traces(runs), throughput_traces(earlier_runs)], ignore_index=True)
    return summary, traces


__all__ = ["NOT_RUN", "VERDICT_COLOURS", "SOURCE_LABELS", "SOURCE_SHORT", "REFERENCES", "DIFFERS", "source_label", "mean_table",
           "response_counters", "late_ratio", "modern_table", "mean_of", "sensitivity_table", "style_sensitivity",
           "loss_free_check", "loss_free_table", "CLAIM_CASES", "case_counters", "explain_disagreements", "chapter_numbers", "ArabiTable", "ArabiComparison", "comparison",
           "chapter_tables"]
