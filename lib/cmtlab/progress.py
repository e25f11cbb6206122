"""Progress bars for long computations (one place, so every module behaves the same).

Bars are text bars on stderr (``tqdm.std``; the widget flavour would need ipywidgets and
JavaScript from the network in the rendered book).  Set the environment variable
``CMTLAB_PROGRESS=0`` to silence them everywhere — the Makefile does so for the book build
and the notebook tests, so that rendered pages do not carry progress-bar debris; a reader
running a notebook or papermill sees them.
"""

from __future__ import annotations

import os
import sys

ENV_VAR = "CMTLAB_PROGRESS"


def enabled(requested: bool = True) -> bool:
    """``requested`` unless ``CMTLAB_PROGRESS`` is set to 0/false/off/no."""
    return bool(requested) and os.environ.get(ENV_VAR, "1").strip().lower() not in ("0", "false", "off", "no")


def progress(iterable=None, *, desc: str = "", total: int | None = None, unit: str = "it", enabled_: bool = True):
    """A tqdm bar over ``iterable`` (or a manual bar if ``iterable`` is None); a no-op when disabled.

    With ``iterable`` and the bar disabled, ``iterable`` itself is returned.  Without it, an
    object with ``update(n)`` and ``close()`` is returned either way.
    """
    on = enabled(enabled_)
    if not on and iterable is not None:
        return iterable
    from tqdm.std import tqdm
    return tqdm(iterable, desc=desc, total=total, unit=unit, file=sys.stderr, disable=not on,
                mininterval=0.5, dynamic_ncols=True)
