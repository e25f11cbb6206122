"""The calibrated ``chihani_ns3`` preset: the model's receiver rule, scripted against the code of
``MpTcpSocketImpl::ProcessHeaderOptions`` / ``ReadUnOrderedData`` (Chihani–Collange, ns-3.7)."""

import types

import pytest

from cmtlab.sim.mptcp.connection import MptcpConnection
from cmtlab.sim.tcp import TcpReceiver


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


def test_eifel_receiver_answers_every_segment_echoing_its_tsval():
    # the model's timestamp option forces an ACK (TxAckOpt), echoing the arriving TSval
    conn, (r0, r1), acks = _harness([[0, 2], [1, 3]])
    echoes = []
    for r in (r0, r1):
        r.timestamps = True
        r.echo_arrival = True
        r.net_ack = (lambda i: lambda now, a, ts, s, n: (acks.append((i, a)), echoes.append(ts)))(r.index)
    r1.on_data(1, 0, 500, False)        # held: still answered, a duplicate ACK of segment 0
    r1.on_data(2, 0, 700, True)         # its retransmission: answered too, echoing 700
    assert acks == [(1, 0), (1, 0)] and echoes == [500, 700]


class _Sub:
    def __init__(self, cwnd_segs=10, una=5, seg=1400):
        self.seg, self.cwnd, self.una, self.rwnd = seg, cwnd_segs * seg, una, 1 << 30
        self.min_rto = 200_000_000
        self.rto = 0
        self.srtt = 0
        self.connection = None
        self.index = 0


def test_fast_retransmit_once_per_segment_and_timeout_halves():
    from cmtlab.sim.models.chihani import ChihaniNs3Recovery

    rec, sub = ChihaniNs3Recovery(), _Sub()
    assert rec.allows_fast_retransmit(sub)
    rec.enter(sub, 3, 0, 0)
    assert sub.cwnd == 5 * 1400                     # halved (reduceCWND, uncoupled)
    assert not rec.allows_fast_retransmit(sub)      # the same segment never again
    sub.una = 6
    assert rec.allows_fast_retransmit(sub)
    sub.cwnd = 8 * 1400
    assert rec.timeout_window(sub) == 4 * 1400      # a timeout halves too (not one segment)
    from cmtlab.sim.mechanisms.recovery import make_recovery

    assert make_recovery("newreno").timeout_window(sub) == 1400 and make_recovery("newreno").loss_marks


def test_model_rto_estimator_and_multiplier():
    from cmtlab.sim.models.chihani import ChihaniNs3Recovery

    rec, sub = ChihaniNs3Recovery(), _Sub()
    rec.sample(sub, 100_000_000)                    # first sample: est = var = 100 ms
    assert sub.rto == 500_000_000                   # var >= est/4: est + 4 var
    for _ in range(60):
        rec.sample(sub, 100_000_000)                # var decays (gain 0.1) below est/4
    assert sub.rto == pytest.approx(200_000_000, rel=1e-6)   # 2 est (= the 200 ms minimum here)
    rec.backoff(sub)
    rec.backoff(sub)
    assert sub.rto == pytest.approx(800_000_000, rel=1e-6)   # multiplier 4
    rec.enter(sub, 3, 0, 0)                         # a fast retransmit doubles it as well
    assert rec.multiplier == 8
    for _ in range(10):
        rec.backoff(sub)
    assert rec.multiplier == 64                     # capped
    rec.sample(sub, 100_000_000)                    # a valid sample resets it
    assert rec.multiplier == 1


def test_round_robin_counts_the_models_available_window():
    from cmtlab.sim.models.chihani import ChihaniNs3RoundRobin

    subs = [_Sub(), _Sub()]
    for s in subs:
        s.app_tail = s.una
    conn = types.SimpleNamespace(subflows=subs)
    rr = ChihaniNs3RoundRobin()
    subs[0].cwnd = int(2.9 * 1400)                  # floor: 2 segments
    subs[0].app_tail = subs[0].una + 2              # two handed out, unacknowledged
    assert rr.select(conn, 0) == 1                  # subflow 0 has no room as the model counts
    subs[0].app_tail = subs[0].una + 1
    assert rr.select(conn, 0) == 0
    subs[0].app_tail = subs[0].una + 2
    subs[1].app_tail = subs[1].una + 10
    assert rr.select(conn, 0) is None


def test_frto_discards_cwnd_acks_after_a_draw():
    from cmtlab.sim.models.chihani import FRTO_PRIMES, ChihaniNs3Frto
    from cmtlab.sim.tcp.decisions import AckDecision

    f = ChihaniNs3Frto(clock=1341063560)
    sub = _Sub(cwnd_segs=4)
    f.threshold = 0.061 * ((1341063560 % FRTO_PRIMES[0]) / FRTO_PRIMES[0])
    assert 0 <= f.threshold < 0.061
    f.rng = types.SimpleNamespace(randrange=lambda n: 0)  # every draw rejects
    f.saved = None
    got = [f.on_ack(sub, 10, 0, None, 0) for _ in range(6)]
    # the drawing ACK is processed, the next cwnd - 1 = 3 dropped, the 4th processed, then a new draw
    assert [g is AckDecision.DISCARD for g in got] == [False, True, True, True, False, False]
    with pytest.raises(ValueError, match="clock"):
        ChihaniNs3Frto(clock=-1)
