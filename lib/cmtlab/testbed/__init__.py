"""The real Linux TCP/MPTCP stack over emulated paths: two network namespaces, *n* paths.

This is the book's multipath reference: the kernel's MPTCP (in-kernel path manager,
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
error, on SIGINT/SIGTERM and at interpreter exit.  Whatever kills a run (SIGKILL included), its
delay lines and endpoints die with it (PR_SET_PDEATHSIG and a check of the owner's PID; the
delay lines also bound their own run time), but its two namespaces stay until the next run removes
them when it starts, or ``python -m cmtlab.testbed --cleanup`` does at once (:func:`cleanup_stale`:
``cmtlab-<pid>-*`` namespaces whose creating process is gone, with every process still inside them).
Namespaces of live runs are never touched.

Truthful rows: every kernel setting asked for (:class:`KernelSettings`) is applied and read back
from the namespaces, or the run fails at once naming it; the congestion control recorded is the
one the kernel runs on the subflows (``ss``), the MPTCP scheduler the one of the namespace.  The
first failure of either endpoint is the one reported; a transfer that cannot complete (no
connection, no progress within ``timeout_s``) returns a result with ``completed=False`` and the
reason.
"""

from __future__ import annotations

import atexit
import dataclasses
import json
import math
import numbers
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

from .._paths import REPO
from .._validate import check_bool, check_int, check_real

__all__ = ["Direction", "EmulatedPath", "KernelSettings", "TestbedResult", "Testbed",
           "path", "run_transfer", "ping", "expected_ping_rtt_s", "tcp_goodput_bps", "check_environment", "build_delayline",
           "cleanup_stale", "kernel_info"]

_HERE = Path(__file__).resolve().parent
_SRC = _HERE / "delayline.c"
_BIN_DIR = _HERE / "bin"
_LIB_DIR = REPO / "lib"
NS_PREFIX = "cmtlab-"
MAX_PATHS = 8
PORT = 5201
#: IPv4 + TCP headers with the timestamp option (bytes): TCP payload per 1500-byte packet is
#: 1500 - 52 = 1448 with timestamps, 1460 without.
IP_TCP_HEADER_BYTES = 40
MTU_BYTES = 1500


# ---------------------------------------------------------------- configuration
#: Largest ``timeout_s`` (s): no progress for this long means the transfer cannot complete.
MAX_TIMEOUT_S = 3600.0
#: Largest ``duration_s`` of one transfer (s).
MAX_DURATION_S = 600.0
#: Largest lifetime of a testbed's delay lines (s).
MAX_LIFETIME_S = 86400.0
#: Largest ``transfer_bytes`` (16 GiB).
MAX_TRANSFER_BYTES = 1 << 34


@dataclass(frozen=True)
class Direction:
    """One direction of an emulated path.

    ``rate_bps`` bottleneck rate (IP bytes; 0 < rate <= 1e9), ``delay_s`` one-way propagation
    delay (0 <= delay <= 5 s), ``queue_packets``/``queue_bytes`` drop-tail limit on the packets
    not yet serialised (None = no limit of that kind; at least one must be set), ``loss``
    random drop probability at arrival, in [0, 1).  ``rate_schedule_bps``: None (constant
    ``rate_bps``) or one rate per ``schedule_interval_s``, replayed (repeating) from the moment the
    delay line is ready — the same schedule :class:`cmtlab.sim.net.trace_link.RateTraceLink` replays; the line
    then measures its replay (counters ``interval_bytes``, ``interval_idle_s`` per interval, ``t0_s``: see
    ``delayline.c`` and :func:`cmtlab.today.kernel.replay_check_testbed`).
    ``jitter_s``: per-packet delay variation, each packet's one-way delay plus a uniform draw in
    ``[0, jitter_s)`` (0 <= jitter <= 1 s; packets overtake each other: reordering) — what
    :class:`cmtlab.sim.net.jitter.JitterLink` does.
    """

    rate_bps: float
    delay_s: float
    queue_packets: int | None = 100
    queue_bytes: int | None = None
    loss: float = 0.0
    rate_schedule_bps: tuple | None = None
    schedule_interval_s: float = 1.0
    jitter_s: float = 0.0

    def __post_init__(self):
        # numpy scalars are accepted and stored as Python numbers (rows, JSON, command lines)
        set_ = object.__setattr__.__get__(self)
        set_("rate_bps", check_real("rate_bps", self.rate_bps, low=0, low_open=True, high=1e9))
        set_("delay_s", check_real("delay_s (one-way)", self.delay_s, low=0, high=5))
        set_("jitter_s", check_real("jitter_s", self.jitter_s, low=0, high=1))
        if self.rate_schedule_bps is not None:
            sch = self.rate_schedule_bps
            if not isinstance(sch, tuple) or not sch or any(
                    isinstance(r, (bool, np.bool_)) or not isinstance(r, numbers.Real) or not math.isfinite(r)
                    or not 0 <= r <= 1e9 for r in sch) or max(sch) <= 0:
                raise ValueError(f"rate_schedule_bps must be None or a non-empty tuple of rates in [0, 1e9] bit/s "
                                 f"with one > 0, got {sch!r}")
            set_("rate_schedule_bps", tuple(float(r) for r in sch))
            set_("schedule_interval_s", check_real("schedule_interval_s", self.schedule_interval_s, low=0, low_open=True))
        if self.queue_packets is None and self.queue_bytes is None:
            raise ValueError("queue_packets or queue_bytes must be set (drop-tail queue limit)")
        if self.queue_packets is not None:
            set_("queue_packets", check_int("queue_packets", self.queue_packets, minimum=1, maximum=10**7))
        if self.queue_bytes is not None:
            set_("queue_bytes", check_int("queue_bytes", self.queue_bytes, minimum=MTU_BYTES, maximum=1 << 34))
        if isinstance(self.loss, (bool, np.bool_)) or not isinstance(self.loss, numbers.Real) \
                or not 0 <= self.loss < 1:
            raise ValueError(f"loss must be a probability in [0, 1), got {self.loss!r}")
        set_("loss", float(self.loss))


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
        return dataclasses.replace(self.forward, loss=0.0, rate_schedule_bps=None, jitter_s=0.0)

    @property
    def rtt_s(self) -> float:
        """Round-trip propagation delay (no serialisation, no queueing)."""
        return self.forward.delay_s + self.back.delay_s


