"""Run one scenario on the papers' own simulator (the Chihani–Collange ns-3 MPTCP model, ns-3.7).

:func:`scenario` validates a run's parameters into a :class:`PapersSimScenario`; :func:`run` runs
it with the compiled driver (``driver/mptcp-scenario.cc``, built on demand by
:mod:`cmtlab.papers_sim.build`) and returns a :class:`PapersSimResult` — a
:class:`~cmtlab.scenario.TransferResult` whose :meth:`~PapersSimResult.row` has the columns of
:mod:`cmtlab.sim`'s MPTCP rows (goodput, per-subflow segments, retransmissions, timeouts, final
cwnd) plus the model's own figure of merit:

``model_global_throughput_bps`` (and ``gtput_bin_<i>_bps``)
    what the model logs as "GlobalThroughput": Σ over subflows of cwnd·MSS·8 / RTT estimate
    (``MpTcpSocketImpl::getGlobalThroughput``), time-averaged over the run (per bin).  It is a
    window-based estimate, **not** delivered data: it can sit far above the goodput.
``goodput_bps`` (= ``throughput_bps``, and ``tput_bin_<i>_bps``)
    bytes the receiving application read, × 8 / time, from the first data segment.

Determinism: the model seeds ``rand()`` with a constant, so a run repeats exactly — except F_RTO,
whose ACK-discarding probability is drawn from the wall clock (``time(NULL)``).  The driver makes
``time()`` return a chosen value: :func:`frto_clock` maps the scenario's ``seed`` to one, so each
seed is one exactly repeatable F_RTO repetition (other algorithms ignore the seed).
``frto_wall_clock=True`` uses the real clock (not repeatable: keep such runs out of a sweep cache).

What a run can be asked (every bound derived from what the model represents; errors name the
parameter): simulated time is an ns-3.7 ``Time`` in 64-bit nanoseconds, so ``max_sim_time_s`` <=
:data:`MAX_SIM_TIME_S`; the model's subflow sequence numbers are 32-bit and compared without
wrap-around, so in a ``duration_s`` run no path may be able to carry more than
:data:`SUBFLOW_SEQUENCE_SPACE_BYTES` (rate x duration / 8; a transfer is at most 4e9 B anyway);
at most :data:`MAX_SAMPLES` samples.  These bound the work: :func:`work_estimate` gives the
segments a run can send, from which :func:`default_timeout_s` derives the time :func:`run`
waits by default.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import math
import os
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from .._validate import check_int, check_non_negative, check_positive
from ..scenario import KeyedScenario, TransferResult

SIMULATOR_NAME = "papers-sim"

#: The model's congestion controls (``CongestionCtrl_t``): name → enum value; aliases below.
CONGESTION = {"uncoupled": 0, "linked_increases": 1, "rtt_compensator": 2, "fully_coupled": 3}
#: The model's reordering algorithms (``PacketReorder_t``).
REORDERING = {"none": 0, "eifel": 1, "tcp_door": 2, "dsack": 3, "frto": 4, "pr_r": 5}
#: ``pr_r`` is not in the published model: Alheid et al.'s Algorithm 1, added by ``patches/05-behaviour-pr-r.patch``.
#:
#: What ``tcp_door`` (the model's ``TCP_DOOR``) does, in the published overlay (``dzlab/mptcp-ns3`` d4ad7bf,
#: ``src/internet-stack/mp-tcp-socket-impl.cc``): its one line of code is ``case TCP_DOOR: break;`` (lines
#: 1668-1669) in ``IsDuplicatedAck``'s switch on a duplicate ACK (lines 1637-1675), where NoPR calls ``DupAck``
#: (1670-1672: on the 3rd duplicate ACK, reduce the window and retransmit).  The ACK still counts as
#: duplicate, and ``NewACK`` does nothing with it (line 996: only with ``useFastRecovery``, false in both
#: constructors, lines 108 and 169, or F_RTO's step 4).  So a TCP_DOOR sender ignores duplicate ACKs —
#: no fast retransmit, no reduction — and repairs a loss only when the retransmission timer expires
#: (``ReTxTimeout``, line 615: ``reduceCWND`` halves the window, ``Retransmit`` resends one segment, the
#: RTO doubles).  The receiver has no TCP_DOOR case (it behaves as under NoPR), and the model defines
#: no option that could carry TCP-DOOR's sequence numbers (``TcpOption_t``, ``mp-tcp-header.h``: DSACK,
#: timestamp, MPC, JOIN, ADDR, REMADR, DSN).  This is not the TCP-DOOR of Wang and Zhang (MobiHoc 2002:
#: out-of-order detection from TPSN/ADSN options, then congestion control disabled for a time and
#: "instant recovery" of a recent reduction).  Alheid et al. cite no TCP-DOOR source (their [14, 15] are
#: their own earlier studies on this model), and their sec. V.B describes exactly the model's: "it does
#: not take any action when receiving the third DUPACK and depends on the RTO response only".
_CC_ALIASES = {"uncoupled_tcps": "uncoupled", "lia": "linked_increases", "linked_increase": "linked_increases",
               "rtt_compensation": "rtt_compensator", "rttc": "rtt_compensator", "fully-coupled": "fully_coupled"}
_RO_ALIASES = {"nopr": "none", "nopr_algo": "none", "no": "none", "d_sack": "dsack", "d-sack": "dsack",
               "f_rto": "frto", "f-rto": "frto", "tcp-door": "tcp_door", "door": "tcp_door", "pr-r": "pr_r",
               "prr": "pr_r"}
#: Model names as printed in the model's source.
MODEL_NAMES = {"uncoupled": "Uncoupled_TCPs", "linked_increases": "Linked_Increases",
               "rtt_compensator": "RTT_Compensator", "fully_coupled": "Fully_Coupled", "none": "NoPR_Algo",
               "eifel": "Eifel", "tcp_door": "TCP_DOOR", "dsack": "D_SACK", "frto": "F_RTO", "pr_r": "PR_R"}

#: mpTopology.cc's defaults.
DEFAULT_TRANSFER_BYTES = 10_000_000
DEFAULT_SEND_BUFFER_BYTES = 14_000
DEFAULT_RECEIVE_BUFFER_BYTES = 14_000
DEFAULT_QUEUE_PACKETS = 100
MSS_BYTES = 1400            # L3 MTU (1500) - 100, the model's choice
MAX_PATHS = 7               # the model's F_RTO code indexes a table of 7 primes by subflow
#: Width of the throughput-over-time bins (s) in a row.
BIN_S = 1.0
#: ns-3.7 keeps simulated time in signed 64-bit nanoseconds (``Time``, ``TimeStepPrecision`` NS):
#: 2**63 ns is 9.22e9 s; the bound leaves room for the flow's start.
MAX_SIM_TIME_S = 9.2e9
#: The model's subflow sequence numbers are ``uint32_t`` and compared directly (``ack <
#: TxSeqNumber``): a subflow that sends 2**32 bytes wraps and the model breaks.  Less 2**24 for the
#: initial sequence numbers (below 80000) and the handshake.
SUBFLOW_SEQUENCE_SPACE_BYTES = 2**32 - 2**24
#: Samples of a run (every ``sample_s``; the driver holds them in memory and prints them as JSON).
MAX_SAMPLES = 2_000_000
#: Driver CPU time per data segment that :func:`default_timeout_s` allows (s).  Measured with
#: patch 06: 59 us (point-to-point, 2 paths) and 210 us (Wi-Fi, with its MAC) per segment
#: sent; 2 ms leaves room for a loaded machine.
TIMEOUT_PER_SEGMENT_S = 2e-3
#: Fixed part of the default timeout (s): start-up, the handshake, the JSON report.
TIMEOUT_BASE_S = 60.0
_FRTO_CLOCK_BASE = 1_300_000_000   # 2011, when the model was written; any value works


def _canonical(kind: str, value, table: dict, aliases: dict) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{kind} must be one of {sorted(table)} (the model's names are accepted too), "
                         f"got {value!r}")
    key = value.strip().lower().replace(" ", "_")
    key = aliases.get(key, key)
    if key not in table:
        raise ValueError(f"{kind} must be one of {sorted(table)} (or the model's "
                         f"{[MODEL_NAMES[k] for k in table]}), got {value!r}")
    return key


def congestion_name(value) -> str:
    """Canonical congestion-control name (accepts the model's enum names and cmtlab's)."""
    return _canonical("congestion", value, CONGESTION, _CC_ALIASES | {v.lower(): k for k, v in MODEL_NAMES.items()
                                                                       if k in CONGESTION})


def reordering_name(value) -> str:
    """Canonical reordering-algorithm name (accepts the model's enum names and cmtlab's)."""
    return _canonical("reordering", value, REORDERING, _RO_ALIASES | {v.lower(): k for k, v in MODEL_NAMES.items()
                                                                       if k in REORDERING})


def frto_clock(seed: int) -> int:
    """The wall-clock value (s) F_RTO reads in repetition ``seed`` (a fixed hash of the seed, so that
    the clock's residues modulo the model's primes 389, 211, 457, … are spread as a real clock's are)."""
    h = hashlib.sha256(f"cmtlab-papers-sim-frto-{int(seed)}".encode()).digest()
    return _FRTO_CLOCK_BASE + int.from_bytes(h[:4], "big") % 100_000_000


@dataclass(frozen=True)
class PapersSimScenario(KeyedScenario):
    """One run of the model (build it with :func:`scenario`, which validates).

    ``rates_bps`` and ``one_way_delays_s``: one point-to-point link per path (the ``Delay``
    attribute of ns-3's channel is one-way; the round trip is twice it).  Exactly one of
    ``transfer_bytes`` (until the application read them) and ``duration_s`` (from the first
    data segment).  ``variate_delay``: mpTopology's ``variateDelay()`` after every application
    write.  ``loss_rate``: the model's own per-subflow loss (new data segments dropped at the
    sender with that probability, ``SetLossThreshold``): one number for every subflow, or a tuple
    with one per path.  ``loss_seed``: ``None`` keeps the model's constant ``srand(65536)``; an
    integer re-seeds ``rand()`` when the loss is switched on (one repetition of the loss pattern).  ``seed``: the F_RTO repetition
    (:func:`frto_clock`); ``frto_wall_clock``: use the real wall clock instead.
    """

    rates_bps: tuple
    one_way_delays_s: tuple
    congestion: str = "fully_coupled"
    reordering: str = "dsack"
    transfer_bytes: int | None = DEFAULT_TRANSFER_BYTES
    duration_s: float | None = None
    send_buffer_bytes: int = DEFAULT_SEND_BUFFER_BYTES
    receive_buffer_bytes: int = DEFAULT_RECEIVE_BUFFER_BYTES
    queue_packets: int = DEFAULT_QUEUE_PACKETS
    variate_delay: bool = True
    loss_rate: float | tuple = 0.0
    sample_s: float = 0.1
    seed: int = 0
    frto_wall_clock: bool = False
    max_sim_time_s: float = 36_000.0
    loss_seed: int | None = None

    @property
    def n_links(self) -> int:
        return len(self.rates_bps)

    n_subflows = n_links

    def path_columns(self, i: int) -> dict:
        """The per-subflow columns that describe path ``i`` (its link)."""
        return {"rate_bps": self.rates_bps[i] if i < self.n_links else np.nan,
                "one_way_delay_s": self.one_way_delays_s[i] if i < self.n_links else np.nan}

    def extra_columns(self, out: dict) -> dict:
        """Columns a scenario kind adds to :meth:`PapersSimResult.row` from the driver output (none here)."""
        return {}

    def path_capacity_bps(self) -> tuple:
        """The most each path can carry (bit/s): its link rate."""
        return tuple(self.rates_bps)

    def to_dict(self) -> dict:
        out = dataclasses.asdict(self)
        if out["loss_seed"] is None:
            del out["loss_seed"]   # keys of runs made before the option existed stay the same
        if isinstance(out["loss_rate"], (tuple, list)):
            out["loss_rate"] = list(out["loss_rate"])
        out["kind"] = "papers-sim"
        return out

    def _changes(self, changes: dict) -> dict:
        # a new duration replaces the transfer size, and the other way round (exactly one of them is set)
        if "duration_s" in changes and changes["duration_s"] is not None and "transfer_bytes" not in changes:
            changes["transfer_bytes"] = None
        if "transfer_bytes" in changes and changes["transfer_bytes"] is not None and "duration_s" not in changes:
            changes["duration_s"] = None
        return changes

    @classmethod
    def _rebuild(cls, fields: dict) -> "PapersSimScenario":
        rates = fields.pop("rates_bps")
        delays = fields.pop("one_way_delays_s")
        return scenario(rates, delays, **fields)

    def command(self, binary) -> list[str]:
        """The driver's command line for this run."""
        clock = None if self.frto_wall_clock else frto_clock(self.seed)
        cmd = [str(binary), "--rates=" + ",".join(repr(float(r)) for r in self.rates_bps),
               "--delays=" + ",".join(repr(float(d)) for d in self.one_way_delays_s),
               f"--cc={CONGESTION[self.congestion]}", f"--pr={REORDERING[self.reordering]}",
               f"--bytes={self.transfer_bytes if self.transfer_bytes is not None else 0}",
               f"--duration={self.duration_s if self.duration_s is not None else 0}",
               f"--sndbuf={self.send_buffer_bytes}", f"--rcvbuf={self.receive_buffer_bytes}",
               f"--queue={self.queue_packets}", f"--variate-delay={int(self.variate_delay)}",
               "--loss=" + (",".join(repr(float(p)) for p in self.loss_rate) if isinstance(self.loss_rate, tuple)
                            else repr(self.loss_rate)), f"--sample={self.sample_s!r}", f"--max-time={self.max_sim_time_s!r}"]
        if clock is not None:
            cmd.append(f"--frto-clock={clock}")
        if self.loss_seed is not None:
            cmd.append(f"--loss-seed={self.loss_seed}")
        return cmd


def scenario(rates_bps, one_way_delays_s, *, congestion="fully_coupled", reordering="dsack",
             transfer_bytes=None, duration_s=None, send_buffer_bytes=DEFAULT_SEND_BUFFER_BYTES,
             receive_buffer_bytes=DEFAULT_RECEIVE_BUFFER_BYTES, queue_packets=DEFAULT_QUEUE_PACKETS,
             variate_delay=True, loss_rate=0.0, sample_s=0.1, seed=0, frto_wall_clock=False,
             max_sim_time_s=36_000.0, loss_seed=None) -> PapersSimScenario:
    """Validate the arguments and build a :class:`PapersSimScenario` (errors name the parameter).

    Without ``transfer_bytes`` and ``duration_s`` the run transfers mpTopology's 10 MB.
    """
    def floats(name, values, lo, hi):
        if isinstance(values, (str, bytes)) or not hasattr(values, "__len__"):
            raise ValueError(f"{name} must be a sequence of numbers (one per path), got {values!r}")
        out = []
        for v in values:
            if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)) or not np.isfinite(v):
                raise ValueError(f"{name} must hold finite numbers, got {values!r}")
            if not lo <= float(v) <= hi:
                raise ValueError(f"{name} values must be in [{lo}, {hi}], got {float(v)!r}")
            out.append(float(v))
        return tuple(out)

    rates = floats("rates_bps", rates_bps, 1e3, 1e10)
    delays = floats("one_way_delays_s", one_way_delays_s, 0.0, 10.0)
    if not 1 <= len(rates) <= MAX_PATHS:
        raise ValueError(f"rates_bps must give 1..{MAX_PATHS} paths (the model's F_RTO code has {MAX_PATHS} "
                         f"per-subflow constants), got {len(rates)}")
    if len(rates) != len(delays):
        raise ValueError(f"rates_bps and one_way_delays_s must have the same length (one per path), "
                         f"got {len(rates)} and {len(delays)}")
    cc = congestion_name(congestion)
    ro = reordering_name(reordering)
    if transfer_bytes is not None and duration_s is not None:
        raise ValueError("give transfer_bytes or duration_s, not both, got "
                         f"transfer_bytes={transfer_bytes!r}, duration_s={duration_s!r}")
    if transfer_bytes is None and duration_s is None:
        transfer_bytes = DEFAULT_TRANSFER_BYTES
    E = check_int("transfer_bytes", transfer_bytes, minimum=1, maximum=4_000_000_000) if transfer_bytes is not None else None
    dur = None
    if duration_s is not None:
        dur = check_positive("duration_s", duration_s)
        if dur > 100_000:
            raise ValueError(f"duration_s must be in (0, 100000] seconds, got {dur!r}")
    snd = check_int("send_buffer_bytes", send_buffer_bytes, minimum=MSS_BYTES, maximum=1 << 30)
    rcv = check_int("receive_buffer_bytes", receive_buffer_bytes, minimum=MSS_BYTES, maximum=1 << 30)
    q = check_int("queue_packets", queue_packets, minimum=1, maximum=1_000_000)
    if not isinstance(variate_delay, (bool, np.bool_)):
        raise ValueError(f"variate_delay must be True or False, got {variate_delay!r}")
    if isinstance(loss_rate, (list, tuple, np.ndarray)):
        loss = floats("loss_rate", loss_rate, 0.0, 1.0)
        if len(loss) != len(rates):
            raise ValueError(f"loss_rate must be one number or one per path ({len(rates)}), got {len(loss)} values")
        if any(p >= 1 for p in loss):
            raise ValueError(f"loss_rate values must be in [0, 1), got {loss_rate!r}")
    else:
        loss = check_non_negative("loss_rate", loss_rate)
        if not loss < 1:
            raise ValueError(f"loss_rate must be in [0, 1), got {loss!r}")
    lsd = None if loss_seed is None else check_int("loss_seed", loss_seed, minimum=0, maximum=2**31 - 1)
    smp = check_positive("sample_s", sample_s)
    if smp > 60:
        raise ValueError(f"sample_s must be in (0, 60] seconds, got {smp!r}")
    sd = check_int("seed", seed, minimum=0, maximum=2**31 - 1)
    if not isinstance(frto_wall_clock, (bool, np.bool_)):
        raise ValueError(f"frto_wall_clock must be True or False, got {frto_wall_clock!r}")
    tmax = check_positive("max_sim_time_s", max_sim_time_s)
    check_run_size(rates, dur, smp, tmax)
    return PapersSimScenario(rates_bps=rates, one_way_delays_s=delays, congestion=cc, reordering=ro,
                             transfer_bytes=E, duration_s=dur, send_buffer_bytes=snd, receive_buffer_bytes=rcv,
                             queue_packets=q, variate_delay=bool(variate_delay), loss_rate=loss, sample_s=smp,
                             seed=sd, frto_wall_clock=bool(frto_wall_clock), max_sim_time_s=tmax,
                             loss_seed=lsd)


