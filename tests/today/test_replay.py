"""Trace-driven replay (issue 21): the replay checked against the schedule it replays, and kernel rows that
replayed a schedule carried into cmtlab.sim from the same point of the schedule."""

import os

import numpy as np
import pandas as pd
import pytest

from cmtlab.sim.net.trace_link import RateTraceLink
from cmtlab.validation.kernel_sim import kernel_row_paths
from cmtlab.today import kernel

SCHEDULE = (8e6, 2e6, 0.0, 12e6, 4e6, 6e6, 1e6, 8e6)


def test_sim_replay_delivers_the_schedule_where_the_link_is_backlogged():
    """One CUBIC flow over RateTraceLink: every backlogged interval delivers its scheduled rate within one
    packet (the packets straddling its boundaries), the outage delivers nothing, the goodput is the payload
    share of the rate."""
    t = kernel.replay_check_sim(SCHEDULE, 0.02, queue_packets=400)
    assert list(t.interval) == [2, 3, 4, 5, 6, 7]  # the intervals after the 2 s warm-up
    b = t[t.backlogged]
    assert len(b) >= 5
    assert (b.error_packets.abs() <= 1.0).all(), b
    assert t.loc[t.scheduled_bps == 0, "delivered_bps"].eq(0).all()
    pos = b[b.scheduled_bps > 0]
    assert np.allclose(pos.goodput_bps, pos.payload_share_bps, rtol=0.03)
    s = kernel.replay_summary(t).iloc[0]
    assert s.share_within_2pct_or_1_packet == 1.0 and s.outage_intervals == 1 and s.delivered_in_outages_bps == 0


def test_replay_summary_counts_only_backlogged_intervals():
    t = pd.DataFrame(dict(where="x", scheduled_bps=[1e6, 1e6, 2e6, 0.0], delivered_bps=[1.01e6, 0.5e6, 2.2e6, 0.0],
                          backlogged=[True, False, True, True]))
    t["rel_error"] = np.where(t.scheduled_bps > 0, (t.delivered_bps - t.scheduled_bps) / t.scheduled_bps.where(
        t.scheduled_bps > 0), np.nan)
    t["error_packets"] = (t.delivered_bps - t.scheduled_bps) / 8 / 1500
    s = kernel.replay_summary(t).iloc[0]
    assert s.intervals == 4 and s.backlogged == 2  # the outage is not among the rated intervals
    assert s.max_abs_rel_error == pytest.approx(0.1) and s.share_within_2pct_or_1_packet == 0.5
    assert s.outage_intervals == 1


def test_a_negative_offset_starts_the_run_inside_the_trace():
    link = RateTraceLink((1e6, 2e6, 3e6), 0.0, offset_s=-1.5)
    assert link.rate_at(0) == (2e6, 500_000_000)  # 1.5 s into the trace: its second interval, 0.5 s left
    assert link.rate_at(600_000_000)[0] == 3e6 and link.rate_at(1_600_000_000)[0] == 1e6  # then it repeats
    with pytest.raises(ValueError, match="offset_s"):
        RateTraceLink((1e6,), 0.0, offset_s=float("nan"))


def _row(**extra):
    return pd.Series(dict(n_paths=1, path0_rate_bps=2e6, path0_delay_s=0.02, path0_rtt_s=0.04, path0_queue_packets=100,
                          path0_loss=0.0, path0_reverse_rate_bps=2e6, path0_reverse_delay_s=0.02,
                          path0_reverse_queue_packets=100, path0_reverse_loss=0.0, **extra))


