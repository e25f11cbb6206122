"""cmtlab's packet-level simulator: TCP and MPTCP over heterogeneous paths, with ns-3.44's semantics.

Two topologies are built over one event core: Song et al.'s striped tunnel (one TCP flow whose
packets are striped round robin over ``n`` links, Fig. 5) and an MPTCP connection with one
subflow per path (shared backbones, competing TCP flows, Wi-Fi and cross-traffic links).

Entry points
------------
* :func:`simulate_striped` / :func:`run` — the striped topology from plain arguments / from a
  :class:`cmtlab.scenario.StripedScenario` (the object shared with :mod:`cmtlab.ns3`, so every
  comparison is "same scenario, two simulators"); :func:`run` also takes an
  :class:`~cmtlab.sim.mptcp.scenario.MptcpScenario`;
* :func:`simulate_mptcp` / :func:`run_mptcp` — one MPTCP connection (:mod:`cmtlab.sim.multipath`);
* :func:`code_version` — the hash of the simulator's sources and of the data it declares
  (:data:`CODE_DATA_FILES`), as the sweep computes it for every simulator; the sweep cache keys on it;
* :class:`Simulation`, :class:`MptcpSimulation` — the two builders, for plug-ins and tests.

Results are :class:`cmtlab.scenario.TransferResult` objects; traces, when requested, are tidy
pandas DataFrames in ``result.traces`` (:mod:`cmtlab.sim.tcp.traces`).

Layout (the folders are the architecture)
-----------------------------------------
=====================  =========================================================================
``engine/``            the event queue (timed calls, ns-3's tie order), lazy timers, the loop
                       with its limits
``net/``               links (point-to-point, Wi-Fi, cross traffic and bit errors), paths, RNG
``tcp/``               the TCP sender (state machine; scoreboard, RTT/RTO, undo API and data
                       source in their own files), the receiver, the mechanisms' typed decisions,
                       the traces of a run
``mptcp/``             the MPTCP connection, its subflows, re-injection
``mechanisms/``        congestion control, loss recovery, reordering responses, schedulers: one
                       small class per file behind one interface per kind
``models/``            other implementations' versions of the mechanisms (the Chihani–Collange
                       ns-3 model the papers ran)
``registry.py``        names in a scenario → mechanism classes (plug-ins register themselves)
``striped.py``         the striped topology (builder over the engine)
``multipath.py``       the MPTCP topology and its scenario (builder over the engine)
``version.py``         the simulator's code version (the sweep cache keys on it)
=====================  =========================================================================

The engine never branches on a mechanism's name: a mechanism keeps its own state and answers
the sender with typed decisions (:mod:`cmtlab.sim.tcp.decisions`).

Units: rates in bit/s, sizes in bytes, sequence numbers are segment indices; the public
functions take seconds, the engine's clock is integer nanoseconds (``now`` in every hook).
"""

from __future__ import annotations

from ..scenario import StripedScenario, TransferResult, round_trips, striped_scenario
from .version import CODE_DATA_FILES, code_version  # (the simulator's code version: cmtlab.sim.version)
from .mechanisms.congestion import CongestionControl, NewReno  # noqa: E402
from .striped import Simulation  # noqa: E402
from .net.link import DROPPED_LOSS, DROPPED_QUEUE, IdealPath, LinkModel, PointToPointLink  # noqa: E402
from .mechanisms.recovery import ClassicRecovery, PrrRecovery, RecoveryAlgorithm  # noqa: E402
from .mechanisms.reordering import NoReorderingResponse, ReorderingResponse  # noqa: E402
from .mechanisms.schedulers import FixedScheduler, RoundRobinScheduler, Scheduler  # noqa: E402
from .tcp.traces import TRACE_NAMES, ReorderDensity, reorder_density  # noqa: E402
from .mptcp import MptcpResult, MptcpScenario, mptcp_scenario  # noqa: E402
from .multipath import MptcpSimulation, run_mptcp, simulate_mptcp  # noqa: E402
# the built-in mechanisms and link models register themselves when their modules are imported
# (cmtlab.sim.registry imports none of them)
from . import engine, mechanisms, models, net  # noqa: E402,F401
# (imported under private names: the modules live in net/, mechanisms/ and engine/, not in cmtlab.sim itself)
from .net import (cross_traffic as _cross_traffic, delay_line as _delay_line, jitter as _jitter,  # noqa: E402,F401
                  link as _link, rng as _rng, topology as _topology, trace_link as _trace_link, wifi as _wifi)
from .mechanisms import (congestion as _congestion, recovery as _recovery, reordering as _reordering,  # noqa: E402,F401
                         schedulers as _schedulers)
from .tcp import traces as _traces  # noqa: E402,F401


