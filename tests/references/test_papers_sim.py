"""The papers' own simulator (cmtlab.papers_sim): build, front end, recorded results.

Tests marked by the ``built`` fixture run the Chihani–Collange model built by this test run
(``make test`` builds it first with ``make papers-sim-if-compiler``).  Without a C++ compiler they
are skipped — except under CI (``CI=true``), where they fail: CI must build and run the model.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from helpers.papers_sim import _equal

from cmtlab.papers_sim import build as bld
from cmtlab.papers_sim import model, record



# ---------------------------------------------------------------------------------------- no compiler needed

def test_patches_declare_their_kind_and_reason():
    patches = bld.patches()
    assert [p["name"][:2] for p in patches] == ["01", "02", "03", "04", "05"]
    for p in patches:
        text = p["path"].read_text()
        assert p["kind"] in bld.PATCH_KINDS
        assert re.search(r"^Why:", text, re.M), p["name"]
    behaviour = [p["path"].read_text() for p in patches if p["kind"] == "behaviour"]
    assert len(behaviour) == 2  # the header-parsing fix and PR-R (added, not in the published model)
    assert "mp-tcp-header.cc" in behaviour[0] and "PR_R" in behaviour[1]


def test_missing_compiler_is_named(monkeypatch):
    monkeypatch.setenv("CXX", "no-such-compiler-xyz")
    with pytest.raises(bld.BuildError, match="C\\+\\+ compiler"):
        bld.compiler()


def test_scenario_validation_names_the_parameter():
    ok = dict(rates_bps=[5e6, 2e6], one_way_delays_s=[0.1, 0.1])
    with pytest.raises(ValueError, match="same length"):
        model.scenario([5e6, 2e6], [0.1])
    with pytest.raises(ValueError, match="congestion must be one of"):
        model.scenario(**ok, congestion="cubic")
    with pytest.raises(ValueError, match="reordering must be one of"):
        model.scenario(**ok, reordering="rack")
    with pytest.raises(ValueError, match="loss_rate"):
        model.scenario(**ok, loss_rate=1.0)
    with pytest.raises(ValueError, match="not both"):
        model.scenario(**ok, transfer_bytes=1000, duration_s=5)
    with pytest.raises(ValueError, match="1..7 paths"):
        model.scenario([1e6] * 8, [0.01] * 8)
    with pytest.raises(ValueError, match="one_way_delays_s"):
        model.scenario([1e6], [-0.1])
    with pytest.raises(ValueError, match="variate_delay"):
        model.scenario(**ok, variate_delay="yes")
    with pytest.raises(ValueError, match="unknown scenario field"):
        model.scenario(**ok).replace(cwnd=3)


def test_names_accept_the_models_and_cmtlabs():
    assert model.congestion_name("Linked_Increases") == model.congestion_name("lia") == "linked_increases"
    assert model.congestion_name("RTT_Compensator") == model.congestion_name("rtt_compensation")
    assert model.reordering_name("D_SACK") == model.reordering_name("dsack") == "dsack"
    assert model.reordering_name("NoPR_Algo") == "none"
    sc = model.scenario([5e6], [0.1], congestion="Fully_Coupled", reordering="F_RTO", seed=3)
    cmd = sc.command("bin")
    assert "--cc=3" in cmd and "--pr=4" in cmd and f"--frto-clock={model.frto_clock(3)}" in cmd
    assert "--frto-clock" not in " ".join(sc.replace(frto_wall_clock=True).command("bin"))


def test_frto_clock_is_the_pinned_function_of_the_seed():
    """The clock of a seed is what the recorded F_RTO runs read (a changed hash would silently change which
    clock a seed means); how the seeds of the Arabi chapter spread the residues is tested with its design
    (``tests/papers/arabi/test_papers_sim_frto.py``)."""
    assert [model.frto_clock(s) for s in (0, 1, 2)] == [1341063560, 1354366987, 1348285698]
    assert all(model._FRTO_CLOCK_BASE <= model.frto_clock(s) < model._FRTO_CLOCK_BASE + 100_000_000
               for s in range(100))
    assert f"--frto-clock={model.frto_clock(5)}" in model.scenario([5e6], [0.1], seed=5).command("bin")


def test_bins_conserve_the_delivered_bytes():
    t = np.array([0.0, 0.4, 1.0, 1.7, 2.0, 2.5])
    rx = np.array([0.0, 1000.0, 5000.0, 9000.0, 12000.0, 20000.0])
    bins = model._bins(t, rx, 2.5, 1.0, cumulative=True)
    widths = np.array([1.0, 1.0, 0.5])
    assert np.sum(bins * widths) / 8.0 == pytest.approx(20000.0)
    step = model._bins(t, np.array([1.0, 3.0, 5.0, 7.0, 9.0, 11.0]), 2.5, 1.0, cumulative=False)
    assert step.tolist() == [2.0, 6.0, 10.0]  # mean of the samples in each bin


def test_recorded_data_matches_this_checkout():
    assert record.check_provenance() == []
    prov = record.provenance()
    assert set(prov["sets"]) >= {"arabi-r1", "alheid-table1"}
    assert {p["name"] for p in prov["patches"]} == {p["name"] for p in bld.patches()}


def test_recorded_transfers_deliver_exactly_the_bytes():
    for name in ("arabi-r1", "alheid-table1"):
        t = record.load(name)
        assert len(t) == record.provenance()["sets"][name]["rows"]
        assert t["completed"].all(), name
        assert (t["delivered_bytes"] == t["transfer_bytes"]).all(), name
        # goodput is the delivered bytes over the completion time
        assert np.allclose(t["throughput_bps"], t["delivered_bytes"] * 8 / t["completion_time_s"], rtol=1e-12)


def test_recorded_frto_repetitions_differ_and_the_rest_are_single_runs():
    from cmtlab.papers.arabi import papers_sim as arabi

    t = record.load("arabi-r1")
    frto = t[t.reordering == "frto"]
    assert (frto.groupby(["scenario", "congestion", "variate_delay"]).size() == len(arabi.FRTO_SEEDS)).all()
    spread = frto.groupby(["scenario", "congestion", "variate_delay"])["throughput_bps"].agg(lambda v: v.max() - v.min())
    assert (spread > 0).any()  # F_RTO reads the (pinned) wall clock: repetitions differ
    other = t[t.reordering != "frto"]
    assert (other.groupby(["scenario", "congestion", "reordering", "variate_delay"]).size() == 1).all()


# ---------------------------------------------------------------------------------------- the model itself

@pytest.mark.parametrize("reordering", ["none", "eifel", "tcp_door", "dsack", "frto", "pr_r"])
def test_transfer_completes_with_exactly_the_bytes(built, reordering):
    """The test of patch 04 (the header-parsing bug): without it no byte is ever delivered, the second
    subflow is never set up and D_SACK crashes."""
    sc = model.scenario([5e6, 2e6], [0.1, 0.1], congestion="uncoupled", reordering=reordering,
                        transfer_bytes=1_000_000, variate_delay=False)
    r = model.run(sc)
    assert r.completed and r.delivered_bytes == 1_000_000
    out = r.output
    assert out["n_subflows"] == 2
    for i, f in enumerate(out["subflows"]):  # JOIN / ADD_ADDR decoded right: each subflow on its own path
        assert (f["src"], f["dst"]) == (f"10.1.{i + 1}.1", f"10.1.{i + 1}.2")
        assert f["segments_sent"] > 0
    # every byte was sent at least once and the sent bytes add up over the subflows
    assert sum(f["bytes_sent"] for f in out["subflows"]) == 1_000_000
    assert r.throughput_bps == pytest.approx(8e6 / r.completion_time_s)


#: A cheap subset of the recorded Arabi runs (scenario 1: two subflows), including F_RTO.
LIVE_SUBSET = [
    {"scenario": 1, "congestion": "uncoupled", "reordering": "none", "variate_delay": False, "seed": 0},
    {"scenario": 1, "congestion": "rtt_compensation", "reordering": "eifel", "variate_delay": True, "seed": 0},
    {"scenario": 1, "congestion": "lia", "reordering": "frto", "variate_delay": True, "seed": 2},
]


@pytest.mark.parametrize("case", LIVE_SUBSET, ids=lambda c: f"s{c['scenario']}-{c['congestion']}-{c['reordering']}"
                         f"-vd{int(c['variate_delay'])}-seed{c['seed']}")
def test_recorded_rows_are_reproduced_exactly(built, case):
    from cmtlab.papers.arabi import papers_sim as arabi

    rec = record.load("arabi-r1")
    sel = rec
    for k, v in case.items():
        sel = sel[sel[k] == v]
    assert len(sel) == 1
    recorded = sel.iloc[0].to_dict()
    (labels, sc), = arabi.build_cases(scenarios=[case["scenario"]], congestion=[case["congestion"]],
                                     reordering=[case["reordering"]], variate_delay=[case["variate_delay"]])
    live = model.run(sc.replace(seed=case["seed"])).row()
    assert live["scenario_key"] == recorded["scenario_key"]
    # the recorded "congestion" is the chapter's label (lia, ...); the model's name is model_congestion
    assert recorded["model_congestion"] == live["congestion"]
    compared = [c for c in live if c in recorded and c not in record.DROP_COLUMNS and c != "congestion"]
    assert len(compared) > 60
    diff = {c: (recorded[c], live[c]) for c in compared if not _equal(recorded[c], live[c])}
    assert diff == {}


def test_wire_trace_shows_duplicate_acks_without_any_loss(built):
    """The model's receiver answers segments behind a data-level hole with duplicate ACKs although
    nothing was lost and the links are FIFO (what cmtlab.sim's chihani preset does not do)."""
    from cmtlab.papers_sim import trace

    sc = model.scenario([5e6, 2e6, 7e6], [0.1, 0.01, 0.05], congestion="uncoupled", reordering="none",
                        transfer_bytes=1_000_000, variate_delay=False)
    wire, r = trace.wire_trace(sc)
    assert r.completed and r.delivered_bytes == 1_000_000
    assert r.extra["queue_drops"] == 0 and r.subflows.model_drops.sum() == 0
    # on FIFO links without loss, an arrival below the highest subflow sequence is a retransmission
    assert wire.below_highest_subflow_seq.tolist() == r.subflows.retransmissions.tolist()
    assert wire.duplicate_acks_sent.sum() > 0 and r.fast_retransmits > 0
    assert (wire.data_segments_received == r.subflows.segments_sent).all()


def test_pr_r_retransmits_on_the_third_duplicate_ack_without_reducing(built):
    """Alheid et al. Algorithm 1 (patch 05): the same fast retransmissions as NoPR's mechanism, but
    the window is reduced only by timeouts."""
    kw = dict(congestion="uncoupled", transfer_bytes=1_000_000, variate_delay=False)
    nopr = model.run(model.scenario([5e6, 2e6, 7e6], [0.1, 0.01, 0.05], reordering="none", **kw))
    prr = model.run(model.scenario([5e6, 2e6, 7e6], [0.1, 0.01, 0.05], reordering="pr_r", **kw))
    assert prr.completed and prr.delivered_bytes == 1_000_000
    assert nopr.fast_retransmits > 0 and prr.fast_retransmits > 0
    assert (nopr.subflows.cwnd_reductions == nopr.subflows.fast_retransmits + nopr.subflows.timeouts).all()
    assert (prr.subflows.cwnd_reductions == prr.subflows.timeouts).all()
