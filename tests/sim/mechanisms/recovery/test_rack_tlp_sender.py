"""RACK-TLP (RFC 8985) wired into the sender (``TcpOptions.loss_detection="rack-tlp"``): scripted ACK
sequences against one :class:`~cmtlab.sim.tcp.TcpSender`, asserting what the RFC says is sent, when,
and what is marked lost — beside the duplicate-ACK default on the same script where they differ.

Every script: segments of 1000 B, an initial window of 10 segments all sent at t = 0, an RTT sample
of 100 ms from the first ACK (so SRTT = 100 ms, RTTVAR = 50 ms, RTO = 300 ms), NewReno window growth,
PRR, SACK.  ``ack(t_ms, cum, sacked)`` delivers one ACK at ``t_ms``; timers run in between.
"""

import pytest

from cmtlab.scenario import TcpOptions
from cmtlab.sim.engine.events import EventQueue
from cmtlab.sim.mechanisms.congestion import NewReno
from cmtlab.sim.mechanisms.recovery import RackTlpDetection, make_recovery
from cmtlab.sim.mechanisms.recovery.rack_tlp import WC_DEL_ACK_NS
from cmtlab.sim.mechanisms.reordering import NoReorderingResponse
from cmtlab.sim.tcp import TcpSender
from cmtlab.sim.tcp.flags import LOST
from cmtlab.sim.tcp.state import OPEN, RECOVERY

MS = 1_000_000


class Script:
    def __init__(self, loss_detection="rack-tlp", segments=40):
        self.q = EventQueue()
        self.sent = []  # (time ns, segment, retransmission)
        opts = TcpOptions(sack=True, sack_loss_detection=True, limited_transmit=True, recovery="prr", min_rto_s=0.2,
                          loss_detection=loss_detection)
        self.s = TcpSender(segment_bytes=1000, transfer_bytes=segments * 1000, initial_window_bytes=10_000,
                           ssthresh_bytes=1 << 30, options=opts, cc=NewReno(), recovery=make_recovery("prr"),
                           reordering=NoReorderingResponse(), queue=self.q,
                           net_send=lambda now, k, nbytes, retx: self.sent.append((now, k, retx)))
        self.s.start(0)

    def run_until(self, t_ns):
        while self.q.count and self.q.next_time_ns() <= t_ns:
            ev = self.q.pop()
            ev.fire(ev.time_ns)

    def ack(self, t_ms, cum, sacked=(), dsack=None):
        t = int(t_ms * MS)
        self.run_until(t)
        blocks = _blocks(sacked)
        self.s.on_ack(t, cum, 0, (dsack, blocks) if (blocks or dsack) else None)
        self.s.check_scoreboard()

    def retransmissions(self):
        return [(t, k) for t, k, retx in self.sent if retx]


def _blocks(segs):
    out = []
    for k in sorted(segs):
        if out and out[-1][1] == k:
            out[-1][1] = k + 1
        else:
            out.append([k, k + 1])
    return [tuple(b) for b in out][::-1]


def test_the_default_is_the_duplicate_ack_rule_with_the_fast_paths_and_rule_3():
    """``"dupack"`` keeps ns-3's rules (the golden tests pin them bit for bit): its per-ACK hooks do nothing, so
    the sender's fast paths stay on, and NextSeg rule 3 is allowed; RACK needs SACK."""
    d = Script("dupack")
    assert type(d.s.loss_detection).__name__ == "DupAckThreshold" and d.s._rule3 and not d.s.loss_detection.sees_every_ack
    with pytest.raises(ValueError, match="requires sack=True"):
        TcpOptions(loss_detection="rack-tlp")
    with pytest.raises(ValueError, match="loss_detection"):
        TcpOptions(sack=True, loss_detection="rack")


def test_scenario_keys_name_rack_only_when_it_is_chosen_and_ns3_refuses_it():
    """Keys of existing scenarios are unchanged (the field is left out at its default); ns-3.44 has no RACK."""
    from cmtlab import ns3
    from cmtlab.scenario import striped_scenario

    kw = dict(transfer_bytes=10_000, sack=True, sack_loss_detection=True, limited_transmit=True)
    plain = striped_scenario([1e6], [0.1], **kw)
    rack = striped_scenario([1e6], [0.1], loss_detection="rack-tlp", **kw)
    assert "loss_detection" not in plain.to_dict()["options"]
    assert rack.to_dict()["options"]["loss_detection"] == "rack-tlp" and rack.key() != plain.key()
    with pytest.raises(ValueError, match="no RACK-TLP"):
        ns3.engine.unsupported_options(rack) and ns3.engine.run(rack)


