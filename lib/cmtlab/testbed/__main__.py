"""One emulated transfer by hand (root):

    PYTHONPATH=lib python -m cmtlab.testbed --path 10e6,0.01 --path 10e6,0.06 --duration-s 5 \
        --congestion cubic

``--path RATE_BPS,ONE_WAY_DELAY_S[,QUEUE_PACKETS[,LOSS]]`` (repeat for more paths; rate in
bit/s, 0 < rate <= 1e9; one-way delay in s, 0..5; queue a whole number of packets >= 1, default
one bandwidth-delay product; loss a probability in [0, 1)), ``--tcp`` for single-path TCP (one
``--path`` only), ``--bytes N`` instead of ``--duration-s``.  Prints the tidy row (JSON).
Namespaces, devices and processes are removed on exit, on an error, on Ctrl-C and on SIGTERM.  A run
killed outright (SIGKILL, ``kill -9``) cannot clean up: its delay lines and endpoints die with it, but its
two network namespaces (``cmtlab-<pid>-<hex>-a/b``) stay until the next run starts — or until

    python -m cmtlab.testbed --cleanup

removes them (and any process still inside them) at once; namespaces of runs still alive are never
touched.  Bad input is answered in one line naming the argument.
"""

from __future__ import annotations

import argparse
import json
import math
import sys

from . import MAX_DURATION_S, MAX_TIMEOUT_S, MAX_TRANSFER_BYTES, KernelSettings, cleanup_stale, path, run_transfer

