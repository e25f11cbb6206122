"""Figures of the Arabi chapter: Figs. 8–9 as the paper plots them (global throughput over time per
algorithm, on the papers' simulator beside the presets), throughput over time per congestion
control, and mean throughput with 95 % CIs."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ...report.style import MIN_FONT_PT, figsize, figure_name, grid_shape, series_style
from .experiments import CC_LABELS, RO_LABELS
from .paper import PAPER, PAPER_CONGESTION, REORDERING

#: One colour and line style per reordering algorithm.
RO_STYLES = {"none": (series_style("none")["color"], "-"), "dsack": (series_style("dsack")["color"], "--"),
             "eifel": (series_style("eifel")["color"], "-."), "frto": (series_style("frto")["color"], ":")}


def _log_time_axis(ax) -> None:
    """A logarithmic time axis labelled in plain seconds (1, 10, 100), without minor-tick labels."""
    from matplotlib.ticker import FuncFormatter, NullFormatter

    ax.set_xscale("log")
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _pos: f"{v:g}"))
    ax.xaxis.set_minor_formatter(NullFormatter())


def throughput_over_time(traces, *, scenario_id: int, preset: str, congestion=PAPER_CONGESTION,
                         scheduler: str = "round_robin", setting: str = "main", title: str = ""):
    """One panel per congestion control: global throughput (Mbit/s) against time, one line per algorithm.

    ``traces`` is :func:`cmtlab.papers.arabi.experiments.throughput_traces`; bands are 95 % CIs over seeds.
    """
    t = traces[(traces.scenario == scenario_id) & (traces.preset == preset) & (traces.scheduler == scheduler)
               & (traces.setting == setting)]
    if t.empty:
        raise ValueError(f"no traces for scenario={scenario_id!r}, preset={preset!r}, scheduler={scheduler!r}, "
                         f"setting={setting!r}")
    congestion = [c for c in congestion if c in set(t.congestion)]
    nrows, ncols = grid_shape(len(congestion))
    fig, axes = plt.subplots(nrows, ncols, figsize=figsize(ncols, nrows, panel_height_in=2.3), sharey=True,
                             sharex=True, squeeze=False)
    # the y range follows the mean lines (a band over few repetitions can be wider); throughput is ≥ 0
    top = 1.15 * float(t[t.congestion.isin(congestion) & t.reordering.isin(REORDERING)].mean_bps.max()) / 1e6
    for ax, cc in zip(axes.flat, congestion):
        for ro in REORDERING:
            g = t[(t.congestion == cc) & (t.reordering == ro)].sort_values("time_s")
            g = g[g.time_s > 0]  # a logarithmic time axis (the transfers end after 15 s to 300 s)
            if g.empty:
                continue
            colour, ls = RO_STYLES[ro]
            x = g.time_s.to_numpy()
            m = g.mean_bps.to_numpy() / 1e6
            h = g.ci95_bps.to_numpy() / 1e6
            ax.plot(x, m, color=colour, ls=ls, label=RO_LABELS[ro])
            ax.fill_between(x, np.clip(m - h, 0, top), np.clip(m + h, 0, top), color=colour, alpha=0.15, lw=0)
        ax.set_title(CC_LABELS.get(cc, cc))
        _log_time_axis(ax)
        ax.set_ylim(0, top)
    for ax in axes[-1, :]:
        ax.set_xlabel("time (s, log scale)")
    for ax in axes[:, 0]:
        ax.set_ylabel("Mbit/s")
    for ax in list(axes.flat)[len(congestion):]:
        ax.axis("off")
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncols=len(labels), frameon=False)
    if title:
        fig.suptitle(title)
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    return fig


#: The panels of :func:`fig8` and :func:`fig9`: the papers' simulator (global throughput as the
#: paper plots it, its goodput, variateDelay on), then the calibrated preset and RFC behaviour.
FIG_SOURCES = ("papers-sim", "papers-sim goodput", "papers-sim variateDelay", "chihani_ns3", "rfc")
#: Panel titles of the sources.
PANEL_TITLES = {"papers-sim": "papers' simulator:\nglobal throughput", "papers-sim goodput": "papers' simulator:\ngoodput",
                "papers-sim variateDelay": "papers' simulator, variateDelay\non: global throughput",
                "chihani_ns3": "preset chihani_ns3:\ngoodput", "chihani": "old preset chihani:\ngoodput",
                "rfc": "RFC behaviour:\ngoodput"}


def sources_over_time(traces, *, scenario_id: int, congestion: str, sources=FIG_SOURCES, scheduler: str = "round_robin",
                      setting: str = "main", title: str = "", paper_line=None):
    """One panel per source (``preset`` column of ``traces``), one line per reordering algorithm: the
    throughput (Mbit/s) of one scenario and congestion control over time — Arabi et al.'s Figs. 8–9
    ("global throughput of all subflows") on each source side by side.

    ``traces``: :func:`cmtlab.papers.arabi.experiments.throughput_traces` of the presets concatenated with
    :func:`cmtlab.papers.arabi.papers_sim.chapter_sources`; bands are 95 % CIs over seeds (the model's
    F_RTO: over its repetitions).  Sources the traces lack are left out; raises :class:`ValueError`
    if none is there, or on a bad ``scenario_id``, ``congestion`` or ``sources``.

    The time axis is logarithmic: the algorithms' transfers end after 15 s to 300 s, and on a linear axis the
    short ones would be squeezed into its first tenth.  Where every algorithm draws the same line (the RFC
    behaviour), the panel says so.  ``paper_line``: ``(Mbit/s, label)``, the paper's number drawn as a dashed
    grey line in every panel (a target, never an input).
    """
    if isinstance(sources, str) or not len(list(sources)):
        raise ValueError(f"sources must be a non-empty sequence of source labels, got {sources!r}")
    if scenario_id not in (1, 2):
        raise ValueError(f"scenario_id must be 1 or 2, got {scenario_id!r}")
    if congestion not in CC_LABELS:
        raise ValueError(f"congestion must be one of {sorted(CC_LABELS)}, got {congestion!r}")
    t = traces[(traces.scenario == scenario_id) & (traces.congestion == congestion) & (traces.scheduler == scheduler)
               & (traces.setting == setting)]
    present = [s for s in sources if (t.preset == s).any()]
    if not present:
        raise ValueError(f"no traces for scenario={scenario_id!r}, congestion={congestion!r}, sources={list(sources)!r}, "
                         f"setting={setting!r}")
    nrows, ncols = grid_shape(len(present), max_cols=3)
    # one time axis for all panels (log scale, plain numbers): the panels compare at a glance
    fig, axes = plt.subplots(nrows, ncols, figsize=figsize(ncols, nrows, panel_height_in=2.4), sharey=True,
                             sharex=True, squeeze=False)
    # the y range follows the mean lines: a band over three F_RTO repetitions can be wider than the plot
    top = 1.15 * float(t[t.preset.isin(present) & t.reordering.isin(REORDERING)].mean_bps.max()) / 1e6
    if paper_line is not None:
        top = max(top, 1.15 * float(paper_line[0]))
    for ax, src in zip(axes.flat, present):
        drawn = []
        for ro in REORDERING:
            g = t[(t.preset == src) & (t.reordering == ro)].sort_values("time_s")
            g = g[g.time_s > 0]  # a logarithmic time axis
            if g.empty:
                continue
            colour, ls = RO_STYLES[ro]
            x = g.time_s.to_numpy()
            m = g.mean_bps.to_numpy() / 1e6
            h = g.ci95_bps.to_numpy() / 1e6
            drawn.append((x, m))
            ax.plot(x, m, color=colour, ls=ls, label=RO_LABELS[ro])
            ax.fill_between(x, np.clip(m - h, 0, top), np.clip(m + h, 0, top), color=colour, alpha=0.15, lw=0)
        if len(drawn) > 1 and all(len(x) == len(drawn[0][0]) and np.allclose(x, drawn[0][0]) and np.allclose(m, drawn[0][1])
                                  for x, m in drawn[1:]):
            ax.text(0.97, 0.04, f"all {len(drawn)} algorithms:\none line", transform=ax.transAxes, fontsize=MIN_FONT_PT,
                    ha="right", va="bottom")
        if paper_line is not None:
            ax.axhline(float(paper_line[0]), color="0.35", ls="--", lw=1, label=paper_line[1], zorder=0)
        ax.set_title(PANEL_TITLES.get(src, src))
        _log_time_axis(ax)
        ax.tick_params(axis="x", labelbottom=True)  # shared, but every panel keeps its time labels
        ax.set_xlabel("time (s, log scale)")
        ax.set_ylim(0, top)
    for ax in axes[:, 0]:
        ax.set_ylabel("Mbit/s")
    for ax in list(axes.flat)[len(present):]:
        ax.axis("off")
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncols=len(labels), frameon=False)
    if title:
        fig.suptitle(title)
    fig.tight_layout(rect=(0, 0.05, 1, 1))
    return fig


def fig8(traces, **kw):
    """Arabi Fig. 8: global throughput over time, scenario 1 (two subflows), linked increases —
    :func:`sources_over_time` with the paper's setting (keywords pass through)."""
    kw.setdefault("title", figure_name("Arabi", "8") + " — scenario 1 (two subflows), LIA")
    return sources_over_time(traces, scenario_id=1, congestion="lia", **kw)


