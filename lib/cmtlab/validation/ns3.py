"""Cross-checks of the book's simulator (:mod:`cmtlab.sim`) against ns-3 (:mod:`cmtlab.ns3`).

The validation chapter runs both simulators on the same :class:`~cmtlab.scenario.StripedScenario`
objects and reports the relative throughput difference ``cmtlab / ns-3 - 1``:

* (a) :func:`single_link_grid` — one NewReno flow over one point-to-point link, over a grid of
  rate, round-trip delay and random packet loss; where it applies, also against the Mathis
  square-root law (:func:`cmtlab.validation.theory.mathis_throughput_bps`);
* (b) :func:`random_link_sets` and :func:`field_link_sets` — Song's round-robin striping over
  random link sets and over the field links I…VIII (Song sec. 5.3);
* (c) :func:`option_variants` — one scenario under each TCP option that matters, to show how
  much a striped flow depends on them.

Everything here builds scenarios and compares tables; the simulation itself is
:func:`cmtlab.sweep.run_sweep`.
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from .._validate import as_float_array, check_int
from ..scenario import LossModel, TcpOptions, striped_scenario
from .theory import mathis_throughput_bps

#: Columns that identify a run in both simulators' tables (labels added by the builders below).
RUN_KEYS = ("case", "seed")
#: Event counters of :class:`~cmtlab.scenario.TransferResult` compared by :func:`compare`.
COUNTERS = ("data_segments_sent", "retransmissions", "fast_retransmits", "timeouts")


def mathis_applies(scenario, *, margin: float = 0.5) -> bool:
    """Whether the square-root law is a fair reference for a single-link ``scenario``.

    Requires packet loss, and the Mathis rate below ``margin`` × both the link's payload rate and
    the buffer-limited rate ``min(send, receive buffer) / RTT`` — so that loss, not the link or a
    socket buffer, limits the window.
    """
    if scenario.n_links != 1 or scenario.loss[0].unit != "packet" or scenario.loss[0].rate <= 0:
        return False
    rtt = scenario.delays_s[0]
    if rtt <= 0:
        return False
    m = mathis_throughput_bps(scenario.segment_bytes, rtt, scenario.loss[0].rate,
                              segments_per_ack=min(scenario.m_ack, 2))
    payload_rate = scenario.bandwidths_bps[0] * scenario.segment_bytes / scenario.data_packet_bytes()
    buf = min(scenario.options.send_buffer_bytes, scenario.options.receive_buffer_bytes) * 8.0 / rtt
    return m < margin * min(payload_rate, buf)


def single_link_grid(rates_bps, rtts_s, loss_rates, *, transfer_bytes: int, options=None,
                     queue_packets: int = 100, **scenario_kwargs) -> list[tuple[dict, object]]:
    """(a) One NewReno flow over one point-to-point link (no tunnel), for every rate × RTT × loss.

    Loss is Bernoulli per data packet (``LossModel("packet", p)``; ``p = 0`` means no loss).
    Returns ``(labels, scenario)`` pairs for :func:`cmtlab.sweep.run_sweep`; labels are
    ``case, rate_mbps, rtt_ms, loss_rate, mathis_bps, mathis_applies``.
    """
    rates = as_float_array("rates_bps", rates_bps)
    rtts = as_float_array("rtts_s", rtts_s)
    losses = as_float_array("loss_rates", loss_rates)
    out = []
    for rate, rtt, p in itertools.product(rates, rtts, losses):
        loss = LossModel("packet", float(p)) if p > 0 else None
        sc = striped_scenario([rate], [rtt], transfer_bytes=transfer_bytes, tunnel=False, loss=loss,
                              options=options, queue_packets=queue_packets, **scenario_kwargs)
        applies = mathis_applies(sc)
        m = mathis_throughput_bps(sc.segment_bytes, rtt, p, segments_per_ack=min(sc.m_ack, 2)) \
            if p > 0 and rtt > 0 else np.nan
        labels = dict(case=f"{rate / 1e6:g} Mbit/s, {rtt * 1e3:g} ms, p={p:g}", rate_mbps=rate / 1e6,
                      rtt_ms=rtt * 1e3, loss_rate=float(p), mathis_bps=m, mathis_applies=applies)
        out.append((labels, sc))
    return out


def random_link_sets(n_sets: int, *, link_counts=(2, 3, 4), rate_range_bps=(1e6, 40e6),
                     rtt_range_s=(0.01, 0.3), transfer_bytes: int, options=None, seed: int = 0,
                     **scenario_kwargs) -> list[tuple[dict, object]]:
    """(b) Song's round-robin topology over ``n_sets`` random link sets.

    Rates are log-uniform in ``rate_range_bps``, round-trip delays uniform in ``rtt_range_s``, the
    number of links cycles through ``link_counts``; seeded.  Labels: ``case, family, n_links,
    rates_mbps, rtts_ms``.
    """
    n = check_int("n_sets", n_sets, minimum=1)
    counts = [check_int("link_counts", c, minimum=1) for c in link_counts]
    (r0, r1), (d0, d1) = rate_range_bps, rtt_range_s
    if not 0 < r0 <= r1:
        raise ValueError(f"rate_range_bps must be (low, high) with 0 < low <= high, got {rate_range_bps!r}")
    if not 0 <= d0 <= d1:
        raise ValueError(f"rtt_range_s must be (low, high) with 0 <= low <= high, got {rtt_range_s!r}")
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        k = counts[i % len(counts)]
        rates = np.exp(rng.uniform(np.log(r0), np.log(r1), k))
        rtts = rng.uniform(d0, d1, k)
        sc = striped_scenario(rates, rtts, transfer_bytes=transfer_bytes, options=options, **scenario_kwargs)
        out.append((dict(case=f"random set {i}", family="random", n_links=k,
                         rates_mbps=", ".join(f"{r / 1e6:.1f}" for r in rates),
                         rtts_ms=", ".join(f"{d * 1e3:.0f}" for d in rtts)), sc))
    return out


def field_link_sets(link_counts=range(2, 9), *, statistic: str = "median", transfer_bytes: int, options=None,
                    **scenario_kwargs) -> list[tuple[dict, object]]:
    """(b) Song's topology over the field links I…n (max DR as bandwidth, the RTT ``statistic``
    of each modem's data set as its round-trip delay).  Labels as :func:`random_link_sets`."""
    from ..papers.song import fig6

    if statistic not in ("median", "mean", "min"):
        raise ValueError(f"statistic must be one of ['mean', 'median', 'min'], got {statistic!r}")
    out = []
    for n in link_counts:
        bw, sets, _ = fig6.field_links(n)
        rtts = np.array([getattr(np, statistic)(s) for s in sets])
        sc = striped_scenario(bw, rtts, transfer_bytes=transfer_bytes, options=options, **scenario_kwargs)
        out.append((dict(case=f"field links I–{n}", family="field", n_links=n,
                         rates_mbps=", ".join(f"{r / 1e6:.1f}" for r in bw),
                         rtts_ms=", ".join(f"{d * 1e3:.0f}" for d in rtts)), sc))
    return out


