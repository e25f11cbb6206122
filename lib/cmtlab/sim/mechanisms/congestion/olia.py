"""Opportunistic Linked Increases, Khalili et al. (CoNEXT 2012 / ToN 2013), eq. (5)."""

from __future__ import annotations

from ...registry import register
from .coupled import CoupledCongestionControl
from .coupled import _rtt_s
from .newreno import NewReno


@register("congestion", "olia")
class Olia(CoupledCongestionControl):
    """Opportunistic Linked Increases, Khalili et al. (CoNEXT 2012 / ToN 2013), eq. (5).

    Per ACK on path ``r`` in congestion avoidance, windows ``w`` in segments, RTTs ``rtt``::

        w_r += (w_r / rtt_r^2) / (sum_p w_p / rtt_p)^2 + alpha_r / w_r

    In bytes (``W = seg * w``) that is ``seg^2 * [(W_r/rtt_r^2)/(sum_p W_p/rtt_p)^2 + alpha_r/W_r]``
    per acknowledged segment (``counting="bytes"``) or per ACK (``"ack"``).  ``alpha_r`` from the
    sets (as the multipath-tcp.org kernel's ``mptcp_olia.c`` computes them):

    * ``l_r`` = the larger of the bytes acknowledged between the last two losses on ``r`` and
      since the last loss (counted here from the bytes this instance sees acknowledged);
    * ``B`` = paths with the largest ``l_r / rtt_r^2`` ("best" paths), ``M`` = paths with the
      largest window;
    * if ``B \\ M`` is empty every ``alpha_r = 0``; otherwise ``alpha_r = 1/(n |B\\M|)`` for
      ``r`` in ``B \\ M``, ``-1/(n |M|)`` for ``r`` in ``M``, 0 else (``n`` = number of paths).

    The other subflows' ``l`` are read from their own :class:`Olia` instance (``other.cc``;
    0 if they run something else).  The window never goes below one segment.  With one
    subflow, ``alpha = 0`` and the increase is ``1/w`` per ACK: TCP's.
    """

    def __init__(self, variant: str = "spec", counting: str = "bytes"):
        if variant == "chihani":
            raise ValueError("variant must be 'spec' for olia (the Chihani–Collange code has no OLIA), "
                             "got 'chihani'")
        super().__init__(variant, counting)
        self.l_prev_bytes = 0  # bytes acknowledged between the last two losses
        self.l_cur_bytes = 0  # bytes acknowledged since the last loss

    def init(self, sub) -> None:
        super().init(sub)
        self.l_prev_bytes = 0
        self.l_cur_bytes = 0

    @property
    def inter_loss_bytes(self) -> int:
        """``l_r`` of Khalili et al.: max of the last two inter-loss byte counts."""
        return max(self.l_prev_bytes, self.l_cur_bytes)

    def increase_window(self, sub, segments_acked: int) -> None:
        self.l_cur_bytes += segments_acked * sub.seg
        super().increase_window(sub, segments_acked)

    def ssthresh(self, sub, bytes_in_flight: int) -> int:
        self.l_prev_bytes = self.l_cur_bytes
        self.l_cur_bytes = 0
        return NewReno.ssthresh(self, sub, bytes_in_flight)

    def alphas(self, sub) -> list:
        """``alpha_r`` of every subflow of ``sub``'s connection, in subflow order."""
        subs = self._subflows(sub)
        n = len(subs)
        score = []
        for s in subs:
            cc = getattr(s, "cc", None)
            l_r = cc.inter_loss_bytes if isinstance(cc, Olia) else 0
            r = _rtt_s(s) or 1.0
            score.append(l_r / (r * r))
        best = max(score)
        wmax = max(s.cwnd for s in subs)
        in_m = [s.cwnd == wmax for s in subs]
        in_b = [abs(x - best) <= 1e-12 * max(abs(best), 1.0) for x in score]
        b_not_m = sum(1 for b, m in zip(in_b, in_m) if b and not m)
        n_m = sum(in_m)
        if b_not_m == 0:
            return [0.0] * n
        return [1.0 / (n * b_not_m) if (b and not m) else (-1.0 / (n * n_m) if m else 0.0)
                for b, m in zip(in_b, in_m)]

    def ca_increase(self, sub, bytes_acked: int) -> float:
        subs = self._subflows(sub)
        seg = sub.seg
        denom = 0.0
        for s in subs:
            r = _rtt_s(s)
            if r is not None:
                denom += s.cwnd / r
        r_me = _rtt_s(sub)
        if r_me is None or denom <= 0.0:
            first = 1.0 / sub.cwnd
        else:
            first = (sub.cwnd / (r_me * r_me)) / (denom * denom)
        a = self.alphas(sub)[subs.index(sub)] if len(subs) > 1 else 0.0
        per_seg = seg * seg * (first + a / sub.cwnd)
        return per_seg * (bytes_acked / seg)


__all__ = ["Olia"]
