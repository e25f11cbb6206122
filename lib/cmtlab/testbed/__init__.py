"""The real Linux TCP/MPTCP stack over emulated paths: two network namespaces, *n* paths.

This is the book's multipath reference (issue 11): the kernel's MPTCP (in-kernel path manager,
one subflow per path) or TCP runs between two network namespaces, ``A`` (sender) and ``B``
(receiver), joined by *n* emulated paths.  The kernels here have no ``netem``/``fq``, so every
path is a small compiled delay line over two TUN devices (``delayline.c``, C, no Python in the
packet path): per direction a bottleneck rate, a drop-tail queue, a one-way propagation delay
and a seeded random drop rate.

Addresses come only from the benchmarking range 198.18.0.0/15 (RFC 2544/RFC 6890) and exist
only in the namespaces a run creates: path *i* is 198.18.i.1 (A) <-> 198.18.i.2 (B).  Subflow
*i* leaves A from 198.18.i.1 (policy routing per source address) towards B's 198.18.0.2.

Units: ``_bps`` bit/s (rates count IP bytes: TUN carries IP packets, no link-layer header),
``_s`` seconds (``delay_s`` is **one-way**), ``_bytes`` bytes.

Safety: every run uses unique namespace names (``cmtlab-<pid>-<hex>-a/b``); namespaces, TUN
devices (they die with the delay-line process) and processes are removed on normal exit, on
error, on SIGINT/SIGTERM and at interpreter exit; the delay lines die with their parent
(PR_SET_PDEATHSIG) and bound their own run time.  :func:`cleanup_stale` removes ``cmtlab-*``
namespaces whose creating process is gone.
"""

from __future__ import annotations

import atexit
import dataclasses
import json
import math
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

__all__ = ["Direction", "EmulatedPath", "KernelSettings", "TestbedResult", "Testbed",
           "path", "run_transfer", "ping", "expected_ping_rtt_s", "tcp_goodput_bps", "check_environment", "build_delayline",
           "cleanup_stale", "kernel_info"]

_HERE = Path(__file__).resolve().parent
_SRC = _HERE / "delayline.c"
_BIN_DIR = _HERE / "bin"
_LIB_DIR = _HERE.parents[1]
NS_PREFIX = "cmtlab-"
MAX_PATHS = 8
PORT = 5201
#: IPv4 + TCP headers with the timestamp option (bytes): TCP payload per 1500-byte packet is
#: 1500 - 52 = 1448 with timestamps, 1460 without.
IP_TCP_HEADER_BYTES = 40
MTU_BYTES = 1500


# ---------------------------------------------------------------- configuration
def _check_pos(name, v, allow_zero=False):
    if not isinstance(v, (int, float)) or isinstance(v, bool) or not math.isfinite(v) \
            or v < 0 or (v == 0 and not allow_zero):
        raise ValueError(f"{name} must be a finite number {'>= 0' if allow_zero else '> 0'}, got {v!r}")


@dataclass(frozen=True)
class Direction:
    """One direction of an emulated path.

    ``rate_bps`` bottleneck rate (IP bytes; 0 < rate <= 1e9), ``delay_s`` one-way propagation
    delay (0 <= delay <= 5 s), ``queue_packets``/``queue_bytes`` drop-tail limit on the packets
    not yet serialised (None = no limit of that kind; at least one must be set), ``loss``
    random drop probability at arrival, in [0, 1).  ``rate_schedule_bps``: None (constant
    ``rate_bps``) or one rate per ``schedule_interval_s``, replayed (repeating) from the moment the
    delay line is ready — the same schedule :class:`cmtlab.sim.net.trace_link.RateTraceLink` replays.
    """

    rate_bps: float
    delay_s: float
    queue_packets: int | None = 100
    queue_bytes: int | None = None
    loss: float = 0.0
    rate_schedule_bps: tuple | None = None
    schedule_interval_s: float = 1.0

    def __post_init__(self):
        _check_pos("rate_bps", self.rate_bps)
        if self.rate_schedule_bps is not None:
            sch = self.rate_schedule_bps
            if not isinstance(sch, tuple) or not sch or any(
                    isinstance(r, bool) or not isinstance(r, (int, float)) or not math.isfinite(r) or not 0 <= r <= 1e9
                    for r in sch) or max(sch) <= 0:
                raise ValueError(f"rate_schedule_bps must be None or a non-empty tuple of rates in [0, 1e9] bit/s "
                                 f"with one > 0, got {sch!r}")
            _check_pos("schedule_interval_s", self.schedule_interval_s)
        if self.rate_bps > 1e9:
            raise ValueError(f"rate_bps must be <= 1e9 (1 Gbit/s), got {self.rate_bps!r}")
        _check_pos("delay_s", self.delay_s, allow_zero=True)
        if self.delay_s > 5:
            raise ValueError(f"delay_s (one-way) must be <= 5 s, got {self.delay_s!r}")
        if self.queue_packets is None and self.queue_bytes is None:
            raise ValueError("queue_packets or queue_bytes must be set (drop-tail queue limit)")
        for name in ("queue_packets", "queue_bytes"):
            v = getattr(self, name)
            if v is not None and (not isinstance(v, (int, np.integer)) or v < 1):
                raise ValueError(f"{name} must be a positive integer or None, got {v!r}")
        if not (isinstance(self.loss, (int, float)) and 0 <= self.loss < 1):
            raise ValueError(f"loss must be in [0, 1), got {self.loss!r}")


