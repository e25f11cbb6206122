"""Paper-vs-reproduction tables and the book's verdict policy (book page "Verdict policy").

Every reproduction notebook ends with one of these tables.  Paper numbers enter only here, as
comparison targets labelled as the paper's; every verdict is computed by a *rule object* that
also renders itself as the text of the row's "rule" column, so no threshold can decide a verdict
without appearing in its row.

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

import hashlib
import math
import re
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ._validate import check_non_negative

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
#: One mark per verdict in the cells of a verdict grid (:meth:`Comparison.style_grid`).
VERDICT_MARKS = {REPRODUCED: "✓", PARTLY: "≈", NOT_REPRODUCED: "✗", UNDECIDED: "?", BY_CONSTRUCTION: "■",
                 NOT_ASSESSED: "–"}
#: The HTML class of a verdict grid's table (the scoreboard's tests count its cells).
GRID_CLASS = "cmtlab-verdict-grid"
#: Columns of a comparison table whose words never break (the others wrap around them).
NARROW_COLUMNS = ("verdict", "where", "paper")
#: A comparison table of at most this many columns breaks its headers between words only.
WHOLE_WORD_HEADERS = 9
#: Background colours of the verdict column.
VERDICT_COLOURS = {REPRODUCED: "#d8f0d8", PARTLY: "#fff2c6", NOT_REPRODUCED: "#f8d4d4", UNDECIDED: "#f0e0f8",
                   BY_CONSTRUCTION: "#e4e4f4", NOT_ASSESSED: "#eeeeee", CHECK_MET: "#d8f0d8",
                   CHECK_NOT_MET: "#f8d4d4"}

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


def fmt_number(x: float, fmt: str = ".3g") -> str:
    """``x`` formatted with ``fmt``, never "-0" (a negative value that rounds to zero reads "0")."""
    x = float(x)
    if not math.isfinite(x):
        return "not computed" if math.isnan(x) else f"{x}"
    s = f"{x:{fmt}}"
    stripped = s.lstrip("-+").replace("0", "").replace(".", "").replace("%", "").strip()
    if s.startswith("-") and stripped == "":
        s = s[1:]
    return s


#: A rule shared by at least this many rows (and at least half of them) is written once, in the caption.
SHARED_RULE_ROWS = 3
#: What a rule cell shows when its rule is the caption's.
SHARED_RULE_CELL = "see caption"
#: A note longer than this (characters) moves under the table as a numbered note.
LONG_NOTE_CHARS = 120

_NEGATIVE_ZERO = re.compile(r"(?<![\w.])-(?=0(?:\.0+)?(?![\d.])(?:\s?%)?)")
_INLINE_MATH = re.compile(r"(?<![\\$])\$(?=\S)([^$<>\n]+?)(?<=\S)\$(?![\d$])")
# the same in a cell's text before it is escaped to HTML (TeX may hold "<")
_RAW_INLINE_MATH = re.compile(r"(?<![\\$])\$(?=\S)([^$\n]+?)(?<=\S)\$(?![\d$])")


def no_negative_zero(text: str) -> str:
    """``text`` with every negative zero ("-0", "-0.0", "-0 %", "-0%") written without its sign.

    >>> no_negative_zero("rfc: -0%, F-RTO -9%, -0.00 and -0.5")
    'rfc: 0%, F-RTO -9%, 0.00 and -0.5'
    """
    return _NEGATIVE_ZERO.sub("", text)


def html_escape(text: str) -> str:
    import html

    return html.escape(str(text), quote=False)


def render_math(html_text: str) -> str:
    """Inline TeX ``$…$`` in table cells as MathJax inline math (a span of class ``math`` with TeX's
    inline delimiters), so the book typesets it instead of showing the dollars."""
    return _INLINE_MATH.sub(lambda m: f'<span class="math notranslate nohighlight">\\({m.group(1)}\\)</span>',
                            html_text)


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


def mean_ci95(values) -> tuple[float, tuple[float, float], int]:
    """Mean, 95 % Student-t confidence interval and count of ``values`` (NaNs dropped).

    One value: the interval is (nan, nan) — a single seed cannot give one.
    """
    from scipy import stats

    x = np.asarray(values, dtype=float)
    x = x[np.isfinite(x)]
    n = len(x)
    if n == 0:
        raise ValueError("mean_ci95 needs at least one finite value")
    m = float(x.mean())
    if n == 1:
        return m, (float("nan"), float("nan")), 1
    h = float(stats.t.ppf(0.975, n - 1) * x.std(ddof=1) / math.sqrt(n))
    return m, (m - h, m + h), n


# ------------------------------------------------------------------------------------------- rows

@dataclass
class Row:
    """One row: the paper's words with their location, its number, the value here (with its 95 % CI
    where there are seeds), the rule that decided, the verdict, a note, and optional reference columns."""

    claim: str
    quote: str
    where: str
    paper: str
    here: str
    rule: str
    verdict: str
    note: str = ""
    references: dict = field(default_factory=dict)
    #: ``(grid name, row label, column label)``: the row is shown as one cell of a verdict grid
    #: (:meth:`Comparison.show`) instead of a line of the claim table; it counts like any row.
    cell: tuple | None = None

    def kind(self) -> str:
        """The verdict's key in :meth:`Comparison.summary` ("undecided at 3 seeds" → ``undecided``)."""
        return UNDECIDED if self.verdict.startswith(UNDECIDED) else self.verdict


