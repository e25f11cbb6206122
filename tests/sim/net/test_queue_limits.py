"""Per-link drop-tail limits in packets or bytes, counted as ns-3 counts them or as the testbed's delay line does.

The delay line's rule is re-implemented here from ``delayline.c`` (``on_readable``: a packet arriving at ``t``
is dropped when ``q_pkts + 1 > limit`` or ``q_bytes + n > limit``, both counting the packets whose
serialisation has not ended by ``t``) and run beside :class:`cmtlab.sim.net.delay_line.DelayLineLink` on random
arrivals: the same packets are dropped, the others leave at the same nanosecond.
"""

import random

import pytest

from cmtlab import sim
from cmtlab.scenario import PPP_HEADER_BYTES, as_queue_limits, striped_scenario
from cmtlab.sim.multipath import MptcpSimulation, mptcp_scenario
from cmtlab.sim.net.delay_line import DelayLineLink
from cmtlab.sim.net.link import DROPPED_QUEUE, PointToPointLink, transmission_ns
from cmtlab.sim.net.trace_link import RateTraceLink


class DelayLineQueue:
    """``delayline.c``'s queue of one direction (no random drops): IP bytes in, departure time out."""

    def __init__(self, rate_bps, delay_ns, queue_pkts=0, queue_bytes=0):
        self.rate, self.delay = rate_bps, delay_ns
        self.qp, self.qb = queue_pkts, queue_bytes
        self.link_free = -(1 << 62)
        self.backlog = []  # (tx_end, n) of packets not yet serialised

    def arrive(self, t, n):
        self.backlog = [(e, b) for e, b in self.backlog if e > t]  # advance_queue
        if (self.qp and len(self.backlog) + 1 > self.qp) or (self.qb and sum(b for _, b in self.backlog) + n > self.qb):
            return DROPPED_QUEUE
        start = max(self.link_free, t)
        end = start + transmission_ns(n, self.rate)
        self.link_free = end
        self.backlog.append((end, n))
        return end + self.delay


@pytest.mark.parametrize("qp,qb", [(5, None), (1, None), (None, 6000), (8, 9000), (3, 4500)])
def test_the_delay_line_link_drops_what_delayline_c_drops(qp, qb):
    rng = random.Random(7)
    link = DelayLineLink(10e6, 0.01, qp, stream_seed=1, queue_bytes=qb, counting="delay_line")
    ref = DelayLineQueue(10e6, 10_000_000, qp or 0, qb or 0)
    t = 0
    drops = accepted = 0
    for _ in range(3000):
        t += int(rng.expovariate(1 / 600_000))  # arrivals faster than the line (0.7 ms per mean packet)
        wire = rng.choice((1502, 1502, 1502, 54, 66, 600))
        got = link.transmit(t, wire)
        want = ref.arrive(t, wire - PPP_HEADER_BYTES)
        assert got == want, f"packet at {t} ns of {wire} wire bytes"
        drops += got == DROPPED_QUEUE
        accepted += (wire - PPP_HEADER_BYTES) if got != DROPPED_QUEUE else 0
    assert drops > 200 and link.queue_drops == drops
    assert link.bytes == accepted  # the line's byte count: IP bytes of what it took


def test_ns3_counts_waiting_packets_the_delay_line_every_unserialised_one():
    """Five packets at the same instant on a busy-free link: ns-3's queue of 3 takes the one on the wire and 3
    waiting; the delay line's limit of 3 counts the one on the wire too."""
    ns3 = PointToPointLink(1e6, 0.0, 3)
    line = PointToPointLink(1e6, 0.0, 3, queue_counts="unserialised")
    assert [ns3.transmit(0, 1000) >= 0 for _ in range(5)] == [True] * 4 + [False]
    assert [line.transmit(0, 1000) >= 0 for _ in range(5)] == [True] * 3 + [False] * 2
    one = PointToPointLink(1e6, 0.0, 1, queue_counts="unserialised")
    assert [one.transmit(0, 1000) >= 0 for _ in range(2)] == [True, False]
    assert one.transmit(8_000_000, 1000) >= 0  # the first one has left: the line is idle again


