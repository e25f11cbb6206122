"""The table of the Linux-MPTCP chapter: today's kernel against Alheid et al.'s Table I (sec. IV.A, Linux column).

Works on what the chapter measured — the kernel's gains per (congestion control, reading of Δ, Δ)
from :func:`cmtlab.validation.kernel_sim.kernel_gains`, the simulator's gains configured like the kernel, the
agreement between the two and the delay line's calibration — and never drives the kernel.  The
rows are checks, not paper claims: Table I's claim is decided once, on the papers' simulator, in the Table I
chapter; here today's kernel (Reno; CUBIC and the simulator in the note) is held against the Linux column with
the book's measured-number band on the 95 % CI over the repetitions — the "today" column of that claim.  The
simulator's agreement with the kernel and the delay line's precision are checks of this book too.
"""

from __future__ import annotations


import numpy as np
import pandas as pd

from ..papers.alheid.paper import PAPER_LINUX_GAIN_PCT  # Table I, Linux column (gain %, by Δ in ms), their ref. [18]
from ..papers.alheid.paper import QUOTE_TABLE1 as PAPER_QUOTE_TABLE1  # noqa: F401  (QUOTE_TABLE1, kept for readers)
from ..report import MEASURED, Comparison, fmt_number
from ..stats import half_width

#: Alheid et al., sec. IV.A, quoted with the reference that the Linux column comes from (the sentence of
#: :data:`cmtlab.papers.alheid.paper.QUOTE_TABLE1` with its opening words).
QUOTE_TABLE1 = "In [18], the results show that " + PAPER_QUOTE_TABLE1
#: Checks of this book: simulator vs kernel (pp), delay line precision.
AGREEMENT_PP = 5.0
PING_P99_MS = 1.0
RATE_ERROR_PCT = 2.0
READINGS = {"rtt": "Δ as RTT difference", "one_way": "Δ as one-way difference"}
#: The Table I rows of this chapter: today's kernel against the Linux column of Table I, a check (the TODAY column
#: of Alheid's Table I claim, ``cmtlab.papers.alheid.paper.CLAIMS["sec4a.ns3-close-to-linux"]``, decided once, on
#: the papers' simulator, in ``alheid-table1-mptcp-gain``; the Linux column is a citation of Barré [18]).
TODAY_CHECK = "today's kernel against Table I's Linux column"
TODAY_RULE = ("the measured-number band on the 95 % CI over the runs: within ±10 % → met; partly, not reproduced "
              "or undecided → not met")


def _row(gains: pd.DataFrame | None, cc: str, meaning: str, delta_ms) -> pd.Series | None:
    if gains is None:
        return None
    s = gains[(gains.congestion == cc) & (gains.meaning == meaning) & (gains.delta_ms == delta_ms)]
    return None if s.empty else s.iloc[0]


def gain_ci(row: pd.Series | None) -> tuple:
    """Mean gain (%), its 95 % CI over the repetitions (:func:`cmtlab.stats.half_width` of ``gain_std_pct`` and
    ``n``) and n.  One repetition or no ``gain_std_pct``: the interval is (nan, nan)."""
    if row is None:
        return float("nan"), (float("nan"), float("nan")), 0
    m = float(row["gain_pct"])
    n = int(row["n"]) if "n" in row and np.isfinite(row["n"]) else 1
    sd = float(row["gain_std_pct"]) if "gain_std_pct" in row else float("nan")
    h = half_width(sd, n)
    return m, (m - h, m + h), n


def _cell(row) -> str:
    m, ci, n = gain_ci(row)
    if row is None or not np.isfinite(m):
        return "not run"
    s = f"{fmt_number(m, '.0f')} %"
    if np.isfinite(ci[0]):
        s += f" (95 % CI {fmt_number(ci[0], '.0f')} to {fmt_number(ci[1], '.0f')}, {n} runs)"
    verdict = MEASURED.verdict(PAPER_LINUX_GAIN_PCT.get(int(row["delta_ms"]), float("nan")), m, ci=ci, n_seeds=n)
    return f"{s}: {verdict.replace(' seeds', ' runs')}"


