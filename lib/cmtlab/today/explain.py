"""Why a cell misses: terms traced on both sides (drops per path, retransmissions per MB, the kernel's internal
counters) and one diagnosis per miss (:func:`explain`)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..sim.presets import linux_segment_bytes
from ..testbed.config import MTU_BYTES
from ..validation.kernel_sim import DELAY_LINE_DRAWS as LOSS_DRAWS  # noqa: F401
from .agreement import _metric, _per_run, cell_kind
from .cells import INTERNAL_COUNTERS


def schedule_capacity_bps(row, path_index: int) -> float:
    """Mean scheduled IP rate (bit/s) of path ``path_index`` of a row that replayed a rate schedule, over the
    window its goodput is measured on: [``schedule_offset_s`` + ``warmup_s``, ``schedule_offset_s`` +
    ``duration_s``] of the (repeating) schedule.  NaN when the path replayed no schedule."""
    c = f"path{path_index}_"
    sched = row.get(c + "rate_schedule_bps")
    if sched is None or (isinstance(sched, float) and math.isnan(sched)):
        return float("nan")
    rates = np.array([float(x) for x in str(sched).split()])
    step = float(row.get(c + "schedule_interval_s", 1.0))
    a = float(row[c + "schedule_offset_s"]) + float(row.get("warmup_s", 0.0) or 0.0)
    b = float(row[c + "schedule_offset_s"]) + float(row["duration_s"])
    edges = np.arange(math.floor(a / step), math.ceil(b / step) + 1) * step
    lo, hi = np.clip(edges[:-1], a, b), np.clip(edges[1:], a, b)
    idx = (np.floor(edges[:-1] / step).astype(int)) % len(rates)
    return float(np.sum(rates[idx] * (hi - lo)) / (b - a))


def payload_capacity_bps(row) -> float:
    """What the paths of a constant-rate row can deliver to the receiving application (bit/s): the sum of their
    data directions' IP rates times the payload share of a full packet of the testbed's MTU
    (:func:`cmtlab.sim.presets.linux_segment_bytes` of :data:`cmtlab.testbed.MTU_BYTES`: 1448/1500 for TCP with
    timestamps, as :func:`cmtlab.testbed.tcp_goodput_bps`; 1424/1500 for MPTCP).
    Over a measured window a connection delivers no more than this, unless it delivers data received before the
    window began.  NaN when a path replays a rate schedule (:func:`schedule_capacity_bps` measures those) or the
    row lacks a path's rate."""
    n = int(row.get("n_paths", 1) or 1)
    rates = []
    for i in range(n):
        sched = row.get(f"path{i}_rate_schedule_bps")
        rate = row.get(f"path{i}_rate_bps")
        if (sched is not None and not (isinstance(sched, float) and math.isnan(sched))) or rate is None \
                or not np.isfinite(float(rate)):
            return float("nan")
        rates.append(float(rate))
    ts = row.get("k_timestamps", True)
    ts = True if ts is None or (isinstance(ts, float) and math.isnan(ts)) else bool(ts)
    seg = linux_segment_bytes(mptcp=row.get("kind", "mptcp") == "mptcp", timestamps=ts)
    return sum(rates) * seg / MTU_BYTES


def _capacity_clause(kg: pd.DataFrame, sg: pd.DataFrame) -> tuple[str, float, float, float]:
    """The goodput of each side as a share of :func:`payload_capacity_bps` (kernel: its runs' range), and what a
    kernel above it in every run means; ``("", nan, nan, nan)`` when the rows carry no constant rates."""
    cap = np.array([payload_capacity_bps(r) for _, r in kg.iterrows()])
    if not len(cap) or not np.all(np.isfinite(cap)) or not len(sg):
        return "", np.nan, np.nan, np.nan
    share_k = kg["throughput_bps"].to_numpy(dtype=float) / cap
    share_s = float(sg["throughput_bps"].mean()) / float(cap.mean())
    text = (f"; {100 * share_k.min():.1f} to {100 * share_k.max():.1f} % (kernel) vs {100 * share_s:.1f} % (sim) of "
            f"the paths' payload capacity ({cap.mean() / 1e6:.2f} Mbit/s: their rates times the payload of a full "
            f"packet)")
    if share_k.min() > 1.0:
        text += (": above it in every kernel run, which only data received before the measured window and "
                 "delivered in order inside it can give (the connection's reordering backlog where the window "
                 "starts, after the warm-up)")
    return text, float(share_k.min()), float(share_k.max()), share_s


