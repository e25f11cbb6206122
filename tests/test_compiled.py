"""Compiled copies of the simulator's modules (cmtlab.compiled): identical results, never stale.

* The pure-Python sources and the compiled copies give the same results: every golden case
  (striped, multipath, Wi-Fi; traced and untraced) is fingerprinted in a fresh interpreter
  with ``CMTLAB_PURE_PYTHON=1`` and compared with the same fingerprints here.
* A copy is loaded only while it matches its sources: an edited module runs as Python.
* ``make test`` runs with the copies built (``CMTLAB_EXPECT_COMPILED=1``): they are loaded.
* A reader's own mechanism, a Python subclass of a compiled one, is called by the compiled
  simulator and gives the same results as with the pure-Python sources.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import cmtlab
from cmtlab import compiled

TESTS = Path(__file__).resolve().parent
LIB = Path(cmtlab.__file__).resolve().parent.parent

FINGERPRINTS = """
    import json, sys
    sys.path[:0] = [{tests!r}, {tests!r} + "/sim", {tests!r} + "/sim/net"]   # helpers, and the golden test files
    import test_striped_golden as s, test_multipath_golden as m, test_wifi_golden as w
    from cmtlab import compiled
    out = {{"status": compiled.status()}}
    out.update({{f"striped/{{n}}": s.fingerprint_case(n) for n in s.CASES}})
    out.update({{f"multipath/{{n}}": m.fingerprint_case(n) for n in m.CASES}})
    out.update({{f"wifi/{{n}}": w.fingerprints(n) for n in w.CASES}})
    print(json.dumps(out, sort_keys=True))
