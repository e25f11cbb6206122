"""cmtlab.sim engine: conservation, closed forms, guards, determinism, traces and public API."""

import math
import re

import numpy as np
import pandas as pd
import pytest

from cmtlab import sim, sweep
from cmtlab.scenario import LossModel, TransferResult, striped_scenario
from cmtlab.sim import Simulation, reorder_density
from cmtlab.sim.net.link import PointToPointLink, seconds_to_ns, transmission_ns
from cmtlab.sim.net.rng import Mrg32k3a

SONG_B = [35.9e6, 18.4e6, 33.3e6, 14.7e6]


# ---------------------------------------------------------------- closed forms
@pytest.mark.parametrize("tunnel,ack_path", [(True, "round_robin"), (False, "round_robin"), (True, "ideal")])
def test_one_segment_takes_serialisation_plus_one_way_delay(tunnel, ack_path):
    rate, rtt = 1e6, 0.1
    r = sim.simulate_striped([rate], [rtt], transfer_bytes=536, tunnel=tunnel, ack_path=ack_path)
    sc = r.scenario
    one_way = rtt if ack_path == "ideal" else rtt / 2
    assert r.completed and r.data_segments_sent == 1
    assert r.completion_time_s == pytest.approx(sc.data_packet_bytes() * 8 / rate + one_way, abs=1e-9)
    assert r.throughput_bps == pytest.approx(536 * 8 / r.completion_time_s)


def test_first_window_striped_over_links_finishes_with_the_slowest():
    b, d = [2e6, 1e6, 4e6], [0.1, 0.3, 0.02]
    r = sim.simulate_striped(b, d, transfer_bytes=3 * 536, initial_window_bytes=3 * 536)
    wire = r.scenario.data_packet_bytes()
    # segment k leaves on link k (Song eq. 2) at the same instant; it arrives after its link's
    # serialisation and one-way delay; the transfer ends with the last arrival
    assert r.completion_time_s == pytest.approx(max(wire * 8 / bi + di / 2 for bi, di in zip(b, d)), abs=1e-9)


def test_long_transfer_on_one_link_reaches_the_payload_share_of_the_rate():
    rate = 2e6
    r = sim.simulate_striped([rate], [0.04], transfer_bytes=3_000_000, tunnel=False, queue_packets=1000)
    wire = r.scenario.data_packet_bytes()
    ceiling = rate * 536 / wire  # the link is never idle: payload / wire of the line rate
    assert r.retransmissions == 0
    assert 0.97 * ceiling < r.throughput_bps <= ceiling


def test_send_buffer_limits_throughput_to_a_window_per_rtt():
    rtt, buf = 0.2, 20 * 536
    r = sim.simulate_striped([100e6], [rtt], transfer_bytes=2_000_000, tunnel=False, send_buffer_bytes=buf,
                             ssthresh_bytes=10**7, initial_window_bytes=10 * 536)
    assert r.throughput_bps == pytest.approx(buf * 8 / rtt, rel=0.05)


def test_mathis_square_root_law_order_of_magnitude():
    # one NewReno flow, random loss p, delayed ACKs (b = 2): B ~ MSS/RTT * sqrt(3 / (2 b p))
    p, rtt, mss = 0.005, 0.1, 536
    thr = [sim.simulate_striped([50e6], [rtt], transfer_bytes=600_000, tunnel=False, seed=s,
                                loss=LossModel("packet", p)).throughput_bps for s in range(4)]
    mathis = mss * 8 / rtt * math.sqrt(3 / (4 * p))
    assert 0.6 < np.mean(thr) / mathis < 1.4


