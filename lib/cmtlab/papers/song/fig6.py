"""Song Fig. 6 (S2): the model against packet-level simulation for 2…8 field links.

Song et al., sec. 5.2–5.4: with ``m`` links (links I…m, i.e. the modems CT1, CT2, CT3, CU1, CU2,
CU3, CM1, CM2 in that order), every link's bandwidth is the modem's maximum download data rate
and its delay is drawn from the modem's RTT data set.  "If the delay data set of each link
contains n values, there will be n^m combinations"; their Average Delay Asymmetry (eq. 22) is
computed and sorted, and 36 groups are "evenly selected".  Model and simulation are run for each
group and compared by the prediction accuracy of eq. 24.

:func:`delay_groups` implements the selection.  "Evenly selected" is read as evenly spaced in
*rank*: the groups at ranks ``round(k (N-1)/35)``, ``k = 0…35``, of the ``N`` combinations sorted
by ADA, so the first and last are the least and most asymmetric combinations.  Enumerating is
feasible only for small ``n^m`` (two links with 1000 samples each: 10^6 combinations); beyond
``max_enumerate`` combinations the same ranks are taken among ``n_draws`` combinations drawn
uniformly at random (each link's delay drawn from its own data set, seeded) — the sorted sample
is an estimate of the sorted population, so the selected groups estimate the same ADA quantiles;
only the two end groups are the sample's extremes rather than the population's.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..._validate import check_int
from .asymmetry import average_delay_asymmetry, prediction_accuracy
from . import field

#: Links I…VIII of sec. 5.3, in order.
LINK_MODEMS = tuple(field.MODEMS)

#: The label of today's stack among the simulated option sets (a ``cmtlab`` column "cmtlab today").
TODAY = "today"
#: Today's stack for Song's striped TCP (the chapter's "on today's stack" column): the paper's TCP — Table 2's
#: segments and windows, NewReno congestion control, over the same round-robin tunnel — with the loss detection,
#: recovery and timers of today's Linux as the book's kernel-like configuration "today" sets them
#: (:data:`cmtlab.validation.kernel_sim.LINUX_TCP_OPTIONS` with the today's-transport chapter's RACK-TLP as Linux
#: runs it, Linux's PRR and its 200 ms clock granularity): SACK, RACK-TLP, limited transmit, timestamps, a 200 ms
#: minimum RTO, a 40 ms delayed-ACK timer.  cmtlab.sim only (ns-3 has no RACK-TLP).
TODAY_OPTIONS = dict(sack=True, sack_loss_detection=True, limited_transmit=True, recovery="linux_prr", timestamps=True,
                     min_rto_s=0.2, initial_rto_s=1.0, clock_granularity_s=0.2, delayed_ack_timeout_s=0.04,
                     loss_detection="rack-tlp-linux")


def field_links(n_links: int, rtt: pd.DataFrame | None = None, rates: pd.DataFrame | None = None):
    """Bandwidths (bit/s, the modems' maximum DR) and RTT data sets (s) of links I…``n_links``.

    Returns ``(bandwidths_bps, [rtt_samples_s per link], modems)``; the defaults read the
    committed reconstruction of ``data/field-measurements/``.
    """
    n = check_int("n_links", n_links, minimum=1, maximum=len(LINK_MODEMS))
    rtt = field.load_rtt_samples() if rtt is None else rtt
    rates = field.load_data_rates() if rates is None else rates
    modems = LINK_MODEMS[:n]
    r = rates.set_index(rates["modem"].astype(str))
    bw = np.array([r.loc[m, "max_dr_mbps"] * 1e6 for m in modems])
    sets = [rtt.loc[rtt["modem"].astype(str) == m, "rtt_ms"].to_numpy(dtype=float) / 1e3 for m in modems]
    for m, s in zip(modems, sets):
        if s.size == 0:
            raise ValueError(f"rtt has no samples for modem {m!r}")
    return bw, sets, modems


def delay_groups(rtt_sets, n_groups: int = 36, *, max_enumerate: int = 2_000_000, n_draws: int = 200_000,
                 seed: int = 0) -> pd.DataFrame:
    """The ``n_groups`` delay combinations evenly spaced in ADA rank (see the module docstring).

    ``rtt_sets`` is one array of round-trip delays (s) per link.  Returns a table with one row
    per group: ``group`` (0…n_groups-1), ``ada_s`` (eq. 22), ``rank_fraction`` (rank / (N-1)),
    ``method`` ("enumerated" or "sampled"), ``combinations`` (N) and ``d1_s…dm_s``.
    """
    sets = [np.asarray(s, dtype=float) for s in rtt_sets]
    m = len(sets)
    if m < 2:
        raise ValueError(f"rtt_sets must hold at least 2 links (ADA needs two), got {m}")
    if any(s.ndim != 1 or s.size == 0 or not np.all(np.isfinite(s)) or np.any(s < 0) for s in sets):
        raise ValueError("rtt_sets must be non-empty 1-D arrays of finite delays >= 0 (seconds)")
    G = check_int("n_groups", n_groups, minimum=2)
    check_int("max_enumerate", max_enumerate, minimum=1)
    check_int("n_draws", n_draws, minimum=G)
    total = int(np.prod([s.size for s in sets], dtype=object))
    if total <= max_enumerate:
        grids = np.meshgrid(*sets, indexing="ij")
        combos = np.stack([g.ravel() for g in grids], axis=1)
        method = "enumerated"
    else:
        rng = np.random.default_rng(seed)
        combos = np.stack([rng.choice(s, size=n_draws) for s in sets], axis=1)
        method = "sampled"
    ada = _ada_rows(combos)
    order = np.argsort(ada, kind="stable")
    N = combos.shape[0]
    ranks = np.rint(np.linspace(0, N - 1, G)).astype(int)
    pick = order[ranks]
    out = pd.DataFrame({"group": np.arange(G), "ada_s": ada[pick], "rank_fraction": ranks / max(N - 1, 1),
                        "method": method, "combinations": total})
    for k in range(m):
        out[f"d{k + 1}_s"] = combos[pick, k]
    return out


def _ada_rows(combos: np.ndarray) -> np.ndarray:
    """Eq. 22 for every row, in chunks (memory ~ chunk × m²)."""
    out = np.empty(combos.shape[0])
    step = max(1, 4_000_000 // (combos.shape[1] ** 2))
    for i in range(0, combos.shape[0], step):
        out[i:i + step] = average_delay_asymmetry(combos[i:i + step])
    return out


def groups_table(link_counts=range(2, 9), n_groups: int = 36, *, seed: int = 0, **kwargs) -> pd.DataFrame:
    """:func:`delay_groups` for every number of links, in one long table with ``n_links``,
    ``bandwidths_bps`` and ``delays_s`` (tuples, ready for the model and the simulators)."""
    frames = []
    for n in link_counts:
        bw, sets, _ = field_links(n)
        g = delay_groups(sets, n_groups, seed=seed + n, **kwargs)
        d_cols = [f"d{k + 1}_s" for k in range(n)]
        g.insert(0, "n_links", n)
        g["bandwidths_bps"] = [tuple(bw)] * len(g)
        g["delays_s"] = [tuple(row) for row in g[d_cols].to_numpy()]
        frames.append(g.drop(columns=d_cols))
    return pd.concat(frames, ignore_index=True)


def accuracy_table(results: pd.DataFrame, *, model_cols, sim_cols) -> pd.DataFrame:
    """Mean prediction accuracy (eq. 24, in %) per number of links, for every model × simulation pair.

    ``results`` has one row per group with ``n_links`` and throughput columns (bit/s).  Returns a
    table indexed by ``n_links`` plus an ``average`` row (the mean over link counts, as the paper's
    77.41 % is the mean of its seven values), one column per ``"model vs simulation"`` pair.
    """
    out = {}
    for mc in model_cols:
        for sc in sim_cols:
            acc = prediction_accuracy(results[sc].to_numpy(), results[mc].to_numpy())
            per_n = pd.Series(acc, index=results.index).groupby(results["n_links"]).mean() * 100
            out[f"{mc} vs {sc}"] = per_n
    table = pd.DataFrame(out)
    table.loc["average"] = table.mean()
    return table



def scenarios(groups: pd.DataFrame, *, transfer_bytes: int, options, **scenario_kwargs) -> pd.DataFrame:
    """One :class:`~cmtlab.scenario.StripedScenario` per delay group (Song's Fig. 5 topology,
    Table 2 parameters), as a labelled table for :func:`cmtlab.sweep.run_sweep`."""
    from ...scenario import striped_scenario

    out = groups[["n_links", "group", "ada_s"]].copy()
    out["scenario"] = [striped_scenario(b, d, transfer_bytes=transfer_bytes, options=options, **scenario_kwargs)
                       for b, d in zip(groups.bandwidths_bps, groups.delays_s)]
    return out


def model_throughputs(groups: pd.DataFrame, *, transfer_bytes: int, variants=("exact", "as_printed"),
                      **model_kwargs) -> pd.DataFrame:
    """Model throughput (bit/s, eq. 19) of every delay group, one column ``model_<variant>`` per variant."""
    from .model import throughput_many

    out = groups[["n_links", "group", "ada_s"]].copy()
    for variant in variants:
        col = np.empty(len(groups))
        for n, idx in groups.groupby("n_links").groups.items():
            sub = groups.loc[idx]
            col[groups.index.get_indexer(idx)] = throughput_many(
                np.array(sub.bandwidths_bps.tolist()), np.array(sub.delays_s.tolist()),
                transfer_bytes=transfer_bytes, variant=variant, **model_kwargs)
        out[f"model_{variant}"] = col
    return out


def simulate_groups(groups: pd.DataFrame, results: pd.DataFrame, *, presets, transfer_bytes: int,
                    workers=None, today: bool = False) -> pd.DataFrame:
    """Every delay group run in ns-3 and in ``cmtlab.sim`` under each TCP option preset of ``presets``
    (cached sweeps): adds to ``results`` (row per group, as :func:`model_throughputs`) the columns
    ``"<simulator> <preset>"`` (throughput, bit/s) and ``"spurious <preset>"`` (ns-3's spurious
    retransmissions); ``today``: also ``"cmtlab today"`` and ``"spurious today"``, the groups on today's stack
    (:data:`TODAY_OPTIONS`, cmtlab.sim only).  Returns ``results``."""
    from ...scenario import TcpOptions
    from ...sweep import run_sweep

    for preset in presets:
        cases = scenarios(groups, transfer_bytes=transfer_bytes, options=preset)
        for simulator in ("ns-3", "cmtlab"):
            runs = run_sweep(simulator, cases, workers=workers)
            results[f"{simulator} {preset}"] = runs.throughput_bps.to_numpy()
            if simulator == "ns-3":
                results[f"spurious {preset}"] = runs.spurious_retransmissions.to_numpy()
    if today:
        cases = scenarios(groups, transfer_bytes=transfer_bytes, options=TcpOptions(**TODAY_OPTIONS))
        runs = run_sweep("cmtlab", cases, workers=workers)
        results[f"cmtlab {TODAY}"] = runs.throughput_bps.to_numpy()
        results[f"spurious {TODAY}"] = runs.spurious_retransmissions.to_numpy()
    return results


def accuracy(results: pd.DataFrame, presets, *, today: bool = False) -> pd.DataFrame:
    """:func:`accuracy_table` of the chapter: the corrected and the printed model against ns-3 and
    ``cmtlab.sim`` under every preset (and against today's stack, ``"cmtlab today"``, if ``today``)."""
    sims = [f"ns-3 {p}" for p in presets] + [f"cmtlab {p}" for p in presets] + ([f"cmtlab {TODAY}"] if today else [])
    return accuracy_table(results, model_cols=["model_exact", "model_as_printed"], sim_cols=sims)


def groups_summary(groups: pd.DataFrame) -> pd.DataFrame:
    """Per number of links: the delay combinations ``n^m``, how the groups were selected ("enumerated" or
    "sampled") and the ADA (ms) of the least and most asymmetric group — the same in every profile (the
    evenly spaced ranks always include both ends)."""
    by_n = groups.groupby("n_links")
    return pd.DataFrame({"delay combinations": by_n.combinations.first().map(lambda c: f"{float(c):.0e}"),
                         "selection": by_n.method.first(),
                         "least asymmetric group, ADA (ms)": (by_n.ada_s.min() * 1e3).round(1),
                         "most asymmetric group, ADA (ms)": (by_n.ada_s.max() * 1e3).round(1)}).rename_axis("links")


def series_styles(presets) -> dict:
    """Marker, colour and label of each column :func:`plot_fig6` draws: ns-3 and ``cmtlab.sim`` under
    the first preset, the model corrected and as printed, and ns-3 under the second preset if any."""
    from ...report.style import series_style

    main = presets[0]
    series = {f"ns-3 {main}": dict(marker="o", mfc="none", color=series_style("ns-3")["color"],
                                   label=f"ns-3, {PRESET_WORDS.get(main, main)}"),
              f"cmtlab {main}": dict(marker=".", color=series_style("cmtlab.sim")["color"],
                                     label=f"cmtlab.sim, {PRESET_WORDS.get(main, main)}"),
              "model_exact": dict(marker="x", color=series_style("model")["color"], label="model (corrected)"),
              "model_as_printed": dict(marker="+", color="#7F7F7F", label="model (as printed)")}
    if len(presets) > 1:
        series[f"ns-3 {presets[1]}"] = dict(marker="s", mfc="none", color="#56B4E9",
                                            label=f"ns-3, {PRESET_WORDS.get(presets[1], presets[1])}")
    return series


#: The option sets as a legend names them.
PRESET_WORDS = {"ns3-2018": "options of early 2018", "rfc-newreno": "plain NewReno", "ns3-3.44-defaults":
                "ns-3.44 defaults", TODAY: "today's Linux loss detection"}


def column_label(name) -> str:
    """A column of the chapter's tables as readers read it: "model_exact vs ns-3 ns3-2018" →
    "model (corrected) vs ns-3 (options of early 2018)", "spurious rfc-newreno" → "spurious retransmissions
    (plain NewReno)" (:data:`PRESET_WORDS`).

    >>> column_label("model_as_printed vs cmtlab today")
    "model (as printed) vs cmtlab (today's Linux loss detection)"
    """
    import re

    if not isinstance(name, str):
        return name
    text = name.replace("model_exact", "model (corrected)").replace("model_as_printed", "model (as printed)")
    text = re.sub(r"\b(ns-3|cmtlab) ([\w.-]+)", lambda m: f"{m[1]} ({PRESET_WORDS.get(m[2], m[2])})", text)
    return re.sub(r"^spurious ([\w.-]+)$", lambda m: f"spurious retransmissions ({PRESET_WORDS.get(m[1], m[1])})",
                  text)


def plot_fig6(results: pd.DataFrame, *, series: dict, title: str = "", paper_accuracy_pct: dict | None = None):
    """One panel per number of links (Song Fig. 6 a–g): throughput (Mbit/s, log scale) of every
    delay group against its ADA (ms).  ``series`` maps a column of ``results`` (bit/s) to
    matplotlib keyword arguments (``marker``, ``color``, ``label`` …).  ``paper_accuracy_pct``:
    ``{links: accuracy (%)}`` the paper reports (sec. 5.4), written under each panel's title as the
    paper's."""
    import matplotlib.pyplot as plt

    from ...report.style import figsize

    counts = sorted(results.n_links.unique())
    cols = min(3, len(counts))  # small multiples: three per row at the column's width
    rows = int(np.ceil(len(counts) / cols))
    fig, axes = plt.subplots(rows, cols, figsize=figsize(cols, rows, panel_height_in=2.3), sharey=True,
                             sharex=True, squeeze=False, constrained_layout=True)
    for ax, n, panel in zip(axes.flat, counts, "abcdefgh"):
        g = results[results.n_links == n].sort_values("ada_s")
        for col, style in series.items():
            ax.plot(g.ada_s * 1e3, g[col] / 1e6, ls="none", ms=4, **style)
        ax.set_yscale("log")
        acc = (paper_accuracy_pct or {}).get(int(n))
        ax.set_title(f"({panel}) {n} links" + ("" if acc is None else f"\npaper: accuracy {acc:.2f} %"))
    for ax in axes[-1, :]:
        ax.set_xlabel("ADA (ms)")
    for ax in axes[:, 0]:
        ax.set_ylabel("Mbit/s")
    spare = list(axes.flat)[len(counts):]
    for ax in spare:
        ax.axis("off")
    handles, labels = axes.flat[0].get_legend_handles_labels()
    if spare:  # the legend fills the first empty panel, at the text size of the figure
        spare[0].legend(handles, labels, loc="center", markerscale=1.5, fontsize=10)
    else:
        fig.legend(handles, labels, loc="outside lower center", ncols=2)
    if title:
        fig.suptitle(title)
    return fig
