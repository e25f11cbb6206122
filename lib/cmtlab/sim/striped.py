"""Song et al.'s striped topology (Fig. 5), built over the event core :mod:`cmtlab.sim.engine`.

:class:`Simulation` wires one scenario: a :class:`~cmtlab.sim.tcp.TcpSender` whose IP
packets a round-robin tunnel (:class:`~cmtlab.sim.mechanisms.schedulers.RoundRobinScheduler`) stripes
over ``n`` :class:`~cmtlab.sim.net.link.PointToPointLink` (forward direction), a
:class:`~cmtlab.sim.tcp.TcpReceiver` whose ACKs return as ``options.ack_path`` says (the
reverse directions of the same links, striped round-robin or pinned to one link, or the
model's ideal return path, realised as a separate 1 Tbit/s link without delay exactly as
:mod:`cmtlab.ns3` builds it), and the event loop.

Events
------
The run goes through the one event core (:mod:`cmtlab.sim.engine`): integer nanoseconds, like
ns-3, ties taken in ns-3's order.  Four kinds of event exist here: a data segment arriving
at the receiver, an ACK arriving at the sender, the retransmission timer and the delayed-ACK
timer (:class:`~cmtlab.sim.engine.timers.LazyTimer`: ACKs that restart the timer add no
events).  Links compute departure times arithmetically (:class:`~cmtlab.sim.net.link.LinkModel`),
so each packet costs exactly one event.  Memory is bounded by the window and the queues: the
sender's scoreboard is a ring of ``send buffer / segment`` entries, the receiver keeps only
out-of-order segments, and nothing per packet is kept unless a trace is requested.  On the
hot path without traces the plain round-robin tunnel is a :class:`~cmtlab.sim.net.route.Rotation`
with the compiled :class:`~cmtlab.sim.tcp.wire.SegmentSend` / :class:`~cmtlab.sim.tcp.wire.AckSend`
(same steps as :meth:`Simulation._send_data` / :meth:`Simulation._send_ack`).

Guards
------
A run stops with ``completed=False`` when simulated time passes the scenario's
``max_sim_time_s`` or after ``max_events`` events (``extra["stop_reason"]`` says which).
"""

from __future__ import annotations

from .._validate import check_int
from ..scenario import StripedScenario, TransferResult, queue_limit_of
from .mechanisms.congestion import CongestionControl, NewReno
from .engine import EventQueue, handshake
from .engine.run import Run
from .net.link import NS_PER_S, LinkModel, PointToPointLink, seconds_to_ns
from .net.packet import PacketPath, ack_packet, data_packet
from .net.route import Rotation
from .mechanisms.recovery import RecoveryAlgorithm, make_recovery
from .mechanisms.reordering import NoReorderingResponse, ReorderingResponse
from .net.rng import loss_rng
from .mechanisms.schedulers import FixedScheduler, RoundRobinScheduler, Scheduler
from .tcp import TcpReceiver, TcpSender
from .tcp.wire import AckSend, SegmentSend
from .tcp.traces import ReorderDensity, TraceRecorder, normalize_trace

SIMULATOR_NAME = "cmtlab"
#: Rate (bit/s) of the ``ack_path="ideal"`` return path: an ACK takes 1 ns (as in :mod:`cmtlab.ns3`).
IDEAL_PATH_RATE_BPS = 1e12
#: Queue limit of the ideal return path (never reached).
IDEAL_PATH_QUEUE_PACKETS = 1_000_000


