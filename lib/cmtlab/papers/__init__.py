"""The four papers the book reproduces, one package each (layer 4: above the simulators and the references,
below the validation chapters and today's transport).

* :mod:`cmtlab.papers.song` — Song et al., TCP over multiple heterogeneous paths (the throughput model,
  eqs. 1–24; Figs. 1, 6–8);
* :mod:`cmtlab.papers.osia` — Wang, Liao, Li, OSIA: out-of-order scheduling for in-order arrival (Figs. 3–5,
  7–9);
* :mod:`cmtlab.papers.arabi` — Arabi, Bozed, Zerek, packet reordering algorithms under MPTCP congestion
  control (Figs. 8–9);
* :mod:`cmtlab.papers.alheid` — Alheid, Doufexi, Kaleshi, PR-R over Wi-Fi (Table I, Figs. 4–6, Tables III–IV).

Each holds ``paper.py`` — the paper's numbers, quotes and set-ups, once —, its experiments, its comparison
(paper against reproduction, with computed verdicts), its figures and ``parameters.py`` (the allowed values of
its notebooks' parameters); Arabi and Alheid also ``papers_sim.py``, their scenarios on the papers' own
simulator (:mod:`cmtlab.papers_sim`).  A paper imports no validation chapter; the references
(:mod:`cmtlab.ns3`, :mod:`cmtlab.papers_sim`, :mod:`cmtlab.testbed`) import no paper
(``tests/test_layers.py``).

Nothing is imported here: the simulator imports :mod:`cmtlab.papers.osia` for its ``"osia"`` scheduler
plug-in, and its code version covers what that import runs.
"""

#: The papers, in the book's order (each a subpackage with ``paper.CLAIMS``).
PAPERS = ("song", "osia", "arabi", "alheid")


def registries() -> dict:
    """Every paper's claims registry (``cmtlab.papers.<paper>.paper.CLAIMS``, a
    :class:`cmtlab.report.claims.Registry`), by paper; a paper whose ``paper.py`` has none yet is left out."""
    import importlib

    out = {}
    for name in PAPERS:
        registry = getattr(importlib.import_module(f"{__name__}.{name}.paper"), "CLAIMS", None)
        if registry is not None:
            out[name] = registry
    return out


def all_claims() -> dict:
    """Every registered claim of the four papers by its key (``"alheid:fig4.prr-gain-beyond-50m"``)."""
    return {c.key: c for registry in registries().values() for c in registry}
