"""Alheid, Doufexi, Kaleshi, Table I (SPEC row A1) — the "NS-3" column on the papers' own simulator.

Table I: MPTCP's throughput gain over single-path TCP on the best subflow, two disjoint subflows of
equal rate, delay difference 0 / 100 / 500 ms, D-SACK; the authors' ns-3 column says 90 / 80 / 20 %.
Here on the Chihani–Collange model (what the authors ran), with the paths of the Alheid chapter
(:mod:`cmtlab.alheid.table1`: :data:`~cmtlab.alheid.table1.RATE_BPS` = 10 Mbit/s each, the best path
with a round trip of :data:`~cmtlab.alheid.table1.BASE_RTT_S` = 20 ms), both readings of "delay
difference" Δ (``"rtt"``: path 2's round trip is longer by Δ; ``"one_way"``: its one-way delay is).

Choices (the paper gives none): the model's coupled congestion control ``Linked_Increases`` (the
paper: "coupled CC [RFC 6356]"), D_SACK (and NoPR and PR-R beside it: PR-R is not in the published
model, it is Algorithm 1 of the paper added by ``patches/05-behaviour-pr-r.patch``), mpTopology's 10-MB transfer and
buffers (a 50-s run, the paper's length, costs minutes of CPU on this model, see
:mod:`cmtlab.papers_sim.arabi`), no random loss, ``variateDelay`` off — on, it pulls every link's
delay towards 25 ms after each application write and erases the delay difference being studied.
Single-path TCP is the same model with one path (an MPTCP connection with one subflow: the model
has no separate TCP), the best path.  Gain = goodput(two paths) / goodput(one path) − 1; the same
ratio of the model's logged global throughput is given beside it.
"""

from __future__ import annotations

import pandas as pd

TRANSFER_BYTES = 10_000_000
DELTAS_MS = (0, 100, 500)
MEANINGS = ("rtt", "one_way")
REORDERING = ("dsack", "none", "pr_r")
CONGESTION = "linked_increases"


def one_way_delays_s(delta_ms: float, meaning: str) -> tuple[float, float]:
    """One-way delays of the two paths for a delay difference ``delta_ms`` read as ``meaning``."""
    from ..alheid.table1 import BASE_RTT_S

    if meaning not in MEANINGS:
        raise ValueError(f"meaning must be one of {MEANINGS}, got {meaning!r}")
    if not delta_ms >= 0:
        raise ValueError(f"delta_ms must be >= 0, got {delta_ms!r}")
    base = BASE_RTT_S / 2.0
    extra = delta_ms / 1000.0 / (2.0 if meaning == "rtt" else 1.0)
    return (base, base + extra)


def build_cases(*, deltas_ms=DELTAS_MS, meanings=MEANINGS, reordering=REORDERING,
                transfer_bytes: int = TRANSFER_BYTES) -> list[tuple[dict, object]]:
    """The multipath runs (``paths=2``) and the single-path baselines (``paths=1``, best path)."""
    from ..alheid.table1 import BASE_RTT_S, RATE_BPS
    from .model import scenario

    out = []
    for ro in reordering:
        out.append(({"paths": 1, "delta_ms": 0, "meaning": "single-path", "reordering": ro},
                    scenario([RATE_BPS], [BASE_RTT_S / 2.0], congestion=CONGESTION, reordering=ro,
                             transfer_bytes=transfer_bytes, variate_delay=False)))
        for meaning in meanings:
            for d in deltas_ms:
                if d == 0 and meaning != meanings[0]:
                    continue  # Δ = 0 is the same run under both readings
                out.append(({"paths": 2, "delta_ms": d, "meaning": meaning if d else "both", "reordering": ro},
                            scenario([RATE_BPS, RATE_BPS], list(one_way_delays_s(d, meaning)), congestion=CONGESTION,
                                     reordering=ro, transfer_bytes=transfer_bytes, variate_delay=False)))
    return out


def run_cases(cases, *, workers=None, cache=True, progress=True) -> pd.DataFrame:
    from ..sweep import run_sweep

    return run_sweep("papers-sim", list(cases), seeds=[0], workers=workers, cache=cache, progress=progress)


def gains(table: pd.DataFrame) -> pd.DataFrame:
    """Table I on the model: per reordering, reading and Δ the two-path goodput, the single-path
    goodput, the gain (%) and the same ratio for the model's global throughput; the paper's ns-3
    and Linux columns beside it (targets, never inputs)."""
    from ..alheid.table1 import PAPER_LINUX_GAIN_PCT, PAPER_NS3_GAIN_PCT

    rows = []
    for ro, g in table.groupby("reordering", sort=False):
        single = g[g.paths == 1]
        if single.empty:
            raise ValueError(f"no single-path run for reordering={ro!r}")
        s_good = float(single.throughput_bps.iloc[0])
        s_glob = float(single.model_global_throughput_bps.iloc[0])
        multi = g[g.paths == 2]
        for meaning in MEANINGS:
            for _, r in multi.iterrows():
                if r.meaning not in (meaning, "both"):
                    continue
                d = int(r.delta_ms)
                rows.append({"reordering": ro, "meaning": meaning, "delta_ms": d,
                             "goodput_bps": float(r.throughput_bps), "single_path_goodput_bps": s_good,
                             "gain_pct": 100.0 * (float(r.throughput_bps) / s_good - 1.0),
                             "global_throughput_gain_pct": 100.0 * (float(r.model_global_throughput_bps) / s_glob - 1.0),
                             "paper_ns3_gain_pct": PAPER_NS3_GAIN_PCT.get(d), "paper_linux_gain_pct":
                                 PAPER_LINUX_GAIN_PCT.get(d),
                             "fast_retransmits": int(r.fast_retransmits), "timeouts": int(r.timeouts)})
    return pd.DataFrame(rows).sort_values(["reordering", "meaning", "delta_ms"]).reset_index(drop=True)


def recorded() -> pd.DataFrame:
    """The recorded runs (``data/papers-sim/alheid-table1.csv``)."""
    from .record import load

    return load("alheid-table1")


__all__ = ["TRANSFER_BYTES", "DELTAS_MS", "MEANINGS", "REORDERING", "CONGESTION", "one_way_delays_s", "build_cases",
           "run_cases", "gains", "recorded"]
