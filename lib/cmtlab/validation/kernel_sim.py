"""The simulator beside the kernel (the Linux-MPTCP validation chapter): :mod:`cmtlab.sim` configured like the
kernel and re-run on every kernel row (:func:`simulate_like_kernel`), and the gain tables of both columns.

* :func:`kernel_gains` — Alheid et al.'s Table I from kernel (or kernel-like simulator) rows, mapped to Table I's row
  schema by :func:`table1_rows` and computed by the one :func:`cmtlab.papers.alheid.table1.gains`: the MPTCP gain over
  single-path TCP on the best path per congestion control, reading of Δ and Δ; :func:`gain_of`,
  :func:`gain_cell` and :func:`agreement` read and compare such tables;
* :func:`simulate_like_kernel` — every kernel row re-run in the simulator with the row's paths, configured
  like Linux (:data:`SIM_LIKE_KERNEL`, :data:`LINUX_TCP_OPTIONS`); :func:`kernel_row_paths` says what of a row
  the simulator can carry; :func:`kernel_packet_sizes` the kernel's MPTCP packet sizes it copies;
* :func:`simulate_arabi_like_kernel`, :func:`arabi_side_by_side` — the same for the Arabi scenario.

The kernel runs themselves are :mod:`cmtlab.testbed.experiments`' jobs.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..progress import progress

def table1_rows(runs: pd.DataFrame) -> pd.DataFrame:
    """Kernel runs (recorded or live, or the kernel-like simulator's, :func:`simulate_like_kernel`) in the row schema
    of Table I (:data:`cmtlab.papers.alheid.table1.ROW_COLUMNS`), the recorded CSV's columns mapped as they are loaded
    (never re-recorded): ``kind`` → ``paths`` (``"mptcp"``: 2, ``"tcp"``: 1), ``delta_s`` → ``delta_ms`` (whole ms),
    ``throughput_bps`` → ``goodput_mbps``, ``path0_rtt_s``/``path1_rtt_s`` → ``sf0_rtt_s``/``sf1_rtt_s``, and
    ``share2`` = ``sub1_bytes / (sub0_bytes + sub1_bytes)``.  Every other column is kept."""
    out = runs.copy()
    out["paths"] = np.where(runs.kind == "mptcp", 2, 1)
    out["delta_ms"] = [round(d * 1e3) for d in runs.delta_s]
    out["goodput_mbps"] = runs.throughput_bps / 1e6
    out["sf0_rtt_s"] = runs.get("path0_rtt_s", np.nan)
    out["sf1_rtt_s"] = runs.get("path1_rtt_s", np.nan)
    out["share2"] = runs.sub1_bytes / (runs.sub0_bytes + runs.sub1_bytes) if "sub1_bytes" in runs else np.nan
    return out


def kernel_gains(runs: pd.DataFrame) -> pd.DataFrame:
    """Alheid et al.'s Table I from kernel (or kernel-like simulator) runs: :func:`cmtlab.papers.alheid.table1.gains`
    of :func:`table1_rows`, per congestion control (each MPTCP run against the mean single-path TCP goodput of its
    own congestion control), in sorted order."""
    from ..papers.alheid.table1 import gains

    return gains(table1_rows(runs), by=("congestion",), baseline="congestion", sort=True)


# ---------------------------------------------------------------- the simulator column
#: The simulator configured like the kernel: uncoupled Reno subflows (Linux's MPTCP
#: subflows are uncoupled; Reno is always built in) and a lowest-RTT-first scheduler (what the
#: kernel's ``default`` scheduler does when several subflows have window space).
SIM_LIKE_KERNEL = dict(congestion="uncoupled", scheduler="lowest_rtt")

#: Linux's TCP as :class:`cmtlab.scenario.TcpOptions` fields: SACK with RFC 6675 loss detection,
#: limited transmit, Proportional Rate Reduction (RFC 6937, Linux's recovery since 3.2), RFC 7323
#: timestamps (``k_timestamps`` of a kernel row overrides), ``TCP_RTO_MIN`` = 200 ms, initial RTO
#: 1 s (RFC 6298), delayed-ACK timer 40 ms (``TCP_DELACK_MIN``).  Not modelled: RACK-TLP,
#: pacing, TSO/GSO (the delay line's TUN devices get none), receive-buffer autotuning.
LINUX_TCP_OPTIONS = dict(sack=True, sack_loss_detection=True, limited_transmit=True, recovery="prr",
                         timestamps=True, min_rto_s=0.2, initial_rto_s=1.0, delayed_ack_timeout_s=0.04)
#: Initial window (RFC 6928, Linux's ``TCP_INIT_CWND``), segments.
LINUX_INITIAL_WINDOW_SEGMENTS = 10
#: Largest autotuned send buffer (``net.ipv4.tcp_wmem[2]``, bytes) and receive buffer
#: (``tcp_rmem[2]``; new namespaces inherit the host's, 32 MiB here): the simulator's per-subflow
#: send buffer and connection-level receive buffer when nothing else is asked for.
LINUX_SNDBUF_MAX_BYTES = 4 * 1024 * 1024
LINUX_RCVBUF_MAX_BYTES = 32 * 1024 * 1024
#: MPTCP data packets carry fewer payload bytes than a TCP packet of the same MTU: the DSS option
#: (RFC 8684 sec. 3.3: data sequence mapping and DATA_ACK) takes option space, and the kernel
#: splits its data-level chunks into packets that are not all full-sized.  Measured on the
#: delay line's counters (:func:`kernel_packet_sizes`: IP bytes and packets forwarded, bytes
#: acknowledged per subflow; kernel 6.18, two 10 Mbit/s paths): 1410 payload bytes in 1476 IP
#: bytes per packet on average, against 1448 in 1500 for TCP with timestamps.  The simulator
#: uses that payload (MSS - 38) and wire size (payload + headers + 14 option bytes).
MPTCP_PAYLOAD_DEFICIT_BYTES = 38
MPTCP_OPTION_BYTES = 14


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


def kernel_packet_sizes(runs: pd.DataFrame) -> pd.DataFrame:
    """Per kind of kernel run (``tcp``/``mptcp``): mean IP bytes per data packet and payload bytes
    per packet that was not a retransmission, from the delay lines' counters (``sub<i>_bytes``,
    ``sub<i>_packets``) and ``ss`` (``sub<i>_bytes_acked``, ``sub<i>_retrans_total``).  Rows
    without those columns are skipped.  The simulator's packet sizes
    (:data:`MPTCP_PAYLOAD_DEFICIT_BYTES`) come from this."""
    out = []
    kinds = runs["kind"] if "kind" in runs else pd.Series("mptcp", index=runs.index)
    for kind in sorted(kinds.unique()):
        sel = runs[kinds == kind]
        ip = pkts = acked = retx = 0.0
        for i in range(int(sel["n_paths"].max()) if len(sel) else 0):
            cols = [f"sub{i}_bytes", f"sub{i}_packets", f"sub{i}_bytes_acked", f"sub{i}_retrans_total"]
            if not set(cols) <= set(sel.columns):
                continue
            ok = sel[cols].notna().all(axis=1)
            ip += sel.loc[ok, cols[0]].sum()
            pkts += sel.loc[ok, cols[1]].sum()
            acked += sel.loc[ok, cols[2]].sum()
            retx += sel.loc[ok, cols[3]].sum()
        if pkts > retx > -1 and pkts > 0:
            out.append(dict(kind=kind, ip_bytes_per_packet=ip / pkts, payload_bytes_per_packet=acked / (pkts - retx),
                            packets=int(pkts)))
    return pd.DataFrame(out, columns=["kind", "ip_bytes_per_packet", "payload_bytes_per_packet", "packets"])


#: The path properties a kernel row records (``path<i>_<name>``, see
#: :meth:`cmtlab.testbed.TestbedResult.to_row`); :func:`simulate_like_kernel` carries each into
#: the simulator or refuses the row naming it.
PATH_COLUMNS = ("rate_bps", "delay_s", "rtt_s", "queue_packets", "queue_bytes", "loss", "reverse_rate_bps",
                "reverse_delay_s", "reverse_queue_packets", "reverse_queue_bytes", "reverse_loss", "jitter_s",
                "reverse_jitter_s", "rate_schedule_bps", "schedule_interval_s", "schedule_offset_s")


def _value(row, col, default=None):
    v = row.get(col, default)
    try:
        return default if v is None or pd.isna(v) else v
    except (TypeError, ValueError):
        return v


def kernel_row_paths(row, n_paths: int, label: str = "row") -> dict:
    """The simulator's view of the paths of one kernel row: ``rates``, ``rtts`` (round trips),
    ``loss`` (one :class:`cmtlab.scenario.LossModel` per path: the delay line's random drop on
    the data direction is a Bernoulli drop per packet, ``LossModel('packet', p)``) and
    ``queue_packets`` (one drop-tail limit, as the simulator has one for every link), and, when a
    path's data direction has per-packet delay variation (``path<i>_jitter_s``), ``links``: one
    :class:`cmtlab.sim.net.jitter.JitterLink` (``"jitter"``) per path with the same uniform variation;
    when a path's data direction replays a rate schedule (``path<i>_rate_schedule_bps``, rates separated by
    spaces, ``path<i>_schedule_interval_s``, ``path<i>_schedule_offset_s``: how far into the schedule the
    transfer began), ``links``: a :class:`cmtlab.sim.net.trace_link.RateTraceLink` (``"rate_trace"``)
    replaying the same schedule from the same point (``offset_s = -schedule_offset_s``), the other paths
    point-to-point.  A path with both is refused (no link model has both).

    ValueError naming the column for what ``cmtlab.sim.simulate_mptcp`` cannot carry: random loss
    on the ACK direction (``path<i>_reverse_loss``; its links lose only data packets), a queue in
    bytes (``path<i>_queue_bytes``, ``path<i>_reverse_queue_bytes``), a reverse direction with
    another rate, one-way delay or queue than the forward one (the simulator's paths are
    symmetric: half the round trip each way), queues that differ between paths, and any path
    column it does not know.  Rows recorded before the reverse direction was added lack
    the ``reverse_*`` columns: their paths were symmetric, without loss on the ACKs."""
    from ..scenario import LossModel
    for col in row.index if hasattr(row, "index") else row:
        if isinstance(col, str) and col.startswith("path") and "_" in col:
            head, rest = col.split("_", 1)
            if head[4:].isdigit() and int(head[4:]) < n_paths and rest not in PATH_COLUMNS:
                raise ValueError(f"{label}: {col} is a path property cmtlab.sim cannot be given "
                                 f"(known: {', '.join(PATH_COLUMNS)})")
    rates, rtts, losses, queues, jitters, traces = [], [], [], [], [], []
    for i in range(n_paths):
        c = f"path{i}_"
        rate = float(row[c + "rate_bps"])
        delay = _value(row, c + "delay_s")
        rtt = float(row[c + "rtt_s"])
        for col in ("queue_bytes", "reverse_queue_bytes"):
            if _value(row, c + col) is not None:
                raise ValueError(f"{label}: {c + col} = {row[c + col]!r}: a drop-tail queue in bytes cannot be carried "
                                 "into cmtlab.sim (its queues count packets); refuse this row or give queue_packets")
        rl = float(_value(row, c + "reverse_loss", 0.0))
        if rl != 0:
            raise ValueError(f"{label}: {c}reverse_loss = {rl!r}: random loss on the ACK direction cannot be carried "
                             "into cmtlab.sim (its links lose only data packets)")
        rr = _value(row, c + "reverse_rate_bps")
        if rr is not None and float(rr) != rate:
            raise ValueError(f"{label}: {c}reverse_rate_bps = {rr!r} differs from {c}rate_bps = {rate!r}: an "
                             "asymmetric path cannot be carried into cmtlab.sim (both directions share one rate)")
        rd = _value(row, c + "reverse_delay_s")
        if rd is not None and delay is not None and abs(float(rd) - float(delay)) > 1e-12:
            raise ValueError(f"{label}: {c}reverse_delay_s = {rd!r} differs from {c}delay_s = {delay!r}: "
                             "cmtlab.sim splits the round trip evenly between the directions")
        q = _value(row, c + "queue_packets", 100)
        rq = _value(row, c + "reverse_queue_packets")
        if rq is not None and int(rq) != int(q):
            raise ValueError(f"{label}: {c}reverse_queue_packets = {rq!r} differs from {c}queue_packets = {q!r}: "
                             "cmtlab.sim has one queue limit for both directions")
        loss = float(_value(row, c + "loss", 0.0))
        if float(_value(row, c + "reverse_jitter_s", 0.0)) != 0:
            raise ValueError(f"{label}: {c}reverse_jitter_s = {row[c + 'reverse_jitter_s']!r}: delay variation on the "
                             "ACK direction cannot be carried into cmtlab.sim (its jitter links vary the data only)")
        jitters.append(float(_value(row, c + "jitter_s", 0.0)))
        sched = _value(row, c + "rate_schedule_bps")
        if sched is not None:
            try:
                sched = tuple(float(x) for x in str(sched).split())
                interval = float(_value(row, c + "schedule_interval_s", 1.0))
                offset = float(_value(row, c + "schedule_offset_s"))
            except (TypeError, ValueError):
                raise ValueError(f"{label}: {c}rate_schedule_bps needs rates separated by spaces and a numeric "
                                 f"{c}schedule_offset_s (where in the schedule the transfer began), got "
                                 f"{row.get(c + 'schedule_offset_s')!r}") from None
            if jitters[-1]:
                raise ValueError(f"{label}: {c}rate_schedule_bps with {c}jitter_s: cmtlab.sim has no link model "
                                 "with both a rate trace and per-packet delay variation")
            traces.append({"rates_bps": sched, "interval_s": interval, "offset_s": -offset})
        else:
            traces.append(None)
        rates.append(rate)
        rtts.append(rtt)
        losses.append(LossModel("packet", loss) if loss > 0 else LossModel())
        queues.append(int(q))
    if len(set(queues)) > 1:
        raise ValueError(f"{label}: path<i>_queue_packets = {queues} differ between paths: cmtlab.sim has one "
                         "queue limit for every link")
    out = dict(rates=rates, rtts=rtts, loss=losses, queue_packets=queues[0])
    if any(jitters) and any(traces):
        raise ValueError(f"{label}: paths with jitter_s and paths with rate_schedule_bps in one row cannot be "
                         "carried into cmtlab.sim (one link model per connection's paths)")
    if any(jitters):
        # per-packet delay variation on the data direction: the same uniform draw as the delay line's
        out["links"] = [("jitter", {"jitter_s": j}) for j in jitters]
    elif any(traces):
        # the delay line's rate schedule, from where the transfer met it
        out["links"] = [("rate_trace", t) if t else ("point_to_point", {}) for t in traces]
    return out


def _kernel_like_config(row, n_paths: int, mptcp: bool, overrides: dict) -> dict:
    """simulate_mptcp keywords for one kernel row (see :func:`simulate_like_kernel`)."""
    from ..scenario import TcpOptions
    ts = bool(row.get("k_timestamps", True)) if pd.notna(row.get("k_timestamps", True)) else True
    mss = 1500 - 40 - (12 if ts else 0)
    seg = mss - MPTCP_PAYLOAD_DEFICIT_BYTES if mptcp else mss
    opts = dict(LINUX_TCP_OPTIONS, timestamps=ts, send_buffer_bytes=LINUX_SNDBUF_MAX_BYTES,
                receive_buffer_bytes=LINUX_RCVBUF_MAX_BYTES)
    for k in list(overrides):
        if k in TcpOptions.__dataclass_fields__:
            opts[k] = overrides.pop(k)
    cfg = dict(segment_bytes=seg, dss_bytes=MPTCP_OPTION_BYTES if mptcp else 0,
               initial_window_bytes=LINUX_INITIAL_WINDOW_SEGMENTS * seg, ssthresh_bytes=1 << 30,
               options=TcpOptions(**opts), receive_buffer_bytes=opts["receive_buffer_bytes"])
    cfg.update(overrides)
    return cfg


#: Where :func:`simulate_like_kernel` draws a path's random drops from: the simulator's own loss streams
#: (``"simulator"``, ns-3's layout) or the testbed delay line's (``"delay_line"``,
#: :class:`cmtlab.sim.net.delay_line.DelayLineLink`: the same packets dropped as in the kernel run of the same
#: seed, before the queue, and the same per-packet delay variation).
LOSS_DRAWS = ("simulator", "delay_line")


def _delay_line_links(pths: dict) -> list:
    """``links`` for :func:`simulate_like_kernel`'s ``loss_draws="delay_line"``: every point-to-point or jitter
    path becomes the delay line's link (its jitter kept); a rate-trace path keeps its link (and the simulator's
    draws: the book's trace cells have no random loss)."""
    n = len(pths["rates"])
    links = pths.get("links") or [("point_to_point", {})] * n
    out = []
    for name, params in links:
        if name == "point_to_point":
            out.append(("delay_line", {}))
        elif name == "jitter":
            out.append(("delay_line", {"jitter_s": params["jitter_s"]}))
        else:
            out.append((name, params))
    return out


