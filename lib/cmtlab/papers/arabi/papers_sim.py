"""Arabi, Bozed, Zerek (SPEC row R1, Figs. 8–9) on the papers' own simulator.

The paper ran the Chihani–Collange model ("the mpTopology.cc has been modified and two scenarios
have been implemented", sec. 4).  Here both scenarios (:data:`cmtlab.papers.arabi.experiments.SCENARIOS`:
one-way delays, the ``Delay`` of ns-3's point-to-point channel) × the model's four congestion
controls × its five reordering algorithms (NoPR, D_SACK, Eifel, F_RTO and TCP_DOOR — a no-op in
the model) × ``variateDelay`` on and off run on the real model, with mpTopology's own transfer
(10 MB) and buffers, no random loss (the paper states none).  What is recorded per run: the
goodput (bytes the receiving application read), the model's logged "global throughput" (Σ
cwnd·MSS·8/RTT estimate — what Figs. 8–9 plot), both as 1-s bins over time, and the counters.

Why 10 MB and not the chapter's 60 s: the model never frees its per-subflow list of sent
segments (``mapDSN``; the ``erase`` is commented out) and walks it on every ACK, so a run's cost
grows with the square of its length — a 60-s run of scenario 2 takes about 8 minutes of CPU, a
10-MB transfer about 5 s.  The 10-MB transfer is also mpTopology's, which the paper modified.

F_RTO reads the wall clock (``time(NULL)``, l. 945 of the model's ``mp-tcp-socket-impl.cc``): on every ACK
subflow *i* starts discarding ACKs with probability ``0.061 · (clock mod p_i) / p_i`` (p = 389, 211, 457 for
subflows 0–2, :data:`FRTO_PRIMES`).  A repetition is a fixed clock value
(:func:`cmtlab.papers_sim.frto_clock` of its seed), so every recorded run repeats exactly.  The record set
``arabi-r1`` holds three repetitions per F_RTO case (:data:`FRTO_SEEDS`, kept for the papers'-simulator
agreement chapter); the record set ``arabi-frto`` samples the clock over :data:`FRTO_DESIGN_N` seeds chosen
so that every subflow's residue fraction ``(clock mod p_i) / p_i`` covers [0, 1) evenly
(:data:`FRTO_DESIGN_SEEDS`, :func:`frto_design_seeds`): the Arabi chapter's F-RTO values and their
confidence intervals come from it (:func:`frto_recorded`).

:func:`preset_cases` builds the same cases for :mod:`cmtlab.sim`'s ``chihani`` preset (as the Arabi
chapter runs it, :func:`cmtlab.papers.arabi.experiments.scenario`) without random loss, both over the
chapter's 60 s and over the model's 10-MB transfer; :func:`comparison` puts model and preset side
by side, :func:`claims` gives the numbers behind the paper's claims on the model.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..._validate import check_int
from ...papers_sim.model import DEFAULT_TRANSFER_BYTES as TRANSFER_BYTES  # mpTopology's 10 MB

#: cmtlab's congestion names (the Arabi chapter's) → the model's.
CONGESTION = {"uncoupled": "uncoupled", "fully_coupled": "fully_coupled", "lia": "linked_increases",
              "rtt_compensation": "rtt_compensator"}
#: cmtlab's reordering names → the model's (``tcp_door`` exists only in the model, as a no-op).
REORDERING = {"none": "none", "dsack": "dsack", "eifel": "eifel", "frto": "frto", "tcp_door": "tcp_door"}
#: The three F_RTO repetitions of the record set ``arabi-r1`` (their clocks cluster: subflow 0's residue
#: fractions all lie in [0.07, 0.21]; the chapter's F-RTO values come from ``arabi-frto`` instead).
FRTO_SEEDS = (0, 1, 2)
#: The model's F_RTO primes of subflows 0, 1, 2 (``nbP[] = {389, 211, 457, 277, 367, 479, 233}``,
#: ``MpTcpSocketImpl::NewACK``, l. 944 of the pinned ``mp-tcp-socket-impl.cc``); the papers' scenarios have at
#: most three subflows.
FRTO_PRIMES = (389, 211, 457)
#: The largest ACK-discarding probability of F_RTO (``0.061 ·`` the residue fraction, l. 945).
FRTO_MAX_THRESHOLD = 0.061
#: How many clock values the record set ``arabi-frto`` samples per F_RTO case (≥ 30, a prime: the rank-1
#: lattice of :func:`frto_design_cells` is a Latin hypercube in every coordinate).
FRTO_DESIGN_N = 37
#: The lattice's generator: point k lies in the cells (k, 8k, 64k) mod 37 of subflows 0, 1, 2 — the generator
#: in 2 … 36 with the largest smallest distance between points on the torus, in 3-D and in every 2-D projection.
FRTO_DESIGN_GENERATOR = 8
#: The seeds of the clock design (:func:`frto_design_seeds` ``(37, 8)``): seed s runs with the clock
#: :func:`cmtlab.papers_sim.frto_clock` ``(s)``; point k's residue fractions lie in the cells of
#: :func:`frto_design_cells`.
FRTO_DESIGN_SEEDS = (41298, 125897, 29650, 7862, 1473, 13662, 104206, 84885, 28218, 72259, 34205, 15745, 53069, 27049,
                     29964, 17511, 31738, 30349, 25921, 56439, 228775, 137120, 5688, 25319, 67453, 47335, 6962, 40330,
                     1356, 21825, 123933, 169939, 91479, 54930, 3437, 7850, 38053)
LABELS = ("setting", "scenario", "congestion", "reordering", "variate_delay")
#: The papers' simulator as the chapter's summaries label it (``preset`` column; built by
#: :func:`cmtlab.papers.arabi.papers_sim.chapter_sources` from the recorded runs): the model's logged
#: global throughput with ``variateDelay`` off — what the paper plots, and what decides the
#: verdicts —, its delivered goodput, and its global throughput with ``variateDelay`` on.
PAPERS_SIM = "papers-sim"
PAPERS_SIM_GOODPUT = "papers-sim goodput"
PAPERS_SIM_VARIATE = "papers-sim variateDelay"
#: Agreement tolerance on goodput (relative) of the calibrated preset with the model
#: (:mod:`cmtlab.validation.papers_sim`; the chapter's reasons where the preset misses it by more).
TOLERANCE = 0.05
#: Why the calibrated preset ``chihani_ns3`` still misses the model, per reordering algorithm (found by reading and tracing
#: the model; empty where the preset agrees).
MISS_REASONS = {
    "none": "not traced: every NoPR case agreed when this table was last computed",
    "eifel": ("scenario 2: the model's three-subflow runs with an ACK option (Eifel, D_SACK) count one "
              "byte too many as unacknowledged on a subflow (its first ACK acknowledges 1 byte), so its "
              "available window cwnd·MSS − (maxSeqNb − highestAck) cuts 1399-byte segments followed by "
              "1-byte ones, each a segment to its per-segment duplicate-ACK counter; the extra ACKs bring "
              "the early fast retransmits at other windows (traced, scenario 2 uncoupled: the model's "
              "first at cwnd 5 after 0.15 s, the preset's at cwnd 8 after 0.20 s, then a timeout the "
              "model does not have). The preset numbers whole segments"),
    "dsack": ("scenario 2: the model's three-subflow D_SACK runs send split segments too (see Eifel: "
              "1399 + 1 bytes), whose extra option ACKs count on the slow paths' segments; the preset "
              "runs with SACK negotiated (the Arabi scenario turns it on for D-SACK) where the model "
              "has none"),
    "frto": "the preset's mean lies outside the model's spread over its repetitions",
    "tcp_door": "not traced: every TCP_DOOR case agreed when this table was last computed",
}


def frto_residue_fractions(clock: int, primes=FRTO_PRIMES) -> tuple[float, ...]:
    """``(clock mod p_i) / p_i`` for every subflow ``i``: F_RTO's ACK-discarding probability on subflow ``i`` is
    :data:`FRTO_MAX_THRESHOLD` times it (``MpTcpSocketImpl::NewACK``)."""
    clock = check_int("clock", clock, minimum=0)
    return tuple((clock % p) / p for p in primes)


def frto_design_cells(n: int = FRTO_DESIGN_N, generator: int = FRTO_DESIGN_GENERATOR,
                      dims: int = len(FRTO_PRIMES)) -> list[tuple[int, ...]]:
    """The cells of a rank-1 (Korobov) lattice of ``n`` points in ``dims`` dimensions: point ``k`` lies in
    cell ``(k · generator^i) mod n`` of coordinate ``i`` (of ``n`` equal cells of [0, 1)).  With ``n``
    prime and ``generator`` not a multiple of it, every coordinate is a permutation of the cells (a Latin
    hypercube), and the lattice spreads the points jointly."""
    n = check_int("n", n, minimum=2)
    generator = check_int("generator", generator, minimum=1)
    dims = check_int("dims", dims, minimum=1)
    gens = [pow(generator, i, n) for i in range(dims)]
    if any(np.gcd(g, n) != 1 for g in gens):
        raise ValueError(f"generator must be coprime to n = {n}, got {generator!r}")
    return [tuple((k * g) % n for g in gens) for k in range(n)]


def frto_design_seeds(n: int = FRTO_DESIGN_N, generator: int = FRTO_DESIGN_GENERATOR,
                      primes=FRTO_PRIMES) -> tuple[int, ...]:
    """Seeds whose F_RTO clocks (:func:`cmtlab.papers_sim.frto_clock`) put the residue fractions
    (:func:`frto_residue_fractions`) of every subflow in the cells of :func:`frto_design_cells`: for point
    ``k``, the smallest seed whose fractions lie in point ``k``'s cells (each fraction in
    ``[cell/n, (cell+1)/n)``).  Every subflow's fractions then cover [0, 1) evenly — one per n-th — and the
    points spread jointly as the lattice does.  Deterministic (a search over seeds 0, 1, 2, …; a few
    seconds for n = 37)."""
    from ...papers_sim.model import frto_clock

    cells = frto_design_cells(n, generator, len(primes))
    wanted = {c: k for k, c in enumerate(cells)}
    found: dict[int, int] = {}
    seed = 0
    while len(found) < n:
        cell = tuple(int(f * n) for f in frto_residue_fractions(frto_clock(seed), primes))
        k = wanted.get(cell)
        if k is not None and k not in found:
            found[k] = seed
        seed += 1
    return tuple(found[k] for k in range(n))


def paths(scenario_id: int) -> tuple[tuple, tuple]:
    """``(rates_bps, one_way_delays_s)`` of Arabi's scenario 1 or 2 (sec. 4)."""
    from .paper import SCENARIOS

    if scenario_id not in SCENARIOS:
        raise ValueError(f"scenario_id must be one of {sorted(SCENARIOS)}, got {scenario_id!r}")
    s = SCENARIOS[scenario_id]
    return tuple(s["rates_bps"]), tuple(s["one_way_delays_s"])