def _quote_text(quote: str) -> str:
    if not quote:
        return ""
    return quote if quote.startswith(("“", "\"", "—", "(")) else f"“{quote}”"


COLUMNS = ["claim", "paper's words", "where", "paper", "reproduction", "rule", "verdict", "note"]
CHECK_COLUMNS = ["check", "target", "reproduction", "rule", "verdict", "note"]


@dataclass
class Comparison:
    """A chapter's paper-vs-reproduction table (``rows``) and its checks of this book (``checks``).

    Reference columns — the same claim under another reference, e.g. ``"RFC preset"`` or ``"papers'
    simulator (run here)"`` — are ``references={"column": "text"}`` on any ``add_*`` call (or
    ``table.rows[i].references[...] = ...`` afterwards); :meth:`to_frame` puts them right after the
    reproduction column, empty where a row has none.  Only the reproduction column decides the verdict;
    ``here_column`` is its heading (e.g. ``"papers' simulator (run here)"`` where that simulator decides).
    """

    rows: list = field(default_factory=list)
    checks: list = field(default_factory=list)
    here_column: str = "reproduction"

    # ------------------------------------------------------------------ paper claims
    def _add(self, row: Row) -> str:
        self.rows.append(row)
        return row.verdict

    def add_value(self, claim: str, *, paper: float, ours: float, unit: str = "", quote: str = "", where: str = "",
                  band: Band = MEASURED, ci=None, n_seeds: int | None = None, fmt: str = ".3g", note: str = "",
                  references: dict | None = None, rel_tol: float | None = None, partly_tol: float | None = None,
                  paper_text: str | None = None, n_unit: str = "seeds", cell: tuple | None = None) -> str:
        """A number of the paper against the value here, decided by ``band`` (default :data:`MEASURED`).

        ``ci`` is the 95 % confidence interval of ``ours`` over ``n_seeds`` seeds; a band other than
        :data:`MEASURED`/:data:`COMPUTED` must carry its reason.  ``rel_tol``/``partly_tol`` build a
        band with the measured-number reason (kept for the old signature).  ``paper_text`` replaces the
        paper column's number (e.g. "comparable (ratio 1)"); ``n_unit`` names what ``n_seeds`` counts
        (e.g. "runs" for repetitions on a real kernel).  ``cell`` = ``(grid, row label, column label)``
        shows the row as a cell of a verdict grid (:meth:`grid_frame`) instead of a line of the claim
        table.  Returns the verdict.
        """
        if cell is not None and (not isinstance(cell, tuple) or len(cell) != 3):
            raise ValueError(f"cell must be (grid name, row label, column label), got {cell!r}")
        if rel_tol is not None or partly_tol is not None:
            band = Band(MEASURED.reproduced if rel_tol is None else rel_tol,
                        MEASURED.partly if partly_tol is None else partly_tol, reason=band.reason)
        verdict = band.verdict(paper, ours, ci=ci, n_seeds=n_seeds)
        if n_unit != "seeds" and verdict.startswith(UNDECIDED):
            verdict = verdict.replace(" seeds", f" {n_unit}")
        u = f" {unit}" if unit else ""
        here = fmt_number(ours, fmt) + u
        ci_ = _check_ci(ci)
        if ci_ is not None:
            over = f", {n_seeds} {n_unit}" if n_seeds else ""
            here += f" (95 % CI {fmt_number(ci_[0], fmt)} to {fmt_number(ci_[1], fmt)}{over})"
        elif n_seeds:
            here += f" ({n_seeds} seed{'s' if n_seeds > 1 else ''})"
        rule = band.text()
        if band not in (MEASURED, COMPUTED):
            rule += f" (this row: {band.reason})"
        paper_col = paper_text if paper_text is not None else fmt_number(paper, fmt) + u
        return self._add(Row(claim, _quote_text(quote), where, paper_col, here, rule, verdict,
                             note, dict(references or {}), cell))

    def add_threshold(self, claim: str, *, rule: Threshold, value: float, ours: str, quote: str = "",
                      where: str = "", paper: str = "", ci=None, n_seeds: int | None = None, note: str = "",
                      references: dict | None = None) -> str:
        """A claim decided by a statistic against the cut points of ``rule`` (a :class:`Threshold`).

        ``value`` is the statistic, ``ours`` the text of the value column (it should show ``value``);
        with ``ci`` (95 %, over ``n_seeds`` seeds) a value whose interval straddles a cut point is
        ``undecided at n seeds``.
        """
        verdict = rule.verdict(value, ci=ci, n_seeds=n_seeds)
        ci_ = _check_ci(ci)
        if ci_ is not None:
            over = f", {n_seeds} seeds" if n_seeds else ""
            ours += f" (95 % CI {_num(ci_[0])} to {_num(ci_[1])}{over})"
        text = rule.text()
        if not rule.reason.startswith("policy") and "(policy)" not in rule.reason:
            text += f" ({rule.reason})"
        return self._add(Row(claim, _quote_text(quote), where, paper, ours, text, verdict, note,
                             dict(references or {})))

    def add_claim(self, claim: str, *, paper: str, ours: str, holds, note: str = "", quote: str = "",
                  where: str = "", rule: Condition | str | None = None, references: dict | None = None) -> str:
        """A yes/no statement: ``holds`` is ``True``, ``False`` or ``"partly"``, computed from the runs.

        ``rule`` (a :class:`Condition` or its text) says what must hold; without it the row reads
        "holds → reproduced".  ``"partly"`` needs a condition with its ``partly_text`` or a ``note``.
        """
        if rule is None:
            rule = Condition("holds")
        elif isinstance(rule, str):
            rule = Condition(rule)
        if holds == "partly" and not rule.partly_text:
            if not note:
                raise ValueError("note must explain a 'partly' verdict")
            rule = Condition(rule.text_, partly_text=note)
        verdict = rule.verdict(holds)
        return self._add(Row(claim, _quote_text(quote), where, paper, ours, rule.text(), verdict, note,
                             dict(references or {})))

    def add_input(self, claim: str, *, paper: str, ours: str, note: str = "", quote: str = "", where: str = "",
                  references: dict | None = None) -> str:
        """A paper number the reproduction used as an input (so it matches by construction)."""
        return self._add(Row(claim, _quote_text(quote), where, paper, ours, "used as an input → by construction",
                             BY_CONSTRUCTION, note or "paper number used as an input, not a result",
                             dict(references or {})))

    def add_constructed(self, claim: str, *, paper: str, ours: str, how: str, quote: str = "", where: str = "",
                        note: str = "", references: dict | None = None) -> str:
        """A paper claim that holds here because the book built it so (a reconstruction made to satisfy
        it, a chosen interpretation): shown, never counted as reproduced.  ``how`` says what was built."""
        if not how:
            raise ValueError("how must say what makes the row hold by construction")
        return self._add(Row(claim, _quote_text(quote), where, paper, ours, f"{how} → by construction",
                             BY_CONSTRUCTION, note, dict(references or {})))

    def add_not_assessed(self, claim: str, *, paper: str, reason: str, note: str = "", quote: str = "",
                         where: str = "", references: dict | None = None) -> str:
        """A claim this run cannot assess: it did not compute what the claim needs (``reason`` says what)."""
        if not reason:
            raise ValueError("reason must say why the claim is not assessed")
        return self._add(Row(claim, _quote_text(quote), where, paper, reason, "needs runs this run did not make",
                             NOT_ASSESSED, note, dict(references or {})))

    # ------------------------------------------------------------------ checks of this book
    def add_check(self, check: str, *, target: str, ours: str, holds: bool, rule: str, note: str = "") -> str:
        """A check of this book (a target it set itself, a precision contract, agreement with another
        simulator) — not a paper claim, listed apart and never counted in :meth:`summary`."""
        if not rule:
            raise ValueError("a check needs its rule")
        verdict = CHECK_MET if bool(holds) else CHECK_NOT_MET
        self.checks.append(dict(zip(CHECK_COLUMNS, (check, target, ours, rule, verdict, note))))
        return verdict

    # ------------------------------------------------------------------ output
    def reference_columns(self) -> list[str]:
        cols = []
        for r in self.rows:
            cols += [c for c in r.references if c not in cols]
        return cols

    def to_frame(self) -> pd.DataFrame:
        refs = self.reference_columns()
        cols = COLUMNS[:4] + [self.here_column] + refs + COLUMNS[5:]
        data = []
        for r in self.rows:
            d = {"claim": r.claim, "paper's words": r.quote, "where": r.where, "paper": r.paper,
                 self.here_column: r.here, "rule": r.rule, "verdict": r.verdict, "note": r.note}
            d.update({c: r.references.get(c, "") for c in refs})
            data.append(d)
        return pd.DataFrame(data, columns=cols)

    def grids(self) -> list[str]:
        """Names of the verdict grids (rows added with ``cell=``), in order of appearance."""
        return list(dict.fromkeys(r.cell[0] for r in self.rows if r.cell is not None))

    def grid_frame(self, grid: str) -> tuple[pd.DataFrame, pd.DataFrame]:
        """``(text, verdicts)``: the cells of ``grid`` as a row label × column label frame — each cell
        "value (paper p) mark", the value without its CI (:data:`VERDICT_MARKS`) — and the verdicts."""
        cells = [r for r in self.rows if r.cell is not None and r.cell[0] == grid]
        if not cells:
            raise ValueError(f"grid must be one of {self.grids()}, got {grid!r}")
        rows = list(dict.fromkeys(r.cell[1] for r in cells))
        cols = list(dict.fromkeys(r.cell[2] for r in cells))
        text = pd.DataFrame("", index=rows, columns=cols)
        verdicts = pd.DataFrame("", index=rows, columns=cols)
        for r in cells:
            value, paper = r.here.split(" (")[0], r.paper
            v, p = value.rsplit(" ", 1), paper.rsplit(" ", 1)
            if len(v) == 2 and len(p) == 2 and v[1] == p[1] and not v[1][:1].isdigit():
                value, paper = v[0], p[0]          # the unit is in the column label
            mark = VERDICT_MARKS.get(r.kind(), "")
            text.loc[r.cell[1], r.cell[2]] = f"{value} (paper {paper}) {mark}"
            verdicts.loc[r.cell[1], r.cell[2]] = r.verdict
        return text, verdicts

    def style_grid(self, grid: str, *, caption: str = "", counted: bool = True):
        """A verdict grid as a pandas Styler: cells coloured by verdict, the rule and the marks stated once
        in the caption (with ``caption`` before them).  Its HTML table has the class :data:`GRID_CLASS`
        (``counted=False``: not — a grid of another reference, whose verdicts the chapter does not count)."""
        text, verdicts = self.grid_frame(grid)
        cells = [r for r in self.rows if r.cell is not None and r.cell[0] == grid]
        rules = list(dict.fromkeys(r.rule for r in cells))
        legend = ", ".join(f"{m} {v}" for v, m in VERDICT_MARKS.items() if any(r.kind() == v for r in cells))
        ci = any(r.kind() == UNDECIDED for r in cells)
        cap = " ".join(x for x in (caption, "Each cell: value here (paper) and its verdict; rule: "
                                   + "; ".join(rules) + (" (a 95 % CI across a band edge: undecided)" if ci else "")
                                   + ".", f"Marks: {legend}.") if x)
        uuid = hashlib.sha256((grid + text.to_json()).encode()).hexdigest()[:8]

        def colour(v):
            key = UNDECIDED if str(v).startswith(UNDECIDED) else v
            return f"background-color: {VERDICT_COLOURS.get(key, '')}"

        attrs = f'class="{GRID_CLASS}"' if counted else 'class="cmtlab-reference-grid"'
        return (text.style.set_uuid(uuid).set_caption(readable_text(cap)).set_table_attributes(attrs)
                .format(format_label).format_index(format_label, axis="columns").format_index(format_label, axis="index")
                .apply(lambda _: verdicts.map(colour), axis=None)
                .set_properties(**{"text-align": "left"}))

    def checks_frame(self) -> pd.DataFrame:
        return pd.DataFrame(self.checks, columns=CHECK_COLUMNS)

    def summary(self) -> dict:
        """Count of paper-claim rows per verdict, every one of :data:`VERDICTS` (checks of this book not counted)."""
        counts = {v: 0 for v in VERDICTS}
        for row in self.rows:
            counts[row.kind()] += 1
        return counts

    def summary_text(self) -> str:
        """"6 reproduced, 3 partly, …" (zeros left out)."""
        s = self.summary()
        parts = [f"{n} {v}" for v, n in s.items() if n]
        return ", ".join(parts) if parts else "no paper claim compared"

    def consistency(self) -> str:
        """A profile-independent statement checked on the table (for an nbval-checked cell).

        Checks that :meth:`summary` equals the counts of the verdict column, that every paper-claim row
        carries a location, a paper column, a value, a rule and a verdict of :data:`VERDICTS`, and that
        every row with a rule threshold has its rule text.  Raises :class:`AssertionError` otherwise.
        """
        frame = self.to_frame()
        kinds = [UNDECIDED if v.startswith(UNDECIDED) else v for v in frame.verdict]
        counted = {v: kinds.count(v) for v in VERDICTS}
        assert counted == self.summary(), (counted, self.summary())
        assert sum(counted.values()) == len(self.rows)
        for r in self.rows:
            assert r.kind() in VERDICTS, r
            assert r.rule and r.here and r.claim, r
        for c in self.checks:
            assert c["verdict"] in (CHECK_MET, CHECK_NOT_MET) and c["rule"], c
        return ("verdict counts = the table's verdict column; every row carries its value, rule and verdict; "
                f"checks of this book kept apart: {bool(self.checks) or 'none in this chapter'}")

    def glue(self, prefix: str = "verdicts") -> dict:
        """Glue the verdict counts for the scoreboard: ``{prefix}_{verdict}`` (spaces as ``_``) and
        ``{prefix}_claims`` (all paper-claim rows), ``{prefix}_text``.  Returns the glued values."""
        from myst_nb import glue

        out = {f"{prefix}_{v.replace(' ', '_')}": n for v, n in self.summary().items()}
        out[f"{prefix}_claims"] = len(self.rows)
        out[f"{prefix}_checks_met"] = sum(c["verdict"] == CHECK_MET for c in self.checks)
        out[f"{prefix}_checks"] = len(self.checks)
        for k, v in out.items():
            glue(k, v, display=False)
        glue(f"{prefix}_text", self.summary_text(), display=False)
        return out

    def _styled(self, frame: pd.DataFrame, uuid_seed: str, caption: str = ""):
        frame = frame.map(lambda v: no_negative_zero(v) if isinstance(v, str) else v)
        uuid = hashlib.sha256((uuid_seed + frame.to_json()).encode()).hexdigest()[:8]  # stable HTML ids
        styler = (frame.style.set_uuid(uuid).hide(axis="index").format(format_label).format_index(format_label, axis=1)
                  .set_properties(**{"text-align": "left"}))
        if "verdict" in frame.columns:
            styler = styler.map(lambda v: f"background-color: {VERDICT_COLOURS.get(v, VERDICT_COLOURS[UNDECIDED] if str(v).startswith(UNDECIDED) else '')}",
                                subset=["verdict"])
        # short columns keep whole words ("not reproduced", "sec. 4.2"): the long text columns wrap instead
        keep = [f"th.col{j}, td.col{j}" for j, c in enumerate(frame.columns) if c in NARROW_COLUMNS]
        styles = [{"selector": ", ".join(keep), "props": "min-width: 6.2em; overflow-wrap: normal; word-break: normal"}]
        if len(frame.columns) <= WHOLE_WORD_HEADERS:   # headers break between words only
            styles.append({"selector": "th", "props": "overflow-wrap: normal; word-break: normal"})
        if keep:
            styler = styler.set_table_styles(styles, overwrite=False)
        if caption:
            styler = styler.set_caption(readable_text(caption))
        return styler

    def layout(self, frame: pd.DataFrame | None = None) -> tuple[pd.DataFrame, str, list[str]]:
        """The paper-claim table as it is shown: ``(frame, caption, notes)``.

        A rule that decides at least :data:`SHARED_RULE_ROWS` rows and at least half of them is
        written once, in the caption, and its cells read :data:`SHARED_RULE_CELL`; a note longer than
        :data:`LONG_NOTE_CHARS` characters moves under the table as a numbered note and its cell reads
        "note n".  Negative zeros ("-0 %") read as zeros.  The verdicts and every other cell are
        unchanged, so the counts of the shown table are those of :meth:`summary`.
        """
        frame = (self.to_frame() if frame is None else frame).copy()
        caption = ""
        if "rule" in frame.columns and len(frame):
            counts = frame["rule"].value_counts()
            rule, n = counts.index[0], int(counts.iloc[0])
            if n >= SHARED_RULE_ROWS and 2 * n >= len(frame):
                every = n == len(frame)
                caption = (f"Rule of every row: {rule}." if every
                           else f"Rule where the rule column says “{SHARED_RULE_CELL}”: {rule}.")
                frame.loc[frame["rule"] == rule, "rule"] = SHARED_RULE_CELL
        notes: list[str] = []
        if "note" in frame.columns:
            for i, text in frame["note"].items():
                if isinstance(text, str) and len(text) > LONG_NOTE_CHARS:
                    notes.append(no_negative_zero(text))
                    frame.loc[i, "note"] = f"note {len(notes)}"
        return frame, caption, notes

    def style(self):
        """The paper-claim table as a pandas Styler, verdicts coloured, a shared rule in the caption."""
        frame, caption, _ = self.layout()
        return self._styled(frame, "claims", caption)

    def style_checks(self):
        """The checks-of-this-book table as a pandas Styler."""
        frame, caption, _ = self.layout(self.checks_frame())
        return self._styled(frame, "checks", caption)

    def _html(self, frame: pd.DataFrame, uuid_seed: str) -> str:
        shown, caption, notes = self.layout(frame)
        out = self._styled(shown, uuid_seed, caption).to_html()
        if notes:
            items = "".join(f"<li>{html_escape(n)}</li>" for n in notes)
            out += f'<ol class="cmtlab-table-notes">{items}</ol>'
        return render_math(out)

    def show(self, *, grid_captions: dict | None = None):
        """Display the paper-claim table (its long notes under it), its verdict grids (rows added with
        ``cell=``; ``grid_captions``: grid name → caption text before the rule) and, if any, the checks
        of this book (in a notebook)."""
        from IPython.display import HTML, Markdown, display

        if self.rows:
            frame = self.to_frame()
            lines = [r.cell is None for r in self.rows]
            if any(lines):
                shown = frame[lines].reset_index(drop=True)
                refs = self.reference_columns()
                main = shown.drop(columns=refs)
                if not main["paper's words"].astype(bool).any():   # no claim quoted: no empty column
                    main = main.drop(columns=["paper's words"])
                display(HTML(self._html(main, "claims")))
                if refs:  # the other references beside the claims, in a table of their own (easier to scan)
                    display(Markdown("**The same claims on the other references** (shown beside the verdicts "
                                     "above; not counted):"))
                    display(HTML(self._html(shown[["claim"] + refs], "references")))
            for grid in self.grids():
                display(self.style_grid(grid, caption=(grid_captions or {}).get(grid, grid)))
        else:
            display(Markdown("No claim of a paper is compared in this chapter (its verdict counts are zero)."))
        if self.checks:
            display(Markdown("**Checks of this book** (targets this book set itself; not paper claims, not counted "
                             "in the verdicts):"))
            display(HTML(self._html(self.checks_frame(), "checks")))


