"""cmtlab.papers.arabi.experiments: scenarios, presets, throughput traces, summaries (Arabi et al., R1)."""

import numpy as np
import pandas as pd
import pytest

from cmtlab.papers.arabi import experiments as ex
from cmtlab.sim.multipath import run_mptcp


def test_scenarios_use_one_way_delays_doubled_to_round_trips():
    sc = ex.scenario(2, "lia", "none", duration_s=1.0)
    assert sc.bandwidths_bps == (5e6, 2e6, 7e6)
    assert sc.delays_s == pytest.approx((0.2, 0.02, 0.1))
    assert ex.scenario(1, "lia", "none", duration_s=1.0).delays_s == pytest.approx((0.2, 0.2))
    assert ex.scenario(2, "lia", "none", duration_s=1.0, delays_are_round_trips=True).delays_s == pytest.approx(
        (0.1, 0.01, 0.05))


def test_presets_select_the_model_or_the_rfc_semantics():
    ch = ex.scenario(1, "lia", "dsack", preset="chihani", duration_s=1.0)
    assert ch.dupack_mode == "chihani" and ch.options.recovery == "chihani" and ch.m_ack == 1
    assert dict(ch.congestion_params) == {"variant": "chihani"} and dict(ch.reordering_params) == {"variant": "chihani"}
    rfc = ex.scenario(1, "lia", "dsack", preset="rfc", duration_s=1.0)
    assert rfc.dupack_mode == "rfc" and rfc.options.recovery == "newreno" and rfc.congestion_params == ()
    # "none" has no variant; OLIA has no Chihani variant
    assert ex.scenario(1, "olia", "none", preset="chihani", duration_s=1.0).congestion_params == ()
    assert ex.scenario(1, "lia", "none", preset="chihani_dupack", duration_s=1.0).dupack_mode == "paper"


@pytest.mark.parametrize("kw, match", [
    (dict(scenario_id=3), "scenario_id"), (dict(preset="ns3"), "preset"), (dict(loss_rate=-0.1), "loss_rate"),
    (dict(loss_rate=1.0), "loss_rate"), (dict(duration_s=0), "duration_s"), (dict(congestion="bbr"), "bbr"),
    (dict(reordering="rack"), "rack"), (dict(paths=(1, 2, 3)), "paths"),
    (dict(delays_are_round_trips="yes"), "delays_are_round_trips"),
])
def test_bad_input_names_the_parameter(kw, match):
    args = dict(scenario_id=1, congestion="lia", reordering="none")
    args.update(kw)
    sid, cc, ro = args.pop("scenario_id"), args.pop("congestion"), args.pop("reordering")
    with pytest.raises(ValueError, match=match):
        ex.scenario(sid, cc, ro, **args)


def test_run_cases_validates_seeds_and_cases():
    with pytest.raises(ValueError, match="seeds"):
        ex.run_cases(ex.build_cases(scenarios=(1,), congestion=("lia",), reordering=("none",), presets=("rfc",),
                                    duration_s=1.0), seeds=[0, 0], cache=False)
    with pytest.raises(ValueError, match="cases"):
        ex.run_cases([], seeds=[0], cache=False)
    with pytest.raises(ValueError, match="congestion"):
        ex.build_cases(congestion="lia")


def test_delivery_times_are_the_running_maximum_of_first_arrivals():
    packets = pd.DataFrame({"dsn": [0, 1, 2, 1, 3, 5], "arrival_s": [0.1, np.nan, 0.2, 0.5, 0.3, 0.4]})
    # DSN 1 is lost once, its retransmission arrives at 0.5: 2 and 3 wait for it; 4 never arrives
    assert ex.delivery_times_s(packets) == pytest.approx([0.1, 0.5, 0.5, 0.5])


@pytest.mark.parametrize("preset", ["chihani", "rfc"])
def test_throughput_trace_integrates_to_the_delivered_bytes(preset):
    sc = ex.scenario(2, "lia", "dsack", preset=preset, duration_s=8.0, loss_rate=0.01, seed=3)
    r = ex.simulate(sc)
    bins = np.array([v for k, v in sorted(r.extra.items()) if k.startswith("tput_bin_")])
    assert bins.size == 8
    assert bins.sum() * ex.BIN_S / 8 == pytest.approx(r.delivered_bytes)
    assert r.extra["mean_throughput_bps"] == pytest.approx(bins.mean())
    assert r.delivered_bytes > 0 and r.retransmissions > 0  # the random loss was felt
    # the sink recording equals the delivery times reconstructed from the packet trace
    traced = run_mptcp(sc, trace=True)
    ref = ex.throughput_bins(ex.delivery_times_s(traced.traces["packets"]), sc.segment_bytes, 8.0)
    assert traced.delivered_bytes == r.delivered_bytes
    assert np.allclose(bins, ref)


