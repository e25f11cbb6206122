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

from ..sim.presets import (LINUX_INITIAL_WINDOW_SEGMENTS, LINUX_RCVBUF_MAX_BYTES, LINUX_SNDBUF_MAX_BYTES,
                           MPTCP_PAYLOAD_DEFICIT_BYTES)  # noqa: F401  (the linux preset's, beside EARLIER_*)

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
# The initial window and the largest autotuned buffers are the simulator's Linux preset's (cmtlab.sim.presets:
# LINUX_INITIAL_WINDOW_SEGMENTS, LINUX_SNDBUF_MAX_BYTES, LINUX_RCVBUF_MAX_BYTES), imported above.

#: MPTCP's packet sizes in the configurations without a preset (``"today"``, ``"today-dupack"``, ``"before"``,
#: ``"ns3-uncoupled"``), kept as they were recorded and used: 1410 payload bytes (MSS - 38) with 14 option
#: bytes, 1476 IP bytes a packet.  The ``"linux"`` configuration's preset has the kernel's measured sizes, 1424 in
#: 1500 (:data:`cmtlab.sim.presets.MPTCP_PAYLOAD_DEFICIT_BYTES`; :func:`payload_per_ip_byte`).
EARLIER_MPTCP_PAYLOAD_DEFICIT_BYTES = 38
EARLIER_MPTCP_OPTION_BYTES = 14

#: Linux's retransmission timeout is ``SRTT + max(4 RTTVAR, tcp_rto_min)`` (``tcp_rtt_estimator``: the
#: variance term never falls below 200 ms), RFC 6298's formula with the clock granularity G = 200 ms.
LINUX_RTO = dict(clock_granularity_s=0.2)
#: Linux's window during and after a reduction: PRR as ``tcp_cwnd_reduction`` counts it
#: (:class:`~cmtlab.sim.mechanisms.recovery.linux_prr.LinuxPrrRecovery`; ns-3.44's PRR, the simulator's
#: ``"prr"``, sends up to twice as much early in each recovery) and, for Reno, the congestion-avoidance
#: count zeroed at every reduction (``tcp_init_cwnd_reduction``; ``reset_count_on_reduction``).
LINUX_REDUCTION = dict(recovery="linux_prr")
LINUX_RENO_PARAMS = {"reset_count_on_reduction": True}
#: CUBIC as Linux runs it: its constants and choices (``variant="linux"``), HyStart, and slow start only while the
#: window is used (``tcp_is_cwnd_limited``; a subflow the scheduler leaves idle does not double its window).
LINUX_CUBIC_PARAMS = {"variant": "linux", "hystart": True, "slow_start_cwnd_limited": True}
#: Draw every path's random drops (and per-packet delay variation) from the testbed delay line's own streams,
#: seeded as the kernel run of the same repetition (:class:`cmtlab.sim.net.delay_line.DelayLineLink`): the same
#: packets are lost in both columns, so that a cell's seed-to-seed spread is shared instead of sampled twice.
DELAY_LINE_DRAWS = dict(loss_draws="delay_line")

