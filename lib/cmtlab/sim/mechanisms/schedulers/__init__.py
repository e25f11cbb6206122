"""Schedulers: which path (tunnel) or which subflow (MPTCP connection) carries the next packet.

Two interfaces live here, one per place a scheduler can sit:

* :class:`Scheduler` — *below* TCP, in Song et al.'s round-robin tunnel (Fig. 5): asked once
  per IP packet, :meth:`Scheduler.select` answers with a 0-based path index without seeing
  TCP state; the receiver's tunnel uses a second one for the ACKs
  (``ack_path="round_robin"``).  Implemented: :class:`RoundRobinScheduler` (Song sec. 3 and
  eq. 2: link ``((j - 1 + sum C_k) mod n) + 1`` for the j-th segment of round i, i.e. strict
  rotation over all packets, first packet on link 1) and :class:`FixedScheduler` (a single
  path: ``ack_path="first"`` or ``"fastest"``).
* :class:`ConnectionScheduler` — *above* the subflows of an MPTCP connection (RFC 8684
  sec. 3.3.8 leaves the policy open): asked by the connection whenever it has data-level
  segments (DSNs) to send, :meth:`ConnectionScheduler.select` sees every subflow's state
  and answers with the subflow that carries the next DSN, ``None`` (nothing can be sent
  now: ask again after the next ACK), or :class:`HoldUntil` (ask again at that time — the
  release time OSIA's chunk start offsets need, Wang et al. eq. 1).  Registered by name
  (:mod:`cmtlab.sim.registry`, kind ``"scheduler"``).  Implemented: ``"round_robin"``,
  ``"lowest_rtt"``, ``"cwnd_aware"``, ``"flow_level"``, ``"edpf"`` (below) and ``"osia"``
  (:mod:`cmtlab.papers.osia.scheduler`, a plug-in of :mod:`~cmtlab.sim.mechanisms.schedulers.planned`).

What a connection scheduler may read of the connection (its contract) is stated once, in
:mod:`~cmtlab.sim.mechanisms.schedulers.base`.

One file per scheduler: ``tunnel.py`` (the tunnel's), ``base.py`` (the connection-level
interface), ``round_robin.py``, ``lowest_rtt.py``, ``cwnd_aware.py``, ``flow_level.py``,
``edpf.py``, ``planned.py`` (a scheduler that follows a planner's release plan); today's
heterogeneity-aware ones: ``blest.py`` (Ferlin et al. 2016), ``ecf.py`` (Lim et al. 2017), ``linux.py``
(upstream Linux 6.18's ``mptcp_subflow_get_send``), with ``_paths.py`` (RTT, fastest subflow, window).
"""

from .base import NO_SUBFLOW, USE_SELECT, ConnectionScheduler, HoldUntil, SchedulerView, _has_room  # noqa: F401
from .blest import BlestScheduler
from .cwnd_aware import CwndAwareScheduler
from .ecf import EcfScheduler
from .linux import LinuxScheduler
from .edpf import EdpfScheduler
from .flow_level import FlowLevelScheduler
from .lowest_rtt import LowestRttScheduler
from .round_robin import RoundRobinConnectionScheduler
from .tunnel import FixedScheduler, RoundRobinScheduler, Scheduler

__all__ = ["BlestScheduler", "EcfScheduler", "LinuxScheduler", "Scheduler", "RoundRobinScheduler", "FixedScheduler", "HoldUntil", "ConnectionScheduler",
           "SchedulerView", "NO_SUBFLOW", "USE_SELECT",
           "RoundRobinConnectionScheduler", "LowestRttScheduler", "CwndAwareScheduler", "FlowLevelScheduler",
           "EdpfScheduler"]