def test_conservation_no_more_delivered_than_the_links_carry():
    sc = ex.scenario(2, "uncoupled", "eifel", preset="chihani", duration_s=10.0, seed=1)
    r = run_mptcp(sc)
    assert r.delivered_bytes * 8 / 10.0 <= sum(sc.bandwidths_bps)
    # every delivered segment was sent at least once on some subflow
    assert r.delivered_bytes <= r.subflows.segments_sent.sum() * sc.segment_bytes


def test_without_loss_the_reordering_algorithm_changes_nothing_under_rfc():
    rows = [run_mptcp(ex.scenario(1, "lia", ro, preset="rfc", duration_s=5.0, loss_rate=0.0)).delivered_bytes
            for ro in ex.REORDERING]
    assert len(set(rows)) == 1


def test_sweep_summary_ci_and_claims(tmp_path):
    cases = ex.build_cases(scenarios=(1, 2), congestion=("uncoupled", "lia", "rtt_compensation"),
                           reordering=ex.REORDERING, presets=("chihani",), duration_s=4.0)
    tab = ex.run_cases(cases, seeds=[0, 1], cache_dir=tmp_path, workers=1, progress=False)
    assert len(tab) == 2 * 3 * 4 * 2
    again = ex.run_cases(cases, seeds=[0, 1], cache_dir=tmp_path, workers=1, progress=False)
    assert again.attrs["sweep"]["cached"] == len(again)
    pd.testing.assert_frame_equal(tab.drop(columns=["wall_time_s", "segments_per_second"], errors="ignore"),
                                  again.drop(columns=["wall_time_s", "segments_per_second"], errors="ignore"))
    s = ex.summarise(tab)
    assert (s.seeds == 2).all() and (s.ci95_bps >= 0).all()
    tr = ex.throughput_traces(tab)
    assert set(tr.time_s) == {0.5, 1.5, 2.5, 3.5}
    # the mean trace's average equals the mean throughput of the group
    g = tr.groupby(list(ex.LABELS)).mean_bps.mean().reset_index()
    m = g.merge(s, on=list(ex.LABELS))
    assert np.allclose(m.mean_bps_x, m.mean_bps_y)
    c = ex.claims(s, preset="chihani")
    assert c["best"][0] in ("uncoupled", "lia", "rtt_compensation") and 1 <= c["dsack_rttc_rank_s1"] <= 12


def test_chihani_recovery_is_selectable_in_a_scenario():
    r = run_mptcp(ex.scenario(1, "lia", "none", preset="chihani", duration_s=5.0, loss_rate=0.02, seed=2))
    assert r.fast_retransmits > 0


def test_figures_and_pivot_validate_their_selection(tmp_path):
    import matplotlib
    matplotlib.use("Agg")
    from cmtlab.papers.arabi import figures

    cases = ex.build_cases(scenarios=(1,), congestion=("lia",), reordering=ex.REORDERING, presets=("rfc",),
                           duration_s=2.0)
    tab = ex.run_cases(cases, seeds=[0], cache_dir=tmp_path, workers=1, progress=False)
    s, tr = ex.summarise(tab), ex.throughput_traces(tab)
    assert figures.throughput_over_time(tr, scenario_id=1, preset="rfc").axes
    assert figures.mean_bars(s, preset="rfc").axes
    with pytest.raises(ValueError, match="preset"):
        figures.throughput_over_time(tr, scenario_id=1, preset="chihani")
    with pytest.raises(ValueError, match="scenario=2"):
        ex.pivot(s, preset="rfc", scenario_id=2)
    with pytest.raises(ValueError, match="tput_bin"):
        ex.throughput_traces(tab.drop(columns=ex.bin_columns(tab)))


# ------------------------------------------------------------------ tables and the comparison (synthetic summaries)

from cmtlab.papers.arabi import comparison as cmp  # noqa: E402
from cmtlab.report import NOT_ASSESSED  # noqa: E402

#: Synthetic means (× 1 Mbit/s) with the paper's picture in scenario 2: DSACK + uncoupled best,
#: F-RTO and Eifel 40 % below no algorithm; in scenario 1 Eifel gains 20 % and LIA's DSACK = none.
_CC = {"uncoupled": 1.3, "fully_coupled": 0.8, "lia": 1.0, "rtt_compensation": 1.1, "olia": 0.9}
_RO = {1: {"none": 1.0, "dsack": 1.2, "eifel": 1.2, "frto": 0.6}, 2: {"none": 1.0, "dsack": 1.2, "eifel": 0.6, "frto": 0.6}}
_BASE = {1: 5e6, 2: 8e6}


