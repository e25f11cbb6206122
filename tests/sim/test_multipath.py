"""cmtlab.sim's MPTCP connection: the bridge to single-path TCP, conservation, buffers, topology, guards."""

import numpy as np
import pytest

from cmtlab import sim
from cmtlab.scenario import LossModel
from cmtlab.sim.multipath import MptcpSimulation
from cmtlab.sim.mptcp.scenario import mptcp_scenario
from cmtlab.sim.registry import register
from cmtlab.sim.mechanisms.schedulers import ConnectionScheduler, HoldUntil

ARABI_B = [5e6, 2e6, 7e6]
ARABI_D = [0.1, 0.01, 0.05]


@register("scheduler", "test_round_robin")
class _TestRoundRobin(ConnectionScheduler):
    """Round robin over subflows, skipping a subflow without a segment of window (test-only)."""

    def __init__(self):
        self.next = 0

    def select(self, conn, now_ns):
        n = len(conn.subflows)
        for j in range(n):
            i = (self.next + j) % n
            s = conn.subflows[i]
            if s.available_window() >= s.seg:
                return i
        return None

    def on_sent(self, conn, subflow, dsn, now_ns):
        self.next = (subflow + 1) % len(conn.subflows)


@register("scheduler", "test_hold_once")
class _TestHoldOnce(_TestRoundRobin):
    """Holds the very first segment until 50 ms, then round robin (exercises HoldUntil)."""

    def __init__(self):
        super().__init__()
        self.released = False

    def select(self, conn, now_ns):
        if not self.released:
            if now_ns < 50_000_000:
                return HoldUntil(50_000_000)
            self.released = True
        return super().select(conn, now_ns)


def mp(b, d, **kw):
    kw.setdefault("congestion", "newreno")
    kw.setdefault("scheduler", "test_round_robin")
    return sim.simulate_mptcp(b, d, **kw)


# ---------------------------------------------------------------- the bridge to single-path TCP
ONE_PATH_CASES = [
    dict(transfer_bytes=400_000, loss=LossModel("packet", 0.01), seed=3),
    dict(transfer_bytes=300_001, loss=LossModel("packet", 0.02), seed=1, sack=True),
    dict(transfer_bytes=300_001, loss=LossModel("packet", 0.02), seed=2, sack=True, recovery="prr", timestamps=True),
    dict(transfer_bytes=200_000, loss=LossModel("packet", 0.03), seed=4, limited_transmit=True, queue_packets=10),
    dict(transfer_bytes=500_000, seed=5, queue_packets=8),
    dict(transfer_bytes=150_000, loss=LossModel("bit", 2e-6), seed=6, sack=True, sack_loss_detection=True,
         receive_buffer_bytes=20 * 536),
]


@pytest.mark.parametrize("case", range(len(ONE_PATH_CASES)))
def test_one_subflow_reproduces_single_path_tcp_exactly(case):
    kw = ONE_PATH_CASES[case]
    a = sim.simulate_striped([10e6], [0.05], tunnel=False, trace={"packets", "cwnd"}, **kw)
    b = mp([10e6], [0.05], trace=True, **kw)
    assert b.completed and a.completed
    assert b.completion_time_s == a.completion_time_s
    for attr in ("data_segments_sent", "retransmissions", "fast_retransmits", "timeouts",
                 "spurious_retransmissions"):
        assert getattr(b, attr) == getattr(a, attr), attr
    pa, pb = a.traces["packets"], b.traces["packets"]
    assert np.array_equal(pa["time_s"].to_numpy(), pb["time_s"].to_numpy())
    assert np.array_equal(pa["seq"].to_numpy(), pb["seq"].to_numpy())
    assert np.array_equal(pb["seq"].to_numpy(), pb["dsn"].to_numpy())  # one subflow: DSN = subflow sequence
    ca, cb = a.traces["cwnd"], b.traces["cwnd"]
    assert np.array_equal(ca["cwnd_bytes"].to_numpy(), cb["cwnd_bytes"].to_numpy())


