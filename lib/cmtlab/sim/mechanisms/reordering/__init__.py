"""Reordering responses: what a sender does when duplicate ACKs may be reordering, not loss.

One small class per idea, registered by name (``registry.make("reordering", name,
**params)``), one instance per :class:`~cmtlab.sim.tcp.TcpSender` — a single TCP
connection and every MPTCP subflow alike.  The hooks, and the sender's public
snapshot/undo API the responses use, are described in :mod:`cmtlab.sim.mechanisms.reordering.base`.

==============  ================================================================================  ==================================================
name            class (file)                                                                      defined by
==============  ================================================================================  ==================================================
``"none"``      :class:`NoReorderingResponse` (base.py)                                           NewReno, RFC 5681/6582 (Alheid's NoPR)
``"dsack"``     :class:`DsackUndo` (dsack.py)                                                     RFC 2883 reports, RFC 3708 detection, undo
``"eifel"``     :class:`Eifel` (eifel.py)                                                         RFC 3522 detection, RFC 4015 response
``"frto"``      :class:`Frto` (frto.py)                                                           RFC 5682 sec. 2.1
``"tcp-door"``  :class:`TcpDoor` (tcp_door.py)                                                    Wang & Zhang, MobiHoc 2002 (T1, T2 = 1 SRTT)
``"pr-r"``      :class:`PacketReorderingResponse` (pr_r.py) Alheid et al., ICT 2016, Algorithm 1
==============  ================================================================================  ==================================================

Model preset
------------
The papers of Alheid et al. and Arabi et al. ran the Chihani–Collange ns-3 MPTCP model,
whose responses differ from the RFCs.  Each response takes one parameter ``variant``: its
default follows the RFC or the paper (``"rfc"``, or ``"paper"`` for TCP-DOOR and PR-R);
``variant="chihani"`` reproduces the model:

* ``dsack``: the first D-SACK of a retransmitted segment → slow start back to the saved
  window (``ssthresh`` = saved ``cwnd``);
* ``eifel``: checked only on duplicate ACKs; restores the saved ``cwnd``/``ssthresh``;
* ``frto``: duplicate ACKs ignored (no fast retransmit), the spurious verdict unused;
* ``tcp-door``: a no-op that ignores duplicate ACKs.

A scenario names a response as ``reordering="dsack"`` with parameters
``{"variant": "chihani"}``; ``cmtlab.sim.mechanisms.reordering.make(name, **params)`` builds one.
"""

from __future__ import annotations

from ...registry import make as _make
from .base import NoReorderingResponse, ReorderingResponse
from .dsack import DsackUndo
from .eifel import Eifel
from .frto import Frto
from .pr_r import PacketReorderingResponse
from .tcp_door import TcpDoor


def make(name: str, **params) -> ReorderingResponse:
    """A new response registered as ``name`` (``ValueError`` naming the allowed names/values)."""
    return _make("reordering", name, **params)


__all__ = ["ReorderingResponse", "NoReorderingResponse", "DsackUndo", "Eifel", "Frto", "TcpDoor",
           "PacketReorderingResponse", "make"]