#: (c) The option variations of the sensitivity table: name → (base preset, changes).
OPTION_VARIANTS = {
    "plain NewReno (no SACK, no limited transmit)": ("rfc-newreno", {}),
    "+ limited transmit": ("rfc-newreno", dict(limited_transmit=True)),
    "+ timestamps": ("rfc-newreno", dict(timestamps=True)),
    "+ min RTO 200 ms": ("rfc-newreno", dict(min_rto_s=0.2)),
    "+ delayed-ACK timeout 40 ms": ("rfc-newreno", dict(delayed_ack_timeout_s=0.04)),
    "ACKs over the fastest link": ("rfc-newreno", dict(ack_path="fastest")),
    "ACKs over an ideal path": ("rfc-newreno", dict(ack_path="ideal")),
    "no immediate ACK on out-of-order (cmtlab only)": ("rfc-newreno", dict(immediate_ack_on_out_of_order=False)),
    "SACK + RFC 6675 loss detection, classic recovery (ns-3 early 2018)": ("ns3-2018", {}),
    "SACK + RFC 6675 loss detection + PRR (ns-3 3.44 defaults)": ("ns3-3.44-defaults", {}),
    "SACK, no SACK-based loss detection (cmtlab only)": ("rfc-newreno", dict(sack=True)),
}


