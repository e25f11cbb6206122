"""Linux's loss detection (``loss_detection="linux"``) and retransmission timer (``rto_timer="rfc6298"``) against
RFC 8985's text and ns-3's timer, on scripted ACK sequences to one :class:`~cmtlab.sim.tcp.TcpSender`.

Scripts: segments of 1000 B, a transfer of ``segments`` segments, an initial window of 10 all sent at t = 0,
timestamps on (the receiver echoes ``echo_ms``), PRR, SACK; ``ack(t_ms, cum, sacked, echo_ms)`` delivers one
ACK at ``t_ms``, timers run in between.
"""

import pytest

from cmtlab.scenario import TcpOptions
from cmtlab.sim.engine.events import EventQueue
from cmtlab.sim.mechanisms.congestion import NewReno
from cmtlab.sim.mechanisms.recovery import make_recovery
from cmtlab.sim.mechanisms.reordering import NoReorderingResponse
from cmtlab.sim.tcp import TcpSender

MS = 1_000_000


class Script:
    def __init__(self, loss_detection="linux", segments=10, rto_timer="ns3"):
        self.q = EventQueue()
        self.sent = []  # (time ns, segment, retransmission)
        opts = TcpOptions(sack=True, sack_loss_detection=True, limited_transmit=True, recovery="prr", min_rto_s=0.2,
                          timestamps=True, loss_detection=loss_detection, rto_timer=rto_timer)
        self.s = TcpSender(segment_bytes=1000, transfer_bytes=segments * 1000, initial_window_bytes=10_000,
                           ssthresh_bytes=1 << 30, options=opts, cc=NewReno(), recovery=make_recovery("prr"),
                           reordering=NoReorderingResponse(), queue=self.q,
                           net_send=lambda now, k, nbytes, retx: self.sent.append((now, k, retx)))
        self.s.start(0)

    def run_until(self, t_ns):
        while self.q.count and self.q.next_time_ns() <= t_ns:
            ev = self.q.pop()
            ev.fire(ev.time_ns)

    def ack(self, t_ms, cum, sacked=(), echo_ms=1):
        t = int(t_ms * MS)
        self.run_until(t)
        blocks = []
        for k in sorted(sacked):
            if blocks and blocks[-1][1] == k:
                blocks[-1][1] = k + 1
            else:
                blocks.append([k, k + 1])
        blocks = [tuple(b) for b in blocks][::-1]
        self.s.on_ack(t, cum, echo_ms, (None, blocks) if blocks else None)
        self.s.check_scoreboard()

    def retransmissions(self):
        return [(t, k) for t, k, retx in self.sent if retx]


def _two_losses_then_one_lost_again(loss_detection):
    """Segments 1 and 3 lost; RACK marks both and retransmits them at 101 ms; the retransmission of 3 arrives,
    that of 1 is lost again.  Every ACK echoes the timestamp of segment 0 (the receiver's last in-order segment,
    RFC 7323), older than the retransmissions."""
    sc = Script(loss_detection)
    sc.ack(100, 1, [2])
    sc.ack(101, 1, [2] + list(range(4, 10)))  # three SACKed above 1: reo_wnd 0, 1 and 3 lost at once
    assert [k for _, k in sc.retransmissions()] == [1, 3]
    sc.ack(201, 1, [2, 3] + list(range(4, 10)))  # the retransmission of 3 is SACKed, echoing segment 0's timestamp
    return sc


def test_linux_advances_rack_with_a_delivered_retransmission_and_resends_the_lost_one():
    """Linux's ``tcp_rack_advance`` skips a retransmission's sample only when it is shorter than min_rtt: the
    retransmission of 3 (sent at 101 ms, SACKed at 201 ms: 100 ms = min_rtt) advances RACK to 101 ms, so the
    retransmission of 1 (also sent at 101 ms, lower sequence) is lost again at once — no timeout."""
    sc = _two_losses_then_one_lost_again("linux")
    assert sc.s.loss_detection.rack.xmit_ns == 101 * MS
    assert [k for _, k in sc.retransmissions()] == [1, 3, 1] and sc.retransmissions()[2][0] == 201 * MS
    assert sc.s.timeouts == 0


