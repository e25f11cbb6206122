"""One emulated transfer by hand (root):

    PYTHONPATH=lib python -m cmtlab.testbed --path 10e6,0.01 --path 10e6,0.06 --duration-s 5 \
        --congestion cubic

``--path RATE_BPS,ONE_WAY_DELAY_S[,QUEUE_PACKETS[,LOSS]]`` (repeat for more paths), ``--tcp`` for
single-path TCP on the first path, ``--bytes N`` instead of ``--duration-s``.  Prints the tidy
row (JSON).  Namespaces, devices and processes are removed on exit and on Ctrl-C.
"""

from __future__ import annotations

import argparse
import json

from . import KernelSettings, path, run_transfer


def _path(text: str):
    f = [float(x) for x in text.split(",")]
    if not 2 <= len(f) <= 4:
        raise argparse.ArgumentTypeError("--path RATE_BPS,DELAY_S[,QUEUE_PACKETS[,LOSS]]")
    return path(f[0], f[1], queue_packets=int(f[2]) if len(f) > 2 else None, loss=f[3] if len(f) > 3 else 0.0)


def main(argv=None) -> None:
    p = argparse.ArgumentParser(prog="python -m cmtlab.testbed", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--path", type=_path, action="append", required=True)
    p.add_argument("--tcp", action="store_true", help="single-path TCP (first path only)")
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--bytes", type=int)
    g.add_argument("--duration-s", type=float)
    p.add_argument("--warmup-s", type=float, default=0.0)
    p.add_argument("--congestion", default="reno")
    p.add_argument("--no-dsack", action="store_true")
    p.add_argument("--no-timestamps", action="store_true")
    p.add_argument("--frto", type=int, default=2)
    p.add_argument("--sndbuf-bytes", type=int)
    p.add_argument("--rcvbuf-bytes", type=int)
    a = p.parse_args(argv)
    ks = KernelSettings(congestion=a.congestion, dsack=not a.no_dsack, timestamps=not a.no_timestamps,
                        frto=a.frto, sndbuf_bytes=a.sndbuf_bytes, rcvbuf_bytes=a.rcvbuf_bytes)
    paths = a.path[:1] if a.tcp else a.path
    r = run_transfer(paths, ks, mptcp=not a.tcp, transfer_bytes=a.bytes, duration_s=a.duration_s,
                     warmup_s=a.warmup_s)
    print(json.dumps(r.to_row(), indent=1, default=str))


if __name__ == "__main__":
    main()
