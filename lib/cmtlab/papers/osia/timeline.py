"""A deterministic per-packet timeline: does a schedule really arrive in order?

Independent of the bucket algebra of :mod:`cmtlab.papers.osia.model`: each path is a FIFO that serialises the
packets assigned to it at its rate (``8 s / b_i`` seconds per packet), starting a packet no
earlier than its release time, and delivers it ``d_i`` later (one-way delay; no loss, no cross
traffic, no TCP).  The receiver acknowledges cumulatively; every arrival above the next expected
packet is a duplicate ACK for the current hole, and the ``threshold``-th duplicate of the same ACK
is one "3-dupACK event" (a fast retransmit a TCP sender would make; the counter restarts with each
new cumulative ACK).  Simultaneous arrivals (equal to the nanosecond) are taken in sequence order.

Schedules built here:

* :func:`osia_schedule` — the packets of one scheduling period cut into OSIA's chunks and
  assigned to paths by the faucets of :mod:`cmtlab.papers.osia.model` (deterministic or, as the paper does,
  probabilistic with ``g_ih``);
* :func:`round_robin_schedule` — strict alternation, packets paced ``spacing_s`` apart.

:func:`rr_three_dupack_closed_form` is the closed form for round robin over two paths checked
against this counter in the OSIA chapter.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..._validate import check_choice, check_int, check_non_negative, check_positive
from .model import (PathSet, _as_pathset, chunk_fractions, path_probabilities, start_times,
                    total_data_bits)

ASSIGNMENTS = ("faucet", "probabilistic")


#: Most packets a schedule may hold (one table row per packet).
MAX_PACKETS = 10_000_000
#: Most paths of a round-robin schedule.
MAX_PATHS = 1000


def packet_time_s(packet_bytes: float, rate_bps) -> np.ndarray:
    """Serialisation time of one packet, ``8 s / b`` (s)."""
    return check_positive("packet_bytes", packet_bytes) * 8.0 / np.asarray(rate_bps, dtype=float)


def arrival_times_s(path, release_s, rates_bps, delays_s, packet_bytes: float) -> np.ndarray:
    """Arrival time of every packet (index = sequence number) on FIFO paths (see module docstring).

    ``path[k]`` is the 0-based path of packet ``k``, ``release_s[k]`` the earliest time it may
    start on the wire.  Each path serves its packets in order of (release time, sequence number).
    """
    path = np.asarray(path, dtype=int)
    rel = np.asarray(release_s, dtype=float)
    b = np.asarray(rates_bps, dtype=float)
    d = np.asarray(delays_s, dtype=float)
    if path.shape != rel.shape:
        raise ValueError("path and release_s must have one entry per packet")
    if path.size and (path.min() < 0 or path.max() >= b.size):
        raise ValueError(f"path indices must be in 0..{b.size - 1}")
    if np.any(rel < 0) or not np.all(np.isfinite(rel)):
        raise ValueError("release_s must be finite and >= 0")
    tx = packet_time_s(packet_bytes, b)
    arrive = np.empty(path.size)
    for i in range(b.size):
        idx = np.flatnonzero(path == i)
        if idx.size == 0:
            continue
        idx = idx[np.lexsort((idx, rel[idx]))]
        busy = 0.0
        for k in idx:
            busy = max(busy, rel[k]) + tx[i]
            arrive[k] = busy + d[i]
    return arrive


def reorder_stats(arrival_s, *, threshold: int = 3) -> dict:
    """Reordering seen by a cumulative-ACK receiver for arrival times indexed by sequence number.

    Returns ``late_packets`` (packets that arrive after some higher-numbered packet),
    ``dupacks`` (arrivals above the next expected packet), ``events`` (``threshold``-th duplicate
    of one ACK number), ``max_dupacks`` (longest run of duplicates of one ACK) and
    ``in_order`` (no packet late).
    """
    threshold = check_int("threshold", threshold, minimum=1)
    a = np.rint(np.asarray(arrival_s, dtype=float) * 1e9).astype(np.int64)
    n = a.size
    order = np.lexsort((np.arange(n), a))
    seen_max = np.maximum.accumulate(order) if n else order
    late = int(np.sum(order[1:] < seen_max[:-1])) if n > 1 else 0
    received = np.zeros(n + 1, dtype=bool)
    expected = 0
    dup = 0
    dups = events = max_dup = 0
    for k in order:
        received[k] = True
        if k == expected:
            while received[expected]:
                expected += 1
            dup = 0
        elif k > expected:
            dup += 1
            dups += 1
            max_dup = max(max_dup, dup)
            if dup == threshold:
                events += 1
    return dict(late_packets=late, dupacks=dups, events=events, max_dupacks=max_dup, in_order=late == 0)


# ----------------------------------------------------------------------------- OSIA's packet schedule


def osia_schedule(paths, n_packets: int, packet_bytes: float, *, assignment: str = "faucet",
                  fraction_form: str = "consistent", start_form: str = "consistent",
                  seed: int = 0) -> pd.DataFrame:
    """The packets ``0…n_packets−1`` of one period cut into chunks and assigned by the faucets.

    Faucet plan.  Chunk ``h < N`` gives path ``i <= h`` a whole number ``n_ih`` of packets:
    ``fraction_form="consistent"``: ``⌊b_i (d_{h+1} − d_h) / (8 s)⌋`` (the packets that fit into
    its fluid share, eq. 10; a little capacity stays idle); ``"printed"``:
    ``round(f_h g_ih W_pre / (8 s))`` with ``f_h`` of eq. 13 as printed, ``g_ih`` of eq. 12 and
    ``W_pre = Σ b_i (d_N − d_i)``.  Path ``i``'s faucet opens at ``ST_i^h``
    (:func:`.model.start_times`, ``start_form``) and leaks at ``b_i``: its ``j``-th packet of the
    chunk is released at ``ST_i^h + (j − 1) · 8 s / b_i`` and *planned* to arrive at
    ``ST_i^h + j · 8 s / b_i + d_i``.  The packets left after chunks ``1…N−1`` form the open chunk
    ``N`` on all paths (``n_iN`` as many as needed).

    ``assignment="faucet"`` (default, deterministic): within a chunk, sequence numbers follow
    the planned arrival times (ties to the faster path) — the discrete form of the proportional
    split ``g_ih``.  ``"probabilistic"`` (the paper's "probabilistic scheduling"): each packet of
    chunk ``h`` draws its path with probabilities ``g_ih`` (seeded by ``seed``) and is released at
    ``ST_i^h``; chunk sizes as above.

    Whether the packets really arrive in order is decided by :func:`run_schedule`, not here.
    Columns: ``seq, chunk (1-based), path (0-based, preprocessed), release_s, planned_arrival_s``.
    """
    ps = _as_pathset(paths)
    n_packets = check_int("n_packets", n_packets, minimum=1, maximum=MAX_PACKETS)
    s = check_positive("packet_bytes", packet_bytes)
    check_choice("assignment", assignment, ASSIGNMENTS)
    check_choice("fraction_form", fraction_form, ("consistent", "printed"))
    N = ps.n
    b, d = ps.rates_bps, ps.delays_s
    tx = 8.0 * s / b
    g = path_probabilities(ps)
    if fraction_form == "consistent":
        counts = [np.floor(b[: h + 1] * (d[h + 1] - d[h]) / (8 * s) + 1e-9).astype(int) for h in range(N - 1)]
    else:
        f = chunk_fractions(ps, form="printed")
        w_pre = total_data_bits(ps, d[-1])
        counts = [np.rint(f[h] * g[: h + 1, h] * w_pre / (8 * s)).astype(int) for h in range(N - 1)]
    st = start_times(ps, form=start_form)
    rng = np.random.default_rng(seed)
    rows = []
    k = 0
    for h in range(N):
        left = n_packets - k
        if left <= 0:
            break
        if h < N - 1:
            n_ih = counts[h]
            size = min(int(n_ih.sum()), left)
        else:
            n_ih = np.ceil(left * g[:, h]).astype(int) + 1  # enough slots on every path of the open chunk
            size = left
        if assignment == "faucet":
            slots = [(st[i, h] + j * tx[i] + d[i], i, j) for i in range(h + 1) for j in range(1, n_ih[i] + 1)]
            slots.sort(key=lambda x: (x[0], x[1]))
            for arr, i, j in slots[:size]:
                rows.append((k, h + 1, i, st[i, h] + (j - 1) * tx[i], arr))
                k += 1
        else:
            picks = rng.choice(h + 1, size=size, p=g[: h + 1, h] / g[: h + 1, h].sum())
            for i in picks:
                rows.append((k, h + 1, int(i), st[i, h], float("nan")))
                k += 1
    return pd.DataFrame(rows, columns=["seq", "chunk", "path", "release_s", "planned_arrival_s"])


def run_schedule(paths, schedule: pd.DataFrame, packet_bytes: float, *, threshold: int = 3) -> dict:
    """Arrival times of ``schedule`` on ``paths`` (:func:`arrival_times_s`) and their :func:`reorder_stats`.

    ``paths`` is a :class:`.model.PathSet` (path numbers of the preprocessed set) or a
    ``(rates_bps, delays_s)`` pair taken as is (no sorting or merging: path ``k`` is entry ``k``).
    """
    if isinstance(paths, PathSet):
        rates, delays = paths.rates_bps, paths.delays_s
    else:
        try:
            rates, delays = paths
        except (TypeError, ValueError) as exc:
            raise ValueError("paths must be a PathSet or a (rates_bps, delays_s) pair") from exc
    arr = arrival_times_s(schedule.path.to_numpy(), schedule.release_s.to_numpy(), rates, delays, packet_bytes)
    out = reorder_stats(arr, threshold=threshold)
    out["arrival_s"] = arr
    out["completion_s"] = float(arr.max())
    return out


def period_packets(paths, packet_bytes: float, level_s: float) -> int:
    """Whole packets the buckets hold at level ``L*`` (``⌊W(L*) / 8 s⌋``, eq. 11)."""
    return int(total_data_bits(paths, level_s) // (8 * check_positive("packet_bytes", packet_bytes)))


# ----------------------------------------------------------------------------- round robin


def round_robin_schedule(n_paths: int, n_packets: int, spacing_s: float, *, first_path: int = 0) -> pd.DataFrame:
    """Strict alternation: packet ``k`` on path ``(first_path + k) mod n_paths``, released at ``k · spacing_s``."""
    n_paths = check_int("n_paths", n_paths, minimum=1, maximum=MAX_PATHS)
    n_packets = check_int("n_packets", n_packets, minimum=1, maximum=MAX_PACKETS)
    tau = check_non_negative("spacing_s", spacing_s)
    first_path = check_int("first_path", first_path, minimum=0, maximum=n_paths - 1)
    k = np.arange(n_packets)
    return pd.DataFrame({"seq": k, "chunk": 1, "path": (first_path + k) % n_paths, "release_s": k * tau})


def rr_three_dupack_closed_form(rates_bps, delays_s, packet_bytes: float, n_packets: int, spacing_s: float, *,
                                first_path: int = 0, threshold: int = 3) -> dict:
    """Expected number of ``threshold``-dupACK events of round robin over two paths (derivation in the chapter).

    Packet ``k`` is released at ``k τ`` on path ``(first_path + k) mod 2``.  Path ``i`` then
    delivers its ``j``-th packet at ``c_i + j σ_i`` with ``σ_i = max(2τ, T_i)``, ``T_i = 8 s / b_i``
    and ``c_i = p_i τ + T_i + d_i`` (``p_i`` = 0 for the path of packet 0, else 1): a FIFO fed every
    ``2τ`` never queues if ``T_i <= 2τ`` and sends back to back otherwise.  Let ``E`` be the path
    whose first packet arrives first and ``L`` the other one (``c_L > c_E``).

    * The first packet of ``L`` is overtaken by ``m = #{k >= k_0 : c_E + k σ_E < c_L}`` packets of
      ``E`` (``k_0`` = 1 if ``E`` carries packet 0 else 0), all duplicates of one ACK.
    * Every later packet of ``L`` is the hole for the ``E`` arrivals between its predecessor's
      arrival and its own: ``σ_L/σ_E`` of them on average over the phase (``⌊·⌋`` or ``⌈·⌉``),
      so it triggers an event with probability ``clip(σ_L/σ_E − (threshold − 1), 0, 1)``,
      for the ``H`` packets of ``L`` that arrive while ``E`` still delivers.

    ``E[events] = 1[m >= threshold] + H · clip(σ_L/σ_E − threshold + 1, 0, 1)``.  If
    ``σ_L < σ_E`` the lag of ``L`` shrinks by ``σ_E − σ_L`` per packet, the paths swap roles after
    ``j* = (c_L − c_E)/(σ_E − σ_L)`` packets, and the second term is taken for ``E`` as the late
    path (ratio ``σ_E/σ_L``, holes after ``j*``).  For a paced
    sender (``T_i <= 2τ``, so ``σ_L = σ_E``) only the first term remains: an event needs a
    delay difference of more than ``2·threshold − 1`` packet spacings, and happens once.
    """
    b = np.asarray(rates_bps, dtype=float)
    d = np.asarray(delays_s, dtype=float)
    if b.shape != (2,) or d.shape != (2,):
        raise ValueError("rates_bps and delays_s must describe exactly two paths")
    if np.any(b <= 0) or np.any(d < 0):
        raise ValueError("rates_bps must be > 0 and delays_s >= 0")
    n = check_int("n_packets", n_packets, minimum=2, maximum=MAX_PACKETS)
    tau = check_non_negative("spacing_s", spacing_s)
    first_path = check_int("first_path", first_path, minimum=0, maximum=1)
    threshold = check_int("threshold", threshold, minimum=1)
    T = packet_time_s(packet_bytes, b)
    p = np.array([0, 1]) if first_path == 0 else np.array([1, 0])
    sigma = np.maximum(2 * tau, T)
    c = p * tau + T + d
    n_on = np.array([(n - p[0] + 1) // 2, (n - p[1] + 1) // 2])
    L = int(np.argmax(c))
    E = 1 - L
    if c[L] == c[E]:
        return dict(expected=float("nan"), m_first=float("nan"), rho=float("nan"), holes=float("nan"))
    k0 = 1 if p[E] < p[L] else 0
    m = max(0, math.ceil((c[L] - c[E]) / sigma[E] - 1e-12) - k0)
    m = min(m, n_on[E] - k0)
    first = float(m >= threshold)

    def phase(late, early, j_from):
        """Holes of path ``late`` from its ``j_from``-th packet while ``early`` still delivers."""
        last_early = c[early] + (n_on[early] - 1) * sigma[early]
        j_to = min(n_on[late] - 1, math.floor((last_early - c[late]) / sigma[late] + 1e-12))
        holes = max(0, j_to - j_from + 1)
        ratio = float(sigma[late] / sigma[early])
        return holes, ratio, holes * min(1.0, max(0.0, ratio - threshold + 1))

    if sigma[L] >= sigma[E] - 1e-15:  # L stays late
        holes, rho, more = phase(L, E, 1)
    else:  # L's lag shrinks by σ_E − σ_L per packet and E becomes the late path after j*
        j_star = (c[L] - c[E]) / (sigma[E] - sigma[L])
        holes, rho, more = phase(E, L, max(1, math.floor(j_star) + 1))
    expected = first + more
    return dict(expected=expected, m_first=int(m), rho=rho, holes=int(holes))