def simulate_like_kernel(runs: pd.DataFrame, *, congestion: str | None = None, scheduler: str | None = None,
                         reordering: str = "none", progress_bar: bool = True, loss_draws: str = "simulator",
                         warmup_counters: bool = False, **options) -> pd.DataFrame:
    """The simulator column: every row of ``runs`` (kernel rows of :func:`cmtlab.testbed.experiments.table1_jobs` or
    :func:`cmtlab.testbed.experiments.arabi_jobs`, run by :func:`~cmtlab.testbed.experiments.run_jobs`, or any :meth:`cmtlab.testbed.TestbedResult.to_row`) re-run in
    :func:`cmtlab.sim.simulate_mptcp` with every path property of the row (:func:`kernel_row_paths`:
    rates, round-trip times — ``simulate_mptcp``'s ``delays_s`` are round trips —, the random
    loss of each path's data direction, the queue in packets; a property the simulator cannot
    carry, e.g. loss on the ACKs or a queue in bytes, refuses the row naming its column), the
    run length and repetition seed, configured like the kernel:
    uncoupled Reno subflows, a lowest-RTT-first scheduler (:data:`SIM_LIKE_KERNEL`), Linux's
    loss recovery and timers (:data:`LINUX_TCP_OPTIONS`, timestamps as the row's
    ``k_timestamps``), an initial window of 10 segments, no initial ssthresh limit, the largest
    autotuned buffers (:data:`LINUX_SNDBUF_MAX_BYTES` per subflow, :data:`LINUX_RCVBUF_MAX_BYTES`
    at the connection level and as every subflow's window) and MPTCP's smaller packets
    (:data:`MPTCP_PAYLOAD_DEFICIT_BYTES`).  Single-path TCP rows (``kind == "tcp"``) run as a
    one-path connection with full TCP packets.

    The goodput is measured like the kernel's, over [``warmup_s``, ``duration_s``]: the run is
    deterministic for its seed, so a second run stopped at ``warmup_s`` gives the bytes delivered
    by then.  Returns the kernel rows' experiment keys and path columns with
    ``simulator="cmtlab.sim"``, ``throughput_bps`` (that goodput), ``sub<i>_bytes`` (payload
    bytes the subflow delivered to the connection over the whole run), ``sub<i>_retrans_total``,
    ``sub<i>_timeouts``, ``sub<i>_queue_drops``, ``sub<i>_spurious_retransmissions`` and
    ``sub<i>_loss_drops``, so :func:`gains` applies unchanged.  A row's ``path<i>_loss`` (the delay
    line's random drop rate on the data direction) becomes the simulator's packet loss on that path.
    ``reordering``: the reordering response of every subflow (``"none"``, ``"dsack"``,
    ``"eifel"``, ``"frto"``, ...).  ``loss_draws`` (:data:`LOSS_DRAWS`): ``"simulator"`` (default) draws the
    random drops from the simulator's own streams; ``"delay_line"`` from the testbed delay line's, seeded as the
    kernel row's run (``rep``): the same packets are lost in both columns (column ``sim_loss_draws``).
    ``warmup_counters``: also ``sub<i>_queue_drops_warmup`` and ``sub<i>_timeouts_warmup``, the counts by
    ``warmup_s`` (of the run stopped there).
    ``options``: :class:`cmtlab.scenario.TcpOptions` fields or
    :func:`cmtlab.sim.simulate_mptcp` keywords that replace the kernel-like values (e.g.
    ``receive_buffer_bytes=2**20`` for a connection-level buffer of 1 MiB, ``queue_packets``).
    RuntimeError with the reason when the simulator is not available.
    """
    reason = simulator_available()
    if reason:
        raise RuntimeError(reason)
    if loss_draws not in LOSS_DRAWS:
        raise ValueError(f"loss_draws must be one of {LOSS_DRAWS}, got {loss_draws!r}")
    from ..sim import simulate_mptcp
    cc = congestion or SIM_LIKE_KERNEL["congestion"]
    sched = scheduler or SIM_LIKE_KERNEL["scheduler"]
    for col in ("n_paths", "duration_s", "path0_rate_bps", "path0_rtt_s"):
        if col not in runs:
            raise ValueError(f"runs must hold kernel rows with a {col!r} column (cmtlab.testbed to_row), "
                             f"got columns {sorted(runs.columns)[:12]}...")
    out = []
    rows = list(runs.iterrows())
    carried = []
    for idx, row in rows:   # every row is checked before the first simulation
        mptcp = _row_is_mptcp(row)
        n = int(row["n_paths"]) if mptcp else 1
        pths = kernel_row_paths(row, n, label=f"row {idx!r}")
        if "queue_packets" in options:
            pths["queue_packets"] = options["queue_packets"]
        if "loss" in options:
            pths["loss"] = options["loss"]
        if loss_draws == "delay_line":
            pths["links"] = _delay_line_links(pths)
        carried.append(pths)
    for (idx, row), pths in progress(list(zip(rows, carried)), desc="simulator", unit="run", enabled_=progress_bar):
        mptcp = _row_is_mptcp(row)
        n = int(row["n_paths"]) if mptcp else 1
        rates, rtts = pths["rates"], pths["rtts"]
        duration = float(row["duration_s"])
        warm = row.get("warmup_s", 0.0)
        warm = float(warm) if pd.notna(warm) else 0.0
        if not 0 <= warm < duration:
            raise ValueError(f"warmup_s must be in [0, duration_s) in every row, got {warm!r} with duration {duration!r}")
        over = {k: v for k, v in options.items() if k not in ("queue_packets", "loss")}
        cfg = _kernel_like_config(row, n, mptcp, over)
        seed = int(row.get("rep", 0)) if pd.notna(row.get("rep", 0)) else 0
        kw = dict(congestion=cc, scheduler=sched, reordering=reordering, seed=seed, loss=pths["loss"],
                  queue_packets=pths["queue_packets"], **cfg)
        if "links" in pths:
            kw["links"] = pths["links"]
        r = simulate_mptcp(rates, rtts, duration_s=duration, **kw)
        r_warm = simulate_mptcp(rates, rtts, duration_s=warm, **kw) if warm > 0 else None
        before = r_warm.delivered_bytes if r_warm is not None else 0
        new = {k: row[k] for k in runs.columns
               if not k.startswith(("sub", "k_", "wall_", "congestion_used", "kernel", "mptcp_", "tcp_available",
                                    "delayline", "throughput", "received", "completion", "sysctl_",
                                    "incomplete_reason"))}
        new.update(simulator="cmtlab.sim", sim_congestion=cc, sim_scheduler=sched, sim_reordering=reordering,
                   sim_queue_packets=pths["queue_packets"],
                   sim_loss=" ".join(f"{lm.rate:g}" for lm in pths["loss"]),
                   sim_segment_bytes=cfg["segment_bytes"], sim_receive_buffer_bytes=cfg["receive_buffer_bytes"],
                   throughput_bps=(r.delivered_bytes - before) * 8 / (duration - warm),
                   received_bytes=r.delivered_bytes)
        if loss_draws != "simulator":
            new["sim_loss_draws"] = loss_draws
        if warmup_counters:
            for rec in (r_warm.subflows.to_dict("records") if r_warm is not None else []):
                new[f"sub{int(rec['subflow'])}_queue_drops_warmup"] = rec["queue_drops"]
                new[f"sub{int(rec['subflow'])}_timeouts_warmup"] = rec["timeouts"]
        for rec in r.subflows.to_dict("records"):
            i = int(rec["subflow"])
            new[f"sub{i}_bytes"] = rec["goodput_bps"] * r.extra["sim_time_s"] / 8
            new[f"sub{i}_retrans_total"] = rec["retransmissions"]
            new[f"sub{i}_timeouts"] = rec["timeouts"]
            new[f"sub{i}_queue_drops"] = rec["queue_drops"]
            new[f"sub{i}_spurious_retransmissions"] = rec["spurious_retransmissions"]
            new[f"sub{i}_loss_drops"] = rec["loss_drops"]
        out.append(new)
    return pd.DataFrame(out)


