"""What a reader sees of every notebook: code folded, no test markers, a re-run box, verdicts in short.

- the ``parameters`` and ``validate-parameters`` cells and the short cells that draw a figure (the
  one call that computes it, at most :data:`FIGURE_MAX_LINES` lines) stay visible; every other code
  cell is tagged ``hide-input`` (Jupyter Book shows a toggle);
- the output of the cell that prints a table's consistency statement (a check for nbval, not a
  result) is kept in the notebook but removed from the page (tag ``remove-output``);
- nbval's output checks are the cell tag ``nbval-check-output`` (nbval 0.11 honours it under
  ``--nbval-lax`` exactly like the comment ``# NBVAL_CHECK_OUTPUT``, which readers would see);
- a "Re-run this page" admonition right after the title gives the papermill command of that
  notebook, an example parameter of its ``parameters`` cell and the expected run time;
- a hidden cell next to the paper-vs-reproduction table prints its verdicts in short
  (:func:`cmtlab.report.show_verdicts_in_short`).
"""

import re

import nbformat
import pytest

from cmtlab._paths import REPO

NOTEBOOKS = sorted((REPO / "notebooks").glob("*.ipynb"))
VISIBLE = {"parameters", "validate-parameters"}
# the plotting call (up to 4 lines) + its caption: two imports and show_figure(...) (cmtlab.report.figure, issue 38)
FIGURE_MAX_LINES = 4 + 3
# re-executed by the lead at the time of the change: folded, boxed and tagged after the merge
# (python fold.py notebooks/linux-mptcp-validation.ipynb; then drop it from here)
PENDING: set[str] = set()
# notebooks another helper or the real-time testbed owns at the time of the change: tagged by the lead
PENDING_REMOVE_OUTPUT: set[str] = set()


def _tags(cell):
    return cell.metadata.get("tags", [])


def _is_figure(cell):
    return (any("image/png" in o.get("data", {}) for o in cell.get("outputs", []))
            and cell.source.count("\n") + 1 <= FIGURE_MAX_LINES)


@pytest.fixture(params=NOTEBOOKS, ids=lambda p: p.stem)
def nb(request):
    return request.param.stem, nbformat.read(request.param, as_version=4)


def test_code_is_folded_except_parameters_and_figures(nb):
    name, book = nb
    if name in PENDING:
        pytest.skip("folded by the lead after re-executing this notebook")
    code = [c for c in book.cells if c.cell_type == "code"]
    for tag in VISIBLE:
        cells = [c for c in code if tag in _tags(c)]
        assert len(cells) == 1 and "hide-input" not in _tags(cells[0]), (name, tag)
    unfolded = [c.id for c in code if "hide-input" not in _tags(c) and not VISIBLE & set(_tags(c))
                and not _is_figure(c)]
    assert not unfolded, f"{name}: code cells shown to readers that are neither parameters nor a figure: {unfolded}"


def test_output_checks_are_tags_not_visible_comments(nb):
    name, book = nb
    tagged = [c for c in book.cells if c.cell_type == "code" and "nbval-check-output" in _tags(c)]
    commented = [c for c in book.cells if c.cell_type == "code" and "NBVAL_CHECK_OUTPUT" in c.source]
    assert len(tagged) + len(commented) >= 1, f"{name}: no output of this notebook is checked by nbval"
    if name not in PENDING:
        assert not commented, f"{name}: '# NBVAL_CHECK_OUTPUT' shows to readers; tag the cell nbval-check-output"
    for c in tagged:
        assert "hide-input" in _tags(c) or name in PENDING, (name, c.id)


def test_rerun_box_after_the_title(nb):
    name, book = nb
    if name in PENDING:
        pytest.skip("added by the lead after re-executing this notebook")
    assert book.cells[0].cell_type == "markdown" and book.cells[0].source.startswith("# ")
    box = book.cells[1]
    assert box.cell_type == "markdown" and "rerun-box" in _tags(box)
    assert box.source.startswith("````{admonition} Re-run this page")
    assert re.search(r"CMTLAB_PROFILE=full \.venv/bin/papermill -k python3 \\\n\s+notebooks/" + re.escape(name)
                     + r"\.ipynb /tmp/" + re.escape(name) + r"\.ipynb", box.source), name
    params = book.cells[2].source  # the parameters cell
    assert "parameters" in _tags(book.cells[2])
    examples = re.findall(r"-p (\w+) ", box.source) + re.findall(r"-y '\{(\w+):", box.source)
    assert examples and all(re.search(rf"^{p}\s*=", params, re.M) for p in examples), (name, examples)
    assert "Expected run time:" in box.source


def test_consistency_statement_is_not_shown(nb):
    name, book = nb
    if name in PENDING_REMOVE_OUTPUT:
        pytest.skip("tagged by the lead when this notebook is executed again")
    cells = [c for c in book.cells if c.cell_type == "code" and ".consistency()" in c.source]
    assert cells, name
    for c in cells:
        assert "remove-output" in _tags(c), f"{name}: the consistency statement shows to readers (tag remove-output)"


def test_verdicts_in_short_next_to_the_table(nb):
    name, book = nb
    if name in PENDING:
        pytest.skip("added by the lead after re-executing this notebook")
    idx = [i for i, c in enumerate(book.cells) if c.cell_type == "code" and ".consistency()" in c.source]
    assert idx, name
    cell = book.cells[idx[-1] + 1]
    table = re.search(r"print\(([\w.]+)\.consistency\(\)\)", book.cells[idx[-1]].source).group(1)
    # the same table the consistency check printed (Arabi: its Comparison, comparison.table)
    assert cell.cell_type == "code" and re.search(rf"show_verdicts_in_short\({re.escape(table)}(\.table)?\)",
                                                  cell.source), name
    assert "hide-input" in _tags(cell)
