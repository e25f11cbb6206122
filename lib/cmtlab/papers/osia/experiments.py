"""OSIA's simulation experiments (Wang, Liao, Li, secs. 5.1–5.4; SPEC rows O3–O5): scenarios, runs, tables.

* **O3, Fig. 7** — the number of 3-dupACK events (fast retransmits) of one transfer over two paths,
  on a grid of ``D2/D1 × BW2/BW1`` with path 1 fixed at 50 ms and 1 Mbit/s (:func:`fig7_grid`);
* **O4, Fig. 8** — the goodput of a 500-packet transfer on the same grid;
* **O5, Fig. 9** — the goodput against the number of paths 1…4 with Table 1's rates and delays
  (:func:`fig9_cases`; 4 Mbit/s in total);

for the paper's schedulers ``round_robin``, ``cwnd_aware``, ``flow_level`` and ``osia``, plus
``lowest_rtt`` and ``edpf`` as modern baselines the paper lacks (:data:`SCHEDULERS`).  Each path
is a point-to-point link whose forward direction carries the path model of sec. 5.1
(:class:`PathModel`: Pareto on-off cross traffic and a varying bit-error rate,
:mod:`cmtlab.sim.net.cross_traffic`); the ACKs return over the reverse direction of the same path.

Heavy computation is here; the chapter only plots.  :func:`build_runs` lays out the runs (one
:class:`OsiaRun` per case × scheduler × seed; a scheduler may also be a :data:`VARIANTS` label),
:func:`run_experiment` runs them — on the multipath engine through :func:`cmtlab.sweep.run_sweep`
(each run's :func:`scenario`; result cache keyed by the scenario and the simulator's code version,
process pool, progress bar of :mod:`cmtlab.progress`) — and returns a tidy DataFrame (one row per
run; :func:`summarise` takes the means over seeds).  :func:`run_models` does that for several path
models at once, :func:`window_study` repeats a grid per initial window, and
:func:`decision_profile` counts how often a scheduler had a real choice (two or more subflows with
room), the reason lowest-RTT and EDPF coincide with round robin when windows bind.

**Choices the paper leaves open (all parameters; defaults and why).**

* **Delays.**  Table 1 and sec. 5.2 give "propagation delay"/"average delay"; OSIA's model (sec.
  3.2) works with one-way delays ``d_i``, so they are read as one-way delays: a path of delay
  ``d`` has ``d`` in each direction, a round trip of ``2 d`` (the ``delays_s`` the simulator takes
  are round trips).  Path 1 of Figs. 7–8: ``d_1`` = 50 ms, 1 Mbit/s.
* **Grid.**  The paper's axis ranges are not legible from the captions; :data:`DELAY_RATIOS` =
  (0.5, 1, 2, 4, 8) and :data:`BW_RATIOS` = (0.25, 0.5, 1, 2, 4) — path 2 from half to eight
  times path 1's delay (25–400 ms) and from a quarter to four times its rate.
* **Transfer for Fig. 7.**  The paper streams a movie trace for an unstated time; Fig. 7 here
  counts the events of a 2000-packet transfer (:data:`FIG7_PACKETS`; sec. 5.3 says only the
  number of packets changes for Fig. 8: 500).  Fig. 9 uses 2000 packets too.
* **Packets.**  1000-byte TCP payloads (sec. 5.1: "MTU 1 Kbytes"); the frame loss of the BER uses
  the packet's bytes on the wire.
* **Seeds.**  The paper averages "multiple simulation runs"; the chapter uses the seeds it names
  (full profile 0…9).  Seed ``s`` drives every random stream of a run (cross traffic, BER and
  loss draws per path, probabilistic schedulers), so all schedulers of one seed see the *same*
  cross traffic and BER trajectories (common random numbers).
* **Path model.**  :class:`PathModel` defaults: cross traffic with mean load 0.25 of the link rate
  (peak half the rate), Pareto shape 1.5 on [10 ms, 1 s]; BER in [1e-5, 1e-3] with mean 2e-5,
  redrawn every 100 ms; drop-tail queues of 100 packets.  ``PathModel(ber=False)`` and
  ``PathModel(cross_load=0)`` switch the two parts off.
* **Initial window.**  One segment per subflow (``initial_window_bytes`` option; SCTP would start
  with four 1 KB packets, RFC 4960 sec. 7.2.1).  A 500-packet transfer is then mostly slow start,
  which decides how often a scheduler can choose and whether OSIA's open-loop plan can be carried
  (:func:`window_study`).
* **Scheduling period.**  "The scheduling periods of all schemes are set as 1 s": passed to the
  schedulers that have a period (``period_s`` of ``osia`` and ``flow_level``; the others decide per
  packet).

The simulator is :func:`cmtlab.sim.simulate_mptcp` (one connection, one subflow per path, each
with its own congestion control and a connection-level scheduler).  Two things differ from the
paper's cmpSCTP and matter for reading the results:

* MPTCP numbers each subflow's segments separately, so reordering *across* paths never produces
  duplicate ACKs on a subflow: its 3-dupACK events come from losses (cross-traffic queue drops, bit
  errors) and from reordering within a path only, and cross-path reordering shows up as
  connection-level reordering (receive-buffer occupancy, head-of-line blocking) instead.  The
  paper's CMT transport has one sequence space across paths, like :func:`simulate_tunnel` (one TCP
  striped below TCP), which is where round robin's reordering turns into fast retransmits;
* in the ``"paper"`` duplicate-ACK mode a segment that arrives ahead of the data sequence is not
  acknowledged until the gap closes (its subflow answers with a duplicate ACK).  Data a scheduler
  sends early on a slow path — OSIA's idea — therefore waits for its ACK whenever the faster paths
  fall behind, and times out spuriously when that wait exceeds the subflow's RTO; a CMT-SCTP
  receiver would acknowledge it selectively (gap blocks).  ``dupack_mode="rfc"`` is MPTCP proper;
* the schedulers see each path's capacity ``b_i`` (``sub.path.rate_bps``); the cross traffic
  leaves ``1 − cross_load`` of it on average (the paper's ``b_i`` is an "average available
  bandwidth", sec. 3.2).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np
import pandas as pd

from ..._validate import MAX_DURATION_S, check_duration_s, check_int, check_positive
from ...scenario import KeyedScenario
from .paper import PAPER_SCHEDULERS, PATH1_DELAY_S, PATH1_RATE_BPS, SCHEDULING_PERIOD_S, SEGMENT_BYTES

#: Two modern baselines beside the paper's schedulers.
MODERN_SCHEDULERS = ("lowest_rtt", "edpf")
SCHEDULERS = PAPER_SCHEDULERS + MODERN_SCHEDULERS
#: Scheduler variants a grid may name like a scheduler: label -> (registered scheduler, parameters).
VARIANTS = {"osia_every_period": ("osia", {"replan": "every_period"})}

#: Default grid of Figs. 7–8 (path 2 relative to path 1).
DELAY_RATIOS = (0.5, 1.0, 2.0, 4.0, 8.0)
BW_RATIOS = (0.25, 0.5, 1.0, 2.0, 4.0)
#: Packets of the Fig. 7 transfer (the paper streams a trace; see the module docstring), Fig. 8 (sec. 5.3)
#: and Fig. 9.
FIG7_PACKETS = 2000
FIG8_PACKETS = 500
FIG9_PACKETS = 2000
EXPERIMENTS = ("fig7", "fig8", "fig9")


# ---------------------------------------------------------------------------------------- path model

@dataclass(frozen=True)
class PathModel:
    """The path model of sec. 5.1 (see :mod:`cmtlab.sim.net.cross_traffic` for what each field means).

    ``cross_load`` — long-run fraction of each link's rate taken by the Pareto on-off cross traffic
    (0 switches it off); ``shape``, ``min_period_s``, ``max_period_s`` — its on/off periods;
    ``ber`` — bit errors on or off, with ``ber_mean``, ``ber_low``, ``ber_high``, ``ber_period_s``;
    ``queue_packets`` — drop-tail limit of every link direction.
    """

    cross_load: float = 0.25
    shape: float = 1.5
    min_period_s: float = 0.010
    max_period_s: float = 1.0
    ber: bool = True
    ber_mean: float = 2e-5
    ber_low: float = 1e-5
    ber_high: float = 1e-3
    ber_period_s: float = 0.1
    queue_packets: int = 100

    def __post_init__(self):
        load = self.cross_load
        if isinstance(load, bool) or not isinstance(load, (int, float)) or not 0 <= load < 1:
            raise ValueError(f"cross_load must be a number in [0, 1) (fraction of the link rate), got {load!r}")
        if not isinstance(self.ber, (bool, np.bool_)):
            raise ValueError(f"ber must be True or False, got {self.ber!r}")
        check_int("queue_packets", self.queue_packets, minimum=1)
        # the processes validate the rest; build one of each now so bad values fail here
        self.forward_link(1e6, 0.01, seed=0, stream=0)

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)

    def forward_link(self, rate_bps: float, one_way_delay_s: float, *, seed: int, stream: int):
        """The forward (data) direction of one path: a link with this model's cross traffic and BER."""
        from ...sim.net.link import PointToPointLink
        from ...sim.net.cross_traffic import BER_NAMES, BitErrorLink, BitErrorProcess, CrossTrafficLink

        ber = (BitErrorProcess(mean=self.ber_mean, low=self.ber_low, high=self.ber_high,
                               period_s=self.ber_period_s, seed=seed, stream=stream, names=BER_NAMES)
               if self.ber else None)
        if self.cross_load > 0:
            return CrossTrafficLink(rate_bps, one_way_delay_s, self.queue_packets, mean_load=self.cross_load,
                                    shape=self.shape, min_period_s=self.min_period_s,
                                    max_period_s=self.max_period_s, ber=ber, seed=seed, stream=stream)
        if ber is not None:
            return BitErrorLink(rate_bps, one_way_delay_s, self.queue_packets, ber=ber, seed=seed, stream=stream)
        return PointToPointLink(rate_bps, one_way_delay_s, self.queue_packets)

    def link_spec(self) -> tuple:
        """This model as a scenario's ``links`` entry ``(registered link name, params)`` (one per path)."""
        ber = {"ber": bool(self.ber), "ber_mean": self.ber_mean, "ber_low": self.ber_low, "ber_high": self.ber_high,
               "ber_period_s": self.ber_period_s} if self.ber else {"ber": False}
        if self.cross_load > 0:
            return ("pareto_cross_traffic", dict(mean_load=self.cross_load, shape=self.shape,
                                                 min_period_s=self.min_period_s, max_period_s=self.max_period_s,
                                                 **ber))
        if self.ber:
            return ("varying_ber", ber)
        return ("point_to_point", {})

    def reverse_link(self, rate_bps: float, one_way_delay_s: float):
        """The reverse (ACK) direction of one path: a plain link (the paper says nothing about it)."""
        from ...sim.net.link import PointToPointLink

        return PointToPointLink(rate_bps, one_way_delay_s, self.queue_packets)