def _row_is_mptcp(row) -> bool:
    """A row's kind: ``kind`` (experiments) or, for a bare run row, ``simulator``."""
    kind = row.get("kind", None)
    if isinstance(kind, str):
        return kind != "tcp"
    return row.get("simulator", "linux-mptcp") != "linux-tcp"


#: The simulator's reordering responses run beside each kernel option variant of the Arabi
#: scenario: Linux's defaults undo spurious retransmissions with D-SACK (RFC 3708), F-RTO
#: (RFC 5682) and timestamps (Eifel detection, RFC 3522), all at once; ``cmtlab.sim`` runs one
#: response per subflow, so each of the three is run separately beside the kernel's default, and
#: ``"none"`` beside the kernel with all three off.
ARABI_SIM_RESPONSES = {
    "D-SACK + F-RTO + timestamps (Linux default)": ("dsack", "frto", "eifel"),
    "none of the three": ("none",),
}


def simulate_arabi_like_kernel(arabi: pd.DataFrame, responses: dict | None = None, *, progress_bar: bool = True,
                               **options) -> pd.DataFrame:
    """The simulator beside the kernel's Arabi runs (:func:`cmtlab.testbed.experiments.arabi_jobs`): per kernel variant, its rows re-run with
    :func:`simulate_like_kernel` once per reordering response of ``responses`` (default
    :data:`ARABI_SIM_RESPONSES`; timestamps follow the variant's ``k_timestamps``).  Rows carry
    ``variant`` and ``sim_reordering``."""
    responses = responses or ARABI_SIM_RESPONSES
    if "variant" not in arabi:
        raise ValueError("arabi must hold the kernel's Arabi rows (arabi_jobs run by run_jobs: a 'variant' column)")
    out = []
    for variant, rows in arabi.groupby("variant", sort=False):
        if variant not in responses:
            raise ValueError(f"no simulator responses for variant {variant!r}; responses has {sorted(responses)}")
        for ro in responses[variant]:
            out.append(simulate_like_kernel(rows, reordering=ro, progress_bar=progress_bar, **options))
    return pd.concat(out, ignore_index=True)


