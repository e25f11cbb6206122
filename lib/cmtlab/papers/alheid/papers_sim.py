"""Alheid, Doufexi, Kaleshi, Table I (SPEC row A1) — the "NS-3" column on the papers' own simulator.

Table I: MPTCP's throughput gain over single-path TCP on the best subflow, two disjoint subflows of
equal rate, delay difference 0 / 100 / 500 ms, D-SACK; the authors' ns-3 column says 90 / 80 / 20 %.
Here on the Chihani–Collange model (what the authors ran), with the paths of the Alheid chapter
(:mod:`cmtlab.papers.alheid.table1`: :data:`~cmtlab.papers.alheid.table1.RATE_BPS` = 10 Mbit/s each, the best path
with a round trip of :data:`~cmtlab.papers.alheid.table1.BASE_RTT_S` = 20 ms), both readings of "delay
difference" Δ (``"rtt"``: path 2's round trip is longer by Δ; ``"one_way"``: its one-way delay is).

Choices (the paper gives none): the model's coupled congestion control ``Linked_Increases`` (the
paper: "coupled CC [RFC 6356]"), D_SACK (and NoPR and PR-R beside it: PR-R is not in the published
model, it is Algorithm 1 of the paper added by ``patches/05-behaviour-pr-r.patch``), mpTopology's 10-MB transfer and
buffers (a 50-s run, the paper's length, costs minutes of CPU on this model, see
:mod:`cmtlab.papers.arabi.papers_sim`), no random loss, ``variateDelay`` off — on, it pulls every link's
delay towards 25 ms after each application write and erases the delay difference being studied.
Single-path TCP is the same model with one path (an MPTCP connection with one subflow: the model
has no separate TCP), the best path.  Gain = goodput(two paths) / goodput(one path) − 1; the same
ratio of the model's logged global throughput is given beside it.

A2–A4 on the model (Figs. 4–6, Tables III–IV): the four solutions on point-to-point paths
-----------------------------------------------------------------------------------------
The four solutions of sec. IV (:data:`SOLUTIONS`): NoPR, D-SACK, TCP-DOOR and PR-R.

* **TCP-DOOR is the model's own** ``TCP_DOOR`` (no patch).  The model's code (``IsDuplicatedAck``:
  ``case TCP_DOOR: break;``) ignores every duplicate ACK — no fast retransmit, no window
  reduction — and leaves loss recovery to the retransmission timeout; it has none of Wang and
  Zhang's out-of-order detection (ADSN/ACK-duplication options) or response (disabling congestion
  control, instant recovery).  It is not the TCP-DOOR of the literature, but it is exactly the
  TCP-DOOR Alheid et al. describe (sec. V.B): "it does not take any action when receiving the third
  DUPACK and depends on the RTO response only", and PR-R differs from it by "retransmitting loss
  packets directly after receiving the third DUPACK (unlike TCP DOOR)".  The paper's own words
  therefore identify its TCP-DOOR with the model's, and the model is run unchanged.
* **PR-R** is Algorithm 1 (``patches/05-behaviour-pr-r.patch``), **NoPR** ``NoPR_Algo``, **D-SACK**
  ``D_SACK``; the model's coupled congestion control ``Linked_Increases``; mpTopology's 10-MB
  transfers and buffers, ``variateDelay`` off (as for Table I).

What stands in for the Wi-Fi paths (the model's ns-3.7 has no 802.11g; :func:`wifi_stand_in_rate_bps`):

* a **distance** d (scenario 1, Fig. 4) becomes two equal point-to-point paths whose rate is the
  802.11g saturation throughput of one sender at d — the closed form of the book's 802.11g model
  (:func:`cmtlab.sim.net.wifi.saturation_throughput_bps`, 1400-B payloads, the Alheid chapters'
  :data:`~cmtlab.papers.alheid.experiments.WIFI_PARAMS`): the PHY rate the rate manager picks at d, the
  DCF's per-frame overhead and the MAC's retries of frames lost on the air — with one-way delay
  :data:`PATH_ONE_WAY_DELAY_S` (the backbone's 10 ms; the air adds microseconds).  Table II's PDR
  is 0 in scenario 1 and the MAC's retries hide frame errors, so the paths are lossless.  What
  the stand-in leaves out: TCP's ACKs share the air with the data on Wi-Fi (here they return on a
  separate channel), and the MAC's random back-off (here a fixed service rate); the
  stand-in is therefore an upper bound for the Wi-Fi path.
* the **PDR of subflow 2** p (scenario 2, Fig. 5; Fig. 6 at 0.5 %) becomes the model's own random
  loss on subflow 2 (``loss_rate=(0, p')``: new data segments dropped at the sender, ``rejectPacket``)
  on the 10-m paths.  The model draws ``rand() % 1013 / 1013 < threshold``, so only multiples of
  1/1013 exist: :func:`model_loss_threshold` picks the threshold whose effective rate
  ``round(1013 p) / 1013`` is nearest p (0.1 % → 0.099 %, 0.9 % → 0.888 %; the ``effective_pdr2``
  column).  Each ``loss_seed`` re-seeds ``rand()`` (one repetition of the loss pattern;
  :data:`N_LOSS_SEEDS` of them; a lossless run is deterministic and runs once).

Metrics (sec. IV.B) from the model's counters (:func:`fig_metrics`): gThroughput = goodput
(Mbit/s); OOO-BO = the receiver's largest out-of-order list (``max_ooo_segments``) × 1400 B in
Kbyte; LU = each subflow's new data sent over the run (``sf<i>_throughput_bps``) over the 54 Mbit/s
PHY rate, mean of the two subflows (the chapters' definition).  OOO-R (segments stored out of
order / segments received) is not counted by the driver: not reported.
"""

