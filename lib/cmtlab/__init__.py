"""cmtlab — concurrent multipath transfer lab.

The library behind the cmtlab book, laid out like the book, in layers (bottom to top; a part imports only
from its own layer or below — ``tests/test_layers.py`` checks it on every import statement):

0. basics — :mod:`cmtlab._paths` (the repository root, ``REPO`` and ``DATA``), :mod:`cmtlab._validate` (input
   checks), :mod:`cmtlab.pinned` (the recorded files pinned by SHA-256 in ``data/MANIFEST.json``, and their one
   reader), :mod:`cmtlab.progress` (progress bars), :mod:`cmtlab.compiled` (the simulator's compiled
   modules), :mod:`cmtlab._git` (the checkout's state, for provenance);
1. :mod:`cmtlab.scenario` — the scenarios and results shared by the simulators; :mod:`cmtlab.stats` — mean
   and confidence interval; :mod:`cmtlab.report` — verdict rules, paper-vs-reproduction tables, readable
   formatting, the one figure style (:mod:`cmtlab.report.style`), the run profiles
   (:mod:`cmtlab.report.profile`) and the notebooks' parameter types (:mod:`cmtlab.report.parameters`);
   :mod:`cmtlab.measurements` — the field measurements' reconstruction and the public datasets;
2. :mod:`cmtlab.sim` — the book's packet-level simulator (TCP and MPTCP, ns-3.44's semantics);
   :mod:`cmtlab.sweep` — sweeps over scenarios and seeds with a result cache;
3. the references, instruments that know no paper — :mod:`cmtlab.ns3` (ns-3.44), :mod:`cmtlab.papers_sim`
   (the papers' own ns-3.7 MPTCP model, built from source), :mod:`cmtlab.testbed` (the Linux kernel's
   MPTCP in network namespaces);
4. :mod:`cmtlab.papers` — the four papers, one package each (:mod:`~cmtlab.papers.song`,
   :mod:`~cmtlab.papers.osia`, :mod:`~cmtlab.papers.arabi`, :mod:`~cmtlab.papers.alheid`), each with its
   ``paper.py`` (the paper's numbers, quotes and set-ups);
5. :mod:`cmtlab.validation` — the simulator against ns-3, MPTCP's theory, the papers' simulator and the
   kernel; the Wi-Fi model against ns-3;
6. :mod:`cmtlab.today` — the papers' questions asked again on today's transport.

Units: bandwidths and data rates in bit/s, delays in seconds, sizes in bytes,
unless a name says otherwise (``_kbps``, ``_ms``, ``_mbps``).
"""

__version__ = "0.1.0"

from . import compiled as _compiled  # noqa: E402

# the simulator's hot modules load from their compiled copies when built (cmtlab.compiled)
_compiled.install()

_SUBMODULES = ("report",)


def __getattr__(name):
    """``cmtlab.report`` without importing it first (PEP 562).

    Loaded on first use rather than by ``import cmtlab``, so that importing a simulator
    (``cmtlab.sim``) does not load the book's report helpers, and their sources are not part of
    the simulator's code version (:func:`cmtlab.sweep.import_closure`): editing a verdict table
    does not invalidate cached simulations.
    """
    if name in _SUBMODULES:
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
