"""Reordering responses (cmtlab.sim.mechanisms.reordering): scripted ACK sequences fed to one TcpSender,
and end-to-end runs over two links with strongly asymmetric delays (reordering, no loss)."""

from __future__ import annotations


import pytest

from cmtlab import sim
from cmtlab.scenario import TcpOptions, striped_scenario
from cmtlab.sim import ClassicRecovery, NewReno, Simulation, registry
from cmtlab.sim.engine import EventQueue
from cmtlab.sim.net.link import NO_ORDER
from cmtlab.sim.mechanisms.reordering import ReorderingResponse
from cmtlab.sim.tcp import LOSS, OPEN, RECOVERY, TcpSender
from cmtlab.sim.tcp.decisions import FastRetransmitDecision, TimeoutDecision, UndoMode

SEG = 1000
MS = 1_000_000


class FakeNet:
    """Records what the sender hands to the network: (time_ns, segment, retransmission)."""

    def __init__(self):
        self.sent = []

    def __call__(self, now, k, nbytes, retx):
        self.sent.append((now, k, retx))

    def retx(self):
        return [k for _, k, r in self.sent if r]

    def new_since(self, i):
        return [k for _, k, r in self.sent[i:] if not r]


def sender(reordering="none", *, sack=False, timestamps=False, iw=10, n=200, **params):
    """A sender in congestion avoidance (cwnd = ssthresh = iw segments) that has sent 0..iw-1 at t=0."""
    resp = registry.make("reordering", reordering, **params) if isinstance(reordering, str) else reordering
    net = FakeNet()
    opts = TcpOptions(sack=sack, timestamps=timestamps, min_rto_s=0.2)
    sub = TcpSender(segment_bytes=SEG, transfer_bytes=SEG * n, initial_window_bytes=iw * SEG,
                    ssthresh_bytes=iw * SEG, options=opts, cc=NewReno(), recovery=ClassicRecovery(),
                    reordering=resp, net_send=net, queue=EventQueue())
    sub.rtt_sample(100 * MS)
    sub.start(0)
    assert [k for _, k, _ in net.sent] == list(range(iw))
    return sub, net, resp


def dupacks(sub, t_ns, ack, n, *, ts=0, sack_from=None):
    """``n`` duplicate ACKs for ``ack`` (with SACK: each SACKs one more segment above ``ack``)."""
    for j in range(n):
        sack = None if sack_from is None else (None, ((sack_from, sack_from + j + 1),))
        sub.on_ack(t_ns + j, ack, ts, sack)


# ---------------------------------------------------------------- hooks


class Recorder(ReorderingResponse):
    name = "recorder"
    wants_every_ack = True

    def __init__(self):
        super().__init__()
        self.acks, self.after = [], []

    def on_ack(self, sub, ack, ts_echo, sack, now):
        self.acks.append((ack, ts_echo, sack, sub.una))

    def after_ack(self, sub, ack, now):
        self.after.append(ack)


def test_hook_sees_every_ack_including_stale_with_echo_and_sack():
    rec = Recorder()
    sub, net, _ = sender(rec, sack=True, timestamps=True)
    sub.on_ack(100 * MS, 5, 7, None)
    sub.on_ack(101 * MS, 3, 2, (None, ((6, 7),)))  # stale: overtaken by the ACK of 5
    assert rec.acks == [(5, 7, None, 0), (3, 2, (None, ((6, 7),)), 5)]
    assert rec.after == [5]  # the stale ACK is not processed further
    assert sub.stale_acks == 1


def test_hooks_off_by_default_keep_the_fast_paths():
    class Never(ReorderingResponse):
        name = "never"

        def on_ack(self, *a):
            raise AssertionError("on_ack called without wants_every_ack")

        after_ack = on_ack

    sub, net, _ = sender(Never())
    sub.on_ack(100 * MS, 5, 0, None)
    sub.on_ack(101 * MS, 3, 0, None)
    assert sub.una == 5 and sub._plain


def test_snapshot_is_immutable_and_restore_leaves_recovery():
    sub, net, _ = sender()
    rec = sub.snapshot_congestion_state(0)
    with pytest.raises(AttributeError):
        rec.cwnd = 1
    dupacks(sub, 100 * MS, 0, 3)
    assert sub.state == RECOVERY and sub.cwnd < rec.cwnd
    sub.restore_congestion_state(rec, 101 * MS, how=UndoMode.EXACT)
    assert (sub.cwnd, sub.ssthresh, sub.state) == (rec.cwnd, rec.ssthresh, OPEN)
    sub.check_scoreboard()
    with pytest.raises(ValueError, match="how must be an UndoMode"):
        sub.restore_congestion_state(rec, 0, how="exact")  # typed decisions only: no strings


