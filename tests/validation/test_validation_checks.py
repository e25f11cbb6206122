"""The validation chapters' tables are checks of this book, not paper claims (issue 34): nothing in them is
counted among the papers' verdicts; each check's verdict sits at and around its threshold; the shared
bottleneck's RTTs are configurations, never a confidence interval."""

import pandas as pd
import pytest

from cmtlab.validation import tables

B, A = "packet, byte counting (RFC 6356)", "packet, ACK counting"


def _frames(*, lia_ratio=1.0, lia_ci=0.02, sh_lia=1.0, cc_lia=0.2, rfc_gp=3e6, paper_gp=1e6):
    dj = []
    for s in (B, A):
        for alg, exp in (("uncoupled", 3.0), ("lia", 1.0), ("olia", 1.0)):
            dj.append(dict(setting=s, congestion=alg, n_seeds=8, ratio_to_single=lia_ratio if alg == "lia" else exp,
                           ci_ratio=lia_ci, expected_ratio=exp))
    sh = []
    for s in (B, A):
        for alg, exp in (("uncoupled", 2.0), ("lia", 1.0), ("olia", 1.0)):
            v = sh_lia if alg == "lia" else exp
            sh.append(dict(setting=s, congestion=alg, n_rtts=5, ratio_to_tcp=v, min_ratio=v - 0.4, max_ratio=v + 0.4,
                           n_rtts_within=2, expected_ratio=exp))
    cc = [dict(setting=B, congestion=a, n_seeds=8, congested_share=v, ci_share=0.01, expected_share=e)
          for a, v, e in (("uncoupled", 0.24, 0.24), ("lia", cc_lia, 0.09), ("olia", 0.1, 0.0))]
    dd = [dict(dupack_mode=m, retransmit="original", n_seeds=8, goodput_bps=g, ci_goodput_bps=0.1e6)
          for m, g in (("rfc", rfc_gp), ("paper", paper_gp))]
    idx = ["setting", "congestion"]
    return dict(dj=pd.DataFrame(dj).set_index(idx), sh=pd.DataFrame(sh).set_index(idx),
                cc=pd.DataFrame(cc).set_index(idx), dd=pd.DataFrame(dd).set_index(["dupack_mode", "retransmit"]))


def _table(**kw):
    return tables.mptcp_comparison(bridge_same=3, bridge_total=3, bridge_ok=True, n_paths=3, loss_rate=0.01,
                                   bottleneck_bps=10e6, bottleneck_rtts_s=[0.02, 0.04, 0.06, 0.08, 0.1],
                                   congested_loss_rates=(0.02, 0.002), settings={B: "byte counting", A: "ACK counting"},
                                   **_frames(**kw))


def _verdict(t, start):
    rows = [c for c in t.checks if c["check"].startswith(start)]
    assert len(rows) == 1, [c["check"] for c in t.checks]
    return rows[0]


def test_mptcp_validation_is_checks_only():
    t = _table()
    assert not t.rows and not t.decisions() and sum(t.summary().values()) == 0
    assert len(t.checks) == 15
    for c in t.checks:   # no quotation marks: a check quotes nobody
        assert "“" not in c["check"] + c["target"] and '"' not in c["check"] + c["target"]
    assert "checks of this book kept apart: True" in t.consistency()


@pytest.mark.parametrize("ratio, ci, verdict", [(1.09, 0.005, "met"), (1.11, 0.005, "not met"),
                                                (0.91, 0.005, "met"), (1.10, 0.05, "undecided at 8 seeds")])
def test_disjoint_lia_check_at_and_around_the_band(ratio, ci, verdict):
    t = _table(lia_ratio=ratio, lia_ci=ci)
    assert _verdict(t, "3 disjoint paths, p = 0.01: lia in single TCPs (byte")["verdict"] == verdict


@pytest.mark.parametrize("value, verdict", [(1.09, "met"), (1.11, "not met")])
def test_shared_bottleneck_decides_on_the_mean_over_rtts_without_a_ci(value, verdict):
    c = _verdict(_table(sh_lia=value), "shared 10 Mbit/s bottleneck: lia in TCP shares (byte")
    assert c["verdict"] == verdict
    assert "95 % CI" not in c["reproduction"] and "not samples" in c["note"] and "2 of 5 RTTs" in c["note"]


@pytest.mark.parametrize("share, verdict", [(0.20, "met"), (0.235, "undecided at 8 seeds"), (0.30, "not met")])
def test_goal3_check_by_the_two_cis(share, verdict):
    assert _verdict(_table(cc_lia=share), "congested (0.02) + clean (0.002) path: lia")["verdict"] == verdict


@pytest.mark.parametrize("rfc, paper, verdict", [(3e6, 1e6, "met"), (1.1e6, 1e6, "undecided at 8 seeds"),
                                                 (1e6, 3e6, "not met")])
def test_receiver_check(rfc, paper, verdict):
    assert _verdict(_table(rfc_gp=rfc, paper_gp=paper), "RFC 8684 receiver")["verdict"] == verdict


@pytest.mark.parametrize("med_a, verdict", [(0.049, "met"), (0.051, "not met")])
def test_ns3_checks_name_the_port(med_a, verdict):
    t = tables.ns3_comparison(med_a=med_a, p90_a=0.1, n_a=10, med_b=0.0, p90_b=0.0, n_b=5, plain_mbps=8.0,
                              sack_mbps=0.3)
    assert not t.rows and len(t.checks) == 4
    c = _verdict(t, "(a) one link")
    assert c["verdict"] == verdict and "port" in c["check"] and "not an independent validation" in c["note"]
