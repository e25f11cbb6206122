"""Command line of :mod:`cmtlab.papers_sim`.

    python -m cmtlab.papers_sim build [--jobs N] [--if-compiler] [--no-wifi]   # make papers-sim
    python -m cmtlab.papers_sim record-wifi [--only PLAN ...] [--workers N] [--append]  # make papers-sim-data (Wi-Fi plans)
    python -m cmtlab.papers_sim info                               # what the build is made of

The recorded point-to-point runs (``make papers-sim-data``) are the papers' scenarios: ``python -m
cmtlab.papers record-papers-sim`` (:mod:`cmtlab.papers_sim.record` takes its record sets from the
papers).  The recorded Wi-Fi runs are plans, data files (:mod:`cmtlab.papers_sim.wifi_record`):
``record-wifi`` runs them.

``--if-compiler``: without a C++ compiler, print why the model is not built and exit 0 — except
under CI (``CI=true``), where a missing compiler is an error (CI must build and test the model).
"""

from __future__ import annotations

import argparse
import json
import os
import sys


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cmtlab.papers_sim", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="build ns-3.7 + the Chihani-Collange MPTCP model and the scenario driver")
    b.add_argument("--jobs", type=int, default=None, help="parallel compile jobs (default: usable cores)")
    b.add_argument("--if-compiler", action="store_true",
                   help="exit 0 with a notice when no C++ compiler is installed (not under CI=true)")
    b.add_argument("--no-wifi", action="store_true",
                   help="leave out ns-3.7's Wi-Fi modules and the Wi-Fi driver (cmtlab.papers_sim.wifi)")
    rw = sub.add_parser("record-wifi", help="re-run the Wi-Fi plans (data/papers-sim/wifi/*.plan.json) and rewrite "
                                            "their recorded results")
    rw.add_argument("--only", nargs="*", default=None, help="plans to regenerate (default: all)")
    rw.add_argument("--workers", type=int, default=None, help="parallel runs (default: usable cores)")
    rw.add_argument("--append", action="store_true",
                    help="run only the runs a plan added after its recorded rows and append them (recorded rows "
                         "stay byte-identical)")
    sub.add_parser("info", help="print the sources, patches and compiler the build uses")
    args = parser.parse_args(argv)

    from . import build as bld

    if args.command == "build":
        try:
            bld.compiler()
        except bld.BuildError as exc:
            if args.if_compiler and os.environ.get("CI", "").strip().lower() not in ("1", "true", "yes"):
                print(f"papers-sim: not built ({exc}); the tests that run it will be skipped", file=sys.stderr)
                return 0
            print(f"papers-sim: {exc}", file=sys.stderr)
            return 1
        try:
            bld.build(jobs=args.jobs, wifi=not args.no_wifi)
        except bld.BuildError as exc:
            print(f"papers-sim: {exc}", file=sys.stderr)
            return 1
        return 0
    if args.command == "info":
        info = {"build_dir": str(bld.build_dir()), "mirror": str(bld.mirror_dir()),
                "archives": [{"name": a.name, "file": a.file, "sha256": a.sha256, "url": a.url} for a in bld.ARCHIVES],
                "patches": [{k: v for k, v in p.items() if k != "path"} for p in bld.patches()]}
        try:
            info["compiler"] = bld.compiler_version()
        except bld.BuildError as exc:
            info["compiler"] = f"missing: {exc}"
        print(json.dumps(info, indent=1))
        return 0
    if args.command == "record-wifi":
        from . import wifi_record

        wifi_record.record(only=args.only, workers=args.workers, append=args.append)
        return 0
    return 2


if __name__ == "__main__":
    sys.exit(main())
