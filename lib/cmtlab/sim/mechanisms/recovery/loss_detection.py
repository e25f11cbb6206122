"""Loss detection: which outstanding segments the sender deems lost, and when.

The hooks of a detection
------------------------
A :class:`LossDetection` is one object per :class:`~cmtlab.sim.tcp.TcpSender`, named by
``TcpOptions.loss_detection`` and built with ``registry.make("loss_detection", name)``.  The sender
calls every hook below at its decision point, whatever the detection, and acts on the typed answers
(:class:`~cmtlab.sim.tcp.decisions.LossDecision`, :class:`~cmtlab.sim.tcp.decisions.TimeoutMarking`);
it never asks which detection it runs.

* :class:`DupAckThreshold` (``"dupack"``, the default) is RFC 5681/6675 as ns-3.44's ``TcpSocketBase``
  has it — fast retransmit on the ``dupack_threshold``-th duplicate ACK, RFC 6675 ``IsLost`` on the
  SACK scoreboard, ``NextSeg`` rule 3, a retransmission on every partial ACK, go-back-N after a
  timeout; its per-ACK hooks do nothing, so every preset keeps its behaviour bit for bit.
* RACK-TLP (:class:`~cmtlab.sim.mechanisms.recovery.rack_tlp.RackTlpDetection`, ``"rack-tlp"``)
  replaces those rules with time: it marks lost segments from each ACK's information and its own
  timers, and answers as Linux's sender does where the RFCs leave room.

  ==================================  ================================================================
  hook                                when, and what the answer means
  ==================================  ================================================================
  ``attach(sub)``                     once, when the sender is built (the detection builds its timers
                                      on ``sub.queue``)
  ``on_ack``                          ``(sub, now, ack, sack, ts_echo)``: every processed ACK, after the
                                      scoreboard took its cumulative ACK and SACK blocks, before the
                                      congestion state machine: marks the segments it deems lost
                                      (``sub.mark_lost(k)``) and answers with a ``LossDecision``
                                      (``LOSS``: enter recovery unless in it; ``TLP_LOSS``: reduce once)
  ``on_dupack(sub, now)``             a duplicate ACK in the Disorder state: ``LOSS`` — enter fast
                                      recovery now (RFC 5681 sec. 3.2 step 2, RFC 6675 sec. 5 step 4)
  ``on_sacked(sub, newly)``           ``newly`` segments were newly SACKed (RFC 6675 ``IsLost``)
  ``after_ack``                       ``(sub, now, una, high)``: after the ACK's sends (``una``/``high``:
                                      ``SND.UNA``/``SND.NXT`` before the ACK): arm or cancel its timers
  ``on_retransmit(sub, k, now)``      segment ``k`` is being retransmitted
  ``on_new_data_sent(sub, now)``      a never-sent segment has just gone out (only for a detection whose
                                      :attr:`~LossDetection.rearms_on_send` is set: Linux re-arms its probe
                                      timer at every transmission, ``tcp_write_xmit``)
  ``retransmits_on_partial_ack``      ``(sub)``: does a partial ACK retransmit the next lost segment at
                                      once (RFC 6582 sec. 3.2 step 5)?
  ``recovery_exit_segments``          ``(sub, ack, old_head, segs_acked)``: the segments the ACK that
                                      ends a fast recovery counts towards the window
  ``on_timeout(sub, now)``            the retransmission timer expired, before the sender reacts
  ``mark_on_timeout(sub, now)``       after a timeout: mark what is lost; answers with a
                                      ``TimeoutMarking`` (resend as the window allows, or the head at once)
  ``timers()``                        its :class:`~cmtlab.sim.engine.timers.LazyTimer` objects (a
                                      topology wraps their handlers, as it wraps the RTO timer's)
  ==================================  ================================================================

  Two answers the sender reads once, when it is built: :attr:`~LossDetection.sees_every_ack` (the
  per-ACK hooks matter: the sender's fast paths, which skip them, are off) and
  :attr:`~LossDetection.next_seg_rule3` (RFC 6675 ``NextSeg`` rule 3 may retransmit a segment not
  marked lost).  The detection's own timers call :meth:`~cmtlab.sim.tcp.TcpSender.act_on_loss` with
  their ``LossDecision``.

A detection that needs D-SACK blocks from the receiver (RFC 2883) sets :attr:`~LossDetection.wants_dsack`.
This class and :class:`DupAckThreshold` are compiled (:mod:`cmtlab.compiled`, ``loss_detection.pxd``):
the duplicate-ACK hooks cost the sender no Python frame; a detection written in Python (RACK-TLP)
overrides them alike.
"""

from __future__ import annotations

from ...registry import register
from ...tcp.decisions import LossDecision, TimeoutMarking


