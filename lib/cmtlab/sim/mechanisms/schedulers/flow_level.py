"""Flow-level splitting by bandwidth, OSIA's baseline (Wang et al. sec. 5.1)."""

from __future__ import annotations

from ...registry import register
from .base import ConnectionScheduler, _has_room


@register("scheduler", "flow_level")
class FlowLevelScheduler(ConnectionScheduler):
    """Flow-level splitting by bandwidth, OSIA's baseline (Wang et al. sec. 5.1).

    The paper says only that it "stripes the flow adaptively based on the path bandwidth" with
    a scheduling period of 1 s, and (sec. 1) that flow-level splitting "pins each flow to a
    specific path" — no packet-level interleaving.  Our reading: every period the data of the
    period (``sum_i b_i * period / (8 seg)`` segments, at most what is left of the transfer) is
    cut into **contiguous** DSN blocks, one per subflow in index order, sized in proportion
    to the subflows' rates ``b_i`` (largest-remainder rounding); DSN ``k`` of the period goes to
    the subflow whose block holds it.  ``None`` while that subflow has no room (the split does not
    divert).  The connection hands out DSNs in order, so the blocks go out one after the other,
    not side by side: a subflow idles while the blocks before its own are sent.  A new plan (rates
    read again) starts when the blocks are used up — not when the clock passes the period:
    restarting at a period boundary would hand the first subflow's block out again and starve
    the later ones whenever the first cannot send its share within the period (seen end to end:
    99 % on the fast path).  ``rate_source``:
    ``"path"`` — the static ``sub.path.rate_bps``; ``"cwnd"`` — ``cwnd / srtt`` (the path rate
    until the subflow has an RTT sample).
    """

    RATE_SOURCES = ("path", "cwnd")

    def __init__(self, period_s: float = 1.0, rate_source: str = "path"):
        from ...._validate import check_choice, check_duration_s

        self.period_ns = int(round(check_duration_s("period_s", period_s) * 1e9))
        self.rate_source = check_choice("rate_source", rate_source, self.RATE_SOURCES)
        self.blocks = []
        self._k = 0
        self._period_end_ns = -1
        self.n_plans = 0

    def init(self, conn) -> None:
        self.blocks = []
        self._k = 0
        self._period_end_ns = -1
        self.n_plans = 0

    def _rate_bps(self, sub) -> float:
        if self.rate_source == "cwnd" and getattr(sub, "n_rtt_samples", 0) > 0 and sub.srtt > 0:
            return 8.0 * sub.cwnd / (sub.srtt / 1e9)
        return float(sub.path.rate_bps)

    def _replan(self, conn, now_ns: int) -> None:
        subs = conn.subflows
        rates = [self._rate_bps(s) for s in subs]
        seg = subs[0].seg
        n = int(sum(rates) * self.period_ns / 1e9 // (8 * seg))
        if getattr(conn, "n_dsn", None) is not None:
            n = min(n, conn.n_dsn - conn.next_dsn)
        n = max(n, 1)
        total = sum(rates)
        exact = [n * r / total for r in rates]
        q = [int(x) for x in exact]
        for i in sorted(range(len(q)), key=lambda i: -(exact[i] - q[i]))[: n - sum(q)]:
            q[i] += 1
        self.blocks = [i for i, c in enumerate(q) for _ in range(c)]
        self._k = 0
        self._period_end_ns = now_ns + self.period_ns
        self.n_plans += 1

    def select(self, conn, now_ns: int):
        if self._k >= len(self.blocks):
            self._replan(conn, now_ns)
        i = self.blocks[self._k]
        return i if _has_room(conn.subflows[i]) else None

    def on_sent(self, conn, subflow: int, dsn: int, now_ns: int) -> None:
        self._k += 1


__all__ = ["FlowLevelScheduler"]
