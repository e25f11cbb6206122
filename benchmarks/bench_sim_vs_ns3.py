"""Benchmark: cmtlab.sim against ns-3 3.44 and against the papers' own simulator, measured in the same run.

Three parts, all in one process so that every ratio compares runs made under the same machine load:

1. **cmtlab vs ns-3** on Song's striped scenario (below);
2. **cmtlab vs the papers' simulator** (the Chihani–Collange MPTCP model on ns-3.7,
   :mod:`cmtlab.papers_sim`) on Arabi et al.'s scenario 2 (three subflows, LIA, no reordering
   response, the model's 10-MB transfer; cmtlab runs it under its ``chihani`` preset, as
   :func:`cmtlab.papers.arabi.papers_sim.preset_cases` builds it); the model's build is found at
   ``$CMTLAB_PAPERS_SIM_BUILD`` (``make papers-sim``); without it this part prints "not measured";
3. **one Alheid point over 30 seeds** (the paper's seed count, :data:`cmtlab.papers.alheid.paper.N_SEEDS_PAPER`):
   Fig. 5's PR-R at PDR 0.5 %, 10 m, 50 s, run seed after seed in this process; prints its wall
   time and data segments per second.  Neither reference runs this Wi-Fi MPTCP scenario (ns-3.44
   has no MPTCP, the model has no Wi-Fi), so the point's time on each is projected from a ratio
   measured in this run on the nearest like-for-like workload: for ns-3, one TCP transfer over
   one 802.11g link at 10 m in both simulators (the Wi-Fi validation's setup); for the papers'
   simulator, part 2's ratio;
4. **cmtlab against the papers' simulator over Wi-Fi on one Fig. 4 point** (PR-R at 10 m, the most
   expensive point of the recording, 50-s runs): :data:`~cmtlab.papers.alheid.paper.N_SEEDS_PAPER` = 30
   seeds on cmtlab's 802.11g model under the chapters' ``paper`` preset and the calibrated
   ``chihani_ns3`` one (:func:`cmtlab.papers.alheid.experiments.scenario`,
   :mod:`cmtlab.validation.papers_sim_wifi`), and as many seeds of the Chihani–Collange model on ns-3.7's
   Wi-Fi (:mod:`cmtlab.papers_sim.wifi`, the 802.11g stand-in, the Fig. 4 plan's parameters) as fit in
   ``--fig4-model-budget`` seconds, seed after seed in this process; the ratio of the wall times per seed
   (the model's time is its driver processes', start to exit), measured in one run.  Without the model's
   Wi-Fi build this part prints "not measured".

Part 1:

Goals: cmtlab simulates >= 7x more data segments per wall-clock second than ns-3 on the same
scenarios under every option preset, and >= 30x (fast enough to simulate every seed of every
paper's point live).  Scenarios: Song et
al.'s Fig. 5 topology over the field links I-II, I-IV and I-VIII (sec. 5.3 bandwidths; round-trip
delays 50-250 ms), Table 2 TCP parameters, ACKs striped round-robin, a 4 MB transfer, under every
option preset of :data:`cmtlab.scenario.PRESETS` (plain NewReno "rfc-newreno", ns-3.44's defaults
"ns3-3.44-defaults" with PRR, ns-3 as of early 2018 "ns3-2018").  Both simulators run the same scenario objects (the runs are identical: same
segments sent); each rate is the best of ``--repeat`` runs, traces off, the two simulators
alternating run by run (so that load from other processes hits both alike).  ns-3's import and the
compilation of its C++ glue are paid once per process and excluded.

Usage: ``python benchmarks/bench_sim_vs_ns3.py [--megabytes 4] [--repeat 3] [--alheid-seeds 30] [--fig4-seeds 30] [--fig4-model-budget 600] [--only-fig4]``.
The ratio per preset is that of the summed rates over its scenarios.  A missed goal is printed
(MISSED), not fatal: the exit status is 0.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from cmtlab import compiled, ns3, sim
from cmtlab.scenario import PRESETS, striped_scenario

#: cmtlab / ns-3 on every option preset: the simulator's goal and the paper-scale-statistics goal.
GOALS = (7.0, 30.0)
FIELD_BPS = [35.9e6, 18.4e6, 33.3e6, 14.7e6, 14.8e6, 4.4e6, 22.5e6, 12.5e6]  # Song sec. 5.3, links I-VIII


def scenarios(megabytes: float) -> dict:
    out = {}
    for n in (2, 4, 8):
        rtt = list(np.linspace(0.050, 0.250, n))
        for preset in PRESETS:
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


def timed(run, scenario) -> tuple[float, float, int]:
    """One run: (data segments per wall-clock second, per CPU second of this process, data segments)."""
    c0, t0 = time.process_time(), time.perf_counter()
    r = run(scenario)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    segs = r.data_segments_sent
    return segs / wall, segs / max(cpu, 1e-9), segs


def vs_ns3(megabytes: float, repeat: int) -> dict:
    """Part 1: ``{preset: cmtlab/ns-3 ratio}`` (of the summed rates over the preset's scenarios)."""
    t0 = time.perf_counter()
    ns3.load()  # import ns-3 and compile the glue once, outside the timings
    print(f"1. cmtlab.sim vs ns-3 {ns3.ns3_version()} (striped topology; ns-3 loaded in "
          f"{time.perf_counter() - t0:.1f} s, excluded)")
    sc = scenarios(megabytes)
    first = next(iter(sc.values()))
    sim.run(first)  # warm-up, both simulators
    ns3.run(first)
    print(f"  {'scenario':28s} {'segments':>9s} {'cmtlab seg/s':>13s} {'ns-3 seg/s':>11s} {'ratio':>6s}")
    per_preset: dict = {}
    for name, scenario in sc.items():
        rc = rn = cc = cn = 0.0
        for _ in range(repeat):  # alternate the simulators; the best run of each counts
            c, c_cpu, segs_c = timed(sim.run, scenario)
            n, n_cpu, segs_n = timed(ns3.run, scenario)
            rc, rn, cc, cn = max(rc, c), max(rn, n), max(cc, c_cpu), max(cn, n_cpu)
        same = "" if segs_c == segs_n else f"  (segments differ: {segs_c} vs {segs_n})"
        print(f"  {name:28s} {segs_c:9d} {rc:13,.0f} {rn:11,.0f} {rc / rn:6.1f}{same}")
        preset = name.split(", ", 1)[1]  # "<n> links, <preset>"
        tot = per_preset.setdefault(preset, [0.0, 0.0, 0.0, 0.0])
        tot[0] += rc
        tot[1] += rn
        tot[2] += cc
        tot[3] += cn
    ratios = {}
    # the verdict is per wall-clock second; the CPU-second ratio of the same runs is printed beside it
    # (other processes on a shared machine lengthen wall-clock times, not CPU times)
    for preset, (tot_c, tot_n, cpu_c, cpu_n) in per_preset.items():
        ratios[preset] = ratio = tot_c / tot_n
        print(f"  cmtlab / ns-3 under {preset:17s} = {ratio:.2f}x  ({_goals(ratio)})  "
              f"[per CPU second: {cpu_c / cpu_n:.2f}x]")
    return ratios


def _goals(ratio: float) -> str:
    return "; ".join(f"goal >= {g:g}x: {'met' if ratio >= g else 'MISSED'}" for g in GOALS)


def vs_papers_sim(repeat: int) -> float | None:
    """Part 2: cmtlab's and the papers' simulator's segments per second on Arabi's scenario 2.

    Returns cmtlab's rate over the model's (``None`` when the model's build is missing).  The
    model's rate counts the wall time of its driver process (start to exit)."""
    from cmtlab.papers.arabi import experiments as arabi
    from cmtlab.papers.arabi import papers_sim as papers_arabi
    from cmtlab.papers_sim import build as papers_build
    from cmtlab.papers_sim import model as papers_model

    case = dict(scenarios=(2,), congestion=("lia",), reordering=("none",))
    ours = [sc for labels, sc in papers_arabi.preset_cases(**case) if labels["setting"] == "10 MB"][0]
    print(f"2. cmtlab.sim vs the papers' simulator (Chihani-Collange model, ns-3.7) on Arabi scenario 2, "
          f"LIA, no reordering response, {papers_arabi.TRANSFER_BYTES / 1e6:g} MB")
    try:
        papers_model.binary(build=False)
    except papers_build.BuildError as exc:
        print(f"  not measured: {exc}")
        return None
    (_, theirs), = papers_arabi.build_cases(**case, variate_delay=(False,))
    arabi.simulate(ours)  # warm-up
    rc = rp = 0.0
    for _ in range(repeat):  # alternate; the best run of each counts
        c, segs_c = best(arabi.simulate, ours, 1)
        r = papers_model.run(theirs)
        segs_p = r.data_segments_sent
        rc, rp = max(rc, c), max(rp, segs_p / r.wall_time_s)
    print(f"  {'':28s} {'segments':>9s} {'seg/s':>13s}")
    print(f"  {'cmtlab.sim (chihani preset)':28s} {segs_c:9d} {rc:13,.0f}")
    print(f"  {'papers simulator':28s} {segs_p:9d} {rp:13,.0f}")
    print(f"  cmtlab / papers simulator = {rc / rp:.1f}x")
    return rc / rp


def wifi_ratio(repeat: int, transfer_bytes: int = 8_000_000) -> float:
    """ns-3's wall time over cmtlab's on one TCP transfer over one 802.11g link at 10 m (the
    Wi-Fi validation's setup, :mod:`cmtlab.validation.wifi`): the like-for-like ratio of part 3."""
    from cmtlab.validation import wifi as wv
    from cmtlab.ns3 import wifi as ns3_wifi

    def ours():
        return wv.model_tcp_throughput_bps(10.0, transfer_bytes=transfer_bytes)

    def theirs():
        return ns3_wifi.run_wifi(10.0, protocol="tcp", transfer_bytes=transfer_bytes,
                                 duration_s=max(30.0, transfer_bytes * 8 / 1e6), preamble_detection=False)

    ours()  # warm-up, both (ns-3's Wi-Fi glue compiles on first use)
    theirs()
    tc = tn = float("inf")
    for _ in range(repeat):
        for run, which in ((ours, "c"), (theirs, "n")):
            t0 = time.perf_counter()
            run()
            wall = time.perf_counter() - t0
            if which == "c":
                tc = min(tc, wall)
            else:
                tn = min(tn, wall)
    print(f"  like for like: one {transfer_bytes / 1e6:g} MB TCP transfer over one 802.11g link at 10 m: "
          f"cmtlab {tc * 1e3:.1f} ms, ns-3 {tn * 1e3:.0f} ms -> cmtlab {tn / tc:.1f}x ns-3")
    return tn / tc


def alheid_point(n_seeds: int, repeat: int, papers_ratio: float | None) -> float:
    """Part 3: one Alheid point (Fig. 5, PR-R, PDR 0.5 %, 10 m, 50 s) over ``n_seeds`` seeds; returns its wall time."""
    from cmtlab.papers.alheid import experiments as alheid
    from cmtlab.papers.alheid import paper as alheid_paper

    sc = alheid.scenario("PR-R", pdr2=0.005)
    print(f"3. one Alheid point over {n_seeds} seeds (Fig. 5, PR-R, PDR 0.5 %, "
          f"{alheid.SCENARIO2_DISTANCE_M:g} m, {alheid.DURATION_S:g} s runs; paper: "
          f"{alheid_paper.N_SEEDS_PAPER} seeds), seed after seed in one process")
    segs = 0
    t0 = time.perf_counter()
    for seed in range(n_seeds):
        segs += sim.run(sc.replace(seed=seed)).data_segments_sent
    wall = time.perf_counter() - t0
    print(f"  cmtlab.sim: {wall:7.1f} s wall, {segs} data segments, {segs / wall:,.0f} segments/s "
          f"(~{wall / 2:.0f} s on two workers)")
    ratio = wifi_ratio(repeat)
    print(f"  projected: ns-3 ~{wall * ratio:,.0f} s for this point at that ratio (ns-3.44 has no MPTCP)")
    if papers_ratio:
        print(f"  projected: the papers' simulator ~{wall * papers_ratio:,.0f} s at part 2's ratio "
              f"(the model has no Wi-Fi)")
    return wall


def fig4_point_vs_papers_sim(n_seeds: int, *, model_budget_s: float = 600.0, distance_m: float = 10.0,
                             solution: str = "PR-R") -> float | None:
    """Part 4: one Fig. 4 point, ``n_seeds`` seeds on cmtlab under each of the Wi-Fi agreement's presets
    (:data:`cmtlab.validation.papers_sim_wifi.WIFI_PRESETS`: the chapters' ``paper`` and the calibrated
    ``chihani_ns3``) and as many seeds on the papers' simulator over Wi-Fi as fit in ``model_budget_s`` of
    its wall time (at least one, at most ``n_seeds``), seed after seed in this process; returns the model's
    mean wall time per seed over the calibrated preset's (``None`` when the model's Wi-Fi build is missing)."""
    from cmtlab.papers.alheid import experiments as alheid
    from cmtlab.papers_sim import build as papers_build
    from cmtlab.papers_sim import model as papers_model
    from cmtlab.papers_sim import wifi as papers_wifi
    from cmtlab.papers_sim import wifi_record
    from cmtlab.validation.papers_sim_wifi import WIFI_PRESETS

    print(f"4. one Fig. 4 point ({solution}, {distance_m:g} m, {alheid.DURATION_S:g} s runs): {n_seeds} seeds on cmtlab "
          f"per preset, the papers' simulator for up to {model_budget_s:g} s, seed after seed in one process")
    try:
        papers_model.binary(build=False, wifi=True)
    except papers_build.BuildError as exc:
        print(f"  not measured: {exc}")
        return None
    plan = wifi_record.load_plan("alheid-fig4")
    cases = {(lab["distance_m"], lab["solution"]): sc for lab, sc in wifi_record.expand(plan) if lab["seed"] == 0}
    theirs = cases[(distance_m, solution)]
    rows = []
    for preset in WIFI_PRESETS:
        rec = "chihani_ns3" if preset == alheid.MODEL_PRESET else "newreno"
        ours = alheid.scenario(solution, distance_m=distance_m, preset=preset, recovery=rec)
        segs = 0
        gput = []
        t0 = time.perf_counter()
        for seed in range(n_seeds):
            r = sim.run(ours.replace(seed=seed))
            segs += r.data_segments_sent
            gput.append(r.throughput_bps)
        rows.append((f"cmtlab.sim, {preset} preset", n_seeds, time.perf_counter() - t0, segs, float(np.mean(gput))))
    wall_p, segs_p, gput_p, n_p = 0.0, 0, [], 0
    while n_p < n_seeds and (n_p == 0 or wall_p + wall_p / n_p <= model_budget_s):
        r = papers_wifi.run(theirs.replace(seed=n_p))
        segs_p += r.data_segments_sent
        wall_p += r.wall_time_s
        gput_p.append(r.throughput_bps)
        n_p += 1
    rows.append(("papers simulator (ns-3.7 Wi-Fi)", n_p, wall_p, segs_p, float(np.mean(gput_p))))
    print(f"  {'':36s} {'seeds':>5s} {'wall (s)':>9s} {'s/seed':>7s} {'segments':>10s} {'seg/s':>10s} {'Mbit/s':>7s}")
    for name, n, wall, segs, g in rows:
        print(f"  {name:36s} {n:5d} {wall:9.1f} {wall / n:7.2f} {segs:10d} {segs / wall:10,.0f} {g / 1e6:7.2f}")
    per_seed_c = rows[-2][2] / rows[-2][1]
    per_seed_p = wall_p / n_p
    print(f"  papers simulator / cmtlab ({WIFI_PRESETS[-1]} preset) = {per_seed_p / per_seed_c:.1f}x the wall time per seed "
          f"({(rows[-2][3] / rows[-2][2]) / (segs_p / wall_p):.1f}x per data segment); {n_seeds} seeds would take the "
          f"model ~{per_seed_p * n_seeds:,.0f} s, cmtlab {per_seed_c * n_seeds:,.0f} s")
    return per_seed_p / per_seed_c


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--megabytes", type=float, default=4.0, help="transfer size per run (MB, default 4)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per scenario and simulator (default 3)")
    ap.add_argument("--alheid-seeds", type=int, default=30, help="seeds of the Alheid point (default 30, the paper's)")
    ap.add_argument("--fig4-seeds", type=int, default=30, help="seeds of part 4's Fig. 4 point (default 30, the paper's)")
    ap.add_argument("--fig4-model-budget", type=float, default=600.0,
                    help="wall seconds part 4 gives the papers' simulator (default 600; as many seeds as fit, >= 1)")
    ap.add_argument("--only-fig4", action="store_true", help="run part 4 only")
    args = ap.parse_args()
    if args.megabytes <= 0 or args.repeat < 1 or args.alheid_seeds < 1 or args.fig4_seeds < 1 or args.fig4_model_budget <= 0:
        ap.error("--megabytes must be > 0, --repeat >= 1, --alheid-seeds >= 1, --fig4-seeds >= 1 and "
                 "--fig4-model-budget > 0")
    print(f"cmtlab.sim {sim.code_version()}: data segments per wall-clock second, traces off, best of {args.repeat}; "
          f"{compiled.summary()}")
    if args.only_fig4:
        fig4_point_vs_papers_sim(args.fig4_seeds, model_budget_s=args.fig4_model_budget)
        return 0
    ratios = vs_ns3(args.megabytes, args.repeat)
    papers_ratio = vs_papers_sim(args.repeat)
    alheid_point(args.alheid_seeds, args.repeat, papers_ratio)
    fig4_point_vs_papers_sim(args.fig4_seeds, model_budget_s=args.fig4_model_budget)
    worst = min(ratios.values())
    print(f"summary: cmtlab / ns-3 >= {worst:.2f}x on every option preset ({', '.join(sorted(ratios))}): "
          f"{_goals(worst)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
