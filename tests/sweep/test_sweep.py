"""cmtlab.sweep: same table for 1 worker, 2 workers and a Dask cluster; the result cache; errors.

The simulators here are stand-ins with a closed-form completion time (serialisation over the
summed bandwidth plus the largest round-trip delay), so every expected row is known exactly.
A simulator that must not run (cache hits) raises if called; calls made in worker processes
are counted through files, one per call.
"""

import dataclasses
import functools
import importlib
import json
import math
import os
import subprocess
import sys
import time
import re
import uuid
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import cmtlab
from cmtlab import sweep
from cmtlab.scenario import TransferResult, striped_scenario
from cmtlab.sweep import ResultCache, SimulationError, Simulator, StaleSimulatorError, code_version, run_sweep


# ------------------------------------------------------------------ stand-in simulators (module level: picklable)

def closed_form_time_s(sc) -> float:
    """Transfer time (s): bytes over the summed link rate, plus the largest RTT, plus 1 ms per seed unit."""
    return sc.transfer_bytes * 8.0 / sum(sc.bandwidths_bps) + max(sc.delays_s) + 1e-3 * sc.seed


def closed_form(sc) -> TransferResult:
    segments = math.ceil(sc.transfer_bytes / sc.segment_bytes)
    return TransferResult("closed-form", sc, True, closed_form_time_s(sc), data_segments_sent=segments,
                          wall_time_s=0.0, extra={"links_x_seed": np.int64(sc.n_links * (sc.seed + 1))})


class RecordingSimulator:
    """``closed_form`` that leaves one file per call in ``log_dir`` (works across processes)."""

    def __init__(self, log_dir):
        self.log_dir = str(log_dir)
        Path(log_dir).mkdir(parents=True, exist_ok=True)

    def __call__(self, sc):
        Path(self.log_dir, f"{os.getpid()}-{uuid.uuid4().hex}.json").write_text(
            json.dumps({"pid": os.getpid(), "key": sc.key()}))
        return closed_form(sc)

    def calls(self) -> list[dict]:
        return [json.loads(p.read_text()) for p in Path(self.log_dir).glob("*.json")]


def must_not_run(sc):
    raise AssertionError(f"simulator called although the result is cached: {sc!r}")


def fails_on_big_transfers(sc):
    if sc.transfer_bytes >= 40_000:
        raise ZeroDivisionError(f"boom at {sc.transfer_bytes} bytes")
    return closed_form(sc)


def slow_first(sc):
    # The first scenarios finish last, so completion order differs from input order.
    time.sleep(0.3 if sc.transfer_bytes < 12_000 else 0.0)
    return closed_form(sc)


def scaled(sc, factor=1.0):
    res = closed_form(sc)
    res.completion_time_s *= factor
    return res


def returns_wrong_type(sc):
    return [1.0]


def recording(log_dir, name="closed-form", version="v1"):
    return Simulator(name, RecordingSimulator(log_dir), version)


def cases(n=6):
    """(labels, scenario) pairs: 1-3 links, growing transfers."""
    out = []
    for i in range(n):
        k = 1 + i % 3
        sc = striped_scenario([1e6 * (j + 1) for j in range(k)], [0.01 * (j + 1) for j in range(k)],
                              transfer_bytes=10_000 * (i + 1), tunnel=k > 1, seed=7)
        out.append(({"case": i, "group": "odd" if i % 2 else "even"}, sc))
    return out


def expected_table(items, seeds):
    rows = []
    for labels, sc in items:
        for s in seeds:
            run = sc.replace(seed=s)
            rows.append({**labels, "seed": s, "completion_time_s": closed_form_time_s(run),
                         "throughput_bps": run.transfer_bytes * 8 / closed_form_time_s(run),
                         "scenario_key": run.key(), "links_x_seed": run.n_links * (s + 1)})
    return pd.DataFrame(rows)


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.delenv(sweep.DASK_SCHEDULER_ENV, raising=False)
    monkeypatch.delenv(sweep.CACHE_DIR_ENV, raising=False)
    return tmp_path / "cache"


def entries(directory):
    return sorted(p for p in Path(directory).rglob("*") if p.is_file())


# ------------------------------------------------------------------ determinism across execution paths

def test_one_worker_two_workers_and_dask_give_the_same_table(cache_dir, tmp_path):
    distributed = pytest.importorskip("distributed")
    items = cases(6)
    seeds = [0, 3, 1]
    sim = recording(tmp_path / "calls")
    t1 = run_sweep(sim, items, seeds=seeds, workers=1, cache=False, progress=False)
    assert len(sim.run.calls()) == 18 and {c["pid"] for c in sim.run.calls()} == {os.getpid()}

    for p in (tmp_path / "calls").iterdir():
        p.unlink()
    t2 = run_sweep(sim, items, seeds=seeds, workers=2, chunksize=2, cache=False, progress=False)
    calls = sim.run.calls()
    assert len(calls) == 18 and os.getpid() not in {c["pid"] for c in calls}  # really ran in worker processes

    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster:
        for p in (tmp_path / "calls").iterdir():
            p.unlink()
        t3 = run_sweep(sim, items, seeds=seeds, cache=False, progress=False, dask_scheduler=cluster.scheduler_address)
        assert t3.attrs["sweep"]["executor"] == f"dask {cluster.scheduler_address}"
        assert len(sim.run.calls()) == 18  # on the cluster's (in-process) worker threads
        # a failing scenario on the cluster is named too
        # (runs finish in any order: the first failure to come back is reported)
        with pytest.raises(SimulationError, match=r"scenarios\[([345])\] \(labels \{'case': \1.*ZeroDivisionError: boom at \d0000"):
            run_sweep(fails_on_big_transfers, items, cache=False, progress=False,
                      dask_scheduler=cluster.scheduler_address)

    pd.testing.assert_frame_equal(t1, t2)
    pd.testing.assert_frame_equal(t1, t3)
    want = expected_table(items, seeds)
    assert list(t1.columns[:2]) == ["case", "group"]  # labels first
    pd.testing.assert_frame_equal(t1[want.columns], want, check_dtype=False)
    assert t1["simulator"].eq("closed-form").all() and t1["completed"].all()


