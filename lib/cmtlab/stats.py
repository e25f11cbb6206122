"""Statistics the chapters share: the mean of repeated runs and its Student-t confidence interval.

Layer 1 (below the simulators and the papers): every chapter may use it.  Issue 33 moved
:func:`mean_ci` here from the MPTCP validation chapter, which the Arabi chapter borrowed it from;
the book's other confidence-interval helpers (``report.mean_ci95``, ``papers.alheid.experiments.t95``,
``validation.kernel_table.gain_ci``) are still their own (one rule for one seed is a later step).
"""

from __future__ import annotations

import numpy as np

from ._validate import as_float_array


def mean_ci(values, confidence: float = 0.95):
    """Mean and half-width of the Student-t confidence interval of ``values`` (0 for one value)."""
    from scipy import stats

    x = as_float_array("values", values)
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}")
    m = float(x.mean())
    if x.size < 2:
        return m, 0.0
    half = float(stats.t.ppf(0.5 + confidence / 2, x.size - 1) * x.std(ddof=1) / np.sqrt(x.size))
    return m, half


__all__ = ["mean_ci"]
