"""cmtlab.validation.kernel (the Linux-MPTCP chapter's tables, glued numbers and hypotheses) on small synthetic
run tables: no kernel, no simulator."""

import math

import matplotlib
import numpy as np
import pandas as pd
import pytest

matplotlib.use("Agg")  # tests only; notebooks keep their inline backend

from cmtlab.testbed import tcp_goodput_bps
from cmtlab.validation import kernel as chapter, kernel_figures as figures, kernel_sim as ks

TCP_BPS = 10e6


def _runs(mptcp_bps: dict, *, reps=1, tcp_bps=TCP_BPS, congestions=("reno",)):
    """Kernel rows as cmtlab.testbed.experiments.run_jobs returns them for table1_jobs: per congestion control and repetition one TCP run and one
    MPTCP run per (meaning, Δ in ms) key of ``mptcp_bps`` (value: goodput, or a list per repetition)."""
    rows = []
    for cc in congestions:
        for rep in range(reps):
            rows.append(dict(congestion=cc, rep=rep, kind="tcp", meaning="-", delta_s=0.0, throughput_bps=tcp_bps,
                             path1_rtt_s=np.nan, sub0_bytes=1e6, sub1_bytes=np.nan, duration_s=12.0))
            for (meaning, d), bps in mptcp_bps.items():
                bps = bps[rep] if isinstance(bps, (list, tuple)) else bps
                rows.append(dict(congestion=cc, rep=rep, kind="mptcp", meaning=meaning, delta_s=d / 1e3,
                                 throughput_bps=bps, path1_rtt_s=0.02 + (d if meaning != "one_way" else 2 * d) / 1e3,
                                 sub0_bytes=3e6, sub1_bytes=1e6, duration_s=12.0))
    return pd.DataFrame(rows)


FULL = {("both", 0): 19.4e6, ("rtt", 100): 18.9e6, ("one_way", 100): 18.0e6, ("rtt", 500): 12.3e6,
        ("one_way", 500): 9.0e6}


def test_calibration_summary_and_tables():
    pings = pd.DataFrame({"rate_bps": [2e6] * 4 + [20e6] * 4,
                          "error_s": np.array([0.1, 0.2, 0.3, 0.4, 0.2, 0.2, 0.2, 3.0]) / 1e3})
    rates = pd.DataFrame({"path0_rate_bps": [2e6, 20e6], "ideal_goodput_bps": [1.93e6, 19.3e6],
                          "throughput_bps": [1.9e6, 19.4e6], "rate_error": [-0.015, 0.004], "sub0_queue_drops": [0, 3]})
    cal = chapter.calibration_summary(pings, rates)
    assert cal["ping_median_ms"] == pytest.approx(0.2) and cal["ping_max_ms"] == pytest.approx(3.0)
    assert cal["ping_p99_ms"] == pytest.approx(np.percentile([0.1, 0.2, 0.3, 0.4, 0.2, 0.2, 0.2, 3.0], 99))
    assert cal["rate_error_max_pct"] == pytest.approx(1.5)            # the largest |error|, a negative one
    assert cal["max_rate_mbps"] == 20
    assert chapter.calibration_glue(cal) == {"tb_ping_err_ms": cal["ping_median_ms"], "tb_ping_err_max_ms": cal["ping_max_ms"],
                                             "tb_rate_err_max_pct": cal["rate_error_max_pct"]}
    pt = chapter.ping_table(pings)
    assert list(pt.index) == ["2 Mbit/s", "20 Mbit/s"] and list(pt["echoes"]) == [4, 4]
    assert pt.loc["20 Mbit/s", "max (ms)"] == pytest.approx(3.0) and pt.loc["2 Mbit/s", "mean error (ms)"] == pytest.approx(0.25)
    rt = chapter.rate_table(rates)
    assert list(rt["error (%)"]) == pytest.approx([-1.5, 0.4]) and list(rt["rate (Mbit/s)"]) == [2, 20]
    with pytest.raises(ValueError, match="at least one echo"):
        chapter.calibration_summary(pings.iloc[:0], rates)


