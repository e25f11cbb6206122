"""Rate-trace replay on both sides: does the testbed's delay line, and does ``cmtlab.sim``, deliver a per-second
rate schedule where the link is backlogged."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pandas as pd

from ..validation.kernel_sim import DELAY_LINE_DRAWS as LOSS_DRAWS  # noqa: F401
from .agreement import SIM_CONFIGS
from .cells import TRACE_SECONDS, TRACES, _linux_options, trace_path

BACKLOGGED_IDLE_SHARE = 0.01


def _replay_table(sched, interval_s, line_bytes, idle_s, lo_i, hi_i, goodput_bytes=None) -> pd.DataFrame:
    """One row per schedule interval ``lo_i <= i < hi_i``: scheduled rate, the line's delivered rate, the idle
    share, ``backlogged``, the relative and per-packet errors, TCP's goodput and the payload share of the rate."""
    from ..testbed import MTU_BYTES, tcp_goodput_bps

    rows = []
    for i in range(lo_i, hi_i):
        want = float(sched[i % len(sched)])
        got = 8.0 * float(line_bytes[i]) / interval_s
        idle = float(idle_s[i]) / interval_s
        row = dict(interval=i, t_s=i * interval_s, scheduled_bps=want, delivered_bps=got, idle_share=idle,
                   backlogged=idle <= BACKLOGGED_IDLE_SHARE,
                   rel_error=(got - want) / want if want > 0 else np.nan,
                   error_packets=(got - want) * interval_s / 8 / MTU_BYTES)
        if goodput_bytes is not None:
            row["goodput_bps"] = 8.0 * float(goodput_bytes[i]) / interval_s
            row["payload_share_bps"] = tcp_goodput_bps(want)
        rows.append(row)
    return pd.DataFrame(rows)


def _bin_cumulative(times_s, cum_bytes, edges_s) -> np.ndarray:
    """Bytes per bin between ``edges_s`` of a cumulative byte count sampled at ``times_s``."""
    at = np.interp(edges_s, times_s, cum_bytes, left=0.0)
    return np.diff(at)


def replay_check_testbed(rates_bps, delay_s: float, *, interval_s: float = 1.0, queue_packets: int = 400,
                         congestion: str = "cubic", warmup_s: float = 2.0, seed: int = 0) -> pd.DataFrame:
    """The delay line's replay of a rate schedule, measured: one single-path TCP flow (``congestion``) saturates
    a path whose data direction replays ``rates_bps`` (one per ``interval_s``, :class:`cmtlab.testbed.Direction`'s
    ``rate_schedule_bps``) for the schedule's length; one row per schedule interval wholly inside
    [transfer start + ``warmup_s``, transfer end] (:func:`_replay_table`): what the line wrote out per interval
    (its own count, binned by write time minus the propagation delay — late writes move bytes to the next
    interval), how long its serialiser was idle (``backlogged`` when at most :data:`BACKLOGGED_IDLE_SHARE`), and
    the goodput the receiving application read, binned one propagation delay later.  Needs root (the testbed);
    run it under the testbed lock.  Columns ``schedule_offset_s`` (transfer start after the schedule's start) and
    ``max_late_s`` (the line's latest write after a packet's due time) describe the run."""
    from ..testbed import Direction, EmulatedPath, KernelSettings, run_transfer

    rates = tuple(float(r) for r in rates_bps)
    duration = len(rates) * interval_s
    if not duration > warmup_s + interval_s:
        raise ValueError(f"rates_bps must span more than warmup_s + one interval, got {len(rates)} intervals")
    mean = float(np.mean(rates))
    p = EmulatedPath(Direction(mean, delay_s, queue_packets, None, 0.0, rate_schedule_bps=rates,
                               schedule_interval_s=interval_s),
                     Direction(mean, delay_s, queue_packets, None, 0.0))
    r = run_transfer([p], KernelSettings(congestion=congestion), mptcp=False, duration_s=duration,
                     warmup_s=warmup_s, seed=seed)
    ab = r.counters[0]["ab"]
    t0 = float(r.counters[0]["t0_s"])
    offset = r.t_start_monotonic_s - t0
    n = len(ab["interval_bytes"])
    smp = np.asarray(r.received_samples, dtype=float)
    edges = t0 + delay_s + interval_s * np.arange(n + 1)
    good = _bin_cumulative(smp[:, 0], smp[:, 1], edges) if len(smp) else np.zeros(n)
    lo = int(math.ceil((offset + warmup_s) / interval_s))
    hi = min(n, int(math.floor((offset + duration) / interval_s)))
    out = _replay_table(rates, interval_s, ab["interval_bytes"], ab["interval_idle_s"], lo, hi, good)
    return out.assign(where="testbed", schedule_offset_s=offset, max_late_s=float(ab["max_late_s"]),
                      kernel=r.info.get("kernel"))