"""


def _run(code: str, env_extra: dict, pythonpath=LIB) -> str:
    env = {**os.environ, "PYTHONPATH": str(pythonpath), "CMTLAB_PROGRESS": "0", **env_extra}
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout.strip().splitlines()[-1]


def _built() -> bool:
    return compiled.built() and not compiled.pure_python()


def test_the_simulator_has_compiled_modules():
    mods = compiled.compilable_modules()
    assert "cmtlab.sim.net.link" in mods and "cmtlab.sim.tcp.receiver" in mods
    for name, py in mods.items():
        assert py.suffix == ".py" and py.with_suffix(".pxd").is_file(), name


def test_built_copies_are_loaded_when_expected():
    """Under ``make test`` (copies built first) the simulator really runs compiled."""
    if os.environ.get("CMTLAB_EXPECT_COMPILED") != "1" or compiled.c_compiler() is None:
        pytest.skip("the compiled copies are expected only under make test on a machine with a C compiler")
    import cmtlab.sim  # noqa: F401  (loads the simulator's modules)

    st = compiled.status()
    assert st and all(v == "compiled" for v in st.values()), st
    for name in st:
        assert sys.modules[name].__spec__.origin.endswith(".so"), name


def test_pure_python_and_compiled_give_identical_results():
    if not _built():
        pytest.skip("compiled copies not built (make compiled)")
    pure = json.loads(_run(FINGERPRINTS.format(tests=str(TESTS)), {"CMTLAB_PURE_PYTHON": "1"}))
    here = json.loads(_run(FINGERPRINTS.format(tests=str(TESTS)), {"CMTLAB_PURE_PYTHON": "0"}))
    assert all(v.startswith("python") for v in pure.pop("status").values())
    assert all(v == "compiled" for v in here.pop("status").values())
    assert len(here) >= 20
    diff = sorted(k for k in here if here[k] != pure.get(k))
    assert not diff, f"compiled and pure-Python results differ: {diff}"


def test_an_edited_source_runs_as_python(tmp_path):
    """A built copy is ignored as soon as its .py (or .pxd) source changes: never stale compiled code."""
    if not _built():
        pytest.skip("compiled copies not built (make compiled)")
    lib = tmp_path / "lib"
    shutil.copytree(LIB / "cmtlab", lib / "cmtlab", ignore=shutil.ignore_patterns("__pycache__", "bin"))
    built = tmp_path / "compiled"
    shutil.copytree(compiled.compiled_dir(), built)
    probe = """
        import json
        import cmtlab.sim
        from cmtlab.sim.net import link
        from cmtlab import compiled
        print(json.dumps([sorted(set(compiled.status().values())), link.PointToPointLink(1e6, 0.01).transmit(0, 125)]))
    """
    env = {"CMTLAB_COMPILED_DIR": str(built), "CMTLAB_PURE_PYTHON": "0"}
    assert json.loads(_run(probe, env, lib)) == [["compiled"], 1_000_000 + 10_000_000]
    src = lib / "cmtlab" / "sim" / "net" / "link.py"
    src.write_text(src.read_text().replace("return finish + self.delay_ns", "return finish + self.delay_ns + 1"))
    # every module runs as Python (the compiled Wi-Fi link cannot extend a pure-Python LinkModel)
    assert json.loads(_run(probe, env, lib)) == [["python: not built for the current sources (make compiled)"],
                                                 1_000_000 + 10_000_000 + 1]
    pure = json.loads(_run(probe, {**env, "CMTLAB_PURE_PYTHON": "1"}, lib))
    assert pure[0] == ["python: CMTLAB_PURE_PYTHON is set"]


def test_built_copy_names_carry_the_hash_of_all_compiled_sources(tmp_path):
    key = compiled.source_key()
    for name in compiled.compilable_modules():
        path = compiled.built_path(name)
        assert path.name == f"{name}.{key}.so" and path.parent == compiled.compiled_dir()
    # one byte of any compiled module's .py or .pxd changes the key of all
    mods = {name: tmp_path / Path(*name.split(".")).with_suffix(".py") for name in compiled.compilable_modules()}
    for name, py in mods.items():
        py.parent.mkdir(parents=True, exist_ok=True)
        src = compiled.compilable_modules()[name]
        py.write_bytes(src.read_bytes())
        py.with_suffix(".pxd").write_bytes(src.with_suffix(".pxd").read_bytes())
    assert compiled.source_key(mods) == key
    first = next(iter(mods.values())).with_suffix(".pxd")
    first.write_bytes(first.read_bytes() + b"\n")
    assert compiled.source_key(mods) != key


def test_the_api_reference_documents_the_sources():
    """The book's Sphinx extension loads the sources (signatures with defaults); too late is an error."""
    if not _built():
        pytest.skip("compiled copies not built (make compiled)")
    before = """
        import json
        from cmtlab import compiled
        compiled.python_sources_only()
        import cmtlab.sim
        print(json.dumps(sorted(set(compiled.status().values()))))
    """
    assert json.loads(_run(before, {"CMTLAB_PURE_PYTHON": "0"})) == [
        "python: this process loads the sources (python_sources_only)"]
    after = """
        import cmtlab.sim
        from cmtlab import compiled
        try:
            compiled.python_sources_only()
        except RuntimeError as e:
            print("refused:", "after compiled modules were imported" in str(e))
    """
    assert _run(after, {"CMTLAB_PURE_PYTHON": "0"}) == "refused: True"
    ext = (TESTS.parent / "book" / "_ext" / "cmtlab_book.py").read_text()
    assert "compiled.python_sources_only()" in ext


