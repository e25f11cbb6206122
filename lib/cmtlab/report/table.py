"""Paper-vs-reproduction tables (:class:`Comparison`): one row per paper claim — its verbatim words, where they
are, the paper's value, the value here with its 95 % CI, the rule that decided and the verdict (rules:
:mod:`cmtlab.report.verdicts`) — and the checks of this book apart; the verdicts' colours and marks; the
"verdicts in short" paragraph of a chapter (:func:`verdicts_in_short`).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

import pandas as pd

from ..stats import interval_words
from .claims import GLUE_KEY, Claim, Decision, dumps
from .readable import fmt_number, format_label, html_escape, no_negative_zero, readable_text, render_math
from .verdicts import (BY_CONSTRUCTION, CHECK_MET, CHECK_NOT_MET, COMPUTED, MEASURED, NOT_ASSESSED, NOT_REPRODUCED,
                       PARTLY, PREMISE_ABSENT, REPRODUCED, UNDECIDED, VERDICTS, Band, Condition, Threshold, _check_ci, _num,
                       cases_verdict, share_rule)

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

#: A rule shared by at least this many rows (and at least half of them) is written once, in the caption.
SHARED_RULE_ROWS = 3
#: What a rule cell shows when its rule is the caption's.
SHARED_RULE_CELL = "see caption"
#: A note longer than this (characters) moves under the table as a numbered note.
LONG_NOTE_CHARS = 120
#: The HTML class of a chapter's claim table as shown (:meth:`Comparison.show`): one line per claim —
#: claim, paper, value here, verdict — the rest folded into the claim's cell (:func:`claims_html`).
CLAIMS_CLASS = "cmtlab-claims"
#: The columns of a claim table's line; every other column goes into the row's details.
LINE_COLUMNS = ("claim", "paper", "verdict")


def row_id(key: str) -> str:
    """The HTML id of a registered claim's row in its chapter (``claim-<key>``, characters other than letters,
    digits, ``-`` and ``_`` as ``-``): the at-a-glance grid of the front pages links to it."""
    return "claim-" + re.sub(r"[^A-Za-z0-9_-]+", "-", key)

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
    #: (:meth:`Comparison.show`) instead of a line of the claim table.
    cell: tuple | None = None
    #: The registered claim (:attr:`cmtlab.report.claims.Claim.key`) the row decides, "" for an
    #: unregistered row.
    key: str = ""
    #: The case of the claim this row decides (a sub-measure); "" for the claim's own row.  A case
    #: row is not counted: its claim's row (:meth:`Comparison.add_cases`) is.
    case: str = ""

    @property
    def counted(self) -> bool:
        """Whether the row counts in :meth:`Comparison.summary`: a claim's row, not one of its cases."""
        return not self.case

    def kind(self) -> str:
        """The verdict's key in :meth:`Comparison.summary` ("undecided at 3 seeds" → ``undecided``)."""
        return UNDECIDED if self.verdict.startswith(UNDECIDED) else self.verdict


def _quote_text(quote: str) -> str:
    if not quote:
        return ""
    return quote if quote.startswith(("“", "\"", "—", "(")) else f"“{quote}”"


COLUMNS = ["claim", "paper's words", "where", "paper", "reproduction", "rule", "verdict", "note"]
CHECK_COLUMNS = ["check", "target", "reproduction", "rule", "verdict", "note"]
#: The column of a check that asks a registered paper claim again (its key, location and verbatim words).
ASKS_COLUMN = "the paper's claim it asks again"


