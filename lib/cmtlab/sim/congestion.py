"""Congestion control: how the congestion window grows on ACKs and shrinks on loss.

Interface
---------
A :class:`CongestionControl` owns no state of its own by default; it reads and writes the
window of the *subflow* it is called for (a :class:`cmtlab.sim.tcp.TcpSender`: attributes
``cwnd`` and ``ssthresh`` in bytes, ``seg`` the segment size in bytes).  The sender calls

* :meth:`CongestionControl.increase_window` with the number of segments a new cumulative
  ACK acknowledged, in the states where the window may grow (ns-3's
  ``TcpCongestionOps::IncreaseWindow``);
* :meth:`CongestionControl.ssthresh` with the bytes in flight when it detects a loss
  (fast retransmit or retransmission timeout) to get the new slow-start threshold
  (``GetSsThresh``).  What happens to ``cwnd`` then is the loss-recovery algorithm's
  business (:mod:`cmtlab.sim.recovery`) or the timeout's (cwnd = 1 segment).

Coupled multipath congestion control lives here too (after :class:`NewReno`): one instance
per subflow, registered by name (``"uncoupled"``, ``"fully_coupled"``, ``"rtt_compensation"``,
``"lia"``, ``"olia"``), reading the other subflows' ``cwnd`` and ``srtt`` through
``sub.connection.subflows``; with ``sub.connection is None`` each is exactly NewReno.  See
:class:`CoupledCongestionControl` for the common frame and the units (bytes; RFC 6356's
``bytes_acked`` is ``segments_acked * sub.seg``).  The Chihani–Collange model's versions
(``variant="chihani"``) are their own classes in :mod:`cmtlab.sim.models.chihani`.

The single-path algorithm is :class:`NewReno`, the RFC 5681 slow start / congestion avoidance in ns-3's
``TcpNewReno`` form (ns-3.44), which the simulator follows where the RFC leaves room:

* ``cwnd`` is kept in bytes;
* slow start adds one segment per ACK that acknowledges new data, however many
  segments it covers (RFC 5681 eq. 2, ``cwnd += min(N, SMSS)``); the segments of that ACK
  not used by slow start are passed on to congestion avoidance if the window crossed
  ``ssthresh``;
* congestion avoidance adds ``max(1, floor(SMSS * SMSS / cwnd))`` bytes once per ACK
  (not per acknowledged segment; ns-3 truncates to whole bytes) — about one segment per
  window of ACKs;
* on loss ``ssthresh = max(2 * SMSS, bytes_in_flight / 2)`` (RFC 5681 eq. 4 with
  FlightSize as ns-3 counts it, integer division).
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod

from .._validate import check_choice
from .registry import check_variant, register


class CongestionControl(ABC):
    """Window growth and loss reaction of one subflow (see the module docstring)."""

    name: str = "abstract"

    def init(self, sub) -> None:
        """Called once when the subflow starts (``sub.cwnd``/``sub.ssthresh`` already set)."""

    @abstractmethod
    def increase_window(self, sub, segments_acked: int) -> None:
        """Grow ``sub.cwnd`` for an ACK that acknowledged ``segments_acked`` new segments."""

    @abstractmethod
    def ssthresh(self, sub, bytes_in_flight: int) -> int:
        """New slow-start threshold (bytes) after a loss with ``bytes_in_flight`` outstanding."""


@register("congestion", "newreno")
class NewReno(CongestionControl):
    """RFC 5681 slow start and congestion avoidance as ns-3's ``TcpNewReno`` implements them."""

    name = "newreno"
    __slots__ = ()

    def increase_window(self, sub, segments_acked: int) -> None:
        cwnd = sub.cwnd
        ssthresh = sub.ssthresh
        seg = sub.seg
        if cwnd < ssthresh:  # slow start: one SMSS per ACK of new data (RFC 5681 sec. 3.1)
            if segments_acked >= 1:
                cwnd += seg
                segments_acked -= 1
            else:
                segments_acked = 0
        if cwnd >= ssthresh and segments_acked > 0:  # congestion avoidance, once per ACK
            add = (seg * seg) // cwnd
            cwnd += add if add > 1 else 1
        sub.cwnd = cwnd

    def ssthresh(self, sub, bytes_in_flight: int) -> int:
        half = bytes_in_flight // 2
        two = 2 * sub.seg
        return half if half > two else two


# ---------------------------------------------------------------------------------------------
# Coupled multipath congestion control (one instance per subflow)
# ---------------------------------------------------------------------------------------------

#: ``counting`` values: ``"bytes"`` — RFC 6356's ``bytes_acked``, derived from the engine's
#: call as ``segments_acked * sub.seg`` (one increase per acknowledged segment, RFC 3465-like);
#: ``"ack"`` — one increase per ACK whatever it covers, as ns-3's ``TcpNewReno`` (class
#: :class:`NewReno` above) and the Chihani–Collange code count.
COUNTINGS = ("bytes", "ack")


