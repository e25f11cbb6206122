"""RACK-TLP (RFC 8985) state machine on scripted sequences, one test per RFC section: what is
detected as lost, when, what the timer and the probe are."""


from cmtlab.sim.mechanisms.recovery.rack_tlp import REO_WND_PERSIST, WC_DEL_ACK_NS, RackTlp
from cmtlab.sim.tcp.decisions import ProbeKind

MS = 1_000_000
SRTT = 100 * MS


def sent(r, seqs, t_ms):
    for k in seqs:
        r.on_sent(k, t_ms * MS)


def test_rack_update_uses_the_most_recently_sent_delivered_segment():
    """Sec. 6.2 steps 1-2: RACK.xmit_ts/end_seq follow the latest *sent* delivered segment; RACK.rtt its
    sample; a retransmission whose ACK echoes an older timestamp gives no sample."""
    r = RackTlp()
    sent(r, [0], 0)
    sent(r, [1], 10)
    v = r.on_ack(110 * MS, 0, sacked=[1], srtt_ns=SRTT)
    assert (r.xmit_ns, r.end_seq, r.rtt_ns) == (10 * MS, 2, 100 * MS)
    assert r.min_rtt_ns == 100 * MS
    r.on_sent(0, 120 * MS)  # retransmission of 0
    v = r.on_ack(125 * MS, 2, srtt_ns=SRTT, ts_echo_ns=0)  # the ACK of the original: echo 0 < 120 ms
    assert r.rtt_ns == 100 * MS and r.xmit_ns == 10 * MS  # no sample from the ambiguous retransmission
    assert v.lost == ()


def test_loss_detected_after_rtt_plus_reordering_window_and_the_timer():
    """Sec. 6.2 step 5 / 6.3: segment 0 is lost once a later-sent segment is delivered and
    now >= xmit_ts(0) + RACK.rtt + reo_wnd; before that the RACK timer is armed for exactly that time."""
    r = RackTlp()
    sent(r, [0, 1, 2, 3], 0)
    r.reordering_seen = True  # the window is min_RTT/4 (no reordering seen -> 0 with 3 SACKed)
    v = r.on_ack(100 * MS, 0, sacked=[1], srtt_ns=SRTT)
    # rtt 100 ms, reo_wnd = 100/4 = 25 ms: 0 (sent at 0) is lost at 0 + 100 + 25 = 125 ms
    assert v.lost == () and v.timer_ns == 125 * MS
    v = r.on_reorder_timer(125 * MS, srtt_ns=SRTT)
    assert v.lost == (0,) and v.timer_ns is None
    # a segment sent after RACK.xmit_ts is never marked lost by it (2 and 3 were sent at the same time,
    # with a higher end sequence than 1 -> not "sent before")
    assert 2 not in v.lost and 3 not in v.lost


def test_without_reordering_three_sacked_segments_mean_a_zero_window():
    """Sec. 6.2 step 4: reordering never seen and DupThresh segments SACKed -> reo_wnd = 0 (loss at once,
    as the duplicate-ACK rule would); in recovery too."""
    r = RackTlp()
    sent(r, [0, 1, 2, 3], 0)
    v = r.on_ack(100 * MS, 0, sacked=[1, 2, 3], srtt_ns=SRTT)
    assert v.lost == (0,)
    r2 = RackTlp()
    sent(r2, [0, 1], 0)
    r2.in_recovery = True
    assert r2.on_ack(100 * MS, 0, sacked=[1], srtt_ns=SRTT).lost == (0,)
    r3 = RackTlp()  # one SACKed segment, not in recovery, no reordering seen: min_RTT/4 still applies
    sent(r3, [0, 1], 0)
    assert r3.on_ack(100 * MS, 0, sacked=[1], srtt_ns=SRTT).timer_ns == 125 * MS


def test_reordering_detection_and_the_window_bound_by_srtt():
    """Sec. 6.2 step 3: a segment delivered below the highest delivered one is reordering;
    reo_wnd = min(mult * min_RTT / 4, SRTT)."""
    r = RackTlp()
    sent(r, [0, 1, 2], 0)
    r.on_ack(100 * MS, 0, sacked=[2], srtt_ns=SRTT)
    assert not r.reordering_seen
    r.on_ack(101 * MS, 2, srtt_ns=SRTT)  # 0 and 1 delivered after 2: reordering
    assert r.reordering_seen
    assert r.reo_wnd_ns(SRTT) == 25 * MS
    r.reo_wnd_mult = 10
    assert r.reo_wnd_ns(SRTT) == SRTT  # 250 ms capped at SRTT


def test_dsack_raises_the_window_once_per_round_and_it_persists_16_recoveries():
    """Sec. 6.2 step 4: a D-SACK adds min_RTT/4 at most once per round trip (RACK.dsack_round =
    SND.NXT); after 16 recoveries without one the multiplier returns to 1."""
    r = RackTlp()
    sent(r, [0, 1, 2, 3], 0)
    r.on_ack(100 * MS, 1, srtt_ns=SRTT, dsack=True)
    assert r.reo_wnd_mult == 2 and r.dsack_round == 4 and r.reo_wnd_persist == REO_WND_PERSIST
    r.on_ack(101 * MS, 2, srtt_ns=SRTT, dsack=True)  # same round: no second increase
    assert r.reo_wnd_mult == 2
    sent(r, [4, 5], 110)
    r.on_ack(210 * MS, 4, srtt_ns=SRTT, dsack=True)  # SND.UNA passed 4: a new round
    assert r.reo_wnd_mult == 3
    for _ in range(REO_WND_PERSIST - 1):
        r.on_recovery_exit()
    assert r.reo_wnd_mult == 3
    r.on_recovery_exit()
    assert r.reo_wnd_mult == 1


