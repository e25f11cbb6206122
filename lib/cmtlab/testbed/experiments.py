"""The kernel runs of the Linux-MPTCP validation chapter, as jobs for :mod:`cmtlab.testbed` (nothing here
analyses them: :mod:`cmtlab.validation.kernel_sim` computes their gains and runs the simulator beside them).

* :func:`calibrate_rate` — ping RTT and single-path TCP goodput of the emulated paths vs configured, one rate.
* :func:`table1_jobs` — Alheid et al. {cite}`alheid2016`, Table I, Linux column (taken
  from Barré's thesis, their ref. [18]): MPTCP over two equal-rate paths and single-path TCP on the best path,
  for delay differences of 0, 100 and 500 ms.  The paper does not say whether "delay difference" is a
  round-trip or a one-way difference; both readings are run (``meaning`` ``"rtt"``: path 1 has RTT
  ``base + Δ``; ``"one_way"``: path 1 has one-way delay ``base + Δ``, i.e. RTT ``base + 2Δ``).
* :func:`arabi_jobs` — Arabi et al., sec. 4, first scenario (5 and 2 Mbit/s,
  both 100 ms path delay — ns-3 point-to-point delays are one-way) on the kernel, with and
  without D-SACK, F-RTO and timestamps; :func:`arabi_paper_jobs` — both of Arabi's scenarios (the second: 5 / 2 /
  7 Mbit/s, 100 / 10 / 50 ms one-way) with each of the paper's mechanisms as Linux has it, for the
  today's-stack column of the paper's claims.

Every run returns the tidy row of :meth:`cmtlab.testbed.TestbedResult.to_row` plus the
experiment's keys.
"""

from __future__ import annotations

import dataclasses
import os
import time

import pandas as pd

from ..progress import progress
from ..scenario import DELAY_DIFFERENCE_MEANINGS as MEANINGS
from . import KernelSettings, expected_ping_rtt_s, path, ping, run_transfer, tcp_goodput_bps



#: The columns that say which calibration a row belongs to (one per argument of :func:`calibrate_rate`).
CALIBRATION_KEYS = ("calib_rate_bps", "calib_one_way_s", "calib_ping_count", "calib_duration_s", "calib_warmup_s")


def calibrate_rate(rate_bps: float, one_way_delay_s: float = 0.02, *, ping_count: int = 50, duration_s: float = 3.0,
                   warmup_s: float = 1.0, provenance: bool = False) -> tuple[pd.DataFrame, dict]:
    """One rate of the calibration: (its echoes, its goodput row), both carrying :data:`CALIBRATION_KEYS`
    (``provenance``: and ``recorded_unix_s``, ``load1_before``, ``load1_after``)."""
    keys = dict(zip(CALIBRATION_KEYS, (float(rate_bps), float(one_way_delay_s), int(ping_count), float(duration_s),
                                       float(warmup_s))))
    extra = dict(load1_before=os.getloadavg()[0]) if provenance else {}
    p = path(rate_bps, one_way_delay_s)
    rtts = ping(p, count=ping_count, interval_s=0.02)
    exp = expected_ping_rtt_s(p)
    pings = pd.DataFrame({"rate_bps": rate_bps, "configured_rtt_s": 2 * one_way_delay_s,
                          "expected_rtt_s": exp, "rtt_s": rtts, "error_s": rtts - exp, **keys})
    r = run_transfer([path(rate_bps, one_way_delay_s / 2)], KernelSettings(congestion="reno"), mptcp=False,
                     duration_s=duration_s, warmup_s=warmup_s)
    ideal = tcp_goodput_bps(rate_bps)
    if provenance:
        extra.update(load1_after=os.getloadavg()[0], recorded_unix_s=time.time())
        pings = pings.assign(**extra)
    row = {**keys, **extra, **r.to_row(), "ideal_goodput_bps": ideal, "rate_error": r.throughput_bps / ideal - 1}
    return pings, row


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


