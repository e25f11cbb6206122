"""Today's mechanisms in cmtlab.sim against the real kernel (cmtlab.testbed), cell by cell.

A *cell* is one path configuration and transport (single-path TCP or MPTCP with the kernel's own
scheduler) run ``repetitions`` times on the kernel; the simulator runs the same rows configured like
the kernel (:func:`cmtlab.testbed.experiments.simulate_like_kernel`) in three configurations:

* ``"today"`` — what the kernel runs: RACK-TLP loss detection (RFC 8985, Linux's ``tcp_recovery=1``,
  :class:`~cmtlab.sim.mechanisms.recovery.rack_tlp.RackTlpDetection`) with PRR, CUBIC as Linux runs it
  (:class:`~cmtlab.sim.mechanisms.congestion.cubic.LinuxCubic`, Linux's counting of acknowledged
  segments, HyStart's delay detection) on every subflow and Linux 6.18's MPTCP scheduler
  (:class:`~cmtlab.sim.mechanisms.schedulers.LinuxScheduler`) when the kernel ran CUBIC; Linux's Reno
  (:class:`~cmtlab.sim.mechanisms.congestion.LinuxReno`) when the kernel ran Reno;
* ``"today-dupack"`` — the same with the duplicate-ACK threshold and RFC 6675 ``IsLost`` instead of
  RACK-TLP (the configuration before RACK-TLP was wired into the sender);
* ``"before"`` — the book's first kernel-like configuration: uncoupled ns-3 NewReno, lowest RTT first.

Not modelled (the kernel has them): D-SACK/timestamp undo of spurious reductions and F-RTO (Linux's
``tcp_frto=2``) in ``"today"``, HyStart's ACK-train detection, pacing, TSO/GRO batching, receive-buffer
autotuning.  :func:`agreement` states per cell and metric whether the simulator's mean over the same
seeds lies inside the kernel's spread (min..max over the repetitions).
"""

from __future__ import annotations

import dataclasses
import os
import time

import numpy as np
import pandas as pd

from ..progress import progress

#: Cells: name, transport, kernel congestion control, paths as (rate bit/s, one-way delay s, queue
#: packets, random loss[, per-packet delay variation s]).  The first is the path where the kernel-like
#: simulator was found at half the kernel's goodput (10 Mbit/s, 60 ms RTT, 1 % loss).  The ``jitter``
#: cells reorder: each data packet's one-way delay varies uniformly over [0, J) (the delay line's
#: ``--jitter``, :class:`cmtlab.sim.net.jitter.JitterLink`), J of 2-4 packet times.
CELLS = (
    dict(cell="tcp cubic 10M/60ms 1% loss", kind="tcp", congestion="cubic", paths=((10e6, 0.03, 100, 0.01),)),
    dict(cell="tcp reno 10M/60ms 1% loss", kind="tcp", congestion="reno", paths=((10e6, 0.03, 100, 0.01),)),
    dict(cell="tcp cubic 10M/60ms 0.1% loss", kind="tcp", congestion="cubic", paths=((10e6, 0.03, 100, 0.001),)),
    dict(cell="tcp cubic 20M/40ms queue 30", kind="tcp", congestion="cubic", paths=((20e6, 0.02, 30, 0.0),)),
    dict(cell="mptcp cubic 10M/20ms + 10M/100ms", kind="mptcp", congestion="cubic",
         paths=((10e6, 0.01, 100, 0.0), (10e6, 0.05, 100, 0.0))),
    dict(cell="mptcp cubic 10M/20ms + 5M/200ms 0.1% loss", kind="mptcp", congestion="cubic",
         paths=((10e6, 0.01, 100, 0.001), (5e6, 0.1, 100, 0.001))),
    dict(cell="tcp cubic 20M/40ms 0.5% loss", kind="tcp", congestion="cubic", paths=((20e6, 0.02, 100, 0.005),)),
    dict(cell="mptcp cubic 10M/20ms + 10M/100ms 1% loss", kind="mptcp", congestion="cubic",
         paths=((10e6, 0.01, 100, 0.01), (10e6, 0.05, 100, 0.01))),
    dict(cell="tcp cubic 10M/40ms jitter 4ms", kind="tcp", congestion="cubic", paths=((10e6, 0.02, 100, 0.0, 0.004),)),
    dict(cell="tcp cubic 20M/40ms jitter 2ms 0.2% loss", kind="tcp", congestion="cubic",
         paths=((20e6, 0.02, 100, 0.002, 0.002),)),
    dict(cell="mptcp cubic 10M/20ms jitter 4ms + 10M/100ms", kind="mptcp", congestion="cubic",
         paths=((10e6, 0.01, 100, 0.0, 0.004), (10e6, 0.05, 100, 0.0))),
)


