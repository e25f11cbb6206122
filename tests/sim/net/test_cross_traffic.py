"""OSIA's path model (cmtlab.sim.net.cross_traffic): Pareto on-off cross traffic and a varying bit-error rate."""

import math

import numpy as np
import pytest

from cmtlab.scenario import LossModel, striped_scenario
from cmtlab.sim import DROPPED_LOSS, DROPPED_QUEUE, PointToPointLink, Simulation, registry
from cmtlab.sim.net.link import transmission_ns
from cmtlab.sim.net.cross_traffic import (BER_MEAN, BER_RANGE, BitErrorLink, BitErrorProcess, CrossTrafficLink,
                                   ParetoOnOff, bounded_pareto_mean, cross_traffic_links, shape_for_mean)

S = 1_000_000_000


def pareto_mc_mean(shape, low, high, n=400_000, seed=5):
    """Independent Monte-Carlo mean of the bounded Pareto: rejection from the untruncated Pareto (numpy)."""
    rng = np.random.default_rng(seed)
    out = []
    while sum(x.size for x in out) < n:
        x = low * (1.0 + rng.pareto(shape, size=n))   # classical Pareto with scale `low`
        out.append(x[x <= high])
    return float(np.concatenate(out)[:n].mean())


# ---------------------------------------------------------------------------------- distributions

@pytest.mark.parametrize("shape", [0.7, 1.0, 1.5, 1.9783])
def test_bounded_pareto_mean_closed_form_matches_monte_carlo(shape):
    cf = bounded_pareto_mean(shape, 0.01, 1.0)
    mc = pareto_mc_mean(shape, 0.01, 1.0)
    assert cf == pytest.approx(mc, rel=0.02)


def test_shape_for_mean_solves_the_paper_ber():
    a = shape_for_mean(2e-5, 1e-5, 1e-3)
    assert bounded_pareto_mean(a, 1e-5, 1e-3) == pytest.approx(2e-5, rel=1e-9)
    assert 1.97 < a < 1.99
    assert pareto_mc_mean(a, 1e-5, 1e-3) == pytest.approx(2e-5, rel=0.02)


# ---------------------------------------------------------------------------------- cross traffic

def test_cross_traffic_utilisation_matches_duty_cycle_times_rate():
    """Long-run cross bytes / time = peak × E[on]/(E[on]+E[off]) (renewal reward), E[.] of the bounded Pareto."""
    for shape, peak in ((1.5, 500e3), (1.2, 800e3)):
        link = CrossTrafficLink(1e6, 0.025, queue_packets=10_000, peak_rate_bps=peak, shape=shape, seed=3)
        horizon_s = 3000
        link.advance(horizon_s * S)
        mean_on = pareto_mc_mean(shape, 0.01, 1.0)           # on and off periods share the distribution
        expected_bps = peak * mean_on / (mean_on + mean_on)
        measured_bps = link.cross_bytes * 8 / horizon_s
        assert link.cross_drops == 0
        assert measured_bps == pytest.approx(expected_bps, rel=0.03)
        assert link.mean_load == pytest.approx(peak / 2 / 1e6, rel=1e-3)
        # the on/off periods were drawn inside [10 ms, 1 s]
        src = link.cross
        assert src.periods == pytest.approx(horizon_s / src.mean_period_s, rel=0.03)


def test_on_off_periods_honour_range_and_packet_spacing():
    src = ParetoOnOff(400e3, seed=11)
    times = np.array([src.pop() for _ in range(20_000)])
    gaps = np.diff(times)
    assert np.all(gaps >= src.interval_ns)                         # never faster than the peak rate
    assert src.interval_ns == transmission_ns(1000, 400e3) == 20_000_000
    silent = gaps[gaps > src.interval_ns] - src.interval_ns        # off periods (plus on-time fragments)
    assert silent.min() >= 0.010 * S - src.interval_ns
    assert silent.max() <= 2 * 1.0 * S + src.interval_ns            # at most an off period plus carry-over


def test_mean_load_sets_the_peak():
    link = CrossTrafficLink(2e6, 0.01, mean_load=0.25)
    assert link.cross.peak_rate_bps == pytest.approx(1e6)
    assert link.mean_load == pytest.approx(0.25)


def fifo_reference(data, cross, rate_bps, delay_ns, data_bytes, cross_bytes):
    """Independent FIFO: merge data and cross arrivals (cross first on ties), serve in order, no queue limit."""
    events = sorted([(t, 0, "c", None) for t in cross] + [(t, 1, "d", k) for k, t in enumerate(data)])
    free = -10**18
    out = {}
    for t, _, kind, k in events:
        start = max(t, free)
        free = start + transmission_ns(data_bytes if kind == "d" else cross_bytes, rate_bps)
        if kind == "d":
            out[k] = free + delay_ns
    return [out[k] for k in range(len(data))]