def option_variants(bandwidths_bps, delays_s, *, transfer_bytes: int, variants=None,
                    **scenario_kwargs) -> list[tuple[dict, object]]:
    """(c) One scenario under each entry of ``variants`` (default :data:`OPTION_VARIANTS`).

    Labels: ``case`` (the variant's name) and ``options`` (its non-default option fields).
    """
    variants = OPTION_VARIANTS if variants is None else variants
    out = []
    defaults = TcpOptions().to_dict()
    for name, (preset, changes) in variants.items():
        sc = striped_scenario(bandwidths_bps, delays_s, transfer_bytes=transfer_bytes, options=preset,
                              **changes, **scenario_kwargs)
        diff = {k: v for k, v in sc.options.to_dict().items() if defaults[k] != v}
        out.append((dict(case=name, options=", ".join(f"{k}={v}" for k, v in diff.items()) or "defaults"), sc))
    return out


def compare(ours: pd.DataFrame, reference: pd.DataFrame, *, keys=RUN_KEYS, value: str = "throughput_bps",
            names=("cmtlab", "ns-3")) -> pd.DataFrame:
    """Join two sweep tables on ``keys`` and add ``rel_diff = ours / reference - 1``.

    The value columns are renamed ``<value>_<name>``; label columns of ``ours`` are kept.  When
    both tables carry the event counters of :data:`COUNTERS`, ``same_counters`` says whether all
    of them are equal in the two runs.
    Raises ``ValueError`` if the two tables do not hold the same runs.
    """
    keys = list(keys)
    for name, t in (("ours", ours), ("reference", reference)):
        missing = [k for k in keys + [value] if k not in t.columns]
        if missing:
            raise ValueError(f"{name} lacks column(s) {missing}")
    a = ours.set_index(keys)
    b = reference.set_index(keys)
    if not a.index.equals(b.index) and set(a.index) != set(b.index):
        raise ValueError("ours and reference must hold the same runs (same keys)")
    out = a.copy()
    out = out.rename(columns={value: f"{value}_{names[0]}"})
    out[f"{value}_{names[1]}"] = b.loc[a.index, value].to_numpy()
    out["rel_diff"] = out[f"{value}_{names[0]}"] / out[f"{value}_{names[1]}"] - 1.0
    counters = [c for c in COUNTERS if c in a.columns and c in b.columns]
    if counters:  # did the two simulators take the same decisions, not just reach the same rate?
        out["same_counters"] = np.all([a[c].to_numpy() == b.loc[a.index, c].to_numpy() for c in counters], axis=0)
    return out.reset_index()


def cross_check(cases, *, workers=None, **sweep_kwargs) -> pd.DataFrame:
    """Run the same labelled scenarios in ``cmtlab.sim`` and in ns-3 (cached sweeps) and
    :func:`compare` the two tables.  ``cases`` are ``(labels, scenario)`` pairs whose labels
    include ``case``; other keywords go to :func:`cmtlab.sweep.run_sweep`."""
    from ..sweep import run_sweep

    ours = run_sweep("cmtlab", cases, workers=workers, **sweep_kwargs)
    reference = run_sweep("ns-3", cases, workers=workers, **sweep_kwargs)
    return compare(ours, reference)