def check_run_size(capacities_bps, duration_s, sample_s, max_sim_time_s) -> None:
    """The bounds of the module docstring (``ValueError`` naming the parameter): ``max_sim_time_s``
    <= :data:`MAX_SIM_TIME_S`; in a duration run, every path's capacity x ``duration_s`` / 8 <=
    :data:`SUBFLOW_SEQUENCE_SPACE_BYTES`; at most :data:`MAX_SAMPLES` samples."""
    if not max_sim_time_s <= MAX_SIM_TIME_S:
        raise ValueError(f"max_sim_time_s must be <= {MAX_SIM_TIME_S:g} s (ns-3.7 keeps simulated time in 64-bit "
                         f"nanoseconds), got {max_sim_time_s!r}")
    horizon = duration_s if duration_s is not None else max_sim_time_s
    if duration_s is not None:
        top = max(capacities_bps)
        if top * duration_s / 8.0 > SUBFLOW_SEQUENCE_SPACE_BYTES:
            raise ValueError(
                f"duration_s = {duration_s!r} s is too long for a path of {top:g} bit/s: the model's 32-bit subflow "
                f"sequence numbers cover {SUBFLOW_SEQUENCE_SPACE_BYTES:.4g} B per path, so duration_s must be <= "
                f"{SUBFLOW_SEQUENCE_SPACE_BYTES * 8.0 / top:.6g} s (or use transfer_bytes)")
        if not duration_s < max_sim_time_s:
            raise ValueError(f"duration_s must be below max_sim_time_s ({max_sim_time_s!r} s), got {duration_s!r}")
    if horizon / sample_s > MAX_SAMPLES:
        raise ValueError(f"sample_s = {sample_s!r} s gives more than {MAX_SAMPLES} samples over "
                         f"{'duration_s' if duration_s is not None else 'max_sim_time_s'} = {horizon!r} s; "
                         f"sample_s must be >= {horizon / MAX_SAMPLES:.6g} s")