def _trace_terms(kg: pd.DataFrame, sg: pd.DataFrame) -> dict:
    """What a trace cell's miss is computed from: per path the bytes each side delivered (MB per run) and the
    share of the replayed capacity they are; queue drops and retransmissions per run and per drop; the kernel's
    send-buffer-limited time (``ss`` ``sndbuf_limited``, s per run, the most limited subflow)."""
    n = int(kg["n_paths"].fillna(1).max())
    out = dict(n=n)
    for side, g in (("k", kg), ("s", sg)):
        out[f"drops_{side}"] = float(_per_run(g, "queue_drops", "queue_drops").mean())
        out[f"retx_{side}"] = float(_metric(g, "retransmissions").mean())
        cap = np.array([[schedule_capacity_bps(r, i) for i in range(n)] for _, r in g.iterrows()])
        out[f"util_{side}"] = float((g["throughput_bps"].to_numpy() / np.nansum(cap, axis=1)).mean())
        out[f"path_mb_{side}"] = [float(g.get(f"sub{i}_bytes", pd.Series(np.nan)).mean()) / 1e6 for i in range(n)]
    lim = [kg.get(f"sub{i}_sndbuf_limited_ms", pd.Series(0.0, index=kg.index)).fillna(0.0) for i in range(n)]
    out["sndbuf_limited_s"] = float(pd.concat(lim, axis=1).max(axis=1).mean()) / 1e3
    out["duration_s"] = float(kg["duration_s"].iloc[0])
    return out


def trace_terms(kernel: pd.DataFrame, sim: pd.DataFrame, cell: str, sim_config: str = "today") -> dict:
    """What a trace cell's goodput comes from, miss or not (:func:`explain` uses the same terms): ``ratio`` (sim
    mean goodput / kernel mean), each side's share of the replayed capacity (``capacity_share_kernel``,
    ``capacity_share_sim``), queue drops per run (``queue_drops_kernel``, ``queue_drops_sim``) and the kernel's
    send-buffer-limited time per run (``sndbuf_limited_s_kernel``)."""
    if not cell_kind(cell).endswith("trace"):
        raise ValueError(f"cell must be a trace cell, got {cell!r}")
    kg, sg = kernel[kernel.cell == cell], sim[(sim.cell == cell) & (sim.sim_config == sim_config)]
    if kg.empty or sg.empty:
        raise ValueError(f"kernel and sim must hold rows of {cell!r} (sim_config {sim_config!r})")
    t = _trace_terms(kg, sg)
    return dict(ratio=float(sg.throughput_bps.mean() / kg.throughput_bps.mean()), capacity_share_kernel=t["util_k"],
                capacity_share_sim=t["util_s"], queue_drops_kernel=t["drops_k"], queue_drops_sim=t["drops_s"],
                sndbuf_limited_s_kernel=t["sndbuf_limited_s"])