# ---------------------------------------------------------------------------------------- one run

@dataclass(frozen=True)
class OsiaRun(KeyedScenario):
    """One transfer of one experiment: paths, scheduler, seed, size and path model (cacheable).

    ``rates_bps`` and ``one_way_delays_s`` per path (the paper's ``b_i``, ``d_i``);
    ``packets`` TCP segments of ``segment_bytes``; ``scheduler`` one of :data:`SCHEDULERS`
    (a registered ``"scheduler"`` name); ``options`` extra keywords for
    :func:`cmtlab.sim.simulate_mptcp`, as sorted ``(name, value)`` pairs.  ``congestion``:
    uncoupled NewReno per subflow by default (the paper's cmpSCTP keeps a window per path);
    ``dupack_mode``: ``"paper"`` by default — a segment that arrives ahead of the data sequence is
    answered with a duplicate ACK on its subflow, so cross-path reordering reaches the sender as
    duplicate ACKs, as in the paper's single-sequence-space CMT transport (``"rfc"``: MPTCP proper).
    """

    #: The columns of every row of a run (:func:`result_row`, :func:`sweep_row`): the schema a cached
    #: row is checked against (:func:`cmtlab.sweep.cache.row_fields`).
    ROW_FIELDS: ClassVar[tuple] = ("completed", "completion_time_s", "goodput_bps", "dupack_events", "timeouts",
                                   "retransmissions", "spurious_retransmissions", "data_segments_sent")

    experiment: str
    rates_bps: tuple
    one_way_delays_s: tuple
    scheduler: str
    seed: int = 0
    packets: int = FIG8_PACKETS
    segment_bytes: int = SEGMENT_BYTES
    congestion: str = "newreno"
    dupack_mode: str = "paper"
    path_model: PathModel = field(default_factory=PathModel)
    options: tuple = ()

    def __post_init__(self):
        if self.experiment not in EXPERIMENTS:
            raise ValueError(f"experiment must be one of {EXPERIMENTS}, got {self.experiment!r}")
        rates = tuple(float(check_positive("rates_bps", r)) for r in self.rates_bps)
        # the simulator takes round trips (2 d): each at most MAX_DURATION_S
        delays = tuple(float(check_duration_s("one_way_delays_s", d, zero=True, maximum=MAX_DURATION_S / 2))
                       for d in self.one_way_delays_s)
        if not rates or len(rates) != len(delays):
            raise ValueError(f"rates_bps and one_way_delays_s must have the same length >= 1, "
                             f"got {len(rates)} and {len(delays)}")
        object.__setattr__(self, "rates_bps", rates)
        object.__setattr__(self, "one_way_delays_s", delays)
        if not isinstance(self.scheduler, str) or not self.scheduler:
            raise ValueError(f"scheduler must be a scheduler name, e.g. one of {SCHEDULERS}, got {self.scheduler!r}")
        check_int("seed", self.seed, minimum=0)
        check_int("packets", self.packets, minimum=1)
        check_int("segment_bytes", self.segment_bytes, minimum=1)
        if not isinstance(self.path_model, PathModel):
            raise ValueError(f"path_model must be a PathModel, got {self.path_model!r}")
        opts = dict(self.options)
        object.__setattr__(self, "options", tuple(sorted(opts.items())))

    @property
    def n_paths(self) -> int:
        return len(self.rates_bps)

    @property
    def transfer_bytes(self) -> int:
        return self.packets * self.segment_bytes

    @property
    def rtts_s(self) -> list:
        """Round-trip propagation delays (the simulator's ``delays_s``): ``2 d_i``."""
        return [2.0 * d for d in self.one_way_delays_s]

    def to_dict(self) -> dict:
        d = dataclasses.asdict(self)
        d["rates_bps"] = list(self.rates_bps)
        d["one_way_delays_s"] = list(self.one_way_delays_s)
        d["options"] = {k: v for k, v in self.options}
        return d

    def links(self) -> tuple[list, list]:
        """``(forward, reverse)`` link objects, one per path; path ``i`` uses stream ``i`` of the run's seed."""
        fwd = [self.path_model.forward_link(b, d, seed=self.seed, stream=i)
               for i, (b, d) in enumerate(zip(self.rates_bps, self.one_way_delays_s))]
        rev = [self.path_model.reverse_link(b, d) for b, d in zip(self.rates_bps, self.one_way_delays_s)]
        return fwd, rev


