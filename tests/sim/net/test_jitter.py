"""cmtlab.sim.net.jitter: per-packet delay variation (the testbed delay line's ``--jitter``), checked
against its definition: each arrival is the point-to-point arrival plus a draw in [0, jitter), the
draws are uniform, the loss draws are those of a plain link, and a jitter above the serialisation
time reorders packets."""

import random

import numpy as np
import pytest

from cmtlab.scenario import LossModel
from cmtlab.sim.net.jitter import JitterLink
from cmtlab.sim.net.link import PointToPointLink


def _arrivals(link, n=20_000, gap_ns=1_500_000):
    return [link.transmit(i * gap_ns, 1500) for i in range(n)]


def test_arrival_is_the_plain_arrival_plus_a_uniform_draw():
    plain = PointToPointLink(10e6, 0.02, 100, LossModel("packet", 0.01), random.Random(3))
    jit = JitterLink(10e6, 0.02, 100, LossModel("packet", 0.01), random.Random(3), jitter_s=0.005,
                     jitter_rng=random.Random(9))
    a, b = np.array(_arrivals(plain)), np.array(_arrivals(jit))
    assert ((a < 0) == (b < 0)).all()  # the same packets are lost: the loss draws are unchanged
    extra = (b - a)[a >= 0] / 1e9
    assert extra.min() >= 0 and extra.max() < 0.005
    # uniform on [0, 5 ms): mean 2.5 ms, standard deviation 5/sqrt(12) ms (20 000 draws: 1 % bounds)
    assert extra.mean() == pytest.approx(0.0025, rel=0.02)
    assert extra.std() == pytest.approx(0.005 / np.sqrt(12), rel=0.02)
    # packets 1.5 ms apart with 5 ms of variation overtake each other; without variation never
    ok = b[b >= 0]
    assert (np.diff(ok) < 0).mean() > 0.1 and (np.diff(a[a >= 0]) > 0).all()


def test_zero_jitter_is_the_plain_link_and_bad_values_are_refused():
    plain = PointToPointLink(10e6, 0.02, 100)
    jit = JitterLink(10e6, 0.02, 100, jitter_s=0.0)
    assert _arrivals(plain, 500) == _arrivals(jit, 500)
    for bad in (-0.001, 2.0, float("nan"), True, "1"):
        with pytest.raises(ValueError, match="jitter_s"):
            JitterLink(10e6, 0.02, 100, jitter_s=bad)


def test_a_scenario_names_the_jitter_link_and_rack_tolerates_it():
    """On one path with 4 ms of variation (3.5 packet times at 10 Mbit/s) the duplicate-ACK rule
    retransmits spuriously; RACK-TLP's reordering window absorbs it."""
    from cmtlab.sim import simulate_mptcp

    spurious = {}
    for ld in ("dupack", "rack-tlp"):
        r = simulate_mptcp([10e6], [0.04], duration_s=10, congestion="cubic", scheduler="linux",
                           links=[("jitter", {"jitter_s": 0.004})], sack=True, sack_loss_detection=True,
                           limited_transmit=True, recovery="prr", timestamps=True, min_rto_s=0.2, loss_detection=ld,
                           segment_bytes=1448, initial_window_bytes=14480, ssthresh_bytes=1 << 30,
                           receive_buffer_bytes=1 << 24, send_buffer_bytes=1 << 24)
        spurious[ld] = int(r.subflows.spurious_retransmissions.sum())
    assert spurious["dupack"] >= 20 and spurious["rack-tlp"] == 0, spurious


def test_the_delay_lines_jitter_is_carried_into_the_simulator():
    import pandas as pd

    from cmtlab.validation.kernel_sim import kernel_row_paths

    row = pd.Series(dict(path0_rate_bps=10e6, path0_delay_s=0.02, path0_rtt_s=0.04, path0_queue_packets=100,
                         path0_loss=0.0, path0_jitter_s=0.004, path0_reverse_jitter_s=0.0))
    assert kernel_row_paths(row, 1)["links"] == [("jitter", {"jitter_s": 0.004})]
    assert "links" not in kernel_row_paths(row.drop(["path0_jitter_s", "path0_reverse_jitter_s"]), 1)
