"""Today's answers to the papers' problem: RACK-TLP, CUBIC, BLEST, ECF and Linux's MPTCP
scheduler beside the papers' mechanisms.  Library side of the chapter ``notebooks/today-transport.ipynb``;
the mechanisms themselves live in :mod:`cmtlab.sim.mechanisms`.

* :mod:`cmtlab.today.cubic_ns3` — :class:`cmtlab.sim.mechanisms.congestion.Cubic` against ns-3.44's
  ``TcpCubic`` on the same single-path scenarios;
* :mod:`cmtlab.today.kernel` — the simulator configured like the kernel against the real kernel, cell by cell
  (trace cells included), and the replay check of the trace-driven links on both sides
  (:func:`~cmtlab.today.kernel.replay_checks`);
* :mod:`cmtlab.today.chapter` — the papers' mechanisms beside today's on the papers' scenario and a real
  5G + Starlink pair; :mod:`cmtlab.today.figures` — the chapter's figures;
* :mod:`cmtlab.today.traces` — rate schedules from the public 5G and Starlink measurements.

:data:`DATA_DIR` holds the recorded kernel runs and their simulator rows (``data/today``).
"""

from .._paths import DATA

#: ``data/today`` of the repository: recorded kernel runs (see its README for provenance).
DATA_DIR = DATA / "today"