def _synthetic(scenarios=(1, 2), congestion=ex.PAPER_CONGESTION, reordering=ex.REORDERING, presets=("chihani", "rfc"),
               modern=True, n_bins=10):
    """A summary and traces shaped like those of run_cases → summarise / throughput_traces."""
    groups = []
    for sid in scenarios:
        for preset in presets:
            groups += [("round_robin", cc, ro, sid, preset) for cc in congestion for ro in reordering]
            if modern:
                groups += [("round_robin", "olia", ro, sid, preset) for ro in reordering]
                groups += [("lowest_rtt", cc, ro, sid, preset) for cc in ("lia", "olia") for ro in reordering]
    rows, tr = [], []
    for sched, cc, ro, sid, preset in groups:
        f = 1.0 if (sid == 1 and cc == "lia" and ro == "dsack") else _RO[sid][ro]
        m = _BASE[sid] * _CC[cc] * f
        labels = dict(setting="main", scenario=sid, preset=preset, scheduler=sched, congestion=cc, reordering=ro)
        rows.append({**labels, "mean_bps": m, "ci95_bps": 0.1e6, "seeds": 2, "fast_retransmits": 3.0, "timeouts": 1.0,
                     "spurious_undos": 0.5, "retransmissions": 4.0})
        for i in range(n_bins):  # F-RTO: like none in the first half, half of it in the second
            late = i >= n_bins / 2
            v = m if ro != "frto" else _BASE[sid] * _CC[cc] * (0.5 if late else 1.0)
            tr.append({**labels, "time_s": (i + 0.5) * ex.BIN_S, "mean_bps": v, "ci95_bps": 0.0})
    return pd.DataFrame(rows), pd.DataFrame(tr)


def _compare(summary, traces, **kw):
    """The comparison decided on the synthetic ``chihani`` rows, with RFC behaviour as the reference."""
    kw = {"decider": "chihani", "references": ("rfc",), **kw}
    return cmp.comparison(summary, traces, duration_s=10.0, loss_rate=0.002, receive_buffer_bytes=1 << 20, **kw)


HERE = cmp.source_label("chihani")
RFC = cmp.source_label("rfc")


def _verdicts(c):
    f = c.frame()
    return dict(zip(f.claim, f.verdict))


def test_mean_table_formats_mean_and_ci_with_labels():
    s, _ = _synthetic(scenarios=(2,), presets=("rfc",), modern=False)
    t = cmp.mean_table(s, "rfc", 2)
    assert list(t.index) == ["uncoupled", "fully coupled", "LIA", "RTT compensation"]
    assert list(t.columns) == ["none", "DSACK", "Eifel", "F-RTO"]
    assert t.loc["uncoupled", "DSACK"] == f"{8 * 1.3 * 1.2:.2f} ± 0.1"
    with pytest.raises(ValueError, match="scenario=1"):
        cmp.mean_table(s, "rfc", 1)


def test_late_ratio_sees_a_drop_in_the_second_half_only():
    s, tr = _synthetic(presets=("chihani",), modern=False)
    assert cmp.late_ratio(tr, preset="chihani", scenario_id=2, reordering="frto") == pytest.approx(0.5)
    assert cmp.late_ratio(tr, preset="chihani", scenario_id=2, reordering="dsack") == pytest.approx(1.2)  # steady 20 % above
    # from the start, the first (equal) half counts too: (1 + 0.5) / 2 per bin mean
    assert cmp.late_ratio(tr, preset="chihani", scenario_id=2, reordering="frto", from_s=0.0) == pytest.approx(0.75)
    assert np.isnan(cmp.late_ratio(tr, preset="rfc", scenario_id=2, reordering="frto"))
    _, tr2 = _synthetic(reordering=("none", "dsack"), modern=False)
    assert np.isnan(cmp.late_ratio(tr2, preset="chihani", scenario_id=2, reordering="frto"))


def test_claims_report_missing_runs_as_none_or_nan():
    s, _ = _synthetic(scenarios=(2,), congestion=("lia", "uncoupled"), modern=False)
    c = ex.claims(s, preset="chihani")
    assert c["best"][:2] == ("uncoupled", "dsack") and c["dsack_rttc_rank_s1"] is None and c["n_combinations"] == 0
    assert c["frto_vs_none"] == pytest.approx(-0.4) and set(c["eifel_gain"]) == {2}
    c = ex.claims(s, preset="rfc", congestion=["olia"])
    assert c["best"] is None and np.isnan(c["frto_vs_none"]) and c["dsack_s2_bps"] == {}