def _trace_diagnosis(metric: str, ratio: float, t: dict, sim_autotunes: bool = False) -> str | None:
    """The diagnosis of a goodput or retransmission miss on a trace cell (None for another metric);
    ``sim_autotunes``: the simulator's configuration grows its subflows' send buffers as Linux does (the
    ``"linux"`` configuration's :class:`~cmtlab.sim.mechanisms.schedulers.linux_send_buffers.LinuxSendBuffers`),
    else it runs with the largest autotuned buffer fixed."""
    per_path = "; ".join(f"path {i}: {a:.1f} (kernel) vs {b:.1f} (sim) MB" for i, (a, b) in
                         enumerate(zip(t["path_mb_k"], t["path_mb_s"])))
    if metric == "goodput_mbps":
        head = (f"{100 * (ratio - 1):+.0f} % goodput: {100 * t['util_k']:.0f} % (kernel) vs {100 * t['util_s']:.0f} % "
                f"(sim) of the replayed capacity")
        if t["sndbuf_limited_s"] >= 0.05 * t["duration_s"]:
            sim_side = ("the simulator's subflows autotune theirs the same way" if sim_autotunes else
                        "the simulator runs with the largest autotuned buffer fixed")
            return (f"{head}; the kernel's send buffer limited a subflow for {t['sndbuf_limited_s']:.1f} s of each "
                    f"{t['duration_s']:.0f}-s run (ss sndbuf_limited; autotuned), {sim_side} ({per_path})")
        more = "more" if t["drops_s"] > t["drops_k"] else "fewer"
        return (f"{head}, with {t['drops_k']:.0f} (kernel) vs {t['drops_s']:.0f} (sim) queue drops per run: the "
                f"simulator's window overruns the replayed rate's falls {more} often, each drop a window reduction "
                f"({per_path})")
    if metric == "retransmissions":
        d = t["drops_s"] / t["drops_k"] if t["drops_k"] else float("nan")
        rk = t["retx_k"] / t["drops_k"] if t["drops_k"] else float("nan")
        rs = t["retx_s"] / t["drops_s"] if t["drops_s"] else float("nan")
        return (f"no random loss: every loss is a queue drop where the replayed rate falls; the miss x{ratio:.2f} = "
                f"x{d:.2f} queue drops ({t['drops_k']:.1f} kernel vs {t['drops_s']:.1f} sim per run) × x{rs / rk:.2f} "
                f"retransmissions per drop ({rk:.2f} vs {rs:.2f})")
    return None


def _drops_by_path(g: pd.DataFrame) -> list[tuple[float, float]]:
    """Per path (queue drops, random drops) per run, kernel rows (``random_drops``) or simulator rows
    (``loss_drops``) alike."""
    n = int(g["n_paths"].fillna(1).max()) if len(g) else 1
    out = []
    for i in range(n):
        q = _per_path(g, i, "queue_drops", "queue_drops")
        r = _per_path(g, i, "random_drops", "loss_drops")
        out.append((q, r))
    return out


def _per_path(g: pd.DataFrame, i: int, col_kernel: str, col_sim: str) -> float:
    vals = []
    for _, row in g.iterrows():
        col = col_sim if row.get("simulator") == "cmtlab.sim" else col_kernel
        v = row.get(f"sub{i}_{col}", np.nan)
        vals.append(float(v) if pd.notna(v) else 0.0)
    return float(np.mean(vals)) if vals else float("nan")


def _paired(kg: pd.DataFrame, sg: pd.DataFrame) -> tuple[float, float] | None:
    """Run-by-run goodput ratios sim / kernel (min, max) when the simulator drew the delay line's drops
    (``sim_loss_draws == "delay_line"``: its run ``rep`` lost the packets the kernel's run ``rep`` lost)."""
    if "sim_loss_draws" not in sg or not (sg["sim_loss_draws"] == "delay_line").all() or "rep" not in kg:
        return None
    m = kg[["rep", "throughput_bps"]].merge(sg[["rep", "throughput_bps"]], on="rep", suffixes=("_k", "_s"))
    if m.empty:
        return None
    q = m.throughput_bps_s / m.throughput_bps_k
    return float(q.min()), float(q.max())


def _internals_terms(internals: pd.DataFrame | None, cell: str) -> dict | None:
    """Means per run of the kernel's own counters (:func:`~cmtlab.today.cells.kernel_internals`) on ``cell``, None without."""
    if internals is None or "cell" not in internals:
        return None
    g = internals[internals.cell == cell]
    if g.empty:
        return None
    return {k: float(g[k].mean()) for k in (*INTERNAL_COUNTERS, "random_drops", "queue_drops") if k in g} | \
        {"n": len(g)}