def path(rate_bps: float, delay_s: float, *, queue_packets: int | None = None, queue_bytes=None,
         loss: float = 0.0, reverse_loss: float = 0.0, jitter_s: float = 0.0) -> EmulatedPath:
    """A symmetric path: same rate and one-way delay both ways.  The default queue is one
    bandwidth-delay product of 1500-byte packets (at least 20), so one Reno flow fills it.
    ``jitter_s``: per-packet delay variation of the data direction (see :class:`Direction`)."""
    check_real("rate_bps", rate_bps, low=0, low_open=True)
    check_real("delay_s", delay_s, low=0)
    if queue_packets is None and queue_bytes is None:
        queue_packets = max(20, int(math.ceil(rate_bps * 2 * delay_s / 8 / MTU_BYTES)))
    fwd = Direction(rate_bps, delay_s, queue_packets, queue_bytes, loss, jitter_s=jitter_s)
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
    ``ecn``: ``net.ipv4.tcp_ecn`` (0 off, 1 on, 2 only when the peer asks).
    ``mptcp_scheduler``: None = the namespace's default, else a name of
    ``net.mptcp.available_schedulers`` set as ``net.mptcp.scheduler`` in both namespaces.
    Every setting is applied and read back by :class:`Testbed`, or the run fails naming it.
    Numpy scalars are accepted; a string where a bool or an integer is expected is refused.
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
        set_ = object.__setattr__.__get__(self)
        if not isinstance(self.congestion, str) or not re.fullmatch(r"[a-z0-9_]{1,15}", self.congestion):
            raise ValueError(f"congestion must be a kernel algorithm name like 'reno' or 'cubic', got {self.congestion!r}")
        for name in ("sack", "dsack", "timestamps", "no_metrics_save"):
            set_(name, check_bool(name, getattr(self, name)))
        set_("frto", check_int("frto", self.frto, minimum=0, maximum=2))
        set_("recovery", check_int("recovery (tcp_recovery bits)", self.recovery, minimum=0, maximum=7))
        set_("reordering", check_int("reordering", self.reordering, minimum=1, maximum=300))
        set_("ecn", check_int("ecn (net.ipv4.tcp_ecn)", self.ecn, minimum=0, maximum=2))
        for name in ("sndbuf_bytes", "rcvbuf_bytes"):
            v = getattr(self, name)
            if v is not None:
                set_(name, check_int(f"{name} (None: autotuned)", v, minimum=4096, maximum=1 << 30))
        if self.mptcp_scheduler is not None and (not isinstance(self.mptcp_scheduler, str)
                                                 or not re.fullmatch(r"[a-z0-9_]{1,15}", self.mptcp_scheduler)):
            raise ValueError(f"mptcp_scheduler must be None (the kernel's default) or a scheduler name like "
                             f"'default', got {self.mptcp_scheduler!r}")

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


