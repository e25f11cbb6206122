"""Where the recorded 30-seed runs of Alheid Figs. 4-5 and Table I are (``data/alheid/``) and how one is read.

What the records hold, how they are made and served: :mod:`cmtlab.papers.alheid.records` (``make alheid-records``)
and :func:`cmtlab.sweep.recorded.run_with_records`.  The chapters' runs (:func:`cmtlab.papers.alheid.experiments.run`,
:func:`cmtlab.papers.alheid.table1.run`) read a record by its name here.
"""

from __future__ import annotations

from pathlib import Path

from ..._paths import DATA
from ...sweep.recorded import RecordedRuns

__all__ = ["DATA_DIR", "FILES", "path", "load"]

DATA_DIR = DATA / "alheid"
#: Record name → its file in :data:`DATA_DIR`.
FILES = {"fig4": "fig4-runs.jsonl.gz", "fig5": "fig5-runs.jsonl.gz", "table1": "table1-runs.jsonl.gz"}


def _check(name: str) -> None:
    if name not in FILES:
        raise ValueError(f"record must be one of {sorted(FILES)}, got {name!r}")


def path(name: str) -> Path:
    """The file of record ``name`` (``"fig4"``, ``"fig5"`` or ``"table1"``)."""
    _check(name)
    return DATA_DIR / FILES[name]


def load(name: str) -> RecordedRuns:
    """Record ``name`` as :class:`~cmtlab.sweep.recorded.RecordedRuns`."""
    return RecordedRuns.load(path(name))