# --------------------------------------------------------------------------- other tables of a chapter

#: Unit suffixes of the library's column names and how a reader sees them: (suffix, unit shown, factor).
#: Bit rates are shown in Mbit/s.
UNIT_SUFFIXES = (("_mbps", "Mbit/s", 1.0), ("_kbps", "kbit/s", 1.0), ("_bps", "Mbit/s", 1e-6),
                 ("_bytes", "bytes", 1.0), ("_kbyte", "Kbyte", 1.0), ("_pct", "%", 1.0), ("_ms", "ms", 1.0), ("_ns", "ns", 1.0),
                 ("_s", "s", 1.0), ("_m", "m", 1.0), ("_segs", "segments", 1.0))
#: Abbreviations of column names, spelt out.
WORDS = {"n": "", "ci": "95 % CI of", "rel": "relative", "abs": "absolute", "diff": "difference",
         "retrans": "retransmissions", "p90": "90th percentile of", "mc": "Monte-Carlo", "cwnd": "cwnd",
         "rtt": "RTT", "ada": "ADA", "aba": "ABA", "tcp": "TCP", "mptcp": "MPTCP", "ber": "BER",
         "dupack": "duplicate-ACK", "mathis": "Mathis law", "jain": "Jain's fairness index", "lia": "LIA",
         "rtts": "RTTs", "olia": "OLIA", "gthroughput": "gThroughput", "prr": "PR-R", "ooo": "OOO",
         "lu": "LU", "bo": "BO", "sndbuf": "send buffer", "pdr2": "PDR of subflow 2", "pdr": "PDR", "sf": "subflow",
         "ssthresh": "ssthresh", "pct": "%", "5pct": "5 %", "2pct": "2 %"}
