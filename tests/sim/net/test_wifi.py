"""cmtlab.sim.net.wifi: the 802.11g link model — the DCF exchange, the shared medium, guards, determinism,
a Wi-Fi path in a multipath scenario; one live check against ns-3.  (Its physics: test_wifi_phy.py.)
"""

from __future__ import annotations

import importlib.util
import math
from dataclasses import replace

import pytest

from cmtlab.validation import wifi as wv
from cmtlab.sim import registry
from cmtlab.sim.net import wifi as w
from cmtlab.sim.net import wifi_phy as phy
from cmtlab.sim.net.link import DROPPED_LOSS

NO_PD = replace(phy.DEFAULT_PARAMS, preamble_min_rssi_dbm=None)

# ------------------------------------------------------------------ the link / DCF


def test_one_frame_on_an_idle_medium_and_back_to_back_frames():
    med = w.WifiMedium(10.0, seed=1, params=NO_PD)
    down = med.down
    wire = 1452 + 2      # a 1400 B TCP segment with timestamps + the engine's 2-byte header
    mpdu = 1452 + 8 + 24 + 4                             # + LLC/SNAP, MAC header, FCS
    t_data = 16_000 + 4_000 + 4_000 * math.ceil((16 + 8 * mpdu + 6) / 216) + 6_000
    assert t_data == 250_000
    a1 = down.transmit(0, wire)
    assert down.last_start_ns == 0                       # idle medium: transmits at once
    assert a1 == t_data + med.propagation_ns             # end of the PPDU + d / c
    assert med.propagation_ns == round(10.0 / 299792458.0 * 1e9)
    end1 = t_data + 10_000 + 34_000                      # + SIFS + ACK at 24 Mbit/s
    a2 = down.transmit(0, wire)
    gap = down.last_start_ns - end1 - 28_000             # back-off after DIFS
    assert gap % 9_000 == 0 and 0 <= gap <= 15 * 9_000
    assert a2 == down.last_start_ns + t_data + med.propagation_ns
    assert down.serialisation_ns(wire) == t_data


def test_shared_medium_forward_load_slows_the_ack_direction():
    def ack_delay(saturate: bool) -> float:
        med = w.WifiMedium(10.0, seed=3, params=NO_PD)
        delays = []
        t = 0
        for k in range(200):
            if saturate:
                for _ in range(3):
                    med.down.transmit(t, 1454)
            arr = med.up.transmit(t, 66)
            delays.append(arr - t)
            t += 2_000_000
        return sum(delays) / len(delays)
    idle, loaded = ack_delay(False), ack_delay(True)
    assert idle < 100_000
    assert loaded > idle + 500_000          # waits for the data frames on the same medium


def test_retries_and_pdr():
    med = w.WifiMedium(60.0, seed=5, params=NO_PD)        # 24 Mbit/s at ~4.6 % frame errors
    assert 0.02 < 1 - med.success_probability(1464) < 0.1
    for k in range(3000):
        med.down.transmit(k * 1_000_000, 1454)
    assert med.down.mac_retries > 50
    assert med.down.drop_probability(1454) < 1e-6
    pdr = w.WifiMedium(10.0, seed=5, params=NO_PD, pdr=0.2).down
    lost = sum(pdr.transmit(k * 1_000_000, 1454) == DROPPED_LOSS for k in range(5000))
    assert 800 < lost < 1200
    assert pdr.drop_probability(1454) == pytest.approx(0.2)


def test_dead_link_loses_everything():
    link = w.WifiMedium(70.0, seed=0).down                # beyond the preamble-detection range
    assert link.drop_probability(1454) == 1.0
    assert all(link.transmit(k * 10_000_000, 1454) == DROPPED_LOSS for k in range(5))


def test_registry_and_both_directions_share_one_medium():
    link = registry.make("link", "wifi80211g", distance_m=20.0, seed=2)
    assert isinstance(link, w.WifiLink)
    assert link.medium.down is link and link.medium.up.medium is link.medium
    assert "wifi80211g" in registry.names("link") and registry.lookup("link", "wifi80211g") is w.WifiLink