def scheduler_params(name: str) -> dict:
    """Parameters of the named scheduler in these experiments (sec. 5.1: scheduling period 1 s)."""
    return {"period_s": SCHEDULING_PERIOD_S} if name in ("osia", "flow_level") else {}


def simulate(run: OsiaRun) -> dict:
    """Run one :class:`OsiaRun` with :func:`cmtlab.sim.simulate_mptcp`'s engine; one flat result row.

    ``goodput_bps`` = transfer bytes × 8 / completion time (application bytes delivered in order,
    retransmissions excluded — the paper's goodput); ``dupack_events`` = fast retransmits over all
    subflows (entries into loss recovery on the third duplicate ACK).  The scenario is
    :func:`scenario`: :func:`cmtlab.sim.multipath.mptcp_scenario` of the run's rates, round trips,
    scheduler (with :func:`scheduler_params`, updated by an option ``scheduler_params``),
    congestion control, segment size (initial window one segment unless an option sets
    ``initial_window_bytes``), ``dupack_mode`` and ``options``; the access links are the path
    model's (:meth:`PathModel.link_spec`, path ``i`` on stream ``i`` of the run's seed, as
    :meth:`OsiaRun.links`).  :func:`run_experiment` runs the same scenarios through
    :func:`cmtlab.sweep.run_sweep` and gives the same rows (:func:`sweep_row`).
    """
    from ...sim import multipath

    simulation = multipath.MptcpSimulation(scenario(run))
    row = sweep_row(simulation.run().to_row(), run.n_paths)
    for i, lk in enumerate(simulation.access):
        st = lk.stats()
        if "cross_drops" in st:
            row[f"path{i + 1}_cross_drops"] = int(st["cross_drops"])
    return row


