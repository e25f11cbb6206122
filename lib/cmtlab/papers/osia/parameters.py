"""The allowed values of the OSIA chapters' notebook parameters (one spec per notebook).

Each notebook's first code cell after its ``parameters`` cell calls
``validate_parameters(<its spec>, globals())`` (:func:`cmtlab.report.parameters.validate_parameters`): a bad
value — from the ``parameters`` cell or injected by papermill — fails there, naming the parameter and its
allowed range, before any computation.  Choices come from the library (registries, presets), read when a
notebook is validated.  :data:`SPECS`: notebook name → spec.
"""

from __future__ import annotations

from ...report.parameters import Choice, Int, NotebookSpec, PROBABILITY, Real, SEED, SIM_DURATION_S, Seq, WORKERS


def _registry(kind):
    def names():
        from ...sim import registry
        # plug-ins (e.g. "osia" from cmtlab.papers.osia) register on import: allowed before they are imported
        return tuple(sorted(set(registry.names(kind)) | {n for k, n in registry.PLUGIN_PACKAGES if k == kind}))
    return names


FIGS3_5_WATER_FILLING = NotebookSpec("osia-figs3-5-water-filling", dict(
    packet_bytes=Int(1, 65_000, unit="bytes"),
    extra_level_s=Real(0, 100, lo_open=True, unit="s"),
    K=Real(0, 100, lo_open=True),
    n_random_sets=Int(1, 100_000),
    mc_packets=Int(1, 10**7),
    mc_runs=Int(1, 10**6),
    g22_step=Real(0, 0.5, lo_open=True),
    a3_draws=Int(1, 10**8),
    max_paths_counted=Int(4, 4096, unit="paths"),
    seed=SEED,
))


FIGS7_9_SCHEDULER_GRIDS = NotebookSpec("osia-figs7-9-scheduler-grids", dict(
    delay_ratios=Seq(Real(0, 1000, lo_open=True), unique=True),
    bw_ratios=Seq(Real(0, 1000, lo_open=True), unique=True),
    seeds=Seq(SEED, unique=True),
    schedulers=Seq(Choice(_registry("scheduler")), unique=True),
    fig7_packets=Int(1, 10**7, unit="packets"),
    fig8_packets=Int(1, 10**7, unit="packets"),
    fig9_packets=Int(1, 10**7, unit="packets"),
    cross_load=PROBABILITY,
    pareto_shape=Real(0, 100, lo_open=True),
    check_horizon_s=SIM_DURATION_S,
    ber_periods=Int(1, 10**8),
    tcp_loads=Seq(PROBABILITY, unique=True),
    initial_windows=Seq(Int(1, 10_000, unit="segments"), unique=True),
    today_duration_s=SIM_DURATION_S,
    workers=WORKERS,
))

#: Notebook name → its spec.
SPECS = {s.notebook: s for s in (FIGS3_5_WATER_FILLING, FIGS7_9_SCHEDULER_GRIDS)}

__all__ = ["FIGS3_5_WATER_FILLING", "FIGS7_9_SCHEDULER_GRIDS", "SPECS"]