def work_estimate(sc) -> dict:
    """What a run can cost at most: ``bytes`` (what its paths can carry over its horizon, or its
    transfer), ``segments`` (of :data:`MSS_BYTES`) and ``horizon_s`` (simulated seconds).  Works for
    any scenario with ``path_capacity_bps()``, ``duration_s``, ``transfer_bytes``, ``max_sim_time_s``."""
    horizon = sc.duration_s if sc.duration_s is not None else sc.max_sim_time_s
    carried = sum(sc.path_capacity_bps()) * horizon / 8.0
    nbytes = min(carried, float(sc.transfer_bytes)) if sc.transfer_bytes is not None else carried
    return {"bytes": nbytes, "segments": math.ceil(nbytes / MSS_BYTES), "horizon_s": float(horizon)}


def default_timeout_s(sc) -> float:
    """The time :func:`run` waits for a run by default: :data:`TIMEOUT_BASE_S` + :data:`TIMEOUT_PER_SEGMENT_S`
    per segment of :func:`work_estimate`."""
    return TIMEOUT_BASE_S + TIMEOUT_PER_SEGMENT_S * work_estimate(sc)["segments"]


def check_timeout_s(timeout_s, sc) -> float:
    """``timeout_s`` validated (a finite number of seconds > 0); ``None``: :func:`default_timeout_s`."""
    if timeout_s is None:
        return default_timeout_s(sc)
    if isinstance(timeout_s, (bool, np.bool_)) or not isinstance(timeout_s, (int, float, np.integer, np.floating)):
        raise ValueError(f"timeout_s must be a number of seconds > 0 (or None: derived from the run's size), "
                         f"got {timeout_s!r}")
    t = float(timeout_s)
    if not (math.isfinite(t) and t > 0):
        raise ValueError(f"timeout_s must be a finite number of seconds > 0 (or None: derived from the run's size), "
                         f"got {timeout_s!r}")
    return t