#: The simulator configurations :func:`simulate_like_kernel` knows by name, each per kernel congestion control
#: (a kernel row's ``k_congestion``).  An entry is either a simulator preset (``preset``: a name of
#: :data:`cmtlab.sim.presets.PRESETS`, run with the row's congestion control, transport and timestamps) or the
#: first kernel-like base — uncoupled-style mechanisms on :data:`LINUX_TCP_OPTIONS` — with the keywords it
#: changes; ``loss_draws`` and ``link_counting`` say how the testbed's paths are carried (:data:`LOSS_DRAWS`,
#: :data:`cmtlab.sim.net.delay_line.COUNTINGS`).
#:
#: * ``"linux"`` (the default) — today's Linux, :func:`cmtlab.sim.presets.linux` (``"linux-6.18"``), over the
#:   delay line as it is: its drops, its queue counted as ``delayline.c`` counts it (every packet not yet
#:   serialised, IP bytes), each path's own queue;
#: * ``"today"``, ``"today-dupack"``, ``"before"`` — the today's-transport chapter's earlier configurations:
#:   RACK-TLP with Linux's window growth (``"rack-tlp-linux"``), Linux's PRR and RTO, Linux's CUBIC or Reno and
#:   Linux's scheduler without its send buffers; the same with the duplicate-ACK rules; uncoupled NewReno with
#:   lowest RTT first — all three over the delay line's drops, its queue counted as ns-3 counts one;
#: * ``"ns3-uncoupled"`` — the first kernel-like configuration (and the default before ``"linux"``): uncoupled
#:   NewReno subflows, lowest RTT first, Linux's options with ns-3's PRR, the simulator's own loss draws (the
#:   Linux chapter's simulator column).
KERNEL_CONFIGS = {
    "linux": {cc: dict(preset="linux-6.18", loss_draws="delay_line", link_counting="delay_line")
              for cc in ("cubic", "reno")},
    "today": {"cubic": dict(congestion="cubic", congestion_params=LINUX_CUBIC_PARAMS,
                            scheduler="linux", loss_detection="rack-tlp-linux", **LINUX_RTO, **LINUX_REDUCTION,
                            **DELAY_LINE_DRAWS),
              "reno": dict(congestion="reno", congestion_params=LINUX_RENO_PARAMS, scheduler="linux",
                           loss_detection="rack-tlp-linux", **LINUX_RTO, **LINUX_REDUCTION, **DELAY_LINE_DRAWS)},
    "today-dupack": {"cubic": dict(congestion="cubic", congestion_params=LINUX_CUBIC_PARAMS,
                                   scheduler="linux", **LINUX_RTO, **LINUX_REDUCTION, **DELAY_LINE_DRAWS),
                     "reno": dict(congestion="reno", congestion_params=LINUX_RENO_PARAMS, scheduler="linux",
                                  **LINUX_RTO, **LINUX_REDUCTION, **DELAY_LINE_DRAWS)},
    "before": {"cubic": dict(congestion="uncoupled", scheduler="lowest_rtt", **DELAY_LINE_DRAWS),
               "reno": dict(congestion="uncoupled", scheduler="lowest_rtt", **DELAY_LINE_DRAWS)},
    "ns3-uncoupled": {cc: dict(congestion="uncoupled", scheduler="lowest_rtt", loss_draws="simulator")
                      for cc in ("cubic", "reno")},
}
#: :func:`simulate_like_kernel`'s configuration unless told otherwise.
DEFAULT_CONFIG = "linux"


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
    without those columns are skipped.  The payload per packet counts every packet the delay line carried
    (handshake and pure-payload-less ones too); :func:`payload_per_ip_byte` is the check of the simulator's
    packet sizes (:data:`MPTCP_PAYLOAD_DEFICIT_BYTES`)."""
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


def payload_per_ip_byte(runs: pd.DataFrame) -> pd.DataFrame:
    """Per cell (``cell``, else per ``kind``): the payload the receiver got (``received_bytes``) per IP byte the
    delay lines carried in the data direction (``sub<i>_bytes``, over the same run), its range over the runs,
    and the share of packets that were retransmissions.  On a clean path with full-sized packets it is
    payload / (payload + headers): 1448/1500 = 0.9653 for TCP with timestamps, 1424/1500 = 0.9493 for MPTCP
    (:data:`MPTCP_PAYLOAD_DEFICIT_BYTES`); retransmitted and short packets lower it."""
    key = "cell" if "cell" in runs else "kind"
    rows = []
    for name, g in runs.groupby(key, sort=False):
        n = int(g["n_paths"].max())
        cols = [f"sub{i}_bytes" for i in range(n)]
        if not set(cols) <= set(g.columns) or g[cols].isna().any(axis=None):
            continue
        ip = g[cols].sum(axis=1)
        per = g["received_bytes"] / ip
        pk = sum(g[f"sub{i}_packets"] for i in range(n)) if f"sub{n - 1}_packets" in g else None
        rx = sum(g[f"sub{i}_retrans_total"] for i in range(n)) if f"sub{n - 1}_retrans_total" in g else None
        rows.append({key: name, "payload_per_ip_byte": float(per.mean()), "min": float(per.min()),
                     "max": float(per.max()),
                     "retransmitted_share": float(rx.sum() / pk.sum()) if pk is not None and rx is not None else np.nan,
                     "runs": len(g)})
    return pd.DataFrame(rows)


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
    the data direction is a Bernoulli drop per packet, ``LossModel('packet', p)``), ``queue_packets`` and
    ``queue_bytes`` (each path's drop-tail limits: one value when every path has the same, else one per
    path; ``queue_bytes`` None when no path has a byte limit), and, when a
    path's data direction has per-packet delay variation (``path<i>_jitter_s``), ``links``: one
    :class:`cmtlab.sim.net.jitter.JitterLink` (``"jitter"``) per path with the same uniform variation;
    when a path's data direction replays a rate schedule (``path<i>_rate_schedule_bps``, rates separated by
    spaces, ``path<i>_schedule_interval_s``, ``path<i>_schedule_offset_s``: how far into the schedule the
    transfer began), ``links``: a :class:`cmtlab.sim.net.trace_link.RateTraceLink` (``"rate_trace"``)
    replaying the same schedule from the same point (``offset_s = -schedule_offset_s``), the other paths
    point-to-point.  A path with both is refused (no link model has both).

    ValueError naming the column for what ``cmtlab.sim.simulate_mptcp`` cannot carry: random loss
    on the ACK direction (``path<i>_reverse_loss``; its links lose only data packets), a reverse
    direction with another rate, one-way delay or queue than the forward one (the simulator's paths are
    symmetric: half the round trip each way), and any path column it does not know.  Rows recorded before the reverse direction was added lack
    the ``reverse_*`` columns: their paths were symmetric, without loss on the ACKs."""
    from ..scenario import LossModel, as_queue_limits
    for col in row.index if hasattr(row, "index") else row:
        if isinstance(col, str) and col.startswith("path") and "_" in col:
            head, rest = col.split("_", 1)
            if head[4:].isdigit() and int(head[4:]) < n_paths and rest not in PATH_COLUMNS:
                raise ValueError(f"{label}: {col} is a path property cmtlab.sim cannot be given "
                                 f"(known: {', '.join(PATH_COLUMNS)})")
    rates, rtts, losses, queues, queue_bytes, jitters, traces = [], [], [], [], [], [], []
    for i in range(n_paths):
        c = f"path{i}_"
        rate = float(row[c + "rate_bps"])
        delay = _value(row, c + "delay_s")
        rtt = float(row[c + "rtt_s"])
        qb = _value(row, c + "queue_bytes")
        rqb = _value(row, c + "reverse_queue_bytes")
        if rqb is not None and (qb is None or int(rqb) != int(qb)):
            raise ValueError(f"{label}: {c}reverse_queue_bytes = {rqb!r} differs from {c}queue_bytes = {qb!r}: "
                             "cmtlab.sim has one queue limit for both directions")
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
        q = _value(row, c + "queue_packets", None if qb is not None else 100)
        rq = _value(row, c + "reverse_queue_packets")
        if rq is not None and (q is None or int(rq) != int(q)):
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
        queues.append(int(q) if q is not None else None)
        queue_bytes.append(int(qb) if qb is not None else None)
    qp, qbs = as_queue_limits(queues, queue_bytes, n_paths, what="path")
    out = dict(rates=rates, rtts=rtts, loss=losses, queue_packets=qp, queue_bytes=qbs)
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
    seg = mss - EARLIER_MPTCP_PAYLOAD_DEFICIT_BYTES if mptcp else mss
    opts = dict(LINUX_TCP_OPTIONS, timestamps=ts, send_buffer_bytes=LINUX_SNDBUF_MAX_BYTES,
                receive_buffer_bytes=LINUX_RCVBUF_MAX_BYTES)
    for k in list(overrides):
        if k in TcpOptions.__dataclass_fields__:
            opts[k] = overrides.pop(k)
    cfg = dict(segment_bytes=seg, dss_bytes=EARLIER_MPTCP_OPTION_BYTES if mptcp else 0,
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


def _delay_line_counting(links: list, counting: str) -> list:
    """The delay line's own links (``delay_line``, ``rate_trace``) with ``counting`` (:data:`cmtlab.sim.net.delay_line.COUNTINGS`)."""
    return [(name, dict(params, counting=counting)) if name in ("delay_line", "rate_trace") else (name, params)
            for name, params in links]


def _config_entries(config) -> dict:
    """``config`` as ``{kernel congestion control: entry}``: a name of :data:`KERNEL_CONFIGS`, or such a dict."""
    if isinstance(config, str):
        if config not in KERNEL_CONFIGS:
            raise ValueError(f"config must be one of {sorted(KERNEL_CONFIGS)} or a dict of entries per congestion "
                             f"control, got {config!r}")
        return KERNEL_CONFIGS[config]
    if isinstance(config, dict) and config and all(isinstance(v, dict) for v in config.values()):
        return config
    raise ValueError(f"config must be one of {sorted(KERNEL_CONFIGS)} or a dict of entries per congestion control, "
                     f"got {config!r}")


def _row_congestion(row, entries: dict, label: str) -> str:
    """The kernel congestion control of a row (``k_congestion``; a row without one ran the testbed's default,
    Reno), refused by name when the configuration has no entry for it."""
    cc = row.get("k_congestion", "reno")
    cc = cc if isinstance(cc, str) else "reno"
    if cc not in entries:
        raise ValueError(f"{label}: k_congestion = {cc!r}: the configuration has entries for {sorted(entries)} only")
    return cc


def _preset_config(entry: dict, cc: str, row, mptcp: bool, overrides: dict) -> dict:
    """simulate_mptcp keywords of a preset entry for one kernel row: the preset for the row's congestion control,
    transport and timestamps (``k_timestamps``), then the entry's and the caller's keywords (TcpOptions fields
    replace the preset's options)."""
    from ..scenario import TcpOptions
    from ..sim.presets import preset

    ts = bool(row.get("k_timestamps", True)) if pd.notna(row.get("k_timestamps", True)) else True
    kw = preset(entry["preset"], congestion=cc, mptcp=mptcp, timestamps=ts)
    opt = {k: overrides.pop(k) for k in list(overrides) if k in TcpOptions.__dataclass_fields__}
    if opt:
        kw["options"] = kw["options"].replace(**opt)
    # another scheduler or congestion control than the preset's does not take the preset's parameters for its own
    # (the Linux scheduler's send buffers and joins, Linux CUBIC's HyStart rules) unless the caller gives them
    for what in ("scheduler", "congestion"):
        if what in overrides and overrides[what] != kw[what] and f"{what}_params" not in overrides:
            kw.pop(f"{what}_params", None)
    kw.update(overrides)
    return kw


def simulate_like_kernel(runs: pd.DataFrame, config=DEFAULT_CONFIG, *, congestion: str | None = None,
                         scheduler: str | None = None, reordering: str | None = None, progress_bar: bool = True,
                         loss_draws: str | None = None, link_counting: str | None = None,
                         warmup_counters: bool = False, **options) -> pd.DataFrame:
    """The simulator column: every row of ``runs`` (kernel rows of :func:`cmtlab.testbed.experiments.table1_jobs` or
    :func:`cmtlab.testbed.experiments.arabi_jobs`, run by :func:`~cmtlab.testbed.experiments.run_jobs`, or any :meth:`cmtlab.testbed.TestbedResult.to_row`) re-run in
    :func:`cmtlab.sim.simulate_mptcp` with every path property of the row (:func:`kernel_row_paths`:
    rates, round-trip times — ``simulate_mptcp``'s ``delays_s`` are round trips —, the random
    loss of each path's data direction, each path's queue in packets or bytes; a property the simulator cannot
    carry, e.g. loss on the ACKs, refuses the row naming its column), the run length and repetition seed,
    configured like the kernel by ``config`` — a name of :data:`KERNEL_CONFIGS` (default ``"linux"``: today's
    Linux, :func:`cmtlab.sim.presets.linux`, over the delay line as ``delayline.c`` runs it) or a dict of such
    entries per congestion control — for the row's kernel congestion control (``k_congestion``).  Single-path
    TCP rows (``kind == "tcp"``) run as a one-path connection with full TCP packets.

    The configurations without a preset (``"today"``, ``"today-dupack"``, ``"before"``, ``"ns3-uncoupled"``) start
    from the first kernel-like base: Linux's loss recovery and timers (:data:`LINUX_TCP_OPTIONS`, timestamps as
    the row's ``k_timestamps``), an initial window of 10 segments, no initial ssthresh limit, the largest
    autotuned buffers (:data:`LINUX_SNDBUF_MAX_BYTES` per subflow, :data:`LINUX_RCVBUF_MAX_BYTES` at the
    connection level and as every subflow's window) and MPTCP's smaller packets as they were first measured
    (:data:`EARLIER_MPTCP_PAYLOAD_DEFICIT_BYTES`).

    The goodput is measured like the kernel's, over [``warmup_s``, ``duration_s``]: the run is
    deterministic for its seed, so a second run stopped at ``warmup_s`` gives the bytes delivered
    by then.  Returns the kernel rows' experiment keys and path columns with
    ``simulator="cmtlab.sim"``, ``sim_kernel_config`` (the configuration's name, ``"custom"`` for a dict),
    ``throughput_bps`` (that goodput), ``sub<i>_bytes`` (payload
    bytes the subflow delivered to the connection over the whole run), ``sub<i>_retrans_total``,
    ``sub<i>_timeouts``, ``sub<i>_queue_drops``, ``sub<i>_spurious_retransmissions`` and
    ``sub<i>_loss_drops``, so :func:`~cmtlab.papers.alheid.table1.gains` applies unchanged; MPTCP rows also
    ``mptcp_retrans_segs`` (segments sent again at the connection level, on another subflow) and
    ``mptcp_duplicate_data`` (segments whose data the connection already had), the kernel's connection-level
    counters of :func:`cmtlab.today.kernel.kernel_runs` (``mptcp_counters=True``).  A row's ``path<i>_loss`` (the delay
    line's random drop rate on the data direction) becomes the simulator's packet loss on that path.

    The keywords replace the configuration's: ``congestion``, ``scheduler``; ``reordering``: the reordering response
    of every subflow (``"none"``, ``"dsack"``, ``"eifel"``, ``"frto"``, ...); ``loss_draws`` (:data:`LOSS_DRAWS`):
    ``"simulator"`` draws the random drops from the simulator's own streams, ``"delay_line"`` from the testbed
    delay line's, seeded as the kernel row's run (``rep``): the same packets are lost in both columns (column
    ``sim_loss_draws``); ``link_counting``: with the delay line's draws, how its links count their queue and rate
    (:data:`cmtlab.sim.net.delay_line.COUNTINGS`).
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
    entries = _config_entries(config)
    config_name = config if isinstance(config, str) else "custom"
    explicit = {k: v for k, v in (("congestion", congestion), ("scheduler", scheduler), ("reordering", reordering),
                                  ("loss_draws", loss_draws), ("link_counting", link_counting)) if v is not None}
    from ..sim import simulate_mptcp
    from ..sim.net.delay_line import COUNTINGS
    for col in ("n_paths", "duration_s", "path0_rate_bps", "path0_rtt_s"):
        if col not in runs:
            raise ValueError(f"runs must hold kernel rows with a {col!r} column (cmtlab.testbed to_row), "
                             f"got columns {sorted(runs.columns)[:12]}...")
    out = []
    rows = list(runs.iterrows())
    carried = []
    for idx, row in rows:   # every row is checked before the first simulation
        label = f"row {idx!r}"
        entry = dict(entries[_row_congestion(row, entries, label)], **explicit)
        draws = entry.get("loss_draws", "simulator")
        if draws not in LOSS_DRAWS:
            raise ValueError(f"loss_draws must be one of {LOSS_DRAWS}, got {draws!r}")
        counting = entry.get("link_counting")
        if counting is not None and counting not in COUNTINGS:
            raise ValueError(f"link_counting must be None or one of {COUNTINGS}, got {counting!r}")
        mptcp = _row_is_mptcp(row)
        n = int(row["n_paths"]) if mptcp else 1
        pths = kernel_row_paths(row, n, label=label)
        if "queue_packets" in options:
            pths["queue_packets"] = options["queue_packets"]
        if "loss" in options:
            pths["loss"] = options["loss"]
        if draws == "delay_line":
            pths["links"] = _delay_line_links(pths)
            if counting is not None:
                pths["links"] = _delay_line_counting(pths["links"], counting)
        carried.append((pths, entry))
    for (idx, row), (pths, entry) in progress(list(zip(rows, carried)), desc="simulator", unit="run",
                                              enabled_=progress_bar):
        mptcp = _row_is_mptcp(row)
        n = int(row["n_paths"]) if mptcp else 1
        rates, rtts = pths["rates"], pths["rtts"]
        duration = float(row["duration_s"])
        warm = row.get("warmup_s", 0.0)
        warm = float(warm) if pd.notna(warm) else 0.0
        if not 0 <= warm < duration:
            raise ValueError(f"warmup_s must be in [0, duration_s) in every row, got {warm!r} with duration {duration!r}")
        entry = dict(entry)
        draws = entry.pop("loss_draws", "simulator")
        entry.pop("link_counting", None)
        reo = entry.pop("reordering", "none")
        over = {k: v for k, v in options.items() if k not in ("queue_packets", "loss")}
        if "preset" in entry:
            name_cc = _row_congestion(row, entries, f"row {idx!r}")
            cfg = _preset_config(entry, name_cc, row, mptcp, {**{k: v for k, v in entry.items() if k != "preset"},
                                                              **over})
            cc, sched = cfg.pop("congestion"), cfg.pop("scheduler")
        else:
            cc = entry.pop("congestion", SIM_LIKE_KERNEL["congestion"])
            sched = entry.pop("scheduler", SIM_LIKE_KERNEL["scheduler"])
            cfg = _kernel_like_config(row, n, mptcp, {**entry, **over})
        seed = int(row.get("rep", 0)) if pd.notna(row.get("rep", 0)) else 0
        kw = dict(congestion=cc, scheduler=sched, reordering=reo, seed=seed, loss=pths["loss"],
                  queue_packets=pths["queue_packets"], **cfg)
        if pths.get("queue_bytes") is not None:
            kw["queue_bytes"] = pths["queue_bytes"]
        if "links" in pths:
            kw["links"] = pths["links"]
        r = simulate_mptcp(rates, rtts, duration_s=duration, **kw)
        r_warm = simulate_mptcp(rates, rtts, duration_s=warm, **kw) if warm > 0 else None
        before = r_warm.delivered_bytes if r_warm is not None else 0
        new = {k: row[k] for k in runs.columns
               if not k.startswith(("sub", "k_", "wall_", "congestion_used", "kernel", "mptcp_", "tcp_available",
                                    "delayline", "throughput", "received", "completion", "sysctl_",
                                    "incomplete_reason"))}
        new.update(simulator="cmtlab.sim", sim_congestion=cc, sim_scheduler=sched, sim_reordering=reo,
                   sim_queue_packets=_limits_text(pths["queue_packets"]),
                   sim_loss=" ".join(f"{lm.rate:g}" for lm in pths["loss"]),
                   sim_segment_bytes=cfg["segment_bytes"], sim_receive_buffer_bytes=cfg["receive_buffer_bytes"],
                   throughput_bps=(r.delivered_bytes - before) * 8 / (duration - warm),
                   received_bytes=r.delivered_bytes)
        new["sim_kernel_config"] = config_name
        if draws != "simulator":
            new["sim_loss_draws"] = draws
        if pths.get("queue_bytes") is not None:
            new["sim_queue_bytes"] = _limits_text(pths["queue_bytes"])
        if warmup_counters:
            for rec in (r_warm.subflows.to_dict("records") if r_warm is not None else []):
                new[f"sub{int(rec['subflow'])}_queue_drops_warmup"] = rec["queue_drops"]
                new[f"sub{int(rec['subflow'])}_timeouts_warmup"] = rec["timeouts"]
        if mptcp:
            # the kernel's MPTcpExtMPTCPRetrans / MPTcpExtDuplicateData (kernel_runs(mptcp_counters=True)), in segments
            new["mptcp_retrans_segs"] = r.extra.get("reinjections", 0)
            new["mptcp_duplicate_data"] = r.extra.get("duplicate_dsn_received", 0)
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


def _limits_text(limit):
    """A scenario's queue limit for a row: the one value, or the per-path values separated by spaces."""
    return " ".join("-" if v is None else str(v) for v in limit) if isinstance(limit, tuple) else limit


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


def simulate_arabi_like_kernel(arabi: pd.DataFrame, responses: dict | None = None, *, config="ns3-uncoupled",
                               progress_bar: bool = True, **options) -> pd.DataFrame:
    """The simulator beside the kernel's Arabi runs (:func:`cmtlab.testbed.experiments.arabi_jobs`): per kernel
    variant, its rows re-run with :func:`simulate_like_kernel` (``config``: by default ``"ns3-uncoupled"``, whose
    duplicate-ACK rules the papers' reordering responses answer) once per reordering response of ``responses`` (default
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
            out.append(simulate_like_kernel(rows, config, reordering=ro, progress_bar=progress_bar, **options))
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
    """The mean gain (%) of one (congestion control, meaning of Δ, Δ in ms) row of a :func:`~cmtlab.papers.alheid.table1.gains`
    table; NaN when the table is None or has no such row (e.g. Δ not run in this profile)."""
    if gains_table is None:
        return float("nan")
    s = gains_table[(gains_table.congestion == congestion) & (gains_table.meaning == meaning)
                    & (gains_table.delta_ms == delta_ms)]
    return float(s.gain_pct.iloc[0]) if len(s) else float("nan")


def gain_cell(gains_table: pd.DataFrame | None, congestion: str, meaning: str, delta_ms: int) -> str:
    """A table cell for one row of a :func:`~cmtlab.papers.alheid.table1.gains` table: ``"97"`` for one run,
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
