"""The kernel side of the agreement table: the cells (path configurations and transports), their paths on the
testbed, and the kernel's runs and internal counters (``nstat``) per cell."""

from __future__ import annotations

import dataclasses
import functools
import os
import time

import numpy as np
import pandas as pd

from ..progress import progress
from ..validation.kernel_sim import DELAY_LINE_DRAWS as LOSS_DRAWS  # noqa: F401

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
    # trace-driven: the rate (per second) and round trip come from the data (:func:`trace_path`)
    dict(cell="tcp cubic 5G trace", kind="tcp", congestion="cubic", paths=(("5g", None, 100, 0.0),)),
    dict(cell="tcp cubic Starlink trace", kind="tcp", congestion="cubic", paths=(("starlink", None, 100, 0.0),)),
    dict(cell="mptcp cubic 5G + Starlink traces", kind="mptcp", congestion="cubic",
         paths=(("5g", None, 100, 0.0), ("starlink", None, 100, 0.0))),
)

#: The wider table's cells, 5 repetitions each: what five scenarios measured on the testbed span and what the
#: papers are about — several paths, per-path loss, small and unequal queues, jitter with loss, strong rate and
#: delay asymmetry together (a fast short path beside a slow long one, where the receive window and the
#: scheduler decide), Arabi's second scenario — MPTCP with the kernel's own scheduler, CUBIC and, on the issue's
#: cases, Reno.  A path's queue is packets, ``None`` (the testbed's default: one bandwidth-delay product of
#: 1500-byte packets, at least 20, :func:`cmtlab.testbed.path`; each path its own) or ``("bytes", n)`` (the
#: delay line counts IP bytes).
WIDER_CELLS = (
    dict(cell="mptcp cubic 3 paths 10M/20ms + 5M/80ms + 2M/160ms", kind="mptcp", congestion="cubic",
         paths=((10e6, 0.01, 100, 0.0), (5e6, 0.04, 100, 0.0), (2e6, 0.08, 100, 0.0))),
    dict(cell="mptcp reno 3 paths 10M/20ms + 5M/80ms + 2M/160ms", kind="mptcp", congestion="reno",
         paths=((10e6, 0.01, 100, 0.0), (5e6, 0.04, 100, 0.0), (2e6, 0.08, 100, 0.0))),
    dict(cell="mptcp cubic 10M/40ms 0.5% loss + 10M/100ms", kind="mptcp", congestion="cubic",
         paths=((10e6, 0.02, 100, 0.005), (10e6, 0.05, 100, 0.0))),
    dict(cell="mptcp reno 10M/40ms 0.5% loss + 10M/100ms", kind="mptcp", congestion="reno",
         paths=((10e6, 0.02, 100, 0.005), (10e6, 0.05, 100, 0.0))),
    dict(cell="mptcp cubic 5M/30ms + 5M/240ms queue 10", kind="mptcp", congestion="cubic",
         paths=((5e6, 0.015, 10, 0.0), (5e6, 0.12, 10, 0.0))),
    dict(cell="mptcp reno 5M/30ms + 5M/240ms queue 10", kind="mptcp", congestion="reno",
         paths=((5e6, 0.015, 10, 0.0), (5e6, 0.12, 10, 0.0))),
    dict(cell="mptcp cubic 20M/50ms + 2M/50ms", kind="mptcp", congestion="cubic",
         paths=((20e6, 0.025, 100, 0.0), (2e6, 0.025, 100, 0.0))),
    dict(cell="mptcp cubic 3 paths BDP queues", kind="mptcp", congestion="cubic",
         paths=((10e6, 0.01, None, 0.0), (5e6, 0.04, None, 0.0), (2e6, 0.08, None, 0.0))),
    dict(cell="mptcp cubic 20M/20ms + 2M/600ms", kind="mptcp", congestion="cubic",
         paths=((20e6, 0.01, 100, 0.0), (2e6, 0.3, 100, 0.0))),
    dict(cell="mptcp cubic Arabi s2 5M/200ms + 2M/20ms + 7M/100ms", kind="mptcp", congestion="cubic",
         paths=((5e6, 0.1, 100, 0.0), (2e6, 0.01, 100, 0.0), (7e6, 0.05, 100, 0.0))),
    dict(cell="mptcp cubic 10M/40ms jitter 2ms 0.2% loss + 5M/200ms 0.5% loss", kind="mptcp", congestion="cubic",
         paths=((10e6, 0.02, 100, 0.002, 0.002), (5e6, 0.1, 100, 0.005))),
    dict(cell="mptcp cubic 10M/20ms queue 30kB + 10M/80ms queue 150kB", kind="mptcp", congestion="cubic",
         paths=((10e6, 0.01, ("bytes", 30000), 0.0), (10e6, 0.04, ("bytes", 150000), 0.0))),
)
#: The chapter's cells and the wider table's.
ALL_CELLS = CELLS + WIDER_CELLS

