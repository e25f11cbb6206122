"""The chapter "The Linux kernel's MPTCP as reference" (library side of ``notebooks/linux-mptcp-validation.ipynb``).

The chapter drives the kernel through :mod:`cmtlab.testbed.experiments` (calibration, Alheid et al.'s
Table I, Linux column, one Arabi scenario) — recorded in ``data/testbed/`` with a live subset beside the
recording, or all live (:class:`cmtlab.testbed.recorded.KernelRuns`) — and the simulator configured like the
kernel (:func:`cmtlab.validation.kernel_sim.simulate_like_kernel`); this module turns what those return
into the tables the page shows, the numbers its prose glues (``tb_*`` keys, read by the book and by
:func:`cmtlab.papers.alheid.table1.kernel_gains_from_chapter`) and the simulator's hypotheses.  Everything
here except :func:`start`, :func:`simulator_column`, :func:`hypotheses` and
:func:`arabi_beside_simulator` is a pure function of the run tables, so it is unit-tested on small synthetic frames; the verdicts come
from :func:`cmtlab.validation.kernel_table.comparison`.

Conventions: a *gains* table is `cmtlab.validation.kernel_sim.kernel_gains`'s (one row per congestion
control, reading of Δ and Δ in ms); ``meaning`` ``"rtt"`` / ``"one_way"`` are the two readings of the
paper's "delay difference"; every ``*_glue`` function returns ``{key: value}`` for :func:`glue_values`,
with NaN (or a phrase saying what was not run) for what this profile did not run, so the page builds
with every key whatever the parameters.
"""

from __future__ import annotations

import logging
import math

import numpy as np
import pandas as pd

from ..papers.alheid.paper import DELTAS_MS, PAPER_LINUX_GAIN_PCT
from ..scenario import DELAY_DIFFERENCE_MEANINGS as MEANINGS
from . import kernel_sim as ks

NAN = float("nan")
#: The Δ (ms) and readings whose gains the prose glues (``tb_gain_<cc>_<meaning>_<Δ>``).
GLUED_DELTAS_MS = DELTAS_MS  # Table I's columns
GLUED_CONGESTIONS = ("reno", "cubic")
#: The Δ (ms) at which the chapter discusses head-of-line blocking and the simulator's hypotheses.
FAR_DELTA_MS = 500

#: Column names of the shown Table I gains (tests/validation/test_kernel_table.py reads the stored table by them).
GAINS_COLUMNS = {"congestion": "congestion", "meaning": "meaning", "delta_ms": "Δ (ms)", "rtt2_ms": "RTT path 2 (ms)",
                 "tcp_mbps": "TCP best path (Mbit/s)", "mptcp_mbps": "MPTCP (Mbit/s)", "gain_pct": "gain (%)",
                 "gain_std_pct": "std (pp)", "gain_min_pct": "min (%)", "gain_max_pct": "max (%)", "n": "runs",
                 "share2": "share of path 2", "paper_linux_pct": "paper, Linux (%)"}
#: Per-subflow diagnostics of the MPTCP runs at the largest Δ (``ss -ti`` and the delay lines' counters).
DIAGNOSTIC_COLUMNS = {"sub0_busy_ms": "path 1 busy (ms)", "sub0_sndbuf_limited_ms": "path 1 sndbuf-limited (ms)",
                      "sub1_sndbuf_limited_ms": "path 2 sndbuf-limited (ms)",
                      "sub0_rwnd_limited_ms": "path 1 rwnd-limited (ms)",
                      "sub1_rwnd_limited_ms": "path 2 rwnd-limited (ms)", "sub1_cwnd": "path 2 cwnd (pkts)",
                      "sub1_rtt_ms": "path 2 srtt (ms)", "sub1_queue_drops": "path 2 queue drops"}
AGREEMENT_COLUMNS = {"delta_ms": "Δ (ms)", "kernel_gain_pct": "kernel gain (%)", "kernel_std_pp": "kernel std (pp)",
                     "kernel_min_pct": "kernel min (%)", "kernel_max_pct": "kernel max (%)",
                     "kernel_runs": "kernel runs", "sim_gain_pct": "simulator gain (%)",
                     "diff_pp": "simulator − kernel (pp)", "goodput_ratio": "MPTCP goodput, simulator / kernel",
                     "within_kernel_range": "within kernel range"}
