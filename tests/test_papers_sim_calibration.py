"""The calibrated ``chihani_ns3`` preset: the model's receiver rule, scripted against the code of
``MpTcpSocketImpl::ProcessHeaderOptions`` / ``ReadUnOrderedData`` (Chihani–Collange, ns-3.7)."""

import types

import pytest

from cmtlab.sim.mptcp.connection import MptcpConnection
from cmtlab.sim.tcp import TcpReceiver
from cmtlab.sim.tcp.decisions import OutOfOrderAck


class _Queue:
    def __init__(self):
        self.heap, self._ids, self.completed = [], iter(range(1 << 30)), False

    def complete(self):
        self.completed = True


def _harness(dsn_maps, mode="chihani_ns3"):
    """A connection with one subflow receiver per entry of ``dsn_maps`` (subflow segment k
    carries DSN ``dsn_maps[i][k]``); returns ``(conn, receivers, acks)``, ``acks`` the list of
    ``(subflow, ack)`` sent."""
    q = _Queue()
    conn = MptcpConnection(n_dsn=None, last_len=1400, segment_bytes=1400, scheduler=None,
                           receive_buffer_bytes=1 << 30, dupack_mode=mode, retransmit="original", seed=0,
                           queue=q, trace_buffer=False)
    opts = types.SimpleNamespace(delayed_ack_timeout_s=0.2, immediate_ack_on_out_of_order=True, sack=False,
                                 timestamps=False)
    acks = []
    rcvs = []
    for i, m in enumerate(dsn_maps):
        r = TcpReceiver(n_segs=0, m_ack=1, options=opts, net_ack=(lambda i: lambda now, a, ts, s, n: acks.append((i, a)))(i),
                        queue=q)
        r.index = i
        r.completes_run = False
        r.sink = conn.deliver
        conn.receivers.append(r)
        conn.subflows.append(types.SimpleNamespace(una=0))
        conn.maps.append(list(m))
        conn.pruned.append(0)
        conn.per_sub_delivered.append(0)
        rcvs.append(r)
    return conn, rcvs, acks


def test_first_held_segment_gets_no_ack_later_ones_duplicate_acks():
    # subflow 0 carries DSN 0, 2, 4; subflow 1 carries DSN 1, 3, 5 (round robin)
    conn, (r0, r1), acks = _harness([[0, 2, 4], [1, 3, 5]])
    r1.on_data(1, 0, 0, False)          # DSN 1 ahead of DSN 0: held, RxSeq stays 0 -> no ACK
    assert acks == [] and r1.ack_cap == 0
    r1.on_data(2, 1, 0, False)          # DSN 3: above RxSeq -> duplicate ACK of segment 0
    r1.on_data(3, 2, 0, False)          # DSN 5: another duplicate
    assert acks == [(1, 0), (1, 0)]
    acks.clear()
    r0.on_data(4, 0, 0, False)          # DSN 0 closes the gap: 1 released (one ACK), then 0's own ACK
    assert conn.rcv_dsn == 2
    assert acks == [(1, 1), (0, 1)]
    assert r1.ack_cap == 1              # DSN 3 (its segment 1) still waits for DSN 2
    acks.clear()
    r0.on_data(5, 1, 0, False)          # DSN 2: releases DSN 3, then DSN 4 waits on subflow 0? no: 4 is next
    assert conn.rcv_dsn == 4
    assert acks == [(1, 2), (0, 2)]


def test_copy_of_a_held_segment_is_rejected_without_ack_and_old_copy_gets_duplicate():
    conn, (r0, r1), acks = _harness([[0, 2], [1, 3]])
    r1.on_data(1, 0, 0, False)          # held
    r1.on_data(2, 0, 0, True)           # its fast retransmission: StoreUnOrderedData fails, no ACK
    assert acks == []
    r0.on_data(3, 0, 0, False)
    acks.clear()
    r1.on_data(4, 0, 0, True)           # below RxSeq now: "already received" -> an ACK (duplicate)
    assert acks == [(1, 1)]


def test_old_chihani_mode_unchanged_withholds_and_advances():
    conn, (r0, r1), acks = _harness([[0, 2], [1, 3]], mode="chihani")
    r1.on_data(1, 0, 0, False)
    r1.on_data(2, 1, 0, False)          # the old preset: nothing for either (no duplicates at all)
    assert acks == [] and r1.ack_cap is None


def test_calibrated_preset_scenario_has_no_sack_and_ns3_receiver():
    from cmtlab.arabi import experiments as ax

    sc = ax.scenario(2, "uncoupled", "none", preset="chihani_ns3", loss_rate=0.0)
    assert sc.dupack_mode == "chihani_ns3"
    old = ax.scenario(2, "uncoupled", "none", preset="chihani", loss_rate=0.0)
    assert old.dupack_mode == "chihani"
    with pytest.raises(ValueError, match="preset"):
        ax.scenario(2, "uncoupled", "none", preset="chihani-ns3x", loss_rate=0.0)
