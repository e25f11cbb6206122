"""Map a :class:`~cmtlab.scenario.StripedScenario` onto ns-3 3.44 and run it.

ns-3 (PyPI ``ns3==3.44.post0``, cppyy bindings) is imported on first use only: ``import
cmtlab.ns3`` is cheap, the first :func:`run` pays ns-3's ~10 s import plus ~2 s to compile
the C++ glue (:mod:`cmtlab.ns3._glue`); every later run in the same process reuses both.
Runs are independent: each builds fresh nodes and ends with ``Simulator::Destroy``; nothing
is changed through ``Config::SetDefault`` (every attribute is set on the object it belongs
to), and ``RngSeedManager`` seed/run are set at the start of every run.
"""

from __future__ import annotations

import contextlib
import math
import os
import sys
import tempfile
import threading
import time

import numpy as np
import pandas as pd

from ..scenario import (IPV4_HEADER_BYTES, TCP_HEADER_BYTES, TIMESTAMP_OPTION_BYTES, UDP_HEADER_BYTES,
                        StripedScenario, TransferResult)

#: Largest number of links (addresses 10.1.1.0/24 … 10.1.250.0/24).
MAX_LINKS = 250
#: Largest link MTU ns-3's ``PointToPointNetDevice`` accepts (16-bit attribute).
MAX_MTU = 65535
#: Receiver→sender rate of the ``ack_path="ideal"`` link (bit/s): an ACK takes < 1 ns.
IDEAL_ACK_RATE_BPS = 1e12
#: RngSeedManager seed of every run; the run number is ``scenario.seed + 1``.
RNG_SEED = 1

_lock = threading.Lock()
_gbl = None


def ns3_version() -> str:
    """The installed ns-3 Python package version (``"3.44.post0"``), without importing ns-3."""
    from importlib import metadata
    try:
        return metadata.version("ns3")
    except metadata.PackageNotFoundError:
        return "not-installed"


#: What cling prints while importing ns-3 3.44: it cannot re-run the static initialiser of
#: ``nstime.h`` (``g_timeInitHelper``) for its own copy of the headers.  Harmless — the
#: ns-3 core library has already run it (one-segment transfers reproduce the closed-form
#: times to the nanosecond) — so these lines are filtered out; anything else is passed on.
_CLING_NOISE = "[runStaticInitializersOnce]: Failed to materialize symbols"


