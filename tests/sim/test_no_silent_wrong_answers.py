"""Bad or extreme input to the simulator: a clear error naming the parameter, or a result within its limits.

One test per defect class: time limits honoured, impossible rates refused, utilisation <= 1,
an upper bound on the work of one run, no coercion of booleans or strings into numbers, and
``trace`` taken only as it is documented.  Each refused input must fail at once (no run starts).
"""

import time

import pytest

from cmtlab import sim
from cmtlab.scenario import MAX_SEGMENTS, striped_scenario
from cmtlab.sim.mptcp.scenario import mptcp_scenario


def test_time_limit_counts_from_the_start_of_the_run_on_a_very_slow_path():
    """A 2 bit/s path: its handshake ACK alone takes minutes, so the clock starts far below 0; the
    run still stops after max_sim_time_s of simulated time (it ran 10x past it before)."""
    slow = sim.simulate_mptcp([2.0, 5e6], [0.02, 0.05], transfer_bytes=20_000_000, max_sim_time_s=3000)
    assert not slow.completed and slow.extra["stop_reason"] == "max_sim_time"
    assert 0 < slow.extra["sim_time_s"] <= 3000
    s = sim.simulate_striped([2.0, 5e6], [0.02, 0.05], transfer_bytes=20_000, max_sim_time_s=3000)
    assert not s.completed and s.extra["stop_reason"] == "max_sim_time"
    assert 0 < s.extra["sim_time_s"] <= 3000


@pytest.mark.parametrize("rate", [1e-3, 1e-300])
def test_a_rate_that_cannot_carry_one_packet_within_the_time_limit_is_refused(rate):
    """The issue's examples: [1e-3, 5e6] (MPTCP ran 372,000 s past its 36,000 s limit) and 1e-300 bit/s
    (negative simulated time in the striped engine)."""
    with pytest.raises(ValueError, match=r"bandwidths_bps must be >= 0\.1\d* bit/s .*max_sim_time_s = 36000 s"):
        sim.simulate_mptcp([rate, 5e6], [0.02, 0.05], transfer_bytes=200_000)
    with pytest.raises(ValueError, match=r"bandwidths_bps must be >= .* bit/s"):
        sim.simulate_striped([rate, 5e6], [0.02, 0.05], transfer_bytes=200_000)
    with pytest.raises(ValueError, match=r"backbone_bps must be >= .* bit/s"):
        sim.simulate_mptcp([5e6, 5e6], [0.02, 0.05], transfer_bytes=200_000, backbone_bps=rate)


def test_link_utilisation_never_exceeds_one_in_duration_runs():
    """Packets still queued when a duration-limited run ends were counted as carried (1.23, 1.49 before)."""
    for kw in (dict(duration_s=1.0, queue_packets=1000, initial_window_bytes=100 * 536),
               dict(duration_s=0.5, queue_packets=500, initial_window_bytes=200 * 536, ssthresh_bytes=10**6)):
        r = sim.simulate_mptcp([5e6, 2e6], [0.02, 0.05], **kw)
        u = r.subflows.link_utilisation
        assert (u <= 1.0).all() and u.max() > 0.99  # the slow path is saturated, not over-full
    r = sim.simulate_mptcp([5e6, 2e6], [0.02, 0.05], duration_s=1.0, backbone_bps=4e6, queue_packets=1000,
                           initial_window_bytes=100 * 536)
    assert r.extra["backbone_utilisation"] <= 1.0


@pytest.mark.parametrize("call, param", [
    (lambda: sim.simulate_striped([10e6], [0.05], transfer_bytes=10**13), "transfer_bytes"),
    (lambda: sim.simulate_mptcp([10e6], [0.05], transfer_bytes=10**13), "transfer_bytes"),
    (lambda: sim.simulate_mptcp([5e6, 2e6], [0.02, 0.05], duration_s=1e7), "duration_s"),
    (lambda: striped_scenario([1e6], [0.05], transfer_bytes=(MAX_SEGMENTS + 1) * 536), "transfer_bytes"),
    (lambda: mptcp_scenario([1e6], [0.05], transfer_bytes=MAX_SEGMENTS * 536, competing_flows=1), "transfer_bytes"),
])
def test_work_beyond_the_bound_is_refused_at_once(call, param):
    t0 = time.perf_counter()
    with pytest.raises(ValueError, match=rf"{param} must be .*at most {MAX_SEGMENTS:,} data segments per run"):
        call()
    assert time.perf_counter() - t0 < 5.0


