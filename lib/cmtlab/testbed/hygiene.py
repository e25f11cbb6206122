"""Process and namespace hygiene: runs killed outright (SIGKILL) leave namespaces that the next run, or ``python -m cmtlab.testbed --cleanup``, removes; live runs are never touched."""

from __future__ import annotations

import atexit
import os
import re
import signal
import threading
from pathlib import Path

from .config import NS_PREFIX
from .environment import _run


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



# ---------------------------------------------------------------- the testbed
_LIVE: set = set()
_LIVE_LOCK = threading.Lock()


def _atexit_cleanup():
    for tb in list(_LIVE):
        tb.close()


atexit.register(_atexit_cleanup)
