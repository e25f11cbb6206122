"""cmtlab.alheid.experiments: the scenarios of Alheid et al.'s Figs. 4-6 and their metrics."""

from __future__ import annotations

import json
import math

import pandas as pd
import pytest

from cmtlab.alheid import experiments as ex


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
    assert ex.t95(2) == pytest.approx(12.706, abs=1e-3) and ex.t95(30) == pytest.approx(2.045, abs=1e-3)
    imp = ex.improvement_pct(s, "pdr2")
    assert (imp["NoPR"] == 0).all()


def test_fig6_traces_give_both_subflows_for_each_solution():
    cwnd, rows = ex.fig6_traces(duration_s=1.0, solutions=("NoPR", "TCP-DOOR"), progress=False)
    assert set(cwnd.solution) == {"NoPR", "TCP-DOOR"} and set(cwnd.subflow) == {0, 1}
    summ = ex.cwnd_summary(cwnd)
    assert len(summ) == 4 and (summ.mean_cwnd_segments > 0).all()
    assert len(rows) == 2


# ---------------------------------------------------------------- Table I (A1)

from cmtlab.alheid import table1 as t1  # noqa: E402


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
    assert set(g.delta_ms) == {0.0, 500.0} and (g.n_seeds == 2).all()
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
