"""The allowed values of the Arabi chapter's notebook parameters.

Each notebook's first code cell after its ``parameters`` cell calls
``validate_parameters(<its spec>, globals())`` (:func:`cmtlab.report.parameters.validate_parameters`): a bad
value — from the ``parameters`` cell or injected by papermill — fails there, naming the parameter and its
allowed range, before any computation.  Choices come from the library (registries, presets), read when a
notebook is validated.  :data:`SPECS`: notebook name → spec.
"""

from __future__ import annotations

from ...report.parameters import (BYTES, Bool, Choice, Int, N_SEEDS, NotebookSpec, PROBABILITY, SIM_DURATION_S, Seq,
                                  WORKERS)


def _experiments(attr):
    def names():
        from . import experiments
        v = getattr(experiments, attr)
        return tuple(v) if not isinstance(v, tuple) else v
    return names


def _reordering():
    from .paper import REORDERING
    return tuple(REORDERING)


def _congestion():
    from . import experiments, paper
    return tuple(paper.PAPER_CONGESTION) + tuple(experiments.MODERN_CONGESTION)


FIGS8_9_REORDERING_ALGORITHMS = NotebookSpec("arabi-figs8-9-reordering-algorithms", dict(
    seeds=N_SEEDS,
    transfer_bytes=BYTES,
    duration_s=SIM_DURATION_S,
    loss_rate=PROBABILITY,
    receive_buffer_bytes=Int(1460, 2**31, unit="bytes"),
    scenarios=Seq(Choice((1, 2)), unique=True),
    congestion=Seq(Choice(_congestion), unique=True),
    reordering=Seq(Choice(_reordering), unique=True),
    presets=Seq(Choice(_experiments("PRESET_NAMES")), unique=True),
    modern=Bool(),
    sensitivity_seeds=N_SEEDS,
    sensitivity_congestion=Seq(Choice(_congestion), unique=True),
    workers=WORKERS,
))

#: Notebook name → its spec.
SPECS = {s.notebook: s for s in (FIGS8_9_REORDERING_ALGORITHMS,)}

__all__ = ["FIGS8_9_REORDERING_ALGORITHMS", "SPECS"]
