"""Issue 35's distance figure: one TCP flow's goodput against the distance on the papers' simulator's
802.11g stand-in (recorded), the book's 802.11g model (live) and ns-3.44's 802.11g (recorded)."""

from __future__ import annotations

import pytest

from cmtlab.papers_sim import wifi as pw
from cmtlab.papers_sim import wifi_record
from cmtlab.validation import wifi as wv


@pytest.fixture(scope="module")
def rows():
    return wv.single_flow_distance(model_seeds=[0, 1])


def test_three_simulators_at_the_stand_ins_recorded_distances(rows):
    fig4 = wifi_record.load("alheid-fig4")
    single = fig4[fig4.solution == "single TCP"]
    assert set(rows.simulator) == {pw.STAND_IN_LABEL, wv.BOOK_MODEL_LABEL, wv.NS3_LABEL}
    stand_in = rows[rows.simulator == pw.STAND_IN_LABEL]
    assert len(stand_in) == len(single) and sorted(stand_in.goodput_bps) == sorted(single.throughput_bps)
    for name, g in rows.groupby("simulator"):
        assert set(g.distance_m) == set(single.distance_m), name
    assert (rows[rows.simulator == wv.BOOK_MODEL_LABEL].groupby("distance_m").size() == 2).all()


def test_goodput_falls_with_distance_and_stays_below_the_phy_rate(rows):
    assert (rows.goodput_bps > 0).all() and (rows.goodput_bps <= rows.phy_rate_mbps * 1e6).all()
    summary = pw.goodput_summary(rows)
    for name, g in summary.groupby("simulator"):
        g = g.sort_values("distance_m")
        assert g.goodput_bps.iloc[0] > 2 * g.goodput_bps.iloc[-1], name      # 10 m vs 100 m
        assert g.phy_rate_mbps.iloc[0] == 54.0, name
    stand_in = summary[summary.simulator == pw.STAND_IN_LABEL]
    # every recorded seed of each distance is in its mean (the plan adds seeds point by point: 5 at 10 m, 3 elsewhere)
    fig4 = wifi_record.load("alheid-fig4")
    per_point = fig4[fig4.solution == "single TCP"].groupby("distance_m").size()
    assert stand_in.set_index("distance_m").n.sort_index().tolist() == per_point.sort_index().tolist()
    plan_seeds = wifi_record.seed_count(wifi_record.load_plan("alheid-fig4"))
    lo, hi = (int(x) for x in str(plan_seeds).split("-")) if isinstance(plan_seeds, str) else (plan_seeds, plan_seeds)
    assert lo <= per_point.min() and per_point.max() <= hi
    assert stand_in.ci95_low_bps.notna().all()                                 # >= 2 seeds: an interval


def test_distances_not_recorded_are_refused_by_name():
    with pytest.raises(ValueError, match="distances_m must be among the stand-in's recorded distances"):
        wv.single_flow_distance([25.0], model_seeds=[0])
    with pytest.raises(ValueError, match="model_seeds"):
        wv.single_flow_distance(model_seeds=[])
