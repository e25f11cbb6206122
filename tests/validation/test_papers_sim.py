"""The calibrated ``chihani_ns3`` preset: the model's receiver rule, scripted against the code of
``MpTcpSocketImpl::ProcessHeaderOptions`` / ``ReadUnOrderedData`` (Chihani–Collange, ns-3.7)."""

import types

import pytest

from cmtlab.sim import registry
from cmtlab.sim.engine import EventQueue
from cmtlab.sim.mptcp.connection import MptcpConnection
from cmtlab.sim.tcp import TcpReceiver
from cmtlab.sim.mechanisms.congestion import CongestionControl
from cmtlab.sim.tcp.base import SenderBase


class _Queue(EventQueue):
    """The event queue; completing the run only records it (no loop to stop in these scripts)."""

    def complete(self):
        self.done = True


def _harness(dsn_maps, mode="chihani_ns3"):
    """A connection with one subflow receiver per entry of ``dsn_maps`` (subflow segment k
    carries DSN ``dsn_maps[i][k]``); returns ``(conn, receivers, acks)``, ``acks`` the list of
    ``(subflow, ack)`` sent."""
    q = _Queue()
    conn = MptcpConnection(n_dsn=None, last_len=1400, segment_bytes=1400, scheduler=None,
                           receive_buffer_bytes=1 << 30, out_of_order=registry.make("dupack_mode", mode),
                           retransmit="original", seed=0, queue=q, trace_buffer=False)
    opts = types.SimpleNamespace(delayed_ack_timeout_s=0.2, immediate_ack_on_out_of_order=True, sack=False,
                                 timestamps=False)
    acks = []
    rcvs = []
    for i, m in enumerate(dsn_maps):
        r = TcpReceiver(n_segs=0, m_ack=1, options=opts, net_ack=(lambda i: lambda now, a, ts, s, n: acks.append((i, a)))(i),
                        queue=q)
        r.index = i
        r.completes_run = False
        r.sink = conn.data_level
        conn.add_subflow(types.SimpleNamespace(max_out=len(m)), r)  # a send buffer for the whole map
        for dsn in m:
            conn.maps[i].append(dsn)
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
    from cmtlab.papers.arabi import experiments as ax

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


class _Sub(SenderBase):
    """A sender's state record (the attributes the mechanisms read) without a sender."""

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


# ------------------------------------------------------------------ the model's D_SACK
# mp-tcp-socket-impl.cc (dzlab/mptcp-ns3 d4ad7bf, as built by cmtlab.papers_sim): the receiver's
# D_SACK branch of ProcessHeaderOptions (lines 1337-1349), createOptDSACK (1431-1487),
# ReadUnOrderedData (1490-1535); the sender's ProcessOption (1537-1590), IsDuplicatedAck's D_SACK
# case (1653-1664), DupDSACK (1750-1809), DupAck (1812-).

def _dsack_harness(dsn_maps):
    conn, rcvs, _ = _harness(dsn_maps)
    acks = []
    for r in rcvs:
        r.held_copy = conn.out_of_order.model_dsack_ack  # the model's D_SACK receiver (ChihaniNs3Receiver)
        r.net_ack = (lambda i: lambda now, a, ts, s, n: acks.append((i, a, s)))(r.index)
    return conn, rcvs, acks


def test_dsack_receiver_answers_every_held_segment_and_copy_with_the_option():
    from cmtlab.sim.models.chihani import ModelDsackOption

    conn, (r0, r1), acks = _dsack_harness([[0, 2, 4], [1, 3, 5]])
    r1.on_data(1, 0, 0, False)          # DSN 1 ahead of DSN 0: stored, ACK of RxSeq 0 with the option (1337-1348)
    r1.on_data(2, 1, 0, False)          # DSN 3: the same; second block = lowest contiguous run {1}
    r1.on_data(3, 0, 0, True)           # a copy of held DSN 1: still answered (StoreUnOrderedData fails, TxAckOpt)
    assert acks == [(1, 0, ModelDsackOption(1, (1, 2))), (1, 0, ModelDsackOption(3, (1, 2))),
                    (1, 0, ModelDsackOption(1, (1, 2)))]
    assert r1.ack_cap == 0
    acks.clear()
    r0.on_data(4, 0, 0, False)          # DSN 0: releases DSN 1 (one plain ACK on subflow 1), then its own ACK
    assert acks == [(1, 1, None), (0, 1, None)]
    acks.clear()
    r0.on_data(5, 1, 0, False)          # DSN 2: releases DSN 3
    assert acks == [(1, 2, None), (0, 2, None)] and conn.rcv_dsn == 4 and r1.ack_cap is None


