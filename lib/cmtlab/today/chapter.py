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
from ..report import Comparison, trend_rule
from ..stats import mean_ci

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
#: The 5G drive of the real pair (Raca et al., ``file`` column of the loader).
FIVE_G_FILE = "Download/Driving/B_2019.12.16_07.22.43.csv"


def _linux_options(receive_buffer_bytes: int) -> dict:
    """simulate_mptcp keywords for Linux's TCP options and buffers: ``receive_buffer_bytes`` is the
    connection-level receive buffer *and* every subflow's advertised window (an MPTCP subflow advertises
    the connection's window, RFC 8684 sec. 3.3.4), as :func:`cmtlab.validation.kernel_sim.simulate_like_kernel`
    sets them — a bare ``receive_buffer_bytes`` keyword would set the connection's only and leave each
    subflow at :class:`cmtlab.scenario.TcpOptions`' 128 KiB default."""
    from ..scenario import TcpOptions
    from ..validation.kernel_sim import LINUX_TCP_OPTIONS

    rb = int(receive_buffer_bytes)
    return dict(segment_bytes=1448, initial_window_bytes=10 * 1448, ssthresh_bytes=1 << 30, receive_buffer_bytes=rb,
                options=TcpOptions(**LINUX_TCP_OPTIONS, send_buffer_bytes=4 << 20, receive_buffer_bytes=rb))


