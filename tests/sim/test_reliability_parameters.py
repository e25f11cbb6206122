"""Reliability: every parameter the simulator accepts can run; what it cannot run is refused, named.

Replays the reproducers of the reliability probe of 22f83c4 (``shared/reviews/reliability-probe.md``,
sections 1 and 4) and the ones found beside them: on 22f83c4 each of these was an ``OverflowError``
deep in the engine, an unrelated ``TypeError``, or a silently coerced value.  Now the scenario refuses
it with a ``ValueError`` naming the parameter the caller passed and its allowed range.  The bounds
come from what the code can represent (:data:`cmtlab._validate.MAX_DURATION_S`: integer nanoseconds
in 64 bits, ``8 × SRTT`` in the RFC 6298 estimator), and the largest accepted values do run.
"""

from __future__ import annotations

import re

import pytest

from cmtlab.scenario import LossModel
from cmtlab.sim import simulate_mptcp, simulate_striped

B, D = [10e6, 5e6], [0.02, 0.05]
SMALL = dict(transfer_bytes=20_000)


def both(**kw):
    """The same arguments for the striped and the MPTCP topology."""
    return [pytest.param(simulate_striped, kw, id="striped"), pytest.param(simulate_mptcp, kw, id="mptcp")]


# ------------------------------------------------------------------ durations: what 64-bit nanoseconds hold

@pytest.mark.parametrize("name", ["max_sim_time_s", "min_rto_s", "initial_rto_s", "delayed_ack_timeout_s",
                                  "clock_granularity_s"])
@pytest.mark.parametrize("value", [1e10, 1e300])
@pytest.mark.parametrize("simulate", [simulate_striped, simulate_mptcp], ids=["striped", "mptcp"])
def test_durations_beyond_the_clock_are_refused_naming_them(simulate, name, value):
    # probe: crash 1 (max_sim_time_s=1e10: OverflowError in sim/engine/loop.py); the timers likewise
    with pytest.raises(ValueError, match=rf"^{name} must be .*<= 1e\+08 s.*got {re.escape(repr(value))}"):
        simulate(B, D, **SMALL, **{name: value})


@pytest.mark.parametrize("simulate", [simulate_striped, simulate_mptcp], ids=["striped", "mptcp"])
def test_round_trips_beyond_the_clock_are_refused_naming_the_path(simulate):
    with pytest.raises(ValueError, match=r"^rtts_s\[0\] must be >= 0 and <= 1e\+08 s"):
        simulate(B, [1e10, 0.05], **SMALL)


@pytest.mark.parametrize("scheduler", ["flow_level", "osia"])
def test_a_scheduling_period_beyond_the_clock_is_refused(scheduler):
    import cmtlab.papers.osia  # noqa: F401  (registers the "osia" scheduler)

    # probe: crash 2 (flow_level period_s=1e300: OverflowError converting infinity to an integer)
    with pytest.raises(ValueError, match=r"^period_s must be > 0 and <= 1e\+08 s"):
        simulate_mptcp(B, D, **SMALL, scheduler=scheduler, scheduler_params={"period_s": 1e300})


@pytest.mark.parametrize("simulate", [simulate_striped, simulate_mptcp], ids=["striped", "mptcp"])
def test_the_largest_accepted_durations_run(simulate):
    """Every duration at its bound at once: the run ends honestly (no overflow, no wrapped time)."""
    from cmtlab._validate import MAX_DURATION_S

    assert MAX_DURATION_S == 1e8
    X = 1e8  # cmtlab._validate.MAX_DURATION_S
    r = simulate([1e3, 1e3], [X / 10, X / 10], transfer_bytes=2_000, max_sim_time_s=X, min_rto_s=X, initial_rto_s=X,
                 delayed_ack_timeout_s=X, clock_granularity_s=X, loss=[LossModel("packet", 0.3)] * 2, seed=1)
    assert r.extra["stop_reason"] in ("completed", "max_sim_time")
    assert 0 <= r.extra["sim_time_s"] <= X * (1 + 1e-9)
    assert r.completed == (r.extra["stop_reason"] == "completed")


# ------------------------------------------------------------------ no coercion

@pytest.mark.parametrize("value", [1.5, True, 0.0])
def test_a_fractional_or_boolean_event_budget_is_refused(value):
    # probe: coercion (max_events=1.5 ran with a budget of 1)
    with pytest.raises(ValueError, match=rf"^max_events must be an integer in \[1, \d+\], got {value!r}"):
        simulate_mptcp(B, D, transfer_bytes=200_000, max_events=value)


def test_a_boolean_reordering_parameter_is_refused():
    # probe: coercion (t1_srtt=True taken as 1.0)
    with pytest.raises(ValueError, match=r"^t1_srtt must be a finite number in \(0, 1000\].*got True"):
        simulate_striped(B, D, transfer_bytes=200_000, reordering="tcp-door", reordering_params={"t1_srtt": True})


def test_reordering_params_that_are_not_a_mapping_are_refused_naming_them():
    # probe: unclear (TypeError: make() argument after ** must be a mapping, not list)
    with pytest.raises(ValueError, match=r"^reordering_params must be a dict of keyword parameters"):
        simulate_striped(B, D, transfer_bytes=200_000, reordering="dsack", reordering_params=[1, 2])


# ------------------------------------------------------------------ link models: the caller's names

def cross(**params):
    return simulate_mptcp(B, D, **SMALL, links=[("pareto_cross_traffic", {"mean_load": 0.25, **params})] * 2)


def test_cross_traffic_errors_name_the_scenario_parameter():
    with pytest.raises(ValueError, match=r"^cross_packet_bytes must be an integer >= 1, got 1.5"):
        cross(cross_packet_bytes=1.5)
    with pytest.raises(ValueError, match=r"^log_cross must be True or False, got 'x'"):
        cross(log_cross="x")
    with pytest.raises(ValueError, match=r"^max_period_s must be a finite number in \(0.01, 1e\+08\]"):
        cross(max_period_s=1e300)


def test_bit_error_parameters_are_named_as_the_scenario_names_them():
    with pytest.raises(ValueError, match=r"^ber_mean must be a finite number in \(1e-05, 0.000505\)"):
        simulate_mptcp(B, D, **SMALL, links=[("varying_ber", {"ber_mean": float("nan")})] * 2)
    with pytest.raises(ValueError, match=r"^ber_period_s must be a finite number in \(0, 1e\+08\]"):
        simulate_mptcp(B, D, **SMALL, links=[("varying_ber", {"ber_period_s": 1e300})] * 2)


def test_a_rate_trace_needs_a_sequence_of_rates_and_durations_the_clock_holds():
    with pytest.raises(ValueError, match=r"^rates_bps must be a non-empty sequence"):
        simulate_mptcp(B, D, **SMALL, links=[("rate_trace", {"rates_bps": 1e6})] * 2)
    with pytest.raises(ValueError, match=r"^interval_s must be > 0 and <= 1e\+08 s"):
        simulate_mptcp(B, D, **SMALL, links=[("rate_trace", {"rates_bps": [1e6], "interval_s": 1e300})] * 2)