def sweep_row(row: dict, n_paths: int) -> dict:
    """A :func:`cmtlab.sweep.run_sweep` row of an MPTCP scenario as :func:`simulate`'s row.

    ``dupack_events`` = ``fast_retransmits``; goodput only for completed runs; per-path drops
    ``path<i>_loss_drops`` / ``path<i>_queue_drops`` from the subflows' ``sf<i-1>_…`` columns
    (the cross-traffic drops of :meth:`cmtlab.sim.net.cross_traffic.CrossTrafficLink.stats` are not in a sweep row).
    """
    done = bool(row.get("completed"))
    t = float(row["completion_time_s"]) if done else float("nan")
    out = {"completed": done, "completion_time_s": t,
           "goodput_bps": float(row["transfer_bytes"]) * 8 / t if done and t > 0 else float("nan"),
           "dupack_events": int(row["fast_retransmits"]), "timeouts": int(row["timeouts"]),
           "retransmissions": int(row["retransmissions"]),
           "spurious_retransmissions": int(row["spurious_retransmissions"]),
           "data_segments_sent": int(row["data_segments_sent"])}
    skip = {"simulator", "scenario_key", "code_version", "transfer_bytes", "duration_s", "seed", "congestion",
            "scheduler", "reordering", "dupack_mode", "n_subflows", "stop_reason", "throughput_bps"}
    for k, v in row.items():
        if k in out or k in skip or k.startswith("sf") or "wall" in k or "per_second" in k:
            continue
        if isinstance(v, (bool, int, float)) and not isinstance(v, str):
            out[k] = v
    for i in range(n_paths):
        for name in ("loss_drops", "queue_drops"):
            if f"sf{i}_{name}" in row:
                out[f"path{i + 1}_{name}"] = int(row[f"sf{i}_{name}"])
    for i in range(n_paths):
        if f"sf{i}_segments_sent" in row:
            out[f"path{i + 1}_segments_sent"] = int(row[f"sf{i}_segments_sent"])
    return out


def simulate_tunnel(run: OsiaRun) -> dict:
    """Run one :class:`OsiaRun` as *one* TCP connection striped round-robin below TCP (Song Fig. 5's tunnel).

    The scheduler field is ignored: packet ``j`` leaves on path ``j mod n`` (retransmissions
    included) and one sequence space spans all paths, so cross-path reordering reaches TCP as
    duplicate ACKs — the setting of round robin in a single-sequence-space CMT transport (the
    paper's cmpSCTP) and of :func:`cmtlab.papers.osia.rr_three_dupack_closed_form`.  Plain NewReno
    (:class:`cmtlab.scenario.TcpOptions` defaults, one window for all paths), initial window one
    segment, ``options`` as :func:`cmtlab.scenario.striped_scenario` keywords; same links as
    :func:`simulate`.
    """
    from ...scenario import striped_scenario
    from ...sim import Simulation

    fwd, rev = run.links()
    opts = dict(run.options)
    opts.setdefault("initial_window_bytes", run.segment_bytes)
    sc = striped_scenario(list(run.rates_bps), run.rtts_s, transfer_bytes=run.transfer_bytes,
                          segment_bytes=run.segment_bytes, seed=run.seed, tunnel=run.n_paths > 1,
                          queue_packets=run.path_model.queue_packets, **opts)
    r = Simulation(sc, links=fwd, ack_links=rev).run()
    return result_row(r, run, fwd)


def result_row(result, run: OsiaRun, forward_links=()) -> dict:
    """The row of one run from a :class:`~cmtlab.scenario.TransferResult`-like result."""
    t = float(result.completion_time_s) if result.completed else float("nan")
    row = {"completed": bool(result.completed), "completion_time_s": t,
           "goodput_bps": run.transfer_bytes * 8 / t if result.completed and t > 0 else float("nan"),
           "dupack_events": int(result.fast_retransmits), "timeouts": int(result.timeouts),
           "retransmissions": int(result.retransmissions),
           "spurious_retransmissions": int(result.spurious_retransmissions),
           "data_segments_sent": int(result.data_segments_sent)}
    for k, v in getattr(result, "extra", {}).items():
        if "wall" in k or "per_second" in k:      # timing, not a result (keeps rows repeatable)
            continue
        if np.isscalar(v) and k not in row and isinstance(v, (bool, int, float, np.number)):
            row[k] = v.item() if isinstance(v, np.generic) else v
    for i, lk in enumerate(forward_links):
        st = lk.stats()
        for name in ("loss_drops", "queue_drops", "cross_drops"):
            if name in st:
                row[f"path{i + 1}_{name}"] = int(st[name])
    return row


# ---------------------------------------------------------------------------------------- cases

def fig7_grid(delay_ratios=DELAY_RATIOS, bw_ratios=BW_RATIOS, *, path1_delay_s: float = PATH1_DELAY_S,
              path1_rate_bps: float = PATH1_RATE_BPS) -> pd.DataFrame:
    """The two-path cases of Figs. 7–8: one row per ``(D2/D1, BW2/BW1)`` with both paths' rates and delays."""
    dr = [check_positive("delay_ratios", x) for x in delay_ratios]
    br = [check_positive("bw_ratios", x) for x in bw_ratios]
    if not dr or not br:
        raise ValueError("delay_ratios and bw_ratios must each hold at least one ratio > 0")
    if len(set(dr)) != len(dr) or len(set(br)) != len(br):
        raise ValueError("delay_ratios and bw_ratios must not repeat a value")
    d1 = check_positive("path1_delay_s", path1_delay_s)
    b1 = check_positive("path1_rate_bps", path1_rate_bps)
    rows = [{"D2/D1": x, "BW2/BW1": y, "rates_bps": (b1, b1 * y), "one_way_delays_s": (d1, d1 * x)}
            for x in dr for y in br]
    return pd.DataFrame(rows)


