"""cmtlab — concurrent multipath transfer lab.

The library behind the cmtlab book.  Sub-packages follow the papers:

* :mod:`cmtlab.papers.song` — the analytical throughput model of Song et al. (TCP over
  multiple heterogeneous paths, sections 4.1–4.3, eqs. 1–24);
* :mod:`cmtlab.papers.song.asymmetry` — link-asymmetry metrics (Song eqs. 22–24);
* :mod:`cmtlab.measurements` — field-measurement reconstruction and public datasets;
* :mod:`cmtlab.report` — paper-vs-reproduction tables with computed verdicts;
* :mod:`cmtlab.plotting` — the one figure style of the book;
* :mod:`cmtlab.config` — quick (CI) versus full (published) run profiles.

Units: bandwidths and data rates in bit/s, delays in seconds, sizes in bytes,
unless a name says otherwise (``_kbps``, ``_ms``, ``_mbps``).
"""

__version__ = "0.1.0"

from . import compiled as _compiled  # noqa: E402

# the simulator's hot modules load from their compiled copies when built (cmtlab.compiled)
_compiled.install()

_SUBMODULES = ("asymmetry", "config", "report")


def __getattr__(name):
    """``cmtlab.report`` etc. without importing them first (PEP 562).

    Loaded on first use rather than by ``import cmtlab``, so that importing a simulator
    (``cmtlab.sim``) does not load the book's report helpers, and their sources are not part of
    the simulator's code version (:func:`cmtlab.sweep.import_closure`): editing a verdict table
    does not invalidate cached simulations.
    """
    if name in _SUBMODULES:
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
