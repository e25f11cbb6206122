"""How the book reports: verdict rules, paper-vs-reproduction tables, readable formatting, the figure style, the
run profiles and the notebooks' parameter types (layer 1: it imports no chapter and no simulator).

* :mod:`.verdicts` — the verdicts and the rules that decide them (the book's verdict policy);
* :mod:`.claims` — the papers' claims as data (:class:`~cmtlab.report.claims.Claim`, a paper's
  :class:`~cmtlab.report.claims.Registry`, a chapter's :class:`~cmtlab.report.claims.Decision`);
* :mod:`.quotes` — the papers' texts: where a quote stands (the quote test);
* :mod:`.facts` — :func:`glue_all`, a chapter's facts glued in one call;
* :mod:`.table` — :class:`Comparison`, the paper-vs-reproduction table, and the "verdicts in short";
* :mod:`.readable` — numbers, names and tables as readers read them;
* :mod:`.style` — the one figure style (``cmtlab.mplstyle``) and figure helpers;
* :mod:`.profile` — the quick and full run profiles (:func:`~cmtlab.report.profile.choose`);
* :mod:`.parameters` — notebook parameter types and :func:`~cmtlab.report.parameters.validate_parameters`.

``from cmtlab import report`` gives the names of the verdict rules, the table and the formatting, as before
(``report.Comparison``, ``report.MEASURED``, ``report.readable(frame)`` …).  Note that ``report.readable`` is
that function; the module is :mod:`cmtlab.report.readable` (``from cmtlab.report.readable import …``).
"""

from .verdicts import (BY_CONSTRUCTION, CHECK_MET, CHECK_NOT_MET, COMPUTED, MEASURED, NO_CHANGE, PREMISE_ABSENT,  # noqa: F401
                       NOT_ASSESSED, NOT_REPRODUCED, PARTLY, POLICY, REPRODUCED, SAME, UNDECIDED, VERDICTS, Band,
                       Condition, Threshold, cases_verdict, share_rule, trend_rule, value_verdict)
from .table import (ASKS_COLUMN, CHECK_COLUMNS, COLUMNS, GRID_CLASS, LONG_NOTE_CHARS, NARROW_COLUMNS, SHARED_RULE_CELL,  # noqa: F401
                    SHARED_RULE_ROWS, VERDICT_COLOURS, VERDICT_MARKS, WHOLE_WORD_HEADERS, Comparison, Row,
                    check_holds, show_verdicts_in_short, verdicts_in_short)
from .facts import glue_all  # noqa: F401
from .readable import (IDENTIFIER_WORDS, NAMES, READABLE_MAX_ROWS, UNIT_SUFFIXES, VALUE_NAMES, WORDS,  # noqa: F401
                       fmt_number, format_label, format_value, html_escape, no_negative_zero, readable, readable_name,
                       readable_text, render_math, use_table_format)

__all__ = [
    "BY_CONSTRUCTION", "CHECK_MET", "CHECK_NOT_MET", "COMPUTED", "MEASURED", "NO_CHANGE", "NOT_ASSESSED",
    "NOT_REPRODUCED", "PARTLY", "POLICY", "PREMISE_ABSENT", "REPRODUCED", "SAME", "UNDECIDED", "VERDICTS", "Band", "Condition",
    "Threshold", "cases_verdict", "share_rule", "trend_rule", "value_verdict", "glue_all",
    "ASKS_COLUMN", "CHECK_COLUMNS", "check_holds", "COLUMNS", "GRID_CLASS", "LONG_NOTE_CHARS", "NARROW_COLUMNS", "SHARED_RULE_CELL",
    "SHARED_RULE_ROWS", "VERDICT_COLOURS", "VERDICT_MARKS", "WHOLE_WORD_HEADERS", "Comparison", "Row",
    "show_verdicts_in_short", "verdicts_in_short",
    "IDENTIFIER_WORDS", "NAMES", "READABLE_MAX_ROWS", "UNIT_SUFFIXES", "VALUE_NAMES", "WORDS", "fmt_number",
    "format_label", "format_value", "html_escape", "no_negative_zero", "readable", "readable_name", "readable_text",
    "render_math", "use_table_format",
]
