"""Tables of the Arabi chapter and its paper-vs-reproduction comparison (Arabi et al., secs. 4–6).

The claims are those of the paper's registry (:data:`cmtlab.papers.arabi.paper.CLAIMS`), each decided by one
function of this module (``decide_<claim>``) on one *source* — a :class:`Source`: the runs of one simulator
or setting, the value per run of a scenario × congestion control × algorithm.  The papers' simulator decides
(:data:`~cmtlab.papers.arabi.papers_sim.PAPERS_SIM`: the model's logged global throughput, ``variateDelay``
off, F_RTO over the clock design of ``arabi-frto``); the same functions on the other sources give the
reference columns beside it, never counted: the model's goodput and its runs with ``variateDelay`` on, the
calibrated preset ``chihani_ns3``, RFC behaviour (:data:`cmtlab.report.claims.RFC_COLUMN`) and today's stack
(:data:`cmtlab.report.claims.TODAY_COLUMN`).

* :func:`sources` — the chapter's sources from its runs (:mod:`cmtlab.papers.arabi.sources`);
  :func:`comparison` — the table (:class:`ArabiComparison`); :func:`chapter_facts` — every number and
  sentence the chapter's prose shows (one dict); :func:`chapter_tables` — the summaries its tables read
  (:mod:`cmtlab.papers.arabi.tables`);
* :func:`explain_disagreements` — why the calibrated preset decides a claim otherwise.

A papermill re-run with a subset of the grid gets the same table: a claim (or case) whose runs a source
lacks gets the verdict :data:`cmtlab.report.NOT_ASSESSED` with what it needs, never a guess.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ...report import (BY_CONSTRUCTION, NO_CHANGE, NOT_ASSESSED, SAME, UNDECIDED, Comparison,
                       Threshold, trend_rule)
from ...report.verdicts import cases_verdict, share_rule
from .experiments import CC_LABELS, RO_LABELS, claims
from .paper import CLAIMS, EIFEL_CLAIM_CONGESTION, FIG8, FIG9, PAPER, PAPER_CONGESTION, REORDERING
from .papers_sim import (MISS_REASONS, PAPERS_SIM, PAPERS_SIM_GOODPUT, PAPERS_SIM_VARIATE,
                         TOLERANCE)
from .sources import (NOT_RUN, TODAY, Estimate, Source, column_title, model_source, preset_source,
                      source_label, today_source)
from .tables import _select, mean_of

#: What every F-RTO row says: the paper's mechanism is not in the simulator it ran.
FRTO_ABSENT = ("the paper's F-RTO (RFC 5682: detect a spurious timeout from the two ACKs after it) is absent "
               "from its simulator: the model's F_RTO discards ACKs with a probability read from the wall clock "
               "and never detects a spurious retransmission (errata page); its values are means over clock values")



# ---------------------------------------------------------------------------------------- the claims, one function each

def _cell(sid: int, cc: str, ro: str) -> tuple:
    return (sid, cc, ro)


def _skip(t: Comparison, claim, s: Source, cells, *, case: str = "", paper: str = "") -> bool:
    """Add the row "not assessed" for ``claim`` (or its ``case``) when ``s`` lacks a cell of ``cells``."""
    reason = s.missing(*cells)
    if reason:
        t.add_not_assessed(claim, paper=paper or claim.target, reason=reason, case=case)
        return True
    return False


def _mbit(e: Estimate) -> str:
    return f"{e.value / 1e6:.2f}"


def _frto_note(s: Source) -> str:
    return FRTO_ABSENT if s.name in (PAPERS_SIM, PAPERS_SIM_GOODPUT, PAPERS_SIM_VARIATE) else \
        "F-RTO here is this source's own response (not the model's F_RTO)"


def _trend(t: Comparison, claim, s: Source, e: Estimate, *, statistic: str, direction: str, ours: str, case: str,
           paper: str, note: str = "", rule: Threshold | None = None) -> str:
    rule = rule or trend_rule(statistic, direction)
    return t.add_threshold(claim, rule=rule, value=e.value, ci=e.ci, n_seeds=e.n, n_unit=s.n_unit,
                           ours=ours, paper=paper, note=note, case=case)


#: "Not above no algorithm" (sec. 5's "do not improve"; sec. 6's "only"): a gain within the no-change band.
NO_GAIN = Threshold("ratio to no algorithm", "<=", 1 + NO_CHANGE, "a change within ± 5 % is no change (policy)")


def decide_setup(t: Comparison, s: Source, claim_id: str) -> None:
    """Sec. 4's scenarios: the runs use the paper's links as stated (by construction)."""
    from .paper import SCENARIOS

    claim = CLAIMS[claim_id]
    sid = 1 if claim_id.endswith("1") else 2
    sc = SCENARIOS[sid]
    links = ", ".join(f"{r / 1e6:g} Mbit/s / {1e3 * d:g} ms" for r, d in zip(sc["rates_bps"], sc["one_way_delays_s"]))
    t.add_input(claim, paper=claim.target, ours=f"point-to-point links {links} (one-way delays, as the Delay of "
                                                "ns-3's channel)")


def decide_fig8_dsack(t: Comparison, s: Source) -> None:
    """Sec. 5, Fig. 8: under LIA, DSACK's throughput "stays the same" — against uncoupled congestion control
    (the declared reading, :data:`~cmtlab.papers.arabi.paper.FIG8_READING`), the other reading (against no
    algorithm under LIA) in the row's reference column."""
    claim = CLAIMS["fig8.lia-dsack-same"]
    sid, lia = FIG8
    a, b, none = _cell(sid, lia, "dsack"), _cell(sid, "uncoupled", "dsack"), _cell(sid, lia, "none")
    if _skip(t, claim, s, (a, b, none)):
        return
    r, alt = s.ratio(a, b), s.ratio(a, none)
    alt_verdict = SAME.verdict(1.0, alt.value, ci=alt.ci, n_seeds=alt.n)
    t.add_value(claim, paper=1.0, paper_text="the same (ratio 1)", ours=r.value, band=SAME, fmt=".2f", ci=r.ci,
                n_seeds=r.n, n_unit=s.n_unit,
                note=f"DSACK under LIA {_mbit(s.mean(a))} vs uncoupled {_mbit(s.mean(b))} Mbit/s (scenario 1)",
                references={OTHER_READING: f"DSACK / no algorithm under LIA = {alt.value:.2f} → {alt_verdict}"})


