"""cmtlab — concurrent multipath transfer lab.

The library behind the cmtlab book.  Sub-packages follow the papers:

* :mod:`cmtlab.song` — the analytical throughput model of Song et al. (TCP over
  multiple heterogeneous paths, sections 4.1–4.3, eqs. 1–24);
* :mod:`cmtlab.asymmetry` — link-asymmetry metrics (Song eqs. 22–24);
* :mod:`cmtlab.measurements` — field-measurement reconstruction and public datasets;
* :mod:`cmtlab.report` — paper-vs-reproduction tables with computed verdicts;
* :mod:`cmtlab.plotting` — the one figure style of the book;
* :mod:`cmtlab.config` — quick (CI) versus full (published) run profiles.

Units: bandwidths and data rates in bit/s, delays in seconds, sizes in bytes,
unless a name says otherwise (``_kbps``, ``_ms``, ``_mbps``).
"""

__version__ = "0.1.0"

from . import asymmetry, config, report  # noqa: E402,F401
