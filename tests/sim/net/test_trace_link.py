"""The trace-driven link (cmtlab.sim.net.trace_link): the replay follows the trace it replays."""

import pytest

from cmtlab.sim import registry, simulate_mptcp
from cmtlab.sim.net.link import DROPPED_QUEUE
from cmtlab.sim.net.trace_link import RateTraceLink, replayed_rates_bps

RATES = (8e6, 2e6, 0.0, 12e6, 4e6)


def saturate(link, seconds, size=1500):
    arrivals = []
    for _ in range(int(max(link.rates_bps) * seconds / 8 / size) + 10):
        a = link.transmit(0, size)
        if a < 0:
            break
        arrivals.append(a)
    return arrivals


def test_saturated_replay_matches_the_trace_per_interval():
    link = RateTraceLink(RATES, 0.05, queue_packets=10**6, interval_s=1.0, repeat=False)
    arr = saturate(link, 6)
    got = replayed_rates_bps(link, arr, [1500] * len(arr), len(RATES))
    for want, have in zip(RATES, got):
        assert have == pytest.approx(want, abs=2 * 8 * 1500)  # within the packets straddling a boundary
    # during the outage nothing arrives; the first arrival is one packet time + delay after 0
    assert not [a for a in arr if 2.05e9 + 1 < a <= 3.05e9]
    assert arr[0] == 1500 * 8 * 10**9 // 8_000_000 + 50_000_000


def test_repeat_offset_and_bad_input():
    link = RateTraceLink((1e6, 3e6), 0.0, interval_s=0.5, offset_s=1.0)
    assert link.rate_at(0) == (1e6, 10**9)  # before the trace starts: its first rate
    assert link.rate_at(1_600_000_000)[0] == 3e6 and link.rate_at(2_100_000_000)[0] == 1e6  # repeats
    held = RateTraceLink((1e6, 3e6), 0.0, repeat=False)
    assert held.rate_at(50 * 10**9)[0] == 3e6
    for bad, match in ((dict(rates_bps=()), "rates_bps"), (dict(rates_bps=(0, 0)), "every rate is 0"),
                       (dict(rates_bps=(1e6, -1)), "rates_bps"), (dict(interval_s=0), "interval_s")):
        kw = dict(rates_bps=(1e6,), delay_s=0.01) | bad
        with pytest.raises(ValueError, match=match):
            RateTraceLink(**kw)
    small = RateTraceLink((1e6,), 0.0, queue_packets=2)
    assert [small.transmit(0, 1500) > 0 for _ in range(3)] == [True] * 3 and small.transmit(0, 1500) == DROPPED_QUEUE


def test_named_in_a_scenario_and_tcp_follows_the_trace():
    assert registry.lookup("link", "rate_trace") is RateTraceLink
    rates = (10e6,) * 5 + (2e6,) * 5
    r = simulate_mptcp([10e6], [0.04], duration_s=10, congestion="cubic", scheduler="lowest_rtt",
                       links=[("rate_trace", {"rates_bps": rates, "repeat": False})], segment_bytes=1448,
                       initial_window_bytes=14480, ssthresh_bytes=1 << 30, receive_buffer_bytes=1 << 22)
    mean = sum(rates) / len(rates)
    assert 0.6 * mean < r.throughput_bps < mean  # goodput below the trace's mean rate, not far below


def test_schedules_from_the_public_measurements():
    """A Raca 5G download trace and a Starlink window replayed by the link: per-second replayed rates
    equal the trace's (skipped without the mirrored data)."""
    import os

    from cmtlab.measurements import public
    from cmtlab.today.traces import rates_from_5g, rates_from_starlink

    if not os.environ.get("CMTLAB_DATA_MIRROR"):
        pytest.skip("no mirrored public measurements (CMTLAB_DATA_MIRROR)")
    data = public.load_uccmisl_5g()
    f = sorted(data.loc[(data.app == "Download") & (data.technology == "5G NSA"), "file"].unique())[0]
    rates = rates_from_5g(data, f)[:20]
    sl = rates_from_starlink(public.load_starlink_iperf(), start=0, seconds=20)
    for trace in (rates, sl):
        link = RateTraceLink(trace, 0.02, queue_packets=10**7, repeat=False)
        arr = saturate(link, len(trace))
        got = replayed_rates_bps(link, arr, [1500] * len(arr), len(trace))
        for want, have in zip(trace, got):
            assert have == pytest.approx(want, abs=2 * 8 * 1500)
    with pytest.raises(ValueError, match="file"):
        rates_from_5g(data, "no/such/file.csv")
