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

from .config import (MAX_DURATION_S, MAX_PATHS, MAX_TIMEOUT_S, MAX_TRANSFER_BYTES, MTU_BYTES, NS_PREFIX, Direction,
                     EmulatedPath, KernelSettings, path)
from .environment import build_delayline, check_environment, kernel_info
from .hygiene import cleanup_stale
from .namespace import Testbed
from .result import TestbedResult, parse_ss
from .runs import expected_ping_rtt_s, ping, run_transfer, tcp_goodput_bps

__all__ = ["Direction", "EmulatedPath", "KernelSettings", "TestbedResult", "Testbed", "path", "run_transfer", "ping",
           "expected_ping_rtt_s", "tcp_goodput_bps", "check_environment", "build_delayline", "cleanup_stale",
           "kernel_info", "parse_ss", "MAX_PATHS", "NS_PREFIX", "MTU_BYTES", "MAX_DURATION_S", "MAX_TIMEOUT_S",
           "MAX_TRANSFER_BYTES"]