def build_cases(*, scenarios=(1, 2), congestion=tuple(CONGESTION), reordering=tuple(REORDERING),
                variate_delay=(False, True), transfer_bytes: int = TRANSFER_BYTES, setting: str = "main",
                **scenario_kw) -> list[tuple[dict, object]]:
    """``(labels, PapersSimScenario)`` for every scenario × congestion × reordering × variateDelay.

    Labels use cmtlab's names (``lia``, ``rtt_compensation``, …) so the tables join the chapter's.
    """
    from ...papers_sim.model import scenario

    out = []
    for name, values in (("scenarios", scenarios), ("congestion", congestion), ("reordering", reordering),
                         ("variate_delay", variate_delay)):
        if isinstance(values, str) or not len(list(values)):
            raise ValueError(f"{name} must be a non-empty sequence, got {values!r}")
    for sid in scenarios:
        rates, delays = paths(sid)
        for cc in congestion:
            if cc not in CONGESTION:
                raise ValueError(f"congestion must be among {sorted(CONGESTION)}, got {cc!r}")
            for ro in reordering:
                if ro not in REORDERING:
                    raise ValueError(f"reordering must be among {sorted(REORDERING)}, got {ro!r}")
                for vd in variate_delay:
                    labels = {"setting": setting, "scenario": sid, "congestion": cc, "reordering": ro,
                              "variate_delay": bool(vd)}
                    out.append((labels, scenario(rates, delays, congestion=CONGESTION[cc], reordering=REORDERING[ro],
                                                 transfer_bytes=transfer_bytes, variate_delay=bool(vd),
                                                 **scenario_kw)))
    return out


