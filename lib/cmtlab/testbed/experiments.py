"""Experiments of the Linux-MPTCP validation chapter, on :mod:`cmtlab.testbed`.

* :func:`calibrate` — ping RTT and single-path TCP goodput of the emulated paths vs configured.
* :func:`alheid_table1` — Alheid et al. {cite}`alheid2016`, Table I, Linux column (taken from
  Barré's thesis, their ref. [18]): the throughput gain of MPTCP over two equal-rate paths
  over single-path TCP on the best path, for delay differences of 0, 100 and 500 ms.
  The paper does not say whether "delay difference" is a round-trip or a one-way difference;
  both readings are run (``meaning`` ``"rtt"``: path 1 has RTT ``base + Δ``; ``"one_way"``:
  path 1 has one-way delay ``base + Δ``, i.e. RTT ``base + 2Δ``).
* :func:`arabi_runs` — Arabi et al. {cite}`arabi`, sec. 4, first scenario (5 and 2 Mbit/s,
  both 100 ms path delay — ns-3 point-to-point delays are one-way) on the kernel, with and
  without D-SACK, F-RTO and timestamps.
Every run returns the tidy row of :meth:`cmtlab.testbed.TestbedResult.to_row` plus the
experiment's keys; the gains are computed from those rows.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

from ..progress import progress
from . import KernelSettings, expected_ping_rtt_s, path, ping, run_transfer, tcp_goodput_bps

#: Alheid et al., Table I, Linux column (%): comparison targets only.
ALHEID_TABLE1_LINUX_GAIN_PCT = {0.0: 94.0, 0.1: 89.0, 0.5: 23.0}
#: Alheid et al., Table I, their ns-3 column (%).
ALHEID_TABLE1_NS3_GAIN_PCT = {0.0: 90.0, 0.1: 80.0, 0.5: 20.0}
MEANINGS = ("rtt", "one_way")


def calibrate(rates_bps=(5e6, 10e6, 20e6), one_way_delay_s: float = 0.02, *, ping_count: int = 50,
              duration_s: float = 3.0, warmup_s: float = 1.0, progress_bar: bool = True) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(ping table, goodput table).  Ping: ICMP echoes over an idle path of each rate (errors vs
    both one-way delays + serialisation).  Goodput: one single-path Reno flow per rate, queue one
    BDP, goodput over [warmup_s, duration_s] vs the payload share of the rate (1448/1500)."""
    pings, rates = [], []
    for rate in progress(list(rates_bps), desc="calibration", unit="rate", enabled_=progress_bar):
        p = path(rate, one_way_delay_s)
        rtts = ping(p, count=ping_count, interval_s=0.02)
        exp = expected_ping_rtt_s(p)
        pings.append(pd.DataFrame({"rate_bps": rate, "configured_rtt_s": 2 * one_way_delay_s,
                                   "expected_rtt_s": exp, "rtt_s": rtts, "error_s": rtts - exp}))
        r = run_transfer([path(rate, one_way_delay_s / 2)], KernelSettings(congestion="reno"), mptcp=False,
                         duration_s=duration_s, warmup_s=warmup_s)
        row = r.to_row()
        ideal = tcp_goodput_bps(rate)
        row.update(ideal_goodput_bps=ideal, rate_error=r.throughput_bps / ideal - 1)
        rates.append(row)
    return pd.concat(pings, ignore_index=True), pd.DataFrame(rates)


def table1_paths(delta_s: float, meaning: str = "rtt", *, rate_bps: float = 10e6, base_one_way_s: float = 0.01,
                 queue_packets: int = 100):
    """The two equal-rate paths of Table I for a delay difference ``delta_s``."""
    if meaning not in MEANINGS:
        raise ValueError(f"meaning must be one of {MEANINGS}, got {meaning!r}")
    if delta_s < 0:
        raise ValueError(f"delta_s must be >= 0, got {delta_s!r}")
    extra = delta_s / 2 if meaning == "rtt" else delta_s
    return [path(rate_bps, base_one_way_s, queue_packets=queue_packets),
            path(rate_bps, base_one_way_s + extra, queue_packets=queue_packets)]


