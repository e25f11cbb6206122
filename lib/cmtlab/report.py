"""Paper-vs-reproduction tables.

Every reproduction notebook ends with one of these.  Paper numbers enter only here,
as comparison targets labelled as the paper's; the verdict is computed from the
reproduced value, never typed in.

>>> t = Comparison()
>>> t.add_value("4 links = 1 link at ADA (ms)", paper=35.6, ours=34.0, rel_tol=0.1)
>>> t.to_frame().loc[0, "verdict"]
'reproduced'
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

import pandas as pd

from ._validate import check_non_negative

VERDICTS = ("reproduced", "partly", "not reproduced", "by construction")
#: Verdict of a claim a run could not assess because it did not compute what the claim needs
#: (e.g. a papermill re-run with a subset of the scenarios); see :meth:`Comparison.add_not_assessed`.
NOT_ASSESSED = "not assessed"


def value_verdict(paper: float, ours: float, *, rel_tol: float = 0.10, partly_tol: float = 0.30) -> str:
    """Verdict for a numeric claim from the relative error ``|ours - paper| / |paper|``.

    ``<= rel_tol`` → ``"reproduced"``; ``<= partly_tol`` → ``"partly"``; otherwise
    ``"not reproduced"``.  A non-finite reproduced value is never reproduced.
    """
    check_non_negative("rel_tol", rel_tol)
    check_non_negative("partly_tol", partly_tol)
    if partly_tol < rel_tol:
        raise ValueError(f"partly_tol must be >= rel_tol ({rel_tol}), got {partly_tol}")
    ours = float(ours)
    paper = float(paper)
    if not (ours == ours) or ours in (float("inf"), float("-inf")):
        return "not reproduced"
    scale = abs(paper) if paper != 0 else 1.0
    err = abs(ours - paper) / scale
    if err <= rel_tol:
        return "reproduced"
    if err <= partly_tol:
        return "partly"
    return "not reproduced"


@dataclass
class Comparison:
    """Rows of (claim, paper's statement, reproduction, verdict, note)."""

    rows: list = field(default_factory=list)

    def add_value(self, claim: str, *, paper: float, ours: float, unit: str = "",
                  rel_tol: float = 0.10, partly_tol: float = 0.30, fmt: str = ".3g",
                  note: str = "") -> str:
        """A numeric claim; the verdict follows :func:`value_verdict`.  Returns the verdict."""
        verdict = value_verdict(paper, ours, rel_tol=rel_tol, partly_tol=partly_tol)
        u = f" {unit}" if unit else ""
        tol = f"(±{rel_tol:.0%} reproduced, ±{partly_tol:.0%} partly)"
        self.rows.append(dict(claim=claim, paper=f"{paper:{fmt}}{u}", reproduction=f"{ours:{fmt}}{u}",
                              verdict=verdict, note=(note + " " + tol).strip()))
        return verdict

    def add_claim(self, claim: str, *, paper: str, ours: str, holds, note: str = "") -> str:
        """A qualitative claim.

        ``holds`` is ``True`` (reproduced), ``False`` (not reproduced), or ``"partly"``;
        it must be computed from the reproduction, and ``note`` must say why when partly.
        """
        if holds is True:
            verdict = "reproduced"
        elif holds is False:
            verdict = "not reproduced"
        elif holds == "partly":
            if not note:
                raise ValueError("note must explain a 'partly' verdict")
            verdict = "partly"
        else:
            raise ValueError(f"holds must be True, False or 'partly', got {holds!r}")
        self.rows.append(dict(claim=claim, paper=paper, reproduction=ours, verdict=verdict, note=note))
        return verdict

    def add_input(self, claim: str, *, paper: str, ours: str, note: str = "") -> str:
        """A paper number the reproduction used as an input (so it matches by construction)."""
        self.rows.append(dict(claim=claim, paper=paper, reproduction=ours, verdict="by construction",
                              note=note or "paper number used as an input, not a result"))
        return "by construction"

    def add_not_assessed(self, claim: str, *, paper: str, reason: str, note: str = "") -> str:
        """A claim this run cannot assess: it did not compute what the claim needs.

        ``reason`` fills the reproduction column and must say what is missing (e.g. "not run with
        these parameters (needs scenario 1)"); the verdict is :data:`NOT_ASSESSED`, never a guess.
        """
        if not reason:
            raise ValueError("reason must say why the claim is not assessed")
        self.rows.append(dict(claim=claim, paper=paper, reproduction=reason, verdict=NOT_ASSESSED, note=note))
        return NOT_ASSESSED

    def to_frame(self) -> pd.DataFrame:
        return pd.DataFrame(self.rows, columns=["claim", "paper", "reproduction", "verdict", "note"])

    def summary(self) -> dict:
        """Count of rows per verdict: every one of :data:`VERDICTS`, plus :data:`NOT_ASSESSED` if any row has it."""
        counts = {v: 0 for v in VERDICTS}
        for row in self.rows:
            counts[row["verdict"]] = counts.get(row["verdict"], 0) + 1
        return counts

    def style(self):
        """A pandas Styler with the verdict column coloured, for display in the book."""
        colours = {"reproduced": "#d8f0d8", "partly": "#fff2c6", "not reproduced": "#f8d4d4",
                   "by construction": "#e4e4f4", NOT_ASSESSED: "#eeeeee"}
        frame = self.to_frame()
        uuid = hashlib.sha256(frame.to_json().encode()).hexdigest()[:8]  # stable HTML ids: quiet notebook diffs
        return (frame.style.set_uuid(uuid).hide(axis="index").format(escape="html")
                .map(lambda v: f"background-color: {colours.get(v, '')}", subset=["verdict"])
                .set_properties(**{"text-align": "left"}))
