"""Monte-Carlo of random arrival orders — the independent check of Song eqs. 5–13.

Draws uniformly random arrival orders of the ``C`` segments of one round and applies
the receiver rules of Song section 4.1 literally, with no closed form involved:

* Case I (SGM_1 arrives first): count the in-order run ``m`` (SGM_1, SGM_2, …, SGM_m
  arrive as the first ``m`` arrivals) and ACK ``A = min(m, m_ACK)`` at ``T = D_A``;
* Case II (SGM_1 not first): on SGM_1's arrival the cumulative ACK covers ``q`` segments,
  where SGM_2..SGM_q all arrived before SGM_1 and SGM_{q+1} did not; ``T = D_1``.

Also an event-driven check of eq. 3 (queueing on round-robin FIFO links).
"""

from __future__ import annotations

import numpy as np

from ..._validate import as_float_array, check_int


def sample_rounds(C: int, m_ack: int = 2, *, n_samples: int = 100_000, seed: int = 0,
                  chunk: int = 200_000) -> dict:
    """Simulate ``n_samples`` rounds of ``C`` segments with uniform random arrival order.

    Returns ``{"first": bool array (case I), "A": int array}``; ``A`` is the number of
    segments the next non-duplicate ACK acknowledges (1-based counts).
    """
    C = check_int("C", C, minimum=1, maximum=10_000)
    m_ack = check_int("m_ack", m_ack, minimum=1, maximum=64)
    n_samples = check_int("n_samples", n_samples, minimum=1, maximum=100_000_000)
    check_int("seed", seed, minimum=0)
    rng = np.random.default_rng(seed)
    firsts, acks = [], []
    left = n_samples
    while left > 0:
        n = min(chunk, left)
        left -= n
        # order[r, t] = segment (0-based) that arrives t-th in sample r
        order = rng.permuted(np.broadcast_to(np.arange(C), (n, C)), axis=1)
        first = order[:, 0] == 0
        # Case I: in-order prefix length m
        in_order = order == np.arange(C)
        m = np.where(in_order.all(axis=1), C, np.argmin(in_order, axis=1))
        a1 = np.minimum(m, m_ack)
        # Case II: arrival position of each segment
        pos = np.argsort(order, axis=1)
        before_first = pos[:, 1:] < pos[:, [0]]  # SGM_2..SGM_C arrived before SGM_1?
        run = np.where(before_first.all(axis=1), C - 1, np.argmin(before_first, axis=1)) if C > 1 \
            else np.zeros(n, dtype=int)
        q = 1 + run
        firsts.append(first)
        acks.append(np.where(first, a1, q))
    return {"first": np.concatenate(firsts), "A": np.concatenate(acks)}


def empirical_pmfs(C: int, m_ack: int = 2, *, n_samples: int = 100_000, seed: int = 0) -> dict:
    """Monte-Carlo estimates of ``P(F)``, ``P(A=k|F)``, ``P(A=k|F̄)`` (k = 1..C) and E(A)."""
    s = sample_rounds(C, m_ack, n_samples=n_samples, seed=seed)
    first, A = s["first"], s["A"]
    k = np.arange(1, C + 1)
    n1, n2 = int(first.sum()), int((~first).sum())
    # a case that never occurred (case II when C = 1) has no empirical distribution: NaN, not zeros
    p1 = np.bincount(A[first], minlength=C + 1)[1:] / n1 if n1 else np.full(C, np.nan)
    p2 = np.bincount(A[~first], minlength=C + 1)[1:] / n2 if n2 else np.full(C, np.nan)
    return {"P_F": float(first.mean()), "case1": p1, "case2": p2,
            "E1": float(k @ p1), "E2": float(k @ p2), "E": float(A.mean()),
            "n_case1": int(first.sum()), "n_case2": int((~first).sum())}


def mean_round_time(C: int, arrival_times_s, m_ack: int = 2, *, n_samples: int = 100_000,
                    seed: int = 0) -> float:
    """Monte-Carlo ``E(T_i)`` for given per-segment times ``D_{i,1..C}`` (eqs. 7, 10, 12).

    ``T = D_{i,A}`` in case I and ``T = D_{i,1}`` in case II.
    """
    D = as_float_array("arrival_times_s", arrival_times_s)
    if D.size < min(C, m_ack):
        raise ValueError(f"arrival_times_s must give at least min(C, m_ack) = {min(C, m_ack)} values")
    s = sample_rounds(C, m_ack, n_samples=n_samples, seed=seed)
    T = np.where(s["first"], D[np.minimum(s["A"], D.size) - 1], D[0])
    return float(T.mean())


def fifo_arrival_times(C: int, first_link: int, bandwidths_bps, delays_s, segment_bytes: float) -> np.ndarray:
    """Event-driven arrival times of the ``C`` segments of a round (independent check of eq. 3).

    Segments are handed at time 0 to the links in round-robin order starting at link
    ``first_link`` (0-based, eq. 2); each link is an initially idle FIFO serialising
    ``segment_bytes`` at its bandwidth, then adds its delay.
    """
    C = check_int("C", C, minimum=1, maximum=10_000)
    b = as_float_array("bandwidths_bps", bandwidths_bps)
    d = as_float_array("delays_s", delays_s)
    n = b.size
    busy_until = np.zeros(n)
    out = np.empty(C)
    for j in range(C):
        link = (first_link + j) % n
        busy_until[link] += segment_bytes * 8.0 / b[link]
        out[j] = busy_until[link] + d[link]
    return out