# ---------------------------------------------------------------- PR-R


@pytest.mark.parametrize("name", ["none", "pr-r"])
def test_prr_keeps_cwnd_at_the_third_dupack_but_retransmits(name):
    sub, net, _ = sender(name)
    cwnd0 = sub.cwnd
    dupacks(sub, 100 * MS, 0, 2)
    assert net.retx() == []
    dupacks(sub, 101 * MS, 0, 1)
    assert net.retx() == [0] and sub.fast_retransmits == 1 and sub.state == RECOVERY
    if name == "pr-r":
        assert sub.cwnd == cwnd0 and sub.ssthresh == cwnd0
    else:
        assert sub.cwnd < cwnd0


def test_prr_timeout_unchanged():
    sub, net, _ = sender("pr-r")
    sub.on_rto_event(sub.rto_event)
    assert sub.state == LOSS and sub.cwnd == SEG and sub.timeouts == 1


def _slow_start_sender(**params):
    """A PR-R sender in slow start (cwnd 4 segments, ssthresh 64) that has sent 0..3 at t=0."""
    resp = registry.make("reordering", "pr-r", **params)
    net = FakeNet()
    sub = TcpSender(segment_bytes=SEG, transfer_bytes=SEG * 200, initial_window_bytes=4 * SEG,
                    ssthresh_bytes=64 * SEG, options=TcpOptions(min_rto_s=0.2), cc=NewReno(),
                    recovery=ClassicRecovery(), reordering=resp, net_send=net, queue=EventQueue())
    sub.rtt_sample(100 * MS)
    sub.start(0)
    return sub, net


@pytest.mark.parametrize("rule", ["keep", "cwnd"])
def test_prr_algorithm1_reduces_neither_cwnd_nor_ssthresh(rule):
    """Alheid et al., Algorithm 1: PR-R skips the whole reduction function, so a fast retransmit in
    slow start leaves ssthresh alone and slow start goes on (default ``ssthresh="keep"``); the old
    rule ``ssthresh="cwnd"`` ends slow start at the fast retransmit."""
    sub, net = _slow_start_sender(ssthresh=rule)
    dupacks(sub, 100 * MS, 0, 3)  # segment 0 late or lost: 1, 2, 3 arrive
    assert net.retx() == [0] and sub.fast_retransmits == 1 and sub.state == RECOVERY
    assert sub.cwnd == 4 * SEG  # the window is kept either way
    sub.on_ack(200 * MS, 4, 0, None)  # the retransmission fills the hole: everything acknowledged
    assert sub.state == OPEN
    if rule == "keep":
        assert sub.ssthresh == 64 * SEG and sub.reordering.kept_ssthresh is None
        assert sub.cwnd == 5 * SEG  # the ACK of the lost packet grows the window by slow start
    else:
        assert sub.ssthresh == 4 * SEG
        assert 4 * SEG < sub.cwnd < 5 * SEG  # congestion avoidance from the kept window


def test_prr_keep_in_congestion_avoidance_equals_the_cwnd_rule():
    """With cwnd >= ssthresh the two rules give the same sender state after the episode."""
    states = []
    for rule in ("keep", "cwnd"):
        sub, net, _ = sender("pr-r", ssthresh=rule)
        dupacks(sub, 100 * MS, 0, 3)
        sub.on_ack(200 * MS, 10, 0, None)
        states.append((sub.cwnd, sub.ssthresh, sub.state, tuple(net.sent)))
    assert states[0] == states[1]


def test_prr_timeout_during_a_kept_recovery_forgets_the_kept_threshold():
    sub, net = _slow_start_sender()
    dupacks(sub, 100 * MS, 0, 3)
    assert sub.reordering.kept_ssthresh == 64 * SEG  # PR-R keeps it, not the sender
    sub.on_rto_event(sub.rto_event)  # the retransmission is lost too: the timeout reacts as legacy TCP
    assert sub.state == LOSS and sub.cwnd == SEG and sub.reordering.kept_ssthresh is None
    assert sub.ssthresh == 2 * SEG  # NewReno: max(FlightSize / 2, 2 SMSS), not the kept 64 segments


