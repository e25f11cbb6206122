"""cmtlab.sim.net.wifi_phy: 802.11g physics against hand-computed values and ns-3.44's own — path loss, noise,
SNR, the rate manager's thresholds, PPDU durations, DCF timing, frame errors, preamble detection, the NIST model.
"""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from cmtlab.sim.net import wifi_phy as phy

NO_PD = replace(phy.DEFAULT_PARAMS, preamble_min_rssi_dbm=None)


def test_path_loss_and_received_power_by_hand():
    assert phy.path_loss_db(1.0) == pytest.approx(46.6777)
    assert phy.path_loss_db(0.5) == pytest.approx(46.6777)          # inside the reference distance
    assert phy.path_loss_db(10.0) == pytest.approx(46.6777 + 30.0)   # exponent 3: 30 dB per decade
    assert phy.path_loss_db(100.0) == pytest.approx(46.6777 + 60.0)
    assert phy.rx_power_dbm(10.0) == pytest.approx(16.0206 - 76.6777)
    # ns-3.44 LogDistancePropagationLossModel::CalcRxPower at 60 m (cmtlab.ns3.wifi run)
    assert phy.rx_power_dbm(60.0) == pytest.approx(-84.0016375115093, abs=1e-9)


def test_noise_floor_and_snr_by_hand():
    # k T B with ns-3's k, 290 K, 20 MHz, plus 7 dB noise figure
    by_hand = 10 * math.log10(1.3803e-23 * 290 * 20e6) + 30 + 7
    assert phy.noise_power_dbm() == pytest.approx(by_hand)
    assert phy.noise_power_dbm() == pytest.approx(-93.96598518452605, abs=1e-9)   # ns-3 MonitorSnifferRx noise
    assert phy.snr_db(10.0) == pytest.approx(16.0206 - 76.6777 - by_hand)
    assert phy.snr_db(60.0) == pytest.approx(9.964347673016746, abs=1e-9)          # ns-3 MonitorSnifferRx


def test_rate_thresholds_match_ns3_ideal_manager():
    # IdealWifiManager thresholds (BerThreshold 1e-6) computed by the installed ns-3.44 with its
    # TableBasedErrorRateModel (ErrorRateModel::CalculateSnr), in dB
    ns3 = {6: 1.465, 9: 3.809, 12: 4.475, 18: 6.985, 24: 10.375, 36: 13.465, 48: 17.865, 54: 19.125}
    em = phy.default_error_model()
    for rate, thr in ns3.items():
        assert em.snr_threshold_db(rate) == pytest.approx(thr, abs=0.01), rate


@pytest.mark.parametrize("distance_m, rate", [(10, 54), (30, 54), (40, 36), (50, 24), (59.9, 24), (60.1, 18),
                                              (80, 12), (100, 6)])
def test_rate_selection_as_ns3(distance_m, rate):
    # rates ns-3.44 used (MonitorSnifferTx) at these distances, incl. the 22/20 width rescaling at 60 m
    assert phy.ideal_rate_mbps(phy.snr_db(distance_m)) == rate


def test_rate_selection_thresholds_are_strict():
    em = phy.default_error_model()
    thr54 = em.snr_threshold_db(54) - 10 * math.log10(22 / 20)
    assert phy.ideal_rate_mbps(thr54 + 0.01) == 54
    assert phy.ideal_rate_mbps(thr54 - 0.01) == 48
    assert phy.ideal_rate_mbps(-5.0) is None


def test_ppdu_durations_match_80211_formula_and_ns3():
    # 16 preamble + 4 SIGNAL + 4 * ceil((16 + 8L + 6) / N_DBPS) + 6 signal extension
    assert phy.ppdu_duration_us(1464, 54) == 16 + 4 + 4 * math.ceil((16 + 8 * 1464 + 6) / 216) + 6 == 246.0
    assert phy.ppdu_duration_us(14, 24) == 34.0                     # ns-3 CalculateTxDuration
    assert phy.ppdu_duration_us(1464, 6) == 16 + 4 + 4 * math.ceil((16 + 8 * 1464 + 6) / 24) + 6
    assert phy.ack_rate_mbps(54) == 24 and phy.ack_rate_mbps(18) == 12 and phy.ack_rate_mbps(9) == 6


def test_dcf_exchange_time_formula():
    p = phy.DEFAULT_PARAMS
    assert p.difs_us == 28.0
    assert phy.dcf_exchange_us(1464, 54, 0) == 28 + 246 + 10 + 34
    assert phy.dcf_exchange_us(1464, 54, 7) == 28 + 7 * 9 + 246 + 10 + 34