#: The traces a cell's path may name, the seconds of each replayed and their rate scale: the chapter's
#: real pair (:func:`cmtlab.today.traces.real_pair`: the 5G drive from its first second at a tenth of its
#: median rate, the Starlink iperf samples from the same index), at the measured rates (scale 1) — the
#: kernel and the delay line keep up with them; a run of ``duration_s`` starting ``schedule_offset_s``
#: into the schedule stays inside the window (it repeats beyond).
TRACES = ("5g", "starlink")
TRACE_SECONDS = 30
TRACE_RATE_SCALE = 0.1


@functools.lru_cache(maxsize=8)
def trace_path(name: str, *, seconds: int = TRACE_SECONDS, rate_scale: float = TRACE_RATE_SCALE) -> dict:
    """The path a trace cell names: ``rates_bps`` (one per second, the data direction's schedule),
    ``delay_s`` (one way: half the data set's median minimum RTT, :func:`cmtlab.today.traces.real_pair`),
    ``label`` and the window's ``start_s``.  Needs the mirrored public measurements."""
    from .traces import real_pair

    if name not in TRACES:
        raise ValueError(f"trace must be one of {TRACES}, got {name!r}")
    p = real_pair(seconds=seconds, rate_scale=rate_scale)
    i = TRACES.index(name)
    return dict(rates_bps=p["rates_bps"][i], delay_s=p["rtts_s"][i] / 2, label=p["names"][i], start_s=p["start_s"])


def testbed_path(spec):
    """A cell's path tuple as a :class:`cmtlab.testbed.EmulatedPath`: (rate bit/s, one-way delay s, queue,
    loss[, jitter s]), or (trace name, None, queue, loss) — the data direction replays :func:`trace_path`'s
    schedule (``rate_schedule_bps``, 1 s intervals), the ACK direction runs at its mean.  The queue: packets,
    ``None`` (the testbed's default, one bandwidth-delay product) or ``("bytes", n)``."""
    from ..testbed import Direction, EmulatedPath, path

    r, d, q, loss, *j = spec
    if isinstance(q, tuple):
        if len(q) != 2 or q[0] != "bytes":
            raise ValueError(f"a queue is packets, None or ('bytes', n), got {q!r}")
        return path(r, d, queue_bytes=int(q[1]), loss=loss, jitter_s=(j[0] if j else 0.0))
    if isinstance(r, str):
        t = trace_path(r)
        mean = float(np.mean(t["rates_bps"]))
        return EmulatedPath(Direction(mean, t["delay_s"], q, None, loss, rate_schedule_bps=tuple(t["rates_bps"]),
                                      schedule_interval_s=1.0),
                            Direction(mean, t["delay_s"], q, None, 0.0))
    return path(r, d, queue_packets=q, loss=loss, jitter_s=(j[0] if j else 0.0))


