"""cmtlab.papers.alheid.experiments: the scenarios of Alheid et al.'s Figs. 4-6 and their metrics."""

from __future__ import annotations

import json
import math

import pandas as pd
import pytest

from cmtlab.papers.alheid import experiments as ex


def test_scenario_is_the_papers_topology():
    sc = ex.scenario("PR-R", distance_m=50, pdr2=0.005, seed=3)
    assert sc.n_subflows == 2 and sc.backbone_bps == 100e6 and sc.backbone_delay_s == 0.010
    assert sc.segment_bytes == 1400 and sc.receive_buffer_bytes == 10_000_000 and sc.duration_s == 50.0
    assert sc.options.receive_buffer_bytes == 10_000_000  # one window for the connection and its subflows
    assert sc.congestion == "lia" and dict(sc.congestion_params) == {"variant": "chihani"}
    assert sc.reordering == "pr-r" and sc.dupack_mode == "paper" and sc.seed == 3
    (n0, p0), (n1, p1) = sc.links
    assert n0 == n1 == "wifi80211g" and dict(p0)["distance_m"] == dict(p1)["distance_m"] == 50.0
    assert "pdr" not in dict(p0) and dict(p1)["pdr"] == 0.005          # the PDR is on subflow 2 only
    assert ex.scenario("D-SACK").options.sack and not ex.scenario("NoPR").options.sack
    rfc = ex.scenario("D-SACK", preset="rfc")
    assert rfc.dupack_mode == "rfc" and dict(rfc.reordering_params) == {"variant": "rfc"}
    assert dict(ex.scenario("TCP-DOOR", preset="chihani").reordering_params) == {"variant": "chihani"}
    assert ex.scenario("NoPR", congestion="olia").congestion_params == ()
    one = ex.scenario("NoPR", n_paths=1)
    assert one.n_subflows == 1 and one.congestion == "newreno"
    with pytest.raises(ValueError, match="solution"):
        ex.scenario("RACK")
    with pytest.raises(ValueError, match="preset"):
        ex.scenario("NoPR", preset="linux")


def test_cases_cover_the_grid():
    cases = ex.fig4_cases([10, 70], single_tcp=True, duration_s=1.0)
    labels = pd.DataFrame([lab for lab, _ in cases])
    assert len(cases) == 2 * 4 + 2
    assert set(labels.solution) == set(ex.SOLUTION_ORDER) | {"single TCP"}
    c5 = ex.fig5_cases([0.0, 0.009], duration_s=1.0, schedulers=("round_robin", "lowest_rtt"))
    assert len(c5) == 2 * 4 * 2 and {lab["sched"] for lab, _ in c5} == {"round_robin", "lowest_rtt"}


def test_metrics_and_confidence_intervals():
    cases = ex.fig5_cases([0.0, 0.02], duration_s=1.5, solutions=("NoPR", "PR-R"))
    df = ex.run(cases, seeds=range(2), workers=1, progress=False)
    assert len(df) == 8
    assert (df.gthroughput_mbps > 1).all() and (df.ooo_r_pct.between(0, 100)).all()
    assert (df.lu_pct > 0).all() and (df.lu_pct <= df.lu_air_pct + 1e-9).all()  # duplicates count only on the air
    # the PDR drops subflow 2's packets only
    lossy = df[df.pdr2 == 0.02]
    assert (lossy.sf1_loss_drops > 0).all() and (lossy.sf0_loss_drops == 0).all()
    s = ex.summarise(df, ["pdr2", "solution"])
    assert (s.n_seeds == 2).all() and (s.gthroughput_mbps_ci95 >= 0).all()
    imp = ex.improvement_pct(s, "pdr2")
    assert (imp["NoPR"] == 0).all()


def test_fig6_traces_give_both_subflows_for_each_solution():
    cwnd, rows = ex.fig6_traces(duration_s=1.0, solutions=("NoPR", "TCP-DOOR"), progress=False)
    assert set(cwnd.solution) == {"NoPR", "TCP-DOOR"} and set(cwnd.subflow) == {0, 1}
    summ = ex.cwnd_summary(cwnd)
    assert len(summ) == 4 and (summ.mean_cwnd_segments > 0).all()
    assert len(rows) == 2


# ---------------------------------------------------------------- Table I (A1)

from cmtlab.papers.alheid import table1 as t1  # noqa: E402