def test_dsack_option_second_block_is_the_lowest_contiguous_run():
    from cmtlab.sim.models.chihani import ModelDsackOption

    conn, (r0, r1, r2), acks = _dsack_harness([[0, 3], [1, 4], [2, 6]])
    r1.on_data(1, 0, 0, False)          # held {1}
    r2.on_data(2, 0, 0, False)          # held {1, 2}: run 1..2
    r2.on_data(3, 1, 0, False)          # held {1, 2, 6}: run still 1..2 (6 is not contiguous)
    assert [a[2] for a in acks] == [ModelDsackOption(1, (1, 2)), ModelDsackOption(2, (1, 3)),
                                    ModelDsackOption(6, (1, 3))]


class _Conn:
    def __init__(self, subs, maps):
        self.subflows, self.maps = subs, maps

    def dsn_of(self, i, k):
        m = self.maps[i]
        return m[k] if 0 <= k < len(m) else None


class _DsackSub:
    """What ModelDsackBoard reads of a subflow sender (una, high, index, cwnd) and calls on it."""

    def __init__(self, index, una, high):
        self.index, self.una, self.high, self.seg, self.cwnd = index, una, high, 1400, 10 * 1400
        self.fast_retransmitted, self.slow_starts = [], []
        self.reordering = types.SimpleNamespace(dsack_slow_start=lambda sub, now: self.slow_starts.append(now))

    def fast_retransmit_now(self, now):
        self.fast_retransmitted.append((now, self.una))
        return True


def test_dupdsack_counts_on_the_lowest_unreported_head_of_any_subflow():
    from cmtlab.sim.models.chihani import ModelDsackBoard, ModelDsackOption

    # subflow 0 (slow): segments 0.. carry DSN 0, 2, 4; subflow 1 (fast): DSN 1, 3, 5, 7
    s0, s1 = _DsackSub(0, 0, 3), _DsackSub(1, 0, 4)
    board = ModelDsackBoard(_Conn([s0, s1], [[0, 2, 4], [1, 3, 5, 7]]))
    # DSN 1 held at the receiver: reported, so subflow 1's head is not a candidate; subflow 0's head
    # (DSN 0, never reported) gets the duplicate (DupDSACK -> DupAck on subflow 0, not on 1)
    board.on_option(s1, ModelDsackOption(1, (1, 2)), 10)
    board.on_option(s1, ModelDsackOption(3, (1, 2)), 11)
    assert board.dupacks == {(0, 0): 2} and s0.fast_retransmitted == []
    board.on_option(s1, ModelDsackOption(5, (1, 2)), 12)
    assert s0.fast_retransmitted == [(12, 0)] and s1.fast_retransmitted == []   # the 3rd: DupAck retransmits
    board.on_option(s1, ModelDsackOption(7, (1, 2)), 13)
    assert board.dupacks[(0, 0)] == 4 and len(s0.fast_retransmitted) == 1        # == 3 exactly, once
    assert board.acked[1] == 4 and board.acked[7] == 1       # ackedSeg: once per segment and option


def test_dupdsack_reported_head_is_skipped_and_nothing_outstanding_is_no_candidate():
    from cmtlab.sim.models.chihani import ModelDsackBoard, ModelDsackOption

    s0, s1 = _DsackSub(0, 0, 2), _DsackSub(1, 1, 1)   # subflow 1: nothing outstanding
    board = ModelDsackBoard(_Conn([s0, s1], [[0, 2], [1]]))
    board.on_option(s0, ModelDsackOption(2, (2, 3)), 1)
    assert board.dupacks == {(0, 0): 1}
    board.acked[0] = 1                                   # subflow 0's head reported too: no candidate at all
    board.on_option(s0, ModelDsackOption(2, (2, 3)), 2)
    assert board.dupacks == {(0, 0): 1}


