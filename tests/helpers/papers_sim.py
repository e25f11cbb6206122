"""Helpers of the tests that run the papers' own simulator (not a test module): the comparison of a live row
with a recorded one.  (The ``built`` fixture is in ``tests/conftest.py``.)"""

from __future__ import annotations

import math

import numpy as np


def _missing(v) -> bool:
    return v is None or (isinstance(v, float) and math.isnan(v))


def _equal(a, b) -> bool:
    if _missing(a) or _missing(b):  # a CSV stores None (e.g. duration_s of a transfer run) as NaN
        return _missing(a) and _missing(b)
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if isinstance(a, (bool, np.bool_)) or isinstance(b, (bool, np.bool_)):
        return bool(a) == bool(b)
    if isinstance(a, (int, float, np.integer, np.floating)) and isinstance(b, (int, float, np.integer, np.floating)):
        return float(a) == float(b)
    return a == b