@pytest.mark.parametrize("call, name", [
    (lambda: w.WifiMedium(-1.0), "distance_m"),
    (lambda: w.WifiMedium(0.0), "distance_m"),
    (lambda: w.WifiMedium(10.0).down.transmit(0, 0), "wire_bytes"),
    (lambda: w.WifiMedium(10.0, pdr=1.0), "pdr"),
    (lambda: w.WifiLink(), "distance_m"),
    (lambda: wv.model_udp_throughput_bps(10.0, payload_bytes=0), "payload_bytes"),
])
def test_bad_input_names_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_deterministic_per_seed():
    a = wv.model_udp_throughput_bps(60.0, duration_s=0.3, seed=7)
    b = wv.model_udp_throughput_bps(60.0, duration_s=0.3, seed=7)
    c = wv.model_udp_throughput_bps(60.0, duration_s=0.3, seed=8)
    assert a == b and a != c
    t1 = wv.model_tcp_throughput_bps(30.0, transfer_bytes=300_000, seed=4)
    t2 = wv.model_tcp_throughput_bps(30.0, transfer_bytes=300_000, seed=4)
    assert t1 == t2


def test_beacons_take_their_airtime():
    med = w.WifiMedium(10.0, seed=0, params=NO_PD)
    t = 0
    while t < 1_000_000_000:                   # 1 s of saturation
        med.down.transmit(t, 1430)
        t = med.down.last_start_ns
    assert med.beacons in (9, 10)               # one per 102.4 ms
    no_beacons = replace(NO_PD, beacon_interval_us=None)
    assert phy.saturation_throughput_bps(10.0, params=NO_PD) == pytest.approx(
        phy.saturation_throughput_bps(10.0, params=no_beacons) * (1 - (19 + 752) / 102_400))


def test_simulated_udp_matches_closed_form_and_tcp_below_udp():
    for d in (10.0, 50.0, 100.0):
        sim = wv.model_udp_throughput_bps(d, duration_s=1.0, seed=1)
        assert sim == pytest.approx(phy.saturation_throughput_bps(d, params=NO_PD), rel=0.02), d
    tcp, res, med = wv.model_tcp_throughput_bps(10.0, transfer_bytes=1_000_000, seed=1, return_result=True)
    assert res.completed and 0.6 * sim < tcp < phy.saturation_throughput_bps(10.0)
    assert med.up.packets > 0                               # the ACKs used the same medium


# ------------------------------------------------------------------ live ns-3

#: Largest |relative difference| of the UDP throughput accepted at 10 m (the full-profile table
#: over 10-100 m, data/wifi/ns3-wifi-throughput.csv: UDP median 0.2 %, largest 1.7 %; at 10 m 0.1 %).
UDP_TOLERANCE = 0.02


@pytest.mark.skipif(importlib.util.find_spec("ns") is None, reason="ns-3 Python bindings (pip package ns3) "
                                                                    "are not installed")
def test_live_ns3_udp_at_10m_agrees_with_model():
    from cmtlab.ns3 import wifi as nw
    r = nw.run_wifi(10.0, protocol="udp", duration_s=1.0)
    assert r.station_manager == "ns3::IdealWifiManager"
    assert r.error_rate_model == "ns3::TableBasedErrorRateModel"
    assert (r.slot_us, r.sifs_us, r.cw_min, r.cw_max, r.aifsn) == (9.0, 10.0, 15, 1023, 2)
    assert r.duration_1464_54_us == phy.ppdu_duration_us(1464, 54)
    assert r.main_rate_bps == 54e6
    assert (r.beacon_bytes, r.beacon_rate_bps, r.beacon_duration_us) == (70, 1e6, phy.DEFAULT_PARAMS.beacon_us)
    model = wv.model_udp_throughput_bps(10.0, duration_s=1.0)
    assert abs(model - r.throughput_bps) / r.throughput_bps < UDP_TOLERANCE


