"""The iteration model of Song et al., sections 4.1–4.2 (eqs. 1–3 and 12–19).

One TCP NewReno flow is striped round-robin over ``n`` links with bandwidths ``b``
(bit/s) and round-trip propagation delays ``d`` (s).  Round *i* starts with the *i*-th
non-duplicate ACK; the sender emits ``C_i`` segments, and the model iterates

* ``C_{i+1} = F(C_i) + 1`` in slow start (``i < I_s``), ``F(C_i) + 1/w_i`` afterwards
  (eq. 16), with ``F(C) = E(A_{i+1})`` from eq. 13 and ``I_s = W_S - W_I`` (eq. 14);
* ``w_{i+1} = w_i + 1`` or ``w_i + 1/w_i`` (eq. 15);
* ``E(T_i)`` from eq. 12, using ``D_{i,k}`` of eq. 3 for the links of eq. 2;

until ``s Σ C_k >= E`` (eq. 17), and returns ``E / Σ E(T_k)`` (eqs. 18–19).

Interpretations (the paper is silent; each is a documented, selectable choice):

* **Units.**  Windows ``W_I``, ``W_S`` are given in bytes (Table 2) and converted to
  segments by dividing by ``s``; so ``I_s = (W_S - W_I)/s`` rounds (121.3 for Table 2).
* **Fractional C_i.**  From round 2 on ``C_i`` is fractional, but eqs. 5–13 are
  combinatorial in an integer ``C``.  Default ``fractional_c="interpolate"``: evaluate
  ``F`` and the ``E(T)`` weights at ``⌊C⌋`` and ``⌈C⌉`` and interpolate linearly;
  alternative ``"round"`` uses the nearest integer.
* **Link of the first segment.**  Eq. 2 needs ``Σ_{k<i} C_k mod n`` for fractional
  ``C_k``; we use the whole segments sent so far, ``⌊Σ_{k<i} C_k⌋ mod n``.
* **Queue position (erratum, eq. 3).**  Eq. 3 charges SGM_{i,j} ``⌊j/n⌋ + 1`` segment
  transmission times on its link, but with the 1-based ``j`` of eq. 2 the j-th segment
  is the ``⌊(j-1)/n⌋ + 1``-th on its link (links start the round idle): e.g. with one
  link the first segment would wait for two transmission times.  ``variant="exact"``
  uses ``⌊(j-1)/n⌋ + 1`` (checked against an event-driven FIFO in the tests);
  ``"as_printed"`` keeps ``⌊j/n⌋ + 1``.
* **Transfer size E.**  Not given in the paper; default :data:`DEFAULT_TRANSFER_BYTES`.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..._validate import as_float_array, check_choice, check_int, check_positive
from .probabilities import MAX_TABLE_SEGMENTS, PMF_VARIANTS, moment_table

#: Default transfer size E (bytes): 1 MB.  The paper does not state E.  Slow start
#: (C ≈ 3 segments per ACK) is a larger share of a short transfer, so throughput falls
#: slowly with E (about 10 % from 1 MB to 20 MB for Table 2); the model-check chapter
#: shows the curve, and every sweep accepts ``transfer_bytes``.
DEFAULT_TRANSFER_BYTES = 1_000_000

#: Largest transfer, in segments, the iteration accepts (guards against hour-long loops).
MAX_TRANSFER_SEGMENTS = 5_000_000

FRACTIONAL_C = ("interpolate", "round")

#: Where the book explains why the model may exceed the links' capacity.
ABOVE_CAPACITY_ERRATUM = ("book/errata.md, 'Not errata, but limits of the model worth knowing': "
                          "'Throughput above capacity'")


class AboveCapacityWarning(UserWarning):
    """The model's throughput exceeds the links' summed bandwidth: a property of the published model
    (a round is charged only the serialisation of the segments that trigger the next ACK; see
    :data:`ABOVE_CAPACITY_ERRATUM`), not an error of this implementation."""


_ABOVE_CAPACITY_WARNED = [False]  # warn once per process


@dataclass(frozen=True)
class Variant:
    """Which form of each erratum-affected equation the model uses.

    ``queue_position`` — eq. 3: ``"exact"`` (``⌊(j-1)/n⌋+1``) or ``"as_printed"`` (``⌊j/n⌋+1``).
    ``case2`` — eqs. 9/11: ``"exact"`` or ``"as_printed"`` (see :mod:`.probabilities`).
    """

    queue_position: str = "exact"
    case2: str = "exact"

    def __post_init__(self):
        check_choice("queue_position", self.queue_position, PMF_VARIANTS)
        check_choice("case2", self.case2, PMF_VARIANTS)


VARIANTS = {"exact": Variant("exact", "exact"), "as_printed": Variant("as_printed", "as_printed")}


def resolve_variant(variant) -> Variant:
    """``"exact"``, ``"as_printed"`` or a :class:`Variant` → :class:`Variant`."""
    if isinstance(variant, Variant):
        return variant
    if isinstance(variant, str) and variant in VARIANTS:
        return VARIANTS[variant]
    raise ValueError(f"variant must be one of {sorted(VARIANTS)} or a cmtlab.papers.song.Variant, got {variant!r}")


def queue_position(j, n: int, variant="exact"):
    """Segments queued on SGM_{i,j}'s link up to and including itself (eq. 3's factor).

    ``j`` is 1-based (eq. 2).  Exact: ``⌊(j-1)/n⌋ + 1``; as printed: ``⌊j/n⌋ + 1``.
    """
    j = np.asarray(j)
    if resolve_variant(variant).queue_position == "exact":
        return (j - 1) // n + 1
    return j // n + 1


def _link_sets(bandwidths_bps, delays_s) -> tuple[np.ndarray, np.ndarray]:
    """Validate bandwidths/delays: 1-D (one link set) or 2-D (rows of link sets)."""
    b = as_float_array("bandwidths_bps", bandwidths_bps, ndims=(1, 2))  # one link set, or rows of link sets
    d = as_float_array("delays_s", delays_s, ndims=(1, 2))
    if b.shape != d.shape:
        raise ValueError(f"bandwidths_bps and delays_s must have the same shape (one delay per link), "
                         f"got {b.shape} and {d.shape}")
    if np.any(b <= 0):
        raise ValueError("bandwidths_bps must be > 0 (bit/s)")
    if np.any(d < 0):
        raise ValueError("delays_s must be >= 0 (seconds)")
    return np.atleast_2d(b), np.atleast_2d(d)


def _check_model_args(segment_bytes, initial_window_bytes, ssthresh_bytes, m_ack, transfer_bytes, fractional_c):
    s = check_positive("segment_bytes", segment_bytes)
    iw = check_positive("initial_window_bytes", initial_window_bytes)
    ss = check_positive("ssthresh_bytes", ssthresh_bytes)
    if iw < s:
        raise ValueError(f"initial_window_bytes must be >= segment_bytes ({s:g}), got {iw:g}")
    if iw / s > MAX_TABLE_SEGMENTS - 2:
        raise ValueError(f"initial_window_bytes must be <= {MAX_TABLE_SEGMENTS - 2} segments "
                         f"({(MAX_TABLE_SEGMENTS - 2) * s:.3g} bytes at segment_bytes={s:g}), got {iw:g}")
    m_ack = check_int("m_ack", m_ack, minimum=1, maximum=64)
    E = check_positive("transfer_bytes", transfer_bytes)
    if E / s > MAX_TRANSFER_SEGMENTS:
        raise ValueError(f"transfer_bytes must be <= {MAX_TRANSFER_SEGMENTS} segments "
                         f"({MAX_TRANSFER_SEGMENTS * s:.3g} bytes at segment_bytes={s:g}), got {E:g}")
    check_choice("fractional_c", fractional_c, FRACTIONAL_C)
    return s, iw, ss, m_ack, E


def _table_lookup(table: np.ndarray, C: np.ndarray, fractional_c: str) -> np.ndarray:
    """Evaluate an integer-C table at real C (linear interpolation or rounding)."""
    if fractional_c == "round":
        return table[np.maximum(np.rint(C).astype(int), 1)]
    lo = np.floor(C).astype(int)
    frac = C - lo
    if table.ndim == 2:
        frac = frac[:, None]
    return (1.0 - frac) * table[lo] + frac * table[np.minimum(lo + 1, table.shape[0] - 1)]


def ack_function(C, m_ack: int = 2, variant="exact", fractional_c: str = "interpolate") -> np.ndarray:
    """``F(C) = E(A_{i+1})`` (eq. 13) at real ``C >= 1``, as the iteration evaluates it."""
    c = as_float_array("C", C)
    if not (np.all(c >= 1) and np.all(c <= MAX_TABLE_SEGMENTS - 1)):
        raise ValueError(f"C must be in [1, {MAX_TABLE_SEGMENTS - 1}] (segments sent in a round), got {C!r}")
    check_choice("fractional_c", fractional_c, FRACTIONAL_C)
    EA, _ = moment_table(int(np.ceil(c.max())) + 1, check_int("m_ack", m_ack, minimum=1),
                         resolve_variant(variant).case2)
    return _table_lookup(EA, c, fractional_c)


def _iterate(b, d, *, s, iw, ss, m_ack, E, variant: Variant, fractional_c, trace=False, progress=False):
    """Core loop, vectorised over the rows of ``b``/``d``.  Returns (throughput bit/s, trace)."""
    P, n = b.shape
    W_I, W_S = iw / s, ss / s
    I_s = W_S - W_I  # eq. 14, in rounds
    tx_time = s * 8.0 / b  # seconds to serialise one segment on each link, (P, n)
    k = np.arange(1, m_ack + 1)
    pos = queue_position(k, n, variant)  # eq. 3 factor for SGM_{i,1..m_ack}
    c_max = max(8, int(np.ceil(W_I)) + 2)
    EA, Wt = moment_table(c_max, m_ack, variant.case2)

    C = np.full(P, W_I)
    w = np.full(P, W_I)
    sent = np.zeros(P)  # segments sent before the current round
    T_hat = np.zeros(P)
    active = np.ones(P, dtype=bool)
    rows = []
    i = 1
    bar = None
    if progress:
        from ...progress import progress as _bar
        bar = _bar(total=int(np.ceil(E / s)), desc="Song model (segments)", unit="seg")
    while active.any():
        if C.max() + 2 > c_max:
            if C.max() + 2 > MAX_TABLE_SEGMENTS:
                raise ValueError(f"transfer_bytes = {E:g} is too large for the iteration: its window would exceed "
                                 f"{MAX_TABLE_SEGMENTS} segments of {s:g} bytes (the transfer has "
                                 f"{E / s:.3g} segments; about {0.5 * (MAX_TABLE_SEGMENTS - 2) ** 2:.1g} fit)")
            c_max = min(int(2 * C.max()) + 2, MAX_TABLE_SEGMENTS)
            EA, Wt = moment_table(c_max, m_ack, variant.case2)
        idx = np.flatnonzero(active)
        offset = np.floor(sent[idx] + 1e-9).astype(np.int64) % n  # eq. 2: link of SGM_{i,1} (0-based)
        links = (offset[:, None] + k[None, :] - 1) % n  # (p, m_ack)
        rows_idx = idx[:, None]
        D = pos[None, :] * tx_time[rows_idx, links] + d[rows_idx, links]  # eq. 3, (p, m_ack)
        ET = np.einsum("pk,pk->p", _table_lookup(Wt, C[idx], fractional_c), D)  # eq. 12
        T_hat[idx] += ET  # eq. 18
        sent[idx] += C[idx]  # eq. 17 (in segments)
        if trace:
            rows.append(dict(round=i, C=C[0], w=w[0], E_T_s=ET[0], sent_bytes=sent[0] * s, T_hat_s=T_hat[0]))
        if bar is not None:
            bar.update(max(int(min(sent.min(), E / s)) - bar.n, 0))  # segments done by every row
        finished = sent[idx] * s >= E  # step 6
        active[idx[finished]] = False
        # eqs. 15–16 for round i+1 (computed for all rows; finished rows are frozen by `active`)
        F = _table_lookup(EA, C, fractional_c)
        delta = 1.0 if i < I_s else 1.0 / w
        C = np.where(active, F + delta, C)
        w = np.where(active, w + delta, w)
        i += 1
    if bar is not None:
        bar.close()
    thr = E * 8.0 / T_hat  # eq. 19, bit/s
    return thr, (pd.DataFrame(rows) if trace else None)


def throughput_many(bandwidths_bps, delays_s, *, segment_bytes: float = 536, initial_window_bytes: float = 536,
                    ssthresh_bytes: float = 65535, m_ack: int = 2,
                    transfer_bytes: float = DEFAULT_TRANSFER_BYTES, variant="exact",
                    fractional_c: str = "interpolate", progress: bool = False) -> np.ndarray:
    """Model throughput (bit/s) for many link sets at once.

    ``bandwidths_bps`` and ``delays_s`` are 2-D arrays, one row per link set (all rows
    with the same number of links), or 1-D for a single set.  Returns one throughput per
    row.  See :func:`throughput` for the parameters; as there, a value may exceed the row's
    summed bandwidth (a property of the published model), but no warning is given here: the
    figures sweep such sets on purpose.
    """
    b, d = _link_sets(bandwidths_bps, delays_s)
    s, iw, ss, m_ack, E = _check_model_args(segment_bytes, initial_window_bytes, ssthresh_bytes, m_ack,
                                           transfer_bytes, fractional_c)
    thr, _ = _iterate(b, d, s=s, iw=iw, ss=ss, m_ack=m_ack, E=E, variant=resolve_variant(variant),
                      fractional_c=fractional_c, progress=progress)
    return thr


def throughput(bandwidths_bps, delays_s, *, segment_bytes: float = 536, initial_window_bytes: float = 536,
               ssthresh_bytes: float = 65535, m_ack: int = 2, transfer_bytes: float = DEFAULT_TRANSFER_BYTES,
               variant="exact", fractional_c: str = "interpolate") -> float:
    """Average throughput (bit/s) of one TCP flow striped round-robin over the links — Song eq. 19.

    Parameters
    ----------
    bandwidths_bps : list of float
        Link bandwidths ``B`` in bit/s (> 0), one per link.
    delays_s : list of float
        Round-trip propagation delays ``D`` in seconds (>= 0), one per link.
    segment_bytes : float
        Segment size ``s`` (Table 2: 536 B).
    initial_window_bytes, ssthresh_bytes : float
        ``W_I`` and ``W_S`` in bytes (Table 2: 536 B and 65535 B).
    m_ack : int
        Delayed-ACK count ``m_ACK`` (Table 2: 2).
    transfer_bytes : float
        Transfer size ``E`` in bytes (not in the paper; default 1 MB).
    variant : ``"exact"`` | ``"as_printed"`` | :class:`Variant`
        Corrected (default) or printed forms of eqs. 3 and 9/11.
    fractional_c : ``"interpolate"`` | ``"round"``
        How the integer-C probabilities are evaluated at fractional ``C_i``.

    Warns
    -----
    AboveCapacityWarning
        Once per process, when the value exceeds the links' summed bandwidth.  The published
        model can predict more than the links carry: a round is charged only the serialisation
        of the segments that trigger the next ACK, not of all ``C_i`` sent in it, so on slow
        links with short delays the value is too high (147.6 kbit/s on one 100 kbit/s link with
        no propagation delay, 136.6 kbit/s at 5 ms).  It is the model as published, not a fault
        of this implementation: see the errata (:data:`ABOVE_CAPACITY_ERRATUM`).
    """
    value = float(throughput_many(bandwidths_bps, delays_s, segment_bytes=segment_bytes,
                                  initial_window_bytes=initial_window_bytes, ssthresh_bytes=ssthresh_bytes,
                                  m_ack=m_ack, transfer_bytes=transfer_bytes, variant=variant,
                                  fractional_c=fractional_c)[0])
    capacity = float(np.sum(as_float_array("bandwidths_bps", bandwidths_bps)))
    if value > capacity and not _ABOVE_CAPACITY_WARNED[0]:
        _ABOVE_CAPACITY_WARNED[0] = True
        warnings.warn(f"Song's model gives {value / 1e3:.1f} kbit/s on links of {capacity / 1e3:.1f} kbit/s in all, "
                      f"more than they can carry: a property of the published model, not of this implementation "
                      f"(see {ABOVE_CAPACITY_ERRATUM}).  Shown once per process.", AboveCapacityWarning, stacklevel=2)
    return value


def rounds(bandwidths_bps, delays_s, **kwargs) -> pd.DataFrame:
    """Round-by-round trace of the iteration for one link set (C_i, w_i, E(T_i), Σ bytes, T̂).

    Same keyword arguments as :func:`throughput`.
    """
    b = as_float_array("bandwidths_bps", bandwidths_bps)
    d = as_float_array("delays_s", delays_s)
    b, d = _link_sets(b, d)
    opts = dict(segment_bytes=536, initial_window_bytes=536, ssthresh_bytes=65535, m_ack=2,
                transfer_bytes=DEFAULT_TRANSFER_BYTES, variant="exact", fractional_c="interpolate")
    unknown = set(kwargs) - set(opts)
    if unknown:
        raise ValueError(f"unknown parameter(s) {sorted(unknown)}; allowed: {sorted(opts)}")
    opts.update(kwargs)
    s, iw, ss, m_ack, E = _check_model_args(opts["segment_bytes"], opts["initial_window_bytes"],
                                           opts["ssthresh_bytes"], opts["m_ack"], opts["transfer_bytes"],
                                           opts["fractional_c"])
    _, tr = _iterate(b, d, s=s, iw=iw, ss=ss, m_ack=m_ack, E=E, variant=resolve_variant(opts["variant"]),
                     fractional_c=opts["fractional_c"], trace=True)
    return tr