def alheid_table1(deltas_s=(0.0, 0.1, 0.5), meanings=MEANINGS, congestions=("reno", "cubic"), *,
                  repetitions: int = 3, duration_s: float = 12.0, warmup_s: float = 2.0, rate_bps: float = 10e6,
                  base_one_way_s: float = 0.01, queue_packets: int = 100, settings: KernelSettings | None = None,
                  progress_bar: bool = True) -> pd.DataFrame:
    """All runs of Table I on the kernel: per congestion control, ``repetitions`` single-path TCP
    runs on the best path (path 0) and MPTCP runs for every (meaning, Δ) (Δ = 0 once)."""
    if repetitions < 1:
        raise ValueError(f"repetitions must be >= 1, got {repetitions!r}")
    base = settings or KernelSettings()
    jobs = []
    for cc in congestions:
        for rep in range(repetitions):
            jobs.append(dict(congestion=cc, rep=rep, kind="tcp", meaning="-", delta_s=0.0))
            done = set()
            for meaning in meanings:
                for d in deltas_s:
                    key = (0.0, "rtt") if d == 0 else (d, meaning)
                    if key in done:
                        continue
                    done.add(key)
                    jobs.append(dict(congestion=cc, rep=rep, kind="mptcp", meaning=key[1] if d else "both", delta_s=d))
    rows = []
    for job in progress(jobs, desc="Table I (kernel)", unit="run", enabled_=progress_bar):
        ks = dataclasses.replace(base, congestion=job["congestion"])
        paths = table1_paths(job["delta_s"], "rtt" if job["meaning"] in ("both", "-") else job["meaning"],
                             rate_bps=rate_bps, base_one_way_s=base_one_way_s, queue_packets=queue_packets)
        if job["kind"] == "tcp":
            paths = paths[:1]
        r = run_transfer(paths, ks, mptcp=job["kind"] == "mptcp", duration_s=duration_s, warmup_s=warmup_s,
                         seed=job["rep"])
        rows.append({**job, "warmup_s": warmup_s, **r.to_row()})
    return pd.DataFrame(rows)


def gains(runs: pd.DataFrame) -> pd.DataFrame:
    """MPTCP gain over single-path TCP on the best path, per (congestion, meaning, Δ): the gain of
    the mean throughputs, and the spread (std, min, max) of the per-repetition gains (each MPTCP
    run over the mean TCP throughput of the same congestion control)."""
    tcp = runs[runs.kind == "tcp"].groupby("congestion").throughput_bps.mean()
    m = runs[runs.kind == "mptcp"].copy()
    m["gain_pct"] = 100 * (m.throughput_bps / m.congestion.map(tcp) - 1)
    out = []
    present = [x for x in MEANINGS if (m.meaning == x).any()] or ["rtt"]
    for meaning in present:
        sel = m[(m.meaning == meaning) | (m.meaning == "both")]
        for (cc, d), g in sel.groupby(["congestion", "delta_s"]):
            out.append(dict(congestion=cc, meaning=meaning, delta_ms=round(d * 1e3),
                            rtt1_ms=round(1e3 * g.path1_rtt_s.iloc[0]),
                            tcp_mbps=tcp[cc] / 1e6, mptcp_mbps=g.throughput_bps.mean() / 1e6,
                            gain_pct=100 * (g.throughput_bps.mean() / tcp[cc] - 1),
                            gain_std_pct=g.gain_pct.std(ddof=1) if len(g) > 1 else np.nan,
                            gain_min_pct=g.gain_pct.min(), gain_max_pct=g.gain_pct.max(), n=len(g),
                            sub1_share=(g.sub1_bytes / (g.sub0_bytes + g.sub1_bytes)).mean()
                            if "sub1_bytes" in g else np.nan,
                            sub1_sndbuf_limited_ms=g.get("sub1_sndbuf_limited_ms", pd.Series(dtype=float)).mean(),
                            paper_linux_pct=ALHEID_TABLE1_LINUX_GAIN_PCT.get(round(d, 3), np.nan)))
    return pd.DataFrame(out)


#: Option sets of the Arabi scenario on the kernel.
ARABI_VARIANTS = {
    "D-SACK + F-RTO + timestamps (Linux default)": dict(dsack=True, frto=2, timestamps=True),
    "none of the three": dict(dsack=False, frto=0, timestamps=False),
}


def arabi_paths(queue_packets: int = 100):
    """Arabi et al., sec. 4, first scenario: 5 and 2 Mbit/s, 100 ms (one-way) on both links."""
    return [path(5e6, 0.1, queue_packets=queue_packets), path(2e6, 0.1, queue_packets=queue_packets)]


def arabi_runs(*, repetitions: int = 3, duration_s: float = 12.0, warmup_s: float = 2.0, congestion: str = "reno",
               variants=None, progress_bar: bool = True) -> pd.DataFrame:
    """MPTCP over Arabi's first scenario on the kernel, per option variant and repetition."""
    variants = variants or ARABI_VARIANTS
    jobs = [(name, rep) for rep in range(repetitions) for name in variants]
    rows = []
    for name, rep in progress(jobs, desc="Arabi (kernel)", unit="run", enabled_=progress_bar):
        ks = KernelSettings(congestion=congestion, **variants[name])
        r = run_transfer(arabi_paths(), ks, mptcp=True, duration_s=duration_s, warmup_s=warmup_s, seed=rep)
        rows.append({"variant": name, "rep": rep, "warmup_s": warmup_s, **r.to_row()})
    return pd.DataFrame(rows)


