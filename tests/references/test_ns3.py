"""cmtlab.ns3: Song's Fig. 5 topology in ns-3 3.44 — closed forms, conservation, option effects.

ns-3's import costs ~15 s once for the module; each simulation below takes < 1 s.  The module
is skipped only when the ns-3 Python package is not installed.
"""

from __future__ import annotations

import functools
import importlib.util
import math
import re

import numpy as np
import pytest

if importlib.util.find_spec("ns") is None:  # pragma: no cover - depends on the environment
    pytest.skip("ns-3 Python bindings (pip package ns3) are not installed", allow_module_level=True)

from cmtlab import ns3  # noqa: E402
from cmtlab.scenario import PRESETS, LossModel, striped_scenario  # noqa: E402

#: The reference scenario of the issue: 10 and 5 Mbit/s, RTT 20 and 60 ms, ACKs round-robin.
SONG_2 = dict(bandwidths_bps=[10e6, 5e6], rtts_s=[0.020, 0.060])


@functools.lru_cache(maxsize=None)
def _run_cached(key):
    scenario, trace = key
    return ns3.run(scenario, trace=trace)


def run(scenario, trace=False):
    return _run_cached((scenario, trace))


# ------------------------------------------------------------------------------- closed forms

@pytest.mark.parametrize("tunnel, ack_path, n_links", [(False, "round_robin", 1), (True, "round_robin", 2),
                                                       (True, "ideal", 2), (False, "ideal", 1)])
def test_one_segment_takes_serialisation_plus_one_way_delay(tunnel, ack_path, n_links):
    rate, rtt = 4e6, 0.030
    sc = striped_scenario([rate] * n_links, [rtt] * n_links, transfer_bytes=536, tunnel=tunnel, ack_path=ack_path)
    r = run(sc)
    one_way = rtt if ack_path == "ideal" else rtt / 2
    expected = sc.data_packet_bytes() * 8 / rate + one_way
    assert r.completed
    assert r.completion_time_s == pytest.approx(expected, abs=3e-9)
    assert (r.data_segments_sent, r.retransmissions, r.timeouts) == (1, 0, 0)


def test_partial_last_segment_is_sent_as_is():
    rate, rtt, payload = 2e6, 0.010, 100
    sc = striped_scenario([rate], [rtt], transfer_bytes=payload, tunnel=False)
    r = run(sc)
    wire = payload + 20 + 20 + 2
    assert r.completion_time_s == pytest.approx(wire * 8 / rate + rtt / 2, abs=3e-9)
    assert r.extra["link_max_wire_bytes"][0] == wire


def test_single_lossless_link_runs_at_link_rate_times_payload_share():
    """Once slow start has filled the pipe the link never idles: each further segment costs exactly
    its wire time, so two transfer sizes differ by exactly their extra wire bytes × 8 / rate (queue
    large enough that congestion avoidance never overflows it)."""
    rate = 10e6
    small, large = (striped_scenario([rate], [0.020], transfer_bytes=e, tunnel=False, queue_packets=1000)
                    for e in (3_000_000, 6_000_000))
    rs, rl = run(small), run(large)
    wire = small.data_packet_bytes()
    assert wire == 578
    payload_rate = rate * small.segment_bytes / wire
    for sc, r in ((small, rs), (large, rl)):
        assert r.completed and r.retransmissions == 0 and r.extra["queue_drops_data"] == 0
        assert r.data_segments_sent == math.ceil(sc.transfer_bytes / sc.segment_bytes)
        # every data segment crossed the link once, plus the SYN and the handshake ACK
        assert r.extra["link_data_packets"][0] == r.data_segments_sent + 2
        # never faster than the link, and close to it: only slow start is lost
        assert r.throughput_bps <= payload_rate
        assert r.throughput_bps > 0.9 * payload_rate
    def wire_bytes(sc, r):  # payload + 40 B TCP/IP + 2 B PPP per segment (the last one is partial)
        return sc.transfer_bytes + r.data_segments_sent * (wire - sc.segment_bytes)
    extra_wire = wire_bytes(large, rl) - wire_bytes(small, rs)
    assert rl.completion_time_s - rs.completion_time_s == pytest.approx(extra_wire * 8 / rate, abs=3e-9)
    assert rl.throughput_bps > rs.throughput_bps


# ------------------------------------------------------------------------------- topology

def test_striped_links_carry_data_round_robin_at_the_scenario_wire_size():
    sc = striped_scenario(**SONG_2, transfer_bytes=1_000_000)
    r = run(sc, trace=True)
    pk = r.traces["packets"]
    assert len(pk) == r.data_segments_sent
    # data segment k (in sending order) leaves on link k mod n
    assert (pk["link"].to_numpy() == np.arange(len(pk)) % 2).all()
    d0, d1 = r.extra["link_data_packets"]
    assert d0 - 2 - d1 in (0, 1)              # link 0 also carried the SYN and the handshake ACK
    assert d0 + d1 - 2 == r.data_segments_sent
    assert r.extra["link_max_wire_bytes"] == (sc.data_packet_bytes(),) * 2 == (606, 606)
    a0, a1 = r.extra["link_ack_packets"]
    assert abs(a0 - a1) <= 1 and r.extra["ideal_path_ack_packets"] == 0
    assert r.extra["received_bytes"] == sc.transfer_bytes