def _rtt_s(sub):
    """Round-trip time (s) of a subflow for the coupled formulas.

    The smoothed RTT once the subflow has a sample (``srtt`` ns, valid when
    ``n_rtt_samples > 0``; RFC 6356 sec. 4 recommends the smoothed RTT), else the static round
    trip of its path (``sub.path.delay_s``), else ``None`` (the subflow is left out of the RTT
    sums; it still counts in ``cwnd_total``).
    """
    if getattr(sub, "n_rtt_samples", 0) > 0 and sub.srtt > 0:
        return sub.srtt / 1e9
    path = getattr(sub, "path", None)
    d = getattr(path, "delay_s", None) if path is not None else None
    if d is not None and d > 0:
        return float(d)
    return None


def rfc6356_alpha(windows, rtts_s) -> float:
    """RFC 6356 sec. 3, the LIA aggressiveness factor.

    ``alpha = cwnd_total * max_i(cwnd_i / rtt_i**2) / (sum_i cwnd_i / rtt_i)**2``; windows in any
    one unit (bytes or segments — alpha is dimensionless), RTTs in seconds.  Subflows whose RTT
    is ``None`` count in ``cwnd_total`` only.  With no RTT at all, or all windows zero, 1.0
    (a single TCP's increase).
    """
    total = float(sum(windows))
    best = 0.0
    s = 0.0
    for w, r in zip(windows, rtts_s):
        if r is None:
            continue
        best = max(best, w / (r * r))
        s += w / r
    if s <= 0.0 or total <= 0.0:
        return 1.0
    return total * best / (s * s)


class CoupledCongestionControl(CongestionControl):
    """Common frame of the coupled algorithms (one instance per subflow).

    * ``sub.connection is None`` (single-path TCP): every call is delegated to :class:`NewReno`
      unchanged, as the interface contract requires.
    * Slow start is NewReno's (RFC 6356 sec. 3: "slow start ... unchanged"): one segment per
      ACK of new data while ``cwnd < ssthresh``; the ACK's other segments go to congestion
      avoidance if the window crossed ``ssthresh``.
    * Congestion avoidance: :meth:`ca_increase` returns the increase in **bytes** (a float);
      whole bytes go to ``sub.cwnd`` (kept an integer), the fraction is carried to the next ACK
      so that the long-run growth is exact (RFC 6356 sec. 4 discusses the rounding).
    * Loss: :meth:`ssthresh` is NewReno's ``max(2 SMSS, FlightSize / 2)`` — "loss halves the
      subflow's window" — unless a subclass says otherwise.

    ``variant`` is the defining document's, ``"spec"``; the Chihani–Collange ns-3 model's
    versions (``variant="chihani"``) are subclasses in :mod:`cmtlab.sim.models.chihani`, built by
    ``registry.make("congestion", name, variant="chihani")``.
    """

    VARIANT = "spec"

    def __init__(self, variant: str = "spec", counting: str = "bytes"):
        self.variant = check_variant("congestion", self, variant)
        self.counting = check_choice("counting", counting, COUNTINGS)
        self._frac = 0.0

    # -- helpers ------------------------------------------------------------------------
    @staticmethod
    def _subflows(sub):
        return sub.connection.subflows

    def _window_for_alpha(self, other) -> float:
        """``other``'s window in alpha: its cwnd (the model variant uses smoothed windows)."""
        return float(other.cwnd)

    # -- interface ----------------------------------------------------------------------
    def init(self, sub) -> None:
        self._frac = 0.0

    def increase_window(self, sub, segments_acked: int) -> None:
        if getattr(sub, "connection", None) is None:
            NewReno.increase_window(self, sub, segments_acked)
            return
        cwnd, ssthresh, seg = sub.cwnd, sub.ssthresh, sub.seg
        if cwnd < ssthresh:  # slow start unchanged (RFC 6356 sec. 3)
            if segments_acked >= 1:
                cwnd += seg
                segments_acked -= 1
            else:
                segments_acked = 0
            sub.cwnd = cwnd
        if cwnd >= ssthresh and segments_acked > 0:
            acked = 1 if self.counting == "ack" else segments_acked
            self._frac += self.ca_increase(sub, acked * seg)
            whole = math.floor(self._frac + 1e-9)  # 1e-9 B: float noise of exact products
            self._frac -= whole
            sub.cwnd = max(seg, sub.cwnd + whole)

    def ca_increase(self, sub, bytes_acked: int) -> float:
        """Congestion-avoidance increase of ``sub.cwnd`` in bytes for ``bytes_acked`` (see subclasses)."""
        raise NotImplementedError

    def ssthresh(self, sub, bytes_in_flight: int) -> int:
        return NewReno.ssthresh(self, sub, bytes_in_flight)


@register("congestion", "uncoupled")
class Uncoupled(CoupledCongestionControl):
    """Uncoupled subflows (Arabi sec. 3.1): each subflow runs its own TCP.

    Exactly :class:`NewReno` on every subflow (ns-3's per-ACK congestion avoidance
    ``max(1, floor(SMSS^2/cwnd))``), whatever ``counting`` says.  :meth:`ca_increase` is
    ``SMSS^2/cwnd`` bytes unrounded per ACK: what the model variant uses.
    """

    def increase_window(self, sub, segments_acked: int) -> None:
        NewReno.increase_window(self, sub, segments_acked)

    def ca_increase(self, sub, bytes_acked: int) -> float:
        return bytes_acked * sub.seg / sub.cwnd


