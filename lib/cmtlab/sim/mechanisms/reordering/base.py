"""The reordering-response interface and the baseline ``"none"`` (NoPR).

A response is one object per :class:`~cmtlab.sim.tcp.TcpSender` (a single TCP connection
or one MPTCP subflow alike), built with ``registry.make("reordering", name, **params)``.
The sender calls it at these moments (see :mod:`cmtlab.sim.mechanisms.reordering` for the list of
responses):

=======================  ==========================================================================
hook (arguments)         when, and what the return value means
=======================  ==========================================================================
``attach``               once, when the sender is built (``sub``)
``on_ack``               every ACK **before** any processing — stale/reordered ones
                         (``ack < sub.una``) included — with the echoed timestamp (ms) and the
                         ``(dsack_block, blocks)`` SACK tuple or ``None``
                         (``sub, ack, ts_echo, sack, now``); only when ``wants_every_ack``
                         (otherwise the sender keeps its fast paths)
``after_ack``            every ACK that was processed (not the stale ones), after the standard
                         processing and before the sender sends (``sub, ack, now``); only when
                         ``wants_every_ack``
``on_dsack``             a D-SACK block ``(first, end)`` (segment indices) arrived (RFC 2883;
                         ``sub, block, now``); the receiver sends them only when ``wants_dsack``
                         (needs SACK)
``on_retransmit``        segment ``k`` is being retransmitted (fast retransmit, partial ACK,
                         timeout, SACK recovery; ``sub, k, now``)
``on_fast_retransmit``   the duplicate-ACK threshold is reached, state still untouched
                         (``sub, now``): a :class:`~cmtlab.sim.tcp.decisions.FastRetransmitDecision` —
                         ``REDUCE`` as usual, ``KEEP_WINDOW`` retransmit but keep ``cwnd``
                         (``ssthresh = cwnd``), ``IGNORE`` no fast retransmit at all
``on_recovery_exit``     the fast recovery ended (``cwnd = ssthresh`` already set, before the
                         recovery algorithm's ``exit``; ``sub, now``): a response that kept state
                         for the episode puts it back (PR-R's kept ``ssthresh``)
``on_timeout``           the retransmission timer expired, state still untouched (``sub, now``): a
                         :class:`~cmtlab.sim.tcp.decisions.TimeoutDecision` — ``STANDARD``,
                         ``DEFER`` (reduce, retransmit only the first segment, go-back-N later
                         through ``sub.conventional_rto_recovery``) or ``VETO`` (retransmit the
                         first segment, back off the timer, keep the window)
=======================  ==========================================================================

State is read through the sender's public attributes (``cwnd``, ``ssthresh``, ``una``,
``high``, ``state``, ``srtt``, …) and changed only through its public methods:
``snapshot_congestion_state(now)`` → an immutable
:class:`~cmtlab.sim.tcp.CongestionState`, ``restore_congestion_state(record, now,
how=...)``, ``conventional_rto_recovery(now)``, ``send_new_data(now, n)`` and
``timestamp_now(now)``.

Presets: every response takes ``variant`` — its own ``VARIANT`` (the default) follows the
RFC or paper; ``"chihani"`` builds the Chihani–Collange ns-3 MPTCP model's version (the papers
of Alheid et al. and Arabi et al. ran it), a subclass in :mod:`cmtlab.sim.models.chihani`.
"""

from __future__ import annotations

from ...registry import check_variant, register
from ...tcp.decisions import FastRetransmitDecision, TimeoutDecision


class ReorderingResponse:
    """Hooks a reordering-tolerant sender overrides (see the module docstring)."""

    name: str = "abstract"
    #: This class's ``variant`` (what it follows: ``"rfc"`` or ``"paper"``); a model's version
    #: is its own class (:func:`cmtlab.sim.registry.register_variant`, :mod:`cmtlab.sim.models`).
    VARIANT: str = "rfc"
    #: Call :meth:`on_ack` / :meth:`after_ack` for every ACK (takes the sender off its fast paths).
    wants_every_ack: bool = False
    #: The receiver must report duplicate segments with D-SACK blocks (RFC 2883; needs SACK).
    #: ns-3.44 never sends D-SACK, so the default keeps the ACKs byte-identical to ns-3's.
    wants_dsack: bool = False
    #: The receiver echoes timestamps exactly as RFC 7323 sec. 4.3 (ns-3.44's rule otherwise).
    wants_rfc7323_echo: bool = False

    def __init__(self, variant: str | None = None):
        self.variant = check_variant("reordering", self, self.VARIANT if variant is None else variant)

    def attach(self, sub) -> None:
        """The sender ``sub`` this instance serves was built (one instance per sender:
        responses keep per-subflow state, so sharing one between subflows is refused)."""
        other = getattr(self, "_sub", None)
        if other is not None and other is not sub:
            raise ValueError(f"reordering response {self.name!r} is already attached to another sender: "
                             f"make one instance per subflow (registry.make('reordering', ...))")
        self._sub = sub

    def check_options(self, options) -> None:
        """Refuse TCP options this response cannot work with: ``ValueError`` naming the option (none by
        default).  ``options`` is a :class:`cmtlab.scenario.TcpOptions` — a scenario checks it when it is
        made — or the sender being attached, which carries the same flags (``sack``, ``timestamps``)."""

    def on_ack(self, sub, ack: int, ts_echo: int, sack, now: int) -> None:
        """Every ACK, before processing (only when ``wants_every_ack``)."""

    def after_ack(self, sub, ack: int, now: int) -> None:
        """Every processed ACK, before the sender sends (only when ``wants_every_ack``)."""

    def on_dsack(self, sub, block: tuple[int, int], now: int) -> None:
        """A D-SACK block ``(first, end)`` (segment indices, end exclusive) arrived."""

    def on_retransmit(self, sub, k: int, now: int) -> None:
        """Segment ``k`` is being retransmitted."""

    def on_fast_retransmit(self, sub, now: int) -> FastRetransmitDecision:
        """The fast-retransmit threshold was reached (see the module docstring)."""
        return FastRetransmitDecision.REDUCE

    def on_recovery_exit(self, sub, now: int) -> None:
        """The fast recovery ended (``sub.cwnd = sub.ssthresh`` already set)."""

    def on_timeout(self, sub, now: int) -> TimeoutDecision:
        """A retransmission timeout fired (see the module docstring)."""
        return TimeoutDecision.STANDARD


@register("reordering", "none")
class NoReorderingResponse(ReorderingResponse):
    """No reordering response (NoPR): duplicate ACKs are taken as loss (RFC 5681/6582 NewReno)."""

    name = "none"