READERS_MECHANISMS = """
    import json
    from cmtlab import compiled, sim
    from cmtlab.scenario import LossModel
    from cmtlab.sim import registry
    from cmtlab.sim.mechanisms.congestion import Lia, NewReno
    from cmtlab.sim.mechanisms.recovery import ClassicRecovery
    from cmtlab.sim.mechanisms.schedulers import ConnectionScheduler, RoundRobinConnectionScheduler

    calls = {{}}

    def count(name):
        calls[name] = calls.get(name, 0) + 1

    class CappedNewReno(NewReno):  # NewReno with a window cap of 12 segments
        def increase_window(self, sub, segments_acked):
            count("capped.increase_window")
            super().increase_window(sub, segments_acked)
            sub.cwnd = min(sub.cwnd, 12 * sub.seg)

    class HalfLia(Lia):  # LIA's linked increase halved: called by the compiled frame (a cpdef override)
        def ca_increase(self, sub, bytes_acked):
            count("half.ca_increase")
            return Lia.ca_increase(self, sub, bytes_acked) / 2

    class FirstWithRoom(ConnectionScheduler):  # the first subflow with room, always
        def select(self, conn, now_ns):
            count("first.select")
            for i, s in enumerate(conn.subflows):
                if s.available_window() >= s.seg:
                    return i
            return None

    class SkipLast(RoundRobinConnectionScheduler):  # round robin that never picks the last subflow
        def select(self, conn, now_ns):
            count("skip.select")
            i = super().select(conn, now_ns)
            return None if i == len(conn.subflows) - 1 else i

        def on_sent(self, conn, subflow, dsn, now_ns):
            count("skip.on_sent")
            self._next = (subflow + 1) % (len(conn.subflows) - 1)
            self.note = dsn  # an attribute of its own

    class QuietRecovery(ClassicRecovery):
        def on_ack(self, sub, delivered_bytes, is_dupack):
            count("quiet.on_ack")
            super().on_ack(sub, delivered_bytes, is_dupack)

    for kind, name, cls in [("congestion", "test-capped", CappedNewReno), ("congestion", "test-half-lia", HalfLia),
                            ("scheduler", "test-first", FirstWithRoom), ("scheduler", "test-skip", SkipLast)]:
        registry.register(kind, name)(cls)
    out = {{"status": sorted(set(compiled.status().values()))}}
    for cc, sched in [("test-capped", "test-first"), ("test-half-lia", "test-skip"), ("lia", "round_robin"),
                      ("newreno", "round_robin")]:
        sc = sim.mptcp_scenario([4e6, 2e6, 6e6], [0.08, 0.02, 0.05], transfer_bytes=600_000, congestion=cc,
                                scheduler=sched, loss=LossModel("packet", 0.005), seed=3)
        run = sim.multipath.MptcpSimulation(sc)
        for sub in run.conn.subflows:  # TcpOptions names only the built-in recoveries
            sub.recovery = QuietRecovery()
        r = run.run()
        out[cc + "/" + sched] = [r.completion_time_s, r.data_segments_sent, r.retransmissions,
                                 sorted((k, v) for k, v in r.extra.items() if k not in ("wall_time_s",
                                        "segments_per_second", "code_version"))]
    out["calls"] = calls
    print(json.dumps(out, sort_keys=True))
"""


def test_python_subclasses_of_compiled_mechanisms_run_alike():
    """A reader's mechanism, a Python subclass of a compiled class (NewReno, LIA's ca_increase called
    from the compiled frame, the scheduler interface and round robin, classic recovery), is what the
    compiled simulator calls, and it gives the pure-Python sources' results bit for bit."""
    if not _built():
        pytest.skip("compiled copies not built (make compiled)")
    here = json.loads(_run(READERS_MECHANISMS.format(), {"CMTLAB_PURE_PYTHON": "0"}))
    pure = json.loads(_run(READERS_MECHANISMS.format(), {"CMTLAB_PURE_PYTHON": "1"}))
    assert here.pop("status") == ["compiled"]
    assert pure.pop("status") == ["python: CMTLAB_PURE_PYTHON is set"]
    assert here == pure
    calls = here["calls"]
    for name in ("capped.increase_window", "half.ca_increase", "first.select", "skip.select", "skip.on_sent",
                 "quiet.on_ack"):
        assert calls.get(name, 0) > 0, name
    # the overrides change the results: they were really used
    assert here["test-half-lia/test-skip"] != here["lia/round_robin"]
    assert here["test-capped/test-first"] != here["newreno/round_robin"]