# ---------------------------------------------------------------- D-SACK


def _dsack_episode(variant="rfc", partial=False):
    """Segment 0 late: 3 SACK dupACKs -> fast retransmit of 0; (partial ACK -> retransmit of 5);
    the original arrives: full ACK."""
    sub, net, resp = sender("dsack", sack=True, variant=variant)
    before = (sub.cwnd, sub.ssthresh)
    dupacks(sub, 100 * MS, 0, 3, sack_from=1)
    assert net.retx() == [0]
    if partial:
        sub.on_ack(101 * MS, 5, 0, (None, ((6, 10),)))  # 5 looks lost: retransmitted on the partial ACK
        assert net.retx() == [0, 5]
    sub.on_ack(102 * MS, sub.high, 0, None)  # full ACK: the originals all arrived
    assert sub.state == OPEN and sub.cwnd < before[0]
    return sub, net, resp, before


def test_dsack_undo_when_the_retransmission_is_dsacked():
    sub, net, resp, before = _dsack_episode()
    reduced = (sub.cwnd, sub.ssthresh)
    sub.on_ack(130 * MS, sub.una, 0, ((5, 6), ()))  # D-SACK of a segment never retransmitted
    assert (sub.cwnd, sub.ssthresh) == reduced and resp.detections == 0
    sub.on_ack(131 * MS, sub.una, 0, ((0, 1), ()))  # the retransmission of 0 arrived as a duplicate
    assert resp.detections == 1 and sub.spurious_undos == 1
    assert sub.cwnd >= before[0] and sub.ssthresh >= before[1]


def test_dsack_no_undo_until_every_retransmission_is_dsacked():
    sub, net, resp, before = _dsack_episode(partial=True)
    reduced = (sub.cwnd, sub.ssthresh)
    sub.on_ack(130 * MS, sub.una, 0, ((0, 1), ()))
    assert (sub.cwnd, sub.ssthresh) == reduced and resp.detections == 0
    sub.on_ack(131 * MS, sub.una, 0, ((5, 6), ()))
    assert resp.detections == 1 and sub.cwnd >= before[0] and sub.ssthresh >= before[1]


def test_dsack_chihani_slow_starts_back_to_the_saved_window():
    sub, net, resp, before = _dsack_episode(variant="chihani", partial=True)
    cwnd = sub.cwnd
    sub.on_ack(130 * MS, sub.una, 0, ((0, 1), ()))  # first D-SACK of a retransmission suffices
    assert resp.detections == 1
    assert sub.ssthresh == before[0] and sub.cwnd == cwnd  # slow start up to the saved cwnd


# ---------------------------------------------------------------- Eifel


def _eifel_fast_retransmit(variant="rfc"):
    sub, net, resp = sender("eifel", timestamps=True, variant=variant)
    saved = sub.snapshot_congestion_state(0)
    dupacks(sub, 100 * MS, 0, 3, ts=0)  # segments 1-3 arrived; their TSval is 0
    assert net.retx() == [0] and resp.retransmit_ts == 100
    return sub, net, resp, saved


def test_eifel_detects_spurious_when_the_echo_predates_the_retransmission():
    sub, net, resp, saved = _eifel_fast_retransmit()
    n_sent = len(net.sent)
    sub.on_ack(110 * MS, 4, 0, None)  # the original of 0 (TSval 0) caused this ACK
    assert resp.detections == 1 and sub.state == OPEN
    pipe_prev = max(saved.flight_bytes, saved.ssthresh)
    assert sub.ssthresh == pipe_prev
    assert net.retx() == [0]  # nothing more retransmitted; new data follows
    assert all(not r for _, _, r in net.sent[n_sent:])


def test_eifel_not_spurious_when_the_retransmission_is_echoed():
    sub, net, resp, saved = _eifel_fast_retransmit()
    ssthresh = sub.ssthresh
    sub.on_ack(210 * MS, 4, 100, None)  # echoes the retransmission's TSval
    assert resp.detections == 0 and resp.retransmit_ts is None  # decided once: genuine
    assert sub.ssthresh == ssthresh < saved.ssthresh
    sub.on_ack(211 * MS, 6, 0, None)  # later ACKs no longer decide
    assert resp.detections == 0


