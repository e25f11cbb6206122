"""Closed-form and fluid-model throughputs for checking multipath congestion control.

Used by the MPTCP validation chapter: random loss ``p`` on ``n`` disjoint paths, where RFC 6356
(sec. 2, goals 1–3 and sec. 3's derivation of alpha) intends that

* **uncoupled** TCP on every path gets the sum of the single-path throughputs (``≈ n × Mathis``
  on ``n`` identical paths);
* **LIA** gets what a single TCP would get on the best path (``≈ one Mathis``);
* **OLIA** (Khalili et al., Theorem 3 of the CoNEXT 2012 paper: Pareto-optimal, uses only the
  best paths) likewise gets the best path's single-TCP throughput.

Units: rates in bit/s (``_bps``), times in seconds (``_s``), sizes in bytes.
"""

from __future__ import annotations

import math

import numpy as np

from .._validate import as_float_array, check_int, check_positive

def mathis_constant(segments_per_ack: int = 1) -> float:
    """Mathis et al.'s ``C = sqrt(3 / (2 b))`` with ``b`` segments acknowledged per ACK.

    ``b = 1`` for an increase of one segment per RTT (byte counting, RFC 6356's LIA); ``b = 2``
    for a NewReno that grows once per ACK under delayed ACKs (ns-3's ``TcpNewReno``).
    """
    b = check_int("segments_per_ack", segments_per_ack, minimum=1)
    return math.sqrt(3.0 / (2.0 * b))


def _check_p(p):
    arr = as_float_array("loss_rate", p)
    if np.any(arr <= 0) or np.any(arr >= 1):
        raise ValueError(f"loss_rate must be in (0, 1), got {p!r}")
    return arr


def mathis_throughput_bps(segment_bytes, rtt_s, loss_rate, *, segments_per_ack: int):
    """The square-root law of Mathis, Semke, Mahdavi and Ott (1997), eq. (3), in bit/s — the book's one Mathis.

    .. math:: B = \\frac{8 \\, \\mathrm{MSS}}{\\mathrm{RTT}} \\cdot \\frac{C}{\\sqrt{p}},
              \\qquad C = \\sqrt{\\frac{3}{2b}}

    ``segment_bytes``: the MSS (bytes, > 0); ``rtt_s``: the round-trip time (s, > 0); ``loss_rate``: ``p``, the
    probability that a segment is lost, in (0, 1); ``segments_per_ack``: ``b``, segments acknowledged per ACK
    (an integer >= 1, no default: 1 for an increase of one segment per RTT — byte counting, RFC 6356's LIA —,
    2 for a NewReno that grows once per ACK under delayed ACKs, ns-3's ``TcpNewReno``; :func:`mathis_constant`).
    Valid for a long bulk transfer limited by random loss, without timeouts, window limits or queueing delay.
    ``rtt_s`` and ``loss_rate`` may be arrays (broadcast); scalars give a float.
    """
    check_positive("segment_bytes", segment_bytes)
    c = mathis_constant(segments_per_ack)
    rtt = np.asarray(rtt_s, dtype=float)
    p = np.asarray(loss_rate, dtype=float)
    if not np.all(np.isfinite(rtt)) or np.any(rtt <= 0):
        raise ValueError(f"rtt_s must be > 0 (round-trip seconds), got {rtt_s!r}")
    if not np.all(np.isfinite(p)) or np.any((p <= 0) | (p >= 1)):
        raise ValueError(f"loss_rate must be in (0, 1) for the square-root law, got {loss_rate!r}")
    out = segment_bytes * 8.0 / rtt * c / np.sqrt(p)
    return float(out) if np.ndim(out) == 0 else out


def _paths(loss_rates, rtts_s):
    p = _check_p(loss_rates)
    r = as_float_array("rtts_s", rtts_s)
    if np.any(r <= 0):
        raise ValueError(f"rtts_s must be > 0, got {rtts_s!r}")
    if p.size == 1 and r.size > 1:
        p = np.full(r.size, p[0])
    if r.size == 1 and p.size > 1:
        r = np.full(p.size, r[0])
    if p.size != r.size:
        raise ValueError(f"loss_rates and rtts_s must have the same length, got {p.size} and {r.size}")
    return p, r


def lia_equilibrium_windows(loss_rates, rtts_s, *, segments_per_ack: int = 1, iterations: int = 2000):
    """Equilibrium windows (segments) of LIA on disjoint paths (RFC 6356 sec. 3, fluid model).

    Per RTT, subflow ``i`` grows by ``w_i * min(alpha / w, 1 / w_i)`` and loses
    ``w_i * p_i * w_i / 2`` in expectation; balance gives
    ``w_i = min(c^2 alpha / (p_i w), c / sqrt(p_i))`` with ``alpha`` from
    :func:`cmtlab.sim.mechanisms.congestion.rfc6356_alpha` (``c = sqrt(2)`` is the plain fluid model; the
    default ``c = sqrt(3/(2 b))`` matches :func:`mathis_throughput_bps`, so one path gives
    Mathis; the equilibrium scales linearly in ``c``).  Solved by damped fixed-point iteration.
    """
    from ..sim.mechanisms.congestion import rfc6356_alpha

    c = mathis_constant(segments_per_ack)
    p, r = _paths(loss_rates, rtts_s)
    tcp = c / np.sqrt(p)
    w = tcp / p.size
    for _ in range(check_int("iterations", iterations, minimum=1)):
        a = rfc6356_alpha(w, r)
        new = np.minimum(c * c * a / (p * w.sum()), tcp)
        if np.allclose(new, w, rtol=1e-12, atol=0):
            break
        w = 0.5 * w + 0.5 * new
    return w


def multipath_throughput_bps(algorithm: str, loss_rates, rtts_s, mss_bytes: int = 1448, *,
                             segments_per_ack: int = 1) -> float:
    """Equilibrium throughput (bit/s) of a multipath connection on disjoint lossy paths.

    ``algorithm``: ``"uncoupled"`` — sum of the paths' Mathis throughputs; ``"lia"`` — the fluid
    equilibrium of :func:`lia_equilibrium_windows` (equals the best path's Mathis throughput,
    RFC 6356's design); ``"olia"`` — the best path's Mathis throughput (Khalili et al.: OLIA's
    equilibrium uses only the best paths and is Pareto-optimal).
    """
    p, r = _paths(loss_rates, rtts_s)
    single = np.atleast_1d(mathis_throughput_bps(mss_bytes, r, p, segments_per_ack=segments_per_ack))
    if algorithm == "uncoupled":
        return float(single.sum())
    if algorithm == "lia":
        w = lia_equilibrium_windows(p, r, segments_per_ack=segments_per_ack)
        return float((8.0 * mss_bytes * w / r).sum())
    if algorithm == "olia":
        return float(single.max())
    raise ValueError(f"algorithm must be one of ['lia', 'olia', 'uncoupled'], got {algorithm!r}")


def jain_fairness(throughputs) -> float:
    """Jain's fairness index ``(sum x)^2 / (n sum x^2)``, in ``[1/n, 1]`` (Jain, Chiu, Hawe 1984)."""
    x = as_float_array("throughputs", throughputs)
    if np.any(x < 0):
        raise ValueError(f"throughputs must be >= 0, got {throughputs!r}")
    s2 = float((x * x).sum())
    if s2 == 0.0:
        return 1.0
    return float(x.sum() ** 2 / (x.size * s2))


__all__ = ["mathis_constant", "mathis_throughput_bps", "lia_equilibrium_windows",
           "multipath_throughput_bps", "jain_fairness"]
