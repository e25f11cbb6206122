"""Loss recovery: the congestion window while a fast retransmit is being repaired.

The recovery interface
----------------------
A :class:`RecoveryAlgorithm` (ns-3's ``TcpRecoveryOps``) is called by the sender

* :meth:`~RecoveryAlgorithm.enter` once, when fast recovery starts (after ``ssthresh``
  has been lowered), with the duplicate-ACK count, the unacknowledged bytes, the bytes
  the triggering ACK delivered and the reordering response's
  :class:`~cmtlab.sim.tcp.decisions.FastRetransmitDecision` (``KEEP_WINDOW``: the window must
  not be reduced);
* :meth:`~RecoveryAlgorithm.on_ack` for every duplicate ACK and every partial ACK that
  acknowledged at least one segment during recovery (``is_dupack`` tells which);
* :meth:`~RecoveryAlgorithm.exit` when a cumulative ACK covers the recovery point (the
  sender has already set ``cwnd = ssthresh``);
* :meth:`~RecoveryAlgorithm.bytes_sent` for every data packet sent during recovery.

It reads and writes the subflow's ``cwnd``/``ssthresh`` (bytes), ``seg`` and
``pipe_snapshot`` — the sender's last computed bytes-in-flight (RFC 6675 ``pipe``, ns-3's
``m_bytesInFlight``) — and ``retrans_data_acked`` (a retransmission was cumulatively
acknowledged by the current ACK).

How many segments the sender may send is always ``cwnd - pipe`` (RFC 6675 sec. 5, step
C), with ``pipe`` computed from the scoreboard; without SACK every duplicate ACK counts as
one SACKed segment (ns-3's "Reno SACK" emulation).  This is why classic NewReno recovery
keeps ``cwnd = ssthresh`` instead of inflating it: the deflation of ``pipe`` by the
duplicate ACKs plays the role of RFC 6582's window inflation.

Implemented: :class:`ClassicRecovery` (RFC 6582 NewReno / ns-3 ``TcpClassicRecovery``)
and :class:`PrrRecovery` (RFC 6937 Proportional Rate Reduction as ns-3.44's
``TcpPrrRecovery``), :class:`LinuxPrrRecovery` (``"linux_prr"``: PRR as Linux's
``tcp_cwnd_reduction`` counts); the Chihani–Collange model's loss response is
:class:`cmtlab.sim.models.chihani.ChihaniRecovery`.

One file per algorithm: ``base.py`` (the interface), ``newreno.py``, ``prr.py``, ``linux_prr.py``.

Loss detection — *which* segments are lost — is a second interface in this package,
:class:`~cmtlab.sim.mechanisms.recovery.loss_detection.LossDetection` (``TcpOptions.loss_detection``):
the duplicate-ACK threshold with RFC 6675 ``IsLost`` (``"dupack"``, the sender's built-in rules) or
RACK-TLP (RFC 8985, ``"rack-tlp"``, and as Linux runs it, ``"rack-tlp-linux"``, ``"linux"``, ``"linux-probe-on-send"``:
:mod:`~cmtlab.sim.mechanisms.recovery.rack_tlp`).
"""

from ...registry import make
from .base import RecoveryAlgorithm
from .loss_detection import DupAckThreshold, LossDetection, make_loss_detection
from .linux_prr import LinuxPrrRecovery
from .newreno import ClassicRecovery
from .prr import PrrRecovery
from .rack_tlp import LinuxLossDetection, LinuxProbeOnSendDetection, LinuxRackTlpDetection, RackTlpDetection


def make_recovery(style: str) -> RecoveryAlgorithm:
    """The recovery algorithm for ``TcpOptions.recovery`` (a registered name: ``"newreno"``,
    ``"prr"``, ``"linux_prr"``, or the Chihani–Collange model's ``"chihani"`` of :mod:`cmtlab.sim.models.chihani`)."""
    return make("recovery", style)


__all__ = ["RecoveryAlgorithm", "ClassicRecovery", "PrrRecovery", "LinuxPrrRecovery", "make_recovery", "LossDetection", "DupAckThreshold",
           "RackTlpDetection", "LinuxRackTlpDetection", "LinuxLossDetection", "LinuxProbeOnSendDetection",
           "make_loss_detection"]