#: Whole column names with a reader's name of their own.
NAMES = {"ooo_r": "OOO-R", "ci_ooo_r": "95 % CI of OOO-R", "dupack_events": "3-dupACK events", "n": "n",
         "ci_lo": "95 % CI, low", "ci_hi": "95 % CI, high", "sim_mean": "simulator mean",
         "vs_best_papers": "÷ best of the papers' mechanisms",
         "chihani_over_model": "chihani preset ÷ model", "chihani_ns3_over_model": "chihani_ns3 preset ÷ model",
         "share_within_2pct_or_1_packet": "share within 2 % or 1 packet",
         "max_abs_error_packets": "max. absolute error (packets)",
         "prr_ssthresh": "PR-R ssthresh at a fast retransmit", "rate_matches": "rate as in ns-3",
         "within_5pct": "within 5 %", "sndbuf_limited": "send-buffer limited", "n_paths": "paths",
         "n_links": "links", "spurious_retransmissions": "spurious retransmissions",
         "dsn_equals_seq": "DSN = sequence number", "same_cwnd_trace": "same cwnd trace",
         "at_mean_ber": "at the mean BER", "packet_bytes": "packet (bytes)"}

#: Names of presets inside column names: kept whole by :func:`readable_name` ("chihani_ns3 goodput").
IDENTIFIER_WORDS = ("chihani_ns3", "chihani_dupack")

