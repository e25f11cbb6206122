"""Reliability: a cache entry can only miss — never abort a sweep, block it, or be served wrong.

Each test replays a reproducer of the reliability probe of 22f83c4 (``shared/reviews/reliability-probe.md``,
sections 2 and 4): the entry of one run of a real ``cmtlab`` sweep is replaced by what the probe wrote
there, and the next sweep must warn (:class:`~cmtlab.sweep.CacheEntryWarning`), recompute the run and
return the table of a clean run.  On 22f83c4 every one of these failed: random or non-UTF-8 bytes and
deep nesting aborted the sweep (``UnicodeDecodeError``, ``RecursionError``), a FIFO blocked it forever,
a 200 MB file was read whole, and entries whose digest was fixed up after the edit were served.
"""

from __future__ import annotations

import json
import math
import os
import threading
import warnings

import pytest

from cmtlab.scenario import striped_scenario
from cmtlab.sweep import CacheEntryWarning, ResultCache, get_simulator, run_sweep
from cmtlab.sweep.cache import _row_digest

#: Columns that depend on the machine, not on the run.
TIMING = ("wall_time_s", "segments_per_second")


def scenarios():
    return [striped_scenario([2e6, 1e6], [0.02, 0.04], transfer_bytes=30_000, seed=s) for s in range(3)]


def table(cache_dir):
    t = run_sweep("cmtlab", scenarios(), workers=1, cache_dir=cache_dir, progress=False)
    return t.drop(columns=[c for c in TIMING if c in t.columns])


@pytest.fixture
def cached(tmp_path, monkeypatch):
    """A sweep run once into a fresh cache: (cache folder, clean table, path of the seed-1 entry)."""
    monkeypatch.delenv("CMTLAB_DASK_SCHEDULER", raising=False)
    cache_dir = tmp_path / "cache"
    clean = table(cache_dir)
    path = ResultCache(cache_dir).path(get_simulator("cmtlab"), scenarios()[1])
    assert path.is_file()
    return cache_dir, clean, path


def recomputed(cache_dir, clean, why: str):
    """The next sweep warns (naming ``why``), recomputes one run and returns the clean table."""
    with pytest.warns(CacheEntryWarning, match=why) as record:
        again = run_sweep("cmtlab", scenarios(), workers=1, cache_dir=cache_dir, progress=False)
    assert "recomputed" in str(record[0].message)
    assert again.attrs["sweep"]["simulated"] == 1 and again.attrs["sweep"]["cached"] == 2
    assert again.drop(columns=[c for c in TIMING if c in again.columns]).equals(clean)


def rewrite(path, change_row=None, change_entry=None):
    """Edit the entry's row and/or envelope, then fix its digest up (a deliberate edit)."""
    entry = json.loads(path.read_text())
    if change_row is not None:
        entry["row"] = change_row(dict(entry["row"]))
    if change_entry is not None:
        change_entry(entry)
    entry["row_sha256"] = _row_digest(entry["row"])
    path.write_text(json.dumps(entry, allow_nan=True))


# ---------------------------------------------------------------------------------------------- bytes

def test_random_bytes_are_a_warned_miss(cached):
    cache_dir, clean, path = cached
    path.write_bytes(bytes(range(256)) * 16)  # probe: corrupt.sh garbage (UnicodeDecodeError escaped lookup)
    recomputed(cache_dir, clean, "not UTF-8")


def test_non_utf8_json_is_a_warned_miss(cached):
    cache_dir, clean, path = cached
    path.write_bytes(b"\xff\xfe" + path.read_bytes())  # probe: corrupt.sh non-UTF-8
    recomputed(cache_dir, clean, "not UTF-8")


def test_deeply_nested_json_is_a_warned_miss(cached):
    cache_dir, clean, path = cached
    path.write_text("[" * 200_000 + "]" * 200_000)  # probe: crash 3 (RecursionError escaped lookup)
    recomputed(cache_dir, clean, "unreadable|not valid JSON")