#: The simulator's hypotheses for the differences at large Δ, one change each to the kernel-like simulator.
HYPOTHESES = {"as configured": {}, "reordering response none": dict(reordering="none"),
              "queue 200 packets": dict(queue_packets=200), "minimum RTO 1 s": dict(min_rto_s=1.0),
              "round-robin scheduler": dict(scheduler="round_robin")}
#: Goodput ceiling of the Arabi scenario's two links together (5 + 2 Mbit/s, IP bytes).
ARABI_RATE_BPS = 7e6


def _reading(meaning: str) -> str:
    return "RTT" if meaning == "rtt" else "one-way"


def glue_values(values: dict) -> None:
    """Glue every ``{key: value}`` for the page's prose (myst-nb, not displayed)."""
    from myst_nb import glue

    for k, v in values.items():
        glue(k, v, display=False)


def start() -> dict:
    """Check the machine (root, TUN, MPTCP, compiler — a clear error instead of a hang), remove namespaces of
    dead runs, log the kernel's MPTCP scheduler and path manager, and return :func:`cmtlab.testbed.kernel_info`."""
    from .. import testbed

    testbed.check_environment(mptcp=True)
    testbed.cleanup_stale()
    info = testbed.kernel_info()
    logging.getLogger("cmtlab.testbed").info(
        f"kernel {info['kernel']}; MPTCP scheduler '{info['mptcp_scheduler']}' (available: "
        f"{info['mptcp_available_schedulers']}); path manager '{info['mptcp_path_manager']}'")
    return info


# ---------------------------------------------------------------- calibration
def _rate_label(rate_bps: float) -> str:
    return f"{rate_bps / 1e6:g} Mbit/s"


def ping_table(pings: pd.DataFrame) -> pd.DataFrame:
    """Per configured rate: echoes and the ping RTT error (measured − expected) in ms — median, mean, min,
    99th percentile, max.  ``pings``: the echoes of :func:`cmtlab.testbed.experiments.calibrate_rate` over the rates; with a
    ``source`` column (:class:`cmtlab.testbed.recorded.KernelRuns`) one row per rate and source, the source
    shown first."""
    keys = ["rate_bps", "source"] if "source" in pings else ["rate_bps"]
    s = pings.groupby(keys, sort=False).error_s.describe(percentiles=[0.5, 0.99])[["count", "50%", "mean", "min", "99%", "max"]]
    s[["50%", "mean", "min", "99%", "max"]] *= 1e3
    s.columns = ["echoes", "median error (ms)", "mean error (ms)", "min (ms)", "99th pct (ms)", "max (ms)"]
    if "source" in pings:
        s.insert(0, "source", [src for _, src in s.index])
        s = s.iloc[np.argsort([rate for rate, _ in s.index], kind="stable")]
    s.index = [_rate_label(k[0] if isinstance(k, tuple) else k) for k in s.index]
    return s


def rate_table(rates: pd.DataFrame) -> pd.DataFrame:
    """Per configured rate: the ideal TCP goodput (payload share 1448/1500), the measured one, the error (%)
    and the queue drops.  ``rates``: the goodput rows of :func:`cmtlab.testbed.experiments.calibrate_rate` (with a
    ``source`` column: shown first, rows ordered by rate)."""
    t = pd.DataFrame({"rate (Mbit/s)": rates.path0_rate_bps / 1e6, "ideal goodput (Mbit/s)": rates.ideal_goodput_bps / 1e6,
                      "measured (Mbit/s)": rates.throughput_bps / 1e6, "error (%)": 100 * rates.rate_error,
                      "queue drops": rates.sub0_queue_drops})
    if "source" in rates:
        t.insert(1, "source", rates.source)
        t = t.sort_values("rate (Mbit/s)", kind="stable")
    return t.reset_index(drop=True)


def calibration_summary(pings: pd.DataFrame, rates: pd.DataFrame) -> dict:
    """The delay line's precision as :func:`cmtlab.validation.kernel_table.comparison` takes it: the ping RTT
    error's median, 99th percentile and maximum (ms) over all echoes, the largest absolute goodput error (%)
    and the largest rate calibrated (Mbit/s)."""
    if not len(pings) or not len(rates):
        raise ValueError("calibration_summary needs at least one echo and one rate (the calibration returned empty tables)")
    e = pings.error_s.to_numpy() * 1e3
    return dict(ping_median_ms=float(np.median(e)), ping_p99_ms=float(np.percentile(e, 99)),
                ping_max_ms=float(e.max()), rate_error_max_pct=float(100 * rates.rate_error.abs().max()),
                max_rate_mbps=float(rates.path0_rate_bps.max() / 1e6))