def test_comparison_on_the_full_grid_assesses_every_claim():
    s, tr = _synthetic()
    c = _compare(s, tr)
    v = _verdicts(c)
    assert len(v) == 12 and c.summary()[NOT_ASSESSED] == 0
    assert v["scenario 2: the best combination is DSACK + uncoupled"] == "reproduced"
    assert v["scenario 2, uncoupled: F-RTO relative to no algorithm"] == "reproduced"        # -40 % exactly
    assert v["scenario 2, uncoupled: Eifel relative to no algorithm"] == "reproduced"
    assert v["Eifel improves on no algorithm only with two subflows (uncoupled, LIA, RTT compensation)"] == "reproduced"
    assert v["scenario 1: DSACK + RTT compensation good, not the best"] == "reproduced"   # rank 3 of 16
    assert v["LIA, scenario 1 (Fig. 8): DSACK's throughput stays the same as with no algorithm"] == "reproduced"
    assert v["F-RTO: after a detection the throughput drops and stays low"] == "reproduced"   # 50 % late
    assert v["scenarios 1 and 2, four congestion controls, four algorithms"] == "by construction"
    assert c.best_label() == "DSACK + uncoupled"
    f = c.frame()
    assert list(f.columns[4:7]) == [HERE, RFC, cmp.DIFFERS]
    assert not f[RFC].str.contains("not run").any()
    # the synthetic RFC rows are the same numbers: every verdict agrees, and the column says so
    assert (f[cmp.DIFFERS] == "no").all()
    assert f[RFC].iloc[1] == "DSACK + uncoupled (12.48 Mbit/s) → reproduced"
    # the same picture with Eifel on top: that claim is no longer reproduced
    s2 = s.copy()
    s2.loc[(s2.scenario == 2) & (s2.reordering == "eifel"), "mean_bps"] *= 10
    assert _verdicts(_compare(s2, tr))["scenario 2: the best combination is DSACK + uncoupled"] == "not reproduced"
    assert "#eeeeee" not in c.style().to_html()


def test_comparison_with_one_scenario_marks_the_other_scenarios_claims_not_assessed():
    full = _verdicts(_compare(*_synthetic()))
    s, tr = _synthetic(scenarios=(2,))
    c = _compare(s, tr)
    f = c.frame().set_index("claim")
    na = f[f.verdict == NOT_ASSESSED]
    assert len(na) == 5 and c.summary()[NOT_ASSESSED] == 5
    assert na[HERE].str.startswith("not run with these parameters (needs scenario 1").all()
    assert "scenario 1: DSACK + RTT compensation good, not the best" in na.index
    # claims on scenario 2 alone keep the verdict they have on the full grid
    for claim, verdict in f[f.verdict != NOT_ASSESSED].verdict.items():
        assert verdict == full[claim], claim
    assert "run here: scenario 2 only" in f.loc["scenarios 1 and 2, four congestion controls, four algorithms", HERE]
    assert "not run" in c.frame()[RFC].iloc[5]          # the RFC column of an s1 claim


def test_comparison_with_two_congestion_controls():
    s, tr = _synthetic(congestion=("lia", "uncoupled"))
    c = _compare(s, tr)
    f = c.frame().set_index("claim")
    na = f[f.verdict == NOT_ASSESSED]
    # claims about every combination need all four congestion controls
    assert set(na.index) == {"scenario 2: the best combination is DSACK + uncoupled",
                             "scenario 1: DSACK + RTT compensation good, not the best"}
    assert na[HERE].str.contains("fully coupled, RTT compensation").all()
    assert c.best is not None  # computed, but not judged
    # averaged claims say over what
    assert "mean over uncoupled, LIA (the others not run)" in f.loc["scenario 2, uncoupled: F-RTO relative to no algorithm", "note"]
    assert f.loc["scenario 1, no algorithm: LIA's throughput is the same as uncoupled", "verdict"] == "partly"  # -23 %
    # only fully coupled: the Eifel claim (about uncoupled, LIA, RTT compensation) cannot be judged
    s, tr = _synthetic(congestion=("fully_coupled",), modern=False)
    v = _verdicts(_compare(s, tr))
    assert v["Eifel improves on no algorithm only with two subflows (uncoupled, LIA, RTT compensation)"] == NOT_ASSESSED


def test_comparison_without_the_deciding_source():
    s, tr = _synthetic(presets=("rfc",), modern=False)
    c = _compare(s, tr)
    f = c.frame()
    assert c.summary() == {"reproduced": 0, "partly": 0, "not reproduced": 0, "undecided": 0, "by construction": 1,
                           NOT_ASSESSED: 11}
    assert f[HERE].iloc[1:].str.contains(r"\(needs old imitation preset \(chihani\)\)").all()
    assert c.best is None and c.best_label() == cmp.NOT_RUN
    # the RFC column still carries its numbers and verdicts; none counts as a different decision
    assert f[RFC].iloc[1].startswith("DSACK + uncoupled") and (f[cmp.DIFFERS] == "no").all()
    # a reference the summary does not hold gets no column
    assert "model preset (chihani_ns3)" not in _compare(s, tr, references=("chihani_ns3", "rfc")).frame().columns
    # without the algorithms a claim compares, that claim is not assessed
    s, tr = _synthetic(reordering=("none", "dsack"), modern=False)
    v = _verdicts(_compare(s, tr))
    assert v["scenario 2, uncoupled: F-RTO relative to no algorithm"] == NOT_ASSESSED
    assert v["LIA, scenario 1 (Fig. 8): DSACK's throughput stays the same as with no algorithm"] == "reproduced"