def agreement_summary(table: pd.DataFrame, by: str | None = None) -> pd.DataFrame:
    """Median, mean, 90th percentile and maximum of ``|rel_diff|`` (overall or per ``by`` group), the
    number of runs, and the share of runs with identical event counters (when available)."""
    g = table.assign(abs_rel_diff=table.rel_diff.abs())
    agg = dict(runs=("abs_rel_diff", "size"), median_abs_diff=("abs_rel_diff", "median"),
               mean_abs_diff=("abs_rel_diff", "mean"), p90_abs_diff=("abs_rel_diff", lambda x: x.quantile(0.9)),
               max_abs_diff=("abs_rel_diff", "max"))
    if "same_counters" in g.columns:
        agg["same_counters"] = ("same_counters", "mean")
    if by is None:
        return g.assign(all="all").groupby("all").agg(**agg)
    return g.groupby(by).agg(**agg)



# ----------------------------------------------------------------------------- the chapter's case sets


def single_link_cases(presets, rates_bps, rtts_s, loss_rates, *, transfer_bytes: int, seeds=(0,)):
    """(a) :func:`single_link_grid` under each TCP option preset of ``presets``, each scenario once per
    seed; ``case`` and ``family`` labels name the preset."""
    cases = []
    for preset in presets:
        for labels, sc in single_link_grid(rates_bps, rtts_s, loss_rates, transfer_bytes=transfer_bytes,
                                           options=preset):
            for seed in seeds:
                cases.append(({**labels, "case": f"{preset}: {labels['case']}", "family": preset},
                              sc.replace(seed=seed)))
    return cases


def striped_cases(presets, n_random_sets: int, *, transfer_bytes: int, seed: int = 7):
    """(b) :func:`random_link_sets` (``n_random_sets``, drawn with ``seed``) and :func:`field_link_sets`
    under each preset of ``presets``; ``family`` is the set's family and the preset."""
    cases = []
    for preset in presets:
        for labels, sc in (random_link_sets(n_random_sets, transfer_bytes=transfer_bytes, options=preset, seed=seed)
                           + field_link_sets(transfer_bytes=transfer_bytes, options=preset)):
            cases.append(({**labels, "case": f"{preset}: {labels['case']}", "family": f"{labels['family']}, {preset}"},
                          sc))
    return cases


def option_sensitivity(bandwidths_bps, delays_s, *, transfer_bytes: int, workers=None) -> pd.DataFrame:
    """(c) :func:`option_variants` of one scenario in ``cmtlab.sim`` and, where it supports the options,
    in ns-3: per variant its options, the two throughputs (Mbit/s), their ratio − 1, and cmtlab's fast
    retransmits, spurious retransmissions and timeouts (NaN where ns-3 cannot run the variant)."""
    from .. import ns3
    from ..sweep import run_sweep

    cases = option_variants(bandwidths_bps, delays_s, transfer_bytes=transfer_bytes)
    ours = run_sweep("cmtlab", cases, workers=workers)
    supported = [(lab, sc) for lab, sc in cases if not ns3.unsupported_options(sc)]
    ref = run_sweep("ns-3", supported, workers=workers).set_index("case")
    sens = ours.set_index("case")[["options", "throughput_bps", "fast_retransmits", "spurious_retransmissions",
                                   "timeouts"]]
    sens = sens.rename(columns={"throughput_bps": "cmtlab (Mbit/s)"})
    sens["cmtlab (Mbit/s)"] /= 1e6
    sens["ns-3 (Mbit/s)"] = ref.throughput_bps.reindex(sens.index) / 1e6
    sens["cmtlab / ns-3 − 1"] = sens["cmtlab (Mbit/s)"] / sens["ns-3 (Mbit/s)"] - 1
    return sens


def option_sensitivity_table(sens: pd.DataFrame):
    """:func:`option_sensitivity` as readers see it (:func:`cmtlab.report.readable`): the options set in
    code font, the counters' names in words, the ratio − 1 in per cent ("—" where ns-3 cannot run)."""
    from ..report import readable

    shown = sens.copy()
    shown["cmtlab / ns-3 − 1"] = 100 * shown["cmtlab / ns-3 − 1"].round(6)
    return readable(shown.rename(columns={"cmtlab / ns-3 − 1": "cmtlab / ns-3 − 1 (%)"}))