def calibration_glue(cal: dict) -> dict:
    """The prose's calibration numbers from :func:`calibration_summary`."""
    return {"tb_ping_err_ms": cal["ping_median_ms"], "tb_ping_err_max_ms": cal["ping_max_ms"],
            "tb_rate_err_max_pct": cal["rate_error_max_pct"]}


def live_check_table(check: pd.DataFrame) -> pd.DataFrame:
    """:func:`cmtlab.testbed.recorded.live_check` as shown: the stored runs as "recorded + earlier", their range
    and the band as "low–high" (Mbit/s), the gains as "recorded / live" (%), the chance that a run of the same
    kernel falls outside the stored range (%, at most), the verdict in words."""
    def span(lo, hi):
        return f"{lo:.2f}–{hi:.2f}"

    def gains(r):
        return "—" if not np.isfinite(r["recorded gain (%)"]) else \
            f"{r['recorded gain (%)']:.0f} / " + ("—" if not np.isfinite(r["live gain (%)"]) else f"{r['live gain (%)']:.0f}")
    return pd.DataFrame({
        "run": check["run"],
        "stored runs (recorded + earlier)": [f"{a} + {b}" for a, b in zip(check["recorded runs"], check["earlier runs"])],
        "stored (Mbit/s)": [span(a, b) for a, b in zip(check["stored min (Mbit/s)"], check["stored max (Mbit/s)"])],
        "band (Mbit/s)": [span(a, b) for a, b in zip(check["band low (Mbit/s)"], check["band high (Mbit/s)"])],
        "live (Mbit/s)": [f"{v:.2f}" for v in check["live (Mbit/s)"]],
        "gain, recorded / live (%)": [gains(r) for _, r in check.iterrows()],
        "same kernel outside (%)": [f"≤ {v:.0f}" for v in check["outside chance (%)"]],
        "verdict": ["agrees" if a else "outside the band" for a in check["agrees"]]})


# ---------------------------------------------------------------- Table I on the kernel
def gains_table(g: pd.DataFrame) -> pd.DataFrame:
    """The kernel's gains as shown: one row per (congestion control, reading, Δ), readable column names
    (:data:`GAINS_COLUMNS`)."""
    return g[list(GAINS_COLUMNS)].rename(columns=GAINS_COLUMNS).reset_index(drop=True)


def _finite(values) -> list[float]:
    return [v for v in values if np.isfinite(v)]


def closer_reading(g: pd.DataFrame, congestion: str = "reno", delta_ms: int = FAR_DELTA_MS) -> str:
    """Which reading of Δ puts the kernel's gain at ``delta_ms`` closer to the paper's Linux value (a phrase);
    "not decided …" when either reading was not run."""
    paper = PAPER_LINUX_GAIN_PCT[delta_ms]
    far = {m: abs(ks.gain_of(g, congestion, m, delta_ms) - paper) for m in MEANINGS}
    if not all(np.isfinite(list(far.values()))):
        return f"not decided (Δ = {delta_ms} ms not run with both readings in this profile)"
    return "the one-way reading" if far["one_way"] < far["rtt"] else "the RTT reading"


def hol_phrase(g: pd.DataFrame, delta_ms: int = FAR_DELTA_MS) -> str:
    """What MPTCP keeps at ``delta_ms`` (a phrase for the head-of-line paragraph): *less* than TCP on the short
    path (the lowest gain over congestion controls and readings is negative), part of the second path's rate,
    or that Δ was not run."""
    vals = _finite(ks.gain_of(g, cc, m, delta_ms) for cc in GLUED_CONGESTIONS for m in MEANINGS)
    if not vals:
        return f"Δ = {delta_ms} ms is not run in this profile"
    worst = min(vals)
    if worst < 0:
        return f"at Δ = {delta_ms} ms MPTCP can deliver *less* than TCP on the short path alone (lowest gain {worst:.0f} %)"
    return f"at Δ = {delta_ms} ms MPTCP keeps only part of the second path's rate"