def test_sensitivity_loss_free_modern_and_counter_tables():
    s, _ = _synthetic(scenarios=(2,), congestion=("uncoupled", "lia"), presets=("chihani",))
    t = cmp.sensitivity_table(s[s.scheduler == "round_robin"])
    assert len(t) == 1 and t["best in scenario 2"].iloc[0].startswith("uncoupled + DSACK")
    assert np.isnan(t["Eifel gain s1"].iloc[0]) and t["Eifel gain s2"].iloc[0] == pytest.approx(-0.4)
    assert "not run" in cmp.style_sensitivity(t).to_html()
    m = cmp.modern_table(s)
    assert set(zip(m.scheduler, m.congestion)) == {("round_robin", "lia"), ("round_robin", "olia"),
                                                   ("lowest_rtt", "lia"), ("lowest_rtt", "olia")}
    assert m.loc[(m.scheduler == "round_robin") & (m.congestion == "olia"), "none"].iloc[0] == pytest.approx(8 * 0.9)
    assert cmp.mean_of(s, scenario=2, congestion="lia", reordering="none", scheduler="round_robin") == pytest.approx(8e6)
    assert np.isnan(cmp.mean_of(s, scenario=1))
    with pytest.raises(ValueError, match="seeds_x"):
        cmp.mean_of(s, seeds_x=1)
    r = cmp.response_counters(s)
    assert len(r) == 4 and list(r.columns[:3]) == ["preset", "reordering", "Mbit/s"]
    assert cmp.response_counters(s, scenario_id=1).empty
    runs = pd.DataFrame({"setting": ["loss 0"] * 4, "scenario": 2, "preset": "rfc", "scheduler": "round_robin",
                         "congestion": "lia", "seed": 0, "reordering": list(ex.REORDERING),
                         "mean_throughput_bps": 5e6, "fast_retransmits": 0, "timeouts": 0})
    assert cmp.loss_free_check(runs) == {"identical": True, "fast_retransmits": 0, "timeouts": 0, "runs": 4}
    runs.loc[3, ["mean_throughput_bps", "timeouts"]] = (4e6, 2)
    assert cmp.loss_free_check(runs)["identical"] is False and cmp.loss_free_check(runs)["timeouts"] == 2
    assert cmp.loss_free_check(runs, setting="main")["identical"] is None


def test_sensitivity_cases_change_one_choice_at_a_time():
    cases = ex.sensitivity_cases(scenarios=(2,), congestion=("lia",), reordering=("none",), presets=("rfc",),
                                 transfer_bytes=1_000_000, duration_s=1.0)
    settings = [(lab["setting"], lab["preset"]) for lab, _ in cases]
    assert settings == [("main", "rfc"), ("main", "chihani"), ("main", "chihani_dupack"),
                        ("loss 0.2 %", "rfc"), ("loss 0.2 %", "chihani"), ("loss 0.2 %", "chihani_dupack"),
                        ("loss 1 %", "rfc"), ("receive buffer 64 KB", "rfc"), ("delays as round trips", "rfc")]
    by = {s: sc for (lab, sc), s in zip(cases, settings)}
    # the main setting is the 10-MB-style transfer without loss; the loss settings are timed bulk runs
    main, lossy = by[("main", "rfc")], by[("loss 0.2 %", "rfc")]
    assert main.transfer_bytes == 1_000_000 and main.duration_s is None and {l.rate for l in main.loss} == {0.0}
    assert lossy.transfer_bytes is None and lossy.duration_s == 1.0 and {l.rate for l in lossy.loss} == {0.002}
    assert by[("receive buffer 64 KB", "rfc")].receive_buffer_bytes == 65536
    assert by[("delays as round trips", "rfc")].delays_s == pytest.approx(tuple(d / 2 for d in main.delays_s))
    with pytest.raises(ValueError, match="imitation_settings"):
        ex.sensitivity_cases(imitation_settings=("loss 5 %",), transfer_bytes=1_000_000)


def _scaled(s, *, scenario, reordering, factor, congestion=None, preset="chihani"):
    s = s.copy()
    m = (s.scenario == scenario) & (s.reordering == reordering) & (s.preset == preset) & (s.scheduler == "round_robin")
    if congestion is not None:
        m &= s.congestion == congestion
    s.loc[m, "mean_bps"] *= factor
    return s


@pytest.mark.parametrize("g1,g2,want", [(1.0501, 1.05, "reproduced"), (1.05, 1.05, "not reproduced"),
                                        (1.0501, 1.0501, "partly")])
def test_eifel_claim_at_the_no_change_band(g1, g2, want):
    """Eifel's gain over none: > 5 % in scenario 1 and ≤ 5 % in scenario 2 (the policy's no-change band)."""
    s, tr = _synthetic()
    s = _scaled(s, scenario=1, reordering="eifel", factor=g1 / 1.2)       # synthetic s1 gain is +20 %
    s = _scaled(s, scenario=2, reordering="eifel", factor=g2 / 0.6)       # synthetic s2 change is -40 %
    f = _compare(s, tr).frame().set_index("claim")
    row = f.loc["Eifel improves on no algorithm only with two subflows (uncoupled, LIA, RTT compensation)"]
    assert row.verdict == want and "5 %" in row.rule


