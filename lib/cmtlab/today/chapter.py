"""The chapter "Today's transport": the papers' mechanisms beside today's, on the papers' scenario and on a
real 5G + Starlink path pair, in cmtlab.sim (library side of ``notebooks/today-transport.ipynb``).

Three axes, each varied with the other two held at what Linux runs today (RACK-TLP loss detection with
PRR, Linux's CUBIC on every subflow, Linux's MPTCP scheduler; Linux's TCP options and timers,
:data:`cmtlab.validation.kernel_sim.LINUX_TCP_OPTIONS`):

* **reordering / loss detection** — the papers' responses on the duplicate-ACK rule (NoPR, D-SACK,
  Eifel, F-RTO, PR-R) against RACK-TLP (:data:`RECOVERY`);
* **scheduler** — round robin, OSIA, lowest RTT against BLEST, ECF and Linux's scheduler
  (:data:`SCHEDULERS`);
* **congestion control** — LIA and OLIA against uncoupled CUBIC (:data:`CONGESTION`).

Scenarios (:func:`scenarios`): Arabi et al.'s scenario 2 (three links 5 / 2 / 7 Mbit/s with one-way
delays 100 / 10 / 50 ms: the most heterogeneous of the papers' MPTCP scenarios; here with per-packet
delay variation and a little random loss on every path) and a real pair —
the per-second downlink rate of one Raca et al. 5G drive and a window of the Starlink-on-the-Road
iperf samples, replayed by :class:`cmtlab.sim.net.trace_link.RateTraceLink`, both scaled by one
factor (the simulator's speed; their ratio and variation are the measurements'), with round trips
from the same data sets' pings (medians of the minimum RTT).  :func:`run_axis` returns one row per
run; :func:`summarise` the mean and 95 % confidence interval over the seeds; :func:`comparison` the
chapter's paper-vs-today table.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..progress import progress
from ..report import ASKS_COLUMN, NO_CHANGE, Comparison, Threshold, fmt_number, trend_rule
from ..stats import NON_NEGATIVE, mean_ci
from .cells import _linux_options  # noqa: F401  (Linux's options and buffers, as simulate_like_kernel sets them)
from .cells import ALL_CELLS
from .traces import FIVE_G_FILE, real_pair  # noqa: F401  (the 5G + Starlink pair)

#: What today's Linux runs (the held axes).
TODAY = dict(loss_detection="rack-tlp", reordering="none", congestion="cubic",
             congestion_params={"variant": "linux", "hystart": True}, scheduler="linux")

#: label -> simulate_mptcp keywords of the varied mechanism.
RECOVERY = {
    "NoPR": dict(loss_detection="dupack", reordering="none"),
    "D-SACK": dict(loss_detection="dupack", reordering="dsack"),
    "Eifel": dict(loss_detection="dupack", reordering="eifel"),
    "F-RTO": dict(loss_detection="dupack", reordering="frto"),
    "PR-R": dict(loss_detection="dupack", reordering="pr-r"),
    "RACK-TLP": dict(loss_detection="rack-tlp", reordering="none"),
}
SCHEDULERS = {"round robin": "round_robin", "OSIA": "osia", "lowest RTT": "lowest_rtt", "BLEST": "blest",
              "ECF": "ecf", "Linux": "linux"}
CONGESTION = {"LIA": dict(congestion="lia", congestion_params={}),
              "OLIA": dict(congestion="olia", congestion_params={}),
              "uncoupled CUBIC": dict(congestion="cubic", congestion_params={"variant": "linux", "hystart": True})}
AXES = {"recovery": RECOVERY, "scheduler": SCHEDULERS, "congestion": CONGESTION}
#: The papers' mechanisms on each axis (the rest are today's).
PAPERS = {"recovery": ("NoPR", "D-SACK", "Eifel", "F-RTO", "PR-R"), "scheduler": ("round robin", "OSIA", "lowest RTT"),
          "congestion": ("LIA", "OLIA")}

#: Arabi et al. sec. 4, scenario 2: rates (bit/s) and ONE-WAY delays (s).
ARABI_S2 = ((5e6, 2e6, 7e6), (0.100, 0.010, 0.050))
def scenarios(*, real_seconds: int = 60, rate_scale: float = 0.1, papers_jitter_s: float = 0.002,
              papers_loss: float = 0.001, include_real: bool = True, mirror=None) -> dict:
    """name -> dict(bandwidths_bps, rtts_s, links, loss (per path), duration_s or None).

    The papers' scenario gets per-packet delay variation ``papers_jitter_s`` on every path (the reordering
    that RACK-TLP and the papers' responses answer; in the papers it came from their model's connection-level
    duplicate ACKs, which an RFC 8684 subflow does not send) and random loss ``papers_loss`` (so that seeds
    differ).  The real pair has the loss its pings measured: the median ``loss_pct`` of the Starlink ping
    summaries, the mean ``ping_loss_pct`` of the 5G drive."""
    from ..measurements import public

    for name, v, hi in (("papers_jitter_s", papers_jitter_s, 1.0), ("papers_loss", papers_loss, 0.5)):
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v <= hi:
            raise ValueError(f"{name} must be a number in [0, {hi}], got {v!r}")
    rates, one_way = ARABI_S2
    out = {"Arabi scenario 2": dict(bandwidths_bps=list(rates), rtts_s=[2 * d for d in one_way],
                                    links=[("jitter", {"jitter_s": float(papers_jitter_s)})] * 3 if papers_jitter_s
                                    else None, loss=[float(papers_loss)] * 3, duration_s=None)}
    if include_real:
        p = real_pair(seconds=real_seconds, rate_scale=rate_scale, mirror=mirror)
        five_g = public.load_uccmisl_5g(mirror=mirror)
        loss_5g = float(five_g.loc[five_g["file"] == FIVE_G_FILE, "ping_loss_pct"].mean()) / 100
        loss_star = float(public.load_starlink_ping(mirror=mirror)["loss_pct"].median()) / 100
        out["5G + Starlink (traces)"] = dict(
            bandwidths_bps=[float(np.mean(r)) for r in p["rates_bps"]], rtts_s=list(p["rtts_s"]),
            links=[("rate_trace", {"rates_bps": r, "interval_s": 1.0}) for r in p["rates_bps"]],
            loss=[loss_5g, loss_star], duration_s=float(real_seconds))
    return out


def run_axis(axis: str, scens: dict, seeds, *, duration_s: float = 30.0, receive_buffer_bytes: int = 1 << 19,
             progress_bar: bool = True) -> pd.DataFrame:
    """Every mechanism of ``axis`` ("recovery", "scheduler", "congestion") on every scenario and seed, the other
    axes at :data:`TODAY`; one row per run: goodput (Mbit/s), retransmissions, spurious retransmissions,
    timeouts, fast retransmits."""
    from ..sim import simulate_mptcp
    from ..scenario import LossModel

    if axis not in AXES:
        raise ValueError(f"axis must be one of {sorted(AXES)}, got {axis!r}")
    seeds = list(seeds)
    if not seeds:
        raise ValueError("seeds must name at least one seed")
    if "osia" in str(AXES[axis]):
        import cmtlab.papers.osia  # noqa: F401  (registers the OSIA scheduler)
    jobs = [(name, label, seed) for name in scens for label in AXES[axis] for seed in seeds]
    rows = []
    for name, label, seed in progress(jobs, desc=f"{axis} axis", unit="run", enabled_=progress_bar):
        sc = scens[name]
        kw = dict(TODAY)
        mech = AXES[axis][label]
        kw.update(mech if isinstance(mech, dict) else {"scheduler": mech})
        dur = sc["duration_s"] or duration_s
        loss = [LossModel("packet", p) if p > 0 else LossModel() for p in sc["loss"]]
        r = simulate_mptcp(sc["bandwidths_bps"], sc["rtts_s"], duration_s=dur, seed=seed,
                           links=sc["links"], loss=loss if any(p > 0 for p in sc["loss"]) else None,
                           **_linux_options(receive_buffer_bytes), **kw)
        sub = r.subflows
        rows.append(dict(axis=axis, scenario=name, mechanism=label, papers=label in PAPERS[axis], seed=seed,
                         goodput_mbps=r.delivered_bytes * 8 / dur / 1e6,
                         retransmissions=int(sub.retransmissions.sum()),
                         spurious_retransmissions=int(sub.spurious_retransmissions.sum()),
                         timeouts=int(sub.timeouts.sum()), fast_retransmits=int(sub.fast_retransmits.sum())))
    return pd.DataFrame(rows)


def summarise(runs: pd.DataFrame) -> pd.DataFrame:
    """Mean and 95 % confidence interval of the goodput over the seeds (cut at 0, ``ci_cut_at_0`` saying where:
    :mod:`cmtlab.stats`), mean spurious retransmissions and
    timeouts, per (axis, scenario, mechanism); ``vs_best_papers`` = mean / the best of the papers' mechanisms
    on that axis and scenario."""
    rows = []
    for (axis, scen, mech), g in runs.groupby(["axis", "scenario", "mechanism"], sort=False):
        res = mean_ci(g.goodput_mbps.to_numpy(), drop_nan=True)
        m, n = res.mean, res.n
        lo, hi = iv = res.within(NON_NEGATIVE)          # a goodput: the interval reported cut at 0 (cmtlab.stats)
        rows.append(dict(axis=axis, scenario=scen, mechanism=mech, papers=bool(g.papers.iloc[0]), goodput_mbps=m,
                         ci_lo=lo, ci_hi=hi, ci_cut_at_0=iv.clipped, n=n, spurious=float(g.spurious_retransmissions.mean()),
                         retransmissions=float(g.retransmissions.mean()), timeouts=float(g.timeouts.mean())))
    out = pd.DataFrame(rows)
    best = out[out.papers].groupby(["axis", "scenario"]).goodput_mbps.max()
    out["vs_best_papers"] = [r.goodput_mbps / best.get((r.axis, r.scenario), np.nan) for r in out.itertuples()]
    return out


def _ratio(runs: pd.DataFrame, axis: str, scen: str, a: str, b: str):
    """Goodput of ``a`` / goodput of ``b`` per seed (common random numbers): mean, 95 % CI, seeds."""
    g = runs[(runs.axis == axis) & (runs.scenario == scen)].pivot_table(index="seed", columns="mechanism",
                                                                        values="goodput_mbps")
    if a not in g or b not in g:
        return float("nan"), None, 0
    r = (g[a] / g[b]).dropna().to_numpy()
    ci = mean_ci(r, drop_nan=True)
    return ci.mean, (ci.within(NON_NEGATIVE) if ci.n > 1 else None), ci.n


#: The registered paper claims (``paper:id``, :func:`cmtlab.papers.all_claims`) that each question of
#: :func:`comparison` asks again on today's stack.  Looked up at run time: a claim a registry does not hold
#: (yet) is left out, and the check stands in the book's own words alone.
ASKS = {
    "dsack": "arabi:sec6.improve-none-optimal",
    "eifel": "arabi:fig9.eifel-frto-no-improvement",
    "frto": "arabi:fig9.eifel-frto-no-improvement",
    "prr": "",
    "osia": "osia:sec5.3.osia-succeeds",
    "round robin": "osia:sec5.3.rr-slow",
    "uncoupled": "arabi:sec6.best-s2-dsack-uncoupled",
}


def registered_claim(key: str):
    """The registered claim ``key`` (``"arabi:sec6.best-s2-dsack-uncoupled"``), or None where no registry
    holds it (a paper without a registry yet, an id that changed)."""
    if not key:
        return None
    try:
        from ..papers import all_claims

        return all_claims().get(key)
    except Exception:   # a registry that cannot be imported leaves the check standing alone
        return None


def _strongest(runs: pd.DataFrame, axis: str, scen: str, mech: str, pool, *, best: bool = True) -> str | None:
    """The mechanism of ``pool`` other than ``mech`` with the highest (``best``) or lowest mean goodput."""
    g = runs[(runs.axis == axis) & (runs.scenario == scen) & runs.mechanism.isin([m for m in pool if m != mech])]
    if g.empty:
        return None
    means = g.groupby("mechanism").goodput_mbps.mean()
    return means.idxmax() if best else means.idxmin()


def comparison(runs: pd.DataFrame, agreement: pd.DataFrame | None = None, *, goal: float = 0.8,
               cubic_ns3: pd.DataFrame | None = None, cubic_tol: float = 0.03) -> Comparison:
    """The chapter's table: checks only, no paper claim (questions asked of today's stack are
    checks of this book, counted apart).  Each question of the papers' conclusions is asked again with
    today's stack (the other axes at :data:`TODAY`) on each scenario run, in the book's own words, as a
    goodput ratio per seed (common random numbers) with its 95 % CI against the policy's 5 % no-change
    band; a CI across the cut point is *undecided at n seeds*.  Where a registered claim states the
    conclusion (:data:`ASKS`), the check names it (key, location, verbatim words) — the claim itself is
    decided in its own chapter, on its own reference, and not here.  Further checks: the kernel agreement
    goal and, with ``cubic_ns3`` (:func:`cmtlab.today.cubic_ns3.cubic_ns3_table` rows), Linux-variant
    CUBIC's completion times within ``cubic_tol`` of ns-3.44's ``TcpCubic``."""
    t = Comparison()
    scens = list(dict.fromkeys(runs.scenario))
    higher = trend_rule("ratio", "higher")
    not_higher = Threshold("ratio", "<", 1 + NO_CHANGE, f"a change within ± {100 * NO_CHANGE:g} % is no change (policy)")
    lower = trend_rule("ratio", "lower")
    have = {axis: set(runs[runs.axis == axis].mechanism) for axis in AXES}

    def ask(check, target, rule, a, b, axis, scen, key, label_b=None):
        r, ci, n = _ratio(runs, axis, scen, a, b)
        t.add_check_threshold(f"{check} — {scen}", rule=rule, value=r, ci=ci, n_seeds=n, target=target,
                              ours=f"{a} / {label_b or b} = {fmt_number(r, '.3f')}", asks=registered_claim(ASKS[key]))

    for scen in scens:
        if {"D-SACK", "NoPR"} <= have["recovery"]:
            ask("D-SACK's response raises goodput above no response", "D-SACK / NoPR ≥ 1.05", higher,
                "D-SACK", "NoPR", "recovery", scen, "dsack")
        for mech, key in (("Eifel", "eifel"), ("F-RTO", "frto")):
            if {mech, "NoPR"} <= have["recovery"]:
                ask(f"{mech} does not raise goodput above no response", f"{mech} / NoPR < 1.05", not_higher,
                    mech, "NoPR", "recovery", scen, key)
        if {"PR-R", "NoPR"} <= have["recovery"]:
            ask("PR-R raises goodput above no response", "PR-R / NoPR ≥ 1.05", higher, "PR-R", "NoPR", "recovery",
                scen, "prr")
        papers = [m for m in PAPERS["scheduler"] if m in have["scheduler"]]
        if "OSIA" in papers and len(papers) > 1:
            other = _strongest(runs, "scheduler", scen, "OSIA", papers)
            ask("OSIA gives more goodput than the papers' other schedulers", "OSIA / the strongest other ≥ 1.05",
                higher, "OSIA", other, "scheduler", scen, "osia")
        if "round robin" in have["scheduler"] and len(have["scheduler"]) > 1:
            other = _strongest(runs, "scheduler", scen, "round robin", list(SCHEDULERS), best=False)
            ask("round robin gives the least goodput of the six schedulers", "round robin / the weakest other ≤ 0.95",
                lower, "round robin", other, "scheduler", scen, "round robin")
        if "uncoupled CUBIC" in have["congestion"] and len(have["congestion"]) > 1:
            other = _strongest(runs, "congestion", scen, "uncoupled CUBIC", list(CONGESTION))
            ask("uncoupled subflows get more goodput than coupled ones (LIA, OLIA)",
                "uncoupled / the stronger coupled ≥ 1.05", higher, "uncoupled CUBIC", other, "congestion", scen,
                "uncoupled")
    if agreement is not None and len(agreement):
        a = agreement[agreement.sim_config == "today"]
        share = float(a.inside.mean())
        t.add_check("simulator (today's configuration) inside the kernel's spread", target=f">= {goal:.0%} of cells",
                    ours=f"{int(a.inside.sum())} of {len(a)} cells ({share:.0%})", holds=share >= goal,
                    rule="simulator mean within the kernel's min..max over its repetitions")
    if cubic_ns3 is not None and len(cubic_ns3):
        c = cubic_ns3[cubic_ns3.variant == "linux"]
        lo, hi = float(c.ct_rel_diff.min()), float(c.ct_rel_diff.max())
        t.add_check("CUBIC (Linux variant) against ns-3.44's TcpCubic: completion time", target=f"within ± {cubic_tol:.0%}",
                    ours=f"{100 * lo:+.1f} % to {100 * hi:+.1f} % over {len(c)} runs "
                         f"({c.scenario.nunique()} scenarios)", holds=max(abs(lo), abs(hi)) <= cubic_tol,
                    rule="every run's completion time within the target of ns-3's")
    return t


def today_answers(table: Comparison) -> str:
    """``{claim key: [answers on today's stack, one per scenario]}`` as JSON: what the checks that ask a
    registered claim again found (for the claim's own chapter or the scoreboard to show beside its
    verdict, as the :data:`cmtlab.report.claims.TODAY_COLUMN`; never counted)."""
    import json

    out: dict = {}
    for c in table.checks:
        asked = c.get(ASKS_COLUMN, "")
        if asked:
            out.setdefault(asked.split(" ", 1)[0], []).append(f"{c['check']}: {c['reproduction']} — {c['verdict']}")
    return json.dumps(out, ensure_ascii=False, sort_keys=True)


def facts(*, k_runs: pd.DataFrame, sim_rows: pd.DataFrame, agree: pd.DataFrame, internals: pd.DataFrame,
          replay: pd.DataFrame, hystart: pd.DataFrame, summary: pd.DataFrame, table: Comparison,
          goal: float = 0.8, elapsed_s: float = float("nan")) -> dict:
    """Every value the chapter's prose shows, glued in one call (:func:`cmtlab.report.glue_all`).

    ``k_runs`` the recorded kernel rows, ``sim_rows`` the simulator's rows for them, ``agree``
    (:func:`cmtlab.today.kernel.agreement`), ``internals`` (the kernel's counters on the lossy cells),
    ``replay`` (the replay checks of both sides), ``hystart``
    (:func:`cmtlab.today.kernel.hystart_sensitivity` indexed by setting), ``summary`` (:func:`summarise`),
    ``table`` (:func:`comparison`); ``elapsed_s`` the page's run time."""
    from . import kernel

    out: dict = {}
    share = agree.groupby("sim_config").inside.mean()
    for cfg in ("today", "today-dupack", "before"):
        tag = cfg.replace("-", "_")
        out[f"inside_{tag}"] = int(agree[agree.sim_config == cfg].inside.sum())
        out[f"share_{tag}"] = 100 * float(share[cfg])
    today = agree[agree.sim_config == "today"]
    out["n_cell_metrics"] = int(len(today))
    out["n_kernel_runs"] = int(len(k_runs))
    out["n_cells"] = int(k_runs.cell.nunique())
    out["kernel_reps"] = int(k_runs.groupby("cell").size().min())
    out["goal_pct"] = 100 * goal
    kernel_check = [c for c in table.checks if "kernel's spread" in c["check"]]
    out["goal_verdict"] = kernel_check[0]["verdict"] if kernel_check else "not checked in this run"
    trace = today[today.cell.map(kernel.cell_kind).str.endswith("trace")]
    out["inside_trace_today"] = int(trace.inside.sum())
    out["n_trace_metrics"] = int(len(trace))
    out["n_trace_cells"] = int(trace.cell.nunique())
    steps = kernel.loss_steps(k_runs)
    for key, step in zip(("first", "draws", "prr", "reset", "today"), steps.step.unique()):
        st = steps[steps.step == step]
        out[f"lossy_{key}_lo"] = 100 * float(st.ratio.min() - 1)
        out[f"lossy_{key}_hi"] = 100 * float(st.ratio.max() - 1)
        out[f"lossy_{key}_inside"] = int(st.inside.sum())
    out["n_lossy"] = int(steps.cell.nunique())
    lossy = internals[internals.cell.isin(kernel.LOSSY_CELLS)]
    out["int_runs"] = int(len(lossy))
    out["int_recov_per_drop"] = float(lossy.TCPSackRecovery.sum() / lossy.random_drops.sum())
    out["int_timeouts"] = int(lossy.TCPTimeouts.sum())
    out["int_probes"] = int(lossy.TCPLossProbes.sum())
    out["int_sack_reorder"] = float(internals[internals.cell == "tcp cubic 20M/40ms jitter 2ms 0.2% loss"]
                                    .TCPSACKReorder.mean())
    jit = agree[(agree.sim_config != "before") & agree.cell.str.contains("jitter")
                & (agree.metric == "spurious_retransmissions")]
    out["jitter_spurious_today"] = float(jit[jit.sim_config == "today"].sim_mean.mean())
    out["jitter_spurious_dupack"] = float(jit[jit.sim_config == "today-dupack"].sim_mean.mean())
    out["jitter_spurious_kernel"] = float(jit[jit.sim_config == "today"].kernel_mean.mean())
    for where, tag in (("testbed", "testbed"), ("cmtlab.sim", "sim")):
        r = replay[replay["where"] == where]
        b = r[r.backlogged & (r.scheduled_bps > 0)]
        ok = (b.rel_error.abs() <= 0.02) | (b.error_packets.abs() <= 1.0)
        out[f"replay_intervals_{tag}"] = int(len(r))
        out[f"replay_backlogged_{tag}"] = int(len(b))
        out[f"replay_ok_pct_{tag}"] = 100 * float(ok.mean())
        out[f"replay_max_err_pkts_{tag}"] = float(b.error_packets.abs().max())
        out[f"replay_median_err_pct_{tag}"] = 100 * float(b.rel_error.abs().median())
    out["replay_max_late_ms"] = 1e3 * float(replay.max_late_s.max())
    out["replay_idle_sim_n"] = int(((replay["where"] == "cmtlab.sim") & ~replay.backlogged).sum())
    out["replay_idle_testbed_n"] = int(((replay["where"] == "testbed") & ~replay.backlogged).sum())
    for cell, tag in (("tcp cubic Starlink trace", "star"), ("mptcp cubic 5G + Starlink traces", "pair")):
        tt = kernel.trace_terms(k_runs, sim_rows, cell)
        out[f"trace_{tag}_ratio_pct"] = 100 * (tt["ratio"] - 1)
        out[f"trace_{tag}_cap_kernel"] = 100 * tt["capacity_share_kernel"]
        out[f"trace_{tag}_cap_sim"] = 100 * tt["capacity_share_sim"]
        out[f"trace_{tag}_drops_kernel"] = float(tt["queue_drops_kernel"])
        out[f"trace_{tag}_drops_sim"] = float(tt["queue_drops_sim"])
        out[f"trace_{tag}_sndbuf_s"] = float(tt["sndbuf_limited_s_kernel"])
    for key, setting in (("kernel", "kernel"), ("on", "cmtlab.sim, hystart on"), ("off", "cmtlab.sim, hystart off")):
        for col in ("goodput_mbps", "min_mbps", "max_mbps", "queue_drops"):
            out[f"star_hs_{key}_{col}"] = float(hystart.loc[setting, col])
    off, lo, hi = (out[f"star_hs_{k}"] for k in ("off_goodput_mbps", "kernel_min_mbps", "kernel_max_mbps"))
    out["star_hs_off_vs_kernel"] = "inside" if lo <= off <= hi else ("above" if off > hi else "below")
    rec = summary[summary.axis == "recovery"]
    rack = rec[rec.mechanism == "RACK-TLP"].set_index("scenario")
    papers_min = rec[rec.papers].groupby("scenario").spurious.min()
    s2 = "Arabi scenario 2"
    out["rack_vs_best_papers_s2"] = float(rack.vs_best_papers.get(s2, float("nan")))
    out["rack_spurious_s2"] = float(rack.spurious.get(s2, float("nan")))
    out["papers_min_spurious_s2"] = float(papers_min.get(s2, float("nan")))
    asked = [c for c in table.checks if c.get(ASKS_COLUMN)]
    questions = [c for c in table.checks if " — " in c["check"]]
    out["today_questions"] = len(questions)
    out["today_questions_hold"] = sum(c["verdict"] == "met" for c in questions)
    out["today_questions_undecided"] = sum(c["verdict"].startswith("undecided") for c in questions)
    out["today_questions_asking_claims"] = len(asked)
    out["today_answers"] = today_answers(table)
    out["run_time_min"] = float(elapsed_s) / 60
    return out


#: The clean two-path cells whose delay-line counters check the preset's MPTCP packet sizes (no random loss, queues
#: of 100 packets or more, no 600-ms path).
CLEAN_TWO_PATH_CELLS = ("mptcp cubic 10M/20ms + 10M/100ms", "mptcp cubic 10M/20ms jitter 4ms + 10M/100ms",
                        "mptcp cubic 10M/20ms queue 30kB + 10M/80ms queue 150kB")
#: The wider table's cell with a 600-ms path beside a 20-ms one (its path 1 is the long one).
LONG_PATH_CELL = "mptcp cubic 20M/20ms + 2M/600ms"


#: The kernel runs traced with ``ss`` (``data/today/kernel_socket_traces.csv``, :func:`cmtlab.today.kernel.kernel_socket_trace`):
#: (cell, repetition, sampling interval in s).
SOCKET_TRACES = ((LONG_PATH_CELL, 0, 0.05), ("tcp cubic 20M/40ms jitter 2ms 0.2% loss", 2, 0.01))


def socket_trace_facts(traces: pd.DataFrame) -> dict:
    """The values the chapter's prose reads from the ``ss`` traces of :data:`SOCKET_TRACES` (one
    :func:`cmtlab.today.kernel.kernel_socket_trace` per cell, concatenated).

    On :data:`LONG_PATH_CELL`: ``trace_join_lo_s`` / ``_hi_s``, the long subflow's first data after the short one's
    (bounded by the samples around each), and in round trips of the long path beyond the short path's round trip
    (``trace_join_rtts_lo`` / ``_hi``); the *stalls* — samples where the short subflow holds nothing and the long one
    at most one segment —: the connection's largest free send buffer then (``trace_stall_free_mb``, of
    ``trace_stall_sndbuf_mb``) and the longest stall (``trace_stall_longest_s``); after every stall longer than
    ``trace_restart_min_s`` the short subflow's window before and after (``trace_restart_before_lo`` / ``_hi``,
    ``trace_restart_after_lo`` / ``_hi``, segments).  On the jittered TCP cell: the window where ``ss`` first shows an
    ssthresh (``trace_hystart_cwnd``) and the retransmissions by then (``trace_hystart_retrans``)."""
    out: dict = {}
    for cell, rep, interval in SOCKET_TRACES:
        t = traces[(traces.cell == cell) & (traces.rep == rep)]
        if t.empty:
            raise ValueError(f"traces must hold {cell!r} repetition {rep}")
    lc = next(c for c in ALL_CELLS if c["cell"] == LONG_PATH_CELL)
    rtt0, rtt1 = 2 * lc["paths"][0][1], 2 * lc["paths"][1][1]
    t = traces[traces.cell == LONG_PATH_CELL]
    s0, s1, msk = (t[t.path == p].set_index("t_s").sort_index() for p in (0, 1, -1))

    def first_data(s):
        sent = s.bytes_sent > 0
        i = int(np.argmax(sent.to_numpy()))
        return (float(s.index[i - 1]) if i > 0 else 0.0), float(s.index[i])

    p0, f0 = first_data(s0)
    p1, f1 = first_data(s1)
    out["trace_join_lo_s"], out["trace_join_hi_s"] = p1 - f0, f1 - p0
    out["trace_join_rtts_lo"] = (out["trace_join_lo_s"] - rtt0) / rtt1
    out["trace_join_rtts_hi"] = (out["trace_join_hi_s"] - rtt0) / rtt1
    both = s0[["send_q_bytes", "cwnd_segments"]].join(s1[["unacked_segments"]], how="inner").join(
        msk[["wmem_bytes", "sndbuf_bytes"]], how="inner")
    stall = (both.send_q_bytes == 0) & (both.unacked_segments <= 1)
    free = (both.sndbuf_bytes - both.wmem_bytes)[stall]
    if free.empty:
        raise ValueError(f"the trace of {LONG_PATH_CELL!r} shows no stall (both subflows idle)")
    out["trace_stall_free_mb"] = float(free.max()) / 1e6
    out["trace_stall_sndbuf_mb"] = float(both.sndbuf_bytes[free.idxmax()]) / 1e6
    interval = float(t.interval_s.iloc[0])
    idle = (both.send_q_bytes == 0).to_numpy()
    times, cw = both.index.to_numpy(), both.cwnd_segments.to_numpy()
    episodes, i = [], 0
    while i < len(idle):
        if idle[i]:
            j = i
            while j < len(idle) and idle[j]:
                j += 1
            if i > 0 and j < len(idle):
                episodes.append((times[j] - times[i - 1], cw[i - 1], cw[j], bool(stall.to_numpy()[i:j].all())))
            i = j
        else:
            i += 1
    stalls = [e for e in episodes if e[3]]
    out["trace_stall_longest_s"] = float(max(e[0] for e in stalls)) - interval if stalls else 0.0
    out["trace_restart_min_s"] = 0.5  # two RTOs and more of the short subflow (SRTT 26-63 ms, RTO >= 200 ms)
    long_ones = [e for e in episodes if e[0] > out["trace_restart_min_s"]]
    if not long_ones:
        raise ValueError(f"the trace of {LONG_PATH_CELL!r} shows no idle period of the short subflow longer than "
                         f"{out['trace_restart_min_s']} s")
    out["trace_restart_before_lo"] = float(min(e[1] for e in long_ones))
    out["trace_restart_before_hi"] = float(max(e[1] for e in long_ones))
    out["trace_restart_after_lo"] = float(min(e[2] for e in long_ones))
    out["trace_restart_after_hi"] = float(max(e[2] for e in long_ones))
    cell, rep, _ = SOCKET_TRACES[1]
    j = traces[(traces.cell == cell) & (traces.path == 0)].sort_values("t_s")
    exit_row = j[j.ssthresh_segments.notna()].head(1)
    if exit_row.empty:
        raise ValueError(f"the trace of {cell!r} never leaves slow start")
    out["trace_hystart_cwnd"] = float(exit_row.cwnd_segments.iloc[0])
    out["trace_hystart_retrans"] = float(exit_row.retrans_total.iloc[0])
    return out


#: The share of the paths' payload capacity (:func:`cmtlab.today.kernel.payload_capacity_bps`) at and above which
#: :func:`wider_facts` counts a goodput miss's simulator as filling its paths (``capacity_sim_full``).
CAPACITY_FULL_SHARE = 0.99


def wider_facts(*, wider: pd.DataFrame, misses: pd.DataFrame, steps: pd.DataFrame, goal: float = 0.8,
                kernel_rows: pd.DataFrame | None = None, sim_rows: pd.DataFrame | None = None,
                writer_steps: pd.DataFrame | None = None, ledger: pd.DataFrame | None = None,
                socket_traces: pd.DataFrame | None = None) -> dict:
    """The values the wider agreement table's prose shows, glued in one call (:func:`cmtlab.report.glue_all`).

    ``wider`` (:func:`cmtlab.today.kernel.wider_agreement`), ``misses`` (:func:`cmtlab.today.kernel.explain` of its
    ``"linux"`` rows), ``steps`` (:func:`cmtlab.today.kernel.send_buffer_steps`).  Keys ``wider_*``: the cells and
    cell metrics, per metric the simulator's ``"linux"`` configuration inside the kernel's spread (``inside``), its
    share, the ``within_5pct`` reading, the total against ``goal``; the chapter's ``"today"`` configuration on the
    same table; the misses explained; of the goodput misses on cells of constant rates
    (``capacity_goodput_misses``, those :func:`cmtlab.today.kernel.explain` gives payload-capacity shares) those where
    the simulator fills at least :data:`CAPACITY_FULL_SHARE` of the paths' payload capacity (``capacity_sim_full``;
    the share in percent: ``capacity_full_pct``) and those where every
    kernel run exceeds it (``capacity_kernel_above``; of those, where the simulator's mean stays below it:
    ``capacity_kernel_above_sim_below``); the small-queue cells' goodput ratio per send-buffer step (``sndbuf_<key>_lo``
    / ``_hi``, keys of :data:`cmtlab.today.kernel.SEND_BUFFER_STEPS`).  With ``kernel_rows`` and ``sim_rows`` (the
    wider table's rows, :func:`cmtlab.today.kernel.wider_kernel` and the simulator's ``"linux"`` rows) also the
    segments per run the receiving connection got twice on the small-queue cells, kernel and simulator
    (``small_queue_dup_kernel_lo`` / ``_hi``, ``small_queue_dup_sim_lo`` / ``_hi``: the lowest and highest cell
    mean), the MPTCP cells where the kernel's receiving connection got data twice (``msk_dup_cells``, of
    ``mptcp_cells``), and on :data:`LONG_PATH_CELL` the long path's queue drops per run (kernel ``_min`` / ``_max``,
    simulator mean), the long subflow's send-buffer-limited seconds per kernel run, and the kernel's goodput: the
    runs within 0.1 % of its median (``long_cell_kernel_mode_runs``, ``_mode_mbps``) and the mean of the others;
    the payload per IP byte the delay lines carried on :data:`CLEAN_TWO_PATH_CELLS` (lowest and highest run) beside
    the preset's MPTCP payload and DSS bytes.  With ``writer_steps`` (:func:`cmtlab.today.kernel.send_buffer_steps` of
    :data:`cmtlab.today.kernel.WRITER_STEPS` over :data:`cmtlab.today.kernel.WRITER_CELLS`): the simulator's goodput
    over the kernel's on :data:`LONG_PATH_CELL` and on the small-queue cells (lowest and highest) per step
    (``long_cell_<key>_ratio``, ``long_cell_<key>_inside`` "inside"/"outside", ``small_queue_<key>_lo`` / ``_hi``,
    ``small_queue_<key>_inside`` of ``small_queue_cells``).  With ``ledger`` (:func:`cmtlab.today.kernel.mechanism_ledger`):
    the cell metrics inside with the preset and with each mechanism and all of them (``ledger_preset_inside``,
    ``ledger_<key>_inside``, ``ledger_all_inside``, of ``ledger_n``), the cell metrics each moves in and out
    (``ledger_<key>_in`` / ``_out``), and whether all of them together leave ``"fewer"``, ``"as many"`` or ``"more"``
    inside than the preset (``ledger_all_vs_preset``).  With ``socket_traces`` (the recorded ``ss`` traces): the keys of
    :func:`socket_trace_facts`."""
    from . import kernel

    out: dict = {}
    lin = wider[wider.sim_config == "linux"]
    out["wider_cells"] = int(lin.cell.nunique())
    out["wider_new_cells"] = int(len(kernel.WIDER_CELLS))
    out["wider_cell_metrics"] = int(len(lin))
    by = kernel.agreement_by_metric(wider).set_index(["sim_config", "metric"])
    for m, tag in (("goodput_mbps", "goodput"), ("retransmissions", "retx"), ("spurious_retransmissions", "spurious")):
        for cfg in ("linux", "today"):
            out[f"wider_{cfg}_{tag}_inside"] = int(by.loc[(cfg, m), "inside"])
            out[f"wider_{cfg}_{tag}_within5"] = int(by.loc[(cfg, m), "within_5pct"])
    for cfg in ("linux", "today"):
        a = wider[wider.sim_config == cfg]
        out[f"wider_{cfg}_inside"] = int(a.inside.sum())
        out[f"wider_{cfg}_share"] = 100 * float(a.inside.mean())
    out["wider_goal_pct"] = 100 * goal
    out["wider_goal_met"] = "met" if out["wider_linux_share"] >= 100 * goal else "not met"
    out["wider_misses"] = int(len(misses))
    out["wider_misses_explained"] = int(misses.diagnosis.astype(str).str.len().gt(0).sum()) if len(misses) else 0
    good = lin[lin.metric == "goodput_mbps"]
    out["wider_goodput_within10"] = int(((good.ratio - 1).abs() <= 0.10).sum())
    cap = (misses[misses.metric == "goodput_mbps"].dropna(subset=["payload_capacity_share_sim"])
           if len(misses) and "payload_capacity_share_sim" in misses else pd.DataFrame())
    out["capacity_goodput_misses"] = int(len(cap))
    out["capacity_full_pct"] = 100 * CAPACITY_FULL_SHARE
    out["capacity_sim_full"] = int((cap.payload_capacity_share_sim >= CAPACITY_FULL_SHARE).sum()) if len(cap) else 0
    above = cap[cap.payload_capacity_share_kernel_min > 1.0] if len(cap) else cap
    out["capacity_kernel_above"] = int(len(above))
    out["capacity_kernel_above_sim_below"] = int((above.payload_capacity_share_sim < 1.0).sum()) if len(above) else 0
    for key, st in steps.groupby("key", sort=False):
        out[f"sndbuf_{key}_lo"] = float(st.ratio.min())
        out[f"sndbuf_{key}_hi"] = float(st.ratio.max())
    if kernel_rows is not None and sim_rows is not None:
        col = "mptcp_duplicate_data"
        sim_lin = sim_rows[sim_rows.sim_config == "linux"] if "sim_config" in sim_rows else sim_rows
        for side, rows in (("kernel", kernel_rows), ("sim", sim_lin)):
            if col not in rows:
                raise ValueError(f"{side} rows must count {col!r} (kernel_runs(mptcp_counters=True), "
                                 "simulate_like_kernel)")
            means = rows[rows.cell.isin(kernel.SMALL_QUEUE_CELLS)].groupby("cell")[col].mean()
            out[f"small_queue_dup_{side}_lo"] = float(means.min())
            out[f"small_queue_dup_{side}_hi"] = float(means.max())
        mp = kernel_rows[kernel_rows.kind == "mptcp"].groupby("cell")[col].mean().dropna()
        out["mptcp_cells"] = int(len(mp))
        out["msk_dup_cells"] = int((mp > 0).sum())
        from ..sim.presets import MPTCP_OPTION_BYTES, linux_segment_bytes
        from ..validation.kernel_sim import payload_per_ip_byte

        per = payload_per_ip_byte(kernel_rows[kernel_rows.cell.isin(CLEAN_TWO_PATH_CELLS)])
        out["mptcp_payload_per_ip_byte_lo"] = float(per["min"].min())
        out["mptcp_payload_per_ip_byte_hi"] = float(per["max"].max())
        out["mptcp_payload_bytes"] = int(linux_segment_bytes(mptcp=True))
        out["mptcp_dss_bytes"] = int(MPTCP_OPTION_BYTES)
        out["mptcp_full_packet_share"] = out["mptcp_payload_bytes"] / 1500
        lk = kernel_rows[kernel_rows.cell == LONG_PATH_CELL]
        ls = sim_lin[sim_lin.cell == LONG_PATH_CELL]
        if len(lk) and len(ls):
            out["long_cell_kernel_runs"] = int(len(lk))
            out["long_cell_kernel_drops_min"] = float(lk["sub1_queue_drops"].min())
            out["long_cell_kernel_drops_max"] = float(lk["sub1_queue_drops"].max())
            out["long_cell_sim_drops"] = float(ls["sub1_queue_drops"].mean())
            out["long_cell_sndbuf_limited_min_s"] = float(lk["sub1_sndbuf_limited_ms"].min()) / 1e3
            out["long_cell_sndbuf_limited_max_s"] = float(lk["sub1_sndbuf_limited_ms"].max()) / 1e3
            g = lk["throughput_bps"] / 1e6
            med = float(g.median())
            close = (g - med).abs() <= 0.001 * med
            out["long_cell_kernel_mode_runs"] = int(close.sum())
            out["long_cell_kernel_mode_mbps"] = med
            out["long_cell_kernel_other_mbps"] = float(g[~close].mean()) if (~close).any() else float("nan")
    if writer_steps is not None:
        for key, st in writer_steps.groupby("key", sort=False):
            lc = st[st.cell == LONG_PATH_CELL]
            sq = st[st.cell.isin(kernel.SMALL_QUEUE_CELLS)]
            if len(lc) != 1 or sq.empty:
                raise ValueError(f"writer_steps must hold {LONG_PATH_CELL!r} and the small-queue cells for every step, "
                                 f"got {sorted(st.cell)} for {key!r}")
            out[f"long_cell_{key}_ratio"] = float(lc.ratio.iloc[0])
            out[f"long_cell_{key}_inside"] = "inside" if bool(lc.inside.iloc[0]) else "outside"
            out[f"small_queue_{key}_lo"] = float(sq.ratio.min())
            out[f"small_queue_{key}_hi"] = float(sq.ratio.max())
            out[f"small_queue_{key}_inside"] = int(sq.inside.sum())
        out["small_queue_cells"] = int(len(kernel.SMALL_QUEUE_CELLS))
    if ledger is not None:
        if ledger.empty or "all" not in set(ledger.key):
            raise ValueError("ledger must hold mechanism_ledger's rows, the 'all' row among them")
        first = ledger.iloc[0]
        out["ledger_preset_inside"] = int(first.inside_preset)
        out["ledger_n"] = int(first.n)
        for r in ledger.itertuples():
            out[f"ledger_{r.key}_inside"] = int(r.inside_with)
            out[f"ledger_{r.key}_in"] = len(r.moved_in.split("; ")) if r.moved_in else 0
            out[f"ledger_{r.key}_out"] = len(r.moved_out.split("; ")) if r.moved_out else 0
        a, b = out["ledger_all_inside"], out["ledger_preset_inside"]
        out["ledger_all_vs_preset"] = "fewer" if a < b else ("more" if a > b else "as many")
    if socket_traces is not None:
        out.update(socket_trace_facts(socket_traces))
    return out


def rerun_facts(*, rerun_agree: pd.DataFrame, kernel_rows: pd.DataFrame, rerun: pd.DataFrame) -> dict:
    """The values the prose on the kernel's re-run shows (:func:`cmtlab.today.kernel.kernel_rerun_agreement` as
    ``rerun_agree``; the recorded kernel rows and the re-run's rows).  ``rerun_inside`` / ``sim_inside`` of
    ``rerun_n``: cell metrics whose re-run mean / simulator mean lies inside the recorded spread; ``rerun_runs_inside``
    of ``rerun_runs``: the re-run's single runs inside it, per cell metric and run; ``rerun_reps``: runs per cell;
    ``rerun_build`` / ``recorded_build``: the kernel builds; ``sim_out_rerun_out``: the simulator's misses where the
    re-run is outside too."""
    from .agreement import METRICS, RERUN, _metric

    a = rerun_agree.set_index(["cell", "metric", "sim_config"]).inside
    cells = rerun_agree.cell.unique()
    re_in = a.xs(RERUN, level="sim_config")
    sim_in = a.xs("linux", level="sim_config")
    if not re_in.index.equals(sim_in.index):
        raise ValueError("rerun_agree must hold the same cell metrics for the re-run and the 'linux' rows")
    runs_in = runs = 0
    for cell in cells:
        k, r = kernel_rows[kernel_rows.cell == cell], rerun[rerun.cell == cell]
        for m in METRICS:
            kv, rv = _metric(k, m), _metric(r, m)
            runs_in += int(((rv >= kv.min()) & (rv <= kv.max())).sum())
            runs += len(rv)
    reps = rerun.groupby("cell").size().unique()
    builds = (sorted(set(rerun.kernel)), sorted(set(kernel_rows.kernel)))
    if len(reps) != 1 or len(builds[0]) != 1 or len(builds[1]) != 1:
        raise ValueError(f"the re-run must hold as many runs of every cell, each file one kernel build: {reps}, {builds}")
    return {"rerun_inside": int(re_in.sum()), "sim_inside": int(sim_in.sum()), "rerun_n": int(len(re_in)),
            "rerun_runs_inside": runs_in, "rerun_runs": runs, "rerun_reps": int(reps[0]),
            "rerun_build": builds[0][0], "recorded_build": builds[1][0],
            "sim_out_rerun_out": int((~sim_in & ~re_in).sum())}


__all__ = ["TODAY", "RECOVERY", "SCHEDULERS", "CONGESTION", "AXES", "PAPERS", "ARABI_S2", "FIVE_G_FILE", "ASKS",
           "real_pair", "scenarios", "run_axis", "summarise", "registered_claim", "comparison", "today_answers", "facts",
           "wider_facts", "rerun_facts", "CAPACITY_FULL_SHARE", "LONG_PATH_CELL", "CLEAN_TWO_PATH_CELLS", "SOCKET_TRACES", "socket_trace_facts"]
