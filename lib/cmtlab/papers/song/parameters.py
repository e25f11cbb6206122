"""The allowed values of the Song chapters' notebook parameters (one spec per notebook).

Each notebook's first code cell after its ``parameters`` cell calls
``validate_parameters(<its spec>, globals())`` (:func:`cmtlab.report.parameters.validate_parameters`): a bad
value — from the ``parameters`` cell or injected by papermill — fails there, naming the parameter and its
allowed range, before any computation.  Choices come from the library (registries, presets), read when a
notebook is validated.  :data:`SPECS`: notebook name → spec.
"""

from __future__ import annotations

from ...report.parameters import BYTES, Bool, Choice, Int, NotebookSpec, Real, Rule, SEED, Seq, WORKERS, divides


def _linksets(attr):
    def names():
        from . import linksets
        return tuple(getattr(linksets, attr))
    return names


def _variants():
    from .model import VARIANTS
    return tuple(VARIANTS)


def _field_link_counts():
    from .fig6 import LINK_MODEMS
    return len(LINK_MODEMS)


def _tcp_presets():
    from ...scenario import PRESETS
    return tuple(sorted(PRESETS))


FIG1_FIELD_MEASUREMENTS = NotebookSpec("song-fig1-field-measurements", dict(
    seed=SEED,
    n_samples_per_modem=Int(1, 10**7),
    regenerate=Bool(),
))


MODEL_CHECK = NotebookSpec("song-model-check", dict(
    mc_samples=Int(1, 10**8),
    c_values=Seq(Int(1, 1000, unit="segments"), unique=True, increasing=True),
    m_ack=Int(1, 16, unit="segments per ACK"),
    seed=SEED,
    errata_grid_points=Int(2, 500),
    errata_ada_step_ms=Real(0, 10, lo_open=True, unit="ms"),
), [Rule(("errata_ada_step_ms",), lambda p: divides(p["errata_ada_step_ms"], 10.0),
         "errata_ada_step_ms must divide 10 ms (the Fig. 8 grid always contains 10, 20, ..., 90 ms)")])


FIG6_MODEL_VS_SIMULATION = NotebookSpec(
    "song-fig6-model-vs-simulation",
    dict(n_groups=Int(1, 1000),
         link_counts=Seq(Int(2, 8), unique=True),
         transfer_bytes=BYTES,
         presets=Seq(Choice(_tcp_presets), unique=True),
         seed=SEED,
         workers=WORKERS),
    [Rule(("link_counts",), lambda p: max(p["link_counts"]) <= _field_link_counts(),
          "link_counts must not exceed the number of field-measured links")])


FIG7_ASYMMETRY_SURFACES = NotebookSpec("song-fig7-asymmetry-surfaces", dict(
    grid_points=Int(2, 500),
    max_ada_ms=Real(0, 10_000, lo_open=True, unit="ms"),
    max_aba_kbps=Real(0, 1e7, lo_open=True, unit="kbit/s"),
    min_delay_ms=Real(0, 10_000, lo_open=True, unit="ms"),
    min_bandwidth_kbps=Real(0, 1e7, lo_open=True, unit="kbit/s"),
    construction=Choice(_linksets("CONSTRUCTIONS")),
    pairing=Choice(_linksets("PAIRINGS")),
    transfer_bytes=BYTES,
    variant=Choice(_variants),
))


FIG8_THROUGHPUT_VS_ADA = NotebookSpec(
    "song-fig8-throughput-vs-ada",
    dict(ada_step_ms=Real(0, 10, lo_open=True, unit="ms (and 10 ms a whole multiple of it)"),
         ada_range_ms=Seq(Real(0, 10_000, unit="ms"), min_len=2, max_len=2, increasing=True, tuple_=True),
         min_delays_ms=Seq(Real(0, 10_000, lo_open=True, unit="ms"), unique=True),
         bandwidth_kbps=Real(0, 1e7, lo_open=True, unit="kbit/s"),
         construction=Choice(_linksets("CONSTRUCTIONS")),
         transfer_bytes=BYTES,
         variant=Choice(_variants),
         sensitivity_transfer_bytes=Seq(BYTES, unique=True)),
    [Rule(("ada_step_ms",), lambda p: divides(p["ada_step_ms"], 10.0),
          "ada_step_ms must divide 10 ms (the grid always contains 10, 20, ..., 90 ms)"),
     Rule(("ada_range_ms", "ada_step_ms"), lambda p: p["ada_range_ms"][1] - p["ada_range_ms"][0] >= p["ada_step_ms"],
          "ada_range_ms must span at least one ada_step_ms (two grid points)")])

#: Notebook name → its spec.
SPECS = {s.notebook: s for s in (FIG1_FIELD_MEASUREMENTS, MODEL_CHECK, FIG6_MODEL_VS_SIMULATION, FIG7_ASYMMETRY_SURFACES, FIG8_THROUGHPUT_VS_ADA)}

__all__ = ["FIG1_FIELD_MEASUREMENTS", "MODEL_CHECK", "FIG6_MODEL_VS_SIMULATION", "FIG7_ASYMMETRY_SURFACES", "FIG8_THROUGHPUT_VS_ADA", "SPECS"]
