"""Benchmark: cmtlab.sim against ns-3 3.44 on Song's striped scenario, measured in the same run.

Goal: cmtlab simulates >= 7x more data segments per wall-clock second than ns-3 on the same
scenarios, under every option preset.  Scenarios: Song et al.'s Fig. 5 topology over the field links I-II, I-IV and I-VIII
(sec. 5.3 bandwidths; round-trip delays 50-250 ms), Table 2 TCP parameters, ACKs striped
round-robin, a 4 MB transfer, under plain NewReno ("rfc-newreno") and ns-3 as of early 2018
("ns3-2018").  Both simulators run the same scenario objects (the runs are identical: same
segments sent); each rate is the best of ``--repeat`` runs, traces off, the two simulators
alternating run by run (so that load from other processes hits both alike).  ns-3's import and the
compilation of its C++ glue are paid once per process and excluded.

Usage: ``python benchmarks/bench_sim_vs_ns3.py [--megabytes 4] [--repeat 3]``.
The ratio per preset is that of the summed rates over its scenarios.  A missed goal is printed
(MISSED), not fatal: the exit status is 0.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from cmtlab import ns3, sim
from cmtlab.scenario import striped_scenario

TARGET_RATIO = 7.0
FIELD_BPS = [35.9e6, 18.4e6, 33.3e6, 14.7e6, 14.8e6, 4.4e6, 22.5e6, 12.5e6]  # Song sec. 5.3, links I-VIII


def scenarios(megabytes: float) -> dict:
    out = {}
    for n in (2, 4, 8):
        rtt = list(np.linspace(0.050, 0.250, n))
        for preset in ("rfc-newreno", "ns3-2018"):
            out[f"{n} links, {preset}"] = striped_scenario(FIELD_BPS[:n], rtt, transfer_bytes=int(megabytes * 1e6),
                                                           options=preset)
    return out


def best(run, scenario, repeat: int) -> tuple[float, int]:
    """(data segments per wall-clock second, data segments) — best of ``repeat`` runs."""
    rate, segs = 0.0, 0
    for _ in range(repeat):
        t0 = time.perf_counter()
        r = run(scenario)
        wall = time.perf_counter() - t0
        segs = r.data_segments_sent
        rate = max(rate, segs / wall)
    return rate, segs


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--megabytes", type=float, default=4.0, help="transfer size per run (MB, default 4)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per scenario and simulator (default 3)")
    args = ap.parse_args()
    if args.megabytes <= 0 or args.repeat < 1:
        ap.error("--megabytes must be > 0 and --repeat >= 1")
    t0 = time.perf_counter()
    ns3.load()  # import ns-3 and compile the glue once, outside the timings
    print(f"ns-3 {ns3.ns3_version()} loaded in {time.perf_counter() - t0:.1f} s (excluded)")
    sc = scenarios(args.megabytes)
    sim.run(next(iter(sc.values())))  # warm-up
    print(f"{'scenario':28s} {'segments':>9s} {'cmtlab seg/s':>13s} {'ns-3 seg/s':>11s} {'ratio':>6s}")
    per_preset: dict = {}
    for name, scenario in sc.items():
        rc = rn = 0.0
        for _ in range(args.repeat):  # alternate the simulators; the best run of each counts
            c, segs_c = best(sim.run, scenario, 1)
            n, segs_n = best(ns3.run, scenario, 1)
            rc, rn = max(rc, c), max(rn, n)
        same = "" if segs_c == segs_n else f"  (segments differ: {segs_c} vs {segs_n})"
        print(f"{name:28s} {segs_c:9d} {rc:13,.0f} {rn:11,.0f} {rc / rn:6.1f}{same}")
        preset = name.split(", ", 1)[1]  # "<n> links, <preset>"
        tot = per_preset.setdefault(preset, [0.0, 0.0])
        tot[0] += rc
        tot[1] += rn
    for preset, (tot_c, tot_n) in per_preset.items():
        ratio = tot_c / tot_n
        print(f"cmtlab / ns-3 under {preset:14s} = {ratio:.1f}x  (goal >= {TARGET_RATIO:g}x: "
              f"{'met' if ratio >= TARGET_RATIO else 'MISSED'})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
