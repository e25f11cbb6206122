"""ACK probabilities of Song et al., section 4.1 (eqs. 4–13).

In round *i* the sender emits ``C`` segments; the model treats their arrival order at
the receiver as a uniformly random permutation (the paper's justification: round-robin
makes the per-segment delays "uniform after a large amount of rounds").  The next
non-duplicate ACK acknowledges ``A`` segments, and its distribution depends on whether
the first segment SGM_{i,1} arrives first:

* **Case I** (probability ``P(F) = 1/C``, eq. 4): the receiver sees ``m`` in-order
  segments before the first out-of-order one and ACKs ``A = min(m, m_ACK)`` segments
  (eqs. 5–6); ``T_i ≈ D_{i,A}``.
* **Case II** (probability ``1 - 1/C``): SGM_{i,1} fills a gap and the ACK acknowledges
  ``A = q`` segments, where ``q - 1`` is the run SGM_{i,2..q} already received (eq. 9);
  ``T_i = D_{i,1}`` (eq. 10).

Exact forms (derived from the permutation model, and checked by Monte-Carlo in the tests
and in the book's model-check chapter)::

    P(m >= k | F) = (C-k)!/(C-1)!                       → P(m = k | F) = (C-k-1)(C-k-1)!/(C-1)!  (k < C),
                                                          P(m = C | F) = 1/(C-1)!              [eqs. 5–6 as printed]
    P(q >= k)     = 1/k  (SGM_1 is last among SGM_1..k) → P(q = k | F̄) = C / ((C-1) k (k+1))  (1 < k < C)
                                                          P(q = 1 | F̄) = (C-2) / (2 (C-1)),
                                                          P(q = C | F̄) = 1/(C-1)

**Erratum (eq. 9).**  The printed middle branch carries a factor ``(C - k - 1)`` that
vanishes at ``k = C - 1``, so eq. 9 gives ``P(q = C-1 | F̄) = 0`` although e.g. the
order SGM_2, SGM_1, SGM_3 (C = 3) has ``q = 2``.  Its sum has a closed form
(``Σ_{l=k+1}^{C} (l-2)!/(l-k-1)! (C-l+1) = (k-1)! · binom(C, k+1)``, the hockey-stick
identity applied twice), so the printed middle branch is

    P_printed(q = k | F̄) = C / ((C-1) k (k+1) (C-k-2)!)     (1 < k <= C-2),  0 at k = C-1,

the exact value divided by ``(C-k-2)!``: the two agree for ``k = C-3`` and ``k = C-2`` only.
For ``C <= 5`` that is every ``1 < k < C-1`` and the printed distribution sums to
``1 - 1/(C-1)^2``; from ``C = 6`` on it loses more mass (0.86 instead of 0.96 at ``C = 6``).
Eq. 11 (``E''(A)``) inherits the error.  ``variant="as_printed"`` evaluates the printed
formula (through the closed form above, in O(C)); ``"exact"`` (default) uses the exact law.

Edge cases (documented choices, see the book's model-check chapter):

* ``C = 1``: only one segment; ``P(F) = 1`` and ``A = 1`` in both cases (eqs. 5–6 would
  need ``(-1)!``).
* ``C < m_ACK``: ``A = min(m, m_ACK) = m`` can never reach ``m_ACK``; eqs. 5–6 as printed
  contain factorials of negative numbers there, so both variants use the exact
  ``min(m, m_ACK)`` distribution.
"""

from __future__ import annotations

from functools import lru_cache
from math import lgamma

import numpy as np

from ..._validate import check_choice, check_int

PMF_VARIANTS = ("exact", "as_printed")

#: Largest window ``C`` (segments) of the distributions: arrays of ``C`` values, O(C) work each.
MAX_SEGMENTS = 1_000_000
#: Largest delayed-ACK count ``m_ACK`` (as :func:`cmtlab.scenario.striped_scenario`).
MAX_M_ACK = 64
#: Largest ``c_max`` of :func:`moment_table` (one pair of distributions per ``C = 1..c_max``,
#: O(c_max²) work: about 20 s at the limit).  The model's window grows like ``sqrt(2 E / s)``,
#: so this covers transfers up to about 10^11 segments.
MAX_TABLE_SEGMENTS = 20_000