def test_a_byte_limit_counts_sizes_and_a_packet_limit_still_applies():
    bytes_only = PointToPointLink(1e6, 0.0, None, queue_bytes=2500)
    # waiting bytes only (ns-3 counting): the one on the wire is free, then 1000 + 1000 fit, 500 fits, 1 does not
    assert [bytes_only.transmit(0, b) >= 0 for b in (1000, 1000, 1000, 500, 1)] == [True, True, True, True, False]
    both = PointToPointLink(1e6, 0.0, 2, queue_bytes=10_000, queue_counts="unserialised")
    assert [both.transmit(0, 100) >= 0 for _ in range(3)] == [True, True, False]
    assert bytes_only.queue_drops == 1 and both.queue_drops == 1


@pytest.mark.parametrize("bad,match", [
    (dict(queue_packets=0), "queue_packets must be an integer >= 1"),
    (dict(queue_packets=None), "queue_packets must be an integer >= 1 when queue_bytes is None"),
    (dict(queue_bytes=0), "queue_bytes must be None or an integer >= 1"),
    (dict(queue_bytes=1.5), "queue_bytes must be None or an integer >= 1"),
    (dict(queue_counts="all"), "queue_counts must be one of"),
])
def test_bad_link_limits_are_named(bad, match):
    with pytest.raises(ValueError, match=match):
        PointToPointLink(1e6, 0.0, **{"queue_packets": 100, **bad})


def test_the_delay_line_serialises_ip_bytes_and_keeps_ns3_counting_by_default():
    old = DelayLineLink(12e6, 0.0, 100, stream_seed=1)
    new = DelayLineLink(12e6, 0.0, 100, stream_seed=1, counting="delay_line")
    assert old.transmit(0, 1502) == transmission_ns(1502, 12e6)
    assert new.transmit(0, 1502) == transmission_ns(1500, 12e6) and new.bytes == 1500
    with pytest.raises(ValueError, match="counting must be one of"):
        DelayLineLink(12e6, 0.0, 100, stream_seed=1, counting="linux")


def test_the_delay_line_draws_for_the_syn_the_final_ack_then_the_data():
    """Measured on the testbed (10 % loss, four seeds): the first data segment the kernel lost is the one the
    line's stream predicts with two draws (SYN, final ACK) before the data.  A simulated run with
    ``counting="delay_line"`` loses the same data segment; its final ACK leaves before the first window (the
    window of 10 meets an empty queue of 10)."""
    from cmtlab.scenario import LossModel
    from cmtlab.sim.net.delay_line import XorShift64Star, delay_line_seed

    for seed in range(4):
        r = XorShift64Star(delay_line_seed(seed, 0))
        r.random(), r.random()  # SYN, final ACK
        first = next(i for i in range(10_000) if r.random() < 0.1)
        res = sim.simulate_mptcp([10e6], [0.02], duration_s=0.3, congestion="reno", scheduler="linux", seed=seed,
                                 queue_packets=10, loss=[LossModel("packet", 0.1)], segment_bytes=1448,
                                 initial_window_bytes=14480, links=[("delay_line", {"counting": "delay_line"})],
                                 trace={"packets"})
        pk = res.traces["packets"]
        lost = pk[pk.arrival_s.isna() & ~pk.retransmission]
        assert int(lost.seq.iloc[0]) == first, seed
        window = pk[(pk.seq < 10) & ~pk.retransmission]
        assert window.arrival_s.notna().sum() == 10 - int((lost.seq < 10).sum())  # no queue drop in the first window


def test_a_rate_trace_link_counts_like_the_delay_line_when_asked():
    ns3 = RateTraceLink((1e6,), 0.0, 2)
    line = RateTraceLink((1e6,), 0.0, 2, counting="delay_line")
    assert [ns3.transmit(0, 1002) >= 0 for _ in range(4)] == [True] * 3 + [False]
    assert [line.transmit(0, 1002) >= 0 for _ in range(4)] == [True] * 2 + [False] * 2
    by_bytes = RateTraceLink((1e6,), 0.0, None, queue_bytes=2000, counting="delay_line")
    assert [by_bytes.transmit(0, 1002) >= 0 for _ in range(3)] == [True, True, False]


