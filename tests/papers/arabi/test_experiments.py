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