def test_dupdsack_retransmitted_segment_reported_twice_starts_dsack_slow_start():
    from cmtlab.sim.models.chihani import ModelDsackBoard, ModelDsackOption

    s0, s1 = _DsackSub(0, 0, 3), _DsackSub(1, 0, 3)
    board = ModelDsackBoard(_Conn([s0, s1], [[0, 2, 4], [1, 3, 5]]))
    board.retransmitted.add(1)                           # DSN 1 was fast-retransmitted (retransSeg)
    board.on_option(s1, ModelDsackOption(1, (1, 2)), 1)  # first report of DSN 1 (in both blocks: counted once)
    assert board.acked[1] == 1 and s0.slow_starts == [] and board.dupacks == {(0, 0): 1}
    board.on_option(s1, ModelDsackOption(1, (1, 2)), 2)  # its copy reported: acked[1] = 2 > 1 -> spurious,
    assert s0.slow_starts == [2] and board.spurious == 1 # DSACK_SS on the found head's subflow (0, not 1)
    assert board.dupacks == {(0, 0): 1}                  # and no duplicate counted


def test_chihani_ns3_dsack_discards_option_acks_and_saves_the_largest_window():
    from cmtlab.sim.models.chihani import ChihaniNs3Dsack, ModelDsackOption
    from cmtlab.sim.tcp.decisions import AckDecision, FastRetransmitDecision, TimeoutDecision

    ro = ChihaniNs3Dsack()
    assert ro.wants_every_ack and ro.wants_model_dsack and not ro.wants_dsack
    s0 = _DsackSub(0, 0, 3)
    ro.board = types.SimpleNamespace(on_option=lambda sub, opt, now: calls.append(opt))
    calls = []
    assert ro.on_ack(s0, 0, 0, ModelDsackOption(1, (1, 2)), 5) is AckDecision.DISCARD and len(calls) == 1
    assert ro.on_ack(s0, 1, 0, None, 6) is None
    assert ro.on_fast_retransmit(s0, 0) is FastRetransmitDecision.REDUCE and ro.saved_cwnd == 10 * 1400
    s0.cwnd = 4 * 1400
    assert ro.on_timeout(s0, 0) is TimeoutDecision.STANDARD and ro.saved_cwnd == 10 * 1400  # max(cwnd, saved)
    with pytest.raises(ValueError, match="MPTCP connection"):
        ChihaniNs3Dsack().attach(types.SimpleNamespace(connection=None))


def test_model_dsack_halves_the_slow_path_only_as_the_model_does():
    """Scenario 1 (the model's counters, data/papers-sim/arabi-r1.csv: subflow 0 no fast
    retransmit, subflow 1 — the 2 Mbit/s path — 24): every fast retransmit of the calibrated
    preset comes from DupDSACK and falls on the slow path."""
    import dataclasses

    from cmtlab.papers.arabi import experiments as ax
    from cmtlab.papers.arabi.papers_sim import TRANSFER_BYTES
    from cmtlab.sim.multipath import MptcpSimulation

    sc = ax.scenario(1, "uncoupled", "dsack", preset="chihani_ns3", loss_rate=0.0, seed=0)
    sim = MptcpSimulation(dataclasses.replace(sc, duration_s=None, transfer_bytes=TRANSFER_BYTES))
    sim.run()
    s0, s1 = sim.conn.subflows
    board = s0.reordering.board
    assert board is s1.reordering.board
    assert s0.fast_retransmits == 0 and s1.fast_retransmits == board.fast_retransmits > 10
    assert board.options > board.fast_retransmits * 3