def fig9(traces, **kw):
    """Arabi Fig. 9: global throughput over time, scenario 2 (three subflows), uncoupled (the text of
    sec. 5; the printed caption repeats Fig. 8's "linked increases") — :func:`sources_over_time`."""
    kw.setdefault("title", figure_name("Arabi", "9") + " — scenario 2 (three subflows), uncoupled")
    kw.setdefault("paper_line", (PAPER["best_s2"][2] / 1e6, f"paper: DSACK about {PAPER['best_s2'][2] / 1e6:g}"))
    return sources_over_time(traces, scenario_id=2, congestion="uncoupled", **kw)


def mean_bars(summary, *, preset: str, scheduler: str = "round_robin", setting: str = "main",
              congestion=None, title: str = ""):
    """Mean throughput over the run (Mbit/s, 95 % CI) per congestion control × algorithm, one panel per scenario."""
    s = summary[(summary.preset == preset) & (summary.scheduler == scheduler) & (summary.setting == setting)]
    if s.empty:
        raise ValueError(f"no rows for preset={preset!r}, scheduler={scheduler!r}, setting={setting!r}")
    scen = sorted(set(s.scenario))
    if congestion is None:
        congestion = [c for c in (*PAPER_CONGESTION, "olia") if c in set(s.congestion)]
    fig, axes = plt.subplots(1, len(scen), figsize=figsize(len(scen), panel_height_in=3.0), sharey=False, squeeze=False)
    width = 0.8 / len(REORDERING)
    for ax, sid in zip(axes[0], scen):
        for j, ro in enumerate(REORDERING):
            vals, errs = [], []
            for cc in congestion:
                r = s[(s.scenario == sid) & (s.congestion == cc) & (s.reordering == ro)]
                vals.append(r.mean_bps.iloc[0] / 1e6 if len(r) else np.nan)
                errs.append(r.ci95_bps.iloc[0] / 1e6 if len(r) else 0.0)
            x = np.arange(len(congestion)) + (j - (len(REORDERING) - 1) / 2) * width
            ax.bar(x, vals, width, yerr=errs, color=RO_STYLES[ro][0], label=RO_LABELS[ro], capsize=2)
        ax.set_xticks(np.arange(len(congestion)), [CC_LABELS.get(c, c) for c in congestion], fontsize=MIN_FONT_PT,
                      rotation=30, ha="right")
        ax.set_title(f"scenario {sid}")
    axes[0][0].set_ylabel("mean throughput (Mbit/s)")
    axes[0][-1].legend(ncols=2)
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    return fig