from __future__ import annotations

import pandas as pd

from ...papers_sim.model import DEFAULT_TRANSFER_BYTES as TRANSFER_BYTES  # mpTopology's 10 MB
from ...scenario import DELAY_DIFFERENCE_MEANINGS as MEANINGS
from .paper import DELTAS_MS

REORDERING = ("dsack", "none", "pr_r")
CONGESTION = "linked_increases"


def one_way_delays_s(delta_ms: float, meaning: str) -> tuple[float, float]:
    """One-way delays of the two paths for a delay difference ``delta_ms`` read as ``meaning``."""
    from .table1 import BASE_RTT_S

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
    from .table1 import BASE_RTT_S, RATE_BPS
    from ...papers_sim.model import scenario

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
    from ...sweep import run_sweep

    return run_sweep("papers-sim", list(cases), seeds=[0], workers=workers, cache=cache, progress=progress)


def gains(table: pd.DataFrame) -> pd.DataFrame:
    """Table I on the model: per reordering, reading and Δ the two-path goodput, the single-path
    goodput, the gain (%) and the same ratio for the model's global throughput; the paper's ns-3
    and Linux columns beside it (targets, never inputs)."""
    from .paper import PAPER_LINUX_GAIN_PCT, PAPER_NS3_GAIN_PCT

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


def subflow_story(table: pd.DataFrame, *, reordering: str = "dsack") -> pd.DataFrame:
    """Why the model's gains are what they are: per reading and Δ of the two-path runs of ``reordering``,
    the share of the data path 2 (the longer one) carried (%), each subflow's third-duplicate-ACK
    events (fast retransmits) and timeouts, path 2's final cwnd (segments) and the completion time (s)."""
    multi = table[(table.paths == 2) & (table.reordering == reordering)]
    rows = []
    for _, r in multi.iterrows():
        total = float(r.sf0_bytes_sent) + float(r.sf1_bytes_sent)
        rows.append({"meaning": r.meaning, "delta_ms": int(r.delta_ms),
                     "path2_share_pct": 100.0 * float(r.sf1_bytes_sent) / total if total else float("nan"),
                     "sf1_third_dupacks": int(r.sf0_three_dupack_events), "sf2_third_dupacks": int(r.sf1_three_dupack_events),
                     "sf1_timeouts": int(r.sf0_timeouts), "sf2_timeouts": int(r.sf1_timeouts),
                     "sf2_final_cwnd_segments": float(r.sf1_final_cwnd_segments),
                     "completion_time_s": float(r.completion_time_s)})
    return pd.DataFrame(rows).sort_values(["meaning", "delta_ms"]).reset_index(drop=True)


