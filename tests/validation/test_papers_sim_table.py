"""The agreement table of the calibrated preset against the papers' simulator (issue 18):
seeded and deterministic, recorded here; the count of agreeing cases is the honest state."""

import pytest

from cmtlab.validation import papers_sim as calibration

#: (scenario, congestion, reordering) -> (chihani_ns3 goodput, chihani goodput), bit/s, 10 MB,
#: variateDelay off, no random loss, seed 0.
RECORDED = {
    (1, "uncoupled", "none"): (2075035.5256457166, 4924573.75105669),
    (1, "uncoupled", "dsack"): (4265908.404291743, 4924573.75105669),
    (1, "uncoupled", "eifel"): (2651935.6239444963, 4924573.75105669),
    (1, "uncoupled", "tcp_door"): (3700220.28891468, 4924573.75105669),
    (1, "fully_coupled", "none"): (2304510.8772452506, 4577579.5828232),
    (1, "fully_coupled", "dsack"): (4122990.7944335337, 4577579.5828232),
    (1, "fully_coupled", "eifel"): (2369500.0231737103, 4577579.5828232),
    (1, "fully_coupled", "tcp_door"): (3699082.864190984, 4577579.5828232),
    (1, "lia", "none"): (1967237.0053962886, 4465153.628522258),
    (1, "lia", "dsack"): (4113823.2359267753, 4465153.628522258),
    (1, "lia", "eifel"): (2022407.6293628993, 4465153.628522258),
    (1, "lia", "tcp_door"): (3708244.517786929, 4465153.628522258),
    (1, "rtt_compensation", "none"): (1967237.0053962886, 4465153.628522258),
    (1, "rtt_compensation", "dsack"): (4113823.2359267753, 4465153.628522258),
    (1, "rtt_compensation", "eifel"): (2022407.6293628993, 4465153.628522258),
    (1, "rtt_compensation", "tcp_door"): (3708244.517786929, 4465153.628522258),
    (2, "uncoupled", "none"): (4642640.198912991, 9106420.75484987),
    (2, "uncoupled", "dsack"): (7239653.111641074, 9106420.75484987),
    (2, "uncoupled", "eifel"): (3866402.301145122, 9106420.75484987),
    (2, "uncoupled", "tcp_door"): (4741790.538041489, 9106420.75484987),
    (2, "fully_coupled", "none"): (4440932.752198795, 8519148.123873064),
    (2, "fully_coupled", "dsack"): (6921723.39291256, 8519148.123873064),
    (2, "fully_coupled", "eifel"): (3210564.835029003, 8519148.123873064),
    (2, "fully_coupled", "tcp_door"): (4725411.087137526, 8519148.123873064),
    (2, "lia", "none"): (4337697.751302784, 8453726.474835498),
    (2, "lia", "dsack"): (6924509.990168738, 8453726.474835498),
    (2, "lia", "eifel"): (3418662.3143929723, 8453726.474835498),
    (2, "lia", "tcp_door"): (4735225.150485455, 8453726.474835498),
    (2, "rtt_compensation", "none"): (4337697.751302784, 8453726.474835498),
    (2, "rtt_compensation", "dsack"): (6924509.990168738, 8453726.474835498),
    (2, "rtt_compensation", "eifel"): (3418662.3143929723, 8453726.474835498),
    (2, "rtt_compensation", "tcp_door"): (4735225.150485455, 8453726.474835498),
    (1, "uncoupled", "frto"): (877827.7460842453, 4924573.75105669),
    (1, "fully_coupled", "frto"): (578178.0080056149, 4577579.5828232),
    (1, "lia", "frto"): (570395.95144161, 4465153.628522258),
    (1, "rtt_compensation", "frto"): (570395.95144161, 4465153.628522258),
    (2, "uncoupled", "frto"): (2121757.090827756, 9106420.75484987),
    (2, "fully_coupled", "frto"): (1145043.00329917, 8519148.123873064),
    (2, "lia", "frto"): (1377366.6645383246, 8453726.474835498),
    (2, "rtt_compensation", "frto"): (1373372.1100219965, 8453726.474835498),
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
    # the floor reached (27/40 before this calibration round): it may rise, never fall.  F_RTO is decided
    # by the same ±5 % rule as every other case (audit item 32), on the ratios paired per clock value:
    # with the 3 recorded clock values every F_RTO case is undecided (more clock values can decide)
    assert counts["within"] >= 28 and counts["cases"] == 40
    floor = {"none": 8, "dsack": 7, "eifel": 5, "tcp_door": 8}
    for algo, n in floor.items():
        assert int(counts["by_reordering"][algo].split("/")[0]) >= n, (algo, counts)
    frto = table[table.reordering == "frto"]
    assert (frto.n_pairs >= 3).all() and (frto.frto_ratio_ci_lo < frto.chihani_ns3_over_model).all()
    assert frto.verdict.str.match(r"^(met|not met|undecided at \d+ clock values)$").all()
    assert (table.within == (table.verdict == "met")).all()
    # TCP_DOOR (no fast retransmit on either side) is the plainest comparison: with the model's
    # packet sizes on the wire the preset is within 0.1 %
    door = table[table.reordering == "tcp_door"]
    assert (abs(door.chihani_ns3_over_model - 1) < 1e-3).all()
    # every remaining miss of Eifel or D_SACK is a case where the model split segments (1399 + 1 B)
    miss = table[~table.within & table.reordering.isin(["eifel", "dsack"])]
    assert (miss.model_extra_segments > 50).all()
    assert (table[table.scenario == 1].model_extra_segments == 0).all()
    missed = table.verdict == "not met"
    undecided = table.verdict.str.startswith("undecided")
    assert (table.reason[missed] != "").all() and (table.reason[~missed] == "").all()
    assert (table.why_it_differs[missed].str.contains("fast retransmits")).all()
    assert (table.why_it_differs[undecided].str.contains("more clock values can decide")).all()
    assert (table.why_it_differs[table.within] == "").all()
    # the old preset gives every algorithm without fast retransmits the same run (the premise of issue 18)
    assert (table.chihani_fast_retransmits == 0).all()


def test_model_dsack_is_the_fastest_algorithm_in_scenario_2_as_on_the_model(table):
    # the model's D_SACK moves the transfer onto the fast path: above NoPR and TCP_DOOR for every
    # congestion control, on the model and on the calibrated preset alike (not on the old preset)
    t = table[table.scenario == 2].set_index(["congestion", "reordering"])
    for cc in ("uncoupled", "fully_coupled", "lia", "rtt_compensation"):
        for col in ("model_goodput_bps", "chihani_ns3_goodput_bps"):
            assert t.loc[(cc, "dsack"), col] > 1.3 * t.loc[(cc, "tcp_door"), col], (cc, col)
        assert t.loc[(cc, "dsack"), "chihani_ns3_fast_retransmits"] > 0


def test_agreement_comparison_is_checks_only(table):
    comp = calibration.agreement_comparison(table)
    assert not comp.rows and len(comp.checks) == len(table)
    assert sum(c["verdict"] == "met" for c in comp.checks) == int(table.within.sum())
    assert "checks of this book kept apart: True" in comp.consistency()


def test_agreement_table_rejects_bad_tolerance():
    with pytest.raises(ValueError, match="tolerance"):
        calibration.agreement_table(tolerance=1.5)
    with pytest.raises(ValueError, match="variateDelay"):
        calibration.agreement_table(variate_delay=True)


@pytest.mark.parametrize("ratio, paired, verdict", [
    (1.049, None, "met"), (0.951, None, "met"), (1.051, None, "not met"), (0.949, None, "not met"),
    (None, [0.99, 1.0, 1.01], "met"),                       # CI inside ±5 %
    (None, [0.80, 0.81, 0.82], "not met"),                  # CI below 0.95
    (None, [0.85, 1.0, 1.15], "undecided at 3 clock values"),  # CI across 0.95 and 1.05
])
def test_one_agreement_rule_at_and_around_the_tolerance(ratio, paired, verdict):
    import numpy as np

    got = calibration._agreement_verdict(ratio if ratio is not None else float(np.mean(paired)), paired, 0.05)
    assert got[0] == verdict


def test_agreement_facts_and_glued_checks(table):
    comp = calibration.agreement_comparison(table)
    facts = calibration.agreement_facts(table, comp)
    assert facts["agree_within"] == facts["agree_checks_met"] == int(table.within.sum())
    assert facts["agree_cases"] == facts["agree_checks"] == 40
    assert facts["agree_undecided"] == sum(c["verdict"].startswith("undecided") for c in comp.checks)
    assert facts["agree_model_data_bytes"] > facts["agree_rfc_data_bytes"]
