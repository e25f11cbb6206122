"""cmtlab.alheid.experiments: the scenarios of Alheid et al.'s Figs. 4-6 and their metrics."""

from __future__ import annotations

import pandas as pd
import pytest

from cmtlab.alheid import experiments as ex


def test_scenario_is_the_papers_topology():
    sc = ex.scenario("PR-R", distance_m=50, pdr2=0.005, seed=3)
    assert sc.n_subflows == 2 and sc.backbone_bps == 100e6 and sc.backbone_delay_s == 0.010
    assert sc.segment_bytes == 1400 and sc.receive_buffer_bytes == 10_000_000 and sc.duration_s == 50.0
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
