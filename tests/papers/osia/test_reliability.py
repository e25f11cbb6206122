"""Reliability: OSIA's experiment objects name their own parameters in every error.

Replays the two OSIA reproducers of the reliability probe of 22f83c4 (``shared/reviews/
reliability-probe.md``, section 4, "Unclear"): ``PathModel(ber_mean=nan)`` said ``mean`` and a run
with a rate too low to carry one packet said ``bandwidths_bps`` — the names of the layers below,
not of what the caller passed.
"""

from __future__ import annotations

import pytest

from cmtlab.papers.osia import experiments as ox


@pytest.mark.parametrize("field, value", [("ber_mean", float("nan")), ("ber_low", -1.0), ("ber_high", 2.0),
                                          ("ber_period_s", 0.0), ("ber_period_s", 1e300)])
def test_path_model_errors_name_its_fields(field, value):
    with pytest.raises(ValueError, match=rf"^{field} must be"):
        ox.PathModel(**{field: value})


def test_a_rate_too_low_for_one_packet_names_rates_bps():
    run = ox.OsiaRun("fig8", rates_bps=(1e-300, 1e6), one_way_delays_s=(0.01, 0.01), scheduler="osia")
    with pytest.raises(ValueError, match=r"^rates_bps must be >= .* bit/s \(one .*-byte packet within max_sim_time_s"):
        ox.simulate(run)


def test_one_way_delays_beyond_the_clock_are_refused_when_the_run_is_defined():
    with pytest.raises(ValueError, match=r"^one_way_delays_s must be >= 0 and <= 5e\+07 s"):
        ox.OsiaRun("fig8", rates_bps=(1e6, 1e6), one_way_delays_s=(0.01, 1e9), scheduler="osia")
