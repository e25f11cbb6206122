"""CUBIC in cmtlab.sim against ns-3.44's ``TcpCubic`` on the same single-path scenarios.

ns-3.44's ``TcpCubic`` is a port of Linux's fixed-point ``bictcp`` (``cnt``-based increase, a
10 ms wait after recovery before the curve is updated, Linux's ``delay_min`` added to ``t``);
:class:`~cmtlab.sim.mechanisms.congestion.Cubic` follows RFC 9438's equations in floating point.
Both have HyStart off here (ns-3's ``HyStart`` attribute is set to false by
:func:`cmtlab.ns3.engine.run` with ``congestion="cubic"``).  Slow start and everything outside
congestion avoidance is the same code that agrees with ns-3's ``TcpNewReno`` to the nanosecond, so
a run that never reaches congestion avoidance agrees exactly; a run with losses differs by how the
two compute the window in congestion avoidance.  :func:`cubic_ns3_table` reports the agreement per
scenario and seed, without tolerance games: equal to the nanosecond, or the relative difference.
"""

from __future__ import annotations

import pandas as pd

from ..progress import progress
from ..scenario import LossModel, striped_scenario

#: (name, rate bit/s, round trip s, packet loss rate, queue packets): clean and lossy single paths.
SCENARIOS = (
    ("clean 10M/60ms", 10e6, 0.06, 0.0, 100),
    ("small queue 10M/20ms", 10e6, 0.02, 0.0, 10),
    ("1% loss 10M/60ms", 10e6, 0.06, 0.01, 100),
    ("0.1% loss 20M/100ms", 20e6, 0.1, 0.001, 100),
    ("0.05% loss 50M/40ms", 50e6, 0.04, 0.0005, 50),
)


def cubic_scenario(rate_bps: float, rtt_s: float, loss: float, queue_packets: int, *, seconds: float = 20.0,
                   seed: int = 0):
    """One single-path transfer of ``seconds`` worth of the path's rate, Linux-like TCP options that ns-3 can
    represent (SACK with RFC 6675 loss detection, PRR, timestamps, 200 ms minimum RTO, IW 10, 1448-byte
    segments, Linux's 40 ms delayed-ACK timer), data loss only (ACKs on an ideal return path)."""
    return striped_scenario([rate_bps], [rtt_s], transfer_bytes=int(rate_bps / 8 * seconds), segment_bytes=1448,
                            initial_window_bytes=10 * 1448, ssthresh_bytes=1 << 30, m_ack=2,
                            queue_packets=int(queue_packets),
                            loss=[LossModel("packet", loss)] if loss > 0 else None, seed=int(seed), sack=True,
                            sack_loss_detection=True, limited_transmit=True, recovery="prr", min_rto_s=0.2,
                            timestamps=True, delayed_ack_timeout_s=0.04, ack_path="ideal", send_buffer_bytes=1 << 24,
                            receive_buffer_bytes=1 << 24)


def cubic_ns3_table(scenarios=SCENARIOS, seeds=(0, 1, 2), *, seconds: float = 20.0, variant: str = "spec",
                    progress_bar: bool = True) -> pd.DataFrame:
    """One row per (scenario, seed): completion time, retransmissions and timeouts of the transfer in
    cmtlab.sim with :class:`~cmtlab.sim.mechanisms.congestion.Cubic` and in ns-3.44 with ``TcpCubic``,
    ``ct_rel_diff`` = sim/ns-3 - 1 and ``exact`` (same completion time to the nanosecond and same
    retransmissions).  ``variant``: ``"spec"`` (RFC 9438's text) or ``"linux"`` (Linux's choices,
    :class:`~cmtlab.sim.mechanisms.congestion.cubic.LinuxCubic`, which ns-3's port shares)."""
    from .. import ns3
    from ..sim.registry import make
    from ..sim.striped import Simulation

    rows = []
    jobs = [(s, seed) for s in scenarios for seed in seeds]
    for (name, rate, rtt, loss, q), seed in progress(jobs, desc="cubic vs ns-3", unit="run",
                                                     enabled_=progress_bar):
        sc = cubic_scenario(rate, rtt, loss, q, seconds=seconds, seed=seed)
        sim = Simulation(sc, congestion=make("congestion", "cubic", variant=variant)).run()
        ref = ns3.engine.run(sc, congestion="cubic")
        rows.append(dict(scenario=name, variant=variant, rate_bps=rate, rtt_s=rtt, loss=loss, queue_packets=q, seed=seed,
                         sim_completion_s=sim.completion_time_s, ns3_completion_s=ref.completion_time_s,
                         sim_retransmissions=sim.retransmissions, ns3_retransmissions=ref.retransmissions,
                         sim_timeouts=sim.timeouts, ns3_timeouts=ref.timeouts))
    df = pd.DataFrame(rows)
    df["ct_rel_diff"] = df["sim_completion_s"] / df["ns3_completion_s"] - 1.0
    df["exact"] = (df["sim_completion_s"] == df["ns3_completion_s"]) & \
        (df["sim_retransmissions"] == df["ns3_retransmissions"])
    return df


__all__ = ["SCENARIOS", "cubic_scenario", "cubic_ns3_table"]