def test_pto():
    """Sec. 7.2: PTO = 2 SRTT, + WCDelAckT with one segment in flight, at most the RTO; 1 s without SRTT."""
    r = RackTlp()
    assert r.pto_ns(srtt_ns=SRTT, rto_ns=10**9, flight_segments=5) == 200 * MS
    assert r.pto_ns(srtt_ns=SRTT, rto_ns=10**9, flight_segments=1) == 200 * MS + WC_DEL_ACK_NS
    assert r.pto_ns(srtt_ns=SRTT, rto_ns=300 * MS, flight_segments=1) == 300 * MS
    assert r.pto_ns(srtt_ns=None, rto_ns=3 * 10**9, flight_segments=1) == 10**9


def test_probe_choice_and_one_probe_per_episode():
    """Sec. 7.3: new data when available, else the highest-sequence segment sent; one probe until
    the episode ends."""
    r = RackTlp()
    sent(r, [0, 1, 2], 0)
    p = r.on_pto(new_data_available=True)
    assert p.kind is ProbeKind.NEW_DATA and p.seq == 3 and r.tlp_end_seq == 4 and not r.tlp_is_retrans
    assert r.on_pto(new_data_available=True) is None
    r2 = RackTlp()
    sent(r2, [0, 1, 2], 0)
    p = r2.on_pto(new_data_available=False)
    assert p.kind is ProbeKind.RETRANSMIT_LAST and p.seq == 2 and r2.tlp_end_seq == 3 and r2.tlp_is_retrans
    assert RackTlp(tlp=False).on_pto(new_data_available=True) is None


def test_tlp_loss_detection():
    """Sec. 7.4.2 (TLP_process_ack): the probe's retransmission D-SACKed -> the original arrived, no loss;
    an ACK *beyond* TLP.end_seq without that D-SACK -> a loss the probe repaired: the congestion control
    reduces (tlp_loss); the ACK just covering TLP.end_seq waits for the D-SACK."""
    r = RackTlp()
    sent(r, [0, 1, 2], 0)
    r.on_pto(new_data_available=False)
    r.on_sent(2, 300 * MS)
    v = r.on_ack(400 * MS, 3, srtt_ns=SRTT, dsack=True, dsack_seq=2)
    assert not v.tlp_loss and r.tlp_end_seq is None
    r2 = RackTlp()
    sent(r2, [0, 1, 2], 0)
    r2.on_pto(new_data_available=False)
    r2.on_sent(2, 300 * MS)
    v = r2.on_ack(400 * MS, 3, srtt_ns=SRTT)  # covers the probe: the D-SACK may still come
    assert not v.tlp_loss and r2.tlp_end_seq == 3
    sent(r2, [3], 400)
    v = r2.on_ack(500 * MS, 4, srtt_ns=SRTT)  # beyond TLP.end_seq, no D-SACK: the probe repaired a loss
    assert v.tlp_loss and r2.tlp_end_seq is None
    # a partial ACK below TLP.end_seq does not end the episode
    r3 = RackTlp()
    sent(r3, [0, 1, 2], 0)
    r3.on_pto(new_data_available=False)
    assert not r3.on_ack(400 * MS, 1, srtt_ns=SRTT).tlp_loss and r3.tlp_end_seq == 3


def test_a_retransmission_delivered_below_fack_is_not_reordering():
    """Sec. 6.2 step 2 (RACK_detect_reordering): only a segment that was *never retransmitted* and is delivered
    below RACK.fack is reordering; the repaired hole of a loss is not (Linux: tcp_check_sack_reordering skips
    TCPCB_RETRANS).  Otherwise one repaired loss would keep reo_wnd at min_RTT/4 for the rest of the connection,
    delaying every later fast retransmit past the third duplicate ACK.  A D-SACK is reordering."""
    r = RackTlp()
    sent(r, [0, 1, 2, 3], 0)
    assert r.on_ack(100 * MS, 0, sacked=[1, 2, 3], srtt_ns=SRTT).lost == (0,)
    r.on_sent(0, 101 * MS)  # the retransmission
    r.on_ack(201 * MS, 4, srtt_ns=SRTT)  # it arrives, below fack = 4
    assert not r.reordering_seen
    sent(r, [4, 5, 6, 7], 210)
    assert r.on_ack(310 * MS, 4, sacked=[5, 6, 7], srtt_ns=SRTT).lost == (4,)  # the next loss: reo_wnd still 0
    sent(r, [8, 9], 320)
    r.on_ack(420 * MS, 10, srtt_ns=SRTT, dsack=True, dsack_seq=4)
    assert r.reordering_seen