def table1_jobs(deltas_s=(0.0, 0.1, 0.5), meanings=MEANINGS, congestions=("reno", "cubic"), *,
                repetitions: int = 3, duration_s: float = 12.0, warmup_s: float = 2.0, rate_bps: float = 10e6,
                base_one_way_s: float = 0.01, queue_packets: int = 100,
                settings: KernelSettings | None = None) -> list[dict]:
    """The runs of Table I as jobs (nothing runs): per congestion control, ``repetitions`` single-path TCP
    runs on the best path (path 0) and MPTCP runs for every (meaning, Δ) (Δ = 0 once).  A job is
    ``{"labels": {congestion, rep, kind, meaning, delta_s}, "run": run_transfer's arguments}`` (:func:`run_jobs`
    runs them; :mod:`cmtlab.testbed.recorded` finds them in recorded runs)."""
    if repetitions < 1:
        raise ValueError(f"repetitions must be >= 1, got {repetitions!r}")
    base = settings or KernelSettings()
    jobs = []
    for cc in congestions:
        for rep in range(repetitions):
            labels = [dict(congestion=cc, rep=rep, kind="tcp", meaning="-", delta_s=0.0)]
            done = set()
            for meaning in meanings:
                for d in deltas_s:
                    key = (0.0, "rtt") if d == 0 else (d, meaning)
                    if key in done:
                        continue
                    done.add(key)
                    labels.append(dict(congestion=cc, rep=rep, kind="mptcp", meaning=key[1] if d else "both",
                                       delta_s=float(d)))
            for lab in labels:
                paths = table1_paths(lab["delta_s"], "rtt" if lab["meaning"] in ("both", "-") else lab["meaning"],
                                     rate_bps=rate_bps, base_one_way_s=base_one_way_s, queue_packets=queue_packets)
                mptcp = lab["kind"] == "mptcp"
                jobs.append(dict(labels=lab, run=dict(paths=paths if mptcp else paths[:1],
                                                      settings=dataclasses.replace(base, congestion=cc), mptcp=mptcp,
                                                      duration_s=duration_s, warmup_s=warmup_s, seed=rep)))
    return jobs


def run_jobs(jobs, *, desc: str = "kernel runs", attempts: int = 1, provenance: bool = False,
             progress_bar: bool = True) -> pd.DataFrame:
    """Run every job of :func:`table1_jobs` / :func:`arabi_jobs` on the kernel, one after another; one row per job:
    its labels, ``warmup_s`` and :meth:`cmtlab.testbed.TestbedResult.to_row`.  A run whose endpoint fails is retried
    up to ``attempts`` times (then RuntimeError naming the job).  ``provenance``: also the machine's 1-minute load
    average before and after the run (``load1_before``, ``load1_after``), when it ended (``recorded_unix_s``) and
    its attempts (``attempts``, ``failed_attempts``) — what a recording keeps."""
    if not isinstance(attempts, int) or attempts < 1:
        raise ValueError(f"attempts must be an integer >= 1, got {attempts!r}")
    rows = []
    for job in progress(list(jobs), desc=desc, unit="run", enabled_=progress_bar):
        load0 = os.getloadavg()[0]
        errors = []
        for _ in range(attempts):
            try:
                r = run_transfer(**job["run"])
                break
            except RuntimeError as exc:  # e.g. an endpoint killed on a loaded machine
                if attempts == 1:
                    raise
                errors.append(str(exc)[:200])
        else:
            raise RuntimeError(f"kernel run {job['labels']} failed {attempts} times: {errors}")
        row = {**job["labels"], "warmup_s": job["run"]["warmup_s"]}
        if provenance:
            row.update(load1_before=load0, load1_after=os.getloadavg()[0], recorded_unix_s=time.time(),
                       attempts=len(errors) + 1, failed_attempts=" | ".join(errors))
        rows.append({**row, **r.to_row()})
    return pd.DataFrame(rows)


#: Option sets of the Arabi scenario on the kernel.
ARABI_VARIANTS = {
    "D-SACK + F-RTO + timestamps (Linux default)": dict(dsack=True, frto=2, timestamps=True),
    "none of the three": dict(dsack=False, frto=0, timestamps=False),
}