def table1_glue(g: pd.DataFrame) -> dict:
    """The prose's Table I numbers: ``tb_gain_<cc>_<meaning>_<Δ>`` for Reno and CUBIC, both readings and
    Δ = 0 / 100 / 500 ms (NaN where not run; Δ = 0 is the same run under both readings), ``tb_share_far`` (path
    2's share of the bytes at the largest Δ, RTT reading, mean over congestion controls), ``tb_closer_reading``,
    ``tb_hol_phrase`` and ``tb_gain_spread`` (the largest max − min of a gain over its repetitions, pp; NaN when
    no row has more than one run)."""
    out = {f"tb_gain_{cc}_{m}_{d}": ks.gain_of(g, cc, m, d)
           for cc in GLUED_CONGESTIONS for m in MEANINGS for d in GLUED_DELTAS_MS}
    far = g[(g.delta_ms == g.delta_ms.max()) & (g.meaning == "rtt")] if len(g) else g
    out["tb_share_far"] = float(far.share2.mean()) if len(far) else NAN
    out["tb_closer_reading"] = closer_reading(g)
    out["tb_hol_phrase"] = hol_phrase(g)
    several = g[g.n > 1] if len(g) else g
    out["tb_gain_spread"] = float((several.gain_max_pct - several.gain_min_pct).max()) if len(several) else NAN
    return out


def far_diagnostics(runs: pd.DataFrame) -> pd.DataFrame:
    """The kernel's MPTCP runs at the largest Δ, per (congestion control, reading): path 2's share of the bytes
    and the means of :data:`DIAGNOSTIC_COLUMNS` that the rows carry."""
    mp = runs[runs.kind == "mptcp"]
    far = mp[mp.delta_s == mp.delta_s.max()]
    cols = {k: v for k, v in DIAGNOSTIC_COLUMNS.items() if k in far}
    keys = ["congestion", "meaning"]
    diag = far.groupby(keys)[list(cols)].mean().rename(columns=cols)
    share = (far.sub1_bytes / (far.sub0_bytes + far.sub1_bytes)).groupby([far[k] for k in keys]).mean()
    diag.insert(0, "share of path 2", share.reindex(diag.index))
    return diag


# ---------------------------------------------------------------- fixed socket buffers
def _fixed_gains(runs_fixed: pd.DataFrame, meanings) -> pd.DataFrame:
    gf = ks.kernel_gains(runs_fixed)
    return gf[(gf.delta_ms > 0) | (gf.meaning == meanings[0])]


def fixed_buffer_table(runs_fixed: pd.DataFrame | None, g: pd.DataFrame, meanings, buffer_bytes: int) -> pd.DataFrame | None:
    """The gains with fixed buffers beside those with autotuned ones (same congestion control, reading, Δ), and
    single-path TCP's goodput with fixed buffers; None without fixed-buffer runs."""
    if runs_fixed is None:
        return None
    both = _fixed_gains(runs_fixed, meanings).merge(g, on=["congestion", "meaning", "delta_ms"], suffixes=(" fixed", " auto"))
    return both[["congestion", "meaning", "delta_ms", "gain_pct auto", "gain_pct fixed", "tcp_mbps fixed"]].rename(
        columns={"delta_ms": "Δ (ms)", "gain_pct auto": "gain, autotuned buffers (%)",
                 "gain_pct fixed": f"gain, fixed {buffer_bytes >> 20} MiB buffers (%)",
                 "tcp_mbps fixed": "TCP best path, fixed (Mbit/s)"}).reset_index(drop=True)


