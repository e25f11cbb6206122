"""The kernel-like simulator's Linux details: PRR as ``tcp_cwnd_reduction`` counts it, Linux Reno's counter
reset at a reduction, and the testbed delay line's own random drops (scripted sequences and the recorded
kernel counters)."""

from types import SimpleNamespace

import pandas as pd
import pytest

from cmtlab._paths import DATA as DATA_ROOT
from cmtlab.scenario import LossModel
from cmtlab.sim.mechanisms.congestion.linux_reno import LinuxReno
from cmtlab.sim.mechanisms.recovery import LinuxPrrRecovery, PrrRecovery
from cmtlab.sim.net.delay_line import DelayLineLink, XorShift64Star, delay_line_seed
from cmtlab.sim.net.link import DROPPED_LOSS, DROPPED_QUEUE

SEG = 1000
DATA = DATA_ROOT / "today"


def _sub(cwnd_segs, ssthresh_segs, pipe_segs):
    """A sender as PRR reads it; ``in_flight()`` is its flight after this ACK's loss marking (here the last ``pipe``
    an ACK reported)."""
    sub = SimpleNamespace(seg=SEG, cwnd=cwnd_segs * SEG, ssthresh=ssthresh_segs * SEG, pipe_snapshot=pipe_segs * SEG,
                          una=0, ack_time_ns=0, lost_out=1, retrans_data_acked=False)
    sub.in_flight = lambda: sub.pipe_snapshot
    return sub


def _ack(sub, rec, t_ns, pipe_segs, delivered_segs, *, dupack=True, una=None):
    sub.ack_time_ns = t_ns
    sub.pipe_snapshot = pipe_segs * SEG
    if una is not None:
        sub.una = una
    rec.on_ack(sub, delivered_segs * SEG, dupack)
    return sub.cwnd // SEG


def test_linux_prr_follows_tcp_cwnd_reduction_step_by_step():
    # CUBIC: prior cwnd 10, ssthresh 10 * 717 / 1024 = 7; the ACK that entered recovery SACKed one segment
    sub = _sub(10, 7, 8)
    rec = LinuxPrrRecovery()
    rec.enter(sub, 3, 10 * SEG, SEG)
    assert sub.cwnd // SEG == 8 + 1  # in_flight > ssthresh: ceil(7 * 1 / 10) - 0 = 1 (the fast retransmit)
    rec.bytes_sent(sub, SEG)
    assert _ack(sub, rec, 1, 8, 1) == 8 + 1  # prr_delivered 2: ceil(14/10) - 1 = 1
    rec.bytes_sent(sub, SEG)
    assert _ack(sub, rec, 2, 8, 1) == 8 + 1  # 3: ceil(21/10) - 2 = 1
    rec.bytes_sent(sub, SEG)
    assert _ack(sub, rec, 3, 8, 1) == 8 + 0  # 4: ceil(28/10) - 3 = 0
    # a partial ACK that also SACKs (the sender reports it twice: as a duplicate, then as a partial ACK):
    # Linux counts its 3 delivered segments once; in_flight 5 <= ssthresh 7: PRR-SSRB
    # sndcnt = min(7 - 5, max(7 - 3, 3) + 1) = 2
    assert _ack(sub, rec, 4, 5, 3, dupack=True, una=4) == 5 + 2
    assert _ack(sub, rec, 4, 5, 3, dupack=False, una=4) == 5 + 2
    assert rec.prr_delivered == 7  # not 10: the second report of the same ACK added nothing


def test_linux_prr_sends_less_than_ns3s_prr_early_in_recovery():
    """ns-3.44 adds a segment per duplicate ACK on top of the SACKed one, and divides by the flight
    size (pipe) instead of the window: over the same duplicate ACKs it allows more segments."""
    sent = {}
    for rec in (LinuxPrrRecovery(), PrrRecovery()):
        sub = _sub(10, 7, 8)
        rec.enter(sub, 3, 10 * SEG, SEG)
        n = 0
        for t in range(1, 6):
            allowed = max(sub.cwnd - sub.pipe_snapshot, 0) // SEG
            for _ in range(allowed):
                rec.bytes_sent(sub, SEG)
            n += allowed
            _ack(sub, rec, t, 8 - 0, 1)
        sent[type(rec).__name__] = n
    assert sent["LinuxPrrRecovery"] == 4  # ceil(7 * 5 / 10) = 4 segments for 5 delivered (incl. the retransmit)
    assert sent["PrrRecovery"] > sent["LinuxPrrRecovery"]