def test_calibration_tables_show_the_source_of_each_row():
    """Recorded rows and the live subset's re-runs of the same rate: one row per rate and source, by rate."""
    pings = pd.DataFrame({"rate_bps": [2e6, 2e6, 20e6, 20e6, 20e6], "error_s": np.array([0.1, 0.3, 0.2, 0.4, 0.9]) / 1e3,
                          "source": ["recorded", "recorded", "recorded", "recorded", "live check"]})
    pt = chapter.ping_table(pings.iloc[[2, 3, 0, 1, 4]])
    assert list(pt.index) == ["2 Mbit/s", "20 Mbit/s", "20 Mbit/s"]
    assert list(pt["source"]) == ["recorded", "recorded", "live check"] and list(pt["echoes"]) == [2, 2, 1]
    assert pt["max (ms)"].tolist() == pytest.approx([0.3, 0.4, 0.9])
    rates = pd.DataFrame({"path0_rate_bps": [20e6, 2e6, 20e6], "ideal_goodput_bps": [19.3e6, 1.93e6, 19.3e6],
                          "throughput_bps": [19.2e6, 1.9e6, 19.0e6], "rate_error": [-0.005, -0.015, -0.016],
                          "sub0_queue_drops": [0, 0, 1], "source": ["recorded", "recorded", "live check"]})
    rt = chapter.rate_table(rates)
    assert list(rt["rate (Mbit/s)"]) == [2, 20, 20] and list(rt["source"]) == ["recorded", "recorded", "live check"]
    assert list(rt.columns[:2]) == ["rate (Mbit/s)", "source"]


def test_live_check_table_in_words():
    from cmtlab.testbed import recorded
    check = pd.DataFrame([["reno, MPTCP, Δ = 0 ms", 3, 21, 18.0, 18.4, 17.6, 18.8, 17.5, 89.6, 75.9, 8.3, False],
                          ["reno, TCP on the best path", 3, 0, 9.5, 9.7, 9.3, 9.9, 9.6, np.nan, np.nan, 50.0, True],
                          ["cubic, MPTCP, Δ = 0 ms", 3, 21, 18.0, 18.4, 17.6, 18.8, 18.0, 89.6, np.nan, 8.3, True]],
                         columns=recorded.LIVE_CHECK_COLUMNS)
    t = chapter.live_check_table(check)
    assert list(t["band (Mbit/s)"]) == ["17.60–18.80", "9.30–9.90", "17.60–18.80"]
    assert list(t["stored runs (recorded + earlier)"]) == ["3 + 21", "3 + 0", "3 + 21"]
    assert list(t["gain, recorded / live (%)"]) == ["90 / 76", "—", "90 / —"]
    assert list(t["same kernel outside (%)"]) == ["≤ 8", "≤ 50", "≤ 8"]
    assert list(t["verdict"]) == ["outside the band", "agrees", "agrees"]


def test_gains_table_keeps_the_columns_the_stored_table_is_read_by():
    g = ks.kernel_gains(_runs(FULL, reps=2))
    shown = chapter.gains_table(g)
    # tests/validation/test_kernel_table.py finds the stored gains table by these headers
    assert list(shown.columns[:3]) == ["congestion", "meaning", "Δ (ms)"]
    assert {"gain (%)", "std (pp)", "min (%)", "max (%)", "runs"} <= set(shown.columns)
    r = shown[(shown.meaning == "rtt") & (shown["Δ (ms)"] == 500)].iloc[0]
    assert r["gain (%)"] == pytest.approx(23.0) and r["runs"] == 2 and r["paper, Linux (%)"] == 23