def test_light_load_contention_collides_about_one_in_sixteen():
    # both stations get a frame at the same instant on an idle medium, many times over: the later
    # one contends with the earlier one's back-off; equal counts (1 in 16 with CW 15) collide
    med = w.WifiMedium(10.0, seed=11, params=NO_PD)
    n = 4000
    for k in range(n):
        t = k * 5_000_000
        med.down.transmit(t, 1454)           # idle medium: on the air at once
        med.up.transmit(t + 1_000, 66)       # waits for the end of that exchange, then backs off
        med.down.transmit(t + 2_000, 1454)   # also ready then: contends with the ACK's back-off
    rate = (med.down.collisions + med.up.collisions) / n
    assert 0.02 < rate < 0.12, rate


def test_backlogged_ap_lets_the_station_in_after_one_exchange_and_airtime_is_kept():
    def run(mode):
        med = w.WifiMedium(10.0, seed=2, params=replace(NO_PD, backlog_service=mode, beacon_interval_us=None))
        for _ in range(50):
            med.down.transmit(0, 1454)                 # 50 data frames queued at the AP
        busy_before = med.busy_until_ns
        arr = med.up.transmit(1_000, 66)                # one TCP ACK from the station
        return med, arr, busy_before
    med, arr, busy_before = run("alternate")
    exchange_max = (28 + 15 * 9 + 250 + 10 + 34) * 1000
    assert arr < 3 * exchange_max                       # after one or two data exchanges, not fifty
    ack_airtime = med.busy_until_ns - busy_before       # its airtime is charged to the medium
    assert 28_000 + 42_000 + 10_000 + 34_000 <= ack_airtime <= 28_000 + 31 * 9_000 + 2 * (250_000 + 39_000) + 86_000
    med_f, arr_f, busy_f = run("fifo")
    assert arr_f > busy_f                               # FIFO: behind the whole queue


def test_the_medium_takes_its_error_model():
    # NIST needs ~4 dB more than the table model for each rate (test_wifi_phy.py): the medium's rate follows its model
    assert w.WifiMedium(40.0, params=NO_PD, error_model=phy.NistErrorModel()).rate_mbps == 24
    assert w.WifiMedium(40.0, params=NO_PD).rate_mbps == 36


# ------------------------------------------------------------------ a Wi-Fi path in a multipath scenario (Alheid Fig. 3)
def _alheid_like(**kw):
    from cmtlab.sim import simulate_mptcp
    args = dict(duration_s=2.0, links=[("wifi80211g", {"distance_m": 10, "preamble_min_rssi_dbm": None})] * 2,
                backbone_bps=100e6, backbone_delay_s=0.010, segment_bytes=1400, initial_window_bytes=1400,
                queue_packets=500, receive_buffer_bytes=10_000_000, seed=3)
    args.update(kw)
    return simulate_mptcp([54e6, 54e6], [0.0, 0.0], **args)


def test_for_path_builds_both_directions_on_one_medium():
    fw, rv = w.WifiLink.for_path(rate_bps=54e6, delay_s=0.0, queue_packets=500, loss=None, rng=None, seed=1,
                                 stream=0, distance_m=30, pdr=0.01, preamble_min_rssi_dbm=None)
    assert fw.medium is rv.medium and fw is fw.medium.down and rv is fw.medium.up
    assert fw.pdr == 0.01 and rv.pdr == 0.0
    assert fw.medium.params.queue_packets == 500 and fw.medium.params.preamble_min_rssi_dbm is None
    assert fw.rate_bps == 54e6          # the PHY rate at 30 m
    # paths (streams) and seeds get their own draws; the same (seed, stream) the same ones
    draws = [w.WifiLink.for_path(rate_bps=54e6, delay_s=0.0, queue_packets=500, loss=None, rng=None, seed=s,
                                 stream=k, distance_m=30)[0].medium.rng.random() for s, k in ((1, 0), (1, 1), (2, 0), (1, 0))]
    assert len(set(draws[:3])) == 3 and draws[0] == draws[3]