@pytest.mark.parametrize("change,want", [(0.6 * 1.1, "reproduced"), (0.6 * 1.1001 / 1.0, "reproduced"),
                                         (1 - 0.4 * 0.7, "partly"), (1 - 0.4 * 0.6999, "not reproduced")])
def test_frto_40_less_uses_uncoupled_and_the_measured_band(change, want):
    s, tr = _synthetic()
    s["ci95_bps"] = 0.0                                     # no seed spread: the point decides
    s = _scaled(s, scenario=2, reordering="frto", congestion="uncoupled", factor=change / 0.6)
    f = _compare(s, tr).frame().set_index("claim")
    row = f.loc["scenario 2, uncoupled: F-RTO relative to no algorithm"]
    dev = abs((change - 1) * 100 + 40) / 40
    expect = "reproduced" if dev <= 0.1 + 1e-12 else "partly" if dev <= 0.3 + 1e-12 else "not reproduced"
    assert row.verdict == expect and "no unit" in row.paper


def test_frto_stays_low_at_the_trend_threshold():
    s, tr = _synthetic()
    claim = "F-RTO: after a detection the throughput drops and stays low"
    for late, want in ((0.95, "reproduced"), (0.9501, "not reproduced")):
        t2 = tr.copy()
        m = (t2.reordering == "frto") & (t2.scenario == 2) & (t2.time_s > 0.5 * (t2.time_s.max() + ex.BIN_S / 2))
        base = t2[(t2.reordering == "none") & (t2.scenario == 2)].set_index(["preset", "scheduler", "congestion", "time_s"])
        for i in t2.index[m]:
            r = t2.loc[i]
            t2.loc[i, "mean_bps"] = late * base.loc[(r.preset, r.scheduler, r.congestion, r.time_s), "mean_bps"]
        assert _verdicts(_compare(s, t2))[claim] == want


def test_arabi_numbers_carry_the_seeds_ci():
    s, tr = _synthetic()                                    # ± 0.1 Mbit/s over 2 seeds
    s = _scaled(s, scenario=2, reordering="frto", congestion="uncoupled", factor=(1 - 0.4 * 0.7) / 0.6)
    f = _compare(s, tr).frame().set_index("claim")
    row = f.loc["scenario 2, uncoupled: F-RTO relative to no algorithm"]
    assert row.verdict == "undecided at 2 seeds" and "95 % CI" in row[HERE]      # -28 % ± ~1.4 pp at the edge
    assert "95 % CI" in f.loc["scenario 2: throughput of DSACK + uncoupled", HERE]


# ------------------------------------------------------------------ the papers' simulator as the deciding source

CSV = __import__("cmtlab._paths", fromlist=["DATA"]).DATA / "papers-sim" / "arabi-r1.csv"


def _recorded_case(scenario, congestion, reordering, variate_delay=False):
    """The recorded rows of one case, read from the CSV itself (not through the library)."""
    t = pd.read_csv(CSV)
    m = ((t.scenario == scenario) & (t.congestion == congestion) & (t.reordering == reordering)
         & (t.variate_delay == variate_delay))
    assert m.any(), (scenario, congestion, reordering, variate_delay)
    return t[m]


def test_papers_sim_column_is_read_from_the_recorded_csv():
    import warnings

    from cmtlab.papers.arabi import papers_sim as pa

    with warnings.catch_warnings():
        warnings.simplefilter("error")          # no build noise (e.g. pandas' fragmentation warning)
        ms, mt = pa.chapter_sources()
    assert set(ms.preset) == {cmp.PAPERS_SIM, cmp.PAPERS_SIM_GOODPUT, cmp.PAPERS_SIM_VARIATE}
    c = cmp.comparison(ms, mt, transfer_bytes=10_000_000, loss_rate=0.0, receive_buffer_bytes=1 << 20)
    f = c.frame().set_index("claim")
    assert c.table.here_label == "papers' simulator (run here)" == f.columns[3]
    row = f.loc["scenario 2: throughput of DSACK + uncoupled"]
    rec = _recorded_case(2, "uncoupled", "dsack")
    assert row["papers' simulator (run here)"] == f"{rec.model_global_throughput_bps.iloc[0] / 1e6:.2f} Mbit/s"
    assert row[cmp.source_label(cmp.PAPERS_SIM_GOODPUT)].startswith(f"{rec.throughput_bps.iloc[0] / 1e6:.2f} Mbit/s →")
    on = _recorded_case(2, "uncoupled", "dsack", True)
    assert row[cmp.source_label(cmp.PAPERS_SIM_VARIATE)].startswith(
        f"{on.model_global_throughput_bps.iloc[0] / 1e6:.2f} Mbit/s →")
    # F-RTO: the mean over the model's repetitions, with their spread
    frto = _recorded_case(2, "uncoupled", "frto")
    none = _recorded_case(2, "uncoupled", "none")
    assert len(frto) == 3
    change = 100 * (frto.model_global_throughput_bps.mean() / none.model_global_throughput_bps.iloc[0] - 1)
    assert f.loc["scenario 2, uncoupled: F-RTO relative to no algorithm",
                 "papers' simulator (run here)"].startswith(f"{change:.0f} % (95 % CI")
    assert "3 repetitions" in f.loc["scenario 2, uncoupled: F-RTO relative to no algorithm", "verdict"] or \
        f.loc["scenario 2, uncoupled: F-RTO relative to no algorithm", "verdict"] in ("reproduced", "partly",
                                                                                     "not reproduced")
    # the best combination on the model, from the CSV: the verdict follows it
    t = pd.read_csv(CSV)
    s2 = t[(t.scenario == 2) & ~t.variate_delay & t.reordering.isin(ex.REORDERING)]
    best = s2.groupby(["congestion", "reordering"]).model_global_throughput_bps.mean().idxmax()
    want = "reproduced" if best == ("uncoupled", "dsack") else None
    got = f.loc["scenario 2: the best combination is DSACK + uncoupled", "verdict"]
    assert (got == want) if want else got != "reproduced"
    with pytest.raises(ValueError, match="missing columns"):
        pa.chapter_sources(t.drop(columns=["model_global_throughput_bps"]))