def recorded() -> pd.DataFrame:
    """The recorded runs (``data/papers-sim/alheid-table1.csv``)."""
    from ...papers_sim.record import load

    return load("alheid-table1")


# --------------------------------------------------------------------------- A2–A4 on the model

#: The paper's solutions → the model's reordering algorithms (TCP-DOOR: the model's own, see above).
SOLUTIONS = {"NoPR": "none", "D-SACK": "dsack", "TCP-DOOR": "tcp_door", "PR-R": "pr_r"}
#: One-way delay of each stand-in path (the backbone's 10 ms, sec. IV.A).
PATH_ONE_WAY_DELAY_S = 0.010
#: Transfer of every A2–A4 run (mpTopology's; a 50-s run costs minutes of CPU on this model).
FIG_TRANSFER_BYTES = TRANSFER_BYTES
#: Repetitions (``loss_seed`` 0…n−1) of every lossy run.
N_LOSS_SEEDS = 5
#: Fig. 6: PDR of subflow 2 and the sampling interval of the cwnd traces (s).
FIG6_PDR = 0.005
FIG6_SAMPLE_S = 0.02
#: The model's loss draw: ``rand() % 1013 / 1013 < threshold`` (``MpTcpSocketImpl::rejectPacket``).
LOSS_GRID = 1013


def wifi_stand_in_rate_bps(distance_m: float) -> float:
    """The rate (bit/s) of the point-to-point path standing in for an 802.11g path at ``distance_m``:
    the book's closed-form saturation throughput of one 802.11g sender (1400-B payloads,
    :data:`cmtlab.papers.alheid.experiments.WIFI_PARAMS`).  ``ValueError`` if nothing is received there."""
    import dataclasses

    from .experiments import SEGMENT_BYTES, WIFI_PARAMS
    from ...sim.net import wifi

    params = dataclasses.replace(wifi.DEFAULT_PARAMS, **WIFI_PARAMS)
    rate = wifi.saturation_throughput_bps(float(distance_m), SEGMENT_BYTES, params)
    if not rate > 0:
        raise ValueError(f"distance_m = {distance_m!r}: the 802.11g model receives nothing there (rate 0)")
    return float(rate)


def model_loss_threshold(pdr: float) -> tuple[float, float]:
    """``(threshold, effective)``: the model's loss threshold for a wanted drop rate ``pdr`` in [0, 1)
    and the rate it gives, ``round(1013 pdr) / 1013`` (the model draws ``rand() % 1013 / 1013``)."""
    if isinstance(pdr, bool) or not isinstance(pdr, (int, float)) or not 0 <= pdr < 1:
        raise ValueError(f"pdr must be a probability in [0, 1), got {pdr!r}")
    k = round(float(pdr) * LOSS_GRID)
    if k == 0:
        return 0.0, 0.0
    return (k - 0.5) / LOSS_GRID, k / LOSS_GRID


def _two_paths(rate_bps: float, solution: str, *, pdr2: float = 0.0, loss_seed=None, sample_s: float = 0.1,
               transfer_bytes: int = FIG_TRANSFER_BYTES):
    from ...papers_sim.model import scenario

    if solution not in SOLUTIONS:
        raise ValueError(f"solution must be one of {list(SOLUTIONS)}, got {solution!r}")
    thr, _ = model_loss_threshold(pdr2)
    return scenario([rate_bps, rate_bps], [PATH_ONE_WAY_DELAY_S] * 2, congestion=CONGESTION,
                    reordering=SOLUTIONS[solution], transfer_bytes=transfer_bytes, variate_delay=False,
                    loss_rate=(0.0, thr) if thr else 0.0, loss_seed=loss_seed if thr else None, sample_s=sample_s)