def test_frame_error_rate_monotone_in_distance_and_size():
    for rate in (6, 24, 54):
        prev = 1.0
        for d in range(5, 140, 1):
            s = phy.frame_success_probability(1464, rate, phy.snr_db(d), NO_PD)
            assert s <= prev + 1e-12, (rate, d)
            prev = s
    for d in (30, 60, 95):
        snr = phy.snr_db(d)
        rate = phy.ideal_rate_mbps(snr)
        fer = [1 - phy.frame_success_probability(n, rate, snr, NO_PD) for n in (100, 500, 1000, 1464, 2000)]
        assert fer == sorted(fer), (d, fer)
    assert 1 - phy.frame_success_probability(1464, 54, phy.snr_db(40), NO_PD) > 0.5   # 54 Mbit/s fails at 40 m


def test_preamble_detection_cut_off():
    # ThresholdPreambleDetectionModel: RSSI >= -82 dBm -> up to ~51.4 m
    d_max = 10 ** ((16.0206 - 46.6777 + 82) / 30)
    assert phy.frame_success_probability(1464, 24, phy.snr_db(d_max * 0.99), rx_power=phy.rx_power_dbm(d_max * 0.99)) > 0
    assert phy.frame_success_probability(1464, 24, phy.snr_db(d_max * 1.01), rx_power=phy.rx_power_dbm(d_max * 1.01)) == 0
    assert phy.saturation_throughput_bps(60.0) == 0.0
    assert phy.saturation_throughput_bps(60.0, params=NO_PD) > 10e6


def test_nist_error_model_matches_ns3():
    em = phy.NistErrorModel()
    # ns-3.44 NistErrorRateModel: CalculateSnr(BER 1e-6) in dB and GetChunkSuccessRate (11680 bits)
    ns3_thr = {6: 4.542, 9: 7.472, 12: 7.552, 18: 10.482, 24: 14.141, 36: 17.26, 48: 22.01, 54: 23.299}
    for rate, thr in ns3_thr.items():
        assert em.snr_threshold_db(rate) == pytest.approx(thr, abs=0.002), rate
    assert em.chunk_success_rate(6, 4.0, 11680) == pytest.approx(0.9148411621303145, rel=1e-9)
    assert em.chunk_success_rate(6, 5.0, 11680) == pytest.approx(0.9981793192033224, rel=1e-9)
    assert em.chunk_success_rate(12, 5.0, 11680) == pytest.approx(3.435747322946735e-47, rel=1e-6)
    # NIST needs ~4 dB more than the table model for each rate: 24 Mbit/s at 40 m (the table model: 36)
    snr = phy.snr_db(40.0, NO_PD)
    assert phy.ideal_rate_mbps(snr, NO_PD, em) == 24 and phy.ideal_rate_mbps(snr, NO_PD) == 36


@pytest.mark.parametrize("call, name", [
    (lambda: phy.snr_db(float("nan")), "distance_m"),
    (lambda: phy.path_loss_db(-1.0), "distance_m"),
    (lambda: phy.ppdu_duration_us(0, 54), "mpdu_bytes"),
    (lambda: phy.ppdu_duration_us(100, 11), "rate_mbps"),
    (lambda: phy.frame_success_probability(0, 54, 20.0), "mpdu_bytes"),
    (lambda: phy.saturation_throughput_bps(10.0, 0), "payload_bytes"),
])
def test_bad_input_names_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_the_error_table_reads_the_very_floats_python_parses():
    """The table is read through cmtlab.pinned (pandas): every value equals ``float()`` of its text, as when it
    was read with the csv module (the ns-3 agreement is exact to the bit)."""
    import csv

    from cmtlab.pinned import resolve

    model = phy.TableErrorModel()
    rows = {r: [] for r in phy.ERP_RATES_MBPS}
    with open(resolve(phy.ERROR_TABLE), newline="") as fh:
        for rec in csv.DictReader(fh):
            rows[int(rec["rate_mbps"])].append((float(rec["snr_db"]), float(rec["per_1458"]), float(rec["per_32"])))
    for rate, values in rows.items():
        values.sort()
        assert model._snr[rate] == [v[0] for v in values]
        assert model._large[rate] == [v[1] for v in values] and model._small[rate] == [v[2] for v in values]
