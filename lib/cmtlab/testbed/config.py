"""Paths, kernel settings and transfer arguments of the testbed: what a run is asked for, checked before anything is set up."""

from __future__ import annotations

import dataclasses
import math
import numbers
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .._paths import REPO
from .._validate import check_bool, check_int, check_real

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
