"""Lowest RTT first, the multipath-tcp.org kernel's default scheduler (``mptcp_sched.c``)."""

from __future__ import annotations

from ...registry import register
from .base import ConnectionScheduler, _has_room


@register("scheduler", "lowest_rtt")
class LowestRttScheduler(ConnectionScheduler):
    """Lowest RTT first, the multipath-tcp.org kernel's default scheduler (``mptcp_sched.c``).

    Among the subflows with room in their window, the one with the smallest smoothed RTT.
    A subflow without an RTT sample yet (``n_rtt_samples == 0``) counts as RTT 0 — it is
    chosen first, as the kernel's ``srtt_us = 0`` makes it — and ties go to the lower
    index.  ``None`` when no subflow has room.

    Like ``round_robin`` and ``edpf`` it only picks among subflows with room, so with a bulk
    sender whose windows bind — an ACK opens room on one subflow, which is refilled at once —
    nearly every decision has a single candidate and the three make the same run (counted by
    :func:`cmtlab.papers.osia.experiments.decision_profile`; the OSIA Figs. 7–9 chapter).
    """

    def select(self, conn, now_ns: int):
        best, best_rtt = None, None
        for i, sub in enumerate(conn.subflows):
            if not _has_room(sub):
                continue
            rtt = sub.srtt if getattr(sub, "n_rtt_samples", 0) > 0 else 0
            if best is None or rtt < best_rtt:
                best, best_rtt = i, rtt
        return best


__all__ = ["LowestRttScheduler"]