def test_eifel_spurious_timeout_goes_on_with_new_data():
    sub, net, resp = sender("eifel", timestamps=True)
    t = sub.rto_event
    sub.on_rto_event(t)  # the ACKs were only late
    assert sub.state == LOSS and net.retx() == [0] and resp.retransmit_ts == t // MS
    i = len(net.sent)
    sub.on_ack(t + 5 * MS, 5, 0, None)  # ACK of the originals (TSval 0)
    assert resp.detections == 1 and sub.state == OPEN
    assert sub.ssthresh == 10 * SEG  # pipe_prev = max(FlightSize, ssthresh) before the timeout
    # cwnd = FlightSize + min(bytes_acked, IW) = 5 + 5 segments, then this ACK's own increase
    assert sub.cwnd == 10 * SEG + SEG * SEG // (10 * SEG)
    assert net.retx() == [0] and net.new_since(i) == list(range(10, 15))  # no go-back-N (RFC 4015 step 5)
    sub.check_scoreboard()


def test_eifel_chihani_checks_only_duplicate_acks():
    sub, net, resp, saved = _eifel_fast_retransmit(variant="chihani")
    sub.on_ack(110 * MS, 4, 0, None)  # an acceptable ACK with an old echo: not checked
    assert resp.detections == 0
    sub.on_ack(111 * MS, 4, 0, None)  # a duplicate ACK echoing a TSval before the retransmission
    assert resp.detections == 1
    assert (sub.cwnd, sub.ssthresh) == (saved.cwnd, saved.ssthresh)


def test_eifel_needs_timestamps_and_dsack_needs_sack():
    with pytest.raises(ValueError, match="timestamps must be True"):
        sender("eifel", timestamps=False)
    with pytest.raises(ValueError, match="sack must be True"):
        sender("dsack", sack=False)


# ---------------------------------------------------------------- F-RTO


def _frto_timeout(variant="rfc"):
    sub, net, resp = sender("frto", variant=variant)
    t = sub.rto_event
    sub.on_rto_event(t)
    assert sub.timeouts == 1 and sub.state == LOSS and sub.cwnd == SEG
    assert net.retx() == [0]  # step 1: only the first unacknowledged segment
    return sub, net, resp, t


def test_frto_sends_two_new_segments_then_declares_spurious():
    sub, net, resp, t = _frto_timeout()
    i = len(net.sent)
    sub.on_ack(t + 10 * MS, 2, 0, None)  # first ACK advances (acks originals 0, 1)
    assert net.new_since(i) == [10, 11] and net.retx() == [0]  # step 2b
    sub.on_ack(t + 11 * MS, 4, 0, None)  # second ACK advances: spurious (step 3b)
    assert resp.detections == 1 and sub.state == OPEN
    assert sub.ssthresh == max(resp.saved.flight_bytes, resp.saved.ssthresh)
    assert net.retx() == [0]  # no go-back-N: segments 1..9 never resent


def test_frto_duplicate_first_ack_reverts_to_conventional_recovery():
    sub, net, resp, t = _frto_timeout()
    sub.on_ack(t + 10 * MS, 0, 0, None)  # step 2a: a duplicate ACK
    assert resp.reverts == 1 and resp.detections == 0
    sub.on_ack(t + 300 * MS, 1, 0, None)  # slow start retransmits the unacknowledged segments
    assert net.retx()[:3] == [0, 1, 2]


def test_frto_duplicate_second_ack_reverts_to_conventional_recovery():
    sub, net, resp, t = _frto_timeout()
    sub.on_ack(t + 10 * MS, 2, 0, None)
    sub.on_ack(t + 11 * MS, 2, 0, None)  # step 3a
    assert resp.reverts == 1 and resp.detections == 0
    assert sub.cwnd <= 3 * SEG and 2 in net.retx()


def test_frto_chihani_ignores_dupacks_and_never_undoes():
    sub, net, resp = sender("frto", variant="chihani")
    dupacks(sub, 100 * MS, 0, 5)
    assert sub.fast_retransmits == 0 and net.retx() == []
    t = sub.rto_event
    sub.on_rto_event(t)
    sub.on_ack(t + 10 * MS, 2, 0, None)
    ssthresh = sub.ssthresh
    sub.on_ack(t + 11 * MS, 4, 0, None)
    assert resp.detections == 1 and sub.spurious_undos == 0 and sub.ssthresh == ssthresh


# ---------------------------------------------------------------- TCP-DOOR


