"""A round-based Monte-Carlo of a multipath connection on disjoint lossy paths.

An engine-free check of the coupled congestion-control classes of :mod:`cmtlab.sim.mechanisms.congestion`
against the theory of :mod:`cmtlab.validation.theory` (RFC 6356's goals on disjoint paths): the
*real* mechanism instances are driven through the engine interface
(``increase_window(sub, segments_acked)`` and ``ssthresh(sub, bytes_in_flight)``) by a
deliberately simple network:

* subflow ``i`` runs in rounds of one round-trip time ``rtt_i`` (fixed; ``srtt`` is exact);
  in a round it sends ``floor(cwnd_i / seg)`` segments (at least one);
* each segment is lost independently with probability ``p_i`` (random loss, no queue);
* the segments before the round's first loss are acknowledged one ACK per segment
  (``increase_window(sub, 1)``, no delayed ACKs); a loss is one congestion event per round:
  ``ssthresh = cc.ssthresh(sub, cwnd)`` then ``cwnd = ssthresh`` (fast recovery repairs the
  round's losses within it; no timeouts);
* subflows advance in time order of their rounds (a heap), so the windows each one reads
  from the others are those of the same moment.

Throughput counts delivered (first-transmission, non-lost) segments.  What the model leaves
out — queues, timeouts, ACK clocking, delayed ACKs — the packet-level runs of
:func:`cmtlab.sim.simulate_mptcp` include.
"""

from __future__ import annotations

import heapq
import random
from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np

from .._validate import as_float_array, check_int, check_positive
from ..sim.tcp.base import SenderBase


@dataclass
class RoundModelResult:
    """Per-subflow throughput (bit/s) and delivered segments of one run; ``total_bps`` their sum."""

    subflow_bps: np.ndarray
    delivered_segments: np.ndarray
    loss_events: np.ndarray
    duration_s: float

    @property
    def total_bps(self) -> float:
        return float(self.subflow_bps.sum())


class _Subflow(SenderBase):
    """A subflow's state record in the round model: the sender attributes a congestion control reads
    (``cwnd``, ``ssthresh``, ``seg``, ``srtt``, ``n_rtt_samples``, ``connection``, ``index``, ``path``, ``cc``)."""

    __slots__ = ()


def simulate_rounds(congestion: str, loss_rates, rtts_s, *, duration_s: float = 200.0, seg_bytes: int = 1448,
                    initial_cwnd_segments: int = 10, seed: int = 0, single_path: bool = False,
                    **congestion_params) -> RoundModelResult:
    """Run the round model (module docstring) and return the per-subflow throughput.

    ``congestion`` is a registered name (``"uncoupled"``, ``"lia"``, ``"olia"``, ...), made once
    per subflow with ``congestion_params``; ``loss_rates`` in [0, 1), one per path (or one for
    all); ``rtts_s`` > 0.  ``single_path=True`` runs each path as an independent single-path TCP
    (``sub.connection = None``).  Seeded: the same arguments give the same result.
    """
    from ..sim import registry

    p = as_float_array("loss_rates", loss_rates)
    r = as_float_array("rtts_s", rtts_s)
    if p.size == 1 and r.size > 1:
        p = np.full(r.size, p[0])
    if p.size != r.size:
        raise ValueError(f"loss_rates and rtts_s must have the same length, got {p.size} and {r.size}")
    if np.any(p < 0) or np.any(p >= 1):
        raise ValueError(f"loss_rates must be in [0, 1), got {loss_rates!r}")
    if np.any(r <= 0):
        raise ValueError(f"rtts_s must be > 0, got {rtts_s!r}")
    duration_s = check_positive("duration_s", duration_s)
    seg = check_int("seg_bytes", seg_bytes, minimum=1)
    iw = check_int("initial_cwnd_segments", initial_cwnd_segments, minimum=1)
    n = r.size
    conn = SimpleNamespace(subflows=[], next_dsn=0, n_dsn=None)
    rngs = [random.Random(seed * 1_000_003 + 17 * i + 1) for i in range(n)]
    for i in range(n):
        s = _Subflow()
        s.cwnd, s.ssthresh, s.seg = iw * seg, 2**31, seg
        s.srtt, s.n_rtt_samples = int(round(r[i] * 1e9)), 1
        s.connection = None if single_path else conn
        s.index = i
        s.path = SimpleNamespace(rate_bps=float("inf"), delay_s=float(r[i]))
        s.cc = registry.make("congestion", congestion, **congestion_params)
        s.cc.init(s)
        conn.subflows.append(s)
    delivered = np.zeros(n, dtype=np.int64)
    losses = np.zeros(n, dtype=np.int64)
    heap = [(0.0, i) for i in range(n)]
    while heap:
        t, i = heapq.heappop(heap)
        if t >= duration_s:
            continue
        s, rng, pi = conn.subflows[i], rngs[i], p[i]
        w = max(1, s.cwnd // seg)
        # position of the first lost segment (geometric), w if none is lost
        first = w
        if pi > 0:
            u = rng.random()
            k = int(np.floor(np.log1p(-u) / np.log1p(-pi))) if u > 0 else 0
            first = min(k, w)
        for _ in range(first):
            s.cc.increase_window(s, 1)
        delivered[i] += first
        if first < w:
            # the rest of the round: each later segment lost with p as well
            rest = w - first - 1
            lost_rest = sum(1 for _ in range(rest) if rng.random() < pi) if rest else 0
            delivered[i] += rest - lost_rest
            losses[i] += 1
            s.ssthresh = s.cc.ssthresh(s, w * seg)
            s.cwnd = s.ssthresh
        heapq.heappush(heap, (t + float(r[i]), i))
    bps = delivered * seg * 8.0 / duration_s
    return RoundModelResult(bps, delivered, losses, duration_s)


__all__ = ["RoundModelResult", "simulate_rounds"]