#: Arabi's loss-recovery mechanisms as Linux's switches (``tcp_dsack``, ``tcp_frto``, ``tcp_timestamps``; RACK-TLP
#: and SACK stay on): no spurious-retransmission response (NoPR), D-SACK alone, timestamps alone (Eifel's
#: detection: Linux undoes a reduction whose retransmission the echoed timestamp shows spurious), F-RTO alone, and
#: Linux's default (all three).  PR-R, the paper's own proposal, is in no kernel.
ARABI_PAPER_VARIANTS = {
    "D-SACK + F-RTO + timestamps (Linux default)": dict(dsack=True, frto=2, timestamps=True),
    "none of the three": dict(dsack=False, frto=0, timestamps=False),
    "D-SACK only": dict(dsack=True, frto=0, timestamps=False),
    "timestamps only (Eifel)": dict(dsack=False, frto=0, timestamps=True),
    "F-RTO only": dict(dsack=False, frto=2, timestamps=False),
}
#: Arabi et al., sec. 4: per scenario the links' rates (bit/s) and ONE-WAY delays (s).
ARABI_SCENARIOS = {1: ((5e6, 2e6), (0.1, 0.1)), 2: ((5e6, 2e6, 7e6), (0.1, 0.01, 0.05))}


def arabi_paths(queue_packets: int = 100, scenario: int = 1):
    """Arabi et al., sec. 4: the first scenario (5 and 2 Mbit/s, 100 ms one-way on both links) or the second
    (5 / 2 / 7 Mbit/s, 100 / 10 / 50 ms one-way), ``queue_packets`` on every link."""
    if scenario not in ARABI_SCENARIOS:
        raise ValueError(f"scenario must be one of {sorted(ARABI_SCENARIOS)}, got {scenario!r}")
    rates, delays = ARABI_SCENARIOS[scenario]
    return [path(r, d, queue_packets=queue_packets) for r, d in zip(rates, delays)]


def arabi_jobs(*, repetitions: int = 3, duration_s: float = 12.0, warmup_s: float = 2.0, congestion: str = "reno",
               variants=None) -> list[dict]:
    """MPTCP over Arabi's first scenario on the kernel, per option variant and repetition, as jobs (see
    :func:`table1_jobs`; :func:`run_jobs` runs them): labels ``variant``, ``rep``."""
    if repetitions < 1:
        raise ValueError(f"repetitions must be >= 1, got {repetitions!r}")
    variants = variants or ARABI_VARIANTS
    return [dict(labels=dict(variant=name, rep=rep),
                 run=dict(paths=arabi_paths(), settings=KernelSettings(congestion=congestion, **variants[name]),
                          mptcp=True, duration_s=duration_s, warmup_s=warmup_s, seed=rep))
            for rep in range(repetitions) for name in variants]


def arabi_paper_jobs(*, scenarios=(1, 2), variants=None, repetitions: int = 5, duration_s: float = 12.0,
                     warmup_s: float = 2.0, congestion: str = "reno", queue_packets: int = 100) -> list[dict]:
    """Both of Arabi's scenarios on the kernel with each of the paper's mechanisms as Linux has it
    (:data:`ARABI_PAPER_VARIANTS` by default), uncoupled ``congestion`` subflows: jobs for :func:`run_jobs`,
    labels ``scenario``, ``variant``, ``rep`` (the run's delay-line seed)."""
    if repetitions < 1:
        raise ValueError(f"repetitions must be >= 1, got {repetitions!r}")
    variants = variants or ARABI_PAPER_VARIANTS
    return [dict(labels=dict(scenario=sc, variant=name, rep=rep),
                 run=dict(paths=arabi_paths(queue_packets, sc),
                          settings=KernelSettings(congestion=congestion, **variants[name]),
                          mptcp=True, duration_s=duration_s, warmup_s=warmup_s, seed=rep))
            for sc in scenarios for rep in range(repetitions) for name in variants]