def test_table1_delay_difference_readings():
    assert t1.path_rtts_s(0.1, "rtt") == pytest.approx((0.02, 0.12))
    assert t1.path_rtts_s(0.1, "one_way") == pytest.approx((0.02, 0.22))
    assert t1.path_rtts_s(0.0, "one_way") == pytest.approx((0.02, 0.02))
    with pytest.raises(ValueError, match="meaning"):
        t1.path_rtts_s(0.1, "forward")
    with pytest.raises(ValueError, match="delta_s"):
        t1.path_rtts_s(-0.1)


def test_table1_scenario_fields():
    sc = t1.scenario(500, "one_way", seed=4)
    assert sc.bandwidths_bps == (10e6, 10e6) and sc.delays_s == pytest.approx((0.02, 1.02))
    assert sc.reordering == "dsack" and sc.options.sack and dict(sc.reordering_params) == {"variant": "rfc"}
    assert sc.congestion == "lia" and dict(sc.congestion_params) == {"variant": "spec"} and sc.dupack_mode == "rfc"
    # one window for the connection and its subflows
    assert sc.receive_buffer_bytes == sc.options.receive_buffer_bytes == 10_000_000
    assert sc.ssthresh_bytes == t1.UNBOUNDED_SSTHRESH_BYTES and sc.segment_bytes == 1400 and sc.m_ack == 1
    assert [lm.rate for lm in sc.loss] == [1e-5, 1e-5] and sc.seed == 4 and sc.duration_s == 50.0
    small = t1.scenario(100, **t1.setup("receive buffer 128 KiB"))
    assert small.receive_buffer_bytes == small.options.receive_buffer_bytes == 131072
    paper = t1.scenario(100, **t1.setup("paper's model preset"))
    assert paper.dupack_mode == "paper" and dict(paper.reordering_params) == {"variant": "chihani"}
    assert t1.scenario(100, congestion="olia").congestion_params == ()
    one = t1.scenario(500, n_paths=1)
    assert one.n_subflows == 1 and one.congestion == "newreno" and one.delays_s == (0.02,)
    assert all(lm.unit == "none" for lm in t1.scenario(0, loss_rate=0.0).loss)
    with pytest.raises(ValueError, match="loss_rate"):
        t1.scenario(0, loss_rate=1.0)
    with pytest.raises(ValueError, match="preset"):
        t1.scenario(0, preset="linux")
    with pytest.raises(ValueError, match="setup"):
        t1.setup("huge buffer")
    with pytest.raises(ValueError, match="unknown setup field"):
        t1.setup("base", rcvbuf=1)


def test_table1_cases_and_seeds():
    cases = t1.cases(variants=tuple(t1.VARIANTS), setups=("base", "no residual loss"), duration_s=1.0)
    labels = pd.DataFrame([lab for lab, _ in cases])
    # per setup: 4 variants x (Δ = 0 once + 2 readings x 2 Δ) + one single-path TCP reference
    assert len(cases) == 2 * (4 * 5 + 1)
    assert (labels[labels.paths == 1].variant == "single TCP").all() and (labels.paths == 1).sum() == 2
    assert set(labels.meaning) == {"both", "rtt", "one_way", "-"}
    with pytest.raises(ValueError, match="variant"):
        t1.cases(variants=("round robin + CUBIC",))
    assert t1.seeds_for("no residual loss", 5) == [0] and t1.seeds_for("base", 3) == [0, 1, 2]


def test_table1_gains_fall_with_the_delay_difference():
    cases = t1.cases((0, 500), ("rtt",), duration_s=4.0)
    runs = t1.run(cases, seeds=range(2), workers=1, progress=False)
    g = t1.gains(runs)
    assert set(g.delta_ms) == {0.0, 500.0} and (g.n == 2).all()
    g0, g500 = t1.gain_of(g, 0), t1.gain_of(g, 500)
    assert 80 < g0 <= 101          # two equal paths: about twice one TCP
    assert g500 < g0 - 20          # the long path cannot be filled in a short run
    assert t1.gain_of(g, 500, column="rtt2_ms") == pytest.approx(520)
    assert (g.gain_ci95_pct >= 0).all() and (g.share2.between(0, 1)).all()
    assert g.paper_linux_pct.tolist() == [94.0, 23.0] and g.paper_ns3_pct.tolist() == [90.0, 20.0]
    assert math.isnan(t1.gain_of(g, 100))