def _single_path(rate_bps: float, *, transfer_bytes: int = FIG_TRANSFER_BYTES):
    from ...papers_sim.model import scenario

    return scenario([rate_bps], [PATH_ONE_WAY_DELAY_S], congestion=CONGESTION, reordering="none",
                    transfer_bytes=transfer_bytes, variate_delay=False)


def fig4_cases(distances_m=None, *, solutions=tuple(SOLUTIONS), transfer_bytes: int = FIG_TRANSFER_BYTES) -> list:
    """Scenario 1 (Fig. 4, Table III) on the model: per distance (m; default the paper's 10–100 m) the
    four solutions on two stand-in paths and one single-path run (labels ``distance_m, solution,
    paths, rate_bps``)."""
    from .experiments import DISTANCES_M

    out = []
    for d in (DISTANCES_M if distances_m is None else distances_m):
        rate = wifi_stand_in_rate_bps(d)
        lab = {"distance_m": float(d), "rate_bps": rate}
        for sol in solutions:
            out.append(({**lab, "solution": sol, "paths": 2},
                        _two_paths(rate, sol, transfer_bytes=transfer_bytes)))
        out.append(({**lab, "solution": "single TCP", "paths": 1}, _single_path(rate, transfer_bytes=transfer_bytes)))
    return out


def fig5_cases(pdrs=None, *, n_loss_seeds: int = N_LOSS_SEEDS, solutions=tuple(SOLUTIONS),
               transfer_bytes: int = FIG_TRANSFER_BYTES) -> list:
    """Scenario 2 (Fig. 5, Table IV) on the model: per PDR of subflow 2 (fraction; default the paper's
    0–0.9 %) the four solutions on the 10-m stand-in paths, ``n_loss_seeds`` repetitions of every
    lossy run (one of a lossless one), and one single-path run on the lossless path (labels
    ``pdr2, effective_pdr2, loss_seed, solution, paths, rate_bps``)."""
    from ..._validate import check_int
    from .experiments import PDRS, SCENARIO2_DISTANCE_M

    n = check_int("n_loss_seeds", n_loss_seeds, minimum=1, maximum=1000)
    rate = wifi_stand_in_rate_bps(SCENARIO2_DISTANCE_M)
    out = []
    for p in (PDRS if pdrs is None else pdrs):
        _, eff = model_loss_threshold(p)
        seeds = range(n) if eff > 0 else (0,)
        for sol in solutions:
            for ls in seeds:
                out.append(({"pdr2": float(p), "effective_pdr2": eff, "loss_seed": ls, "solution": sol, "paths": 2,
                             "rate_bps": rate}, _two_paths(rate, sol, pdr2=p, loss_seed=ls,
                                                           transfer_bytes=transfer_bytes)))
    out.append(({"pdr2": 0.0, "effective_pdr2": 0.0, "loss_seed": 0, "solution": "single TCP", "paths": 1,
                 "rate_bps": rate}, _single_path(rate, transfer_bytes=transfer_bytes)))
    return out


def fig6_cases(*, pdr2: float = FIG6_PDR, loss_seed: int = 0, solutions=tuple(SOLUTIONS),
               transfer_bytes: int = FIG_TRANSFER_BYTES) -> list:
    """Fig. 6 on the model: one run per solution at PDR ``pdr2`` on subflow 2 (10-m paths), cwnd
    sampled every :data:`FIG6_SAMPLE_S` s."""
    from .experiments import SCENARIO2_DISTANCE_M

    rate = wifi_stand_in_rate_bps(SCENARIO2_DISTANCE_M)
    _, eff = model_loss_threshold(pdr2)
    return [({"pdr2": float(pdr2), "effective_pdr2": eff, "loss_seed": loss_seed, "solution": sol},
             _two_paths(rate, sol, pdr2=pdr2, loss_seed=loss_seed, sample_s=FIG6_SAMPLE_S,
                        transfer_bytes=transfer_bytes)) for sol in solutions]


