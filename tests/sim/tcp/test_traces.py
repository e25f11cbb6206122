"""cmtlab.sim.tcp.traces: every recorded trace has the columns RECORDED_COLUMNS names, run or empty."""

import pytest

from cmtlab import sim
from cmtlab.sim.tcp.traces import RECORDED_COLUMNS, TRACE_NAMES, TraceRecorder


def expected(name):
    cols = [c for c, _ in RECORDED_COLUMNS[name]]
    return cols + ["dropped"] if name == "packets" else cols


def test_a_traced_run_has_the_declared_columns():
    r = sim.simulate_striped([10e6, 2e6], [0.02, 0.2], transfer_bytes=300_000, trace=True)
    for name in RECORDED_COLUMNS:
        df = r.traces[name]
        assert list(df.columns) == expected(name), name
        assert len(df) > 0, name
    assert r.traces["packets"]["retransmission"].dtype == bool
    assert r.traces["cwnd"]["state"].dtype == "category"


@pytest.mark.parametrize("names", [TRACE_NAMES, ("rate",), ("cwnd", "events")])
def test_empty_recorder_gives_empty_frames_with_the_columns(names):
    rec = TraceRecorder(names, segment_bytes=1000, n_segs=10, last_len=1000)
    out = rec.frames(end_ns=10**9)
    for name in RECORDED_COLUMNS:
        if name in names:
            assert list(out[name].columns) == expected(name) and len(out[name]) == 0
        else:
            assert name not in out  # "rate" alone needs the packets, but does not return them
    if "rate" in names:
        assert list(out["rate"].columns) == ["time_s", "throughput_bps", "goodput_bps"]
