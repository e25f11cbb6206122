"""cmtlab.validation.mptcp: the bridge check, the duplicate-ACK table, the expectation columns, the figure."""

import pytest

from cmtlab.validation import mptcp as v


def test_bridge_one_subflow_is_the_single_path_tcp():
    cases = {k: v.BRIDGE_CASES[k] for k in ("1 % loss", "2 % loss, SACK, PRR, timestamps")}
    t = v.single_subflow_bridge(cases)
    assert list(t.case) == list(cases)
    assert t[["same_packet_trace", "same_cwnd_trace", "same_counters", "dsn_equals_seq"]].all().all()
    assert (t.completion_time_tcp_s == t.completion_time_mptcp_s).all()
    assert (t.packets_tcp == t.packets_mptcp).all() and (t.retransmissions > 0).all()


def test_bridge_takes_own_cases_and_checks_its_path():
    t = v.single_subflow_bridge({"a": dict(transfer_bytes=100_000, seed=1)}, rate_bps=5e6, rtt_s=0.02)
    assert list(t.case) == ["a"] and bool(t.same_packet_trace.iloc[0]) and t.packets_mptcp.iloc[0] >= 187
    with pytest.raises(ValueError, match="rate_bps"):
        v.single_subflow_bridge({}, rate_bps=0)


def test_disjoint_expectation_uses_the_runners_segment_and_ack_counting():
    def fake(congestion, loss_rates, rtts_s, seed):
        n = len(rtts_s) if congestion != "single" else 1
        return [1e5 * (1 if congestion in ("single", "uncoupled") else 1 / n)] * n

    t = v.disjoint_paths_table(3, 0.01, 0.1, seeds=[0], runner=fake, mss_bytes=536,
                               segments_per_ack=2).set_index("congestion")
    # n x Mathis over Mathis and the LIA equilibrium over Mathis, whatever MSS and b the Mathis column uses
    assert t.loc["uncoupled", "expected_ratio"] == pytest.approx(3.0)
    assert t.loc["lia", "expected_ratio"] == pytest.approx(1.0, rel=1e-6)
    assert t.loc["olia", "expected_ratio"] == pytest.approx(1.0)
    assert t.loc["single", "mathis_bps"] == pytest.approx(8 * 536 / 0.1 * (3 / 4) ** 0.5 / 0.1)


def test_dupack_mode_table_rows_and_the_papers_receiver_is_slower():
    t = v.dupack_mode_table(loss_rate=0.005, modes=("rfc", "paper"), retransmit=("original", "reinject"),
                            seeds=[0, 1], duration_s=30.0)
    assert list(zip(t.dupack_mode, t.retransmit)) == [("rfc", "original"), ("rfc", "reinject"),
                                                     ("paper", "original"), ("paper", "reinject")]
    assert (t.n_seeds == 2).all() and (t.goodput_bps > 0).all()
    t = t.set_index(["dupack_mode", "retransmit"])
    assert t.loc[("rfc", "original"), "reinjections"] == 0 and t.loc[("rfc", "reinject"), "reinjections"] > 0
    assert t.loc[("paper", "original"), "goodput_bps"] < 0.5 * t.loc[("rfc", "original"), "goodput_bps"]
    assert t.loc[("paper", "original"), "fast_retransmits"] > t.loc[("rfc", "original"), "fast_retransmits"]
    with pytest.raises(ValueError, match="loss_rate"):
        v.dupack_mode_table(loss_rate=1.0)
    with pytest.raises(ValueError, match="dupack_mode"):
        v.dupack_mode_table(modes=("sometimes",), seeds=[0], duration_s=1.0)


def test_plot_tables_three_panels_with_expectations():
    import matplotlib

    matplotlib.use("Agg")
    import pandas as pd

    d = pd.DataFrame(dict(congestion=["single", "lia"], ratio_to_single=[1.0, 1.1], ci_ratio=[0.1, 0.1],
                          expected_ratio=[1.0, 1.0], setting="x"))
    s = pd.DataFrame(dict(congestion=["lia"], ratio_to_tcp=[0.9], min_ratio=[0.7], max_ratio=[1.2], expected_ratio=[1.0],
                          setting="x"))
    c = pd.DataFrame(dict(congestion=["lia"], congested_share=[0.1], ci_share=[0.01], expected_share=[0.09],
                          setting="x"))
    fig = v.plot_tables(d, s, c)
    assert len([ax for ax in fig.axes if ax.axison]) == 3  # three panels (2 x 2 grid) ...
    assert fig.axes[3].get_legend() is not None  # ... and the fourth slot holds the legend
    assert [t.get_text() for t in fig.axes[0].get_xticklabels()] == ["lia"]  # the reference row is not plotted