def fixed_buffer_glue(runs_fixed: pd.DataFrame | None, meanings) -> dict:
    """The prose's fixed-buffer numbers: ``tb_fixed_reno_<meaning>_<Δ>`` (Reno's gain; NaN for Δ = 0 / 500 ms
    when not run), ``tb_fixed_min`` / ``tb_fixed_max`` over those gains, ``tb_fixed_sub0_queue_mb`` (the largest
    ``Send-Q`` of path 1's subflow, MB) and ``tb_fixed_path_mbps`` (what the two delay lines forwarded
    together, Mbit/s, mean over the MPTCP runs)."""
    out = {f"tb_fixed_reno_{m}_{d}": NAN for m in MEANINGS for d in (0, FAR_DELTA_MS)}
    out.update(tb_fixed_min=NAN, tb_fixed_max=NAN, tb_fixed_sub0_queue_mb=NAN, tb_fixed_path_mbps=NAN)
    if runs_fixed is None:
        return out
    gf = _fixed_gains(runs_fixed, meanings)
    for r in gf.itertuples():
        out[f"tb_fixed_{r.congestion}_{r.meaning}_{r.delta_ms}"] = float(r.gain_pct)
    if len(gf):
        out.update(tb_fixed_min=float(gf.gain_pct.min()), tb_fixed_max=float(gf.gain_pct.max()))
    rf = runs_fixed[runs_fixed.kind == "mptcp"]
    if "sub0_send_q_bytes" in rf:
        out["tb_fixed_sub0_queue_mb"] = float(rf.sub0_send_q_bytes.max() / 1e6)
    if len(rf):
        out["tb_fixed_path_mbps"] = float(((rf.sub0_bytes + rf.sub1_bytes) * 8 / rf.duration_s).mean() / 1e6)
    return out


# ---------------------------------------------------------------- the Arabi scenario
def arabi_table(arabi: pd.DataFrame) -> pd.DataFrame:
    """Per option variant of :func:`cmtlab.testbed.experiments.arabi_jobs`: goodput (mean and std over the
    repetitions, Mbit/s), runs, mean retransmissions and queue drops per path, and the goodput's share of the
    variant's own ceiling (the 7 Mbit/s of the two links at 1448 or 1460 payload bytes per 1500, as the
    variant's timestamps)."""
    from ..testbed import tcp_goodput_bps

    tab = arabi.groupby("variant").agg(
        goodput_mbps=("throughput_bps", lambda s: s.mean() / 1e6),
        std_mbps=("throughput_bps", lambda s: s.std(ddof=1) / 1e6 if len(s) > 1 else np.nan),
        runs=("rep", "size"), sub0_retrans=("sub0_retrans_total", "mean"), sub1_retrans=("sub1_retrans_total", "mean"),
        sub0_drops=("sub0_queue_drops", "mean"), sub1_drops=("sub1_queue_drops", "mean"))
    ceiling = arabi.groupby("variant").k_timestamps.first().map(
        lambda ts: tcp_goodput_bps(ARABI_RATE_BPS, timestamps=bool(ts)))
    tab["share of the 7 Mbit/s goodput ceiling"] = tab.goodput_mbps * 1e6 / ceiling
    return tab.rename(columns={"goodput_mbps": "goodput (Mbit/s)", "std_mbps": "std (Mbit/s)",
                               "sub0_retrans": "retransmissions, path 1", "sub1_retrans": "retransmissions, path 2",
                               "sub0_drops": "queue drops, path 1", "sub1_drops": "queue drops, path 2"})


def arabi_side_table(side: pd.DataFrame) -> pd.DataFrame:
    """:func:`cmtlab.validation.kernel_sim.arabi_side_by_side` with readable column names."""
    return side.rename(columns={"sim_reordering": "simulator response", "goodput_mbps": "goodput (Mbit/s)",
                                "std_mbps": "std (Mbit/s)", "min_mbps": "min", "max_mbps": "max",
                                "ratio_to_kernel": "goodput / kernel's"})


def arabi_glue(side: pd.DataFrame | None) -> dict:
    """The prose's Arabi numbers from :func:`cmtlab.validation.kernel_sim.arabi_side_by_side`: the simulator's
    goodput over the kernel's (min, max over responses), the kernel's first variant over its second (−1, %),
    and the spread of the simulator's responses (largest / smallest goodput − 1, %).  NaN without a simulator
    column."""
    keys = ("tb_arabi_ratio_min", "tb_arabi_ratio_max", "tb_arabi_kernel_diff_pct", "tb_arabi_sim_spread_pct")
    out = dict.fromkeys(keys, NAN)
    if side is None or not len(side):
        return out
    sims = side[side.side == "cmtlab.sim"]
    kd = side[side.side == "kernel"].set_index("variant").goodput_mbps
    if len(sims):
        out.update(tb_arabi_ratio_min=float(sims.ratio_to_kernel.min()), tb_arabi_ratio_max=float(sims.ratio_to_kernel.max()),
                   tb_arabi_sim_spread_pct=float(100 * (sims.goodput_mbps.max() / sims.goodput_mbps.min() - 1)))
    if len(kd) == 2:
        out["tb_arabi_kernel_diff_pct"] = float(100 * (kd.iloc[0] / kd.iloc[1] - 1))
    return out