def _fig8_cases(s: Source, against: str) -> list:
    """The three cases of the second Fig. 8 sentence: ``(case, statistic, Estimate, rule kind)`` against
    ``"uncoupled"`` (the declared reading) or ``"none"`` (each algorithm against no algorithm under LIA)."""
    sid, lia = FIG8
    out = []
    for ro, case in (("eifel", "Eifel decreases"), ("frto", "F-RTO decreases")):
        base = _cell(sid, "uncoupled", ro) if against == "uncoupled" else _cell(sid, lia, "none")
        what = "uncoupled" if against == "uncoupled" else "no algorithm"
        out.append((case, f"{RO_LABELS[ro]} under LIA / {what}", _cell(sid, lia, ro), base, "lower"))
    out.append(("no algorithm: LIA the same as uncoupled", "no algorithm, LIA / uncoupled", _cell(sid, lia, "none"),
                _cell(sid, "uncoupled", "none"), "same"))
    return out


def _case_verdict(s: Source, e: Estimate, kind: str) -> str:
    if kind == "same":
        return SAME.verdict(1.0, e.value, ci=e.ci, n_seeds=e.n)
    if kind == "no gain":
        return NO_GAIN.verdict(e.value, ci=e.ci, n_seeds=e.n)
    return trend_rule("ratio", kind).verdict(e.value, ci=e.ci, n_seeds=e.n)


def decide_fig8_decrease(t: Comparison, s: Source) -> None:
    """Sec. 5, Fig. 8: Eifel's and F-RTO's throughput "is decreased" and no algorithm's "remains the same as
    when using uncoupled" — three cases, each against uncoupled (declared reading); the other reading's
    verdicts in the reference column."""
    claim = CLAIMS["fig8.lia-eifel-frto-decrease"]
    mine, other = _fig8_cases(s, "uncoupled"), _fig8_cases(s, "none")
    alt_verdicts, said = [], []
    for (case, stat, a, b, kind), (_, alt_stat, aa, ab, alt_kind) in zip(mine, other):
        if _skip(t, claim, s, (a, b, aa, ab), case=case):
            alt_verdicts.append(NOT_ASSESSED)
            continue
        r, alt = s.ratio(a, b), s.ratio(aa, ab)
        det = _frto_detections(s, [a]) if a[2] == "frto" else None
        if det is not None and det[0] == 0:   # "is decreased when they detect a spurious retransmission": never
            alt_verdicts.append(NOT_ASSESSED)
            said.append(f"{stat} {r.value:.2f} (no detection)")
            t.add_premise_absent(claim, case=case, paper="lower after a detection",
                                 premise=f"0 spurious-retransmission detections in {det[1]} F-RTO runs under LIA",
                                 ours=f"{stat} {r.value:.2f}; {alt_stat} {alt.value:.2f}", note=_frto_note(s))
            continue
        alt_v = _case_verdict(s, alt, alt_kind)
        alt_verdicts.append(alt_v)
        said.append(f"{stat} {r.value:.2f}")
        refs = {OTHER_READING: f"{alt_stat} = {alt.value:.2f} → {alt_v}"}
        note = _frto_note(s) if a[2] == "frto" else ""
        if kind == "same":
            t.add_value(claim, case=case, paper=1.0, paper_text="the same (ratio 1)", ours=r.value, band=SAME,
                        fmt=".2f", ci=r.ci, n_seeds=r.n, n_unit=s.n_unit, references=refs, note=note)
        else:
            t.add_threshold(claim, case=case, rule=trend_rule(stat, "lower"), value=r.value, ci=r.ci, n_seeds=r.n,
                            n_unit=s.n_unit, ours=f"{r.value:.2f}", paper="lower", references=refs, note=note)
    verdict, text = cases_verdict(alt_verdicts)
    t.add_cases(claim, summary="; ".join(said),
                references={OTHER_READING: f"each against no algorithm under LIA: {text} → {verdict}"})


def decide_fig9(t: Comparison, s: Source) -> None:
    """Sec. 5, Fig. 9 (scenario 2, uncoupled): the throughput is higher than in Fig. 8, DSACK is the best
    algorithm at about 10 Mbit/s, F-RTO and Eifel are "40 less" than no algorithm (read as −40 %)."""
    claim = CLAIMS["fig9.s2-uncoupled"]
    sid, cc = FIG9
    f8 = FIG8
    cells = {ro: _cell(sid, cc, ro) for ro in REORDERING}
    said = []
    case = "throughput higher than in Fig. 8"
    if not _skip(t, claim, s, [*cells.values(), *(_cell(*f8, ro) for ro in REORDERING)], case=case):
        rs = {ro: s.ratio(cells[ro], _cell(*f8, ro)) for ro in REORDERING}
        low = min(rs, key=lambda ro: rs[ro].value)
        e = Estimate(rs[low].value, (min(r.low for r in rs.values()), min(r.high for r in rs.values())),
                     max((r.n or 0) for r in rs.values()) or None) if any(r.ci for r in rs.values()) else rs[low]
        _trend(t, claim, s, e, statistic="smallest ratio Fig. 9 / Fig. 8 over the four algorithms", direction="higher",
               ours=f"{e.value:.2f} ({RO_LABELS[low]}); " + ", ".join(f"{RO_LABELS[ro]} {r.value:.2f}"
                                                                     for ro, r in rs.items()),
               case=case, paper="higher")
    case = "DSACK the best algorithm"
    if not _skip(t, claim, s, cells.values(), case=case):
        others = [ro for ro in REORDERING if ro != "dsack"]
        top = max(others, key=lambda ro: s.mean(cells[ro]).value)
        r = s.ratio(cells["dsack"], cells[top])
        said.append(f"best DSACK ({_mbit(s.mean(cells['dsack']))} Mbit/s)" if r.value > 1 else
                    f"DSACK ties {RO_LABELS[top]} ({_mbit(s.mean(cells[top]))} Mbit/s)" if r.value == 1 else
                    f"best {RO_LABELS[top]} ({_mbit(s.mean(cells[top]))} Mbit/s)")
        t.add_threshold(claim, case=case, rule=BEST_RULE, value=r.value, ci=r.ci, n_seeds=r.n, n_unit=s.n_unit,
                        ours=f"DSACK {_mbit(s.mean(cells['dsack']))}, best other {RO_LABELS[top]} "
                             f"{_mbit(s.mean(cells[top]))} Mbit/s: ratio {r.value:.2f}", paper="DSACK best")
    case = "DSACK about 10 Mbit/s"
    if not _skip(t, claim, s, [cells["dsack"]], case=case):
        e = s.mean(cells["dsack"]).scaled(1e-6)
        t.add_value(claim, case=case, paper=PAPER["best_s2"][2] / 1e6, paper_text="about 10 Mbit/s", ours=e.value,
                    unit="Mbit/s", fmt=".2f", ci=e.ci, n_seeds=e.n, n_unit=s.n_unit, note=f"{s.quantity}")
    for ro, case in (("frto", "F-RTO 40 % less than no algorithm"), ("eifel", "Eifel 40 % less than no algorithm")):
        if _skip(t, claim, s, (cells[ro], cells["none"]), case=case):
            continue
        e = s.ratio(cells[ro], cells["none"]).scaled(100.0, -100.0)
        said.append(f"{RO_LABELS[ro]} {e.value:+.0f} %")
        t.add_value(claim, case=case, paper=100 * PAPER["frto_eifel_vs_none_s2"], paper_text="“40 less” (read: −40 %)",
                    ours=e.value, unit="%", fmt=".0f", ci=e.ci, n_seeds=e.n, n_unit=s.n_unit,
                    note=(_frto_note(s) + "; " if ro == "frto" else "") + f"{s.quantity}: {RO_LABELS[ro]} "
                         f"{_mbit(s.mean(cells[ro]))} vs none {_mbit(s.mean(cells['none']))} Mbit/s")
    t.add_cases(claim, summary=", ".join(said) + (" against no algorithm" if any("%" in x for x in said) else ""))