# ---------------------------------------------------------------------------------------- results

@dataclass
class PapersSimResult(TransferResult):
    """A run of the model: :class:`~cmtlab.scenario.TransferResult` fields, ``subflows`` (one row per
    subflow), ``samples`` (time series) and the driver's raw ``output``."""

    subflows: pd.DataFrame = field(default_factory=pd.DataFrame, repr=False)
    delivered_bytes: int = 0
    output: dict = field(default_factory=dict, repr=False)

    @property
    def throughput_bps(self) -> float:
        return self.extra.get("goodput_bps", float("nan"))

    def row(self) -> dict:
        """One tidy row (the columns of :mod:`cmtlab.sim`'s MPTCP rows where they mean the same)."""
        sc = self.scenario
        row = {"simulator": self.simulator, "n_subflows": sc.n_subflows, "congestion": sc.congestion,
               "scheduler": "round_robin", "reordering": sc.reordering, "transfer_bytes": sc.transfer_bytes,
               "duration_s": sc.duration_s, "seed": sc.seed, "completed": self.completed,
               "completion_time_s": self.completion_time_s, "throughput_bps": self.throughput_bps,
               "data_segments_sent": self.data_segments_sent, "retransmissions": self.retransmissions,
               "fast_retransmits": self.fast_retransmits, "timeouts": self.timeouts,
               "spurious_retransmissions": self.spurious_retransmissions, "wall_time_s": self.wall_time_s,
               "scenario_key": sc.key()}
        row.update({k: v for k, v in self.extra.items() if np.isscalar(v)})
        for rec in self.subflows.to_dict("records"):
            i = rec.pop("subflow")
            row.update({f"sf{i}_{k}": v for k, v in rec.items()})
        return row

    to_row = row

    @property
    def samples(self) -> pd.DataFrame:
        return self.traces.get("samples", pd.DataFrame())


