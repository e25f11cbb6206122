"""cmtlab.sweep.recorded: recorded runs are served only after live runs reproduce them exactly.

The simulator is the real one (``"cmtlab"``) on small lossy MPTCP transfers, so different seeds
give different rows and a served row can be compared with a fresh simulation of the same seed.
"""

import gzip
import json

import numpy as np
import pandas as pd
import pytest

from cmtlab.scenario import LossModel
from cmtlab.sim.multipath import mptcp_scenario
from cmtlab.sweep import run_sweep
from cmtlab.sweep.recorded import (UNREPEATABLE_COLUMNS, RecordedRuns, RecordedRunsMismatch, describe_records,
                                   differences, record_runs, run_with_records)


def _case(loss: float):
    return mptcp_scenario([4e6, 2e6], [0.02, 0.06], transfer_bytes=150_000,
                          loss=LossModel("packet", loss))


CASES = [({"loss": 0.01}, _case(0.01)), ({"loss": 0.02}, _case(0.02))]
SEEDS = [0, 1, 2, 3]


@pytest.fixture
def recorded(tmp_path):
    path = tmp_path / "runs.jsonl.gz"
    record_runs(path, "cmtlab", CASES, seeds=SEEDS, command="make test-record", workers=1, progress=False,
                cache=False)
    return path


def _compared(table: pd.DataFrame) -> pd.DataFrame:
    keep = [c for c in table.columns if c not in UNREPEATABLE_COLUMNS]
    return table[keep].reset_index(drop=True)


def test_served_table_equals_a_full_simulation(recorded):
    served = run_with_records("cmtlab", CASES, seeds=SEEDS, records=recorded, live_seeds=[0], workers=1,
                              progress=False, cache=False)
    fresh = run_sweep("cmtlab", CASES, seeds=SEEDS, workers=1, progress=False, cache=False)
    info = served.attrs["records"]
    assert (info["served"], info["simulated"], info["verified"]) == (6, 2, 2)
    assert len(served) == len(fresh) == 8
    assert served.throughput_bps.nunique() > 2          # the seeds really differ
    pd.testing.assert_frame_equal(_compared(served), _compared(fresh), check_dtype=False)
    assert "6 of the 8 runs" in describe_records(served) and "seeds 0" in describe_records(served)


def test_a_changed_row_is_never_served(recorded, tmp_path):
    lines = gzip.open(recorded, "rt").read().splitlines()
    rows = [json.loads(x) for x in lines[1:]]
    target = _case(0.02).replace(seed=0).key()
    for r in rows:
        if r["scenario_key"] == target:
            r["retransmissions"] += 1
    stale = tmp_path / "stale.jsonl.gz"
    with gzip.open(stale, "wt") as fh:
        fh.write("\n".join([lines[0], *map(json.dumps, rows)]) + "\n")
    with pytest.raises(RecordedRunsMismatch, match=r"seed 0 differs in 1 column.*retransmissions.*make test-record"):
        run_with_records("cmtlab", CASES, seeds=SEEDS, records=stale, live_seeds=[0], workers=1, progress=False,
                         cache=False)


def test_runs_the_record_lacks_are_simulated(recorded):
    other = [({"loss": 0.03}, _case(0.03))]
    t = run_with_records("cmtlab", CASES + other, seeds=[0, 1, 5], records=recorded, live_seeds=[0], workers=1,
                         progress=False, cache=False)
    info = t.attrs["records"]
    # recorded cases: seed 1 served, seeds 0 (live) and 5 (not recorded) simulated (4); the new case: all 3
    assert (info["served"], info["simulated"], info["verified"]) == (2, 7, 2)
    fresh = run_sweep("cmtlab", CASES + other, seeds=[0, 1, 5], workers=1, progress=False, cache=False)
    pd.testing.assert_frame_equal(_compared(t), _compared(fresh), check_dtype=False)


def test_a_case_whose_live_seed_is_not_recorded_is_simulated_whole(recorded):
    t = run_with_records("cmtlab", CASES, seeds=[1, 2, 7], records=recorded, live_seeds=[7], workers=1,
                         progress=False, cache=False)
    assert t.attrs["records"]["served"] == 0 and t.attrs["records"]["simulated"] == 6
    assert "none of these cases" in describe_records(t)


def test_record_file_is_checked(recorded, tmp_path):
    rec = RecordedRuns.load(recorded)
    assert len(rec) == 8 and rec.header["seeds"] == SEEDS and rec.header["command"] == "make test-record"
    assert rec.get(_case(0.01).replace(seed=9)) is None
    assert rec.get(_case(0.01).replace(seed=2))["seed"] == 2
    lines = gzip.open(recorded, "rt").read().splitlines()
    cut = tmp_path / "cut.jsonl.gz"
    with gzip.open(cut, "wt") as fh:
        fh.write("\n".join(lines[:-1]) + "\n")
    with pytest.raises(ValueError, match="header says 8 rows, the file holds 7"):
        RecordedRuns.load(cut)
    with pytest.raises(FileNotFoundError, match="not found"):
        RecordedRuns.load(tmp_path / "missing.jsonl.gz")


def test_recording_is_byte_for_byte_repeatable_apart_from_its_header(recorded, tmp_path):
    again = tmp_path / "again.jsonl.gz"
    record_runs(again, "cmtlab", CASES, seeds=SEEDS, command="make test-record", workers=1, progress=False,
                cache=False)
    a, b = (gzip.open(p, "rt").read().splitlines() for p in (recorded, again))
    strip = [c for c in UNREPEATABLE_COLUMNS]
    rows_a = [{k: v for k, v in json.loads(x).items() if k not in strip} for x in a[1:]]
    rows_b = [{k: v for k, v in json.loads(x).items() if k not in strip} for x in b[1:]]
    assert rows_a == rows_b


def test_bad_arguments(recorded):
    with pytest.raises(ValueError, match="live_seeds must be a non-empty subset of seeds"):
        run_with_records("cmtlab", CASES, seeds=[0, 1], records=recorded, live_seeds=[4], workers=1)
    with pytest.raises(ValueError, match="live_seeds must be a non-empty subset"):
        run_with_records("cmtlab", CASES, seeds=[0, 1], records=recorded, live_seeds=None, workers=1)
    with pytest.raises(ValueError, match="command must be the shell command"):
        record_runs(recorded, "cmtlab", CASES, seeds=[0], command=" ")


def test_differences_rules():
    assert differences({"a": 1, "b": float("nan"), "wall_time_s": 3.0}, {"a": 1.0, "b": None, "wall_time_s": 9.0}) == []
    assert differences({"a": 1}, {"a": 1.0000000000000002}) == [("a", 1, 1.0000000000000002)]
    assert differences({"a": True}, {"a": 1}) == [("a", True, 1)]
    assert differences({"a": np.int64(5)}, {}) == [("a", 5, None)]