def cwnd_trace_runs(bandwidths_bps, delays_s, *, transfer_bytes: int, presets=("rfc-newreno", "ns3-2018")) -> dict:
    """One striped transfer per preset, traced in ns-3 and in ``cmtlab.sim``: ``{preset: [ns-3 result,
    cmtlab result]}`` for :func:`plot_cwnd_traces`."""
    from .. import ns3, sim

    traced = {}
    for preset in presets:
        sc = striped_scenario(bandwidths_bps, delays_s, transfer_bytes=transfer_bytes, options=preset)
        traced[preset] = [ns3.run(sc, trace=True), sim.run(sc, trace=["cwnd"])]
    return traced


def mathis_ratios(table: pd.DataFrame) -> tuple[int, dict]:
    """Runs of ``table`` where the Mathis law applies and, per simulator, the median of throughput /
    Mathis rate over them."""
    ma = table[table.mathis_applies]
    return len(ma), {s: float(np.median(ma[f"throughput_bps_{s}"] / ma.mathis_bps)) for s in ("cmtlab", "ns-3")}


def agreement_table(table: pd.DataFrame, by: str = "family"):
    """:func:`agreement_summary` as readers see it (a Styler): words for the column names, differences
    in per cent."""
    summary = agreement_summary(table, by=by).rename(columns={
        "runs": "runs", "median_abs_diff": "median |difference|", "mean_abs_diff": "mean |difference|",
        "p90_abs_diff": "90th percentile |difference|", "max_abs_diff": "max |difference|",
        "same_counters": "same event counters"})
    summary.index.name = by
    pct = {c: "{:.2%}" for c in summary.columns if "difference" in c}
    pct["max |difference|"] = "{:.1e}"
    pct["same event counters"] = "{:.0%}"
    return summary.style.format({k: v for k, v in pct.items() if k in summary.columns})


def worst_runs(table: pd.DataFrame, n: int = 5):
    """The ``n`` runs of ``table`` with the largest ``|rel_diff|``, as readers see them (a Styler)."""
    worst = table.reindex(table.rel_diff.abs().sort_values(ascending=False).index).head(n)
    worst = worst[["case", "seed", "throughput_bps_cmtlab", "throughput_bps_ns-3", "rel_diff", "same_counters",
                   "retransmissions", "timeouts"]]
    worst = worst.rename(columns={"throughput_bps_cmtlab": "cmtlab (bit/s)", "throughput_bps_ns-3": "ns-3 (bit/s)",
                                  "rel_diff": "cmtlab / ns-3 − 1", "same_counters": "same event counters"})
    return worst.style.format({"cmtlab (bit/s)": "{:,.0f}", "ns-3 (bit/s)": "{:,.0f}",
                               "cmtlab / ns-3 − 1": "{:+.1e}"}).hide(axis="index")

# ----------------------------------------------------------------------------- figures