def test_scenarios_carry_one_limit_per_path_and_keep_old_keys():
    sc = mptcp_scenario([10e6, 5e6, 2e6], [0.02, 0.08, 0.16], duration_s=1.0, queue_packets=[20, 34, 27])
    assert sc.queue_packets == (20, 34, 27) and sc.queue_bytes is None
    sim_ = MptcpSimulation(sc)
    assert [lk.queue_packets for lk in sim_.access] == [20, 34, 27]
    assert [lk.queue_packets for lk in sim_.access_rev] == [20, 34, 27]
    same = mptcp_scenario([10e6, 5e6], [0.02, 0.08], duration_s=1.0, queue_packets=(50, 50))
    assert same.queue_packets == 50 and same.key() == mptcp_scenario([10e6, 5e6], [0.02, 0.08], duration_s=1.0,
                                                                     queue_packets=50).key()
    assert "queue_bytes" not in same.to_dict()
    by_bytes = mptcp_scenario([10e6, 5e6], [0.02, 0.08], duration_s=1.0, queue_packets=None,
                              queue_bytes=[30_000, 60_000], links=("delay_line", {"counting": "delay_line"}))
    built = MptcpSimulation(by_bytes)
    assert [lk.queue_bytes for lk in built.access] == [30_000, 60_000]
    assert [lk.queue_counts for lk in built.access] == ["unserialised"] * 2
    st = striped_scenario([10e6, 5e6], [0.02, 0.08], transfer_bytes=100_000, queue_packets=[5, 7], queue_bytes=[None, 9000])
    assert st.queue_packets == (5, 7) and st.queue_bytes == (None, 9000)
    run = sim.Simulation(st)
    assert [(lk.queue_packets, lk.queue_bytes) for lk in run.links] == [(5, 0), (7, 9000)]


@pytest.mark.parametrize("kw,match", [
    (dict(queue_packets=[10, 20]), r"one value or a sequence of 3 \(one per path\)"),
    (dict(queue_packets=[10, 0, 5]), r"queue_packets\[1\] must be"),
    (dict(queue_packets=None), "queue_packets must be an integer >= 1 for path 0"),
    (dict(queue_bytes=[1000, -1, 5]), r"queue_bytes\[1\] must be"),
    (dict(queue_packets=[10, 20, 30], backbone_bps=20e6), "with a backbone"),
])
def test_bad_per_path_limits_are_named(kw, match):
    with pytest.raises(ValueError, match=match):
        mptcp_scenario([10e6, 5e6, 2e6], [0.02, 0.08, 0.16], duration_s=1.0, **kw)


def test_per_link_limits_change_only_the_link_they_name():
    """Shrinking path 1's queue leaves path 0's drops as they were when path 0 has a queue of its own size."""
    base = dict(congestion="uncoupled", scheduler="lowest_rtt", duration_s=3.0, seed=1)
    wide = sim.simulate_mptcp([10e6], [0.04], queue_packets=[8], **base)
    assert as_queue_limits([8, 8], None, 2) == (8, None)
    r = sim.simulate_mptcp([10e6, 5e6], [0.04, 0.2], queue_packets=[8, 200], **base)
    assert r.subflows.queue_drops.iloc[0] > 0 and wide.subflows.queue_drops.iloc[0] > 0


def test_ns3_refuses_per_link_and_byte_limits():
    from cmtlab.ns3.engine import unsupported_options

    sc = striped_scenario([10e6, 5e6], [0.02, 0.08], transfer_bytes=100_000, queue_packets=[5, 7])
    assert any("per-link limits" in p for p in unsupported_options(sc))
    assert not any("queue" in p for p in unsupported_options(striped_scenario([1e6], [0.1], transfer_bytes=1000,
                                                                              tunnel=False)))
