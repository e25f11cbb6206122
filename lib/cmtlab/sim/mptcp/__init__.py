"""MPTCP (RFC 8684): a connection with its subflows, data-sequence map, scheduler and reorder buffer.

* :mod:`~cmtlab.sim.mptcp.connection` — :class:`MptcpConnection`: the sender's DSN counter and map,
  the connection-level scheduler, the receiver's out-of-order buffer (Alheid et al. Fig. 1);
* :mod:`~cmtlab.sim.mptcp.subflow` — :class:`MptcpSubflow`: a TCP sender whose data source is the
  connection;
* :mod:`~cmtlab.sim.mptcp.reinjection` — re-injection of retransmitted data on another subflow.

The topology and the run are :mod:`cmtlab.sim.multipath`'s.
"""

from .connection import DUPACK_MODES, RETRANSMIT_POLICIES, UNBOUNDED_SEGS, MptcpConnection
from .reinjection import reinject
from .subflow import MptcpSubflow

__all__ = ["MptcpConnection", "MptcpSubflow", "reinject", "DUPACK_MODES", "RETRANSMIT_POLICIES", "UNBOUNDED_SEGS"]
