"""Alheid, Doufexi, Kaleshi (ICT 2016), Table I (SPEC row A1): the MPTCP gain over single-path TCP.

Table I gives the throughput gain of MPTCP with two disjoint subflows of **equal bandwidth** over
single-path TCP on the best subflow, for a delay difference of 0, 100 and 500 ms between the
subflows, with D-SACK as the reordering solution (sec. IV.A): the Linux column (94 / 89 / 23 %,
taken from Barré's thesis) and the authors' ns-3 column (90 / 80 / 20 %).  The paper gives no
rates, base delay, queues, buffers or run length for it; this module fixes them (module
constants below, every one a choice of this book) and builds the runs on
:func:`cmtlab.sim.multipath.mptcp_scenario`.

Paths (the same as the kernel runs of :mod:`cmtlab.testbed.experiments`, so that the two
chapters can be read side by side): two point-to-point paths of :data:`RATE_BPS` (10 Mbit/s),
the best one with a round-trip time of :data:`BASE_RTT_S` (20 ms), drop-tail queues of
:data:`QUEUE_PACKETS` (100) packets.  "Delay difference" Δ is not defined by the paper; both
readings are built (:func:`path_rtts_s`): ``"rtt"`` — path 2's round trip is longer by Δ;
``"one_way"`` — its one-way delay is longer by Δ (round trip by 2Δ).

The transfer: one bulk MPTCP connection for :data:`DURATION_S` (50 s, the paper's run length of
sec. IV.A), 1400 B segments (sec. IV.A), an ACK for every segment, SACK with D-SACK
(``reordering="dsack"``), minimum RTO 0.2 s (Linux's and the Chihani–Collange model's), no
timestamps.  The gain is the connection's goodput (application bytes delivered in order over the
whole run) over the goodput of one single-path TCP (NewReno, the same options and D-SACK) on the
best path, minus one.

Choices that are *varied* (:data:`SETUPS`, one factor at a time from :data:`BASE_SETUP`):

* ``preset`` — ``"rfc"`` (RFC 8684 receivers, LIA as RFC 6356, D-SACK as RFC 2883/3708) or
  ``"paper"`` (the Alheid chapters' model preset, :data:`cmtlab.papers.alheid.experiments.PRESETS`:
  the paper's duplicate-ACK receiver, the Chihani–Collange LIA and D-SACK);
* ``receive_buffer_bytes`` — the connection's receive buffer, which is also every subflow's
  advertised window (RFC 8684 sec. 3.3.4: the receive window is shared at connection level):
  the paper's 10 MB or ns-3's default socket buffer of 131072 B;
* ``initial_ssthresh_bytes`` — :data:`UNBOUNDED_SSTHRESH_BYTES` (Linux: slow start until the
  first loss) or 65535 B (the Chihani–Collange model and ns-3 before 3.26);
* ``loss_rate`` — a residual random drop rate per data packet on each path.  Without it the
  simulation of a drop-tail path is deterministic and every seed repeats one number; the base
  setup drops one packet in 10⁵ (about one drop per path every two runs), so that the seeds
  differ as the repetitions of a real testbed do, and the ``loss_rate=0`` row shows what that
  costs.

Schedulers and congestion controls (:data:`VARIANTS`): round robin + LIA (the paper's), and
what the paper lacks — the lowest-RTT-first scheduler and OLIA.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd

from ..._validate import check_choice, check_int, check_non_negative, check_positive
from ...scenario import DELAY_DIFFERENCE_MEANINGS as MEANINGS
from ...stats import half_width
from .experiments import PRESETS
from ...papers_sim.model import MSS_BYTES
from .paper import DELTAS_MS, DURATION_S, PAPER_LINUX_GAIN_PCT, PAPER_NS3_GAIN_PCT, SEGMENT_BYTES

MEANING_LABELS = {"rtt": "Δ = RTT difference", "one_way": "Δ = one-way difference"}

#: Path and transfer choices (the paper gives none of them for Table I).
RATE_BPS = 10e6
BASE_RTT_S = 0.020
QUEUE_PACKETS = 100
MIN_RTO_S = 0.2
SEND_BUFFER_BYTES = 10_000_000
#: "Unbounded" initial ssthresh (1 GiB: never reached in these runs), as Linux's.
UNBOUNDED_SSTHRESH_BYTES = 1 << 30
#: ns-3's default ``TcpSocket::RcvBufSize``.
NS3_DEFAULT_BUFFER_BYTES = 131072

#: The base setup of the chapter and the one-factor changes shown beside it.
BASE_SETUP = dict(preset="rfc", receive_buffer_bytes=10_000_000, initial_ssthresh_bytes=UNBOUNDED_SSTHRESH_BYTES,
                  loss_rate=1e-5)
SETUPS = {
    "base": {},
    "receive buffer 128 KiB": dict(receive_buffer_bytes=NS3_DEFAULT_BUFFER_BYTES),
    "initial ssthresh 65535 B": dict(initial_ssthresh_bytes=65535),
    "paper's model preset": dict(preset="paper"),
    "no residual loss": dict(loss_rate=0.0),
}

#: Variant label → (scheduler, congestion control).
VARIANTS = {
    "round robin + LIA": ("round_robin", "lia"),
    "lowest-RTT + LIA": ("lowest_rtt", "lia"),
    "round robin + OLIA": ("round_robin", "olia"),
    "lowest-RTT + OLIA": ("lowest_rtt", "olia"),
}
PAPER_VARIANT = "round robin + LIA"
COLOURS = {"round robin + LIA": "#d95f02", "lowest-RTT + LIA": "#1b9e77", "round robin + OLIA": "#7570b3",
           "lowest-RTT + OLIA": "#e7298a"}


def setup(name_or_changes="base", **changes) -> dict:
    """The full setup dict: :data:`BASE_SETUP` with the changes of ``SETUPS[name]`` (or a dict) and ``changes``."""
    if isinstance(name_or_changes, str):
        check_choice("setup", name_or_changes, tuple(SETUPS))
        base = dict(BASE_SETUP, **SETUPS[name_or_changes])
    else:
        base = dict(BASE_SETUP, **dict(name_or_changes))
    base.update(changes)
    unknown = set(base) - set(BASE_SETUP)
    if unknown:
        raise ValueError(f"unknown setup field(s) {sorted(unknown)}; allowed: {sorted(BASE_SETUP)}")
    return base


def seeds_for(setup_name, n_seeds: int) -> list:
    """Seeds to run for a setup: ``n_seeds``, or one when the setup has no random element
    (``loss_rate`` 0: a drop-tail path is deterministic and every seed repeats the same run)."""
    n = check_int("n_seeds", n_seeds, minimum=1)
    st = setup(setup_name)
    return [0] if st["loss_rate"] == 0 else list(range(n))


def path_rtts_s(delta_s: float, meaning: str = "rtt", *, base_rtt_s: float = BASE_RTT_S) -> tuple:
    """Round-trip times (s) of the best path and of path 2 for a delay difference ``delta_s``.

    ``meaning="rtt"``: path 2's RTT is ``base + Δ``; ``"one_way"``: its one-way delay is longer by
    Δ, its RTT by 2Δ.
    """
    check_choice("meaning", meaning, MEANINGS)
    delta_s = check_non_negative("delta_s", delta_s)
    base_rtt_s = check_positive("base_rtt_s", base_rtt_s)
    return base_rtt_s, base_rtt_s + (delta_s if meaning == "rtt" else 2 * delta_s)


def scenario(delta_ms: float = 0.0, meaning: str = "rtt", *, n_paths: int = 2, scheduler: str = "round_robin",
             congestion: str = "lia", preset: str = "rfc", receive_buffer_bytes: int = 10_000_000,
             initial_ssthresh_bytes: int = UNBOUNDED_SSTHRESH_BYTES, loss_rate: float = 1e-5,
             duration_s: float = DURATION_S, rate_bps: float = RATE_BPS, base_rtt_s: float = BASE_RTT_S,
             queue_packets: int = QUEUE_PACKETS, seed: int = 0):
    """One run of Table I (see the module docstring); ``n_paths=1``: single-path TCP on the best path."""
    from ...scenario import LossModel, TcpOptions
    from ...sim.multipath import mptcp_scenario

    check_choice("preset", preset, tuple(PRESETS))
    n = check_int("n_paths", n_paths, minimum=1, maximum=2)
    if not 0 <= loss_rate < 1:
        raise ValueError(f"loss_rate must be a probability in [0, 1), got {loss_rate!r}")
    rtts = path_rtts_s(float(delta_ms) / 1e3, meaning, base_rtt_s=base_rtt_s)[:n]
    dupack_mode, cc_variant, ro_variants = PRESETS[preset]
    if n == 1:
        cc, cc_params = "newreno", {}
    else:
        cc = congestion
        cc_params = {"variant": cc_variant} if congestion in ("lia", "fully_coupled", "rtt_compensation") else {}
    rcv = check_int("receive_buffer_bytes", receive_buffer_bytes, minimum=SEGMENT_BYTES)
    # one window for the connection and its subflows (RFC 8684 sec. 3.3.4)
    opts = TcpOptions(sack=True, timestamps=False, min_rto_s=MIN_RTO_S, initial_rto_s=1.0,
                      send_buffer_bytes=SEND_BUFFER_BYTES, receive_buffer_bytes=rcv)
    loss = [LossModel("packet", float(loss_rate)) if loss_rate > 0 else LossModel()] * n
    return mptcp_scenario([float(rate_bps)] * n, list(rtts), duration_s=float(duration_s), congestion=cc,
                          congestion_params=cc_params, scheduler=scheduler, reordering="dsack",
                          reordering_params={"variant": ro_variants["dsack"]}, dupack_mode=dupack_mode,
                          segment_bytes=SEGMENT_BYTES, initial_window_bytes=SEGMENT_BYTES,
                          ssthresh_bytes=int(initial_ssthresh_bytes), m_ack=1, queue_packets=int(queue_packets),
                          loss=loss, options=opts, seed=int(seed))


def cases(deltas_ms=DELTAS_MS, meanings=MEANINGS, *, variants=(PAPER_VARIANT,), setups=("base",),
          duration_s: float = DURATION_S, **path_kw) -> list:
    """``(labels, scenario)`` for every setup × variant × (meaning, Δ), plus one single-path TCP
    reference per setup (Δ = 0 is one case, labelled with the first meaning and ``meaning="both"``)."""
    out = []
    for sname in setups:
        st = setup(sname) if isinstance(sname, str) else setup(sname)
        slabel = sname if isinstance(sname, str) else "custom"
        for vname in variants:
            check_choice("variant", vname, tuple(VARIANTS))
            sched, cc = VARIANTS[vname]
            done = set()
            for meaning in meanings:
                for d in deltas_ms:
                    key = (0.0, "both") if float(d) == 0 else (float(d), meaning)
                    if key in done:
                        continue
                    done.add(key)
                    labels = dict(setup=slabel, variant=vname, meaning=key[1], delta_ms=float(d), paths=2)
                    out.append((labels, scenario(d, meaning, scheduler=sched, congestion=cc, duration_s=duration_s,
                                                 **st, **path_kw)))
        out.append((dict(setup=slabel, variant="single TCP", meaning="-", delta_ms=0.0, paths=1),
                    scenario(0.0, "rtt", n_paths=1, duration_s=duration_s, **st, **path_kw)))
    return out


def run(case_list, *, seeds, workers=None, progress=True) -> pd.DataFrame:
    """Run ``case_list`` × ``seeds`` (:func:`cmtlab.sweep.run_sweep`: result cache, process pool over the cores; every
    seed simulated here); adds ``goodput_mbps`` and the per-subflow ``sf<i>_goodput_mbps``."""
    from ...sweep import run_sweep

    df = run_sweep("cmtlab", case_list, seeds=list(seeds), workers=workers, progress=progress)
    df["goodput_mbps"] = df["gthroughput_bps"] / 1e6
    for i in (0, 1):
        col = f"sf{i}_goodput_bps"
        if col in df:
            df[f"sf{i}_goodput_mbps"] = df[col] / 1e6
    if "sf1_goodput_bps" in df:
        df["share2"] = df["sf1_goodput_bps"] / (df["sf0_goodput_bps"] + df["sf1_goodput_bps"])
    return df


#: The row schema of one run of Table I, the one :func:`gains` reads: ``paths`` (1: single-path TCP on the best
#: path, 2: MPTCP), ``meaning`` (the reading of Δ, :data:`MEANINGS`; ``"both"`` at Δ = 0), ``delta_ms`` (Δ, ms),
#: ``goodput_mbps`` (the connection's application goodput, Mbit/s), ``sf0_rtt_s`` and ``sf1_rtt_s`` (the round
#: trips of path 1, the best, and path 2, s), ``share2`` (path 2's share of the connection's bytes), and the
#: grouping labels (``setup``/``variant`` here, ``congestion`` on the kernel).  Optional, averaged when present:
#: ``sf0_goodput_mbps``/``sf1_goodput_mbps`` and the counters of :data:`ROW_MEANS`.  cmtlab's rows have it from
#: :func:`run`; the kernel's (and the kernel-like simulator's) are mapped on load by
#: :func:`cmtlab.validation.kernel_sim.table1_rows`.
ROW_COLUMNS = ("paths", "meaning", "delta_ms", "goodput_mbps", "sf0_rtt_s", "sf1_rtt_s", "share2")
#: Per-run counters :func:`gains` averages per cell when the rows carry them (NaN otherwise).
ROW_MEANS = ("fast_retransmits", "timeouts", "sub1_sndbuf_limited_ms")


def gains(runs: pd.DataFrame, *, by=("setup", "variant"), baseline: str = "setup", sort: bool = False) -> pd.DataFrame:
    """Table I: the MPTCP gain over single-path TCP on the best path, per ``by`` × reading × Δ, with its spread and
    95 % confidence interval over the runs — the book's one computation of Table I, for cmtlab's runs and the
    kernel's alike (rows of :data:`ROW_COLUMNS`).

    Each MPTCP run's gain is its goodput over the mean goodput of the single-path TCP runs of the same ``baseline``
    (the setup here, the congestion control on the kernel), minus one; ``gain_pct`` is their mean, ``gain_std_pct``
    their standard deviation, ``gain_ci95_pct`` the Student-t half-width (:func:`cmtlab.stats.half_width`; NaN for one
    run), ``gain_min_pct``/``gain_max_pct`` their range and ``n`` their number.  Δ = 0 rows (``meaning="both"``) are
    repeated for each reading present.  Also: the mean goodputs (``tcp_mbps``, ``mptcp_mbps``, per path ``sf1_mbps``,
    ``sf2_mbps``), path 2's share, both paths' RTTs, the means of :data:`ROW_MEANS` and Table I's two columns
    (``paper_linux_pct``, ``paper_ns3_pct``).  ``sort``: groups in sorted order (else as they appear).
    """
    by = [by] if isinstance(by, str) else list(by)
    tcp = runs[runs.paths == 1].groupby(baseline).goodput_mbps.mean()
    m = runs[runs.paths == 2].copy()
    if m.empty:
        return pd.DataFrame()
    m["tcp_mbps"] = m[baseline].map(tcp)
    m["gain_pct"] = 100 * (m.goodput_mbps / m.tcp_mbps - 1)
    present = [x for x in MEANINGS if (m.meaning == x).any()] or [MEANINGS[0]]
    rows = []
    for meaning in present:
        sel = m[(m.meaning == meaning) | (m.meaning == "both")]
        for key, g in sel.groupby(by + ["delta_ms"], sort=sort):
            *labels, d = key
            n = len(g)
            sd = g.gain_pct.std(ddof=1) if n > 1 else math.nan

            def mean(col):
                return float(g[col].mean()) if col in g else math.nan

            rows.append(dict(zip(by, labels), meaning=meaning, delta_ms=d, rtt1_ms=1e3 * float(g.sf0_rtt_s.iloc[0]),
                             rtt2_ms=1e3 * float(g.sf1_rtt_s.iloc[0]),
                             tcp_mbps=float(g.tcp_mbps.iloc[0]), mptcp_mbps=float(g.goodput_mbps.mean()),
                             sf1_mbps=mean("sf0_goodput_mbps"), sf2_mbps=mean("sf1_goodput_mbps"),
                             share2=mean("share2"), gain_pct=float(g.gain_pct.mean()), gain_std_pct=float(sd),
                             gain_ci95_pct=half_width(sd, n),
                             gain_min_pct=float(g.gain_pct.min()), gain_max_pct=float(g.gain_pct.max()),
                             **{c: mean(c) for c in ROW_MEANS}, n=n,
                             paper_linux_pct=PAPER_LINUX_GAIN_PCT.get(int(d), math.nan),
                             paper_ns3_pct=PAPER_NS3_GAIN_PCT.get(int(d), math.nan)))
    return pd.DataFrame(rows)


def gain_of(g: pd.DataFrame, delta_ms: float, meaning: str = "rtt", *, setup_name: str = "base",
            variant: str = PAPER_VARIANT, column: str = "gain_pct") -> float:
    """One cell of :func:`gains` (``nan`` if that row was not run)."""
    sel = g[(g.setup == setup_name) & (g.variant == variant) & (g.meaning == meaning) & (g.delta_ms == float(delta_ms))]
    return float(sel[column].iloc[0]) if len(sel) else math.nan


def closer_reading(g: pd.DataFrame, meanings=MEANINGS, *, delta_ms: float | None = None) -> str:
    """The reading of "delay difference" (``"rtt"`` or ``"one_way"``) whose gain is closer to Table I.

    At ``delta_ms`` (default: the largest Δ in ``g`` that Table I has), for the base setup and the paper's variant,
    the distance of each reading's gain (%) from the paper's Linux and ns-3 columns (percentage
    points), summed over the two columns; the reading with the smaller sum (the first of ``meanings``
    on a tie).
    """
    meanings = list(meanings)
    if not meanings:
        raise ValueError("closer_reading needs at least one meaning")
    if delta_ms is None:
        in_table = [float(x) for x in set(g.delta_ms) if float(x) in PAPER_LINUX_GAIN_PCT]
        if not in_table:
            raise ValueError(f"closer_reading: none of the delay differences run ({sorted(set(g.delta_ms))} ms) "
                             f"is one of Table I's ({sorted(PAPER_LINUX_GAIN_PCT)} ms)")
        d = max(in_table)
    else:
        d = float(delta_ms)
    key = int(d) if d.is_integer() else d
    if key not in PAPER_LINUX_GAIN_PCT:
        raise ValueError(f"delta_ms = {d:g}: Table I has columns for {sorted(PAPER_LINUX_GAIN_PCT)} ms only")

    def dist(meaning):
        ours = gain_of(g, d, meaning)
        return abs(ours - PAPER_LINUX_GAIN_PCT[key]) + abs(ours - PAPER_NS3_GAIN_PCT[key])

    return min(meanings, key=dist)


def same_gains(g: pd.DataFrame, variant: str, deltas_ms=DELTAS_MS, meanings=MEANINGS, *,
               base_variant: str = PAPER_VARIANT) -> bool:
    """Whether ``variant`` gives the same gain (%) as ``base_variant`` at every Δ (ms) and reading (``np.isclose``).

    ``False`` if ``variant`` was not run.  (With the lowest-RTT scheduler in these runs a subflow asks
    for data only when an ACK opens its own window, so it can repeat round robin run for run.)
    """
    if variant not in set(g.variant):
        return False
    return all(bool(np.isclose(gain_of(g, d, m, variant=variant), gain_of(g, d, m, variant=base_variant)))
               for m in meanings for d in deltas_ms)


def max_ooo_buffer_bytes(runs: pd.DataFrame) -> pd.Series:
    """The largest out-of-order buffer occupancy (bytes) over the seeds, per (setup, meaning, Δ), MPTCP runs only."""
    return runs[runs.paths == 2].groupby(["setup", "meaning", "delta_ms"], sort=False).max_ooo_buffer_bytes.max()


def sensitivity_table(g: pd.DataFrame, runs: pd.DataFrame, meanings=MEANINGS) -> pd.DataFrame:
    """"Where a choice changes the conclusion": the paper's variant, one row per setup of :data:`SETUPS` run.

    Columns: the gain (%) at every Δ and reading (Δ = 0 once), the timeouts per run at the largest
    Δ, the largest out-of-order buffer occupancy (MB, :func:`max_ooo_buffer_bytes`) and the seeds.
    ``g`` is :func:`gains` of ``runs``.
    """
    meanings = list(meanings)
    sens = g[g.variant == PAPER_VARIANT]
    occ = max_ooo_buffer_bytes(runs)
    tab = sens.pivot_table(index="setup", columns=["meaning", "delta_ms"], values="gain_pct", sort=False)
    tab = tab[[c for c in tab.columns if not (c[0] != meanings[0] and c[1] == 0)]]  # Δ = 0 once
    tab.columns = [("Δ = 0 ms" if d == 0 else f"{'RTT' if m == 'rtt' else 'one-way'} Δ = {d:g} ms") for m, d in tab.columns]
    far = max(sens.delta_ms)
    tab[f"timeouts / run, all subflows, both readings (Δ = {far:g} ms)"] = sens[sens.delta_ms == far].groupby("setup", sort=False).timeouts.mean()
    tab["max. OOO buffer (MB)"] = occ.groupby(level="setup", sort=False).max() / 1e6
    tab["seeds"] = sens.groupby("setup", sort=False).n.max()
    return tab




#: Reference-column names of the comparison (:func:`comparison`).
MODEL_COLUMN = "papers' simulator (run here)"
CMTLAB_COLUMN = "cmtlab, RFC base setup"
PRESET_COLUMN = "cmtlab, papers' model preset"
KERNEL_COLUMN = "Linux kernel (testbed, stored)"
PRESET_SETUP = "paper's model preset"


def model_gain_of(model: pd.DataFrame, delta_ms: float, meaning: str = "rtt", *, column: str = "gain_pct",
                  reordering: str = "dsack") -> float:
    """One value of the papers' simulator's Table I (:func:`cmtlab.papers.alheid.papers_sim.gains`): ``column`` at
    Δ (ms), reading ``meaning`` and the model's ``reordering`` (``"dsack"``: Table I's); ``nan`` if not run."""
    m = model[(model.reordering == reordering) & (model.meaning == meaning) & (model.delta_ms == float(delta_ms))]
    return float(m[column].iloc[0]) if len(m) else float("nan")


def _kernel_text(kernel, d, meaning) -> str:
    if kernel is None or not len(kernel):
        return ""
    parts = []
    for cc in ("reno", "cubic"):
        k = kernel[(kernel.congestion == cc) & (kernel.meaning == meaning) & (kernel.delta_ms == float(d))]
        if len(k):
            parts.append(f"{cc} {float(k.gain_pct.iloc[0]):.0f} %")
    return ", ".join(parts)


def comparison(g: pd.DataFrame, *, deltas_ms, meanings, duration_s: float, n_seeds: int,
               max_occ_base_bytes: float, model: pd.DataFrame, model_max_ooo_bytes: float | None = None,
               kernel: pd.DataFrame | None = None, model_transfer_bytes: int | None = None):
    """A1: Table I's claims (:data:`cmtlab.papers.alheid.paper.CLAIMS`), decided on the papers' simulator.

    ``sec4a.ns3-close-to-linux`` — the NS-3 column (90 / 80 / 20 %) against the gain on the papers' own simulator
    (``model``: :func:`cmtlab.papers.alheid.papers_sim.gains` of its recorded D_SACK runs; one run per point, the
    model is deterministic), one case per Δ, the RTT reading of "delay difference" deciding; the one-way reading
    (note), the Linux column of Table I (a citation of Barré [18], the row's note), ``cmtlab``'s base setup under
    RFC behaviour (95 % CI over ``n_seeds`` seeds, ``RFC_COLUMN``), its papers' model
    preset (when run) and the stored kernel gains (``kernel``, :func:`kernel_gains_from_chapter`:
    ``TODAY_COLUMN``) beside, never counted.  ``sec4a.buffer-10mb`` is a set-up of the
    paper: *by construction* (the transfers are no larger than the buffer; the model's out-of-order list is
    unbounded).  That the gain falls with Δ (no sentence of the paper says so) is a check per reading.
    ``max_occ_base_bytes``: the base setup's largest out-of-order occupancy (bytes); ``model_max_ooo_bytes`` the
    model's (bytes); ``model_transfer_bytes`` its transfer size.
    """
    from ...report import MEASURED, Comparison
    from ...report.claims import RFC_COLUMN, TODAY_COLUMN
    from .cases import spell_cases
    from .paper import CLAIMS

    meanings = list(meanings)
    decide_on = "rtt" if "rtt" in meanings else meanings[0]
    other = [m for m in meanings if m != decide_on]
    table = Comparison(here_column=MODEL_COLUMN)
    preset_run = PRESET_SETUP in set(g.get("setup", pd.Series(dtype=object)))
    c = CLAIMS["sec4a.ns3-close-to-linux"]
    for d in DELTAS_MS:
        case = f"Δ = {d} ms"
        if d not in list(deltas_ms):
            table.add_not_assessed(c, case=case, paper=f"{PAPER_NS3_GAIN_PCT[d]:g} %", reason=f"Δ = {d} ms not run")
            continue
        value = model_gain_of(model, d, decide_on)
        cm = gain_of(g, d, decide_on)
        h = gain_of(g, d, decide_on, column="gain_ci95_pct")
        refs = {RFC_COLUMN: f"cmtlab base setup {cm:.0f} %" + (f" (95 % CI {cm - h:.0f} to {cm + h:.0f}, {n_seeds} "
                                                               "seeds)" if math.isfinite(h) else "")}
        if preset_run:
            refs[PRESET_COLUMN] = f"{gain_of(g, d, decide_on, setup_name=PRESET_SETUP):.0f} %"
        kt = _kernel_text(kernel, d, decide_on)
        if kt:
            refs[TODAY_COLUMN] = f"Linux kernel (stored): {kt}"
        notes = [f"Linux column (Barré [18]): {PAPER_LINUX_GAIN_PCT[d]:g} %"]
        if d:
            for m in other:
                alt = model_gain_of(model, d, m)
                notes.append(f"{MEANING_LABELS.get(m, m)} reading: {alt:.0f} % → "
                             f"{MEASURED.verdict(PAPER_NS3_GAIN_PCT[d], alt)}")
        table.add_value(c, case=case, paper=PAPER_NS3_GAIN_PCT[d], ours=value, unit="%", fmt=".0f",
                        note="; ".join(notes) + " (one run: the model is deterministic)", references=refs)
    table.add_cases(c, note=f"decided on the {MEANING_LABELS.get(decide_on, decide_on)} reading of “delay "
                            "difference”; the other in each case's note")
    spell_cases(table, c)
    mb = (model_transfer_bytes or 10_000_000) / 1e6
    occ = float(model_max_ooo_bytes) if model_max_ooo_bytes is not None else float("nan")
    table.add_constructed(CLAIMS["sec4a.buffer-10mb"], paper="10 MB, no effect",
                          ours=f"the model's out-of-order list is unbounded (held at most {occ / 1e3:.0f} kB); "
                               f"{mb:g}-MB transfers",
                          how="a set-up of the paper, not a result: the model's out-of-order list has no limit"
                              + (f"; in these runs it held at most {occ / 1e3:.0f} kB, so a 10-MB buffer would never have "
                                 "limited" if occ < 10e6 else "")
                              + f" (the book's {mb:g}-MB transfers are shorter than the paper's 50-s runs)",
                          references={RFC_COLUMN: f"cmtlab base setup: at most {max_occ_base_bytes / 1e6:.2f} MB "
                                                  "held out of order"})
    for meaning in meanings:
        vals = [model_gain_of(model, d, meaning) for d in sorted(deltas_ms)]
        table.add_check(f"the model's gain falls as Δ grows ({MEANING_LABELS.get(meaning, meaning)} reading)",
                        target="Table I: 90 → 80 → 20 %", ours=" → ".join(f"{v:.0f} %" for v in vals),
                        holds=bool(all(a > b for a, b in zip(vals, vals[1:]))),
                        rule="the gain at each larger Δ is lower (no sentence of the paper says it: a check)")
    return table


# --------------------------------------------------------------------------- the chapter's runs, tables and glue
#: Variant label -> the tag of its glued gains (``a1_<tag>_<meaning>_<Δ>``).
VARIANT_TAGS = {"round robin + LIA": "rr_lia", "lowest-RTT + LIA": "lrtt_lia", "round robin + OLIA": "rr_olia",
                "lowest-RTT + OLIA": "lrtt_olia"}
#: Sensitivity setup -> the tag of its glued gains (``a1_<tag>_<meaning>_<Δ>``).
SETUP_TAGS = {"receive buffer 128 KiB": "buf", "initial ssthresh 65535 B": "ss", PRESET_SETUP: "preset",
              "no residual loss": "noloss"}
#: Bytes per segment of the papers' model (its out-of-order list counts segments).
MODEL_SEGMENT_BYTES = MSS_BYTES


def chapter_runs(deltas_ms, meanings, *, variants, duration_s: float, n_seeds: int, setups=(), sensitivity_seeds: int = 2,
                 workers=None) -> pd.DataFrame:
    """Every cmtlab run of the chapter, all simulated (cached sweeps): the base setup for each of ``variants`` over
    ``n_seeds`` seeds, and the paper's variant in each one-factor setup of ``setups`` over :func:`seeds_for`
    ``sensitivity_seeds``."""
    base = run(cases(deltas_ms, meanings, variants=variants, setups=("base",), duration_s=duration_s),
               seeds=range(n_seeds), workers=workers)
    sens = [run(cases(deltas_ms, meanings, variants=(PAPER_VARIANT,), setups=(s,), duration_s=duration_s),
                seeds=seeds_for(s, sensitivity_seeds), workers=workers) for s in setups]
    return pd.concat([base, *sens], ignore_index=True)


def base_table(g: pd.DataFrame) -> pd.DataFrame:
    """The base setup's gains as shown: every variant, reading and Δ, with readable column names."""
    base = g[g.setup == "base"]
    return base[["variant", "meaning", "delta_ms", "rtt2_ms", "tcp_mbps", "mptcp_mbps", "sf2_mbps", "gain_pct",
                 "gain_ci95_pct", "fast_retransmits", "timeouts", "paper_linux_pct", "paper_ns3_pct"]].rename(columns={
        "variant": "scheduler + CC", "meaning": "Δ read as", "delta_ms": "Δ (ms)", "rtt2_ms": "RTT path 2 (ms)",
        "tcp_mbps": "TCP best path (Mbit/s)", "mptcp_mbps": "MPTCP (Mbit/s)", "sf2_mbps": "of which path 2 (Mbit/s)",
        "gain_pct": "gain (%)", "gain_ci95_pct": "± 95 % CI (pp)", "fast_retransmits": "fast retransmits / run",
        "timeouts": "timeouts / run", "paper_linux_pct": "paper, Linux (%)", "paper_ns3_pct": "paper, ns-3 (%)"})


def table1_glue(g: pd.DataFrame, deltas_ms, meanings, *, n_seeds: int, duration_s: float) -> dict:
    """The prose's base-setup numbers: per reading and Δ the gain of each variant (``a1_<tag>_<meaning>_<Δ>``,
    :data:`VARIANT_TAGS`; NaN if not run), the paper's variant's CI half-width, path 2's goodput and RTT; single-path
    TCP's goodput, the seeds and run length; the reading closer to Table I (:func:`closer_reading`) and whether
    lowest-RTT + LIA repeats round robin (:func:`same_gains`)."""
    out = {}
    for meaning in meanings:
        for d in deltas_ms:
            for var, tag in VARIANT_TAGS.items():
                out[f"a1_{tag}_{meaning}_{d}"] = gain_of(g, d, meaning, variant=var)
            out[f"a1_ci_{meaning}_{d}"] = gain_of(g, d, meaning, column="gain_ci95_pct")
            out[f"a1_sf2_{meaning}_{d}"] = gain_of(g, d, meaning, column="sf2_mbps")
            out[f"a1_rtt2_{meaning}_{d}"] = gain_of(g, d, meaning, column="rtt2_ms")
    base = g[g.setup == "base"]
    out["a1_tcp_mbps"] = float(base.tcp_mbps.iloc[0]) if len(base) else math.nan
    out["a1_n_seeds"] = n_seeds
    out["a1_duration_s"] = duration_s
    out["a1_closer_reading"] = "the RTT reading" if closer_reading(g, meanings) == "rtt" else "the one-way reading"
    return out


def _not_run(what: str, parameter: str) -> str:
    """Why a sentence of the prose has no numbers: the quick profile (or the reader's parameters) did not run it."""
    from ...report.profile import profile

    if profile() == "quick":
        return f"{what} is not run by the quick profile (parameter `{parameter}`)"
    return f"{what} is not run with these parameters (parameter `{parameter}`)"


def _gains_text(vals: dict, deltas, meanings) -> str:
    """"a % and b % at 100 and 500 ms (RTT reading; one-way c and d %)" from ``{(meaning, Δ): gain}``."""
    ds = " and ".join(f"{d:g}" for d in deltas)
    parts = []
    for m in meanings:
        nums = " and ".join(f"{vals[(m, d)]:.0f}" for d in deltas)
        parts.append((m, nums))
    head = f"{parts[0][1].replace(' and ', ' % and ')} % at {ds} ms ({'RTT' if parts[0][0] == 'rtt' else 'one-way'} reading"
    rest = "".join(f"; {'RTT' if m == 'rtt' else 'one-way'} {nums} %" for m, nums in parts[1:])
    return head + rest + ")"


def prose_glue(g: pd.DataFrame, runs: pd.DataFrame, model: pd.DataFrame, deltas_ms, meanings) -> dict:
    """The chapter's sentences whose words depend on what was run and on the numbers (issue 34: "prose follows from
    the numbers"): each says plainly when the quick profile (or the reader's parameters) did not run its rows, and
    picks its qualitative words from the values.

    * ``a1_lrtt_text`` — the lowest-RTT scheduler against round robin (LIA);
    * ``a1_olia_text`` — round robin + OLIA at the Δ > 0;
    * ``a1_rfc_shape_text`` — the base setup (RFC receivers) against the paper's ns-3 column: does its gain fall with
      Δ, and its value at the largest Δ with the policy's verdict (:func:`cmtlab.report.verdicts.value_verdict`);
    * ``a1_preset_text`` — the papers'-model preset at Δ = 100 / 500 ms (RTT reading) against the model;
    * ``a1_sens_<tag>_md`` — one bullet per one-factor setup (:data:`SETUP_TAGS`), Markdown.
    """
    from ...report.facts import MarkdownText
    from ...report.verdicts import value_verdict

    out = {}
    meanings = [m for m in MEANINGS if m in set(meanings)]
    far = max(deltas_ms)
    pos = [d for d in deltas_ms if d > 0]
    # lowest-RTT + LIA against round robin + LIA
    lr = "lowest-RTT + LIA"
    if lr not in set(g.variant):
        out["a1_lrtt_text"] = _not_run("The lowest-RTT scheduler with LIA", "variants") + "."
    elif same_gains(g, lr, deltas_ms, meanings):
        out["a1_lrtt_text"] = ("The lowest-RTT scheduler gives exactly the same runs as round robin: in these runs a "
                               "subflow asks for data only when an ACK opens its own window, so the scheduler never "
                               "has two subflows with room to choose between.")
    else:
        diffs = [abs(gain_of(g, d, m, variant=lr) - gain_of(g, d, m)) for m in meanings for d in deltas_ms]
        out["a1_lrtt_text"] = (f"The lowest-RTT scheduler changes the gain by up to {max(diffs):.1f} points against "
                               f"round robin (table above).")
    # round robin + OLIA
    ol = "round robin + OLIA"
    if ol not in set(g.variant) or not pos:
        out["a1_olia_text"] = _not_run("Round robin with OLIA", "variants") + "."
    else:
        vals = {(m, d): gain_of(g, d, m, variant=ol) for m in meanings for d in pos}
        lia = {(m, d): gain_of(g, d, m) for m in meanings for d in pos}
        lower = all(vals[k] < lia[k] for k in vals)
        out["a1_olia_text"] = (f"OLIA gives {_gains_text(vals, pos, meanings)}"
                               + (": lower than LIA at every Δ > 0. Its increase on a path is proportional to that "
                                  "path's window over its squared RTT, which is small on the long path, so that "
                                  "window grows more slowly still." if lower else
                                  ", not lower than LIA at every Δ > 0 (table above)."))
    # the base setup (RFC receivers) against the paper's ns-3 column
    base = [gain_of(g, d, "rtt") for d in sorted(deltas_ms)]
    key = int(far) if float(far).is_integer() else far
    paper_far = PAPER_NS3_GAIN_PCT.get(key)
    falls = all(b < a for a, b in zip(base, base[1:]))
    seq = " → ".join(f"{b:.0f}" for b in base)
    text = (f"a gain that {'falls' if falls else 'does not fall'} as Δ grows ({seq} %, RTT reading, at Δ = "
            + " / ".join(f"{d:g}" for d in sorted(deltas_ms)) + " ms")
    if paper_far is not None and math.isfinite(base[-1]):
        text += ("; the paper's ns-3 column: " + " → ".join(f"{PAPER_NS3_GAIN_PCT[int(d)]:.0f}" for d in sorted(deltas_ms)
                                                             if int(d) in PAPER_NS3_GAIN_PCT)
                 + f" %), and at {far:g} ms {base[-1]:.0f} % against the column's {paper_far:.0f} %: "
                 + f"{value_verdict(paper_far, base[-1])} by the policy's band for a measured number")
    else:
        text += ")"
    out["a1_rfc_shape_text"] = text
    # the papers'-model preset against the model
    if PRESET_SETUP not in set(g.setup) or not pos:
        out["a1_preset_text"] = _not_run("the papers'-model preset", "setups")
    else:
        p = {d: gain_of(g, d, "rtt", setup_name=PRESET_SETUP) for d in pos}
        m = {d: model_gain_of(model, d, "rtt") for d in pos}
        below = p[far] < 0 and m[far] < 0
        out["a1_preset_text"] = ("the preset that imitates the papers' model (the duplicate-ACK receiver, row "
                                 "\"paper's model preset\" of the table above) gives "
                                 + " and ".join(f"{p[d]:.0f} %" for d in pos) + f" at {' and '.join(f'{d:g}' for d in pos)} ms"
                                 + (f": below one TCP at {far:g} ms, as the model is ({m[far]:.0f} %)" if below else
                                    f" (the model: {' and '.join(f'{m[d]:.0f} %' for d in pos)})"))
    out.update(_sensitivity_bullets(g, runs, meanings, MarkdownText))
    return out


def _sensitivity_bullets(g: pd.DataFrame, runs: pd.DataFrame, meanings, markdown) -> dict:
    """``a1_sens_<tag>_md``: one bullet per one-factor setup, its numbers, and which setup changes the RTT reading's gain
    most at 100 and at 500 ms among those run."""
    out = {}
    run_setups = [s for s in SETUP_TAGS if s in set(g.setup)]
    change = {}
    for s in run_setups:
        change[s] = {d: abs(gain_of(g, d, "rtt", setup_name=s) - gain_of(g, d, "rtt")) for d in (100, 500)}
    largest = {d: max(run_setups, key=lambda s: change[s][d]) if run_setups else None for d in (100, 500)}

    def most(s):
        ds = [d for d in (100, 500) if largest[d] == s and len(run_setups) > 1]
        return (" — the largest change among the setups run at Δ = " + " and ".join(f"{d} ms" for d in ds)
                + " (RTT reading)") if ds else ""

    def gains(s):
        vals = {(m, d): gain_of(g, d, m, setup_name=s) for m in meanings for d in (100, 500)}
        return _gains_text(vals, (100, 500), meanings)

    for s, tag in SETUP_TAGS.items():
        if s not in run_setups:
            out[f"a1_sens_{tag}_md"] = markdown(f"**{s}**: " + _not_run("this setup", "setups") + ".")
            continue
        if tag == "buf":
            occ = max_occ_base_bytes(runs) / 1e6
            text = (f"**The receive buffer** (ns-3's default {NS3_DEFAULT_BUFFER_BYTES} B; RFC 8684: one window for the "
                    f"connection and its subflows): the gain becomes {gains(s)}{most(s)}. Data sent on the long path "
                    "blocks the in-order delivery of everything sent after it on the short one, and the window closes "
                    "on both (head-of-line blocking). With the paper's 10 MB the receiver held at most "
                    f"{occ:.2f} MB out of order, so " + ("that buffer never limited — the paper's reason for choosing "
                                                          "it (\"to avoid its effect\", sec. IV.A) holds here."
                                                          if occ < 10 else "that buffer did limit."))
        elif tag == "ss":
            segs = 65535 // SEGMENT_BYTES
            text = (f"**The initial slow-start threshold** (65535 B, the Chihani–Collange model's) stops the first slow "
                    f"start of the long path at {segs} packets, far below its bandwidth-delay product: the gain becomes "
                    f"{gains(s)}{most(s)}.")
        elif tag == "preset":
            pr = runs[(runs.setup == s) & (runs.delta_ms == 500) & runs.meaning.isin(["rtt", "both"]) & (runs.paths == 2)]
            to = float(pr.sf0_timeouts.mean()) if len(pr) else math.nan
            sp = float(100 * pr.sf0_spurious_retransmissions.sum() / max(pr.sf0_retransmissions.sum(), 1)) if len(pr) else math.nan
            text = (f"**The papers' model preset** (the paper's duplicate-ACK receiver): the gain becomes {gains(s)}{most(s)}. "
                    "Under that receiver a segment that is in order on the short subflow but waits for the long path's "
                    "data at connection level is answered with a duplicate ACK, so the short subflow's cumulative ACK "
                    f"stalls for up to Δ, far beyond its 0.2 s retransmission timeout: at 500 ms (RTT reading) the short "
                    f"subflow alone times out {to:.0f} times per run ({sp:.0f} % of its retransmissions are spurious; "
                    "the table above counts every subflow, both readings).")
        else:
            diff = max(abs(gain_of(g, d, m, setup_name=s) - gain_of(g, d, m)) for m in meanings for d in (100, 500))
            text = (f"**The residual loss** that makes the seeds differ: without it (one deterministic run) the gain is "
                    f"{gains(s)}, {diff:.1f} points at most from the base setup{most(s)}.")
        out[f"a1_sens_{tag}_md"] = markdown(text)
    return out


def model_table(model: pd.DataFrame, deltas_ms) -> pd.DataFrame:
    """Table I on the papers' simulator (:func:`cmtlab.papers.alheid.papers_sim.gains`) as shown: the paper's solution names,
    goodputs in Mbit/s, gains of the goodput and of the model's global throughput (%), fast retransmits and timeouts."""
    m = model[model.delta_ms.isin(deltas_ms)]
    return pd.DataFrame({
        "solution": m.reordering.map({"dsack": "D_SACK", "none": "NoPR", "pr_r": "PR-R"}).fillna(m.reordering),
        "Δ read as": m.meaning.map({"rtt": "RTT", "one_way": "one-way"}), "Δ (ms)": m.delta_ms,
        "TCP best path (Mbit/s)": m.single_path_goodput_bps / 1e6, "MPTCP (Mbit/s)": m.goodput_bps / 1e6,
        "gain (%)": m.gain_pct, "gain of the model's global throughput (%)": m.global_throughput_gain_pct,
        "fast retransmits": m.fast_retransmits, "timeouts": m.timeouts}).reset_index(drop=True)


def story_table(story: pd.DataFrame) -> pd.DataFrame:
    """:func:`cmtlab.papers.alheid.papers_sim.subflow_story` with readable column names."""
    return story.rename(columns={
        "meaning": "Δ read as", "delta_ms": "Δ (ms)", "path2_share_pct": "data on path 2 (%)",
        "sf1_third_dupacks": "3rd dup. ACKs, path 1", "sf2_third_dupacks": "3rd dup. ACKs, path 2",
        "sf1_timeouts": "timeouts, path 1", "sf2_timeouts": "timeouts, path 2",
        "sf2_final_cwnd_segments": "path 2 final cwnd (seg.)", "completion_time_s": "10 MB took (s)"})


def model_max_ooo_bytes(model_runs: pd.DataFrame, reordering: str = "dsack") -> float:
    """The largest out-of-order list of the model's two-path ``reordering`` runs, in bytes
    (segments × :data:`MODEL_SEGMENT_BYTES`)."""
    two = model_runs[(model_runs.paths == 2) & (model_runs.reordering == reordering)]
    return float(two.max_ooo_segments.max()) * MODEL_SEGMENT_BYTES if len(two) else math.nan


#: The columns of :func:`cmtlab.papers.alheid.papers_sim.subflow_story` the prose glues.
STORY_COLUMNS = ("path2_share_pct", "sf2_third_dupacks", "sf1_timeouts", "sf2_final_cwnd_segments", "completion_time_s")


def model_glue(model: pd.DataFrame, story: pd.DataFrame, model_runs: pd.DataFrame, deltas_ms) -> dict:
    """The prose's numbers from the papers' simulator: per reading and Δ the gain of each solution
    (``a1_model_<dsack|none|pr_r>_<meaning>_<Δ>``) and the D-SACK runs' story (:data:`STORY_COLUMNS`, where run);
    single-path TCP's goodput (Mbit/s) and completion time (s), and the largest out-of-order list (kB)."""
    out = {}
    for meaning in MEANINGS:
        for d in deltas_ms:
            for ro in ("dsack", "none", "pr_r"):
                out[f"a1_model_{ro}_{meaning}_{d}"] = model_gain_of(model, d, meaning, reordering=ro)
            st = story[(story.meaning.isin([meaning, "both"])) & (story.delta_ms == d)]
            if len(st):
                for col in STORY_COLUMNS:
                    out[f"a1_model_{col}_{meaning}_{d}"] = float(st[col].iloc[0])
    ds = model[model.reordering == "dsack"]
    out["a1_model_tcp_mbps"] = float(ds.single_path_goodput_bps.iloc[0]) / 1e6 if len(ds) else math.nan
    single = model_runs[(model_runs.paths == 1) & (model_runs.reordering == "dsack")]
    out["a1_model_single_time_s"] = float(single.completion_time_s.iloc[0]) if len(single) else math.nan
    out["a1_model_ooo_kb"] = model_max_ooo_bytes(model_runs) / 1e3
    return out


def sensitivity_glue(g: pd.DataFrame, runs: pd.DataFrame, kernel: pd.DataFrame, deltas_ms) -> dict:
    """The prose's sensitivity numbers: the paper's variant's gain at Δ = 100 / 500 ms in each one-factor setup
    (``a1_<tag>_<meaning>_<Δ>``, :data:`SETUP_TAGS`); with the papers' model preset at the largest Δ (RTT reading),
    path 1's timeouts per run and the share of its retransmissions that were spurious (%); the range of the paper's
    variant's gains at the largest Δ over setups and readings; the kernel's stored gains at the largest Δ
    (``a1_kernel_<cc>_<meaning>_500``); the base setup's largest out-of-order occupancy (MB)."""
    out = {}
    far = max(deltas_ms)
    for s_name, tag in SETUP_TAGS.items():
        for meaning in MEANINGS:
            for d in (100, 500):
                out[f"a1_{tag}_{meaning}_{d}"] = gain_of(g, d, meaning, setup_name=s_name)
    pr = runs[(runs.setup == PRESET_SETUP) & (runs.delta_ms == far) & runs.meaning.isin(["rtt", "both"]) & (runs.paths == 2)]
    out["a1_preset_sf1_timeouts_500"] = float(pr.sf0_timeouts.mean()) if len(pr) else math.nan
    out["a1_preset_sf1_spurious_pct"] = (float(100 * pr.sf0_spurious_retransmissions.sum() / max(pr.sf0_retransmissions.sum(), 1))
                                         if len(pr) else math.nan)
    far_gains = g[(g.variant == PAPER_VARIANT) & (g.delta_ms == far)].gain_pct
    out["a1_far_min"] = float(far_gains.min()) if len(far_gains) else math.nan
    out["a1_far_max"] = float(far_gains.max()) if len(far_gains) else math.nan
    for cc in ("reno", "cubic"):
        for meaning in MEANINGS:
            k = kernel[(kernel.congestion == cc) & (kernel.meaning == meaning) & (kernel.delta_ms == far)]
            out[f"a1_kernel_{cc}_{meaning}_500"] = float(k.gain_pct.iloc[0]) if len(k) else math.nan
    out["a1_max_occ_base_mb"] = max_occ_base_bytes(runs) / 1e6
    return out


def max_occ_base_bytes(runs: pd.DataFrame) -> float:
    """The base setup's largest out-of-order buffer occupancy (bytes) over every reading, Δ and seed."""
    occ = max_ooo_buffer_bytes(runs)
    return float(occ.xs("base", level="setup").max()) if "base" in occ.index.get_level_values("setup") else math.nan


def kernel_gains_from_chapter(notebook) -> pd.DataFrame:
    """The kernel's gains as *stored* in the executed Linux testbed chapter (not re-run here).

    Reads the glued values ``tb_gain_<cc>_<meaning>_<Δ>`` of ``notebook``
    (``notebooks/linux-mptcp-validation.ipynb``).  Returns rows ``congestion, meaning, delta_ms,
    gain_pct``; empty when the file is missing or holds none (e.g. not executed).
    """
    path = Path(notebook)
    cols = ["congestion", "meaning", "delta_ms", "gain_pct"]
    if not path.is_file():
        return pd.DataFrame(columns=cols)
    try:
        nb = json.loads(path.read_text())
    except (OSError, ValueError):
        return pd.DataFrame(columns=cols)
    rows = []
    for cell in nb.get("cells", []):
        for out in cell.get("outputs", []) or []:
            name = (out.get("metadata", {}).get("scrapbook", {}) or {}).get("name", "")
            if not name.startswith("tb_gain_"):
                continue
            data = out.get("data", {})
            text = data.get("application/papermill.record/text/plain", data.get("text/plain"))
            text = "".join(text) if isinstance(text, list) else text
            parts = name[len("tb_gain_"):].split("_")
            try:
                value = float(text)
                cc, d = parts[0], float(parts[-1])
            except (TypeError, ValueError):
                continue
            meaning = "_".join(parts[1:-1])
            if meaning in MEANINGS and math.isfinite(value):
                rows.append(dict(congestion=cc, meaning=meaning, delta_ms=d, gain_pct=value))
    return pd.DataFrame(rows, columns=cols)


__all__ = ["SEGMENT_BYTES", "DURATION_S", "MEANINGS", "MEANING_LABELS", "RATE_BPS", "BASE_RTT_S", "QUEUE_PACKETS", "MIN_RTO_S", "SEND_BUFFER_BYTES",
           "UNBOUNDED_SSTHRESH_BYTES", "NS3_DEFAULT_BUFFER_BYTES", "BASE_SETUP", "SETUPS", "VARIANTS",
           "PAPER_VARIANT", "COLOURS", "setup", "seeds_for", "path_rtts_s", "scenario", "cases", "run", "ROW_COLUMNS",
           "ROW_MEANS", "gains",
           "gain_of", "closer_reading", "same_gains", "max_ooo_buffer_bytes", "sensitivity_table", "comparison",
           "kernel_gains_from_chapter", "MODEL_COLUMN", "CMTLAB_COLUMN", "PRESET_COLUMN", "KERNEL_COLUMN",
           "PRESET_SETUP", "model_gain_of", "VARIANT_TAGS", "SETUP_TAGS", "MODEL_SEGMENT_BYTES", "STORY_COLUMNS",
           "chapter_runs", "base_table", "table1_glue", "model_table", "story_table", "model_max_ooo_bytes",
           "model_glue", "sensitivity_glue", "max_occ_base_bytes", "prose_glue"]