def _bins(t_rel: np.ndarray, values: np.ndarray, end_s: float, bin_s: float, *, cumulative: bool) -> np.ndarray:
    """Per-bin rates from samples at ``t_rel`` (s from the first data segment).  ``cumulative``:
    ``values`` are cumulative bytes → bit/s per bin; else the time-average of a step function."""
    n = int(np.ceil(end_s / bin_s - 1e-9)) if end_s > 0 else 0
    out = np.full(n, np.nan)
    if n == 0 or t_rel.size == 0:
        return out
    edges = np.arange(n + 1) * bin_s
    edges[-1] = min(edges[-1], end_s) if cumulative else edges[-1]
    if cumulative:
        at = np.interp(edges, t_rel, values)  # cumulative bytes at the edges (linear between samples)
        widths = np.diff(edges)
        with np.errstate(invalid="ignore", divide="ignore"):
            out = np.where(widths > 0, np.diff(at) * 8.0 / widths, np.nan)
        return out
    for i in range(n):  # step function: sample k holds until sample k+1
        m = (t_rel >= edges[i] - 1e-9) & (t_rel < edges[i + 1] - 1e-9)
        if m.any():
            out[i] = float(np.mean(values[m]))
    return out


def parse_output(sc: PapersSimScenario, out: dict, *, wall_time_s: float = float("nan"),
                 bin_s: float = BIN_S) -> PapersSimResult:
    """A :class:`PapersSimResult` from the driver's JSON output."""
    first = out["first_data_s"]
    samples = out["samples"]
    t = np.asarray(samples["t"], dtype=float)
    rel = t - first if first is not None and first >= 0 else t
    gt = np.asarray([np.nan if v is None else v for v in samples["global_throughput_bps"]], dtype=float)
    rx = np.asarray(samples["delivered_bytes"], dtype=float)
    frame = {"time_s": rel, "global_throughput_bps": gt, "delivered_bytes": rx,
             "ooo_segments": np.asarray(samples["ooo_segments"], dtype=float)}
    for i, col in enumerate(samples["cwnd"]):
        frame[f"sf{i}_cwnd_segments"] = np.asarray([np.nan if v is None else v for v in col], dtype=float)
    for i, col in enumerate(samples["rtt_est_s"]):
        frame[f"sf{i}_rtt_est_s"] = np.asarray([np.nan if v is None else v for v in col], dtype=float)
    trace = pd.DataFrame(frame)

    delivered = int(out["delivered_bytes"])
    if sc.transfer_bytes is not None:
        completed = bool(out["completed"]) and delivered == sc.transfer_bytes
        elapsed = out["done_s"] - first if completed else float("nan")
    else:
        elapsed = sc.duration_s
        completed = first is not None and first >= 0 and out["end_s"] >= first + sc.duration_s - 1e-9
    goodput = delivered * 8.0 / elapsed if completed and elapsed > 0 else float("nan")
    span = elapsed if completed else (out["end_s"] - first if first and first >= 0 else 0.0)

    subs, seg, retx, fast, rto = [], 0, 0, 0, 0
    for f in out["subflows"]:
        r = f["rto_retransmissions"] + f["fast_retransmissions"]
        subs.append({"subflow": f["index"], **sc.path_columns(f["index"]),
                     "segments_sent": f["segments_sent"] + r, "new_segments_sent": f["segments_sent"],
                     "bytes_sent": f["bytes_sent"], "retransmissions": r,
                     "fast_retransmits": f["fast_retransmissions"], "timeouts": f["timeouts"],
                     "three_dupack_events": f["third_dupacks"], "cwnd_reductions": f["cwnd_reductions"],
                     "model_drops": f["model_drops"], "final_cwnd_segments": f["final_cwnd"],
                     "final_cwnd_bytes": f["final_cwnd"] * f["mss"] if f["final_cwnd"] is not None else np.nan,
                     "final_ssthresh_bytes": f["final_ssthresh"], "final_rtt_est_s": f["final_rtt_est_s"],
                     "throughput_bps": f["bytes_sent"] * 8.0 / span if span > 0 else np.nan})
        seg += f["segments_sent"] + r
        retx += r
        fast += f["fast_retransmissions"]
        rto += f["timeouts"]

    data = trace[(trace.time_s >= 0) & (trace.time_s <= span + 1e-9)] if span > 0 else trace.iloc[:0]
    if len(data) >= 2:  # time-average of the step function "global throughput"
        tt = data.time_s.to_numpy()
        gg = data.global_throughput_bps.to_numpy()
        mean_gt = float(np.sum(gg[:-1] * np.diff(tt)) / (tt[-1] - tt[0])) if tt[-1] > tt[0] else float(gg[0])
    else:
        mean_gt = float("nan")
    extra = {"goodput_bps": goodput, "delivered_bytes": delivered, "model_global_throughput_bps": mean_gt,
             "model_global_throughput_final_bps": float(gt[-1]) if gt.size else float("nan"),
             "sim_time_s": span, "first_data_s": first, "variate_delay": getattr(sc, "variate_delay", False),
             "loss_rate": (",".join(f"{p:g}" for p in sc.loss_rate) if isinstance(sc.loss_rate, tuple)
                           else sc.loss_rate), "frto_clock": out.get("frto_clock"), "queue_drops": out["queue_drops"],
             "max_ooo_segments": out["max_ooo_segments"], "spurious_detections":
                 out["spurious_eifel"] + out["spurious_dsack"] + out["spurious_frto"],
             "spurious_eifel": out["spurious_eifel"], "spurious_dsack": out["spurious_dsack"],
             "spurious_frto": out["spurious_frto"], "dsack_acks": out["dsack_acks"],
             "model_warning_lines": out["warning_lines"], "code_version": code_version(),
             **sc.extra_columns(out)}
    end = span if span > 0 else 0.0
    for name, values, cum in (("tput", rx, True), ("gtput", gt, False)):
        for i, v in enumerate(_bins(rel, values, end, bin_s, cumulative=cum)):
            extra[f"{name}_bin_{i:04d}_bps"] = float(v)
    return PapersSimResult(simulator=SIMULATOR_NAME, scenario=sc, completed=completed,
                           completion_time_s=float(elapsed) if completed else float("nan"),
                           data_segments_sent=seg, retransmissions=retx, fast_retransmits=fast, timeouts=rto,
                           spurious_retransmissions=-1, wall_time_s=wall_time_s, traces={"samples": trace},
                           extra=extra, subflows=pd.DataFrame(subs), delivered_bytes=delivered, output=out)