def test_rfc_8985_skips_the_sample_whose_ack_echoes_an_older_timestamp():
    """RFC 8985 sec. 6.2 step 1 also skips it when the ACK's TSecr predates the retransmission: RACK stays at the
    original transmissions (0 ms) and the lost retransmission of 1 waits for the retransmission timer."""
    sc = _two_losses_then_one_lost_again("rack-tlp-linux")
    assert sc.s.loss_detection.rack.xmit_ns == 0
    assert [k for _, k in sc.retransmissions()] == [1, 3]
    sc.run_until(2000 * MS)
    assert sc.s.timeouts >= 1


def test_rfc6298_timer_restarts_on_every_partial_ack_ns3_on_the_first_only():
    """RFC 6582 sec. 3.2 step 5 ("Impatient", ns-3) restarts the timer on the first partial ACK of a recovery only;
    RFC 6298 rule 5.3 (Linux's ``tcp_rearm_rto``) on every ACK of new data."""
    deadlines = {}
    for timer in ("ns3", "rfc6298"):
        sc = Script("dupack", segments=20, rto_timer=timer)
        sc.ack(100, 1, [2, 3, 4])          # three SACKed: 1 is lost, fast retransmit
        sc.ack(150, 2, [3, 4])             # first partial ACK
        first = sc.s.rto_timer.deadline
        sc.ack(180, 3, [4])                # second partial ACK
        deadlines[timer] = (first, sc.s.rto_timer.deadline, 180 * MS + sc.s.rto)
    assert deadlines["ns3"][1] == deadlines["ns3"][0]
    first, second, restarted = deadlines["rfc6298"]
    assert second == restarted > first


class GatedSender(TcpSender):
    """A sender whose application has written ``written`` segments so far (an MPTCP subflow the scheduler feeds)."""

    written = 10

    def _app_fill(self):
        if self.app_tail < self.written:
            self.app_tail = self.written


def _gated_sender(opts):
    """A :class:`GatedSender` of 1000-B segments with ``opts``, started at 0: (sender, its event queue, the list of
    (time ns, segment, retransmission) it sent)."""
    q = EventQueue()
    sent = []
    s = GatedSender(segment_bytes=1000, transfer_bytes=100_000, initial_window_bytes=10_000,
                    ssthresh_bytes=1 << 30, options=opts, cc=NewReno(), recovery=make_recovery("prr"),
                    reordering=NoReorderingResponse(), queue=q,
                    net_send=lambda now, k, nbytes, retx: sent.append((now, k, retx)))
    s.start(0)
    return s, q, sent


def test_rfc6298_timer_stops_when_nothing_is_outstanding_and_starts_with_the_next_segment():
    """A sender left without data (all 10 segments acknowledged, the application silent until 400 ms), then given
    one: ns-3's timer keeps running from the last ACK and fires 300 ms after it, 0 ms after the new segment left
    — a timeout with nothing lost; RFC 6298 rules 5.2 and 5.1 (Linux) stop it, then start a full RTO from the
    new segment's send time."""
    for timer, timeouts in (("ns3", 1), ("rfc6298", 0)):
        s, q, sent = _gated_sender(TcpOptions(sack=True, sack_loss_detection=True, limited_transmit=True,
                                              recovery="prr", min_rto_s=0.2, rto_timer=timer))
        s.on_ack(100 * MS, 10, 0, None)
        assert s.rto_timer.running is (timer == "ns3")
        deadline = 100 * MS + s.rto  # when ns-3's timer, restarted by this ACK, expires
        while q.count and q.next_time_ns() <= deadline - 1:
            ev = q.pop()
            ev.fire(ev.time_ns)
        s.written = 11
        s._app_fill()
        s.send_pending(deadline - 1)  # one new segment, 1 ns before ns-3's timer expires
        while q.count and q.next_time_ns() <= deadline + 1:
            ev = q.pop()
            ev.fire(ev.time_ns)
        assert s.timeouts == timeouts, timer
        if timer == "rfc6298":
            assert s.rto_timer.deadline == deadline - 1 + s.rto