def test_kernel_gains_are_read_from_the_stored_chapter(tmp_path):
    assert t1.kernel_gains_from_chapter(tmp_path / "missing.ipynb").empty
    def glued(name, value):
        return {"output_type": "display_data", "metadata": {"scrapbook": {"name": name}},
                "data": {"application/papermill.record/text/plain": repr(value)}}  # glue(..., display=False)
    nb = {"cells": [{"cell_type": "code", "outputs": [glued("tb_gain_reno_rtt_500", 49.75),
                                                      glued("tb_gain_cubic_one_way_100", 96.4),
                                                      glued("tb_gain_reno_rtt_0", float("nan")),
                                                      glued("tb_ping_err_ms", 0.3)]}]}
    p = tmp_path / "nb.ipynb"
    p.write_text(json.dumps(nb))
    k = t1.kernel_gains_from_chapter(p)
    assert k.to_dict("records") == [dict(congestion="reno", meaning="rtt", delta_ms=500.0, gain_pct=49.75),
                                    dict(congestion="cubic", meaning="one_way", delta_ms=100.0, gain_pct=96.4)]


def test_prr_ssthresh_rule_reaches_the_scenario():
    assert ex.scenario("PR-R").reordering_params == ()           # Algorithm 1 ("keep") is the response's default
    assert dict(ex.scenario("PR-R", prr_ssthresh="cwnd").reordering_params) == {"ssthresh": "cwnd"}
    assert ex.scenario("NoPR", prr_ssthresh="cwnd").reordering_params == ()  # only PR-R has the rule
    with pytest.raises(ValueError, match="prr_ssthresh"):
        ex.scenario("PR-R", prr_ssthresh="half")


def test_recovery_reaches_the_scenario_and_the_case_labels():
    assert ex.scenario("NoPR").options.recovery == "newreno"               # the default is unchanged
    assert ex.scenario("NoPR").key() == ex.scenario("NoPR", recovery="newreno").key()
    for sol in ex.SOLUTION_ORDER:
        assert ex.scenario(sol, recovery="chihani").options.recovery == "chihani"
    assert ex.scenario("NoPR", n_paths=1, recovery="chihani").options.recovery == "chihani"
    assert ex.scenario("D-SACK", recovery="chihani").options.sack                 # other options kept
    cases = ex.fig4_cases([50], recovery="chihani", single_tcp=True, duration_s=1.0)
    assert {lab["recovery"] for lab, _ in cases} == {"chihani"}
    assert {sc.options.recovery for _, sc in cases} == {"chihani"}
    assert {sc.options.recovery for _, sc in ex.fig5_cases([0.001], recovery="chihani")} == {"chihani"}
    assert {lab["recovery"] for lab, _ in ex.fig4_cases([50])} == {"newreno"}
    for bad in ("prr", "reno", None):
        with pytest.raises(ValueError, match="recovery"):
            ex.scenario("NoPR", recovery=bad)
        with pytest.raises(ValueError, match="recovery"):
            ex.fig4_cases([50], recovery=bad)


def test_chihani_recovery_halves_unless_the_response_kept_the_window():
    from types import SimpleNamespace

    from cmtlab.sim.models.chihani import ChihaniRecovery
    from cmtlab.sim.tcp.decisions import FastRetransmitDecision as D

    for decision, after in ((D.REDUCE, 5 * 1400), (D.KEEP_WINDOW, 10 * 1400)):
        sub = SimpleNamespace(cwnd=10 * 1400, seg=1400, cc=None)
        rec = ChihaniRecovery()
        rec.enter(sub, 3, 10 * 1400, 0, decision)
        assert sub.cwnd == after
        sub.cwnd = 2 * 1400          # the sender sets cwnd = ssthresh at the end of the recovery
        rec.exit(sub)
        assert sub.cwnd == after


def test_prr_never_reduces_so_the_loss_response_changes_only_nopr():
    from cmtlab.sim.multipath import run_mptcp

    def row(sol, rec):
        return run_mptcp(ex.scenario(sol, distance_m=50, duration_s=2.0, recovery=rec)).row()

    a, b = row("PR-R", "newreno"), row("PR-R", "chihani")
    assert a["fast_retransmits"] > 0
    for k in ("gthroughput_bps", "fast_retransmits", "timeouts", "data_segments_sent"):
        assert a[k] == b[k], k
    n, c = row("NoPR", "newreno"), row("NoPR", "chihani")
    assert c["fast_retransmits"] > 0 and c["gthroughput_bps"] != n["gthroughput_bps"]