@dataclass(frozen=True)
class EmulatedPath:
    """A path: ``forward`` carries A->B (data), ``reverse`` B->A (ACKs; None = same as forward,
    without its random loss)."""

    forward: Direction
    reverse: Direction | None = None

    @property
    def back(self) -> Direction:
        if self.reverse is not None:
            return self.reverse
        return dataclasses.replace(self.forward, loss=0.0, rate_schedule_bps=None)

    @property
    def rtt_s(self) -> float:
        """Round-trip propagation delay (no serialisation, no queueing)."""
        return self.forward.delay_s + self.back.delay_s


def path(rate_bps: float, delay_s: float, *, queue_packets: int | None = None, queue_bytes=None,
         loss: float = 0.0, reverse_loss: float = 0.0) -> EmulatedPath:
    """A symmetric path: same rate and one-way delay both ways.  The default queue is one
    bandwidth-delay product of 1500-byte packets (at least 20), so one Reno flow fills it."""
    _check_pos("rate_bps", rate_bps)
    _check_pos("delay_s", delay_s, allow_zero=True)
    if queue_packets is None and queue_bytes is None:
        queue_packets = max(20, int(math.ceil(rate_bps * 2 * delay_s / 8 / MTU_BYTES)))
    fwd = Direction(rate_bps, delay_s, queue_packets, queue_bytes, loss)
    rev = Direction(rate_bps, delay_s, queue_packets, queue_bytes, reverse_loss)
    return EmulatedPath(fwd, rev)


@dataclass(frozen=True)
class KernelSettings:
    """Kernel knobs, set per namespace (sysctl) or per socket, recorded with every result.

    ``congestion`` per socket with TCP_CONGESTION (MPTCP passes it to every subflow; a namespace
    may only default to an algorithm in the global ``tcp_allowed_congestion_control``).
    ``sack``/``dsack``/``timestamps``/``frto`` (0, 1, 2)/``recovery`` (``tcp_recovery`` bits,
    1 = RACK)/``reordering`` (initial dupthresh) are the ``net.ipv4.tcp_*`` sysctls of both
    namespaces; ``no_metrics_save`` stops one run seeding the next.  ``sndbuf_bytes``/
    ``rcvbuf_bytes``: None = autotuned, else fixed with SO_SNDBUFFORCE/SO_RCVBUFFORCE.
    ``mptcp_scheduler``: None = the kernel's default (``net.mptcp.scheduler``).
    """

    congestion: str = "reno"
    sack: bool = True
    dsack: bool = True
    timestamps: bool = True
    frto: int = 2
    recovery: int = 1
    reordering: int = 3
    no_metrics_save: bool = True
    ecn: int = 0
    sndbuf_bytes: int | None = None
    rcvbuf_bytes: int | None = None
    mptcp_scheduler: str | None = None

    def __post_init__(self):
        if not re.fullmatch(r"[a-z0-9_]{1,15}", self.congestion or ""):
            raise ValueError(f"congestion must be a kernel algorithm name like 'reno' or 'cubic', got {self.congestion!r}")
        if self.frto not in (0, 1, 2):
            raise ValueError(f"frto must be 0, 1 or 2, got {self.frto!r}")
        if not (isinstance(self.recovery, int) and 0 <= self.recovery <= 7):
            raise ValueError(f"recovery (tcp_recovery bits) must be in 0..7, got {self.recovery!r}")
        if not (isinstance(self.reordering, int) and 1 <= self.reordering <= 300):
            raise ValueError(f"reordering must be in 1..300, got {self.reordering!r}")
        for name in ("sndbuf_bytes", "rcvbuf_bytes"):
            v = getattr(self, name)
            if v is not None and (not isinstance(v, int) or not 4096 <= v <= 1 << 30):
                raise ValueError(f"{name} must be None (autotuned) or 4096..2**30 bytes, got {v!r}")

    def sysctls(self) -> dict[str, str]:
        return {"net.ipv4.tcp_sack": str(int(self.sack)), "net.ipv4.tcp_dsack": str(int(self.dsack)),
                "net.ipv4.tcp_timestamps": str(int(self.timestamps)), "net.ipv4.tcp_frto": str(self.frto),
                "net.ipv4.tcp_recovery": str(self.recovery), "net.ipv4.tcp_reordering": str(self.reordering),
                "net.ipv4.tcp_no_metrics_save": str(int(self.no_metrics_save)),
                "net.ipv4.tcp_ecn": str(self.ecn)}

    def to_row(self) -> dict:
        d = {f"k_{k}": v for k, v in dataclasses.asdict(self).items()}
        d["k_sndbuf_bytes"] = self.sndbuf_bytes if self.sndbuf_bytes else "auto"
        d["k_rcvbuf_bytes"] = self.rcvbuf_bytes if self.rcvbuf_bytes else "auto"
        return d