def test_tcp_door_detects_out_of_order_acks_and_data():
    sub, net, resp = sender("tcp-door")
    sub.on_ack(100 * MS, 5, 0, None)
    assert resp.detections == 0
    sub.on_ack(101 * MS, 3, 0, None)  # an ACK overtaken by a later one
    assert resp.detections == 1
    dupacks(sub, 102 * MS, 5, 2)  # 6.. arrived before 5
    sub.on_ack(103 * MS, 9, 0, None)  # 5 arrived late (never retransmitted): data reordering
    assert resp.detections == 2
    sub.on_ack(104 * MS, 10, 0, None)  # in order: nothing
    assert resp.detections == 2


def test_tcp_door_disables_congestion_control_for_t1():
    sub, net, resp = sender("tcp-door")
    sub.on_ack(100 * MS, 5, 0, None)
    sub.on_ack(101 * MS, 3, 0, None)  # detection at 101 ms; T1 = SRTT = 100 ms
    cwnd = sub.cwnd
    dupacks(sub, 150 * MS, 5, 3)  # within T1: retransmit, keep the window
    assert net.retx() == [5] and sub.cwnd == cwnd


def test_tcp_door_instant_recovery_within_t2():
    sub, net, resp = sender("tcp-door")
    sub.on_ack(100 * MS, 1, 0, None)
    saved = sub.snapshot_congestion_state(0)
    dupacks(sub, 110 * MS, 1, 3)  # reduction at 112 ms
    assert sub.cwnd < saved.cwnd
    sub.on_ack(150 * MS, 0, 0, None)  # out-of-order ACK 38 ms later (< T2 = 100 ms)
    assert resp.instant_recoveries == 1
    assert (sub.cwnd, sub.ssthresh, sub.state) == (saved.cwnd, saved.ssthresh, OPEN)


def test_tcp_door_no_instant_recovery_after_t2():
    sub, net, resp = sender("tcp-door", t2_srtt=0.2)
    sub.on_ack(100 * MS, 1, 0, None)
    dupacks(sub, 110 * MS, 1, 3)
    reduced = sub.cwnd
    sub.on_ack(150 * MS, 0, 0, None)  # 38 ms later > T2 = 20 ms
    assert resp.detections == 1 and resp.instant_recoveries == 0 and sub.cwnd == reduced


def test_tcp_door_chihani_is_a_noop_ignoring_dupacks():
    sub, net, resp = sender("tcp-door", variant="chihani")
    assert not sub._every_ack
    dupacks(sub, 100 * MS, 0, 6)
    assert net.retx() == [] and sub.fast_retransmits == 0


# ---------------------------------------------------------------- parameters


def test_bad_parameters_name_the_parameter_and_the_allowed_values():
    with pytest.raises(ValueError, match=r"variant .*\['chihani', 'chihani_ns3', 'rfc'\]"):
        registry.make("reordering", "dsack", variant="linux")
    with pytest.raises(ValueError, match=r"variant .*\['paper'\]"):
        registry.make("reordering", "pr-r", variant="chihani")
    with pytest.raises(ValueError, match=r"ssthresh of reordering response 'pr-r' must be one of \['keep', 'cwnd'\]"):
        registry.make("reordering", "pr-r", ssthresh="half")
    with pytest.raises(ValueError, match=r"t1_srtt must be a finite number in \(0, 1000\]"):
        registry.make("reordering", "tcp-door", t1_srtt=0)
    with pytest.raises(ValueError, match=r"t2_srtt"):
        registry.make("reordering", "tcp-door", t2_srtt=-1)
    with pytest.raises(ValueError, match=r"reordering must be one of .*'dsack'.*'tcp-door'"):
        registry.make("reordering", "door")
    with pytest.raises(ValueError, match="invalid parameters"):
        registry.make("reordering", "eifel", t1_srtt=1)
    assert set(registry.names("reordering")) >= {"none", "dsack", "eifel", "frto", "tcp-door", "pr-r"}
    with pytest.raises(ValueError, match=r"reordering must be one of"):
        sim.simulate_striped([5e6], [0.05], transfer_bytes=10_000, reordering="nopr")
    with pytest.raises(ValueError, match=r"variant .*\['chihani', 'chihani_ns3', 'rfc'\]"):
        sim.simulate_striped([5e6], [0.05], transfer_bytes=10_000, reordering="frto",
                             reordering_params={"variant": "ns3"})


# ---------------------------------------------------------------- end to end

ASYM = dict(bandwidths_bps=[5e6, 5e6], delays_s=[0.02, 0.12], transfer_bytes=500_000)