def check_holds(verdict: str) -> bool | None:
    """A rule's verdict (:class:`~cmtlab.report.verdicts.Band`, :class:`~cmtlab.report.verdicts.Threshold`)
    as a check's ``holds``: reproduced → met, undecided → undecided, anything else (partly included) →
    not met — a check has no partial band.

    >>> check_holds("reproduced"), check_holds("partly"), check_holds("undecided at 3 seeds")
    (True, False, None)
    """
    if verdict.startswith(UNDECIDED):
        return None
    return verdict == REPRODUCED


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
        if row.key:
            same = [r for r in self.rows if r.key == row.key and r.case == row.case]
            if same:
                what = f"case {row.case!r} of claim" if row.case else "claim"
                raise ValueError(f"{what} {row.key!r} is decided twice in this table: one sentence, one claim")
        self.rows.append(row)
        return row.verdict

    @staticmethod
    def _claim(claim, quote: str, where: str, case: str) -> tuple[str, str, str, str, str]:
        """``(claim column, quote, where, key, case)`` of a registered :class:`Claim` (its words and
        location come from the registry: ``quote`` and ``where`` must not be given) or of a row given as
        text (a check-like row of a chapter that has no registry entry yet)."""
        if isinstance(claim, Claim):
            if quote or where:
                raise ValueError(f"claim {claim.key!r} is registered: its quote and location come from the "
                                 "registry (do not pass quote= or where=)")
            if case and claim.cases and case not in claim.cases:
                raise ValueError(f"case must be one of the cases of claim {claim.key!r} {list(claim.cases)}, "
                                 f"got {case!r}")
            title = f"{claim.title}: {case}" if case else claim.title
            return title, claim.quote_text(), claim.location, claim.key, case
        if case:
            raise ValueError("a case belongs to a registered claim: pass the Claim, not its text")
        if not isinstance(claim, str) or not claim:
            raise TypeError(f"claim must be a registered Claim (or a row's text), got {claim!r}")
        return claim, _quote_text(quote), where, "", ""

    def add_cases(self, claim: Claim, *, note: str = "", references: dict | None = None, summary: str = "") -> str:
        """Decide ``claim`` over the case rows added for it (``case=`` on the ``add_*`` calls) by the
        policy's rule for statements over cases (:func:`cmtlab.report.verdicts.cases_verdict`): every
        case reproduced → reproduced, at least half reproduced or partly → partly; an undecided case that
        could change the outcome → undecided.  Adds the claim's own row (the one that counts); its value
        column reads ``summary`` (the values in a few words, optional) before the count of the cases."""
        if not isinstance(claim, Claim):
            raise TypeError(f"claim must be a registered Claim, got {claim!r}")
        cases = [r for r in self.rows if r.key == claim.key and r.case]
        if not cases:
            raise ValueError(f"claim {claim.key!r} has no case rows in this table (add them with case=...)")
        if claim.cases:
            missing = [c for c in claim.cases if c not in {r.case for r in cases}]
            if missing:
                raise ValueError(f"claim {claim.key!r} misses the cases {missing}: decide every case it names")
        verdict, text = cases_verdict([r.verdict for r in cases])
        if summary:
            text = f"{summary} ({text})"
        title, quote, where, key, _ = self._claim(claim, "", "", "")
        return self._add(Row(title, quote, where, claim.target, text, share_rule().text(), verdict, note,
                             dict(references or {}), None, key, ""))

    def decisions(self) -> list[Decision]:
        """The decisions of the registered claims of this table (their own rows, cases inside)."""
        out = []
        for r in self.rows:
            if not r.key or r.case:
                continue
            cases = {c.case: {"here": c.here, "verdict": c.verdict} for c in self.rows
                     if c.key == r.key and c.case}
            out.append(Decision(r.key, r.here, r.rule, r.verdict, cases=cases, references=dict(r.references),
                                note=r.note))
        return out

    def add_value(self, claim: Claim | str, *, paper: float, ours: float, unit: str = "", quote: str = "", where: str = "",
                  band: Band = MEASURED, ci=None, n_seeds: int | None = None, fmt: str = ".3g", note: str = "",
                  references: dict | None = None, rel_tol: float | None = None, partly_tol: float | None = None,
                  paper_text: str | None = None, n_unit: str = "seeds", cell: tuple | None = None, case: str = "") -> str:
        """A number of the paper against the value here, decided by ``band`` (default :data:`MEASURED`).

        ``ci`` is the 95 % confidence interval of ``ours`` over ``n_seeds`` seeds; a band other than
        :data:`MEASURED`/:data:`COMPUTED` must carry its reason.  ``rel_tol``/``partly_tol`` build a
        band with the measured-number reason (kept for the old signature).  ``paper_text`` replaces the
        paper column's number (e.g. "comparable (ratio 1)"); ``n_unit`` names what ``n_seeds`` counts
        (e.g. "runs" for repetitions on a real kernel).  ``cell`` = ``(grid, row label, column label)``
        shows the row as a cell of a verdict grid (:meth:`grid_frame`) instead of a line of the claim
        table.  Returns the verdict.
        """
        claim, quote, where, key, case = self._claim(claim, quote, where, case)
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
            here += f" (95 % CI {fmt_number(ci_[0], fmt)} to {fmt_number(ci_[1], fmt)}{interval_words(ci)}{over})"
        elif n_seeds:
            here += f" ({n_seeds} seed{'s' if n_seeds > 1 else ''})"
        rule = band.text()
        if band not in (MEASURED, COMPUTED):
            rule += f" (this row: {band.reason})"
        paper_col = paper_text if paper_text is not None else fmt_number(paper, fmt) + u
        return self._add(Row(claim, _quote_text(quote), where, paper_col, here, rule, verdict,
                             note, dict(references or {}), cell, key=key, case=case))

    def add_threshold(self, claim: Claim | str, *, rule: Threshold, value: float, ours: str, quote: str = "",
                      where: str = "", paper: str = "", ci=None, n_seeds: int | None = None, note: str = "",
                      references: dict | None = None, case: str = "", n_unit: str = "seeds") -> str:
        """A claim decided by a statistic against the cut points of ``rule`` (a :class:`Threshold`).

        ``value`` is the statistic, ``ours`` the text of the value column (it should show ``value``);
        with ``ci`` (95 %, over ``n_seeds`` seeds) a value whose interval straddles a cut point is
        ``undecided at n seeds``; ``n_unit`` names what ``n_seeds`` counts (e.g. "clock values").
        """
        claim, quote, where, key, case = self._claim(claim, quote, where, case)
        verdict = rule.verdict(value, ci=ci, n_seeds=n_seeds)
        if n_unit != "seeds" and verdict.startswith(UNDECIDED):
            verdict = verdict.replace(" seeds", f" {n_unit}")
        ci_ = _check_ci(ci)
        if ci_ is not None:
            over = f", {n_seeds} {n_unit}" if n_seeds else ""
            ours += f" (95 % CI {_num(ci_[0])} to {_num(ci_[1])}{interval_words(ci)}{over})"
        text = rule.text()
        if not rule.reason.startswith("policy") and "(policy)" not in rule.reason:
            text += f" ({rule.reason})"
        return self._add(Row(claim, _quote_text(quote), where, paper, ours, text, verdict, note,
                             dict(references or {}), key=key, case=case))

    def add_claim(self, claim: Claim | str, *, paper: str, ours: str, holds, note: str = "", quote: str = "",
                  where: str = "", rule: Condition | str | None = None, references: dict | None = None, case: str = "") -> str:
        """A yes/no statement: ``holds`` is ``True``, ``False`` or ``"partly"``, computed from the runs.

        ``rule`` (a :class:`Condition` or its text) says what must hold; without it the row reads
        "holds → reproduced".  ``"partly"`` needs a condition with its ``partly_text`` or a ``note``.
        """
        claim, quote, where, key, case = self._claim(claim, quote, where, case)
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
                             dict(references or {}), key=key, case=case))

    def add_input(self, claim: Claim | str, *, paper: str, ours: str, note: str = "", quote: str = "", where: str = "",
                  references: dict | None = None, case: str = "") -> str:
        """A paper number the reproduction used as an input (so it matches by construction)."""
        claim, quote, where, key, case = self._claim(claim, quote, where, case)
        return self._add(Row(claim, _quote_text(quote), where, paper, ours, "used as an input → by construction",
                             BY_CONSTRUCTION, note or "paper number used as an input, not a result",
                             dict(references or {}), key=key, case=case))

    def add_constructed(self, claim: Claim | str, *, paper: str, ours: str, how: str, quote: str = "", where: str = "",
                        note: str = "", references: dict | None = None, case: str = "") -> str:
        """A paper claim that holds here because the book built it so (a reconstruction made to satisfy
        it, a chosen interpretation): shown, never counted as reproduced.  ``how`` says what was built."""
        claim, quote, where, key, case = self._claim(claim, quote, where, case)
        if not how:
            raise ValueError("how must say what makes the row hold by construction")
        return self._add(Row(claim, _quote_text(quote), where, paper, ours, f"{how} → by construction",
                             BY_CONSTRUCTION, note, dict(references or {}), key=key, case=case))

    def add_not_assessed(self, claim: Claim | str, *, paper: str, reason: str, note: str = "", quote: str = "",
                         where: str = "", references: dict | None = None, case: str = "") -> str:
        """A claim this run cannot assess: it did not compute what the claim needs (``reason`` says what)."""
        claim, quote, where, key, case = self._claim(claim, quote, where, case)
        if not reason:
            raise ValueError("reason must say why the claim is not assessed")
        return self._add(Row(claim, _quote_text(quote), where, paper, reason, "needs runs this run did not make",
                             NOT_ASSESSED, note, dict(references or {}), key=key, case=case))

    def add_premise_absent(self, claim: Claim | str, *, paper: str, premise: str, ours: str, note: str = "",
                           quote: str = "", where: str = "", references: dict | None = None, case: str = "") -> str:
        """A claim (or a case of it) stated under a premise that never occurs on the deciding reference (the
        policy's rule :data:`~cmtlab.report.verdicts.PREMISE_ABSENT`): *not assessed*, never evidence either way.
        ``premise`` says what never occurs and how often it was looked for (e.g. "0 spurious-retransmission
        detections in 296 runs"); ``ours`` what the runs show instead (shown, not counted)."""
        claim, quote, where, key, case = self._claim(claim, quote, where, case)
        if not premise:
            raise ValueError("premise must say what never occurs (and in how many runs)")
        here = f"premise absent: {premise}" + (f"; instead: {ours}" if ours else "")
        return self._add(Row(claim, _quote_text(quote), where, paper, here, PREMISE_ABSENT, NOT_ASSESSED, note,
                             dict(references or {}), key=key, case=case))

    # ------------------------------------------------------------------ checks of this book
    def add_check(self, check: str, *, target: str, ours: str, holds: bool | None, rule: str, note: str = "",
                  n_seeds: int | None = None, n_unit: str = "seeds", asks: Claim | None = None) -> str:
        """A check of this book (a target it set itself, a precision contract, agreement with another
        simulator, a question asked of today's stack) — not a paper claim, listed apart and never counted
        in :meth:`summary`.

        ``check`` and ``target`` are the book's own words (no quotation marks: a check quotes nobody).
        ``holds`` is ``True`` (met), ``False`` (not met) or ``None`` — the 95 % CI over ``n_seeds``
        ``n_unit`` straddles the rule's cut point: ``"undecided at n seeds"`` (use :func:`check_holds`
        to map a rule's verdict).  ``asks``: the registered paper claim the check asks again (e.g. on
        today's stack); the table shows its key, location and verbatim words beside the check, and the
        claim is neither decided nor counted here.
        """
        if not rule:
            raise ValueError("a check needs its rule")
        if holds is None:
            if not n_seeds:
                raise ValueError("an undecided check needs n_seeds (the CI's sample size)")
            verdict = f"{UNDECIDED} at {n_seeds} {n_unit}"
        else:
            verdict = CHECK_MET if bool(holds) else CHECK_NOT_MET
        if asks is not None and not isinstance(asks, Claim):
            raise TypeError(f"asks must be a registered Claim, got {asks!r}")
        row = dict(zip(CHECK_COLUMNS, (check, target, ours, rule, verdict, note)))
        row[ASKS_COLUMN] = (f"{asks.key} ({asks.location}): {asks.quote_text() or asks.printed}"
                            if asks is not None else "")
        self.checks.append(row)
        return verdict

    def add_check_threshold(self, check: str, *, rule: Threshold, value: float, ours: str, target: str,
                            ci=None, n_seeds: int | None = None, n_unit: str = "seeds", note: str = "",
                            asks: Claim | None = None) -> str:
        """A check decided by a statistic against ``rule``'s cut point (a :class:`Threshold`; its partly band,
        if any, counts as not met): with ``ci`` (95 %, over ``n_seeds`` ``n_unit``) an interval across the
        cut point is *undecided at n seeds*.  ``ours`` is the value column's text (the CI is appended)."""
        rule = Threshold(rule.statistic, rule.direction, rule.reproduced, rule.reason)   # no partial band
        verdict = rule.verdict(value, ci=ci, n_seeds=n_seeds)
        ci_ = _check_ci(ci)
        if ci_ is not None:
            ours += f" (95 % CI {_num(ci_[0])} to {_num(ci_[1])}{interval_words(ci)}" + \
                (f", {n_seeds} {n_unit})" if n_seeds else ")")
        elif n_seeds:
            ours += f" ({n_seeds} {n_unit})"
        text = f"{rule.statistic} {dict(zip(('>=', '>', '<=', '<'), ('≥', '>', '≤', '<')))[rule.direction]} " \
               f"{_num(rule.reproduced)} → met; else not met ({rule.reason}"
        text += "; a 95 % CI across the cut point: undecided)" if ci_ is not None else ")"
        return self.add_check(check, target=target, ours=ours, holds=check_holds(verdict), rule=text, note=note,
                              n_seeds=n_seeds, n_unit=n_unit, asks=asks)

    def add_check_band(self, check: str, *, expected: float, value: float, band: Band, target: str = "",
                       ci=None, n_seeds: int | None = None, n_unit: str = "seeds", fmt: str = ".3g", unit: str = "",
                       note: str = "", asks: Claim | None = None) -> str:
        """A check of a number against an expected one (theory, a target of this book) by ``band``'s
        inner tolerance: ``|Δ| ≤ band.reproduced`` → met (the partly band counts as not met); with ``ci``
        a deviation whose interval crosses the tolerance is *undecided at n seeds*."""
        band = Band(band.reproduced, band.reproduced, reason=band.reason)   # no partial band
        verdict = band.verdict(expected, value, ci=ci, n_seeds=n_seeds)
        u = f" {unit}" if unit else ""
        ours = fmt_number(value, fmt) + u
        ci_ = _check_ci(ci)
        if ci_ is not None:
            ours += f" (95 % CI {fmt_number(ci_[0], fmt)} to {fmt_number(ci_[1], fmt)}{interval_words(ci)}" + \
                    (f", {n_seeds} {n_unit})" if n_seeds else ")")
        elif n_seeds:
            ours += f" ({n_seeds} {n_unit})"
        rule = (f"|Δ| ≤ {100 * band.reproduced:g} % of the expected value → met; else not met ({band.reason}"
                + ("; a 95 % CI across the tolerance: undecided)" if ci_ is not None else ")"))
        return self.add_check(check, target=target or f"{fmt_number(expected, fmt)}{u}", ours=ours,
                              holds=check_holds(verdict), rule=rule, note=note, n_seeds=n_seeds, n_unit=n_unit,
                              asks=asks)

    # ------------------------------------------------------------------ output
    def reference_columns(self) -> list[str]:
        cols = []
        for r in self.rows:
            cols += [c for c in r.references if c not in cols]
        return cols

    def to_frame(self, *, cases: bool = False) -> pd.DataFrame:
        """The rows that count (one per claim) as a frame; ``cases=True``: the case rows instead (the
        sub-measures a claim was decided over, not counted)."""
        refs = self.reference_columns()
        cols = COLUMNS[:4] + [self.here_column] + refs + COLUMNS[5:]
        data = []
        for r in self.rows:
            if r.counted == cases:
                continue
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

    def grid_html(self, grid: str, *, caption: str = "", counted: bool = True) -> str:
        """:meth:`style_grid` as HTML, each registered claim's cell holding the anchor :func:`row_id` (the
        front pages' grid of every claim links to it)."""
        styler = self.style_grid(grid, caption=caption, counted=counted)
        out = styler.to_html()
        text, _ = self.grid_frame(grid)
        rows, cols = list(text.index), list(text.columns)
        for r in self.rows:
            if r.cell is None or r.cell[0] != grid or not r.key or r.case:
                continue
            i, j = rows.index(r.cell[1]), cols.index(r.cell[2])
            out = re.sub(rf'(<td id="T_{styler.uuid}_row{i}_col{j}"[^>]*>)', rf'\1<span id="{row_id(r.key)}"></span>',
                         out, count=1)
        return out

    def checks_frame(self) -> pd.DataFrame:
        """The checks of this book; the column :data:`ASKS_COLUMN` (the registered claim a check asks
        again) only where a check names one."""
        cols = CHECK_COLUMNS[:1] + ([ASKS_COLUMN] if any(c.get(ASKS_COLUMN) for c in self.checks) else []) + CHECK_COLUMNS[1:]
        return pd.DataFrame([{k: c.get(k, "") for k in cols} for c in self.checks], columns=cols)

    def summary(self) -> dict:
        """Count of paper-claim rows per verdict, every one of :data:`VERDICTS` (checks of this book not counted)."""
        counts = {v: 0 for v in VERDICTS}
        for row in self.rows:
            if row.counted:
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
        assert sum(counted.values()) == sum(r.counted for r in self.rows)
        for r in self.rows:
            assert r.kind() in VERDICTS, r
            assert r.rule and r.here and r.claim, r
        for c in self.checks:
            assert (c["verdict"] in (CHECK_MET, CHECK_NOT_MET) or c["verdict"].startswith(UNDECIDED)) and c["rule"], c
        return ("verdict counts = the table's verdict column; every row carries its value, rule and verdict; "
                f"checks of this book kept apart: {bool(self.checks) or 'none in this chapter'}")

    def glue(self, prefix: str = "verdicts") -> dict:
        """Glue the verdict counts for the scoreboard: ``{prefix}_{verdict}`` (spaces as ``_``) and
        ``{prefix}_claims`` (all paper-claim rows), ``{prefix}_text``.  Returns the glued values."""
        from myst_nb import glue

        out = {f"{prefix}_{v.replace(' ', '_')}": n for v, n in self.summary().items()}
        out[f"{prefix}_claims"] = sum(r.counted for r in self.rows)
        out[f"{prefix}_checks_met"] = sum(c["verdict"] == CHECK_MET for c in self.checks)
        out[f"{prefix}_checks"] = len(self.checks)
        for k, v in out.items():
            glue(k, v, display=False)
        glue(f"{prefix}_text", self.summary_text(), display=False)
        if prefix == "verdicts":   # the registered claims this chapter decides, for the book's findings
            glue(GLUE_KEY, dumps(self.decisions()), display=False)
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
        "note n" (rows with the same note share its number).  Negative zeros ("-0 %") read as zeros.  The verdicts and every other cell are
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
                    text = no_negative_zero(text)
                    if text not in notes:          # the same note under several rows is written once
                        notes.append(text)
                    frame.loc[i, "note"] = f"note {notes.index(text) + 1}"
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

    def claims_html(self, frame: pd.DataFrame | None = None, *, cases: bool = False) -> str:
        """The paper-claim table (``cases=True``: its case rows) as shown in a chapter: one line per claim,
        the details folded in the row (:func:`claims_html`); a rule shared by most rows is stated once, in
        the caption (:meth:`layout`), and in full in each row's details."""
        rows = [r for r in self.rows if (not r.counted) == cases and r.cell is None]
        if frame is None:
            frame = self.to_frame(cases=cases)[[r.cell is None for r in self.rows if (not r.counted) == cases]]
            frame = frame.reset_index(drop=True)
        _, caption, _ = self.layout(frame)
        keys = [r.key if not r.case else "" for r in rows] if len(rows) == len(frame) else None
        return claims_html(frame, here_column=self.here_column, caption=caption, keys=keys)

    def show(self, *, grid_captions: dict | None = None):
        """Display the paper-claim table (its long notes under it), its verdict grids (rows added with
        ``cell=``; ``grid_captions``: grid name → caption text before the rule) and, if any, the checks
        of this book (in a notebook)."""
        from IPython.display import HTML, Markdown, display

        if self.rows:
            frame = self.to_frame()
            lines = [r.cell is None for r in self.rows if r.counted]
            if any(lines):
                shown = frame[lines].reset_index(drop=True)
                refs = self.reference_columns()
                main = shown.drop(columns=refs)
                if not main["paper's words"].astype(bool).any():   # no claim quoted: no empty column
                    main = main.drop(columns=["paper's words"])
                display(HTML(self.claims_html(main)))
                if refs:  # the other references beside the claims, in a table of their own (easier to scan)
                    display(Markdown("**The same claims on the other references** (shown beside the verdicts "
                                     "above; not counted):"))
                    display(HTML(self._html(shown[["claim"] + refs], "references")))
            loose = [r.cell is None for r in self.rows if not r.counted]
            if any(loose):
                display(Markdown("**The cases of the claims above** (each claim is decided over its cases by the "
                                 "policy's rule for statements over cases; the cases are not counted):"))
                cases = self.to_frame(cases=True)[loose].reset_index(drop=True)
                empty = [c for c in self.reference_columns() if not cases[c].astype(bool).any()]  # none of the cases has it
                shown_cases = cases.drop(columns=[c for c in ("paper's words", "where") if c in cases] + empty)
                display(HTML(claims_html(shown_cases, here_column=self.here_column, caption=self.layout(shown_cases)[1])))
            for grid in self.grids():
                display(HTML(self.grid_html(grid, caption=(grid_captions or {}).get(grid, grid))))
        else:
            display(Markdown("No claim of a paper is compared in this chapter (its verdict counts are zero)."))
        if self.checks:
            display(Markdown("**Checks of this book** (targets this book set itself, agreement with another "
                             "simulator, questions asked of today's stack; not paper claims, not counted in the "
                             "verdicts):"))
            display(HTML(self._html(self.checks_frame(), "checks")))


