"""The multipath topology: an MPTCP connection (and competing single-path TCP flows) over paths of links.

A builder over the engine: :class:`MptcpSimulation` wires one
:class:`~cmtlab.sim.mptcp.scenario.MptcpScenario` (the scenario and its validating builder
:func:`~cmtlab.sim.mptcp.scenario.mptcp_scenario` are :mod:`cmtlab.sim.mptcp.scenario`'s, the result
:class:`~cmtlab.sim.mptcp.result.MptcpResult` is :mod:`cmtlab.sim.mptcp.result`'s);
:func:`simulate_mptcp` builds a scenario from plain arguments and runs it.

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

from functools import partial

import numpy as np
import pandas as pd

from .._validate import check_int
from ..scenario import ack_packet_bytes, data_packet_bytes, round_trips
from . import registry
from .engine import EventQueue, handshake
from .engine.run import Run
from .net.link import NS_PER_S, PointToPointLink, seconds_to_ns
from .net.route import Route
from .mptcp import UNBOUNDED_SEGS, MptcpConnection, MptcpSubflow, reinject
from .mptcp.ack_arrival import AckArrival, TimerWakeup
from .mptcp.result import MptcpResult
from .mptcp.scenario import MptcpScenario, access_links, mptcp_scenario
from .mechanisms.recovery import make_recovery
from .tcp import TcpReceiver, TcpSender
from .tcp.wire import AckSend, SegmentSend
from .net.topology import PathInfo, path_info

SIMULATOR_NAME = "cmtlab-mptcp"


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
        # what a subflow receiver answers for a segment ahead of the data sequence (dupack_mode); a model's
        # own connection also has its own header sizes (e.g. the Chihani-Collange model's)
        out_of_order = registry.make("dupack_mode", sc.dupack_mode)
        wire = out_of_order.wire_bytes(seg, timestamps=bool(opts.timestamps))
        if wire is not None:
            data, acks = wire
            self.data_wire = data + sc.dss_bytes
            self.ack_bytes = tuple(a + sc.dss_bytes for a in acks)
        self.syn_bytes = handshake.syn_bytes(ack_packet_bytes(opts), opts)
        self.timestamps = bool(opts.timestamps)
        self.tr = {"cwnd": [], "events": [], "dupacks": [], "packets": [], "acks": []} if trace else None
        # ---- links and paths
        q = sc.queue_packets
        built = access_links(sc)
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
                                           receive_buffer_bytes=sc.receive_buffer_bytes, out_of_order=out_of_order,
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
                out_of_order.setup_receiver(rcv, ro)  # (the model's receiver: its timestamp echo, its D-SACK)
                conn.add_subflow(snd, rcv)
            self.senders.append(snd)
            self.receivers.append(rcv)
        # ---- the connection set-up of each flow (cmtlab.sim.engine.handshake): SYN / SYN-ACK over its paths
        setup = handshake.setup(fwd[:n_flows], rev[:n_flows], self.syn_bytes, self.ack_bytes[0] - sc.dss_bytes,
                                timestamps=self.timestamps, sample=handshake_rtt_sample)
        self.start_ns = setup.start_ns
        self.ts_offsets = list(setup.ts_offsets_ns)
        self.hs_rtt = setup.rtt_samples_ns
        for f, snd in enumerate(self.senders):
            snd.ts_offset_ns = self.ts_offsets[f]
        if opts.ack_policy == "linux":  # Linux's quick ACKs: one receive window per connection
            from .tcp.receive_window import LinuxReceiveWindow
            rtts = [handshake.round_trip_ns(fwd[f], rev[f], self.syn_bytes) for f in range(n_flows)]
            rw = LinuxReceiveWindow(int(max(rtts[:n])), seg)  # mptcp_rcv_space_adjust: the longest
            for f, rcv in enumerate(self.receivers):
                if f == n:  # competing flows: each its own
                    rw = None
                w = rw if rw is not None else LinuxReceiveWindow(int(rtts[f]), seg)
                rcv.rwin, rcv.rwin_index = w, w.add()
        for f in range(n_flows):
            self._wire_flow(f)
        sched.init(conn)

    # ------------------------------------------------------------------ network
    def _wire_flow(self, f: int) -> None:
        """Connect flow ``f``'s endpoints to its paths: sends, arrivals and timer events.

        A data segment goes over the flow's forward :class:`~cmtlab.sim.net.route.Route` to the
        receiver directly (nothing on the sending side reads the connection's clock
        before the next ACK, timer or wake-up sets it); an ACK goes over the reverse route to an
        :class:`~cmtlab.sim.mptcp.ack_arrival.AckArrival`; timers fire through a
        :class:`~cmtlab.sim.mptcp.ack_arrival.TimerWakeup` (the connection's clock, then its pump).
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
        sc = self.scenario
        conn = self.conn
        senders = self.senders
        fwd = self.fwd
        start = self.start_ns
        run = Run(self.queue, start)
        run.finish_handshake([(snd, fwd[f][0], self.hs_rtt[f], self.ack_bytes[0] - sc.dss_bytes)
                              for f, snd in enumerate(senders)])
        conn.now = start

        def first_window():
            for snd in senders:
                snd.start(start)
            conn.pump(start)

        t0 = run.first_window(senders, lambda f: fwd[f][0].last_start_ns, first_window)
        self.first_data_ns = t0
        reason, now, events = run.events(
            max_sim_time_ns=seconds_to_ns(sc.max_sim_time_s), budget=self.max_events,
            duration_ns=seconds_to_ns(sc.duration_s) if sc.duration_s is not None else None)
        return self._result(reason.value, now, t0, events, run)

    def _result(self, stop, now, t0, events, run: Run) -> MptcpResult:
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
        extra = Run.extra(stop, events, elapsed_s, conn.n_dsn or conn.next_dsn)
        extra.update({
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
            "segments_per_second": run.segments_per_second(sum(s.segments_sent for s in subs)),
        })
        if self.backbone is not None:
            extra["backbone_utilisation"] = _busy_share(self.backbone, self.backbone.packets * self.data_wire * 8,
                                                        end, sc.backbone_bps, elapsed_s)
        for j, (s, r) in enumerate(zip(self.senders[n_sub:], self.receivers[n_sub:])):
            extra[f"tcp{j}_throughput_bps"] = r.rcv_nxt * seg * 8 / elapsed_s
            extra[f"tcp{j}_retransmissions"] = s.retransmissions
        Run.stamp(extra)
        traces = self._frames(t0, end) if self.tr is not None else {}
        comp = (conn.done_time - t0) / NS_PER_S if stop == "completed" else float("nan")
        if sc.duration_s is not None and completed:
            comp = elapsed_s
        return MptcpResult(simulator=SIMULATOR_NAME, scenario=sc, completed=completed, completion_time_s=comp,
                           data_segments_sent=sum(s.segments_sent for s in subs),
                           retransmissions=sum(s.retransmissions for s in subs),
                           fast_retransmits=sum(s.fast_retransmits for s in subs),
                           timeouts=sum(s.timeouts for s in subs),
                           spurious_retransmissions=sum(r.duplicates_rx for r in rx), wall_time_s=run.wall_s,
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


__all__ = ["MptcpSimulation", "run_mptcp", "simulate_mptcp", "SIMULATOR_NAME", "TRACE_NAMES", "PathInfo"]