def replay_check_sim(rates_bps, delay_s: float, *, interval_s: float = 1.0, queue_packets: int = 400,
                     warmup_s: float = 2.0, seed: int = 0) -> pd.DataFrame:
    """The same measurement for cmtlab.sim's :class:`~cmtlab.sim.net.trace_link.RateTraceLink`: one single-path
    flow (Linux's CUBIC, RACK-TLP, as :data:`SIM_CONFIGS` ``"today"``) over a path replaying ``rates_bps`` from the
    start of the run, the packet trace giving each packet's entry into the link and its arrival (serialisation
    end = arrival - propagation delay): bytes whose serialisation ended in each interval, the link's idle time
    (between a serialisation's end and the next packet's entry), and the in-order payload the receiver held
    (binned one propagation delay later, as on the testbed)."""
    from ..sim import simulate_mptcp
    rates = tuple(float(r) for r in rates_bps)
    duration = len(rates) * interval_s
    if not duration > warmup_s + interval_s:
        raise ValueError(f"rates_bps must span more than warmup_s + one interval, got {len(rates)} intervals")
    cfg = {k: v for k, v in SIM_CONFIGS["today"]["cubic"].items() if k not in ("loss_draws", "recovery")}
    lin = _linux_options(4 << 20)
    lin["options"] = dataclasses.replace(lin["options"], recovery=SIM_CONFIGS["today"]["cubic"]["recovery"])
    res = simulate_mptcp([float(np.mean(rates))], [2 * delay_s], duration_s=duration, seed=seed,
                         queue_packets=queue_packets,
                         links=[("rate_trace", {"rates_bps": rates, "interval_s": interval_s})],
                         trace=True, **lin, **cfg)
    pk = res.traces["packets"]
    pk = pk[pk.arrival_s.notna()].sort_values("arrival_s")
    finish = pk.arrival_s.to_numpy() - delay_s
    n = int(math.ceil(duration / interval_s)) + 1
    idx = np.floor(finish / interval_s).astype(int)
    line = np.bincount(idx[(idx >= 0) & (idx < n)], weights=pk.wire_bytes.to_numpy()[(idx >= 0) & (idx < n)],
                       minlength=n)
    # idle: the link waits between the end of one serialisation and the entry of the next packet (FIFO order)
    sent = pk.sort_values("time_s").time_s.to_numpy()
    idle = np.zeros(n)
    end_prev = 0.0
    for t_in, t_out in zip(sent, np.sort(finish)):
        if t_in > end_prev:
            a = end_prev
            while a < t_in:
                i = int(a // interval_s)
                if i >= n:
                    break
                b = min(t_in, (i + 1) * interval_s)
                idle[i] += b - a
                a = b
        end_prev = max(end_prev, t_out)
    # in-order payload at the receiver: the next expected sequence number advanced at every arrival
    seg = _linux_options(4 << 20)["segment_bytes"]
    got, nxt, ts, cum = set(), 0, [], []
    for t, q in zip(pk.arrival_s.to_numpy(), pk.dsn.to_numpy()):
        got.add(int(q))
        while nxt in got:
            nxt += 1
        ts.append(t)
        cum.append(nxt * seg)
    good = _bin_cumulative(np.asarray(ts), np.asarray(cum, dtype=float), delay_s + interval_s * np.arange(n + 1)) \
        if ts else np.zeros(n)
    lo = int(math.ceil(warmup_s / interval_s))
    hi = int(math.floor(duration / interval_s))
    return _replay_table(rates, interval_s, line, idle, lo, hi, good).assign(where="cmtlab.sim")


def replay_checks(*, seconds: int = 25, testbed: bool = True, queue_packets: int = 400, seed: int = 0) -> pd.DataFrame:
    """Both traces of :data:`TRACES` (their first ``seconds`` of :func:`trace_path`'s window) replayed by
    the testbed's delay line (``testbed=True``: needs root, run under the testbed lock) and by cmtlab.sim,
    one single-path CUBIC flow each (:func:`replay_check_testbed`, :func:`replay_check_sim`); column
    ``trace``.  :func:`replay_summary` states the agreement."""
    if not isinstance(seconds, int) or not 5 <= seconds <= TRACE_SECONDS:
        raise ValueError(f"seconds must be an integer in [5, {TRACE_SECONDS}], got {seconds!r}")
    out = []
    for name in TRACES:
        tp = trace_path(name)
        rates = tp["rates_bps"][:seconds]
        if testbed:
            out.append(replay_check_testbed(rates, tp["delay_s"], queue_packets=queue_packets, seed=seed)
                       .assign(trace=name))
        out.append(replay_check_sim(rates, tp["delay_s"], queue_packets=queue_packets, seed=seed).assign(trace=name))
    return pd.concat(out, ignore_index=True)


def replay_summary(table: pd.DataFrame) -> pd.DataFrame:
    """Per replay (``where``, and ``trace`` when present): intervals, backlogged intervals, and over the
    backlogged ones with a rate > 0 the median and largest absolute relative error of the delivered
    rate, the largest absolute error in packets, the share within 2 % or one packet; outage intervals
    (rate 0) and what was delivered in them.
    The statement the chapter makes about a replay."""
    keys = [k for k in ("trace", "where") if k in table]
    rows = []
    for key, g in table.groupby(keys, sort=False):
        b = g[g.backlogged & (g.scheduled_bps > 0)]
        ok = (b.rel_error.abs() <= 0.02) | (b.error_packets.abs() <= 1.0)
        out = g[g.scheduled_bps == 0]
        rows.append(dict(zip(keys, key if isinstance(key, tuple) else (key,)), intervals=len(g), backlogged=len(b),
                         median_abs_rel_error=float(b.rel_error.abs().median()) if len(b) else np.nan,
                         max_abs_rel_error=float(b.rel_error.abs().max()) if len(b) else np.nan,
                         max_abs_error_packets=float(b.error_packets.abs().max()) if len(b) else np.nan,
                         share_within_2pct_or_1_packet=float(ok.mean()) if len(b) else np.nan,
                         outage_intervals=len(out), delivered_in_outages_bps=float(out.delivered_bps.max())
                         if len(out) else np.nan))
    return pd.DataFrame(rows)


#: The simulator configurations of :func:`~cmtlab.today.agreement.sim_runs`, by the kernel's congestion control: the named configurations
#: of :data:`cmtlab.validation.kernel_sim.KERNEL_CONFIGS` this chapter shows — ``"linux"`` (today's Linux, the
#: kernel-like configuration) and the chapter's earlier ``"today"``, ``"today-dupack"`` and ``"before"``.