PATH_FORM = "RATE_BPS,ONE_WAY_DELAY_S[,QUEUE_PACKETS[,LOSS]] (e.g. 10e6,0.01 or 10e6,0.01,100,0.01)"


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (no usage block): ``prog: error: argument --x: ...``."""

    def error(self, message):
        message = " ".join(str(message).split())
        if message.startswith("argument --path") and "expected one argument" in message:
            # a value starting with '-' (e.g. a negative rate) is taken for an option
            message += f" (a value starting with '-' needs --path=VALUE); accepted form: {PATH_FORM}"
        self.exit(2, f"{self.prog}: error: {message}\n")


def _path(text: str):
    """``--path`` value -> :class:`cmtlab.testbed.EmulatedPath`; ArgumentTypeError naming the form."""
    parts = [p.strip() for p in str(text).split(",")]
    if not 2 <= len(parts) <= 4:
        raise argparse.ArgumentTypeError(f"{text!r} has {len(parts)} field(s); accepted form: {PATH_FORM}")
    names = ("RATE_BPS", "ONE_WAY_DELAY_S", "QUEUE_PACKETS", "LOSS")
    vals = []
    for name, p in zip(names, parts):
        try:
            v = float(p)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} {p!r} is not a number in {text!r}; accepted form: {PATH_FORM}") from None
        if not math.isfinite(v):
            raise argparse.ArgumentTypeError(f"{name} must be finite, got {p!r} in {text!r}; accepted form: {PATH_FORM}")
        vals.append(v)
    rate, delay = vals[0], vals[1]
    if not 0 < rate <= 1e9:
        raise argparse.ArgumentTypeError(f"RATE_BPS must be in (0, 1e9] bit/s, got {parts[0]!r}; accepted form: {PATH_FORM}")
    if not 0 <= delay <= 5:
        raise argparse.ArgumentTypeError(f"ONE_WAY_DELAY_S must be in [0, 5] s, got {parts[1]!r}; accepted form: {PATH_FORM}")
    queue = None
    if len(vals) > 2:
        if vals[2] != int(vals[2]) or vals[2] < 1:
            raise argparse.ArgumentTypeError(f"QUEUE_PACKETS must be a whole number >= 1, got {parts[2]!r}; "
                                             f"accepted form: {PATH_FORM}")
        queue = int(vals[2])
    loss = vals[3] if len(vals) > 3 else 0.0
    if not 0 <= loss < 1:
        raise argparse.ArgumentTypeError(f"LOSS must be a probability in [0, 1), got {parts[3]!r}; accepted form: {PATH_FORM}")
    try:
        return path(rate, delay, queue_packets=queue, loss=loss)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{exc}; accepted form: {PATH_FORM}") from None


def _number(lo: float, hi: float, *, lo_open: bool = True, integer: bool = False):
    def parse(text: str):
        try:
            v = int(text) if integer else float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{'a whole number' if integer else 'a number'} in "
                                             f"{'(' if lo_open else '['}{lo:g}, {hi:g}] expected, got {text!r}") from None
        if not (math.isfinite(v) and (v > lo if lo_open else v >= lo) and v <= hi):
            raise argparse.ArgumentTypeError(f"must be in {'(' if lo_open else '['}{lo:g}, {hi:g}], got {text!r}")
        return v
    return parse


def _name(text: str) -> str:
    import re
    if not re.fullmatch(r"[a-z0-9_]{1,15}", text):
        raise argparse.ArgumentTypeError(f"a kernel algorithm name like 'reno' or 'cubic' expected, got {text!r}")
    return text


def _cleanup(p) -> None:
    """``--cleanup``: :func:`cmtlab.testbed.cleanup_stale` now; says what it removed."""
    import os
    import shutil

    if hasattr(os, "geteuid") and os.geteuid() != 0:
        p.error("argument --cleanup: needs root (it deletes network namespaces)")
    if shutil.which("ip") is None:
        p.error("argument --cleanup: needs iproute2's `ip` (not found on PATH)")
    removed = cleanup_stale()
    print(f"removed {len(removed)} namespace(s) of runs killed before their cleanup"
          + (": " + ", ".join(removed) if removed else ""))


def main(argv=None) -> None:
    p = _Parser(prog="python -m cmtlab.testbed", description=__doc__,
                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--cleanup", action="store_true",
                   help="remove what runs killed outright (SIGKILL) left behind: their network namespaces and any "
                        "process inside them (runs still alive are not touched); no transfer")
    p.add_argument("--path", type=_path, action="append", metavar=PATH_FORM.split(" (")[0])
    p.add_argument("--tcp", action="store_true", help="single-path TCP (one --path)")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--bytes", type=_number(0, MAX_TRANSFER_BYTES, integer=True))
    g.add_argument("--duration-s", type=_number(0, MAX_DURATION_S))
    p.add_argument("--warmup-s", type=_number(0, MAX_DURATION_S, lo_open=False), default=0.0)
    p.add_argument("--timeout-s", type=_number(0, MAX_TIMEOUT_S), default=120.0)
    p.add_argument("--congestion", type=_name, default="reno")
    p.add_argument("--mptcp-scheduler", type=_name, default=None)
    p.add_argument("--no-dsack", action="store_true")
    p.add_argument("--no-timestamps", action="store_true")
    p.add_argument("--frto", type=int, choices=(0, 1, 2), default=2)
    p.add_argument("--ecn", type=int, choices=(0, 1, 2), default=0)
    p.add_argument("--sndbuf-bytes", type=_number(4095, 1 << 30, integer=True))
    p.add_argument("--rcvbuf-bytes", type=_number(4095, 1 << 30, integer=True))
    p.add_argument("--seed", type=_number(-1, 2**31 - 1, integer=True), default=0)
    a = p.parse_args(argv)
    if a.cleanup:
        given = [f"--{k.replace('_', '-')}" for k in ("path", "bytes", "duration_s") if getattr(a, k) is not None]
        if given or a.tcp:
            p.error(f"argument --cleanup: runs no transfer, so it takes no {', '.join(given or ['--tcp'])}")
        _cleanup(p)
        return
    if not a.path:
        p.error(f"the following arguments are required: --path (accepted form: {PATH_FORM}), or --cleanup")
    if a.bytes is None and a.duration_s is None:
        p.error("one of the arguments --bytes --duration-s is required")
    if a.tcp and len(a.path) > 1:
        p.error(f"argument --tcp: single-path TCP takes one --path, got {len(a.path)}")
    if a.duration_s is not None and a.warmup_s >= a.duration_s:
        p.error(f"argument --warmup-s: must be < --duration-s ({a.duration_s:g}), got {a.warmup_s:g}")
    try:
        ks = KernelSettings(congestion=a.congestion, dsack=not a.no_dsack, timestamps=not a.no_timestamps,
                            frto=a.frto, ecn=a.ecn, sndbuf_bytes=a.sndbuf_bytes, rcvbuf_bytes=a.rcvbuf_bytes,
                            mptcp_scheduler=a.mptcp_scheduler)
        r = run_transfer(a.path, ks, mptcp=not a.tcp, transfer_bytes=a.bytes, duration_s=a.duration_s,
                         warmup_s=a.warmup_s, timeout_s=a.timeout_s, seed=a.seed)
    except ValueError as exc:   # names the argument (e.g. congestion not in this kernel)
        p.error(str(exc))
    except RuntimeError as exc:  # the kernel or an endpoint failed: one line, no traceback
        print(f"{p.prog}: error: {' '.join(str(exc).split())}", file=sys.stderr)
        sys.exit(1)
    print(json.dumps(r.to_row(), indent=1, default=str))
    if not r.completed:
        print(f"{p.prog}: the transfer did not complete: {r.reason}", file=sys.stderr)
        sys.exit(3)


if __name__ == "__main__":
    main()
