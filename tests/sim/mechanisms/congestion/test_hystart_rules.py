"""HyStart as Linux 6.18 runs it (``hystart_rules="linux"``) against the book's first reading (``"book"``): one
CUBIC flow, 20 Mbit/s, 50 ms round trip, 100-packet queue (one bandwidth-delay product is 86 packets).  The
kernel leaves slow start there on the ACK train (nstat ``TCPHystartTrainDetect``) before the queue fills; with
the first reading's round boundary the train broke at the gap after each flight, and slow start ran on until
the delay test fired with the queue full."""

import dataclasses

import pytest

from cmtlab.sim import simulate_mptcp
from cmtlab.sim.mechanisms.congestion.cubic import LinuxCubic
from cmtlab.sim.presets import linux


def _exit(rules, ack_policy="delayed", initial_growth=False):
    """(window at slow start's end, queue drops in the 2-s run); HyStart alone by default: the preset's growth after
    it (``initial_growth``, 5 % per round trip until the first loss; built into ``arithmetic="linux"``, so the float
    curve here) overruns the queue later in the run."""
    kw = linux("cubic", mptcp=False)
    kw["congestion_params"]["hystart_rules"] = rules
    kw["congestion_params"]["initial_growth"] = initial_growth
    kw["congestion_params"]["arithmetic"] = "float"  # the fixed-point update has Linux's 5 % clamp built in
    kw["options"] = dataclasses.replace(kw["options"], ack_policy=ack_policy)
    r = simulate_mptcp([20e6], [0.05], duration_s=2, queue_packets=100, seed=0, trace=True, **kw)
    cw = r.traces["cwnd"]
    first = cw[cw.ssthresh_bytes < 1 << 29].iloc[0]
    return int(first.ssthresh_bytes) // kw["segment_bytes"], int(r.subflows.queue_drops.sum())


def test_linux_rounds_let_the_ack_train_end_slow_start_before_the_queue_fills():
    book, linux_rules = _exit("book"), _exit("linux")
    assert book[0] > 186 and book[1] > 50  # beyond BDP + queue: slow start overran the queue
    assert 86 <= linux_rules[0] <= 186 and linux_rules[1] == 0
    # the preset's quick ACKs (ack_policy="linux": one ACK per segment in slow start) keep the ACK train whole
    # under either round boundary; Linux's rules still leave slow start inside BDP + queue
    preset_rules = _exit("linux", ack_policy="linux")
    assert 86 <= preset_rules[0] <= 186 and preset_rules[1] == 0


def test_the_preset_runs_linux_rules_and_the_default_stays():
    assert linux("cubic")["congestion_params"]["hystart_rules"] == "linux"
    assert LinuxCubic(hystart=True).hystart_rules == "book"
    with pytest.raises(ValueError, match="hystart_rules"):
        LinuxCubic(hystart=True, hystart_rules="kernel")


def test_before_its_first_loss_linux_cubic_grows_at_least_five_percent_a_round_trip():
    """``bictcp_update``: while ``last_max_cwnd`` is 0, ``cnt <= 20``.  After HyStart ends slow start below the
    path's capacity (86 + 100 packets here), the cubic curve from ``K = 0`` adds almost nothing in 0.5 s; Linux's
    clamp adds at least 5 % a round trip, until the queue overflows."""
    def window_after_exit(growth, after_s=0.5, arithmetic="float"):
        kw = linux("cubic", mptcp=False)
        kw["congestion_params"]["initial_growth"] = growth
        kw["congestion_params"]["arithmetic"] = arithmetic
        r = simulate_mptcp([20e6], [0.05], duration_s=3, queue_packets=100, seed=0, trace=True, **kw)
        cw = r.traces["cwnd"]
        first = cw[cw.ssthresh_bytes < 1 << 29].iloc[0]
        later = cw[cw.time_s <= first.time_s + after_s].iloc[-1]
        ev = r.traces["events"]
        losses = ev[ev.event.isin(["fast_retransmit", "timeout"])]
        first_loss = float(losses.time_s.iloc[0]) if len(losses) else float("inf")
        return first.cwnd_bytes, later.cwnd_bytes, first.time_s, first_loss
    c0, c1, t0, loss = window_after_exit(True)
    assert loss > t0 + 0.5  # no loss in between: the growth is the clamp's
    # the round trip grows with the queue, to at most 50 ms + 100 packets of 0.6 ms: at least 4 round trips in 0.5 s
    assert c1 >= c0 * 1.05 ** 4
    d0, d1, _, _ = window_after_exit(False)
    assert d1 < d0 * 1.1
    # the preset's fixed-point bictcp_update clamps cnt to 20 itself (last_max_cwnd == 0), whatever initial_growth says
    for growth in (True, False):
        e0, e1, t0, loss = window_after_exit(growth, arithmetic="linux")
        assert loss > t0 + 0.5 and e1 >= e0 * 1.05 ** 4
    with pytest.raises(ValueError, match="initial_growth must be a boolean"):
        LinuxCubic(initial_growth=1)


