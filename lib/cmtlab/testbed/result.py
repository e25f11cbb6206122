"""What one transfer gave: the kernel's per-subflow counters (``ss``) and the goodput samples (:class:`TestbedResult`)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ._endpoint import MPTCP_SEPARATOR  # (the endpoint writes the snapshots this module reads)
from .config import PORT, KernelSettings
from .environment import kernel_info



# ---------------------------------------------------------------- results
_SS_RE = {k: re.compile(rx) for k, rx in {
    "rtt_ms": r"\brtt:([\d.]+)/", "cwnd": r"\bcwnd:(\d+)", "ssthresh": r"\bssthresh:(\d+)",
    "bytes_acked": r"\bbytes_acked:(\d+)", "retrans_total": r"\bretrans:\d+/(\d+)",
    "lost": r"\blost:(\d+)", "reordering": r"\breordering:(\d+)", "sndbuf_limited_ms": r"sndbuf_limited:(\d+)ms",
    "rwnd_limited_ms": r"rwnd_limited:(\d+)ms", "busy_ms": r"busy:(\d+)ms", "dsack_dups": r"dsack_dups:(\d+)",
    "mss": r"\bmss:(\d+)", "cc": r"(\w+)\s+wscale:"}.items()}


#: What a snapshot's trace row adds to :data:`_SS_RE` (:func:`socket_trace`): the segments not yet acknowledged, the
#: bytes sent, and the socket's memory (``skmem`` ``w``: queued, ``tb``: its send buffer).
_TRACE_RE = {k: re.compile(rx) for k, rx in {
    "unacked": r"\bunacked:(\d+)", "bytes_sent": r"\bbytes_sent:(\d+)",
    "wmem_bytes": r"skmem:\([^)]*\bw(\d+)", "sndbuf_bytes": r"skmem:\([^)]*\btb(\d+)"}.items()}


def parse_ss(text: str, local_addrs: list[str], *, trace: bool = False) -> dict[int, dict]:
    """Per-subflow state from ``ss -tinH`` (one TCP socket per subflow; keyed by path index); the part of a
    snapshot after :data:`MPTCP_SEPARATOR` (the connections) is not read.  ``trace``: also the fields of
    :data:`_TRACE_RE`."""
    out: dict[int, dict] = {}
    text = text.split(MPTCP_SEPARATOR, 1)[0]
    lines = text.splitlines()
    for j, ln in enumerate(lines):
        parts = ln.split()
        if len(parts) < 5 or parts[0] not in ("ESTAB", "FIN-WAIT-1", "FIN-WAIT-2", "CLOSE-WAIT", "LAST-ACK"):
            continue
        local = parts[3].rsplit(":", 1)[0].split("%")[0]
        if local not in local_addrs or parts[3].endswith(f":{PORT}"):
            continue
        info = lines[j + 1] if j + 1 < len(lines) else ""
        d = {"send_q_bytes": int(parts[2])}
        for k, rx in (_SS_RE | _TRACE_RE).items() if trace else _SS_RE.items():
            m = rx.search(info)
            if m:
                d[k] = m.group(1) if k == "cc" else float(m.group(1))
        out[local_addrs.index(local)] = d
    return out


def parse_ss_connection(text: str) -> dict:
    """The MPTCP connection of a snapshot (after :data:`MPTCP_SEPARATOR`, ``ss -HMmi``): ``send_q_bytes``
    (``write_seq - snd_una``: written, not DATA_ACKed), ``wmem_bytes`` and ``sndbuf_bytes``; {} without one."""
    if MPTCP_SEPARATOR not in text:
        return {}
    part = text.split(MPTCP_SEPARATOR, 1)[1]
    seq = re.search(r"write_seq:([0-9a-f]+) snd_una:([0-9a-f]+)", part)
    if not seq:
        return {}
    d = {"send_q_bytes": float(int(seq.group(1), 16) - int(seq.group(2), 16))}
    for k in ("wmem_bytes", "sndbuf_bytes"):
        m = _TRACE_RE[k].search(part)
        if m:
            d[k] = float(m.group(1))
    return d


#: Columns of :func:`socket_trace`.
TRACE_COLUMNS = ("t_s", "path", "cwnd_segments", "ssthresh_segments", "unacked_segments", "bytes_sent",
                 "retrans_total", "rtt_ms", "send_q_bytes", "wmem_bytes", "sndbuf_bytes")


def socket_trace(snapshots, local_addrs: list[str], t0: float) -> pd.DataFrame:
    """The sender's sockets over a transfer from its ``ss`` snapshots (``TestbedResult.ss_snapshots``, taken every
    ``ss_interval_s``): one row per snapshot and subflow (``path``: its index) and one for the MPTCP connection
    (``path`` -1), ``t_s`` from ``t0`` (monotonic s).  A subflow's ``ssthresh_segments`` is NaN while ``ss`` shows
    none (slow start not yet left); a connection's window and counters are NaN."""
    rows = []
    for t, txt in snapshots:
        for path, d in sorted(parse_ss(txt, local_addrs, trace=True).items()):
            rows.append(dict(t_s=t - t0, path=path, cwnd_segments=d.get("cwnd", np.nan),
                             ssthresh_segments=d.get("ssthresh", np.nan), unacked_segments=d.get("unacked", 0.0),
                             bytes_sent=d.get("bytes_sent", 0.0), retrans_total=d.get("retrans_total", 0.0),
                             rtt_ms=d.get("rtt_ms", np.nan), send_q_bytes=float(d["send_q_bytes"]),
                             wmem_bytes=d.get("wmem_bytes", np.nan), sndbuf_bytes=d.get("sndbuf_bytes", np.nan)))
        c = parse_ss_connection(txt)
        if c:
            rows.append(dict(t_s=t - t0, path=-1, cwnd_segments=np.nan, ssthresh_segments=np.nan,
                             unacked_segments=np.nan, bytes_sent=np.nan, retrans_total=np.nan, rtt_ms=np.nan, **c))
    return pd.DataFrame(rows, columns=list(TRACE_COLUMNS))


