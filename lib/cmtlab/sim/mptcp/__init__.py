"""MPTCP (RFC 8684): a connection with its subflows, data-sequence map, scheduler and reorder buffer.

* :mod:`~cmtlab.sim.mptcp.scenario` — :class:`MptcpScenario`, :func:`mptcp_scenario`: one MPTCP transfer as
  data (what a sweep varies and caches), validated;
* :mod:`~cmtlab.sim.mptcp.result` — :class:`MptcpResult`: a run's counters, one row per subflow, traces;
* :mod:`~cmtlab.sim.mptcp.connection` — :class:`MptcpConnection`: the sender's DSN counter and map,
  the connection-level scheduler, the receiver's out-of-order buffer (Alheid et al. Fig. 1);
* :mod:`~cmtlab.sim.mptcp.out_of_order` — what a subflow receiver answers for a segment ahead of the
  data sequence (a scenario's ``dupack_mode``; the model's receivers are :mod:`cmtlab.sim.models.chihani`'s);
* :mod:`~cmtlab.sim.mptcp.subflow` — :class:`MptcpSubflow`: a TCP sender whose data source is the
  connection;
* :mod:`~cmtlab.sim.mptcp.ack_arrival` — an ACK's arrival at the connection and a timer's wake-up (the
  connection's clock, then its pump);
* :mod:`~cmtlab.sim.mptcp.reinjection` — re-injection of retransmitted data on another subflow.

The topology and the run are :mod:`cmtlab.sim.multipath`'s.
"""

from .connection import RETRANSMIT_POLICIES, UNBOUNDED_SEGS, MptcpConnection
from .out_of_order import OutOfOrderPolicy
from .reinjection import reinject
from .result import MptcpResult
from .scenario import MptcpScenario, mptcp_scenario
from .subflow import MptcpSubflow

__all__ = ["MptcpConnection", "MptcpSubflow", "MptcpScenario", "mptcp_scenario", "MptcpResult", "OutOfOrderPolicy",
           "reinject", "RETRANSMIT_POLICIES", "UNBOUNDED_SEGS"]
