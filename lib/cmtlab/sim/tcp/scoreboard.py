"""The sender's scoreboard: per-segment SACKED/LOST/RETRANS flags, RFC 6675 ``pipe``, ``IsLost`` and ``NextSeg``.

As ns-3.44's ``TcpTxBuffer``; a class of :class:`~cmtlab.sim.tcp.sender.TcpSender`'s chain
(see :mod:`~cmtlab.sim.tcp.base`; it reads and writes the sender's scoreboard attributes:
``una``, ``high``, ``flags`` — a ring of ``mask + 1`` entries indexed by ``segment & mask`` —,
``sacked_out``, ``lost_out``, ``retrans_out``, ``lost_pending``, ``highest_sack``,
``lost_cursor``, ``lost_marked_upto``).

* ``pipe = sent - sacked - lost + retransmitted`` (RFC 6675 ``SetPipe`` as ns-3 counts it);
* ``NextSeg`` (RFC 6675): first the lowest segment marked lost, not yet retransmitted and
  below the highest SACKed segment (rule 1.b; without any SACK information every lost
  segment qualifies), then new data, then (SACK recovery only) an un-SACKed segment below
  the highest SACK (rule 3); "highest SACKed" follows ns-3's bookkeeping, which lets a
  newly SACKed segment just below it take its place;
* without SACK each duplicate ACK during recovery marks one more segment as SACKed
  ("Reno SACK", ns-3's ``AddRenoSack``).
"""

from __future__ import annotations

from .flags import HIST_RETX, LOST, RETRANS, SACKED
from .rto import RttEstimator