def _start_time(pid: int) -> tuple[str, float] | None:
    """(state, start time in seconds since the epoch) of a process, None when it does not exist."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        btime = next(float(ln.split()[1]) for ln in Path("/proc/stat").read_text().splitlines()
                     if ln.startswith("btime "))
    except (OSError, StopIteration, ValueError):
        return None
    fields = stat.rsplit(")", 1)[1].split()
    return fields[0], btime + int(fields[19]) / os.sysconf("SC_CLK_TCK")


def _pid_alive(pid: int, born_after: float | None = None) -> bool:
    """Whether the run owner ``pid`` still lives: not if it is gone or a zombie (killed, not yet
    reaped), nor if the PID now belongs to a process started after ``born_after`` (the owner's
    namespace or child was created then, so the owner is older: the PID was reused)."""
    st = _start_time(pid)
    if st is None or st[0] in ("Z", "X", "x"):
        return False
    return born_after is None or st[1] <= born_after + 1.0


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _stale_run_processes() -> list[int]:
    """PIDs of endpoints (``--owner-pid N``) and delay lines (``/run/netns/cmtlab-N-...``) whose
    owner N is dead.  Processes of live runs are never listed."""
    out = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            argv = [a.decode(errors="replace") for a in (d / "cmdline").read_bytes().split(b"\0")]
        except OSError:
            continue
        owner = None
        if "cmtlab.testbed._endpoint" in argv and "--owner-pid" in argv[:-1]:
            owner = argv[argv.index("--owner-pid") + 1]
        else:
            for a in argv:
                m = re.fullmatch(rf"/run/netns/{NS_PREFIX}(\d+)-[0-9a-f]+-[ab]", a)
                if m:
                    owner = m.group(1)
                    break
        if owner and owner.isdigit() and int(owner) > 0:
            me = _start_time(int(d.name))
            if me is not None and not _pid_alive(int(owner), born_after=me[1]):
                out.append(int(d.name))
    return out


def cleanup_stale() -> list[str]:
    """Remove what runs whose harness died left behind (a run that was SIGKILLed cannot clean up):
    every ``cmtlab-<pid>-<hex>-a/b`` namespace whose creating process ``<pid>`` no longer exists
    (gone, a zombie, or its PID reused by a process younger than the namespace), after killing every process still inside it (``ip netns pids``), and every endpoint or delay
    line whose owner is dead.  Namespaces and processes of live runs (another PID, alive) are
    never touched.  Called by :meth:`Testbed.open`, so the next run cleans up after a killed one.
    Returns the names of the namespaces removed."""
    removed = []
    p = _run(["ip", "netns", "list"], check=False)
    for line in p.stdout.splitlines():
        name = line.split()[0] if line.split() else ""
        m = re.fullmatch(rf"{NS_PREFIX}(\d+)-[0-9a-f]+-[ab]", name)
        try:
            created = os.stat(f"/run/netns/{name}").st_ctime   # nsfs: when the namespace was made
        except OSError:
            created = None
        if m and not _pid_alive(int(m.group(1)), born_after=created):
            pids = _run(["ip", "netns", "pids", name], check=False).stdout.split()
            for pid in pids:
                if pid.isdigit():
                    _kill(int(pid))
            _run(["ip", "netns", "del", name], check=False)
            removed.append(name)
    for pid in _stale_run_processes():
        _kill(pid)
    return removed


def _available_congestion() -> list[str]:
    try:
        return Path("/proc/sys/net/ipv4/tcp_available_congestion_control").read_text().split()
    except OSError:
        return []


def _check_congestion_available(name: str) -> None:
    """ValueError naming ``congestion`` when the kernel has no such algorithm (a module that can
    be loaded is loaded first: setting it on a socket asks the kernel to)."""
    if name in _available_congestion():
        return
    import socket
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as so:
            so.setsockopt(socket.IPPROTO_TCP, getattr(socket, "TCP_CONGESTION", 13), name.encode())
    except OSError:
        pass
    if name not in _available_congestion():
        raise ValueError(f"congestion {name!r} is not available in this kernel (available: "
                         f"{' '.join(_available_congestion())}; with MPTCP the subflows would silently run the default)")


def _check_scheduler_available(name: str | None, mptcp: bool) -> None:
    if name is None:
        return
    if not mptcp:
        raise ValueError(f"mptcp_scheduler={name!r} needs mptcp=True (single-path TCP has no MPTCP scheduler)")
    avail = (kernel_info().get("mptcp_available_schedulers") or "").split()
    if name not in avail:
        raise ValueError(f"mptcp_scheduler {name!r} is not available in this kernel "
                         f"(net.mptcp.available_schedulers: {' '.join(avail) or 'none'})")


#: Which :class:`KernelSettings` field a sysctl comes from (errors name the field).
SYSCTL_FIELDS = {"net.ipv4.tcp_sack": "sack", "net.ipv4.tcp_dsack": "dsack", "net.ipv4.tcp_timestamps": "timestamps",
                 "net.ipv4.tcp_frto": "frto", "net.ipv4.tcp_recovery": "recovery",
                 "net.ipv4.tcp_reordering": "reordering", "net.ipv4.tcp_no_metrics_save": "no_metrics_save",
                 "net.ipv4.tcp_ecn": "ecn", "net.mptcp.scheduler": "mptcp_scheduler"}


def check_transfer_arguments(*, transfer_bytes=None, duration_s=None, warmup_s=0.0, timeout_s=120.0,
                             ss_interval_s=0.0, sample_bin_s=0.1) -> dict:
    """Validate the arguments of one transfer (errors name the argument and its range); returns
    them as Python numbers.  ``timeout_s`` is how long an endpoint waits for a connection or for
    progress before the transfer is declared incomplete (0 < timeout_s <= 3600)."""
    if (transfer_bytes is None) == (duration_s is None):
        raise ValueError("give exactly one of transfer_bytes or duration_s")
    out = dict(transfer_bytes=None, duration_s=None)
    if transfer_bytes is not None:
        out["transfer_bytes"] = check_int("transfer_bytes", transfer_bytes, minimum=1, maximum=MAX_TRANSFER_BYTES)
    if duration_s is not None:
        out["duration_s"] = check_real("duration_s", duration_s, low=0, low_open=True, high=MAX_DURATION_S)
        w = check_real("warmup_s", warmup_s, low=0)
        if not w < out["duration_s"]:
            raise ValueError(f"warmup_s must be in [0, duration_s), got {warmup_s!r}")
        out["warmup_s"] = w
    else:
        out["warmup_s"] = check_real("warmup_s", warmup_s, low=0, high=0)
    out["timeout_s"] = check_real("timeout_s", timeout_s, low=0, low_open=True, high=MAX_TIMEOUT_S)
    out["ss_interval_s"] = check_real("ss_interval_s", ss_interval_s, low=0, high=60)
    out["sample_bin_s"] = check_real("sample_bin_s", sample_bin_s, low=0, low_open=True, high=60)
    return out


def transfer_lifetime_s(duration_s: float | None, timeout_s: float) -> float:
    """How long the delay lines of one transfer must live: connection, the run, the drain."""
    return timeout_s + (duration_s or 0.0) + 60.0


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
    r = tb.transfer(duration_s=5)``.  ``max_lifetime_s`` bounds the delay lines' life
    (0 < max_lifetime_s <= 86400 s).  ``seed`` (0..2**31-1) seeds the delay lines' random drops.
    ``mptcp=False``: single-path TCP, so :meth:`transfer` needs exactly one path.
    """

    def __init__(self, paths, settings: KernelSettings | None = None, *, mptcp: bool = True,
                 seed: int = 0, max_lifetime_s: float = 900):
        paths = list(paths)
        if not 1 <= len(paths) <= MAX_PATHS:
            raise ValueError(f"paths must hold 1..{MAX_PATHS} EmulatedPath, got {len(paths)}")
        for i, p in enumerate(paths):
            if not isinstance(p, EmulatedPath):
                raise ValueError(f"paths[{i}] must be an EmulatedPath (see cmtlab.testbed.path), got {type(p).__name__}")
        if settings is not None and not isinstance(settings, KernelSettings):
            raise ValueError(f"settings must be a KernelSettings or None, got {settings!r}")
        self.paths = paths
        self.settings = settings or KernelSettings()
        self.mptcp = check_bool("mptcp", mptcp)
        self.seed = check_int("seed", seed, minimum=0, maximum=2**31 - 1)
        self.max_lifetime_s = check_real("max_lifetime_s", max_lifetime_s, low=0, low_open=True, high=MAX_LIFETIME_S)
        self.applied: dict[str, str] = {}
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
        _check_congestion_available(self.settings.congestion)
        _check_scheduler_available(self.settings.mptcp_scheduler, self.mptcp)
        exe = build_delayline()
        cleanup_stale()  # what runs killed before their cleanup (SIGKILL) left behind
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
            self._apply_sysctls()
            for i, p in enumerate(self.paths):
                f, b = p.forward, p.back
                cmd = [str(exe), "--ns-a", f"/run/netns/{self.ns_a}", "--dev-a", f"tbA{i}",
                       "--ns-b", f"/run/netns/{self.ns_b}", "--dev-b", f"tbB{i}",
                       "--max-runtime-s", repr(self.max_lifetime_s), "--owner-pid", str(os.getpid())]
                for tag_, d, sd in (("ab", f, 2 * (self.seed * 64 + i) + 1), ("ba", b, 2 * (self.seed * 64 + i) + 2)):
                    cmd += [f"--rate-{tag_}", repr(float(d.rate_bps)), f"--delay-{tag_}-ns", str(int(round(d.delay_s * 1e9))),
                            f"--queue-{tag_}-pkts", str(d.queue_packets or 0), f"--queue-{tag_}-bytes", str(d.queue_bytes or 0),
                            f"--loss-{tag_}", repr(float(d.loss)), f"--seed-{tag_}", str(sd)]
                    if d.rate_schedule_bps is not None:
                        cmd += [f"--sched-{tag_}", ",".join(repr(float(r)) for r in d.rate_schedule_bps),
                                f"--sched-interval-{tag_}-ns", str(int(round(d.schedule_interval_s * 1e9)))]
                    if d.jitter_s > 0:
                        cmd += [f"--jitter-{tag_}-ns", str(int(round(d.jitter_s * 1e9)))]
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

    def _apply_sysctls(self) -> None:
        """Set the settings' sysctls in both namespaces and read them back: a value the kernel
        refuses or does not keep fails the run naming the :class:`KernelSettings` field."""
        s = self.settings
        want = {**s.sysctls(), "net.ipv4.conf.all.rp_filter": "0", "net.ipv4.conf.default.rp_filter": "0",
                "net.mptcp.enabled": "1" if self.mptcp else "0"}
        if self.mptcp and s.mptcp_scheduler is not None:
            want["net.mptcp.scheduler"] = s.mptcp_scheduler
        if Path("/proc/sys/net/ipv6").exists():
            # no IPv6 on the TUN devices: its link-local chatter (MLD, DAD) would reach a peer
            # device that is not up yet and count as a delay-line write error
            want.update({"net.ipv6.conf.all.disable_ipv6": "1", "net.ipv6.conf.default.disable_ipv6": "1"})
        for ns in (self.ns_a, self.ns_b):
            for k, v in want.items():
                p = _run(["ip", "netns", "exec", ns, "sysctl", "-q", "-w", f"{k}={v}"], check=False)
                if p.returncode != 0:
                    raise RuntimeError(f"KernelSettings.{SYSCTL_FIELDS.get(k, k)}: the kernel refused {k}={v} "
                                       f"({p.stderr.strip()[:200]})")
            keys = list(want) + ([] if "net.mptcp.scheduler" in want or not self.mptcp else ["net.mptcp.scheduler"])
            got = _run(["ip", "netns", "exec", ns, "sysctl", "-n", *keys]).stdout.split("\n")
            got = dict(zip(keys, (g.strip() for g in got)))
            for k, v in want.items():
                if " ".join(got.get(k, "").split()) != v:
                    raise RuntimeError(f"KernelSettings.{SYSCTL_FIELDS.get(k, k)}: asked {k}={v}, the kernel "
                                       f"keeps {got.get(k)!r}")
            if ns == self.ns_a:
                self.applied = {k: got[k] for k in keys}

    def _exec(self, ns, args, **kw):
        env = {**os.environ, "PYTHONPATH": str(_LIB_DIR) + os.pathsep + os.environ.get("PYTHONPATH", "")}
        args = [*args, "--owner-pid", str(os.getpid())]
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
        check_real("interval_s", interval_s, low=0, high=10)
        check_int("size_bytes", size_bytes, minimum=0, maximum=65000)
        pr = self._exec(self.ns_a, ["ping", "--src", self.addr_a(path_index), "--dst", self.addr_b(path_index),
                                    "--count", str(count), "--interval-s", str(interval_s), "--size", str(size_bytes)])
        out, err = _communicate(pr, timeout=count * (interval_s + 3) + 10)
        return np.array(json.loads(out.strip().splitlines()[-1])["rtts_s"])

    def transfer(self, *, transfer_bytes: int | None = None, duration_s: float | None = None,
                 warmup_s: float = 0.0, timeout_s: float = 120.0, ss_interval_s: float = 0.0,
                 sample_bin_s: float = 0.1) -> "TestbedResult":
        """One bulk transfer A->B: ``transfer_bytes`` (completion time measured; the whole transfer
        must end within ``timeout_s``) or ``duration_s`` (goodput over [warmup_s, duration_s] after
        the first byte is sent; the connection must open within ``timeout_s``).

        The first failure of either endpoint is the one reported, at once: a setting the kernel
        refused (RuntimeError naming it), or a transfer that cannot complete (no connection, no
        progress, a reset), which returns a result with ``completed=False`` and ``reason``."""
        a = check_transfer_arguments(transfer_bytes=transfer_bytes, duration_s=duration_s, warmup_s=warmup_s,
                                     timeout_s=timeout_s, ss_interval_s=ss_interval_s, sample_bin_s=sample_bin_s)
        transfer_bytes, duration_s, warmup_s, timeout_s = (a["transfer_bytes"], a["duration_s"], a["warmup_s"],
                                                           a["timeout_s"])
        if not self.mptcp and len(self.paths) > 1:
            raise ValueError(f"mptcp=False runs single-path TCP over paths[0]: give one path, got {len(self.paths)} "
                             "(the others would be recorded but never used)")
        need = transfer_lifetime_s(duration_s, timeout_s) - 50
        if need > self.max_lifetime_s:
            raise ValueError(f"timeout_s + duration_s = {need - 10:g} s outlives the delay lines "
                             f"(max_lifetime_s={self.max_lifetime_s:g} s)")
        s = self.settings
        t_wall = time.monotonic()
        recv_args = ["recv", "--addr", "0.0.0.0", "--port", str(PORT), "--timeout-s", repr(timeout_s)]
        send_args = ["send", "--src", self.addr_a(0), "--dst", self.addr_b(0), "--port", str(PORT),
                     "--congestion", s.congestion, "--timeout-s", repr(timeout_s),
                     "--ss-interval-s", repr(a["ss_interval_s"])]
        if self.mptcp:
            recv_args.append("--mptcp")
            send_args.append("--mptcp")
        if s.rcvbuf_bytes:
            recv_args += ["--rcvbuf", str(s.rcvbuf_bytes)]
        if s.sndbuf_bytes:
            send_args += ["--sndbuf", str(s.sndbuf_bytes)]
        send_args += ["--bytes", str(transfer_bytes)] if transfer_bytes else ["--duration-s", repr(duration_s)]
        rv = self._exec(self.ns_b, recv_args)
        line = _readline_timeout(rv, 15)
        if line.strip() != "READY":
            err = _endpoint_error(line) or _drain_err(rv)
            raise RuntimeError(f"receiver did not start: {err}")
        sd = self._exec(self.ns_a, send_args)
        readers = {pr: _Reader(pr) for pr in (sd, rv)}
        bound = timeout_s + (duration_s or 0) + 10
        deadline = time.monotonic() + bound
        reason = None
        # Wait for both endpoints at once: the first to fail is the one reported.
        while sd.poll() is None and time.monotonic() < deadline:
            if rv.poll() is not None and rv.returncode != 0:
                break
            time.sleep(0.02)
        if sd.poll() is None and rv.poll() is not None and rv.returncode != 0:
            _killpg(sd)
            out_r, err_r = readers[rv].result()
            e = _endpoint_error(out_r)
            if e and e.get("kind") == "network":
                reason = e["error"]
            else:
                raise RuntimeError(f"receiver failed (exit {rv.returncode}): {(e or {}).get('error') or err_r.strip()[-800:]}")
        elif sd.poll() is None:
            _killpg(sd)
            _killpg(rv)
            reason = f"the transfer did not finish within {bound:.0f} s (timeout_s={timeout_s:g})"
        else:
            out_s, err_s = readers[sd].result(timeout=5)
            if sd.returncode != 0 or not out_s.strip():
                _killpg(rv)
                e = _endpoint_error(out_s)
                if e and e.get("kind") == "network":
                    reason = e["error"]
                else:
                    raise RuntimeError(f"sender failed (exit {sd.returncode}): "
                                       f"{(e or {}).get('error') or err_s.strip()[-800:]}")
            elif duration_s is not None:
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
            else:
                try:
                    rv.wait(timeout=max(1.0, deadline - time.monotonic()))
                except subprocess.TimeoutExpired:
                    _killpg(rv)
                    reason = f"the receiver did not see the end of the transfer within {bound:.0f} s"
        for pr in (sd, rv):   # both have exited or been told to; never leave one running
            try:
                pr.wait(timeout=10)
            except subprocess.TimeoutExpired:
                _killpg(pr)
        out_s, err_s = readers[sd].result(timeout=10)
        out_r, err_r = readers[rv].result(timeout=10)
        snd = _last_json(out_s)
        rcv = _last_json(out_r)
        if reason is None and (rv.returncode != 0 or rcv is None or "error" in rcv):
            e = rcv or {}
            if e.get("kind") == "network":
                reason = e["error"]
            else:
                raise RuntimeError(f"receiver failed (exit {rv.returncode}): {e.get('error') or err_r.strip()[-800:]}")
        wall = time.monotonic() - t_wall
        if reason is not None or snd is None or "error" in snd:
            return TestbedResult._incomplete(self, reason or (snd or {}).get("error", "no sender report"),
                                             rcv if rcv and "error" not in rcv else None, snd if snd and "error" not in snd else None,
                                             transfer_bytes, duration_s, wall)
        r = TestbedResult._build(self, snd, rcv, transfer_bytes, duration_s, warmup_s, a["sample_bin_s"], wall)
        if r.congestion_mismatch:
            raise RuntimeError(f"KernelSettings.congestion: asked {s.congestion!r}, the kernel ran "
                               f"{r.congestion_mismatch} on the subflows")
        return r

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