#: Library identifiers that appear as values (row labels, cells): how a reader reads them.  An
#: identifier not listed here (a preset's name such as ``chihani_ns3``, an option such as
#: ``limited_transmit=True``) is shown as code: it is something a reader types.
VALUE_NAMES = {"one_way": "one-way", "fully_coupled": "fully coupled", "rtt_compensation": "RTT compensation",
               "tcp_door": "TCP-DOOR", "round_robin": "round-robin", "lowest_rtt": "lowest-RTT",
               "as_printed": "as printed", "one_outlier": "one outlier", "two_groups": "two groups",
               # plain words, replaced only when they are the whole cell or one term of "a + b"
               "dsack": "DSACK", "eifel": "Eifel", "frto": "F-RTO", "lia": "LIA", "olia": "OLIA",
               "newreno": "NewReno", "edpf": "EDPF", "True": "yes", "False": "no"}

# A mathematical symbol written with a subscript in plain text — x_ih, g_22, d_{h+1}, ST_i^h, Σ_{i≤h},
# f_LP, m_ACK, SGM_{i,j}: one letter (or 2–3 capitals, Σ) and a short or braced subscript, perhaps a
# superscript.  Typeset as
# symbol + subscript (a library name such as n_paths or ci_lo has a longer stem or subscript).
_SYMBOL = re.compile(r"(?<![\w\\{])([a-zA-Z]|[A-Z]{2,3}|Σ)_(\{[^{}<>]{1,12}\}|[A-Za-z0-9]{1,3})(?:\^(\{[^{}<>]{1,12}\}|[A-Za-z0-9]))?(?![\w{])")
_IDENTIFIER = re.compile(r"(?<![\w.\-/\\{&#])([a-z][a-z0-9]*(?:_[a-z0-9]+)+(?:=[^\s,;]+)?|[a-z][a-z0-9_]*=[^\s,;]+)"
                         r"(?![\w(])")