def test_one_subflow_untraced_equals_striped_fast_path():
    kw = dict(transfer_bytes=600_000, loss=LossModel("packet", 0.01), seed=9)
    a = sim.simulate_striped([20e6], [0.02], tunnel=False, **kw)
    b = mp([20e6], [0.02], **kw)
    assert (b.completion_time_s, b.data_segments_sent, b.retransmissions) == \
        (a.completion_time_s, a.data_segments_sent, a.retransmissions)


# ---------------------------------------------------------------- conservation and order
@pytest.mark.parametrize("mode", ["rfc", "paper", "chihani"])
@pytest.mark.parametrize("retransmit", ["original", "reinject"])
def test_every_byte_delivered_once_in_order_on_three_lossy_subflows(mode, retransmit):
    E = 700_001
    r = mp(ARABI_B, ARABI_D, transfer_bytes=E, loss=LossModel("packet", 0.01), seed=2, dupack_mode=mode,
           retransmit=retransmit, trace=True, sack=(mode == "rfc"))
    assert r.completed and r.delivered_bytes == E
    n = -(-E // 536)
    pk = r.traces["packets"]
    # every DSN was sent at least once, nothing beyond the transfer
    assert set(pk["dsn"]) == set(range(n))
    # per subflow: fresh segments are 0, 1, 2, ... of the subflow's own sequence space
    for i, g in pk[~pk["retransmission"]].groupby("subflow"):
        assert np.array_equal(g["seq"].to_numpy(), np.arange(len(g)))
    buf = r.traces["buffer"]
    assert (np.diff(buf["data_rcv_nxt"].to_numpy()) >= 0).all()  # in-order delivery never goes back
    assert buf["ooo_buffer_bytes"].max() <= r.scenario.receive_buffer_bytes
    # the subflow table adds up to the connection
    sf = r.subflows
    assert sf["segments_sent"].sum() == r.data_segments_sent
    assert sf["retransmissions"].sum() == r.retransmissions
    assert len(sf) == 3 and (sf["goodput_bps"] > 0).all()


def test_paper_dupack_semantics_cause_spurious_retransmissions_rfc_does_not():
    kw = dict(transfer_bytes=600_000, seed=1)
    rfc = mp(ARABI_B, ARABI_D, dupack_mode="rfc", **kw)
    paper = mp(ARABI_B, ARABI_D, dupack_mode="paper", **kw)
    assert rfc.spurious_retransmissions == 0
    assert paper.spurious_retransmissions > 0 and paper.fast_retransmits > rfc.fast_retransmits


def test_smaller_receive_buffer_never_gives_more_throughput():
    # buffer-limited regime (queues large enough that nothing is dropped): the connection
    # keeps at most the receive buffer outstanding, so throughput <= buffer / shortest RTT
    bufs = (4 * 536, 8 * 536, 16 * 536, 32 * 536)
    runs = [mp(ARABI_B, ARABI_D, transfer_bytes=600_000, receive_buffer_bytes=buf, seed=1, queue_packets=1000)
            for buf in bufs]
    thr = [r.throughput_bps for r in runs]
    assert all(r.retransmissions == 0 for r in runs)
    assert all(a <= b * 1.001 for a, b in zip(thr, thr[1:]))
    for buf, t in zip(bufs, thr):
        assert t <= buf * 8 / min(ARABI_D)


def test_receive_buffer_bounds_the_out_of_order_buffer():
    buf = 12 * 536
    r = mp(ARABI_B, ARABI_D, transfer_bytes=500_000, receive_buffer_bytes=buf, seed=3, trace=True)
    assert r.completed
    assert r.extra["max_ooo_buffer_bytes"] <= buf
    assert r.traces["buffer"]["ooo_buffer_bytes"].max() <= buf


def test_duration_limited_run_stops_at_the_duration():
    r = mp(ARABI_B, ARABI_D, duration_s=3.0, seed=1)
    assert r.completed and r.extra["stop_reason"] == "duration"
    assert r.extra["sim_time_s"] == pytest.approx(3.0)
    assert 0 < r.throughput_bps < sum(ARABI_B)


def test_hold_until_delays_the_first_segment():
    r = mp([10e6], [0.02], transfer_bytes=50_000, scheduler="test_hold_once", trace=True)
    assert r.completed
    pk = r.traces["packets"]
    plain = mp([10e6], [0.02], transfer_bytes=50_000, trace=True)
    assert r.completion_time_s > plain.completion_time_s
    assert len(pk) == len(plain.traces["packets"])


# ---------------------------------------------------------------- topology
def test_shared_bottleneck_with_competing_tcp_conserves_capacity():
    rate = 4e6
    r = mp([rate, 3e6], [0.04, 0.04], duration_s=20.0, competing_flows=1, seed=2, queue_packets=30)
    sf = r.subflows
    mptcp_on_shared = sf.loc[0, "throughput_bps"]
    tcp = r.extra["tcp0_throughput_bps"]
    assert tcp > 0 and mptcp_on_shared > 0
    # what crosses the shared link cannot exceed its rate (payload share of the wire)
    assert mptcp_on_shared + tcp <= rate * 1.001
    assert sf.loc[0, "link_utilisation"] > 0.8


def test_backbone_link_carries_both_subflows():
    kw = dict(transfer_bytes=500_000, seed=1, queue_packets=1000)
    r = mp([5e6, 5e6], [0.02, 0.04], backbone_bps=100e6, **kw)
    base = mp([5e6, 5e6], [0.02, 0.04], **kw)
    assert r.completed
    assert 0 < r.extra["backbone_utilisation"] < 0.2
    # a fast backbone adds only its serialisation time per packet
    assert r.completion_time_s == pytest.approx(base.completion_time_s, rel=0.05)


# ---------------------------------------------------------------- determinism, tidy output
def test_same_seed_same_result_different_seed_different_losses():
    kw = dict(transfer_bytes=400_000, loss=LossModel("packet", 0.01))
    a, b, c = (mp(ARABI_B, ARABI_D, seed=s, **kw) for s in (4, 4, 5))
    assert a.completion_time_s == b.completion_time_s and a.retransmissions == b.retransmissions
    assert (a.completion_time_s, a.retransmissions) != (c.completion_time_s, c.retransmissions)


def test_a_round_robin_subclass_s_own_select_is_honoured_and_a_bad_select_index_is_refused():
    from cmtlab.sim.mechanisms.schedulers.round_robin import RoundRobinConnectionScheduler

    class OnlyFirst(RoundRobinConnectionScheduler):  # the compiled parent answers in C; this select() must win
        def select(self, conn, now_ns):
            return 0 if conn.subflows[0].available_window() >= conn.subflows[0].seg else None

    register("scheduler", "test_only_first")(OnlyFirst)
    r = mp(ARABI_B, ARABI_D, transfer_bytes=100_000, scheduler="test_only_first")
    assert r.completed and r.subflows["segments_sent"].tolist()[1:] == [0, 0]

    class BadIndex(ConnectionScheduler):
        def select_index(self, conn, now_ns):
            return -7

    register("scheduler", "test_bad_index")(BadIndex)
    with pytest.raises(ValueError, match="select_index must answer a subflow index >= 0, NO_SUBFLOW or USE_SELECT"):
        mp(ARABI_B, ARABI_D, transfer_bytes=100_000, scheduler="test_bad_index")


# ---------------------------------------------------------------- bad input and guards
@pytest.mark.parametrize("kw,param", [
    (dict(congestion="nope"), "congestion"),
    (dict(scheduler="nope"), "scheduler"),
    (dict(reordering="nope"), "reordering"),
    (dict(dupack_mode="sometimes"), "dupack_mode"),
    (dict(retransmit="twice"), "retransmit"),
    (dict(receive_buffer_bytes=100), "receive_buffer_bytes"),
    (dict(dss_bytes=-1), "dss_bytes"),
    (dict(backbone_bps=0), "backbone_bps"),
    (dict(ack_path="ideal"), "ack_path"),
])
def test_bad_input_names_the_parameter(kw, param):
    with pytest.raises(ValueError, match=param):
        mp(ARABI_B, ARABI_D, transfer_bytes=10_000, **kw)


@pytest.mark.parametrize("b,d,param", [([1e6, 0], [0.1, 0.1], "bandwidths_bps"),
                                       ([1e6, 1e6], [0.1, -0.1], "rtts_s"),
                                       ([1e6], [0.1, 0.1], "same length")])
def test_bad_paths(b, d, param):
    with pytest.raises(ValueError, match=param):
        mp(b, d, transfer_bytes=10_000)


def test_transfer_bytes_xor_duration():
    with pytest.raises(ValueError, match="transfer_bytes"):
        mp([1e6], [0.1])
    with pytest.raises(ValueError, match="duration_s"):
        mp([1e6], [0.1], transfer_bytes=1000, duration_s=1.0)
    with pytest.raises(ValueError, match="loss rate"):
        mp([1e6], [0.1], transfer_bytes=1000, loss=LossModel("packet", -0.1))


def test_runs_cannot_hang():
    r = mp(ARABI_B, ARABI_D, transfer_bytes=2_000_000, max_sim_time_s=0.5)
    assert not r.completed and r.extra["stop_reason"] == "max_sim_time"
    sc = mptcp_scenario(ARABI_B, ARABI_D, transfer_bytes=2_000_000, congestion="newreno",
                        scheduler="test_round_robin")
    r = MptcpSimulation(sc, max_events=500).run()
    assert not r.completed and r.extra["stop_reason"] == "max_events" and r.extra["events"] == 500


def test_sweep_varies_and_caches_mptcp_scenarios(tmp_path):
    from cmtlab.sweep import run_sweep

    base = mptcp_scenario(ARABI_B, ARABI_D, transfer_bytes=100_000, congestion="newreno",
                          scheduler="test_round_robin")
    scs = [({"mode": m}, base.replace(dupack_mode=m)) for m in ("rfc", "paper")]
    df = run_sweep("cmtlab", scs, seeds=[0, 1], workers=1, cache_dir=tmp_path)
    assert len(df) == 4 and set(df["mode"]) == {"rfc", "paper"}
    assert "sf2_goodput_bps" in df.columns
    again = run_sweep("cmtlab", scs, seeds=[0, 1], workers=1, cache_dir=tmp_path)
    assert again["completion_time_s"].tolist() == df["completion_time_s"].tolist()


def test_reinjection_sends_lost_data_on_another_subflow_too():
    kw = dict(transfer_bytes=700_001, loss=LossModel("packet", 0.01), seed=2, sack=True)
    orig = mp(ARABI_B, ARABI_D, **kw)
    re = mp(ARABI_B, ARABI_D, retransmit="reinject", trace=True, **kw)
    assert orig.extra["reinjections"] == 0
    assert re.completed and re.delivered_bytes == 700_001 and re.extra["reinjections"] > 0
    assert re.extra["duplicate_dsn_received"] <= re.extra["reinjections"]
    pk = re.traces["packets"]
    # a re-injected copy is a new segment of another subflow carrying an already-sent DSN
    fresh = pk[~pk["retransmission"]]
    assert fresh["dsn"].duplicated().sum() == re.extra["reinjections"]


@pytest.mark.parametrize("reordering", ["dsack", "eifel", "pr-r"])
def test_reordering_responses_act_on_every_subflow(reordering):
    """A reordering response is built per subflow: on three asymmetric paths the same run without a
    response and with one differ: the receivers' duplicate ACKs of Alheid's Fig. 1 (``dupack_mode=
    "paper"``) cause false fast retransmits, which dsack and eifel undo and pr-r rides out."""
    kw = dict(transfer_bytes=1_000_000, congestion="lia", sack=True, timestamps=True, dupack_mode="paper",
              receive_buffer_bytes=1 << 20, loss=LossModel("packet", 0.002), seed=1)
    base = sim.simulate_mptcp([5e6, 2e6, 7e6], [0.2, 0.02, 0.1], **kw)
    r = sim.simulate_mptcp([5e6, 2e6, 7e6], [0.2, 0.02, 0.1], reordering=reordering, **kw)
    assert r.completed and base.completed
    assert r.row()["reordering"] == reordering
    assert r.extra["spurious_undos"] == r.subflows["spurious_undos"].sum()
    assert base.extra["spurious_undos"] == 0
    if reordering == "pr-r":
        assert r.completion_time_s < base.completion_time_s  # the window survives the false fast retransmits
    else:
        assert r.extra["spurious_undos"] >= 1


def test_link_models_are_named_in_the_scenario():
    """``links`` names a registered link model per path; point-to-point by name is the default run, and
    a model's for_path builds the access links the subflows really cross (a slower custom link
    slows the transfer)."""
    from cmtlab.sim.net.link import PointToPointLink

    @register("link", "test_half_rate")
    class HalfRate(PointToPointLink):
        @classmethod
        def for_path(cls, *, rate_bps, delay_s, queue_packets, loss, rng, seed, stream, factor=0.5):
            return (PointToPointLink(rate_bps * factor, delay_s, queue_packets, loss, rng),
                    PointToPointLink(rate_bps, delay_s, queue_packets))

    kw = dict(transfer_bytes=300_000, congestion="lia", seed=2)
    base = sim.simulate_mptcp([5e6, 2e6], [0.1, 0.02], **kw)
    named = sim.simulate_mptcp([5e6, 2e6], [0.1, 0.02], links="point_to_point", **kw)
    assert named.completion_time_s == base.completion_time_s and named.row()["scenario_key"] == base.row()["scenario_key"]
    slow = sim.simulate_mptcp([5e6, 2e6], [0.1, 0.02], links=["point_to_point", ("test_half_rate", {"factor": 0.25})],
                              **kw)
    assert slow.scenario.links[1] == ("test_half_rate", (("factor", 0.25),))
    assert slow.completion_time_s > base.completion_time_s
    with pytest.raises(ValueError, match="links"):
        sim.simulate_mptcp([5e6, 2e6], [0.1, 0.02], links=["point_to_point"], **kw)
    with pytest.raises(ValueError, match="links\\[1\\]"):
        sim.simulate_mptcp([5e6, 2e6], [0.1, 0.02], links=["point_to_point", "no_such_link"], **kw)


# ---------------------------------------------------------------- the connection's rings
def test_dsn_map_keeps_the_last_capacity_mappings():
    from cmtlab.sim.mptcp.connection import DsnMap

    m = DsnMap(5)  # a ring of 8
    for k in range(20):
        m.append(1000 + 3 * k)
    assert m.end == 20
    assert [m.get(k) for k in range(12, 20)] == [1000 + 3 * k for k in range(12, 20)]
    assert [m.at(k) for k in range(12, 20)] == [1000 + 3 * k for k in range(12, 20)]
    assert m.get(11) is None and m.get(20) is None and m.get(-1) is None  # forgotten, not mapped yet


def test_occupancy_integral_is_exact_beyond_64_bits():
    """The out-of-order occupancy integral (byte * ns) stays an exact integer however long the buffer
    holds its segments (compiled: summed in a 64-bit part, moved into a Python integer before it or a
    step could overflow)."""
    from cmtlab.sim.engine import EventQueue
    from cmtlab.sim.mptcp.connection import MptcpConnection

    seg = 1400
    conn = MptcpConnection(n_dsn=None, last_len=seg, segment_bytes=seg, scheduler=None,
                           receive_buffer_bytes=seg << 17, retransmit="original", seed=0,
                           queue=EventQueue(), trace_buffer=False)
    for dsn in range(1, 1 << 16):
        conn.ooo.add(dsn)
    expect, t = 0, 0
    for dt in [10, 3 << 31, (1 << 31) - 1, 1 << 40] + [(1 << 31) - 1] * 40_000:  # 40 000 * 2**47 > 2**62
        t += dt
        conn._occupancy(t)
        expect += ((1 << 16) - 1) * seg * dt
        assert conn.ooo_bytes_time == expect
    assert expect > seg << 62


def test_a_receiver_sink_is_a_data_sink_and_a_function_is_wrapped():
    """A subflow receiver hands its in-order segments to a DataSink (the connection's data level);
    a function assigned as ``sink`` is wrapped (its ``None`` meaning the usual ACK), anything else
    is refused naming the parameter; an ACK's DATA_ACK is its ``data_level``'s ``data_ack()``."""
    import types

    from cmtlab.sim.engine import EventQueue
    from cmtlab.sim.tcp.data_sink import DataSink, DataSinkCall
    from cmtlab.sim.tcp.decisions import OutOfOrderAck
    from cmtlab.sim.tcp.receiver import TcpReceiver
    from cmtlab.sim.tcp.wire import AckSend

    opts = types.SimpleNamespace(delayed_ack_timeout_s=0.2, immediate_ack_on_out_of_order=True, sack=False,
                                 timestamps=False)
    acks, got = [], []
    rcv = TcpReceiver(n_segs=0, m_ack=1, options=opts, net_ack=lambda now, a, ts, s, n: acks.append(a),
                      queue=EventQueue())
    rcv.completes_run = False
    rcv.sink = lambda now, r, first, end: got.append((first, end))  # answers None: the usual ACK
    assert isinstance(rcv.sink, DataSinkCall) and isinstance(rcv.sink, DataSink)
    rcv.on_data(0, 0, 0, False)
    rcv.on_data(1, 2, 0, False)  # out of order: held by the receiver, nothing delivered
    rcv.on_data(2, 1, 0, False)  # fills the hole: [1, 3) delivered at once
    assert got == [(0, 1), (1, 3)] and acks == [1, 1, 3]
    rcv.sink = lambda now, r, first, end: OutOfOrderAck.WITHHOLD
    rcv.on_data(3, 3, 0, False)
    assert acks == [1, 1, 3]  # withheld
    with pytest.raises(TypeError, match="sink"):
        rcv.sink = 42

    class Level(DataSink):
        def deliver(self, now, receiver, first, end):
            return OutOfOrderAck.ACK

        def data_ack(self):
            return 17

    from cmtlab.sim.net.packet import PacketSink

    class Catch(PacketSink):
        def __init__(self):
            self.packets = []

        def receive(self, now, packet):
            self.packets.append(packet.data_ack)

    from cmtlab.sim.engine.loop import run_events
    from cmtlab.sim.net.link import PointToPointLink
    from cmtlab.sim.net.route import Route

    q = EventQueue()
    catch = Catch()
    send = AckSend(Route(q, (PointToPointLink(1e6, 0.001, 10),), catch), (40, 52, 60, 68, 76), data_level=Level())
    send.send(0, 5, 0, None, 0)
    run_events(q, tmax_ns=10**9, budget=100)
    assert catch.packets == [17]
    with pytest.raises(TypeError, match="data_level"):
        AckSend(Route(q, (PointToPointLink(1e6, 0.001, 10),), catch), (40, 52, 60, 68, 76), data_level=object())
