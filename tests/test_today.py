"""cmtlab.today: the kernel agreement table (pure functions on recorded-like rows), the kernel-like
simulator's loss mapping, and CUBIC against ns-3.44's TcpCubic."""

import importlib.util

import pandas as pd
import pytest

from cmtlab.today.kernel import agreement, sim_runs


def _kernel_rows():
    rows = []
    for rep, (thr, retx, dsack) in enumerate(((2.0e6, 40, 0), (2.4e6, 44, 1), (2.2e6, 42, 0))):
        rows.append(dict(cell="c", kind="tcp", rep=rep, simulator="linux-tcp", n_paths=1, duration_s=4.0,
                         warmup_s=1.0, path0_rate_bps=10e6, path0_rtt_s=0.06, path0_queue_packets=100,
                         path0_loss=0.01, k_congestion="cubic", k_timestamps=True, throughput_bps=thr,
                         sub0_retrans_total=retx, sub0_dsack_dups=dsack))
    return pd.DataFrame(rows)


def test_agreement_inside_the_kernel_spread():
    k = _kernel_rows()
    s = pd.DataFrame([dict(cell="c", sim_config="x", simulator="cmtlab.sim", n_paths=1, throughput_bps=v,
                           sub0_retrans_total=r, sub0_spurious_retransmissions=0)
                      for v, r in ((2.1e6, 50), (2.3e6, 52), (2.2e6, 54))])
    a = agreement(k, s).set_index("metric")
    assert a.loc["goodput_mbps", "kernel_min"] == 2.0 and a.loc["goodput_mbps", "kernel_max"] == 2.4
    assert a.loc["goodput_mbps", "sim_mean"] == pytest.approx(2.2) and a.loc["goodput_mbps", "inside"]
    assert not a.loc["retransmissions", "inside"] and a.loc["retransmissions", "ratio"] == pytest.approx(52 / 42)
    assert a.loc["spurious_retransmissions", "inside"]  # 0 within [0, 1]


def test_sim_runs_map_the_delay_line_loss_and_configurations():
    k = _kernel_rows()
    s = sim_runs(k, progress_bar=False)
    assert set(s["sim_config"]) == {"today", "today-rfc9438", "before"}
    assert (s["sub0_loss_drops"] > 0).all()  # path0_loss became the simulator's packet loss
    assert set(s.loc[s.sim_config == "today", "sim_congestion"]) == {"cubic"}
    before = s[s.sim_config == "before"]["throughput_bps"].mean()
    today = s[s.sim_config == "today"]["throughput_bps"].mean()
    assert today > 1.3 * before  # Linux's per-segment counting vs ns-3's per-ACK NewReno on a lossy path


@pytest.mark.skipif(importlib.util.find_spec("ns") is None, reason="ns-3 Python bindings not installed")
def test_cubic_against_ns3_tcpcubic():
    """Same scenario in both: a transfer that never leaves slow start + one loss-free congestion
    avoidance epoch agrees to the nanosecond; with random loss the completion times differ by the two
    window computations (RFC 9438 floating point vs Linux's bictcp), stated, not tuned away."""
    from cmtlab.today.cubic_ns3 import cubic_ns3_table

    t = cubic_ns3_table(scenarios=(("clean 10M/60ms", 10e6, 0.06, 0.0, 100),
                                   ("0.1% loss 20M/100ms", 20e6, 0.1, 0.001, 100)),
                        seeds=(2,), seconds=4.0, progress_bar=False).set_index("scenario")
    assert t.loc["clean 10M/60ms", "ct_rel_diff"] == 0.0
    assert abs(t.loc["0.1% loss 20M/100ms", "ct_rel_diff"]) < 0.15