def readable_text(text) -> str:
    """A table cell's or label's text as HTML a reader reads: escaped, negative zeros without their
    sign, library identifiers by their reader's name (:data:`VALUE_NAMES`) and any other identifier
    (``chihani_ns3``, ``limited_transmit=True``) in code font; inline TeX ``$…$`` untouched.

    >>> readable_text("round_robin + lia"), readable_text("True"), readable_text("preset chihani_ns3: -0 %")
    ('round-robin + LIA', 'yes', 'preset <code>chihani_ns3</code>: 0 %')
    >>> readable_text("f_h = Σ_{i≤h} b_i(d_{h+1}−d_i); ST_i^h; n_paths")
    '<i>f</i><sub>h</sub> = Σ<sub>i≤h</sub> <i>b</i><sub>i</sub>(<i>d</i><sub>h+1</sub>−<i>d</i><sub>i</sub>); ST<sub>i</sub><sup>h</sup>; <code>n_paths</code>'
    >>> readable_text("sack=True, min_rto_s=0.2 ($x_{ih}$, $b_1 < 4 b_2$)")
    '<code>sack=True</code>, <code>min_rto_s=0.2</code> ($x_{ih}$, $b_1 &lt; 4 b_2$)'

    """
    text = str(text)
    whole = [t.strip() for t in text.split(" + ")]
    if all(t in VALUE_NAMES for t in whole):
        return html_escape(" + ".join(VALUE_NAMES[t] for t in whole))
    out, last = [], 0
    for m in _RAW_INLINE_MATH.finditer(text):     # TeX stays as written (render_math typesets it)
        out.append(_identifiers(html_escape(no_negative_zero(text[last:m.start()]))))
        out.append(html_escape(m.group(0)))
        last = m.end()
    out.append(_identifiers(html_escape(no_negative_zero(text[last:]))))
    return "".join(out)


def _identifiers(escaped: str) -> str:
    def name(m):
        word = m.group(1)
        if word in VALUE_NAMES:
            return VALUE_NAMES[word]
        return f"<code>{word}</code>"

    def symbol(m):
        base, sub, sup = m.group(1), m.group(2).strip("{}"), (m.group(3) or "").strip("{}")
        shown = f"<i>{base}</i>" if len(base) == 1 and base != "Σ" else base
        return shown + f"<sub>{sub}</sub>" + (f"<sup>{sup}</sup>" if sup else "")
    return _IDENTIFIER.sub(name, _SYMBOL.sub(symbol, escaped))


def format_label(x) -> str:
    """A cell, column or row label of a shown table: :func:`format_value`, then :func:`readable_text`."""
    return readable_text(format_value(x))