def test_ns3_refuses_linux_loss_detection_and_the_rfc6298_timer():
    from cmtlab.ns3.engine import unsupported_options
    from cmtlab.scenario import striped_scenario

    sc = striped_scenario([1e6], [0.1], transfer_bytes=1000, tunnel=False, sack=True, loss_detection="linux",
                          rto_timer="rfc6298")
    problems = unsupported_options(sc)
    assert any("loss_detection='linux'" in p for p in problems) and any("rto_timer" in p for p in problems)
    with pytest.raises(ValueError, match="rto_timer"):
        TcpOptions(rto_timer="linux")
    with pytest.raises(ValueError, match="requires sack=True"):
        TcpOptions(loss_detection="linux")
    assert "rto_timer" not in TcpOptions().to_dict() and TcpOptions(rto_timer="rfc6298").to_dict()["rto_timer"]


def _fed_later(loss_detection, write_at_ms):
    """A sender fed like an MPTCP subflow (:class:`GatedSender`): segments 0-9 sent at 0, the ACK at 100 ms
    acknowledges 0-8 (SRTT 100 ms, RTO 300 ms) and segment 9 stays out (lost); nothing more to send until the
    application writes five segments at ``write_at_ms``, which go out at once (no ACK in between)."""
    s, q, sent = _gated_sender(TcpOptions(sack=True, sack_loss_detection=True, limited_transmit=True, recovery="prr",
                                          min_rto_s=0.2, timestamps=True, loss_detection=loss_detection,
                                          rto_timer="rfc6298"))
    s.on_ack(100 * MS, 9, 0, None)
    assert (s.srtt, s.rto) == (100 * MS, 300 * MS)

    def run_until(t_ns):
        while q.count and q.next_time_ns() <= t_ns:
            ev = q.pop()
            ev.fire(ev.time_ns)

    run_until(write_at_ms * MS - 1)
    s.written = 15
    s._app_fill()
    s.send_pending(write_at_ms * MS)
    assert [k for t, k, retx in sent if t == write_at_ms * MS and not retx] == [10, 11, 12, 13, 14]
    return s, sent, run_until


def test_linux_rearms_the_probe_when_new_data_goes_out_after_the_heads_rto_is_past():
    """``tcp_write_xmit`` schedules the probe after every transmission of new data; capped by what is left of the
    head's RTO (``tcp_rto_delta_us``), not at all once that is past.  Written at 390 ms (segment 9, sent at 0,
    overdue since 300 ms): ``"linux-probe-on-send"`` arms the probe 2 SRTT + 2 jiffies after the new segments
    (598 ms); the SACKs of 10-14 at 490 ms let RACK mark 9 lost and retransmit it, no probe.  ``"linux"`` keeps the
    probe of the ACK at 100 ms (capped at the RTO it restarted: 400 ms), which retransmits segment 14 though nothing
    but 9 is lost — the spurious probe of the 10-packet-queue cell."""
    for name, first_retx in (("linux-probe-on-send", (490, 9)), ("linux", (400, 14))):
        s, sent, run_until = _fed_later(name, 390)
        if name == "linux-probe-on-send":
            assert s.loss_detection.pto_timer.deadline == 390 * MS + 2 * s.srtt + 8 * MS
            assert s.rto_timer.deadline >= s.loss_detection.pto_timer.deadline  # one timer: the probe first
        run_until(490 * MS - 1)
        s.on_ack(490 * MS, 9, 0, (None, [(10, 15)]))
        s.send_pending(490 * MS)
        retx = [(t // MS, k) for t, k, r in sent if r]
        assert retx[0] == first_retx, name


def test_linux_caps_the_probe_after_a_transmission_by_the_heads_remaining_rto():
    """Written at 150 ms: the probe after the transmission is capped by the head's RTO counted from its
    transmission (0 + 300 ms), not from the last ACK: ``"linux-probe-on-send"`` probes at 300 ms (the last segment,
    nothing new to send), ``"linux"`` at 400 ms (the ACK's RTO)."""
    for name, probe_ms in (("linux-probe-on-send", 300), ("linux", 400)):
        s, sent, run_until = _fed_later(name, 150)
        run_until(450 * MS)
        retx = [(t // MS, k) for t, k, r in sent if r]
        assert retx[0] == (probe_ms, 14), name
