"""One transfer or one ping on a fresh testbed, and the idle path's expected values."""

from __future__ import annotations

import numpy as np

from .._validate import check_bool, check_int, check_real
from .config import (
    IP_TCP_HEADER_BYTES,
    MTU_BYTES,
    EmulatedPath,
    KernelSettings,
    check_transfer_arguments,
    transfer_lifetime_s,
)
from .namespace import Testbed
from .result import TestbedResult


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
