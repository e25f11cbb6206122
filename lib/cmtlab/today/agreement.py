"""The simulator's rows of the kernel's cells (configured like the kernel, :data:`SIM_CONFIGS`) and the agreement
per cell and metric: the simulator's mean inside the kernel's spread (min..max over the repetitions)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..validation.kernel_sim import DELAY_LINE_DRAWS as LOSS_DRAWS  # noqa: F401
from ..validation.kernel_sim import (
    KERNEL_CONFIGS,
    LINUX_CUBIC_PARAMS,
    LINUX_REDUCTION,
    LINUX_RENO_PARAMS,
)
from .cells import ALL_CELLS, WIDER_CELLS


def _per_run(df: pd.DataFrame, col_kernel: str, col_sim: str) -> pd.Series:
    n = df["n_paths"].fillna(1).astype(int)
    out = []
    for idx, row in df.iterrows():
        col = col_sim if row.get("simulator") == "cmtlab.sim" else col_kernel
        tot = 0.0
        for i in range(int(n[idx])):
            v = row.get(f"sub{i}_{col}", np.nan)
            tot += float(v) if pd.notna(v) else 0.0
        out.append(tot)
    return pd.Series(out, index=df.index)


SIM_CONFIGS = {name: KERNEL_CONFIGS[name] for name in ("linux", "today", "today-dupack", "before")}


def sim_runs(kernel: pd.DataFrame, configs=SIM_CONFIGS, *, progress_bar: bool = True) -> pd.DataFrame:
    """The simulator's rows for every kernel row, in every configuration of ``configs``
    (column ``sim_config``), via :func:`cmtlab.validation.kernel_sim.simulate_like_kernel`."""
    from ..validation.kernel_sim import simulate_like_kernel

    out = []
    for name, by_cc in configs.items():
        for cc, group in kernel.groupby("k_congestion"):
            if cc not in by_cc:
                raise ValueError(f"configs[{name!r}] has no entry for the kernel's congestion control {cc!r}")
            config = name if KERNEL_CONFIGS.get(name) is by_cc else {cc: by_cc[cc]}
            sim = simulate_like_kernel(group, config, progress_bar=progress_bar, warmup_counters=True)
            sim["sim_config"] = name
            sim["cell"] = group["cell"].to_numpy()
            out.append(sim)
    return pd.concat(out, ignore_index=True)


#: The cells where the simulator's goodput exceeded the kernel's by 12 to 17 % with the same retransmissions
#: per MB before the kernel-like configuration drew the delay line's drops and reduced its window as Linux does.
LOSSY_CELLS = ("tcp cubic 10M/60ms 1% loss", "tcp reno 10M/60ms 1% loss", "tcp cubic 20M/40ms 0.5% loss",
               "mptcp cubic 10M/20ms + 10M/100ms 1% loss")


def _without(cfg: dict, *keys) -> dict:
    return {k: v for k, v in cfg.items() if k not in keys}


def loss_steps(kernel: pd.DataFrame, cells=LOSSY_CELLS) -> pd.DataFrame:
    """What each change of the ``"today"`` configuration does on the lossy cells, one step at a time: the
    configuration before them (the simulator's own loss draws, ns-3.44's PRR, Linux Reno's count carried
    across a reduction, RFC 8985's RACK-TLP alone), then the delay line's drops (:data:`LOSS_DRAWS`), then
    Linux's PRR (:data:`LINUX_REDUCTION`), then Reno's count reset (:data:`LINUX_RENO_PARAMS`), then the growth
    Linux gives SACKed segments (``loss_detection="rack-tlp-linux"``) and CUBIC's slow start only while the
    window is used (:data:`LINUX_CUBIC_PARAMS`; = ``"today"``).  One row per
    (cell, step): the simulator's mean goodput over the kernel's (``ratio``) and whether it lies inside the
    kernel's spread (``inside``)."""
    base = SIM_CONFIGS["today"]
    before = {cc: dict(_without(cfg, "loss_draws", "recovery"), loss_detection="rack-tlp")
              for cc, cfg in base.items()}
    before["reno"] = _without(before["reno"], "congestion_params")
    before["cubic"] = dict(before["cubic"], congestion_params=_without(LINUX_CUBIC_PARAMS, "slow_start_cwnd_limited"))
    draws = {cc: dict(cfg, **LOSS_DRAWS) for cc, cfg in before.items()}
    prr = {cc: dict(cfg, **LINUX_REDUCTION) for cc, cfg in draws.items()}
    reset = dict(prr, reno=dict(prr["reno"], congestion_params=LINUX_RENO_PARAMS))
    steps = {"the simulator's loss draws, ns-3's PRR": before, "+ the delay line's drops": draws,
             "+ Linux's PRR": prr, "+ Reno's count reset": reset,
             "+ SACKed segments grow the window, slow start only while the window is used (today)": base}
    rows = kernel[kernel.cell.isin(cells)]
    if rows.empty:
        raise ValueError(f"kernel must hold rows of the cells {cells}")
    sim = sim_runs(rows, steps, progress_bar=False)
    a = agreement(rows, sim, metrics=("goodput_mbps",))
    return a[["cell", "sim_config", "kernel_mean", "sim_mean", "ratio", "inside"]].rename(
        columns={"sim_config": "step"}).reset_index(drop=True)


#: The 10-packet-queue cells (2 x 5 Mbit/s, 15 vs 120 ms one-way), where the kernel's short subflow is
#: send-buffer limited for part of every run (``sub0_sndbuf_limited_ms`` in the recorded rows);
#: :func:`send_buffer_steps` shows what the connection-level send buffer does in the simulator.
SMALL_QUEUE_CELLS = ("mptcp cubic 5M/30ms + 5M/240ms queue 10", "mptcp reno 5M/30ms + 5M/240ms queue 10")


#: :func:`send_buffer_steps`' steps: key -> (label, the Linux scheduler's parameters that differ from the preset's).
SEND_BUFFER_STEPS = {
    "configured": ("linux (as configured)", {}),
    "no_msk_rtx": ("without connection-level retransmission", {"msk_retransmit": False, "msk_timer": "rto"}),
    "rto_timer": ("its timer each subflow's full RTO", {"msk_timer": "rto"}),
    "segment_check": ("subflow buffer tested before every segment", {"memory_check": "segment"}),
    "no_conn_buffer": ("without the connection's send buffer", {"connection_send_buffer": False}),
}


#: The cells where Linux's writer wake-up threshold and idle restart were found (a 600-ms path beside a 20-ms one,
#: ``ss`` every 50 ms on the testbed) and the small-queue cells they move: :func:`send_buffer_steps` with
#: :data:`WRITER_STEPS`.
WRITER_CELLS = ("mptcp cubic 20M/20ms + 2M/600ms",) + SMALL_QUEUE_CELLS
#: Steps of :func:`send_buffer_steps` over :data:`WRITER_CELLS`: the preset, then with Linux's writer wake-up threshold
#: and window restart after idle (``writer_wakeup``, ``slow_start_after_idle`` of
#: :class:`~cmtlab.sim.mechanisms.schedulers.linux.LinuxScheduler`), then also joins that carry data only once fully
#: established (``join="fully_established"``).
WRITER_STEPS = {
    "configured": ("linux (as configured)", {}),
    "writer_idle": ("writer woken at a third free, window restarted after idle",
                    {"writer_wakeup": True, "slow_start_after_idle": True}),
    "writer_idle_join": ("and joins fully established",
                         {"writer_wakeup": True, "slow_start_after_idle": True, "join": "fully_established"}),
}


def send_buffer_steps(kernel: pd.DataFrame, cells=SMALL_QUEUE_CELLS, configured: pd.DataFrame | None = None,
                      changes: dict | None = None) -> pd.DataFrame:
    """What Linux's send buffers and connection-level retransmission do on ``cells``, one change from the
    ``"linux"`` configuration at a time (:data:`SEND_BUFFER_STEPS`): as configured (the connection's buffer the
    subflows' sum; Linux's connection-level retransmission ``__mptcp_retrans`` with its timer), that retransmission
    off, its timer each subflow's full RTO instead of what is left of the subflows' pending timers, each subflow's
    send buffer tested before every segment instead of between the data fragments a pick moves (``memory_check``),
    and the connection's send buffer taken away (``connection_send_buffer=False``, a diagnostic: the kernel has it).
    One row per (cell, step): the step's key and label, the simulator's mean goodput over the kernel's (``ratio``)
    and whether it lies inside the kernel's spread (``inside``).  ``configured``: the simulator's ``"linux"`` rows
    of these cells already computed (e.g. the recorded ``kernel_cells_wider_sim.csv``), used for the first step
    instead of running it again.  ``changes``: other steps of the same form (default :data:`SEND_BUFFER_STEPS`; e.g.
    :data:`WRITER_STEPS` over :data:`WRITER_CELLS`), the first keyed ``"configured"``."""
    from ..sim.presets import LINUX_SCHEDULER_PARAMS

    table = SEND_BUFFER_STEPS if changes is None else changes
    if not isinstance(table, dict) or "configured" not in table or table["configured"][1]:
        raise ValueError("changes must be a dict of key -> (label, scheduler parameters) with a 'configured' step "
                         f"that changes nothing, got {table!r}")
    base = SIM_CONFIGS["linux"]
    steps = {label: {cc: dict(cfg, scheduler_params=dict(LINUX_SCHEDULER_PARAMS, **change)) for cc, cfg in base.items()}
             for label, change in table.values()}
    steps[table["configured"][0]] = base
    keys = {label: key for key, (label, _) in table.items()}
    rows = kernel[kernel.cell.isin(cells)]
    if rows.empty:
        raise ValueError(f"kernel must hold rows of the cells {cells}")
    first = table["configured"][0]
    if configured is not None:
        keys_rows = set(zip(rows.cell, rows.rep))
        done = configured[(configured.sim_config == "linux")
                          & np.array([k in keys_rows for k in zip(configured.cell, configured.rep)], dtype=bool)]
        if len(done) != len(rows):
            raise ValueError(f"configured must hold the simulator's linux rows of every kernel row of {cells}: "
                             f"{len(done)} rows for {len(rows)}")
        done = done.assign(sim_config=first)
        sim = pd.concat([done, sim_runs(rows, {k: v for k, v in steps.items() if k != first}, progress_bar=False)],
                        ignore_index=True)
    else:
        sim = sim_runs(rows, steps, progress_bar=False)
    a = agreement(rows, sim, metrics=("goodput_mbps",))
    a["sim_config"] = pd.Categorical(a["sim_config"], categories=list(steps), ordered=True)
    a = a.sort_values(["cell", "sim_config"], kind="stable")
    a["sim_config"] = a["sim_config"].astype(str)
    a["key"] = a["sim_config"].map(keys)
    return a[["cell", "key", "sim_config", "kernel_mean", "sim_mean", "ratio", "inside"]].rename(
        columns={"sim_config": "step"}).reset_index(drop=True)


#: Linux mechanisms of the testbed's kernel that the ``"linux-6.18"`` preset leaves out (found in its traces, or read in
#: its source): key -> (label, the Linux scheduler's parameters[, the configuration's other keys]) that
#: :func:`mechanism_ledger` adds to the preset, one at a time and all together.
LINUX_MECHANISMS = {
    "writer_wakeup": ("the testbed's writer: a send() of up to 256 KiB once a third of the connection's buffer is "
                      "free (mptcp_poll, sk_stream_write_space)",
                      {"writer_wakeup": True}),
    "idle_restart": ("the window restarted after an idle RTO (tcp_slow_start_after_idle)",
                     {"slow_start_after_idle": True}),
    "fully_established": ("joined subflows send once fully established (the fourth ACK)",
                          {"join": "fully_established"}),
    "probe_on_send": ("the tail-loss probe re-armed at every transmission of new data (tcp_write_xmit, "
                      "tcp_rto_delta_us)",
                      {}, {"loss_detection": "linux-probe-on-send"}),
    "sndbuf_expand": ("a subflow's send buffer grown only after an ACK that left its window not filled "
                      "(tcp_should_expand_sndbuf)",
                      {"sndbuf_expand": "not_cwnd_limited"}),
}


#: The cells the mechanisms of :data:`LINUX_MECHANISMS` were traced on (``ss``, a packet capture and tracepoints on the
#: testbed): :func:`mechanism_ledger`'s cells when not every cell is run (the quick profile).
LEDGER_TRACED_CELLS = ("mptcp cubic 20M/20ms + 2M/600ms", "mptcp cubic 5M/30ms + 5M/240ms queue 10",
                       "mptcp cubic Arabi s2 5M/200ms + 2M/20ms + 7M/100ms")


def _with_mechanisms(keys, mechanisms=LINUX_MECHANISMS) -> dict:
    """The ``"linux"`` configuration with the ``mechanisms`` (default :data:`LINUX_MECHANISMS`) of ``keys`` added."""
    from ..sim.presets import LINUX_SCHEDULER_PARAMS

    sched = dict(LINUX_SCHEDULER_PARAMS)
    other = {}
    for key in keys:
        sched.update(mechanisms[key][1])
        other.update(mechanisms[key][2] if len(mechanisms[key]) > 2 else {})
    return {cc: dict(cfg, scheduler_params=sched, **other) for cc, cfg in SIM_CONFIGS["linux"].items()}


def mechanism_ledger(kernel: pd.DataFrame, configured: pd.DataFrame, cells=None, mechanisms=LINUX_MECHANISMS,
                     progress_bar: bool = False) -> pd.DataFrame:
    """What each Linux mechanism the preset leaves out (:data:`LINUX_MECHANISMS`) does to the agreement: the
    simulator's ``"linux"`` rows of ``cells`` (default: every cell of ``kernel``) re-run with the mechanism added, then
    with all of them, against the kernel's spread.  ``configured``: the simulator's ``"linux"`` rows already computed
    (the preset, e.g. the recorded ``kernel_cells_wider_sim.csv``).  One row per mechanism (``key``, ``label``): the
    cell metrics inside the kernel's spread with the preset (``inside_preset``) and with the mechanism
    (``inside_with``) of ``n``, and the cell metrics it moves in and out (``moved_in`` / ``moved_out``, "cell:
    metric" joined by "; ")."""
    cells = list(kernel.cell.unique()) if cells is None else list(cells)
    rows = kernel[kernel.cell.isin(cells)]
    if rows.empty:
        raise ValueError(f"kernel must hold rows of the cells {cells}")
    base_sim = configured[(configured.sim_config == "linux") & configured.cell.isin(cells)]
    if len(base_sim) != len(rows):
        raise ValueError(f"configured must hold the simulator's linux rows of every kernel row of the cells: "
                         f"{len(base_sim)} rows for {len(rows)}")
    base = agreement(rows, base_sim).set_index(["cell", "metric"]).inside
    steps = {key: (label, [key]) for key, (label, *_) in mechanisms.items()}
    steps["all"] = ("all of them", list(mechanisms))
    out = []
    for key, (label, keys) in steps.items():
        sim = sim_runs(rows, {"linux": _with_mechanisms(keys, mechanisms)}, progress_bar=progress_bar)
        got = agreement(rows, sim).set_index(["cell", "metric"]).inside
        moved_in = [f"{c}: {m}" for (c, m), v in got.items() if v and not base[(c, m)]]
        moved_out = [f"{c}: {m}" for (c, m), v in got.items() if not v and base[(c, m)]]
        out.append(dict(key=key, label=label, inside_preset=int(base.sum()), inside_with=int(got.sum()),
                        n=int(len(got)), moved_in="; ".join(moved_in), moved_out="; ".join(moved_out)))
    return pd.DataFrame(out)


def hystart_sensitivity(kernel: pd.DataFrame, cell: str) -> pd.DataFrame:
    """The simulator's ``"today"`` configuration on one CUBIC cell's kernel rows with HyStart's delay detection
    on (as recorded) and off: per setting the mean goodput (Mbit/s), its min and max over the seeds and the mean
    queue drops per run, beside the kernel's — whether a miss lies in where slow start ends."""
    rows = kernel[kernel.cell == cell]
    if rows.empty:
        raise ValueError(f"cell must name kernel rows, got {cell!r}")
    if set(rows.k_congestion) != {"cubic"}:
        raise ValueError(f"cell {cell!r} did not run CUBIC on the kernel")
    base = SIM_CONFIGS["today"]["cubic"]
    cfgs = {"hystart on": {"cubic": base},
            "hystart off": {"cubic": dict(base, congestion_params=dict(base["congestion_params"], hystart=False))}}
    out = [dict(setting="kernel", goodput_mbps=float(rows.throughput_bps.mean() / 1e6),
                min_mbps=float(rows.throughput_bps.min() / 1e6), max_mbps=float(rows.throughput_bps.max() / 1e6),
                queue_drops=float(_per_run(rows, "queue_drops", "queue_drops").mean()))]
    for name, cfg in cfgs.items():
        s = sim_runs(rows, {name: cfg}, progress_bar=False)
        out.append(dict(setting=f"cmtlab.sim, {name}", goodput_mbps=float(s.throughput_bps.mean() / 1e6),
                        min_mbps=float(s.throughput_bps.min() / 1e6), max_mbps=float(s.throughput_bps.max() / 1e6),
                        queue_drops=float(_per_run(s, "queue_drops", "queue_drops").mean())))
    return pd.DataFrame(out)


def _metric(df: pd.DataFrame, metric: str) -> pd.Series:
    n = df["n_paths"].fillna(1).astype(int) if "n_paths" in df else pd.Series(1, index=df.index)
    if metric == "goodput_mbps":
        return df["throughput_bps"] / 1e6
    col = {"retransmissions": "retrans_total", "spurious_retransmissions": "dsack_dups"}[metric]
    sim_col = {"retransmissions": "retrans_total", "spurious_retransmissions": "spurious_retransmissions"}[metric]
    vals = []
    for idx, row in df.iterrows():
        tot = 0.0
        for i in range(int(n[idx])):
            v = row.get(f"sub{i}_{sim_col if row.get('simulator') == 'cmtlab.sim' else col}", np.nan)
            tot += float(v) if pd.notna(v) else 0.0
        vals.append(tot)
    return pd.Series(vals, index=df.index)


METRICS = ("goodput_mbps", "retransmissions", "spurious_retransmissions")


def agreement(kernel: pd.DataFrame, sim: pd.DataFrame, metrics=METRICS) -> pd.DataFrame:
    """One row per (cell, simulator configuration, metric): the kernel's mean, min and max over its
    repetitions, the simulator's mean over the same seeds, ``ratio`` = sim mean / kernel mean and
    ``inside`` = the simulator's mean lies within the kernel's [min, max] (the goal: >= 80 % of cells);
    ``within_5pct`` — a second, separately named reading for cells whose kernel spread is narrower
    than anything the two can be expected to share (e.g. ±0.1 % goodput on a saturated path):
    the means differ by at most 5 % of the kernel's (a kernel mean of 0 needs a simulator mean of 0).
    Spurious retransmissions are the kernel's D-SACK-reported duplicates (``ss`` ``dsack_dups``)
    and the simulator's retransmissions of segments the receiver already held."""
    rows = []
    for cell, kg in kernel.groupby("cell", sort=False):
        for cfg, sg in sim[sim["cell"] == cell].groupby("sim_config", sort=False):
            for m in metrics:
                k = _metric(kg, m)
                s = _metric(sg, m)
                lo, hi = float(k.min()), float(k.max())
                rows.append(dict(cell=cell, sim_config=cfg, metric=m, kernel_mean=float(k.mean()), kernel_min=lo,
                                 kernel_max=hi, sim_mean=float(s.mean()),
                                 ratio=float(s.mean() / k.mean()) if k.mean() else np.nan,
                                 inside=bool(lo <= float(s.mean()) <= hi),
                                 within_5pct=bool(abs(float(s.mean()) - float(k.mean())) <= 0.05 * abs(float(k.mean())))
                                 if k.mean() else bool(s.mean() == 0),
                                 n_kernel=len(k), n_sim=len(s)))
    return pd.DataFrame(rows)


#: A queue below this many packets (or 1500-byte packets' bytes) is a short one for :func:`cell_kind`.
SHORT_QUEUE_PACKETS = 50


def _short_queue(q) -> bool:
    if q is None:  # one bandwidth-delay product: sized to the path
        return False
    if isinstance(q, tuple):
        return q[1] < SHORT_QUEUE_PACKETS * 1500
    return q < SHORT_QUEUE_PACKETS


def _asymmetric(paths) -> bool:
    """Strong asymmetry: rates 4x apart or more, or one-way delays 10x apart or more."""
    if len(paths) < 2 or any(isinstance(p[0], str) for p in paths):
        return False
    rates, delays = [p[0] for p in paths], [p[1] for p in paths]
    return max(rates) >= 4 * min(rates) or max(delays) >= 10 * min(delays)


def cell_kind(cell: str) -> str:
    """The kind of a cell for the per-kind counts: transport, ``3 paths`` when it has three, and what its paths
    do, the first that applies of ``trace`` (a rate replayed from the 5G / Starlink measurements), ``jitter``
    (per-packet delay variation, reordering), ``loss`` (random loss), ``queue`` (a short queue),
    ``asymmetric`` (rates 4x or one-way delays 10x apart) and ``clean``.  Cells of :data:`ALL_CELLS`."""
    c = next((c for c in ALL_CELLS if c["cell"] == cell), None)
    if c is None:
        raise ValueError(f"cell must be one of ALL_CELLS, got {cell!r}")
    paths = c["paths"]
    if any(isinstance(p[0], str) for p in paths):
        what = "trace"
    elif any(len(p) > 4 and p[4] > 0 for p in paths):
        what = "jitter"
    elif any(p[3] > 0 for p in paths):
        what = "loss"
    elif any(_short_queue(p[2]) for p in paths):
        what = "queue"
    elif _asymmetric(paths):
        what = "asymmetric"
    else:
        what = "clean"
    return f"{c['kind']}{' 3 paths' if len(paths) >= 3 else ''} {what}"


def agreement_by_kind(agree: pd.DataFrame) -> pd.DataFrame:
    """Cells inside the kernel's spread per cell kind and simulator configuration (``inside`` of ``n``)."""
    a = agree.assign(kind=[cell_kind(c) for c in agree.cell])
    out = a.groupby(["kind", "sim_config"], sort=False).inside.agg(inside="sum", n="size").reset_index()
    return out.pivot(index="kind", columns="sim_config", values="inside").join(
        a.groupby("kind").cell.nunique().rename("cells") * len(METRICS))


def agreement_by_metric(agree: pd.DataFrame) -> pd.DataFrame:
    """Cell metrics inside the kernel's spread per metric and simulator configuration: ``inside`` of ``n``, the
    share, and ``within_5pct`` (the second reading of :func:`agreement`)."""
    out = agree.groupby(["sim_config", "metric"], sort=False).agg(
        inside=("inside", "sum"), n=("inside", "size"), within_5pct=("within_5pct", "sum")).reset_index()
    out["share"] = out["inside"] / out["n"]
    return out


#: The ``sim_config`` label of the kernel's re-run in :func:`kernel_rerun_agreement`.
RERUN = "kernel re-run"


def kernel_rerun_agreement(kernel: pd.DataFrame | None = None, rerun: pd.DataFrame | None = None,
                           sim: pd.DataFrame | None = None) -> pd.DataFrame:
    """The kernel against its own recording, counted as the simulator is counted: :func:`agreement` of the recorded
    kernel rows (default :func:`wider_kernel`) with, as the column under test, the kernel's re-run of the same cells
    and seeds on another day and build (default the pinned ``kernel_cells_rerun.csv``; ``sim_config``
    :data:`RERUN`) and the simulator's ``"linux"`` rows (default the pinned ``kernel_cells_wider_sim.csv``).  One row
    per cell, column and metric, as :func:`agreement` gives them."""
    from . import recorded

    kernel = wider_kernel() if kernel is None else kernel
    rerun = recorded("kernel_cells_rerun.csv") if rerun is None else rerun
    if sim is None:
        sim = recorded("kernel_cells_wider_sim.csv")
    sim = sim[sim["sim_config"] == "linux"]
    if sim.empty or rerun.empty:
        raise ValueError("rerun and sim must hold rows (sim: its 'linux' rows)")
    both = pd.concat([rerun.copy().assign(sim_config=RERUN), sim], ignore_index=True)  # copy: one block, no insert warning
    return agreement(kernel, both)


#: The configurations of the wider table: ``"linux"`` (the default of
#: :func:`cmtlab.validation.kernel_sim.simulate_like_kernel`) on every cell, ``"today"`` (the chapter's) beside it on the new cells.
WIDER_CONFIGS = ("linux", "today")


def wider_kernel() -> pd.DataFrame:
    """The kernel's rows of the wider table: the chapter's cells (``kernel_cells.csv``) and :data:`WIDER_CELLS`
    (``kernel_cells_wider.csv``), read pinned."""
    from . import recorded

    return pd.concat([recorded("kernel_cells.csv"), recorded("kernel_cells_wider.csv")], ignore_index=True)


def wider_jobs(kernel: pd.DataFrame) -> list[tuple[str, str]]:
    """The wider table's simulator jobs, in order: ``(cell, configuration)`` — ``"linux"`` for every cell of
    ``kernel`` (in its order), then ``"today"`` for the cells of :data:`WIDER_CELLS`."""
    new = {c["cell"] for c in WIDER_CELLS}
    cells = list(kernel["cell"].unique())
    return [(c, "linux") for c in cells] + [(c, "today") for c in cells if c in new]


def wider_sim_runs(kernel: pd.DataFrame | None = None, *, jobs=None, progress_bar: bool = True) -> pd.DataFrame:
    """The simulator's rows of the wider table, one :func:`sim_runs` per job of :func:`wider_jobs` (``jobs``: a
    subset, e.g. ``wider_jobs(k)[i::n]`` for one of ``n`` processes; concatenated in the jobs' order the parts
    give the whole): ``"linux"`` for every kernel row of :func:`wider_kernel`, ``"today"`` for the rows of
    :data:`WIDER_CELLS` (the chapter's ``kernel_cells_sim.csv`` holds its own cells')."""
    kernel = wider_kernel() if kernel is None else kernel
    jobs = wider_jobs(kernel) if jobs is None else jobs
    return pd.concat([sim_runs(kernel[kernel["cell"] == cell], {cfg: SIM_CONFIGS[cfg]}, progress_bar=progress_bar)
                      for cell, cfg in jobs], ignore_index=True)


def wider_agreement(kernel: pd.DataFrame | None = None, sim: pd.DataFrame | None = None) -> pd.DataFrame:
    """:func:`agreement` over the wider table (recorded rows unless given): the chapter's 14 cells and the 12 of
    :data:`WIDER_CELLS`, 3 metrics each, per configuration of :data:`WIDER_CONFIGS` — the chapter's ``"today"``
    rows of its own cells come from ``kernel_cells_sim.csv``."""
    from . import recorded

    kernel = wider_kernel() if kernel is None else kernel
    if sim is None:
        sim = recorded("kernel_cells_wider_sim.csv")
        chapter = recorded("kernel_cells_sim.csv")
        sim = pd.concat([sim, chapter[chapter["sim_config"] == "today"]], ignore_index=True)
    return agreement(kernel, sim)