def kernel_runs(cells=CELLS, *, repetitions: int = 3, duration_s: float = 20.0, warmup_s: float = 2.0,
                attempts: int = 3, checkpoint=None, progress_bar: bool = True,
                mptcp_counters: bool = False) -> pd.DataFrame:
    """Every cell ``repetitions`` times on the kernel testbed; one tidy row per run (the testbed's
    :meth:`~cmtlab.testbed.TestbedResult.to_row` plus ``cell``, ``kind``, ``rep``, ``warmup_s`` and the
    machine's 1-minute load average before and after the run, ``load1_before``/``load1_after``).
    A run whose endpoint fails is retried up to ``attempts`` times (``attempts``/``failed_attempts``
    record it); ``checkpoint``: a CSV path rewritten after every run.  ``mptcp_counters``: also the
    connection-level counters of :data:`MPTCP_COUNTERS` over each run (``nstat`` differences; columns
    ``mptcp_retrans_segs``, ``mptcp_duplicate_data``)."""
    from ..testbed import KernelSettings, Testbed, run_transfer
    from ..testbed.config import transfer_lifetime_s

    if not isinstance(mptcp_counters, bool):
        raise ValueError(f"mptcp_counters must be True or False, got {mptcp_counters!r}")

    def one_run(paths, ks, c, rep) -> dict:
        if not mptcp_counters:
            return run_transfer(paths, ks, mptcp=c["kind"] == "mptcp", duration_s=duration_s, warmup_s=warmup_s,
                                seed=rep).to_row()
        with Testbed(paths, ks, mptcp=c["kind"] == "mptcp", seed=rep,
                     max_lifetime_s=transfer_lifetime_s(duration_s, 120.0)) as tb:
            a0, b0 = _nstat(tb.ns_a), _nstat(tb.ns_b)
            r = tb.transfer(duration_s=duration_s, warmup_s=warmup_s)
            a1, b1 = _nstat(tb.ns_a), _nstat(tb.ns_b)
            row = r.attach_counters(tb.read_counters()).to_row()
        for col, (side, name) in MPTCP_COUNTERS.items():
            before, after = (a0, a1) if side == "sender" else (b0, b1)
            row[col] = after.get(name, 0.0) - before.get(name, 0.0)
        return row

    if not isinstance(repetitions, int) or repetitions < 1:
        raise ValueError(f"repetitions must be an integer >= 1, got {repetitions!r}")
    jobs = [(c, rep) for c in cells for rep in range(repetitions)]
    rows = []
    for c, rep in progress(jobs, desc="kernel cells", unit="run", enabled_=progress_bar):
        paths = [testbed_path(p) for p in c["paths"]]
        ks = dataclasses.replace(KernelSettings(), congestion=c["congestion"])
        load0 = os.getloadavg()[0]
        errors = []
        for _attempt in range(attempts):
            try:
                row = one_run(paths, ks, c, rep)
                break
            except RuntimeError as exc:  # e.g. an endpoint killed on a loaded machine: retried, recorded
                errors.append(str(exc)[:200])
        else:
            raise RuntimeError(f"cell {c['cell']!r} repetition {rep} failed {attempts} times: {errors}")
        rows.append({"cell": c["cell"], "kind": c["kind"], "rep": rep, "warmup_s": warmup_s,
                     "load1_before": load0, "load1_after": os.getloadavg()[0], "recorded_unix_s": time.time(),
                     "attempts": len(errors) + 1, "failed_attempts": " | ".join(errors), **row})
        if checkpoint is not None:
            pd.DataFrame(rows).to_csv(checkpoint, index=False)
    return pd.DataFrame(rows)


#: The kernel's own counters :func:`kernel_internals` keeps (``nstat`` names without the ``TcpExt`` prefix; the
#: sender's namespace unless marked ``rcv_``): fast recoveries, timeouts, tail-loss probes and what they repaired,
#: spurious timeouts, D-SACKs received, SACK-detected reordering, lost retransmissions, segments retransmitted and
#: delivered, and the receiver's delayed ACKs.
INTERNAL_COUNTERS = ("TCPSackRecovery", "TCPTimeouts", "TCPLossProbes", "TCPLossProbeRecovery", "TCPSpuriousRTOs",
                     "TCPDSACKRecv", "TCPSACKReorder", "TCPLostRetransmit", "TcpRetransSegs", "TCPDelivered",
                     "rcv_DelayedACKs")