def arabi_side_by_side(arabi: pd.DataFrame, sim: pd.DataFrame) -> pd.DataFrame:
    """One row per (variant, side): goodput mean, std and range over the repetitions (Mbit/s),
    and the goodput ratio to the kernel's mean of the same variant."""
    rows = []
    for variant, k in arabi.groupby("variant", sort=False):
        kmean = k.throughput_bps.mean()
        sides = [("kernel", "—", k)] + [("cmtlab.sim", ro, s) for ro, s in
                                         sim[sim.variant == variant].groupby("sim_reordering", sort=False)]
        for side, ro, s in sides:
            rows.append(dict(variant=variant, side=side, sim_reordering=ro, runs=len(s),
                             goodput_mbps=s.throughput_bps.mean() / 1e6,
                             std_mbps=s.throughput_bps.std(ddof=1) / 1e6 if len(s) > 1 else np.nan,
                             min_mbps=s.throughput_bps.min() / 1e6, max_mbps=s.throughput_bps.max() / 1e6,
                             ratio_to_kernel=s.throughput_bps.mean() / kmean))
    return pd.DataFrame(rows)


# ---------------------------------------------------------------- reading the gain tables
def gain_of(gains_table: pd.DataFrame | None, congestion: str, meaning: str, delta_ms: int) -> float:
    """The mean gain (%) of one (congestion control, meaning of Δ, Δ in ms) row of a :func:`gains`
    table; NaN when the table is None or has no such row (e.g. Δ not run in this profile)."""
    if gains_table is None:
        return float("nan")
    s = gains_table[(gains_table.congestion == congestion) & (gains_table.meaning == meaning)
                    & (gains_table.delta_ms == delta_ms)]
    return float(s.gain_pct.iloc[0]) if len(s) else float("nan")