def test_a_hole_is_lost_at_xmit_plus_rack_rtt_plus_reo_wnd_exactly():
    """Sec. 6.2 step 5 / 6.3: segment 2 (sent at 0) is missing, segment 3 (sent at 0) is SACKed at
    101 ms: RACK.rtt = 101 ms, reo_wnd = min_RTT/4 = 25 ms (one SACKed segment, no reordering seen yet),
    so the RACK timer fires at 0 + 101 + 25 = 126 ms; segment 2 is marked lost then, not before, and the
    fast retransmission leaves at that nanosecond."""
    sc = Script()
    sc.ack(100, 2)
    sc.ack(101, 2, [3])
    ld = sc.s.loss_detection
    assert ld.rack.rtt_ns == 101 * MS and ld.rack.reo_wnd_ns(sc.s.srtt) == 25 * MS
    assert ld.reo_timer.deadline == 126 * MS
    sc.run_until(126 * MS - 1)
    assert not sc.s.flags[2 & sc.s.mask] & LOST and sc.retransmissions() == []
    sc.run_until(126 * MS)
    assert sc.retransmissions() == [(126 * MS, 2)]
    assert sc.s.state == RECOVERY and ld.reo_timeouts == 1 and sc.s.fast_retransmits == 1


def test_reordering_inside_the_window_costs_nothing_and_three_dupacks_do_not_decide():
    """Sec. 6.2 steps 3-4: once reordering was seen, three SACKed segments no longer zero the window;
    segment 14 arriving 20 ms late (< 25 ms window) is not retransmitted, while the duplicate-ACK rule
    retransmits it at the third SACK (a spurious retransmission)."""
    out = {}
    for ld in ("rack-tlp", "dupack"):
        sc = Script(ld)
        sc.ack(100, 2)
        sc.ack(101, 2, [3])
        sc.ack(110, 10)  # segment 2 arrives late (9 ms): reordering seen
        assert sc.retransmissions() == []
        # segments 10..17 were sent at 100-110 ms; 14 is delayed by 20 ms, 15, 16, 17 are SACKed first
        sent_14 = next(t for t, k, _ in sc.sent if k == 14)
        sc.ack(sent_14 / MS + 100, 14)
        sc.ack(sent_14 / MS + 101, 14, [15])
        sc.ack(sent_14 / MS + 102, 14, [15, 16])
        sc.ack(sent_14 / MS + 103, 14, [15, 16, 17])
        sc.ack(sent_14 / MS + 120, 18)
        out[ld] = sc.retransmissions()
        if ld == "rack-tlp":
            assert sc.s.loss_detection.rack.reordering_seen
    assert out["rack-tlp"] == []
    assert [k for _, k in out["dupack"]] == [14]


def test_without_reordering_seen_three_sacked_segments_mark_the_hole_at_once():
    """Sec. 6.2 step 4: no reordering seen and DupThresh (3) segments SACKed -> reo_wnd = 0: the hole is
    lost on the third SACK, as the duplicate-ACK rule would decide."""
    sc = Script()
    sc.ack(100, 2)
    sc.ack(101, 2, [3])
    sc.ack(102, 2, [3, 4])
    assert sc.retransmissions() == []
    sc.ack(103, 2, [3, 4, 5])
    assert sc.retransmissions() == [(103 * MS, 2)]


def test_a_dsack_widens_the_window():
    """Sec. 6.2 step 4: a D-SACK (the retransmission was spurious) raises reo_wnd_mult to 2: the window
    becomes 2 * min_RTT/4; the next hole is lost only at xmit + RACK.rtt + that window, and a hole
    delivered before then is not retransmitted."""
    sc = Script()
    sc.ack(100, 2)
    sc.ack(101, 2, [3])
    sc.run_until(126 * MS)  # 2 is marked lost and retransmitted (it was only late)
    sc.ack(130, 10, dsack=(2, 3))  # the original arrived too: the receiver reports the duplicate
    ld, rack = sc.s.loss_detection, sc.s.loss_detection.rack
    assert rack.reo_wnd_mult == 2 and rack.reo_wnd_ns(sc.s.srtt) == 2 * rack.min_rtt_ns // 4
    sc.ack(200, sc.s.recover)  # the recovery ends; the raised window persists (16 recoveries)
    assert sc.s.state == OPEN and rack.reo_wnd_mult == 2
    n = len(sc.retransmissions())
    first = {k: t for t, k, r in sc.sent if not r}
    hole = next(k for k in range(sc.s.una, sc.s.high - 1) if first[k] == first[k + 1])  # sent in one burst
    later = hole + 1
    sent_hole = t_later = first[hole]
    sc.ack(t_later / MS + 100, hole, [later])
    assert ld.reo_timer.deadline == sent_hole + rack.rtt_ns + 2 * rack.min_rtt_ns // 4
    sc.ack((ld.reo_timer.deadline - 1) / MS, later + 1)  # the hole arrives 1 ms before its deadline
    assert len(sc.retransmissions()) == n