def fig9_cases(n_paths=(1, 2, 3, 4)) -> pd.DataFrame:
    """Table 1's path sets: one row per number of paths (rates and one-way delays)."""
    from .paper import table1_paths

    rows = []
    for n in n_paths:
        rates, delays = table1_paths(n)
        rows.append({"n_paths": n, "rates_bps": tuple(rates), "one_way_delays_s": tuple(delays)})
    return pd.DataFrame(rows)


def build_runs(experiment: str, cases: pd.DataFrame, schedulers=SCHEDULERS, seeds=range(3), *,
               packets: int | None = None, path_model: PathModel | None = None, congestion: str = "newreno",
               **options) -> list[tuple[dict, OsiaRun]]:
    """``(labels, run)`` for every case × scheduler × seed (labels: the case's columns, scheduler, seed).

    A scheduler may also be a key of :data:`VARIANTS` (the label keeps the variant's name).
    """
    if experiment not in EXPERIMENTS:
        raise ValueError(f"experiment must be one of {EXPERIMENTS}, got {experiment!r}")
    schedulers = list(schedulers)
    if not schedulers or len(set(schedulers)) != len(schedulers):
        raise ValueError(f"schedulers must name at least one scheduler, each once, got {schedulers!r}")
    seeds = [check_int("seeds", s, minimum=0) for s in seeds]
    if not seeds or len(set(seeds)) != len(seeds):
        raise ValueError(f"seeds must hold distinct integers >= 0, got {seeds!r}")
    if packets is None:
        packets = {"fig7": FIG7_PACKETS, "fig8": FIG8_PACKETS, "fig9": FIG9_PACKETS}[experiment]
    pm = path_model if path_model is not None else PathModel()
    out = []
    for _, case in cases.iterrows():
        labels = {k: v for k, v in case.items() if k not in ("rates_bps", "one_way_delays_s")}
        for sched in schedulers:
            name, opts = sched, dict(options)
            if sched in VARIANTS:
                name, params = VARIANTS[sched]
                opts["scheduler_params"] = tuple(sorted({**dict(opts.get("scheduler_params", ())), **params}.items()))
            for s in seeds:
                run = OsiaRun(experiment, tuple(case["rates_bps"]), tuple(case["one_way_delays_s"]), name, seed=s,
                              packets=packets, congestion=congestion, path_model=pm, options=tuple(opts.items()))
                out.append(({**labels, "scheduler": sched, "seed": s}, run))
    return out


# ---------------------------------------------------------------------------------------- running

def code_version() -> str:
    """Version of everything a run depends on: every source file this module can import, the
    simulator among them (:func:`cmtlab.sweep.closure_version`)."""
    from ...sweep import closure_version

    return closure_version(__name__)


def _simulator(simulate_fn):
    """The :class:`cmtlab.sweep.Simulator` running ``simulate_fn`` on :class:`OsiaRun` objects.

    Its code version is the function's name and its module's import closure
    (:func:`cmtlab.sweep.as_simulator`), so another function or a changed source is never
    served a cached row of the old one.
    """
    from ...sweep import Simulator, as_simulator

    version = f"{simulate_fn.__module__}.{simulate_fn.__qualname__}@{as_simulator(simulate_fn).code_version}"
    return Simulator(name="cmtlab-osia", run=simulate_fn, code_version=version)


def run_experiment(runs, *, cache=True, cache_dir=None, progress: bool = True, workers: int = 1,
                   simulate_fn=None) -> pd.DataFrame:
    """Run every ``(labels, run)`` of :func:`build_runs`; one row per run (labels, then results), input order.

    Every run goes through :func:`cmtlab.sweep.run_sweep` (its result cache, process pool and
    progress bar).  ``cache``: ``True`` (reuse and store results; folder ``cache_dir``, else
    ``$CMTLAB_CACHE_DIR``, else ``~/.cache/cmtlab/sweeps``), ``"refresh"`` or ``False``.
    ``workers`` > 1 runs the uncached runs in that many processes.  Without ``simulate_fn``
    each run's :func:`scenario` runs on the multipath engine (simulator ``"cmtlab"``) and each
    row is :func:`sweep_row` — :func:`simulate`'s row without the cross-traffic drop counts.
    ``simulate_fn`` replaces the engine (e.g. :func:`simulate_tunnel`; tests): a function
    ``OsiaRun -> dict`` (module-level for ``workers`` > 1), swept over the :class:`OsiaRun`
    objects themselves (simulator ``"cmtlab-osia"``).
    """
    runs = list(runs)
    for i, item in enumerate(runs):
        if not (isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], dict)
                and isinstance(item[1], OsiaRun)):
            raise ValueError(f"runs[{i}] must be a (labels dict, OsiaRun) pair from build_runs, got {item!r:.120}")
    if cache not in (True, False, "refresh"):
        raise ValueError(f"cache must be True, False or 'refresh', got {cache!r}")
    workers = check_int("workers", workers, minimum=1)
    if simulate_fn is None:
        return _run_on_sweep(runs, cache=cache, cache_dir=cache_dir, progress=progress, workers=workers)
    if not callable(simulate_fn):
        raise ValueError(f"simulate_fn must be a function OsiaRun -> dict row, got {simulate_fn!r}")
    from ...sweep import run_sweep

    simulator = _simulator(simulate_fn)
    if not runs:
        out = pd.DataFrame()
        out.attrs["osia_runs"] = {"code_version": simulator.code_version, "cached": 0, "simulated": 0}
        return out
    table = run_sweep(simulator, [({"_run": i}, run) for i, (_, run) in enumerate(runs)], workers=workers,
                      cache=cache, cache_dir=cache_dir, progress=progress)
    rows = table.drop(columns="_run").to_dict("records")  # input order
    out = pd.DataFrame([{**labels, "experiment": run.experiment, "n_paths": run.n_paths, "packets": run.packets,
                         **row} for (labels, run), row in zip(runs, rows)])
    info = table.attrs.get("sweep", {})
    out.attrs["osia_runs"] = {"code_version": simulator.code_version, "cached": info.get("cached", 0),
                              "simulated": info.get("simulated", len(runs)), "executor": info.get("executor")}
    return out