def run_cases(cases, *, frto_seeds=FRTO_SEEDS, workers=None, cache=True, progress=True) -> pd.DataFrame:
    """Run the cases (F_RTO cases once per seed of ``frto_seeds``, the others once: they are
    deterministic) with :func:`cmtlab.sweep.run_sweep` on the ``"papers-sim"`` simulator."""
    from ...sweep import run_sweep

    # The labels use cmtlab's congestion names, the rows the model's ("lia" / "linked_increases"):
    # run under a temporary label, then the label replaces the row's column (the model's name is
    # kept as ``model_congestion``).
    cases = [({("congestion_label" if k == "congestion" else k): v for k, v in labels.items()}, sc)
             for labels, sc in cases]
    seeds = [check_int("frto_seeds", s, minimum=0) for s in frto_seeds]
    if not seeds:
        raise ValueError("frto_seeds must hold at least one seed")
    frto = [c for c in cases if c[1].reordering == "frto"]
    other = [c for c in cases if c[1].reordering != "frto"]
    parts = []
    if other:
        parts.append(run_sweep("papers-sim", other, seeds=[0], workers=workers, cache=cache, progress=progress))
    if frto:
        parts.append(run_sweep("papers-sim", frto, seeds=seeds, workers=workers, cache=cache, progress=progress))
    table = pd.concat(parts, ignore_index=True)
    if "congestion_label" in table.columns:
        model_cc = table["congestion"].rename("model_congestion")
        table = table.assign(congestion=table["congestion_label"]).drop(columns=["congestion_label"])
        table = pd.concat([table, model_cc], axis=1)
    table.attrs["sweeps"] = [p.attrs.get("sweep") for p in parts]
    return table