def kernel_runs(cells=CELLS, *, repetitions: int = 3, duration_s: float = 20.0, warmup_s: float = 2.0,
                attempts: int = 3, checkpoint=None, progress_bar: bool = True) -> pd.DataFrame:
    """Every cell ``repetitions`` times on the kernel testbed; one tidy row per run (the testbed's
    :meth:`~cmtlab.testbed.TestbedResult.to_row` plus ``cell``, ``kind``, ``rep``, ``warmup_s`` and the
    machine's 1-minute load average before and after the run, ``load1_before``/``load1_after``).
    A run whose endpoint fails is retried up to ``attempts`` times (``attempts``/``failed_attempts``
    record it); ``checkpoint``: a CSV path rewritten after every run."""
    from ..testbed import KernelSettings, path, run_transfer

    if not isinstance(repetitions, int) or repetitions < 1:
        raise ValueError(f"repetitions must be an integer >= 1, got {repetitions!r}")
    jobs = [(c, rep) for c in cells for rep in range(repetitions)]
    rows = []
    for c, rep in progress(jobs, desc="kernel cells", unit="run", enabled_=progress_bar):
        paths = [path(r, d, queue_packets=q, loss=p, jitter_s=(j[0] if j else 0.0)) for r, d, q, p, *j in c["paths"]]
        ks = dataclasses.replace(KernelSettings(), congestion=c["congestion"])
        load0 = os.getloadavg()[0]
        errors = []
        for _attempt in range(attempts):
            try:
                r = run_transfer(paths, ks, mptcp=c["kind"] == "mptcp", duration_s=duration_s, warmup_s=warmup_s,
                                 seed=rep)
                break
            except RuntimeError as exc:  # e.g. an endpoint killed on a loaded machine: retried, recorded
                errors.append(str(exc)[:200])
        else:
            raise RuntimeError(f"cell {c['cell']!r} repetition {rep} failed {attempts} times: {errors}")
        rows.append({"cell": c["cell"], "kind": c["kind"], "rep": rep, "warmup_s": warmup_s,
                     "load1_before": load0, "load1_after": os.getloadavg()[0], "recorded_unix_s": time.time(),
                     "attempts": len(errors) + 1, "failed_attempts": " | ".join(errors), **r.to_row()})
        if checkpoint is not None:
            pd.DataFrame(rows).to_csv(checkpoint, index=False)
    return pd.DataFrame(rows)


#: The simulator configurations of :func:`sim_runs`, by the kernel's congestion control.
SIM_CONFIGS = {
    "today": {"cubic": dict(congestion="cubic", congestion_params={"variant": "linux", "hystart": True},
                            scheduler="linux", loss_detection="rack-tlp"),
              "reno": dict(congestion="reno", scheduler="linux", loss_detection="rack-tlp")},
    "today-dupack": {"cubic": dict(congestion="cubic", congestion_params={"variant": "linux", "hystart": True},
                                   scheduler="linux"),
                     "reno": dict(congestion="reno", scheduler="linux")},
    "before": {"cubic": dict(congestion="uncoupled", scheduler="lowest_rtt"),
               "reno": dict(congestion="uncoupled", scheduler="lowest_rtt")},
}