# ---------------------------------------------------------------- tables and comparisons of A2-A4

from cmtlab.papers.alheid import comparison as comp  # noqa: E402


def _summary(x, values, *, ooo_bo=100.0, ooo_r=50.0, lu=None, single=None):
    """A summary as ex.summarise gives it: ``values`` maps (point, solution) -> gThroughput (Mbit/s)."""
    rows = []
    for (p, sol), g in values.items():
        rows.append({x: float(p), "solution": sol, "gthroughput_mbps": g, "ooo_bo_kbyte": ooo_bo, "ooo_r_pct": ooo_r,
                     "lu_pct": (lu or {}).get((p, sol), g / 54 * 100 / 2)})
    for p, g in (single or {}).items():
        rows.append({x: float(p), "solution": "single TCP", "gthroughput_mbps": g, "ooo_bo_kbyte": 0.0,
                     "ooo_r_pct": 0.0, "lu_pct": g / 54 * 100})
    return pd.DataFrame(rows)


def test_best_at_lists_ties_within_one_percent():
    wide = pd.DataFrame({"NoPR": [10.0, 10.0], "D-SACK": [20.0, 30.0], "TCP-DOOR": [19.9, 20.0], "PR-R": [19.7, 10.0]},
                        index=[50.0, 70.0])
    assert comp.best_at(wide, 50.0) == "D-SACK = TCP-DOOR"        # 19.9 within 1 %, 19.7 (1.5 % lower) not
    assert comp.best_at(wide, 70.0) == "D-SACK"
    assert comp.best_at(wide, 50.0, tol=0.02) == "D-SACK = TCP-DOOR = PR-R"


def test_mean_improvement_averages_the_percentages_over_the_named_points():
    s = _summary("distance_m", {(10, "NoPR"): 10.0, (10, "PR-R"): 11.0, (60, "NoPR"): 2.0, (60, "PR-R"): 3.0})
    imp = ex.improvement_pct(s, "distance_m")
    assert comp.mean_improvement(imp, "PR-R", [10.0]) == pytest.approx(10.0)
    # mean of +10 % and +50 %, not 14/12 - 1 = 16.7 % of the summed throughputs
    assert comp.mean_improvement(imp, "PR-R", [10.0, 60.0]) == pytest.approx(30.0)
    with pytest.raises(ValueError, match="at least one point"):
        comp.mean_improvement(imp, "PR-R", [])
    with pytest.raises(KeyError):
        comp.mean_improvement(imp, "PR-R", [30.0])


def test_variant_change_is_relative_for_throughput_and_in_points_otherwise():
    rows = []
    for var, g, r in (("round_robin + lia", 10.0, 50.0), ("lowest_rtt + lia", 20.0, 45.0), ("round_robin + olia", 9.0, 50.0)):
        for p in (0.001, 0.009):
            for sol in ex.SOLUTION_ORDER:
                rows.append({"variant": var, "pdr2": p, "solution": sol, "gthroughput_mbps": g, "ooo_r_pct": r})
    mod_s = pd.DataFrame(rows)
    c = comp.variant_change(mod_s, "lowest_rtt + lia", "gthroughput_mbps", "pdr2")
    assert set(c.index) == set(ex.SOLUTION_ORDER) and c.tolist() == pytest.approx([100.0] * 4)
    assert comp.variant_change(mod_s, "lowest_rtt + lia", "ooo_r_pct", "pdr2").tolist() == pytest.approx([-5.0] * 4)
    md = comp.variant_changes_markdown(mod_s, "pdr2", metrics=("gthroughput_mbps", "ooo_r_pct"), over="the PDRs")
    assert md.startswith("Changes against round robin + LIA (mean over the PDRs):")
    assert "**lowest-RTT scheduler** instead of round robin: gThroughput NoPR +100 %" in md
    assert "OOO-R NoPR -5.0 points" in md and "**OLIA** instead of LIA: gThroughput NoPR -10 %" in md
    only_olia = comp.variant_changes_markdown(mod_s[mod_s.variant != "lowest_rtt + lia"], "pdr2")
    assert "lowest-RTT" not in only_olia and "OOO-R" not in only_olia


