"""Endpoints of one emulated transfer, run inside a network namespace (``ip netns exec``).

Not part of the packet path (the delay line is compiled C); these only open sockets, push or
drain bytes and print one JSON line.  Subcommands:

``recv``  listen, accept one connection, read until EOF/reset, print byte-count samples
``send``  connect (TCP or MPTCP), send ``--bytes`` or for ``--duration-s``, snapshot ``ss -tin``
``ping``  ICMP echo over one path (raw socket), print the round-trip times
All times are CLOCK_MONOTONIC seconds (not namespaced, so comparable across the namespaces).
"""

from __future__ import annotations

import argparse
import json
import os
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


def _sock(mptcp: bool) -> socket.socket:
    return socket.socket(socket.AF_INET, socket.SOCK_STREAM, IPPROTO_MPTCP if mptcp else socket.IPPROTO_TCP)


class _Stop(Exception):
    """SIGTERM from the harness: stop reading and report (duration-limited runs)."""


def _on_term(signum, frame):
    raise _Stop


def recv_main(a) -> None:
    signal.signal(signal.SIGTERM, _on_term)
    ls = _sock(a.mptcp)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if a.rcvbuf:
        ls.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, a.rcvbuf)
    ls.bind((a.addr, a.port))
    ls.listen(1)
    print("READY", flush=True)
    ls.settimeout(a.timeout_s)
    conn, _ = ls.accept()
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


def _ss_snapshot() -> str:
    try:
        return subprocess.run(["ss", "-tinH"], capture_output=True, text=True, timeout=5).stdout
    except Exception as exc:  # noqa: BLE001  (a missing ss must not break a transfer)
        return f"ss failed: {exc}"


def send_main(a) -> None:
    s = _sock(a.mptcp)
    if a.congestion:
        s.setsockopt(socket.IPPROTO_TCP, TCP_CONGESTION, a.congestion.encode())
    if a.sndbuf:
        s.setsockopt(socket.SOL_SOCKET, SO_SNDBUFFORCE, a.sndbuf)
    s.bind((a.src, 0))
    s.settimeout(a.timeout_s)
    s.connect((a.dst, a.port))
    cc = s.getsockopt(socket.IPPROTO_TCP, TCP_CONGESTION, 16).split(b"\0")[0].decode()
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
        while sent < a.bytes:
            sent += s.send(chunk[: min(len(chunk), a.bytes - sent)])
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
        t_sent = time.monotonic()
        snapshots.append((t_sent, _ss_snapshot()))
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        s.close()  # abortive close: the receiver stops at once
    stop.set()
    print(json.dumps({"t_start": t_start, "t_sent": t_sent, "sent_bytes": sent, "congestion": cc,
                      "ss": snapshots}), flush=True)


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
    a = p.parse_args(argv)
    {"recv": recv_main, "send": send_main, "ping": ping_main}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())