def test_data_departures_equal_an_independent_fifo_with_the_cross_traffic():
    rate, delay = 1e6, 0.02
    link = CrossTrafficLink(rate, delay, queue_packets=100_000, peak_rate_bps=900e3, log_cross=True, seed=2)
    rng = np.random.default_rng(0)
    data_times = np.cumsum(rng.exponential(0.012, size=3000) * S).astype(np.int64)
    arrivals = [link.transmit(int(t), 1040) for t in data_times]
    link.advance(int(data_times[-1]))
    cross_times = [t for t, _ in link.cross_log]
    assert len(cross_times) > 500
    ref = fifo_reference(data_times, cross_times, rate, link.delay_ns, 1040, 1000)
    assert arrivals == ref
    idle = [int(t) + transmission_ns(1040, rate) + link.delay_ns for t in data_times]
    assert all(a >= i for a, i in zip(arrivals, idle))              # never earlier than over an idle link
    assert sum(a > i for a, i in zip(arrivals, idle)) > 300          # and often later: cross bytes ahead
    assert all(b >= a for a, b in zip(arrivals, arrivals[1:]))       # FIFO order preserved


def test_queue_limit_counts_cross_packets():
    link = CrossTrafficLink(1e5, 0.0, queue_packets=5, peak_rate_bps=1e6, seed=4)   # offered 10x the rate when on
    t = 0
    results = []
    for _ in range(2000):
        t += 50_000_000
        results.append(link.transmit(t, 1040))
    assert link.cross_drops > 0
    assert DROPPED_QUEUE in results
    assert link.stats()["cross_drops"] == link.cross_drops


# ---------------------------------------------------------------------------------- bit errors

def test_ber_mean_and_range():
    p = BitErrorProcess(seed=7)
    v = np.array([p.ber_at(k * p.period_ns) for k in range(100_000)])
    assert v.min() >= BER_RANGE[0] and v.max() <= BER_RANGE[1]
    assert v.mean() == pytest.approx(BER_MEAN, rel=0.03)
    assert v.max() > 3e-4                      # the range is used, not just its lower end
    # constant within a period, any query order
    assert p.ber_at(5 * p.period_ns + 1) == p.ber_at(5 * p.period_ns) == v[5]
    assert p.ber_at(-3) == v[0]


def test_frame_loss_formula():
    for ber in (1e-5, 2e-5, 1e-3):
        for size in (40, 1000, 1040):
            assert BitErrorProcess.frame_loss_probability(ber, size) == pytest.approx(1 - (1 - ber) ** (8 * size),
                                                                                       rel=1e-12)
    assert BitErrorProcess.frame_loss_probability(2e-5, 1000) == pytest.approx(0.1479, abs=1e-4)
    # the static LossModel with unit="bit" agrees
    assert BitErrorProcess.frame_loss_probability(2e-5, 1040) == pytest.approx(
        LossModel("bit", 2e-5).drop_probability(1040), rel=1e-12)


def test_ber_link_loss_rate_matches_the_expected_frame_loss():
    link = BitErrorLink(1e7, 0.0, queue_packets=10, seed=9)
    n = 60_000
    lost = sum(link.transmit(k * 1_000_000, 1000) == DROPPED_LOSS for k in range(n))   # 1 ms apart: 600 periods
    expected = np.mean([BitErrorProcess.frame_loss_probability(link.ber.ber_at(k * 1_000_000), 1000)
                        for k in range(n)])
    assert lost / n == pytest.approx(expected, abs=4 * math.sqrt(expected * (1 - expected) / n))
    assert link.ber_drops == link.loss_drops == lost
    assert link.expected_drop_probability(1000) == pytest.approx(link.ber.expected_frame_loss(1000))
    assert link.drop_probability(1000) == 0.0   # the static part, which PointToPointLink draws
    assert 0.13 < link.ber.expected_frame_loss(1000) < 0.15


def test_cross_traffic_and_ber_compose_on_one_link():
    link = CrossTrafficLink(1e6, 0.01, mean_load=0.25, ber=True, seed=1)
    res = [link.transmit(k * 20_000_000, 1040) for k in range(5000)]
    assert link.cross_packets > 0 and link.ber_drops > 0
    assert res.count(DROPPED_LOSS) == link.ber_drops
    # the cross traffic is the same with and without bit errors (separate streams)
    plain = CrossTrafficLink(1e6, 0.01, mean_load=0.25, seed=1)
    for k in range(5000):
        plain.transmit(k * 20_000_000, 1040)
    assert plain.cross_packets == link.cross_packets
    kept = [r for r in res if r >= 0]
    assert all(b >= a for a, b in zip(kept, kept[1:]))


# ---------------------------------------------------------------------------------- determinism, streams

def run_link(link, n=3000):
    return [link.transmit(k * 7_000_000, 1040) for k in range(n)]


def test_determinism_per_seed():
    a = run_link(CrossTrafficLink(1e6, 0.01, mean_load=0.3, ber=True, seed=4, stream=2))
    b = run_link(CrossTrafficLink(1e6, 0.01, mean_load=0.3, ber=True, seed=4, stream=2))
    c = run_link(CrossTrafficLink(1e6, 0.01, mean_load=0.3, ber=True, seed=5, stream=2))
    assert a == b
    assert a != c