def test_a_kernel_row_that_replayed_a_schedule_becomes_a_rate_trace_link_from_the_same_point():
    p = kernel_row_paths(_row(path0_rate_schedule_bps="1000000 2000000 3000000", path0_schedule_interval_s=1.0,
                              path0_schedule_offset_s=0.7), 1)
    assert p["links"] == [("rate_trace", {"rates_bps": (1e6, 2e6, 3e6), "interval_s": 1.0, "offset_s": -0.7})]
    assert "links" not in kernel_row_paths(_row(), 1)
    with pytest.raises(ValueError, match="schedule_offset_s"):
        kernel_row_paths(_row(path0_rate_schedule_bps="1000000 2000000", path0_schedule_offset_s=None), 1)
    with pytest.raises(ValueError, match="jitter_s"):
        kernel_row_paths(_row(path0_rate_schedule_bps="1000000", path0_schedule_offset_s=0.1, path0_jitter_s=0.002,
                              path0_reverse_jitter_s=0.0), 1)


def test_trace_cells_are_their_own_kind():
    assert kernel.cell_kind("tcp cubic 5G trace") == "tcp trace"
    assert kernel.cell_kind("mptcp cubic 5G + Starlink traces") == "mptcp trace"
    with pytest.raises(ValueError, match="trace"):
        kernel.trace_path("lte")


@pytest.mark.skipif(not os.environ.get("CMTLAB_DATA_MIRROR"), reason="no mirrored public measurements")
def test_trace_paths_replay_the_data_on_the_data_direction_only():
    p = kernel.testbed_path(("starlink", None, 100, 0.0))
    t = kernel.trace_path("starlink")
    assert p.forward.rate_schedule_bps == tuple(t["rates_bps"]) and len(t["rates_bps"]) == kernel.TRACE_SECONDS
    assert p.back.rate_schedule_bps is None and p.back.rate_bps == pytest.approx(np.mean(t["rates_bps"]))
    assert p.forward.delay_s == p.back.delay_s == pytest.approx(t["delay_s"])


def test_recorded_testbed_replay_meets_the_statement():
    """The recorded delay-line replay (data/today/replay_testbed.csv): every backlogged interval delivered its
    scheduled rate within one packet, on both traces."""
    from cmtlab.today import DATA_DIR

    t = pd.read_csv(DATA_DIR / "replay_testbed.csv")
    s = kernel.replay_summary(t).set_index("trace")
    assert set(s.index) == set(kernel.TRACES)
    assert (s.backlogged >= 15).all() and (s.share_within_2pct_or_1_packet == 1.0).all()
    assert (t.max_late_s < 0.05).all()


def test_schedule_capacity_is_the_schedule_over_the_measured_window():
    row = dict(path0_rate_schedule_bps="1000000 3000000", path0_schedule_interval_s=1.0, path0_schedule_offset_s=0.5,
               warmup_s=0.5, duration_s=2.5)
    # window [1.0, 3.0] of the repeating schedule: 3 Mbit/s then 1 Mbit/s
    assert kernel.schedule_capacity_bps(row, 0) == pytest.approx(2e6)
    row["path0_schedule_offset_s"] = 0.0  # window [0.5, 2.5]: 0.5 s at 1, 1 s at 3, 0.5 s at 1
    assert kernel.schedule_capacity_bps(row, 0) == pytest.approx(2e6)
    row["warmup_s"] = 1.5  # window [1.5, 2.5]: 0.5 s at 3, 0.5 s at 1
    assert kernel.schedule_capacity_bps(row, 0) == pytest.approx(2e6)
    row["duration_s"] = 2.0  # window [1.5, 2.0]: at 3
    assert kernel.schedule_capacity_bps(row, 0) == pytest.approx(3e6)
    assert np.isnan(kernel.schedule_capacity_bps(dict(path0_rate_bps=1e6), 0))


