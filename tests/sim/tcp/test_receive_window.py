"""Linux's quick ACKs (``TcpOptions.ack_policy="linux"``, :mod:`cmtlab.sim.tcp.receive_window`): the receiver
acknowledges each segment while its offered window grows (``tcp_grow_window``) and for the first data
(``tcp_incr_quickack``), every second one otherwise — what the testbed's kernel does (``tcp_probe`` on the sender:
every ACK of every traced subflow's slow start acknowledged one segment; the delay line's counters: 0.495 ACKs per
data packet on a saturated single path, 0.9-1.0 on a slow subflow beside a fast one)."""

import pytest

from cmtlab.scenario import TcpOptions
from cmtlab.sim import simulate_mptcp, simulate_striped
from cmtlab.sim.presets import linux
from cmtlab.sim.tcp.receive_window import MAX_QUICKACKS, LinuxReceiveWindow

SEG = 1424


def test_the_first_data_and_a_growing_window_are_acknowledged_at_once():
    w = LinuxReceiveWindow(100_000_000, SEG)
    i = w.add()
    quick = [w.on_segment(k * 1_000_000, i, 1) for k in range(40)]
    # 16 quick ACKs for the first data, plus one per segment while rcv_ssthresh grows to the first clamp
    # (tcp_rmem[1] * 1424 / 2304 = 81 KB from 64 KB: 6 segments)
    n = sum(quick)
    assert MAX_QUICKACKS < n <= MAX_QUICKACKS + 7 and all(quick[:n]) and not any(quick[n:])
    # a round trip later more was read than in the first: the clamp grows, so does the window, quick again
    assert w.on_segment(101_000_000, i, 1) or w.on_segment(102_000_000, i, 1)
    assert w.window_clamp > 131072 * SEG / 2304


def test_a_connection_shares_its_clamp_and_each_subflow_grows_its_own_window():
    w = LinuxReceiveWindow(50_000_000, SEG)
    fast, slow = w.add(), w.add()
    t = 0
    for rtt in range(6):  # the fast subflow doubles what it delivers every round trip
        for _ in range(10 * 2 ** rtt):
            w.on_segment(t, fast, 1)
            t += 50_000_000 // (10 * 2 ** rtt)
    assert w.rcv_ssthresh[fast] == w.window_clamp  # caught up: every second segment from now on
    assert w.on_segment(t, slow, 1)  # the slow subflow's window is far below the connection's clamp
    with pytest.raises(ValueError, match="rtt_ns"):
        LinuxReceiveWindow(0, SEG)


def _ack_ratio(res, subflow, t0, t1):
    a, p = res.traces["acks"], res.traces["packets"]
    a = a[(a.subflow == subflow) & (a.time_s >= t0) & (a.time_s < t1)]
    p = p[(p.subflow == subflow) & (p.arrival_s >= t0) & (p.arrival_s < t1)]
    return len(a) / len(p)


def test_acks_per_data_packet_like_the_kernels():
    tcp = simulate_mptcp([20e6], [0.04], duration_s=8.0, queue_packets=30, seed=0, trace=True,
                         **linux("cubic", mptcp=False))
    assert _ack_ratio(tcp, 0, 3.0, 8.0) == pytest.approx(0.5, abs=0.03)  # the kernel: 0.495
    assert _ack_ratio(tcp, 0, 0.0, 0.15) > 0.95  # slow start: one ACK per segment
    two = simulate_mptcp([10e6, 2e6], [0.02, 0.16], duration_s=6.0, queue_packets=100, seed=0, trace=True,
                         **linux("cubic"))
    assert _ack_ratio(two, 1, 2.0, 6.0) > 0.85 > 0.75 > _ack_ratio(two, 0, 2.0, 6.0)


def test_the_policy_stays_out_of_old_keys_and_out_of_other_engines():
    assert "ack_policy" not in TcpOptions().to_dict()
    assert TcpOptions(ack_policy="linux").to_dict()["ack_policy"] == "linux"
    with pytest.raises(ValueError, match="ack_policy"):
        TcpOptions(ack_policy="quick")
    with pytest.raises(ValueError, match="ack_policy"):
        simulate_striped([10e6], [0.02], transfer_bytes=100_000, options=TcpOptions(ack_policy="linux"))