def _check_c(C) -> int:
    return check_int("C", C, minimum=1, maximum=MAX_SEGMENTS)


def _check_c_mack(C, m_ack):
    return _check_c(C), check_int("m_ack", m_ack, minimum=1, maximum=MAX_M_ACK)


_LOG_GAMMA = np.array([np.inf, 0.0])  # lgamma(n) for n = 0, 1, ...: grown on demand


def _log_gamma(n_max: int) -> np.ndarray:
    """``[lgamma(0), lgamma(1), …, lgamma(n_max)]`` (``math.lgamma`` values, so results match a
    term-by-term evaluation bit for bit), cached and grown as needed."""
    global _LOG_GAMMA
    if _LOG_GAMMA.size <= n_max:
        more = [lgamma(n) for n in range(_LOG_GAMMA.size, max(n_max + 1, 2 * _LOG_GAMMA.size))]
        _LOG_GAMMA = np.append(_LOG_GAMMA, more)
    return _LOG_GAMMA


def run_length_pmf(C: int) -> np.ndarray:
    """``P(m = k | F)`` for ``k = 1..C``: in-order run after SGM_{i,1} arrives first.

    ``m = C - 1`` is impossible (if the first ``C-1`` arrive in order the last one is in
    order too).  Computed via ``P(m >= k | F) = (C-k)!/(C-1)!`` in log space, so large
    ``C`` does not overflow.
    """
    C = _check_c(C)
    lg = _log_gamma(C)
    k = np.arange(1, C + 1)
    # survival S(k) = P(m >= k | F) = (C-k)!/(C-1)! for k <= C, S(C+1) = 0
    surv = np.append(np.exp(lg[C - k + 1] - lg[C]), 0.0)
    return surv[:-1] - surv[1:]


def case1_pmf(C: int, m_ack: int = 2, variant: str = "exact") -> np.ndarray:
    """``P(A = k | F)`` for ``k = 1..C`` (Song eqs. 5–6): ``A = min(m, m_ACK)``.

    Eq. 5 gives the mass below ``m_ACK`` term by term and eq. 6 the mass at ``m_ACK``.
    The printed eqs. 5–6 are correct wherever they are defined (``C >= m_ACK``), so both
    variants coincide; for ``C < m_ACK`` both use the exact ``min(m, m_ACK)`` law.
    """
    C, m_ack = _check_c_mack(C, m_ack)
    check_choice("variant", variant, PMF_VARIANTS)
    pm = run_length_pmf(C)
    pmf = np.zeros(C)
    top = min(m_ack, C)
    pmf[: top - 1] = pm[: top - 1]
    pmf[top - 1] = pm[top - 1:].sum()
    if variant == "as_printed" and C >= m_ack and C >= 2:
        # Literal eqs. 5–6 (identical values; evaluated to keep the printed form selectable)
        kk = np.arange(1, C)  # k = 1 .. C-1 (the term at k = C-1 is zero)
        lg = _log_gamma(C)
        terms = (C - kk - 1) * np.exp(lg[C - kk] - lg[C])
        printed = np.zeros(C)
        printed[: m_ack - 1] = terms[: m_ack - 1]
        printed[m_ack - 1] = np.exp(-lgamma(C)) + terms[m_ack - 1:].sum()
        pmf = printed
    return pmf