def _run_on_sweep(runs, *, cache, cache_dir, progress, workers) -> pd.DataFrame:
    """:func:`run_experiment` on the multipath engine: every run's :func:`scenario` through :func:`cmtlab.sweep.run_sweep`."""
    from ...sweep import run_sweep

    items = [({"_run": i}, scenario(run)) for i, (_, run) in enumerate(runs)]
    table = run_sweep("cmtlab", items, workers=workers, cache=cache, cache_dir=cache_dir, progress=progress)
    raw = table.sort_values("_run").to_dict("records")
    out = pd.DataFrame([{**labels, "experiment": run.experiment, "n_paths": run.n_paths, "packets": run.packets,
                         **sweep_row(row, run.n_paths)} for (labels, run), row in zip(runs, raw)])
    info = table.attrs.get("sweep", {})
    out.attrs["osia_runs"] = {"code_version": info.get("code_version"), "cached": info.get("cached", 0),
                              "simulated": info.get("simulated", len(runs)), "executor": info.get("executor")}
    return out


def summarise(table: pd.DataFrame, by, values=("dupack_events", "goodput_bps", "timeouts", "completed")) -> pd.DataFrame:
    """Means (and standard errors, ``<value>_se``) over seeds, one row per group of ``by``."""
    by = [by] if isinstance(by, str) else list(by)
    values = [v for v in values if v in table.columns]
    g = table.groupby(by, sort=False)[values]
    mean = g.mean()
    se = g.std(ddof=1) / np.sqrt(g.count())
    se.columns = [f"{c}_se" for c in se.columns]
    out = mean.join(se)
    out["runs"] = g.size()
    return out.reset_index()


def heatmap(summary: pd.DataFrame, value: str, scheduler: str) -> pd.DataFrame:
    """One scheduler's ``value`` as a ``D2/D1`` (rows) × ``BW2/BW1`` (columns) table."""
    sub = summary[summary.scheduler == scheduler]
    return sub.pivot(index="D2/D1", columns="BW2/BW1", values=value).sort_index().sort_index(axis=1)


def rr_closed_form(delay_ratios=DELAY_RATIOS, bw_ratios=BW_RATIOS, *, packets: int = FIG7_PACKETS,
                   packet_bytes: int = SEGMENT_BYTES) -> pd.DataFrame:
    """Round robin's expected 3-dupACK events on the Fig. 7 grid from :func:`cmtlab.papers.osia.rr_three_dupack_closed_form`.

    The closed form's sender fills both paths (packet spacing ``τ = 8 s/(b_1 + b_2)``), has no
    congestion window, no losses and no cross traffic: it is the reordering a window-unlimited round
    robin causes by the paths' delay and rate difference alone (one event per late hole).
    """
    from .checks import rr_closed_form_check

    return rr_closed_form_check(delay_ratios, bw_ratios, base_rate_bps=PATH1_RATE_BPS,
                                base_delay_s=PATH1_DELAY_S, packet_bytes=packet_bytes, n_packets=packets)


# ---------------------------------------------------------------------------------------- path-model checks

def cross_traffic_check(shapes=(1.2, 1.5, 1.9), loads=(0.1, 0.25, 0.5), *, rate_bps: float = 1e6,
                        horizon_s: float = 2000.0, seed: int = 0) -> pd.DataFrame:
    """Long-run cross-traffic rate of :class:`~cmtlab.sim.net.cross_traffic.CrossTrafficLink` against renewal theory.

    For each shape and mean load the link's source runs alone for ``horizon_s`` (unlimited queue);
    the measured rate (bits sent / time) is compared with ``peak × E[on] / (E[on] + E[off])``, the
    bounded-Pareto means in closed form.  Columns: ``shape, load, mean_period_ms, expected_bps,
    measured_bps, rel_error, periods``.
    """
    from ...sim.net.cross_traffic import CrossTrafficLink, bounded_pareto_mean

    horizon_s = check_positive("horizon_s", horizon_s)
    rows = []
    for a in shapes:
        for load in loads:
            lk = CrossTrafficLink(rate_bps, 0.0, 10**9, mean_load=load, shape=a, seed=seed)
            lk.advance(int(horizon_s * 1e9))
            m = bounded_pareto_mean(a, lk.cross.min_period_s, lk.cross.max_period_s)
            expected = lk.cross.peak_rate_bps * m / (m + m)
            measured = lk.cross_bytes * 8 / horizon_s
            rows.append({"shape": a, "load": load, "mean_period_ms": m * 1e3, "expected_bps": expected,
                         "measured_bps": measured, "rel_error": measured / expected - 1.0,
                         "periods": lk.cross.periods})
    return pd.DataFrame(rows)


