"""Probe: how fast is ns-3 3.44 (via :mod:`cmtlab.ns3`) on Song's Fig. 5 scenario?

Reports data segments simulated per wall-clock second (and simulator events per second) for
2 and 8 striped links with the field bandwidths of Song Fig. 1 (35.9, 18.4, 33.3, 14.7, 14.8,
4.4, 22.5, 12.5 Mbit/s) and round-trip delays spread over 50–250 ms, for RFC NewReno and for
ns-3's own defaults.  The ns-3 import and the glue compilation are timed separately and
excluded from the rates: they are paid once per process.  This is the ns-3 side of the
cmtlab-vs-ns-3 benchmark; it has no pass/fail target.

Usage: ``python benchmarks/bench_ns3_probe.py [--megabytes 4] [--repeat 3]``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

FIELD_MBPS = [35.9, 18.4, 33.3, 14.7, 14.8, 4.4, 22.5, 12.5]


def scenarios(megabytes: float):
    from cmtlab.scenario import striped_scenario
    out = []
    for n in (2, 8):
        bw = [b * 1e6 for b in FIELD_MBPS[:n]]
        rtt = list(np.linspace(0.050, 0.250, n))
        for preset in ("rfc-newreno", "ns3-3.44-defaults"):
            out.append((f"{n} links, {preset}", striped_scenario(bw, rtt, transfer_bytes=int(megabytes * 1e6),
                                                                  options=preset)))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--megabytes", type=float, default=4.0, help="transfer size per run (MB)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per scenario (best wall time is kept)")
    args = ap.parse_args()

    from cmtlab import ns3
    from cmtlab.ns3.engine import _quiet_cling_static_init_warnings
    t0 = time.perf_counter()
    with _quiet_cling_static_init_warnings():
        from ns import ns  # noqa: F401
    t_import = time.perf_counter() - t0
    t0 = time.perf_counter()
    ns3.load()
    t_glue = time.perf_counter() - t0
    print(f"ns-3 {ns3.ns3_version()}: import {t_import:.1f} s, glue compile {t_glue:.1f} s (once per process)")
    print(f"{'scenario':34s} {'Mbit/s':>8s} {'segments':>9s} {'events':>8s} {'wall s':>7s} "
          f"{'segments/s':>11s} {'events/s':>10s}")
    total_seg = total_wall = 0.0
    for label, sc in scenarios(args.megabytes):
        best = None
        for _ in range(max(1, args.repeat)):
            r = ns3.run(sc)
            if best is None or r.wall_time_s < best.wall_time_s:
                best = r
        seg, ev, wall = best.data_segments_sent, best.extra["events"], best.wall_time_s
        total_seg += seg
        total_wall += wall
        print(f"{label:34s} {best.throughput_bps / 1e6:8.2f} {seg:9d} {ev:8d} {wall:7.3f} "
              f"{seg / wall:11.0f} {ev / wall:10.0f}")
    print(f"{'all':34s} {'':8s} {int(total_seg):9d} {'':8s} {total_wall:7.3f} {total_seg / total_wall:11.0f}")


if __name__ == "__main__":
    main()
