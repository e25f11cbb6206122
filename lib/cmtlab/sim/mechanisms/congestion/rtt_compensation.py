"""RTT compensation, Arabi sec. 3.4 (after Raiciu et al. / Wischik et al., NSDI 2011)."""

from __future__ import annotations

from ...._validate import check_choice
from ...registry import register
from .coupled import CoupledCongestionControl
from .coupled import _rtt_s, rfc6356_alpha


@register("congestion", "rtt_compensation")
class RttCompensation(CoupledCongestionControl):
    """RTT compensation, Arabi sec. 3.4 (after Raiciu et al. / Wischik et al., NSDI 2011).

    Per ACK on ``r``: increase ``w_r`` by ``min(alpha / w, 1 / w_r)`` segments, ``w`` the total
    window, with Arabi's printed ``alpha = (1/|S|) * RTT_r / RTT_best`` (``|S|`` the number of
    subflows, ``RTT_best`` the smallest RTT) — ``alpha_rule="arabi"``; ``alpha_rule="rfc6356"``
    uses :func:`rfc6356_alpha` instead (then this is LIA).  In bytes:
    ``min(alpha * bytes_acked * SMSS / cwnd_total, bytes_acked * SMSS / cwnd_r)``.  Loss halves
    the subflow's window.
    """

    ALPHA_RULES = ("arabi", "rfc6356")

    def __init__(self, variant: str = "spec", counting: str = "bytes", alpha_rule: str = "arabi"):
        super().__init__(variant, counting)
        self.alpha_rule = check_choice("alpha_rule", alpha_rule, self.ALPHA_RULES)

    def alpha(self, sub) -> float:
        subs = self._subflows(sub)
        if self.alpha_rule == "rfc6356":  # Lia.alpha's (this class is no Lia)
            return rfc6356_alpha([self._window_for_alpha(s) for s in subs], [_rtt_s(s) for s in subs])
        rtts = [r for r in (_rtt_s(s) for s in subs) if r is not None]
        mine = _rtt_s(sub)
        if not rtts or mine is None:
            return 1.0 / len(subs)
        return mine / (len(subs) * min(rtts))

    def ca_increase(self, sub, bytes_acked: int) -> float:
        total = sum(s.cwnd for s in self._subflows(sub))
        return min(self.alpha(sub) * bytes_acked * sub.seg / total, bytes_acked * sub.seg / sub.cwnd)


__all__ = ["RttCompensation"]