def test_timestamps_add_twelve_bytes_on_the_wire():
    sc = striped_scenario(**SONG_2, transfer_bytes=20_000, timestamps=True)
    r = run(sc)
    assert r.extra["link_max_wire_bytes"] == (sc.data_packet_bytes(),) * 2 == (618, 618)


@pytest.mark.parametrize("ack_path, expected", [("first", (1, 0, 0, 0)), ("fastest", (0, 1, 0, 0)),
                                                   ("ideal", (0, 0, 0, 1))])
def test_ack_path_puts_every_ack_on_the_chosen_path(ack_path, expected):
    sc = striped_scenario([5e6, 5e6, 5e6], [0.040, 0.010, 0.030], transfer_bytes=50_000, ack_path=ack_path)
    r = run(sc)
    acks = r.extra["link_ack_packets"] + (r.extra["ideal_path_ack_packets"],)
    assert tuple(int(a > 0) for a in acks) == expected


def test_initial_window_in_bytes_reaches_ns3():
    whole = run(striped_scenario([10e6], [0.05], transfer_bytes=20_000, tunnel=False,
                                 initial_window_bytes=3 * 536), trace=True)
    first_flight = whole.traces["packets"].query("time_s == time_s.min()")
    assert len(first_flight) == 3
    assert whole.traces["cwnd"]["cwnd_bytes"].iloc[0] == 3 * 536
    odd = run(striped_scenario([10e6], [0.05], transfer_bytes=20_000, tunnel=False,
                               initial_window_bytes=800), trace=True)
    assert odd.traces["cwnd"]["cwnd_bytes"].iloc[0] == 800
    assert len(odd.traces["packets"].query("time_s == time_s.min()")) == 1


# ------------------------------------------------------------------------------- options

def test_known_measurement_and_sack_really_changes_ns3():
    """Issue's reference: ≈8 Mbit/s with SACK and limited transmit off, ≈0.3 Mbit/s with ns-3's defaults."""
    plain = run(striped_scenario(**SONG_2, transfer_bytes=5_000_000))
    dflt = run(striped_scenario(**SONG_2, transfer_bytes=5_000_000, options="ns3-3.44-defaults"))
    assert 7e6 < plain.throughput_bps < 9.5e6
    assert 0.2e6 < dflt.throughput_bps < 0.45e6
    assert plain.retransmissions == plain.fast_retransmits == 0
    assert dflt.fast_retransmits > 100
    # lossless network: every retransmission is one the receiver already held
    for r in (plain, dflt):
        assert r.extra["loss_drops"] == r.extra["queue_drops_data"] == r.extra["queue_drops_ack"] == 0
        assert r.spurious_retransmissions == r.retransmissions
        assert r.data_segments_sent == r.extra["data_segments_received"]
        assert r.data_segments_sent - r.retransmissions == math.ceil(5_000_000 / 536)


def test_tcp_options_reach_ns3():
    """Each option changes what ns-3 does, in the direction its RFC says."""
    lossy = dict(bandwidths_bps=[10e6], rtts_s=[0.04], transfer_bytes=1_000_000, tunnel=False,
                 loss=LossModel("packet", 0.01), seed=2)
    base = run(striped_scenario(**lossy))
    assert base.fast_retransmits > 0
    # dupack threshold out of reach: only the retransmission timer recovers losses
    deaf = run(striped_scenario(**lossy, dupack_threshold=1000))
    assert deaf.fast_retransmits == 0 and deaf.timeouts > base.timeouts
    assert deaf.completion_time_s > base.completion_time_s
    # SACK recovers the same losses without timeouts; PRR paces the recovery differently
    sack = dict(sack=True, sack_loss_detection=True, limited_transmit=True)
    classic = run(striped_scenario(**lossy, **sack))
    prr = run(striped_scenario(**lossy, **sack, recovery="prr"))
    # same seed = same per-packet loss pattern (common random numbers), and no run sends a segment twice
    assert classic.extra["loss_drops"] == prr.extra["loss_drops"] == base.extra["loss_drops"]
    assert classic.timeouts == prr.timeouts == 0 < base.timeouts
    assert classic.completion_time_s != prr.completion_time_s
    # m_ack = 1: one ACK per data segment instead of one per two
    every = run(striped_scenario(**lossy, m_ack=1))
    assert every.extra["link_ack_packets"][0] > 1.5 * base.extra["link_ack_packets"][0]