# ------------------------------------------------------------------ no recovery state, wire sizes
# mp-tcp-socket-impl.cc: NewACK (934-1005) opens the window on every new ACK (OpenCWND) whatever
# happened before; DupAck (1812-) counts duplicates per segment; MpTcpHeader::GetSerializedSize
# (mp-tcp-header.cc 174-178) and the senders' olen/hlen (socket 519-556, 712-774, 1081-1115).

class _Cc(CongestionControl):
    """Records each window increase the model's recovery asks for."""

    def __init__(self):
        self.calls = []

    def increase_window(self, sub, n):
        self.calls.append(n)
        sub.cwnd += 100


def test_partial_ack_opens_the_window_and_exit_keeps_it():
    from cmtlab.sim.models.chihani import ChihaniNs3Recovery

    rec, sub = ChihaniNs3Recovery(), _Sub(cwnd_segs=10)
    sub.cc = _Cc()
    rec.enter(sub, 3, 0, 0)
    assert sub.cwnd == 5 * 1400
    rec.on_ack(sub, 1400, False)            # a partial ACK to the engine: a new ACK to the model
    rec.on_ack(sub, 2 * 1400, False)
    assert sub.cc.calls == [1, 2] and sub.cwnd == 5 * 1400 + 200
    sub.cwnd = 2 * 1400                     # the engine leaves recovery with cwnd = ssthresh ...
    rec.exit(sub)
    assert sub.cwnd == 5 * 1400 + 200       # ... the model never shrank it: the grown window stays


def test_duplicates_are_counted_per_segment_during_recovery():
    from cmtlab.sim.models.chihani import ChihaniNs3Recovery

    rec, sub = ChihaniNs3Recovery(), _Sub(cwnd_segs=10, una=10)
    sub.dupthresh, sub.ack_time_ns = 3, 777
    fired = []
    sub.fast_retransmit_now = lambda now: fired.append((now, sub.una)) or True
    for _ in range(4):
        rec.on_ack(sub, 0, True)            # the 3rd duplicate of segment 10 fires, the 4th does not
    assert fired == [(777, 10)]
    sub.una = 11                            # a partial ACK moved the head: a new per-segment counter
    rec.on_ack(sub, 0, True)
    rec.on_ack(sub, 0, True)
    assert fired == [(777, 10)]
    rec.on_ack(sub, 0, True)
    assert fired == [(777, 10), (777, 11)]


def test_model_header_counts_its_options_twice():
    from cmtlab.sim.models.chihani import MODEL_DSACK_OPTION_BLOCKS, model_tcp_header_bytes, model_wire_bytes

    # olen 15 (DSN) -> 4 words: hlen 9 -> 36 + 4; Eifel olen 32 -> 8 words: 52 + 8; the timestamp
    # option alone 17 -> 5 words: 40 + 5; the D-SACK option 33 -> 9 words: 56 + 9; none: 20
    assert [model_tcp_header_bytes(b) for b in (0, 15, 32, 17, 33)] == [20, 40, 60, 45, 65]
    data, acks = model_wire_bytes(1400, timestamps=False)
    assert data == 1462 and acks[0] == 42 and acks[MODEL_DSACK_OPTION_BLOCKS] == 87
    data, acks = model_wire_bytes(1400, timestamps=True)
    assert data == 1482 and acks[0] == 67


def test_calibrated_preset_sends_the_models_packet_sizes_old_preset_unchanged():
    import dataclasses

    from cmtlab.papers.arabi import experiments as ax
    from cmtlab.sim.multipath import MptcpSimulation

    def sizes(preset, ro="none"):
        sc = ax.scenario(1, "uncoupled", ro, preset=preset, loss_rate=0.0, seed=0)
        sim = MptcpSimulation(dataclasses.replace(sc, duration_s=None, transfer_bytes=14_000))
        return sim.data_wire, sim.ack_bytes[0], sc.segment_bytes

    assert sizes("chihani_ns3") == (1462, 42, 1400)
    assert sizes("chihani_ns3", "eifel") == (1482, 67, 1400)
    data, ack, seg = sizes("chihani")                 # the old preset: RFC sizes (timestamps on)
    assert (data, ack) == (seg + 20 + 20 + 12 + 2, 20 + 20 + 12 + 2)