def test_a_row_holding_a_deep_value_is_a_warned_miss(cached):
    cache_dir, clean, path = cached
    entry = json.loads(path.read_text())
    deep = "[" * 100_000 + "]" * 100_000
    text = json.dumps(entry)
    head, tail = text.split('"row": {', 1)
    path.write_text(f'{head}"row": {{"deep": {deep}, {tail}')  # probe: crash 4
    recomputed(cache_dir, clean, "unreadable|not valid JSON|deep")
    # one level is enough to be refused: a row holds values, not structures
    rewrite(path, change_row=lambda row: {**row, "nested": [1, 2]})
    recomputed(cache_dir, clean, "nested holds a list")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_at_the_entry_path_does_not_block(cached):
    cache_dir, clean, path = cached
    path.unlink()
    os.mkfifo(path)  # probe: hang 1 (read_text blocked forever)
    outcome = {}

    def lookup():
        outcome["value"] = ResultCache(cache_dir).lookup(get_simulator("cmtlab"), scenarios()[1])

    worker = threading.Thread(target=lookup, daemon=True)
    worker.start()
    worker.join(timeout=20)
    if worker.is_alive():  # release the blocked reader so that the test process can end
        fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
        os.close(fd)
        worker.join(timeout=5)
        pytest.fail("lookup blocked on a FIFO at the cache entry's path")
    row, why = outcome["value"]
    assert row is None and "FIFO" in why
    # the sweep recomputes the run; the FIFO cannot be replaced by a file (rename over it works on POSIX)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CacheEntryWarning)
        again = run_sweep("cmtlab", scenarios(), workers=1, cache_dir=cache_dir, progress=False)
    assert again.drop(columns=[c for c in TIMING if c in again.columns]).equals(clean)


def test_a_huge_entry_is_a_miss_without_being_read(cached):
    cache_dir, clean, path = cached
    with open(path, "r+b") as fh:  # probe: a 200 MB entry cost 494 MB of memory to reject
        fh.truncate(200 * 2**20)
    recomputed(cache_dir, clean, "not read")


# --------------------------------------------------------------------------- edited, digest fixed up

def test_an_entry_cannot_define_its_own_row_schema(cached):
    """Probe: silent wrong 2 — row_kind "mapping" and a 4-field row with throughput_bps = 1.0 was served."""
    cache_dir, clean, path = cached
    rewrite(path, change_row=lambda row: {"completed": True, "completion_time_s": row["completion_time_s"],
                                          "throughput_bps": 1.0, "seed": row["seed"]},
            change_entry=lambda entry: entry.update(row_kind="mapping"))
    recomputed(cache_dir, clean, "are missing")


def test_completed_flipped_to_false_with_nan_times_is_not_served(cached):
    """Probe: silent wrong 3."""
    cache_dir, clean, path = cached
    rewrite(path, change_row=lambda row: {**row, "completed": False, "completion_time_s": math.nan,
                                          "throughput_bps": math.nan})
    recomputed(cache_dir, clean, "contradicts stop_reason")


def test_halved_throughput_and_doubled_time_are_not_served(cached):
    """Probe: silent wrong 1 (the two fields edited consistently, the digest recomputed)."""
    cache_dir, clean, path = cached
    rewrite(path, change_row=lambda row: {**row, "completion_time_s": 2 * row["completion_time_s"],
                                          "throughput_bps": row["throughput_bps"] / 2})
    recomputed(cache_dir, clean, "after the run's end")


@pytest.mark.parametrize("change, why", [
    (lambda row: {**row, "throughput_bps": row["throughput_bps"] / 2}, "but 30000 bytes in completion_time_s"),
    (lambda row: {**row, "link0_queue_drops": -1}, "link0_queue_drops = -1"),
    (lambda row: {**row, "completion_time_s": 1e9, "sim_time_s": 1e9,
                  "throughput_bps": 30_000 * 8 / 1e9}, "after the scenario's max_sim_time_s"),
])
def test_impossible_edits_with_the_digest_fixed_are_not_served(cached, change, why):
    cache_dir, clean, path = cached
    rewrite(path, change_row=change)
    recomputed(cache_dir, clean, why)