# ---------------------------------------------------------------------------------------- running

_BUILT: dict[str, Path] = {}


def binary(*, build: bool = True, wifi: bool = False) -> Path:
    """The driver executable (``wifi``: the Wi-Fi driver), built (once per process, under a file lock)
    when ``build``."""
    from . import build as bld

    key = (str(bld.build_dir()), bool(wifi))
    if key in _BUILT:
        return _BUILT[key]
    if build:
        import fcntl

        lock_path = bld.build_dir().parent / "papers-sim.lock"
        lock_path.parent.mkdir(parents=True, exist_ok=True)
        with open(lock_path, "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            bld.ensure_built(wifi=wifi)
    path = bld.wifi_binary_path() if wifi else bld.binary_path()
    if not path.is_file():
        raise bld.BuildError(f"the papers' simulator is not built ({path} missing): run `make papers-sim`")
    _BUILT[key] = path
    return path


def run(sc: PapersSimScenario, *, timeout_s: float | None = None, release_acked: bool = True) -> PapersSimResult:
    """Run one :class:`PapersSimScenario` on the model (building it first if needed).

    ``timeout_s``: seconds to wait for the driver (``None``: :func:`default_timeout_s`, from the
    run's size).  ``release_acked=False`` runs the model without the performance patch 06
    (``--release-acked=0``: the published code, whose cost grows with the square of the run) —
    for comparisons; the result is the same.
    """
    if not isinstance(sc, PapersSimScenario):
        raise ValueError(f"run() takes a PapersSimScenario (cmtlab.papers_sim.scenario(...)), got {type(sc).__name__}")
    _check_run_options(sc, timeout_s, release_acked)   # before building anything
    return run_driver(sc, binary(), timeout_s=timeout_s, release_acked=release_acked)


def _check_run_options(sc, timeout_s, release_acked) -> float:
    timeout = check_timeout_s(timeout_s, sc)
    if not isinstance(release_acked, (bool, np.bool_)):
        raise ValueError(f"release_acked must be True or False, got {release_acked!r}")
    return timeout


def run_driver(sc, exe, *, timeout_s=None, release_acked: bool = True, parse=None):
    """Run scenario ``sc`` (anything with ``command(exe)``) on driver ``exe`` and parse its output
    (``parse``: default :func:`parse_output`); the errors of :func:`run`."""
    timeout = _check_run_options(sc, timeout_s, release_acked)
    env = {k: v for k, v in os.environ.items() if k != "NS_LOG"}  # ns-3 would read it
    cmd = sc.command(exe) + ([] if release_acked else ["--release-acked=0"])
    t0 = time.perf_counter()
    try:
        res = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        raise RuntimeError(f"the papers' simulator did not finish within timeout_s = {timeout:g} s"
                           f"{' (derived from the run size: default_timeout_s)' if timeout_s is None else ''} "
                           f"on {sc!r}") from exc
    wall = time.perf_counter() - t0
    if res.returncode != 0:
        raise RuntimeError(f"the papers' simulator failed (exit {res.returncode}) on {sc!r}:\n"
                           f"{res.stderr[-2000:]}")
    try:
        out = json.loads(res.stdout)
    except json.JSONDecodeError as exc:
        raise RuntimeError(f"the papers' simulator printed no result for {sc!r}: {res.stdout[-500:]!r}") from exc
    return (parse or parse_output)(sc, out, wall_time_s=wall)


def simulate(rates_bps, one_way_delays_s, **kw) -> PapersSimResult:
    """:func:`scenario` + :func:`run` in one call."""
    return run(scenario(rates_bps, one_way_delays_s, **kw))


# ---------------------------------------------------------------------------------------- code version

@functools.lru_cache(maxsize=None)
def code_version() -> str:
    """Version of everything a run depends on: the archive hashes, the patch files, the driver
    source, this front end and the compiler's version (part of every sweep cache key)."""
    from ..sweep import code_version as cv
    from . import build as bld

    try:
        compiler = bld.compiler_version()
    except bld.BuildError:
        compiler = "no-compiler"
    here = Path(__file__).resolve().parent
    sources = [bld.DRIVER_SOURCE, here / "model.py", here / "build.py", *sorted(bld.PATCH_DIR.glob("*.patch"))]
    return cv(*sources, extra=tuple(f"{a.name}={a.sha256}" for a in bld.ARCHIVES) + (f"compiler={compiler}",
                                                                                     f"bin_s={BIN_S}"))