def run_fig6(cases, *, workers=None, cache=True, progress=True) -> pd.DataFrame:
    """The cwnd traces of :func:`fig6_cases`: one row per sample and subflow (``solution, time_s``
    from the first data segment, ``subflow`` 1/2, ``cwnd_segments``) with the run's ``seed`` and
    ``scenario_key`` (not cached: four runs of seconds)."""
    from ...papers_sim.model import run

    frames = []
    for lab, sc in cases:
        samples = run(sc).samples
        for i in range(sc.n_subflows):
            col = f"sf{i}_cwnd_segments"
            if col not in samples:
                continue
            f = samples[["time_s", col]].rename(columns={col: "cwnd_segments"}).dropna()
            f = f[f.time_s >= 0]
            frames.append(f.assign(**lab, subflow=i + 1, seed=sc.seed, scenario_key=sc.key()))
    cols = list(cases[0][0]) + ["subflow", "time_s", "cwnd_segments", "seed", "scenario_key"] if cases else []
    return pd.concat(frames, ignore_index=True)[cols] if frames else pd.DataFrame(columns=cols)


def fig_metrics(table: pd.DataFrame) -> pd.DataFrame:
    """The paper's metrics (sec. IV.B) of model rows: ``gthroughput_mbps``, ``ooo_bo_kbyte``
    (largest out-of-order list × 1400 B), ``lu_pct`` (mean over the subflows of new data sent / 54 Mbit/s)."""
    from .experiments import PHY_RATE_BPS
    from ...papers_sim.model import MSS_BYTES

    df = table.copy()
    df["gthroughput_mbps"] = df["throughput_bps"] / 1e6
    df["ooo_bo_kbyte"] = df["max_ooo_segments"] * MSS_BYTES / 1000
    n = df["n_subflows"].astype(int)
    lu = sum(df.get(f"sf{i}_throughput_bps", pd.Series(0.0, index=df.index)).fillna(0.0) for i in range(int(n.max())))
    df["lu_pct"] = lu / n / PHY_RATE_BPS * 100
    return df


def fig_summary(table: pd.DataFrame, x: str) -> pd.DataFrame:
    """Mean and 95 % Student-t half-width over the loss seeds of :func:`fig_metrics` per (``x``, solution)
    (``n_seeds`` = repetitions; a deterministic point has one and no interval) — the layout of
    :func:`cmtlab.papers.alheid.experiments.summarise`."""
    from .experiments import summarise

    return summarise(fig_metrics(table), [x, "solution"], metrics=("gthroughput_mbps", "ooo_bo_kbyte", "lu_pct"))


def recorded_fig(name: str) -> pd.DataFrame:
    """A recorded A2–A4 set: ``"fig4"``, ``"fig5"`` or ``"fig6-cwnd"`` (``data/papers-sim/alheid-<name>.csv``)."""
    from ...papers_sim.record import load

    names = ("fig4", "fig5", "fig6-cwnd")
    if name not in names:
        raise ValueError(f"name must be one of {names}, got {name!r}")
    return load(f"alheid-{name}")


def _record_set(which: str):
    def make():
        if which == "table1":
            return build_cases(), {}, run_cases
        if which == "fig6-cwnd":
            return fig6_cases(), {}, run_fig6
        return {"fig4": fig4_cases, "fig5": fig5_cases}[which](), {}, run_cases
    return make


#: What :func:`cmtlab.papers_sim.record.record_all` records of this paper (``python -m cmtlab.papers
#: record-papers-sim``): set name → function returning ``(cases, run keyword arguments, runner)``.
RECORD_SETS = {"alheid-table1": _record_set("table1"), "alheid-fig4": _record_set("fig4"),
               "alheid-fig5": _record_set("fig5"), "alheid-fig6-cwnd": _record_set("fig6-cwnd")}


