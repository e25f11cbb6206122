"""cmtlab.papers.alheid.table1's chapter helpers (tables shown and numbers glued by notebooks/alheid-table1-mptcp-gain.ipynb)
on small synthetic gains, model and run tables: no simulation."""

import math

import pandas as pd
import pytest

from cmtlab.papers.alheid import table1 as t1


def _g(values, *, variant=t1.PAPER_VARIANT, setup_name="base", **extra):
    """A gains frame as t1.gains gives it: ``values`` maps (meaning, Δ ms) -> gain (%)."""
    cols = dict(rtt2_ms=20.0, tcp_mbps=9.6, mptcp_mbps=18.0, sf2_mbps=8.0, gain_ci95_pct=2.0, fast_retransmits=3.0,
                timeouts=1.0, n=4, paper_linux_pct=94.0, paper_ns3_pct=90.0)
    cols.update(extra)
    return pd.DataFrame([dict(setup=setup_name, variant=variant, meaning=m, delta_ms=float(d), gain_pct=v, **cols)
                         for (m, d), v in values.items()])


BASE = {("rtt", 0): 95.0, ("rtt", 500): 40.0, ("one_way", 0): 95.0, ("one_way", 500): 10.0}


def test_table1_glue_every_variant_and_the_phrases():
    g = pd.concat([_g(BASE), _g(BASE, variant="lowest-RTT + LIA")], ignore_index=True)
    v = t1.table1_glue(g, [0, 500], ["rtt", "one_way"], n_seeds=4, duration_s=50.0)
    assert v["a1_rr_lia_rtt_500"] == 40.0 and v["a1_lrtt_lia_one_way_500"] == 10.0
    assert math.isnan(v["a1_rr_olia_rtt_0"])                             # OLIA not run
    assert v["a1_ci_rtt_500"] == 2.0 and v["a1_sf2_one_way_0"] == 8.0 and v["a1_rtt2_rtt_0"] == 20.0
    assert (v["a1_tcp_mbps"], v["a1_n_seeds"], v["a1_duration_s"]) == (9.6, 4, 50.0)
    assert v["a1_closer_reading"] == "the one-way reading"                # 10 % is nearer 23 / 20 % than 40 %
    shown = t1.base_table(g)
    assert list(shown.columns[:3]) == ["scheduler + CC", "Δ read as", "Δ (ms)"] and "± 95 % CI (pp)" in shown
    assert len(shown) == 8


def _model():
    mg = pd.DataFrame([dict(reordering=ro, meaning=m, delta_ms=d, goodput_bps=18e6 - 1e6 * i, single_path_goodput_bps=9.5e6,
                            gain_pct=g, global_throughput_gain_pct=g + 1, fast_retransmits=2, timeouts=0)
                       for i, (ro, m, d, g) in enumerate([("dsack", "rtt", 0, 90.0), ("dsack", "rtt", 500, -60.0),
                                                          ("none", "rtt", 500, -62.0), ("pr_r", "one_way", 500, 30.0),
                                                          ("dsack", "rtt", 200, 5.0)])])
    story = pd.DataFrame([dict(meaning="both", delta_ms=0, path2_share_pct=50.0, sf2_third_dupacks=1, sf1_timeouts=0,
                               sf2_final_cwnd_segments=60.0, completion_time_s=4.4),
                          dict(meaning="rtt", delta_ms=500, path2_share_pct=12.0, sf2_third_dupacks=7, sf1_timeouts=2,
                               sf2_final_cwnd_segments=9.0, completion_time_s=20.0)])
    runs = pd.DataFrame({"paths": [1, 2, 2, 2], "reordering": ["dsack", "dsack", "dsack", "none"],
                         "completion_time_s": [8.6, 4.4, 20.0, 21.0], "max_ooo_segments": [0, 100, 300, 900]})
    return mg, story, runs


def test_model_table_and_glue():
    mg, story, runs = _model()
    tab = t1.model_table(mg, [0, 500])
    assert len(tab) == 4                                                  # Δ = 200 ms is not a chapter column
    assert tab.solution.tolist() == ["D_SACK", "D_SACK", "NoPR", "PR-R"]
    assert tab["TCP best path (Mbit/s)"].iloc[0] == 9.5 and tab["MPTCP (Mbit/s)"].iloc[1] == 17.0
    assert tab["Δ read as"].tolist() == ["RTT", "RTT", "RTT", "one-way"]
    v = t1.model_glue(mg, story, runs, [0, 500])
    assert v["a1_model_dsack_rtt_500"] == -60.0 and v["a1_model_pr_r_one_way_500"] == 30.0
    assert math.isnan(v["a1_model_none_one_way_500"])
    # Δ = 0 is the "both" run: the same story under either reading
    assert v["a1_model_path2_share_pct_rtt_0"] == v["a1_model_path2_share_pct_one_way_0"] == 50.0
    assert v["a1_model_sf1_timeouts_rtt_500"] == 2.0 and "a1_model_sf1_timeouts_one_way_500" not in v
    assert v["a1_model_tcp_mbps"] == 9.5 and v["a1_model_single_time_s"] == 8.6
    assert v["a1_model_ooo_kb"] == pytest.approx(300 * 1400 / 1e3)       # D-SACK two-path runs only
    assert t1.model_max_ooo_bytes(runs, reordering="none") == 900 * 1400
    assert "10 MB took (s)" in t1.story_table(story)