def _duplicates(kg: pd.DataFrame, sg: pd.DataFrame) -> tuple[float, float] | None:
    """Segments per run the receiving MPTCP connection got twice (``mptcp_duplicate_data``: the kernel's
    ``MPTcpExtDuplicateData``, the simulator's duplicate data-sequence numbers), kernel and simulator; None when
    either side lacks the count."""
    col = "mptcp_duplicate_data"
    if col not in kg or col not in sg or kg[col].isna().any() or sg[col].isna().any() or not len(kg) or not len(sg):
        return None
    return float(kg[col].mean()), float(sg[col].mean())


def _retx_diagnosis(kg: pd.DataFrame, sg: pd.DataFrame, k_rpm: float, s_rpm: float, ratio: float,
                    touts: float) -> str:
    """A retransmission miss split into what was lost: per path the queue drops and random drops per run,
    kernel and simulator; the path and kind of drop that differ most carry the miss."""
    kd, sd = _drops_by_path(kg), _drops_by_path(sg)
    k_tot = _metric(kg, "retransmissions").mean()
    s_tot = _metric(sg, "retransmissions").mean()
    parts = "; ".join(f"path {i}: {kq:.0f} + {kr:.0f} (kernel) vs {sq:.0f} + {sr:.0f} (sim)"
                      for i, ((kq, kr), (sq, sr)) in enumerate(zip(kd, sd)))
    diffs = [(abs(sq - kq), i, "queue") for i, ((kq, _), (sq, _)) in enumerate(zip(kd, sd))] + \
            [(abs(sr - kr), i, "random") for i, ((_, kr), (_, sr)) in enumerate(zip(kd, sd))]
    big, i, what = max(diffs)
    if what == "random" or big < 0.5 * abs(s_tot - k_tot):
        head = (f"per delivered MB the two retransmit {k_rpm:.1f} (kernel) vs {s_rpm:.1f} (sim): the count follows "
                f"the drops, which follow the data sent (the same drop ratio)")
    else:
        kq, sq = kd[i][0], sd[i][0]
        how = "more" if sq > kq else "less"
        head = (f"{k_tot:.0f} (kernel) vs {s_tot:.0f} (sim) retransmissions per run; {sq - kq:+.0f} of the "
                f"{s_tot - k_tot:+.0f} are queue drops on path {i} ({kq:.0f} vs {sq:.0f} per run): the simulator's "
                f"window on that path overruns its queue {how} often")
        col = f"sub{i}_queue_drops_warmup"
        if col in sg and sg[col].notna().all() and sq > 0:
            w = float(sg[col].mean())
            warm = float(sg["warmup_s"].iloc[0]) if "warmup_s" in sg else float("nan")
            head += (f"; {w:.0f} of the simulator's {sq:.0f} fall in the first {warm:g} s, the slow start "
                     f"{'(more than the kernel drops there in the whole run)' if w > kq else ''}").rstrip()
    tail = f"{touts:.1f} timeouts per simulated run" if touts >= 0.1 else "no timeouts"
    return f"{head} (queue + random drops per run, {parts}; {tail})"


