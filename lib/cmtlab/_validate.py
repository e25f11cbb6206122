"""Input checks shared by the library: every error names the parameter and the allowed range.

The one validation vocabulary of :mod:`cmtlab`: numbers (:func:`check_number`, :func:`check_real`,
:func:`check_positive`, :func:`check_non_negative`), integers (:func:`check_int`), simulated
durations (:func:`check_duration_s`), booleans (:func:`check_bool`), names (:func:`check_choice`),
keyword-parameter mappings (:func:`check_params`) and arrays (:func:`as_float_array`).  None of them
coerces: a boolean is not the number 1, ``1.5`` is not a count, ``"1e6"`` is not a rate.
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping

import numpy as np

#: The simulators' clocks count integer nanoseconds in signed 64-bit integers, and the RFC 6298
#: estimator keeps ``8 × SRTT`` in one (:mod:`cmtlab.sim.tcp.rto`): every time of a run, and every
#: round-trip sample, must stay below ``2**63 / 8`` ns ≈ 1.15e9 s.  A time in a run is a sum of a
#: few durations the caller gives (the time limit, the handshake, delays, a serialisation, a timer
#: — fewer than ten), so each of them is at most this (1e8 s, 3.2 years): what the code can represent.
MAX_DURATION_S = 1e8


def as_float_array(name: str, values, *, min_len: int = 1, ndims=(1,)) -> np.ndarray:
    """Return ``values`` as a float array, rejecting empty, non-finite or non-numeric input.

    ``ndims``: the accepted numbers of dimensions (``(1,)``: one sequence; ``(1, 2)``: one sequence
    or a rectangular table of rows).  Booleans and strings are refused, not coerced (``[True,
    True]`` is not two rates of 1, and ``"1e6"`` is not a number), and so are ragged rows: a clear
    ``ValueError`` naming ``name``.
    """
    _refuse_non_numbers(name, values)
    _refuse_ragged(name, values)
    try:
        arr = np.asarray(values, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be a sequence of numbers, got {values!r:.200}") from exc
    if arr.ndim == 0:
        arr = arr.reshape(1)
    if arr.ndim not in ndims:
        want = " or ".join(f"{n}-D" for n in ndims)
        raise ValueError(f"{name} must be {want}, got shape {arr.shape}")
    if arr.size < min_len or (arr.ndim == 2 and arr.shape[-1] < min_len):
        raise ValueError(f"{name} must contain at least {min_len} value(s){' per row' if arr.ndim == 2 else ''}, "
                         f"got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite, got {values!r:.200}")
    return arr


def _is_sequence(v) -> bool:
    return isinstance(v, (list, tuple)) or (isinstance(v, np.ndarray) and v.ndim > 0)


def _refuse_non_numbers(name: str, values, _depth: int = 0) -> None:
    """Raise if ``values`` (a number or nested sequences of them) holds a boolean or a non-number."""
    if isinstance(values, np.ndarray) or (hasattr(values, "__array__") and not _is_sequence(values)):
        raw = np.asarray(values)
        if raw.dtype.kind in "iuf":
            return
        if raw.dtype.kind not in "bO":  # strings, bytes, dates, complex
            raise ValueError(f"{name} must be a sequence of numbers, got {values!r:.200}")
        items = raw.ravel().tolist()
    elif isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        items = [values]
    else:
        items = list(values)
    for v in items:
        if _is_sequence(v):
            if _depth >= 2:  # deeper than a table: the dimension check names the problem
                continue
            _refuse_non_numbers(name, v, _depth + 1)
            continue
        if isinstance(v, (bool, np.bool_)):
            raise ValueError(f"{name} must hold numbers, not booleans, got {values!r:.200}")
        if not isinstance(v, numbers.Real):
            raise ValueError(f"{name} must be a sequence of numbers, got {values!r:.200}")


def _refuse_ragged(name: str, values) -> None:
    """Raise if ``values`` is a sequence of rows of different lengths (numpy's "inhomogeneous shape")."""
    if isinstance(values, np.ndarray) or not _is_sequence(values):
        return
    rows = list(values)
    nested = [_is_sequence(r) for r in rows]
    if any(nested) and not all(nested):
        raise ValueError(f"{name} must be a table of rows of numbers (every row a sequence), got {values!r:.200}")
    if all(nested) and rows:
        lengths = [len(r) for r in rows]
        if len(set(lengths)) > 1:
            i = next(i for i, n in enumerate(lengths) if n != lengths[0])
            raise ValueError(f"{name} must be rectangular (every row the same length): row 0 has {lengths[0]} "
                             f"value(s), row {i} has {lengths[i]}")


def check_number(name: str, value) -> float:
    """A finite real number (booleans and strings refused)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a real number, got {value!r}")
    v = float(value)
    if not np.isfinite(v):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return v


def check_real(name: str, value, *, low=None, high=None, low_open: bool = False, high_open: bool = False,
               what: str = "") -> float:
    """A finite real number in the interval from ``low`` to ``high`` (either optional; ``*_open``
    excludes the bound); ``what`` follows the interval in the message (units, meaning)."""
    ok = not isinstance(value, (bool, np.bool_)) and isinstance(value, numbers.Real)
    if ok:
        v = float(value)
        ok = bool(np.isfinite(v))
        if ok and low is not None:
            ok = v > low if low_open else v >= low
        if ok and high is not None:
            ok = v < high if high_open else v <= high
    if not ok:
        lo = "-inf" if low is None else f"{low:g}"
        hi = "inf" if high is None else f"{high:g}"
        interval = f"{'(' if low_open or low is None else '['}{lo}, {hi}{')' if high_open or high is None else ']'}"
        raise ValueError(f"{name} must be a finite number in {interval}{what}, got {value!r}")
    return v


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


def check_duration_s(name: str, value, *, zero: bool = False, maximum: float = MAX_DURATION_S) -> float:
    """A simulated duration in seconds: finite, > 0 (>= 0 with ``zero``) and at most ``maximum``
    (default :data:`MAX_DURATION_S`, what the simulators' nanosecond clocks can represent)."""
    try:
        return check_real(name, value, low=0, high=maximum, low_open=not zero)
    except ValueError:
        why = " (the simulators' clocks count nanoseconds in 64-bit integers)" if maximum == MAX_DURATION_S else ""
        raise ValueError(f"{name} must be {'>= 0' if zero else '> 0'} and <= {maximum:g} s{why}, got {value!r}") \
            from None


def check_durations_s(name: str, values, *, zero: bool = True, maximum: float = MAX_DURATION_S) -> np.ndarray:
    """A 1-D array of simulated durations (s, e.g. one delay per path): each as :func:`check_duration_s`
    (by default 0 allowed), the message naming the first value out of range and its position."""
    arr = as_float_array(name, values)
    bad = ~((arr >= 0 if zero else arr > 0) & (arr <= maximum))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        check_duration_s(f"{name}[{i}]", float(arr[i]), zero=zero, maximum=maximum)
    return arr


def check_int(name: str, value, *, minimum: int | None = None, maximum: int | None = None) -> int:
    """An integer within [minimum, maximum] (either bound optional); booleans and fractions refused."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        bounds = _int_bounds(minimum, maximum)
        raise ValueError(f"{name} must be an integer{bounds}, got {value!r}")
    v = int(value)
    if minimum is not None and v < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {v}")
    if maximum is not None and v > maximum:
        raise ValueError(f"{name} must be <= {maximum}, got {v}")
    return v


def _int_bounds(minimum, maximum) -> str:
    if minimum is not None and maximum is not None:
        return f" in [{minimum}, {maximum}]"
    if minimum is not None:
        return f" >= {minimum}"
    if maximum is not None:
        return f" <= {maximum}"
    return ""


def check_bool(name: str, value) -> bool:
    """``True`` or ``False`` (numpy booleans too); ``1``, ``"yes"`` and ``None`` are refused."""
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def check_choice(name: str, value, choices) -> str:
    """One of ``choices`` (an unhashable value is simply not one of them)."""
    try:
        ok = value in choices
    except TypeError:
        ok = False
    if not ok:
        raise ValueError(f"{name} must be one of {sorted(choices)}, got {value!r}")
    return value


def check_params(name: str, value) -> dict:
    """Keyword parameters (``scheduler_params=``, ``reordering_params=``, …): ``None`` (none) or a
    mapping of parameter names (strings) to values; a list, a string or a number is refused."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ValueError(f"{name} must be a dict of keyword parameters (e.g. {{'variant': 'linux'}}) or None, "
                         f"got {value!r:.200}")
    for key in value:
        if not isinstance(key, str) or not key.isidentifier():
            raise ValueError(f"{name} must be a dict of keyword parameters: its keys are parameter names, "
                             f"got key {key!r}")
    return dict(value)