@contextlib.contextmanager
def _quiet_cling_static_init_warnings():
    """Capture file descriptor 2 during the ns-3 import and re-emit all but the known noise."""
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile(mode="w+b") as tmp:
        os.dup2(tmp.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            tmp.seek(0)
            text = tmp.read().decode(errors="replace")
            kept = [line for line in text.splitlines() if not line.startswith(_CLING_NOISE)]
            if kept:
                sys.stderr.write("\n".join(kept) + "\n")


def load():
    """Import ns-3 and compile the C++ glue once per process; return ``cppyy.gbl``."""
    global _gbl
    with _lock:
        if _gbl is None:
            try:
                with _quiet_cling_static_init_warnings():
                    from ns import ns  # noqa: F401  (loads every ns-3 module's headers and library)
            except SystemExit as exc:  # the ns package calls exit() when it cannot load ns-3
                raise ImportError("ns-3 Python bindings (pip package ns3==3.44.post0) are not usable") from exc
            import cppyy

            from ._glue import GLUE_CPP
            if not hasattr(cppyy.gbl, "cmtlab_ns3"):
                cppyy.cppdef(GLUE_CPP)
            _gbl = cppyy.gbl
    return _gbl


def attribute_defaults(type_name: str) -> dict[str, str]:
    """Initial values of the attributes of ns-3 ``type_name`` (and its parents), as ns-3 prints them.

    This is how the ``"ns3-3.44-defaults"`` preset is checked against the installed ns-3, e.g.
    ``attribute_defaults("ns3::TcpSocketBase")["Sack"] == "true"``.
    """
    gbl = load()
    tid = gbl.ns3.TypeId.LookupByName(type_name)
    out: dict[str, str] = {}
    while True:
        for i in range(tid.GetAttributeN()):
            info = tid.GetAttribute(i)
            name = _text(info.name)
            if name not in out:
                out[name] = _text(info.initialValue.SerializeToString(info.checker))
        if not tid.HasParent() or tid.GetParent() == tid:
            break
        tid = tid.GetParent()
        if _text(tid.GetName()) == "ns3::ObjectBase":
            break
    return out


def _text(value) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def unsupported_options(scenario: StripedScenario) -> list[str]:
    """Reasons (one per offending option) why ns-3 cannot represent ``scenario``; empty if it can."""
    o = scenario.options
    problems = []
    if getattr(o, "loss_detection", "dupack") != "dupack":
        problems.append(
            f"loss_detection={o.loss_detection!r}: ns-3 3.44 has no RACK-TLP (RFC 8985); its TcpSocketBase "
            "detects loss by the duplicate-ACK threshold and RFC 6675 IsLost only. Use loss_detection='dupack'.")
    if isinstance(scenario.queue_packets, tuple) or scenario.queue_packets is None \
            or getattr(scenario, "queue_bytes", None) is not None:
        problems.append(
            f"queue_packets={scenario.queue_packets!r}, queue_bytes={getattr(scenario, 'queue_bytes', None)!r}: "
            "cmtlab.ns3 gives every PointToPointNetDevice one DropTailQueue limit in packets; per-link limits and "
            "limits in bytes are cmtlab.sim's. Use one queue_packets for every link and queue_bytes=None.")
    if getattr(o, "rto_timer", "ns3") != "ns3":
        problems.append(
            f"rto_timer={o.rto_timer!r}: ns-3 3.44's retransmission timer keeps running from the last new ACK "
            "while nothing is outstanding (TcpSocketBase::NewAck); only rto_timer='ns3' is ns-3's.")
    if getattr(o, "ack_policy", "delayed") != "delayed":
        problems.append(
            f"ack_policy={o.ack_policy!r}: ns-3 3.44's receiver acknowledges every DelAckCount-th segment or at its "
            "delayed-ACK timer; Linux's quick ACKs are cmtlab.sim's. Use ack_policy='delayed'.")
    if o.sack and not o.sack_loss_detection:
        problems.append(
            "sack_loss_detection=False with sack=True: ns-3 3.44 TcpSocketBase always enters recovery when "
            "the RFC 6675 scoreboard marks the first unacknowledged segment lost (TcpTxBuffer::IsLost, "
            "checked in TcpSocketBase::DupAck) once SACK is negotiated; there is no attribute to turn "
            "that off. Use sack_loss_detection=True or sack=False.")
    if o.sack and not o.limited_transmit:
        problems.append(
            "limited_transmit=False with sack=True: ns-3 3.44 consults TcpSocketBase::LimitedTransmit only "
            "without SACK; with SACK the RFC 6675 pipe (BytesInFlight excludes SACKed segments) lets the "
            "sender transmit new segments on the first duplicate ACKs anyway, i.e. ns-3 always behaves as "
            "limited_transmit=True. Use limited_transmit=True or sack=False.")
    if not o.immediate_ack_on_out_of_order:
        problems.append(
            "immediate_ack_on_out_of_order=False: ns-3 3.44 TcpSocketBase::ReceivedData always ACKs at "
            "once when a gap exists in the receive buffer or a segment fills (part of) a gap (hard-wired, "
            "no attribute).")
    n = scenario.n_links
    if n > MAX_LINKS:
        problems.append(f"bandwidths_bps: at most {MAX_LINKS} links (one /24 subnet each), got {n}")
    if scenario.transfer_bytes > 2**32 - 2:
        problems.append(f"transfer_bytes must be < 2**32 - 1 for the 32-bit TCP sequence space of one "
                        f"connection, got {scenario.transfer_bytes}")
    if scenario.initial_window_bytes > 2**32 - 1:
        problems.append(f"initial_window_bytes={scenario.initial_window_bytes} must be < 2**32 (ns-3's 32-bit cWnd)")
    mtu = _link_mtu(scenario)
    if mtu > MAX_MTU:
        problems.append(f"segment_bytes={scenario.segment_bytes}: the link packet "
                        f"({mtu} bytes with headers) exceeds the PointToPointNetDevice MTU limit {MAX_MTU}")
    for i, b in enumerate(scenario.bandwidths_bps):
        if round(b) < 1 or b > 1e13:
            problems.append(f"bandwidths_bps[{i}]={b!r}: ns-3 DataRate needs an integer rate in [1, 1e13] bit/s")
    for i, d in enumerate(scenario.one_way_delays_s()):
        if d > 1e6:
            problems.append(f"delays_s[{i}]={d!r}: unreasonably long for ns-3 (max 1e6 s one-way)")
    if scenario.max_sim_time_s > 1e9:
        problems.append(f"max_sim_time_s={scenario.max_sim_time_s!r} must be <= 1e9 s")
    if scenario.seed > 2**63 - 2:
        problems.append(f"seed={scenario.seed} must be < 2**63 - 1 (RngSeedManager run number)")
    return problems


def check_supported(scenario: StripedScenario) -> None:
    """Raise ``ValueError`` (naming the option) if ns-3 cannot represent ``scenario``."""
    problems = unsupported_options(scenario)
    if problems:
        raise ValueError("ns-3 cannot represent this scenario: " + "; ".join(problems))


def _ip_packet_bytes(scenario: StripedScenario) -> int:
    """Bytes of the inner IP packet of a full data segment (TCP payload + TCP + IP [+ timestamps])."""
    size = scenario.segment_bytes + TCP_HEADER_BYTES + IPV4_HEADER_BYTES
    if scenario.options.timestamps:
        size += TIMESTAMP_OPTION_BYTES
    return size


def _link_mtu(scenario: StripedScenario) -> int:
    """Link MTU: 1500 or the largest packet the scenario puts on a link (tunnel adds UDP/IP)."""
    need = _ip_packet_bytes(scenario) + (IPV4_HEADER_BYTES + UDP_HEADER_BYTES if scenario.tunnel else 0)
    return max(1500, need)


#: Congestion controls :func:`run` can give the sender (``Config::congestion`` of the glue).
CONGESTIONS = {"newreno": 0, "cubic": 1}


def _config(gbl, scenario: StripedScenario, trace: bool, congestion: str = "newreno"):
    c = gbl.cmtlab_ns3.Config()
    c.congestion = CONGESTIONS[congestion]
    o = scenario.options
    n = scenario.n_links
    c.bandwidths_bps = gbl.std.vector["double"]([float(round(b)) for b in scenario.bandwidths_bps])
    c.one_way_delays_s = gbl.std.vector["double"]([float(d) for d in scenario.one_way_delays_s()])
    units = {"none": 0, "packet": 1, "bit": 2}
    c.loss_unit = gbl.std.vector["int"]([units[lm.unit] if lm.rate > 0 else 0 for lm in scenario.loss])
    c.loss_rate = gbl.std.vector["double"]([float(lm.rate) for lm in scenario.loss])
    c.tunnel = bool(scenario.tunnel)
    ack = scenario.ack_links()
    if ack is None:
        c.ack_mode = 2
    elif len(ack) == n and n > 1:
        c.ack_mode = 0
    else:
        c.ack_mode = 1
        c.ack_link = int(ack[0])
    c.transfer_bytes = float(scenario.transfer_bytes)
    c.segment_bytes = scenario.segment_bytes
    c.initial_cwnd_segments = max(1, scenario.initial_window_bytes // scenario.segment_bytes)
    c.initial_window_bytes = scenario.initial_window_bytes
    c.ssthresh_bytes = min(scenario.ssthresh_bytes, 2**32 - 1)
    c.m_ack = scenario.m_ack
    c.queue_packets = scenario.queue_packets
    mtu = _link_mtu(scenario)
    c.link_mtu = mtu
    c.vnd_mtu = mtu - (IPV4_HEADER_BYTES + UDP_HEADER_BYTES)
    c.sack = bool(o.sack)
    c.limited_transmit = bool(o.limited_transmit)
    c.timestamps = bool(o.timestamps)
    c.recovery = 1 if o.recovery == "prr" else 0
    c.min_rto_s = float(o.min_rto_s)
    c.initial_rto_s = float(o.initial_rto_s)
    c.clock_granularity_s = float(o.clock_granularity_s)
    c.delayed_ack_timeout_s = float(o.delayed_ack_timeout_s)
    c.dupack_threshold = o.dupack_threshold
    c.send_buffer_bytes = min(o.send_buffer_bytes, 2**32 - 1)
    c.receive_buffer_bytes = min(o.receive_buffer_bytes, 2**32 - 1)
    c.rng_seed = RNG_SEED
    c.rng_run = scenario.seed + 1
    c.max_sim_time_s = float(scenario.max_sim_time_s)
    c.trace = bool(trace)
    return c


def _traces(res) -> dict[str, pd.DataFrame]:
    """Tidy traces; times are seconds since the first data segment started onto the wire (the
    clock of the completion time and of ``cmtlab.sim``'s traces; negative during the handshake)."""
    t0 = float(res.first_data_s)
    cw = pd.DataFrame({"time_s": np.asarray(list(res.cwnd_t), dtype=float) - t0,
                       "cwnd_bytes": np.asarray(list(res.cwnd_v), dtype=np.int64)})
    ss = pd.DataFrame({"time_s": np.asarray(list(res.ssth_t), dtype=float) - t0,
                       "ssthresh_bytes": np.asarray(list(res.ssth_v), dtype=np.int64)})
    # one tidy table: every change of either variable, the other carried forward
    both = pd.concat([cw.assign(_k=0), ss.assign(_k=1)], ignore_index=True)
    both = both.sort_values(["time_s", "_k"], kind="stable").drop(columns="_k")
    both[["cwnd_bytes", "ssthresh_bytes"]] = both[["cwnd_bytes", "ssthresh_bytes"]].ffill()
    both = both.dropna().astype({"cwnd_bytes": np.int64, "ssthresh_bytes": np.int64}).reset_index(drop=True)
    names = ["open", "disorder", "cwr", "recovery", "loss"]
    states = pd.DataFrame({"time_s": np.asarray(list(res.state_t), dtype=float) - t0,
                           "state": [names[v] if 0 <= v < len(names) else str(v) for v in res.state_v]})
    packets = pd.DataFrame({"time_s": np.asarray(list(res.tx_t), dtype=float) - t0,
                            "seq_bytes": np.asarray(list(res.tx_seq), dtype=np.int64),
                            "length_bytes": np.asarray(list(res.tx_len), dtype=np.int64),
                            "retransmission": np.asarray(list(res.tx_retx), dtype=bool),
                            "link": np.asarray(list(res.tx_link), dtype=np.int64)})
    return {"cwnd": both, "congestion_state": states, "packets": packets}


def run(scenario: StripedScenario, *, trace: bool = False, congestion: str = "newreno") -> TransferResult:
    """Simulate ``scenario`` in ns-3 3.44 and return a :class:`TransferResult` (``simulator="ns-3"``).

    ``congestion``: the sender's ``TcpCongestionOps`` — ``"newreno"`` (default, ``TcpNewReno``) or
    ``"cubic"`` (ns-3.44's ``TcpCubic``, a port of Linux's ``bictcp`` CUBIC, with HyStart off as in
    :class:`cmtlab.sim.mechanisms.congestion.Cubic`)."""
    if congestion not in CONGESTIONS:
        raise ValueError(f"congestion must be one of {sorted(CONGESTIONS)}, got {congestion!r}")
    if not isinstance(scenario, StripedScenario):
        raise ValueError(f"scenario must be a StripedScenario (see cmtlab.scenario.striped_scenario), "
                         f"got {type(scenario).__name__}")
    if not isinstance(trace, (bool, np.bool_)):
        raise ValueError(f"trace must be True or False, got {trace!r}")
    check_supported(scenario)
    gbl = load()
    cfg = _config(gbl, scenario, bool(trace), congestion)
    with _lock:  # ns-3's simulator is a process-wide singleton
        t0 = time.perf_counter()
        res = gbl.cmtlab_ns3.RunTransfer(cfg)
        wall = time.perf_counter() - t0
    completed = bool(res.completed)
    ct = float(res.done_s - res.first_data_s) if completed else math.nan
    n = scenario.n_links
    extra = {
        "ns3_version": ns3_version(),
        "sim_end_s": float(res.sim_end_s),
        "connected_s": float(res.connected_s),
        "first_data_s": float(res.first_data_s),
        "first_data_tcp_s": float(res.first_data_tcp_s),
        "received_bytes": int(res.rx_bytes),
        "data_segments_received": int(res.data_segments_received),
        "loss_drops": int(res.loss_drops),
        "queue_drops_data": int(res.queue_drops_data),
        "queue_drops_ack": int(res.queue_drops_ack),
        "events": int(res.events),
        "link_data_packets": tuple(int(x) for x in res.link_data_packets),
        "link_ack_packets": tuple(int(x) for x in list(res.link_ack_packets)[:n]),
        "ideal_path_ack_packets": (int(res.link_ack_packets[n]) if scenario.options.ack_path == "ideal" else 0),
        "link_data_bytes": tuple(int(x) for x in res.link_data_bytes),
        "link_max_wire_bytes": tuple(int(x) for x in res.link_max_wire_bytes),
        "link_min_wire_bytes": tuple(int(x) if x != 0xFFFFFFFF else 0 for x in res.link_min_wire_bytes),
    }
    # scalar names shared with cmtlab.sim's ``extra`` (so TransferResult.to_row lines up)
    extra.update({
        "sim_time_s": extra["sim_end_s"],
        "queue_drops": extra["queue_drops_data"],
        "ack_queue_drops": extra["queue_drops_ack"],
        "duplicate_segments_received": int(res.spurious_retransmissions),
        "segments_per_second": int(res.data_segments_sent) / wall if wall > 0 else math.nan,
    })
    for i, count in enumerate(extra["link_data_packets"]):
        extra[f"link{i}_packets"] = count  # data direction, incl. SYN and handshake ACK on link 0
    if str(res.root_queue_discs):
        raise RuntimeError(f"a queue disc was installed on devices {res.root_queue_discs!s}: the traffic-control "
                           f"layer would add buffering the scenario does not have")
    traces = _traces(res) if trace else {}
    return TransferResult(simulator="ns-3", scenario=scenario, completed=completed, completion_time_s=ct,
                          data_segments_sent=int(res.data_segments_sent),
                          retransmissions=int(res.retransmissions),
                          fast_retransmits=int(res.fast_retransmits), timeouts=int(res.timeouts),
                          spurious_retransmissions=int(res.spurious_retransmissions), wall_time_s=wall,
                          traces=traces, extra=extra)