def summarise(table: pd.DataFrame) -> pd.DataFrame:
    """Per case (:data:`LABELS`): goodput and model global throughput, mean / min / max over the
    repetitions (F_RTO) and the counters' means."""
    by = [c for c in LABELS if c in table.columns]
    rows = []
    for key, g in table.groupby(by, sort=False):
        row = dict(zip(by, key))
        for col, name in (("throughput_bps", "goodput"), ("model_global_throughput_bps", "global_throughput")):
            v = g[col].to_numpy(dtype=float)
            row.update({f"{name}_bps": float(np.mean(v)), f"{name}_min_bps": float(np.min(v)),
                        f"{name}_max_bps": float(np.max(v))})
        row["runs"] = len(g)
        for c in ("completion_time_s", "fast_retransmits", "timeouts", "retransmissions", "spurious_detections",
                  "max_ooo_segments"):
            if c in g:
                row[c] = float(g[c].mean())
        rows.append(row)
    return pd.DataFrame(rows)


def bin_columns(table: pd.DataFrame, kind: str = "gtput") -> list[str]:
    return sorted(c for c in table.columns if c.startswith(f"{kind}_bin_") and c.endswith("_bps"))


def throughput_over_time(table: pd.DataFrame, *, value: str = "global") -> pd.DataFrame:
    """Tidy curves for Figs. 8–9: :data:`LABELS`, ``time_s`` (bin centre, from the first data
    segment), ``mean_bps``/``min_bps``/``max_bps`` over repetitions.  ``value``: ``"global"``
    (the model's logged global throughput, what the paper plots) or ``"goodput"``."""
    kind = {"global": "gtput", "goodput": "tput"}.get(value)
    if kind is None:
        raise ValueError(f"value must be 'global' or 'goodput', got {value!r}")
    cols = bin_columns(table, kind)
    if not cols:
        raise ValueError(f"table has no {kind}_bin_*_bps columns (rows of run_cases or recorded())")
    from ...papers_sim.model import BIN_S

    by = [c for c in LABELS if c in table.columns]
    rows = []
    for key, g in table.groupby(by, sort=False):
        base = dict(zip(by, key))
        x = g[cols].to_numpy(dtype=float)
        for i in range(x.shape[1]):
            col = x[:, i][np.isfinite(x[:, i])]
            if col.size:
                rows.append({**base, "time_s": (i + 0.5) * BIN_S, "mean_bps": float(col.mean()),
                             "min_bps": float(col.min()), "max_bps": float(col.max())})
    return pd.DataFrame(rows)