def test_worker_processes_are_kept_between_sweeps(cache_dir, tmp_path):
    # three sweeps, two workers: a pool re-created per sweep would show more than two process ids
    sim = recording(tmp_path / "calls")
    for i in range(3):
        table = run_sweep(sim, cases(4), seeds=[i], workers=2, chunksize=1, cache=False, progress=False)
    assert table.attrs["sweep"]["executor"] == "2 local worker processes (spawn)"
    pids = {c["pid"] for c in sim.run.calls()}
    assert len(sim.run.calls()) == 12 and 1 <= len(pids) <= 2 and os.getpid() not in pids


def test_rows_follow_input_order_not_completion_order(cache_dir):
    items = cases(6)
    table = run_sweep(slow_first, items, workers=2, chunksize=1, cache=False, progress=False)
    assert table["case"].tolist() == list(range(6))
    assert table["scenario_key"].tolist() == [sc.key() for _, sc in items]


def test_own_seed_when_seeds_is_none_and_seed_major_order(cache_dir):
    items = cases(2)
    own = run_sweep(closed_form, items, workers=1, cache=False, progress=False)
    assert own["seed"].tolist() == [7, 7]
    swept = run_sweep(closed_form, items, seeds=range(3), workers=1, cache=False, progress=False)
    assert swept["case"].tolist() == [0, 0, 0, 1, 1, 1] and swept["seed"].tolist() == [0, 1, 2] * 2


def test_duplicate_runs_simulated_once(cache_dir, tmp_path):
    (labels, sc), = cases(1)
    sim = recording(tmp_path / "calls")
    table = run_sweep(sim, [({"copy": 1}, sc), ({"copy": 2}, sc.replace(seed=0)), ({"copy": 3}, sc)],
                      seeds=[0], workers=1, cache=False, progress=False)
    assert len(sim.run.calls()) == 1
    assert table["copy"].tolist() == [1, 2, 3] and table["scenario_key"].nunique() == 1


def test_dataframe_of_labels_equals_pairs(cache_dir):
    items = cases(4)
    frame = pd.DataFrame([{**labels, "scenario": sc} for labels, sc in items])
    a = run_sweep(closed_form, frame, workers=1, cache=False, progress=False)
    b = run_sweep(closed_form, items, workers=1, cache=False, progress=False)
    pd.testing.assert_frame_equal(a, b)


def test_label_sharing_a_result_column_must_agree(cache_dir):
    items = [({"n_links": sc.n_links}, sc) for _, sc in cases(3)]
    table = run_sweep(closed_form, items, workers=1, cache=False, progress=False)
    assert table["n_links"].tolist() == [1, 2, 3]
    bad = [({"n_links": 4}, sc) for _, sc in cases(2)]
    with pytest.raises(ValueError, match=r"scenarios\[0\]: label 'n_links' = 4 disagrees"):
        run_sweep(closed_form, bad, workers=1, cache=False, progress=False)


# ------------------------------------------------------------------ the cache

def test_second_run_is_served_from_the_cache(cache_dir, tmp_path):
    items = cases(5)
    sim = recording(tmp_path / "calls")
    first = run_sweep(sim, items, seeds=[0, 1], workers=2, cache_dir=cache_dir, progress=False)
    assert len(sim.run.calls()) == 10
    assert first.attrs["sweep"]["simulated"] == 10 and first.attrs["sweep"]["cached"] == 0
    assert len(entries(cache_dir)) == 10

    # same name and code version, a body that raises if called: every row must come from disk
    cached_only = Simulator("closed-form", must_not_run, "v1")
    again = run_sweep(cached_only, items, seeds=[0, 1], workers=2, cache_dir=cache_dir, progress=False)
    pd.testing.assert_frame_equal(first, again)
    assert again.attrs["sweep"]["cached"] == 10 and again.attrs["sweep"]["simulated"] == 0
    again1 = run_sweep(cached_only, items, seeds=[0, 1], workers=1, cache_dir=cache_dir, progress=False)
    pd.testing.assert_frame_equal(first, again1)
    assert len(sim.run.calls()) == 10


def test_code_version_or_scenario_change_misses_the_cache(cache_dir, tmp_path):
    items = cases(4)
    sim = recording(tmp_path / "calls")
    run_sweep(sim, items, workers=1, cache_dir=cache_dir, progress=False)
    assert len(sim.run.calls()) == 4

    run_sweep(recording(tmp_path / "calls", version="v2"), items, workers=1, cache_dir=cache_dir, progress=False)
    assert len(sim.run.calls()) == 8  # new code version: everything again

    run_sweep(recording(tmp_path / "calls", name="other"), items, workers=1, cache_dir=cache_dir, progress=False)
    assert len(sim.run.calls()) == 12  # another simulator: everything again

    changed = list(items)
    changed[2] = (changed[2][0], changed[2][1].replace(queue_packets=50))  # one field of one scenario
    changed[3] = (changed[3][0], changed[3][1].replace(options={"sack": True}))  # one TCP option
    table = run_sweep(sim, changed, workers=1, cache_dir=cache_dir, progress=False)
    assert len(sim.run.calls()) == 14
    assert table.attrs["sweep"]["cached"] == 2
    assert {c["key"] for c in sim.run.calls()} >= {changed[2][1].key(), changed[3][1].key()}

    run_sweep(sim, items, seeds=[8], workers=1, cache_dir=cache_dir, progress=False)
    assert len(sim.run.calls()) == 18  # another seed is another run