def arabi_beside_simulator(arabi: pd.DataFrame, options: dict | None = None) -> pd.DataFrame | None:
    """The kernel's Arabi runs beside the kernel-like simulator's
    (:func:`~cmtlab.validation.kernel_sim.simulate_arabi_like_kernel`, then
    :func:`~cmtlab.validation.kernel_sim.arabi_side_by_side`); None when the simulator is not available."""
    if ks.simulator_available() is not None:
        return None
    return ks.arabi_side_by_side(arabi, ks.simulate_arabi_like_kernel(arabi, **(options or {})))


# ---------------------------------------------------------------- the simulator configured like the kernel
def simulator_column(runs: pd.DataFrame, *, reordering: str, options: dict | None = None) -> dict:
    """The simulator's gains on the kernel's Reno rows: ``reason`` (None, or why the simulator is not available),
    ``sim_g`` (with ``reordering``), ``sim_g_none`` (reordering response ``none``), ``n_runs`` (runs per
    response) and ``status`` (the admonition the page shows above the simulator's numbers)."""
    options = dict(options or {})
    reason = ks.simulator_available()
    out = dict(reason=reason, sim_g=None, sim_g_none=None, n_runs=0)
    if reason is None:
        reno = runs[runs.congestion == "reno"]
        sim_runs = ks.simulate_like_kernel(reno, "ns3-uncoupled", reordering=reordering, **options)
        out.update(sim_g=ks.kernel_gains(sim_runs), n_runs=len(sim_runs),
                   sim_g_none=ks.kernel_gains(ks.simulate_like_kernel(reno, "ns3-uncoupled", reordering="none",
                                                                      **options)))
    out["status"] = simulator_status(reason, reordering, out["n_runs"])
    return out


def simulator_status(reason: str | None, reordering: str, n_runs: int) -> str:
    """MyST admonition: how the simulator column was configured, or why it is missing (no number is implied)."""
    if reason is None:
        return ("```{admonition} Simulator column\n:class: note\n"
                f"`cmtlab.sim.simulate_mptcp` with congestion `{ks.SIM_LIKE_KERNEL['congestion']}`, scheduler "
                f"`{ks.SIM_LIKE_KERNEL['scheduler']}` and reordering response `{reordering}` (and `none`), "
                f"{n_runs} runs each.\n```")
    return ("```{admonition} The simulator column is not available\n:class: warning\n"
            f"{reason}. This page shows the kernel side only; no simulator numbers are shown or implied.\n```")


def packet_size_table(runs: pd.DataFrame) -> pd.DataFrame:
    """:func:`cmtlab.validation.kernel_sim.kernel_packet_sizes` with readable column names."""
    return ks.kernel_packet_sizes(runs).rename(columns={
        "kind": "kernel runs", "ip_bytes_per_packet": "IP bytes per data packet",
        "payload_bytes_per_packet": "payload bytes per new data packet", "packets": "packets"})


def side_by_side(g: pd.DataFrame, sim_g: pd.DataFrame | None, sim_g_none: pd.DataFrame | None, *, deltas_ms, meanings,
                 base_one_way_ms: float, reordering: str) -> pd.DataFrame:
    """Paper, kernel (Reno, CUBIC) and simulator (``reordering`` and ``none``) per (reading, Δ), Δ = 0 once: each
    gain as mean ± std [min, max] (%, :func:`cmtlab.validation.kernel_sim.gain_cell`), with both paths' round
    trips (path 2's is longer by Δ as an RTT difference, by 2Δ as a one-way difference)."""
    rows = []
    for meaning in meanings:
        for d in deltas_ms:
            if d == 0 and meaning != meanings[0]:
                continue
            rtt2 = 2 * base_one_way_ms + (d if meaning == "rtt" else 2 * d)
            paper = PAPER_LINUX_GAIN_PCT.get(int(d))
            rows.append({"Δ (ms)": d, "Δ read as": "—" if d == 0 else f"{_reading(meaning)} difference",
                         "RTT path 1 / path 2 (ms)": f"{2 * base_one_way_ms:g} / {rtt2:g}",
                         "paper, Linux (%)": "—" if paper is None else f"{paper:.0f}",
                         "kernel, Reno (%)": ks.gain_cell(g, "reno", meaning, d),
                         "kernel, CUBIC (%)": ks.gain_cell(g, "cubic", meaning, d),
                         f"cmtlab.sim, Reno, {reordering} (%)": ks.gain_cell(sim_g, "reno", meaning, d),
                         "cmtlab.sim, Reno, none (%)": ks.gain_cell(sim_g_none, "reno", meaning, d)})
    return pd.DataFrame(rows)