class _Reader:
    """Drain a process's stdout and stderr in threads (no pipe can fill while both endpoints are
    watched at once)."""

    def __init__(self, pr: subprocess.Popen):
        self.out, self.err = [], []
        self.threads = [threading.Thread(target=lambda f=f, box=box: box.append(f.read()), daemon=True)
                        for f, box in ((pr.stdout, self.out), (pr.stderr, self.err))]
        for th in self.threads:
            th.start()

    def result(self, timeout: float | None = None) -> tuple[str, str]:
        for th in self.threads:
            th.join(timeout)
        return "".join(self.out), "".join(self.err)


def _killpg(pr: subprocess.Popen) -> None:
    if pr.poll() is None:
        try:
            os.killpg(pr.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        try:
            pr.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass


def _last_json(text: str) -> dict | None:
    for ln in reversed((text or "").strip().splitlines()):
        if ln.startswith("{"):
            try:
                return json.loads(ln)
            except ValueError:
                return None
    return None


def _endpoint_error(text: str) -> dict | None:
    """The failure report of an endpoint (``{"error": ..., "kind": ...}``), if it printed one."""
    d = _last_json(text)
    return d if d and "error" in d else None


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
    "mss": r"\bmss:(\d+)", "cc": r"(\w+)\s+wscale:"}.items()}


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
    #: why the transfer did not complete ("" when it did)
    reason: str = ""
    #: the kernel's values of the settings' sysctls, read back from namespace A
    applied: dict = field(default_factory=dict)
    #: subflow congestion controls that differ from the one asked for ("" when none)
    congestion_mismatch: str = ""
    #: the sender's first send on the endpoints' clock (``time.monotonic``, CLOCK_MONOTONIC: the delay
    #: lines' ``t0_s`` is on the same clock), NaN when unknown
    t_start_monotonic_s: float = float("nan")
    #: the receiver's (CLOCK_MONOTONIC s, cumulative bytes read) samples
    received_samples: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))

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
        subflows = parse_ss(last_ss, addrs)
        used = sorted({d["cc"] for d in subflows.values() if "cc" in d})
        wrong = [u for u in used if u != tb.settings.congestion]
        return cls(paths=tb.paths, settings=tb.settings, mptcp=tb.mptcp, transfer_bytes=transfer_bytes,
                   duration_s=duration_s, completed=bool(completed), completion_time_s=ct, throughput_bps=thr,
                   received_bytes=int(rcv["bytes"]), goodput=gp, subflows=subflows,
                   ss_snapshots=snd["ss"], congestion_used=" ".join(used) or snd["congestion"], wall_time_s=wall,
                   info=_run_info(tb), applied=dict(tb.applied), congestion_mismatch=" ".join(wrong),
                   t_start_monotonic_s=float(t0), received_samples=samples)

    @classmethod
    def _incomplete(cls, tb: Testbed, reason: str, rcv, snd, transfer_bytes, duration_s, wall):
        """A transfer that could not complete: ``completed=False``, NaN time and throughput."""
        got = int(rcv["bytes"]) if rcv else 0
        addrs = [tb.addr_a(i) for i in range(len(tb.paths))]
        last_ss = snd["ss"][-1][1] if snd and snd.get("ss") else ""
        return cls(paths=tb.paths, settings=tb.settings, mptcp=tb.mptcp, transfer_bytes=transfer_bytes,
                   duration_s=duration_s, completed=False, completion_time_s=float("nan"),
                   throughput_bps=float("nan"), received_bytes=got,
                   goodput=pd.DataFrame({"t_s": [], "goodput_bps": []}), subflows=parse_ss(last_ss, addrs),
                   congestion_used=(snd or {}).get("congestion", ""), wall_time_s=wall, info=_run_info(tb),
                   reason=reason, applied=dict(tb.applied))

    def attach_counters(self, counters: list[dict]) -> "TestbedResult":
        self.counters = counters
        return self

    def to_row(self) -> dict:
        """The tidy row: the run, every path property of both directions (``path<i>_*`` forward,
        ``path<i>_reverse_*`` the ACK direction), the counters, the settings asked for (``k_*``)
        and what the kernel used (``congestion_used`` from the subflows, ``mptcp_scheduler_used``,
        ``sysctl_*`` read back)."""
        row = {"simulator": "linux-mptcp" if self.mptcp else "linux-tcp", "n_paths": len(self.paths),
               "transfer_bytes": self.transfer_bytes, "duration_s": self.duration_s, "completed": self.completed,
               "incomplete_reason": self.reason, "completion_time_s": self.completion_time_s,
               "throughput_bps": self.throughput_bps, "received_bytes": self.received_bytes,
               "congestion_used": self.congestion_used, "wall_time_s": self.wall_time_s}
        for i, p in enumerate(self.paths):
            row[f"path{i}_rate_bps"] = p.forward.rate_bps
            row[f"path{i}_delay_s"] = p.forward.delay_s
            row[f"path{i}_rtt_s"] = p.rtt_s
            row[f"path{i}_queue_packets"] = p.forward.queue_packets
            row[f"path{i}_queue_bytes"] = p.forward.queue_bytes
            row[f"path{i}_loss"] = p.forward.loss
            if p.forward.jitter_s or p.back.jitter_s:
                row[f"path{i}_jitter_s"] = p.forward.jitter_s
                row[f"path{i}_reverse_jitter_s"] = p.back.jitter_s
            if p.forward.rate_schedule_bps is not None:
                # the replayed schedule, and where in it the transfer began (sender's first send minus the
                # delay line's READY, both CLOCK_MONOTONIC): what cmtlab.sim needs to replay the same rates
                row[f"path{i}_rate_schedule_bps"] = " ".join(f"{r:.17g}" for r in p.forward.rate_schedule_bps)
                row[f"path{i}_schedule_interval_s"] = p.forward.schedule_interval_s
                t0 = (self.counters[i] if i < len(self.counters) else {}).get("t0_s")
                row[f"path{i}_schedule_offset_s"] = (self.t_start_monotonic_s - t0) if t0 is not None else np.nan
            b = p.back
            row[f"path{i}_reverse_rate_bps"] = b.rate_bps
            row[f"path{i}_reverse_delay_s"] = b.delay_s
            row[f"path{i}_reverse_queue_packets"] = b.queue_packets
            row[f"path{i}_reverse_queue_bytes"] = b.queue_bytes
            row[f"path{i}_reverse_loss"] = b.loss
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
        row.update({f"sysctl_{k}": v for k, v in self.applied.items()})
        if self.mptcp:
            row["mptcp_scheduler_used"] = self.applied.get("net.mptcp.scheduler", self.info.get("mptcp_scheduler"))
        return row


