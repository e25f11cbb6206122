"""Link-asymmetry metrics and model accuracy (Song et al., section 4.3 and 5.4).

* :func:`average_delay_asymmetry` — eq. 22, the mean absolute pairwise difference of
  round-trip propagation delays (seconds in, seconds out);
* :func:`average_bandwidth_asymmetry` — eq. 23, the same for bandwidths (bit/s);
* :func:`prediction_accuracy` — eq. 24, ``1 - |T_S - T_M| / T_S``.

All three accept one link set (1-D) or many link sets as the rows of a 2-D array.
"""

from __future__ import annotations

import numpy as np

from ..._validate import as_float_array


def _pairwise_mean_abs_difference(name: str, values) -> np.ndarray | float:
    arr = as_float_array(name, values, ndims=(1, 2))  # one link set, or rows of link sets
    n = arr.shape[-1]
    if n < 2:
        raise ValueError(f"{name} must hold at least 2 links (asymmetry of one link is undefined), got {n}")
    diffs = np.abs(arr[..., :, None] - arr[..., None, :])
    # eq. 22/23: 2 * sum_{q>r} |x_r - x_q| / (n (n-1)) == sum over all ordered pairs / (n (n-1))
    result = diffs.sum(axis=(-1, -2)) / (n * (n - 1))
    return float(result) if arr.ndim == 1 else result


def average_delay_asymmetry(delays_s):
    """Average Delay Asymmetry, Song eq. 22 (seconds).

    ``ADA = 2 Σ_{q=2..n} Σ_{r<q} |d_r - d_q| / (n (n-1))``.
    """
    if np.any(as_float_array("delays_s", delays_s, ndims=(1, 2)) < 0):
        raise ValueError(f"delays_s must be >= 0 (seconds), got {delays_s!r:.200}")
    return _pairwise_mean_abs_difference("delays_s", delays_s)


def average_bandwidth_asymmetry(bandwidths_bps):
    """Average Bandwidth Asymmetry, Song eq. 23 (bit/s)."""
    if np.any(as_float_array("bandwidths_bps", bandwidths_bps, ndims=(1, 2)) <= 0):
        raise ValueError(f"bandwidths_bps must be > 0 (bit/s), got {bandwidths_bps!r:.200}")
    return _pairwise_mean_abs_difference("bandwidths_bps", bandwidths_bps)


def prediction_accuracy(simulated, model):
    """Prediction accuracy, Song eq. 24: ``1 - |T_S - T_M| / T_S`` (a fraction, not %).

    ``simulated`` (T_S) must be > 0; ``model`` (T_M) >= 0.  Arrays are accepted and
    broadcast; the mean accuracy over a set of cases is ``prediction_accuracy(...).mean()``.
    """
    ts = as_float_array("simulated", simulated, ndims=(1, 2))
    tm = as_float_array("model", model, ndims=(1, 2))
    if np.ndim(simulated) == 0 and np.ndim(model) == 0:  # two numbers in, one number out
        ts, tm = ts.reshape(()), tm.reshape(())
    if not (np.all(np.isfinite(ts)) and np.all(ts > 0)):
        raise ValueError("simulated throughput (T_S) must be finite and > 0")
    if not (np.all(np.isfinite(tm)) and np.all(tm >= 0)):
        raise ValueError("model throughput (T_M) must be finite and >= 0")
    acc = 1.0 - np.abs(ts - tm) / ts
    return float(acc) if acc.ndim == 0 else acc