class _Sender:
    """What :meth:`Cubic.ssthresh` reads of a sender: its window, segment size and timeout count."""

    def __init__(self, cwnd_segs, timeouts=0, seg=1000):
        self.seg, self.cwnd, self.timeouts = seg, cwnd_segs * seg, timeouts


@pytest.mark.parametrize("forget", [False, True])
def test_a_timeout_makes_linux_cubic_forget_its_last_maximum(forget):
    """``bictcp_reset`` on entering ``TCP_CA_Loss``: after a timeout Linux's ``last_max_cwnd`` is 0 (``W_max``
    forgotten, the initial growth back); after a fast retransmit (no timeout counted) it is the window at the loss.
    RFC 9438's reading (the default) keeps ``W_max`` after a timeout too."""
    cc = LinuxCubic(initial_growth=True, forget_on_timeout=forget)
    s = _Sender(100)
    cc.init(s)
    cc.ssthresh(s, 100 * s.seg)  # a fast retransmit
    assert cc.w_max == 100 and cc.had_loss
    s.timeouts += 1  # the sender counts a timeout, then asks for ssthresh
    cc.ssthresh(s, 100 * s.seg)
    assert (cc.w_max, cc.had_loss) == ((0.0, False) if forget else (100.0, True))
    with pytest.raises(ValueError, match="forget_on_timeout must be a boolean"):
        LinuxCubic(forget_on_timeout="yes")


class _Acks:
    """The state record HyStart's delay test reads (``hystart_samples="ca_rtt"``): one ACK per call."""

    def __init__(self):
        self.cc_rtt_samples, self.cc_rtt_ns, self.ack_time_ns, self.una, self.high = 0, 0, 0, 0, 10

    def ack(self, cc, rtt_ms, una, high):
        self.cc_rtt_samples += 1
        self.cc_rtt_ns = int(rtt_ms * 1e6)
        self.ack_time_ns += 5_000_000  # 5 ms apart: no ACK train
        self.una, self.high = una, high
        return cc._hystart_exit(self, 20.0)


def _round_two(rules, samples_ms):
    """A first round sets delay_min = 100 ms; the second round's samples are ``samples_ms``: the ACK that exits, if
    one does (its index), else None."""
    cc = LinuxCubic(hystart=True, hystart_rules=rules, hystart_samples="ca_rtt")
    s = _Acks()
    for i in range(10):
        assert not s.ack(cc, 100, una=1 + i, high=11 + i)
    for i, rtt in enumerate(samples_ms):
        if s.ack(cc, rtt, una=12 + i, high=60):
            return i
    return None


def test_the_delay_test_reads_the_rounds_smallest_sample_so_far_as_linux_since_5_8():
    """``tcp_cubic.c`` since Linux 5.8 ("tcp_cubic: fix spurious HYSTART_DELAY exit upon drop in min RTT"): curr_rtt
    is the smallest sample of the round so far, this one included, tested from the 9th sample on.  Threshold here:
    100 ms + clamp(100/8, 4, 16) = 112.5 ms."""
    high = [130] * 12
    assert _round_two("linux", high) == 8                      # nine samples above: the 9th exits
    dip = [130] * 8 + [105] + [130] * 3
    assert _round_two("linux", dip) is None                    # a 9th sample below the threshold holds the round
    assert _round_two("book", dip) == 8                        # the frozen minimum of the first 8 exits on it
    assert _round_two("linux", [130] * 8 + [112, 113]) is None  # 112 ms is not above 112.5 ms
