"""The unit tests mirror the library's layout (``tests/sim/…``, ``tests/papers/<paper>/``, ``tests/validation/``,
``tests/references/``, ``tests/report/``, …).  Test files of different folders may share a name, so pytest
imports them with ``--import-mode=importlib`` (``make test-unit`` passes it; add it when calling pytest on
several folders).  The helpers shared by several test files are the package ``tests/helpers`` (``from
helpers.sim import DropData``), importable because this folder is put on ``sys.path`` here; the fixtures
shared by several folders are below.
"""

import os
import sys
from pathlib import Path

import pytest

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)

IN_CI = os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


@pytest.fixture(scope="module")
def built():
    """The papers' simulator's driver executable, built (incrementally) from the pinned sources: skipped without
    a C++ compiler, except under CI (``CI=true``), where it fails (CI must build and run the model)."""
    from cmtlab.papers_sim import build as bld
    from cmtlab.papers_sim import model

    try:
        bld.compiler()
    except bld.BuildError as exc:
        if IN_CI:
            pytest.fail(f"CI must build the papers' simulator: {exc}")
        pytest.skip(f"no C++ compiler here: {exc}")
    try:
        return model.binary()
    except bld.BuildError as exc:
        if IN_CI:
            raise
        pytest.skip(f"the papers' simulator cannot be built here: {exc}")


@pytest.fixture(scope="session")
def papers_texts():
    """The papers' texts (``cmtlab.report.quotes``): skipped where they are absent, except under CI
    (``CI=true``), where their absence fails the tests that check quotes against them."""
    from cmtlab.report import quotes

    reason = quotes.available()
    if reason:
        if IN_CI:
            pytest.fail(f"CI must check every quote against the papers' texts: {reason}")
        pytest.skip(f"the papers' texts are not here: {reason}")
    return quotes