def sim_runs(kernel: pd.DataFrame, configs=SIM_CONFIGS, *, progress_bar: bool = True) -> pd.DataFrame:
    """The simulator's rows for every kernel row, in every configuration of ``configs``
    (column ``sim_config``), via :func:`cmtlab.testbed.experiments.simulate_like_kernel`."""
    from ..testbed.experiments import simulate_like_kernel

    out = []
    for name, by_cc in configs.items():
        for cc, group in kernel.groupby("k_congestion"):
            if cc not in by_cc:
                raise ValueError(f"configs[{name!r}] has no entry for the kernel's congestion control {cc!r}")
            sim = simulate_like_kernel(group, progress_bar=progress_bar, **by_cc[cc])
            sim["sim_config"] = name
            sim["cell"] = group["cell"].to_numpy()
            out.append(sim)
    return pd.concat(out, ignore_index=True)


def _metric(df: pd.DataFrame, metric: str) -> pd.Series:
    n = df["n_paths"].fillna(1).astype(int) if "n_paths" in df else pd.Series(1, index=df.index)
    if metric == "goodput_mbps":
        return df["throughput_bps"] / 1e6
    col = {"retransmissions": "retrans_total", "spurious_retransmissions": "dsack_dups"}[metric]
    sim_col = {"retransmissions": "retrans_total", "spurious_retransmissions": "spurious_retransmissions"}[metric]
    vals = []
    for idx, row in df.iterrows():
        tot = 0.0
        for i in range(int(n[idx])):
            v = row.get(f"sub{i}_{sim_col if row.get('simulator') == 'cmtlab.sim' else col}", np.nan)
            tot += float(v) if pd.notna(v) else 0.0
        vals.append(tot)
    return pd.Series(vals, index=df.index)


METRICS = ("goodput_mbps", "retransmissions", "spurious_retransmissions")


def agreement(kernel: pd.DataFrame, sim: pd.DataFrame, metrics=METRICS) -> pd.DataFrame:
    """One row per (cell, simulator configuration, metric): the kernel's mean, min and max over its
    repetitions, the simulator's mean over the same seeds, ``ratio`` = sim mean / kernel mean and
    ``inside`` = the simulator's mean lies within the kernel's [min, max] (the goal: >= 80 % of cells);
    ``within_5pct`` — a second, separately named reading for cells whose kernel spread is narrower
    than anything the two can be expected to share (e.g. ±0.1 % goodput on a saturated path):
    the means differ by at most 5 % of the kernel's (a kernel mean of 0 needs a simulator mean of 0).
    Spurious retransmissions are the kernel's D-SACK-reported duplicates (``ss`` ``dsack_dups``)
    and the simulator's retransmissions of segments the receiver already held."""
    rows = []
    for cell, kg in kernel.groupby("cell", sort=False):
        for cfg, sg in sim[sim["cell"] == cell].groupby("sim_config", sort=False):
            for m in metrics:
                k = _metric(kg, m)
                s = _metric(sg, m)
                lo, hi = float(k.min()), float(k.max())
                rows.append(dict(cell=cell, sim_config=cfg, metric=m, kernel_mean=float(k.mean()), kernel_min=lo,
                                 kernel_max=hi, sim_mean=float(s.mean()),
                                 ratio=float(s.mean() / k.mean()) if k.mean() else np.nan,
                                 inside=bool(lo <= float(s.mean()) <= hi),
                                 within_5pct=bool(abs(float(s.mean()) - float(k.mean())) <= 0.05 * abs(float(k.mean())))
                                 if k.mean() else bool(s.mean() == 0),
                                 n_kernel=len(k), n_sim=len(s)))
    return pd.DataFrame(rows)


__all__ = ["CELLS", "SIM_CONFIGS", "METRICS", "kernel_runs", "sim_runs", "agreement"]
