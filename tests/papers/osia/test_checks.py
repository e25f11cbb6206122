"""cmtlab.papers.osia.checks: Table I worked through in words."""

from cmtlab.papers import osia
from cmtlab.papers.osia import checks


def test_worked_example_lines_read_as_numbers_and_show_the_printed_sum():
    """Table I worked through: the consistent f_h sum to one, eq. 13 as printed does not (3 paths:
    1.4211), and the lines hold numbers, never an array's repr."""
    sets = {n: osia.preprocess(*osia.table1_paths(n)) for n in (2, 3, 4)}
    lines = checks.worked_example_lines(sets)
    assert not any("[" in ln or "]" in ln or "nan" in ln for ln in lines)
    i = lines.index("3 paths (sorted)")
    assert lines[i + 1].endswith("(sum 1.0000)")
    assert lines[i + 2] == "  f_h, eq. 13 as printed: 0.4211, 1.0000 (sum 1.4211)"
    assert sum(ln.startswith("  chunk") for ln in lines) == 2 + 3 + 4
