"""Endpoints of one emulated transfer, run inside a network namespace (``ip netns exec``).

Not part of the packet path (the delay line is compiled C); these only open sockets, push or
drain bytes and print one JSON line.  Subcommands:

``recv``  listen, accept one connection, read until EOF/reset, print byte-count samples
``send``  connect (TCP or MPTCP), send ``--bytes`` or for ``--duration-s``, snapshot ``ss -tin``
``ping``  ICMP echo over one path (raw socket), print the round-trip times
All times are CLOCK_MONOTONIC seconds (not namespaced, so comparable across the namespaces).

Every endpoint dies with the harness that started it (``--owner-pid``): it asks the kernel for
SIGKILL when its parent exits (PR_SET_PDEATHSIG) and exits at once if the parent is already gone
(the race between ``fork`` and ``prctl``), so a harness killed by SIGKILL leaves no endpoint.
A failure is one JSON line ``{"error": ..., "kind": "setup" | "network"}`` on stdout and exit
status 3 (``setup``: a setting the kernel refused, a socket option, a bind) or 4 (``network``: no
connection or no progress within ``--timeout-s``, a reset): the harness reports the first one.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import re
import signal
import socket
import struct
import subprocess
import sys
import threading
import time

IPPROTO_MPTCP = 262
TCP_CONGESTION = getattr(socket, "TCP_CONGESTION", 13)
SO_SNDBUFFORCE = getattr(socket, "SO_SNDBUFFORCE", 32)
SO_RCVBUFFORCE = getattr(socket, "SO_RCVBUFFORCE", 33)
SAMPLE_S = 0.005


PR_SET_PDEATHSIG = 1
EXIT_SETUP, EXIT_NETWORK = 3, 4


def die_with_parent(owner_pid: int) -> None:
    """SIGKILL when the parent exits; exit now if the parent is not ``owner_pid`` any more."""
    if owner_pid <= 0:
        return
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass
    if os.getppid() != owner_pid:
        os._exit(EXIT_SETUP)

    def watchdog():   # belt and braces: a parent gone without the signal (e.g. prctl unavailable)
        while True:
            time.sleep(0.5)
            if os.getppid() != owner_pid:
                os._exit(EXIT_SETUP)
    threading.Thread(target=watchdog, daemon=True).start()


class Failure(Exception):
    """An endpoint failure reported as one JSON line (``kind`` ``setup`` or ``network``)."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind


def _fail(exc: Failure) -> None:
    print(json.dumps({"error": str(exc), "kind": exc.kind}), flush=True)
    sys.exit(EXIT_SETUP if exc.kind == "setup" else EXIT_NETWORK)


def _check_buffer(so: socket.socket, opt: int, want: int, name: str) -> None:
    """The kernel keeps twice the size asked for (socket(7)); less means it was not applied."""
    got = so.getsockopt(socket.SOL_SOCKET, opt)
    if got < want:
        raise Failure("setup", f"KernelSettings.{name}: asked {want} bytes, the socket keeps {got}")


def _sock(mptcp: bool) -> socket.socket:
    return socket.socket(socket.AF_INET, socket.SOCK_STREAM, IPPROTO_MPTCP if mptcp else socket.IPPROTO_TCP)


class _Stop(Exception):
    """SIGTERM from the harness: stop reading and report (duration-limited runs)."""


def _on_term(signum, frame):
    raise _Stop


def recv_main(a) -> None:
    signal.signal(signal.SIGTERM, _on_term)
    try:
        ls = _sock(a.mptcp)
        ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if a.rcvbuf:
            ls.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, a.rcvbuf)
            _check_buffer(ls, socket.SO_RCVBUF, a.rcvbuf, "rcvbuf_bytes")
        ls.bind((a.addr, a.port))
        ls.listen(1)
    except OSError as exc:
        raise Failure("setup", f"receiver socket setup failed: {exc}") from None
    print("READY", flush=True)
    ls.settimeout(a.timeout_s)
    try:
        conn, _ = ls.accept()
    except socket.timeout:
        raise Failure("network", f"receiver: no connection within timeout_s={a.timeout_s:g} s") from None
    t_accept = time.monotonic()
    conn.settimeout(a.timeout_s)
    buf = bytearray(1 << 20)
    total = 0
    samples = []
    t_first = t_last = None
    last_sample = -1.0
    reset = stopped = False
    try:
        while True:
            n = conn.recv_into(buf)
            if n == 0:
                break
            t_last = time.monotonic()
            if t_first is None:
                t_first = t_last
            total += n
            if t_last - last_sample >= SAMPLE_S:
                samples.append((t_last, total))
                last_sample = t_last
    except OSError:  # reset by the sender's abortive close (MPTCP may report ENOTCONN), or timeout
        reset = True
    except _Stop:  # the harness stops a duration-limited run whose reset was lost on a full queue
        stopped = True
    # a SIGTERM that arrives now (the harness's grace period ended while this process, on a loaded
    # machine, was still between the reset and its report) must not kill the report: ignore it
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if t_last is not None:
        samples.append((t_last, total))
    print(json.dumps({"bytes": total, "t_accept": t_accept, "t_first": t_first,
                      "t_last": t_last, "reset": reset, "stopped": stopped,
                      "samples": samples}), flush=True)