def real_pair(*, seconds: int = 60, start_s: int | None = None, rate_scale: float = 0.1, mirror=None) -> dict:
    """The 5G + Starlink pair: per-second rate schedules (bit/s, scaled by ``rate_scale``), round trips (s)
    from the data sets' pings, and where each comes from.  ``start_s`` (None: the first second at which the 5G
    drive's rate reaches a tenth of its median — its logger starts before the download does) selects the
    window of both traces."""
    from ..measurements import public
    from .traces import rates_from_5g, rates_from_starlink

    if not 0 < rate_scale <= 1:
        raise ValueError(f"rate_scale must be in (0, 1], got {rate_scale!r}")
    if not isinstance(seconds, int) or seconds < 5:
        raise ValueError(f"seconds must be an integer >= 5, got {seconds!r}")
    five_g = public.load_uccmisl_5g(mirror=mirror)
    full = rates_from_5g(five_g, FIVE_G_FILE)
    if start_s is None:
        floor = 0.1 * float(np.median(full))
        start_s = next(i for i, r in enumerate(full) if r >= floor)
    g = full[start_s:start_s + seconds]
    star = public.load_starlink(mirror=mirror)
    s = rates_from_starlink(star.iperf, start=start_s, seconds=seconds)
    if len(g) < seconds or len(s) < seconds:
        raise ValueError(f"start_s + seconds = {start_s + seconds} s is beyond the traces ({len(g)} / {len(s)} s left)")
    rtt_5g = float(five_g.loc[five_g["file"] == FIVE_G_FILE, "rtt_min_ms"].median()) / 1e3
    rtt_star = float(star.ping["rtt_min_ms"].median()) / 1e3
    return dict(rates_bps=(tuple(r * rate_scale for r in g), tuple(r * rate_scale for r in s)),
                rtts_s=(rtt_5g, rtt_star), names=("5G (Raca et al.)", "Starlink (Laniewski et al.)"),
                rate_scale=rate_scale, start_s=start_s)


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
    """Mean and 95 % confidence interval of the goodput over the seeds, mean spurious retransmissions and
    timeouts, per (axis, scenario, mechanism); ``vs_best_papers`` = mean / the best of the papers' mechanisms
    on that axis and scenario."""
    rows = []
    for (axis, scen, mech), g in runs.groupby(["axis", "scenario", "mechanism"], sort=False):
        m, h, n = mean_ci(g.goodput_mbps.to_numpy(), drop_nan=True)
        lo, hi = m - h, m + h
        rows.append(dict(axis=axis, scenario=scen, mechanism=mech, papers=bool(g.papers.iloc[0]), goodput_mbps=m,
                         ci_lo=lo, ci_hi=hi, n=n, spurious=float(g.spurious_retransmissions.mean()),
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
    return ci.mean, (ci.interval if ci.n > 1 else None), ci.n


def comparison(runs: pd.DataFrame, agreement: pd.DataFrame | None = None, *, goal: float = 0.8,
               cubic_ns3: pd.DataFrame | None = None, cubic_tol: float = 0.03) -> Comparison:
    """The chapter's table: each paper conclusion re-tested with today's stack (the other axes at
    :data:`TODAY`), on each scenario run; checks of this book: the kernel agreement goal and, with
    ``cubic_ns3`` (:func:`cmtlab.today.cubic_ns3.cubic_ns3_table` rows), Linux-variant CUBIC's completion
    times within ``cubic_tol`` of ns-3.44's ``TcpCubic``."""
    t = Comparison()
    scens = list(dict.fromkeys(runs.scenario))
    higher = trend_rule("goodput ratio", "higher")
    lower = trend_rule("goodput ratio", "lower")
    for scen in scens:
        where = f"today's stack, {scen}"
        tag = f" — {scen}"
        if {"D-SACK", "NoPR"} <= set(runs[runs.axis == "recovery"].mechanism):
            r, ci, n = _ratio(runs, "recovery", scen, "D-SACK", "NoPR")
            t.add_threshold("D-SACK's response raises goodput over no algorithm" + tag, rule=higher, value=r, ci=ci, n_seeds=n,
                            ours=f"D-SACK / NoPR = {r:.3f}", quote="scenario 2 best: DSACK + uncoupled",
                            where=f"Arabi sec. 5; {where}")
        for mech in ("Eifel", "F-RTO"):
            if {mech, "NoPR"} <= set(runs[runs.axis == "recovery"].mechanism):
                r, ci, n = _ratio(runs, "recovery", scen, mech, "NoPR")
                t.add_threshold(f"{mech} lowers goodput below no algorithm{tag}", rule=lower, value=r, ci=ci, n_seeds=n,
                                ours=f"{mech} / NoPR = {r:.3f}", quote="F-RTO and Eifel about 40 % below no-algorithm",
                                where=f"Arabi sec. 5; {where}")
        if {"PR-R", "NoPR"} <= set(runs[runs.axis == "recovery"].mechanism):
            r, ci, n = _ratio(runs, "recovery", scen, "PR-R", "NoPR")
            t.add_threshold("PR-R raises goodput over NoPR" + tag, rule=higher, value=r, ci=ci, n_seeds=n,
                            ours=f"PR-R / NoPR = {r:.3f}",
                            quote="PR-R +50 % on average vs NoPR", where=f"Alheid Fig. 4; {where}")
        sch = runs[(runs.axis == "scheduler") & (runs.scenario == scen)]
        if len(sch):
            means = sch.groupby("mechanism").goodput_mbps.mean()
            papers = [m for m in PAPERS["scheduler"] if m in means]
            if "OSIA" in means and len(papers) > 1:
                best = means[papers].idxmax()
                t.add_claim("OSIA schedules best among the papers' schedulers" + tag, paper="OSIA best",
                            ours=f"best: {best} ({means[best]:.2f} Mbit/s; OSIA {means['OSIA']:.2f})",
                            holds=best == "OSIA", quote="OSIA best", where=f"OSIA Fig. 8; {where}")
            if "round robin" in means and len(means) > 1:
                worst = means.idxmin()
                t.add_claim("round robin schedules worst" + tag, paper="RR lowest",
                            ours=f"lowest: {worst} ({means[worst]:.2f} Mbit/s)", holds=worst == "round robin",
                            quote="RR lowest", where=f"OSIA Fig. 8; {where}")
        cc = runs[(runs.axis == "congestion") & (runs.scenario == scen)]
        if len(cc):
            means = cc.groupby("mechanism").goodput_mbps.mean()
            best = means.idxmax()
            t.add_claim("uncoupled subflows get the most goodput" + tag, paper="best: DSACK + uncoupled",
                        ours=f"best: {best} ({means[best]:.2f} Mbit/s)", holds=best == "uncoupled CUBIC",
                        quote="scenario 2 best: DSACK + uncoupled", where=f"Arabi sec. 5; {where}")
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


__all__ = ["TODAY", "RECOVERY", "SCHEDULERS", "CONGESTION", "AXES", "PAPERS", "ARABI_S2", "FIVE_G_FILE", "real_pair",
           "scenarios", "run_axis", "summarise", "comparison"]