def recorded() -> pd.DataFrame:
    """The recorded runs (``data/papers-sim/arabi-r1.csv``, see :mod:`cmtlab.papers_sim.record`)."""
    from ...papers_sim.record import load

    return load("arabi-r1")


def chapter_runs(r1: pd.DataFrame | None = None, frto: pd.DataFrame | None = None) -> pd.DataFrame:
    """The papers' simulator's runs the Arabi chapter decides on: every non-F_RTO run of ``r1`` (default
    :func:`recorded`, ``arabi-r1``: each deterministic case once) and every F_RTO run of ``frto`` (default
    :func:`frto_recorded`, ``arabi-frto``: the clock design), in one table of the recorded layout."""
    r1 = recorded() if r1 is None else r1
    frto = frto_recorded() if frto is None else frto
    if (frto.reordering != "frto").any():
        raise ValueError("frto must hold F_RTO runs only (the record set arabi-frto)")
    return pd.concat([r1[r1.reordering != "frto"], frto], ignore_index=True)


def frto_recorded() -> pd.DataFrame:
    """The recorded F_RTO clock design (``data/papers-sim/arabi-frto.csv``): every F_RTO case of both
    scenarios × four congestion controls × ``variateDelay`` off/on, once per seed of
    :data:`FRTO_DESIGN_SEEDS` (:func:`frto_design_seeds`)."""
    from ...papers_sim.record import load

    return load("arabi-frto")


def _record_set():
    return build_cases(), dict(frto_seeds=FRTO_SEEDS), run_cases


def _frto_record_set():
    return build_cases(reordering=("frto",)), dict(frto_seeds=FRTO_DESIGN_SEEDS), run_cases


#: What :func:`cmtlab.papers_sim.record.record_all` records of this paper (``python -m cmtlab.papers
#: record-papers-sim``): set name → function returning ``(cases, run keyword arguments, runner)``.
#: ``arabi-frto`` alone: ``python -m cmtlab.papers record-papers-sim --only arabi-frto --workers 2``.
RECORD_SETS = {"arabi-r1": _record_set, "arabi-frto": _frto_record_set}


# ---------------------------------------------------------------------------------------- the preset

def preset_cases(*, scenarios=(1, 2), congestion=tuple(CONGESTION), reordering=("none", "dsack", "eifel", "frto"),
                 preset: str = "chihani") -> list[tuple[dict, object]]:
    """The same cases on :mod:`cmtlab.sim`'s preset, without random loss: ``setting="60 s"`` as the
    Arabi chapter runs it (:data:`cmtlab.papers.arabi.experiments.DURATION_S`) and ``setting="10 MB"`` (the
    model's transfer here).  Run them with :func:`cmtlab.papers.arabi.experiments.run_cases`."""
    from . import experiments as ax

    out = []
    for labels, sc in ax.build_cases(scenarios=scenarios, congestion=congestion, reordering=reordering,
                                     presets=(preset,), setting="60 s", loss_rate=0.0):
        out.append((labels, sc))
        out.append(({**labels, "setting": "10 MB"}, sc.replace(duration_s=None, transfer_bytes=TRANSFER_BYTES)))
    return out


def preset_summary(table: pd.DataFrame) -> pd.DataFrame:
    """Goodput per case of a preset table (rows of :func:`cmtlab.papers.arabi.experiments.run_cases`)."""
    rows = []
    for key, g in table.groupby(["setting", "scenario", "congestion", "reordering"], sort=False):
        rows.append({**dict(zip(["setting", "scenario", "congestion", "reordering"], key)),
                     "goodput_bps": float(g["throughput_bps"].mean()),
                     "goodput_min_bps": float(g["throughput_bps"].min()),
                     "goodput_max_bps": float(g["throughput_bps"].max()),
                     "fast_retransmits": float(g["fast_retransmits"].mean()),
                     "timeouts": float(g["timeouts"].mean()), "seeds": len(g)})
    return pd.DataFrame(rows)