#: The line between a snapshot's TCP sockets and its MPTCP connections (:func:`_ss_snapshot`).
MPTCP_SEPARATOR = "--- mptcp"


def _ss_snapshot() -> str:
    """The TCP sockets with their memory (``ss -tinmH``), then after ``--- mptcp`` the MPTCP connections (``ss -HMmi``;
    none for a single-path flow): ``cmtlab.testbed.result.parse_ss`` reads the first part, ``parse_ss_connection`` the
    second."""
    try:
        tcp = subprocess.run(["ss", "-tinmH"], capture_output=True, text=True, timeout=5).stdout
        mptcp = subprocess.run(["ss", "-HMmi"], capture_output=True, text=True, timeout=5).stdout
        return f"{tcp}\n{MPTCP_SEPARATOR}\n{mptcp}"
    except Exception as exc:  # noqa: BLE001  (a missing ss must not break a transfer)
        return f"ss failed: {exc}"


def send_main(a) -> None:
    try:
        s = _sock(a.mptcp)
    except OSError as exc:
        raise Failure("setup", f"sender socket: {exc}") from None
    if a.congestion:
        try:
            s.setsockopt(socket.IPPROTO_TCP, TCP_CONGESTION, a.congestion.encode())
        except OSError as exc:
            raise Failure("setup", f"sender: congestion {a.congestion!r} refused by the kernel "
                                   f"(setsockopt TCP_CONGESTION: {exc.strerror})") from None
    try:
        if a.sndbuf:
            s.setsockopt(socket.SOL_SOCKET, SO_SNDBUFFORCE, a.sndbuf)
            _check_buffer(s, socket.SO_SNDBUF, a.sndbuf, "sndbuf_bytes")
        s.bind((a.src, 0))
    except OSError as exc:
        raise Failure("setup", f"sender socket setup failed: {exc}") from None
    s.settimeout(a.timeout_s)
    try:
        s.connect((a.dst, a.port))
    except socket.timeout:
        raise Failure("network", f"sender: no connection within timeout_s={a.timeout_s:g} s") from None
    except OSError as exc:
        raise Failure("network", f"sender: connect failed: {exc}") from None
    cc = s.getsockopt(socket.IPPROTO_TCP, TCP_CONGESTION, 16).split(b"\0")[0].decode()
    # What the kernel runs: MPTCP keeps the name asked for on the connection even when its
    # subflows fell back to the namespace default, so read the subflow's own algorithm (ss).
    first = _ss_snapshot()
    used = _subflow_congestions(first, a.src)
    if a.congestion and used and any(u != a.congestion for u in used):
        raise Failure("setup", f"sender: congestion {a.congestion!r} was not applied: the kernel runs "
                               f"{sorted(set(used))} on the subflow(s)")
    cc = used[0] if used else cc
    chunk = memoryview(bytes(256 * 1024))
    snapshots = []
    stop = threading.Event()

    def sampler():
        while not stop.wait(a.ss_interval_s):
            snapshots.append((time.monotonic(), _ss_snapshot()))

    th = threading.Thread(target=sampler, daemon=True)
    if a.ss_interval_s > 0:
        th.start()
    t_start = time.monotonic()
    sent = 0
    if a.bytes:
        try:
            while sent < a.bytes:
                sent += s.send(chunk[: min(len(chunk), a.bytes - sent)])
        except socket.timeout:
            raise Failure("network", f"sender: no progress for timeout_s={a.timeout_s:g} s after "
                                     f"{sent} of {a.bytes} bytes") from None
        except OSError as exc:
            raise Failure("network", f"sender: connection failed after {sent} of {a.bytes} bytes: {exc}") from None
        t_sent = time.monotonic()
        snapshots.append((t_sent, _ss_snapshot()))
        s.shutdown(socket.SHUT_WR)
        s.settimeout(a.timeout_s)
        try:
            while s.recv(4096):
                pass
        except OSError:
            pass
        s.close()
    else:
        t_end = t_start + a.duration_s
        s.settimeout(0.05)
        while True:
            now = time.monotonic()
            if now >= t_end:
                break
            try:
                sent += s.send(chunk)
            except (socket.timeout, BlockingIOError):
                pass
            except OSError as exc:
                raise Failure("network", f"sender: connection failed after {sent} bytes: {exc}") from None
        t_sent = time.monotonic()
        snapshots.append((t_sent, _ss_snapshot()))
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        s.close()  # abortive close: the receiver stops at once
    stop.set()
    print(json.dumps({"t_start": t_start, "t_sent": t_sent, "sent_bytes": sent, "congestion": cc,
                      "ss": snapshots, "ss_connect": first}), flush=True)


