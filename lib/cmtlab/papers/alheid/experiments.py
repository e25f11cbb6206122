"""Alheid, Doufexi, Kaleshi (ICT 2016) — the simulations of sec. IV–V (SPEC rows A2–A4): scenarios, runs, tables.

Topology (Fig. 3, sec. IV.A): a server behind a 100 Mbit/s, 10 ms backbone; two 802.11g access
points (54 Mbit/s PHY); the mobile node at ``distance_m`` from both.  Here: one MPTCP connection
with two subflows, each path = the shared backbone (both directions, ``backbone_delay_s`` = 10 ms)
+ its own :class:`cmtlab.sim.net.wifi.WifiMedium` (``links=("wifi80211g", ...)``, data and TCP ACKs
contend for the medium).  1400 B segments, coupled congestion control (LIA, RFC 6356), a 10 MB
out-of-order (receive) buffer, 50 s runs (:data:`DURATION_S`), seeds 0…n-1.

* **A2, Fig. 4 + Table III** (:func:`fig4_cases`): gThroughput against the distance 10–100 m at
  PDR 0 for the four solutions; OOO-BO, OOO-R and LU at 50 and 70 m;
* **A3, Fig. 5 + Table IV** (:func:`fig5_cases`): gThroughput against the PDR of subflow 2,
  0–0.9 %, at 10 m; the metrics at 0.1 and 0.9 %;
* **A4, Fig. 6** (:func:`fig6_traces`, :func:`fig6_runs`): the cwnd of both subflows over time at PDR 0.5 %;
* PR-R's ``ssthresh`` rule, Algorithm 1 against ``ssthresh = cwnd`` (:func:`prr_rule_cases`).

The chapters' tables and paper-vs-reproduction comparisons are in :mod:`cmtlab.papers.alheid.comparison`.

The four solutions (:data:`SOLUTIONS`) and the receiver/sender semantics (:data:`PRESETS`)
------------------------------------------------------------------------------------------
``NoPR`` (reordering ``"none"``), ``D-SACK`` (``"dsack"``), ``TCP-DOOR`` (``"tcp-door"``) and
``PR-R`` (``"pr-r"``, Algorithm 1) of :mod:`cmtlab.sim.mechanisms.reordering`.  A *preset* fixes what
the paper leaves to its simulator:

* ``"paper"`` (the book's default for the paper's figures) — the receiver of the paper's
  Fig. 1 and sec. II.B: a segment in order on its subflow but ahead in the data sequence is
  answered at once with a duplicate ACK (``dupack_mode="paper"``); the Chihani–Collange
  model's LIA (``variant="chihani"``: per-ACK increase ``α/total`` without the cap) and its
  D-SACK and TCP-DOOR (``variant="chihani"``; TCP-DOOR ignores duplicate ACKs, which is how sec.
  V describes it: "it does not take any action when receiving the third DUPACK and depends on
  the RTO response only").  Why ``"paper"`` and not the public code's ``"chihani"`` receiver
  (which sends *no* ACK for such a segment): the paper's own text says DUPACK, and only with
  duplicate ACKs from data-level reordering can PR-R (which changes nothing but the reaction to
  the third duplicate ACK) differ from NoPR on loss-free links, as Fig. 4 and Table III show.
  Alheid's own TCP-DOOR and PR-R code is not public.
* ``"chihani"`` — the same with the public Chihani–Collange receiver (no ACK until the
  data-level gap closes);
* ``"rfc"`` — RFC behaviour: subflow receivers acknowledge by subflow sequence only (RFC 8684),
  LIA as RFC 6356 (byte counting, capped), D-SACK as RFC 2883/3708, TCP-DOOR as Wang & Zhang.
* ``"chihani_ns3"`` — the papers' own simulator as built and run over Wi-Fi (:mod:`cmtlab.papers_sim.wifi`,
  the Chihani–Collange model on ns-3.7): the mechanisms of Arabi's calibrated preset of the same name
  (:mod:`cmtlab.validation.papers_sim`: the model's receiver ``dupack_mode="chihani_ns3"`` and its packet
  sizes, its sender without recovery state ``recovery="chihani_ns3"`` with ns-3.7's RTO, its round robin,
  its D_SACK), no SACK outside D-SACK, and PR-R as the model's patch 05 runs it (NoPR without the window
  reduction at the third duplicate ACK), and the stand-in's rate choice over the same 802.11g model
  (:data:`MODEL_WIFI_PARAMS`).  Not a reading of the paper but the reference the Wi-Fi agreement
  of :func:`cmtlab.validation.papers_sim_wifi.wifi_agreement_table` checks; its only loss response is the model's
  (``recovery="chihani_ns3"``, which it requires).

TCP details common to all (:func:`tcp_options`): no SACK (the model has none) except for
``D-SACK``, which needs it (RFC 2883 reports ride on SACK; a SACK sender does not count a
duplicate ACK without new SACK information, RFC 6675 sec. 2, so with the ``"paper"`` receiver
D-SACK's subflows never fast-retransmit on data-level reordering — see the chapters); no
timestamps; minimum RTO 0.2 s (the model's); an ACK for every segment (``m_ack=1``); initial
window one segment and initial ssthresh 65535 B (the model's); send and receive buffers of
10 MB (the model has no flow control; the paper's 10 MB out-of-order buffer is the connection's
``receive_buffer_bytes``, and also every subflow's advertised window, as in RFC 8684 sec. 3.3.4
where the receive window is the connection's — before this was set, each subflow advertised the
engine's default 131072 B, which held gThroughput about 10 % lower).

Metrics (sec. IV.B)
-------------------
* gThroughput — application bytes delivered in order per second (``gthroughput_bps``);
* OOO-R — segments stored in the out-of-order buffer / non-duplicate segments received
  (``ooo_r``);
* OOO-BO — "the maximum number of packets stored in the OOO buffer", given in Kbyte in Tables
  III–IV: the largest occupancy (``max_ooo_buffer_bytes`` / 1000);
* LU — "the throughput of the SF over its physical data rate": each subflow's goodput (segments
  it delivered to the connection, retransmitted duplicates not counted) over 54 Mbit/s, the
  mean of the two subflows (:data:`PHY_RATE_BPS`; the engine's ``sf<i>_link_utilisation``
  counts every packet on the air, duplicates included).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..._validate import check_choice, check_int, check_positive
from ...report.style import series_style
from ...stats import half_width
from .paper import (BACKBONE_BPS, BACKBONE_DELAY_S, DISTANCES_M, DURATION_S, OOO_BUFFER_BYTES, PDRS, PHY_RATE_BPS,
                    SCENARIO2_DISTANCE_M, SEGMENT_BYTES)

#: The AP's and the station's MAC queue (packets): ns-3.44's ``WifiMacQueue`` (the paper does not say).
QUEUE_PACKETS = 500
#: Wi-Fi model settings: no preamble-detection threshold (the ns-3 of 2016 had none, and the
#: paper reports results out to 100 m; with ns-3.44's threshold nothing is received beyond 51 m).
WIFI_PARAMS = {"preamble_min_rssi_dbm": None}
#: The ``chihani_ns3`` preset's Wi-Fi rate choice, that of the papers' simulator's stand-in (ns-3.7's
#: ``IdealWifiManager``, :mod:`cmtlab.papers_sim.wifi`): its ``BerThreshold`` of 1e-5 and no rescaling of the
#: reported SNR (ns-3.44's 22/20 channel-width quirk, :class:`cmtlab.sim.net.wifi_phy.WifiParams`, came later).
#: With them the book's 802.11g model picks the stand-in's rate at every distance of Fig. 4 (54 Mbit/s at
#: 10-20 m, 48 at 30, 36 at 40, 24 at 50, 18 at 60-70, 12 at 80-90, 9 at 100 m; ns-3.44's defaults: 6 at 100 m).
MODEL_WIFI_PARAMS = {"ber_threshold": 1e-5, "ideal_snr_scale": 1.0}

#: Solution label → reordering response name.
SOLUTIONS = {"NoPR": "none", "D-SACK": "dsack", "TCP-DOOR": "tcp-door", "PR-R": "pr-r"}
SOLUTION_ORDER = tuple(SOLUTIONS)
#: One colour per solution, the book's (:func:`cmtlab.report.style.series_style`: D-SACK as in Arabi).
COLOURS = {**{sol: series_style(sol)["color"] for sol in ("NoPR", "D-SACK", "TCP-DOOR", "PR-R")},
           "single TCP": "#000000"}

#: Loss responses a run may use (``scenario(recovery=...)``): ``"newreno"`` (the default, RFC 6582 fast
#: recovery), ``"chihani"`` (the Chihani–Collange model's halving without window inflation) or
#: ``"chihani_ns3"`` (the built model's sender, :class:`cmtlab.sim.models.chihani.ChihaniNs3Recovery`: the
#: ``chihani_ns3`` preset's, and only its).
RECOVERY_CHOICES = ("newreno", "chihani", "chihani_ns3")
#: The preset that is the built model (its recovery is :data:`RECOVERY_CHOICES`' ``"chihani_ns3"``).
MODEL_PRESET = "chihani_ns3"

#: Preset → (dupack_mode, congestion variant, reordering variants by response).
PRESETS = {
    "paper": ("paper", "chihani", {"dsack": "chihani", "tcp-door": "chihani"}),
    "chihani": ("chihani", "chihani", {"dsack": "chihani", "tcp-door": "chihani"}),
    "rfc": ("rfc", "spec", {"dsack": "rfc", "tcp-door": "paper"}),
    MODEL_PRESET: ("chihani_ns3", "chihani", {"dsack": "chihani_ns3", "tcp-door": "chihani"}),
}


def tcp_options(solution: str, recovery: str = "newreno") -> dict:
    """The TCP option fields of a run (see the module docstring).

    ``recovery`` is the sender's loss response (:data:`RECOVERY_CHOICES`): ``"newreno"`` (the
    default: NewReno fast recovery with partial ACKs, RFC 6582) or ``"chihani"`` (the
    Chihani–Collange model's: halve the window, no inflation, :class:`cmtlab.sim.models.chihani.ChihaniRecovery`).
    """
    check_choice("solution", solution, SOLUTION_ORDER)
    check_choice("recovery", recovery, RECOVERY_CHOICES)
    return dict(sack=SOLUTIONS[solution] == "dsack", timestamps=False, min_rto_s=0.2, initial_rto_s=1.0,
                send_buffer_bytes=OOO_BUFFER_BYTES, receive_buffer_bytes=OOO_BUFFER_BYTES, recovery=recovery)


def wifi_link(distance_m: float, pdr: float = 0.0, *, preset: str = "paper") -> tuple:
    """The ``links`` entry of one path: ``("wifi80211g", params)`` (``preset`` ``"chihani_ns3"``: with
    :data:`MODEL_WIFI_PARAMS`, the papers' simulator's rate choice)."""
    check_positive("distance_m", distance_m)
    check_choice("preset", preset, tuple(PRESETS))
    if not 0 <= pdr < 1:
        raise ValueError(f"pdr must be a probability in [0, 1), got {pdr!r}")
    params = dict(WIFI_PARAMS, **(MODEL_WIFI_PARAMS if preset == MODEL_PRESET else {}), distance_m=float(distance_m))
    if pdr:
        params["pdr"] = float(pdr)
    return ("wifi80211g", params)


def scenario(solution: str, *, distance_m: float = SCENARIO2_DISTANCE_M, pdr2: float = 0.0, preset: str = "paper",
             scheduler: str = "round_robin", congestion: str = "lia", duration_s: float = DURATION_S, seed: int = 0,
             n_paths: int = 2, prr_ssthresh: str = "keep", recovery: str = "newreno"):
    """One run: ``n_paths`` Wi-Fi paths at ``distance_m`` (PDR ``pdr2`` on path 2) behind the backbone.

    ``n_paths=1`` is the single-path TCP reference (NewReno on one subflow; ``congestion`` and
    ``scheduler`` are then irrelevant).  ``congestion="olia"`` has no Chihani variant: it runs as
    its paper defines it under every preset.  ``prr_ssthresh`` is PR-R's rule for ``ssthresh`` at a
    fast retransmit (:class:`cmtlab.sim.mechanisms.reordering.PacketReorderingResponse`): ``"keep"``
    (Algorithm 1, the default) or ``"cwnd"`` (the book's first implementation).  ``recovery`` is the
    sender's loss response (:data:`RECOVERY_CHOICES`, :func:`tcp_options`): ``"newreno"`` (default) or
    ``"chihani"``; it applies to the single-path reference too.  The ``"chihani_ns3"`` preset is the
    built model and requires ``recovery="chihani_ns3"`` (the model's sender; no other preset takes it).
    """
    from ...scenario import TcpOptions
    from ...sim.multipath import mptcp_scenario

    check_choice("preset", preset, tuple(PRESETS))
    check_choice("solution", solution, SOLUTION_ORDER)
    check_choice("recovery", recovery, RECOVERY_CHOICES)
    if (preset == MODEL_PRESET) != (recovery == "chihani_ns3"):
        raise ValueError(f"recovery 'chihani_ns3' goes with preset {MODEL_PRESET!r} and only with it (the built "
                         f"model's sender), got preset={preset!r}, recovery={recovery!r}")
    n = check_int("n_paths", n_paths, minimum=1, maximum=2)
    dupack_mode, cc_variant, ro_variants = PRESETS[preset]
    ro = SOLUTIONS[solution]
    ro_params = {"variant": ro_variants[ro]} if ro in ro_variants else {}
    if ro == "pr-r":
        from ...sim.mechanisms.reordering.pr_r import SSTHRESH_RULES

        check_choice("prr_ssthresh", prr_ssthresh, SSTHRESH_RULES)
        if prr_ssthresh != SSTHRESH_RULES[0]:
            ro_params["ssthresh"] = prr_ssthresh
    if n == 1:
        cc, cc_params = "newreno", {}
    else:
        cc = congestion
        cc_params = {"variant": cc_variant} if congestion in ("lia", "fully_coupled", "rtt_compensation") else {}
    links = ([wifi_link(distance_m, 0.0, preset=preset), wifi_link(distance_m, pdr2, preset=preset)] if n == 2
             else [wifi_link(distance_m, 0.0, preset=preset)])
    sched_params = {"variant": "chihani_ns3"} if preset == MODEL_PRESET and scheduler == "round_robin" and n == 2 else None
    return mptcp_scenario([PHY_RATE_BPS] * n, [0.0] * n, duration_s=float(duration_s), congestion=cc,
                          congestion_params=cc_params, scheduler=scheduler, scheduler_params=sched_params,
                          reordering=ro, reordering_params=ro_params,
                          dupack_mode=dupack_mode, receive_buffer_bytes=OOO_BUFFER_BYTES, segment_bytes=SEGMENT_BYTES,
                          initial_window_bytes=SEGMENT_BYTES, ssthresh_bytes=65535, m_ack=1,
                          queue_packets=QUEUE_PACKETS, links=links, backbone_bps=BACKBONE_BPS,
                          backbone_delay_s=BACKBONE_DELAY_S, seed=int(seed), options=TcpOptions(**tcp_options(solution, recovery)))


def _cases(points, key: str, *, solutions=SOLUTION_ORDER, presets=("paper",), schedulers=("round_robin",),
           congestions=("lia",), duration_s=DURATION_S, single_tcp=False, recovery: str = "newreno", **fixed):
    check_choice("recovery", recovery, RECOVERY_CHOICES)
    fixed["recovery"] = recovery
    out = []
    for preset in presets:
        for sched in schedulers:
            for cc in congestions:
                for x in points:
                    for sol in solutions:
                        kw = dict(fixed, **{key: x})
                        labels = {key: x, "solution": sol, "preset": preset, "sched": sched, "cc": cc, "paths": 2,
                                  "recovery": recovery}
                        out.append((labels, scenario(sol, preset=preset, scheduler=sched, congestion=cc,
                                                     duration_s=duration_s, **kw)))
    if single_tcp:
        for x in points:
            kw = dict(fixed, **{key: x})
            if key == "pdr2":   # one TCP over the lossless path 1 (the paper's "single TCP over one link")
                kw["pdr2"] = 0.0
            out.append(({key: x, "solution": "single TCP", "preset": presets[0], "sched": "-", "cc": "newreno",
                         "paths": 1, "recovery": recovery},
                        scenario("NoPR", preset=presets[0], duration_s=duration_s, n_paths=1, **kw)))
    return out


def fig4_cases(distances_m=DISTANCES_M, **kw) -> list:
    """Scenario 1 (Fig. 4, Table III): ``(labels, scenario)`` for every distance × solution (PDR 0).

    Keywords go to :func:`scenario` through the case builder: ``presets``, ``schedulers``, ``congestions``,
    ``solutions``, ``duration_s``, ``single_tcp``, ``prr_ssthresh`` and ``recovery`` (the sender's loss
    response, :data:`RECOVERY_CHOICES`; every label carries it in a ``recovery`` column).
    """
    return _cases([float(d) for d in distances_m], "distance_m", **kw)


def fig5_cases(pdrs=PDRS, *, distance_m: float = SCENARIO2_DISTANCE_M, **kw) -> list:
    """Scenario 2 (Fig. 5, Table IV): every PDR of subflow 2 × solution at ``distance_m`` (keywords as :func:`fig4_cases`)."""
    return _cases([float(p) for p in pdrs], "pdr2", distance_m=distance_m, **kw)


def prr_rule_cases(points, *, cases=fig4_cases, rules=("keep", "cwnd"), **kw) -> list:
    """PR-R alone under each of its ``ssthresh`` rules at a fast retransmit, at every point of ``points``.

    ``rules`` are those of :data:`cmtlab.sim.mechanisms.reordering.pr_r.SSTHRESH_RULES`: ``"keep"`` (Algorithm 1
    of sec. III: a fast retransmit reduces neither cwnd nor ssthresh) and ``"cwnd"`` (the book's first
    implementation, ``ssthresh = cwnd``).  ``cases`` is :func:`fig4_cases` (points: distances, m) or
    :func:`fig5_cases` (points: PDRs of subflow 2, fractions); ``kw`` goes to it.  Each label gets a
    ``prr_ssthresh`` column.
    """
    from ...sim.mechanisms.reordering.pr_r import SSTHRESH_RULES

    out = []
    for r in rules:
        check_choice("rules", r, SSTHRESH_RULES)
        for lab, sc in cases(points, solutions=("PR-R",), prr_ssthresh=r, **kw):
            out.append((dict(lab, prr_ssthresh=r), sc))
    return out


def run(cases, *, seeds, workers=None, progress=True) -> pd.DataFrame:
    """Run ``cases`` × ``seeds`` through :func:`cmtlab.sweep.run_sweep` (result cache, process pool over the cores):
    every seed simulated here, none read from the repository.

    Adds the paper's metrics in its units: ``gthroughput_mbps``, ``ooo_r_pct``, ``ooo_bo_kbyte``,
    ``lu_pct`` (mean over the subflows of goodput / 54 Mbit/s), ``lu_air_pct`` (every packet on
    the air) and ``sf<i>_lu_pct``.
    """
    from ...sweep import run_sweep

    df = run_sweep("cmtlab", cases, seeds=list(seeds), workers=workers, progress=progress)
    out = add_metrics(df)
    out.attrs.update(df.attrs)
    return out


def add_metrics(df: pd.DataFrame) -> pd.DataFrame:
    df = df.copy()
    df["gthroughput_mbps"] = df["gthroughput_bps"] / 1e6
    df["ooo_r_pct"] = df["ooo_r"] * 100
    df["ooo_bo_kbyte"] = df["max_ooo_buffer_bytes"] / 1000
    df["ooo_bo_mean_kbyte"] = df["ooo_bo_bytes"] / 1000
    n = df["n_subflows"].fillna(1).astype(int)
    lu = np.zeros(len(df))
    air = np.zeros(len(df))
    for i in range(int(n.max())):
        g = df.get(f"sf{i}_goodput_bps")
        if g is None:
            continue
        df[f"sf{i}_lu_pct"] = g / PHY_RATE_BPS * 100
        lu += np.nan_to_num(g.to_numpy() / PHY_RATE_BPS * 100)
        air += np.nan_to_num(df[f"sf{i}_link_utilisation"].to_numpy() * 100)
    df["lu_pct"] = lu / n.to_numpy()
    df["lu_air_pct"] = air / n.to_numpy()
    df["spurious_share_pct"] = df["spurious_retransmissions"] / df["data_segments_sent"].clip(lower=1) * 100
    return df


def summarise(df: pd.DataFrame, by, metrics=("gthroughput_mbps", "ooo_bo_kbyte", "ooo_r_pct", "lu_pct")) -> pd.DataFrame:
    """Mean and 95 % confidence half-width (Student t over seeds) of ``metrics`` per group ``by``."""
    by = [by] if isinstance(by, str) else list(by)
    g = df.groupby(by, sort=False)
    out = g[list(metrics)].mean()
    n = g.size()
    for m in metrics:
        sd = g[m].std(ddof=1)
        out[f"{m}_ci95"] = half_width(sd, n)
    out["n_seeds"] = n
    return out.reset_index()


def improvement_pct(summary: pd.DataFrame, x: str, *, metric: str = "gthroughput_mbps", base: str = "NoPR"):
    """Per ``x``: 100 × (solution / NoPR − 1) of ``metric`` (a wide frame, one column per solution)."""
    wide = summary.pivot_table(index=x, columns="solution", values=metric, sort=False)
    return (wide.div(wide[base], axis=0) - 1) * 100


def fig6_traces(*, pdr2: float = 0.005, distance_m: float = SCENARIO2_DISTANCE_M, preset: str = "paper",
                duration_s: float = DURATION_S, seed: int = 0, solutions=SOLUTION_ORDER, progress=True,
                prr_ssthresh: str = "keep", recovery: str = "newreno") -> tuple:
    """Fig. 6: one traced run per solution; returns ``(cwnd, rows)`` — the cwnd trace of every run
    (``solution, time_s, subflow, cwnd_segments, state``) and one result row per run."""
    from ...progress import progress as bar
    from ...sim.multipath import run_mptcp

    frames, rows = [], []
    for sol in bar(list(solutions), desc="Fig. 6 runs", unit="run", enabled_=progress):
        sc = scenario(sol, distance_m=distance_m, pdr2=pdr2, preset=preset, duration_s=duration_s, seed=seed,
                      prr_ssthresh=prr_ssthresh, recovery=recovery)
        res = run_mptcp(sc, trace=True)
        c = res.traces["cwnd"].copy()
        c["solution"] = sol
        c["cwnd_segments"] = c["cwnd_bytes"] / SEGMENT_BYTES
        frames.append(c[["solution", "time_s", "subflow", "cwnd_segments", "cwnd_bytes", "state"]])
        row = res.row()
        row["solution"] = sol
        rows.append(row)
    return pd.concat(frames, ignore_index=True), add_metrics(pd.DataFrame(rows))


def traced_run(solution: str, *, distance_m: float = SCENARIO2_DISTANCE_M, pdr2: float = 0.0, preset: str = "paper",
               duration_s: float = DURATION_S, seed: int = 0, prr_ssthresh: str = "keep",
               recovery: str = "newreno") -> tuple:
    """One run with every trace: ``(traces, row)`` — the engine's trace frames (``"events"``: fast
    retransmits, partial ACKs, recovery exits, timeouts per subflow; ``"acks"``: every ACK with its
    arrival at the sender; ``"cwnd"`` …) and the result row with the paper's metrics (:func:`add_metrics`).
    Not cached (traces are large); one 50 s run takes seconds."""
    from ...sim.multipath import run_mptcp

    sc = scenario(solution, distance_m=distance_m, pdr2=pdr2, preset=preset, duration_s=duration_s, seed=seed,
                  prr_ssthresh=prr_ssthresh, recovery=recovery)
    res = run_mptcp(sc, trace=True)
    row = res.row()
    row["solution"] = solution
    return res.traces, add_metrics(pd.DataFrame([row])).iloc[0]


def fig6_runs(*, n_seeds: int, plot_seed: int = 0, pdr2: float = 0.005, distance_m: float = SCENARIO2_DISTANCE_M,
              preset: str = "paper", duration_s: float = DURATION_S, prr_ssthresh: str = "keep", from_s: float = 1.0,
              solutions=SOLUTION_ORDER, progress=True) -> tuple:
    """Fig. 6 (sec. V.B) over several seeds: ``(trace, cw_summary, run_rows)``.

    Runs :func:`fig6_traces` for seeds ``0 … max(n_seeds, plot_seed + 1) − 1`` (so the plotted seed
    is always among them; every run enters the summaries).  ``trace`` is the cwnd trace (segments of
    1400 B over seconds) of ``plot_seed``; ``cw_summary`` the time-weighted mean window per run,
    solution and subflow after ``from_s`` seconds (:func:`cwnd_summary`, with a ``seed`` column);
    ``run_rows`` one result row per run (gThroughput in Mbit/s etc., :func:`add_metrics`).
    """
    n = check_int("n_seeds", n_seeds, minimum=1)
    plot_seed = check_int("plot_seed", plot_seed, minimum=0)
    trace, rows, summaries = None, [], []
    for s in range(max(n, plot_seed + 1)):
        cw, r = fig6_traces(pdr2=pdr2, distance_m=distance_m, preset=preset, duration_s=duration_s, seed=s,
                            solutions=solutions, progress=progress, prr_ssthresh=prr_ssthresh)
        if s == plot_seed:
            trace = cw
        summaries.append(cwnd_summary(cw, from_s=from_s).assign(seed=s))
        rows.append(r.assign(seed=s))
    return trace, pd.concat(summaries, ignore_index=True), pd.concat(rows, ignore_index=True)


def cwnd_summary(cwnd: pd.DataFrame, *, from_s: float = 0.0) -> pd.DataFrame:
    """Time-weighted mean cwnd (segments) per solution and subflow after ``from_s``."""
    rows = []
    for (sol, sf), grp in cwnd.groupby(["solution", "subflow"], sort=False):
        t = grp.time_s.to_numpy()
        w = grp.cwnd_segments.to_numpy()
        if len(t) < 2:
            mean = float(w[-1]) if len(w) else math.nan
        else:
            dt = np.diff(t)
            keep = t[:-1] >= from_s
            mean = float(np.sum(w[:-1][keep] * dt[keep]) / max(np.sum(dt[keep]), 1e-12))
        rows.append({"solution": sol, "subflow": int(sf) + 1, "mean_cwnd_segments": mean,
                     "max_cwnd_segments": float(w.max()) if len(w) else math.nan})
    return pd.DataFrame(rows)


__all__ = ["QUEUE_PACKETS", "WIFI_PARAMS", "SOLUTIONS", "SOLUTION_ORDER", "COLOURS", "PRESETS", "RECOVERY_CHOICES",
           "tcp_options", "wifi_link", "scenario", "fig4_cases", "fig5_cases", "prr_rule_cases", "run",
           "add_metrics", "summarise", "improvement_pct", "fig6_traces", "traced_run", "fig6_runs",
           "cwnd_summary"]


def check_table_points(name: str, points, within_name: str, within, *, required=()) -> list:
    """Check a notebook's table points before any run: ``points`` ⊆ ``within`` ⊇ ``required``.

    The chapters build Tables III/IV from the runs of the figure sweep, so a table point the sweep
    does not run (or a missing reference point, e.g. PDR 0 for Fig. 5's gains) would otherwise fail
    only after the simulations, with a bare ``KeyError``.  Raises ``ValueError`` naming both
    parameters and the allowed values; returns ``points`` as a list of floats.
    """
    have = sorted({float(x) for x in within})
    pts = [float(x) for x in points]
    if not pts:
        raise ValueError(f"{name} must name at least one of {within_name} = {have}")
    missing = [x for x in pts if x not in have]
    if missing:
        raise ValueError(f"{name} = {pts}: {missing} not in {within_name} = {have}; "
                         f"a table point must be one of {within_name} (or add it there)")
    lacking = [float(x) for x in required if float(x) not in have]
    if lacking:
        raise ValueError(f"{within_name} = {have} must include {lacking} (the reference the chapter compares against)")
    return pts