def agreement_table(agree: pd.DataFrame) -> pd.DataFrame:
    """:func:`cmtlab.validation.kernel_sim.agreement` as shown (readable names, without path 2's RTT column)."""
    return agree.drop(columns=["rtt2_ms"]).rename(columns=AGREEMENT_COLUMNS)


def agreement_glue(agree: pd.DataFrame | None, sim_g: pd.DataFrame | None, sim_g_none: pd.DataFrame | None,
                   meanings) -> dict:
    """The prose's simulator-vs-kernel numbers: for Δ ≤ 100 ms the largest absolute difference simulator − kernel (pp) and the
    range of the MPTCP goodput ratio; at Δ = 500 ms per reading the difference (pp) and the simulator's gains
    with its reordering response and with ``none``; the simulator's gain at Δ = 0.  NaN without a simulator."""
    out = dict(tb_sim_absdiff_near_max=NAN, tb_sim_ratio_near_min=NAN, tb_sim_ratio_near_max=NAN, tb_sim_gain_0=NAN)
    for m in MEANINGS:
        out.update({f"tb_sim_diff_500_{m}": NAN, f"tb_sim_gain_500_{m}": ks.gain_of(sim_g, "reno", m, FAR_DELTA_MS),
                    f"tb_sim_none_500_{m}": ks.gain_of(sim_g_none, "reno", m, FAR_DELTA_MS)})
    if agree is None or not len(agree):
        return out
    near = agree[agree.delta_ms <= 100]
    if len(near):
        out.update(tb_sim_absdiff_near_max=float(near.diff_pp.abs().max()),
                   tb_sim_ratio_near_min=float(near.goodput_ratio.min()),
                   tb_sim_ratio_near_max=float(near.goodput_ratio.max()))
    for m in MEANINGS:
        a = agree[(agree.meaning == m) & (agree.delta_ms == FAR_DELTA_MS)]
        if len(a):
            out[f"tb_sim_diff_500_{m}"] = float(a.diff_pp.iloc[0])
    out["tb_sim_gain_0"] = ks.gain_of(sim_g, "reno", meanings[0], 0)
    return out


# ---------------------------------------------------------------- hypotheses, tested in the simulator
def hypothesis_cases(buffer_mib=()) -> dict:
    """name -> simulator change: :data:`HYPOTHESES` and one connection-level buffer (``receive_buffer_bytes``)
    per size in ``buffer_mib`` (MiB)."""
    cases = dict(HYPOTHESES)
    cases.update({f"connection-level buffer {mib:g} MiB": dict(receive_buffer_bytes=int(mib * 2 ** 20)) for mib in buffer_mib})
    return cases


def hypotheses(runs: pd.DataFrame, *, reordering: str, options: dict | None = None, buffer_mib=(),
               rep: int = 0) -> pd.DataFrame:
    """Each :func:`hypothesis_cases` change run in the kernel-like simulator on repetition ``rep`` of the kernel's
    Reno rows; one row per (change, reading, Δ > 0): ``change``, ``buffer_mib`` (NaN except for buffer changes),
    ``meaning``, ``delta_ms``, ``gain_pct``.  Empty when the simulator is not available."""
    cols = ["change", "buffer_mib", "meaning", "delta_ms", "gain_pct"]
    if ks.simulator_available() is not None:
        return pd.DataFrame(columns=cols)
    first = runs[(runs.congestion == "reno") & (runs.rep == rep)]
    rows = []
    for name, change in hypothesis_cases(buffer_mib).items():
        kw = {**(options or {}), "reordering": reordering, **change}
        gg = ks.kernel_gains(ks.simulate_like_kernel(first, "ns3-uncoupled", progress_bar=False, **kw))
        mib = change["receive_buffer_bytes"] / 2 ** 20 if "receive_buffer_bytes" in change else NAN
        for r in gg[gg.delta_ms > 0].itertuples():
            rows.append(dict(change=name, buffer_mib=mib, meaning=r.meaning, delta_ms=r.delta_ms, gain_pct=r.gain_pct))
    return pd.DataFrame(rows, columns=cols)