def test_prr_rule_cases_and_their_comparison():
    cases = ex.prr_rule_cases([50, 70], duration_s=1.0)
    labels = pd.DataFrame([lab for lab, _ in cases])
    assert len(cases) == 4 and set(labels.solution) == {"PR-R"}
    assert labels.prr_ssthresh.tolist() == ["keep", "keep", "cwnd", "cwnd"]
    assert [dict(sc.reordering_params) for _, sc in cases] == [{}, {}, {"ssthresh": "cwnd"}, {"ssthresh": "cwnd"}]
    assert {lab["pdr2"] for lab, _ in ex.prr_rule_cases([0.005], cases=ex.fig5_cases, duration_s=1.0)} == {0.005}
    with pytest.raises(ValueError, match="rules"):
        ex.prr_rule_cases([50], rules=("keep", "half"))
    rules = pd.DataFrame({"distance_m": [50.0, 50.0, 70.0, 70.0], "prr_ssthresh": ["keep", "cwnd"] * 2,
                          "gthroughput_mbps": [10.0, 8.0, 5.0, 5.0], "fast_retransmits": [1, 2, 3, 4],
                          "timeouts": [0, 0, 1, 1]})
    rule_s = comp.rule_table(rules, "distance_m")
    assert rule_s.loc[(50.0, "cwnd"), "fast_retransmits"] == 2
    assert comp.max_rule_difference_pct(rule_s) == pytest.approx(25.0)     # 10 / 8 - 1


def test_diagnostics_leave_out_single_tcp_and_other_points():
    runs = pd.DataFrame({"distance_m": [50.0, 50.0, 50.0, 70.0, 50.0], "solution": ["NoPR", "NoPR", "single TCP", "NoPR", "PR-R"],
                         "timeouts": [1.0, 3.0, 100.0, 50.0, 7.0]})
    d = comp.diagnostics(runs, "distance_m", [50], ["timeouts"])
    assert d.index.tolist() == [(50.0, "NoPR"), (50.0, "PR-R")] and d.timeouts.tolist() == [2.0, 7.0]


def test_fig6_runs_include_the_plotted_seed():
    trace, cw_summary, rows = ex.fig6_runs(n_seeds=1, plot_seed=1, duration_s=0.5, solutions=("NoPR",), progress=False)
    assert sorted(set(cw_summary.seed)) == [0, 1] and sorted(rows.seed) == [0, 1]
    assert set(trace.solution) == {"NoPR"} and set(cw_summary.subflow) == {1, 2}
    with pytest.raises(ValueError, match="n_seeds"):
        ex.fig6_runs(n_seeds=0)


def _t1_gains(values, *, variant=t1.PAPER_VARIANT, setup_name="base"):
    """A gains frame as t1.gains gives it: ``values`` maps (meaning, Δ ms) -> gain (%)."""
    return pd.DataFrame([dict(setup=setup_name, variant=variant, meaning=m, delta_ms=float(d), gain_pct=v,
                              gain_ci95_pct=2.0, timeouts=1.0, n=4) for (m, d), v in values.items()])


def test_table1_closer_reading_and_same_gains():
    # RTT reading 40 % at 500 ms (17 + 20 pp from 23 / 20 %), one-way 10 % (13 + 10 pp): one-way is closer
    g = _t1_gains({("rtt", 0): 99, ("rtt", 500): 40, ("one_way", 0): 99, ("one_way", 500): 10})
    assert t1.closer_reading(g) == "one_way"
    assert t1.closer_reading(g, delta_ms=0) == "rtt"                    # a tie at 0 ms: the first meaning
    g2 = _t1_gains({("rtt", 0): 99, ("rtt", 500): 25, ("one_way", 0): 99, ("one_way", 500): 10})
    assert t1.closer_reading(g2) == "rtt"
    with pytest.raises(ValueError, match="delta_ms = 300: Table I has columns for"):
        t1.closer_reading(g, delta_ms=300)
    # a papermill re-run with a Δ Table I lacks: the default compares at the largest Δ it has
    g3 = pd.concat([g, _t1_gains({("rtt", 700): 5, ("one_way", 700): 80})], ignore_index=True)
    assert t1.closer_reading(g3) == "one_way"
    with pytest.raises(ValueError, match="none of the delay differences"):
        t1.closer_reading(_t1_gains({("rtt", 200): 50}))
    lrtt = _t1_gains({("rtt", 0): 99, ("rtt", 500): 40, ("one_way", 0): 99, ("one_way", 500): 10},
                     variant="lowest-RTT + LIA")
    both = pd.concat([g, lrtt], ignore_index=True)
    assert t1.same_gains(both, "lowest-RTT + LIA", (0, 500))
    assert not t1.same_gains(g, "lowest-RTT + LIA", (0, 500))           # not run
    lrtt.loc[lrtt.delta_ms == 500, "gain_pct"] += 1
    assert not t1.same_gains(pd.concat([g, lrtt], ignore_index=True), "lowest-RTT + LIA", (0, 500))