# ---------------------------------------------------------------- environment
def _run(cmd, *, input=None, timeout=10, check=True):
    p = subprocess.run(cmd, input=input, capture_output=True, text=True, timeout=timeout)
    if check and p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd[:6])} failed (exit {p.returncode}): {p.stderr.strip()[:500]}")
    return p


def build_delayline(force: bool = False) -> Path:
    """Compile ``delayline.c`` into ``cmtlab/testbed/bin/delayline`` (not committed) when it is
    missing or older than the source.  RuntimeError when no C compiler is found."""
    exe = _BIN_DIR / "delayline"
    if exe.exists() and not force and exe.stat().st_mtime >= _SRC.stat().st_mtime:
        return exe
    cc = os.environ.get("CC") or shutil.which("gcc") or shutil.which("cc") or shutil.which("clang")
    if not cc:
        raise RuntimeError("cmtlab.testbed needs a C compiler (gcc, cc or clang, or $CC) to build "
                           "the delay line: apt-get install -y gcc")
    _BIN_DIR.mkdir(exist_ok=True)
    tmp = exe.with_suffix(f".tmp{os.getpid()}")
    _run([cc, "-O2", "-Wall", "-o", str(tmp), str(_SRC)], timeout=120)
    os.replace(tmp, exe)
    return exe


def check_environment(mptcp: bool = True) -> None:
    """RuntimeError naming what is missing: root, ``ip``, ``ss``, /dev/net/tun, MPTCP, compiler."""
    if sys.platform != "linux":
        raise RuntimeError("cmtlab.testbed needs Linux (network namespaces, TUN, MPTCP)")
    if os.geteuid() != 0:
        raise RuntimeError("cmtlab.testbed needs root (network namespaces, TUN devices, sysctls)")
    for tool in ("ip", "ss"):
        if not shutil.which(tool):
            raise RuntimeError(f"cmtlab.testbed needs the '{tool}' tool (iproute2)")
    if not Path("/dev/net/tun").exists():
        raise RuntimeError("cmtlab.testbed needs TUN devices: /dev/net/tun is missing (modprobe tun)")
    if not Path("/run/netns").exists():
        Path("/run/netns").mkdir(parents=True, exist_ok=True)
    if mptcp:
        f = Path("/proc/sys/net/mptcp/enabled")
        if not f.exists():
            raise RuntimeError("this kernel has no MPTCP (CONFIG_MPTCP): /proc/sys/net/mptcp is missing")
        if f.read_text().strip() != "1":
            raise RuntimeError("MPTCP is disabled: sysctl -w net.mptcp.enabled=1")
    build_delayline()


def kernel_info() -> dict:
    """Kernel release and MPTCP scheduler/path-manager facts, recorded with results."""
    def rd(p):
        try:
            return Path(p).read_text().strip()
        except OSError:
            return None
    return {"kernel": os.uname().release,
            "mptcp_scheduler": rd("/proc/sys/net/mptcp/scheduler"),
            "mptcp_available_schedulers": rd("/proc/sys/net/mptcp/available_schedulers"),
            "mptcp_path_manager": rd("/proc/sys/net/mptcp/path_manager") or rd("/proc/sys/net/mptcp/pm_type"),
            "tcp_available_congestion_control": rd("/proc/sys/net/ipv4/tcp_available_congestion_control")}