# ---------------------------------------------------------------- conservation
def test_every_byte_delivered_once_and_packets_conserved():
    sc = striped_scenario(SONG_B[:3], [0.05, 0.12, 0.08], transfer_bytes=400_000, queue_packets=8,
                          loss=LossModel("packet", 0.02), seed=3)
    s = Simulation(sc, trace=True)
    r = s.run()
    rx = s.receiver
    assert r.completed and rx.rcv_nxt == s.n_segs and not rx.ooo  # everything, in order, once
    p = r.traces["packets"]
    assert len(p) == r.data_segments_sent == s.n_segs + r.retransmissions
    assert set(p["seq"]) == set(range(s.n_segs))
    dropped = (p["dropped"] != "").sum()
    assert dropped == r.extra["queue_drops"] + r.extra["loss_drops"] > 0
    arrived = p["arrival_s"] <= r.completion_time_s
    in_flight = p["arrival_s"] > r.completion_time_s
    assert dropped + arrived.sum() + in_flight.sum() == len(p)
    # the receiver saw every arrival up to completion: unique segments + duplicates
    assert rx.segments_rx == s.n_segs + rx.duplicates_rx
    assert arrived.sum() - (p["arrival_s"] == r.completion_time_s).sum() < rx.segments_rx <= arrived.sum()
    assert r.spurious_retransmissions == rx.duplicates_rx
    s.sender.check_scoreboard()


def test_counters_agree_with_traces():
    r = sim.simulate_striped(SONG_B, [0.05, 0.08, 0.06, 0.1], transfer_bytes=300_000, trace=True,
                             loss=LossModel("packet", 0.01), seed=1)
    ev, p = r.traces["events"], r.traces["packets"]
    assert (ev["kind"] == "fast_retransmit").sum() == r.fast_retransmits > 0
    assert (ev["kind"] == "timeout").sum() == r.timeouts
    assert p["retransmission"].sum() == r.retransmissions
    # round-robin striping below TCP: packet j on link j mod n (Song eq. 2)
    assert np.array_equal(p["link"].to_numpy(), np.arange(len(p)) % 4)