def test_linux_prr_reads_the_flight_after_this_acks_loss_marking():
    """``tcp_cwnd_reduction`` runs after RACK marked this ACK's losses and sets ``cwnd = tcp_packets_in_flight() +
    sndcnt`` with the flight *after* the marking; the sender's ``pipe_snapshot`` is taken before it.  An ACK that
    delivers one segment and marks two lost: Linux's window admits exactly ``sndcnt`` (here 1) new segments."""
    sub = _sub(10, 7, 9)
    rec = LinuxPrrRecovery()
    rec.enter(sub, 3, 10 * SEG, SEG)
    rec.bytes_sent(sub, SEG)
    sub.ack_time_ns, sub.pipe_snapshot, sub.lost_out = 1, 9 * SEG, 3  # before this ACK's marking
    sub.in_flight = lambda: 6 * SEG  # after it: two more lost, one SACKed
    rec.on_ack(sub, SEG, True)
    # in_flight 6 <= ssthresh 7: sndcnt = min(7 - 6, max(2 - 1, 1)) = 1
    assert sub.cwnd // SEG == 6 + 1


def test_in_a_recovery_linux_prr_never_sends_more_than_its_proportional_share():
    """On a run whose recoveries mark several losses per ACK (one CUBIC flow, 10 Mbit/s, 40 ms, a 10-packet queue):
    while the flight after marking exceeds ``ssthresh`` the segments sent since recovery began never exceed
    ``ceil(ssthresh * prr_delivered / prior_cwnd)`` by more than the one the fast retransmit may force."""
    from cmtlab.sim import simulate_mptcp
    from cmtlab.sim.presets import linux

    checks = []
    orig = LinuxPrrRecovery._reduce

    def spy(self, sub, newly, *, una_advanced, newly_lost, again=False):
        orig(self, sub, newly, una_advanced=una_advanced, newly_lost=newly_lost, again=again)
        seg = sub.seg
        in_flight, ssthresh = sub.in_flight() // seg, sub.ssthresh // seg
        if in_flight > ssthresh and self.prr_delivered:
            allowed = -(-ssthresh * self.prr_delivered // self.prior_cwnd)
            checks.append(self.prr_out + (sub.cwnd // seg - in_flight) <= max(allowed, 1))

    LinuxPrrRecovery._reduce = spy
    try:
        simulate_mptcp([10e6], [0.04], duration_s=5, queue_packets=10, seed=1, **linux("cubic", mptcp=False))
    finally:
        LinuxPrrRecovery._reduce = orig
    assert len(checks) > 20 and all(checks)


def test_linux_prr_entered_from_a_timer_counts_one_segment():
    sub = _sub(10, 7, 9)
    rec = LinuxPrrRecovery()
    rec.enter(sub, 0, 10 * SEG, 0)  # RACK's reordering timer: nothing delivered
    assert rec.prr_delivered == 1 and sub.cwnd // SEG == 9 + 1


def test_linux_reno_zeroes_its_count_at_a_reduction():
    def grow(reset):
        cc = LinuxReno(reset_count_on_reduction=reset)
        sub = SimpleNamespace(seg=SEG, cwnd=10 * SEG, ssthresh=10 * SEG)
        cc.increase_window(sub, 9)  # 9 of the 10 segments a window needs
        sub.ssthresh = cc.ssthresh(sub, sub.cwnd)  # a loss halves: 5
        sub.cwnd = sub.ssthresh
        cc.increase_window(sub, 1)
        return sub.cwnd // SEG
    assert grow(False) == 6  # the old count (10 >= 5) grows the halved window at once
    assert grow(True) == 5  # Linux: a whole new window of acknowledged segments first
    with pytest.raises(ValueError, match="reset_count_on_reduction"):
        LinuxReno(reset_count_on_reduction=1)


def test_delay_line_draws_reproduce_the_kernel_runs_random_drops():
    """Every lossy path of every recorded kernel run: the delay line's generator, seeded as the testbed seeds
    it, drops the number of packets the delay line counted.  The counters are read at the end of the run: a packet
    drawn for but still queued or on its way then is in neither ``forwarded`` nor a drop count, so the drops drawn
    over the counted packets are at most the recorded ones, and those over the counted packets plus what the path
    can hold (its queue and its bandwidth-delay product) at least; most runs match exactly."""
    k = pd.read_csv(DATA / "kernel_cells.csv")
    checked = exact = 0
    for _, r in k.iterrows():
        for i in range(int(r.n_paths)):
            p = float(r[f"path{i}_loss"])
            if not p > 0:
                continue
            n = int(r[f"sub{i}_packets"] + r[f"sub{i}_random_drops"] + r[f"sub{i}_queue_drops"])
            held = int(r[f"path{i}_queue_packets"] + r[f"path{i}_rate_bps"] * r[f"path{i}_delay_s"] / (1500 * 8)) + 2
            g = XorShift64Star(delay_line_seed(int(r.rep), i))
            draws = [g.random() < p for _ in range(n + held)]
            want = int(r[f"sub{i}_random_drops"])
            assert sum(draws[:n]) <= want <= sum(draws), (r.cell, r.rep, i)
            exact += sum(draws[:n]) == want
            checked += 1
    assert checked >= 30 and exact >= checked - 2


def test_delay_line_link_drops_before_the_queue_and_varies_only_accepted_packets():
    p = 0.3
    link = DelayLineLink(8e6, 0.01, 2, LossModel("packet", p), stream_seed=5, jitter_s=0.002, skip_packets=1)
    drops, jit = XorShift64Star(5), XorShift64Star(5 ^ 0x6A09E667F3BCC908)
    drops.random()
    jit.random()  # the handshake's draws
    t = 0
    busy_until = 0
    waiting = []
    for n in range(40):
        out = link.transmit(t, 1000)
        if drops.random() < p:
            assert out == DROPPED_LOSS  # and the link stays free: no serialisation
        else:
            waiting = [w for w in waiting if w > t]
            if busy_until > t and len(waiting) >= 2:
                assert out == DROPPED_QUEUE
            else:
                start = max(t, busy_until)
                busy_until = start + 1_000_000  # 1000 bytes at 8 Mbit/s
                if start > t:
                    waiting.append(start)
                assert out == busy_until + 10_000_000 + int(jit.random() * 2_000_000)
        t += 300_000 if n % 3 else 2_000_000
    assert link.loss_drops > 0 and link.queue_drops > 0
    with pytest.raises(ValueError, match="per-packet"):
        DelayLineLink(8e6, 0.01, 2, LossModel("bit", 1e-6), stream_seed=1)


def _reno_sender(loss_detection):
    from cmtlab.scenario import TcpOptions
    from cmtlab.sim.engine.events import EventQueue
    from cmtlab.sim.mechanisms.recovery import make_recovery
    from cmtlab.sim.mechanisms.reordering import NoReorderingResponse
    from cmtlab.sim.tcp import TcpSender

    q = EventQueue()
    opts = TcpOptions(sack=True, sack_loss_detection=True, limited_transmit=True, recovery="linux_prr",
                      min_rto_s=0.2, loss_detection=loss_detection)
    s = TcpSender(segment_bytes=SEG, transfer_bytes=200 * SEG, initial_window_bytes=10 * SEG,
                  ssthresh_bytes=10 * SEG, options=opts, cc=LinuxReno(reset_count_on_reduction=True),
                  recovery=make_recovery("linux_prr"), reordering=NoReorderingResponse(), queue=q,
                  net_send=lambda now, k, nbytes, retx: None)
    s.start(0)
    return s


def test_sacked_segments_grow_the_window_as_linux_counts_them():
    """Linux grows the window by ``acked_sacked`` on every ACK that advances snd_una outside a reduction
    (``tcp_cong_control``, ``tcp_may_raise_cwnd``); the sender alone counts growth only on ACKs without new SACK
    information.  A path that delivers every fourth segment one place late: per four segments an ACK that
    advances and SACKs (2 acked + 1 SACKed), then one that fills the hole (1 acked)."""
    cwnd = {}
    for ld in ("rack-tlp", "rack-tlp-linux"):
        s = _reno_sender(ld)
        t = 100_000_000
        for j in range(3):  # 12 segments delivered in congestion avoidance (cwnd 10)
            s.on_ack(t, 4 * j + 2, 0, (None, [(4 * j + 3, 4 * j + 4)]))
            s.on_ack(t + 500_000, 4 * j + 4, 0, None)
            t += 1_000_000
        cwnd[ld] = s.cwnd // SEG
    assert cwnd["rack-tlp-linux"] == 11  # all 12 counted: one window of 10 segments, one increase
    assert cwnd["rack-tlp"] == 10  # only the 3 filling ACKs count (1 segment each)


def test_reordering_degree_is_linux_tp_reordering():
    from cmtlab.sim.mechanisms.recovery.rack_tlp import RackTlp

    r = RackTlp()
    for k in range(7):
        r.on_sent(k, 0)
    r.on_ack(100_000_000, 0, sacked=[5], srtt_ns=100_000_000)
    assert r.reordering_degree == 3 and not r.reordering_seen  # tcp_reordering's default, nothing seen yet
    r.on_ack(101_000_000, 6, srtt_ns=100_000_000)  # 0..4 arrive after 5: distance 6 - 0 = 6 segments
    assert r.reordering_seen and r.reordering_degree == 6


def test_linux_cubic_slow_start_grows_only_a_window_in_use():
    """tcp_is_cwnd_limited in slow start: a window of 40 segments with 10 in flight (a subflow the scheduler
    leaves idle) does not grow; with 30 in flight it does, by the segments acknowledged."""
    from cmtlab.sim.mechanisms.congestion.cubic import LinuxCubic

    def grow(in_flight, gate):
        cc = LinuxCubic(slow_start_cwnd_limited=gate)
        sub = SimpleNamespace(seg=SEG, cwnd=40 * SEG, ssthresh=1000 * SEG, pipe_snapshot=in_flight * SEG,
                              ack_time_ns=0, srtt=0, n_rtt_samples=0)
        cc.init(sub)
        cc.increase_window(sub, 2)
        return sub.cwnd // SEG
    assert grow(10, True) == 40  # 40 >= 2 * (10 + 2): not cwnd-limited
    assert grow(30, True) == 42 and grow(10, False) == 42
    with pytest.raises(ValueError, match="slow_start_cwnd_limited"):
        LinuxCubic(slow_start_cwnd_limited="yes")
