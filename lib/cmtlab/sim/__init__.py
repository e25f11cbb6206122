"""cmtlab's packet-level simulator: one TCP NewReno flow striped over ``n`` links (Song et al., Fig. 5).

Entry points
------------
* :func:`simulate_striped` — build the scenario from plain arguments and run it;
* :func:`simulate_mptcp` — one MPTCP connection, one subflow per path
  (:mod:`cmtlab.sim.multipath`, :mod:`cmtlab.sim.mptcp`, :mod:`cmtlab.sim.topology`);
* :func:`run` — run a :class:`cmtlab.scenario.StripedScenario` (the object shared with
  :mod:`cmtlab.ns3`, so every comparison is "same scenario, two simulators");
* :data:`CODE_VERSION` — short hash of this package's sources and ``scenario.py``; the
  sweep cache keys on it so that a code change invalidates cached results;
* :class:`Simulation` — the engine itself, for plug-ins and tests.

Results are :class:`cmtlab.scenario.TransferResult` objects; traces, when requested,
are tidy pandas DataFrames in ``result.traces`` (see :mod:`cmtlab.sim.traces`).

Plug-in interfaces (each a small class; the engine never branches on a mechanism's name)
----------------------------------------------------------------------------------------
=====================================================  ==========================================
interface                                              implemented now / later
=====================================================  ==========================================
:class:`~cmtlab.sim.link.LinkModel` (``transmit``)      :class:`PointToPointLink`, :class:`IdealPath`
                                                       / trace-driven rate and delay
:class:`~cmtlab.sim.scheduler.Scheduler` (``select``)   :class:`RoundRobinScheduler`,
                                                       :class:`FixedScheduler` / min-RTT,
                                                       CWND-aware, OSIA (Wang et al.)
:class:`~cmtlab.sim.congestion.CongestionControl`       :class:`NewReno` / LIA (RFC 6356), OLIA,
                                                       fully coupled, RTT compensation (Arabi)
:class:`~cmtlab.sim.recovery.RecoveryAlgorithm`         :class:`ClassicRecovery` (RFC 6582),
                                                       :class:`PrrRecovery` (RFC 6937)
:class:`~cmtlab.sim.reordering.ReorderingResponse`      ``none``, ``dsack`` (RFC 3708), ``eifel``
                                                       (RFC 3522/4015), ``frto`` (RFC 5682),
                                                       ``tcp-door``, ``pr-r`` (Alheid)
=====================================================  ==========================================

A subflow (:class:`~cmtlab.sim.tcp.TcpSender`) owns its congestion state; an MPTCP
connection (:mod:`cmtlab.sim.mptcp`, run by :mod:`cmtlab.sim.multipath`) puts several
subflows under one connection with a connection-level scheduler (registry kind
``"scheduler"``), one congestion-control instance per subflow (which may read the other
subflows' windows), and a connection-level reorder buffer at the receiver.

Units: rates in bit/s, times in s, sizes in bytes; sequence numbers are segment indices.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from ..scenario import StripedScenario, TransferResult, striped_scenario


def _code_version() -> str:
    here = Path(__file__).resolve().parent
    files = sorted(here.rglob("*.py")) + [here.parent / "scenario.py", here.parent / "_validate.py"]
    h = hashlib.sha256()
    for f in files:
        h.update(f.name.encode())
        h.update(b"\0")
        h.update(f.read_bytes())
        h.update(b"\0")
    return h.hexdigest()[:12]


#: Short hash of the simulator's sources (this package, ``scenario.py`` and ``_validate.py``).
CODE_VERSION: str = _code_version()

from .congestion import CongestionControl, NewReno  # noqa: E402
from .striped import Simulation  # noqa: E402
from .link import DROPPED_LOSS, DROPPED_QUEUE, IdealPath, LinkModel, PointToPointLink  # noqa: E402
from .recovery import ClassicRecovery, PrrRecovery, RecoveryAlgorithm  # noqa: E402
from .reordering import NoReorderingResponse, ReorderingResponse  # noqa: E402
from .scheduler import FixedScheduler, RoundRobinScheduler, Scheduler  # noqa: E402
from .traces import TRACE_NAMES, ReorderDensity, reorder_density  # noqa: E402
from .multipath import MptcpResult, MptcpScenario, MptcpSimulation, mptcp_scenario, run_mptcp, simulate_mptcp  # noqa: E402,E501
# the built-in mechanisms register themselves when their modules are imported (cmtlab.sim.registry)
from . import models, osia_links, osia_scheduler, wifi  # noqa: E402,F401


def run(scenario: StripedScenario, *, trace=False, reordering="none", reordering_params=None) -> TransferResult:
    """Simulate one :class:`~cmtlab.scenario.StripedScenario` and return its :class:`~cmtlab.scenario.TransferResult`.

    An :class:`~cmtlab.sim.multipath.MptcpScenario` runs the multipath engine
    (:func:`~cmtlab.sim.multipath.run_mptcp`), so :func:`cmtlab.sweep.run_sweep` takes both.

    ``trace``: ``False`` (default: counters only, memory independent of the transfer size),
    ``True`` (all traces) or a set of names from :data:`TRACE_NAMES`
    (``"cwnd"``, ``"packets"``, ``"acks"``, ``"dupacks"``, ``"events"``, ``"reordering"``,
    ``"rate"``).  The run is deterministic for a given scenario (its ``seed`` drives the
    random loss).

    ``reordering`` names the reordering response (:mod:`cmtlab.sim.reordering`: ``"none"``,
    ``"dsack"``, ``"eifel"``, ``"frto"``, ``"tcp-door"``, ``"pr-r"``), built with
    ``reordering_params`` (e.g. ``{"variant": "chihani"}``).
    """
    if isinstance(scenario, MptcpScenario):
        if reordering != "none" or reordering_params:
            raise ValueError("reordering: an MptcpScenario carries its own (scenario.reordering); "
                             "pass reordering= only with a StripedScenario")
        return run_mptcp(scenario, trace=trace)
    from .registry import make
    response = make("reordering", reordering, **(reordering_params or {}))
    return Simulation(scenario, trace=trace, reordering=response).run()


def simulate_striped(bandwidths_bps, delays_s, *, transfer_bytes, segment_bytes=536, initial_window_bytes=536,
                     ssthresh_bytes=65535, m_ack=2, seed=0, **options) -> TransferResult:
    """Simulate one bulk transfer of TCP NewReno striped round-robin over ``n`` links (Song Fig. 5).

    Parameters
    ----------
    bandwidths_bps
        Link rates in bit/s, one per link.
    delays_s
        **Round-trip** propagation delays in s, one per link (as in Song's model and
        :func:`cmtlab.song.throughput`).  When ACKs return over the links
        (``ack_path`` ``"round_robin"``, ``"first"`` or ``"fastest"``) link *i* gets the
        one-way delay ``delays_s[i] / 2`` in each direction; with ``ack_path="ideal"`` the
        ACKs return over a separate zero-delay path and link *i* gets the one-way forward
        delay ``delays_s[i]`` (see :meth:`cmtlab.scenario.StripedScenario.one_way_delays_s`).
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
    sc = striped_scenario(bandwidths_bps, delays_s, transfer_bytes=transfer_bytes, segment_bytes=segment_bytes,
                          initial_window_bytes=initial_window_bytes, ssthresh_bytes=ssthresh_bytes, m_ack=m_ack,
                          seed=seed, **options)
    return run(sc, trace=trace, reordering=reordering, reordering_params=reordering_params)


__all__ = [
    "CODE_VERSION", "run", "simulate_striped", "Simulation", "TRACE_NAMES", "reorder_density", "ReorderDensity",
    "LinkModel", "PointToPointLink", "IdealPath", "DROPPED_QUEUE", "DROPPED_LOSS",
    "Scheduler", "RoundRobinScheduler", "FixedScheduler",
    "CongestionControl", "NewReno", "RecoveryAlgorithm", "ClassicRecovery", "PrrRecovery",
    "ReorderingResponse", "NoReorderingResponse",
    "simulate_mptcp", "run_mptcp", "mptcp_scenario", "MptcpScenario", "MptcpSimulation", "MptcpResult",
]
