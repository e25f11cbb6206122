"""cmtlab.sim.mptcp.result: an MPTCP run's result — one tidy row per run, one row per subflow in ``subflows``."""

import numpy as np
import pandas as pd
import pytest

from cmtlab import sim
from cmtlab.sim.mptcp.result import MptcpResult

ARABI_B = [5e6, 2e6, 7e6]
ARABI_D = [0.1, 0.01, 0.05]


def mp(b, d, **kw):
    kw.setdefault("congestion", "newreno")
    return sim.simulate_mptcp(b, d, **kw)


def test_row_is_one_tidy_row_per_run():
    rows = [mp(ARABI_B, ARABI_D, transfer_bytes=200_000, seed=s).row() for s in range(2)]
    df = pd.DataFrame(rows)
    assert len(df) == 2
    for col in ("throughput_bps", "goodput_bps", "gthroughput_bps", "ooo_r", "ooo_bo_bytes", "sf0_throughput_bps",
                "sf2_three_dupack_events", "sf1_link_utilisation", "congestion", "scheduler", "scenario_key"):
        assert col in df.columns, col
    assert isinstance(mp([1e6], [0.1], transfer_bytes=5000), MptcpResult)


def test_subflow_table_is_built_from_its_rows_when_read_and_agrees_with_the_counters():
    r = mp(ARABI_B, ARABI_D, transfer_bytes=200_000)
    t = r.subflows
    assert isinstance(t, pd.DataFrame) and list(t["subflow"]) == [0, 1, 2]
    assert t is r.subflows  # built once
    assert int(t["segments_sent"].sum()) == r.data_segments_sent
    assert int(t["retransmissions"].sum()) == r.retransmissions
    assert t["segments_sent"].dtype == np.int64 and t["srtt_s"].dtype == np.float64
    row = r.row()
    assert [row[f"sf{i}_segments_sent"] for i in range(3)] == list(t["segments_sent"])
    # a result made by hand: an empty table by default, a DataFrame or rows accepted, anything else refused
    base = dict(simulator="x", scenario=r.scenario, completed=False, completion_time_s=float("nan"))
    assert MptcpResult(**base).subflows.empty
    assert MptcpResult(**base, subflows=[{"subflow": 0, "segments_sent": 3}]).subflows["segments_sent"].tolist() == [3]
    assert MptcpResult(**base, subflows=t).subflows is t
    with pytest.raises(TypeError, match="subflows must be a DataFrame or a list of row dicts"):
        MptcpResult(**base, subflows="rows")