def test_a_lost_retransmission_is_lost_again_without_a_timeout():
    """Sec. 6.2: a retransmission is a segment like any other — when a segment sent after it is
    delivered and RACK.rtt + reo_wnd have passed, it is lost again and retransmitted again (the
    duplicate-ACK rule leaves it to the retransmission timer)."""
    sc = Script()
    sc.ack(100, 2)
    sc.ack(101, 2, [3])
    sc.run_until(126 * MS)
    assert sc.retransmissions() == [(126 * MS, 2)]
    sc.ack(130, 2, range(3, 14))  # the rest of the flight: PRR sends new data
    later = [k for t, k, r in sc.sent if t >= 130 * MS and not r]
    assert later
    # the retransmission of 2 is lost; new data sent after it is SACKed 100 ms later
    sc.ack(230, 2, list(range(3, 14)) + later[:1])
    assert [k for _, k in sc.retransmissions()] == [2, 2] and sc.retransmissions()[1][0] == 230 * MS
    assert sc.s.timeouts == 0


def test_tail_loss_probe_sends_new_data_two_srtt_after_the_last_ack():
    """Sec. 7.2-7.3: the ACK clock stops with segments 2..11 outstanding (several in flight): the
    probe timer fires 2 SRTT after the last ACK that acknowledged new data and sends one new segment
    whatever the window; the retransmission timer restarts from the probe."""
    sc = Script()
    sc.ack(100, 2)
    srtt = sc.s.srtt
    ld = sc.s.loss_detection
    assert ld.pto_timer.deadline == 100 * MS + 2 * srtt
    high = sc.s.high
    sc.run_until(100 * MS + 2 * srtt)
    assert sc.sent[-1] == (100 * MS + 2 * srtt, high, False) and ld.probes == 1
    assert sc.s.rto_timer.deadline == 100 * MS + 2 * srtt + sc.s.rto and sc.s.timeouts == 0
    # the probe's SACK shows everything before it is lost: RACK marks 2.. lost and recovery starts
    sc.ack(100 + 2 * srtt / MS + 100, 2, [high])
    assert sc.s.state == RECOVERY and sc.retransmissions()[0][1] == 2


def test_tail_loss_probe_retransmits_the_last_segment():
    """Sec. 7.2-7.3: one segment (the last of the transfer) outstanding: PTO = 2 SRTT + WCDelAckT (200 ms),
    capped by the retransmission timer; no new data -> the probe retransmits the highest segment; no
    timeout.  Sec. 7.4.2: the ACK that just covers the probe is no evidence yet (its D-SACK may follow)."""
    sc = Script(segments=10)
    sc.ack(100, 2)
    sc.ack(101, 9)
    s, ld = sc.s, sc.s.loss_detection
    assert s.high - s.una == 1
    expect = min(2 * s.srtt + WC_DEL_ACK_NS, s.rto)
    assert ld.pto_timer.deadline == 101 * MS + expect
    t = ld.pto_timer.deadline
    sc.run_until(t)
    assert sc.sent[-1] == (t, 9, True) and ld.probes == 1 and s.timeouts == 0
    cwnd = s.cwnd
    sc.ack(t / MS + 100, 10)
    assert ld.tlp_losses == 0 and s.cwnd >= cwnd and ld.rack.tlp_end_seq == 10