def test_check_table_points_names_the_parameters():
    from cmtlab.papers.alheid import experiments as ex

    assert ex.check_table_points("table_pdrs", [0.001], "pdrs", [0.0, 0.001, 0.009], required=(0.0,)) == [0.001]
    with pytest.raises(ValueError, match=r"table_pdrs.*0\.005.*pdrs"):
        ex.check_table_points("table_pdrs", [0.001, 0.005], "pdrs", [0.0, 0.001])
    with pytest.raises(ValueError, match=r"pdrs.*must include \[0\.0\]"):
        ex.check_table_points("table_pdrs", [0.005], "pdrs", [0.005], required=(0.0,))
    with pytest.raises(ValueError, match="table_distances_m must name at least one"):
        ex.check_table_points("table_distances_m", [], "distances_m", [50, 70])


def _recovery_runs():
    rows = []
    for rec, g_nopr in (("newreno", 10.0), ("chihani", 4.0)):
        for d in (50.0, 70.0):
            for sol, g in (("NoPR", g_nopr), ("D-SACK", 20.0), ("TCP-DOOR", 20.0), ("PR-R", 11.0)):
                for seed, dg in ((0, -1.0), (1, 1.0)):
                    rows.append({"distance_m": d, "recovery": rec, "solution": sol, "seed": seed,
                                 "gthroughput_mbps": g + dg, "fast_retransmits": 3.0 if sol in ("NoPR", "PR-R") else 0,
                                 "timeouts": 1.0, "spurious_share_pct": 40.0})
        rows.append({"distance_m": 50.0, "recovery": rec, "solution": "single TCP", "seed": 0,
                     "gthroughput_mbps": 1.0, "fast_retransmits": 0, "timeouts": 0, "spurious_share_pct": 0})
    return pd.DataFrame(rows)


def test_recovery_table_and_gains():
    rt = comp.recovery_table(_recovery_runs(), "distance_m", [50, 70])
    assert "single TCP" not in set(rt.index.get_level_values("solution"))
    assert rt.loc[(50.0, "chihani", "NoPR"), "gthroughput_mbps"] == pytest.approx(4.0)   # mean over seeds
    g = comp.recovery_gains(rt)
    assert g.loc[70.0, "newreno"] == pytest.approx(10.0)          # 11 / 10 - 1
    assert g.loc[50.0, "chihani"] == pytest.approx(175.0)         # 11 / 4 - 1
    assert list(comp.recovery_table(_recovery_runs(), "distance_m", [70]).index.unique("distance_m")) == [70.0]
    sm = comp.recovery_summary(rt, "chihani")
    assert sm["gain_alt_min"] == pytest.approx(175.0) and sm["gain_default_max"] == pytest.approx(10.0)
    assert sm["nopr_default"] == pytest.approx(10.0) and sm["nopr_alt"] == pytest.approx(4.0)
    assert sm["prr_change_pct"] == pytest.approx(0.0) and sm["nopr_alt_timeouts"] == pytest.approx(1.0)
    with pytest.raises(ValueError, match="prr"):
        comp.recovery_summary(rt, "prr")
    with pytest.raises(ValueError, match="recovery"):
        comp.recovery_table(_recovery_runs().drop(columns="recovery"), "distance_m", [50])
    with pytest.raises(ValueError, match="no multipath runs"):
        comp.recovery_table(_recovery_runs(), "distance_m", [10])


