"""cmtlab.sim TCP behaviour: RFC 5681/6582/6298/3042/6937/2883 properties on hand-made losses."""

import math

import numpy as np
import pytest

from cmtlab.scenario import striped_scenario
from cmtlab.sim import PrrRecovery, Simulation
from helpers.sim import one_link


def _ack_arrivals(result, ack):
    a = result.traces["acks"]
    return a.loc[a["ack"] == ack, "arrival_s"].sort_values().to_numpy()


def _sends_at(result, t, *, retx=None):
    p = result.traces["packets"]
    sel = np.isclose(p["time_s"], t, atol=1e-12, rtol=0)
    if retx is not None:
        sel &= p["retransmission"] == retx
    return p.loc[sel]


# ---------------------------------------------------------------- slow start / congestion avoidance
def test_slow_start_doubles_per_rtt_with_an_ack_per_segment():
    # 100 Mbit/s, 200 ms: serialisation is negligible, every round trip is one "round"
    r, _ = one_link(rate=100e6, rtt=0.2, segments=200, m_ack=1, ssthresh_bytes=10**7)
    p = r.traces["packets"]
    rounds = np.floor((p["time_s"] + 0.01) / 0.2).astype(int)
    per_round = rounds.value_counts().sort_index().to_numpy()
    assert per_round[:7].tolist() == [1, 2, 4, 8, 16, 32, 64]  # RFC 5681 sec. 3.1: cwnd doubles per RTT
    assert r.retransmissions == 0