#: "The best": above every other (ratio to the best of the others > 1); a tie, or less than 5 % below the best
#: other, partly (the policy's no-change band).
BEST_RULE = Threshold("ratio to the best of the others", ">", 1.0,
                      "the best: above every other; a tie or within 5 % below the best other partly (the policy's "
                      "no-change band)", partly=1 - NO_CHANGE)


def decide_fig9_no_improvement(t: Comparison, s: Source) -> None:
    """Sec. 5: "As a result both the Eifel and FRTO do not improve the performance" — scenario 2, uncoupled,
    each against no algorithm, within the no-change band or below."""
    claim = CLAIMS["fig9.eifel-frto-no-improvement"]
    sid, cc = FIG9
    said = []
    for ro, case in (("eifel", "Eifel"), ("frto", "F-RTO")):
        a, b = _cell(sid, cc, ro), _cell(sid, cc, "none")
        if _skip(t, claim, s, (a, b), case=case):
            continue
        r = s.ratio(a, b)
        said.append(f"{RO_LABELS[ro]} {r.value:.2f}")
        t.add_threshold(claim, case=case, rule=NO_GAIN, value=r.value, ci=r.ci, n_seeds=r.n, n_unit=s.n_unit,
                        ours=f"{RO_LABELS[ro]} / none = {r.value:.2f}", paper="not above none",
                        note=_frto_note(s) if ro == "frto" else "")
    t.add_cases(claim, summary=(", ".join(said) + " × no algorithm") if said else "")


def _rank_bounds(s: Source, cells, target) -> tuple[int, tuple[int, int] | None]:
    """``(rank, (best, worst))`` of ``target`` among ``cells`` by mean (1 = highest; ties share the lower
    rank) and the ranks its 95 % intervals allow (None where no cell has an interval): above it for sure are
    the cells whose interval lies above its interval, possibly those whose interval reaches above its lower
    end."""
    me = s.mean(target)
    others = [s.mean(c) for c in cells if tuple(c) != tuple(target)]
    rank = 1 + sum(o.value > me.value for o in others)
    if me.ci is None and all(o.ci is None for o in others):
        return rank, None
    return rank, (1 + sum(o.low > me.high for o in others), 1 + sum(o.high > me.low for o in others))


