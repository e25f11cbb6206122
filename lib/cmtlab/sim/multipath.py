"""The multipath engine: an MPTCP connection (and competing single-path TCP flows) over paths of links.

:class:`MptcpScenario` names everything a run needs — rates, round-trip delays, mechanism
names and parameters — so :mod:`cmtlab.sweep` can vary and cache it;
:func:`simulate_mptcp` builds one from plain arguments and runs :class:`MptcpSimulation`.

Topology (:mod:`cmtlab.sim.net.topology`): subflow ``i`` crosses an optional shared backbone
link (``backbone_bps``, Alheid et al.'s 100 Mbit/s) and then its own access link
(``bandwidths_bps[i]``, one-way delay ``rtts_s[i] / 2``); its ACKs return over the access
link's reverse direction.  Without ``backbone_delay_s`` the backbone is forward-only and has
no delay; with it (Alheid's 10 ms) the backbone has that one-way delay in both directions and
the ACKs cross its reverse direction after their access link.  A path's access links may be
another link model (``links``, e.g. ``"wifi80211g"``, whose forward and reverse directions
share one medium).  ``competing_flows`` single-path TCP NewReno flows share subflow
0's access link (the shared bottleneck of RFC 6356's goals) in both directions.

Events go through the one event core (:mod:`cmtlab.sim.engine`: integer ns, ties by scheduling
time then insertion); a packet costs one event per hop of its path.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field
from functools import partial

import numpy as np
import pandas as pd

from .._validate import (check_choice, check_duration_s, check_durations_s, check_int, check_positive)
from ..scenario import (MAX_SEGMENTS, PRESETS, TcpOptions, TransferResult, _as_loss, _options_dict, ack_packet_bytes,
                        KeyedScenario, check_min_rate, check_work, data_packet_bytes, options_preset, real_array,
                        round_trips, scenario_changes, striped_scenario)
from . import registry
from .engine import EventQueue, handshake, run_events
from .net.link import NS_PER_S, LinkModel, PointToPointLink, seconds_to_ns
from .net.route import Route
from .mptcp import DUPACK_MODES, RETRANSMIT_POLICIES, UNBOUNDED_SEGS, MptcpConnection, MptcpSubflow, reinject
from .mptcp.clock import AckArrival, TimerWakeup
from .mptcp.connection import WIRE_FORMATS
from .mechanisms.recovery import make_recovery
from .net.rng import loss_rng
from .tcp import TcpReceiver, TcpSender
from .tcp.wire import AckSend, SegmentSend
from .net.topology import PathInfo, path_info

SIMULATOR_NAME = "cmtlab-mptcp"


def _params(name: str, value) -> tuple:
    if value is None:
        return ()
    if isinstance(value, dict):
        items = value.items()
    else:
        try:
            items = [tuple(x) for x in value]
        except TypeError:
            raise ValueError(f"{name} must be a dict of keyword parameters, got {value!r}") from None
    out = []
    for kv in items:
        if len(kv) != 2 or not isinstance(kv[0], str):
            raise ValueError(f"{name} must be a dict of keyword parameters, got {value!r}")
        out.append((kv[0], kv[1]))
    return tuple(sorted(out))


@dataclass(frozen=True)
class MptcpScenario(KeyedScenario):
    """One MPTCP transfer (build it with :func:`mptcp_scenario`, which validates).

    ``rtts_s`` are round-trip propagation delays (one-way = half, each direction; ``delays_s`` is a
    deprecated alias, kept in :meth:`to_dict` so that scenario keys stay stable).
    Exactly one of ``transfer_bytes`` (run until the application holds them in order) and
    ``duration_s`` (run for that long) is set.  Mechanisms are registry names
    (:mod:`cmtlab.sim.registry`) with keyword parameters as sorted ``(name, value)`` tuples.
    ``links`` holds one ``(link model name, params)`` per path (registry kind ``"link"``; the
    model's :meth:`~cmtlab.sim.net.link.LinkModel.for_path` builds the path's access links), or
    is empty: point-to-point links everywhere.
    """

    bandwidths_bps: tuple
    rtts_s: tuple
    transfer_bytes: int | None = None
    duration_s: float | None = None
    congestion: str = "lia"
    congestion_params: tuple = ()
    scheduler: str = "round_robin"
    scheduler_params: tuple = ()
    reordering: str = "none"
    reordering_params: tuple = ()
    dupack_mode: str = "rfc"
    retransmit: str = "original"
    dss_bytes: int = 0
    receive_buffer_bytes: int = 131072
    segment_bytes: int = 536
    initial_window_bytes: int = 536
    ssthresh_bytes: int = 65535
    m_ack: int = 2
    queue_packets: int = 100
    loss: tuple = ()
    links: tuple = ()
    backbone_bps: float | None = None
    backbone_delay_s: float | None = None
    competing_flows: int = 0
    options: TcpOptions = field(default_factory=TcpOptions)
    seed: int = 0
    max_sim_time_s: float = 36_000.0

    @property
    def n_links(self) -> int:
        return len(self.bandwidths_bps)

    @property
    def n_subflows(self) -> int:
        return len(self.bandwidths_bps)

    @property
    def delays_s(self) -> tuple:
        """Deprecated alias of :attr:`rtts_s` (round-trip propagation delays, s)."""
        return self.rtts_s

    def to_dict(self) -> dict:
        # the key keeps the field's old name, in place: scenario keys (and cached results) stay what they were
        out = {("delays_s" if k == "rtts_s" else k): v for k, v in dataclasses.asdict(self).items()}
        out["options"] = _options_dict(out["options"])
        out["kind"] = "mptcp"
        return out

    _key_default = repr  # as the class always wrote its keys

    def _changes(self, changes: dict) -> dict:
        return scenario_changes(self, changes, "MptcpScenario.replace")

    @classmethod
    def _rebuild(cls, fields: dict) -> "MptcpScenario":
        return mptcp_scenario(**fields)


def mptcp_scenario(bandwidths_bps, rtts_s=None, *, transfer_bytes=None, duration_s=None, congestion="lia",
                   congestion_params=None, scheduler="round_robin", scheduler_params=None, reordering="none",
                   reordering_params=None, dupack_mode="rfc", retransmit="original", dss_bytes=0,
                   receive_buffer_bytes=None, segment_bytes=536, initial_window_bytes=536, ssthresh_bytes=65535,
                   m_ack=2, queue_packets=100, loss=None, links=None, backbone_bps=None, backbone_delay_s=None,
                   competing_flows=0, options=None, seed=0, max_sim_time_s=36_000.0, **option_changes) -> MptcpScenario:
    """Validate the arguments and build a :class:`MptcpScenario` (errors name the parameter).

    ``links``: ``None`` (point-to-point links), a link model name, ``(name, params dict)``, or
    a list of those with one entry per path (e.g. ``"pareto_cross_traffic"`` of
    :mod:`cmtlab.sim.net.cross_traffic`, ``("wifi80211g", {"distance_m": 50})``).
    """
    rtts_s = round_trips(rtts_s, option_changes, "mptcp_scenario")
    b = real_array("bandwidths_bps", bandwidths_bps)
    d = real_array("rtts_s", rtts_s)
    if b.size != d.size:
        raise ValueError(f"bandwidths_bps and rtts_s must have the same length (one per subflow), "
                         f"got {b.size} and {d.size}")
    if np.any(b <= 0):
        raise ValueError(f"bandwidths_bps must be > 0 (bit/s), got {b.tolist()}")
    if np.any(d < 0):
        raise ValueError(f"rtts_s must be >= 0 (round-trip seconds), got {d.tolist()}")
    check_durations_s("rtts_s", d)
    if (transfer_bytes is None) == (duration_s is None):
        raise ValueError("exactly one of transfer_bytes (bytes) and duration_s (seconds) must be given, "
                         f"got transfer_bytes={transfer_bytes!r}, duration_s={duration_s!r}")
    E = check_int("transfer_bytes", transfer_bytes, minimum=1) if transfer_bytes is not None else None
    dur = check_duration_s("duration_s", duration_s) if duration_s is not None else None
    tmax = check_duration_s("max_sim_time_s", max_sim_time_s)
    for kind, name in (("congestion", congestion), ("scheduler", scheduler), ("reordering", reordering)):
        registry.lookup(kind, name)  # ValueError listing the registered names
    check_choice("dupack_mode", dupack_mode, DUPACK_MODES)
    check_choice("retransmit", retransmit, RETRANSMIT_POLICIES)
    dss = check_int("dss_bytes", dss_bytes, minimum=0, maximum=40)
    seg = check_int("segment_bytes", segment_bytes, minimum=1, maximum=65_000)
    if options is None:
        opts = TcpOptions()
    elif isinstance(options, str):
        opts = options_preset(options)
    elif isinstance(options, TcpOptions):
        opts = options
    else:
        raise ValueError(f"options must be a TcpOptions, a preset name {sorted(PRESETS)} or None, got {options!r}")
    if option_changes:
        opts = opts.replace(**option_changes)
    if opts.ack_path not in ("round_robin", "first"):
        raise ValueError(f"ack_path must be 'round_robin' (each subflow's ACKs return on its own path) for an "
                         f"MPTCP connection, got {opts.ack_path!r}")
    rcvbuf = opts.receive_buffer_bytes if receive_buffer_bytes is None else receive_buffer_bytes
    rcvbuf = check_int("receive_buffer_bytes", rcvbuf, minimum=1)
    if rcvbuf < seg:
        raise ValueError(f"receive_buffer_bytes must be >= segment_bytes ({seg}), got {rcvbuf}")
    if backbone_bps is not None:
        backbone_bps = check_positive("backbone_bps", backbone_bps)
    if backbone_delay_s is not None:
        if backbone_bps is None:
            raise ValueError(f"backbone_delay_s needs backbone_bps (the backbone's rate, bit/s), got "
                             f"backbone_delay_s={backbone_delay_s!r} without a backbone")
        backbone_delay_s = check_duration_s("backbone_delay_s", backbone_delay_s, zero=True)
    comp = check_int("competing_flows", competing_flows, minimum=0, maximum=64)
    if E is not None:
        check_work("transfer_bytes", -(-E // seg) * (1 + comp),
                   f"<= {MAX_SEGMENTS // (1 + comp) * seg:,} bytes with segment_bytes = {seg} "
                   f"and {comp} competing flows")
    else:
        # a duration-limited run: what the paths can carry until the run ends
        rate = float(np.sum(b)) + comp * float(b[0])
        horizon = min(dur, tmax)
        check_work("duration_s", rate * horizon / 8 / seg,
                   f"<= {MAX_SEGMENTS * 8 * seg / rate:,.6g} s on these paths (segment_bytes = {seg})")
    losses = _as_loss(loss, b.size)
    path_links = _as_links(links, b.size)
    # the per-subflow TCP parameters are validated as a one-link striped scenario would be
    one = striped_scenario([b[0]], [d[0]], transfer_bytes=E or seg, segment_bytes=seg,
                     initial_window_bytes=initial_window_bytes, ssthresh_bytes=ssthresh_bytes, m_ack=m_ack,
                     queue_packets=queue_packets, tunnel=False, options=opts, seed=seed,
                     max_sim_time_s=max_sim_time_s)
    check_min_rate("bandwidths_bps", b, one.data_packet_bytes() + dss, tmax)
    if backbone_bps is not None:
        check_min_rate("backbone_bps", backbone_bps, one.data_packet_bytes() + dss, tmax)
    sc = MptcpScenario(
        bandwidths_bps=tuple(float(x) for x in b), rtts_s=tuple(float(x) for x in d), transfer_bytes=E,
        duration_s=dur, congestion=congestion, congestion_params=_params("congestion_params", congestion_params),
        scheduler=scheduler, scheduler_params=_params("scheduler_params", scheduler_params),
        reordering=reordering, reordering_params=_params("reordering_params", reordering_params),
        dupack_mode=dupack_mode, retransmit=retransmit, dss_bytes=dss, receive_buffer_bytes=rcvbuf,
        segment_bytes=seg, initial_window_bytes=int(initial_window_bytes), ssthresh_bytes=int(ssthresh_bytes),
        m_ack=int(m_ack), queue_packets=int(queue_packets), loss=losses, links=path_links, backbone_bps=backbone_bps,
        backbone_delay_s=backbone_delay_s, competing_flows=comp, options=opts, seed=int(seed),
        max_sim_time_s=float(max_sim_time_s))
    # What only the mechanisms and link models can check (their parameters, a reordering response's
    # needs such as sack=True, a Wi-Fi path's zero delay) is checked by building the run once, so a
    # scenario that exists can run (a sweep fails when it is defined, not when it reaches the case).
    MptcpSimulation(sc)
    return sc


def _scenario_link_models() -> list:
    """Registered link models a scenario can name (those overriding :meth:`LinkModel.for_path`)."""
    base = LinkModel.for_path.__func__
    return [m for m in registry.names("link") if registry.lookup("link", m).for_path.__func__ is not base]


def _as_links(links, n: int) -> tuple:
    """Normalise ``links`` to one ``(name, sorted params tuple)`` per path (``()``: point-to-point)."""
    if links is None or (isinstance(links, (tuple, list)) and len(links) == 0):
        return ()
    if isinstance(links, (str, tuple)) and not (isinstance(links, tuple) and links and
                                               isinstance(links[0], (tuple, list))):
        links = [links] * n
    links = list(links)
    if len(links) != n:
        raise ValueError(f"links must give one link model per path ({n}), got {len(links)}")
    out = []
    for i, entry in enumerate(links):
        if isinstance(entry, str):
            name, params = entry, {}
        elif isinstance(entry, (tuple, list)) and len(entry) == 2 and isinstance(entry[0], str):
            name, params = entry[0], dict(entry[1] or {})
        else:
            raise ValueError(f"links[{i}] must be a link model name or (name, params dict), got {entry!r}")
        if name not in _scenario_link_models():
            raise ValueError(f"links[{i}] must name a link model with for_path, one of {_scenario_link_models()}, "
                             f"got {name!r}")
        out.append((name, _params(f"links[{i}] params", params)))
    if all(e == ("point_to_point", ()) for e in out):
        return ()
    return tuple(out)


class _RowsFrame:
    """A result's table given as a DataFrame or as its rows (a list of dicts): read, it is a
    DataFrame, built from the rows on first reading (a run that no one reads the table of does
    not pay pandas' cost, about 0.15 ms)."""

    def __set_name__(self, owner, name):
        self.slot = "_" + name

    def __get__(self, obj, objtype=None):
        if obj is None:
            return None  # the field's default: an empty table
        value = obj.__dict__[self.slot]
        if not isinstance(value, pd.DataFrame):
            value = pd.DataFrame(value if value is not None else [])
            obj.__dict__[self.slot] = value
        return value

    def __set__(self, obj, value):
        if value is self:  # the dataclass default (field(default=...) hands over the descriptor itself)
            value = None
        if value is not None and not isinstance(value, (pd.DataFrame, list)):
            raise TypeError(f"subflows must be a DataFrame or a list of row dicts, got {type(value).__name__}")
        obj.__dict__[self.slot] = value


@dataclass
class MptcpResult(TransferResult):
    """A :class:`~cmtlab.scenario.TransferResult` with per-subflow columns (``subflows``) and :meth:`row`."""

    subflows: pd.DataFrame = field(default=_RowsFrame(), repr=False)
    delivered_bytes: int = 0

    @property
    def throughput_bps(self) -> float:
        sc = self.scenario
        if sc.transfer_bytes is not None:
            return super().throughput_bps
        t = self.extra.get("sim_time_s", float("nan"))
        return self.delivered_bytes * 8.0 / t if t > 0 else float("nan")

    def row(self) -> dict:
        """One tidy row: scenario fields, connection metrics, per-subflow metrics as ``sf<i>_<name>``."""
        sc = self.scenario
        row = {"simulator": self.simulator, "n_subflows": sc.n_subflows, "congestion": sc.congestion,
               "scheduler": sc.scheduler, "reordering": sc.reordering, "dupack_mode": sc.dupack_mode,
               "transfer_bytes": sc.transfer_bytes, "duration_s": sc.duration_s, "seed": sc.seed,
               "completed": self.completed, "completion_time_s": self.completion_time_s,
               "throughput_bps": self.throughput_bps, "data_segments_sent": self.data_segments_sent,
               "retransmissions": self.retransmissions, "fast_retransmits": self.fast_retransmits,
               "timeouts": self.timeouts, "spurious_retransmissions": self.spurious_retransmissions,
               "wall_time_s": self.wall_time_s, "scenario_key": sc.key()}
        row.update({k: v for k, v in self.extra.items() if np.isscalar(v)})
        for rec in self.subflows.to_dict("records"):
            i = rec.pop("subflow")
            row.update({f"sf{i}_{k}": v for k, v in rec.items()})
        return row

    to_row = row


class _Trace:
    """Per-subflow recorder for :class:`~cmtlab.sim.tcp.TcpSender`'s trace hooks."""

    def __init__(self, index: int, sink: dict):
        self.i = index
        self.s = sink

    def cwnd(self, t, cwnd, ssthresh, state):
        self.s["cwnd"].append((t, self.i, cwnd, ssthresh, state))

    def event(self, t, kind, seq, sub):
        self.s["events"].append((t, self.i, kind, seq, sub.cwnd, sub.ssthresh))

    def dupack_run(self, start, end, ack, length):
        self.s["dupacks"].append((start, end, self.i, ack, length))

    def goodput(self, t, rcv_nxt):
        pass


class MptcpSimulation:
    """One run of an :class:`MptcpScenario` (see the module docstring).

    ``trace``: ``False`` or ``True`` (cwnd per subflow, packets with subflow and DSN, ACKs,
    out-of-order buffer occupancy, events).  ``max_events``: event budget (default
    ``200 * segments + 1e6``; duration-limited runs count the segments the bottleneck rates
    allow).
    """

    def __init__(self, scenario: MptcpScenario, *, trace=False, max_events: int | None = None,
                 handshake_rtt_sample: bool = True):
        if not isinstance(scenario, MptcpScenario):
            raise ValueError(f"scenario must be a MptcpScenario (use mptcp_scenario(...)), got {type(scenario).__name__}")
        trace = _trace_on(trace)
        sc = scenario
        opts = sc.options
        self.scenario = sc
        n = sc.n_subflows
        seg = sc.segment_bytes
        self.data_wire = data_packet_bytes(seg, opts) + sc.dss_bytes
        self.ack_bytes = tuple(ack_packet_bytes(opts, nb) + sc.dss_bytes for nb in range(5))
        wire_format = WIRE_FORMATS.get(sc.dupack_mode)
        if wire_format is not None:  # a model's own connection: its header sizes (e.g. the Chihani-Collange model's)
            data, acks = wire_format(seg, timestamps=bool(opts.timestamps))
            self.data_wire = data + sc.dss_bytes
            self.ack_bytes = tuple(a + sc.dss_bytes for a in acks)
        self.syn_bytes = handshake.syn_bytes(ack_packet_bytes(opts), opts)
        self.timestamps = bool(opts.timestamps)
        self.tr = {"cwnd": [], "events": [], "dupacks": [], "packets": [], "acks": []} if trace else None
        # ---- links and paths
        owd = [d / 2.0 for d in sc.rtts_s]
        q = sc.queue_packets
        models = sc.links or (("point_to_point", ()),) * n
        built = [registry.lookup("link", name).for_path(
                     rate_bps=sc.bandwidths_bps[i], delay_s=owd[i], queue_packets=q, loss=sc.loss[i],
                     rng=loss_rng(sc.seed, i), seed=sc.seed, stream=i, **dict(params))
                 for i, (name, params) in enumerate(models)]
        self.access = [fw for fw, _ in built]
        self.access_rev = [rv for _, rv in built]
        # the backbone: forward only and without delay (backbone_delay_s None), or, with
        # backbone_delay_s, both directions with that one-way delay (the ACKs cross it after
        # their access link: Alheid's Fig. 3, server - backbone - access points - station)
        bb_delay = sc.backbone_delay_s
        self.backbone = (PointToPointLink(sc.backbone_bps, bb_delay or 0.0, q) if sc.backbone_bps is not None
                         else None)
        self.backbone_rev = PointToPointLink(sc.backbone_bps, bb_delay, q) if bb_delay is not None else None
        fwd = [((self.backbone,) if self.backbone is not None else ()) + (self.access[i],) for i in range(n)]
        rev = [(self.access_rev[i],) + ((self.backbone_rev,) if self.backbone_rev is not None else ())
               for i in range(n)]
        # competing single-path flows share subflow 0's access link (both directions)
        for _ in range(sc.competing_flows):
            fwd.append(fwd[0])
            rev.append(rev[0])
        self.fwd, self.rev = fwd, rev
        self.links = ([self.backbone] if self.backbone is not None else []) + self.access
        # ---- event queue, connection, flows
        self.queue = EventQueue()
        if sc.transfer_bytes is not None:
            n_dsn = -(-sc.transfer_bytes // seg)
            last_len = sc.transfer_bytes - (n_dsn - 1) * seg
        else:
            n_dsn, last_len = None, seg
        self.n_dsn = n_dsn
        sched = registry.make("scheduler", sc.scheduler, **dict(sc.scheduler_params))
        self.conn = conn = MptcpConnection(n_dsn=n_dsn, last_len=last_len, segment_bytes=seg, scheduler=sched,
                                           receive_buffer_bytes=sc.receive_buffer_bytes, dupack_mode=sc.dupack_mode,
                                           retransmit=sc.retransmit, seed=sc.seed, queue=self.queue,
                                           trace_buffer=bool(trace))
        if sc.duration_s is not None:
            segs = int(sum(sc.bandwidths_bps) * sc.duration_s / 8 / seg) + 1
        else:
            segs = n_dsn * (1 + sc.competing_flows)
        # the event loop counts in a C long long
        self.max_events = (check_int("max_events", max_events, minimum=1, maximum=2**63 - 1) if max_events is not None
                           else 200 * segs + 1_000_000)
        self.senders: list[TcpSender] = []
        self.receivers: list[TcpReceiver] = []
        self.ts_offsets = []
        n_flows = n + sc.competing_flows
        for f in range(n_flows):
            is_sub = f < n
            cc = registry.make("congestion", sc.congestion if is_sub else "newreno",
                               **(dict(sc.congestion_params) if is_sub else {}))
            ro = (registry.make("reordering", sc.reordering, **dict(sc.reordering_params)) if is_sub
                  else registry.make("reordering", "none"))
            tr = _Trace(f, self.tr) if trace else None
            cls = MptcpSubflow if is_sub else TcpSender
            comp_bytes = sc.transfer_bytes if sc.transfer_bytes is not None else UNBOUNDED_SEGS * seg // 2
            snd = cls(segment_bytes=seg, transfer_bytes=(UNBOUNDED_SEGS * seg if is_sub else comp_bytes),
                      initial_window_bytes=sc.initial_window_bytes, ssthresh_bytes=sc.ssthresh_bytes,
                      options=opts, cc=cc, recovery=make_recovery(opts.recovery), reordering=ro,
                      net_send=None, queue=self.queue, trace=tr,
                      index=f, connection=conn if is_sub else None, path=path_info(fwd[f], rev[f]))
            rcv = TcpReceiver(n_segs=(0 if is_sub else snd.n_segs), m_ack=sc.m_ack, options=opts,
                              net_ack=None, queue=self.queue, trace=tr,
                              dsack=bool(getattr(ro, "wants_dsack", False)) or snd.loss_detection.wants_dsack,
                              rfc7323_echo=bool(getattr(ro, "wants_rfc7323_echo", False)))
            rcv.index = f
            rcv.completes_run = False  # the connection (or nobody, for a competing flow) ends the run
            if is_sub:
                rcv.sink = conn.data_level
                # the model's receiver echoes the TSval of the segment each ACK answers
                rcv.echo_arrival = conn._ns3_receiver and rcv.timestamps
                if conn._ns3_receiver and getattr(ro, "wants_model_dsack", False):
                    rcv.held_copy = conn.model_dsack_ack  # the model's D_SACK receiver
                conn.add_subflow(snd, rcv)
            self.senders.append(snd)
            self.receivers.append(rcv)
        # ---- the connection set-up of each flow (cmtlab.sim.engine.handshake): SYN / SYN-ACK over its paths
        hs_exact = [handshake.round_trip_ns(fwd[f], rev[f], self.syn_bytes) for f in range(n_flows)]
        if handshake_rtt_sample:
            self.start_ns = handshake.start_ns([fwd[f][0] for f in range(n_flows)], self.ack_bytes[0] - sc.dss_bytes)
            self.ts_offsets = [hs_exact[f] - self.start_ns for f in range(n_flows)]
            self.hs_rtt = [handshake.rtt_sample_ns(h, self.timestamps) for h in hs_exact]
        else:
            self.start_ns = 0
            self.ts_offsets = [0] * n_flows
            self.hs_rtt = None
        for f, snd in enumerate(self.senders):
            snd.ts_offset_ns = self.ts_offsets[f]
        for f in range(n_flows):
            self._wire_flow(f)
        sched.init(conn)

    # ------------------------------------------------------------------ network
    def _wire_flow(self, f: int) -> None:
        """Connect flow ``f``'s endpoints to its paths: sends, arrivals and timer events.

        A data segment goes over the flow's forward :class:`~cmtlab.sim.net.route.Route` to the
        receiver directly (nothing on the sending side reads the connection's clock
        before the next ACK, timer or wake-up sets it); an ACK goes over the reverse route to an
        :class:`~cmtlab.sim.mptcp.clock.AckArrival`; timers fire through a
        :class:`~cmtlab.sim.mptcp.clock.TimerWakeup` (the connection's clock, then its pump).
        """
        snd, rcv = self.senders[f], self.receivers[f]
        conn = self.conn
        is_sub = f < self.scenario.n_subflows
        tr = self.tr
        arrival = AckArrival(conn, snd, subflow=is_sub)
        TimerWakeup(conn, snd.rto_timer, subflow=is_sub)
        for timer in snd.loss_detection.timers():  # a time-based loss detection's timers (RACK, TLP)
            TimerWakeup(conn, timer, subflow=is_sub)
        snd.net_send = SegmentSend(
            Route(self.queue, self.fwd[f], rcv), self.data_wire - self.scenario.segment_bytes,
            timestamps=self.timestamps, ts_offset_ns=self.ts_offsets[f],
            packets_trace=tr["packets"] if tr is not None else None, flow=f,
            dsn_of=conn.dsn_of if is_sub else None,
            on_retransmit=partial(reinject, conn) if is_sub and conn.retransmit == "reinject" else None)
        # a subflow's ACKs carry the connection's DATA_ACK (RFC 8684); a competing flow's do not
        rcv.net_ack = AckSend(Route(self.queue, self.rev[f], arrival), self.ack_bytes,
                              data_level=conn.data_level if is_sub else None,
                              acks_trace=tr["acks"] if tr is not None else None, flow=f)

    # ------------------------------------------------------------------ run
    def run(self) -> MptcpResult:
        wall0 = time.perf_counter()
        sc = self.scenario
        conn = self.conn
        senders = self.senders
        fwd = self.fwd
        start = self.start_ns
        self.queue.order_ns = start
        if self.hs_rtt is not None:
            for f, snd in enumerate(senders):
                snd.rtt_sample(self.hs_rtt[f])
                fwd[f][0].transmit(start, self.ack_bytes[0] - sc.dss_bytes, start)
        conn.now = start
        # the completion clock starts when the first data segment starts onto the wire
        first_wire = []
        plain = [snd.net_send for snd in senders]
        for f, snd in enumerate(senders):
            def first_send(now, k, nbytes, retx, _send=plain[f], _link=fwd[f][0]):
                _send(now, k, nbytes, retx)
                first_wire.append(_link.last_start_ns)
            snd.net_send = first_send
        for snd in senders:
            snd.start(start)
        conn.pump(start)
        for f, snd in enumerate(senders):
            snd.net_send = plain[f]
        t0 = min(first_wire) if first_wire else 0
        self.first_data_ns = t0
        t_end = t0 + seconds_to_ns(sc.duration_s) if sc.duration_s is not None else None
        # the time limit counts from the run's start (the first data segment), as sim_time_s does
        reason, now, events = run_events(self.queue, tmax_ns=t0 + seconds_to_ns(sc.max_sim_time_s),
                                         budget=self.max_events, t_end_ns=t_end)
        wall = time.perf_counter() - wall0
        return self._result(reason.value, now, t0, events, wall)

    def _result(self, stop, now, t0, events, wall) -> MptcpResult:
        sc = self.scenario
        conn = self.conn
        seg = sc.segment_bytes
        n_sub = sc.n_subflows
        completed = stop == "completed" or (stop == "duration" and sc.duration_s is not None)
        end = conn.done_time if stop == "completed" else now
        conn._occupancy(end)
        for snd in self.senders:
            snd.flush_traces(end)
        elapsed_ns = max(end - t0, 1)
        elapsed_s = elapsed_ns / NS_PER_S
        subs = conn.subflows
        rx = conn.receivers
        delivered_bytes = conn.rcv_dsn * seg
        if conn.n_dsn is not None and conn.rcv_dsn >= conn.n_dsn:
            delivered_bytes = sc.transfer_bytes
        rows = []
        for i, (s, r) in enumerate(zip(subs, rx)):
            acc = self.access[i]
            sent_bytes = s.segments_sent * seg
            rows.append({
                "subflow": i, "rate_bps": sc.bandwidths_bps[i], "rtt_s": sc.rtts_s[i],
                "segments_sent": s.segments_sent, "retransmissions": s.retransmissions,
                "fast_retransmits": s.fast_retransmits, "timeouts": s.timeouts,
                "three_dupack_events": s.fast_retransmits, "spurious_retransmissions": r.duplicates_rx,
                "throughput_bps": sent_bytes * 8 / elapsed_s,
                "goodput_bps": conn.maps[i].delivered * seg * 8 / elapsed_s,
                "link_utilisation": _busy_share(acc, acc.packets * self.data_wire * 8, end, sc.bandwidths_bps[i],
                                                elapsed_s),
                "final_cwnd_bytes": s.cwnd, "srtt_s": s.srtt / NS_PER_S if s.n_rtt_samples else float("nan"),
                "loss_drops": acc.loss_drops, "queue_drops": acc.queue_drops,
                "spurious_undos": s.spurious_undos,
            })
        unique = max(conn.delivered_segments + len(conn.ooo), 1)
        extra = {
            "stop_reason": stop, "events": events, "sim_time_s": elapsed_s, "segments": conn.n_dsn or conn.next_dsn,
            "delivered_bytes": delivered_bytes,
            "goodput_bps": delivered_bytes * 8 / elapsed_s,
            # gThroughput (Alheid sec. IV.B): application bytes delivered per second of the run
            "gthroughput_bps": delivered_bytes * 8 / elapsed_s,
            # OOO-R: share of data segments that reached the connection ahead of the data sequence
            "ooo_r": conn.ooo_events / unique,
            # OOO-BO: mean out-of-order buffer occupancy (bytes) over the run
            "ooo_bo_bytes": conn.ooo_bytes_time / elapsed_ns,
            "max_ooo_buffer_bytes": conn.max_ooo * seg, "reinjections": conn.reinjections,
            "duplicate_dsn_received": conn.duplicate_dsn,
            "spurious_undos": sum(s.spurious_undos for s in subs),  # reordering responses' restores
            "queue_drops": sum(lk.queue_drops for lk in self.links),
            "loss_drops": sum(lk.loss_drops for lk in self.links),
            "segments_per_second": sum(s.segments_sent for s in subs) / wall if wall > 0 else float("nan"),
        }
        if self.backbone is not None:
            extra["backbone_utilisation"] = _busy_share(self.backbone, self.backbone.packets * self.data_wire * 8,
                                                        end, sc.backbone_bps, elapsed_s)
        for j, (s, r) in enumerate(zip(self.senders[n_sub:], self.receivers[n_sub:])):
            extra[f"tcp{j}_throughput_bps"] = r.rcv_nxt * seg * 8 / elapsed_s
            extra[f"tcp{j}_retransmissions"] = s.retransmissions
        from .version import code_version
        extra["code_version"] = code_version()
        traces = self._frames(t0, end) if self.tr is not None else {}
        comp = (conn.done_time - t0) / NS_PER_S if stop == "completed" else float("nan")
        if sc.duration_s is not None and completed:
            comp = elapsed_s
        return MptcpResult(simulator=SIMULATOR_NAME, scenario=sc, completed=completed, completion_time_s=comp,
                           data_segments_sent=sum(s.segments_sent for s in subs),
                           retransmissions=sum(s.retransmissions for s in subs),
                           fast_retransmits=sum(s.fast_retransmits for s in subs),
                           timeouts=sum(s.timeouts for s in subs),
                           spurious_retransmissions=sum(r.duplicates_rx for r in rx), wall_time_s=wall,
                           traces=traces, extra=extra, subflows=rows, delivered_bytes=delivered_bytes)

    def _frames(self, t0: int, end: int) -> dict:
        tr = self.tr

        def sec(x):
            return (np.asarray(x, dtype=np.int64) - t0) / NS_PER_S

        out = {}
        cols = {"cwnd": ["time_s", "subflow", "cwnd_bytes", "ssthresh_bytes", "state"],
                "events": ["time_s", "subflow", "event", "seq", "cwnd_bytes", "ssthresh_bytes"],
                "dupacks": ["start_s", "end_s", "subflow", "ack", "length"],
                "packets": ["time_s", "subflow", "seq", "dsn", "retransmission", "wire_bytes", "arrival_s"],
                "acks": ["time_s", "subflow", "ack", "sack_blocks", "wire_bytes", "arrival_s"]}
        for name, c in cols.items():
            df = pd.DataFrame(tr[name], columns=c)
            for tc in ("time_s", "start_s", "end_s"):
                if tc in df:
                    df[tc] = sec(df[tc])
            if "arrival_s" in df:
                a = df["arrival_s"].to_numpy()
                df["arrival_s"] = np.where(a >= 0, (a - t0) / NS_PER_S, np.nan)
            out[name] = df
        buf = self.conn.buffer_trace or []
        out["buffer"] = pd.DataFrame({"time_s": sec([b[0] for b in buf]),
                                      "ooo_buffer_bytes": [b[1] for b in buf],
                                      "data_rcv_nxt": [b[2] for b in buf]})
        return out


#: Traces of an MPTCP run (all recorded when any is asked for).
TRACE_NAMES = ("cwnd", "events", "dupacks", "packets", "acks", "buffer")


def _trace_on(trace) -> bool:
    """``trace``: ``True``/``False``/``None``, or names from :data:`TRACE_NAMES` (a name or a collection of
    them; any name records every trace).  Anything else is an error, not a truthy value."""
    if trace is None or isinstance(trace, (bool, np.bool_)):
        return bool(trace)
    names = (trace,) if isinstance(trace, str) else trace
    try:
        names = frozenset(names)
    except TypeError:
        raise ValueError(f"trace must be True, False or names from {list(TRACE_NAMES)}, got {trace!r}") from None
    unknown = sorted(map(repr, names - set(TRACE_NAMES)))
    if unknown:
        raise ValueError(f"trace names must be in {list(TRACE_NAMES)} for an MPTCP run, got unknown {unknown}")
    return bool(names)


def _busy_share(link, bits: float, end_ns: int, rate_bps: float, elapsed_s: float) -> float:
    """Share of the run a link spent serialising the run's packets: ``bits`` handed to it, less what is
    still queued or being serialised at the end of the run (``busy_until - end``: the link is busy
    without a gap until then), over ``rate * elapsed``; within [0, 1].  Exact on a point-to-point link;
    on a link with cross traffic the backlog also holds cross packets (the share is then a lower
    bound); a link model without ``busy_until_ns`` (Wi-Fi) is only capped at 1."""
    backlog_ns = link.busy_until_ns() - end_ns if hasattr(link, "busy_until_ns") else 0
    if backlog_ns > 0:
        bits -= backlog_ns * rate_bps / NS_PER_S
    share = bits / (rate_bps * elapsed_s)
    return min(max(share, 0.0), 1.0)


def run_mptcp(scenario: MptcpScenario, *, trace=False, max_events=None) -> MptcpResult:
    """Simulate one :class:`MptcpScenario`."""
    return MptcpSimulation(scenario, trace=trace, max_events=max_events).run()


def simulate_mptcp(bandwidths_bps, rtts_s=None, *, transfer_bytes=None, duration_s=None, congestion="lia",
                   scheduler="round_robin", reordering="none", loss=None, seed=0, **options) -> MptcpResult:
    """Simulate one MPTCP connection with one subflow per path (see :class:`MptcpScenario`).

    ``rtts_s`` are **round-trip** propagation delays (one-way = half, in each direction; the
    keyword ``delays_s`` is deprecated).
    Other keywords: any :func:`mptcp_scenario` argument (``congestion_params``,
    ``scheduler_params``, ``dupack_mode``, ``retransmit``, ``dss_bytes``,
    ``receive_buffer_bytes``, ``backbone_bps``, ``competing_flows``, …), any
    :class:`cmtlab.scenario.TcpOptions` field, ``trace`` and ``max_events``.
    """
    trace = options.pop("trace", False)
    max_events = options.pop("max_events", None)
    sc = mptcp_scenario(bandwidths_bps, round_trips(rtts_s, options, "simulate_mptcp"), transfer_bytes=transfer_bytes,
                        duration_s=duration_s,
                        congestion=congestion, scheduler=scheduler, reordering=reordering, loss=loss, seed=seed,
                        **options)
    return run_mptcp(sc, trace=trace, max_events=max_events)


__all__ = ["MptcpScenario", "mptcp_scenario", "MptcpResult", "MptcpSimulation", "run_mptcp", "simulate_mptcp",
           "SIMULATOR_NAME", "PathInfo"]
