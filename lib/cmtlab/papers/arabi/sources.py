"""The sources the Arabi chapter decides and compares on (:class:`Source`): the runs of one simulator or
setting, one value per run of a scenario × congestion control × reordering algorithm, with their means and
95 % intervals (:class:`Estimate`) and the ratios between two cases (per clock value or seed where both have
runs of the same ones).

* :func:`model_source` — the papers' simulator's recorded runs: its logged global throughput with
  ``variateDelay`` off (:data:`~cmtlab.papers.arabi.papers_sim.PAPERS_SIM`, the deciding source), its goodput
  and its runs with ``variateDelay`` on; F_RTO over the clock design (``arabi-frto``);
* :func:`preset_source` — a preset of :mod:`cmtlab.sim` run by the chapter (goodput per seed);
* :func:`today_source` — today's stack, the rows of :func:`cmtlab.today.chapter.run_axis` on
  :func:`today_scenarios` (this module only reads them: the chapter runs them).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ...report.claims import RFC_COLUMN, TODAY_COLUMN
from ...stats import NON_NEGATIVE, mean_ci
from .experiments import CC_LABELS, RO_LABELS
from .paper import PAPER_CONGESTION, REORDERING
from .papers_sim import PAPERS_SIM, PAPERS_SIM_GOODPUT, PAPERS_SIM_VARIATE

#: What a row says when the run did not compute what it needs.
NOT_RUN = "not run with these parameters"
#: Today's stack as a source name.
TODAY = "today"

#: Column titles of the sources.
SOURCE_LABELS = {
    PAPERS_SIM: "papers' simulator (global throughput)",
    PAPERS_SIM_GOODPUT: "papers' simulator: goodput",
    PAPERS_SIM_VARIATE: "papers' simulator: variateDelay on",
    "chihani_ns3": "calibrated preset (chihani_ns3)",
    "chihani": "old imitation preset (chihani)",
    "chihani_dupack": "imitation with duplicate-ACK receiver (chihani_dupack)",
    "rfc": "RFC behaviour (rfc preset)",
    TODAY: "today's stack (cmtlab.sim configured like Linux)",
}
#: The reference columns of a claims table that the design names (:mod:`cmtlab.report.claims`).
COLUMN_TITLES = {"rfc": RFC_COLUMN, TODAY: TODAY_COLUMN}

def source_label(source: str) -> str:
    """The name of a source in tables (``"chihani_ns3"`` → "calibrated preset (chihani_ns3)")."""
    return SOURCE_LABELS.get(source, f"preset {source}")


def column_title(source: str) -> str:
    """The title of a source's reference column in a claims table: :data:`cmtlab.report.claims.RFC_COLUMN` and
    :data:`~cmtlab.report.claims.TODAY_COLUMN` for RFC behaviour and today's stack, else :func:`source_label`."""
    return COLUMN_TITLES.get(source, source_label(source))


@dataclass(frozen=True)
class Estimate:
    """A value of one source with its 95 % confidence interval: ``ci`` = (low, high) over ``n`` runs,
    ``None`` with ``n = None`` where the value is exact (one run of a deterministic simulator)."""

    value: float
    ci: tuple | None = None
    n: int | None = None

    @property
    def low(self) -> float:
        return self.ci[0] if self.ci is not None and math.isfinite(self.ci[0]) else self.value

    @property
    def high(self) -> float:
        return self.ci[1] if self.ci is not None and math.isfinite(self.ci[1]) else self.value

    def scaled(self, factor: float, offset: float = 0.0) -> "Estimate":
        """``value · factor + offset`` (and the interval), e.g. a ratio as a change in per cent."""
        ci = None if self.ci is None else tuple(v * factor + offset for v in self.ci)
        if ci is not None and factor < 0:
            ci = (ci[1], ci[0])
        return Estimate(self.value * factor + offset, ci, self.n)