def test_a_duration_bound_by_the_time_limit_is_not_refused():
    """What counts is the simulated time the run can reach: duration_s beyond max_sim_time_s is cut there."""
    sc = mptcp_scenario([1e6], [0.05], duration_s=1e7, max_sim_time_s=2.0)
    r = sim.run_mptcp(sc)
    assert r.extra["stop_reason"] == "max_sim_time" and r.extra["sim_time_s"] <= 2.0


@pytest.mark.parametrize("bad, param", [
    (dict(bandwidths_bps=["1e6"]), "bandwidths_bps"), (dict(bandwidths_bps=[True, True]), "bandwidths_bps"),
    (dict(delays_s=["0.05", "0.05"]), "rtts_s"), (dict(delays_s=[False, 0.05]), "rtts_s"),
    (dict(bandwidths_bps=[None, 1e6]), "bandwidths_bps"), (dict(bandwidths_bps="10e6"), "bandwidths_bps"),
])
def test_booleans_and_strings_are_not_coerced_into_numbers(bad, param):
    args = dict(bandwidths_bps=[1e6, 1e6], delays_s=[0.05, 0.05]) | bad
    if param == "bandwidths_bps" and len(args["bandwidths_bps"]) != 2 and not isinstance(args["bandwidths_bps"], str):
        args["delays_s"] = [0.05] * len(args["bandwidths_bps"])
    for f in (sim.simulate_striped, sim.simulate_mptcp):
        with pytest.raises(ValueError, match=rf"{param} must hold real numbers"):
            f(args["bandwidths_bps"], args["delays_s"], transfer_bytes=20_000)


@pytest.mark.parametrize("trace", ["no", "false", 1, 0, "cwnd,acks"])
def test_trace_takes_only_what_is_documented(trace):
    with pytest.raises(ValueError, match="trace"):
        sim.simulate_mptcp([1e6], [0.05], transfer_bytes=20_000, trace=trace)
    with pytest.raises(ValueError, match="trace"):
        sim.simulate_striped([1e6], [0.05], transfer_bytes=20_000, trace=trace)
    assert sim.simulate_mptcp([1e6], [0.05], transfer_bytes=20_000, trace=False).traces == {}
    assert sim.simulate_striped([1e6], [0.05], transfer_bytes=20_000, trace="cwnd").traces.keys() == {"cwnd"}


def test_round_trip_delays_are_named_rtts_s_and_the_old_name_is_deprecated():
    """``rtts_s`` says round trip (``delays_s`` meant round trips here and one-way delays elsewhere).
    The old keyword still works with a DeprecationWarning; scenario keys keep the old field name so
    cached results stay valid."""
    from cmtlab.scenario import striped_scenario

    new = striped_scenario([1e6], rtts_s=[0.05], transfer_bytes=10_000)
    with pytest.warns(DeprecationWarning, match="delays_s.*deprecated.*rtts_s"):
        old = striped_scenario([1e6], delays_s=[0.05], transfer_bytes=10_000)
    assert old == new and old.key() == new.key() and new.delays_s == new.rtts_s == (0.05,)
    assert "delays_s" in new.to_dict() and list(new.to_dict())[1] == "delays_s"  # the key's schema
    with pytest.warns(DeprecationWarning):
        r = sim.simulate_mptcp([1e6], delays_s=[0.05], transfer_bytes=10_000)
    assert r.scenario == mptcp_scenario([1e6], [0.05], transfer_bytes=10_000)
    with pytest.raises(TypeError, match="once, as rtts_s"):
        sim.simulate_striped([1e6], [0.05], delays_s=[0.05], transfer_bytes=10_000)
    with pytest.raises(TypeError, match="missing rtts_s"):
        sim.simulate_striped([1e6], transfer_bytes=10_000)
    with pytest.warns(DeprecationWarning):
        assert new.replace(delays_s=(0.1,)).rtts_s == (0.1,)