def test_stream_independence():
    """Adding a path, or drawing on another, leaves a path's draws unchanged."""
    two = cross_traffic_links([1e6, 2e6], [0.025, 0.05], seed=3)
    three = cross_traffic_links([1e6, 2e6, 3e6], [0.025, 0.05, 0.02], seed=3)
    out3 = [run_link(three[2]), run_link(three[0])]
    assert run_link(two[0]) == out3[1]
    other = cross_traffic_links([1e6, 2e6], [0.025, 0.05], seed=3)
    assert run_link(other[1]) == run_link(two[1])
    # different streams of one seed differ
    s0 = CrossTrafficLink(1e6, 0.01, mean_load=0.3, seed=3, stream=0)
    s1 = CrossTrafficLink(1e6, 0.01, mean_load=0.3, seed=3, stream=1)
    assert run_link(s0) != run_link(s1)


def test_registered():
    assert "pareto_cross_traffic" in registry.names("link")
    assert "varying_ber" in registry.names("link")
    link = registry.make("link", "pareto_cross_traffic", rate_bps=1e6, delay_s=0.01, mean_load=0.2, ber=True)
    assert isinstance(link, CrossTrafficLink) and link.ber is not None
    assert isinstance(registry.make("link", "varying_ber", rate_bps=1e6, delay_s=0.01), BitErrorLink)


# ---------------------------------------------------------------------------------- bad input

@pytest.mark.parametrize("kwargs, name", [
    (dict(peak_rate_bps=0), "peak_rate_bps"),
    (dict(peak_rate_bps=-1e6), "peak_rate_bps"),
    (dict(peak_rate_bps=float("nan")), "peak_rate_bps"),
    (dict(peak_rate_bps=1e6, shape=0), "shape"),
    (dict(peak_rate_bps=1e6, min_period_s=0), "min_period_s"),
    (dict(peak_rate_bps=1e6, min_period_s=0.5, max_period_s=0.1), "max_period_s"),
    (dict(peak_rate_bps=1e6, packet_bytes=0), "packet_bytes"),
    (dict(peak_rate_bps=1e6, seed=-1), "seed"),
])
def test_bad_source_input(kwargs, name):
    with pytest.raises(ValueError, match=name):
        ParetoOnOff(**kwargs)


@pytest.mark.parametrize("kwargs, name", [
    (dict(mean=1e-5), "mean"),
    (dict(mean=6e-4), "mean"),
    (dict(low=0), "low"),
    (dict(high=1e-6), "high"),
    (dict(high=1.0), "high"),
    (dict(period_s=0), "period_s"),
    (dict(stream=True), "stream"),
])
def test_bad_ber_input(kwargs, name):
    with pytest.raises(ValueError, match=name):
        BitErrorProcess(**kwargs)


def test_bad_link_input():
    with pytest.raises(ValueError, match="peak_rate_bps"):
        CrossTrafficLink(1e6, 0.01)
    with pytest.raises(ValueError, match="peak_rate_bps"):
        CrossTrafficLink(1e6, 0.01, peak_rate_bps=1e5, mean_load=0.1)
    with pytest.raises(ValueError, match="mean_load"):
        CrossTrafficLink(1e6, 0.01, mean_load=1.0)
    with pytest.raises(ValueError, match="cross"):
        CrossTrafficLink(1e6, 0.01, cross="pareto")
    with pytest.raises(ValueError, match="ber"):
        BitErrorLink(1e6, 0.01, ber=0.5)
    with pytest.raises(ValueError, match="rate_bps"):
        CrossTrafficLink(0, 0.01, mean_load=0.1)


# ---------------------------------------------------------------------------------- end to end

def tcp_throughput_bps(link):
    sc = striped_scenario([2e6], [0.05], transfer_bytes=1_500_000, segment_bytes=1000, initial_window_bytes=1000,
                          tunnel=False, sack=True, queue_packets=50, send_buffer_bytes=1 << 20,
                          receive_buffer_bytes=1 << 20)
    r = Simulation(sc, links=None if link is None else [link]).run()
    assert r.completed
    return r.throughput_bps


def test_tcp_throughput_drops_with_cross_traffic():
    """A bulk TCP flow over one path gets about (1 − load) of the capacity the cross traffic leaves."""
    plain = tcp_throughput_bps(None)
    same_plain = tcp_throughput_bps(PointToPointLink(2e6, 0.025, 50))
    assert plain == same_plain
    rates = {}
    for load in (0.25, 0.5):
        rates[load] = [tcp_throughput_bps(CrossTrafficLink(2e6, 0.025, 50, mean_load=load, seed=s))
                       for s in range(3)]
    m25, m50 = np.mean(rates[0.25]), np.mean(rates[0.5])
    assert m50 < m25 < plain
    assert m25 / plain == pytest.approx(0.75, abs=0.1)
    assert m50 / plain == pytest.approx(0.5, abs=0.12)
    # with the paper's BER on 1 KB packets (~14 % frame loss) TCP collapses far below that
    assert tcp_throughput_bps(CrossTrafficLink(2e6, 0.025, 50, mean_load=0.25, ber=True, seed=0)) < 0.2 * m25