def test_congestion_avoidance_adds_about_one_segment_per_rtt():
    seg = 536
    r, _ = one_link(rate=100e6, rtt=0.2, segments=400, m_ack=1, initial_window_bytes=20 * seg,
                    ssthresh_bytes=20 * seg)
    c = r.traces["cwnd"]
    w = c["cwnd_bytes"].to_numpy()
    # every change is one ACK's increase, max(1, SMSS*SMSS // cwnd) bytes (ns-3 TcpNewReno)
    steps = np.diff(w)
    assert np.array_equal(steps, np.maximum(1, seg * seg // w[:-1]))
    # per round trip: about one segment (a little less: the increase shrinks as cwnd grows)
    t = c["time_s"].to_numpy()
    per_rtt = [(w[(t >= k * 0.2) & (t < (k + 1) * 0.2)].max() - w[t < k * 0.2].max()) / seg for k in range(2, 8)]
    assert all(0.85 < x <= 1.0 for x in per_rtt), per_rtt


# ---------------------------------------------------------------- fast retransmit / NewReno
@pytest.mark.parametrize("dupthresh", [2, 3, 5])
def test_fast_retransmit_exactly_at_the_dupthresh_th_duplicate_ack(dupthresh):
    r, sim = one_link(drop={3}, m_ack=1, initial_window_bytes=10 * 536, dupack_threshold=dupthresh)
    assert r.fast_retransmits == 1 and r.timeouts == 0
    acks3 = _ack_arrivals(r, 3)  # first one acknowledges segment 2, the others are duplicates
    ev = r.traces["events"]
    t_fr = ev.loc[ev["kind"] == "fast_retransmit", "time_s"].item()
    assert t_fr == acks3[dupthresh]  # the dupthresh-th duplicate, not one earlier
    assert t_fr > acks3[dupthresh - 1]
    retx = _sends_at(r, t_fr, retx=True)
    assert retx["seq"].tolist() == [3]
    sim.sender.check_scoreboard()


def test_newreno_partial_ack_retransmits_one_segment_each():
    # two losses in one window: 3 and 6 (RFC 6582 sec. 3.2 step 5)
    r, sim = one_link(drop={3, 6}, m_ack=1, initial_window_bytes=10 * 536)
    assert r.fast_retransmits == 1 and r.timeouts == 0
    p = r.traces["packets"]
    retx = p[p["retransmission"]]
    assert retx["seq"].tolist() == [3, 6]
    ev = r.traces["events"]
    partial = ev[ev["kind"] == "partial_ack"]
    assert partial["seq"].tolist() == [6]
    # the partial ACK (acknowledging up to 6) triggers exactly one retransmission, at once
    t_partial = partial["time_s"].item()
    assert retx.iloc[1]["time_s"] == t_partial
    assert len(_sends_at(r, t_partial, retx=True)) == 1
    # the recovery ends with the ACK covering the recovery point; cwnd = ssthresh then grows
    exit_ = ev[ev["kind"] == "recovery_exit"]
    assert len(exit_) == 1 and exit_["time_s"].item() > t_partial
    assert r.spurious_retransmissions == 0


def test_dupacks_after_a_cumulative_ack_restart_the_count():
    # one loss, then the recovery ends: a later, second loss needs three fresh duplicates
    r, _ = one_link(drop={3, 30}, m_ack=1, initial_window_bytes=10 * 536, segments=60)
    assert r.fast_retransmits == 2 and r.timeouts == 0
    d = r.traces["dupacks"]
    p = r.traces["packets"]
    lost = set(p.loc[p["retransmission"], "seq"])  # data packet 30 is a later segment (3 was resent)
    assert len(lost) == 2 and 3 in lost
    assert set(d.loc[d["length"] >= 3, "ack"]) == lost


# ---------------------------------------------------------------- retransmission timer
def test_rto_backoff_doubles():
    # the only segment in flight is lost twice: no duplicate ACKs, two timeouts
    r, sim = one_link(drop={0, 1}, m_ack=1, segments=6)
    assert r.timeouts == 2 and r.fast_retransmits == 0
    p = r.traces["packets"]
    t = p.loc[p["seq"] == 0, "time_s"].to_numpy()
    assert len(t) == 3
    # RFC 6298 (2.2)-(2.4), (5.5): RTO = max(SRTT + 4 RTTVAR, MinRto) = 1 s, then doubled
    assert t[1] - t[0] == pytest.approx(1.0, abs=1e-9)
    assert t[2] - t[1] == pytest.approx(2.0, abs=1e-9)
    ev = r.traces["events"]
    assert ev.loc[ev["kind"] == "timeout", "time_s"].tolist() == pytest.approx(t[1:].tolist(), abs=1e-12)


def test_karn_no_rtt_sample_from_a_retransmitted_segment_unless_timestamps():
    # one fast retransmit; the ACK covering the retransmitted segment is ambiguous (RFC 6298 sec. 3)
    r, _ = one_link(drop={3}, m_ack=1, initial_window_bytes=10 * 536)
    r_ts, _ = one_link(drop={3}, m_ack=1, initial_window_bytes=10 * 536, timestamps=True)
    assert r.fast_retransmits == r_ts.fast_retransmits == 1

    def new_acks(res):
        return int((np.diff(np.concatenate([[0], res.traces["acks"]["ack"].to_numpy()])) > 0).sum())

    def received(res):
        return res.traces["acks"]["arrival_s"] <= res.completion_time_s

    # every ACK of new data that reached the sender gives a sample, except the ambiguous one
    assert r.extra["rtt_samples"] < r_ts.extra["rtt_samples"]
    assert r_ts.extra["rtt_samples"] - r.extra["rtt_samples"] == 1
    assert new_acks(r) == new_acks(r_ts) and received(r).sum() == received(r_ts).sum()


def test_timeout_sets_cwnd_to_one_segment_and_ssthresh_to_half_the_flight():
    # the whole first window is lost: nothing comes back, the timer fires
    r, sim = one_link(drop=set(range(10)), m_ack=1, initial_window_bytes=10 * 536, segments=40)
    ev = r.traces["events"]
    to = ev[ev["kind"] == "timeout"]
    assert r.timeouts >= 1 and len(to) == r.timeouts
    first = to.iloc[0]
    assert first["cwnd_bytes"] == 536  # RFC 5681 eq. 5: LW = 1 SMSS
    assert first["ssthresh_bytes"] == 10 * 536 // 2  # eq. 4: max(FlightSize / 2, 2 SMSS)
    # go-back-N in slow start: the lost window is resent in order after the timeout
    p = r.traces["packets"]
    retx = p.loc[p["retransmission"], "seq"].tolist()
    assert retx[:10] == list(range(10))


def test_initial_rto_used_without_handshake_sample():
    sc = striped_scenario([10e6], [0.1], transfer_bytes=536 * 4, tunnel=False, initial_rto_s=3.0)
    from helpers.sim import DropData
    sim = Simulation(sc, trace=True, links=[DropData(10e6, 0.05, {0})], handshake_rtt_sample=False)
    r = sim.run()
    p = r.traces["packets"]
    t = p.loc[p["seq"] == 0, "time_s"].to_numpy()
    assert t[1] - t[0] == pytest.approx(3.0, abs=1e-9)


# ---------------------------------------------------------------- limited transmit
@pytest.mark.parametrize("lt", [True, False])
def test_limited_transmit_sends_one_new_segment_on_dupacks_one_and_two(lt):
    r, _ = one_link(drop={1}, m_ack=1, initial_window_bytes=4 * 536, limited_transmit=lt)
    dup = _ack_arrivals(r, 1)[1:]  # duplicate ACKs for segment 1
    assert len(dup) >= 3
    for k in (0, 1):
        new = _sends_at(r, dup[k], retx=False)
        assert len(new) == (1 if lt else 0)
    ev = r.traces["events"]
    assert ev.loc[ev["kind"] == "fast_retransmit", "time_s"].item() == dup[2]


# ---------------------------------------------------------------- PRR
class _Sub:
    def __init__(self, pipe, ssthresh, seg=1000):
        self.pipe_snapshot, self.ssthresh, self.seg = pipe, ssthresh, seg
        self.cwnd = 0
        self.retrans_data_acked = False


def test_prr_proportional_part_follows_rfc6937():
    seg = 1000
    sub = _Sub(pipe=20 * seg, ssthresh=10 * seg, seg=seg)
    prr = PrrRecovery()
    prr.enter(sub, 3, 20 * seg, 0)  # RecoverFS = 20 segments; the fast retransmit is always allowed
    assert sub.cwnd == 21 * seg
    prr.bytes_sent(sub, seg)
    sent = seg
    for k in range(1, 11):  # duplicate ACKs, one SMSS delivered each, pipe > ssthresh
        sub.pipe_snapshot = (20 - k) * seg + seg
        prr.on_ack(sub, 0, True)
        allowed = sub.cwnd - sub.pipe_snapshot
        delivered = (k + 1) * seg  # the ACK that entered recovery counted one SMSS too
        # RFC 6937 sec. 3: sndcnt = CEIL(prr_delivered * ssthresh / RecoverFS) - prr_out
        assert allowed == max(0, math.ceil(delivered * 10 / 20) - sent)
        prr.bytes_sent(sub, allowed)
        sent += allowed
    assert sent == math.ceil(11 * seg * 10 / 20)  # half of what was delivered


def test_prr_reduction_bound_when_pipe_below_ssthresh():
    seg = 1000
    sub = _Sub(pipe=20 * seg, ssthresh=10 * seg, seg=seg)
    prr = PrrRecovery()
    prr.enter(sub, 3, 20 * seg, 0)
    prr.bytes_sent(sub, seg)
    sub.pipe_snapshot = 4 * seg  # far below ssthresh: PRR-CRB, no more than delivered
    prr.on_ack(sub, 3 * seg, False)
    assert sub.cwnd - sub.pipe_snapshot == 3 * seg  # prr_delivered - prr_out = 4 - 1
    prr.bytes_sent(sub, 3 * seg)
    sub.retrans_data_acked = True  # PRR-SSRB: one more segment when a retransmission was ACKed
    prr.on_ack(sub, 2 * seg, False)
    assert sub.cwnd - sub.pipe_snapshot == 2 * seg + seg
    sub.pipe_snapshot = 9 * seg  # and never beyond ssthresh
    prr.on_ack(sub, 5 * seg, False)
    assert sub.cwnd == sub.ssthresh


def test_prr_spreads_sending_over_the_recovery_newreno_waits():
    kw = dict(drop={20}, m_ack=1, initial_window_bytes=40 * 536, ssthresh_bytes=10**6, segments=120,
              rate=100e6, rtt=0.2)
    first_send, ratio = {}, {}
    for recovery in ("prr", "newreno"):
        r, sim = one_link(recovery=recovery, **kw)
        assert r.fast_retransmits == 1 and r.timeouts == 0
        ev = r.traces["events"]
        t0 = ev.loc[ev["kind"] == "fast_retransmit", "time_s"].item()
        t1 = ev.loc[ev["kind"] == "recovery_exit", "time_s"].item()
        p, a = r.traces["packets"], r.traces["acks"]
        sends = np.sort(p.loc[(p["time_s"] > t0) & (p["time_s"] < t1), "time_s"].to_numpy())
        acks = np.sort(a.loc[(a["arrival_s"] > t0) & (a["arrival_s"] < t1), "arrival_s"].to_numpy())
        first_send[recovery] = int(np.searchsorted(acks, sends[0]))  # ACKs before the first new send
        ratio[recovery] = (len(sends) + 1) / (len(acks) + 1)
    # RFC 6937: PRR sends in proportion from the first ACKs on; NewReno (cwnd = ssthresh, pipe
    # still above it) is silent for about half a window, then sends one per ACK
    assert first_send["prr"] <= 2
    assert first_send["newreno"] >= 15
    assert 0.4 < ratio["prr"] < 1.0 and 0.4 < ratio["newreno"] < 0.7


# ---------------------------------------------------------------- receiver: delayed ACKs, D-SACK
@pytest.mark.parametrize("m_ack", [1, 2, 3])
def test_delayed_ack_every_m_ack_segments(m_ack):
    r, _ = one_link(rate=2e6, rtt=0.05, segments=200, m_ack=m_ack, queue_packets=1000)
    a = r.traces["acks"]
    steps = np.diff(np.concatenate([[0], a["ack"].to_numpy()]))
    assert steps[0] == 1  # ns-3 acknowledges the first data segment at once
    # in order, lossless: every ACK covers m_ack new segments except those sent by the timer
    assert (steps[1:] == m_ack).mean() > 0.95
    assert r.extra["delayed_acks"] + r.extra["timer_acks"] == len(a)  # the first one included


def test_delayed_ack_timer_acknowledges_a_lone_segment():
    # m_ack = 3 and a window of 2: the receiver waits for the 200 ms timer
    r, _ = one_link(rate=10e6, rtt=0.1, segments=5, m_ack=3, delayed_ack_timeout_s=0.2)
    p = r.traces["packets"]
    a = r.traces["acks"]
    assert r.extra["timer_acks"] >= 1
    arrival_seg1 = p.loc[p["seq"] == 1, "arrival_s"].item()
    second = a.iloc[1]
    assert second["ack"] == 3
    assert second["time_s"] == pytest.approx(arrival_seg1 + 0.2, abs=1e-9)


def test_out_of_order_segments_are_acknowledged_at_once():
    r, _ = one_link(drop={3}, m_ack=2, initial_window_bytes=10 * 536)
    p = r.traces["packets"]
    a = r.traces["acks"]
    for seq in (4, 5, 6):  # arrive above the hole: one duplicate ACK each
        t = p.loc[(p["seq"] == seq) & ~p["retransmission"], "arrival_s"].item()
        assert ((a["time_s"] == t) & (a["ack"] == 3)).sum() == 1


def test_dsack_reports_a_duplicate_segment():
    # a too-short initial RTO makes the first segment's retransmission spurious
    sc = striped_scenario([10e6], [0.2], transfer_bytes=536 * 20, tunnel=False, sack=True,
                          sack_loss_detection=True, limited_transmit=True, initial_rto_s=0.05, min_rto_s=0.01)
    for dsack in (True, False):
        sim = Simulation(sc, trace=True, handshake_rtt_sample=False, dsack=dsack)
        r = sim.run()
        assert r.spurious_retransmissions >= 1
        p = r.traces["packets"]
        dup = p[p["retransmission"] & (p["seq"] == 0)].iloc[0]
        a = r.traces["acks"]
        at_dup = a[a["time_s"] == dup["arrival_s"]]
        assert len(at_dup) == 1
        if dsack:
            assert at_dup["sack_blocks"].item() == 1 and r.extra["dsacks_sent"] >= 1
            ev = r.traces["events"]
            assert (ev["kind"] == "dsack").any()
            assert at_dup["wire_bytes"].item() == sc.ack_packet_bytes(1)
        else:
            assert at_dup["sack_blocks"].item() == 0 and r.extra["dsacks_sent"] == 0


def test_sack_blocks_mark_the_scoreboard_and_drive_recovery():
    r, sim = one_link(drop={3, 6}, m_ack=1, initial_window_bytes=12 * 536, sack=True, sack_loss_detection=True,
                      limited_transmit=True)
    assert r.fast_retransmits == 1 and r.timeouts == 0
    retx = r.traces["packets"]
    retx = retx[retx["retransmission"]]
    assert sorted(retx["seq"]) == [3, 6]
    # with SACK both holes are repaired within the same round trip (no partial-ACK wait)
    assert retx["time_s"].max() - retx["time_s"].min() < 0.1
    sim.sender.check_scoreboard()


def test_ack_paths_striped_first_fastest_ideal():
    base = dict(transfer_bytes=536 * 300, seed=0)
    b, d = [5e6, 2e6, 8e6], [0.08, 0.02, 0.05]
    links = {}
    for path in ("round_robin", "first", "fastest", "ideal"):
        r = Simulation(striped_scenario(b, d, ack_path=path, **base), trace={"acks"}).run()
        assert r.completed
        links[path] = set(r.traces["acks"]["link"])
    assert links["round_robin"] == {0, 1, 2}
    assert links["first"] == {0}
    assert links["fastest"] == {1}
    assert links["ideal"] == {-1}


# ---------------------------------------------------------------- options ns-3 cannot switch off
@pytest.mark.parametrize("lt", [True, False])
def test_limited_transmit_with_sack_is_optional(lt):
    r, sim = one_link(drop={1}, m_ack=1, initial_window_bytes=4 * 536, sack=True, sack_loss_detection=True,
                      limited_transmit=lt)
    dup = _ack_arrivals(r, 1)[1:]
    for k in (0, 1):
        assert len(_sends_at(r, dup[k], retx=False)) == (1 if lt else 0)
    sim.sender.check_scoreboard()


@pytest.mark.parametrize("detect", [True, False])
def test_sack_loss_detection_enters_recovery_before_the_third_duplicate(detect):
    # without immediate ACKs for out-of-order data every duplicate ACK SACKs two segments:
    # RFC 6675 IsLost (3 segments SACKed above the hole) fires at the second duplicate ACK
    r, _ = one_link(drop={3}, m_ack=2, initial_window_bytes=14 * 536, sack=True, sack_loss_detection=detect,
                    limited_transmit=True, immediate_ack_on_out_of_order=False)
    dup = _ack_arrivals(r, 3)[1:]
    ev = r.traces["events"]
    t_fr = ev.loc[ev["kind"] == "fast_retransmit", "time_s"].iloc[0]
    assert t_fr == dup[1 if detect else 2]


def test_delayed_acks_for_out_of_order_segments_when_asked():
    acks = {}
    for immediate in (True, False):
        r, _ = one_link(drop={3}, m_ack=2, initial_window_bytes=14 * 536, immediate_ack_on_out_of_order=immediate)
        acks[immediate] = len(_ack_arrivals(r, 3)) - 1  # duplicate ACKs for the hole
    # one duplicate per segment above the hole, or one for every second segment
    assert acks[True] >= 10 and abs(acks[False] - acks[True] / 2) <= 1


def test_prr_product_overflow_of_ns3_344_is_optional():
    seg = 1448
    for overflow in (True, False):
        sub = _Sub(pipe=3000 * seg, ssthresh=1500 * seg, seg=seg)
        prr = PrrRecovery(ns3_344_overflow=overflow)
        prr.enter(sub, 3, 3000 * seg, 0)
        prr.bytes_sent(sub, seg)
        prr.on_ack(sub, 2000 * seg, False)  # prr_delivered * ssthresh > 2**32
        delivered = 2001 * seg
        exact = math.ceil(delivered * 1500 * seg / (3000 * seg)) - seg
        wrapped = math.ceil(((delivered * 1500 * seg) & 0xFFFFFFFF) / (3000 * seg)) - seg
        assert sub.cwnd - sub.pipe_snapshot == max(0, wrapped if overflow else exact)
        assert wrapped != exact


# ---------------------------------------------------------------- SegmentSet (receivers' out-of-order buffers)
def test_segment_set_answers_as_a_python_set_while_its_window_moves_and_grows():
    """The ring of flags behind a receiver's (and the MPTCP connection's) out-of-order buffer holds
    what a Python set holds: membership, count, the lowest member and the run released at the
    cumulative point, also when a number lands beyond its capacity (it grows) and after the
    window moved on."""
    import random

    from cmtlab.sim.tcp.segment_set import SegmentSet

    rng = random.Random(7)
    ring, held, base = SegmentSet(4), set(), 0  # base: the cumulative point, below every member
    for _ in range(3000):
        k = base + rng.randrange(1, 40 if rng.random() < 0.9 else 300)
        assert ring.contains(k) == (k in held)
        ring.add(k)
        held.add(k)
        assert len(ring) == len(held) and ring.lowest() == min(held)
        if rng.random() < 0.3:  # the cumulative point reaches the lowest member
            base = min(held)
            nxt = ring.release_run(base)
            while base in held:
                held.discard(base)
                base += 1
            assert nxt == base and len(ring) == len(held)
        if rng.random() < 0.05 and held:
            k = rng.choice(sorted(held))
            ring.discard(k)
            held.discard(k)
        assert sorted(ring) == sorted(held)
        assert not any(ring.contains(d) for d in range(base - 5, base + 400) if d not in held)
    assert ring.mask + 1 >= 256  # it grew
    assert SegmentSet().lowest() == -1  # empty