def _run(name, params=None, trace=False, **opts):
    return sim.simulate_striped(ASYM["bandwidths_bps"], ASYM["delays_s"], transfer_bytes=ASYM["transfer_bytes"],
                                reordering=name, reordering_params=params, trace=trace, **opts)


@pytest.mark.parametrize("name,opts", [("dsack", dict(sack=True)), ("eifel", dict(timestamps=True))])
def test_asymmetric_delays_spurious_fast_retransmits_undone(name, opts):
    base = _run("none", **opts)
    assert base.completed and base.extra["loss_drops"] == 0 and base.extra["queue_drops"] == 0
    assert base.fast_retransmits > 0 and base.spurious_retransmissions > 0  # reordering, not loss
    r = _run(name, **opts)
    assert r.completed and r.extra["spurious_undos"] > 0
    assert r.throughput_bps >= base.throughput_bps


@pytest.mark.parametrize("name,params,opts", [
    ("dsack", {}, dict(sack=True)), ("dsack", {"variant": "chihani"}, dict(sack=True)),
    ("eifel", {}, dict(timestamps=True)), ("eifel", {"variant": "chihani"}, dict(timestamps=True)),
    ("frto", {}, {}), ("tcp-door", {}, {}), ("pr-r", {}, {}), ("pr-r", {"ssthresh": "cwnd"}, {}),
    ("frto", {"variant": "chihani"}, {}), ("tcp-door", {"variant": "chihani"}, {}),
])
def test_without_reordering_or_loss_every_response_equals_none(name, params, opts):
    kw = dict(transfer_bytes=300_000, trace={"packets", "cwnd"}, **opts)
    a = sim.simulate_striped([10e6], [0.05], tunnel=False, **kw)
    b = sim.simulate_striped([10e6], [0.05], tunnel=False, reordering=name, reordering_params=params, **kw)
    assert a.completion_time_s == b.completion_time_s
    assert a.traces["packets"].equals(b.traces["packets"])
    assert a.traces["cwnd"].equals(b.traces["cwnd"])
    assert b.extra["spurious_undos"] == 0 and b.fast_retransmits == 0



# ---------------------------------------------------------------- receiver: D-SACK (RFC 2883)


def test_receiver_dsack_first_block_then_the_block_containing_the_duplicate():
    from cmtlab.sim.tcp import TcpReceiver

    acks = []
    rcv = TcpReceiver(n_segs=100, m_ack=1, options=TcpOptions(sack=True), queue=EventQueue(),
                      net_ack=lambda now, ack, echo, sack, nb: acks.append((ack, sack)), dsack=True)
    for t, k in enumerate([0, 2, 5]):
        rcv.on_data(t, k, 0, False)
    assert acks[-1] == (1, (None, ((5, 6), (2, 3))))  # newest block first (RFC 2018)
    rcv.on_data(10, 2, 0, True)  # a duplicate above RCV.NXT
    assert acks[-1] == (1, ((2, 3), ((2, 3), (5, 6))))  # RFC 2883 sec. 4: D-SACK, then its block
    rcv.on_data(11, 0, 0, True)  # a duplicate below RCV.NXT
    assert acks[-1] == (1, ((0, 1), ((5, 6), (2, 3))))
    off = TcpReceiver(n_segs=100, m_ack=1, options=TcpOptions(sack=True), queue=EventQueue(),
                      net_ack=lambda now, ack, echo, sack, nb: acks.append((ack, sack)), dsack=False)
    off.on_data(0, 0, 0, False)
    off.on_data(1, 0, 0, True)
    assert acks[-1] == (1, None)  # without D-SACK (ns-3.44): a plain duplicate ACK


def test_one_response_instance_per_sender():
    resp = registry.make("reordering", "dsack")
    sender(resp, sack=True)
    with pytest.raises(ValueError, match="one instance per subflow"):
        sender(resp, sack=True)


def test_frto_recurring_timeout_before_any_ack_restarts_frto():
    sub, net, resp, t = _frto_timeout()
    sub.on_rto_event(sub.rto_event)  # no ACK came back: the timeout recurs on the same SND.UNA
    assert sub.timeouts == 2 and resp.phase == 1 and net.retx() == [0, 0] and sub.lost_out == 1
    t2 = sub.rto_event
    sub.on_ack(t2 + 1 * MS, 2, 0, None)
    sub.on_ack(t2 + 2 * MS, 4, 0, None)
    assert resp.detections == 1 and resp.saved.cwnd == 10 * SEG  # the state before the first timeout