def test_table1_glue_every_key_closer_reading_and_head_of_line():
    v = chapter.table1_glue(ks.kernel_gains(_runs(FULL)))
    assert {f"tb_gain_reno_{m}_{d}" for m in ("rtt", "one_way") for d in (0, 100, 500)} <= set(v)
    assert v["tb_gain_reno_rtt_0"] == pytest.approx(94.0) and v["tb_gain_reno_one_way_0"] == pytest.approx(94.0)
    assert v["tb_gain_reno_one_way_500"] == pytest.approx(-10.0)
    assert math.isnan(v["tb_gain_cubic_rtt_0"])                         # CUBIC not run here
    assert v["tb_closer_reading"] == "the RTT reading"                   # |23 - 23| < |-10 - 23|
    assert "*less*" in v["tb_hol_phrase"] and "lowest gain -10 %" in v["tb_hol_phrase"]
    assert v["tb_share_far"] == pytest.approx(0.25)
    assert math.isnan(v["tb_gain_spread"])                               # one repetition: no spread
    # the one-way reading closer to the paper's 23 %, and no negative gain
    w = chapter.table1_glue(ks.kernel_gains(_runs({**FULL, ("rtt", 500): 15e6, ("one_way", 500): 12.0e6})))
    assert w["tb_closer_reading"] == "the one-way reading"
    assert w["tb_hol_phrase"].endswith("keeps only part of the second path's rate")
    # Δ = 500 ms not run (quick profile): said, not decided
    q = chapter.table1_glue(ks.kernel_gains(_runs({("both", 0): 19e6, ("rtt", 100): 18e6})))
    assert q["tb_closer_reading"].startswith("not decided") and q["tb_hol_phrase"] == "Δ = 500 ms is not run in this profile"
    assert math.isnan(q["tb_gain_reno_rtt_500"])


def test_gain_spread_over_repetitions():
    runs = _runs({("both", 0): [19e6, 19.6e6], ("rtt", 500): [11e6, 14e6]}, reps=2)
    v = chapter.table1_glue(ks.kernel_gains(runs))
    assert v["tb_gain_spread"] == pytest.approx(30.0)                   # 10 % to 40 %


def test_far_diagnostics_share_and_present_columns():
    runs = _runs(FULL)
    runs["sub1_cwnd"] = np.where(runs.kind == "mptcp", 40.0, np.nan)
    d = chapter.far_diagnostics(runs)
    assert list(d.index) == [("reno", "one_way"), ("reno", "rtt")]       # only Δ = 500 ms rows
    assert list(d.columns) == ["share of path 2", "path 2 cwnd (pkts)"]   # missing diagnostics are left out
    assert d["share of path 2"].tolist() == pytest.approx([0.25, 0.25])


def test_fixed_buffer_glue_and_table():
    none = chapter.fixed_buffer_glue(None, ["rtt", "one_way"])
    assert {"tb_fixed_reno_rtt_0", "tb_fixed_reno_rtt_500", "tb_fixed_reno_one_way_500", "tb_fixed_min", "tb_fixed_max",
            "tb_fixed_sub0_queue_mb", "tb_fixed_path_mbps"} <= set(none)
    assert all(math.isnan(x) for x in none.values())
    assert chapter.fixed_buffer_table(None, None, ["rtt"], 1 << 24) is None
    fixed = _runs({("both", 0): 9.8e6, ("rtt", 500): 9.9e6, ("one_way", 500): 9.7e6})
    fixed["sub0_send_q_bytes"] = np.where(fixed.kind == "mptcp", [0, 13.6e6, 1e6, 2e6], np.nan)
    v = chapter.fixed_buffer_glue(fixed, ["rtt", "one_way"])
    assert v["tb_fixed_reno_rtt_0"] == pytest.approx(-2.0) and v["tb_fixed_reno_one_way_500"] == pytest.approx(-3.0)
    assert math.isnan(v["tb_fixed_reno_one_way_0"])                      # Δ = 0 is shown once, under the first reading
    assert (v["tb_fixed_min"], v["tb_fixed_max"]) == pytest.approx((-3.0, -1.0))
    assert v["tb_fixed_sub0_queue_mb"] == pytest.approx(13.6)
    assert v["tb_fixed_path_mbps"] == pytest.approx(4e6 * 8 / 12 / 1e6)
    tab = chapter.fixed_buffer_table(fixed, ks.kernel_gains(_runs(FULL)), ["rtt", "one_way"], 16 << 20)
    assert "gain, fixed 16 MiB buffers (%)" in tab and len(tab) == 3
    r = tab[(tab.meaning == "one_way") & (tab["Δ (ms)"] == 500)].iloc[0]
    assert r["gain, autotuned buffers (%)"] == pytest.approx(-10.0) and r["gain, fixed 16 MiB buffers (%)"] == pytest.approx(-3.0)


