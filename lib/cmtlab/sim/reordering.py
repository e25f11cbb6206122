"""Reordering responses: what a sender does when duplicate ACKs may be reordering, not loss.

Interface
---------
A :class:`ReorderingResponse` is consulted by the sender at the few points where the
reordering literature changes TCP:

* :meth:`~ReorderingResponse.on_fast_retransmit` — the duplicate-ACK threshold was
  reached and the sender retransmits; return ``False`` to retransmit *without* reducing
  the window.  This is the whole of PR-R (Alheid et al., sec. III, Algorithm 1: "trigger
  the fast retransmission and recovery without reducing the size of CWND but rather
  maintaining it"; the RTO reaction is unchanged).
* :meth:`~ReorderingResponse.on_dsack` — the receiver reported a duplicate segment
  (RFC 2883 D-SACK).  D-SACK based undo (RFC 3708; Linux's response, Alheid sec. II.B,
  Arabi sec. 3.6) restores the window saved at the fast retransmit when every
  retransmission of the episode is reported as a duplicate.
* :meth:`~ReorderingResponse.on_ack` — every ACK, only when ``wants_every_ack`` is
  true (kept off by default because it sits on the hot path).  TCP-DOOR (Wang & Zhang)
  watches the ACK sequence for out-of-order ACKs and then disables congestion control for
  a while; the Eifel detection algorithm (RFC 3522, Arabi sec. 3.8) compares the echoed
  timestamp with the retransmission's to detect a spurious retransmission.
* :meth:`~ReorderingResponse.on_timeout` — a retransmission timeout fired.  F-RTO
  (RFC 5682, Arabi sec. 3.7) sends new data after the timeout and watches the next two
  ACKs before deciding the timeout was genuine.

Implemented: :class:`NoReorderingResponse` (plain NewReno: every third duplicate ACK is a
loss — the ``NoPR`` baseline of Alheid et al.).
"""

from __future__ import annotations

from .registry import register


class ReorderingResponse:
    """Hooks a reordering-tolerant sender overrides (see the module docstring)."""

    name: str = "abstract"
    #: Call :meth:`on_ack` for every ACK (costs time on the hot path).
    wants_every_ack: bool = False
    #: The receiver must report duplicate segments with D-SACK blocks (RFC 2883; needs SACK).
    #: ns-3.44 never sends D-SACK, so the default keeps the ACKs byte-identical to ns-3's.
    wants_dsack: bool = False

    def on_fast_retransmit(self, sub, now: float) -> bool:
        """The fast-retransmit threshold was reached. ``True``: reduce the window as usual."""
        return True

    def on_dsack(self, sub, block: tuple[int, int], now: float) -> None:
        """A D-SACK block ``(first, end)`` (segment indices, end exclusive) arrived."""

    def on_ack(self, sub, ack: int, now: float) -> None:
        """Every ACK (only when ``wants_every_ack``); ``ack`` is the cumulative ACK (segments)."""

    def on_timeout(self, sub, now: float) -> None:
        """A retransmission timeout fired (after the sender's standard reaction)."""


@register("reordering", "none")
class NoReorderingResponse(ReorderingResponse):
    """No reordering response: duplicate ACKs are taken as loss (RFC 5681/6582 NewReno)."""

    name = "none"