def readable_name(name) -> str:
    """A column name of the library as a reader reads it: words, the unit in parentheses.

    >>> readable_name("goodput_bps"), readable_name("throughput_bps_cmtlab"), readable_name("sub0_retrans")
    ('goodput (Mbit/s)', 'throughput cmtlab (Mbit/s)', 'subflow 1 retransmissions')
    >>> readable_name("ci_goodput_bps"), readable_name("n_seeds"), readable_name("completion_time_tcp_s")
    ('95 % CI of goodput (Mbit/s)', 'seeds', 'completion time TCP (s)')
    >>> readable_name("goodput_bps_chihani_ns3"), readable_name("fast_retransmits_chihani_ns3")
    ('goodput chihani_ns3 (Mbit/s)', 'fast retransmits chihani_ns3')
    """
    if not isinstance(name, str):
        return name
    if name in NAMES:
        return NAMES[name]
    if "_" not in name:
        return WORDS.get(name, name) or name
    unit, rest = "", name
    for word in IDENTIFIER_WORDS:           # a preset's name stays one word (shown in code font)
        rest = rest.replace(word, word.replace("_", "\0"))
    for suffix, shown, _ in UNIT_SUFFIXES:
        at = rest.find(suffix + "_") if not rest.endswith(suffix) else len(rest) - len(suffix)
        if at > 0:
            unit, rest = shown, rest[:at] + rest[at + len(suffix):]
            break
    words = []
    for w in rest.split("_"):
        m = re.fullmatch(r"sub(\d+)", w)
        w = f"subflow {int(m.group(1)) + 1}" if m else WORDS.get(w, w)
        if w:
            words.append(w)
    text = " ".join(words).replace("\0", "_")
    text = text[:-3] if text.endswith(" of") else text          # "ci_bps": "95 % CI", not "95 % CI of"
    return text + (f" ({unit})" if unit else "")


def _factor(name) -> float:
    if not isinstance(name, str):
        return 1.0
    for suffix, _, factor in UNIT_SUFFIXES:
        if name.endswith(suffix) or (suffix + "_") in name:
            return factor
    return 1.0


def format_value(x) -> str:
    """One cell of a table as text: integers without decimals, other numbers with four significant
    digits (thousands separated from 1000 on), never a negative zero; anything else as ``str``.

    >>> [format_value(v) for v in (2.0, -0.0, 96.906716, 1234567.8, 0.000123, "a", True, None)]
    ['2', '0', '96.91', '1,234,568', '0.000123', 'a', 'yes', '—']
    """
    if isinstance(x, (bool, np.bool_)):
        return "yes" if x else "no"
    if x is None or x is pd.NA or x is pd.NaT:
        return "—"
    if not isinstance(x, (int, float, np.integer, np.floating)):
        return str(x)
    x = float(x)
    if not math.isfinite(x):
        return "—" if math.isnan(x) else str(x)
    if x == int(x) and abs(x) < 1e15:
        return f"{int(x):,}" if abs(x) >= 10_000 else str(int(x))
    text = f"{x:,.0f}" if abs(x) >= 1000 else f"{x:.4g}"
    return no_negative_zero(text)


def readable(frame: pd.DataFrame, *, caption: str = ""):
    """A table of a chapter as readers see it (a pandas Styler): column and index names (and the
    names of both axes) spelt out with their units (:func:`readable_name`; bit rates in Mbit/s),
    numbers by :func:`format_value`, labels and cells by :func:`readable_text` (library identifiers
    by their reader's name or in code font), no index column when the index is a plain row number."""
    out = frame.copy()
    for col in out.columns:
        f = _factor(col if not isinstance(col, tuple) else col[0])
        if f != 1.0 and pd.api.types.is_numeric_dtype(out[col]):
            out[col] = out[col] * f
    rename = (lambda c: tuple(readable_name(x) for x in c)) if isinstance(out.columns, pd.MultiIndex) else readable_name
    out.columns = [rename(c) for c in out.columns] if not isinstance(out.columns, pd.MultiIndex) else \
        pd.MultiIndex.from_tuples([rename(c) for c in out.columns], names=out.columns.names)
    out.index = out.index.set_names([readable_name(n) for n in out.index.names])
    out.columns = out.columns.set_names([readable_name(n) for n in out.columns.names])
    styler = out.style.format(format_label).format_index(format_label, axis=0).format_index(format_label, axis=1)
    if isinstance(out.index, pd.RangeIndex):
        styler = styler.hide(axis="index")
    if caption:
        styler = styler.set_caption(html_escape(caption))
    return styler


def use_table_format() -> None:
    """Make every pandas table a notebook displays read as :func:`readable` shows it: a displayed
    DataFrame goes through :func:`readable` (readable names, :func:`format_value` numbers — "2", not
    "2.000000"; no "-0" — library identifiers spelt out), a Styler without its own format uses
    :func:`format_value`.  Called by :func:`cmtlab.plotting.use_style`."""
    pd.set_option("display.float_format", format_value)
    pd.set_option("styler.format.formatter", format_value)
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with Jupyter
        return
    shell = get_ipython()
    if shell is not None:  # a notebook: a displayed DataFrame is shown as readable() shows it
        from pandas.io.formats.style import Styler

        html = shell.display_formatter.formatters["text/html"]
        html.for_type(pd.DataFrame, _readable_html)
        html.for_type(Styler, _readable_styler_html)


#: A displayed DataFrame longer than this keeps pandas' own (truncated) HTML.
READABLE_MAX_ROWS = 500