def hypotheses_table(hyp: pd.DataFrame, g: pd.DataFrame) -> pd.DataFrame | None:
    """One row per change, one column per (reading, Δ), and a last row with the kernel's Reno gains (mean over
    its repetitions); None when no hypothesis was run."""
    if not len(hyp):
        return None
    tab = hyp.pivot_table(index="change", columns=["meaning", "delta_ms"], values="gain_pct", sort=False)
    kern = g[(g.congestion == "reno") & (g.delta_ms > 0)].set_index(["meaning", "delta_ms"]).gain_pct
    tab.loc["kernel, Reno (mean)"] = [kern.get(c, np.nan) for c in tab.columns]
    tab.columns = [f"Δ {d} ms ({_reading(m)})" for m, d in tab.columns]
    return tab


def hypotheses_glue(hyp: pd.DataFrame) -> dict:
    """The prose's hypothesis numbers at Δ = 500 ms: the largest connection-level buffer (MiB) that still gives a
    negative gain with the one-way reading (NaN if none), the range of those buffers' gains (a phrase), the range
    of the RTT reading's gains over all changes and its gain without a reordering response, and what the
    round-robin scheduler changes (a phrase; "not run" without it)."""
    far = hyp[hyp.delta_ms == FAR_DELTA_MS]
    ow = far[(far.meaning == "one_way") & far.buffer_mib.notna()]
    neg = ow[ow.gain_pct < 0]
    rt = far[far.meaning == "rtt"].set_index("change").gain_pct
    out = {"tb_buf_largest_negative": float(neg.buffer_mib.max()) if len(neg) else NAN,
           "tb_hyp_ow_buf_range": f"{ow.gain_pct.min():.0f} to {ow.gain_pct.max():.0f} %" if len(ow) else "not run",
           "tb_hyp_rtt_min": float(rt.min()) if len(rt) else NAN,
           "tb_hyp_rtt_max": float(rt.max()) if len(rt) else NAN,
           "tb_hyp_rtt_none": float(rt.get("reordering response none", NAN))}
    rr = hyp[hyp.change == "round-robin scheduler"].set_index(["meaning", "delta_ms"]).gain_pct
    base = hyp[hyp.change == "as configured"].set_index(["meaning", "delta_ms"]).gain_pct
    diff = float((rr - base).abs().max()) if len(rr) and len(base) else NAN
    if not math.isfinite(diff):
        out["tb_hyp_rr_phrase"] = "round robin was not run against lowest-RTT-first with these parameters"
    elif diff < 1:
        out["tb_hyp_rr_phrase"] = ("round robin and lowest-RTT-first make the same runs here (largest difference "
                                   f"{diff:.1f} pp): with bulk data only one subflow has window space at a time")
    else:
        out["tb_hyp_rr_phrase"] = f"round robin instead of lowest-RTT-first changes the gain by up to {diff:.0f} pp"
    return out


__all__ = ["GLUED_DELTAS_MS", "GLUED_CONGESTIONS", "FAR_DELTA_MS", "GAINS_COLUMNS", "DIAGNOSTIC_COLUMNS",
           "AGREEMENT_COLUMNS", "HYPOTHESES", "ARABI_RATE_BPS", "glue_values", "start", "ping_table", "rate_table",
           "calibration_summary", "calibration_glue", "live_check_table", "gains_table", "closer_reading", "hol_phrase", "table1_glue",
           "far_diagnostics", "fixed_buffer_table", "fixed_buffer_glue", "arabi_table",
           "arabi_side_table", "arabi_glue", "arabi_beside_simulator", "simulator_column", "simulator_status", "packet_size_table",
           "side_by_side", "agreement_table", "agreement_glue", "hypothesis_cases", "hypotheses", "hypotheses_table",
           "hypotheses_glue"]