def test_loss_model_drops_at_its_rate_and_seed_repeats_the_run():
    p = 0.01
    sc = striped_scenario(**SONG_2, transfer_bytes=1_000_000, loss=LossModel("packet", p), seed=7)
    a, b = ns3.run(sc), ns3.run(sc)
    fields = ["completion_time_s", "data_segments_sent", "retransmissions", "fast_retransmits", "timeouts",
              "spurious_retransmissions"]
    assert [getattr(a, f) for f in fields] == [getattr(b, f) for f in fields]
    def simulated(r):  # everything but the wall-clock rate
        return {k: v for k, v in r.extra.items() if k != "segments_per_second"}
    assert simulated(a) == simulated(b)
    other = ns3.run(sc.replace(seed=8))
    assert (other.completion_time_s, other.extra["loss_drops"]) != (a.completion_time_s, a.extra["loss_drops"])
    # Bernoulli drops of the data-direction packets (all sent after the loss model is enabled)
    n = sum(a.extra["link_data_packets"]) - 1                      # minus the SYN
    assert abs(a.extra["loss_drops"] - p * n) < 4 * math.sqrt(n * p * (1 - p))
    # every dropped data packet is sent again (the handshake ACK may be among the drops)
    assert a.completed and a.extra["loss_drops"] > 0
    assert a.retransmissions >= a.extra["loss_drops"] + a.extra["queue_drops_data"] - 1
    assert a.data_segments_sent - a.retransmissions == math.ceil(1_000_000 / 536)


def test_bit_error_rate_drops_packets_by_their_wire_size():
    ber = 4e-6
    sc = striped_scenario([10e6], [0.02], transfer_bytes=1_000_000, tunnel=False, loss=LossModel("bit", ber))
    r = run(sc)
    p = sc.loss[0].drop_probability(sc.data_packet_bytes())
    n = r.extra["link_data_packets"][0] - 1
    assert abs(r.extra["loss_drops"] - p * n) < 4 * math.sqrt(n * p * (1 - p))


def test_too_short_max_sim_time_reports_not_completed():
    r = ns3.run(striped_scenario(**SONG_2, transfer_bytes=200_000, max_sim_time_s=0.2))
    assert not r.completed
    assert math.isnan(r.completion_time_s) and math.isnan(r.throughput_bps)
    assert r.extra["sim_end_s"] == pytest.approx(0.2)
    assert 0 < r.extra["received_bytes"] < 200_000


@pytest.mark.parametrize("changes, name", [
    (dict(sack=True, sack_loss_detection=False, limited_transmit=True), "sack_loss_detection"),
    (dict(sack=True, sack_loss_detection=True, limited_transmit=False), "limited_transmit"),
    (dict(immediate_ack_on_out_of_order=False), "immediate_ack_on_out_of_order"),
])
def test_options_ns3_cannot_represent_raise(changes, name):
    sc = striped_scenario(**SONG_2, transfer_bytes=10_000, **changes)
    with pytest.raises(ValueError, match=name):
        ns3.run(sc)
    with pytest.raises(ValueError, match=name):
        ns3.simulate_striped(**SONG_2, transfer_bytes=10_000, **changes)


def test_bad_input_raises_value_error_naming_the_parameter():
    with pytest.raises(ValueError, match="transfer_bytes"):
        ns3.simulate_striped([1e6], [0.01], transfer_bytes=0)
    with pytest.raises(ValueError, match="rtts_s"):
        ns3.simulate_striped([1e6, 2e6], [0.01], transfer_bytes=10)
    with pytest.raises(ValueError, match="scenario"):
        ns3.run({"bandwidths_bps": [1e6]})
    with pytest.raises(ValueError, match="trace"):
        ns3.run(striped_scenario([1e6], [0.01], transfer_bytes=10), trace="yes")


# ------------------------------------------------------------------------------- presets

def _seconds(text: str) -> float:
    m = re.fullmatch(r"\+?([0-9.e+-]+)(ns|us|ms|s)", text)
    return float(m.group(1)) * {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[m.group(2)]


def test_ns3_344_defaults_preset_matches_the_installed_ns3():
    p = PRESETS["ns3-3.44-defaults"]
    base = ns3.attribute_defaults("ns3::TcpSocketBase")
    l4 = ns3.attribute_defaults("ns3::TcpL4Protocol")
    rtt = ns3.attribute_defaults("ns3::RttMeanDeviation")
    assert (base["Sack"] == "true") == p.sack == p.sack_loss_detection
    assert (base["LimitedTransmit"] == "true") == p.limited_transmit
    assert (base["Timestamp"] == "true") == p.timestamps
    assert l4["RecoveryType"] == {"prr": "ns3::TcpPrrRecovery", "newreno": "ns3::TcpClassicRecovery"}[p.recovery]
    assert _seconds(base["MinRto"]) == p.min_rto_s
    assert _seconds(base["ClockGranularity"]) == p.clock_granularity_s
    assert _seconds(rtt["InitialEstimation"]) == p.initial_rto_s
    assert _seconds(base["DelAckTimeout"]) == p.delayed_ack_timeout_s
    assert int(base["ReTxThreshold"]) == p.dupack_threshold
    assert int(base["SndBufSize"]) == p.send_buffer_bytes and int(base["RcvBufSize"]) == p.receive_buffer_bytes
    assert PRESETS["ns3-2018"].recovery == "newreno"      # PRR only arrived in ns-3.29


def test_code_version_is_a_short_hash_including_the_ns3_version():
    assert re.fullmatch(r"[0-9a-f]{16}", ns3.CODE_VERSION)
    assert ns3.ns3_version().startswith("3.44")
