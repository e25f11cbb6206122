"""Arabi, Bozed, Zerek — DSACK, Eifel and F-RTO under four MPTCP congestion controls (sec. 4–6; SPEC row R1).

Two direct topologies (sec. 4): scenario 1, two links of 5 and 2 Mbit/s, both 100 ms; scenario 2,
three links of 5 Mbit/s/100 ms, 2 Mbit/s/10 ms and 7 Mbit/s/50 ms (:data:`SCENARIOS`).  For each
congestion control (uncoupled, fully coupled, linked increases, RTT compensation; sec. 3.1–3.4)
and reordering algorithm (none, DSACK, Eifel, F-RTO; sec. 3.6–3.8) the paper plots the *global
throughput of all subflows* over time (Figs. 8–9).

Heavy computation lives here, the chapter only plots: :func:`build_cases` lays out the runs as
:class:`~cmtlab.sim.multipath.MptcpScenario` objects with labels, :func:`run_cases` runs them through
:func:`cmtlab.sweep.run_sweep` (result cache, process pool, progress bar) with :func:`simulate` as the
simulator, :func:`summarise` takes means and 95 % Student-t confidence intervals over seeds, and
:func:`throughput_traces` the mean throughput over time.

**Choices the paper leaves open (all parameters; defaults and why).**

* **Delays are one-way.**  The paper modified ns-3's ``mpTopology.cc``, whose links are
  ``PointToPointHelper`` channels; their ``Delay`` attribute is the one-way propagation delay.  A
  "100 ms" path therefore has a 200 ms round trip; :data:`SCENARIOS` stores one-way delays and
  :func:`scenario` doubles them for the simulator (which takes round trips).
* **A 10-MB transfer, no random loss** (:data:`TRANSFER_BYTES`, :data:`LOSS_RATE`).  The paper
  states neither a run length nor a loss; the scenario program it modified (``mpTopology.cc``)
  sends 10 MB, and the papers' simulator run here (:mod:`cmtlab.papers.arabi.papers_sim`) shows that the
  model's algorithms differ widely *without* random loss: its receiver holds segments for
  data-level order and answers later ones with duplicate ACKs, so round robin over unequal paths
  triggers fast retransmits by itself.  60 s (:data:`DURATION_S`) of bulk transfer with 0.2 %
  Bernoulli loss (:data:`SENSITIVITY_LOSS_RATE`) is a sensitivity setting (seeded: the seed of a run
  draws its losses, which is what the confidence intervals are over).
* **Buffers.**  Drop-tail queues of 100 packets (ns-3's point-to-point default); the receive
  buffer is 1 MB (:data:`RECEIVE_BUFFER_BYTES`, larger than any window here: the Chihani–Collange
  model has no flow control and an unbounded out-of-order buffer); the chapter shows 64 KB too.
* **Segments.**  1460-byte payloads (the model's MSS), slow-start threshold 65535 B, initial window
  one segment (the model's) or three (RFC 5681's for 1460 B, RFC preset).

Presets (:data:`PRESETS`)
-------------------------
* ``"chihani"`` — the Chihani–Collange ns-3 MPTCP model the paper ran (``../shared/MECHANISMS.md``):
  congestion control and reordering responses with ``variant="chihani"``, its loss response
  (``recovery="chihani"``: halve, no fast recovery), its receiver (``dupack_mode="chihani"``: a
  segment ahead of the data sequence is buffered and not acknowledged), one ACK per segment,
  minimum RTO 0.2 s, initial window one segment.
* ``"chihani_dupack"`` — the same with Alheid et al.'s receiver (``dupack_mode="paper"``: such a
  segment is answered with a duplicate ACK), the other reading of the model's receiver.
* ``"chihani_ns3"`` — the ``chihani`` preset calibrated against the built model
  (:mod:`cmtlab.validation.papers_sim`): the model's receiver exactly (``dupack_mode="chihani_ns3"``:
  the subflow ACK stays at the first segment held for data-level order, every later segment of that
  subflow is answered with a duplicate ACK) and no SACK (the model counts plain duplicate ACKs).
* ``"rfc"`` — RFC behaviour: RFC 6356/paper congestion control, RFC 3708/3522+4015/5682 responses,
  NewReno fast recovery (RFC 6582) with SACK, RFC 8684 receiver, delayed ACKs, RFC 6298 minimum RTO
  1 s, initial window three segments.

SACK and timestamps are on in every preset (DSACK needs SACK, Eifel timestamps), so the four
algorithms differ only by their response.  OLIA has no Chihani variant; it runs as RFC-style OLIA.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..._validate import check_choice, check_int, check_non_negative, check_positive
from ...stats import mean_ci
from .paper import PAPER_CONGESTION, REORDERING, SCENARIOS
# the papers' simulator's 10-MB transfer and its throughput bins (s), so that both simulators' runs compare
from ...papers_sim.model import BIN_S, DEFAULT_TRANSFER_BYTES as TRANSFER_BYTES

#: A modern congestion control beside the paper's.
MODERN_CONGESTION = ("olia",)
#: Display names.
CC_LABELS = {"uncoupled": "uncoupled", "fully_coupled": "fully coupled", "lia": "LIA",
             "rtt_compensation": "RTT compensation", "olia": "OLIA"}
RO_LABELS = {"none": "none", "dsack": "DSACK", "eifel": "Eifel", "frto": "F-RTO"}
PRESET_NAMES = ("chihani", "chihani_dupack", "rfc", "chihani_ns3")

#: The main runs: mpTopology's 10-MB transfer (:data:`TRANSFER_BYTES`, the papers' simulator's default,
#: :data:`cmtlab.papers_sim.model.DEFAULT_TRANSFER_BYTES`) and no random loss (the paper states none).
LOSS_RATE = 0.0
#: The runs with random loss (sensitivity): 60 s of bulk transfer at 0.2 % loss.
DURATION_S = 60.0
SENSITIVITY_LOSS_RATE = 0.002
RECEIVE_BUFFER_BYTES = 1 << 20
QUEUE_PACKETS = 100
SEGMENT_BYTES = 1460
SSTHRESH_BYTES = 65535


@dataclass(frozen=True)
class Preset:
    """Receiver, sender and mechanism semantics of one run (see the module docstring)."""

    name: str
    dupack_mode: str
    variant: str | None          # congestion and reordering variant (None: the RFC/paper default)
    recovery: str
    m_ack: int
    min_rto_s: float
    initial_window_segments: int
    #: SACK (and timestamps) on; the calibrated ``chihani_ns3`` preset has no SACK, as the model.
    sack: bool = True
    #: Segment payload (bytes): 1460 in the older presets; the built model's MSS is the L3 MTU − 100 = 1400.
    segment_bytes: int = 1460
    #: TCP timestamps on (RTT samples from the echo); the model has none (its Eifel stamps only
    #: retransmissions), so ``chihani_ns3`` samples the RTT from the oldest unacknowledged
    #: segment, as ns-3.7's ``RttEstimator::AckSeq`` does, and keeps them only for Eifel.
    timestamps: bool = True


PRESETS = {
    "chihani": Preset("chihani", "chihani", "chihani", "chihani", 1, 0.2, 1),
    "chihani_dupack": Preset("chihani_dupack", "paper", "chihani", "chihani", 1, 0.2, 1),
    "rfc": Preset("rfc", "rfc", None, "newreno", 2, 1.0, 3),
    # calibrated against the built model (cmtlab.validation.papers_sim): its receiver exactly
    # (dupack_mode="chihani_ns3"), plain duplicate-ACK counting (no SACK)
    "chihani_ns3": Preset("chihani_ns3", "chihani_ns3", "chihani", "chihani_ns3", 1, 0.2, 1, sack=False,
                          segment_bytes=1400, timestamps=False),
}


def scenario(scenario_id: int, congestion: str, reordering: str, *, preset: str = "chihani",
             scheduler: str = "round_robin", duration_s: float = DURATION_S, loss_rate: float = LOSS_RATE,
             receive_buffer_bytes: int = RECEIVE_BUFFER_BYTES, queue_packets: int = QUEUE_PACKETS,
             seed: int = 0, paths=None, delays_are_round_trips: bool = False, transfer_bytes: int | None = None):
    """The :class:`~cmtlab.sim.multipath.MptcpScenario` of one run.

    ``transfer_bytes`` (if given) makes the run a transfer of that many bytes (until delivered)
    instead of ``duration_s`` of bulk transfer.
    ``scenario_id`` 1 or 2 (:data:`SCENARIOS`), or ``paths`` = ``(rates_bps, one_way_delays_s)``
    for another topology (then ``scenario_id`` is only a label); ``congestion`` and ``reordering``
    registered names; ``preset`` one of :data:`PRESETS`; ``loss_rate`` the Bernoulli packet-loss
    probability of every link's data direction.  ``delays_are_round_trips=True`` reads the stated
    delays as round trips instead of one-way delays (the alternative reading, for comparison).
    """
    from ...scenario import LossModel
    from ...sim import registry
    from ...sim.multipath import mptcp_scenario

    if paths is None:
        check_choice("scenario_id", scenario_id, tuple(SCENARIOS))
        rates, one_way = SCENARIOS[scenario_id]["rates_bps"], SCENARIOS[scenario_id]["one_way_delays_s"]
    else:
        try:
            rates, one_way = paths
        except (TypeError, ValueError):
            raise ValueError(f"paths must be (rates_bps, one_way_delays_s), got {paths!r}") from None
    check_choice("preset", preset, PRESET_NAMES)
    registry.lookup("congestion", congestion)
    registry.lookup("reordering", reordering)
    p = PRESETS[preset]
    loss_rate = check_non_negative("loss_rate", loss_rate)
    if not loss_rate < 1:
        raise ValueError(f"loss_rate must be in [0, 1), got {loss_rate!r}")
    if not isinstance(delays_are_round_trips, (bool, np.bool_)):
        raise ValueError(f"delays_are_round_trips must be True or False, got {delays_are_round_trips!r}")
    one_way = [check_non_negative("one_way_delays_s", d) / (2.0 if delays_are_round_trips else 1.0) for d in one_way]
    cc_params = {"variant": p.variant} if (p.variant and congestion in PAPER_CONGESTION) else None
    ro_variant = p.variant
    if preset == "chihani_ns3" and "chihani_ns3" in registry.variants("reordering", reordering):
        ro_variant = "chihani_ns3"  # calibrated against the built model
    ro_params = {"variant": ro_variant} if (p.variant and reordering != "none") else None
    if transfer_bytes is not None:
        transfer_bytes = check_int("transfer_bytes", transfer_bytes, minimum=1)
    return mptcp_scenario(
        list(rates), [2.0 * d for d in one_way], transfer_bytes=transfer_bytes,
        duration_s=None if transfer_bytes is not None else check_positive("duration_s", duration_s),
        congestion=congestion, congestion_params=cc_params, scheduler=scheduler,
        scheduler_params=({"variant": "chihani_ns3"} if preset == "chihani_ns3" and scheduler == "round_robin" else None),
        reordering=reordering,
        reordering_params=ro_params, dupack_mode=p.dupack_mode, receive_buffer_bytes=receive_buffer_bytes,
        segment_bytes=p.segment_bytes, initial_window_bytes=p.initial_window_segments * p.segment_bytes,
        ssthresh_bytes=SSTHRESH_BYTES, m_ack=p.m_ack, queue_packets=check_int("queue_packets", queue_packets, minimum=1),
        loss=LossModel("packet", loss_rate) if loss_rate > 0 else None, seed=seed,
        sack=p.sack or reordering == "dsack",
        timestamps=p.timestamps or reordering == "eifel", recovery=p.recovery, min_rto_s=p.min_rto_s,
        send_buffer_bytes=max(receive_buffer_bytes, 131072))


# ---------------------------------------------------------------------------------------- one run

def delivery_times_s(packets: pd.DataFrame) -> np.ndarray:
    """When each data-level segment reached the application, from a run's ``packets`` trace.

    A segment (DSN ``k``) is delivered when its first copy has arrived *and* every DSN below it has
    been delivered: the running maximum over DSNs of the first arrival.  Only the leading run of
    DSNs that arrived is returned (those the application holds at the end).
    """
    got = packets.dropna(subset=["arrival_s"])
    if got.empty:
        return np.zeros(0)
    first = got.groupby("dsn")["arrival_s"].min()
    dsn = first.index.to_numpy()
    # the leading contiguous block 0..m-1
    m = int(np.argmax(dsn != np.arange(dsn.size))) if np.any(dsn != np.arange(dsn.size)) else dsn.size
    return np.maximum.accumulate(first.to_numpy()[:m])


def throughput_bins(delivery_s: np.ndarray, segment_bytes: int, duration_s: float, bin_s: float = BIN_S) -> np.ndarray:
    """Application throughput (bit/s) per bin of ``bin_s`` over ``[0, duration_s)`` from delivery times.

    ``sum(bins) * bin_s / 8`` is the bytes delivered before the end of the last bin.
    """
    bin_s = check_positive("bin_s", bin_s)
    n = int(np.ceil(check_positive("duration_s", duration_s) / bin_s - 1e-9))
    counts, _ = np.histogram(np.asarray(delivery_s, dtype=float), bins=n, range=(0.0, n * bin_s))
    return counts * segment_bytes * 8.0 / bin_s


def simulate(sc, *, bin_s: float = BIN_S):
    """Run one scenario; the result's row gains the throughput over time.

    ``extra`` (and so :meth:`~cmtlab.sim.multipath.MptcpResult.row`) gets ``tput_bin_<i>_bps``, the
    bytes delivered in order to the application in bin ``i`` of ``bin_s`` seconds from the first
    data segment, and ``mean_throughput_bps`` = delivered bytes × 8 / duration (the mean of the bins).
    The delivery times are recorded at the connection's sink (each subflow receiver's
    ``sink``, :meth:`cmtlab.sim.mptcp.MptcpConnection.deliver`) whenever the data-level
    ``rcv_dsn`` advances — without the packet traces, so memory stays independent of the run's
    length; :func:`delivery_times_s` computes the same from a ``packets`` trace (tested).
    """
    from ...sim.multipath import MptcpSimulation

    asked, sc = sc, with_frto_clock(sc)
    simulation = MptcpSimulation(sc)
    conn = simulation.conn
    log_t, log_n = [], []

    def recording(orig):
        def sink(now, rcv, first, end):
            before = conn.rcv_dsn
            hold = orig(now, rcv, first, end)
            if conn.rcv_dsn != before:
                log_t.append(now)
                log_n.append(conn.rcv_dsn - before)
            return hold
        return sink

    for rcv in conn.receivers:
        rcv.sink = recording(rcv.sink)
    r = simulation.run()
    dur = sc.duration_s if sc.duration_s is not None else r.completion_time_s
    t = (np.asarray(log_t, dtype=np.int64) - simulation.first_data_ns) / 1e9
    n = int(np.ceil(dur / bin_s - 1e-9))
    counts, _ = np.histogram(t, bins=n, range=(0.0, n * bin_s), weights=np.asarray(log_n, dtype=float))
    bins = counts * sc.segment_bytes * 8.0 / bin_s
    r.extra["mean_throughput_bps"] = r.delivered_bytes * 8.0 / dur
    if sc is not asked:   # the clock is a function of the seed: the result answers the scenario asked for
        r.extra["frto_clock"] = int(dict(sc.reordering_params)["clock"])
        r.scenario = asked
    for i, v in enumerate(bins):
        r.extra[f"tput_bin_{i:04d}_bps"] = float(v)
    return r


def with_frto_clock(sc):
    """``sc`` with the calibrated F_RTO's wall-clock value set from the seed (``chihani_ns3`` preset).

    The papers' simulator's F_RTO discards ACKs with a probability computed from the wall clock; its
    repetition ``seed`` reads :func:`cmtlab.papers_sim.frto_clock` (``seed``).  The calibrated preset's
    F_RTO (:class:`cmtlab.sim.models.chihani.ChihaniNs3Frto`) takes that value as ``clock``: seed ``s``
    of a preset run is then the preset's twin of the model's repetition ``s``.  Other scenarios, and
    one whose ``clock`` is already set, are returned unchanged.
    """
    params = dict(sc.reordering_params or ())
    if sc.reordering != "frto" or params.get("variant") != "chihani_ns3" or "clock" in params:
        return sc
    from ...papers_sim.model import frto_clock

    params["clock"] = int(frto_clock(sc.seed))
    return sc.replace(reordering_params=tuple(sorted(params.items())))


def code_version() -> str:
    """Version of everything a run depends on: every source file this module can import (the
    simulator among them, :func:`cmtlab.sweep.closure_version`) and :data:`BIN_S`."""
    from ...sweep import closure_version

    return closure_version(__name__, extra=(f"bin_s={BIN_S}",))


def simulator():
    """The :class:`cmtlab.sweep.Simulator` running :func:`simulate` (its name keys the cache folder)."""
    from ...sweep import Simulator

    return Simulator(name="cmtlab-arabi", run="cmtlab.papers.arabi.experiments:simulate", code_version=code_version())


# ---------------------------------------------------------------------------------------- cases

def build_cases(*, scenarios=(1, 2), congestion=PAPER_CONGESTION, reordering=REORDERING, presets=("chihani", "rfc"),
                schedulers=("round_robin",), setting: str = "main", **scenario_kw) -> list[tuple[dict, object]]:
    """``(labels, MptcpScenario)`` for every scenario × preset × scheduler × congestion × reordering.

    Labels: ``setting`` (a name for the choice of loss/buffer/duration), ``scenario``, ``preset``,
    ``scheduler``, ``congestion``, ``reordering``.  ``scenario_kw`` go to :func:`scenario`
    (``duration_s``, ``loss_rate``, ``receive_buffer_bytes``, ``queue_packets``, ``paths``).
    Seeds are added by :func:`run_cases`.
    """
    out = []
    for name, values in (("scenarios", scenarios), ("congestion", congestion), ("reordering", reordering),
                         ("presets", presets), ("schedulers", schedulers)):
        if isinstance(values, str) or not len(list(values)):
            raise ValueError(f"{name} must be a non-empty sequence, got {values!r}")
    for sid in scenarios:
        for preset in presets:
            for sched in schedulers:
                for cc in congestion:
                    for ro in reordering:
                        labels = {"setting": setting, "scenario": sid, "preset": preset, "scheduler": sched,
                                  "congestion": cc, "reordering": ro}
                        out.append((labels, scenario(sid, cc, ro, preset=preset, scheduler=sched, **scenario_kw)))
    return out


def run_cases(cases, seeds=range(5), *, workers=None, cache=True, cache_dir=None, progress=True) -> pd.DataFrame:
    """Run every case for every seed with :func:`cmtlab.sweep.run_sweep`; one row per run.

    Columns: the labels, ``seed``, ``mean_throughput_bps``, ``tput_bin_*_bps`` and the engine's row
    (``fast_retransmits``, ``timeouts``, ``spurious_undos``, per-subflow ``sf<i>_*``, …).
    """
    from ...sweep import run_sweep

    seeds = [check_int("seeds", s, minimum=0) for s in seeds]
    if not seeds or len(set(seeds)) != len(seeds):
        raise ValueError(f"seeds must hold distinct integers >= 0, got {seeds!r}")
    cases = list(cases)
    if not cases:
        raise ValueError("cases must hold at least one (labels, scenario) pair")
    return run_sweep(simulator(), cases, seeds=seeds, workers=workers, cache=cache, cache_dir=cache_dir,
                     progress=progress)


# ---------------------------------------------------------------------------------------- summaries

LABELS = ("setting", "scenario", "preset", "scheduler", "congestion", "reordering")


def summarise(table: pd.DataFrame, by=LABELS, value: str = "mean_throughput_bps") -> pd.DataFrame:
    """Mean, 95 % CI half-width and number of seeds of ``value`` per group, plus mean counters."""
    by = [c for c in by if c in table.columns]
    rows = []
    for key, g in table.groupby(by, sort=False):
        m, h, _ = mean_ci(g[value].to_numpy())
        row = dict(zip(by, key if isinstance(key, tuple) else (key,)))
        row.update({"mean_bps": m, "ci95_bps": h, "seeds": len(g)})
        for c in ("fast_retransmits", "timeouts", "spurious_undos", "spurious_detections", "retransmissions"):
            if c in g:
                row[c] = float(g[c].mean())
        rows.append(row)
    return pd.DataFrame(rows)


def bin_columns(table: pd.DataFrame) -> list[str]:
    return sorted(c for c in table.columns if c.startswith("tput_bin_") and c.endswith("_bps"))


def throughput_traces(table: pd.DataFrame, by=LABELS) -> pd.DataFrame:
    """Throughput over time, mean and 95 % CI over seeds: ``by`` columns, ``time_s`` (bin centre), ``mean_bps``, ``ci95_bps``."""
    cols = bin_columns(table)
    if not cols:
        raise ValueError("table has no tput_bin_*_bps columns (rows of run_cases)")
    by = [c for c in by if c in table.columns]
    rows = []
    for key, g in table.groupby(by, sort=False):
        base = dict(zip(by, key if isinstance(key, tuple) else (key,)))
        x = g[cols].to_numpy(dtype=float)
        for i, c in enumerate(cols):
            col = x[:, i]
            col = col[np.isfinite(col)]
            if col.size == 0:
                continue
            m, h, _ = mean_ci(col)
            rows.append({**base, "time_s": (i + 0.5) * BIN_S, "mean_bps": m, "ci95_bps": h})
    return pd.DataFrame(rows)


def pivot(summary: pd.DataFrame, *, preset: str, scenario_id: int, scheduler: str = "round_robin",
          setting: str = "main", value: str = "mean_bps") -> pd.DataFrame:
    """Congestion control (rows) × reordering algorithm (columns) of one preset and scenario."""
    s = summary[(summary.preset == preset) & (summary.scenario == scenario_id) & (summary.scheduler == scheduler)
                & (summary.setting == setting)]
    if s.empty:
        raise ValueError(f"no rows for preset={preset!r}, scenario={scenario_id!r}, scheduler={scheduler!r}, "
                         f"setting={setting!r}")
    out = s.pivot(index="congestion", columns="reordering", values=value)
    rows = [c for c in (*PAPER_CONGESTION, *MODERN_CONGESTION) if c in out.index]
    cols = [c for c in REORDERING if c in out.columns]
    return out.loc[rows, cols]


def _pivot_or_none(summary: pd.DataFrame, **kw) -> pd.DataFrame | None:
    try:
        return pivot(summary, **kw)
    except ValueError:
        return None


def claims(summary: pd.DataFrame, *, preset: str, scheduler: str = "round_robin", setting: str = "main",
           congestion=PAPER_CONGESTION) -> dict:
    """The numbers behind the paper's claims (sec. 5–6) for one preset/scheduler/setting and congestion set.

    ``best`` — (congestion, reordering, mean bit/s) of the highest mean in scenario 2;
    ``dsack_s2_bps`` — {congestion: DSACK's mean in scenario 2}; ``dsack_uncoupled_s2_bps``;
    ``frto_vs_none``, ``eifel_vs_none``, ``dsack_vs_none`` — scenario 2 relative change against no
    algorithm, averaged over the congestion controls; ``eifel_gain`` — {scenario: mean relative gain
    of Eifel over none for uncoupled, LIA and RTT compensation (all congestion controls if none of
    those is present)}; ``dsack_rttc_rank_s1`` — rank (1 = best) of DSACK + RTT compensation among
    the ``n_combinations`` combinations of scenario 1.

    Every number is taken over what ``summary`` holds.  What it lacks (a scenario, congestion
    control or algorithm not run) gives ``None`` (``best``, ``dsack_rttc_rank_s1``), NaN (the
    relative changes, ``dsack_uncoupled_s2_bps``) or a missing key (the dicts); whether a number
    over a subset still answers the paper's claim is decided by :func:`cmtlab.papers.arabi.comparison.comparison`.
    """
    nan = float("nan")
    s = summary[summary.congestion.isin(list(congestion))]
    s1 = _pivot_or_none(s, preset=preset, scenario_id=1, scheduler=scheduler, setting=setting)
    s2 = _pivot_or_none(s, preset=preset, scenario_id=2, scheduler=scheduler, setting=setting)
    out = {"best": None, "dsack_s2_bps": {}, "dsack_uncoupled_s2_bps": nan, "frto_vs_none": nan,
           "eifel_vs_none": nan, "dsack_vs_none": nan, "eifel_gain": {}, "dsack_rttc_rank_s1": None,
           "n_combinations": 0}
    if s2 is not None:
        stacked = s2.stack()
        (cc, ro) = stacked.idxmax()
        out["best"] = (cc, ro, float(stacked.max()))
        if "dsack" in s2.columns:
            out["dsack_s2_bps"] = {c: float(s2.loc[c, "dsack"]) for c in s2.index}
        out["dsack_uncoupled_s2_bps"] = out["dsack_s2_bps"].get("uncoupled", nan)
        for r in ("frto", "eifel", "dsack"):
            if r in s2.columns and "none" in s2.columns:
                out[f"{r}_vs_none"] = float((s2[r] / s2["none"] - 1).mean())
    for sid, t in ((1, s1), (2, s2)):
        if t is not None and {"eifel", "none"} <= set(t.columns):
            ccs = [c for c in ("uncoupled", "lia", "rtt_compensation") if c in t.index] or list(t.index)
            out["eifel_gain"][sid] = float((t.loc[ccs, "eifel"] / t.loc[ccs, "none"] - 1).mean())
    if s1 is not None:
        ranks = s1.stack().rank(ascending=False, method="min")
        out["n_combinations"] = int(ranks.size)
        if ("rtt_compensation", "dsack") in ranks.index:
            out["dsack_rttc_rank_s1"] = int(ranks.loc[("rtt_compensation", "dsack")])
    return out


# ---------------------------------------------------------------------------------------- sensitivity

#: The choices the paper leaves open, changed one at a time against the chapter's main setting
#: (``setting`` label → keyword arguments of :func:`scenario`).  The runs with random loss are
#: bulk transfers of ``duration_s`` (60 s), not the 10-MB transfer.
SENSITIVITY_VARIANTS = {
    "loss 0.2 %": {"loss_rate": SENSITIVITY_LOSS_RATE, "transfer_bytes": None},
    "loss 1 %": {"loss_rate": 0.01, "transfer_bytes": None},
    "receive buffer 64 KB": {"receive_buffer_bytes": 65536},
    "delays as round trips": {"delays_are_round_trips": True},
}
#: The imitation presets the sensitivity runs add (at the main setting and at 0.2 % loss):
#: the old ``chihani`` preset and its duplicate-ACK receiver.
IMITATION_PRESETS = ("chihani", "chihani_dupack")


def sensitivity_cases(*, scenarios=(1, 2), congestion=("uncoupled", "lia"), reordering=REORDERING,
                      presets=("chihani_ns3", "rfc"), variants=None, imitation_presets=IMITATION_PRESETS,
                      imitation_settings=("main", "loss 0.2 %"), **scenario_kw) -> list[tuple[dict, object]]:
    """The runs behind "where a choice changes a conclusion": the main setting (``setting="main"``),
    each of ``variants`` (default :data:`SENSITIVITY_VARIANTS`; label → change of :func:`scenario`'s
    arguments) applied alone, and the ``imitation_presets`` (default :data:`IMITATION_PRESETS`) at the
    ``imitation_settings``.  ``scenario_kw`` are the main setting (``transfer_bytes``, ``duration_s``,
    ``loss_rate``, ``receive_buffer_bytes``, …); see :func:`build_cases`.
    """
    variants = SENSITIVITY_VARIANTS if variants is None else dict(variants)
    unknown = [s for s in imitation_settings if s != "main" and s not in variants]
    if unknown:
        raise ValueError(f"imitation_settings must be 'main' or labels of variants {sorted(variants)}, got {unknown!r}")
    grid = dict(scenarios=scenarios, congestion=congestion, reordering=reordering)
    cases = build_cases(presets=presets, setting="main", **grid, **scenario_kw)
    if imitation_presets and "main" in imitation_settings:
        cases += build_cases(presets=imitation_presets, setting="main", **grid, **scenario_kw)
    for name, change in variants.items():
        cases += build_cases(presets=presets, setting=name, **grid, **{**scenario_kw, **change})
        if imitation_presets and name in imitation_settings:
            cases += build_cases(presets=imitation_presets, setting=name, **grid, **{**scenario_kw, **change})
    return cases


# ---------------------------------------------------------------------------------------- the chapter

def chapter_cases(*, scenarios=(1, 2), congestion=PAPER_CONGESTION, reordering=REORDERING, presets=("chihani_ns3", "rfc"),
                  modern: bool = True, **scenario_kw) -> list[tuple[dict, object]]:
    """The chapter's main cases (:func:`build_cases`): the paper's congestion controls with round robin, and with
    ``modern`` also OLIA with round robin and LIA and OLIA with the lowest-RTT scheduler.  ``scenario_kw``: the main
    setting (``transfer_bytes``, ``duration_s``, ``loss_rate``, ``receive_buffer_bytes``, …)."""
    grid = dict(scenarios=scenarios, reordering=reordering, presets=presets)
    cases = build_cases(congestion=congestion, **grid, **scenario_kw)
    if modern:
        cases += build_cases(congestion=["olia"], **grid, **scenario_kw)
        cases += build_cases(congestion=["lia", "olia"], schedulers=["lowest_rtt"], **grid, **scenario_kw)
    return cases


__all__ = ["MODERN_CONGESTION", "CC_LABELS", "RO_LABELS", "PRESETS",
           "PRESET_NAMES", "Preset", "DURATION_S", "LOSS_RATE", "SENSITIVITY_LOSS_RATE", "TRANSFER_BYTES", "with_frto_clock", "RECEIVE_BUFFER_BYTES", "QUEUE_PACKETS", "SEGMENT_BYTES",
           "BIN_S", "SENSITIVITY_VARIANTS", "IMITATION_PRESETS", "sensitivity_cases", "scenario", "delivery_times_s", "throughput_bins", "simulate", "code_version", "simulator",
           "build_cases", "run_cases", "summarise", "throughput_traces", "bin_columns", "pivot", "claims",
           "LABELS", "chapter_cases"]