def test_for_path_guards():
    kw = dict(rate_bps=54e6, queue_packets=500, loss=None, rng=None, seed=0, stream=0)
    with pytest.raises(ValueError, match="distance_m"):
        w.WifiLink.for_path(delay_s=0.0, **kw)
    with pytest.raises(ValueError, match="rtts_s of a 'wifi80211g' path must be 0"):
        w.WifiLink.for_path(delay_s=0.01, distance_m=10, **kw)
    with pytest.raises(ValueError, match="unknown 'wifi80211g' parameter"):
        w.WifiLink.for_path(delay_s=0.0, distance_m=10, slot_time=9, **kw)
    with pytest.raises(ValueError, match="error_model"):
        w.WifiLink.for_path(delay_s=0.0, distance_m=10, error_model="yans", **kw)
    from cmtlab.scenario import LossModel
    kw.pop("loss")
    with pytest.raises(ValueError, match="per packet"):
        w.WifiLink.for_path(delay_s=0.0, distance_m=10, loss=LossModel("bit", 1e-6), **kw)
    with pytest.raises(ValueError, match="not both"):
        w.WifiLink.for_path(delay_s=0.0, distance_m=10, loss=LossModel("packet", 0.01), pdr=0.01, **kw)
    fw, _ = w.WifiLink.for_path(delay_s=0.0, distance_m=10, loss=LossModel("packet", 0.02), **kw)
    assert fw.pdr == 0.02                 # a per-packet loss of the path is its PDR


def test_wifi_paths_in_an_mptcp_scenario_share_each_medium_and_see_the_backbone_delay():
    from cmtlab.sim.multipath import MptcpSimulation
    from cmtlab.sim.mptcp.scenario import mptcp_scenario
    sc = mptcp_scenario([54e6, 54e6], [0.0, 0.0], duration_s=1.0,
                        links=[("wifi80211g", {"distance_m": 10}), ("wifi80211g", {"distance_m": 70})],
                        backbone_bps=100e6, backbone_delay_s=0.010, segment_bytes=1400, initial_window_bytes=1400)
    sim = MptcpSimulation(sc)
    for i in range(2):
        fwd, rev = sim.fwd[i], sim.rev[i]
        assert fwd[0] is sim.backbone and rev[-1] is sim.backbone_rev      # data: backbone first; ACKs: last
        assert fwd[1].medium is rev[0].medium                               # data and ACKs on one medium
    assert sim.fwd[0][1].medium is not sim.fwd[1][1].medium
    p0, p1 = (s.path for s in sim.senders)
    assert p0.delay_s == pytest.approx(0.020, abs=1e-6)                     # 2 x 10 ms + 2 x 33 ns
    assert (p0.rate_bps, p1.rate_bps) == (54e6, phy.ideal_rate_mbps(phy.snr_db(70)) * 1e6)   # PHY rates at 10, 70 m
    # without backbone_delay_s the backbone is forward-only and has no delay (the engine as before)
    old = MptcpSimulation(sc.replace(backbone_delay_s=None))
    assert old.rev[0] == (old.fwd[0][1].medium.up,) and old.senders[0].path.delay_s < 1e-6
    with pytest.raises(ValueError, match="backbone_delay_s needs backbone_bps"):
        mptcp_scenario([54e6], [0.0], duration_s=1.0, backbone_delay_s=0.01)
    with pytest.raises(ValueError, match="backbone_delay_s must be >= 0"):
        mptcp_scenario([54e6], [0.0], duration_s=1.0, backbone_bps=1e8, backbone_delay_s=-0.01)