def test_timeout_causes_classify_by_the_last_cumulative_ack_advance():
    events = pd.DataFrame({"time_s": [1.0, 2.0, 3.0, 0.5], "subflow": [0, 0, 0, 1],
                           "event": ["timeout", "timeout", "timeout", "timeout"], "seq": 0, "cwnd_bytes": 0,
                           "ssthresh_bytes": 0})
    # subflow 0: the ACK advances at 0.99 s, duplicates at 1.5 and 1.7 s, advances at 1.75 and 2.9 s
    acks = pd.DataFrame({"time_s": 0.0, "subflow": 0, "arrival_s": [0.99, 1.5, 1.7, 1.75, 2.9, 2.95],
                         "ack": [10, 10, 10, 11, 12, 12]})
    tc = comp.timeout_causes(events, acks)
    by_t = dict(zip(tc.time_s, tc.cause))
    assert by_t == {1.0: "progressing", 2.0: "stall", 3.0: "other", 0.5: "stall"}   # 3.0: 100 ms after 2.9
    assert tc.set_index("time_s").since_ack_advance_s[2.0] == pytest.approx(0.25)
    assert tc.set_index("time_s").since_any_ack_s[2.0] == pytest.approx(0.25)          # 1.75 s: the last ACK
    assert tc.set_index("time_s").since_any_ack_s[3.0] == pytest.approx(0.05)
    assert tc.set_index("time_s").since_any_ack_s[0.5] == math.inf                     # no ACK at all
    assert comp.timeout_cause_counts(tc) == {"progressing": 1, "stall": 2, "other": 1}
    assert comp.timeout_cause_counts(comp.timeout_causes(events.iloc[:0], acks)) == {"progressing": 0, "stall": 0,
                                                                                     "other": 0}


def test_the_model_preset_is_the_built_models_sender_receiver_and_rate_choice():
    sc = ex.scenario("PR-R", distance_m=100, preset="chihani_ns3", recovery="chihani_ns3")
    assert sc.dupack_mode == "chihani_ns3" and sc.options.recovery == "chihani_ns3" and not sc.options.sack
    assert dict(sc.scheduler_params) == {"variant": "chihani_ns3"} and sc.reordering == "pr-r"
    assert dict(ex.scenario("D-SACK", preset="chihani_ns3", recovery="chihani_ns3").reordering_params) == \
        {"variant": "chihani_ns3"}
    for _, p in sc.links:
        assert {k: dict(p)[k] for k in ex.MODEL_WIFI_PARAMS} == ex.MODEL_WIFI_PARAMS
    assert all(k not in dict(p) for _, p in ex.scenario("PR-R").links for k in ex.MODEL_WIFI_PARAMS)
    one = ex.scenario("NoPR", n_paths=1, preset="chihani_ns3", recovery="chihani_ns3")
    assert one.n_subflows == 1 and one.scheduler_params == ()
    for preset, recovery in (("chihani_ns3", "newreno"), ("paper", "chihani_ns3"), ("chihani", "chihani_ns3")):
        with pytest.raises(ValueError, match="recovery 'chihani_ns3' goes with preset 'chihani_ns3'"):
            ex.scenario("NoPR", preset=preset, recovery=recovery)
    cases = ex.fig4_cases([10], presets=("chihani_ns3",), recovery="chihani_ns3", single_tcp=True)
    assert {sc.options.recovery for _, sc in cases} == {"chihani_ns3"} and len(cases) == 5


def test_the_model_presets_rate_is_the_stand_ins_at_every_recorded_distance():
    """With MODEL_WIFI_PARAMS the book's 802.11g model picks the rate ns-3.7's IdealWifiManager picked in the
    recorded runs; with the chapters' (ns-3.44's) parameters it does not at 100 m."""
    from cmtlab.validation.papers_sim_wifi import rate_difference, rate_differences

    assert rate_differences("chihani_ns3") == []
    far = rate_difference(100.0, "paper")
    assert (far["book_rate_mbps"], far["model_rate_mbps"]) == (6.0, 9.0) and far["saturation_ratio"] < 0.8
    assert [r["distance_m"] for r in rate_differences("paper")] == [100.0]


def test_the_model_sender_restarts_its_timer_on_every_partial_ack(monkeypatch):
    """PR-R keeps its window, so the engine's recovery lasts; the model (NewACK) restarts the retransmission timer
    on every ACK of new data and has no timeout in these runs — the engine's RFC 6582 timer (first partial ACK
    only) fires within the first second."""
    from cmtlab.sim.models.chihani import ChihaniNs3Recovery
    from cmtlab.sim.multipath import run_mptcp

    sc = ex.scenario("PR-R", distance_m=10, duration_s=2.0, preset="chihani_ns3", recovery="chihani_ns3")
    good = run_mptcp(sc).row()
    assert good["timeouts"] == 0 and good["fast_retransmits"] > 50
    monkeypatch.setattr(ChihaniNs3Recovery, "partial_ack_restarts_timer", False)
    assert run_mptcp(sc).row()["timeouts"] > 0