class Simulation:
    """One run of a :class:`~cmtlab.scenario.StripedScenario`.

    Parameters
    ----------
    scenario
        The scenario (build it with :func:`cmtlab.scenario.striped_scenario`).
    trace
        ``True``, ``False`` or a set of trace names (:data:`cmtlab.sim.tcp.traces.TRACE_NAMES`).
    handshake_rtt_sample
        Model the end of the connection set-up as ns-3 (and any RFC 6298 sender) has it:
        the RTT estimator starts with the SYN/SYN-ACK round trip over the first data link
        and the first ACK link, and the handshake's final ACK leaves on the first data link
        just before the first window (it delays the first data segment on that link by its
        serialisation time and takes one loss draw; the clock's zero stays at the moment the
        first data segment starts onto the wire).  With ``False`` the first data segments
        run on ``initial_rto_s`` and all links start idle.
    congestion, recovery, reordering, scheduler, ack_scheduler, links, ack_links
        Plug-ins replacing the defaults (:class:`~cmtlab.sim.mechanisms.congestion.NewReno`, the
        recovery named by ``options.recovery``, :class:`~cmtlab.sim.mechanisms.reordering.NoReorderingResponse`,
        round-robin striping, ACK links per ``options.ack_path``, point-to-point links
        built from the scenario).  With ``ack_path="ideal"`` the ACKs use one extra link of
        :data:`IDEAL_PATH_RATE_BPS` without propagation delay (the model's instantaneous
        return path up to 1 ns per ACK, exactly as :mod:`cmtlab.ns3` builds it).
    max_events
        Event budget (default ``200 * segments + 1e6``).
    rate_bin_s
        Bin width of the ``rate`` trace (default: completion time / 100).
    dsack
        The receiver reports duplicate segments with D-SACK (RFC 2883; only with SACK).
        Default: when the reordering response asks for it (``wants_dsack``); ns-3.44 never
        does, and a D-SACK block makes the ACK 8 bytes longer.
    """

    def __init__(self, scenario: StripedScenario, *, trace=False, handshake_rtt_sample: bool = True,
                 congestion: CongestionControl | None = None, recovery: RecoveryAlgorithm | None = None,
                 reordering: ReorderingResponse | None = None, scheduler: Scheduler | None = None,
                 ack_scheduler: Scheduler | None = None, links: list[LinkModel] | None = None,
                 ack_links: list[LinkModel] | None = None, max_events: int | None = None,
                 rate_bin_s: float | None = None, dsack: bool | None = None):
        if not isinstance(scenario, StripedScenario):
            raise ValueError(f"scenario must be a cmtlab.scenario.StripedScenario (use striped_scenario(...)), "
                             f"got {type(scenario).__name__}")
        sc = scenario
        opts = sc.options
        self.scenario = sc
        n = sc.n_links
        owd = sc.one_way_delays_s()
        # ---- links (forward: data; reverse: ACKs)
        qp = [queue_limit_of(sc.queue_packets, i) for i in range(n)]  # per link (one value, or one per link)
        qb = [queue_limit_of(sc.queue_bytes, i) for i in range(n)]
        if links is None:
            links = [PointToPointLink(sc.bandwidths_bps[i], float(owd[i]), qp[i], sc.loss[i], loss_rng(sc.seed, i))
                     if qb[i] is None else
                     PointToPointLink(sc.bandwidths_bps[i], float(owd[i]), qp[i], sc.loss[i], loss_rng(sc.seed, i),
                                      queue_bytes=qb[i]) for i in range(n)]
        if len(links) != n:
            raise ValueError(f"links must hold one LinkModel per scenario link ({n}), got {len(links)}")
        self.links = list(links)
        self.data_bytes_full = sc.data_packet_bytes()
        self.data_overhead = self.data_bytes_full - sc.segment_bytes
        self.ack_bytes = tuple(sc.ack_packet_bytes(nb) for nb in range(5))
        self.syn_bytes = handshake.syn_bytes(self.ack_bytes[0], opts)
        p_full = [getattr(lk, "drop_probability", lambda b: 0.0)(self.data_bytes_full) for lk in self.links]
        if all(p >= 1.0 for p in p_full):
            raise ValueError(f"loss: every data packet would be lost on every link (drop probabilities {p_full}); "
                             f"the transfer can never finish — use a smaller loss rate")
        ack_path = opts.ack_path
        ack_idx = sc.ack_links()
        if ack_links is None:
            if ack_idx is not None:
                ack_links = [(PointToPointLink(sc.bandwidths_bps[i], float(owd[i]), qp[i]) if qb[i] is None else
                              PointToPointLink(sc.bandwidths_bps[i], float(owd[i]), qp[i], queue_bytes=qb[i]))
                             if i in ack_idx else None for i in range(n)]
            else:
                # the model's instantaneous return path, realised as cmtlab.ns3 does: its own
                # 1 Tbit/s link without propagation delay or queue limit (an ACK takes 1 ns)
                ack_links = [PointToPointLink(IDEAL_PATH_RATE_BPS, 0.0, IDEAL_PATH_QUEUE_PACKETS)]
                ack_idx = (0,)
        self.ack_links = ack_links
        self._ack_trace_ideal = ack_path == "ideal" and sc.ack_links() is None
        if ack_scheduler is None:
            ack_scheduler = (RoundRobinScheduler(ack_idx) if ack_path == "round_robin"
                             else FixedScheduler(ack_idx[0]))
        self.ack_scheduler = ack_scheduler
        self.scheduler = scheduler if scheduler is not None else RoundRobinScheduler(range(n))
        # ---- traces
        self.trace_names = normalize_trace(trace)
        n_segs = -(-sc.transfer_bytes // sc.segment_bytes)
        last_len = sc.transfer_bytes - (n_segs - 1) * sc.segment_bytes
        self.trace = (TraceRecorder(self.trace_names, segment_bytes=sc.segment_bytes, n_segs=n_segs,
                                    last_len=last_len, rate_bin_s=rate_bin_s) if self.trace_names else None)
        self.reorder = ReorderDensity() if "reordering" in self.trace_names else None
        # ---- event queue and endpoints
        self.queue = EventQueue()
        self.timestamps = bool(opts.timestamps)
        self.sender = TcpSender(segment_bytes=sc.segment_bytes, transfer_bytes=sc.transfer_bytes,
                                initial_window_bytes=sc.initial_window_bytes, ssthresh_bytes=sc.ssthresh_bytes,
                                options=opts, cc=congestion if congestion is not None else NewReno(),
                                recovery=recovery if recovery is not None else make_recovery(opts.recovery),
                                reordering=reordering if reordering is not None else NoReorderingResponse(),
                                net_send=self._send_data, queue=self.queue, trace=self.trace)
        if dsack is None:
            dsack = (bool(getattr(self.sender.reordering, "wants_dsack", False))
                     or self.sender.loss_detection.wants_dsack)
        if opts.ack_policy != "delayed":
            raise ValueError(f"ack_policy={opts.ack_policy!r} is simulate_mptcp's (a connection's receive window); "
                             "the striped topology's receiver has ack_policy='delayed' only")
        self.receiver = TcpReceiver(n_segs=n_segs, m_ack=sc.m_ack, options=opts, net_ack=self._send_ack,
                                    queue=self.queue, trace=self.trace, reorder=self.reorder,
                                    dsack=dsack,
                                    rfc7323_echo=bool(getattr(self.sender.reordering, "wants_rfc7323_echo", False)))
        self.n_segs = n_segs
        # the event loop counts in a C long long
        self.max_events = (check_int("max_events", max_events, minimum=1, maximum=2**63 - 1) if max_events is not None
                           else 200 * n_segs + 1_000_000)
        # the connection set-up (cmtlab.sim.engine.handshake): SYN over the first data link, SYN-ACK
        # over the first ACK link; the handshake's final ACK goes first on the first data link
        setup = handshake.setup([(self.links[self.scheduler.first_path()],)],
                                [(self.ack_links[self.ack_scheduler.first_path()],)], self.syn_bytes,
                                self.ack_bytes[0], timestamps=self.timestamps, sample=handshake_rtt_sample)
        self.start_ns = setup.start_ns
        self.handshake_rtt = setup.rtt_samples_ns[0]
        self.ts_offset_ns = setup.ts_offsets_ns[0]  # the phase of ns-3's millisecond timestamp clock
        self.sender.ts_offset_ns = self.ts_offset_ns
        # packets the scheduler put on a link itself (_send_data, _send_ack) go straight to the endpoint
        self._to_receiver = PacketPath(self.queue, self.receiver)
        self._to_sender = PacketPath(self.queue, self.sender)
        self._sched_select = self.scheduler.select
        self._ack_select = self.ack_scheduler.select

    # ------------------------------------------------------------------ network
    def _make_rr_send_data(self):
        """The sender's ``net_send`` for a strictly rotating tunnel without traces.

        Same steps as :meth:`_send_data` with the rotation the scheduler declares
        (:meth:`~cmtlab.sim.mechanisms.schedulers.Scheduler.rotation`) taken by a
        :class:`~cmtlab.sim.net.route.Rotation` (compiled with the engine; the engine asks the
        scheduler, never checks its type).
        """
        paths, nxt = self.scheduler.rotation()
        tunnel = Rotation(self.queue, [self.links[p] for p in paths], self.receiver, turn=nxt)
        return SegmentSend(tunnel, self.data_overhead, timestamps=self.timestamps,
                           ts_offset_ns=self.ts_offset_ns)

    def _make_fast_send_ack(self):
        """The receiver's ``net_ack`` for a rotating (or fixed) ACK path without traces (``None``: no rotation)."""
        rot = self.ack_scheduler.rotation()
        if rot is None:
            return None
        paths, nxt = rot
        tunnel = Rotation(self.queue, [self.ack_links[p] for p in paths], self.sender, turn=nxt)
        return AckSend(tunnel, self.ack_bytes)

    def _send_data(self, now: int, k: int, nbytes: int, retx: bool) -> None:
        i = self._sched_select(now, k, retx)
        self.scheduler_last_path = i
        wire = nbytes + self.data_overhead
        link = self.links[i]
        arr = link.transmit(now, wire, self.queue.order_ns)
        if arr >= 0:
            tsval = (now + self.ts_offset_ns) // 1_000_000 if self.timestamps else 0
            self.queue.push(data_packet(self._to_receiver, wire, k, tsval, retx), arr, link.last_start_ns)
        if self.trace is not None:
            self.trace.packet(now, i, k, retx, wire, arr)

    def _send_ack(self, now: int, ack: int, echo: int, sack, nblocks: int) -> None:
        wire = self.ack_bytes[nblocks if nblocks < 5 else 4]
        i = self._ack_select(now, ack, False)
        link = self.ack_links[i]
        arr = link.transmit(now, wire, self.queue.order_ns)
        if arr >= 0:
            self.queue.push(ack_packet(self._to_sender, wire, ack, echo, sack, 0), arr, link.last_start_ns)
        if self.trace is not None:
            self.trace.ack(now, -1 if self._ack_trace_ideal else i, ack, nblocks, wire, arr)

    # ------------------------------------------------------------------ run
    def run(self) -> TransferResult:
        """Run to completion (or a guard) and return the :class:`~cmtlab.scenario.TransferResult`."""
        sc = self.scenario
        snd = self.sender
        rcv = self.receiver
        run = Run(self.queue, self.start_ns)
        # the handshake's final ACK goes first on the first data link (it occupies the link until the
        # first data segment can start, at time 0, and takes a loss draw)
        run.finish_handshake([(snd, self.links[self.scheduler.first_path()], self.handshake_rtt, self.ack_bytes[0])])
        t0 = run.first_window([snd], lambda f: self.links[self.scheduler_last_path].last_start_ns,
                              lambda: snd.start(self.start_ns))
        if self.trace is None and self.scheduler.rotation() is not None:
            # continues the rotation where the first window left it
            snd.net_send = self._make_rr_send_data()
        else:
            snd.net_send = self._send_data
        if self.trace is None:
            fast_ack = self._make_fast_send_ack()
            if fast_ack is not None:
                rcv.net_ack = fast_ack
        self.first_data_ns = t0
        reason, now, events = run.events(max_sim_time_ns=seconds_to_ns(sc.max_sim_time_s), budget=self.max_events)
        stop = reason.value
        completed = stop == "completed"
        snd.flush_traces(now)
        traces = {}
        if self.trace is not None:
            traces = self.trace.frames(end_ns=rcv.done_time if completed else now, t0_ns=t0, reorder=self.reorder)
        unique_rx = rcv.segments_rx - rcv.duplicates_rx
        extra = Run.extra(stop, events, (now - t0) / NS_PER_S, self.n_segs)
        extra.update({
            "queue_drops": sum(lk.queue_drops for lk in self.links),
            "loss_drops": sum(lk.loss_drops for lk in self.links),
            "ack_queue_drops": sum(lk.queue_drops for lk in (self.ack_links or []) if lk is not None),
            "acks_sent": rcv.acks_sent, "acks_received": snd.acks_rx, "stale_acks": snd.stale_acks,
            "dupacks_received": snd.dupacks_rx, "partial_acks": snd.partial_acks,
            "spurious_undos": snd.spurious_undos,
            "delayed_acks": rcv.delayed_acks, "timer_acks": rcv.timer_acks, "dsacks_sent": rcv.dsacks_sent,
            "duplicate_segments_received": rcv.duplicates_rx,
            "out_of_order_segments": rcv.ooo_rx,
            "out_of_order_ratio": rcv.ooo_rx / unique_rx if unique_rx else float("nan"),
            "max_out_of_order_segments": rcv.max_ooo,
            "max_backoff": snd.max_backoff, "rtt_samples": snd.rtt_samples_taken,
            "srtt_s": snd.srtt / NS_PER_S if snd.n_rtt_samples else float("nan"), "rto_s": snd.rto / NS_PER_S,
            "final_cwnd_bytes": snd.cwnd, "final_ssthresh_bytes": snd.ssthresh,
            "segments_per_second": run.segments_per_second(snd.segments_sent),
        })
        for i, lk in enumerate(self.links):
            extra[f"link{i}_packets"] = lk.packets
            extra[f"link{i}_max_queue"] = getattr(lk, "max_queue", 0)
        if self.reorder is not None:
            extra["reorder_in_order_fraction"] = self.reorder.in_order_fraction()
            extra["reorder_beyond_threshold"] = self.reorder.beyond
        Run.stamp(extra)
        return TransferResult(simulator=SIMULATOR_NAME, scenario=sc, completed=completed,
                              completion_time_s=(rcv.done_time - t0) / NS_PER_S if completed else float("nan"),
                              data_segments_sent=snd.segments_sent, retransmissions=snd.retransmissions,
                              fast_retransmits=snd.fast_retransmits, timeouts=snd.timeouts,
                              spurious_retransmissions=rcv.duplicates_rx, wall_time_s=run.wall_s, traces=traces,
                              extra=extra)


__all__ = ["Simulation", "SIMULATOR_NAME", "IDEAL_PATH_RATE_BPS", "loss_rng"]