def comparison(g: pd.DataFrame, *, deltas_ms, meanings, setup: dict, sim_g: pd.DataFrame | None = None,
               sim_label: str = "cmtlab.sim like the kernel", agree: pd.DataFrame | None = None,
               calibration: dict | None = None, primary: str = "reno", live: dict | None = None) -> Comparison:
    """The chapter's table.

    ``g``: the kernel's gains (columns ``congestion``, ``meaning``, ``delta_ms``, ``gain_pct``, and for
    several repetitions ``n``, ``gain_std_pct``); ``sim_g``: the simulator's gains (same layout, Reno);
    ``agree``: :func:`cmtlab.validation.kernel_sim.agreement` (``delta_ms``, ``meaning``, ``diff_pp``,
    ``goodput_ratio``); ``calibration``: ``ping_median_ms``, ``ping_p99_ms``, ``ping_max_ms``,
    ``rate_error_max_pct``, ``max_rate_mbps``; ``setup``: ``rate_mbps``, ``base_one_way_ms``,
    ``queue_packets``, ``duration_s``, ``warmup_s``, ``repetitions`` (and optionally ``source``: where the kernel
    runs come from, e.g. "recorded on kernel …"); ``live``: :func:`cmtlab.testbed.recorded.live_summary` of the live
    runs re-run beside the recorded ones (a check of this book, never a verdict's input).
    """
    t = Comparison()
    set_up = (f"2 × {setup['rate_mbps']:g} Mbit/s, best path {2 * setup['base_one_way_ms']:g} ms RTT, "
              f"{setup['queue_packets']} packet queues, {setup['duration_s']:g} s runs ({setup['warmup_s']:g} s "
              f"warm-up), {setup['repetitions']} repetitions" + (f"; {setup['source']}" if setup.get("source") else ""))
    others = sorted(set(g.congestion) - {primary})
    for d in deltas_ms:
        for meaning in meanings:
            if d == 0 and meaning != meanings[0]:
                continue
            paper = PAPER_LINUX_GAIN_PCT.get(int(d))
            if paper is None:
                continue
            label = "" if d == 0 else f" ({READINGS.get(meaning, meaning)})"
            check = f"{TODAY_CHECK}: MPTCP gain over best-path TCP, Δ = {d:g} ms{label}"
            beside = [f"kernel {cc.upper() if cc == 'cubic' else cc} {_cell(_row(g, cc, meaning, d))}" for cc in others]
            if sim_g is not None:
                beside.append(f"{sim_label} {_cell(_row(sim_g, 'reno', meaning, d))}")
            row = _row(g, primary, meaning, d)
            target = f"{paper:g} % (Table I's Linux column, Barré [18])"
            if row is None:
                t.add_check(check, target=target, ours=f"not run (needs kernel {primary}, Δ = {d:g} ms)", holds=False,
                            rule=TODAY_RULE, note="; ".join(beside))
                continue
            m, ci, n = gain_ci(row)
            verdict = MEASURED.verdict(paper, m, ci=ci, n_seeds=n).replace(" seeds", " runs")
            ours = f"{fmt_number(m, '.0f')} %"
            if np.isfinite(ci[0]):
                ours += f" (95 % CI {fmt_number(ci[0], '.0f')} to {fmt_number(ci[1], '.0f')}, {n} runs)"
            t.add_check(check, target=target, ours=f"{ours}: {verdict}", holds=verdict == "reproduced", rule=TODAY_RULE,
                        note="; ".join([f"kernel {primary.capitalize()}, range {row.get('gain_min_pct', m):.0f} to "
                                        f"{row.get('gain_max_pct', m):.0f} %", *beside, set_up]))
    if agree is not None and len(agree):
        near = agree[agree.delta_ms <= 100]
        far = agree[agree.delta_ms > 100]
        if len(near):
            worst = float(near.diff_pp.abs().max())
            t.add_check("cmtlab.sim configured like the kernel agrees with the kernel (Reno) for Δ ≤ 100 ms",
                        target=f"within {AGREEMENT_PP:g} pp (this book's target)",
                        ours=f"max |simulator − kernel| {worst:.1f} pp, goodput ratio "
                             f"{near.goodput_ratio.min():.3f}–{near.goodput_ratio.max():.3f}",
                        holds=worst <= AGREEMENT_PP, rule=f"max |difference| ≤ {AGREEMENT_PP:g} pp → met")
        if len(far):
            worst = float(far.diff_pp.abs().max())
            t.add_check("… and at Δ = 500 ms", target=f"within {AGREEMENT_PP:g} pp (this book's target)",
                        ours="; ".join(f"{'RTT' if r.meaning == 'rtt' else 'one-way'}: {r.diff_pp:+.0f} pp "
                                       f"(ratio {r.goodput_ratio:.2f})" for r in far.itertuples()),
                        holds=worst <= AGREEMENT_PP, rule=f"max |difference| ≤ {AGREEMENT_PP:g} pp → met",
                        note="the long path sees a few round trips per run: one loss episode moves the gain by tens "
                             "of pp; the one-way case needs a connection-level buffer limit of a few MiB in the "
                             "simulator to turn negative as on the kernel (see the hypotheses table).")
    if live is not None:
        outside = f"; outside: {live['disagree']}" if live["disagree"] else ""
        t.add_check("live kernel runs on this machine agree with the recorded runs of the same cells",
                    target="each live goodput inside its band (this book's rule)",
                    ours=f"{live['agree']} of {live['runs']} inside{outside}",
                    holds=live["holds"], rule=f"{live['rule']}: all inside → met",
                    note="the verdicts above come from the recorded runs; a live run outside its band is a finding "
                         "about this machine or kernel, shown, not hidden")
    if calibration is not None:
        c = calibration
        t.add_check(f"delay line precision: ping RTT error < {PING_P99_MS:g} ms (99 % of echoes), TCP goodput within "
                    f"{RATE_ERROR_PCT:g} % up to {c['max_rate_mbps']:g} Mbit/s", target="the delay line's precision contract",
                    ours=f"median {c['ping_median_ms']:.2f} ms, 99th pct {c['ping_p99_ms']:.2f} ms, max "
                         f"{c['ping_max_ms']:.2f} ms; worst rate error {c['rate_error_max_pct']:.2f} %",
                    holds=c["ping_p99_ms"] < PING_P99_MS and c["rate_error_max_pct"] < RATE_ERROR_PCT,
                    rule=f"99th percentile < {PING_P99_MS:g} ms and worst rate error < {RATE_ERROR_PCT:g} % → met")
    return t


__all__ = ["QUOTE_TABLE1", "TODAY_CHECK", "TODAY_RULE", "AGREEMENT_PP", "PING_P99_MS", "RATE_ERROR_PCT", "gain_ci",
           "comparison"]
