"""cmtlab.validation.ns3: scenario builders, the Mathis law, comparison tables, and one real cross-check."""

import numpy as np
import pandas as pd
import pytest

from cmtlab.validation import ns3 as validation
from cmtlab.validation.theory import mathis_throughput_bps
from cmtlab.scenario import striped_scenario


def test_mathis_law_matches_hand_computation_and_scales():
    # MSS 536 B, RTT 100 ms, p = 1 %: 536*8/0.1 * sqrt(3/4) / 0.1
    assert mathis_throughput_bps(536, 0.1, 0.01, segments_per_ack=2) == pytest.approx(42880 * np.sqrt(0.75) / 0.1)
    assert mathis_throughput_bps(536, 0.1, 0.01, segments_per_ack=1) == pytest.approx(42880 * np.sqrt(1.5) / 0.1)
    r = mathis_throughput_bps(536, [0.05, 0.1], [0.01, 0.04], segments_per_ack=2)
    assert r[0] / r[1] == pytest.approx(4.0)  # half the RTT and a quarter of the loss: 2 x 2
    for kwargs, name in ((dict(rtt_s=0.0, loss_rate=0.01), "rtt_s"), (dict(rtt_s=0.1, loss_rate=0.0), "loss_rate"),
                         (dict(rtt_s=0.1, loss_rate=1.0), "loss_rate")):
        with pytest.raises(ValueError, match=name):
            mathis_throughput_bps(536, segments_per_ack=2, **kwargs)


def test_mathis_applies_only_when_loss_limits_the_window():
    grid = dict((lab["case"], (lab, sc)) for lab, sc in
                validation.single_link_grid([2e6, 50e6], [0.01, 0.2], [0.0, 1e-2], transfer_bytes=100_000))
    assert len(grid) == 8
    assert not grid["50 Mbit/s, 10 ms, p=0"][0]["mathis_applies"]       # no loss
    assert grid["50 Mbit/s, 10 ms, p=0.01"][0]["mathis_applies"]         # 3.7 Mbit/s << 50 Mbit/s
    assert not grid["2 Mbit/s, 10 ms, p=0.01"][0]["mathis_applies"]      # link-limited
    lab, sc = grid["50 Mbit/s, 200 ms, p=0.01"]
    assert sc.n_links == 1 and not sc.tunnel and sc.loss[0].rate == 0.01
    assert lab["mathis_bps"] == pytest.approx(mathis_throughput_bps(536, 0.2, 0.01, segments_per_ack=2))


def test_builders_make_valid_distinct_scenarios():
    rnd = validation.random_link_sets(6, link_counts=(2, 3), transfer_bytes=10_000, seed=3)
    assert [sc.n_links for _, sc in rnd] == [2, 3, 2, 3, 2, 3]
    assert len({sc.key() for _, sc in rnd}) == 6
    again = validation.random_link_sets(6, link_counts=(2, 3), transfer_bytes=10_000, seed=3)
    assert [sc.key() for _, sc in rnd] == [sc.key() for _, sc in again]
    field = validation.field_link_sets(range(2, 5), transfer_bytes=10_000)
    assert [sc.n_links for _, sc in field] == [2, 3, 4] and field[0][1].bandwidths_bps == (35.9e6, 18.4e6)
    variants = validation.option_variants([10e6, 5e6], [0.02, 0.06], transfer_bytes=10_000)
    assert len({sc.options for _, sc in variants}) == len(variants)
    with pytest.raises(ValueError, match="rate_range_bps"):
        validation.random_link_sets(2, rate_range_bps=(0, 1e6), transfer_bytes=10_000)


def test_compare_joins_runs_and_refuses_mismatched_tables():
    a = pd.DataFrame({"case": ["x", "y"], "seed": [0, 0], "throughput_bps": [110.0, 90.0]})
    b = pd.DataFrame({"case": ["y", "x"], "seed": [0, 0], "throughput_bps": [100.0, 100.0]})
    c = validation.compare(a, b).set_index("case")
    assert c.loc["x", "rel_diff"] == pytest.approx(0.1) and c.loc["y", "rel_diff"] == pytest.approx(-0.1)
    s = validation.agreement_summary(c.reset_index())
    assert s.median_abs_diff.iloc[0] == pytest.approx(0.1)
    with pytest.raises(ValueError, match="same runs"):
        validation.compare(a, b.assign(case=["y", "z"]))


def test_cmtlab_agrees_with_ns3_on_a_striped_and_a_lossy_single_link_scenario():
    pytest.importorskip("ns")
    from cmtlab import ns3, sim
    from cmtlab.scenario import LossModel
    cases = [striped_scenario([10e6, 5e6, 2e6], [0.03, 0.07, 0.05], transfer_bytes=400_000, options="ns3-2018"),
             striped_scenario([5e6], [0.08], transfer_bytes=400_000, tunnel=False, loss=LossModel("packet", 0.01),
                              seed=4)]
    for sc in cases:
        a, b = sim.run(sc), ns3.run(sc)
        assert a.completed and b.completed
        assert a.throughput_bps == pytest.approx(b.throughput_bps, rel=0.01)
        assert a.data_segments_sent == pytest.approx(b.data_segments_sent, rel=0.01)


def test_compare_flags_runs_whose_counters_differ():
    base = dict(case=["x", "y"], seed=[0, 0], throughput_bps=[100.0, 100.0], data_segments_sent=[10, 10],
                retransmissions=[0, 1], fast_retransmits=[0, 1], timeouts=[0, 0])
    a = pd.DataFrame(base)
    b = pd.DataFrame({**base, "retransmissions": [0, 2]})
    c = validation.compare(a, b)
    assert c.same_counters.tolist() == [True, False]
    assert validation.agreement_summary(c).same_counters.iloc[0] == pytest.approx(0.5)
