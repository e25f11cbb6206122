"""The sender's public API for reordering responses: snapshot, undo, F-RTO's recovery helpers.

A response reads the sender's public attributes and changes it only through these methods:
:meth:`~UndoApi.snapshot_congestion_state` (an immutable
:class:`~cmtlab.sim.tcp.state.CongestionState`), :meth:`~UndoApi.restore_congestion_state`
(with an :class:`~cmtlab.sim.tcp.decisions.UndoMode`), :meth:`~UndoApi.conventional_rto_recovery`
and :meth:`~UndoApi.send_new_data` (RFC 5682), :meth:`~UndoApi.timestamp_now` (RFC 7323).
"""

from __future__ import annotations

from .decisions import UndoMode
from .flags import RETRANS, SACKED
from .scoreboard import Scoreboard
from .state import LOSS, OPEN, RECOVERY, CongestionState


class UndoApi(Scoreboard):
    """Snapshot/undo methods of a :class:`~cmtlab.sim.tcp.sender.TcpSender` (see the module docstring)."""

    __slots__ = ()

    def timestamp_now(self, now: int) -> int:
        """The TSval (ms) a segment sent at ``now`` carries (RFC 7323; ns-3's millisecond clock)."""
        return (now + self.ts_offset_ns) // 1_000_000

    def snapshot_congestion_state(self, now: int = 0) -> "CongestionState":
        """An immutable record of the congestion state (to be restored by a reordering response)."""
        return CongestionState(cwnd=self.cwnd, ssthresh=self.ssthresh, state=self.state, recover=self.recover,
                               recover_active=self.recover_active, una=self.una, high=self.high,
                               flight_bytes=self.in_flight(), srtt=self.srtt, rttvar=self.rttvar, rto=self.rto,
                               time_ns=now)

    def restore_congestion_state(self, record: "CongestionState", now: int, how: UndoMode = UndoMode.UNDO,
                                 ack: int | None = None) -> None:
        """Undo a window reduction that a reordering response found spurious.

        ``how`` (a :class:`~cmtlab.sim.tcp.decisions.UndoMode`):

        * ``UNDO`` — ``cwnd = max(cwnd, saved cwnd)``, ``ssthresh = max(ssthresh, saved
          ssthresh)`` (never lowers either; Linux's ``tcp_undo_cwnd_reduction``, the usual
          response to RFC 3708 detection);
        * ``EXACT`` — the saved ``cwnd`` and ``ssthresh`` as they were;
        * ``SLOW_START`` — ``ssthresh = saved cwnd``, ``cwnd`` unchanged: slow start back to
          the saved window (the Chihani–Collange model's "DSACK slow start");
        * ``RFC4015`` — RFC 4015 sec. 3.2 step (DW): ``ssthresh = pipe_prev =
          max(saved FlightSize, saved ssthresh)`` and ``cwnd = FlightSize + min(bytes_acked,
          IW)`` for the cumulative ACK ``ack`` about to be processed (call it from
          ``on_ack``): FlightSize is what stays outstanding above ``ack``.

        Called from :meth:`ReorderingResponse.on_ack`, the ACK is then processed in the
        restored state (a partial ACK no longer retransmits; the window grows as usual).

        Any fast recovery or timeout recovery under way ends (state Open), segments marked
        lost that were not retransmitted are no longer lost (so nothing more is resent: RFC
        4015 sec. 3.2 step 5, "resume transmission with previously unsent data").
        """
        if not isinstance(how, UndoMode):
            raise ValueError(f"how must be an UndoMode, one of {[m.name for m in UndoMode]}, got {how!r}")
        if self.state == RECOVERY:
            self.recovery.exit(self)
        if self.state != OPEN:
            self.state = OPEN
            self.first_partial_ack = True
        self.recover_active = False
        self.dupacks = 0
        self._clear_lost_marks()
        if how is UndoMode.UNDO:
            if record.cwnd > self.cwnd:
                self.cwnd = record.cwnd
            if record.ssthresh > self.ssthresh:
                self.ssthresh = record.ssthresh
        elif how is UndoMode.EXACT:
            self.cwnd = record.cwnd
            self.ssthresh = record.ssthresh
        elif how is UndoMode.SLOW_START:
            self.ssthresh = record.cwnd
        else:  # rfc4015
            self.ssthresh = max(record.flight_bytes, record.ssthresh)
            if ack is None or ack < self.una:
                ack = self.una
            seg = self.seg
            flags = self.flags
            mask = self.mask
            flight = 0  # RFC 6675 pipe of the segments above ack (lost marks are cleared by now)
            for k in range(ack, self.high):
                f = flags[k & mask]
                flight += (0 if f & SACKED else 1) + (1 if f & RETRANS else 0)
            acked = (ack - self.una) * seg
            iw = self.initial_cwnd
            self.cwnd = flight * seg + (acked if acked < iw else iw)
        self.spurious_undos += 1
        if self.trace is not None:
            self.trace.event(now, "undo", self.una, self)
            self.trace.cwnd(now, self.cwnd, self.ssthresh, self.state)

    def conventional_rto_recovery(self, now: int) -> None:
        """Go back to the conventional timeout recovery after a ``DEFER`` (RFC 5682 sec. 2.1
        steps 2a/3a): every outstanding segment not SACKed is lost and is resent in slow start
        (the sending happens at the end of the current ACK's processing).  Segments already
        retransmitted since the timeout stay in flight."""
        if not self.sack:  # the Reno-SACK guesses are forgotten, as on a timeout
            flags = self.flags
            mask = self.mask
            for k in range(self.una, self.high):
                flags[k & mask] &= ~SACKED
            self.sacked_out = 0
            self.highest_sack = -1
        self._mark_lost(self.una, self.high)
        self.lost_cursor = self.una
        self.lost_marked_upto = self.high
        if self.cwnd > 3 * self.seg:
            self.cwnd = 3 * self.seg  # RFC 5682 step 3a: "no more than 3 * MSS"
        if self.trace is not None:
            self.trace.event(now, "conventional_rto_recovery", self.una, self)

    def fast_retransmit_now(self, now: int) -> bool:
        """Fast-retransmit the first unacknowledged segment now, as if the duplicate-ACK threshold
        had been reached (the reordering response decides and the recovery algorithm reduces,
        as usual): for a response that counts duplicates itself across subflows (the
        Chihani–Collange D_SACK, ``DupDSACK``).  Nothing happens — ``False`` — after a timeout
        (state Loss), with nothing outstanding, or when the recovery algorithm refuses a fast
        retransmit of this segment."""
        if self.state == LOSS or self.una >= self.high or not self.recovery.allows_fast_retransmit(self):
            return False
        self._enter_recovery(now, 0)
        return True

    def send_new_data(self, now: int, max_segments: int) -> int:
        """Send up to ``max_segments`` never-sent segments whatever the congestion window
        (the receive window and the application's data still limit it; RFC 5682 sec. 2.1
        step 2b).  Returns how many were sent."""
        sent = 0
        seg = self.seg
        while sent < max_segments:
            self._app_fill()
            k = self.high
            if k >= self.app_tail:
                break
            if (k - self.una) * seg + (self.last_len if k == self.n_segs - 1 else seg) > self.rwnd:
                break
            self._send_segment(now, k)
            sent += 1
        return sent


__all__ = ["UndoApi"]