def gain_cell(gains_table: pd.DataFrame | None, congestion: str, meaning: str, delta_ms: int) -> str:
    """A table cell for one row of a :func:`gains` table: ``"97"`` for one run,
    ``"97 ± 0.2 [97, 98]"`` (mean ± std [min, max], %) for several, ``"—"`` when missing."""
    if gains_table is None:
        return "—"
    s = gains_table[(gains_table.congestion == congestion) & (gains_table.meaning == meaning)
                    & (gains_table.delta_ms == delta_ms)]
    if not len(s):
        return "—"
    r = s.iloc[0]
    spread = f" ± {r.gain_std_pct:.1f} [{r.gain_min_pct:.0f}, {r.gain_max_pct:.0f}]" if r.n > 1 else ""
    return f"{r.gain_pct:.0f}{spread}"


def agreement(kernel_gains: pd.DataFrame, sim_gains: pd.DataFrame, congestion: str = "reno") -> pd.DataFrame:
    """Simulator against kernel per (meaning, Δ) for one kernel congestion control: the kernel's
    gain (mean, std, min, max over the repetitions), the simulator's gain, their difference in
    percentage points (simulator − kernel), the ratio of the MPTCP goodputs (simulator / kernel)
    and whether the simulator's gain lies within the kernel's range over the repetitions."""
    k = kernel_gains[kernel_gains.congestion == congestion]
    m = k.merge(sim_gains, on=["meaning", "delta_ms"], suffixes=("_kernel", "_sim"))
    out = pd.DataFrame({
        "meaning": m.meaning, "delta_ms": m.delta_ms, "rtt2_ms": m.rtt2_ms_kernel,
        "kernel_gain_pct": m.gain_pct_kernel, "kernel_std_pp": m.gain_std_pct_kernel,
        "kernel_min_pct": m.gain_min_pct_kernel, "kernel_max_pct": m.gain_max_pct_kernel, "kernel_runs": m.n_kernel,
        "sim_gain_pct": m.gain_pct_sim, "diff_pp": m.gain_pct_sim - m.gain_pct_kernel,
        "goodput_ratio": m.mptcp_mbps_sim / m.mptcp_mbps_kernel,
        "within_kernel_range": (m.gain_pct_sim >= m.gain_min_pct_kernel) & (m.gain_pct_sim <= m.gain_max_pct_kernel)})
    return out.reset_index(drop=True)