def _readable_html(frame: pd.DataFrame) -> str:
    if len(frame) > READABLE_MAX_ROWS or not frame.columns.is_unique or not frame.index.is_unique:
        return frame.to_html(max_rows=60)
    return render_math(readable(frame).to_html())


def _column_label(name) -> str:
    # a column whose values a readable() table would convert (bit/s → Mbit/s) keeps its name
    return format_label(name if _factor(name) != 1.0 else readable_name(name))


def _readable_styler_html(styler) -> str:
    """A Styler a notebook built itself (its own number formats kept): its row and column labels and
    its text cells as :func:`readable` shows them (labels of numbers by :func:`format_value`,
    library names spelt out, booleans yes / no)."""
    data = styler.data
    if not (data.columns.is_unique and data.index.is_unique):
        return styler.to_html()
    # the axes' names spelt out on a shallow copy (the notebook's frame keeps its own names)
    data = styler.data = data.copy(deep=False)
    data.index = styler.index = data.index.set_names([readable_name(n) for n in data.index.names])
    data.columns = styler.columns = data.columns.set_names([readable_name(n) for n in data.columns.names])
    styler.format_index(format_label, axis=0)
    styler.format_index(lambda c: _column_label(c) if isinstance(c, str) else format_label(c), axis=1)
    text = [c for c in data.columns
            if pd.api.types.is_bool_dtype(data[c]) or not pd.api.types.is_numeric_dtype(data[c])]
    if text:
        styler.format(format_label, subset=text)
    return render_math(styler.to_html())


# --------------------------------------------------------------------------- verdicts in short

def _claim_names(names: list[str], limit: int) -> str:
    shown = [f"“{n}”" for n in names[:limit]]
    if len(names) > limit:
        shown.append(f"{len(names) - limit} more")
    if len(shown) == 1:
        return shown[0]
    return ", ".join(shown[:-1]) + " and " + shown[-1]


def verdicts_in_short(table, *, max_named: int = 6) -> str:
    """The "verdicts in short" paragraph of a chapter, computed from its paper-vs-reproduction table.

    ``table`` is a :class:`Comparison` or a frame with ``claim`` and ``verdict`` columns (as
    :meth:`Comparison.to_frame`).  Returns Markdown of one to three sentences: the number of paper
    claims and the count per verdict (in the order of :data:`VERDICTS`, zeros left out); the names
    of the claims not reproduced (at most ``max_named``, then "n more"); and, if there are any, the
    number of undecided claims that more seeds could settle.  Checks of this book are not counted.

    >>> t = Comparison()
    >>> _ = t.add_value("gain", paper=2.0, ours=2.05)
    >>> _ = t.add_value("threshold", paper=35.6, ours=20.0, unit="ms")
    >>> verdicts_in_short(t)
    '**Verdicts in short.** Of 2 paper claims compared, 1 is reproduced and 1 is not reproduced. Not reproduced: “threshold”.'
    """
    if isinstance(table, Comparison):
        frame = table.to_frame()
    elif isinstance(table, pd.DataFrame):
        frame = table
    else:
        raise TypeError(f"table must be a Comparison or a pandas DataFrame, got {type(table).__name__}")
    missing = {"claim", "verdict"} - set(frame.columns)
    if missing:
        raise ValueError(f"table must have the columns 'claim' and 'verdict'; missing: {sorted(missing)}")
    if isinstance(max_named, bool) or not isinstance(max_named, int) or max_named < 1:
        raise ValueError(f"max_named must be an integer ≥ 1, got {max_named!r}")
    kinds = []
    for v in frame["verdict"]:
        v = str(v)
        kind = UNDECIDED if v.startswith(UNDECIDED) else v
        if kind not in VERDICTS:
            raise ValueError(f"unknown verdict {v!r} in the table (allowed: {', '.join(VERDICTS)}, "
                             f"'{UNDECIDED} at n seeds')")
        kinds.append(kind)
    n = len(kinds)
    if n == 0:
        return "**Verdicts in short.** No claim of a paper is compared in this chapter."
    counts = [(v, kinds.count(v)) for v in VERDICTS if kinds.count(v)]
    label = {PARTLY: "partly reproduced", BY_CONSTRUCTION: "set by construction", NOT_ASSESSED: "not assessed in this run"}
    parts = [f"{k} {'is' if k == 1 else 'are'} {label.get(v, v)}" for v, k in counts]
    listed = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    if len(counts) == 1 and n > 1:  # "all 3 are reproduced" rather than "of 3, 3 are reproduced"
        text = f"**Verdicts in short.** All {n} paper claims compared are {label.get(counts[0][0], counts[0][0])}."
    else:
        text = f"**Verdicts in short.** Of {n} paper claim{'s' if n != 1 else ''} compared, {listed}."
    failed = [str(c) for c, k in zip(frame["claim"], kinds) if k == NOT_REPRODUCED]
    if failed:
        text += f" Not reproduced: {_claim_names(failed, max_named)}."
    n_und = kinds.count(UNDECIDED)
    if n_und:
        text += (f" {n_und} {'claim is' if n_und == 1 else 'claims are'} undecided at the seeds run "
                 "(more seeds can decide).")
    return text


def show_verdicts_in_short(table, **kw) -> str:
    """Display :func:`verdicts_in_short` as Markdown in a notebook; returns the text."""
    from IPython.display import Markdown, display

    text = verdicts_in_short(table, **kw)
    display(Markdown(text))
    return text