class LossDetection:
    """Which segments are lost (see the module docstring).  The defaults are the duplicate-ACK rules of
    :class:`DupAckThreshold` where the sender needs an answer, and nothing where it only informs."""

    name: str = "abstract"
    #: The per-ACK hooks (:meth:`on_ack`, :meth:`after_ack`) must see every ACK: the sender's fast paths,
    #: which skip them, are off.
    sees_every_ack: bool = False
    #: RFC 6675 ``NextSeg`` rule 3 (an un-SACKed segment below the highest SACK, not marked lost, may be
    #: retransmitted in SACK recovery).  A detection that retransmits only what it marked lost says no.
    next_seg_rule3: bool = True
    #: The receiver must report duplicate segments with D-SACK blocks (RFC 2883; needs SACK).
    wants_dsack: bool = False
    #: :meth:`on_new_data_sent` must see every transmission of new data (else the sender does not call it).
    rearms_on_send: bool = False

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

    def on_ack(self, sub, now: int, ack: int, sack, ts_echo: int):
        """A processed ACK (see the module docstring): a :class:`~cmtlab.sim.tcp.decisions.LossDecision`."""
        return LossDecision.NO_LOSS

    def on_dupack(self, sub, now: int):
        """A duplicate ACK in the Disorder state: :attr:`~cmtlab.sim.tcp.decisions.LossDecision.LOSS` to enter
        fast recovery now, else :attr:`~cmtlab.sim.tcp.decisions.LossDecision.NO_LOSS`."""
        return LossDecision.NO_LOSS

    def on_sacked(self, sub, newly: int) -> None:
        """``newly`` segments were newly SACKed by the current ACK."""

    def after_ack(self, sub, now: int, una: int, high: int) -> None:
        """After the ACK's sends (``una``, ``high``: before the ACK)."""

    def on_retransmit(self, sub, k: int, now: int) -> None:
        """Segment ``k`` is being retransmitted."""

    def on_new_data_sent(self, sub, now: int) -> None:
        """A never-sent segment has just gone out (``sub.high`` counts it); called only when
        :attr:`rearms_on_send` is set."""

    def retransmits_on_partial_ack(self, sub) -> bool:
        """A partial ACK retransmits the next lost segment at once (RFC 6582 sec. 3.2 step 5, ns-3's
        ``DoRetransmit``)."""
        return True

    def recovery_exit_segments(self, sub, ack: int, old_head: int, segs_acked: int) -> int:
        """The segments the ACK that ends a fast recovery counts towards the window: every segment it
        covers, SACKed ones included (ns-3's ``ProcessAck``: ``ack - old_head``); ``segs_acked`` is what it
        newly delivered."""
        return ack - old_head

    def on_timeout(self, sub, now: int) -> None:
        """The retransmission timer expired."""

    def mark_on_timeout(self, sub, now: int):
        """After a timeout: mark the lost segments — every outstanding segment not SACKed (RFC 6298 / ns-3's
        ``SetSentListLost``) — and answer how they are resent: go-back-N as the window allows."""
        sub._mark_all_lost()
        return TimeoutMarking.GO_BACK_N


class DupAckThreshold(LossDetection):
    """RFC 5681 fast retransmit on the ``dupack_threshold``-th duplicate ACK and RFC 6675 ``IsLost``, as
    ns-3.44's ``TcpSocketBase`` (the default; ``"dupack"``)."""

    name = "dupack"

    def on_dupack(self, sub, now: int):
        """ns-3 ``DupAck`` in the Disorder state (RFC 6675 sec. 5 steps 1-3, RFC 3042).

        The ``dupack_threshold``-th duplicate ACK enters recovery when the ACK passed the last recovery
        point (RFC 6582 sec. 3.2 step 1) and the recovery algorithm allows it; with SACK loss detection
        (RFC 6675 step 2) or without SACK, so does a head marked lost — without SACK the scoreboard holds
        ns-3's Reno-SACK guesses, and a head already marked lost (a cumulative ACK uncovered a wrongly
        Reno-SACKed segment) re-enters recovery at the first duplicate ACK, as in ns-3.44.  Without SACK,
        limited transmit (RFC 3042) marks one more segment as received, so one new segment goes out per
        duplicate ACK.  A recovery algorithm without loss marks (the Chihani-Collange model) retransmits
        only at the third duplicate ACK."""
        rec = sub.recovery
        if (sub.dupacks == sub.dupthresh and (sub.high_rx_ack >= sub.recover or not sub.recover_active)
                and rec.allows_fast_retransmit(sub)):
            return LossDecision.LOSS
        if not rec.loss_marks:
            return LossDecision.NO_LOSS
        if (sub.sack_loss_detection or not sub.sack) and sub._head_is_lost():
            return LossDecision.LOSS
        if not sub.sack and sub.limited_transmit:
            sub._add_reno_sack()
        return LossDecision.NO_LOSS

    def on_sacked(self, sub, newly: int) -> None:
        """RFC 6675 ``IsLost`` (ns-3 ``UpdateLostCount``) on the scoreboard the ACK updated."""
        sub._update_lost_count()


register("loss_detection", "dupack")(DupAckThreshold)  # a compiled class (loss_detection.pxd) takes no decorator


def make_loss_detection(name: str) -> LossDetection:
    """The loss detection for ``TcpOptions.loss_detection`` (``"dupack"``, ``"rack-tlp"``, ``"rack-tlp-linux"``, ``"linux"``,
    ``"linux-probe-on-send"``)."""
    from ...registry import make

    return make("loss_detection", name)


__all__ = ["LossDetection", "DupAckThreshold", "make_loss_detection"]