def test_memory_is_bounded_by_the_window_not_the_transfer():
    small = Simulation(striped_scenario([1e6], [0.1], transfer_bytes=10_000))
    big = Simulation(striped_scenario([1e6], [0.1], transfer_bytes=10**9))
    assert len(big.sender.flags) == len(small.sender.flags) <= 2 * (131072 // 536 + 2)
    r = Simulation(striped_scenario(SONG_B[:2], [0.05, 0.2], transfer_bytes=2_000_000)).run()
    assert r.extra["max_out_of_order_segments"] <= 131072 // 536


# ---------------------------------------------------------------- determinism
def test_same_seed_same_result_other_seeds_differ():
    kw = dict(transfer_bytes=200_000, loss=LossModel("packet", 0.02))
    a = sim.simulate_striped([5e6, 2e6], [0.04, 0.1], seed=7, **kw)
    b = sim.simulate_striped([5e6, 2e6], [0.04, 0.1], seed=7, **kw)
    wall = {"wall_time_s": 0, "segments_per_second": 0}  # wall-clock dependent
    assert a.to_row() | wall == b.to_row() | wall
    times = {sim.simulate_striped([5e6, 2e6], [0.04, 0.1], seed=s, **kw).completion_time_s for s in range(5)}
    assert len(times) == 5


def test_loss_draws_follow_ns3_mrg32k3a_streams():
    # ns-3's RngStream(seed 1, stream 2^63, substream 1): first value 0.9564440159453907
    assert Mrg32k3a.ns3_assigned(0, 1).random() == 0.9564440159453907
    g = Mrg32k3a(12345, 3, 7)
    u = [g.random() for _ in range(2)]
    assert all(0 < x < 1 for x in u) and u[0] != u[1]
    g = Mrg32k3a(1, 0, 0)
    values = np.array([g.random() for _ in range(20000)])
    assert abs(values.mean() - 0.5) < 0.01 and abs(values.var() - 1 / 12) < 0.005


def test_mrg32k3a_generators_of_one_stream_start_alike_however_far_another_ran():
    # the start states are cached: advancing one generator must not move the next one's start
    first = Mrg32k3a(12345, 3, 7)
    drawn = [first.random() for _ in range(1000)]
    again = Mrg32k3a(12345, 3, 7)
    assert [again.random() for _ in range(1000)] == drawn
    # and the cached start is the jump-ahead itself: stream 3, substream 7 is not stream 3, substream 6
    assert Mrg32k3a(12345, 3, 6).random() != drawn[0]


# ---------------------------------------------------------------- links
def test_point_to_point_link_fifo_drop_tail_and_ns_rounding():
    lk = PointToPointLink(1e6, 0.01, queue_packets=2)
    tx = transmission_ns(125, 1e6)
    assert tx == 1_000_000 and lk.delay_ns == 10_000_000
    arr = [lk.transmit(0, 125) for _ in range(4)]  # one in service, two waiting, one dropped
    assert arr[:3] == [tx + 10_000_000, 2 * tx + 10_000_000, 3 * tx + 10_000_000]
    assert arr[3] == sim.DROPPED_QUEUE and lk.queue_drops == 1
    assert lk.transmit(tx, 125) == 4 * tx + 10_000_000  # a slot freed when the first finished
    assert seconds_to_ns(0.1) == 100_000_000 and seconds_to_ns(1e-10) == 0


# ---------------------------------------------------------------- reordering metrics
def test_reorder_density_of_a_known_permutation():
    # RFC 5236 sec. 4.1: D = receive index - sequence number
    rd = reorder_density([0, 2, 1, 3, 5, 4, 6, 9, 7, 8])
    dens = dict(zip(rd["displacement"], rd["density"]))
    counts = dict(zip(rd["displacement"], rd["count"]))
    assert counts == {-3: 0, -2: 1, -1: 2, 0: 3, 1: 4, 2: 0, 3: 0}
    assert sum(dens.values()) == pytest.approx(1.0)
    assert reorder_density(range(10)).set_index("displacement").loc[0, "density"] == 1.0
    far = reorder_density([5, 0, 1, 2, 3, 4], threshold=3)
    assert far["count"].sum() == 5  # packet 5 arrived 5 early: beyond DT, not counted
    dup = reorder_density([0, 1, 1, 2])
    assert dup.set_index("displacement").loc[0, "count"] == 3  # the duplicate is discarded


def test_reordering_trace_of_striped_transfer():
    r = sim.simulate_striped([5e6, 5e6], [0.02, 0.2], transfer_bytes=100_000, trace={"reordering"})
    rd = r.traces["reordering"]
    assert rd["density"].sum() <= 1.0 + 1e-12
    assert r.extra["reorder_in_order_fraction"] < 1.0  # asymmetric delays reorder
    r1 = sim.simulate_striped([5e6], [0.02], transfer_bytes=100_000, trace={"reordering"})
    assert r1.extra["reorder_in_order_fraction"] == 1.0
    assert r1.extra["out_of_order_segments"] == 0 and r.extra["out_of_order_ratio"] > 0


def test_rate_trace_integrates_to_the_transfer():
    r = sim.simulate_striped([2e6], [0.05], transfer_bytes=200_000, trace={"rate", "cwnd"})
    rate = r.traces["rate"]
    bin_s = rate["time_s"].diff().iloc[1]
    assert (rate["goodput_bps"] * bin_s).sum() / 8 == pytest.approx(200_000)
    assert (rate["throughput_bps"] >= rate["goodput_bps"] - 1e-6).sum() >= 0.9 * len(rate)
    cw = r.traces["cwnd"]
    assert list(cw.columns) == ["time_s", "cwnd_bytes", "ssthresh_bytes", "state"]
    assert cw["time_s"].is_monotonic_increasing


def test_traces_only_when_asked():
    r = sim.simulate_striped([1e6], [0.1], transfer_bytes=10_000)
    assert r.traces == {}
    r = sim.simulate_striped([1e6], [0.1], transfer_bytes=10_000, trace=True)
    assert set(r.traces) == set(sim.TRACE_NAMES)
    assert all(isinstance(v, pd.DataFrame) for v in r.traces.values())


# ---------------------------------------------------------------- guards and errors
def test_max_sim_time_stops_the_run():
    r = sim.simulate_striped([1e5], [0.1], transfer_bytes=1_000_000, max_sim_time_s=2.0)
    assert not r.completed and math.isnan(r.completion_time_s) and math.isnan(r.throughput_bps)
    assert r.extra["stop_reason"] == "max_sim_time" and r.extra["sim_time_s"] <= 2.0


def test_event_budget_stops_the_run():
    sc = striped_scenario([1e6], [0.1], transfer_bytes=1_000_000)
    r = Simulation(sc, max_events=500).run()
    assert not r.completed and r.extra["stop_reason"] == "max_events" and r.extra["events"] == 500


@pytest.mark.parametrize("kwargs,name", [
    (dict(bandwidths_bps=[0], delays_s=[0.1]), "bandwidths_bps"),
    (dict(bandwidths_bps=[-1e6], delays_s=[0.1]), "bandwidths_bps"),
    (dict(bandwidths_bps=[], delays_s=[]), "bandwidths_bps"),
    (dict(bandwidths_bps=[1e6], delays_s=[-0.1]), "rtts_s"),
    (dict(bandwidths_bps=[1e6, 2e6], delays_s=[0.1]), "bandwidths_bps and rtts_s"),
    (dict(bandwidths_bps=[1e6], delays_s=[0.1], transfer_bytes=0), "transfer_bytes"),
    (dict(bandwidths_bps=[1e6], delays_s=[0.1], segment_bytes=0), "segment_bytes"),
    (dict(bandwidths_bps=[1e6], delays_s=[0.1], m_ack=0), "m_ack"),
    (dict(bandwidths_bps=[1e6], delays_s=[0.1], send_buffer_bytes=100), "send_buffer_bytes"),
    (dict(bandwidths_bps=[1e6], delays_s=[0.1], max_sim_time_s=0), "max_sim_time_s"),
    (dict(bandwidths_bps=[1e6], delays_s=[0.1], trace={"nonsense"}), "trace"),
    (dict(bandwidths_bps=[1e6], delays_s=[0.1], recovery="cubic"), "recovery"),
    (dict(bandwidths_bps=[1e6], delays_s=[0.1], bogus_option=1), "bogus_option"),
])
def test_invalid_input_names_the_parameter(kwargs, name):
    kwargs = {"transfer_bytes": 10_000, **kwargs}
    b, d = kwargs.pop("bandwidths_bps"), kwargs.pop("delays_s")
    with pytest.raises(ValueError, match=name):
        sim.simulate_striped(b, d, **kwargs)


def test_a_transfer_that_can_never_finish_is_refused():
    with pytest.raises(ValueError, match="loss rate"):
        sim.simulate_striped([1e6], [0.1], transfer_bytes=10_000, loss=LossModel("packet", 1.0))
    with pytest.raises(ValueError, match="loss"):  # every packet hit by a bit error
        sim.simulate_striped([1e6, 1e6], [0.1, 0.1], transfer_bytes=10_000, loss=LossModel("bit", 0.5))
    with pytest.raises(ValueError, match="rate_bps"):
        PointToPointLink(0, 0.1)
    with pytest.raises(ValueError, match="delay_s"):
        PointToPointLink(1e6, -1)
    with pytest.raises(ValueError, match="scenario"):
        Simulation({"bandwidths_bps": [1e6]})


# ---------------------------------------------------------------- public API
def test_public_entry_points_and_code_version():
    sc = striped_scenario([1e6], [0.1], transfer_bytes=5_000)
    r = sim.run(sc)
    assert isinstance(r, TransferResult) and r.simulator == "cmtlab" and r.scenario is sc
    r2 = sim.simulate_striped([1e6], [0.1], transfer_bytes=5_000)
    assert r2.completion_time_s == r.completion_time_s
    version = sim.code_version()   # the sweep's version of the simulator: one mechanism
    assert re.fullmatch(r"[0-9a-f]{16}", version) and version == sweep.get_simulator("cmtlab").code_version
    assert r.extra["code_version"] == version
    assert "round-trip" in sim.simulate_striped.__doc__.lower() and "rtts_s[i] / 2" in sim.simulate_striped.__doc__


# ---------------------------------------------------------------- plug-ins
def test_plugins_scheduler_and_congestion_control_are_honoured():
    from cmtlab.sim import CongestionControl, FixedScheduler

    class FixedWindow(CongestionControl):
        name = "fixed"

        def increase_window(self, sub, segments_acked):
            pass

        def ssthresh(self, sub, bytes_in_flight):
            return sub.cwnd

    sc = striped_scenario([100e6, 1e6], [0.2, 0.01], transfer_bytes=200 * 536, initial_window_bytes=10 * 536,
                          m_ack=1, ack_path="first")
    r = Simulation(sc, scheduler=FixedScheduler(0), congestion=FixedWindow(), trace={"packets"}).run()
    assert set(r.traces["packets"]["link"]) == {0}
    # ten segments per round trip of the first link, as the fixed window allows: the last of
    # 20 windows leaves after 19 round trips and arrives one one-way delay later
    assert r.completion_time_s == pytest.approx(19 * 0.2 + 0.1, rel=0.002)