#: The connection-level counters :func:`kernel_runs` keeps with ``mptcp_counters=True``: column -> (namespace,
#: ``nstat`` name).  ``MPTcpExtMPTCPRetrans`` counts the data fragments' pieces Linux's connection-level
#: retransmission (``__mptcp_retrans``) sent again on another subflow; ``MPTcpExtDuplicateData`` the segments whose
#: data the receiving connection already had (a connection-level retransmission, or its original, arriving second).
MPTCP_COUNTERS = {"mptcp_retrans_segs": ("sender", "MPTcpExtMPTCPRetrans"),
                  "mptcp_duplicate_data": ("receiver", "MPTcpExtDuplicateData")}


def kernel_socket_trace(cell: str, rep: int = 0, *, interval_s: float = 0.05, duration_s: float = 20.0,
                        warmup_s: float = 2.0) -> pd.DataFrame:
    """One run of ``cell`` (a name of :data:`ALL_CELLS`) on the testbed, seeded as repetition ``rep``, with the
    sender's sockets read every ``interval_s`` (``ss``, :func:`cmtlab.testbed.result.socket_trace`): one row per
    sample and subflow (``path``) or MPTCP connection (``path`` -1), ``t_s`` from the transfer's start, with ``cell``,
    ``rep``, ``interval_s``, the run's goodput ``run_throughput_bps`` and the kernel version.  The sampling costs the
    sender CPU: a traced run is not one of the recorded table's (it can end slow start elsewhere).  Needs root."""
    from ..testbed import KernelSettings, Testbed
    from ..testbed.config import transfer_lifetime_s
    from ..testbed.result import socket_trace

    c = next((c for c in ALL_CELLS if c["cell"] == cell), None)
    if c is None:
        raise ValueError(f"cell must be one of ALL_CELLS, got {cell!r}")
    if isinstance(rep, bool) or not isinstance(rep, int) or rep < 0:
        raise ValueError(f"rep must be an integer >= 0, got {rep!r}")
    if isinstance(interval_s, bool) or not isinstance(interval_s, (int, float)) or not 0.001 <= interval_s <= 10:
        raise ValueError(f"interval_s must be a number of seconds in [0.001, 10], got {interval_s!r}")
    paths = [testbed_path(p) for p in c["paths"]]
    ks = dataclasses.replace(KernelSettings(), congestion=c["congestion"])
    with Testbed(paths, ks, mptcp=c["kind"] == "mptcp", seed=rep,
                 max_lifetime_s=transfer_lifetime_s(duration_s, 120.0)) as tb:
        r = tb.transfer(duration_s=duration_s, warmup_s=warmup_s, ss_interval_s=float(interval_s))
        addrs = [tb.addr_a(i) for i in range(len(paths))]
    out = socket_trace(r.ss_snapshots, addrs, r.t_start_monotonic_s)
    out.insert(0, "interval_s", float(interval_s))
    out.insert(0, "rep", rep)
    out.insert(0, "cell", cell)
    out["run_throughput_bps"] = float(r.throughput_bps)
    out["kernel"] = r.info.get("kernel")
    return out


def _nstat(ns: str) -> dict:
    import json
    import subprocess

    out = subprocess.run(["ip", "netns", "exec", ns, "nstat", "-asz", "--json"], capture_output=True, text=True,
                         timeout=20, check=True).stdout
    d = json.loads(out)
    d = d.get("kernel", d)
    return {k.removeprefix("TcpExt"): float(v) for k, v in d.items()}


