"""The host the testbed runs on: root, a compiler, the delay line built, MPTCP and the congestion controls and schedulers the kernel offers."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from .config import _BIN_DIR, _SRC


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