def run(scenario: StripedScenario, *, trace=False, reordering="none", reordering_params=None) -> TransferResult:
    """Simulate one :class:`~cmtlab.scenario.StripedScenario` and return its :class:`~cmtlab.scenario.TransferResult`.

    An :class:`~cmtlab.sim.mptcp.scenario.MptcpScenario` runs the multipath engine
    (:func:`~cmtlab.sim.multipath.run_mptcp`), so :func:`cmtlab.sweep.run_sweep` takes both.

    ``trace``: ``False`` (default: counters only, memory independent of the transfer size),
    ``True`` (all traces) or a set of names from :data:`TRACE_NAMES`
    (``"cwnd"``, ``"packets"``, ``"acks"``, ``"dupacks"``, ``"events"``, ``"reordering"``,
    ``"rate"``).  The run is deterministic for a given scenario (its ``seed`` drives the
    random loss).

    ``reordering`` names the reordering response (:mod:`cmtlab.sim.mechanisms.reordering`: ``"none"``,
    ``"dsack"``, ``"eifel"``, ``"frto"``, ``"tcp-door"``, ``"pr-r"``), built with
    ``reordering_params`` (e.g. ``{"variant": "chihani"}``).
    """
    if isinstance(scenario, MptcpScenario):
        if reordering != "none" or reordering_params:
            raise ValueError("reordering: an MptcpScenario carries its own (scenario.reordering); "
                             "pass reordering= only with a StripedScenario")
        return run_mptcp(scenario, trace=trace)
    from .._validate import check_params
    from .registry import make
    response = make("reordering", reordering, **check_params("reordering_params", reordering_params))
    return Simulation(scenario, trace=trace, reordering=response).run()


def simulate_striped(bandwidths_bps, rtts_s=None, *, transfer_bytes, segment_bytes=536, initial_window_bytes=536,
                     ssthresh_bytes=65535, m_ack=2, seed=0, **options) -> TransferResult:
    """Simulate one bulk transfer of TCP NewReno striped round-robin over ``n`` links (Song Fig. 5).

    Parameters
    ----------
    bandwidths_bps
        Link rates in bit/s, one per link.
    rtts_s
        **Round-trip** propagation delays in s, one per link, as in Song's model and
        :func:`cmtlab.papers.song.throughput` (``delays_s=`` is its deprecated name).  When ACKs return over the links
        (``ack_path`` ``"round_robin"``, ``"first"`` or ``"fastest"``) link *i* gets the
        one-way delay ``rtts_s[i] / 2`` in each direction; with ``ack_path="ideal"`` the
        ACKs return over a separate zero-delay path and link *i* gets the one-way forward
        delay ``rtts_s[i]`` (see :meth:`cmtlab.scenario.StripedScenario.one_way_delays_s`).
    transfer_bytes, segment_bytes, initial_window_bytes, ssthresh_bytes, m_ack
        Bytes to transfer, TCP payload per segment, initial congestion window and
        slow-start threshold (bytes), delayed-ACK count (Song Table 2: 536, 536, 65535, 2).
    seed
        Seed of the random loss (results are repeatable for a given seed).
    **options
        Other :func:`cmtlab.scenario.striped_scenario` keywords (``queue_packets``,
        ``loss``, ``tunnel``, ``options``, ``max_sim_time_s``), any
        :class:`cmtlab.scenario.TcpOptions` field (``sack=True``, ``ack_path="ideal"``, …),
        and ``trace``, ``reordering``, ``reordering_params`` (see :func:`run`).

    Returns
    -------
    TransferResult
        ``completion_time_s`` runs from the first data segment handed to the network to
        the moment the receiver holds the last byte in order; ``throughput_bps`` is
        ``transfer_bytes * 8 / completion_time_s``.
    """
    trace = options.pop("trace", False)
    reordering = options.pop("reordering", "none")
    reordering_params = options.pop("reordering_params", None)
    sc = striped_scenario(bandwidths_bps, round_trips(rtts_s, options, "simulate_striped"),
                          transfer_bytes=transfer_bytes, segment_bytes=segment_bytes,
                          initial_window_bytes=initial_window_bytes, ssthresh_bytes=ssthresh_bytes, m_ack=m_ack,
                          seed=seed, **options)
    return run(sc, trace=trace, reordering=reordering, reordering_params=reordering_params)


__all__ = [
    "CODE_DATA_FILES", "code_version", "run", "simulate_striped", "Simulation", "TRACE_NAMES", "reorder_density", "ReorderDensity",
    "LinkModel", "PointToPointLink", "IdealPath", "DROPPED_QUEUE", "DROPPED_LOSS",
    "Scheduler", "RoundRobinScheduler", "FixedScheduler",
    "CongestionControl", "NewReno", "RecoveryAlgorithm", "ClassicRecovery", "PrrRecovery",
    "ReorderingResponse", "NoReorderingResponse",
    "simulate_mptcp", "run_mptcp", "mptcp_scenario", "MptcpScenario", "MptcpSimulation", "MptcpResult",
]
