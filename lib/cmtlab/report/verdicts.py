"""The book's verdict policy (book page "Verdict policy"): the verdicts and the rules that decide them.

Every verdict of a paper-vs-reproduction table (:class:`cmtlab.report.table.Comparison`) is computed by a
*rule object* of this module that also renders itself as the text of the row's "rule" column, so no
threshold can decide a verdict without appearing in its row.

The verdicts (:data:`VERDICTS`):

* ``reproduced`` — the value (or statement) obtained here meets the row's rule for reproduced;
* ``partly`` — it meets the rule's weaker band only;
* ``not reproduced`` — it meets neither;
* ``undecided at n seeds`` — the 95 % confidence interval over the n seeds of the value straddles a
  threshold of the rule, so the seeds run cannot decide (more seeds can);
* ``by construction`` — the row holds because the book built it so (a paper number used as an
  input, a reconstruction made to satisfy a number, a chosen interpretation);
* ``not assessed`` — this run did not compute what the claim needs (e.g. a papermill re-run with
  a subset of the scenarios).

Rules (each with its reason, :data:`POLICY`):

* :data:`MEASURED` — a number the paper measured (simulation, experiment, read from a figure):
  ``|Δ| ≤ 10 % → reproduced, ≤ 30 % → partly``;
* :data:`COMPUTED` — a number the paper computed from other printed numbers or a closed form:
  ``|Δ| ≤ 1 % → reproduced, ≤ 5 % → partly``;
* ``TREND`` — a ratio or trend ("A above B", "falls", "improves"): the change counts only beyond
  :data:`NO_CHANGE` = 5 % (:func:`trend_rule`); "the same" / "comparable" is :data:`SAME`
  (``|ratio − 1| ≤ 10 % → reproduced, ≤ 30 % → partly``);
* ``QUALITATIVE`` — a statement over a set of cases (grid points, distances, seeds):
  holds in every case → reproduced, in at least half → partly (:func:`share_rule`); a single
  yes/no statement: holds → reproduced (:class:`Condition`).

A chapter that deviates from a default declares it in the row (a :class:`Band` or
:class:`Threshold` with its own ``reason``, shown in the rule column).  Claims that are not the
paper's — targets this book set itself, precision contracts, agreement with another simulator —
go to a separate table of *checks of this book* (:meth:`Comparison.add_check`), which
:meth:`Comparison.summary` does not count.

>>> t = Comparison()
>>> t.add_value("4 links = 1 link at ADA", quote="35.6 ms", where="sec. 6.2", paper=35.6, ours=34.0, unit="ms")
'reproduced'
>>> t.to_frame().loc[0, "rule"]
'|Δ| ≤ 10 % → reproduced; ≤ 30 % → partly; else not reproduced'
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .._validate import check_non_negative

REPRODUCED = "reproduced"
PARTLY = "partly"
NOT_REPRODUCED = "not reproduced"
#: Counted under this key; the row shows "undecided at n seeds".
UNDECIDED = "undecided"
BY_CONSTRUCTION = "by construction"
#: Verdict of a claim a run could not assess because it did not compute what the claim needs.
NOT_ASSESSED = "not assessed"
#: Every verdict, in the order of :meth:`Comparison.summary`.
VERDICTS = (REPRODUCED, PARTLY, NOT_REPRODUCED, UNDECIDED, BY_CONSTRUCTION, NOT_ASSESSED)
#: Verdicts of a check of this book (not a paper claim).
CHECK_MET, CHECK_NOT_MET = "met", "not met"

#: Thresholds are inclusive up to floating-point rounding (a ratio computed as 44 / 40 is 1.1).
_EPS = 1e-12

def _pct(x: float) -> str:
    return f"{100 * x:.3g} %"


def _num(x: float) -> str:
    """A threshold as text: no trailing zeros, no negative zero."""
    x = float(x)
    if x == 0:
        return "0"
    return f"{x:.4g}"




def _undecided(n_seeds) -> str:
    return f"{UNDECIDED} at {n_seeds} seeds" if n_seeds else UNDECIDED


def _check_ci(ci):
    if ci is None:
        return None
    lo, hi = (float(v) for v in ci)
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return None                      # one seed: no interval, the point value decides
    if lo > hi:
        raise ValueError(f"ci must be (low, high) with low <= high, got {ci!r}")
    return lo, hi


# ------------------------------------------------------------------------------------------- rules

@dataclass(frozen=True)
class Band:
    """A tolerance band on the relative deviation ``|value − paper| / |paper|`` of a number.

    ``reproduced`` and ``partly`` are fractions (0.1 = 10 %); ``reason`` says why this band.
    """

    reproduced: float
    partly: float
    reason: str
    name: str = ""

    def __post_init__(self):
        check_non_negative("reproduced", self.reproduced)
        check_non_negative("partly", self.partly)
        if self.partly < self.reproduced:
            raise ValueError(f"partly must be >= reproduced ({self.reproduced}), got {self.partly}")
        if not self.reason:
            raise ValueError("a band needs its reason")

    def text(self) -> str:
        return (f"|Δ| ≤ {_pct(self.reproduced)} → reproduced; ≤ {_pct(self.partly)} → partly; "
                "else not reproduced")

    def deviation(self, paper: float, value: float) -> float:
        scale = abs(paper) if paper != 0 else 1.0
        return abs(float(value) - float(paper)) / scale

    def of_deviation(self, dev: float) -> str:
        if not math.isfinite(dev):
            return NOT_REPRODUCED
        if dev <= self.reproduced + _EPS:
            return REPRODUCED
        if dev <= self.partly + _EPS:
            return PARTLY
        return NOT_REPRODUCED

    def verdict(self, paper: float, value: float, ci=None, n_seeds=None) -> str:
        """The verdict of ``value`` against ``paper``; ``undecided at n seeds`` if ``ci`` spans two verdicts."""
        value = float(value)
        if not math.isfinite(value):
            return NOT_REPRODUCED
        point = self.of_deviation(self.deviation(paper, value))
        ci = _check_ci(ci)
        if ci is None:
            return point
        lo, hi = ci
        dmax = max(self.deviation(paper, lo), self.deviation(paper, hi))
        dmin = 0.0 if lo <= paper <= hi else min(self.deviation(paper, lo), self.deviation(paper, hi))
        if self.of_deviation(dmin) != self.of_deviation(dmax):
            return _undecided(n_seeds)
        return point


@dataclass(frozen=True)
class Threshold:
    """A statistic compared with cut points: ``statistic`` ≥ (or ≤) ``reproduced`` → reproduced,
    ≥ (≤) ``partly`` → partly, else not reproduced.

    ``direction`` is ``">="``, ``">"``, ``"<="`` or ``"<"``; ``partly`` may be None (no partly band).
    ``reason`` says why these cut points.
    """

    statistic: str
    direction: str
    reproduced: float
    reason: str
    partly: float | None = None

    def __post_init__(self):
        if self.direction not in (">=", ">", "<=", "<"):
            raise ValueError(f"direction must be one of '>=', '>', '<=', '<', got {self.direction!r}")
        if not self.reason:
            raise ValueError("a threshold needs its reason")
        if self.partly is not None:
            worse = self.partly <= self.reproduced if self.direction in (">=", ">") else self.partly >= self.reproduced
            if not worse:
                raise ValueError(f"partly ({self.partly}) must be on the far side of reproduced ({self.reproduced})")

    def _passes(self, value: float, cut: float) -> bool:
        return {">=": value >= cut - _EPS, ">": value > cut, "<=": value <= cut + _EPS, "<": value < cut}[self.direction]

    def text(self) -> str:
        sym = {">=": "≥", ">": ">", "<=": "≤", "<": "<"}[self.direction]
        s = f"{self.statistic} {sym} {_num(self.reproduced)} → reproduced"
        if self.partly is not None:
            s += f"; {sym} {_num(self.partly)} → partly"
        return s + "; else not reproduced"

    def point(self, value: float) -> str:
        value = float(value)
        if not math.isfinite(value):
            return NOT_REPRODUCED
        if self._passes(value, self.reproduced):
            return REPRODUCED
        if self.partly is not None and self._passes(value, self.partly):
            return PARTLY
        return NOT_REPRODUCED

    def verdict(self, value: float, ci=None, n_seeds=None) -> str:
        point = self.point(value)
        ci = _check_ci(ci)
        if ci is None or not math.isfinite(float(value)):
            return point
        if self.point(ci[0]) != self.point(ci[1]):
            return _undecided(n_seeds)
        return point


@dataclass(frozen=True)
class Condition:
    """A yes/no statement checked on the runs; ``text`` says what must hold (e.g. "PR-R highest at
    every distance").  Holds → reproduced; ``partly_text`` (optional) what gives partly."""

    text_: str
    partly_text: str = ""

    def text(self) -> str:
        s = f"{self.text_} → reproduced"
        if self.partly_text:
            s += f"; {self.partly_text} → partly"
        return s + "; else not reproduced"

    def verdict(self, holds) -> str:
        if holds is True or (isinstance(holds, (bool, np.bool_)) and bool(holds)):
            return REPRODUCED
        if holds == "partly":
            if not self.partly_text:
                raise ValueError("a 'partly' outcome needs the condition's partly_text")
            return PARTLY
        if holds is False or isinstance(holds, (bool, np.bool_)):
            return NOT_REPRODUCED
        raise ValueError(f"holds must be True, False or 'partly', got {holds!r}")


#: A change smaller than this (relative) is no change: the seed spread of a mean over the
#: book's 3–30 seeds is a few per cent, so a smaller difference is not evidence of a direction.
NO_CHANGE = 0.05

#: A number the paper measured (simulation, experiment, read off a figure).
MEASURED = Band(0.10, 0.30, name="measured number",
                reason="the papers leave parts of their set-ups unstated (queues, buffers, seeds) and read some "
                       "numbers off plots; within 10 % the finding is the same, within 30 % the same order")
#: A number the paper computed from other printed numbers or a closed form (no randomness).
COMPUTED = Band(0.01, 0.05, name="computed number",
                reason="no randomness: only the rounding of the printed numbers separates the two")
#: "The same" / "comparable": the ratio of the two values against 1.
SAME = Band(0.10, 0.30, name="same / comparable",
            reason="the measured-number band applied to the ratio of the two values")


def trend_rule(statistic: str, direction: str = "higher", *, partly: float | None = None,
               reason: str = "") -> Threshold:
    """The default rule of a trend claim on a ratio ``statistic`` (e.g. "F-RTO / none"):
    beyond ±:data:`NO_CHANGE` in the stated direction → reproduced.

    ``direction`` "higher" (ratio ≥ 1.05) or "lower" (ratio ≤ 0.95); ``partly`` an optional
    weaker cut point, which needs its ``reason``.
    """
    if direction not in ("higher", "lower"):
        raise ValueError(f"direction must be 'higher' or 'lower', got {direction!r}")
    if partly is not None and not reason:
        raise ValueError("a trend rule with a partly band must say why (reason)")
    reason = reason or f"a change within ± {_pct(NO_CHANGE)} is no change (policy)"
    if direction == "higher":
        return Threshold(statistic, ">=", 1 + NO_CHANGE, reason, partly)
    return Threshold(statistic, "<=", 1 - NO_CHANGE, reason, partly)


def share_rule(statistic: str = "share of the cases where it holds", *, reproduced: float = 1.0,
               partly: float = 0.5, reason: str = "") -> Threshold:
    """The default rule of a statement over a set of cases: in every case → reproduced, in at least
    half → partly.  Other cut points need their ``reason``."""
    if (reproduced, partly) != (1.0, 0.5) and not reason:
        raise ValueError("a share rule other than the policy's (1, 0.5) must say why (reason)")
    return Threshold(statistic, ">=", reproduced, reason or "policy: a statement over cases holds in all of them",
                     partly)


def cases_verdict(verdicts) -> tuple[str, str]:
    """The verdict of a claim over its cases (the policy's rule for statements over cases) and the text
    of its value column: every case reproduced → reproduced; at least half of them reproduced or partly
    → partly; else not reproduced.  A case *undecided at n seeds* counts both ways: if the outcome
    differs, the claim is undecided at the cases' seeds.  Cases *by construction* or *not assessed*
    are not evidence: a claim whose cases are all of them takes that verdict; otherwise they are
    left out (and said so in the text).

    >>> cases_verdict(["reproduced", "reproduced", "partly"])
    ('partly', '2 of 3 cases reproduced, 1 partly')
    >>> cases_verdict(["reproduced", "undecided at 5 seeds"])
    ('undecided at 5 seeds', '1 of 2 cases reproduced, 1 undecided')
    """
    verdicts = [str(v) for v in verdicts]
    if not verdicts:
        raise ValueError("a claim over cases needs at least one case")
    kinds = [UNDECIDED if v.startswith(UNDECIDED) else v for v in verdicts]
    unknown = [v for v in kinds if v not in VERDICTS]
    if unknown:
        raise ValueError(f"unknown case verdicts {unknown} (allowed: {', '.join(VERDICTS)})")
    aside = [k for k in kinds if k in (BY_CONSTRUCTION, NOT_ASSESSED)]
    evidence = [k for k in kinds if k not in (BY_CONSTRUCTION, NOT_ASSESSED)]
    counts = {k: kinds.count(k) for k in VERDICTS if kinds.count(k)}
    words = {PARTLY: "partly", NOT_REPRODUCED: "not reproduced", UNDECIDED: "undecided",
             BY_CONSTRUCTION: "by construction", NOT_ASSESSED: "not assessed"}
    text = f"{counts.get(REPRODUCED, 0)} of {len(kinds)} cases reproduced"
    text += "".join(f", {n} {words[k]}" for k, n in counts.items() if k != REPRODUCED)
    if not evidence:
        return (NOT_ASSESSED if NOT_ASSESSED in aside else BY_CONSTRUCTION), text

    def outcome(undecided_as: str) -> str:
        ks = [undecided_as if k == UNDECIDED else k for k in evidence]
        if all(k == REPRODUCED for k in ks):
            return REPRODUCED
        if 2 * sum(k in (REPRODUCED, PARTLY) for k in ks) >= len(ks):
            return PARTLY
        return NOT_REPRODUCED

    best, worst = outcome(REPRODUCED), outcome(NOT_REPRODUCED)
    if best != worst:
        seeds = sorted({v.split(" at ", 1)[1] for v in verdicts if v.startswith(UNDECIDED + " at ")})
        return (f"{UNDECIDED} at {seeds[0]}" if len(seeds) == 1 else UNDECIDED), text
    return best, text


#: The rule of a claim (or a case of it) stated under a premise ("when a spurious retransmission is detected, …")
#: whose premise never occurs on the deciding reference: it is not evidence there (policy page, "A premise that
#: never occurs").
PREMISE_ABSENT = ("its premise never occurs on the deciding reference → not assessed (a statement under a premise "
                  "is evidence only where the premise occurs; what happens instead is shown, not counted)")

#: The policy, one entry per kind of claim: (rule text, reason).  Rendered on the book's policy page.
POLICY = {
    "a number the paper measured": (MEASURED.text(), MEASURED.reason),
    "a number the paper computed (closed form, printed numbers)": (COMPUTED.text(), COMPUTED.reason),
    "a ratio or trend (higher, lower, improves, falls)": (
        f"ratio beyond 1 ± {_pct(NO_CHANGE)} in the stated direction → reproduced; else not reproduced",
        f"a change within ± {_pct(NO_CHANGE)} is no change: the seed spread of a mean over the book's seeds is a "
        "few per cent"),
    "the same / comparable": (SAME.text() + " (on the ratio)", SAME.reason),
    "a qualitative statement over cases": (share_rule().text(), "the paper states it without exceptions"),
    "a yes/no statement": ("holds → reproduced; else not reproduced", "no number to compare"),
}


def value_verdict(paper: float, ours: float, *, rel_tol: float = 0.10, partly_tol: float = 0.30) -> str:
    """Verdict for a numeric claim from the relative error ``|ours - paper| / |paper|`` (a :class:`Band`)."""
    return Band(rel_tol, partly_tol, reason="value_verdict").verdict(paper, ours)