def comparison(model: pd.DataFrame, preset: pd.DataFrame, *, variate_delay: bool = False) -> pd.DataFrame:
    """Scenario × congestion × reordering: the model's goodput and global throughput (``variate_delay``
    as given) beside the preset's goodput over 10 MB and over 60 s (summaries of :func:`summarise`
    and :func:`preset_summary`), and the preset/model goodput ratio on the same 10-MB transfer."""
    m = model[model.variate_delay == variate_delay]
    out = m[["scenario", "congestion", "reordering", "goodput_bps", "goodput_min_bps", "goodput_max_bps",
             "global_throughput_bps", "fast_retransmits", "timeouts"]].rename(
        columns={"goodput_bps": "model_goodput_bps", "goodput_min_bps": "model_goodput_min_bps",
                 "goodput_max_bps": "model_goodput_max_bps", "global_throughput_bps": "model_global_throughput_bps",
                 "fast_retransmits": "model_fast_retransmits", "timeouts": "model_timeouts"})
    for setting, suffix in (("10 MB", "10mb"), ("60 s", "60s")):
        p = preset[preset.setting == setting][["scenario", "congestion", "reordering", "goodput_bps",
                                                "fast_retransmits", "timeouts"]].rename(
            columns={"goodput_bps": f"preset_{suffix}_goodput_bps", "fast_retransmits": f"preset_{suffix}_fast_retransmits",
                     "timeouts": f"preset_{suffix}_timeouts"})
        out = out.merge(p, on=["scenario", "congestion", "reordering"], how="left")
    out["preset_over_model_10mb"] = out["preset_10mb_goodput_bps"] / out["model_goodput_bps"]
    return out.reset_index(drop=True)


def claims(summary: pd.DataFrame, *, variate_delay: bool = False, value: str = "global_throughput_bps") -> dict:
    """The numbers behind the paper's claims on the model (:func:`cmtlab.papers.arabi.experiments.claims`
    applied to the model's summary): ``value`` ``"global_throughput_bps"`` (what the paper plots) or
    ``"goodput_bps"``."""
    from .experiments import claims as chapter_claims
    from .paper import PAPER_CONGESTION

    if value not in ("global_throughput_bps", "goodput_bps"):
        raise ValueError(f"value must be 'global_throughput_bps' or 'goodput_bps', got {value!r}")
    s = summary[(summary.variate_delay == variate_delay) & summary.reordering.isin(["none", "dsack", "eifel", "frto"])]
    s = s.assign(preset="papers-sim", scheduler="round_robin", mean_bps=s[value])
    return chapter_claims(s, preset="papers-sim", setting=s.setting.iloc[0] if len(s) else "main",
                          congestion=PAPER_CONGESTION)


# ---------------------------------------------------------------------------------------- the chapter's formats

def chapter_summary(table: pd.DataFrame, *, variate_delay: bool = False, value: str = "model_global_throughput_bps",
                    setting: str | None = None) -> pd.DataFrame:
    """The model's runs in the layout of :func:`cmtlab.papers.arabi.experiments.summarise` (``preset`` =
    ``"papers-sim"``, ``mean_bps``, ``ci95_bps`` over the F_RTO repetitions, ``seeds``), so that the
    chapter's :func:`~cmtlab.papers.arabi.experiments.pivot`, :func:`~cmtlab.papers.arabi.experiments.claims` and
    :func:`cmtlab.papers.arabi.figures.mean_bars` work on it.  ``value``: ``"model_global_throughput_bps"``
    (what the paper plots) or ``"throughput_bps"`` (goodput)."""
    from .experiments import summarise as chapter_summarise

    if value not in ("model_global_throughput_bps", "throughput_bps"):
        raise ValueError(f"value must be 'model_global_throughput_bps' or 'throughput_bps', got {value!r}")
    t = table[table.variate_delay == variate_delay]
    if t.empty:
        raise ValueError(f"no runs with variate_delay={variate_delay!r}")
    keep = [c for c in ("setting", "scenario", "congestion", "reordering", "seed", value, "fast_retransmits",
                        "timeouts", "spurious_detections", "retransmissions") if c in t.columns]
    t = t[keep].copy()
    t["preset"] = "papers-sim"
    t["scheduler"] = "round_robin"
    if setting is not None:
        t["setting"] = setting
    return chapter_summarise(t, value=value)