def test_sensitivity_glue():
    g = pd.concat([_g({("rtt", 100): 80.0, ("rtt", 500): 40.0, ("one_way", 500): 10.0}),
                   _g({("rtt", 500): 5.0}, setup_name="receive buffer 128 KiB"),
                   _g({("rtt", 500): -30.0}, setup_name=t1.PRESET_SETUP)], ignore_index=True)
    runs = pd.DataFrame({"paths": [2, 2, 2, 2, 1], "setup": [t1.PRESET_SETUP, t1.PRESET_SETUP, "base", "base", "base"],
                         "meaning": ["rtt", "one_way", "rtt", "rtt", "-"], "delta_ms": [500.0, 500.0, 500.0, 100.0, 0.0],
                         "sf0_timeouts": [3, 99, 0, 0, 0], "sf0_spurious_retransmissions": [5, 99, 0, 0, 0],
                         "sf0_retransmissions": [20, 99, 1, 1, 0], "max_ooo_buffer_bytes": [9e9, 9e9, 2e6, 3e6, 9e9]})
    kernel = pd.DataFrame([dict(congestion="reno", meaning="one_way", delta_ms=500.0, gain_pct=-10.0),
                           dict(congestion="reno", meaning="rtt", delta_ms=100.0, gain_pct=97.0)])
    v = t1.sensitivity_glue(g, runs, kernel, [0, 100, 500])
    assert v["a1_buf_rtt_500"] == 5.0 and v["a1_preset_rtt_500"] == -30.0 and math.isnan(v["a1_ss_rtt_500"])
    assert v["a1_preset_sf1_timeouts_500"] == 3.0 and v["a1_preset_sf1_spurious_pct"] == 25.0   # RTT reading only
    assert (v["a1_far_min"], v["a1_far_max"]) == (-30.0, 40.0)
    assert v["a1_kernel_reno_one_way_500"] == -10.0 and math.isnan(v["a1_kernel_reno_rtt_500"])
    assert v["a1_max_occ_base_mb"] == 3.0                                 # base setup, MPTCP runs
    assert math.isnan(t1.max_occ_base_bytes(runs[runs.setup != "base"]))


def test_prose_follows_what_was_run_and_the_numbers():
    """The generated sentences: a variant or setup not run is said plainly (the quick profile by name), never a NaN;
    the qualitative words follow the values (same / changes; falls / does not fall; the policy's verdict)."""
    from cmtlab.report.profile import using

    base = {("rtt", 0): 100.0, ("rtt", 100): 86.0, ("rtt", 500): 29.0, ("one_way", 0): 100.0, ("one_way", 100): 57.0,
            ("one_way", 500): 11.0}
    mg, _, _ = _model()
    runs = pd.DataFrame({"paths": [2], "setup": ["base"], "meaning": ["rtt"], "delta_ms": [500.0],
                         "max_ooo_buffer_bytes": [3e6], "sf0_timeouts": [0], "sf0_spurious_retransmissions": [0],
                         "sf0_retransmissions": [0]})
    g = pd.concat([_g(base), _g(base, variant="lowest-RTT + LIA")], ignore_index=True)
    with using("quick"):
        v = t1.prose_glue(g, runs, mg, [0, 100, 500], ["rtt", "one_way"])
    assert v["a1_lrtt_text"].startswith("The lowest-RTT scheduler gives exactly the same runs as round robin")
    assert v["a1_olia_text"] == "Round robin with OLIA is not run by the quick profile (parameter `variants`)."
    assert "not run by the quick profile" in v["a1_preset_text"]
    assert "not run by the quick profile" in v["a1_sens_ss_md"] and "nan" not in " ".join(map(str, v.values()))
    # 29 % against 20 %: 45 % off, outside the ±30 % band -> not reproduced; the gain falls with Δ
    assert "falls as Δ grows (100 → 86 → 29 %" in v["a1_rfc_shape_text"]
    assert v["a1_rfc_shape_text"].endswith("29 % against the column's 20 %: not reproduced by the policy's band for a "
                                           "measured number")
    g2 = pd.concat([_g({**base, ("rtt", 500): 21.0}), _g(base, variant="lowest-RTT + LIA"),
                    _g({k: x - 10 for k, x in base.items()}, variant="round robin + OLIA"),
                    _g({("rtt", 100): 22.0, ("rtt", 500): -58.0, ("one_way", 100): -26.0, ("one_way", 500): -96.0},
                       setup_name=t1.PRESET_SETUP)], ignore_index=True)
    with using("full"):
        w = t1.prose_glue(g2, runs, mg, [0, 100, 500], ["rtt", "one_way"])
    assert "changes the gain by up to 8.0 points" in w["a1_lrtt_text"]
    assert w["a1_olia_text"].startswith("OLIA gives 76 % and 19 % at 100 and 500 ms (RTT reading; one-way 47 and 1 %): "
                                        "lower than LIA")
    assert w["a1_rfc_shape_text"].endswith("21 % against the column's 20 %: reproduced by the policy's band for a "
                                           "measured number")
    assert "below one TCP at 500 ms, as the model is (-60 %)" in w["a1_preset_text"]
    assert "the largest change among the setups run" not in w["a1_sens_preset_md"]     # the only setup run
    assert "is not run with these parameters (parameter `setups`)" in w["a1_sens_buf_md"]