def test_frto_timeout_after_new_data_takes_the_standard_reaction():
    sub, net, resp, t = _frto_timeout()
    sub.on_ack(t + 10 * MS, 2, 0, None)  # step 2b: two new segments sent
    sub.on_rto_event(sub.rto_event)
    assert sub.timeouts == 2 and resp.phase == 0 and sub.state == LOSS
    assert sub.lost_out == sub.high - sub.una  # go-back-N: everything outstanding is lost


@pytest.mark.parametrize("rule", ["keep", "cwnd"])
def test_pr_r_keeps_the_window_through_reordering_end_to_end(rule):
    base = _run("none")
    r = _run("pr-r", {"ssthresh": rule})
    assert base.fast_retransmits > 0 and r.fast_retransmits > 0
    assert r.throughput_bps > base.throughput_bps
    assert r.extra["final_cwnd_bytes"] > base.extra["final_cwnd_bytes"]


@pytest.mark.parametrize("name,params,opts", [
    ("dsack", {}, dict(sack=True)), ("dsack", {"variant": "chihani"}, dict(sack=True)),
    ("eifel", {}, dict(timestamps=True)), ("eifel", {"variant": "chihani"}, dict(timestamps=True, sack=True)),
    ("frto", {}, dict(sack=True)), ("frto", {"variant": "chihani"}, {}), ("tcp-door", {}, {}),
    ("tcp-door", {"variant": "chihani"}, {}), ("pr-r", {}, dict(sack=True, recovery="prr")),
])
def test_reordering_plus_random_loss_completes_with_a_consistent_scoreboard(name, params, opts):
    from cmtlab.scenario import LossModel

    class Checked(ReorderingResponse):
        """Delegates every hook and checks the scoreboard's counters against its flags at each ACK."""

        wants_every_ack = True

        def __init__(self, inner):
            super().__init__()
            self.inner, self.wants_dsack, self.checks = inner, inner.wants_dsack, 0

        def attach(self, sub):
            self.inner.attach(sub)

        def on_ack(self, sub, *a):
            sub.check_scoreboard()
            self.checks += 1
            if self.inner.wants_every_ack:
                self.inner.on_ack(sub, *a)

        def after_ack(self, sub, *a):
            if self.inner.wants_every_ack:
                self.inner.after_ack(sub, *a)

        def on_dsack(self, sub, *a):
            self.inner.on_dsack(sub, *a)

        def on_retransmit(self, sub, *a):
            self.inner.on_retransmit(sub, *a)

        def on_fast_retransmit(self, sub, now):
            return self.inner.on_fast_retransmit(sub, now)

        def on_recovery_exit(self, sub, now):
            self.inner.on_recovery_exit(sub, now)

        def on_timeout(self, sub, now):
            return self.inner.on_timeout(sub, now)

    sc = striped_scenario([5e6, 2e6], [0.02, 0.15], transfer_bytes=300_000, loss=LossModel("packet", 0.02),
                          seed=3, **opts)
    resp = Checked(registry.make("reordering", name, **params))
    simu = Simulation(sc, reordering=resp)
    r = simu.run()
    simu.sender.check_scoreboard()
    assert r.completed and r.extra["loss_drops"] > 0 and resp.checks > 100


@pytest.mark.parametrize("rfc", [True, False])
def test_receiver_tsecr_of_a_late_segment_filling_a_hole(rfc):
    from cmtlab.sim.tcp import TcpReceiver

    acks = []
    rcv = TcpReceiver(n_segs=100, m_ack=1, options=TcpOptions(timestamps=True), queue=EventQueue(),
                      net_ack=lambda now, ack, echo, sack, nb: acks.append((ack, echo)), rfc7323_echo=rfc)
    for t, (k, tsval) in enumerate([(0, 0), (2, 20), (3, 30), (1, 10)]):
        rcv.on_data(t, k, tsval, False)
    assert acks[:3] == [(1, 0), (1, 0), (1, 0)]  # out-of-order segments do not move TS.Recent
    # RFC 7323 sec. 4.3: the hole is filled by segment 1 (TSval 10 >= TS.Recent 0) -> echo 10;
    # ns-3.44 keeps TS.Recent unless the TSval is the newest seen (30)
    assert acks[3] == (4, 10 if rfc else 0)


