"""Benchmark: the unchanged pure-Python simulator under PyPy against CPython, measured in the same run.

The JIT route: ``cmtlab.sim`` as it is (mechanisms stay plain Python classes) run by
PyPy's tracing JIT instead of CPython.  Measured, not integrated (PyPy was slower than CPython 3.11
on the Alheid point; see the simulator page, "Why the core is still pure Python").  This script
re-measures it; it is not part of ``make bench``.

1. **Speed**: Arabi et al.'s scenario 2 as an MPTCP transfer of 20 MB (three subflows, LIA, round
   robin, 37 334 data segments) and one 50-s Alheid run (Fig. 5, PR-R, PDR 0.5 %, 10 m, 128 209
   data segments).  Each round starts a fresh process per interpreter and workload (PyPy first,
   then CPython, alternating, so that load from other processes hits both alike) and runs the
   workload ``--repeat`` times: CPU seconds (``time.process_time``) of the run alone.  The first
   run of a fresh PyPy process includes the JIT's warm-up (printed as "cold"); the best run of
   all rounds counts.
2. **A 30-seed Alheid point** as a sweep's worker runs it: seeds 0..29 one after the other in one
   process, per interpreter: CPU and wall time.
3. **Bit-identity**: every golden run of ``tests/sim/test_striped_golden.py``,
   ``tests/sim/test_multipath_golden.py`` and ``tests/sim/net/test_wifi_golden.py`` (traced and untraced,
   48 runs) under both interpreters, digested by the same harness: the result's counters and
   extra dict, the per-subflow rows and every trace *as the engine recorded it* (the trace
   recorders' integer rows, the reordering histogram) — pandas' conversion of those rows into
   the tests' DataFrames is left out, because pandas has no wheel for PyPy; under CPython that
   conversion is the same code for both.  Also the 30-seed point's counters.

Setup (Debian's PyPy 7.3.11, Python 3.9; numpy's last wheel for it is 1.26.4)::

    apt-get install -y pypy3
    pypy3 -m venv _build/pypy-venv && _build/pypy-venv/bin/pip install numpy==1.26.4

pandas has no PyPy wheel: the PyPy processes import a stand-in ``pandas`` module written to a
temporary directory (a ``DataFrame`` that keeps its rows and computes nothing).  The simulator
needs pandas only to hand its results over (the per-subflow table of an MPTCP result, traces);
the timed runs are untraced.  The ``osia`` scheduler plug-in is loaded without
``cmtlab/papers/osia/__init__.py``, which imports the chapter's figures (matplotlib).

Usage: ``python benchmarks/bench_pypy.py [--pypy PATH] [--rounds 3] [--repeat 3] [--alheid-seeds 30]``.
Without a PyPy that imports numpy it prints "not measured" and why.  Exit status 0; a missed goal
(PyPy >= 5x CPython on both workloads, results bit-identical) is printed, not fatal.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import pickle
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GOAL = 5.0
VOLATILE = {"segments_per_second", "code_version"}

PANDAS_STANDIN = '''"""Stand-in for pandas under PyPy (no wheel): keeps the rows, computes nothing."""
__version__ = "stand-in"


class DataFrame:
    def __init__(self, data=None, columns=None, **kw):
        self.data, self.columns = data, columns


class Categorical:
    def __init__(self, values, categories=None, **kw):
        self.values, self.categories = values, categories
'''


# ---------------------------------------------------------------- child side (runs under PyPy or CPython)
def _load_osia_plugin():
    """Register the ``osia`` scheduler without running ``cmtlab/papers/osia/__init__.py`` (matplotlib)."""
    import importlib
    import types

    import cmtlab
    import cmtlab.sim  # noqa: F401  (first: its code version reads cmtlab.papers.osia's real package spec)

    for name, folder in (("cmtlab.papers", ("papers",)), ("cmtlab.papers.osia", ("papers", "osia"))):
        pkg = types.ModuleType(name)
        pkg.__path__ = [os.path.join(os.path.dirname(cmtlab.__file__), *folder)]
        sys.modules[name] = pkg
    importlib.import_module("cmtlab.papers.osia.scheduler")


def _counters(r) -> tuple:
    return (r.completed, r.completion_time_s, r.data_segments_sent, r.retransmissions, r.fast_retransmits,
            r.timeouts, r.spurious_retransmissions, sorted((k, v) for k, v in r.extra.items() if k not in VOLATILE))


def child_timing(path: str, repeat: int, seeds: int) -> dict:
    import platform

    from cmtlab import sim

    sc = pickle.loads(Path(path).read_bytes())
    out = {"interpreter": f"{platform.python_implementation()} {platform.python_version()}", "cpu_s": []}
    r = None
    for _ in range(repeat):
        t = time.process_time()
        r = sim.run(sc)
        out["cpu_s"].append(time.process_time() - t)
    if r is not None:
        out["segments"] = r.data_segments_sent
        out["digest"] = hashlib.sha256(repr(_counters(r)).encode()).hexdigest()[:16]
    if seeds:
        h = hashlib.sha256()
        segs = 0
        t0, w0 = time.process_time(), time.perf_counter()
        for seed in range(seeds):
            r = sim.run(sc.replace(seed=seed))
            segs += r.data_segments_sent
            h.update(repr(_counters(r)).encode())
        out["seeds"] = {"n": seeds, "cpu_s": time.process_time() - t0, "wall_s": time.perf_counter() - w0,
                        "segments": segs, "digest": h.hexdigest()[:16]}
    return out


def child_bitid(path: str) -> dict:
    """``{label: digest}`` of the golden runs, raw engine output (see the module docstring, part 3)."""
    _load_osia_plugin()
    from cmtlab import sim
    from cmtlab.sim import multipath
    from cmtlab.sim.tcp import traces as traces_mod

    def raw_frames(self, *, end_ns, t0_ns=0, reorder=None):
        return {"rows": self._rows, "good": self._good, "t0": t0_ns, "end": end_ns,
                "reorder": None if reorder is None else (sorted(reorder.freq.items()), reorder.beyond)}

    def raw_mp_frames(self, t0, end):
        return {"sink": {k: list(v) for k, v in self.tr.items()}, "buffer": self.conn.buffer_trace,
                "t0": t0, "end": end}

    class Rows:  # the per-subflow table: the rows as the engine built them
        def __init__(self, rows=None, *a, **kw):
            self.rows = rows

    traces_mod.TraceRecorder.frames = raw_frames
    multipath.MptcpSimulation._frames = raw_mp_frames
    multipath.pd = type("pd", (), {"DataFrame": Rows})
    run = {"striped": sim.simulate_striped, "mptcp": sim.simulate_mptcp, "run": sim.run}
    out = {}
    for label, kind, args, kw in pickle.loads(Path(path).read_bytes()):
        r = run[kind](*args, **kw)
        blob = repr((_counters(r), r.traces, getattr(getattr(r, "subflows", None), "rows", None),
                     getattr(r, "delivered_bytes", None)))
        out[label] = hashlib.sha256(blob.encode()).hexdigest()[:16]
    return out


# ---------------------------------------------------------------- parent side (CPython, the book's venv)
def find_pypy(given: str | None) -> tuple[str | None, str]:
    """(PyPy executable that imports numpy, or None; a one-line reason when None)."""
    import shutil

    cands = [given] if given else [str(ROOT / "_build/pypy-venv/bin/python"), shutil.which("pypy3")]
    tried = []
    for exe in filter(None, cands):
        if not os.path.exists(exe):
            tried.append(f"{exe}: not found")
            continue
        p = subprocess.run([exe, "-c", "import platform, numpy; print(platform.python_implementation())"],
                           capture_output=True, text=True)
        if p.returncode == 0 and p.stdout.strip() == "PyPy":
            return exe, ""
        tried.append(f"{exe}: " + ("not PyPy" if p.returncode == 0 else "no numpy"))
    return None, ("; ".join(tried) or "no pypy3 on PATH") + \
        " (apt-get install -y pypy3; pypy3 -m venv _build/pypy-venv; _build/pypy-venv/bin/pip install numpy==1.26.4)"


def child(exe: str, tmp: Path, args: list, standin: bool) -> dict:
    env = dict(os.environ, CMTLAB_PROGRESS="0")
    path = [str(ROOT / "lib")] + ([str(tmp / "standin")] if standin else [])
    env["PYTHONPATH"] = os.pathsep.join(path)
    p = subprocess.run([exe, __file__, "--child", *map(str, args)], env=env, capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError(f"{exe} {args}: exit {p.returncode}\n{p.stderr[-3000:]}")
    return json.loads(p.stdout.strip().splitlines()[-1])


def golden_cases() -> list:
    """(label, kind, args, kwargs) of the 48 golden runs, from the golden test modules' own tables."""
    sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "sim"), str(ROOT / "tests" / "sim" / "net")]
    import test_multipath_golden as g2
    import test_striped_golden as g1
    import test_wifi_golden as g3
    from cmtlab.papers.alheid import experiments as alheid

    cases = []
    for name, kw in g1.CASES.items():
        kw = dict(kw)
        b, d = kw.pop("bandwidths_bps"), kw.pop("delays_s")
        cases += [(f"striped/{name}/{m}", "striped", (b, d), dict(kw, trace=m == "traced")) for m in ("traced", "fast")]
    for name in g2.CASES:
        cases += [(f"mptcp/{name}/{m}", "mptcp", (g2.ARABI_B, g2.ARABI_D), dict(g2._kwargs(name), trace=m == "traced"))
                  for m in ("traced", "fast")]
    for name, kw in g3.CASES.items():
        sc = alheid.scenario(duration_s=3.0, **kw)
        cases += [(f"wifi/{name}/{m}", "run", (sc,), dict(trace=m == "traced")) for m in ("traced", "fast")]
    return cases


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pypy", help="PyPy interpreter with numpy (default _build/pypy-venv/bin/python, else pypy3)")
    ap.add_argument("--rounds", type=int, default=3, help="fresh processes per interpreter and workload (default 3)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per process (default 3)")
    ap.add_argument("--alheid-seeds", type=int, default=30, help="seeds of the Alheid point (default 30; 0 skips)")
    args = ap.parse_args()
    if args.rounds < 1 or args.repeat < 1 or args.alheid_seeds < 0:
        ap.error("--rounds and --repeat must be >= 1, --alheid-seeds >= 0")
    pypy, why = find_pypy(args.pypy)
    if pypy is None:
        print(f"PyPy vs CPython: not measured: {why}")
        return 0
    from cmtlab import sim
    from cmtlab.papers.alheid import experiments as alheid

    workloads = {
        "Arabi scenario 2, MPTCP, 20 MB": sim.mptcp_scenario([5e6, 2e6, 7e6], [0.1, 0.01, 0.05],
                                                             transfer_bytes=20_000_000, congestion="lia",
                                                             scheduler="round_robin"),
        "Alheid Fig. 5, PR-R, PDR 0.5 %, 10 m, 50 s": alheid.scenario("PR-R", pdr2=0.005),
    }
    interpreters = {"PyPy": (pypy, True), "CPython": (sys.executable, False)}
    with tempfile.TemporaryDirectory(prefix="cmtlab-pypy-") as d:
        tmp = Path(d)
        (tmp / "standin" / "pandas").mkdir(parents=True)
        (tmp / "standin" / "pandas" / "__init__.py").write_text(PANDAS_STANDIN)
        files = {}
        for i, (name, sc) in enumerate(workloads.items()):
            files[name] = tmp / f"w{i}.pkl"
            files[name].write_bytes(pickle.dumps(sc))
        print(f"cmtlab.sim {sim.code_version()} under PyPy and CPython: CPU seconds of the run alone, "
              f"{args.rounds} fresh processes x {args.repeat} runs each, alternating")
        goal_met = identical = True
        for name, path in files.items():
            res = {k: [] for k in interpreters}
            for _ in range(args.rounds):
                for label, (exe, standin) in interpreters.items():
                    res[label].append(child(exe, tmp, ["timing", path, args.repeat, 0], standin))
            best = {k: min(min(o["cpu_s"]) for o in v) for k, v in res.items()}
            segs = res["CPython"][0]["segments"]
            print(f"  {name} ({segs} data segments):")
            for label, outs in res.items():
                cold = sorted(o["cpu_s"][0] for o in outs)[len(outs) // 2]
                print(f"    {outs[0]['interpreter']:22s} best {best[label]:6.3f} s ({segs / best[label]:9,.0f} "
                      f"segments per CPU second); first run of a fresh process (median) {cold:6.3f} s; runs "
                      + ", ".join(" ".join(f"{x:.2f}" for x in o["cpu_s"]) for o in outs))
            ratio = best["CPython"] / best["PyPy"]
            same = len({o["digest"] for v in res.values() for o in v}) == 1
            goal_met &= ratio >= GOAL
            identical &= same
            print(f"    PyPy / CPython speed = {ratio:.2f}x (goal >= {GOAL:g}x); results identical: {same}")
        if args.alheid_seeds:
            name = next(n for n in files if n.startswith("Alheid"))
            print(f"  one Alheid point over {args.alheid_seeds} seeds, seed after seed in one process per interpreter:")
            pts = {}
            for label, (exe, standin) in interpreters.items():
                pts[label] = child(exe, tmp, ["timing", files[name], 0, args.alheid_seeds], standin)["seeds"]
                p = pts[label]
                print(f"    {label:8s} CPU {p['cpu_s']:7.1f} s, wall {p['wall_s']:7.1f} s, {p['segments']} segments")
            same = pts["PyPy"]["digest"] == pts["CPython"]["digest"]
            identical &= same
            print(f"    PyPy / CPython speed (CPU) = {pts['CPython']['cpu_s'] / pts['PyPy']['cpu_s']:.2f}x; "
                  f"results identical over the {args.alheid_seeds} seeds: {same}")
        gpath = tmp / "golden.pkl"
        gpath.write_bytes(pickle.dumps(golden_cases()))
        dig = {label: child(exe, tmp, ["bitid", gpath], standin) for label, (exe, standin) in interpreters.items()}
        differ = sorted(k for k in dig["CPython"] if dig["PyPy"].get(k) != dig["CPython"][k])
        identical &= not differ
        print(f"  golden runs (tests/sim/**/test_*golden.py, traced and untraced): {len(dig['CPython'])} runs, "
              + ("raw results identical under both" if not differ else f"DIFFERENT: {', '.join(differ)}"))
    print(f"summary: PyPy >= {GOAL:g}x CPython on both workloads: {'met' if goal_met else 'MISSED'}; "
          f"bit-identical: {'yes' if identical else 'NO'}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        kind = sys.argv[2]
        if kind == "timing":
            result = child_timing(sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
        else:
            result = child_bitid(sys.argv[3])
        print(json.dumps(result))
        raise SystemExit(0)
    raise SystemExit(main())