def explain(agree: pd.DataFrame, kernel: pd.DataFrame, sim: pd.DataFrame, sim_config: str = "today",
            internals: pd.DataFrame | None = None) -> pd.DataFrame:
    """A computation for every miss of ``sim_config``: one row per (cell, metric) outside the kernel's spread.

    * ``rel_spread_kernel``/``rel_spread_sim``: (max - min) / mean over the repetitions / seeds;
    * ``retx_per_mb_kernel``/``retx_per_mb_sim``: retransmissions per delivered megabyte — equal when the two
      lose the same share of what they send (the same loss process);
    * ``paired_ratio_min``/``paired_ratio_max``: when the simulator drew the delay line's drops
      (:class:`cmtlab.sim.net.delay_line.DelayLineLink`), its run ``rep`` lost the packets the kernel's run
      ``rep`` lost: the goodput ratio run by run (NaN otherwise);
    * ``timeouts_sim`` and, with ``internals`` (:func:`~cmtlab.today.cells.kernel_internals` rows: the kernel's ``nstat`` counters
      on the same cells and seeds), ``timeouts_kernel``: retransmission timeouts per run;
    * a retransmission miss is split into what was lost, per path: queue drops and random drops per run on
      either side (the kernel's delay-line counters, the simulator's links); the path and kind that differ
      most carry the miss;
    * on a trace cell (rates replayed from the 5G / Starlink data, no random loss) a goodput or retransmission
      miss is computed from what the replay leaves to the transport: each side's share of the replayed capacity
      (:func:`schedule_capacity_bps`), the bytes per path, the queue drops where the rate falls and the
      retransmissions per drop (the retransmission ratio is their product), and the kernel's send-buffer-limited
      time (``ss``), which the simulator has no counterpart of (columns ``capacity_share_*``,
      ``queue_drops_*``, ``sndbuf_limited_s_kernel``; NaN on other cells);
    * a goodput miss on a cell of constant rates gives each side's goodput as a share of the paths' payload
      capacity (:func:`payload_capacity_bps`; columns ``payload_capacity_share_kernel_min``/``_max``,
      ``payload_capacity_share_sim``, NaN elsewhere): a kernel above 100 % in every run delivered, inside the
      window, data it had received before it;
    * a goodput miss of an MPTCP cell whose rows count it (``mptcp_duplicate_data``) also gives the segments per run
      the receiving connection got twice — capacity spent on connection-level retransmission;
    * ``diagnosis``: which of these accounts for the miss."""
    s = sim[sim.sim_config == sim_config]
    rows = []
    for r in agree[(agree.sim_config == sim_config) & ~agree.inside].itertuples():
        kg, sg = kernel[kernel.cell == r.cell], s[s.cell == r.cell]
        k_good, s_good = _metric(kg, "goodput_mbps"), _metric(sg, "goodput_mbps")
        k_mb = kg["received_bytes"].astype(float) / 1e6
        s_mb = sg["received_bytes"].astype(float) / 1e6
        k_rpm = float((_metric(kg, "retransmissions") / k_mb).mean())
        s_rpm = float((_metric(sg, "retransmissions") / s_mb).mean())
        spread_k = float((k_good.max() - k_good.min()) / k_good.mean())
        spread_s = float((s_good.max() - s_good.min()) / s_good.mean())
        touts = float(_per_run(sg, "timeouts", "timeouts").mean()) if len(sg) else np.nan
        kin = _internals_terms(internals, r.cell)
        touts_k = kin.get("TCPTimeouts", np.nan) if kin else np.nan
        paired = _paired(kg, sg)
        terms = _trace_terms(kg, sg) if cell_kind(r.cell).endswith("trace") and len(sg) else None
        trace_why = _trace_diagnosis(r.metric, r.ratio, terms, sim_autotunes=sim_config == "linux") if terms else None
        cap_text, cap_k_min, cap_k_max, cap_s = "", np.nan, np.nan, np.nan
        if r.metric == "goodput_mbps" and terms is None:
            cap_text, cap_k_min, cap_k_max, cap_s = _capacity_clause(kg, sg)
        if trace_why is not None:
            why = trace_why
        elif r.metric == "goodput_mbps":
            if spread_k < 0.01 and abs(r.ratio - 1) <= 0.05:
                why = (f"a saturated path: the kernel's runs differ by {100 * spread_k:.2f} % (timing noise), the "
                       f"simulator's seeds by {100 * spread_s:.2f} %; the means differ by {100 * (r.ratio - 1):+.1f} % "
                       f"(within 5 %: the within_5pct reading)")
            else:
                why = f"{100 * (r.ratio - 1):+.0f} % goodput"
                why += cap_text
                if paired:
                    why += (f", x{paired[0]:.2f} to x{paired[1]:.2f} run by run with the same drops (the delay "
                            f"line's)")
                why += f"; {k_rpm:.1f} (kernel) vs {s_rpm:.1f} (sim) retransmissions per MB"
                kd, sd = _drops_by_path(kg), _drops_by_path(sg)
                kq, sq = sum(q for q, _ in kd), sum(q for q, _ in sd)
                why += f", {kq:.0f} (kernel) vs {sq:.0f} (sim) queue drops per run"
                dup = _duplicates(kg, sg)
                if dup is not None:
                    why += (f", {dup[0]:.0f} (kernel) vs {dup[1]:.0f} (sim) segments the receiving connection got "
                            f"twice per run (connection-level retransmission)")
                if touts >= 0.1:
                    i = int(np.argmax([_per_path(sg, j, "timeouts", "timeouts") for j in range(len(sd))]))
                    rtt_i = float(kg[f"path{i}_rtt_s"].iloc[0]) if f"path{i}_rtt_s" in kg else float("nan")
                    why += (f"; {touts:.1f} retransmission timeouts per simulated run, on path {i} "
                            f"({1e3 * rtt_i:.0f} ms round trip)")
                    if kin and not touts_k > 0:
                        why += (f", none in the kernel's {kin['n']} runs (nstat TCPTimeouts; "
                                f"{kin.get('TCPSackRecovery', float('nan')):.0f} SACK recoveries per run): each "
                                f"timeout restarts that subflow from one segment where the kernel's recovery "
                                f"repaired the same losses")
                    elif kin:
                        why += f", {touts_k:.1f} per kernel run (nstat TCPTimeouts)"
        elif r.metric == "retransmissions":
            why = _retx_diagnosis(kg, sg, k_rpm, s_rpm, r.ratio, touts)
        else:
            # if the kernel's D-SACK count per run were Poisson with the simulator's mean, how likely is what
            # the kernel showed (at most its maximum in every run)?
            n = len(kg)
            lam = float(r.sim_mean)
            kmax = int(r.kernel_max)
            p_run = float(sum(np.exp(-lam) * lam ** j / math.factorial(j) for j in range(kmax + 1)))
            p_all = p_run ** n
            tail = ("within counting noise" if p_all >= 0.05 else "beyond counting noise")
            why = (f"{r.sim_mean:.1f} spurious retransmissions per simulated run against {r.kernel_mean:.1f} D-SACKed "
                   f"per kernel run: a Poisson count of mean {lam:.1f} stays at or below {kmax} in all {n} runs "
                   f"with probability {p_all:.2f} ({tail}); {touts:.1f} timeouts per simulated run")
        rows.append(dict(cell=r.cell, kind=cell_kind(r.cell), metric=r.metric, kernel_min=r.kernel_min,
                         kernel_max=r.kernel_max, sim_mean=r.sim_mean, ratio=r.ratio, rel_spread_kernel=spread_k,
                         rel_spread_sim=spread_s, retx_per_mb_kernel=k_rpm, retx_per_mb_sim=s_rpm,
                         paired_ratio_min=paired[0] if paired else np.nan,
                         paired_ratio_max=paired[1] if paired else np.nan,
                         timeouts_sim=touts, timeouts_kernel=touts_k,
                         capacity_share_kernel=terms["util_k"] if terms else np.nan,
                         capacity_share_sim=terms["util_s"] if terms else np.nan,
                         queue_drops_kernel=terms["drops_k"] if terms else np.nan,
                         queue_drops_sim=terms["drops_s"] if terms else np.nan,
                         sndbuf_limited_s_kernel=terms["sndbuf_limited_s"] if terms else np.nan,
                         payload_capacity_share_kernel_min=cap_k_min, payload_capacity_share_kernel_max=cap_k_max,
                         payload_capacity_share_sim=cap_s, diagnosis=why))
    return pd.DataFrame(rows)


def misses_table(misses: pd.DataFrame) -> pd.DataFrame:
    """The misses of :func:`explain` as the chapter shows them: cell, the metric's reader's name
    (:func:`cmtlab.report.readable_name`), the kernel's range, the simulator's mean and the diagnosis."""
    from ..report import readable_name

    out = misses[["cell", "metric", "kernel_min", "kernel_max", "sim_mean", "diagnosis"]].copy()
    out["metric"] = [readable_name(m) for m in out["metric"]]
    return out
