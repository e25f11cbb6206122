"""cmtlab.validation.papers_sim_wifi: the Alheid presets against the papers' simulator over Wi-Fi (no run here:
the preset's runs are faked from the model's recorded rows, so the rule, the reasons and the facts are tested)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from cmtlab.papers_sim import wifi_record
from cmtlab.validation import papers_sim_wifi as w


def _fake_runs(scale: dict) -> pd.DataFrame:
    """One preset 'run' per recorded point: the model's seed-0 row with gThroughput × scale[solution]."""
    rec = wifi_record.load(w.WIFI_PLAN)
    rows = []
    for (d, sol), g in rec.groupby(["distance_m", "solution"], sort=False):
        r = g.iloc[0]
        rows.append({"distance_m": d, "solution": sol, "seed": 0,
                     "gthroughput_mbps": r.throughput_bps / 1e6 * scale.get(sol, 1.0),
                     "retransmissions": r.retransmissions, "timeouts": r.timeouts, "ooo_r": r.ooo_ratio,
                     "sf0_three_dupack_events": r.sf0_three_dupack_events,
                     "sf1_three_dupack_events": r.sf1_three_dupack_events * 0.5,
                     "sf0_segments_sent": r.sf0_segments_sent, "sf1_segments_sent": r.sf1_segments_sent})
    return pd.DataFrame(rows)


def test_model_summary_is_the_recorded_runs_per_point():
    m = w.model_summary()
    rec = wifi_record.load(w.WIFI_PLAN)
    assert len(m) == rec.groupby(["distance_m", "solution"]).ngroups
    r = m[(m.distance_m == 10.0) & (m.solution == "PR-R")].iloc[0]
    sel = rec[(rec.distance_m == 10.0) & (rec.solution == "PR-R")]
    assert r.model_mbps == pytest.approx(sel.throughput_bps.mean() / 1e6)
    assert r.model_min_mbps <= r.model_mbps <= r.model_max_mbps and r.model_seeds == len(sel)
    assert 0 < r.model_mac_retry_share < 1 and r.model_sf0_phy_rate_mbps == 54.0


def test_the_rule_is_the_tolerance_or_the_models_seed_spread():
    t = w.wifi_agreement_table(presets=("chihani_ns3",), runs={"chihani_ns3": _fake_runs({"D-SACK": 1.10, "PR-R": 1.04})})
    assert len(t) == 20 and t.chihani_ns3_seeds.eq(1).all()
    dsack = t[t.solution == "D-SACK"]
    assert not dsack.within.any()                                    # 10 % above: a miss at every distance
    assert t[t.solution == "PR-R"].within.all()                      # 4 %: within 5 %
    assert t[~t.solution.isin(["D-SACK", "PR-R"])].within.all()      # the model's own seed-0 row: in its spread
    why = dsack.why.iloc[0]
    assert "above the model" in why and "1/sqrt(halvings)" in why and "MAC" in why
    strict = w.wifi_agreement_table(presets=("chihani_ns3",), tolerance=0.01,
                                    runs={"chihani_ns3": _fake_runs({"PR-R": 1.04})})
    assert not strict[strict.solution == "PR-R"].within.any()       # outside 1 % and outside the spread
    with pytest.raises(ValueError, match="tolerance"):
        w.wifi_agreement_table(tolerance=0.0, runs={"chihani_ns3": _fake_runs({})}, presets=("chihani_ns3",))
    with pytest.raises(ValueError, match="presets"):
        w.wifi_agreement_table(presets=("rfc",), runs={})


def test_a_rate_difference_is_named_and_computed():
    t = w.wifi_agreement_table(presets=("paper",), runs={"paper": _fake_runs({"single TCP": 0.76})})
    far = t[(t.solution == "single TCP") & (t.distance_m == 100.0)].iloc[0]
    assert not far.within and "sends at 9 Mbit/s" in far.why and "at 6 Mbit/s" in far.why


def test_comparison_counts_and_facts():
    t = w.wifi_agreement_table(presets=("chihani_ns3",), runs={"chihani_ns3": _fake_runs({"D-SACK": 1.10})})
    comp = w.wifi_agreement_comparison(t)
    assert len(comp.checks) == len(t)
    assert sum(c["verdict"] == "met" for c in comp.checks) == int(t.within.sum()) == 16
    mac = pd.DataFrame([{"solution": "D-SACK", "distance_m": 10.0, "duration_s": 10.0, "preset_mac_retry_share": 0.015,
                         "model_mac_retry_share": 0.064, "preset_fast_retransmits_per_s": 1.7,
                         "model_fast_retransmits_per_s": 1.9}])
    f = w.wifi_agreement_facts(t, comp, mac=mac)
    assert (f["wifi_within"], f["wifi_points"], f["wifi_d_sack"]) == (16, 20, "0/4")
    assert f["wifi_rate_distance_m"] == 100.0 and (f["wifi_rate_book_mbps"], f["wifi_rate_model_mbps"]) == (6.0, 9.0)
    assert f["wifi_rate_calibrated_points"] == 0 and f["wifi_mac_model_pct"] == pytest.approx(6.4)
    assert f["wifi_worst"].startswith("D-SACK") and np.isfinite(f["wifi_rate_saturation_pct"])