def test_the_probe_is_dsacked_when_nothing_was_lost():
    """Sec. 7.4.2: the probe's retransmission comes back as a D-SACK (the original was only late): the
    episode ends without a reduction."""
    sc = Script(segments=10)
    sc.ack(100, 2)
    sc.ack(101, 9)
    ld = sc.s.loss_detection
    t = ld.pto_timer.deadline
    sc.run_until(t)
    cwnd = sc.s.cwnd
    sc.ack(t / MS + 1, 10)  # the original of 9 arrives
    sc.ack(t / MS + 100, 10, dsack=(9, 10))  # then the probe, reported as a duplicate
    assert ld.tlp_losses == 0 and sc.s.cwnd >= cwnd and ld.rack.tlp_end_seq is None


def test_a_loss_the_probe_repaired_reduces_the_window_once():
    """Sec. 7.4.2 / Linux ``tcp_process_tlp_ack``: the sender's answer to ``TLP_LOSS`` — ssthresh from the
    congestion control, cwnd down to it, no recovery, no retransmission."""
    from cmtlab.sim.tcp.decisions import LossDecision

    sc = Script()
    sc.ack(100, 2)
    s = sc.s
    cwnd, n = s.cwnd, len(sc.sent)
    s.act_on_loss(200 * MS, LossDecision.TLP_LOSS, 0)
    assert s.ssthresh == max(2 * s.seg, s.in_flight() // 2) and s.cwnd == min(cwnd, s.ssthresh)
    assert s.state == OPEN and len(sc.sent) == n
    with pytest.raises(ValueError, match="LossDecision"):
        s.act_on_loss(200 * MS, "loss", 0)


def test_rack_tlp_in_whole_runs_conserves_data_and_detects_reordering():
    """A whole run with loss: the transfer completes, every drop is repaired; on a reordering path pair
    RACK-TLP retransmits spuriously less often than the duplicate-ACK rule."""
    from cmtlab import sim
    from cmtlab.scenario import LossModel

    r = sim.simulate_striped([10e6], [0.06], transfer_bytes=2_000_000, tunnel=False, sack=True,
                             sack_loss_detection=True, recovery="prr", loss_detection="rack-tlp",
                             loss=LossModel("packet", 0.01), seed=1, segment_bytes=1448,
                             initial_window_bytes=14480, timestamps=True)
    assert r.completed and r.retransmissions > 0
    spurious = {}
    for ld in ("dupack", "rack-tlp"):
        res = sim.simulate_striped([10e6, 10e6], [0.02, 0.03], transfer_bytes=3_000_000, sack=True,
                                   sack_loss_detection=True, recovery="prr", loss_detection=ld, seed=1,
                                   segment_bytes=1448, initial_window_bytes=14480, timestamps=True)
        assert res.completed
        spurious[ld] = res.spurious_retransmissions
    assert spurious["rack-tlp"] < spurious["dupack"], spurious


def test_one_instance_per_sender():
    ld = RackTlpDetection()
    a = Script()
    with pytest.raises(ValueError, match="already attached"):
        ld.attach(a.s)
        ld.attach(Script().s)


def test_a_timeout_resends_the_head_and_restarts_the_timer_whatever_the_window():
    """Linux ``tcp_retransmit_timer`` with RACK: after a timeout only the head and what has had time to arrive
    are marked lost; retransmissions still in flight may keep pipe above the one-segment window, so the head is
    resent regardless and the timer restarted — else a subflow whose in-flight retransmissions are all lost
    stalls for good (found on a 2-path MPTCP run with 1 % loss: the connection delivered 6 % of its data)."""
    import pandas as pd

    from cmtlab.validation.kernel_sim import simulate_like_kernel

    # rep 7: a run with timeouts (rep 2 had them until RACK stopped counting a late retransmission as reordering)
    row = pd.DataFrame([dict(cell="c", kind="mptcp", rep=7, simulator="linux-mptcp", n_paths=2, duration_s=20.0,
                             warmup_s=0.0, path0_rate_bps=10e6, path0_delay_s=0.01, path0_rtt_s=0.02,
                             path0_queue_packets=100, path0_loss=0.01, path1_rate_bps=10e6, path1_delay_s=0.05,
                             path1_rtt_s=0.1, path1_queue_packets=100, path1_loss=0.01, k_timestamps=True)])
    r = simulate_like_kernel(row, "ns3-uncoupled", congestion="cubic", congestion_params={"variant": "linux", "hystart": True},
                             scheduler="linux", loss_detection="rack-tlp", clock_granularity_s=0.2,
                             progress_bar=False).iloc[0]
    assert r.sub0_timeouts + r.sub1_timeouts >= 1  # the case: a timeout happened
    assert r.received_bytes >= 0.9 * (r.sub0_bytes + r.sub1_bytes)