# --------------------------------------------------------------------------- the claim table as read
def _verdict_colour(verdict: str) -> str:
    key = UNDECIDED if str(verdict).startswith(UNDECIDED) else verdict
    return VERDICT_COLOURS.get(key, "")


def claims_html(frame: pd.DataFrame, *, here_column: str = "reproduction", caption: str = "",
                keys: list[str] | None = None) -> str:
    """A claim table as a reader reads it: one line per claim — claim, paper, the value here (with its
    95 % CI), verdict — and the claim's other columns (the paper's words and where they are, the rule,
    other references, the note) in a ``<details>`` the reader opens in the claim's cell.  Every column
    of the line is narrow enough that the table fits the text column without breaking a word
    (``_static/cmtlab-layout.css``, ``tests/browser/test_words_whole.py``).

    ``frame`` has the columns of :meth:`Comparison.to_frame` (``claim``, ``paper``, ``here_column``,
    ``verdict`` and any others); ``keys`` (one per row, "" for none) gives each registered claim's cell
    the id :func:`row_id`.  The header row starts with "claim" and has a "verdict" column; each row's
    verdict cell holds the verdict's text alone (the stored-output readers of the book's tests count it).
    """
    missing = {"claim", "verdict"} - set(frame.columns)
    if missing:
        raise ValueError(f"frame must have the columns 'claim' and 'verdict'; missing: {sorted(missing)}")
    if keys is not None and len(keys) != len(frame):
        raise ValueError(f"keys must give one key per row ({len(frame)}), got {len(keys)}")
    line = [c for c in ("claim", "paper", here_column, "verdict") if c in frame.columns]
    detail = [c for c in frame.columns if c not in line]
    labels = {"paper's words": "the paper's words", "where": "where in the paper", "rule": "rule that decided"}
    if "paper's words" in detail:
        labels["paper's words"] = "the paper's words (where)"

    def cell(v) -> str:
        return format_label(no_negative_zero(v) if isinstance(v, str) else v)

    head = "".join(f'<th class="cmtlab-{"verdict" if c == "verdict" else "col"}">{format_label(c)}</th>' for c in line)
    body = []
    for i, (_, r) in enumerate(frame.iterrows()):
        parts = []
        quote, where = str(r.get("paper's words", "") or ""), str(r.get("where", "") or "")
        for c in detail:
            v = r[c]
            if c == "where" and quote or v is None or (isinstance(v, str) and not v.strip()):
                continue
            text = cell(v)
            if c == "paper's words" and where:
                text += f" ({cell(where)})"
            parts.append(f"<dt>{html_escape(labels.get(c, c))}</dt><dd>{text}</dd>")
        claim = cell(r["claim"])
        key = keys[i] if keys else ""
        ident = f' id="{row_id(key)}"' if key else ""
        if parts:
            claim = (f'<details><summary>{claim}</summary><dl class="cmtlab-claim-detail">{"".join(parts)}</dl>'
                     "</details>")
        tds = []
        for c in line:
            if c == "claim":
                tds.append(f'<td class="cmtlab-claim"{ident}>{claim}</td>')
            elif c == "verdict":
                colour = _verdict_colour(r[c])
                style = f' style="background-color: {colour}"' if colour else ""
                tds.append(f'<td class="cmtlab-verdict"{style}>{html_escape(str(r[c]))}</td>')
            else:
                tds.append(f'<td class="cmtlab-col">{cell(r[c])}</td>')
        body.append("<tr>" + "".join(tds) + "</tr>")
    hint = "One line per claim: open a claim (▸) for the rest of its row — " + ", ".join(
        dict.fromkeys(labels.get(c, c).removeprefix("the ") for c in detail if c != "where" or "paper's words" not in detail)) + "."
    cap = " ".join(x for x in (readable_text(caption) if caption else "", hint if detail else "") if x)
    return render_math(f'<table class="{CLAIMS_CLASS}">' + (f"<caption>{cap}</caption>" if cap else "")
                       + f"<thead><tr>{head}</tr></thead><tbody>" + "".join(body) + "</tbody></table>")


# --------------------------------------------------------------------------- verdicts in short

def _claim_names(names: list[str], limit: int) -> str:
    # the book's short titles of the claims, in italics: never in quotation marks (those hold the papers' words)
    shown = [f"*{n.strip('*')}*" for n in names[:limit]]
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
    label = {PARTLY: "partly reproduced", BY_CONSTRUCTION: "set by construction",
             NOT_ASSESSED: "not assessed (missing runs, or a premise that never occurs)"}
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