def plot_agreement(table: pd.DataFrame, *, by: str = "family", tolerance: float = 0.05, title: str = ""):
    """Left: cmtlab vs ns-3 throughput (log–log, y = x and ±``tolerance`` band); right: the
    distribution of the relative difference, one row of points per ``by`` group."""
    import matplotlib.pyplot as plt

    from ..report.style import LINK_COLOURS, figsize

    fig, (ax, bx) = plt.subplots(1, 2, figsize=figsize(2, panel_height_in=3.4), constrained_layout=True,
                                 gridspec_kw=dict(width_ratios=[1, 1.2]))
    groups = list(dict.fromkeys(table[by]))
    x_all = table["throughput_bps_ns-3"] / 1e6
    lo, hi = x_all.min() * 0.7, x_all.max() * 1.4
    line = np.geomspace(lo, hi, 50)
    ax.fill_between(line, line * (1 - tolerance), line * (1 + tolerance), color="0.9", label=f"±{tolerance:.0%}")
    ax.plot(line, line, color="0.5", lw=0.8)
    for i, gname in enumerate(groups):
        g = table[table[by] == gname]
        colour = LINK_COLOURS[i % len(LINK_COLOURS)]
        ax.plot(g["throughput_bps_ns-3"] / 1e6, g["throughput_bps_cmtlab"] / 1e6, "o", ms=4, alpha=0.7,
                color=colour, label=str(gname))
        jitter = np.random.default_rng(i).uniform(-0.15, 0.15, len(g))
        bx.plot(g.rel_diff * 100, np.full(len(g), i) + jitter, "o", ms=4, alpha=0.7, color=colour)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("ns-3 throughput (Mbit/s)")
    ax.set_ylabel("cmtlab throughput (Mbit/s)")
    ax.legend(fontsize=9, loc="upper left")
    bx.axvspan(-tolerance * 100, tolerance * 100, color="0.9")
    bx.axvline(0, color="0.5", lw=0.8)
    bx.set_yticks(range(len(groups)), [str(gn) for gn in groups], fontsize=9)
    bx.set_xlabel("cmtlab / ns-3 − 1 (%)")
    if title:
        fig.suptitle(title)
    return fig


def plot_mathis(table: pd.DataFrame):
    """Throughput of both simulators divided by the Mathis rate, against the loss rate (runs where it applies)."""
    import matplotlib.pyplot as plt

    t = table[table.mathis_applies]
    from ..report.style import figsize, series_style

    fig, ax = plt.subplots(figsize=figsize(1, panel_height_in=3.4), constrained_layout=True)
    for col, name, style in (("throughput_bps_ns-3", "ns-3", series_style("ns-3")),
                             ("throughput_bps_cmtlab", "cmtlab", series_style("cmtlab.sim"))):
        ax.plot(t.loss_rate * (1.04 if name == "cmtlab" else 0.96), t[col] / t.mathis_bps, ls="none",
                label=name, alpha=0.8, **style)
    ax.axhline(1.0, color="0.5", lw=0.8)
    ax.set_xscale("log")
    ax.xaxis.set_minor_formatter(plt.NullFormatter())  # a narrow range would label every minor tick
    ax.set_xlabel("packet loss rate p")
    ax.set_ylabel("throughput / Mathis rate")
    ax.legend(fontsize=9)
    return fig


def plot_cwnd_traces(runs: dict, *, title: str = ""):
    """Congestion window over time, one panel per entry of ``runs`` (name → list of
    :class:`~cmtlab.scenario.TransferResult` run with ``trace`` including ``"cwnd"``), every
    simulator's trace drawn on top of each other (kB vs s)."""
    import matplotlib.pyplot as plt

    from ..report.style import figsize, grid_shape, series_style

    nrows, ncols = grid_shape(len(runs))
    fig, axes = plt.subplots(nrows, ncols, figsize=figsize(ncols, nrows, panel_height_in=2.8), squeeze=False,
                             constrained_layout=True)
    styles = {"ns-3": dict(color=series_style("ns-3")["color"], lw=2.5, alpha=0.6),
              "cmtlab": dict(color=series_style("cmtlab.sim")["color"], lw=0.8, ls="--")}
    for ax, (name, results) in zip(axes.flat, runs.items()):
        for r in results:
            tr = r.traces.get("cwnd")
            if tr is None or tr.empty:
                raise ValueError(f"run {name!r} of {r.simulator} has no 'cwnd' trace; run it with trace=['cwnd']")
            ax.step(tr.time_s, tr.cwnd_bytes / 1e3, where="post", label=r.simulator,
                    **styles.get(r.simulator, {}))
        ax.set_title(name, fontsize=9)
        ax.set_xlabel("time (s)")
        ax.set_ylabel("cwnd (kB)")
        ax.legend(fontsize=9)
    if title:
        fig.suptitle(title)
    return fig