def kernel_internals(cells=CELLS, *, repetitions: int = 5, duration_s: float = 20.0, warmup_s: float = 2.0,
                     ss_interval_s: float = 0.1, progress_bar: bool = True) -> pd.DataFrame:
    """The kernel's internals on ``cells``, one row per run (seeded like :func:`kernel_runs`' repetition
    ``rep``, so its delay line drops the same packets): goodput, the :data:`INTERNAL_COUNTERS` (``nstat``
    difference over the run, both namespaces), the delay line's random and queue drops, and from ``ss`` every
    ``ss_interval_s`` the subflows' mean congestion window (segments, summed over subflows) and smoothed RTT
    (ms, mean over subflows and samples).  Needs root; run it under the testbed lock."""
    from ..testbed import KernelSettings, Testbed, parse_ss

    if not isinstance(repetitions, int) or repetitions < 1:
        raise ValueError(f"repetitions must be an integer >= 1, got {repetitions!r}")
    rows = []
    jobs = [(c, rep) for c in cells for rep in range(repetitions)]
    for c, rep in progress(jobs, desc="kernel internals", unit="run", enabled_=progress_bar):
        paths = [testbed_path(p) for p in c["paths"]]
        ks = dataclasses.replace(KernelSettings(), congestion=c["congestion"])
        load0 = os.getloadavg()[0]
        with Testbed(paths, ks, mptcp=c["kind"] == "mptcp", seed=rep, max_lifetime_s=duration_s + 180) as tb:
            a0, b0 = _nstat(tb.ns_a), _nstat(tb.ns_b)
            r = tb.transfer(duration_s=duration_s, warmup_s=warmup_s, ss_interval_s=ss_interval_s)
            a1, b1 = _nstat(tb.ns_a), _nstat(tb.ns_b)
            cnt = tb.read_counters()
            addrs = [tb.addr_a(i) for i in range(len(paths))]
        row = dict(cell=c["cell"], kind=c["kind"], rep=rep, n_paths=len(paths), duration_s=duration_s,
                   warmup_s=warmup_s, load1_before=load0, load1_after=os.getloadavg()[0],
                   throughput_bps=r.throughput_bps, received_bytes=r.received_bytes)
        for k in INTERNAL_COUNTERS:
            a, b, key = (b0, b1, k[4:]) if k.startswith("rcv_") else (a0, a1, k)
            row[k] = b.get(key, 0.0) - a.get(key, 0.0)
        row["random_drops"] = float(sum(x.get("ab", {}).get("random_drops", 0) for x in cnt))
        row["queue_drops"] = float(sum(x.get("ab", {}).get("queue_drops", 0) for x in cnt))
        cw, rtt = [], []
        for t, txt in r.ss_snapshots:
            if t - r.t_start_monotonic_s < warmup_s:
                continue
            sub = parse_ss(txt, addrs)
            if sub:
                cw.append(sum(d.get("cwnd", 0.0) for d in sub.values()))
                rtt.extend(d["rtt_ms"] for d in sub.values() if "rtt_ms" in d)
        row["mean_cwnd_segments"] = float(np.mean(cw)) if cw else np.nan
        row["mean_srtt_ms"] = float(np.mean(rtt)) if rtt else np.nan
        row["kernel"] = r.info.get("kernel")
        rows.append(row)
    return pd.DataFrame(rows)


#: A replay interval counts as *backlogged* when its serialiser was idle for at most this share of it
#: (the sender kept the line busy, so what it delivered is what the schedule allows).

def _linux_options(receive_buffer_bytes: int) -> dict:
    """simulate_mptcp keywords for Linux's TCP options and buffers: ``receive_buffer_bytes`` is the
    connection-level receive buffer *and* every subflow's advertised window (an MPTCP subflow advertises
    the connection's window, RFC 8684 sec. 3.3.4), as :func:`cmtlab.validation.kernel_sim.simulate_like_kernel`
    sets them — a bare ``receive_buffer_bytes`` keyword would set the connection's only and leave each
    subflow at :class:`cmtlab.scenario.TcpOptions`' 128 KiB default."""
    from ..scenario import TcpOptions
    from ..validation.kernel_sim import LINUX_TCP_OPTIONS

    rb = int(receive_buffer_bytes)
    return dict(segment_bytes=1448, initial_window_bytes=10 * 1448, ssthresh_bytes=1 << 30, receive_buffer_bytes=rb,
                options=TcpOptions(**LINUX_TCP_OPTIONS, send_buffer_bytes=4 << 20, receive_buffer_bytes=rb))
