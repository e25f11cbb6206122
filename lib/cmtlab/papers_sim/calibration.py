"""Agreement of :mod:`cmtlab.sim`'s model presets with the papers' simulator (issue 18).

For every recorded Arabi case (``data/papers-sim/arabi-r1.csv``: scenario × congestion control ×
reordering algorithm, ``variateDelay`` as chosen, 10-MB transfer, no random loss) the table of
:func:`agreement_table` puts the real model's goodput (mean, and min–max over the F_RTO
repetitions) beside the old ``chihani`` preset and the calibrated ``chihani_ns3`` preset
(:data:`cmtlab.arabi.experiments.PRESETS`) on the same transfer, their ratios, whether the
calibrated preset is within :data:`TOLERANCE` (F_RTO: inside the model's spread widened by it) and,
for each miss, the reason found by reading and tracing the model (:data:`MISS_REASONS`).

The calibrated rules (``chihani_ns3``), each from the model's code:

* receiver (``ProcessHeaderOptions``): the subflow's expected sequence stays at the first segment
  held for data-level order; that segment gets no ACK, every later one of that subflow a duplicate
  ACK; a copy of a held segment is rejected without an ACK; ``ReadUnOrderedData`` sends one ACK per
  released segment (``dupack_mode="chihani_ns3"``, :mod:`cmtlab.sim.mptcp.connection`);
* sender: plain duplicate-ACK counting — the model has no SACK (``sack=False``; D_SACK keeps the
  engine's SACK, which carries its D-SACK reports).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

#: Agreement tolerance on goodput (relative).
TOLERANCE = 0.05
#: Presets compared: the old one and the calibrated one.
PRESETS = ("chihani", "chihani_ns3")
#: papers-sim reordering names → cmtlab's registered names.
REORDERING = {"none": "none", "dsack": "dsack", "eifel": "eifel", "frto": "frto", "tcp_door": "tcp-door"}
#: Why the calibrated preset still misses, per reordering algorithm (found by reading and tracing
#: the model; empty where the preset agrees).
MISS_REASONS = {
    "none": ("sender not yet calibrated: cmtlab's recovery retransmits on every partial ACK (RFC 6582) and "
             "counts duplicates anew after each recovery, so the model's one-ACK-per-released-segment "
             "cascade triggers far more retransmissions; the model fast-retransmits a segment once, at "
             "exactly its 3rd duplicate ACK (per-segment counter, never reset), never on a partial ACK"),
    "eifel": ("as NoPR (sender recovery), and the model checks Eifel only on duplicate ACKs of a "
              "retransmitted segment whose stored TSval exceeds the echo — its restore then stops "
              "further fast retransmits of that segment"),
    "dsack": ("the model's D_SACK receiver answers every segment ahead of the data sequence with a "
              "D-SACK-option ACK and its sender (DupDSACK) fast-retransmits the lowest-DSN unacknowledged "
              "segment of any subflow: not modelled"),
    "frto": ("the model's F_RTO discards the next cwnd ACKs with a probability from the wall clock "
             "(NewACK: nbRecvAck, rejectPacket): not modelled"),
    "tcp_door": ("timer-driven only (duplicate ACKs ignored): the remaining difference is in timeouts "
                 "(the model doubles the RTO on every window reduction) and round-robin details, not yet traced"),
}


def preset_goodput(scenario_id: int, congestion: str, reordering: str, preset: str, *,
                   transfer_bytes: int | None = None, seed: int = 0, frto_clock: int | None = None) -> dict:
    """One preset run of a recorded case (no random loss, the model's 10-MB transfer): goodput
    (bit/s), fast retransmits and timeouts.  ``reordering`` uses the papers-sim names; ``seed`` the
    scenario's seed; ``frto_clock`` (``chihani_ns3`` F_RTO only) the model run's wall-clock value,
    which sets its ACK-discarding probability (:class:`cmtlab.sim.models.chihani.ChihaniNs3Frto`)."""
    from ..arabi import experiments as ax
    from ..sim.multipath import run_mptcp
    from .arabi import TRANSFER_BYTES

    if reordering not in REORDERING:
        raise ValueError(f"reordering must be among {sorted(REORDERING)}, got {reordering!r}")
    sc = ax.scenario(scenario_id, congestion, REORDERING[reordering], preset=preset, loss_rate=0.0, seed=seed)
    sc = dataclasses.replace(sc, duration_s=None, transfer_bytes=transfer_bytes or TRANSFER_BYTES)
    if frto_clock is not None and preset == "chihani_ns3" and reordering == "frto":
        params = {**dict(sc.reordering_params), "clock": int(frto_clock)}
        sc = dataclasses.replace(sc, reordering_params=tuple(sorted(params.items())))
    row = run_mptcp(sc).row()
    return {"goodput_bps": float(row["throughput_bps"]), "fast_retransmits": int(row["fast_retransmits"]),
            "timeouts": int(row["timeouts"])}


def agreement_table(model_summary: pd.DataFrame | None = None, *, variate_delay: bool = False,
                    presets=PRESETS, tolerance: float = TOLERANCE) -> pd.DataFrame:
    """Real model vs the old and the calibrated preset, per recorded Arabi case.

    ``model_summary``: :func:`cmtlab.papers_sim.arabi.summarise` of the recorded runs (default: of
    :func:`cmtlab.papers_sim.arabi.recorded`).  Columns: scenario, congestion, reordering,
    ``model_goodput_bps`` (+ ``_min``/``_max``), per preset ``<preset>_goodput_bps``,
    ``<preset>_over_model``, ``<preset>_fast_retransmits``, ``<preset>_timeouts``; ``within`` (the
    last preset, the calibrated one, within ``tolerance`` — F_RTO: inside the model's min–max widened
    by ``tolerance``) and ``reason`` for each miss.
    """
    from .arabi import recorded, summarise

    if not 0 < tolerance < 1:
        raise ValueError(f"tolerance must be in (0, 1), got {tolerance!r}")
    runs = recorded()
    if model_summary is None:
        model_summary = summarise(runs)
    # F_RTO: one preset run per model repetition, with that run's seed and clock
    frto_runs = runs[(runs.reordering == "frto") & (runs.variate_delay == bool(variate_delay))]
    m = model_summary[model_summary.variate_delay == bool(variate_delay)]
    if m.empty:
        raise ValueError(f"model_summary has no cases with variate_delay={variate_delay!r}")
    rows = []
    for _, c in m.iterrows():
        row = {"scenario": int(c.scenario), "congestion": c.congestion, "reordering": c.reordering,
               "model_goodput_bps": float(c.goodput_bps), "model_goodput_min_bps": float(c.goodput_min_bps),
               "model_goodput_max_bps": float(c.goodput_max_bps)}
        for p in presets:
            if c.reordering == "frto" and p == "chihani_ns3":
                reps = frto_runs[(frto_runs.scenario == c.scenario) & (frto_runs.congestion == c.congestion)]
                rs = [preset_goodput(int(c.scenario), c.congestion, "frto", p, seed=int(rr.seed),
                                     frto_clock=int(rr.frto_clock)) for rr in reps.itertuples()]
                r = {k: float(np.mean([x[k] for x in rs])) for k in ("goodput_bps", "fast_retransmits", "timeouts")}
            else:
                r = preset_goodput(int(c.scenario), c.congestion, c.reordering, p)
            row[f"{p}_goodput_bps"] = r["goodput_bps"]
            row[f"{p}_over_model"] = r["goodput_bps"] / row["model_goodput_bps"]
            row[f"{p}_fast_retransmits"] = r["fast_retransmits"]
            row[f"{p}_timeouts"] = r["timeouts"]
        g = row[f"{presets[-1]}_goodput_bps"]
        if c.reordering == "frto":
            ok = row["model_goodput_min_bps"] * (1 - tolerance) <= g <= row["model_goodput_max_bps"] * (1 + tolerance)
        else:
            ok = abs(g / row["model_goodput_bps"] - 1) <= tolerance
        row["within"] = bool(ok)
        row["reason"] = "" if ok else MISS_REASONS.get(c.reordering, "not yet traced")
        rows.append(row)
    return pd.DataFrame(rows)


def agreement_counts(table: pd.DataFrame) -> dict:
    """How many cases of :func:`agreement_table` agree, in all and per reordering algorithm."""
    return {"within": int(table.within.sum()), "cases": len(table),
            "by_reordering": {k: f"{int(g.within.sum())}/{len(g)}" for k, g in table.groupby("reordering", sort=False)}}


__all__ = ["TOLERANCE", "PRESETS", "REORDERING", "MISS_REASONS", "preset_goodput", "agreement_table",
           "agreement_counts"]