def cross_traffic_trace(*, rate_bps: float = 1e6, load: float = 0.25, duration_s: float = 10.0, bin_s: float = 0.01,
                        seed: int = 0, shape: float = 1.5) -> pd.DataFrame:
    """The share of a link's capacity the cross traffic takes per ``bin_s`` (``time_s, cross_share``)."""
    from ...sim.net.cross_traffic import CrossTrafficLink

    lk = CrossTrafficLink(rate_bps, 0.0, 10**9, mean_load=load, shape=shape, seed=seed, log_cross=True)
    lk.advance(int(duration_s * 1e9))
    n = int(round(duration_s / bin_s))
    t = np.array([a for a, _ in lk.cross_log], dtype=float) / 1e9
    counts, edges = np.histogram(t, bins=n, range=(0.0, n * bin_s))
    share = counts * lk.cross.packet_bytes * 8 / (bin_s * rate_bps)
    return pd.DataFrame({"time_s": edges[:-1], "cross_share": share})


def ber_check(n_periods: int = 100_000, *, seed: int = 0, packet_bytes=(125, 1000, 1040)) -> dict:
    """BER values of ``n_periods`` periods of one :class:`~cmtlab.sim.net.cross_traffic.BitErrorProcess` and their statistics.

    Returns ``values`` (array), ``shape``, ``mean``, ``median``, ``min``, ``max``, ``p95`` and, per
    packet size, ``frame_loss_at_mean`` and ``frame_loss_mean`` (averaged over the distribution).
    """
    from ...sim.net.cross_traffic import BitErrorProcess

    n = check_int("n_periods", n_periods, minimum=2)
    p = BitErrorProcess(seed=seed)
    v = np.array([p.ber_at(k * p.period_ns) for k in range(n)])
    out = {"values": v, "shape": p.shape, "mean": float(v.mean()), "median": float(np.median(v)),
           "min": float(v.min()), "max": float(v.max()), "p95": float(np.quantile(v, 0.95)),
           "frame_loss": pd.DataFrame([{"packet_bytes": b,
                                        "at_mean_ber": BitErrorProcess.frame_loss_probability(p.mean, b),
                                        "averaged": p.expected_frame_loss(b)} for b in packet_bytes])}
    return out


__all__ = ["VARIANTS", "scenario", "kernel_rows", "sweep_row", "decision_profile", "decision_profiles", "run_models",
           "window_study", "SCHEDULERS", "MODERN_SCHEDULERS", "PathModel", "OsiaRun", "simulate", "simulate_tunnel",
           "result_row", "fig7_grid", "fig9_cases", "build_runs", "run_experiment", "summarise", "heatmap",
           "rr_closed_form", "scheduler_params", "code_version", "cross_traffic_check", "cross_traffic_trace",
           "ber_check", "DELAY_RATIOS", "BW_RATIOS", "FIG7_PACKETS", "FIG8_PACKETS", "FIG9_PACKETS"]


# ---------------------------------------------------------------------------------------- diagnostics

def scenario(run: OsiaRun):
    """The :class:`~cmtlab.sim.multipath.MptcpScenario` :func:`simulate` runs for ``run``."""
    from ...sim import multipath

    opts = dict(run.options)
    opts.setdefault("initial_window_bytes", run.segment_bytes)
    opts.setdefault("dupack_mode", run.dupack_mode)
    sparams = {**scheduler_params(run.scheduler), **dict(opts.pop("scheduler_params", {}) or {})}
    try:
        return multipath.mptcp_scenario(list(run.rates_bps), run.rtts_s, transfer_bytes=run.transfer_bytes,
                                        congestion=run.congestion, scheduler=run.scheduler, scheduler_params=sparams,
                                        seed=run.seed, segment_bytes=run.segment_bytes,
                                        queue_packets=run.path_model.queue_packets,
                                        links=run.path_model.link_spec(), **opts)
    except ValueError as exc:  # name the run's field, not the MPTCP scenario's (OSIA's b_i are rates_bps)
        text = str(exc)
        if text.startswith("bandwidths_bps"):
            raise ValueError(f"rates_bps{text[len('bandwidths_bps'):]}") from None
        raise


def decision_profile(run: OsiaRun) -> dict:
    """How often the run's scheduler had a real choice: one :func:`simulate` run with its answers counted.

    Every call of the connection scheduler's ``select`` is recorded with the number of subflows
    that had room for a segment at that moment (``available_window() >= seg``).  Returns
    ``decisions`` (answers naming a subflow), ``free_choices`` (of those, the ones made while
    two or more subflows had room — the only ones in which round robin, lowest-RTT and EDPF can
    differ, since each picks among the subflows with room), ``free_share``, ``waits`` (answers
    ``None``), ``holds`` (:class:`~cmtlab.sim.mechanisms.schedulers.HoldUntil` answers) and the run's
    ``dupack_events`` and ``goodput_bps``.
    """
    from ...sim import multipath
    from ...sim.mechanisms.schedulers import ConnectionScheduler, HoldUntil, _has_room

    sim = multipath.MptcpSimulation(scenario(run))
    conn = sim.conn
    inner = conn.scheduler
    counts = {"decisions": 0, "free_choices": 0, "waits": 0, "holds": 0}

    class Counted(ConnectionScheduler):
        """``inner``'s answers, counted (the connection calls it as it calls ``inner``)."""

        prefetch_segments = inner.prefetch_segments

        def init(self, c) -> None:
            inner.init(c)

        def select(self, c, now_ns):
            ans = inner.select(c, now_ns)
            if ans is None:
                counts["waits"] += 1
            elif isinstance(ans, HoldUntil):
                counts["holds"] += 1
            else:
                counts["decisions"] += 1
                room = sum(1 for s in c.subflows if _has_room(s))
                counts["free_choices"] += room >= 2
            return ans

        def on_sent(self, c, subflow: int, dsn: int, now_ns: int) -> None:
            inner.on_sent(c, subflow, dsn, now_ns)

    conn.scheduler = Counted()     # this run only
    result = sim.run()
    row = result_row(result, run, sim.access)
    counts["free_share"] = counts["free_choices"] / counts["decisions"] if counts["decisions"] else float("nan")
    counts["dupack_events"] = row["dupack_events"]
    counts["goodput_bps"] = row["goodput_bps"]
    return counts