def cleanup_stale() -> list[str]:
    """Delete ``cmtlab-<pid>-*`` namespaces whose creating process no longer exists."""
    removed = []
    p = _run(["ip", "netns", "list"], check=False)
    for line in p.stdout.splitlines():
        name = line.split()[0] if line.split() else ""
        m = re.fullmatch(rf"{NS_PREFIX}(\d+)-[0-9a-f]+-[ab]", name)
        if m and not Path(f"/proc/{m.group(1)}").exists():
            _run(["ip", "netns", "del", name], check=False)
            removed.append(name)
    return removed


# ---------------------------------------------------------------- the testbed
_LIVE: set = set()
_LIVE_LOCK = threading.Lock()


def _atexit_cleanup():
    for tb in list(_LIVE):
        tb.close()


atexit.register(_atexit_cleanup)


class Testbed:
    """Two namespaces joined by ``paths`` (context manager; :meth:`close` is idempotent).

    ``with Testbed([path(10e6, 0.01), path(10e6, 0.06)], KernelSettings()) as tb:
    r = tb.transfer(duration_s=5)``.  ``max_lifetime_s`` bounds the delay lines' life.
    """

    def __init__(self, paths, settings: KernelSettings | None = None, *, mptcp: bool = True,
                 seed: int = 0, max_lifetime_s: float = 900):
        paths = list(paths)
        if not 1 <= len(paths) <= MAX_PATHS:
            raise ValueError(f"paths must hold 1..{MAX_PATHS} EmulatedPath, got {len(paths)}")
        for i, p in enumerate(paths):
            if not isinstance(p, EmulatedPath):
                raise ValueError(f"paths[{i}] must be an EmulatedPath (see cmtlab.testbed.path), got {type(p).__name__}")
        self.paths = paths
        self.settings = settings or KernelSettings()
        self.mptcp = mptcp
        self.seed = int(seed)
        self.max_lifetime_s = float(max_lifetime_s)
        tag = secrets.token_hex(3)
        self.ns_a = f"{NS_PREFIX}{os.getpid()}-{tag}-a"
        self.ns_b = f"{NS_PREFIX}{os.getpid()}-{tag}-b"
        self._procs: list[subprocess.Popen] = []
        self._lines: list[subprocess.Popen] = []
        self._created: list[str] = []
        self._closed = False
        self.counters: list[dict] | None = None

    # addresses
    @staticmethod
    def addr_a(i: int) -> str:
        return f"198.18.{i}.1"

    @staticmethod
    def addr_b(i: int) -> str:
        return f"198.18.{i}.2"

    def __enter__(self):
        self.open()
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def open(self) -> "Testbed":
        check_environment(self.mptcp)
        exe = build_delayline()
        with _LIVE_LOCK:
            _LIVE.add(self)
        old_int = None
        if threading.current_thread() is threading.main_thread():
            old_int = signal.getsignal(signal.SIGTERM)

            def on_term(signum, frame):  # SIGTERM -> cleanup, then the old behaviour
                self.close()
                raise KeyboardInterrupt
            signal.signal(signal.SIGTERM, on_term)
        self._old_term = old_int
        try:
            for ns in (self.ns_a, self.ns_b):
                _run(["ip", "netns", "add", ns])
                self._created.append(ns)
            s = self.settings
            common = {**s.sysctls(), "net.ipv4.conf.all.rp_filter": "0", "net.ipv4.conf.default.rp_filter": "0",
                      "net.mptcp.enabled": "1" if self.mptcp else "0"}
            for ns in (self.ns_a, self.ns_b):
                args = [f"{k}={v}" for k, v in common.items()]
                _run(["ip", "netns", "exec", ns, "sysctl", "-q", "-w", *args])
            for i, p in enumerate(self.paths):
                f, b = p.forward, p.back
                cmd = [str(exe), "--ns-a", f"/run/netns/{self.ns_a}", "--dev-a", f"tbA{i}",
                       "--ns-b", f"/run/netns/{self.ns_b}", "--dev-b", f"tbB{i}",
                       "--max-runtime-s", str(self.max_lifetime_s)]
                for tag_, d, sd in (("ab", f, 2 * (self.seed * 64 + i) + 1), ("ba", b, 2 * (self.seed * 64 + i) + 2)):
                    cmd += [f"--rate-{tag_}", repr(float(d.rate_bps)), f"--delay-{tag_}-ns", str(int(round(d.delay_s * 1e9))),
                            f"--queue-{tag_}-pkts", str(d.queue_packets or 0), f"--queue-{tag_}-bytes", str(d.queue_bytes or 0),
                            f"--loss-{tag_}", repr(float(d.loss)), f"--seed-{tag_}", str(sd)]
                    if d.rate_schedule_bps is not None:
                        cmd += [f"--sched-{tag_}", ",".join(repr(float(r)) for r in d.rate_schedule_bps),
                                f"--sched-interval-{tag_}-ns", str(int(round(d.schedule_interval_s * 1e9)))]
                pr = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                      start_new_session=True)
                self._lines.append(pr)
                line = _readline_timeout(pr, 5)
                if not line.startswith("READY"):
                    raise RuntimeError(f"delay line {i} did not start: {line!r} {pr.stderr.read() if pr.poll() is not None else ''}")
                self.delayline_flags = line.split()[1:]
            n = len(self.paths)
            cmds_a, cmds_b = ["link set lo up"], ["link set lo up"]
            for i in range(n):
                cmds_a += [f"link set tbA{i} up mtu {MTU_BYTES}",
                           f"addr add {self.addr_a(i)} peer {self.addr_b(i)}/32 dev tbA{i}",
                           f"rule add from {self.addr_a(i)} table {100 + i} pref {1000 + i}",
                           f"route add default dev tbA{i} table {100 + i}"]
                cmds_b += [f"link set tbB{i} up mtu {MTU_BYTES}",
                           f"addr add {self.addr_b(i)} peer {self.addr_a(i)}/32 dev tbB{i}"]
            if self.mptcp:
                cmds_a += [f"mptcp limits set subflow {n} add_addr_accepted {n}"]
                cmds_a += [f"mptcp endpoint add {self.addr_a(i)} dev tbA{i} subflow" for i in range(1, n)]
                cmds_b += [f"mptcp limits set subflow {n} add_addr_accepted {n}"]
            _run(["ip", "-n", self.ns_a, "-batch", "-"], input="\n".join(cmds_a) + "\n")
            _run(["ip", "-n", self.ns_b, "-batch", "-"], input="\n".join(cmds_b) + "\n")
        except BaseException:
            self.close()
            raise
        return self

    def _exec(self, ns, args, **kw):
        env = {**os.environ, "PYTHONPATH": str(_LIB_DIR) + os.pathsep + os.environ.get("PYTHONPATH", "")}
        pr = subprocess.Popen(["ip", "netns", "exec", ns, sys.executable, "-m", "cmtlab.testbed._endpoint", *args],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                              start_new_session=True, **kw)
        self._procs.append(pr)
        return pr

    def ping(self, path_index: int = 0, count: int = 20, interval_s: float = 0.05, size_bytes: int = 56) -> np.ndarray:
        """ICMP echo round-trip times (s) over path ``path_index`` (raw socket; the kernel in B answers)."""
        if not 0 <= path_index < len(self.paths):
            raise ValueError(f"path_index must be in 0..{len(self.paths) - 1}, got {path_index!r}")
        if not 1 <= count <= 10000:
            raise ValueError(f"count must be in 1..10000, got {count!r}")
        pr = self._exec(self.ns_a, ["ping", "--src", self.addr_a(path_index), "--dst", self.addr_b(path_index),
                                    "--count", str(count), "--interval-s", str(interval_s), "--size", str(size_bytes)])
        out, err = _communicate(pr, timeout=count * (interval_s + 3) + 10)
        return np.array(json.loads(out.strip().splitlines()[-1])["rtts_s"])

    def transfer(self, *, transfer_bytes: int | None = None, duration_s: float | None = None,
                 warmup_s: float = 0.0, timeout_s: float = 120.0, ss_interval_s: float = 0.0,
                 sample_bin_s: float = 0.1) -> "TestbedResult":
        """One bulk transfer A->B: ``transfer_bytes`` (completion time measured) or ``duration_s``
        (goodput over [warmup_s, duration_s] after the first byte is sent)."""
        if (transfer_bytes is None) == (duration_s is None):
            raise ValueError("give exactly one of transfer_bytes or duration_s")
        if transfer_bytes is not None and not (isinstance(transfer_bytes, int) and 1 <= transfer_bytes <= 1 << 34):
            raise ValueError(f"transfer_bytes must be an int in 1..2**34, got {transfer_bytes!r}")
        if duration_s is not None:
            _check_pos("duration_s", duration_s)
            if duration_s > 600:
                raise ValueError(f"duration_s must be <= 600 s, got {duration_s!r}")
            if not 0 <= warmup_s < duration_s:
                raise ValueError(f"warmup_s must be in [0, duration_s), got {warmup_s!r}")
        _check_pos("timeout_s", timeout_s)
        s = self.settings
        t_wall = time.monotonic()
        recv_args = ["recv", "--addr", "0.0.0.0", "--port", str(PORT), "--timeout-s", str(timeout_s)]
        send_args = ["send", "--src", self.addr_a(0), "--dst", self.addr_b(0), "--port", str(PORT),
                     "--congestion", s.congestion, "--timeout-s", str(timeout_s),
                     "--ss-interval-s", str(ss_interval_s)]
        if self.mptcp:
            recv_args.append("--mptcp")
            send_args.append("--mptcp")
        if s.rcvbuf_bytes:
            recv_args += ["--rcvbuf", str(s.rcvbuf_bytes)]
        if s.sndbuf_bytes:
            send_args += ["--sndbuf", str(s.sndbuf_bytes)]
        send_args += ["--bytes", str(transfer_bytes)] if transfer_bytes else ["--duration-s", str(duration_s)]
        rv = self._exec(self.ns_b, recv_args)
        line = _readline_timeout(rv, 15)
        if line.strip() != "READY":
            raise RuntimeError(f"receiver did not start: {line!r} {_drain_err(rv)}")
        sd = self._exec(self.ns_a, send_args)
        bound = timeout_s + (duration_s or 0) + 10
        out_s, err_s = _communicate(sd, timeout=bound)
        if duration_s is not None and sd.returncode == 0:
            # The sender closes abortively; its reset can be dropped by a full drop-tail queue, and
            # the receiver would then wait for its timeout.  Give the data in flight (one queue
            # plus one round trip on the slowest path) time to arrive, then stop the receiver.
            grace = 1.0 + max(p.rtt_s + (p.forward.queue_packets or 100) * MTU_BYTES * 8 / p.forward.rate_bps
                              for p in self.paths)
            try:
                rv.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(rv.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
        out_r, err_r = _communicate(rv, timeout=bound)
        if sd.returncode != 0 or not out_s.strip():
            raise RuntimeError(f"sender failed (exit {sd.returncode}): {err_s.strip()[-800:]}")
        if rv.returncode != 0 or not out_r.strip():
            raise RuntimeError(f"receiver failed (exit {rv.returncode}): {err_r.strip()[-800:]}")
        snd = json.loads(out_s.strip().splitlines()[-1])
        rcv = json.loads(out_r.strip().splitlines()[-1])
        return TestbedResult._build(self, snd, rcv, transfer_bytes, duration_s, warmup_s, sample_bin_s,
                                    time.monotonic() - t_wall)

    def read_counters(self) -> list[dict]:
        """Per path and direction: packets/bytes forwarded, queue and random drops.  Stops the delay
        lines (they print their counters on SIGTERM), so call it last; :meth:`close` calls it."""
        if self.counters is not None:
            return self.counters
        res = []
        for pr in self._lines:
            if pr.poll() is None:
                pr.send_signal(signal.SIGTERM)
            try:
                out, _ = pr.communicate(timeout=5)
            except subprocess.TimeoutExpired:
                pr.kill()
                out, _ = pr.communicate()
            js = [ln for ln in (out or "").splitlines() if ln.startswith("{")]
            res.append(json.loads(js[-1]) if js else {})
        self.counters = res
        return res

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        for pr in self._procs:
            if pr.poll() is None:
                try:
                    os.killpg(pr.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                pr.wait(timeout=5)
        try:
            self.read_counters()
        except Exception:  # noqa: BLE001  (cleanup must go on)
            for pr in self._lines:
                if pr.poll() is None:
                    pr.kill()
        for ns in reversed(self._created):
            _run(["ip", "netns", "del", ns], check=False)
        with _LIVE_LOCK:
            _LIVE.discard(self)
        if getattr(self, "_old_term", None) is not None and threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, self._old_term)


def _readline_timeout(pr: subprocess.Popen, timeout: float) -> str:
    box = []
    th = threading.Thread(target=lambda: box.append(pr.stdout.readline()), daemon=True)
    th.start()
    th.join(timeout)
    if not box:
        raise RuntimeError(f"{pr.args[0]} gave no output within {timeout} s")
    return box[0]


def _drain_err(pr):
    try:
        pr.kill()
        return pr.communicate(timeout=2)[1][-800:]
    except Exception:  # noqa: BLE001
        return ""


def _communicate(pr, timeout):
    try:
        return pr.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(pr.pid, signal.SIGKILL)
        out, err = pr.communicate()
        raise RuntimeError(f"{' '.join(map(str, pr.args[-12:]))} did not finish within {timeout:.0f} s (killed)")


# ---------------------------------------------------------------- results
_SS_RE = {k: re.compile(rx) for k, rx in {
    "rtt_ms": r"\brtt:([\d.]+)/", "cwnd": r"\bcwnd:(\d+)", "ssthresh": r"\bssthresh:(\d+)",
    "bytes_acked": r"\bbytes_acked:(\d+)", "retrans_total": r"\bretrans:\d+/(\d+)",
    "lost": r"\blost:(\d+)", "reordering": r"\breordering:(\d+)", "sndbuf_limited_ms": r"sndbuf_limited:(\d+)ms",
    "rwnd_limited_ms": r"rwnd_limited:(\d+)ms", "busy_ms": r"busy:(\d+)ms", "dsack_dups": r"dsack_dups:(\d+)",
    "mss": r"\bmss:(\d+)", "cc": r"^\s*(?:ts\s+)?(?:sack\s+)?(?:ecn\s+)?(\w+)\s+wscale"}.items()}


def parse_ss(text: str, local_addrs: list[str]) -> dict[int, dict]:
    """Per-subflow state from ``ss -tinH`` (one TCP socket per subflow; keyed by path index)."""
    out: dict[int, dict] = {}
    lines = text.splitlines()
    for j, ln in enumerate(lines):
        parts = ln.split()
        if len(parts) < 5 or parts[0] not in ("ESTAB", "FIN-WAIT-1", "FIN-WAIT-2", "CLOSE-WAIT", "LAST-ACK"):
            continue
        local = parts[3].rsplit(":", 1)[0].split("%")[0]
        if local not in local_addrs or parts[3].endswith(f":{PORT}"):
            continue
        info = lines[j + 1] if j + 1 < len(lines) else ""
        d = {"send_q_bytes": int(parts[2])}
        for k, rx in _SS_RE.items():
            m = rx.search(info)
            if m:
                d[k] = m.group(1) if k == "cc" else float(m.group(1))
        out[local_addrs.index(local)] = d
    return out


@dataclass
class TestbedResult:
    """One emulated transfer; :meth:`to_row` gives the tidy row (like ``TransferResult.to_row``)."""

    paths: list
    settings: KernelSettings
    mptcp: bool
    transfer_bytes: int | None
    duration_s: float | None
    completed: bool
    completion_time_s: float
    throughput_bps: float
    received_bytes: int
    goodput: pd.DataFrame  # t_s, goodput_bps per bin
    counters: list = field(default_factory=list)
    subflows: dict = field(default_factory=dict)
    ss_snapshots: list = field(default_factory=list)
    congestion_used: str = ""
    wall_time_s: float = 0.0
    info: dict = field(default_factory=dict)

    @classmethod
    def _build(cls, tb: Testbed, snd, rcv, transfer_bytes, duration_s, warmup_s, bin_s, wall):
        t0 = snd["t_start"]
        samples = np.array(rcv["samples"] or [[t0, 0]], dtype=float)
        ts, cum = samples[:, 0] - t0, samples[:, 1]

        def at(t):
            return float(np.interp(t, ts, cum, left=0.0))
        if transfer_bytes:
            completed = rcv["bytes"] >= transfer_bytes and rcv["t_last"] is not None
            ct = (rcv["t_last"] - t0) if completed else float("nan")
            thr = transfer_bytes * 8 / ct if completed else float("nan")
            horizon = ts[-1]
        else:
            completed = ts[-1] >= duration_s - 0.05 or rcv["bytes"] > 0
            ct = duration_s
            thr = (at(duration_s) - at(warmup_s)) * 8 / (duration_s - warmup_s)
            horizon = duration_s
        edges = np.arange(0, horizon + bin_s, bin_s)
        cums = np.array([at(e) for e in edges])
        gp = pd.DataFrame({"t_s": edges[1:], "goodput_bps": np.diff(cums) * 8 / bin_s})
        addrs = [tb.addr_a(i) for i in range(len(tb.paths))]
        last_ss = snd["ss"][-1][1] if snd["ss"] else ""
        return cls(paths=tb.paths, settings=tb.settings, mptcp=tb.mptcp, transfer_bytes=transfer_bytes,
                   duration_s=duration_s, completed=bool(completed), completion_time_s=ct, throughput_bps=thr,
                   received_bytes=int(rcv["bytes"]), goodput=gp, subflows=parse_ss(last_ss, addrs),
                   ss_snapshots=snd["ss"], congestion_used=snd["congestion"], wall_time_s=wall,
                   info={**kernel_info(), "delayline": " ".join(getattr(tb, "delayline_flags", []))})

    def attach_counters(self, counters: list[dict]) -> "TestbedResult":
        self.counters = counters
        return self

    def to_row(self) -> dict:
        row = {"simulator": "linux-mptcp" if self.mptcp else "linux-tcp", "n_paths": len(self.paths),
               "transfer_bytes": self.transfer_bytes, "duration_s": self.duration_s, "completed": self.completed,
               "completion_time_s": self.completion_time_s, "throughput_bps": self.throughput_bps,
               "received_bytes": self.received_bytes, "congestion_used": self.congestion_used,
               "wall_time_s": self.wall_time_s}
        for i, p in enumerate(self.paths):
            row[f"path{i}_rate_bps"] = p.forward.rate_bps
            row[f"path{i}_delay_s"] = p.forward.delay_s
            row[f"path{i}_rtt_s"] = p.rtt_s
            row[f"path{i}_queue_packets"] = p.forward.queue_packets
            row[f"path{i}_loss"] = p.forward.loss
            c = self.counters[i] if i < len(self.counters) else {}
            ab, ba = c.get("ab", {}), c.get("ba", {})
            row[f"sub{i}_bytes"] = ab.get("forwarded_bytes")
            row[f"sub{i}_packets"] = ab.get("forwarded_packets")
            row[f"sub{i}_queue_drops"] = ab.get("queue_drops")
            row[f"sub{i}_random_drops"] = ab.get("random_drops")
            row[f"sub{i}_ack_packets"] = ba.get("forwarded_packets")
            if i in self.subflows:  # ss prints these counters only when they are non-zero
                for k in ("retrans_total", "lost", "dsack_dups", "sndbuf_limited_ms", "rwnd_limited_ms"):
                    row[f"sub{i}_{k}"] = 0.0
            for k, v in self.subflows.get(i, {}).items():
                row[f"sub{i}_{k}"] = v
        row.update(self.settings.to_row())
        row.update({k: v for k, v in self.info.items() if v is not None})
        return row


def expected_ping_rtt_s(p: EmulatedPath, size_bytes: int = 56) -> float:
    """Round trip of one ICMP echo with ``size_bytes`` of payload on an idle path: both one-way
    delays plus the serialisation of the IP packet (20 + 8 + size bytes) in each direction."""
    ip_bytes = 28 + size_bytes
    return p.rtt_s + ip_bytes * 8 / p.forward.rate_bps + ip_bytes * 8 / p.back.rate_bps


def tcp_goodput_bps(rate_bps: float, *, timestamps: bool = True, mtu_bytes: int = MTU_BYTES) -> float:
    """The largest TCP goodput over a path of IP rate ``rate_bps``: the payload share of a full
    packet (1448/1500 with the RFC 7323 timestamp option, 1460/1500 without)."""
    header = IP_TCP_HEADER_BYTES + (12 if timestamps else 0)
    return rate_bps * (mtu_bytes - header) / mtu_bytes


def run_transfer(paths, settings: KernelSettings | None = None, *, mptcp: bool = True,
                 transfer_bytes: int | None = None, duration_s: float | None = None, warmup_s: float = 0.0,
                 timeout_s: float = 120.0, seed: int = 0, ss_interval_s: float = 0.0) -> TestbedResult:
    """Set up the namespaces and paths, run one transfer, read the delay-line counters, tear down."""
    with Testbed(paths, settings, mptcp=mptcp, seed=seed,
                 max_lifetime_s=timeout_s + (duration_s or 0) + 60) as tb:
        r = tb.transfer(transfer_bytes=transfer_bytes, duration_s=duration_s, warmup_s=warmup_s,
                        timeout_s=timeout_s, ss_interval_s=ss_interval_s)
        return r.attach_counters(tb.read_counters())


def ping(p: EmulatedPath, count: int = 20, interval_s: float = 0.05) -> np.ndarray:
    """Round-trip times (s) of ICMP echoes over one emulated path (no competing traffic)."""
    with Testbed([p], mptcp=False, max_lifetime_s=count * (interval_s + 3) + 60) as tb:
        return tb.ping(0, count=count, interval_s=interval_s)