@register("congestion", "fully_coupled")
class FullyCoupled(CoupledCongestionControl):
    """Fully coupled (Arabi sec. 3.2, after Wischik et al., NSDI 2011 "COUPLED").

    Per ACK on subflow ``r``, increase ``w_r`` by ``1/w`` segments, ``w = sum_p w_p`` (the total
    window): ``bytes_acked * SMSS / cwnd_total`` bytes — the connection grows like one TCP
    whose window is the total.  Per loss on ``r``, decrease ``w_r`` by ``w/2``: Arabi prints
    ``max(wc^r - w/2)`` without its second argument; the floor here is RFC 5681's 2 segments
    for the threshold: ``ssthresh = max(FlightSize_r - W/2, 2 SMSS)`` with
    ``W = FlightSize_r + sum_{p != r} cwnd_p`` (FlightSize stands for ``cwnd_r`` as in NewReno;
    with one subflow this is NewReno's ``FlightSize/2``).
    """

    def ca_increase(self, sub, bytes_acked: int) -> float:
        total = sum(s.cwnd for s in self._subflows(sub))
        return bytes_acked * sub.seg / total

    def ssthresh(self, sub, bytes_in_flight: int) -> int:
        if getattr(sub, "connection", None) is None:
            return CoupledCongestionControl.ssthresh(self, sub, bytes_in_flight)
        others = sum(s.cwnd for s in self._subflows(sub) if s is not sub)
        total = bytes_in_flight + others
        v = bytes_in_flight - total // 2
        return max(v, 2 * sub.seg)


@register("congestion", "lia")
class Lia(CoupledCongestionControl):
    """Linked Increases Algorithm, RFC 6356 sec. 3 (Arabi sec. 3.3).

    For each ACK on subflow ``i`` in congestion avoidance (windows in bytes)::

        cwnd_i += min(alpha * bytes_acked * MSS_i / cwnd_total, bytes_acked * MSS_i / cwnd_i)
        alpha = cwnd_total * max_i(cwnd_i / rtt_i^2) / (sum_i cwnd_i / rtt_i)^2

    (:func:`rfc6356_alpha`, recomputed on every ACK from the current windows and smoothed RTTs).
    The second term caps the subflow at what a TCP on its path would add (RFC 5681 eq. 3 with
    byte counting), so LIA is never more aggressive than TCP on any subflow (goal 2).
    ``bytes_acked`` is ``segments_acked * sub.seg`` (``counting="bytes"``, the RFC) or one
    segment per ACK (``counting="ack"``, ns-3's NewReno counting; with delayed ACKs the RFC
    form grows twice as fast per ACK as :class:`NewReno`).  Slow start, loss (ssthresh =
    ``max(FlightSize/2, 2 SMSS)``) and fast recovery unchanged.
    """

    def alpha(self, sub) -> float:
        """RFC 6356's alpha from the windows :meth:`_window_for_alpha` reads (:func:`rfc6356_alpha`)."""
        subs = self._subflows(sub)
        windows = [self._window_for_alpha(s) for s in subs]
        return rfc6356_alpha(windows, [_rtt_s(s) for s in subs])

    def ca_increase(self, sub, bytes_acked: int) -> float:
        # RFC 6356 sec. 3 in one pass over the subflows (the hot path: once per ACK):
        # alpha / cwnd_total = max_i(cwnd_i/rtt_i^2) / (sum_i cwnd_i/rtt_i)^2
        best = 0.0
        ssum = 0.0
        for s in sub.connection.subflows:
            w = s.cwnd
            if s.n_rtt_samples > 0 and s.srtt > 0:
                r = s.srtt * 1e-9
            else:
                r = _rtt_s(s)
                if r is None:
                    continue
            x = w / r
            ssum += x
            x /= r
            if x > best:
                best = x
        cap = bytes_acked * sub.seg / sub.cwnd
        if ssum <= 0.0:  # no RTT known: alpha = 1
            return min(bytes_acked * sub.seg / sum(s.cwnd for s in sub.connection.subflows), cap)
        linked = best / (ssum * ssum) * bytes_acked * sub.seg
        return linked if linked < cap else cap


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
        if self.alpha_rule == "rfc6356":
            return Lia.alpha(self, sub)
        rtts = [r for r in (_rtt_s(s) for s in subs) if r is not None]
        mine = _rtt_s(sub)
        if not rtts or mine is None:
            return 1.0 / len(subs)
        return mine / (len(subs) * min(rtts))

    def ca_increase(self, sub, bytes_acked: int) -> float:
        total = sum(s.cwnd for s in self._subflows(sub))
        return min(self.alpha(sub) * bytes_acked * sub.seg / total, bytes_acked * sub.seg / sub.cwnd)


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
