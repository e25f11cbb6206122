"""Benchmark: the simulator's compiled modules against its pure-Python sources, measured in the same run.

``cmtlab.compiled`` compiles every simulator module that has a ``.pxd`` file (Cython, pure-Python
mode: the ``.py`` stays the source, the ``.pxd`` gives C types); ``CMTLAB_PURE_PYTHON=1`` runs the
same sources as Python.  For each workload this starts fresh processes, one per variant and round
(pure first, then compiled, alternating, so that load from other processes hits both alike), runs
the workload ``--repeat`` times per process and counts the best CPU time (``time.process_time``) of
one run alone.  Workloads: Song's striped topology (links I-IV, 4 MB) under the "rfc-newreno" and
"ns3-2018" presets (the ns-3 comparison's scenarios), Arabi et al.'s scenario 2 as an MPTCP transfer
of 20 MB (three subflows, LIA, round robin) and one 50-s Alheid run (Fig. 5, PR-R, PDR 0.5 %, 10 m).
Each result is digested (counters and the ``extra`` dict): the two variants must agree exactly.

Goal: the simulator 5x faster than its pure-Python form on the Alheid and Arabi
workloads.  A missed goal is printed (MISSED), not fatal.  Without built copies (no C compiler)
it prints "not measured".

Usage: ``python benchmarks/bench_compiled.py [--rounds 2] [--repeat 3]``.
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

GOAL = 5.0
VOLATILE = {"segments_per_second", "code_version", "wall_time_s"}


def child(path: str, repeat: int) -> dict:
    from cmtlab import compiled, sim

    sc = pickle.loads(Path(path).read_bytes())
    run = sim.run_mptcp if isinstance(sc, sim.MptcpScenario) else sim.run
    cpu = []
    r = None
    for _ in range(repeat):
        t = time.process_time()
        r = run(sc)
        cpu.append(time.process_time() - t)
    counters = (r.completed, r.completion_time_s, r.data_segments_sent, r.retransmissions, r.timeouts,
                sorted((k, v) for k, v in r.extra.items() if k not in VOLATILE))
    return {"cpu_s": cpu, "segments": r.data_segments_sent,
            "digest": hashlib.sha256(repr(counters).encode()).hexdigest()[:16],
            "compiled": sorted(m for m, how in compiled.status().items() if how == "compiled")}


def spawn(path: Path, repeat: int, pure: bool) -> dict:
    env = {**os.environ, "CMTLAB_PURE_PYTHON": "1" if pure else "0", "CMTLAB_PROGRESS": "0"}
    proc = subprocess.run([sys.executable, __file__, "--child", str(path), str(repeat)], capture_output=True,
                          text=True, env=env, timeout=3600)
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr[-3000:])
    return json.loads(proc.stdout.strip().splitlines()[-1])


def workloads() -> dict:
    from cmtlab import sim
    from cmtlab.papers.alheid import experiments as alheid
    from cmtlab.scenario import striped_scenario

    song_b, song_d = [35.9e6, 18.4e6, 33.3e6, 14.7e6], [0.050, 0.080, 0.060, 0.100]
    return {
        "Song, links I-IV, 4 MB, rfc-newreno": striped_scenario(song_b, song_d, transfer_bytes=4_000_000,
                                                                options="rfc-newreno"),
        "Song, links I-IV, 4 MB, ns3-2018": striped_scenario(song_b, song_d, transfer_bytes=4_000_000,
                                                             options="ns3-2018"),
        "Arabi scenario 2, MPTCP, 20 MB": sim.mptcp_scenario([5e6, 2e6, 7e6], [0.1, 0.01, 0.05],
                                                             transfer_bytes=20_000_000, congestion="lia",
                                                             scheduler="round_robin"),
        "Alheid Fig. 5, PR-R, PDR 0.5 %, 10 m, 50 s": alheid.scenario("PR-R", pdr2=0.005),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=2, help="fresh processes per variant and workload (default 2)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per process (default 3)")
    args = ap.parse_args()
    if args.rounds < 1 or args.repeat < 1:
        ap.error("--rounds and --repeat must be >= 1")
    from cmtlab import compiled, sim

    if compiled.pure_python() or not compiled.built():
        print("compiled vs pure Python: not measured (no built copies: make compiled, with a C compiler)")
        return 0
    print(f"cmtlab.sim {sim.code_version()}: compiled modules ({', '.join(compiled.compilable_modules())}) "
          f"against the same sources as pure Python; CPU seconds of one run, best of {args.rounds} fresh "
          f"processes x {args.repeat} runs, alternating")
    missed = []
    identical = True
    with tempfile.TemporaryDirectory(prefix="cmtlab-compiled-") as d:
        for i, (name, sc) in enumerate(workloads().items()):
            path = Path(d) / f"w{i}.pkl"
            path.write_bytes(pickle.dumps(sc))
            res = {"pure Python": [], "compiled": []}
            for _ in range(args.rounds):
                res["pure Python"].append(spawn(path, args.repeat, True))
                res["compiled"].append(spawn(path, args.repeat, False))
            best = {k: min(min(o["cpu_s"]) for o in v) for k, v in res.items()}
            segs = res["compiled"][0]["segments"]
            same = len({o["digest"] for v in res.values() for o in v}) == 1
            identical &= same
            speed = best["pure Python"] / best["compiled"]
            goal = name.startswith(("Arabi", "Alheid"))
            if goal and speed < GOAL:
                missed.append(name)
            print(f"  {name} ({segs} data segments): pure Python {segs / best['pure Python']:9,.0f}, compiled "
                  f"{segs / best['compiled']:9,.0f} segments per CPU second: {speed:.2f}x"
                  + (f" (goal >= {GOAL:g}x)" if goal else "") + f"; results identical: {same}")
    print(f"summary: compiled >= {GOAL:g}x pure Python on the Arabi and Alheid workloads: "
          f"{'met' if not missed else 'MISSED'}; bit-identical: {'yes' if identical else 'NO'}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        print(json.dumps(child(sys.argv[2], int(sys.argv[3]))))
        raise SystemExit(0)
    raise SystemExit(main())