def _trace_rows(side, thr, drops, retx, sndbuf_ms=0.0):
    base = dict(cell="tcp cubic Starlink trace", n_paths=1, duration_s=20.0, warmup_s=2.0,
                path0_rate_schedule_bps="10000000", path0_schedule_interval_s=1.0, path0_schedule_offset_s=0.5)
    if side == "k":
        return pd.DataFrame([dict(base, simulator="linux-tcp", throughput_bps=t, received_bytes=t * 2.5,
                                  sub0_bytes=t * 2.5, sub0_queue_drops=d, sub0_retrans_total=r, sub0_dsack_dups=0,
                                  sub0_sndbuf_limited_ms=sndbuf_ms) for t, d, r in zip(thr, drops, retx)])
    return pd.DataFrame([dict(base, simulator="cmtlab.sim", sim_config="today", throughput_bps=t, received_bytes=t * 2.5,
                              sub0_bytes=t * 2.5, sub0_queue_drops=d, sub0_retrans_total=r, sub0_timeouts=0,
                              sub0_spurious_retransmissions=0) for t, d, r in zip(thr, drops, retx)])


def test_explain_decomposes_a_trace_cell_miss_into_queue_drops_and_capacity():
    k = _trace_rows("k", (9.0e6, 9.2e6, 9.4e6), (40, 42, 44), (36, 38, 40))
    s = _trace_rows("s", (8.0e6, 8.0e6, 8.0e6), (60, 60, 60), (60, 60, 60))
    e = kernel.explain(kernel.agreement(k, s), k, s).set_index("metric")
    good = e.loc["goodput_mbps", "diagnosis"]
    assert "92 % (kernel) vs 80 % (sim) of the replayed capacity" in good and "more often" in good
    retx = e.loc["retransmissions", "diagnosis"]
    # 60 / 38 = x1.58 = x1.43 drops (60 vs 42) × x1.11 retransmissions per drop (0.90 vs 1.00)
    assert "x1.58 = x1.43 queue drops" in retx and "× x1.11" in retx
    k2 = _trace_rows("k", (9.0e6, 9.2e6, 9.4e6), (40, 42, 44), (36, 38, 40), sndbuf_ms=4000.0)
    e2 = kernel.explain(kernel.agreement(k2, s), k2, s).set_index("metric")
    assert "send buffer limited a subflow for 4.0 s" in e2.loc["goodput_mbps", "diagnosis"]


def test_the_chapters_subflows_advertise_the_connections_receive_buffer():
    """Regression (found by the replay check): the chapter's runs gave each subflow TcpOptions' default
    128 KiB window, which caps one subflow at 128 KiB per round trip (17.5 Mbit/s at 60 ms); with the
    connection's 1 MiB buffer advertised, one CUBIC flow fills a 40 Mbit/s path."""
    from cmtlab.today import chapter

    scen = {"s": dict(bandwidths_bps=[40e6], rtts_s=[0.06], links=None, loss=[0.0], duration_s=4.0)}
    runs = chapter.run_axis("congestion", scen, [0], receive_buffer_bytes=1 << 20, progress_bar=False)
    cubic = runs.set_index("mechanism").loc["uncoupled CUBIC", "goodput_mbps"]
    assert cubic > 30.0  # > 128 KiB / 60 ms = 17.5 Mbit/s


def test_hystart_sensitivity_reruns_the_recorded_configuration():
    """The 'hystart on' row is the recorded simulator column (same seeds, deterministic); bad cells are named."""
    from cmtlab.today import DATA_DIR

    k = pd.read_csv(DATA_DIR / "kernel_cells.csv")
    s = pd.read_csv(DATA_DIR / "kernel_cells_sim.csv")
    cell = "tcp cubic 5G trace"
    h = kernel.hystart_sensitivity(k, cell).set_index("setting")
    rec = s[(s.cell == cell) & (s.sim_config == "today")].throughput_bps.mean() / 1e6
    assert h.loc["cmtlab.sim, hystart on", "goodput_mbps"] == pytest.approx(rec, rel=1e-12)
    assert h.loc["kernel", "goodput_mbps"] == pytest.approx(k[k.cell == cell].throughput_bps.mean() / 1e6)
    with pytest.raises(ValueError, match="cell"):
        kernel.hystart_sensitivity(k, "no such cell")
    with pytest.raises(ValueError, match="CUBIC"):
        kernel.hystart_sensitivity(k, "tcp reno 10M/60ms 1% loss")
