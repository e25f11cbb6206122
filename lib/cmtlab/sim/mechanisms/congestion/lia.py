"""Linked Increases Algorithm, RFC 6356 sec. 3 (Arabi sec. 3.3)."""

from __future__ import annotations

import cython

from ...registry import register
from ..schedulers.base import SchedulerView
from .coupled import CoupledCongestionControl
from .coupled import _rtt_s, rfc6356_alpha


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

    The frame (:meth:`CoupledCongestionControl.increase_window`: slow start, the carried fraction
    of a byte) calls :meth:`ca_increase` once per congestion-avoidance ACK; this class only says
    how much, so a subclass that overrides :meth:`ca_increase` changes LIA's windows.
    """

    name = "lia"

    def alpha(self, sub) -> float:
        """RFC 6356's alpha from the windows :meth:`_window_for_alpha` reads (:func:`rfc6356_alpha`)."""
        subs = self._subflows(sub)
        windows = [self._window_for_alpha(s) for s in subs]
        return rfc6356_alpha(windows, [_rtt_s(s) for s in subs])

    def ca_increase(self, sub, bytes_acked: int) -> float:
        """RFC 6356 sec. 3 in one pass over the subflows (the hot path: once per ACK):
        ``alpha / cwnd_total = max_i(cwnd_i/rtt_i^2) / (sum_i cwnd_i/rtt_i)^2``, capped at TCP's
        ``bytes_acked * MSS / cwnd``."""
        conn = sub.connection
        # the simulator's connection is a SchedulerView: its subflows read as a C field when compiled
        subs = cython.cast(SchedulerView, conn).subflows if isinstance(conn, SchedulerView) else list(conn.subflows)
        best = 0.0
        ssum = 0.0
        for s in subs:
            w = s.cwnd
            if s.n_rtt_samples > 0 and s.srtt > 0:
                r = s.srtt * 1e-9
            else:
                rtt = _rtt_s(s)
                if rtt is None:
                    continue
                r = rtt
            x = w / r
            ssum += x
            x /= r
            if x > best:
                best = x
        seg = sub.seg
        cap = bytes_acked * seg / sub.cwnd
        if ssum <= 0.0:  # no RTT known: alpha = 1
            return min(bytes_acked * seg / sum([s.cwnd for s in subs]), cap)
        linked = best / (ssum * ssum) * bytes_acked * seg
        return linked if linked < cap else cap


register("congestion", "lia")(Lia)  # a compiled class (lia.pxd) takes no decorator


__all__ = ["Lia"]