def _estimate(values, exact: bool) -> Estimate:
    """Mean of per-run ``values`` with its Student-t 95 % interval (:func:`cmtlab.stats.mean_ci`); one
    value of a deterministic source is exact (no interval), one seed of a seeded one has none (nan)."""
    x = np.asarray(values, dtype=float)
    if x.size == 1:
        return Estimate(float(x[0]), None, None) if exact else Estimate(float(x[0]), (math.nan, math.nan), 1)
    res = mean_ci(x)
    return Estimate(float(res.mean), res.within(NON_NEGATIVE), int(x.size))   # throughputs and their ratios


#: Columns of a source's runs (:class:`Source`).
RUN_COLUMNS = ("scenario", "congestion", "reordering", "seed", "value_bps", "late_bps", "spurious_detections")


class Source:
    """The runs of one source: per scenario × congestion control × reordering algorithm, one value per run
    (``value_bps``: the throughput the source decides on), its mean over the second half of the run
    (``late_bps``) and the spurious-retransmission detections it logged.

    ``deterministic``: one run of a cell is the exact value (the papers' simulator seeds ``rand()`` with a
    constant; a run without random loss repeats exactly) — else one run has no interval.  ``n_unit`` names
    what the runs of a cell are ("clock values" for the model's F_RTO, "seeds").  ``scope`` says what the
    source cannot run at all (e.g. "uncoupled congestion control only: Linux has no coupled one"), for the
    rows it cannot assess.
    """

    def __init__(self, name: str, label: str, runs: pd.DataFrame, *, deterministic: bool = False,
                 n_unit: str = "seeds", scope: str = "", quantity: str = "goodput"):
        missing = {"scenario", "congestion", "reordering", "seed", "value_bps"} - set(runs.columns)
        if missing:
            raise ValueError(f"runs of source {name!r} must have the columns {list(RUN_COLUMNS)}; missing "
                             f"{sorted(missing)}")
        self.name, self.label, self.runs = name, label, runs
        self.deterministic, self.n_unit, self.scope, self.quantity = bool(deterministic), n_unit, scope, quantity
        self._cells = {k: g.set_index("seed") for k, g in runs.groupby(["scenario", "congestion", "reordering"])}

    def __repr__(self) -> str:
        return f"Source({self.name!r}, {len(self.runs)} runs)"

    def has(self, *cells) -> bool:
        return all(tuple(c) in self._cells for c in cells)

    def missing(self, *cells) -> str:
        """What of ``cells`` the source lacks, as the reason of a row it cannot assess ("" if none)."""
        lack = [c for c in cells if tuple(c) not in self._cells]
        if not lack:
            return ""
        run = self.runs
        parts = []
        for sid in sorted({c[0] for c in lack}):
            if sid not in set(run.scenario):
                parts.append(f"scenario {sid}")
        for cc in dict.fromkeys(c[1] for c in lack):
            if cc not in set(run.congestion):
                parts.append(CC_LABELS.get(cc, cc))
        for ro in dict.fromkeys(c[2] for c in lack):
            if ro not in set(run.reordering):
                parts.append(RO_LABELS.get(ro, ro))
        what = ", ".join(parts) or ", ".join(f"scenario {c[0]} {CC_LABELS.get(c[1], c[1])} {RO_LABELS.get(c[2], c[2])}"
                                             for c in lack)
        if self.scope:
            return f"not run on this source ({self.scope}; needs {what})"
        return f"{NOT_RUN} (needs {what})"

    def values(self, cell, column: str = "value_bps") -> pd.Series:
        return self._cells[tuple(cell)][column].astype(float)

    def mean(self, cell, column: str = "value_bps") -> Estimate:
        """The mean of one cell over its runs."""
        return _estimate(self.values(cell, column).to_numpy(), self.deterministic)

    def total(self, cells, column: str) -> float:
        """The sum of ``column`` over every run of ``cells`` (NaN where the source has no such column)."""
        if column not in self.runs.columns:
            return math.nan
        return float(sum(self.values(c, column).sum() for c in cells))

    def ratio(self, a, b, column: str = "value_bps") -> Estimate:
        """Cell ``a`` over cell ``b``: per run where one side is a single run (its value divides or is divided
        by each run of the other), per seed where both have runs of the same seeds (common random numbers:
        the same clock value or seed), else the ratio of the means with the intervals propagated to first
        order."""
        va, vb = self.values(a, column), self.values(b, column)
        if len(va) == 1 and len(vb) == 1:
            return _estimate([va.iloc[0] / vb.iloc[0]], self.deterministic)
        if len(vb) == 1:
            return _estimate((va / vb.iloc[0]).to_numpy(), self.deterministic)
        if len(va) == 1:
            return _estimate((va.iloc[0] / vb).to_numpy(), self.deterministic)
        if set(va.index) == set(vb.index):
            return _estimate((va / vb.loc[va.index]).to_numpy(), self.deterministic)
        ea, eb = _estimate(va.to_numpy(), False), _estimate(vb.to_numpy(), False)
        r = ea.value / eb.value
        half = r * math.hypot((ea.high - ea.value) / ea.value, (eb.high - eb.value) / eb.value)
        return Estimate(r, (r - half, r + half), max(ea.n, eb.n))