def test_alheid_topology_runs_repeatably_and_the_rtt_includes_the_backbone():
    a, b = _alheid_like(), _alheid_like()
    assert a.row()["gthroughput_bps"] == b.row()["gthroughput_bps"] > 20e6   # two 54 Mbit/s links at 10 m
    assert a.subflows.srtt_s.min() > 0.020                                   # 2 x 10 ms backbone + the medium
    c = _alheid_like(seed=4)
    assert c.row()["gthroughput_bps"] != a.row()["gthroughput_bps"]


def test_pdr_on_a_wifi_path_drops_its_data_only():
    r = _alheid_like(links=[("wifi80211g", {"distance_m": 10, "preamble_min_rssi_dbm": None}),
                            ("wifi80211g", {"distance_m": 10, "preamble_min_rssi_dbm": None, "pdr": 0.02})])
    sf = r.subflows.set_index("subflow")
    assert sf.loc[0, "loss_drops"] == 0 < sf.loc[1, "loss_drops"]
    sent = sf.loc[1, "segments_sent"]
    assert 0.01 * sent < sf.loc[1, "loss_drops"] < 0.04 * sent


def test_draw_backoff_slots_is_randint():
    """``draw_backoff_slots(draws, cw)`` (the medium's back-off draw, compiled with it) gives the numbers
    ``randint(0, cw)`` gives from the same generator, and the draws go on as the generator's own
    ``random()``/``randrange`` (:class:`RandomDraws`, across its blocks of fetched outputs)."""
    import random

    from cmtlab.sim.net.wifi import RandomDraws, draw_backoff_slots

    a, b = random.Random("wifi80211g/7/2"), random.Random("wifi80211g/7/2")
    d = RandomDraws(a)
    draws = [draw_backoff_slots(d, cw) for cw in [0, 1, 15, 31, 63, 127, 255, 511, 1023] * 300]
    assert draws == [b.randint(0, cw) for cw in [0, 1, 15, 31, 63, 127, 255, 511, 1023] * 300]
    assert d.random() == b.random()
    ns = [1, 2, 3, 16, 1000, 2**20 + 1, 2**31 - 1, 2**31] * 40
    assert [d.random() if i % 3 == 0 else d.below(n) for i, n in enumerate(ns)] \
        == [b.random() if i % 3 == 0 else b.randrange(n) for i, n in enumerate(ns)]
    # the generator itself is where the draws left it, and draws from it interleave with these
    assert d.rng.getstate() == b.getstate()
    assert [d.rng.random(), d.below(1000), d.rng.getrandbits(7), d.random()] \
        == [b.random(), b.randrange(1000), b.getrandbits(7), b.random()]
    assert d.rng.getstate() == b.getstate()
    for n in (0, 2**31 + 1):
        with pytest.raises(ValueError, match="n must be"):
            d.below(n)
    # the Mersenne Twister the compiled draws run, read as Python (compiled it is a C function,
    # checked above through random() and below()): getrandbits(32), across two of its twists
    word = getattr(RandomDraws(random.Random(11)), "_word", None)
    if word is not None:
        c = random.Random(11)
        assert [word() for _ in range(1500)] == [c.getrandbits(32) for _ in range(1500)]




def test_time_fifo_keeps_order_and_grows():
    """The links' queue of times (:class:`cmtlab.sim.net.link.TimeFifo`): first in, first out, across
    its ring's wrap-around and growth, against a deque."""
    from collections import deque

    from cmtlab.sim.net.link import TimeFifo

    q, ref = TimeFifo(), deque()
    t = 0
    for step in range(2000):
        t += step % 7
        for _ in range(step % 5):
            q.push(t)
            ref.append(t)
        if step % 3 == 0 and ref:
            assert q.pop() == ref.popleft()
        if step % 11 == 0:
            q.drop_through(t - 40)
            while ref and ref[0] <= t - 40:
                ref.popleft()
        assert len(q) == q.size == len(ref)
        assert [q.at(i) for i in range(q.size)] == list(ref)
        if ref:
            assert q.first() == ref[0]