def test_refresh_recomputes_and_false_neither_reads_nor_writes(cache_dir, tmp_path):
    items = cases(3)
    sim = recording(tmp_path / "calls")
    run_sweep(sim, items, workers=1, cache=False, cache_dir=cache_dir, progress=False)
    assert not cache_dir.exists()
    run_sweep(sim, items, workers=1, cache_dir=cache_dir, progress=False)
    assert len(sim.run.calls()) == 6 and len(entries(cache_dir)) == 3
    before = {p: p.stat().st_mtime_ns for p in entries(cache_dir)}
    time.sleep(0.01)
    run_sweep(sim, items, workers=1, cache="refresh", cache_dir=cache_dir, progress=False)
    assert len(sim.run.calls()) == 9
    assert all(p.stat().st_mtime_ns != before[p] for p in entries(cache_dir))  # overwritten, not added
    assert len(entries(cache_dir)) == 3


def test_cache_dir_from_environment(tmp_path, monkeypatch):
    monkeypatch.delenv(sweep.DASK_SCHEDULER_ENV, raising=False)
    monkeypatch.setenv(sweep.CACHE_DIR_ENV, str(tmp_path / "env-cache"))
    table = run_sweep(closed_form, cases(2), workers=1, progress=False)
    assert table.attrs["sweep"]["cache_dir"] == str(tmp_path / "env-cache")
    assert len(entries(tmp_path / "env-cache")) == 2
    monkeypatch.delenv(sweep.CACHE_DIR_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert sweep.resolve_cache_dir() == tmp_path / "xdg" / "cmtlab" / "sweeps"
    assert sweep.resolve_cache_dir(tmp_path / "arg") == tmp_path / "arg"


def test_cache_entry_is_plain_json_with_its_key(cache_dir):
    (_, sc), = cases(1)
    sim = Simulator("closed-form", closed_form, "v1")
    table = run_sweep(sim, [sc], workers=1, cache_dir=cache_dir, progress=False)
    path, = entries(cache_dir)
    entry = json.loads(path.read_text())
    assert path == ResultCache(cache_dir).path(sim, sc) and entry["key"] == path.stem
    assert entry["scenario_key"] == sc.key() and entry["code_version"] == "v1"
    assert entry["row"] == table.iloc[0].to_dict()


def test_failure_leaves_only_complete_entries_and_a_rerun_resumes(cache_dir, tmp_path):
    items = cases(6)  # cases 3, 4, 5 have >= 40000 bytes and fail
    sim = Simulator("flaky", fails_on_big_transfers, "v1")
    with pytest.raises(SimulationError):
        run_sweep(sim, items, workers=1, cache_dir=cache_dir, progress=False)
    files = entries(cache_dir)
    assert len(files) == 3 and all(p.suffix == ".json" and not p.name.startswith(".") for p in files)
    assert all(json.loads(p.read_text())["row"]["completed"] for p in files)
    # the finished runs are not simulated again
    table = run_sweep(Simulator("flaky", must_not_run, "v1"), items[:3], workers=1, cache_dir=cache_dir,
                      progress=False)
    assert table.attrs["sweep"]["cached"] == 3


def test_interrupted_write_leaves_no_entry_and_no_temporary_file(cache_dir, monkeypatch):
    (_, sc), = cases(1)
    sim = Simulator("closed-form", closed_form, "v1")

    def rename_fails(src, dst):
        raise KeyboardInterrupt  # e.g. the user interrupts between writing and renaming

    monkeypatch.setattr(os, "replace", rename_fails)
    with pytest.raises(KeyboardInterrupt):
        run_sweep(sim, [sc], workers=1, cache_dir=cache_dir, progress=False)
    assert entries(cache_dir) == []
    monkeypatch.undo()
    assert ResultCache(cache_dir).load(sim, sc) is None


def test_corrupt_or_foreign_entry_is_a_miss_and_is_rewritten(cache_dir, tmp_path):
    (_, sc), = cases(1)
    sim = recording(tmp_path / "calls")
    store = ResultCache(cache_dir)
    path = store.path(sim, sc)
    path.parent.mkdir(parents=True)
    path.write_text('{"format": 1, "key": "')  # truncated by something else than us
    with pytest.warns(sweep.CacheEntryWarning, match="not valid JSON"):
        run_sweep(sim, [sc], workers=1, cache_dir=cache_dir, progress=False)
    assert len(sim.run.calls()) == 1
    assert store.load(sim, sc)["scenario_key"] == sc.key()
    path.write_text(json.dumps({"format": 1, "key": "0" * 64, "row": {}}))  # an entry of another key
    assert store.load(sim, sc) is None


def test_progress_bar_counts_cached_runs(cache_dir, capsys, monkeypatch):
    monkeypatch.delenv("CMTLAB_PROGRESS", raising=False)
    items = cases(4)
    run_sweep(closed_form, items, workers=1, cache_dir=cache_dir, progress=True)
    first = capsys.readouterr().err
    assert "4/4" in first and "cached" not in first
    run_sweep(closed_form, items + cases(5)[4:], workers=1, cache_dir=cache_dir, progress=True)
    second = capsys.readouterr().err
    assert "5/5" in second and "cached=4" in second
    run_sweep(closed_form, items, workers=1, cache_dir=cache_dir, progress=False)
    assert capsys.readouterr().err == ""


# ------------------------------------------------------------------ errors

@pytest.mark.parametrize("kwargs, parameter", [
    (dict(workers=0), "workers"), (dict(workers=1.5), "workers"), (dict(workers=True), "workers"),
    (dict(seeds=[0, -1]), "seeds"), (dict(seeds=5), "seeds"), (dict(seeds=[1, 1]), "seeds"),
    (dict(seeds=[0.5]), "seeds"), (dict(seeds=[]), "seeds"),
    (dict(cache="yes"), "cache"), (dict(cache=1), "cache"), (dict(chunksize=0), "chunksize"),
    (dict(progress="no"), "progress"), (dict(dask_scheduler=3), "dask_scheduler"),
    (dict(dask_scheduler=" "), "dask_scheduler"), (dict(start_method="teleport"), "start_method"),
    (dict(cache_dir=""), "cache_dir"),
])
def test_invalid_arguments_name_the_parameter(kwargs, parameter, cache_dir):
    with pytest.raises(ValueError, match=parameter):
        run_sweep(must_not_run, cases(2), **{"progress": False, **kwargs})


@pytest.mark.parametrize("scenarios", [
    [1, 2], "abc", cases(1)[0][1], [({1: "x"}, cases(1)[0][1])], [({"a": 1}, "not a scenario")],
    pd.DataFrame({"x": [1]}),
])
def test_invalid_scenarios_are_rejected(scenarios, cache_dir):
    with pytest.raises(ValueError, match="scenario"):
        run_sweep(must_not_run, scenarios, workers=1, progress=False)


def test_unknown_or_unpicklable_simulator(cache_dir):
    with pytest.raises(ValueError, match=r"simulator must be one of \['cmtlab', 'ns-3', 'papers-sim'\]"):
        run_sweep("ns-2", cases(1), progress=False)
    with pytest.raises(ValueError, match="simulator"):
        run_sweep(42, cases(1), progress=False)
    local = lambda sc: closed_form(sc)  # noqa: E731
    with pytest.raises(ValueError, match="cannot be pickled"):
        run_sweep(Simulator("lambda", local, "v1"), cases(2), workers=2, cache=False, progress=False)
    # in-process a lambda is fine
    table = run_sweep(Simulator("lambda", local, "v1"), cases(2), workers=1, cache=False, progress=False)
    assert len(table) == 2


@pytest.mark.parametrize("workers", [1, 2])
def test_simulator_exception_names_the_scenario(workers, cache_dir):
    items = cases(6)
    with pytest.raises(SimulationError) as info:
        run_sweep(fails_on_big_transfers, items, seeds=[2], workers=workers, chunksize=1, cache=False,
                  progress=False)
    err = info.value
    msg = str(err)
    assert err.position in (3, 4, 5) and f"scenarios[{err.position}]" in msg  # whichever failed first
    assert f"'case': {err.position}" in msg and "seed 2" in msg
    assert err.scenario == items[err.position][1].replace(seed=2)
    assert err.scenario.key()[:12] in msg and f"boom at {err.scenario.transfer_bytes} bytes" in msg
    assert err.error_type == "ZeroDivisionError" and "fails_on_big_transfers" in err.worker_traceback


def test_wrong_return_type_is_an_error_naming_the_scenario(cache_dir):
    with pytest.raises(SimulationError, match=r"scenarios\[0\].*expected TransferResult"):
        run_sweep(returns_wrong_type, cases(2), workers=1, cache=False, progress=False)


# ------------------------------------------------------------------ simulators and code versions

def test_registered_names_resolve_lazily(tmp_path, monkeypatch, cache_dir):
    # importing the sweep module does not import either simulator
    code = "import sys, cmtlab.sweep; print(sorted(m for m in sys.modules if m.startswith(('cmtlab.sim', 'cmtlab.ns3', 'ns'))))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"

    pkg = tmp_path / "fake_sim_pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(
        "CODE_VERSION = 'fake-1'\n"
        "from cmtlab.scenario import TransferResult\n"
        "def run(sc):\n    return TransferResult('fake', sc, True, 2.0)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(sweep.SIMULATORS, "fake", "fake_sim_pkg:run")
    sim = sweep.get_simulator("FAKE")
    assert (sim.name, sim.run) == ("fake", "fake_sim_pkg:run")
    # its CODE_VERSION, then the hash of everything it imports (fake_sim_pkg, cmtlab.scenario, ...)
    assert sim.code_version == "fake-1+" + sweep.closure_version("fake_sim_pkg")
    import fake_sim_pkg

    assert sweep.as_simulator(fake_sim_pkg.run) == sim  # the registered function is the registered simulator
    table = run_sweep("fake", cases(2), workers=1, cache_dir=cache_dir, progress=False)
    assert table["completion_time_s"].tolist() == [2.0, 2.0] and table["simulator"].eq("fake").all()


def test_workers_holding_old_simulator_code_are_replaced(tmp_path, monkeypatch, cache_dir):
    pkg = tmp_path / "evolving_sim"
    pkg.mkdir()

    def edit(version):  # sizes differ, so no stale bytecode is ever used
        (pkg / "__init__.py").write_text(
            f"CODE_VERSION = 'evolving-{version}'  # {'x' * version}\n"
            "from cmtlab.scenario import TransferResult\n"
            f"def run(sc):\n    return TransferResult('evolving', sc, True, {version}.0)\n")

    edit(1)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(sweep.SIMULATORS, "evolving", "evolving_sim:run")
    sweep.shutdown_workers()  # workers started from here on see tmp_path on sys.path
    items = cases(4)
    first = run_sweep("evolving", items, workers=2, chunksize=1, cache_dir=cache_dir, progress=False)
    assert first["completion_time_s"].tolist() == [1.0] * 4

    # The session picks up an edit (autoreload); the kept workers still hold version 1 and are replaced.
    edit(2)
    importlib.reload(sys.modules["evolving_sim"])
    second = run_sweep("evolving", items, workers=2, chunksize=1, cache_dir=cache_dir, progress=False)
    assert second["completion_time_s"].tolist() == [2.0] * 4
    assert second.attrs["sweep"]["code_version"].startswith("evolving-2+") and second.attrs["sweep"]["simulated"] == 4
    assert len(entries(cache_dir)) == 8  # each version's results under its own key

    # The source changes but this session keeps version 2: fresh workers would run version 3.
    edit(3)
    sweep.shutdown_workers()
    with pytest.raises(StaleSimulatorError, match=r"expects evolving-2\+.*restart it"):
        run_sweep("evolving", items, seeds=[5], workers=2, cache_dir=cache_dir, progress=False)
    assert len(entries(cache_dir)) == 8  # nothing computed with the wrong code was cached
    sweep.shutdown_workers()


def test_plain_callable_gets_name_and_a_source_code_version(tmp_path):
    sim = sweep.as_simulator(closed_form)
    assert sim.name == f"{__name__}.closed_form"
    # the module's import closure: this file and the cmtlab modules it imports
    assert sim.code_version == sweep.closure_version(__name__)
    assert {"cmtlab.scenario", __name__} <= set(sweep.import_closure(__name__))
    obj = sweep.as_simulator(RecordingSimulator(tmp_path))
    assert obj.name == f"{__name__}.RecordingSimulator"
    assert sweep.as_simulator(RecordingSimulator(tmp_path / "a")).code_version != obj.code_version
    # a partial: its bound arguments are part of the version
    p1, p2 = (sweep.as_simulator(functools.partial(scaled, factor=f)) for f in (1.0, 2.0))
    assert p1.name == p2.name == f"{__name__}.scaled" and p1.code_version != p2.code_version
    assert p1.code_version == sweep.as_simulator(functools.partial(scaled, factor=1.0)).code_version
    # no source at all (exec'd code): the bytecode decides
    versions = []
    for body in ("return 1", "return 2", "return 1"):
        scope = {}
        exec(f"def run(sc):\n    {body}\n", scope)
        versions.append(sweep.as_simulator(scope["run"]).code_version)
    assert versions[0] == versions[2] != versions[1]
    for bad in (dict(name=""), dict(code_version=""), dict(run=3), dict(run="no colon")):
        with pytest.raises(ValueError, match="Simulator " + next(iter(bad))):
            Simulator(**{"name": "x", "run": closed_form, "code_version": "1", **bad})


def test_code_version_tracks_contents_not_location(tmp_path):
    a, b = tmp_path / "a" / "simpkg", tmp_path / "b" / "simpkg"
    for root in (a, b):
        (root / "sub").mkdir(parents=True)
        (root / "__init__.py").write_text("X = 1\n")
        (root / "sub" / "engine.py").write_text("def run():\n    pass\n")
    assert code_version(a) == code_version(b)
    (b / "__pycache__").mkdir()
    (b / "__pycache__" / "junk.py").write_text("ignored")
    (b / "notes.txt").write_text("not python")
    assert code_version(a) == code_version(b)
    (b / "sub" / "engine.py").write_text("def run():\n    return 1\n")
    assert code_version(a) != code_version(b)
    assert code_version(a, extra="ns3==3.44") != code_version(a)
    assert code_version(a, a / "sub" / "engine.py") != code_version(a)
    # a package, its dotted name and its folder are the same source
    import cmtlab.papers.song

    assert code_version(cmtlab.papers.song) == code_version("cmtlab.papers.song") == code_version(Path(cmtlab.papers.song.__file__).parent)
    with pytest.raises(ValueError, match="code_version"):
        code_version()
    with pytest.raises(ValueError, match="code_version source"):
        code_version("no_such_module_xyz")


# ------------------------------------------------------------------ entries that must not be served

def rewrite_entry(path, change_row=None, change_entry=None, rehash=True):
    """Edit a cache entry as a buggy tool or a careless copy would (by default re-signing its row)."""
    from cmtlab.sweep.cache import _row_digest

    entry = json.loads(path.read_text())
    if change_row is not None:
        entry["row"] = change_row(dict(entry["row"]))
    if change_entry is not None:
        change_entry(entry)
    if rehash and isinstance(entry.get("row"), dict):
        entry["row_sha256"] = _row_digest(entry["row"])
    path.write_text(json.dumps(entry, allow_nan=True))


def set_fields(**fields):
    return lambda row: {**row, **fields}


def drop_fields(*names):
    return lambda row: {k: v for k, v in row.items() if k not in names}


@pytest.mark.parametrize("change_row, reason", [
    (lambda row: {}, "empty"),
    (set_fields(completion_time_s=-1.0, throughput_bps=1e12), "completion_time_s = -1.0"),
    (set_fields(throughput_bps=1e12), "exceeds the scenario's capacity"),
    (set_fields(completion_time_s=float("nan")), "completion_time_s = nan"),
    (set_fields(completion_time_s=float("inf")), "completion_time_s = inf"),
    (set_fields(throughput_bps=float("nan")), "throughput_bps = nan"),
    (set_fields(completed="yes"), "completed = 'yes'"),
    (set_fields(timeouts=-2), "timeouts = -2"),
    (set_fields(retransmissions=1.5), "retransmissions = 1.5"),
    (set_fields(retransmissions=10**6), "exceeds data_segments_sent"),
    (set_fields(seed=99), "seed = 99"),
    (set_fields(scenario_key="0" * 64), "belongs to scenario 000000000000"),
    (drop_fields("throughput_bps", "timeouts"), "fields ['throughput_bps', 'timeouts'] are missing"),
])
def test_impossible_cached_rows_are_recomputed_with_a_warning(cache_dir, tmp_path, change_row, reason):
    (_, sc), = cases(1)
    sim = recording(tmp_path / "calls")
    good = run_sweep(sim, [sc], workers=1, cache_dir=cache_dir, progress=False)
    path, = entries(cache_dir)
    rewrite_entry(path, change_row)
    with pytest.warns(sweep.CacheEntryWarning, match=re.escape(reason)) as record:
        again = run_sweep(sim, [sc], workers=1, cache_dir=cache_dir, progress=False)
    assert str(path) in str(record[0].message) and "recomputed" in str(record[0].message)
    assert len(sim.run.calls()) == 2 and again.attrs["sweep"]["simulated"] == 1
    pd.testing.assert_frame_equal(good, again)
    # the entry was rewritten: the next sweep is served from the cache, without a warning
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        third = run_sweep(sim, [sc], workers=1, cache_dir=cache_dir, progress=False)
    assert third.attrs["sweep"]["cached"] == 1 and len(sim.run.calls()) == 2


def test_a_row_copied_from_another_scenario_is_not_served(cache_dir, tmp_path):
    (_, a), (_, b) = cases(2)
    sim = recording(tmp_path / "calls")
    run_sweep(sim, [a, b], workers=1, cache_dir=cache_dir, progress=False)
    store = ResultCache(cache_dir)
    path_a, path_b = store.path(sim, a), store.path(sim, b)
    # the whole file copied over another entry: its key is not the file's
    path_a.write_bytes(path_b.read_bytes())
    assert store.lookup(sim, a) == (None, f"its key is {path_b.stem!r}, expected {path_a.stem!r}")
    # the envelope kept, the row (re-signed) and the scenario key taken from the other scenario
    run_sweep(sim, [a], workers=1, cache="refresh", cache_dir=cache_dir, progress=False)
    row_b = json.loads(path_b.read_text())["row"]
    rewrite_entry(path_a, lambda row: row_b)
    row, why = store.lookup(sim, a)
    assert row is None and "the row belongs to scenario" in why
    rewrite_entry(path_a, change_entry=lambda e: e.update(scenario_key=b.key()))
    assert "its scenario_key is" in store.lookup(sim, a)[1]
    # a row edited without re-signing it
    run_sweep(sim, [a], workers=1, cache="refresh", cache_dir=cache_dir, progress=False)
    rewrite_entry(path_a, set_fields(completion_time_s=1.0), rehash=False)
    assert "altered" in store.lookup(sim, a)[1]
    with pytest.warns(sweep.CacheEntryWarning, match="altered"):
        table = run_sweep(sim, [a, b], workers=1, cache_dir=cache_dir, progress=False)
    assert table.attrs["sweep"]["cached"] == 1
    assert table["completion_time_s"].tolist() == [closed_form_time_s(a), closed_form_time_s(b)]


def test_a_failed_cache_write_warns_and_keeps_the_results(cache_dir, tmp_path, monkeypatch):
    items = cases(3)
    sim = recording(tmp_path / "calls")

    def disk_full(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", disk_full)
    with pytest.warns(sweep.CacheEntryWarning, match=r"3 result\(s\) .* could not be written .*No space left"):
        table = run_sweep(sim, items, workers=2, chunksize=1, cache_dir=cache_dir, progress=False)
    monkeypatch.undo()
    pd.testing.assert_frame_equal(table[["case", "completion_time_s"]],
                                  pd.DataFrame({"case": [0, 1, 2],
                                                "completion_time_s": [closed_form_time_s(sc) for _, sc in items]}))
    assert entries(cache_dir) == []  # nothing half-written
    # a cache folder that cannot be created (a file is in the way)
    blocked = tmp_path / "blocked"
    blocked.write_text("not a folder")
    with pytest.warns(sweep.CacheEntryWarning, match="could not be written"):
        again = run_sweep(sim, items, workers=1, cache_dir=blocked / "cache", progress=False)
    assert len(again) == 3 and again.attrs["sweep"]["simulated"] == 3


def impossible_result(sc):
    res = closed_form(sc)
    res.completion_time_s = -res.completion_time_s
    return res


def test_an_impossible_fresh_result_is_returned_but_not_cached(cache_dir):
    (_, sc), = cases(1)
    with pytest.warns(sweep.CacheEntryWarning, match="completion_time_s = -"):
        table = run_sweep(impossible_result, [sc], workers=1, cache_dir=cache_dir, progress=False)
    assert table["completion_time_s"].iloc[0] < 0 and entries(cache_dir) == []


def test_capacity_of_the_book_scenarios():
    from cmtlab.sim.mptcp.scenario import mptcp_scenario

    (_, one), (_, two) = cases(2)
    assert sweep.scenario_capacity_bps(two) == 3e6
    assert sweep.scenario_capacity_bps(mptcp_scenario([1e6, 2e6], [0.02, 0.04], transfer_bytes=10_000)) == 3e6
    wifi = mptcp_scenario([54e6, 54e6], [0.0, 0.0], transfer_bytes=10_000,
                          links=[("wifi80211g", {"distance_m": 10}), ("wifi80211g", {"distance_m": 20})])
    assert sweep.scenario_capacity_bps(wifi) is None  # the PHY rate is not the scenario's: no bound
    assert "are missing" in sweep.check_row({"completed": True, "completion_time_s": 1.0}, two)


# ------------------------------------------------------------------ workers die with their parent

SLOW_SIMULATOR = '''
import os, time
from pathlib import Path

def run(sc):
    Path(os.environ["PID_DIR"], str(os.getpid())).write_text("")
    time.sleep(120)  # a long run: the worker must not outlive its parent while in it
'''

SWEEP_SCRIPT = '''
import sys
from cmtlab.scenario import striped_scenario
from cmtlab.sweep import Simulator, run_sweep

if __name__ == "__main__":
    items = [striped_scenario([1e6], [0.01], transfer_bytes=1000 * (i + 1), tunnel=False) for i in range(4)]
    run_sweep(Simulator("slow", "slowsim:run", "v1"), items, workers=2, chunksize=1, cache=False, progress=False,
              start_method=sys.argv[1])
'''


def alive(pid: int) -> bool:
    """Running (a zombie waiting for a reaper counts as dead)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False
    return state not in ("Z", "X")


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc to see processes")
@pytest.mark.parametrize("start_method", ["spawn", "fork"])
def test_workers_die_when_the_sweep_process_is_killed(tmp_path, start_method):
    import signal

    (tmp_path / "slowsim.py").write_text(SLOW_SIMULATOR)
    (tmp_path / "sweep_script.py").write_text(SWEEP_SCRIPT)
    pids = tmp_path / "pids"
    pids.mkdir()
    env = {**os.environ, "PID_DIR": str(pids), "CMTLAB_PROGRESS": "0",
           "PYTHONPATH": os.pathsep.join([str(tmp_path), str(Path(cmtlab.__file__).parent.parent)])}
    env.pop(sweep.DASK_SCHEDULER_ENV, None)
    proc = subprocess.Popen([sys.executable, str(tmp_path / "sweep_script.py"), start_method], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    workers = []
    try:
        deadline = time.monotonic() + 120
        while len(workers) < 2 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.1)
            workers = [int(p.name) for p in pids.iterdir()]
        died = proc.stderr.read().decode()[-2000:] if proc.poll() is not None else ""
        assert len(workers) == 2, f"the workers did not start: {died}"
        assert all(alive(pid) for pid in workers)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        deadline = time.monotonic() + 15
        while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        survivors = [pid for pid in workers if alive(pid)]
        assert not survivors, f"worker processes {survivors} outlived their SIGKILLed parent"
    finally:
        for pid in workers:  # never leave them behind, even when the test fails
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        if proc.poll() is None:
            proc.kill()


WATCHDOG_SCRIPT = '''
import multiprocessing, os, sys, time
from pathlib import Path
from cmtlab.sweep import executors

def child(parent_pid, pid_file):
    sys.platform = "darwin"  # no prctl: the watchdog thread alone must notice the parent's death
    executors._die_with_parent(parent_pid)
    Path(pid_file + ".tmp").write_text(str(os.getpid()))
    os.replace(pid_file + ".tmp", pid_file)
    time.sleep(120)

if __name__ == "__main__":
    multiprocessing.get_context("spawn").Process(target=child, args=(os.getpid(), sys.argv[1])).start()
    time.sleep(120)
'''


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc to see processes")
def test_the_watchdog_alone_ends_an_orphaned_worker(tmp_path):
    import signal

    (tmp_path / "watchdog_script.py").write_text(WATCHDOG_SCRIPT)
    pid_file = tmp_path / "child.pid"
    env = {**os.environ, "PYTHONPATH": str(Path(cmtlab.__file__).parent.parent)}
    proc = subprocess.Popen([sys.executable, str(tmp_path / "watchdog_script.py"), str(pid_file)], env=env)
    child = None
    try:
        deadline = time.monotonic() + 60
        while not pid_file.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        child = int(pid_file.read_text())
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        deadline = time.monotonic() + 10
        while alive(child) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not alive(child)
    finally:
        if child is not None and alive(child):
            os.kill(child, signal.SIGKILL)
        if proc.poll() is None:
            proc.kill()


# ------------------------------------------------------------------ any scenario with key/replace/seed

@dataclasses.dataclass(frozen=True)
class DiceScenario:
    """A scenario that is not a StripedScenario: only key(), replace() and seed."""

    sides: int
    seed: int = 0

    def key(self) -> str:
        return f"dice-{self.sides}-{self.seed}"

    def replace(self, **changes):
        return dataclasses.replace(self, **changes)


def roll(sc: DiceScenario) -> dict:
    return {"completed": True, "completion_time_s": 1.0 + (sc.seed * 7919 % sc.sides), "sides": sc.sides}


def test_any_scenario_with_key_replace_and_seed_and_dict_rows(cache_dir):
    items = [({"die": "d6"}, DiceScenario(6)), ({"die": "d20"}, DiceScenario(20))]
    want = pd.DataFrame([{"die": d, "completed": True, "completion_time_s": 1.0 + (s * 7919 % n), "sides": n}
                         for d, n in (("d6", 6), ("d20", 20)) for s in (0, 1, 2)])
    t1 = run_sweep(Simulator("dice", roll, "v1"), items, seeds=[0, 1, 2], workers=1, cache_dir=cache_dir,
                   progress=False)
    pd.testing.assert_frame_equal(t1, want)
    t2 = run_sweep(Simulator("dice", roll, "v1"), items, seeds=[0, 1, 2], workers=2, cache=False, progress=False)
    pd.testing.assert_frame_equal(t2, want)
    t3 = run_sweep(Simulator("dice", must_not_run, "v1"), items, seeds=[0, 1, 2], workers=1, cache_dir=cache_dir,
                   progress=False)
    pd.testing.assert_frame_equal(t3, want)
    assert t3.attrs["sweep"]["cached"] == 6
    # a dict row is checked too: an impossible value is recomputed
    path = ResultCache(cache_dir).path(Simulator("dice", roll, "v1"), DiceScenario(6, seed=1))
    rewrite_entry(path, set_fields(completion_time_s=-3.0))
    with pytest.warns(sweep.CacheEntryWarning, match="completion_time_s = -3.0"):
        t4 = run_sweep(Simulator("dice", roll, "v1"), items, seeds=[0, 1, 2], workers=1, cache_dir=cache_dir,
                       progress=False)
    pd.testing.assert_frame_equal(t4, want)
    with pytest.raises(ValueError, match=r"scenarios\[0\]: key\(\) must return a non-empty string"):
        bad_key = type("BadKey", (DiceScenario,), {"key": lambda self: 3})(6)
        run_sweep(roll, [bad_key], workers=1, cache=False, progress=False)


def test_register_a_named_simulator(cache_dir, monkeypatch):
    monkeypatch.setattr(sweep.simulators, "SIMULATORS", dict(sweep.SIMULATORS))
    monkeypatch.setattr(sweep.simulators, "_ALIASES", dict(sweep.simulators._ALIASES))
    monkeypatch.setattr(sweep.simulators, "_FIXED", {})
    # a callable with an explicit code version, and an alias
    sweep.register_simulator("Closed-Form", closed_form, code_version="cf-1", aliases=("cf",))
    sim = sweep.get_simulator("cf")
    assert (sim.name, sim.run, sim.code_version) == ("closed-form", closed_form, "cf-1")
    table = run_sweep("closed-form", cases(2), workers=1, cache_dir=cache_dir, progress=False)
    assert table.attrs["sweep"]["code_version"] == "cf-1" and table["simulator"].eq("closed-form").all()
    sweep.register_simulator("closed-form", closed_form, code_version="cf-1")  # again, same target: fine
    with pytest.raises(ValueError, match="already registered"):
        sweep.register_simulator("closed-form", "cmtlab.sim:run")
    with pytest.raises(ValueError, match="alias 'cmtlab' already names another simulator"):
        sweep.register_simulator("other", "cmtlab.sim:run", aliases=("cmtlab",))
    with pytest.raises(ValueError, match="run must be"):
        sweep.register_simulator("broken", "no colon")
    # a 'module:function' string: imported lazily, version from the module's import closure
    sweep.register_simulator("striped-again", "cmtlab.sim:run")
    again = sweep.get_simulator("striped-again")
    assert again.code_version == sweep.get_simulator("cmtlab").code_version and again.verify_loaded_code


def test_a_lazily_imported_module_edited_mid_session_is_not_cached_under_the_old_version(tmp_path, monkeypatch,
                                                                                        cache_dir):
    pkg = tmp_path / "lazy_sim"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(
        "from cmtlab.scenario import TransferResult\n"
        "def run(sc):\n"
        "    from .planner import SECONDS  # imported on the first run only\n"
        "    return TransferResult('lazy', sc, True, SECONDS)\n")
    (pkg / "planner.py").write_text("SECONDS = 1.0\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(sweep.SIMULATORS, "lazy", "lazy_sim:run")
    version = sweep.get_simulator("lazy").code_version  # the session sees the simulator: planner not loaded yet
    (pkg / "planner.py").write_text("SECONDS = 2.0  # edited\n")
    with pytest.raises(StaleSimulatorError, match="changed while it ran"):
        run_sweep("lazy", cases(2), workers=1, cache_dir=cache_dir, progress=False)
    assert entries(cache_dir) == []  # a 2.0 s result never enters the cache as version `version`
    assert sweep.get_simulator("lazy").code_version == version  # the session keeps what it first saw


def test_data_files_a_simulator_names_are_part_of_its_version(tmp_path, monkeypatch):
    pkg = tmp_path / "table_sim"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(
        "from pathlib import Path\n"
        "CODE_DATA_FILES = ('per_table.csv',)\n"
        "def run(sc):\n    raise AssertionError('not run here')\n")
    (pkg / "per_table.csv").write_text("snr,per\n1,0.5\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import table_sim

    before = sweep.module_version(table_sim)
    (pkg / "per_table.csv").write_text("snr,per\n1,0.25\n")
    importlib.reload(table_sim)  # a new session would see the new table
    assert sweep.module_version(table_sim) != before
