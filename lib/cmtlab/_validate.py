"""Input checks shared by the library: every error names the parameter and the allowed range."""

from __future__ import annotations

import numbers

import numpy as np


def as_float_array(name: str, values, *, min_len: int = 1) -> np.ndarray:
    """Return ``values`` as a 1-D float array, rejecting empty, non-finite or non-numeric input.

    Booleans and strings are refused, not coerced (``[True, True]`` is not two rates of 1, and
    ``"1e6"`` is not a number): a clear ``ValueError`` naming ``name``.
    """
    _refuse_non_numbers(name, values)
    try:
        arr = np.asarray(values, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be a sequence of numbers, got {values!r}") from exc
    if arr.ndim == 0:
        arr = arr.reshape(1)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {arr.shape}")
    if arr.size < min_len:
        raise ValueError(f"{name} must contain at least {min_len} value(s), got {arr.size}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite, got {values!r}")
    return arr


def _refuse_non_numbers(name: str, values) -> None:
    """Raise if ``values`` (a number or a sequence of them) holds a boolean or a non-number."""
    if isinstance(values, np.ndarray) or hasattr(values, "__array__"):
        raw = np.asarray(values)
        if raw.dtype.kind in "iuf":
            return
        items = raw.ravel().tolist() if raw.dtype.kind in "bO" else [values]
    elif isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        items = [values]
    else:
        items = list(values)
    for v in items:
        if isinstance(v, (list, tuple)):  # nested: the shape check below names the problem
            continue
        if isinstance(v, (bool, np.bool_)):
            raise ValueError(f"{name} must hold numbers, not booleans, got {values!r}")
        if not isinstance(v, numbers.Real):
            raise ValueError(f"{name} must be a sequence of numbers, got {values!r}")


def check_positive(name: str, value) -> float:
    """A finite number > 0."""
    v = check_number(name, value)
    if not v > 0:
        raise ValueError(f"{name} must be > 0, got {value!r}")
    return v


def check_non_negative(name: str, value) -> float:
    """A finite number >= 0."""
    v = check_number(name, value)
    if not v >= 0:
        raise ValueError(f"{name} must be >= 0, got {value!r}")
    return v


def check_number(name: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a real number, got {value!r}")
    v = float(value)
    if not np.isfinite(v):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return v


def check_int(name: str, value, *, minimum: int | None = None, maximum: int | None = None) -> int:
    """An integer within [minimum, maximum] (either bound optional)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    v = int(value)
    if minimum is not None and v < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {v}")
    if maximum is not None and v > maximum:
        raise ValueError(f"{name} must be <= {maximum}, got {v}")
    return v


def check_choice(name: str, value, choices) -> str:
    if value not in choices:
        raise ValueError(f"{name} must be one of {sorted(choices)}, got {value!r}")
    return value
