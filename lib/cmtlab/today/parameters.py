"""The allowed values of the chapter "Today's transport"'s notebook parameters.

Each notebook's first code cell after its ``parameters`` cell calls
``validate_parameters(<its spec>, globals())`` (:func:`cmtlab.report.parameters.validate_parameters`): a bad
value — from the ``parameters`` cell or injected by papermill — fails there, naming the parameter and its
allowed range, before any computation.  Choices come from the library (registries, presets), read when a
notebook is validated.  :data:`SPECS`: notebook name → spec.
"""

from __future__ import annotations

from ..report.parameters import Bool, Choice, Int, N_SEEDS, NotebookSpec, Real, SIM_DURATION_S, Seq


TODAY_TRANSPORT = NotebookSpec("today-transport", dict(
    seeds=N_SEEDS,
    duration_s=SIM_DURATION_S,
    real_seconds=Int(5, 3600, unit="s (of the 5G and Starlink traces)"),
    rate_scale=Real(0, 1, lo_open=True, unit="(factor on both traces' rates)"),
    papers_jitter_ms=Real(0, 1000, unit="ms"),
    papers_loss=Real(0, 0.5),
    receive_buffer_kib=Int(16, 1 << 20, unit="KiB"),
    axes=Seq(Choice(("recovery", "scheduler", "congestion")), unique=True),
    resimulate_kernel_rows=Bool(),
    ledger_every_cell=Bool(),
))

#: Notebook name → its spec.
SPECS = {s.notebook: s for s in (TODAY_TRANSPORT,)}

__all__ = ["TODAY_TRANSPORT", "SPECS"]