def decide_rank(t: Comparison, s: Source) -> None:
    """Sec. 6: DSACK + RTT compensation gives "a good results but is not the best" in scenario 1 — two cases:
    good (rank ≤ 4 of the 16 combinations, the best quarter; the upper half partly) and not the best (rank ≥
    2); ties share the lower rank, and the ranks its interval allows decide with it."""
    claim = CLAIMS["sec6.dsack-rttc-good-not-best"]
    cells = [_cell(1, cc, ro) for cc in PAPER_CONGESTION for ro in REORDERING]
    target = _cell(1, "rtt_compensation", "dsack")
    if _skip(t, claim, s, cells):
        return
    rank, bounds = _rank_bounds(s, cells, target)
    if bounds == (rank, rank):
        bounds = None                    # the intervals allow no other rank
    n = len(cells)
    ties = [c for c in cells if c != target and s.mean(c).value == s.mean(target).value]
    tie = ("; ties " + ", ".join(f"{RO_LABELS[c[2]]} + {CC_LABELS[c[1]]}" for c in ties)
           + " (identical runs)" if ties else "")
    ours = f"rank {rank} of {n}" + (f" (its interval allows {bounds[0]}–{bounds[1]})" if bounds else "") + tie
    good = Threshold(f"rank among the {n} (1 = best)", "<=", n // 4, "good: the best quarter; the upper half partly",
                     partly=n // 2)
    t.add_threshold(claim, case=claim.cases[0], rule=good, value=rank, ci=bounds, n_seeds=None, ours=ours,
                    paper="good")
    t.add_threshold(claim, case=claim.cases[1], rule=Threshold(f"rank among the {n}", ">=", 2, "not rank 1"),
                    value=rank, ci=bounds, n_seeds=None, ours=ours, paper="not the best")
    t.add_cases(claim, summary=f"rank {rank} of {n}" + tie)


def decide_eifel(t: Comparison, s: Source) -> None:
    """Sec. 6: Eifel improves "only when using two subflows with uncoupled, linked increases and RTT
    compensation" — per congestion control: a gain beyond the no-change band in scenario 1 with each of the
    three, and none ("only") with fully coupled in scenario 1 nor with any in scenario 2."""
    claim = CLAIMS["sec6.eifel-two-subflows-only"]
    cases = iter(claim.cases)
    plan = [(1, cc, "higher") for cc in EIFEL_CLAIM_CONGESTION] + [(1, "fully_coupled", "no gain")] + \
           [(2, cc, "no gain") for cc in PAPER_CONGESTION]
    gains = []
    for sid, cc, kind in plan:
        case = next(cases)
        a, b = _cell(sid, cc, "eifel"), _cell(sid, cc, "none")
        if _skip(t, claim, s, (a, b), case=case):
            continue
        r = s.ratio(a, b)
        ours = f"Eifel / none = {r.value:.2f} ({100 * (r.value - 1):+.1f} %)"
        if sid == 1:
            gains.append(f"{CC_LABELS[cc]} {100 * (r.value - 1):+.1f} %")
        if kind == "higher":
            _trend(t, claim, s, r, statistic="Eifel / no algorithm", direction="higher", ours=ours, case=case,
                   paper="gain")
        else:
            t.add_threshold(claim, case=case, rule=NO_GAIN, value=r.value, ci=r.ci, n_seeds=r.n, n_unit=s.n_unit,
                            ours=ours, paper="no gain")
    t.add_cases(claim, summary=("Eifel's gain with two subflows: " + ", ".join(gains)) if gains else "")


def decide_best_s2(t: Comparison, s: Source) -> None:
    """Sec. 6: in scenario 2 the best throughput is DSACK with uncoupled, about 10 Mbit/s — the best of the 16
    combinations (a tie within the no-change band: partly), and its throughput."""
    claim = CLAIMS["sec6.best-s2-dsack-uncoupled"]
    cc0, ro0, level = PAPER["best_s2"]
    cells = [_cell(2, cc, ro) for cc in PAPER_CONGESTION for ro in REORDERING]
    target = _cell(2, cc0, ro0)
    said = []
    case = claim.cases[0]
    if not _skip(t, claim, s, cells, case=case):
        others = [c for c in cells if c != target]
        top = max(others, key=lambda c: s.mean(c).value)
        r = s.ratio(target, top)
        best = max(cells, key=lambda c: s.mean(c).value)
        said.append(f"best {RO_LABELS[best[2]]} + {CC_LABELS[best[1]]} at {_mbit(s.mean(best))} Mbit/s")
        t.add_threshold(claim, case=case, rule=BEST_RULE, value=r.value, ci=r.ci, n_seeds=r.n, n_unit=s.n_unit,
                        ours=f"best: {RO_LABELS[best[2]]} + {CC_LABELS[best[1]]} {_mbit(s.mean(best))} Mbit/s; "
                             f"DSACK + uncoupled / best other ({RO_LABELS[top[2]]} + {CC_LABELS[top[1]]}) = "
                             f"{r.value:.2f}", paper="DSACK + uncoupled")
    case = claim.cases[1]
    if not _skip(t, claim, s, [target], case=case):
        e = s.mean(target).scaled(1e-6)
        t.add_value(claim, case=case, paper=level / 1e6, paper_text="about 10 Mbit/s", ours=e.value, unit="Mbit/s",
                    fmt=".2f", ci=e.ci, n_seeds=e.n, n_unit=s.n_unit,
                    note=f"{s.quantity}; the run of Fig. 9's DSACK (sec. 5)")
        if not said or not said[0].startswith("best DSACK + uncoupled"):
            said.append(f"DSACK + uncoupled {_mbit(s.mean(target))} Mbit/s")
    t.add_cases(claim, summary="; ".join(said))


def decide_frto(t: Comparison, s: Source) -> None:
    """Sec. 6: F-RTO's throughput "increases exponentially in each scenario", and "when a spurious
    retransmission is detected it decreases and stays in the recovery state": slow start (the model's code:
    by construction), whether a detection happens at all, and per scenario × congestion control whether its
    throughput over the second half of the run stays below no algorithm's."""
    claim = CLAIMS["sec6.frto-drops-and-stays"]
    cases = iter(claim.cases)
    t.add_constructed(claim, case=next(cases), paper="increases exponentially",
                      ours="every source starts each subflow in slow start",
                      how="slow start is the model's code (cwnd + 1 segment per ACK below ssthresh, "
                          "mp-tcp-socket-impl.cc l. 2341–2343)")
    cells = [_cell(sid, cc, "frto") for sid in (1, 2) for cc in PAPER_CONGESTION]
    case = next(cases)
    present = [c for c in cells if s.has(c)]
    said, lows = [], []
    detections = _frto_detections(s, present)
    absent = detections is not None and detections[0] == 0       # the premise never occurs on this source
    if detections is None:
        t.add_not_assessed(claim, case=case, paper="detected", reason=s.missing(*cells) or
                           "this source does not count detections")
    else:
        total, n_runs = detections
        if absent:
            t.add_premise_absent(claim, case=case, paper="detected",
                                 premise=f"0 spurious-retransmission detections in {n_runs} F-RTO runs",
                                 ours="", note=_frto_note(s))
        else:
            t.add_threshold(claim, case=case, rule=Threshold("spurious retransmissions F-RTO detected, over its runs",
                                                             ">=", 1, "the claim's premise: a detection happens"),
                            value=total, ours=f"{total:.0f} in {n_runs} runs", paper="detected", note=_frto_note(s))
        said.append(f"{total:.0f} detections in {n_runs} runs")
    for sid in (1, 2):
        for cc in PAPER_CONGESTION:
            case = next(cases)
            a, b = _cell(sid, cc, "frto"), _cell(sid, cc, "none")
            if _skip(t, claim, s, (a, b), case=case):
                continue
            if s.runs.late_bps.isna().all():
                t.add_not_assessed(claim, case=case, paper="stays low", reason=s.missing(a, b) or
                                   "this source keeps no throughput over time")
                continue
            r = s.ratio(a, b, column="late_bps")
            lows.append(r.value)
            if absent:     # "when a spurious retransmission is detected it … stays": no detection, no evidence
                t.add_premise_absent(claim, case=case, paper="stays low after a detection",
                                     premise="no detection in any F-RTO run",
                                     ours=f"second half {r.value:.2f} × no algorithm's (the model's ACK discarding)",
                                     note=_frto_note(s))
                continue
            _trend(t, claim, s, r, statistic="F-RTO / no algorithm over the second half of each run",
                   direction="lower", ours=f"{r.value:.2f}", case=case, paper="stays low", note=_frto_note(s))
    if lows:
        said.append(f"second half {min(lows):.2f}–{max(lows):.2f} × no algorithm's"
                    + (" (not evidence: no detection)" if absent else ""))
    t.add_cases(claim, note=_frto_note(s) + ("; the sentence's premise (a detection) never occurs on this source, "
                                             "so it is not assessed here (verdict policy: a premise that never "
                                             "occurs)" if absent else ""), summary="; ".join(said))


def _frto_detections(s: Source, cells) -> tuple[float, int] | None:
    """``(detections, runs)`` of F-RTO over ``cells`` on ``s``, or None where the source lacks the runs or does
    not count detections."""
    if not cells or "spurious_detections" not in s.runs or s.runs.spurious_detections.isna().all():
        return None
    return s.total(cells, "spurious_detections"), sum(len(s.values(c)) for c in cells)


def decide_improve(t: Comparison, s: Source) -> None:
    """Sec. 6: the three algorithms "improve the performance of the connection" and none "is the optimal
    solution" — per algorithm, the share of the scenario × congestion-control combinations where it gains
    more than 5 % on no algorithm (all → reproduced, at least half → partly; the ranks its intervals allow
    decide with it); none is optimal: no algorithm is the best of the four in every combination."""
    claim = CLAIMS["sec6.improve-none-optimal"]
    combos = [(sid, cc) for sid in (1, 2) for cc in PAPER_CONGESTION
              if s.has(*(_cell(sid, cc, ro) for ro in REORDERING))]
    gain = trend_rule("ratio", "higher")
    said = []
    for ro, case in (("dsack", "DSACK improves"), ("eifel", "Eifel improves"), ("frto", "F-RTO improves")):
        if not combos:
            t.add_not_assessed(claim, case=case, paper="improves", reason=s.missing(
                *(_cell(sid, cc, r) for sid in (1, 2) for cc in PAPER_CONGESTION for r in ("none", ro))))
            continue
        rs = [s.ratio(_cell(sid, cc, ro), _cell(sid, cc, "none")) for sid, cc in combos]
        k = len(rs)
        point = sum(gain.point(r.value) != "not reproduced" for r in rs) / k
        lo = sum(gain.point(r.low) != "not reproduced" for r in rs) / k
        hi = sum(gain.point(r.high) != "not reproduced" for r in rs) / k
        gains = ", ".join(f"s{sid} {CC_LABELS[cc]} {100 * (r.value - 1):+.0f} %" for (sid, cc), r in zip(combos, rs))
        said.append(f"{RO_LABELS[ro]} gains in {point * k:.0f} of {k}")
        t.add_threshold(claim, case=case, rule=share_rule(f"share of the {k} scenario × congestion-control "
                                                          "combinations where it gains > 5 %"),
                        value=point, ci=(lo, hi) if (lo, hi) != (point, point) else None,
                        n_seeds=max((r.n or 0) for r in rs) or None, n_unit=s.n_unit,
                        ours=f"{point * k:.0f} of {k} ({gains})", paper="improves",
                        note=_frto_note(s) if ro == "frto" else "")
    case = "none is optimal"
    if not combos:
        t.add_not_assessed(claim, case=case, paper="none optimal", reason=s.missing(
            *(_cell(sid, cc, ro) for sid in (1, 2) for cc in PAPER_CONGESTION for ro in REORDERING)))
    else:
        best = [max(REORDERING, key=lambda ro: s.mean(_cell(sid, cc, ro)).value) for sid, cc in combos]
        wins = {ro: best.count(ro) for ro in ("dsack", "eifel", "frto")}
        top = max(wins, key=wins.get)
        t.add_threshold(claim, case=case, rule=Threshold("combinations where one algorithm is the best", "<",
                                                         len(combos), "optimal: the best in every combination"),
                        value=wins[top], ours=f"the most: {RO_LABELS[top]}, best in {wins[top]} of {len(combos)} "
                                              "(by the means)", paper="none optimal")
        said.append(f"{RO_LABELS[top]} the best in {wins[top]} of {len(combos)}")
    t.add_cases(claim, summary="; ".join(said))


#: The claims in the paper's order, each with the function that decides it on one source.
DECIDERS = {
    "sec4.scenario-1": lambda t, s: decide_setup(t, s, "sec4.scenario-1"),
    "sec4.scenario-2": lambda t, s: decide_setup(t, s, "sec4.scenario-2"),
    "fig8.lia-dsack-same": decide_fig8_dsack,
    "fig8.lia-eifel-frto-decrease": decide_fig8_decrease,
    "fig9.s2-uncoupled": decide_fig9,
    "fig9.eifel-frto-no-improvement": decide_fig9_no_improvement,
    "sec6.dsack-rttc-good-not-best": decide_rank,
    "sec6.eifel-two-subflows-only": decide_eifel,
    "sec6.best-s2-dsack-uncoupled": decide_best_s2,
    "sec6.frto-drops-and-stays": decide_frto,
    "sec6.improve-none-optimal": decide_improve,
}


def decide(s: Source) -> Comparison:
    """Every claim of the registry decided on ``s`` (its own table, the paper's order)."""
    if [c.id for c in CLAIMS] != list(DECIDERS):
        raise RuntimeError("DECIDERS must list the registry's claims in its order")
    t = Comparison(here_column=s.label)
    for fn in DECIDERS.values():
        fn(t, s)
    return t


# ---------------------------------------------------------------------------------------- the table

#: Short names of the sources in the "would decide differently" column.
SOURCE_SHORT = {PAPERS_SIM: "papers' simulator", PAPERS_SIM_GOODPUT: "its goodput",
                PAPERS_SIM_VARIATE: "variateDelay on", "chihani_ns3": "preset", "chihani": "old preset",
                "chihani_dupack": "dup-ACK preset", "rfc": "RFC", TODAY: "today"}
#: The column that names the references whose verdict differs from the deciding one.
DIFFERS = "a reference would decide differently"
#: The column of the other reading of a claim (:attr:`cmtlab.report.claims.Claim.reading`).
OTHER_READING = "the other reading"
#: The references of the chapter's table, in column order (those the sources hold).
REFERENCES = (PAPERS_SIM_GOODPUT, PAPERS_SIM_VARIATE, "chihani_ns3", "rfc", TODAY)


def _kind(verdict: str) -> str:
    """The verdict's kind: "undecided at 3 repetitions" and "undecided at 5 seeds" are both undecided."""
    return UNDECIDED if str(verdict).startswith(UNDECIDED) else str(verdict)


def _differ(a: str, b: str) -> bool:
    """Whether two verdicts decide differently (neither "not assessed"; undecided counts as one kind)."""
    return _kind(a) != _kind(b) and NOT_ASSESSED not in (a, b)


def sources(model: pd.DataFrame, presets: pd.DataFrame | None = None, today: pd.DataFrame | None = None, *,
            scenarios=(1, 2), congestion=PAPER_CONGESTION, reordering=REORDERING,
            preset_names=("chihani_ns3", "rfc")) -> dict:
    """The chapter's sources (name → :class:`Source`), deciding one first: the papers' simulator's runs
    ``model`` (:func:`cmtlab.papers.arabi.papers_sim.chapter_runs`) as its global throughput, goodput and
    ``variateDelay``-on runs; the ``presets``' runs (:func:`cmtlab.papers.arabi.experiments.run_cases`) of
    ``preset_names``; ``today`` (:func:`today_source`).  Every source keeps the chapter's ``scenarios``,
    ``congestion`` and ``reordering`` only (a papermill re-run with fewer gets "not assessed" rows)."""
    def keep(s: Source) -> Source:
        r = s.runs
        r = r[r.scenario.isin(list(scenarios)) & r.congestion.isin(list(congestion)) & r.reordering.isin(list(reordering))]
        return Source(s.name, s.label, r, deterministic=s.deterministic, n_unit=s.n_unit, scope=s.scope,
                      quantity=s.quantity)

    out = {name: keep(model_source(model, name)) for name in (PAPERS_SIM, PAPERS_SIM_GOODPUT, PAPERS_SIM_VARIATE)
           if (model.variate_delay == (name == PAPERS_SIM_VARIATE)).any()}
    if PAPERS_SIM not in out:
        raise ValueError("model must hold the papers' simulator's runs with variateDelay off (the deciding source)")
    for p in preset_names:
        if presets is not None and (presets.preset == p).any():
            out[p] = keep(preset_source(presets, p))
    if today is not None and len(today):
        out[TODAY] = keep(today_source(today))
    return out


@dataclass
class ArabiComparison:
    """The chapter's table (``table``: decided on ``decider``, one reference column per other source with the
    value and the verdict it would give, :data:`DIFFERS`, and :data:`OTHER_READING` where a claim has two
    readings) and every source's own table (``by_source``, the same rows in the same order)."""

    table: Comparison
    decider: str = PAPERS_SIM
    by_source: dict = field(default_factory=dict)

    def frame(self) -> pd.DataFrame:
        return self.table.to_frame()

    def verdicts(self, *, cases: bool = False) -> pd.DataFrame:
        """Row × source: the verdict every source gives (decider first); ``cases=True``: the case rows."""
        rows = [r for r in self.table.rows if r.counted != cases]
        data = {"claim": [r.claim for r in rows]}
        for src, t in self.by_source.items():
            index = {(r.key, r.case): r.verdict for r in t.rows}
            data[src] = [index.get((r.key, r.case), NOT_ASSESSED) for r in rows]
        return pd.DataFrame(data)

    def counts(self, source: str) -> dict:
        """The verdict counts ``source`` would give the claims (its own table's summary)."""
        if source not in self.by_source:
            raise ValueError(f"source must be one of {sorted(self.by_source)}, got {source!r}")
        return self.by_source[source].summary()

    def disagreements(self, other: str = "chihani_ns3") -> pd.DataFrame:
        """The claims on which ``other`` gives another verdict than the decider (neither "not assessed")."""
        if other not in self.by_source:
            raise ValueError(f"other must be one of the sources {sorted(self.by_source)}, got {other!r}")
        mine = self.by_source[self.decider]
        theirs = {(r.key, r.case): r for r in self.by_source[other].rows}
        rows = []
        for a in mine.rows:
            b = theirs.get((a.key, a.case))
            if a.counted and b is not None and _differ(a.verdict, b.verdict):
                rows.append({"claim": a.claim, "key": a.key, source_label(self.decider): a.here, "verdict": a.verdict,
                             source_label(other): b.here, f"verdict ({SOURCE_SHORT.get(other, other)})": b.verdict})
        return pd.DataFrame(rows, columns=["claim", "key", source_label(self.decider), "verdict", source_label(other),
                                           f"verdict ({SOURCE_SHORT.get(other, other)})"])

    def decision(self, claim_id: str):
        """The deciding table's :class:`cmtlab.report.claims.Decision` of one claim."""
        key = CLAIMS[claim_id].key
        for d in self.table.decisions():
            if d.claim == key:
                return d
        raise ValueError(f"claim {claim_id!r} is not decided in this table")

    def summary(self) -> dict:
        return self.table.summary()

    def style(self):
        return self.table.style()

    def show(self):
        """The claims table, the same claims on the references, the cases, the cases on the references."""
        from IPython.display import HTML, Markdown, display

        t = self.table
        refs = t.reference_columns()
        frame = t.to_frame()
        display(HTML(t.claims_html(frame.drop(columns=refs))))  # one line per claim, rows with their ids
        if refs:
            display(Markdown("**The same claims on the other references** (value → the verdict it would give; "
                             "shown, not counted):"))
            display(HTML(t._html(frame[["claim"] + refs], "references")))
        cases = t.to_frame(cases=True)
        if len(cases):
            display(Markdown("**The cases of the claims above** (each claim is decided over its cases by the "
                             "policy's rule for statements over cases; the cases are not counted):"))
            display(HTML(t._html(cases.drop(columns=[c for c in ("paper's words", "where", *refs) if c in cases]),
                                 "cases")))
            if refs:
                display(Markdown("**The cases on the other references** (not counted):"))
                display(HTML(t._html(cases[["claim"] + refs], "case-references")))

    def glue(self, prefix: str = "verdicts") -> dict:
        return self.table.glue(prefix)

    def consistency(self) -> str:
        return self.table.consistency()

    def summary_text(self) -> str:
        return self.table.summary_text()


def comparison(srcs: dict, *, decider: str = PAPERS_SIM, references=REFERENCES) -> ArabiComparison:
    """Paper (Arabi et al., secs. 4–6) vs the papers' simulator, every claim of the registry decided by its
    function of this module on ``decider``, the same functions on each source of ``references`` that
    ``srcs`` (:func:`sources`) holds giving a reference column ("value → verdict"), and :data:`DIFFERS`
    naming the references that would decide otherwise."""
    if decider not in srcs:
        raise ValueError(f"decider must be one of the sources {sorted(srcs)}, got {decider!r}")
    if isinstance(references, str):
        raise ValueError(f"references must be a sequence of source names, got {references!r}")
    refs = [r for r in references if r != decider and r in srcs]
    tables = {name: decide(srcs[name]) for name in (decider, *refs)}
    main = tables[decider]
    out = ArabiComparison(Comparison(here_column=srcs[decider].label), decider=decider, by_source=tables)
    index = {name: {(r.key, r.case): r for r in tables[name].rows} for name in refs}
    for row in main.rows:
        columns, differ = {}, []
        for name in refs:
            r = index[name].get((row.key, row.case))
            if r is None:
                continue
            columns[column_title(name)] = (r.here if r.verdict in (NOT_ASSESSED, BY_CONSTRUCTION)
                                           else f"{r.here} → {r.verdict}")
            if _differ(r.verdict, row.verdict):
                differ.append(f"{SOURCE_SHORT.get(name, name)}: {r.verdict}")
        if refs and row.verdict != BY_CONSTRUCTION:
            columns[DIFFERS] = "; ".join(differ) if differ else "no"
        columns.update({k: v for k, v in row.references.items() if k == OTHER_READING})
        out.table.rows.append(dataclasses.replace(row, references=columns))
    return out


# ---------------------------------------------------------------------------------------- why a reference differs

#: For each claim, the runs that show why two sources judge it differently: (scenario, congestion, algorithms).
CLAIM_CELLS = {
    "fig8.lia-dsack-same": (1, "lia", ("none", "dsack")),
    "fig8.lia-eifel-frto-decrease": (1, "lia", ("none", "eifel", "frto")),
    "fig9.s2-uncoupled": (2, "uncoupled", ("none", "dsack", "eifel", "frto")),
    "fig9.eifel-frto-no-improvement": (2, "uncoupled", ("none", "eifel", "frto")),
    "sec6.dsack-rttc-good-not-best": (1, "rtt_compensation", ("none", "dsack")),
    "sec6.eifel-two-subflows-only": (1, "uncoupled", ("none", "eifel")),
    "sec6.best-s2-dsack-uncoupled": (2, "uncoupled", ("none", "dsack", "eifel", "frto")),
    "sec6.frto-drops-and-stays": (2, "uncoupled", ("none", "frto")),
    "sec6.improve-none-optimal": (2, "uncoupled", ("none", "dsack", "eifel", "frto")),
}


def explain_disagreements(comparison: ArabiComparison, summary: pd.DataFrame, *, other: str = "chihani_ns3",
                          model: str = PAPERS_SIM_GOODPUT, setting: str = "main", reasons: bool | None = None) -> str:
    """Markdown: for every claim on which ``other`` (the preset) gives another verdict than the papers'
    simulator, both values and verdicts and, from the runs, why — the goodput of the preset against the
    model's (``model``: goodput, the quantity a preset computes) and the fast retransmits, timeouts and
    spurious events per run of the algorithms the claim compares (:data:`CLAIM_CELLS`), with the
    calibration's reason where the preset misses the model by more than 5 % (:data:`MISS_REASONS`;
    ``reasons`` — default: only for the calibrated preset ``chihani_ns3``).  "On no claim …" if none."""
    give_reasons = (other == "chihani_ns3") if reasons is None else bool(reasons)
    d = comparison.disagreements(other)
    if d.empty:
        return f"On no claim does the {source_label(other)} decide otherwise than the papers' simulator."
    s = _select(summary, scheduler="round_robin", setting=setting)
    out = []
    for row in d.itertuples(index=False):
        claim, key, here, verdict, there, v_other = row
        text = (f"* **{claim}** — papers' simulator: {here} (*{verdict}*); {source_label(other)}: {there} "
                f"(*{v_other}*).")
        case = CLAIM_CELLS.get(key.split(":", 1)[1])
        if case is not None:
            sid, cc, ros = case
            parts, why = [], []
            for r in ros:
                def one(src, col):
                    g = s[(s.preset == src) & (s.scenario == sid) & (s.congestion == cc) & (s.reordering == r)]
                    return float(g.iloc[0][col]) if len(g) and col in g.columns else float("nan")
                m, p = one(model, "mean_bps"), one(other, "mean_bps")
                if not (np.isfinite(m) and np.isfinite(p)):
                    continue
                parts.append(f"{RO_LABELS.get(r, r)}: goodput {p / 1e6:.2f} vs {m / 1e6:.2f} Mbit/s ({p / m - 1:+.0%}), "
                             f"fast retransmits {one(other, 'fast_retransmits'):.0f} vs {one(model, 'fast_retransmits'):.0f}, "
                             f"timeouts {one(other, 'timeouts'):.0f} vs {one(model, 'timeouts'):.0f}")
                if give_reasons and abs(p / m - 1) > TOLERANCE and r in MISS_REASONS:
                    why.append(f"{RO_LABELS.get(r, r)}: {MISS_REASONS[r]}")
            if parts:
                text += (f" In scenario {sid}, {CC_LABELS.get(cc, cc)} ({SOURCE_SHORT.get(other, other)} vs model, "
                         "per run): " + "; ".join(parts) + ".")
            if why:
                text += " Where the preset misses the model by more than 5 %: " + "; ".join(why) + "."
        out.append(text)
    return "\n".join(out)


# ---------------------------------------------------------------------------------------- the chapter's facts

def lia_rttc_coincidence(model: pd.DataFrame) -> dict:
    """Where the model's LIA and RTT compensation coincide: over the pairs of runs that differ only in
    those two congestion controls (scenario, algorithm, ``variateDelay``, seed), ``pairs``, ``identical`` (goodput
    and global throughput bit-identical) and ``differ`` (the pairs that are not, as labels).  The model's two
    differ only by the cap ``min(α / total, 1 / cwnd)`` of RTT compensation's increase
    (``mp-tcp-socket-impl.cc`` l. 2349–2360), which binds rarely."""
    keys = ["setting", "scenario", "reordering", "variate_delay", "seed"]
    cols = ["throughput_bps", "model_global_throughput_bps"]
    a = model[model.congestion == "lia"].set_index(keys)[cols]
    b = model[model.congestion == "rtt_compensation"].set_index(keys)[cols]
    both = a.add_suffix("_lia").join(b.add_suffix("_rttc"), how="inner")
    same = ((both.throughput_bps_lia == both.throughput_bps_rttc)
            & (both.model_global_throughput_bps_lia == both.model_global_throughput_bps_rttc))
    differ = [f"scenario {k[1]}, {RO_LABELS.get(k[2], k[2])}, variateDelay {'on' if k[3] else 'off'}"
              + (f", clock seed {k[4]}" if k[2] == "frto" else "") for k, v in same.items() if not v]
    return {"pairs": int(len(both)), "identical": int(same.sum()), "differ": differ}


def _glue_key(claim_id: str) -> str:
    return "arabi_finding_" + claim_id.replace(".", "_").replace("-", "_")


def chapter_facts(comparison: ArabiComparison, srcs: dict, model: pd.DataFrame, summary: pd.DataFrame, *,
                  model_r1: pd.DataFrame | None = None, sensitivity: pd.DataFrame | None = None) -> dict:
    """Every number and sentence the chapter's prose shows (glued by :func:`cmtlab.report.glue_all`, keys
    ``arabi_…``; Mbit/s unless the name says otherwise):

    * scenario 2, uncoupled, per algorithm: ``ps_<alg>`` (the model's global throughput), ``psg_<alg>``
      (goodput), ``psv_<alg>`` (``variateDelay`` on), ``pre_<alg>`` (calibrated preset), ``rfc_<alg>``,
      ``today_<alg>``; the model's counters there (``ps_fr_none``, ``ps_spurious_eifel``, ``ps_to_frto``,
      ``ps_fr_frto``) and the fastest algorithm with ``variateDelay`` on (``psv_best``);
    * F-RTO on the model: ``frto_clocks`` (clock values per case), ``frto_runs``, ``frto_detections`` (over
      every F_RTO run), ``frto_queue_drops`` and ``frto_loss_rate`` (its runs lose no packet at random), ``frto_excess_min``
      / ``_max`` (global throughput over goodput − 1, per run, scenario 2, uncoupled, off), ``frto40_<q>``,
      ``frto40_<q>_lo`` / ``_hi`` and ``frto40_<q>_verdict`` for q = ``global`` (deciding) and ``goodput``;
    * ``lia_rttc_identical`` of ``lia_rttc_pairs`` (the chapter's runs) and ``r1_lia_rttc_identical`` of
      ``r1_lia_rttc_pairs`` (the record set ``arabi-r1``, ``model_r1``);
    * ``n_differ_<ref>`` (claims a reference decides otherwise), ``<ref>_reproduced`` / ``_partly`` /
      ``_not_reproduced`` / ``_undecided`` (its counts) for the goodput and ``variateDelay``-on columns;
    * ``best`` (the model's best combination in scenario 2, its label) and ``ps_dsack`` for the intro;
    * ``old_none`` (the old imitation without loss, from ``sensitivity``); ``finding_<claim>``: each claim's
      finding sentence (:func:`cmtlab.report.claims.finding`).

    NaN where a run is missing."""
    from ...report.claims import finding
    from ...report.facts import MarkdownText

    nan = float("nan")
    out: dict = {}
    sid, cc = FIG9
    names = {"ps": PAPERS_SIM, "psg": PAPERS_SIM_GOODPUT, "psv": PAPERS_SIM_VARIATE, "pre": "chihani_ns3",
             "rfc": "rfc", "today": TODAY}
    for ro in REORDERING:
        for key, name in names.items():
            s = srcs.get(name)
            out[f"{key}_{ro}"] = s.mean(_cell(sid, cc, ro)).value / 1e6 if s is not None and s.has(_cell(sid, cc, ro)) \
                else nan
    base = _select(summary, preset=PAPERS_SIM_GOODPUT)

    def counter(ro, col):
        g = base[(base.scenario == sid) & (base.congestion == cc) & (base.reordering == ro)]
        return float(g.iloc[0][col]) if len(g) and col in g.columns else nan

    out["ps_fr_none"] = counter("none", "fast_retransmits")
    out["ps_spurious_eifel"] = counter("eifel", "spurious_detections")
    out["ps_to_frto"] = counter("frto", "timeouts")
    out["ps_fr_frto"] = counter("frto", "fast_retransmits")
    v_on = srcs.get(PAPERS_SIM_VARIATE)
    out["psv_best"] = (RO_LABELS[max(REORDERING, key=lambda ro: v_on.mean(_cell(sid, cc, ro)).value)]
                       if v_on is not None and v_on.has(*(_cell(sid, cc, ro) for ro in REORDERING)) else NOT_RUN)
    frto = model[model.reordering == "frto"]
    out["frto_clocks"] = int(frto.groupby(["scenario", "congestion", "variate_delay"]).size().min()) if len(frto) else 0
    out["frto_runs"] = int(len(frto))
    out["frto_detections"] = int(frto.spurious_frto.sum()) if "spurious_frto" in frto else nan
    out["frto_queue_drops"] = int(frto.queue_drops.sum()) if "queue_drops" in frto else nan
    out["frto_loss_rate"] = float(frto.loss_rate.max()) if "loss_rate" in frto else nan
    s2 = frto[(frto.scenario == sid) & (frto.congestion == cc) & ~frto.variate_delay.astype(bool)]
    excess = s2.model_global_throughput_bps / s2.throughput_bps - 1
    out["frto_excess_min"] = float(excess.min()) if len(s2) else nan
    out["frto_excess_max"] = float(excess.max()) if len(s2) else nan
    case = "F-RTO 40 % less than no algorithm"
    for q, name in (("global", PAPERS_SIM), ("goodput", PAPERS_SIM_GOODPUT)):
        s = srcs.get(name)
        row = next((r for r in comparison.by_source.get(name, Comparison()).rows
                    if r.key == CLAIMS["fig9.s2-uncoupled"].key and r.case == case), None)
        if s is None or row is None or not s.has(_cell(sid, cc, "frto"), _cell(sid, cc, "none")):
            out.update({f"frto40_{q}": nan, f"frto40_{q}_lo": nan, f"frto40_{q}_hi": nan, f"frto40_{q}_verdict": NOT_RUN})
            continue
        e = s.ratio(_cell(sid, cc, "frto"), _cell(sid, cc, "none")).scaled(100.0, -100.0)
        out.update({f"frto40_{q}": e.value, f"frto40_{q}_lo": e.low, f"frto40_{q}_hi": e.high,
                    f"frto40_{q}_verdict": row.verdict})
    co = lia_rttc_coincidence(model)
    out["lia_rttc_identical"], out["lia_rttc_pairs"] = co["identical"], co["pairs"]
    if model_r1 is not None:
        co1 = lia_rttc_coincidence(model_r1)
        out["r1_lia_rttc_identical"], out["r1_lia_rttc_pairs"] = co1["identical"], co1["pairs"]
    v = comparison.verdicts()
    for name, key in (("chihani_ns3", "preset"), ("rfc", "rfc"), (TODAY, "today"), (PAPERS_SIM_GOODPUT, "goodput"),
                      (PAPERS_SIM_VARIATE, "variate")):
        out[f"n_differ_{key}"] = (int(sum(_differ(a, b) for a, b in zip(v[name], v[comparison.decider])))
                                  if name in v.columns else nan)
    for name, key in ((PAPERS_SIM_GOODPUT, "goodput"), (PAPERS_SIM_VARIATE, "variate")):
        counts = comparison.counts(name) if name in comparison.by_source else {}
        for verdict in ("reproduced", "partly", "not reproduced", "undecided"):
            out[f"{key}_{verdict.replace(' ', '_')}"] = counts.get(verdict, nan)
    best = claims(summary, preset=PAPERS_SIM)["best"] if (summary.preset == PAPERS_SIM).any() else None
    out["best"] = f"{RO_LABELS[best[1]]} + {CC_LABELS.get(best[0], best[0])}" if best else NOT_RUN
    out["old_none"] = (mean_of(sensitivity, preset="chihani", reordering="none", setting="main", scheduler="round_robin",
                               scenario=sid, congestion=cc) / 1e6
                       if sensitivity is not None and "chihani" in set(sensitivity.preset) else nan)
    decided = {d.claim: d for d in comparison.table.decisions()}
    for claim in CLAIMS:
        d = decided.get(claim.key)
        out[_glue_key(claim.id)] = MarkdownText(finding(claim, d) if d is not None else NOT_RUN)
    return {f"arabi_{k}" if not k.startswith("arabi_") else k: val for k, val in out.items()}


def chapter_tables(presets: pd.DataFrame, model: pd.DataFrame, *, scenarios, congestion,
                   reordering) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``(summary, traces)`` of every source of the chapter, in the layout of
    :func:`~cmtlab.papers.arabi.experiments.summarise` / :func:`~cmtlab.papers.arabi.experiments.throughput_traces`:
    the papers' simulator (:func:`cmtlab.papers.arabi.papers_sim.chapter_sources` of ``model``, restricted to the
    chapter's ``scenarios``, ``congestion`` and ``reordering``), then the presets' runs ``presets``."""
    from . import papers_sim
    from .experiments import summarise, throughput_traces

    model_summary, model_traces = papers_sim.chapter_sources(model)

    def keep(f):
        return f[f.scenario.isin(scenarios) & f.congestion.isin(congestion) & f.reordering.isin(reordering)]

    summary = pd.concat([keep(model_summary), summarise(presets)], ignore_index=True)
    traces = pd.concat([keep(model_traces), throughput_traces(presets)], ignore_index=True)
    return summary, traces


__all__ = ["FRTO_ABSENT",
           "NO_GAIN", "BEST_RULE", "DECIDERS", "decide", "decide_setup", "decide_fig8_dsack", "decide_fig8_decrease",
           "decide_fig9", "decide_fig9_no_improvement", "decide_rank", "decide_eifel", "decide_best_s2",
           "decide_frto", "decide_improve", "SOURCE_SHORT", "DIFFERS", "OTHER_READING",
           "REFERENCES", "sources", "ArabiComparison", "comparison", "CLAIM_CELLS",
           "explain_disagreements", "lia_rttc_coincidence", "chapter_facts", "chapter_tables"]
