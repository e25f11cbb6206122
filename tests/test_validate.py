"""cmtlab._validate.as_float_array: numbers pass, booleans and strings are refused (never coerced)."""

import numpy as np
import pandas as pd
import pytest

from cmtlab._validate import as_float_array
from cmtlab.papers.song import model as song_model


@pytest.mark.parametrize("values, expected", [
    ([1, 2.5], [1.0, 2.5]),
    ((np.float64(1), np.int64(2)), [1.0, 2.0]),
    (np.arange(3), [0.0, 1.0, 2.0]),
    (pd.Series([1.0, 2.0]), [1.0, 2.0]),
    (3.0, [3.0]),
])
def test_numbers_pass_unchanged(values, expected):
    out = as_float_array("x", values)
    assert out.dtype == float and out.tolist() == expected


@pytest.mark.parametrize("values", [[True, True], [1, True], np.array([True, False]), True, np.bool_(True)])
def test_booleans_refused(values):
    with pytest.raises(ValueError, match=r"rates_bps must hold numbers, not booleans"):
        as_float_array("rates_bps", values)


@pytest.mark.parametrize("values", ["1e6", ["1e6", "2e6"], np.array(["1"]), [None], [1.0, object()]])
def test_strings_and_objects_refused(values):
    with pytest.raises(ValueError, match=r"rates_bps must be a sequence of numbers"):
        as_float_array("rates_bps", values)


def test_public_function_refuses_boolean_rates():
    """Through a caller: Song's model would have taken [True, True] as two links of 1 bit/s."""
    with pytest.raises(ValueError, match="bandwidths_bps must hold numbers, not booleans"):
        song_model.rounds([True, True], [0.05, 0.1])