def _subflow_congestions(ss_text: str, src: str) -> list[str]:
    """The congestion control of every established TCP socket (subflow) in ``ss -tinH`` output;
    the first is the one from ``src``."""
    out = []
    lines = ss_text.split(MPTCP_SEPARATOR, 1)[0].splitlines()  # (the MPTCP connections after it are not subflows)
    for j, ln in enumerate(lines):
        parts = ln.split()
        if len(parts) < 5 or parts[0] != "ESTAB" or j + 1 >= len(lines):
            continue
        m = _CC_RE.search(lines[j + 1])
        if m:
            local = parts[3].rsplit(":", 1)[0].split("%")[0]
            if local == src:
                out.insert(0, m.group(1))
            else:
                out.append(m.group(1))
    return out


_CC_RE = re.compile(r"^\s*(?:skmem:\([^)]*\)\s+)?(?:ts\s+)?(?:sack\s+)?(?:ecn\s+)?(?:ecnseen\s+)?(\w+)\s+wscale")


def _checksum(b: bytes) -> int:
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack(f"!{len(b) // 2}H", b))
    s = (s >> 16) + (s & 0xFFFF)
    s += s >> 16
    return ~s & 0xFFFF


def ping_main(a) -> None:
    s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP)
    s.bind((a.src, 0))
    s.settimeout(a.timeout_s)
    ident = os.getpid() & 0xFFFF
    rtts = []
    lost = 0
    payload = bytes(a.size)
    for seq in range(a.count):
        hdr = struct.pack("!BBHHH", 8, 0, 0, ident, seq)
        pkt = struct.pack("!BBHHH", 8, 0, _checksum(hdr + payload), ident, seq) + payload
        t0 = time.perf_counter_ns()
        s.sendto(pkt, (a.dst, 0))
        deadline = time.monotonic() + a.timeout_s
        got = False
        while time.monotonic() < deadline:
            try:
                data = s.recv(65535)
            except socket.timeout:
                break
            t1 = time.perf_counter_ns()
            ihl = (data[0] & 0x0F) * 4
            typ, _, _, rid, rseq = struct.unpack("!BBHHH", data[ihl:ihl + 8])
            if typ == 0 and rid == ident and rseq == seq:
                rtts.append((t1 - t0) / 1e9)
                got = True
                break
        if not got:
            lost += 1
        time.sleep(a.interval_s)
    print(json.dumps({"rtts_s": rtts, "lost": lost}), flush=True)


def main(argv=None) -> None:
    p = argparse.ArgumentParser(prog="cmtlab.testbed._endpoint")
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("recv")
    r.add_argument("--addr", required=True)
    r.add_argument("--port", type=int, default=5201)
    r.add_argument("--mptcp", action="store_true")
    r.add_argument("--rcvbuf", type=int, default=0)
    r.add_argument("--timeout-s", type=float, default=60)
    s = sub.add_parser("send")
    s.add_argument("--src", required=True)
    s.add_argument("--dst", required=True)
    s.add_argument("--port", type=int, default=5201)
    s.add_argument("--mptcp", action="store_true")
    s.add_argument("--congestion", default="")
    s.add_argument("--sndbuf", type=int, default=0)
    s.add_argument("--bytes", type=int, default=0)
    s.add_argument("--duration-s", type=float, default=0)
    s.add_argument("--ss-interval-s", type=float, default=0)
    s.add_argument("--timeout-s", type=float, default=60)
    g = sub.add_parser("ping")
    g.add_argument("--src", required=True)
    g.add_argument("--dst", required=True)
    g.add_argument("--count", type=int, default=10)
    g.add_argument("--interval-s", type=float, default=0.05)
    g.add_argument("--size", type=int, default=56)
    g.add_argument("--timeout-s", type=float, default=3)
    for sp in (r, s, g):
        sp.add_argument("--owner-pid", type=int, default=0)
    a = p.parse_args(argv)
    die_with_parent(a.owner_pid)
    try:
        {"recv": recv_main, "send": send_main, "ping": ping_main}[a.cmd](a)
    except Failure as exc:
        _fail(exc)


if __name__ == "__main__":
    sys.exit(main())
