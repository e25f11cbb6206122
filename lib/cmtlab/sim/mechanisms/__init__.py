"""The mechanisms the book compares, one small class per file, behind one interface per kind.

==================  ==============================================  ===========================================
package             interface                                       called by the sender / connection
==================  ==============================================  ===========================================
``congestion/``     :class:`~.congestion.CongestionControl`         window growth per ACK, ssthresh on loss
``recovery/``       :class:`~.recovery.RecoveryAlgorithm`           cwnd during fast recovery
``reordering/``     :class:`~.reordering.ReorderingResponse`        duplicate ACKs, timeouts, D-SACKs; typed
                                                                    decisions (:mod:`cmtlab.sim.tcp.decisions`)
``schedulers/``     :class:`~.schedulers.ConnectionScheduler`,      which subflow (MPTCP) or path (the
                    :class:`~.schedulers.Scheduler`                 striped tunnel) carries the next segment
==================  ==============================================  ===========================================

Each class registers under a name (:mod:`cmtlab.sim.registry`); a scenario names it.  The papers'
model's versions live in :mod:`cmtlab.sim.models`.
"""

from . import congestion, recovery, reordering, schedulers  # noqa: F401  (register the built-ins)
