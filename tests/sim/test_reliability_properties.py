"""Properties over random valid scenarios: no goodput above capacity, same seed same row, one subflow = TCP.

The scenarios are drawn by a seeded generator (``hypothesis`` is not among the pinned requirements),
over the ranges the book's chapters use and beyond them: 1–4 paths, 100 kbit/s–100 Mbit/s, round
trips 0–400 ms, drop-tail queues of 4–200 packets, random packet or bit loss, SACK and timestamps on or
off, the coupled and uncoupled congestion controls and several schedulers.  Each row must also pass
the cache's plausibility checks (:func:`cmtlab.sweep.cache.check_row`), which are independent of the
engine: a row the simulator can produce is never one the cache would refuse.
"""

from __future__ import annotations

import random

import pytest

from cmtlab.scenario import LossModel
from cmtlab.sim import run, simulate_mptcp, simulate_striped
from cmtlab.sweep.cache import check_row

N_MPTCP, N_STRIPED = 80, 60
MACHINE = ("wall_time_s", "segments_per_second")  # timing: not part of a result


def draw_paths(rng: random.Random, n: int):
    rates = [10 ** rng.uniform(5, 8) for _ in range(n)]
    rtts = [rng.choice([0.0, rng.uniform(0.001, 0.4)]) for _ in range(n)]
    return rates, rtts


def draw_loss(rng: random.Random, n: int):
    kind = rng.choice(["none", "packet", "bit"])
    if kind == "none":
        return None
    rate = rng.uniform(0, 0.03) if kind == "packet" else rng.uniform(0, 3e-6)
    return [LossModel(kind, rate)] * n


def mptcp_case(i: int) -> dict:
    rng = random.Random(f"mptcp-{i}")
    n = rng.randint(1, 4)
    rates, rtts = draw_paths(rng, n)
    sack = rng.random() < 0.5
    kw = dict(transfer_bytes=rng.randint(1, 300_000), segment_bytes=rng.choice([536, 1000, 1448]),
              queue_packets=rng.randint(4, 200), loss=draw_loss(rng, n), seed=rng.randint(0, 2**31),
              congestion=rng.choice(["lia", "olia", "newreno", "cubic", "uncoupled"]),
              scheduler=rng.choice(["round_robin", "lowest_rtt", "edpf"]), sack=sack,
              timestamps=rng.random() < 0.5, dupack_mode=rng.choice(["rfc", "paper"]))
    kw["initial_window_bytes"] = kw["segment_bytes"] * rng.randint(1, 10)
    return dict(rates=rates, rtts=rtts, kw=kw)


def striped_case(i: int) -> dict:
    rng = random.Random(f"striped-{i}")
    n = rng.randint(1, 4)
    rates, rtts = draw_paths(rng, n)
    kw = dict(transfer_bytes=rng.randint(1, 300_000), queue_packets=rng.randint(4, 200), loss=draw_loss(rng, n),
              seed=rng.randint(0, 2**31), tunnel=n > 1 or rng.random() < 0.5, sack=rng.random() < 0.5,
              ack_path=rng.choice(["round_robin", "first", "fastest", "ideal"]), m_ack=rng.randint(1, 3))
    return dict(rates=rates, rtts=rtts, kw=kw)


def row(result) -> dict:
    return {k: v for k, v in result.to_row().items() if k not in MACHINE}


def same(a: dict, b: dict) -> bool:
    """Equal rows, NaN equal to NaN."""
    return a.keys() == b.keys() and all(x == y or (x != x and y != y) for x, y in zip(a.values(), b.values()))


def check_physics(result, rates):
    capacity = sum(rates)
    assert result.completed == (result.extra["stop_reason"] == "completed")
    if result.completed:
        assert 0 < result.throughput_bps <= capacity, (result.throughput_bps, capacity)
    for name in ("data_segments_sent", "retransmissions", "fast_retransmits", "timeouts"):
        assert getattr(result, name) >= 0
    assert result.retransmissions <= result.data_segments_sent
    assert check_row(result.to_row(), result.scenario) is None


@pytest.mark.parametrize("i", range(N_MPTCP))
def test_random_mptcp_scenarios(i):
    case = mptcp_case(i)
    first = simulate_mptcp(case["rates"], case["rtts"], **case["kw"])
    check_physics(first, case["rates"])
    if first.completed:
        assert first.delivered_bytes == case["kw"]["transfer_bytes"]
    again = run(first.scenario)  # same scenario, same seed: the same row
    assert same(row(first), row(again))


@pytest.mark.parametrize("i", range(N_STRIPED))
def test_random_striped_scenarios(i):
    case = striped_case(i)
    first = simulate_striped(case["rates"], case["rtts"], **case["kw"])
    check_physics(first, case["rates"])
    assert same(row(first), row(run(first.scenario)))


@pytest.mark.parametrize("i", range(30))
def test_one_subflow_is_tcp(i):
    """MPTCP over one path (uncoupled NewReno, one subflow) is single-path TCP, to the nanosecond."""
    rng = random.Random(f"one-{i}")
    rates, rtts = draw_paths(rng, 1)
    kw = dict(transfer_bytes=rng.randint(1, 300_000), queue_packets=rng.randint(4, 200), loss=draw_loss(rng, 1),
              seed=rng.randint(0, 2**31), sack=rng.random() < 0.5, timestamps=rng.random() < 0.5)
    tcp = simulate_striped(rates, rtts, tunnel=False, **kw)
    one = simulate_mptcp(rates, rtts, congestion="newreno", **kw)
    assert one.completed == tcp.completed
    assert one.completion_time_s == tcp.completion_time_s or not tcp.completed
    for name in ("data_segments_sent", "retransmissions", "fast_retransmits", "timeouts"):
        assert getattr(one, name) == getattr(tcp, name), name