@dataclass
class TestbedResult:
    """One emulated transfer; :meth:`to_row` gives the tidy row (like ``TransferResult.to_row``)."""

    paths: list
    settings: KernelSettings
    mptcp: bool
    transfer_bytes: int | None
    duration_s: float | None
    completed: bool
    completion_time_s: float
    throughput_bps: float
    received_bytes: int
    goodput: pd.DataFrame  # t_s, goodput_bps per bin
    counters: list = field(default_factory=list)
    subflows: dict = field(default_factory=dict)
    ss_snapshots: list = field(default_factory=list)
    congestion_used: str = ""
    wall_time_s: float = 0.0
    info: dict = field(default_factory=dict)
    #: why the transfer did not complete ("" when it did)
    reason: str = ""
    #: the kernel's values of the settings' sysctls, read back from namespace A
    applied: dict = field(default_factory=dict)
    #: subflow congestion controls that differ from the one asked for ("" when none)
    congestion_mismatch: str = ""
    #: the sender's first send on the endpoints' clock (``time.monotonic``, CLOCK_MONOTONIC: the delay
    #: lines' ``t0_s`` is on the same clock), NaN when unknown
    t_start_monotonic_s: float = float("nan")
    #: the receiver's (CLOCK_MONOTONIC s, cumulative bytes read) samples
    received_samples: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))

    @classmethod
    def _build(cls, tb, snd, rcv, transfer_bytes, duration_s, warmup_s, bin_s, wall):
        t0 = snd["t_start"]
        samples = np.array(rcv["samples"] or [[t0, 0]], dtype=float)
        ts, cum = samples[:, 0] - t0, samples[:, 1]

        def at(t):
            return float(np.interp(t, ts, cum, left=0.0))
        if transfer_bytes:
            completed = rcv["bytes"] >= transfer_bytes and rcv["t_last"] is not None
            ct = (rcv["t_last"] - t0) if completed else float("nan")
            thr = transfer_bytes * 8 / ct if completed else float("nan")
            horizon = ts[-1]
        else:
            completed = ts[-1] >= duration_s - 0.05 or rcv["bytes"] > 0
            ct = duration_s
            thr = (at(duration_s) - at(warmup_s)) * 8 / (duration_s - warmup_s)
            horizon = duration_s
        edges = np.arange(0, horizon + bin_s, bin_s)
        cums = np.array([at(e) for e in edges])
        gp = pd.DataFrame({"t_s": edges[1:], "goodput_bps": np.diff(cums) * 8 / bin_s})
        addrs = [tb.addr_a(i) for i in range(len(tb.paths))]
        last_ss = snd["ss"][-1][1] if snd["ss"] else ""
        subflows = parse_ss(last_ss, addrs)
        used = sorted({d["cc"] for d in subflows.values() if "cc" in d})
        wrong = [u for u in used if u != tb.settings.congestion]
        return cls(paths=tb.paths, settings=tb.settings, mptcp=tb.mptcp, transfer_bytes=transfer_bytes,
                   duration_s=duration_s, completed=bool(completed), completion_time_s=ct, throughput_bps=thr,
                   received_bytes=int(rcv["bytes"]), goodput=gp, subflows=subflows,
                   ss_snapshots=snd["ss"], congestion_used=" ".join(used) or snd["congestion"], wall_time_s=wall,
                   info=_run_info(tb), applied=dict(tb.applied), congestion_mismatch=" ".join(wrong),
                   t_start_monotonic_s=float(t0), received_samples=samples)

    @classmethod
    def _incomplete(cls, tb, reason: str, rcv, snd, transfer_bytes, duration_s, wall):
        """A transfer that could not complete: ``completed=False``, NaN time and throughput."""
        got = int(rcv["bytes"]) if rcv else 0
        addrs = [tb.addr_a(i) for i in range(len(tb.paths))]
        last_ss = snd["ss"][-1][1] if snd and snd.get("ss") else ""
        return cls(paths=tb.paths, settings=tb.settings, mptcp=tb.mptcp, transfer_bytes=transfer_bytes,
                   duration_s=duration_s, completed=False, completion_time_s=float("nan"),
                   throughput_bps=float("nan"), received_bytes=got,
                   goodput=pd.DataFrame({"t_s": [], "goodput_bps": []}), subflows=parse_ss(last_ss, addrs),
                   congestion_used=(snd or {}).get("congestion", ""), wall_time_s=wall, info=_run_info(tb),
                   reason=reason, applied=dict(tb.applied))

    def attach_counters(self, counters: list[dict]) -> "TestbedResult":
        self.counters = counters
        return self

    def to_row(self) -> dict:
        """The tidy row: the run, every path property of both directions (``path<i>_*`` forward,
        ``path<i>_reverse_*`` the ACK direction), the counters, the settings asked for (``k_*``)
        and what the kernel used (``congestion_used`` from the subflows, ``mptcp_scheduler_used``,
        ``sysctl_*`` read back)."""
        row = {"simulator": "linux-mptcp" if self.mptcp else "linux-tcp", "n_paths": len(self.paths),
               "transfer_bytes": self.transfer_bytes, "duration_s": self.duration_s, "completed": self.completed,
               "incomplete_reason": self.reason, "completion_time_s": self.completion_time_s,
               "throughput_bps": self.throughput_bps, "received_bytes": self.received_bytes,
               "congestion_used": self.congestion_used, "wall_time_s": self.wall_time_s}
        for i, p in enumerate(self.paths):
            row[f"path{i}_rate_bps"] = p.forward.rate_bps
            row[f"path{i}_delay_s"] = p.forward.delay_s
            row[f"path{i}_rtt_s"] = p.rtt_s
            row[f"path{i}_queue_packets"] = p.forward.queue_packets
            row[f"path{i}_queue_bytes"] = p.forward.queue_bytes
            row[f"path{i}_loss"] = p.forward.loss
            if p.forward.jitter_s or p.back.jitter_s:
                row[f"path{i}_jitter_s"] = p.forward.jitter_s
                row[f"path{i}_reverse_jitter_s"] = p.back.jitter_s
            if p.forward.rate_schedule_bps is not None:
                # the replayed schedule, and where in it the transfer began (sender's first send minus the
                # delay line's READY, both CLOCK_MONOTONIC): what cmtlab.sim needs to replay the same rates
                row[f"path{i}_rate_schedule_bps"] = " ".join(f"{r:.17g}" for r in p.forward.rate_schedule_bps)
                row[f"path{i}_schedule_interval_s"] = p.forward.schedule_interval_s
                t0 = (self.counters[i] if i < len(self.counters) else {}).get("t0_s")
                row[f"path{i}_schedule_offset_s"] = (self.t_start_monotonic_s - t0) if t0 is not None else np.nan
            b = p.back
            row[f"path{i}_reverse_rate_bps"] = b.rate_bps
            row[f"path{i}_reverse_delay_s"] = b.delay_s
            row[f"path{i}_reverse_queue_packets"] = b.queue_packets
            row[f"path{i}_reverse_queue_bytes"] = b.queue_bytes
            row[f"path{i}_reverse_loss"] = b.loss
            c = self.counters[i] if i < len(self.counters) else {}
            ab, ba = c.get("ab", {}), c.get("ba", {})
            row[f"sub{i}_bytes"] = ab.get("forwarded_bytes")
            row[f"sub{i}_packets"] = ab.get("forwarded_packets")
            row[f"sub{i}_queue_drops"] = ab.get("queue_drops")
            row[f"sub{i}_random_drops"] = ab.get("random_drops")
            row[f"sub{i}_ack_packets"] = ba.get("forwarded_packets")
            if i in self.subflows:  # ss prints these counters only when they are non-zero
                for k in ("retrans_total", "lost", "dsack_dups", "sndbuf_limited_ms", "rwnd_limited_ms"):
                    row[f"sub{i}_{k}"] = 0.0
            for k, v in self.subflows.get(i, {}).items():
                row[f"sub{i}_{k}"] = v
        row.update(self.settings.to_row())
        row.update({k: v for k, v in self.info.items() if v is not None})
        row.update({f"sysctl_{k}": v for k, v in self.applied.items()})
        if self.mptcp:
            row["mptcp_scheduler_used"] = self.applied.get("net.mptcp.scheduler", self.info.get("mptcp_scheduler"))
        return row


def _run_info(tb) -> dict:
    """:func:`kernel_info` with the MPTCP scheduler of the run's namespace (not the host's)."""
    info = {**kernel_info(), "delayline": " ".join(getattr(tb, "delayline_flags", []))}
    if tb.mptcp and "net.mptcp.scheduler" in tb.applied:
        info["mptcp_scheduler"] = tb.applied["net.mptcp.scheduler"]
    return info