# ---------------------------------------------------------------- the simulator column
#: The simulator configured like the kernel (issue 11): uncoupled Reno subflows (Linux's MPTCP
#: subflows are uncoupled; Reno is always built in) and a lowest-RTT-first scheduler (what the
#: kernel's ``default`` scheduler does when several subflows have window space).
SIM_LIKE_KERNEL = dict(congestion="uncoupled", scheduler="lowest_rtt")


def simulator_available() -> str | None:
    """None when :func:`cmtlab.sim.simulate_mptcp` and the mechanisms of
    :data:`SIM_LIKE_KERNEL` exist, else the reason (shown by the chapter instead of numbers)."""
    try:
        from ..sim import registry, simulate_mptcp  # noqa: F401
    except ImportError as exc:
        return f"cmtlab.sim.simulate_mptcp is not available ({exc})"
    for kind, name in (("congestion", SIM_LIKE_KERNEL["congestion"]), ("scheduler", SIM_LIKE_KERNEL["scheduler"])):
        try:
            if name not in registry.names(kind):
                return f"cmtlab.sim has no {kind} {name!r} (registered: {registry.names(kind)})"
        except ValueError as exc:
            return f"cmtlab.sim registry: {exc}"
    return None


def _sim_throughput_bps(result, warmup_s: float, duration_s: float) -> float:
    """Goodput over [warmup_s, duration_s] when the result has a delivery time series, else the
    whole-run goodput (slow start included: a slight underestimate)."""
    series = getattr(result, "delivered", None)
    if isinstance(series, pd.DataFrame) and {"t_s", "bytes"} <= set(series.columns) and warmup_s > 0:
        t, b = series.t_s.to_numpy(float), series.bytes.to_numpy(float)
        return float((np.interp(duration_s, t, b) - np.interp(warmup_s, t, b)) * 8 / (duration_s - warmup_s))
    thr = getattr(result, "throughput_bps", None)
    if thr is None:
        thr = result.to_row()["throughput_bps"]
    return float(thr)


def simulate_like_kernel(runs: pd.DataFrame, *, congestion: str | None = None, scheduler: str | None = None,
                         progress_bar: bool = True, **options) -> pd.DataFrame:
    """The simulator column: every row of ``runs`` (kernel rows of :func:`alheid_table1` or
    :func:`arabi_runs`) re-run in :func:`cmtlab.sim.simulate_mptcp` with the same path rates,
    RTTs (``simulate_mptcp`` takes round-trip delays), run length and repetition seed, uncoupled
    Reno subflows and a lowest-RTT-first scheduler (:data:`SIM_LIKE_KERNEL`).  Single-path TCP
    rows run as a one-path connection.  Returns the same tidy rows with ``simulator`` naming the
    simulator and ``throughput_bps`` its goodput, so :func:`gains` applies unchanged.
    RuntimeError with the reason when the simulator is not available.  ``options`` go to
    ``simulate_mptcp`` (e.g. a queue size)."""
    reason = simulator_available()
    if reason:
        raise RuntimeError(reason)
    from ..sim import simulate_mptcp
    cc = congestion or SIM_LIKE_KERNEL["congestion"]
    sched = scheduler or SIM_LIKE_KERNEL["scheduler"]
    out = []
    for _, row in progress(list(runs.iterrows()), desc="simulator", unit="run", enabled_=progress_bar):
        n = 1 if row.get("kind") == "tcp" else int(row["n_paths"])
        rates = [float(row[f"path{i}_rate_bps"]) for i in range(n)]
        rtts = [float(row[f"path{i}_rtt_s"]) for i in range(n)]
        duration, warm = float(row["duration_s"]), float(row.get("warmup_s", 0.0) or 0.0)
        r = simulate_mptcp(rates, rtts, duration_s=duration, congestion=cc, scheduler=sched,
                           seed=int(row.get("rep", 0)), **options)
        new = {k: row[k] for k in runs.columns if not k.startswith(("sub", "k_", "wall_", "congestion_used"))}
        new.update(simulator="cmtlab.sim", sim_congestion=cc, sim_scheduler=sched,
                   throughput_bps=_sim_throughput_bps(r, warm, duration))
        sub_bytes = getattr(r, "subflow_bytes", None)
        if sub_bytes is not None:
            for i, b in enumerate(sub_bytes):
                new[f"sub{i}_bytes"] = b
        out.append(new)
    return pd.DataFrame(out)