def frto_clocks(model, *, scenario_id: int = 2, congestion: str = "uncoupled", variate_delay: bool = False):
    """F-RTO on the papers' simulator against the wall clock it reads: left, the residue fraction
    ``(clock mod p_i) / p_i`` of every subflow for each clock value of the runs (the clock design spreads them
    over [0, 1)); right, F-RTO's global throughput and goodput (Mbit/s) in one scenario × congestion control
    against the summed ACK-discarding probability ``Σ 0.061 · fraction`` of its subflows.

    ``model``: the papers' simulator's runs (:func:`cmtlab.papers.arabi.papers_sim.chapter_runs`)."""
    from .papers_sim import FRTO_MAX_THRESHOLD, FRTO_PRIMES, frto_residue_fractions, paths

    n_sub = len(paths(scenario_id)[0])
    f = model[(model.reordering == "frto") & (model.scenario == scenario_id) & (model.congestion == congestion)
               & (model.variate_delay == variate_delay)]
    if f.empty:
        raise ValueError(f"model holds no F_RTO runs of scenario {scenario_id!r}, {congestion!r}, "
                         f"variate_delay={variate_delay!r}")
    fr = np.array([frto_residue_fractions(int(c), FRTO_PRIMES[:n_sub]) for c in f.frto_clock])
    fig, (a, b) = plt.subplots(1, 2, figsize=figsize(2, panel_height_in=2.8))
    for i in range(n_sub):
        a.scatter(fr[:, i], np.full(len(fr), i) + np.linspace(-0.25, 0.25, len(fr)), s=10,
                  color=series_style(f"subflow {i}", i)["color"])
    a.set_yticks(range(n_sub), [f"subflow {i}\np = {FRTO_PRIMES[i]}" for i in range(n_sub)])
    a.set_xlim(0, 1)
    a.set_xlabel("(clock mod p) / p")
    a.set_title(f"{len(fr)} clock values:\nresidue of each subflow")
    x = FRTO_MAX_THRESHOLD * fr.sum(axis=1)
    for col, label, marker in (("model_global_throughput_bps", "global throughput (decides)", "o"),
                               ("throughput_bps", "goodput", "s")):
        b.scatter(x, f[col].to_numpy() / 1e6, s=12, marker=marker, label=label)
    none = model[(model.reordering == "none") & (model.scenario == scenario_id) & (model.congestion == congestion)
                 & (model.variate_delay == variate_delay)]
    if len(none):
        b.axhline(float(none.model_global_throughput_bps.iloc[0]) / 1e6, color="0.4", ls="--", lw=1,
                  label="no algorithm (global)")
        b.axhline(0.6 * float(none.model_global_throughput_bps.iloc[0]) / 1e6, color="0.4", ls=":", lw=1,
                  label="paper: \u201c40 less\u201d, read as 40 %")
    b.set_xlabel("Σ ACK-discarding probability\nof the subflows")
    b.set_ylabel("F-RTO, Mbit/s")
    b.set_ylim(bottom=0)
    b.legend(fontsize=MIN_FONT_PT)
    b.set_title(f"scenario {scenario_id}, {CC_LABELS.get(congestion, congestion)},\nvariateDelay "
                f"{'on' if variate_delay else 'off'}")
    fig.tight_layout()
    return fig


__all__ = ["frto_clocks", "RO_STYLES", "FIG_SOURCES", "PANEL_TITLES", "sources_over_time", "fig8", "fig9", "throughput_over_time",
           "mean_bars"]
