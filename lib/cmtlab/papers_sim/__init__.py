"""The papers' own simulator, built and run by the book: the Chihani–Collange ns-3 MPTCP model (ns-3.7).

Alheid et al. and Arabi et al. simulated MPTCP with this model; the book builds it from the pinned
public sources (:mod:`cmtlab.papers_sim.build`, ``make papers-sim``), runs scenarios on it through a
driver faithful to the model's own example ``mpTopology.cc`` (:mod:`cmtlab.papers_sim.model`), and
keeps recorded results with their provenance under ``data/papers-sim/`` so the book builds without
a compiler (:mod:`cmtlab.papers_sim.record`).

* :func:`scenario` / :func:`run` / :func:`simulate` — one run (validated parameters, a
  :class:`~cmtlab.scenario.TransferResult` with per-subflow columns and the model's logged
  "global throughput" as a separate column);
* registered with :func:`cmtlab.sweep.run_sweep` as ``"papers-sim"`` (``CODE_VERSION`` = hash of
  the archive hashes, patches, driver, front end and compiler version);
* the papers' scenarios on it are the papers' (:mod:`cmtlab.papers.arabi.papers_sim`,
  :mod:`cmtlab.papers.alheid.papers_sim`): this package knows no paper.
"""

from .model import (BIN_S, CONGESTION, MODEL_NAMES, REORDERING, PapersSimResult, PapersSimScenario,  # noqa: F401
                    code_version, congestion_name, frto_clock, reordering_name, run, scenario, simulate)


def __getattr__(name):
    if name == "CODE_VERSION":  # computed on first use (it asks the compiler for its version)
        return code_version()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["scenario", "run", "simulate", "PapersSimScenario", "PapersSimResult", "CONGESTION", "REORDERING",
           "MODEL_NAMES", "BIN_S", "code_version", "congestion_name", "reordering_name", "frto_clock",
           "CODE_VERSION"]
