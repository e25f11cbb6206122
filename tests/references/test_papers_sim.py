"""The papers' own simulator (cmtlab.papers_sim): build, front end, recorded results.

Tests marked by the ``built`` fixture run the Chihani–Collange model built by this test run
(``make test`` builds it first with ``make papers-sim-if-compiler``).  Without a C++ compiler they
are skipped — except under CI (``CI=true``), where they fail: CI must build and run the model.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from helpers.papers_sim import _equal

from cmtlab.papers_sim import build as bld
from cmtlab.papers_sim import model, record



# ---------------------------------------------------------------------------------------- no compiler needed

def test_patches_declare_their_kind_and_reason():
    patches = bld.patches()
    assert [p["name"][:2] for p in patches] == ["01", "02", "03", "04", "05", "06", "07", "08"]
    for p in patches:
        text = p["path"].read_text()
        assert p["kind"] in bld.PATCH_KINDS
        assert re.search(r"^Why:", text, re.M), p["name"]
        assert p["name"].split("-")[1] == p["kind"], p["name"]  # the file name says the kind too
    behaviour = [p["path"].read_text() for p in patches if p["kind"] == "behaviour"]
    assert len(behaviour) == 2  # the header-parsing fix and PR-R (added, not in the published model)
    assert "mp-tcp-header.cc" in behaviour[0] and "PR_R" in behaviour[1]
    kinds = {p["name"][:2]: p["kind"] for p in patches}
    assert kinds["06"] == "performance" and kinds["07"] == "api" and kinds["08"] == "instrument"


# ---------------------------------------------------------------------------------------- what a run may ask

def test_bounds_name_the_parameter_the_model_cannot_run():
    """Issue 36's reproducers: max_sim_time_s=1e300 (ns-3.7's 64-bit nanoseconds), duration_s=1e5 at
    1e10 bit/s (the 32-bit subflow sequence space), too many samples; all refused before anything runs."""
    ok = dict(rates_bps=[5e6, 2e6], one_way_delays_s=[0.1, 0.1])
    with pytest.raises(ValueError, match="max_sim_time_s must be <= 9.2e"):
        model.scenario(**ok, max_sim_time_s=1e300)
    model.scenario(**ok, max_sim_time_s=1.2e8, sample_s=60.0)           # <= 2e6 samples of at most 60 s
    with pytest.raises(ValueError, match=r"duration_s = 100000.0 s is too long for a path of 1e\+10 bit/s"):
        model.scenario([1e10], [0.01], duration_s=1e5)
    longest = model.SUBFLOW_SEQUENCE_SPACE_BYTES * 8 / 1e10             # the bound itself is allowed
    model.scenario([1e10], [0.01], duration_s=longest)
    with pytest.raises(ValueError, match="duration_s"):
        model.scenario([1e10], [0.01], duration_s=longest * 1.001)
    with pytest.raises(ValueError, match="sample_s"):
        model.scenario(**ok, duration_s=5000, sample_s=0.001)            # 5e6 samples
    with pytest.raises(ValueError, match="duration_s must be below max_sim_time_s"):
        model.scenario(**ok, duration_s=100, max_sim_time_s=50)


def test_default_timeout_grows_with_the_run_and_timeout_s_is_validated():
    small = model.scenario([5e6, 2e6], [0.1, 0.1], transfer_bytes=1_000_000)
    big = model.scenario([5e6, 2e6], [0.1, 0.1], transfer_bytes=100_000_000)
    timed = model.scenario([5e6, 2e6], [0.1, 0.1], duration_s=60)
    assert model.work_estimate(small)["segments"] == math.ceil(1_000_000 / model.MSS_BYTES)
    assert model.work_estimate(timed)["bytes"] == pytest.approx(7e6 * 60 / 8)   # what the paths carry in 60 s
    assert model.default_timeout_s(small) < model.default_timeout_s(big) < 600
    assert model.default_timeout_s(small) == pytest.approx(
        model.TIMEOUT_BASE_S + model.TIMEOUT_PER_SEGMENT_S * math.ceil(1e6 / model.MSS_BYTES))
    for bad in (-1, 0, float("nan"), float("inf"), True, "5", [5]):
        with pytest.raises(ValueError, match="timeout_s"):
            model.run(small, timeout_s=bad)                             # refused before the model is built
    with pytest.raises(ValueError, match="release_acked"):
        model.run(small, release_acked="no")


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


def _without_release_fields(out: dict) -> dict:
    return {k: v for k, v in out.items() if k not in ("release_acked", "released_reads")}


#: Runs that exercise every read patch 06 answers from its indices: late ACKs (variateDelay lets
#: ACKs overtake each other) matching released segments, DSACK options naming released segments.
RELEASE_CASES = [dict(rates_bps=[5e6, 2e6, 7e6], one_way_delays_s=[0.1, 0.01, 0.05], congestion="uncoupled",
                      reordering="dsack", variate_delay=True, seed=1),
                 dict(rates_bps=[5e6, 2e6, 7e6], one_way_delays_s=[0.1, 0.01, 0.05], congestion="linked_increases",
                      reordering="frto", variate_delay=True, seed=1),
                 dict(rates_bps=[20e6, 20e6], one_way_delays_s=[0.01, 0.01], congestion="linked_increases",
                      reordering="pr_r", variate_delay=False, loss_rate=(0.0, 0.01), loss_seed=2)]


def test_performance_patch_changes_no_output_nor_log(built):
    """Patch 06 on and off (--release-acked=0: the published code): the driver's whole output is equal,
    including the FNV-1a hash of every line the model logged, and the runs used the released indices."""
    reads = {"late_duplicate_ack": 0, "dsack_named": 0, "count_brought_up_to_date": 0, "acked_segment_by_end": 0}
    for kw in RELEASE_CASES:
        sc = model.scenario(transfer_bytes=2_000_000, **kw)
        on, off = model.run(sc), model.run(sc, release_acked=False)
        assert on.output["release_acked"] is True and off.output["release_acked"] is False
        assert _without_release_fields(on.output) == _without_release_fields(off.output)
        assert len(on.output["log_fnv1a"]) > 8 and on.completed
        assert sum(off.output["released_reads"].values()) == 0
        for k in reads:
            reads[k] += on.output["released_reads"][k]
    assert all(v > 0 for v in reads.values()), reads   # every index path was taken at least once


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