# ---------------------------------------------------------------------------------------- chapter helpers

def run_models(experiment: str, cases: pd.DataFrame, models: dict, *, schedulers=SCHEDULERS, seeds=range(3),
               packets: int | None = None, by=("scheduler",), deterministic=(), simulate_fn=None, workers: int = 1,
               progress: bool = True, cache=True, cache_dir=None, **options) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Every case × scheduler × seed for each path model of ``models`` (name → :class:`PathModel`).

    Models named in ``deterministic`` (no random process in them) run with the first seed only.
    Returns ``(table, summary)``: the rows of :func:`run_experiment` with a ``model`` column, and
    :func:`summarise` over seeds grouped by ``model``, the case's labels and ``by``.  All runs go
    through one :func:`run_experiment` call (one progress bar, one process pool).
    """
    if not isinstance(models, dict) or not models:
        raise ValueError(f"models must map at least one name to a PathModel, got {models!r}")
    seeds = list(seeds)
    runs, names = [], []
    for name, pm in models.items():
        if not isinstance(pm, PathModel):
            raise ValueError(f"models[{name!r}] must be a PathModel, got {pm!r}")
        batch = build_runs(experiment, cases, schedulers=schedulers, seeds=seeds[:1] if name in deterministic else seeds,
                           packets=packets, path_model=pm, **options)
        runs += batch
        names += [name] * len(batch)
    table = run_experiment(runs, simulate_fn=simulate_fn, workers=workers, progress=progress, cache=cache,
                           cache_dir=cache_dir)
    table.insert(0, "model", names)
    labels = [c for c in cases.columns if c not in ("rates_bps", "one_way_delays_s")]
    by = [by] if isinstance(by, str) else list(by)
    keys = ["model"] + labels + [b for b in by if b not in labels]
    values = ("dupack_events", "goodput_bps", "timeouts", "completed", "spurious_retransmissions")
    return table, summarise(table, keys, values=values)


def kernel_rows(cases: pd.DataFrame, *, duration_s: float = 10.0, seeds=(0,), queue_packets: int = 100) -> pd.DataFrame:
    """``cases`` (:func:`fig7_grid`, :func:`fig9_cases`) as rows of the kernel testbed's layout (``kind``,
    ``n_paths``, ``duration_s``, ``warmup_s``, ``rep``, ``path<i>_rate_bps``, ``path<i>_rtt_s``,
    ``path<i>_queue_packets``; the case's labels kept), one per case and seed: what
    :func:`cmtlab.validation.kernel_sim.simulate_like_kernel` runs on today's stack (the simulator configured
    like today's Linux).  Plain paths: no cross traffic or bit errors (a kernel row cannot carry them)."""
    duration_s = check_positive("duration_s", duration_s)
    check_int("queue_packets", queue_packets, minimum=1)
    rows = []
    for _, case in cases.iterrows():
        labels = {k: v for k, v in case.items() if k not in ("rates_bps", "one_way_delays_s")}
        rates, delays = tuple(case["rates_bps"]), tuple(case["one_way_delays_s"])
        for seed in seeds:
            row = {**labels, "kind": "mptcp" if len(rates) > 1 else "tcp", "n_paths": len(rates),
                   "duration_s": duration_s, "warmup_s": 0.0, "rep": check_int("seeds", seed, minimum=0)}
            for i, (b, d) in enumerate(zip(rates, delays)):
                row.update({f"path{i}_rate_bps": float(b), f"path{i}_rtt_s": 2.0 * float(d),
                            f"path{i}_queue_packets": int(queue_packets)})
            rows.append(row)
    return pd.DataFrame(rows)


def window_study(cases: pd.DataFrame, windows_segments=(1, 4, 64), *, schedulers=SCHEDULERS, packets: int = FIG8_PACKETS,
                 path_model: PathModel | None = None, seed: int = 0, workers: int = 1, progress: bool = True,
                 cache=True, cache_dir=None) -> pd.DataFrame:
    """The grid once per initial congestion window (segments): ``window, <case labels>, scheduler`` + results.

    The initial window decides how often a scheduler has a real choice (:func:`decision_profile`)
    and whether OSIA's open-loop plan meets windows that can carry it.  Default path model:
    reordering only (no cross traffic, no bit errors), so one seed describes it.
    """
    pm = path_model if path_model is not None else PathModel(cross_load=0, ber=False)
    runs, wins = [], []
    for w in windows_segments:
        w = check_int("windows_segments", w, minimum=1)
        batch = build_runs("fig8", cases, schedulers=schedulers, seeds=[seed], packets=packets, path_model=pm,
                           initial_window_bytes=w * SEGMENT_BYTES)
        runs += batch
        wins += [w] * len(batch)
    table = run_experiment(runs, workers=workers, progress=progress, cache=cache, cache_dir=cache_dir)
    table.insert(0, "window", wins)
    return table


def decision_profiles(runs) -> pd.DataFrame:
    """:func:`decision_profile` of every ``(labels, run)`` (in this process; a few runs)."""
    return pd.DataFrame([{**labels, **decision_profile(run)} for labels, run in runs])