def test_comparison_needs_exactly_one_run_length():
    s, tr = _synthetic(modern=False)
    with pytest.raises(ValueError, match="exactly one of transfer_bytes and duration_s"):
        cmp.comparison(s, tr, loss_rate=0.0, receive_buffer_bytes=1 << 20, decider="chihani")
    with pytest.raises(ValueError, match="references"):
        cmp.comparison(s, tr, loss_rate=0.0, receive_buffer_bytes=1 << 20, duration_s=1.0, decider="chihani",
                       references="rfc")


@pytest.mark.parametrize("ratio,want", [(1.2, "reproduced"), (0.95, "partly"), (0.9499, "not reproduced")])
def test_best_combination_at_the_tie_band(ratio, want):
    """DSACK + uncoupled best → reproduced; within 5 % of the best (a tie) → partly; else not."""
    s, tr = _synthetic(modern=False)
    top = s[(s.preset == "chihani") & (s.scenario == 2)].mean_bps.max()
    if ratio < 1:   # another combination on top, DSACK + uncoupled at ``ratio`` of it
        s = _scaled(s, scenario=2, reordering="eifel", congestion="uncoupled", factor=(top / ratio) / (8e6 * 1.3 * 0.6))
    v = _verdicts(_compare(s, tr))
    assert v["scenario 2: the best combination is DSACK + uncoupled"] == want


def test_differs_column_names_the_references_that_decide_otherwise():
    s, tr = _synthetic(modern=False)
    s = _scaled(s, scenario=2, reordering="eifel", factor=3.0, preset="rfc")   # RFC: Eifel best, Eifel +80 %
    c = _compare(s, tr)
    f = c.frame().set_index("claim")
    assert f.loc["scenario 2: the best combination is DSACK + uncoupled", cmp.DIFFERS] == "RFC: not reproduced"
    assert f.loc["scenario 2: the best combination is DSACK + uncoupled", "verdict"] == "reproduced"
    assert f.loc["scenario 1, no algorithm: LIA's throughput is the same as uncoupled", cmp.DIFFERS] == "no"
    v = c.verdicts().set_index("claim")
    assert list(v.columns) == ["chihani", "rfc"]
    d = c.disagreements("rfc")
    assert "scenario 2: the best combination is DSACK + uncoupled" in set(d.claim)
    assert set(d.claim) == set(v.index[(v.chihani != v.rfc)])
    with pytest.raises(ValueError, match="other"):
        c.disagreements("chihani_ns3")


def test_late_ratio_takes_each_runs_own_second_half():
    """Transfers of fixed size end at different times: each run's own second half counts."""
    rows = []
    for ro, n, late in (("none", 10, 1.0), ("frto", 20, 0.25)):
        for i in range(n):
            rows.append(dict(setting="main", scenario=2, preset="x", scheduler="round_robin", congestion="lia",
                             reordering=ro, time_s=i + 0.5, mean_bps=(late if i >= n / 2 else 1.0) * 4e6))
    tr = pd.DataFrame(rows)
    # none's second half (5..10 s) at 4 Mbit/s, F-RTO's (10..20 s) at 1 Mbit/s
    assert cmp.late_ratio(tr, preset="x", scenario_id=2, reordering="frto") == pytest.approx(0.25)


def test_calibrated_frto_reads_the_models_clock_of_its_seed():
    from cmtlab.papers_sim import frto_clock

    sc = ex.scenario(1, "lia", "frto", preset="chihani_ns3", transfer_bytes=300_000, seed=2)
    assert sc.duration_s is None and sc.transfer_bytes == 300_000
    run = ex.with_frto_clock(sc)
    assert dict(run.reordering_params)["clock"] == frto_clock(2) != frto_clock(1)
    assert ex.with_frto_clock(ex.with_frto_clock(sc)) == run                # an explicit clock is kept
    other = ex.scenario(1, "lia", "frto", preset="chihani", transfer_bytes=300_000)
    assert ex.with_frto_clock(other) is other
    r = ex.simulate(sc)
    assert r.scenario is sc and r.extra["frto_clock"] == frto_clock(2)       # the sweep's cache key stays the asked one
    with pytest.raises(ValueError, match="transfer_bytes"):
        ex.scenario(1, "lia", "none", transfer_bytes=0)