def chapter_traces(table: pd.DataFrame, *, variate_delay: bool = False, value: str = "global",
                   setting: str | None = None) -> pd.DataFrame:
    """Throughput over time in the layout of :func:`cmtlab.papers.arabi.experiments.throughput_traces`
    (``mean_bps``, ``ci95_bps``; ``preset="papers-sim"``) for :func:`cmtlab.papers.arabi.figures.throughput_over_time`.
    ``value``: ``"global"`` (the model's logged global throughput, Figs. 8–9) or ``"goodput"``."""
    from ...stats import mean_ci

    kind = {"global": "gtput", "goodput": "tput"}.get(value)
    if kind is None:
        raise ValueError(f"value must be 'global' or 'goodput', got {value!r}")
    from ...papers_sim.model import BIN_S

    t = table[table.variate_delay == variate_delay]
    cols = bin_columns(t, kind)
    rows = []
    for key, g in t.groupby(["setting", "scenario", "congestion", "reordering"], sort=False):
        base = dict(zip(["setting", "scenario", "congestion", "reordering"], key))
        if setting is not None:
            base["setting"] = setting
        x = g[cols].to_numpy(dtype=float)
        for i in range(x.shape[1]):
            col = x[:, i][np.isfinite(x[:, i])]
            if col.size:
                m, h, _ = mean_ci(col)
                rows.append({**base, "preset": "papers-sim", "scheduler": "round_robin", "time_s": (i + 0.5) * BIN_S,
                             "mean_bps": m, "ci95_bps": h})
    return pd.DataFrame(rows)


def chapter_sources(table: pd.DataFrame | None = None, *, setting: str = "main") -> tuple[pd.DataFrame, pd.DataFrame]:
    """The papers' simulator as the Arabi chapter's sources: ``(summary, traces)`` in the layout of
    :func:`cmtlab.papers.arabi.experiments.summarise` / :func:`~cmtlab.papers.arabi.experiments.throughput_traces`,
    with three labels in the ``preset`` column (:mod:`cmtlab.papers.arabi.comparison`):

    * ``"papers-sim"`` — the model's logged global throughput, ``variateDelay`` off (what Figs. 8–9
      plot, on the paper's configured delays: the source that decides the chapter's verdicts);
    * ``"papers-sim goodput"`` — the bytes the receiving application read, ``variateDelay`` off;
    * ``"papers-sim variateDelay"`` — the global throughput with ``variateDelay`` on.

    ``table``: runs of :func:`run_cases` (default: :func:`chapter_runs`).  Concatenate the result with
    the presets' summary and traces (:func:`cmtlab.papers.arabi.comparison.chapter_tables`).
    """
    table = chapter_runs() if table is None else table
    missing = {"variate_delay", "throughput_bps", "model_global_throughput_bps"} - set(table.columns)
    if missing:
        raise ValueError(f"table must be runs of the papers' simulator (run_cases or recorded()); missing columns "
                         f"{sorted(missing)}")
    summaries, traces = [], []
    for label, vd, value, kind in ((PAPERS_SIM, False, "model_global_throughput_bps", "global"),
                                   (PAPERS_SIM_GOODPUT, False, "throughput_bps", "goodput"),
                                   (PAPERS_SIM_VARIATE, True, "model_global_throughput_bps", "global")):
        if not (table.variate_delay == vd).any():
            continue
        summaries.append(chapter_summary(table, variate_delay=vd, value=value, setting=setting).assign(preset=label))
        traces.append(chapter_traces(table, variate_delay=vd, value=kind, setting=setting).assign(preset=label))
    if not summaries:
        raise ValueError("table holds no runs")
    return pd.concat(summaries, ignore_index=True), pd.concat(traces, ignore_index=True)


__all__ = ["REORDERING", "CONGESTION", "TRANSFER_BYTES", "FRTO_SEEDS", "FRTO_PRIMES", "FRTO_MAX_THRESHOLD",
           "FRTO_DESIGN_N", "FRTO_DESIGN_GENERATOR", "FRTO_DESIGN_SEEDS", "frto_residue_fractions",
           "frto_design_cells", "frto_design_seeds", "frto_recorded", "chapter_runs", "LABELS", "PAPERS_SIM", "PAPERS_SIM_GOODPUT",
           "PAPERS_SIM_VARIATE", "TOLERANCE", "MISS_REASONS", "paths", "build_cases", "run_cases", "summarise",
           "bin_columns", "throughput_over_time", "recorded", "RECORD_SETS", "preset_cases", "preset_summary",
           "comparison", "claims", "chapter_summary", "chapter_traces", "chapter_sources"]