def late_bps(table: pd.DataFrame, bin_columns) -> np.ndarray:
    """Per run, the mean of its throughput bins over the second half of the run (the bins after the
    transfer ended are NaN and do not count): how the run ends."""
    x = table[list(bin_columns)].to_numpy(dtype=float)
    out = np.full(len(x), np.nan)
    for i, row in enumerate(x):
        done = np.flatnonzero(np.isfinite(row))
        if done.size:
            n = done[-1] + 1
            out[i] = float(np.nanmean(row[n // 2:n]))
    return out


def model_source(table: pd.DataFrame, name: str = PAPERS_SIM, *, setting: str = "main") -> Source:
    """A source of the papers' simulator's runs (:func:`cmtlab.papers.arabi.papers_sim.chapter_runs`): ``name``
    :data:`~cmtlab.papers.arabi.papers_sim.PAPERS_SIM` (the logged global throughput, ``variateDelay`` off),
    :data:`~cmtlab.papers.arabi.papers_sim.PAPERS_SIM_GOODPUT` (goodput, off) or
    :data:`~cmtlab.papers.arabi.papers_sim.PAPERS_SIM_VARIATE` (global throughput, on)."""
    from .papers_sim import bin_columns

    spec = {PAPERS_SIM: (False, "model_global_throughput_bps", "gtput", "global throughput"),
            PAPERS_SIM_GOODPUT: (False, "throughput_bps", "tput", "goodput"),
            PAPERS_SIM_VARIATE: (True, "model_global_throughput_bps", "gtput", "global throughput")}
    if name not in spec:
        raise ValueError(f"name must be one of {sorted(spec)}, got {name!r}")
    vd, column, kind, quantity = spec[name]
    t = table[(table.variate_delay == vd) & (table.setting == setting) & table.reordering.isin(REORDERING)]
    if t.empty:
        raise ValueError(f"the table holds no runs with variate_delay={vd!r}, setting={setting!r}")
    runs = pd.DataFrame({"scenario": t.scenario.to_numpy(), "congestion": t.congestion.to_numpy(),
                         "reordering": t.reordering.to_numpy(), "seed": t.seed.to_numpy(),
                         "value_bps": t[column].to_numpy(dtype=float), "late_bps": late_bps(t, bin_columns(t, kind)),
                         "spurious_detections": t.spurious_detections.to_numpy(dtype=float)})
    return Source(name, SOURCE_LABELS[name], runs, deterministic=True, n_unit="clock values", quantity=quantity)


def preset_source(table: pd.DataFrame, preset: str, *, setting: str = "main", scheduler: str = "round_robin") -> Source:
    """A source of one preset's runs (rows of :func:`cmtlab.papers.arabi.experiments.run_cases`): goodput per
    seed."""
    from .experiments import bin_columns

    t = table[(table.preset == preset) & (table.setting == setting) & (table.scheduler == scheduler)
              & table.reordering.isin(REORDERING) & table.congestion.isin(PAPER_CONGESTION)]
    if t.empty:
        raise ValueError(f"no runs of preset {preset!r} at setting={setting!r}, scheduler={scheduler!r}")
    spur = t.spurious_undos.to_numpy(dtype=float) if "spurious_undos" in t else np.full(len(t), np.nan)
    runs = pd.DataFrame({"scenario": t.scenario.to_numpy(), "congestion": t.congestion.to_numpy(),
                         "reordering": t.reordering.to_numpy(), "seed": t.seed.to_numpy(),
                         "value_bps": t.mean_throughput_bps.to_numpy(dtype=float),
                         "late_bps": late_bps(t, bin_columns(t)), "spurious_detections": spur})
    return Source(preset, source_label(preset), runs, deterministic=False, n_unit="seeds")


#: The mechanisms of today's stack (:func:`cmtlab.today.chapter.run_axis` ``("recovery", ...)``) by the
#: chapter's algorithm names; its congestion control is Linux's uncoupled CUBIC.
TODAY_MECHANISMS = {"NoPR": "none", "D-SACK": "dsack", "Eifel": "eifel", "F-RTO": "frto"}


def today_scenarios(scenarios=(1, 2)) -> dict:
    """The paper's scenarios for :func:`cmtlab.today.chapter.run_axis`: its paths as stated (round trips twice
    the one-way delays), no random loss and no delay variation, as the papers' simulator runs them."""
    from .paper import SCENARIOS

    return {f"Arabi scenario {sid}": dict(bandwidths_bps=list(SCENARIOS[sid]["rates_bps"]),
                                          rtts_s=[2 * d for d in SCENARIOS[sid]["one_way_delays_s"]], links=None,
                                          loss=[0.0] * len(SCENARIOS[sid]["rates_bps"]), duration_s=None)
            for sid in scenarios}


def today_source(runs: pd.DataFrame) -> Source:
    """Today's stack (:data:`cmtlab.report.claims.TODAY_COLUMN`): the rows of
    :func:`cmtlab.today.chapter.run_axis` ``("recovery", today_scenarios(), seeds)`` — the paper's paths in
    :mod:`cmtlab.sim` configured as Linux runs today (RACK-TLP loss detection, CUBIC on every subflow, Linux's
    scheduler and TCP options), each of the paper's algorithms as the response on the duplicate-ACK rule.
    Linux has no coupled congestion control: every cell is uncoupled (CUBIC)."""
    t = runs[runs.mechanism.isin(list(TODAY_MECHANISMS))]
    if t.empty:
        raise ValueError("runs must be rows of cmtlab.today.chapter.run_axis('recovery', ...) on the paper's "
                         "scenarios (today_scenarios())")
    out = pd.DataFrame({"scenario": [int(str(s).rsplit(" ", 1)[-1]) for s in t.scenario],
                        "congestion": "uncoupled", "reordering": [TODAY_MECHANISMS[m] for m in t.mechanism],
                        "seed": t.seed.to_numpy(), "value_bps": t.goodput_mbps.to_numpy(dtype=float) * 1e6,
                        "late_bps": np.nan, "spurious_detections": np.nan})   # run_axis counts no detections
    return Source(TODAY, SOURCE_LABELS[TODAY], out, deterministic=True, n_unit="seeds",
                  scope="today's Linux runs uncoupled congestion control (CUBIC) only, and this source keeps no "
                        "throughput over time")


__all__ = ["NOT_RUN", "TODAY", "SOURCE_LABELS", "COLUMN_TITLES", "source_label", "column_title", "Estimate", "RUN_COLUMNS", "Source", "late_bps",
           "model_source", "preset_source", "TODAY_MECHANISMS", "today_scenarios", "today_source"]
