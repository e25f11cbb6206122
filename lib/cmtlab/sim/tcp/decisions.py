"""Typed answers of the mechanisms to the sender (the sender never reads a string or a flag).

ns-3's congestion and recovery operations act on the socket's state record; here, a
mechanism that changes *what the sender does* at a decision point answers with one of these
enumerations, and keeps whatever state it needs itself.
"""

from __future__ import annotations

import enum


class FastRetransmitDecision(enum.Enum):
    """What the sender does when the duplicate-ACK threshold is reached
    (:meth:`~cmtlab.sim.mechanisms.reordering.ReorderingResponse.on_fast_retransmit`)."""

    #: Fast retransmit and the standard reduction: ``ssthresh`` from the congestion control,
    #: then the recovery algorithm sets ``cwnd`` (RFC 5681 / 6582 / 6937).
    REDUCE = "reduce"
    #: Fast retransmit and recovery, but the window is kept: ``ssthresh = cwnd`` (which ends a
    #: slow start; a mechanism that wants the old ``ssthresh`` back afterwards restores it in
    #: ``on_recovery_exit``), and the recovery algorithm is told not to reduce ``cwnd``.
    KEEP_WINDOW = "keep_window"
    #: No fast retransmit at all: the duplicate ACKs are left to the retransmission timer.
    IGNORE = "ignore"


class TimeoutDecision(enum.Enum):
    """What the sender does when the retransmission timer expires
    (:meth:`~cmtlab.sim.mechanisms.reordering.ReorderingResponse.on_timeout`)."""

    #: RFC 6298 / 5681: every outstanding segment lost, ``ssthresh`` reduced, ``cwnd = 1 SMSS``,
    #: Loss state, timer backed off, go-back-N.
    STANDARD = "standard"
    #: The congestion reaction of STANDARD, but only the first unacknowledged segment is
    #: retransmitted; the go-back-N waits until the mechanism calls
    #: ``sub.conventional_rto_recovery`` (F-RTO, RFC 5682 sec. 2.1 step 1).
    DEFER = "defer"
    #: Retransmit the first unacknowledged segment and back off the timer; the congestion state
    #: is left alone (TCP-DOOR's "congestion control disabled").
    VETO = "veto"


class UndoMode(enum.Enum):
    """How ``sub.restore_congestion_state`` puts a saved window back (a spurious reduction undone)."""

    #: ``cwnd = max(cwnd, saved cwnd)``, ``ssthresh = max(ssthresh, saved ssthresh)`` (Linux's
    #: ``tcp_undo_cwnd_reduction``, the usual response to RFC 3708 detection).
    UNDO = "undo"
    #: The saved ``cwnd`` and ``ssthresh`` exactly.
    EXACT = "exact"
    #: ``ssthresh = saved cwnd``, ``cwnd`` unchanged: slow start back to the saved window.
    SLOW_START = "slow_start"
    #: RFC 4015 sec. 3.2 step (DW): ``ssthresh = max(saved FlightSize, saved ssthresh)``,
    #: ``cwnd = FlightSize + min(bytes_acked, IW)`` for the ACK about to be processed.
    RFC4015 = "rfc4015"


class AckDecision(enum.IntEnum):
    """What a reordering response that sees every ACK (``on_ack``) tells the sender to do with it."""

    #: Process it (what ``None`` also means).
    PROCESS = 0
    #: Drop it unprocessed (the Chihani–Collange model's F_RTO emulates lost ACKs this way).
    DISCARD = 1


class OutOfOrderAck(enum.IntEnum):
    """What a subflow receiver sends when its segment went into the MPTCP connection's
    out-of-order buffer (the connection's duplicate-ACK semantics, ``dupack_mode``)."""

    #: The usual ACK of the subflow sequence (RFC 8684, ``dupack_mode="rfc"``).
    ACK = 0
    #: No ACK until the data-level gap closes (the Chihani–Collange code, ``"chihani"``).
    WITHHOLD = 1
    #: At once, a duplicate of the last ACK sent (Alheid Fig. 1, ``"paper"``).
    DUPLICATE = 2


class ProbeKind(enum.Enum):
    """What a Tail Loss Probe sends (RFC 8985 sec. 7.3)."""

    #: One new, never-sent segment (when the receive window and the data allow).
    NEW_DATA = "new_data"
    #: A retransmission of the highest-sequence segment sent so far.
    RETRANSMIT_LAST = "retransmit_last"


class LossDecision(enum.Enum):
    """What a loss detection (:class:`~cmtlab.sim.mechanisms.recovery.loss_detection.LossDetection`) tells the
    sender after an ACK, a duplicate ACK or one of its timers; the segments it deems lost are already marked
    on the scoreboard (``sub.mark_lost``)."""

    #: Nothing newly lost.
    NO_LOSS = "no_loss"
    #: Enter fast recovery if not in recovery: after an ACK or a timer, segments were marked lost (RFC 8985
    #: sec. 6.2 step 5 / 6.3, Linux's ``tcp_time_to_recover``: ``lost_out > 0``); after a duplicate ACK, the
    #: duplicate-ACK threshold or RFC 6675 ``IsLost`` says so (``on_dupack``).  In recovery the sender's
    #: ``NextSeg`` retransmits the marked segments.
    LOSS = "loss"
    #: A tail loss probe repaired a loss (RFC 8985 sec. 7.4.2): reduce the window once (``ssthresh``
    #: from the congestion control, ``cwnd = min(cwnd, ssthresh)``, as Linux's ``tcp_process_tlp_ack``).
    TLP_LOSS = "tlp_loss"


class TimeoutMarking(enum.Enum):
    """How the sender resends after a retransmission timeout, as its loss detection marked the outstanding
    segments (:meth:`~cmtlab.sim.mechanisms.recovery.loss_detection.LossDetection.mark_on_timeout`)."""

    #: Go-back-N: the marked segments go out as the window allows (RFC 5681 sec. 3.1, ns-3).
    GO_BACK_N = "go_back_n"
    #: The first unacknowledged segment at once, whatever the window, then what the window allows
    #: (Linux ``tcp_retransmit_timer``, which also restarts the timer).
    HEAD_AT_ONCE = "head_at_once"


__all__ = ["FastRetransmitDecision", "TimeoutDecision", "UndoMode", "OutOfOrderAck", "ProbeKind", "LossDecision",
           "TimeoutMarking"]