class Scoreboard(RttEstimator):
    """Scoreboard operations of a :class:`~cmtlab.sim.tcp.sender.TcpSender` (see the module docstring)."""

    __slots__ = ()

    def in_flight(self) -> int:
        """RFC 6675 ``pipe`` in bytes: sent - SACKed - lost + retransmitted (ns-3 ``BytesInFlight``).

        Counted per segment; the transfer's last segment counts with its real (short)
        length once it has been sent.
        """
        p = (self.high - self.una - self.sacked_out - self.lost_out + self.retrans_out) * self.seg
        if self.short and self.high == self.n_segs and self.una < self.high:
            f = self.flags[(self.n_segs - 1) & self.mask]
            p -= self.short * (1 - (f & SACKED) - ((f & LOST) >> 1) + ((f & RETRANS) >> 2))
        return p

    def available_window(self) -> int:
        """Bytes the window allows beyond the data in flight: ``min(cwnd, rwnd) - pipe``."""
        cwnd = self.cwnd
        rwnd = self.rwnd
        if self.short and self.high == self.n_segs and self.una < self.high:
            return (cwnd if cwnd < rwnd else rwnd) - self.in_flight()
        # in_flight() inlined (schedulers call this for every subflow on every decision)
        return ((cwnd if cwnd < rwnd else rwnd)
                - (self.high - self.una - self.sacked_out - self.lost_out + self.retrans_out) * self.seg)

    def _next_seg(self, rule3: bool) -> int:
        """RFC 6675 ``NextSeg`` as ns-3's ``TcpTxBuffer::NextSeg``; -1 when nothing may be sent."""
        flags = self.flags
        mask = self.mask
        if self.lost_pending:
            k = self.lost_cursor if self.lost_cursor > self.una else self.una
            high = self.high
            if 0 <= self.highest_sack < high:
                # RFC 6675 rule (1.b), as ns-3.44 applies it: a lost segment is retransmitted
                # only below the highest SACKed segment (when something is SACKed)
                high = self.highest_sack
            while k < high:
                if flags[k & mask] & (LOST | RETRANS | SACKED) == LOST:
                    self.lost_cursor = k
                    return k
                k += 1
            self.lost_cursor = high
        # rule 2: new data the application has written, if the receiver's window allows
        high = self.high
        if high < self.app_tail:
            sent = (high - self.una) * self.seg
            if sent + (self.last_len if high == self.n_segs - 1 else self.seg) <= self.rwnd:
                return high
            return -1  # ns-3: unsent data but no receive window -> nothing (no rule 3)
        if rule3:
            # rule (3): an un-SACKed, not retransmitted segment below the highest SACK (1.b)
            for k in range(self.una, self.highest_sack):
                if not flags[k & mask] & (RETRANS | SACKED):
                    return k
        return -1

    def check_scoreboard(self) -> None:
        """Recount the scoreboard from the per-segment flags; ``AssertionError`` on any mismatch.

        A debugging and testing aid (O(window)); the hot path keeps the counters incrementally.
        """
        flags = [self.flags[k & self.mask] for k in range(self.una, self.high)]
        sacked = sum(1 for f in flags if f & SACKED)
        lost = sum(1 for f in flags if f & LOST)
        retrans = sum(1 for f in flags if f & RETRANS)
        pending = sum(1 for f in flags if f & (LOST | RETRANS | SACKED) == LOST)
        assert not any(f & SACKED and f & LOST for f in flags), "a segment is both SACKed and lost"
        assert (sacked, lost, retrans, pending) == (self.sacked_out, self.lost_out, self.retrans_out,
                                                    self.lost_pending), \
            f"counters {(self.sacked_out, self.lost_out, self.retrans_out, self.lost_pending)} " \
            f"!= recount {(sacked, lost, retrans, pending)}"
        assert 0 <= self.una <= self.high <= self.n_segs
        assert self.high - self.una <= self.max_out + 1
        assert self.in_flight() >= 0

    def _discard_up_to(self, ack: int) -> int:
        """ns-3 ``DiscardUpTo``: drop segments below ``ack``; return segments newly delivered."""
        una = self.una
        n = ack - una
        if self.sacked_out or self.lost_out or self.retrans_out:
            flags = self.flags
            mask = self.mask
            delivered = 0
            sack = self.sack
            for k in range(una, ack):
                i = k & mask
                f = flags[i]
                if f & SACKED:
                    self.sacked_out -= 1
                    if not sack:
                        delivered += 1
                        if k == self.n_segs - 1:
                            self._last_delivered = True
                else:
                    delivered += 1
                    if k == self.n_segs - 1:
                        self._last_delivered = True
                if f & RETRANS:
                    self.retrans_out -= 1
                if f & LOST:
                    self.lost_out -= 1
                    if not f & RETRANS:
                        self.lost_pending -= 1
                flags[i] = 0
            self.una = ack
            if ack < self.high and flags[ack & mask] & SACKED:
                # the head cannot be SACKed: a wrong Reno-SACK guess moves on (ns-3)
                flags[ack & mask] &= ~SACKED
                self.sacked_out -= 1
                self._add_reno_sack()
                self._mark_head_lost()
            if self.highest_sack <= ack:
                self.highest_sack = -1
        else:
            delivered = n
            self.una = ack
            if ack == self.n_segs:
                self._last_delivered = True
        return delivered

    def _add_reno_sack(self) -> None:
        """ns-3 ``AddRenoSack``: one duplicate ACK = one more segment (after the head) left the network."""
        flags = self.flags
        mask = self.mask
        high = self.high
        if not self.sack:
            # without SACK the Reno-SACKed segments are always the run just above the head
            k = self.una + 1 + self.sacked_out
        else:
            k = self.una + 1
            while k < high and flags[k & mask] & SACKED:
                k += 1
        if k < high:
            flags[k & mask] |= SACKED
            self.sacked_out += 1
            self.highest_sack = k

    def _mark_head_lost(self) -> None:
        """ns-3 ``MarkHeadAsLost``."""
        if self.una >= self.high:
            return
        i = self.una & self.mask
        f = self.flags[i]
        if f & (LOST | RETRANS) != LOST:
            self.lost_pending += 1
        if f & SACKED:
            f &= ~SACKED
            self.sacked_out -= 1
        if f & RETRANS:
            f &= ~RETRANS
            self.retrans_out -= 1
        if not f & LOST:
            f |= LOST
            self.lost_out += 1
        self.flags[i] = f
        if self.lost_cursor > self.una:
            self.lost_cursor = self.una

    def mark_lost(self, k: int) -> int:
        """Mark outstanding segment ``k`` lost (a time-based loss detection's verdict, e.g. RACK):
        a SACKed or acknowledged segment is left alone; a retransmission in flight is lost again and
        will be retransmitted again (Linux ``tcp_mark_skb_lost``).  Returns 1 when the mark is new."""
        if k < self.una or k >= self.high:
            return 0
        i = k & self.mask
        f = self.flags[i]
        if f & SACKED or f & (LOST | RETRANS) == LOST:
            return 0
        if f & RETRANS:
            self.retrans_out -= 1
        if not f & LOST:
            self.lost_out += 1
        self.lost_pending += 1
        self.flags[i] = (f & ~RETRANS) | LOST
        if self.lost_cursor > k:
            self.lost_cursor = k
        return 1

    def _head_is_lost(self) -> bool:
        """ns-3 ``IsLost(SND.UNA)``: the head is marked lost and something above it is SACKed."""
        return self.una < self.high and self.highest_sack > self.una and bool(self.flags[self.una & self.mask] & LOST)

    def _update_sack(self, blocks) -> int:
        """ns-3 ``TcpTxBuffer::Update``: mark SACKed segments; return how many were newly SACKed."""
        flags = self.flags
        mask = self.mask
        una = self.una
        high = self.high
        newly = 0
        for first, end in blocks:
            if first > high:
                break  # ns-3 stops at the first block beyond what was sent
            if first < una:
                first = una
            if end > high:
                end = high
            for k in range(first, end):
                i = k & mask
                f = flags[i]
                if not f & SACKED:
                    if f & LOST:
                        self.lost_out -= 1
                        if not f & RETRANS:
                            self.lost_pending -= 1
                    flags[i] = (f & ~LOST) | SACKED
                    self.sacked_out += 1
                    newly += 1
                    if not f & HIST_RETX and k > self._sack_newest:
                        self._sack_newest = k  # Linux's last_sackt (tcp_sacktag_one): an original transmission
                    if k == self.n_segs - 1:
                        self._last_delivered = True
                    # ns-3 TcpTxBuffer::Update keeps "highest SACKed" as the newly SACKed segment
                    # whose end reaches the current one's start (<=), so a segment just below it
                    # takes its place; UpdateLostCount and IsLost start from there
                    hs = self.highest_sack
                    if hs < 0 or hs <= k + 1:
                        self.highest_sack = k
        if newly:
            self.loss_detection.on_sacked(self, newly)  # e.g. RFC 6675 IsLost (the duplicate-ACK rules)
        return newly

    def _update_lost_count(self) -> None:
        """ns-3 ``UpdateLostCount`` (RFC 6675 ``IsLost``): a segment with ``dupthresh``
        SACKed segments above it is lost; so is the head once ``dupthresh`` are SACKed."""
        flags = self.flags
        mask = self.mask
        una = self.una
        thresh = self.dupthresh
        count = 0
        k = self.highest_sack
        # find the dupthresh-th SACKed segment from the top (never the head)
        while k > una:
            if flags[k & mask] & SACKED:
                count += 1
                if count >= thresh:
                    break
            k -= 1
        if count < thresh:
            return
        # every un-SACKed segment at or below k (above the head) is lost
        lo = self.lost_marked_upto if self.lost_marked_upto > una + 1 else una + 1
        marked = self._mark_lost(lo, k + 1)
        if k + 1 > self.lost_marked_upto:
            self.lost_marked_upto = k + 1
        i = una & mask
        if not flags[i] & LOST:
            if not flags[i] & RETRANS:
                self.lost_pending += 1
            flags[i] |= LOST
            self.lost_out += 1
            marked = True
        if marked and self.lost_cursor > una:
            self.lost_cursor = una

    def _mark_lost(self, lo: int, hi: int) -> bool:
        """Mark every segment of ``[lo, hi)`` that is neither SACKed nor already lost as lost
        (``lost_out``; ``lost_pending`` unless it was retransmitted).  Returns whether any was."""
        flags = self.flags
        mask = self.mask
        marked = False
        for j in range(lo, hi):
            i = j & mask
            f = flags[i]
            if not f & (SACKED | LOST):
                flags[i] = f | LOST
                self.lost_out += 1
                if not f & RETRANS:
                    self.lost_pending += 1
                marked = True
        return marked

    def _mark_all_lost(self) -> None:
        """ns-3 ``SetSentListLost``: every outstanding segment not SACKed is lost, none in flight."""
        flags = self.flags
        mask = self.mask
        una, high = self.una, self.high
        # SetSentListLost: every outstanding segment not SACKed is lost, no retransmission in flight
        if not self.sack:
            for k in range(una, high):
                flags[k & mask] = LOST | (flags[k & mask] & HIST_RETX)
            self.sacked_out = 0
            self.lost_out = high - una
            self.highest_sack = -1
        else:
            lost = 0
            for k in range(una, high):
                i = k & mask
                f = flags[i] & ~RETRANS
                if not f & SACKED:
                    f |= LOST
                if f & LOST:
                    lost += 1
                flags[i] = f
            self.lost_out = lost
        self.retrans_out = 0
        self.lost_pending = self.lost_out
        self.lost_cursor = una
        self.lost_marked_upto = high
        self.recover = high
        self.recover_active = True

    def _clear_lost_marks(self) -> None:
        flags = self.flags
        mask = self.mask
        if self.lost_out:
            for k in range(self.una, self.high):
                i = k & mask
                f = flags[i]
                if f & LOST:
                    flags[i] = f & ~LOST
                    self.lost_out -= 1
                    if not f & RETRANS:
                        self.lost_pending -= 1


__all__ = ["Scoreboard"]