def _run_info(tb: Testbed) -> dict:
    """:func:`kernel_info` with the MPTCP scheduler of the run's namespace (not the host's)."""
    info = {**kernel_info(), "delayline": " ".join(getattr(tb, "delayline_flags", []))}
    if tb.mptcp and "net.mptcp.scheduler" in tb.applied:
        info["mptcp_scheduler"] = tb.applied["net.mptcp.scheduler"]
    return info


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
    """Set up the namespaces and paths, run one transfer, read the delay-line counters, tear down.
    Every argument is validated before anything is set up (see :meth:`Testbed.transfer`)."""
    a = check_transfer_arguments(transfer_bytes=transfer_bytes, duration_s=duration_s, warmup_s=warmup_s,
                                 timeout_s=timeout_s, ss_interval_s=ss_interval_s)
    paths = list(paths)
    if not check_bool("mptcp", mptcp) and len(paths) > 1:
        raise ValueError(f"mptcp=False runs single-path TCP over paths[0]: give one path, got {len(paths)} "
                         "(the others would be recorded but never used)")
    with Testbed(paths, settings, mptcp=mptcp, seed=seed,
                 max_lifetime_s=transfer_lifetime_s(a["duration_s"], a["timeout_s"])) as tb:
        r = tb.transfer(transfer_bytes=transfer_bytes, duration_s=duration_s, warmup_s=warmup_s,
                        timeout_s=timeout_s, ss_interval_s=ss_interval_s)
        return r.attach_counters(tb.read_counters())


def ping(p: EmulatedPath, count: int = 20, interval_s: float = 0.05) -> np.ndarray:
    """Round-trip times (s) of ICMP echoes over one emulated path (no competing traffic)."""
    check_int("count", count, minimum=1, maximum=10000)
    check_real("interval_s", interval_s, low=0, high=10)
    with Testbed([p], mptcp=False, max_lifetime_s=count * (interval_s + 3) + 60) as tb:
        return tb.ping(0, count=count, interval_s=interval_s)
