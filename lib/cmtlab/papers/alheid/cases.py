"""A claim over cases as its row shows it (Alheid's chapters): the claim's value column names each case's value, so
that the row and the finding rendered from it show what decided, not only a count of cases."""

from __future__ import annotations

from ...report import Comparison

#: A case's value is spelled out in its claim's row when at most this long (else its verdict stands for it).
CASE_VALUE_CHARS = 48


def spell_cases(table: Comparison, claim) -> None:
    """After ``table.add_cases(claim)``: the claim's value column names each case's value ("2 of 3 cases reproduced —
    TCP-DOOR +64 %: 83.2 %; …"), so that the row and its finding show what decided, not only a count."""
    own = [r for r in table.rows if r.key == claim.key and not r.case][-1]
    parts = [f"{r.case}: {r.here if len(r.here) <= CASE_VALUE_CHARS else r.verdict}"
             for r in table.rows if r.key == claim.key and r.case]
    own.here = f"{own.here} — " + "; ".join(parts)


__all__ = ["CASE_VALUE_CHARS", "spell_cases"]