def test_eifel_asks_for_rfc7323_echo_none_does_not():
    sc = striped_scenario([5e6], [0.05], transfer_bytes=20_000, tunnel=False, timestamps=True)
    assert Simulation(sc, reordering=registry.make("reordering", "eifel")).receiver.rfc7323_echo
    assert not Simulation(sc).receiver.rfc7323_echo


class AckDelaySpike(sim.LinkModel):
    """A point-to-point ACK link whose ACKs sent during ``[t0_s, t1_s)`` take ``extra_s`` longer
    (FIFO kept: later ACKs queue behind them) — a delay spike that makes the timer expire."""

    def __init__(self, rate_bps, delay_s, t0_s, t1_s, extra_s):
        self.inner = sim.PointToPointLink(rate_bps, delay_s, 100)
        self.t0, self.t1, self.extra = int(t0_s * 1e9), int(t1_s * 1e9), int(extra_s * 1e9)
        self.last = 0
        self.packets = self.bytes = self.queue_drops = self.loss_drops = self.last_start_ns = 0

    def transmit(self, now_ns, wire_bytes, order_ns=NO_ORDER):
        arr = self.inner.transmit(now_ns, wire_bytes, order_ns)
        self.last_start_ns, self.packets = self.inner.last_start_ns, self.inner.packets
        if arr < 0:
            return arr
        if self.t0 <= now_ns < self.t1:
            arr += self.extra
        self.last = arr = max(arr, self.last)
        return arr

    def serialisation_ns(self, wire_bytes):
        return self.inner.serialisation_ns(wire_bytes)

    def propagation_ns(self):
        return self.inner.propagation_ns()


def _spike_run(name, **opts):
    sc = striped_scenario([10e6], [0.1], transfer_bytes=2_000_000, tunnel=False, min_rto_s=0.2, **opts)
    resp = registry.make("reordering", name)
    return Simulation(sc, reordering=resp, ack_links=[AckDelaySpike(10e6, 0.05, 1.5, 1.52, 0.6)]).run(), resp


@pytest.mark.parametrize("name,opts", [("frto", {}), ("eifel", dict(timestamps=True))])
def test_spurious_timeout_from_an_ack_delay_spike_no_go_back_n(name, opts):
    base, _ = _spike_run("none", **opts)
    assert base.completed and base.timeouts >= 1 and base.extra["loss_drops"] == 0
    assert base.retransmissions > 100  # conventional recovery resends the whole window
    r, resp = _spike_run(name, **opts)
    assert r.completed and r.timeouts >= 1 and resp.detections == 1 and r.extra["spurious_undos"] == 1
    assert r.retransmissions <= r.timeouts  # only the timer's own retransmissions
    assert r.completion_time_s < base.completion_time_s


# ---------------------------------------------------------------- typed decisions


@pytest.mark.parametrize("hook, answer", [("on_fast_retransmit", True), ("on_fast_retransmit", "keep"),
                                          ("on_fast_retransmit", TimeoutDecision.STANDARD),
                                          ("on_timeout", None), ("on_timeout", "veto"),
                                          ("on_timeout", FastRetransmitDecision.REDUCE)])
def test_a_response_must_answer_with_its_typed_decision(hook, answer):
    """Responses answer the sender with enums (FastRetransmitDecision, TimeoutDecision): a string,
    a boolean or the other enum is refused with an error naming the hook and the type."""
    class Untyped(ReorderingResponse):
        name = "untyped"

    setattr(Untyped, hook, lambda self, sub, now: answer)
    sub, net, _ = sender(Untyped())
    expected = "FastRetransmitDecision" if hook == "on_fast_retransmit" else "TimeoutDecision"
    with pytest.raises(ValueError, match=f"{hook} must return a {expected}"):
        if hook == "on_fast_retransmit":
            dupacks(sub, 100 * MS, 0, 3)
        else:
            sub.on_rto_event(sub.rto_event)


def test_keep_window_decision_keeps_cwnd_and_the_standard_one_reduces_it():
    class Keep(ReorderingResponse):
        name = "keep"

        def on_fast_retransmit(self, sub, now):
            return FastRetransmitDecision.KEEP_WINDOW

    kept, _, _ = sender(Keep())
    reduced, _, _ = sender("none")
    for sub in (kept, reduced):
        dupacks(sub, 100 * MS, 0, 3)
        assert sub.state == RECOVERY and sub.fast_retransmits == 1
    assert kept.cwnd == kept.ssthresh == 10 * SEG
    assert reduced.ssthresh < 10 * SEG