def case2_pmf(C: int, variant: str = "exact") -> np.ndarray:
    """``P(q = k | F̄)`` for ``k = 1..C`` (Song eq. 9); ``A = q`` in case II.

    ``variant="exact"``: the closed form of the module docstring (sums to 1).
    ``variant="as_printed"``: eq. 9 as printed, whose middle branch vanishes at
    ``k = C-1`` (see the erratum above).  For ``C = 1`` case II is impossible and the
    point mass at 1 is returned for both variants.
    """
    C = _check_c(C)
    check_choice("variant", variant, PMF_VARIANTS)
    pmf = np.zeros(C)
    if C == 1:
        pmf[0] = 1.0
        return pmf
    pmf[0] = (C - 2) / (2 * (C - 1))
    pmf[C - 1] = 1.0 / (C - 1)
    if variant == "exact":
        k = np.arange(2, C)
        pmf[1 : C - 1] = C / ((C - 1) * k * (k + 1.0))
        return pmf
    # (C-k-1) [ sum_{l=k+1}^{C} (l-2)!/(l-k-1)! (C-l+1) ] / (C! - (C-1)!) = C / ((C-1) k (k+1) (C-k-2)!)
    # for 1 < k <= C-2 (module docstring), and 0 at k = C-1; in log space, so large C cannot overflow.
    k = np.arange(2, C - 1)
    lg = _log_gamma(C)
    pmf[1 : C - 2] = np.exp(np.log(C / (C - 1.0)) - np.log(k * (k + 1.0)) - lg[C - k - 1])
    pmf[C - 2] = 0.0
    return pmf


def ack_pmf(C: int, m_ack: int = 2, variant: str = "exact") -> tuple[np.ndarray, np.ndarray]:
    """The two conditional distributions of ``A_{i+1}`` for ``k = 1..C``.

    Returns ``(P(A = k | F), P(A = k | F̄))`` — Song eqs. 5–6 and eq. 9.  ``C`` is an
    integer number of segments (the iteration model handles fractional ``C`` by
    interpolation, see :mod:`cmtlab.papers.song.model`).
    """
    C, m_ack = _check_c_mack(C, m_ack)
    check_choice("variant", variant, PMF_VARIANTS)
    return case1_pmf(C, m_ack, variant), case2_pmf(C, variant)


def expected_acked(C: int, m_ack: int = 2, variant: str = "exact") -> dict:
    """``E'(A)`` (eq. 8), ``E''(A)`` (eq. 11) and ``E(A) = F(C)`` (eq. 13) for integer ``C``."""
    p1, p2 = ack_pmf(C, m_ack, variant)
    k = np.arange(1, C + 1)
    e1 = float(k @ p1)
    e2 = float(k @ p2)
    return {"E1": e1, "E2": e2, "E": e2 + (e1 - e2) / C}


@lru_cache(maxsize=64)
def _moment_table(c_max: int, m_ack: int, variant: str) -> tuple[np.ndarray, np.ndarray]:
    """Tables over integer ``C = 0..c_max`` (row 0 unused, copies row 1).

    ``EA[C]`` = E(A_{i+1}) (eq. 13) and ``W[C, k-1]`` = weight of ``D_{i,k}`` in
    ``E(T_i) = Σ_k W[C, k-1] D_{i,k}`` (eqs. 7, 10, 12), ``k = 1..m_ack``.
    """
    EA = np.zeros(c_max + 1)
    W = np.zeros((c_max + 1, m_ack))
    for C in range(1, c_max + 1):
        p1, p2 = ack_pmf(C, m_ack, variant)
        k = np.arange(1, C + 1)
        EA[C] = k @ p2 + (k @ p1 - k @ p2) / C
        # E(T) = E''(T) + (E'(T) - E''(T))/C with E''(T) = D_1 and E'(T) = Σ_k D_k P(A=k|F)
        w = np.zeros(m_ack)
        top = min(m_ack, C)
        w[:top] = p1[:top] / C
        w[0] += 1.0 - 1.0 / C
        W[C] = w
    EA[0], W[0] = EA[1], W[1]
    EA.setflags(write=False)
    W.setflags(write=False)
    return EA, W


def moment_table(c_max: int, m_ack: int = 2, variant: str = "exact") -> tuple[np.ndarray, np.ndarray]:
    """Public, validated access to the cached ``(EA, W)`` tables (see :func:`_moment_table`)."""
    c_max = check_int("c_max", c_max, minimum=1, maximum=MAX_TABLE_SEGMENTS)
    m_ack = check_int("m_ack", m_ack, minimum=1, maximum=MAX_M_ACK)
    check_choice("variant", variant, PMF_VARIANTS)
    return _moment_table(c_max, m_ack, variant)