def test_sources_over_time_validates_its_inputs():
    import matplotlib
    matplotlib.use("Agg")
    from cmtlab.papers.arabi import figures

    _, tr = _synthetic(modern=False)
    fig = figures.sources_over_time(tr, scenario_id=2, congestion="uncoupled", sources=("chihani", "rfc", "absent"))
    assert len([a for a in fig.axes if a.get_visible() and a.lines]) == 2       # one panel per source present
    assert len(fig.axes[0].lines) == len(ex.REORDERING)
    assert figures.fig8(tr, sources=("rfc",)).axes and figures.fig9(tr, sources=("rfc",)).axes
    for kw, match in ((dict(scenario_id=3), "scenario_id"), (dict(congestion="bbr"), "congestion"),
                      (dict(sources=()), "sources"), (dict(sources="rfc"), "sources"),
                      (dict(sources=("chihani_ns3",)), "no traces")):
        args = {**dict(scenario_id=2, congestion="uncoupled", sources=("rfc",)), **kw}
        with pytest.raises(ValueError, match=match):
            figures.sources_over_time(tr, **args)


def test_loss_free_table_tells_a_tie_from_a_spread():
    s, _ = _synthetic(modern=False)
    s = s.copy()
    s.loc[s.preset == "rfc", "mean_bps"] = 5e6          # RFC: every algorithm the same
    t = cmp.loss_free_table(s).set_index("source")
    assert bool(t.loc[RFC, "algorithms tie"]) and t.loc[RFC, "largest spread"] == 0.0
    assert not t.loc[HERE, "algorithms tie"] and t.loc[HERE, "largest spread"] == pytest.approx(1.2 / 0.6 - 1)
    assert t.loc[HERE, "fast retransmits per run"] == 3.0
    with pytest.raises(ValueError, match="chihani_ns3"):
        cmp.loss_free_table(s, sources=["chihani_ns3"])


def test_disagreements_are_explained_with_the_runs_counters():
    s, tr = _synthetic(modern=False)
    s2 = s[s.preset == "chihani"].assign(preset=cmp.PAPERS_SIM_GOODPUT)
    s = pd.concat([s, s2], ignore_index=True)
    c = _compare(s, tr, references=("rfc",))
    assert cmp.explain_disagreements(c, s, other="rfc", model=cmp.PAPERS_SIM_GOODPUT).startswith("On no claim")
    s = _scaled(s, scenario=2, reordering="eifel", factor=3.0, preset="rfc")
    s.loc[(s.preset == "rfc") & (s.reordering == "eifel"), "fast_retransmits"] = 17.0
    c = _compare(s, tr, references=("rfc",))
    text = cmp.explain_disagreements(c, s, other="rfc", model=cmp.PAPERS_SIM_GOODPUT)
    assert "**scenario 2: the best combination is DSACK + uncoupled**" in text
    assert "Eifel: goodput 18.72 vs 6.24 Mbit/s (+200%), fast retransmits 17 vs 3" in text
    assert "more than 5 %" not in text          # the calibration's reasons describe the calibrated preset only
    forced = cmp.explain_disagreements(c, s, other="rfc", model=cmp.PAPERS_SIM_GOODPUT, reasons=True)
    assert "more than 5 %: Eifel: " in forced
    n = cmp.chapter_numbers(s, c, preset="chihani")
    assert n["arabi_n_differ_rfc"] == len(c.disagreements("rfc")) > 0 and n["arabi_n_differ_preset"] == 0


def test_earlier_cases_are_the_old_imitation_with_random_loss_under_their_own_label():
    cases = ex.earlier_cases(scenarios=(2,), congestion=("lia",), reordering=("none", "eifel"), duration_s=2.0)
    assert [lab["preset"] for lab, _ in cases] == [ex.EARLIER] * 2
    sc = cases[0][1]
    assert sc.dupack_mode == "chihani" and sc.duration_s == 2.0 and {l.rate for l in sc.loss} == {ex.EARLIER_LOSS_RATE}
    assert cmp.source_label(ex.EARLIER).startswith("earlier chapter") and ex.EARLIER in cmp.REFERENCES


def test_undecided_at_different_counts_is_not_a_different_decision():
    assert not cmp._differ("undecided at 3 repetitions", "undecided at 5 seeds")
    assert cmp._differ("undecided at 3 repetitions", "not reproduced")
    assert not cmp._differ(NOT_ASSESSED, "reproduced") and not cmp._differ("partly", "partly")
