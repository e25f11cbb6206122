"""The common frame of the coupled multipath algorithms (one instance per subflow) and RFC 6356's alpha."""

from __future__ import annotations

import cython

from ...._validate import check_choice
from ...registry import check_variant
from .newreno import NewReno

#: ``counting`` values: ``"bytes"`` — RFC 6356's ``bytes_acked``, derived from the engine's
#: call as ``segments_acked * sub.seg`` (one increase per acknowledged segment, RFC 3465-like);
#: ``"ack"`` — one increase per ACK whatever it covers, as ns-3's ``TcpNewReno`` (class
#: :class:`NewReno` above) and the Chihani–Collange code count.
COUNTINGS = ("bytes", "ack")


def _floor(x: float) -> int:
    """``math.floor(x)`` of a finite ``x``; compiled, C arithmetic instead of a Python call."""
    whole = cython.cast(cython.longlong, x)  # truncation towards zero
    return whole - 1 if whole > x else whole


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


class CoupledCongestionControl(NewReno):
    """Common frame of the coupled algorithms (one instance per subflow).

    * ``sub.connection is None`` (single-path TCP): every call is :class:`NewReno`'s (this class
      derives from it), as the interface contract requires.
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

    name = "abstract"
    VARIANT = "spec"

    def __init__(self, variant: str = "spec", counting: str = "bytes"):
        self.variant = check_variant("congestion", self, variant)
        self.counting = counting
        self._frac = 0.0

    @property
    def counting(self) -> str:
        """``"bytes"`` or ``"ack"`` (:data:`COUNTINGS`); ``_per_ack`` says whether it is ``"ack"``."""
        return self._counting

    @counting.setter
    def counting(self, value: str) -> None:
        self._counting = check_choice("counting", value, COUNTINGS)
        self._per_ack = self._counting == "ack"

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
        if sub.connection is None:
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
            acked = 1 if self._per_ack else segments_acked
            self._frac += self.ca_increase(sub, acked * seg)
            whole = _floor(self._frac + 1e-9)  # 1e-9 B: float noise of exact products
            self._frac -= whole
            sub.cwnd = max(seg, sub.cwnd + whole)

    def ca_increase(self, sub, bytes_acked: int) -> float:
        """Congestion-avoidance increase of ``sub.cwnd`` in bytes for ``bytes_acked`` (see subclasses)."""
        raise NotImplementedError(f"{type(self).__name__} must implement ca_increase")


__all__ = ["COUNTINGS", "rfc6356_alpha", "CoupledCongestionControl"]