def test_side_by_side_round_trips_and_missing_simulator():
    g = ks.kernel_gains(_runs(FULL))
    t = chapter.side_by_side(g, None, None, deltas_ms=[0, 100, 500], meanings=["rtt", "one_way"], base_one_way_ms=10,
                             reordering="eifel")
    assert len(t) == 5                                                   # Δ = 0 once
    rtts = dict(zip(zip(t["Δ (ms)"], t["Δ read as"]), t["RTT path 1 / path 2 (ms)"]))
    assert rtts[(500, "RTT difference")] == "20 / 520" and rtts[(500, "one-way difference")] == "20 / 1020"
    assert rtts[(0, "—")] == "20 / 20"
    assert set(t["cmtlab.sim, Reno, eifel (%)"]) == {"—"} and set(t["kernel, CUBIC (%)"]) == {"—"}
    assert t["kernel, Reno (%)"].iloc[0] == "94" and t["paper, Linux (%)"].tolist() == ["94", "89", "23", "89", "23"]


def test_agreement_glue():
    empty = chapter.agreement_glue(None, None, None, ["rtt"])
    assert all(math.isnan(x) for x in empty.values()) and "tb_sim_diff_500_one_way" in empty
    g = ks.kernel_gains(_runs(FULL))
    sim_g = ks.kernel_gains(_runs({**FULL, ("rtt", 100): 19.4e6, ("rtt", 500): 14e6}))
    agree = ks.agreement(g, sim_g)
    v = chapter.agreement_glue(agree, sim_g, sim_g, ["rtt", "one_way"])
    assert v["tb_sim_absdiff_near_max"] == pytest.approx(5.0)            # 94 vs 89 % at Δ = 100 ms (RTT)
    assert v["tb_sim_ratio_near_max"] == pytest.approx(19.4 / 18.9) and v["tb_sim_ratio_near_min"] == pytest.approx(1.0)
    assert v["tb_sim_diff_500_rtt"] == pytest.approx(17.0) and v["tb_sim_diff_500_one_way"] == pytest.approx(0.0)
    assert v["tb_sim_gain_500_rtt"] == pytest.approx(40.0) and v["tb_sim_gain_0"] == pytest.approx(94.0)
    shown = chapter.agreement_table(agree)
    assert "rtt2_ms" not in shown and "simulator − kernel (pp)" in shown


def _hyp(rows):
    return pd.DataFrame(rows, columns=["change", "buffer_mib", "meaning", "delta_ms", "gain_pct"])