# --------------------------------------------------------------------------- the papers' model over Wi-Fi
#: Alheid's sets recorded on the papers' model over ns-3.7's Wi-Fi (branch papers-sim-wifi,
#: :mod:`cmtlab.papers_sim.wifi_record`): set → plan name.
WIFI_SETS = {"fig4": "alheid-fig4", "fig5": "alheid-fig5", "fig6-cwnd": "alheid-fig6-cwnd"}


def wifi_available(name: str) -> bool:
    """Whether the papers' model over Wi-Fi has recorded ``name`` (``"fig4"``, ``"fig5"``, ``"fig6-cwnd"``): its
    plan is in ``data/papers-sim/wifi/provenance.json``.  Not recorded (no provenance yet) → False."""
    if name not in WIFI_SETS:
        raise ValueError(f"name must be one of {sorted(WIFI_SETS)}, got {name!r}")
    from ...papers_sim import wifi_record as wr

    if not wr.PROVENANCE.is_file():
        return False
    return WIFI_SETS[name] in wr.provenance().get("sets", {})


def wifi_recorded(name: str) -> pd.DataFrame | None:
    """The recorded rows of ``name`` on the papers' model over Wi-Fi, checked against their SHA-256
    (:func:`cmtlab.papers_sim.wifi_record.load`: a changed file is an error), or None where not recorded yet."""
    if not wifi_available(name):
        return None
    from ...papers_sim import wifi_record as wr

    return wr.load(WIFI_SETS[name])


def wifi_metrics(table: pd.DataFrame) -> pd.DataFrame:
    """The paper's metrics (sec. IV.B) of Wi-Fi rows: those of :func:`fig_metrics` and OOO-R, which the receiver's
    counters of the Wi-Fi runs give (patch 08: ``ooo_ratio`` = segments stored out of order / new segments):
    ``ooo_r_pct`` = 100 × ``ooo_ratio``."""
    df = fig_metrics(table)
    df["ooo_r_pct"] = 100 * df["ooo_ratio"].astype(float)
    return df


def wifi_summary(runs: pd.DataFrame, x: str, *, single_tcp: pd.DataFrame | None = None) -> pd.DataFrame:
    """Mean and 95 % Student-t half-width over the seeds of :func:`wifi_metrics` per (``x``, solution), the layout of
    :func:`cmtlab.papers.alheid.experiments.summarise` (``n_seeds`` = the recorded seeds).  ``single_tcp``: rows of
    rows to add at ``x`` = 0 (scenario 2 records no PDR 0 of its own: scenario 1's 10-m rows, the same scenario, and
    its single-path TCP)."""
    from .experiments import summarise

    if single_tcp is None:
        df = runs
    else:   # the lossless rows first (x = 0 leads the summary); copied whole, not column by column (no fragmented frame)
        lossless = single_tcp.copy()
        lossless[x] = 0.0
        df = pd.concat([lossless[runs.columns.intersection(lossless.columns, sort=False)], runs], ignore_index=True)
    return summarise(wifi_metrics(df), [x, "solution"], metrics=("gthroughput_mbps", "ooo_bo_kbyte", "ooo_r_pct",
                                                                  "lu_pct"))


__all__ = ["TRANSFER_BYTES", "DELTAS_MS", "MEANINGS", "REORDERING", "CONGESTION", "one_way_delays_s", "build_cases",
           "run_cases", "gains", "subflow_story", "recorded", "SOLUTIONS", "PATH_ONE_WAY_DELAY_S", "FIG_TRANSFER_BYTES", "N_LOSS_SEEDS",
           "FIG6_PDR", "FIG6_SAMPLE_S", "LOSS_GRID", "wifi_stand_in_rate_bps", "model_loss_threshold", "fig4_cases",
           "fig5_cases", "fig6_cases", "run_fig6", "fig_metrics", "fig_summary", "recorded_fig", "RECORD_SETS",
           "WIFI_SETS", "wifi_available", "wifi_recorded", "wifi_metrics", "wifi_summary"]
