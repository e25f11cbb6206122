"""The agreement table of the calibrated preset against the papers' simulator (issue 18):
seeded and deterministic, recorded here; the count of agreeing cases is the honest state."""

import pytest

from cmtlab.papers_sim import calibration

#: (scenario, congestion, reordering) -> (chihani_ns3 goodput, chihani goodput), bit/s, 10 MB,
#: variateDelay off, no random loss, seed 0.
RECORDED = {
    (1, "uncoupled", "none"): (245118.31795025512, 4924573.75105669),
    (1, "uncoupled", "dsack"): (3700192.6320284237, 4924573.75105669),
    (1, "uncoupled", "eifel"): (599005.8187917246, 4924573.75105669),
    (1, "uncoupled", "tcp_door"): (3700192.6320284237, 4924573.75105669),
    (1, "fully_coupled", "none"): (1124634.2380183549, 4577579.5828232),
    (1, "fully_coupled", "dsack"): (3708149.362773073, 4577579.5828232),
    (1, "fully_coupled", "eifel"): (395372.36800714757, 4577579.5828232),
    (1, "fully_coupled", "tcp_door"): (3708149.362773073, 4577579.5828232),
    (1, "lia", "none"): (1321991.8768887133, 4465153.628522258),
    (1, "lia", "dsack"): (3716495.3300377927, 4465153.628522258),
    (1, "lia", "eifel"): (596303.5334776848, 4465153.628522258),
    (1, "lia", "tcp_door"): (3716495.3300377927, 4465153.628522258),
    (1, "rtt_compensation", "none"): (1321991.8768887133, 4465153.628522258),
    (1, "rtt_compensation", "dsack"): (3716495.3300377927, 4465153.628522258),
    (1, "rtt_compensation", "eifel"): (587543.5977118508, 4465153.628522258),
    (1, "rtt_compensation", "tcp_door"): (3716495.3300377927, 4465153.628522258),
    (2, "uncoupled", "none"): (592621.976203686, 9106420.75484987),
    (2, "uncoupled", "dsack"): (5042692.07849211, 9106420.75484987),
    (2, "uncoupled", "eifel"): (1346809.0541769052, 9106420.75484987),
    (2, "uncoupled", "tcp_door"): (5044129.430126628, 9106420.75484987),
    (2, "fully_coupled", "none"): (814162.0651434419, 8519148.123873064),
    (2, "fully_coupled", "dsack"): (5469427.438689091, 8519148.123873064),
    (2, "fully_coupled", "eifel"): (759345.9782062555, 8519148.123873064),
    (2, "fully_coupled", "tcp_door"): (5102890.677384571, 8519148.123873064),
    (2, "lia", "none"): (573224.9863175312, 8453726.474835498),
    (2, "lia", "dsack"): (5092984.508950407, 8453726.474835498),
    (2, "lia", "eifel"): (1346388.4362143967, 8453726.474835498),
    (2, "lia", "tcp_door"): (4779309.445664788, 8453726.474835498),
    (2, "rtt_compensation", "none"): (573224.9863175312, 8453726.474835498),
    (2, "rtt_compensation", "dsack"): (5092984.508950407, 8453726.474835498),
    (2, "rtt_compensation", "eifel"): (1263790.3331603257, 8453726.474835498),
    (2, "rtt_compensation", "tcp_door"): (4779309.445664788, 8453726.474835498),
    (1, "uncoupled", "frto"): (3700192.6320284237, 4924573.75105669),
    (1, "fully_coupled", "frto"): (3708149.362773073, 4577579.5828232),
    (1, "lia", "frto"): (3716495.3300377927, 4465153.628522258),
    (1, "rtt_compensation", "frto"): (3716495.3300377927, 4465153.628522258),
    (2, "uncoupled", "frto"): (5131766.912612762, 9106420.75484987),
    (2, "fully_coupled", "frto"): (5217825.271556248, 8519148.123873064),
    (2, "lia", "frto"): (4810771.06876447, 8453726.474835498),
    (2, "rtt_compensation", "frto"): (4810771.06876447, 8453726.474835498),
}


@pytest.fixture(scope="module")
def table():
    return calibration.agreement_table()


def test_calibrated_and_old_preset_reproduce_recorded_goodput(table):
    assert len(table) == 40
    for _, r in table.iterrows():
        ns3, old = RECORDED[(r.scenario, r.congestion, r.reordering)]
        assert r.chihani_ns3_goodput_bps == pytest.approx(ns3, rel=1e-12)
        assert r.chihani_goodput_bps == pytest.approx(old, rel=1e-12)


def test_agreement_count_and_every_miss_has_a_reason(table):
    counts = calibration.agreement_counts(table)
    assert counts["within"] == 6 and counts["cases"] == 40
    assert counts["by_reordering"]["tcp_door"] == "6/8"
    assert (table.reason[~table.within] != "").all() and (table.reason[table.within] == "").all()
    # the old preset gives every algorithm without fast retransmits the same run (the premise of issue 18)
    assert (table.chihani_fast_retransmits == 0).all()


def test_agreement_table_rejects_bad_tolerance():
    with pytest.raises(ValueError, match="tolerance"):
        calibration.agreement_table(tolerance=1.5)
