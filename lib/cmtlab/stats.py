"""The mean of repeated runs and its Student-t confidence interval: the book's one CI.

Every chapter's interval over seeds (or over a real kernel's repetitions) comes from here:

* :func:`mean_ci` — the mean of the values, the half-width of its two-sided Student-t interval
  (``scipy.stats.t.ppf`` quantile × sample standard deviation / √n) and n, as a :class:`MeanCI`;
* :func:`half_width` — the same half-width from a standard deviation and a count already computed (a
  ``groupby`` summary, a recorded table's ``std`` and ``n`` columns), element-wise on arrays and Series;
* :func:`t_quantile` — the quantile itself.

**One value gives no interval.**  With n = 1 the sample has no spread to estimate: the half-width is
``nan`` and so are both bounds — never 0, which would read as a certain value.  This is the verdict policy's
*undecided at 1 seed* (:mod:`cmtlab.report.verdicts`): an interval that is not there cannot decide
between two verdicts, and more seeds can give one.  (A half-width of 0 from n ≥ 2 *identical* values is a real
one: the runs are deterministic.)

**A bounded quantity's interval is reported inside its domain.**  The Student-t interval is symmetric about the
mean, so with few values (two seeds of the quick profile) the interval of a quantity that cannot be negative — a
rate, a count, a share, a ratio of such — can reach below 0.  It stays the book's one interval (the same mean and
half-width), but it is *reported* cut at the domain's bound (:meth:`MeanCI.within`, :func:`clip_interval`,
default :data:`NON_NEGATIVE`) and the report says so: an :class:`Interval` carries ``clipped`` (and ``raw``, the
uncut interval), and every value column that prints one adds "cut at 0" (:func:`interval_words`).  No verdict
changes by the cut: every rule's cut points of a non-negative quantity lie at or above 0, and the deviation of
0 from a positive target is already 100 % (beyond every band).  The policy page ("What a row shows") states it.

Layer 1 (below the simulators and the papers): every chapter may use it.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ._validate import _refuse_non_numbers, as_float_array

#: The book's confidence level (the verdict policy's 95 % intervals).
CONFIDENCE = 0.95


def _check_confidence(confidence) -> float:
    c = float(confidence) if not isinstance(confidence, bool) else math.nan
    if not 0 < c < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}")
    return c


#: The domain of a quantity that cannot be negative (a rate, a count, a share, a ratio of such).
NON_NEGATIVE = (0.0, math.inf)


def _check_domain(domain) -> tuple[float, float]:
    try:
        lo, hi = (float(v) for v in domain)
    except (TypeError, ValueError):
        raise ValueError(f"domain must be (lower, upper) numbers, got {domain!r}") from None
    if math.isnan(lo) or math.isnan(hi) or lo >= hi:
        raise ValueError(f"domain must be (lower, upper) with lower < upper, got {domain!r}")
    return lo, hi


class Interval(tuple):
    """``(low, high)`` of a confidence interval as reported: inside the quantity's domain.  ``clipped`` is
    True where the Student-t interval reached beyond the domain and was cut at its bound; ``raw`` is the
    uncut interval; ``domain`` the bounds.  Unpacks as a pair (``lo, hi = interval``)."""

    clipped: bool
    raw: tuple
    domain: tuple

    def __new__(cls, low: float, high: float, *, raw=None, domain=(-math.inf, math.inf)):
        self = super().__new__(cls, (float(low), float(high)))
        self.raw = (float(low), float(high)) if raw is None else (float(raw[0]), float(raw[1]))
        self.domain = tuple(domain)
        self.clipped = self.raw != (float(low), float(high))
        return self

    @property
    def low(self) -> float:
        return self[0]

    @property
    def high(self) -> float:
        return self[1]


def clip_interval(low: float, high: float, domain=NON_NEGATIVE) -> Interval:
    """The interval ``(low, high)`` cut to ``domain`` (default :data:`NON_NEGATIVE`), as an :class:`Interval`
    that records whether it was cut.  ``nan`` bounds (one value: no interval) stay ``nan``.

    >>> iv = clip_interval(-0.4, 2.0)
    >>> tuple(iv), iv.clipped, iv.raw
    ((0.0, 2.0), True, (-0.4, 2.0))
    """
    d_lo, d_hi = _check_domain(domain)
    low, high = float(low), float(high)
    if math.isnan(low) or math.isnan(high):
        return Interval(low, high, domain=(d_lo, d_hi))
    if low > high:
        raise ValueError(f"low must be <= high, got ({low}, {high})")
    return Interval(min(max(low, d_lo), d_hi), max(min(high, d_hi), d_lo), raw=(low, high), domain=(d_lo, d_hi))


def clip_bounds(low, high, domain=NON_NEGATIVE):
    """Element-wise :func:`clip_interval` for columns of a table: ``(low, high, clipped)`` (arrays, or Series
    with the index of ``low``); ``nan`` stays ``nan`` and is not clipped."""
    d_lo, d_hi = _check_domain(domain)
    lo = np.asarray(low, dtype=float)
    hi = np.asarray(high, dtype=float)
    with np.errstate(invalid="ignore"):
        new_lo = np.where(np.isnan(lo), lo, np.clip(lo, d_lo, d_hi))
        new_hi = np.where(np.isnan(hi), hi, np.clip(hi, d_lo, d_hi))
    clipped = ((new_lo != lo) & ~np.isnan(lo)) | ((new_hi != hi) & ~np.isnan(hi))
    return _like(low, new_lo), _like(low, new_hi), _like(low, clipped)


def interval_words(interval) -> str:
    """What a value column adds after an interval that was cut to its domain: ``", cut at 0"`` (the bound it was
    cut at), or ``""`` (not cut, or not an :class:`Interval`)."""
    if not getattr(interval, "clipped", False):
        return ""
    lo, hi = interval
    d_lo, d_hi = interval.domain
    at = [f"{v:g}" for v, raw, bound in ((lo, interval.raw[0], d_lo), (hi, interval.raw[1], d_hi))
          if raw != v and v == bound]
    return f", cut at {' and '.join(at)}" if at else ""


class MeanCI(NamedTuple):
    """A mean, the half-width of its confidence interval (``nan`` for one value) and the number of values."""

    mean: float
    half_width: float
    n: int

    @property
    def low(self) -> float:
        return self.mean - self.half_width

    @property
    def high(self) -> float:
        return self.mean + self.half_width

    @property
    def interval(self) -> tuple[float, float]:
        """``(low, high)``; ``(nan, nan)`` for one value (no interval: the verdict policy's *undecided*)."""
        return self.low, self.high

    def within(self, domain=NON_NEGATIVE) -> Interval:
        """The interval as reported for a bounded quantity: cut to ``domain`` (default :data:`NON_NEGATIVE`),
        recording whether it was cut (:func:`clip_interval`).

        >>> mean_ci([0.1, 1.9]).within().clipped      # two seeds: the t interval reaches far below 0
        True
        """
        return clip_interval(self.low, self.high, domain)


def t_quantile(n, confidence: float = CONFIDENCE):
    """The two-sided Student-t quantile for ``n`` values (``n - 1`` degrees of freedom): ``t.ppf((1 + c) / 2)``.

    ``nan`` where ``n < 2``.  ``n`` may be an array or a Series (element-wise; a Series keeps its index)."""
    from scipy import stats

    c = _check_confidence(confidence)
    q = 0.5 + c / 2
    if np.ndim(n) == 0:
        n = int(n)
        return float(stats.t.ppf(q, n - 1)) if n >= 2 else math.nan
    arr = np.asarray(n, dtype=float)
    out = np.where(arr >= 2, stats.t.ppf(q, np.where(arr >= 2, arr - 1, 1)), np.nan)
    return _like(n, out)


def half_width(std, n, confidence: float = CONFIDENCE):
    """Half-width of the Student-t interval of a mean: ``t_quantile(n) · std / √n``.

    ``std`` is the sample standard deviation (``ddof=1``) of the ``n`` values; ``nan`` where ``n < 2`` or
    ``std`` is ``nan``.  Scalars give a float; arrays and Series are element-wise (a Series keeps its index)."""
    t = t_quantile(n, confidence)
    if np.ndim(std) == 0 and np.ndim(n) == 0:
        return float(t * float(std) / math.sqrt(n)) if n >= 2 else math.nan
    out = np.asarray(t, dtype=float) * np.asarray(std, dtype=float) / np.sqrt(np.asarray(n, dtype=float))
    return _like(std if hasattr(std, "index") else n, out)


def _like(template, values):
    """``values`` as a Series with ``template``'s index when ``template`` is one, else as an array."""
    if hasattr(template, "index") and hasattr(template, "to_numpy"):
        import pandas as pd

        return pd.Series(values, index=template.index)
    return values


def mean_ci(values, confidence: float = CONFIDENCE, *, drop_nan: bool = False) -> MeanCI:
    """Mean, Student-t confidence half-width and count of ``values`` (a :class:`MeanCI`).

    One value: the half-width is ``nan`` (no interval — never 0; see the module docstring).  ``values`` must be
    finite numbers; with ``drop_nan`` the non-finite ones are dropped first (at least one must remain).

    >>> mean_ci([1.0, 2.0, 3.0])            # doctest: +ELLIPSIS
    MeanCI(mean=2.0, half_width=2.484..., n=3)
    >>> mean_ci([5.0]).interval
    (nan, nan)
    """
    c = _check_confidence(confidence)
    if drop_nan:
        _refuse_non_numbers("values", values)
        raw = np.asarray(values, dtype=float).ravel()
        values = raw[np.isfinite(raw)]
        if values.size == 0:
            raise ValueError("values must hold at least one finite number")
    x = as_float_array("values", values)
    n = int(x.size)
    m = float(x.mean())
    if n < 2:
        return MeanCI(m, math.nan, n)
    return MeanCI(m, half_width(float(x.std(ddof=1)), n, c), n)


__all__ = ["CONFIDENCE", "NON_NEGATIVE", "Interval", "MeanCI", "mean_ci", "half_width", "t_quantile", "clip_interval",
           "clip_bounds", "interval_words"]