def test_hypotheses_table_and_glue():
    nan = float("nan")
    hyp = _hyp([("as configured", nan, "rtt", 500, 50.0), ("as configured", nan, "one_way", 500, 10.0),
                ("reordering response none", nan, "rtt", 500, 30.0), ("round-robin scheduler", nan, "rtt", 500, 50.4),
                ("round-robin scheduler", nan, "one_way", 500, 10.0),
                ("connection-level buffer 1 MiB", 1.0, "one_way", 500, -48.0),
                ("connection-level buffer 1.5 MiB", 1.5, "one_way", 500, -3.0),
                ("connection-level buffer 32 MiB", 32.0, "one_way", 500, 10.0),
                ("connection-level buffer 32 MiB", 32.0, "rtt", 500, 76.0)])
    v = chapter.hypotheses_glue(hyp)
    assert v["tb_buf_largest_negative"] == 1.5 and v["tb_hyp_ow_buf_range"] == "-48 to 10 %"
    assert (v["tb_hyp_rtt_min"], v["tb_hyp_rtt_max"], v["tb_hyp_rtt_none"]) == (30.0, 76.0, 30.0)
    assert v["tb_hyp_rr_phrase"].startswith("round robin and lowest-RTT-first make the same runs here (largest difference 0.4")
    hyp.loc[hyp.change == "round-robin scheduler", "gain_pct"] = [58.0, 10.0]
    assert chapter.hypotheses_glue(hyp)["tb_hyp_rr_phrase"].endswith("changes the gain by up to 8 pp")
    none = chapter.hypotheses_glue(_hyp([]))
    assert none["tb_hyp_ow_buf_range"] == "not run" and math.isnan(none["tb_buf_largest_negative"])
    assert "not run" in none["tb_hyp_rr_phrase"]
    tab = chapter.hypotheses_table(hyp, ks.kernel_gains(_runs(FULL)))
    assert list(tab.columns) == ["Δ 500 ms (RTT)", "Δ 500 ms (one-way)"]
    assert tab.loc["kernel, Reno (mean)"].tolist() == pytest.approx([23.0, -10.0])
    assert chapter.hypotheses_table(_hyp([]), None) is None
    cases = chapter.hypothesis_cases([1.5])
    assert cases["connection-level buffer 1.5 MiB"] == {"receive_buffer_bytes": 1572864} and "as configured" in cases


def test_arabi_tables_and_glue():
    arabi = pd.DataFrame({"variant": ["defaults", "defaults", "none", "none"], "rep": [0, 1, 0, 1],
                          "throughput_bps": [6.7e6, 6.5e6, 6.8e6, 6.8e6], "k_timestamps": [1, 1, 0, 0],
                          "sub0_retrans_total": [10, 20, 3, 5], "sub1_retrans_total": 0, "sub0_queue_drops": 1,
                          "sub1_queue_drops": 2})
    tab = chapter.arabi_table(arabi)
    assert tab.loc["defaults", "goodput (Mbit/s)"] == pytest.approx(6.6) and tab.loc["none", "std (Mbit/s)"] == 0
    assert tab.loc["defaults", "share of the 7 Mbit/s goodput ceiling"] == pytest.approx(6.6e6 / tcp_goodput_bps(7e6))
    assert tab.loc["none", "share of the 7 Mbit/s goodput ceiling"] == pytest.approx(
        6.8e6 / tcp_goodput_bps(7e6, timestamps=False))
    assert tcp_goodput_bps(7e6, timestamps=False) > tcp_goodput_bps(7e6)   # 1460 vs 1448 payload bytes
    assert tab.loc["defaults", "retransmissions, path 1"] == 15
    side = pd.DataFrame({"variant": ["defaults", "defaults", "defaults", "none", "none"],
                         "side": ["kernel", "cmtlab.sim", "cmtlab.sim", "kernel", "cmtlab.sim"],
                         "goodput_mbps": [6.6, 6.5, 6.6, 6.8, 6.7], "ratio_to_kernel": [1, 6.5 / 6.6, 1.0, 1, 6.7 / 6.8]})
    v = chapter.arabi_glue(side)
    assert v["tb_arabi_ratio_min"] == pytest.approx(6.5 / 6.6) and v["tb_arabi_ratio_max"] == 1.0
    assert v["tb_arabi_kernel_diff_pct"] == pytest.approx(100 * (6.6 / 6.8 - 1))
    assert v["tb_arabi_sim_spread_pct"] == pytest.approx(100 * (6.7 / 6.5 - 1))
    assert all(math.isnan(x) for x in chapter.arabi_glue(None).values())
    assert "simulator response" in chapter.arabi_side_table(side.assign(sim_reordering="—"))


