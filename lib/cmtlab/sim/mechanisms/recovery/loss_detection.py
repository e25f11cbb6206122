"""Loss detection: which outstanding segments the sender deems lost, and when.

The hooks of a detection
------------------------
A :class:`LossDetection` is one object per :class:`~cmtlab.sim.tcp.TcpSender`, named by
``TcpOptions.loss_detection`` and built with ``registry.make("loss_detection", name)``.

* :class:`DupAckThreshold` (``"dupack"``, the default) is the sender's own RFC 5681/6675 rule —
  fast retransmit on the ``dupack_threshold``-th duplicate ACK, RFC 6675 ``IsLost`` on the SACK
  scoreboard, as ns-3.44 does.  The sender never calls it (:attr:`LossDetection.time_based` is
  ``False``): every preset keeps its behaviour bit for bit.
* A time-based detection (:attr:`~LossDetection.time_based` ``True``, e.g. RACK-TLP,
  :class:`~cmtlab.sim.mechanisms.recovery.rack_tlp.RackTlpDetection`) replaces both rules: the
  sender neither counts duplicate ACKs towards a threshold nor applies ``IsLost``; it calls

  ==============================  ==================================================================
  hook                            when, and what the return value means
  ==============================  ==================================================================
  ``attach(sub)``                 once, when the sender is built (the detection builds its timers
                                  on ``sub.queue``)
  ``on_ack``                      ``(sub, now, ack, sack, ts_echo)``: every processed ACK, after the
                                  scoreboard took its cumulative ACK and SACK blocks, before the
                                  congestion state machine: marks the segments it deems lost
                                  (``sub.mark_lost(k)``) and answers with a
                                  :class:`~cmtlab.sim.tcp.decisions.LossDecision`
  ``after_ack``                   ``(sub, now, una, high)``: after the ACK's sends (``una``/``high``:
                                  ``SND.UNA``/``SND.NXT`` before the ACK): arm or cancel its timers
                                  (TLP's probe timer)
  ``on_retransmit(sub, k, now)``  segment ``k`` is being retransmitted
  ``on_timeout(sub, now)``        the retransmission timer expired, before the sender reacts
  ``mark_on_timeout(sub, now)``   after a timeout: mark what is lost (the default marks every
                                  outstanding segment not SACKed, RFC 6298 / ns-3's
                                  ``SetSentListLost``)
  ``timers()``                    its :class:`~cmtlab.sim.engine.timers.LazyTimer` objects (a
                                  topology wraps their handlers, as it wraps the RTO timer's)
  ==============================  ==================================================================

  and acts on the decision (:meth:`~cmtlab.sim.tcp.TcpSender.act_on_loss`): ``LOSS`` enters fast
  recovery when the sender is not in recovery (the recovery algorithm — PRR, NewReno — then paces
  the retransmissions that ``NextSeg`` picks from the lost marks); ``TLP_LOSS`` reduces the window
  once.  The detection's own timers call the same method.

A detection that needs D-SACK blocks from the receiver (RFC 2883) sets :attr:`~LossDetection.wants_dsack`.
"""

from __future__ import annotations

from ...registry import register
from ...tcp.decisions import LossDecision


class LossDetection:
    """Which segments are lost (see the module docstring)."""

    name: str = "abstract"
    #: ``True``: this object marks lost segments and the sender's duplicate-ACK threshold and RFC
    #: 6675 ``IsLost`` are off; ``False``: the sender's own duplicate-ACK rules (no hook is called).
    time_based: bool = False
    #: The receiver must report duplicate segments with D-SACK blocks (RFC 2883; needs SACK).
    wants_dsack: bool = False

    def attach(self, sub) -> None:
        """The sender ``sub`` this instance serves was built (one instance per sender)."""
        other = getattr(self, "_sub", None)
        if other is not None and other is not sub:
            raise ValueError(f"loss detection {self.name!r} is already attached to another sender: make one "
                             f"instance per subflow (registry.make('loss_detection', ...))")
        self._sub = sub

    def timers(self) -> tuple:
        """The timers this detection owns (none by default)."""
        return ()

    def on_ack(self, sub, now: int, ack: int, sack, ts_echo: int) -> LossDecision:
        """A processed ACK (see the module docstring)."""
        return LossDecision.NO_LOSS

    def after_ack(self, sub, now: int, una: int, high: int) -> None:
        """After the ACK's sends (``una``, ``high``: before the ACK)."""

    def on_retransmit(self, sub, k: int, now: int) -> None:
        """Segment ``k`` is being retransmitted."""

    def on_timeout(self, sub, now: int) -> None:
        """The retransmission timer expired."""

    def mark_on_timeout(self, sub, now: int) -> None:
        """After a timeout (time-based detections only): mark the lost segments; by default every outstanding
        segment not SACKed (RFC 6298 go-back-N, as the duplicate-ACK sender does)."""
        sub._mark_all_lost()


@register("loss_detection", "dupack")
class DupAckThreshold(LossDetection):
    """RFC 5681 fast retransmit on the ``dupack_threshold``-th duplicate ACK and RFC 6675 ``IsLost``
    (the sender's built-in rules, as ns-3.44's ``TcpSocketBase``; no hook is called)."""

    name = "dupack"


def make_loss_detection(name: str) -> LossDetection:
    """The loss detection for ``TcpOptions.loss_detection`` (``"dupack"`` or ``"rack-tlp"``)."""
    from ...registry import make

    return make("loss_detection", name)


__all__ = ["LossDetection", "DupAckThreshold", "make_loss_detection"]
