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


__all__ = ["CONFIDENCE", "MeanCI", "mean_ci", "half_width", "t_quantile"]