def test_simulator_status_says_why_it_is_missing():
    ok = chapter.simulator_status(None, "eifel", 9)
    assert ok.startswith("```{admonition} Simulator column") and "`eifel`" in ok and "9 runs each" in ok
    missing = chapter.simulator_status("cmtlab.sim has no scheduler 'x'", "eifel", 0)
    assert ":class: warning" in missing and "no simulator numbers are shown or implied" in missing


def test_figures_draw_with_and_without_the_simulator():
    g = ks.kernel_gains(_runs(FULL, congestions=("reno", "cubic")))
    fig = figures.kernel_vs_simulator(g, None, None, "eifel")
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert sorted(labels) == ["Alheid Table I, Linux", "kernel Reno, Δ RTT", "kernel Reno, Δ one-way"]
    fig = figures.kernel_vs_simulator(g, g, g, "eifel")
    assert len(fig.axes[0].get_legend().get_texts()) == 7
    fig = figures.table1_gains(g)
    assert len(fig.axes[0].get_legend().get_texts()) == 5                 # 2 controls × 2 readings + the paper


def test_gain_axis_keeps_negative_gains_visible():
    assert figures.gain_floor(pd.DataFrame({"gain_min_pct": [97.0, 50.0]})) == 0.0
    assert figures.gain_floor(pd.DataFrame({"gain_min_pct": [97.0, -43.6]})) == -50.0
    assert figures.gain_floor(pd.DataFrame({"gain_min_pct": [97.0, -40.0]})) == -50.0       # a margin below the point
    g = ks.kernel_gains(_runs(FULL))
    bottom = figures.table1_gains(g).axes[0].get_ylim()[0]
    assert bottom <= g.gain_min_pct.min() < 0


def test_kernel_rows_in_table1s_row_schema_give_the_same_columns_and_statistics():
    """One Table I gains on one row schema (issue 33): the kernel's recorded columns mapped on load
    (kernel_sim.table1_rows) and cmtlab's gains columns alike; the statistics over the repetitions by hand."""
    from cmtlab.papers.alheid import table1 as t1
    from cmtlab.stats import half_width

    runs = _runs({("both", 0): [19e6, 21e6], ("rtt", 100): [18e6, 18e6]}, reps=2)
    rows = ks.table1_rows(runs)
    assert set(t1.ROW_COLUMNS) <= set(rows.columns)
    assert rows.paths.tolist() == [1, 2, 2] * 2 and rows.delta_ms.tolist() == [0, 0, 100] * 2
    assert rows.goodput_mbps.tolist() == [10.0, 19.0, 18.0, 10.0, 21.0, 18.0]
    g = ks.kernel_gains(runs).set_index(["meaning", "delta_ms"])
    d0 = g.loc[("rtt", 0)]
    assert (d0.gain_pct, d0.gain_min_pct, d0.gain_max_pct, d0.n) == (pytest.approx(100.0), pytest.approx(90.0),
                                                                       pytest.approx(110.0), 2)
    assert d0.gain_std_pct == pytest.approx(math.sqrt(200)) and d0.share2 == pytest.approx(0.25)
    assert d0.gain_ci95_pct == pytest.approx(half_width(math.sqrt(200), 2))
    assert d0.rtt2_ms == pytest.approx(20.0) and d0.paper_linux_pct == 94.0 and d0.paper_ns3_pct == 90.0
    d100 = g.loc[("rtt", 100)]
    assert d100.gain_std_pct == 0.0 and d100.gain_ci95_pct == 0.0   # identical runs: a real interval of width 0
    # cmtlab's gains carry the same columns (its grouping labels aside)
    sim_rows = rows.assign(setup="base", variant=t1.PAPER_VARIANT, sf0_goodput_mbps=np.nan, sf1_goodput_mbps=np.nan)
    assert set(t1.gains(sim_rows).columns) - {"setup", "variant"} == set(g.reset_index().columns) - {"congestion"}
