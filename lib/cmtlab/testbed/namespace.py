"""The two namespaces joined by emulated paths (:class:`Testbed`) and the endpoints' output streams."""

from __future__ import annotations

import json
import os
import secrets
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np

from .._validate import check_bool, check_int, check_real
from .config import (
    _LIB_DIR,
    MAX_LIFETIME_S,
    MAX_PATHS,
    MTU_BYTES,
    NS_PREFIX,
    PORT,
    SYSCTL_FIELDS,
    EmulatedPath,
    KernelSettings,
    check_transfer_arguments,
    transfer_lifetime_s,
)
from .environment import (
    _check_congestion_available,
    _check_scheduler_available,
    _run,
    build_delayline,
    check_environment,
)
from .hygiene import _LIVE, _LIVE_LOCK, cleanup_stale
from .result import TestbedResult


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
