"""The allowed values of the Alheid chapters' notebook parameters (one spec per notebook).

Each notebook's first code cell after its ``parameters`` cell calls
``validate_parameters(<its spec>, globals())`` (:func:`cmtlab.report.parameters.validate_parameters`): a bad
value — from the ``parameters`` cell or injected by papermill — fails there, naming the parameter and its
allowed range, before any computation.  Choices come from the library (registries, presets), read when a
notebook is validated.  :data:`SPECS`: notebook name → spec.
"""

from __future__ import annotations

from ...scenario import DELAY_DIFFERENCE_MEANINGS
from ...report.parameters import (Bool, Choice, Int, N_SEEDS, NotebookSpec, PROBABILITY, Real, Rule, SIM_DURATION_S,
                                  Seq, Text, WORKERS, subset)


def _presets():
    from .experiments import PRESETS
    return tuple(PRESETS)


def _recovery_choices():
    from .experiments import RECOVERY_CHOICES
    return RECOVERY_CHOICES


def _prr_rules():
    from ...sim.mechanisms.reordering.pr_r import SSTHRESH_RULES
    return SSTHRESH_RULES


def _t1_variants():
    from . import table1
    return tuple(table1.VARIANTS)


def _t1_setups():
    from . import table1
    return tuple(s for s in table1.SETUPS if s != "base")


COMMON = dict(
    n_seeds=N_SEEDS,
    duration_s=SIM_DURATION_S,
    preset=Choice(_presets),
    alt_seeds=Int(1, 10_000, unit="(runs)"),
    prr_ssthresh=Choice(_prr_rules),
    workers=WORKERS,
)


TABLE1_MPTCP_GAIN = NotebookSpec("alheid-table1-mptcp-gain", dict(
    deltas_ms=Seq(Real(0, 10_000, unit="ms"), unique=True),
    meanings=Seq(Choice(DELAY_DIFFERENCE_MEANINGS), unique=True),
    variants=Seq(Choice(_t1_variants), unique=True),
    n_seeds=N_SEEDS,
    duration_s=SIM_DURATION_S,
    setups=Seq(Choice(_t1_setups), min_len=0, unique=True),
    sensitivity_seeds=N_SEEDS,
    kernel_chapter=Text(r"[\w.-]+\.ipynb", "a notebook file name in notebooks/ (e.g. 'linux-mptcp-validation.ipynb')"),
    workers=WORKERS,
))


FIG4_TABLE3_DISTANCE = NotebookSpec(
    "alheid-fig4-table3-distance",
    dict(COMMON,
         distances_m=Seq(Real(0, 1000, lo_open=True, unit="m"), unique=True),
         table_distances_m=Seq(Real(0, 1000, lo_open=True, unit="m"), unique=True),
         recovery_alternative=Choice(_recovery_choices)),
    [Rule(("table_distances_m", "distances_m"), lambda p: subset(p["table_distances_m"], p["distances_m"]),
          "every table_distances_m must be one of distances_m (the table is read from the figure's runs)")])


FIG5_TABLE4_PDR = NotebookSpec(
    "alheid-fig5-table4-pdr",
    dict(COMMON,
         pdrs=Seq(PROBABILITY, unique=True),
         distance_m=Real(0, 1000, lo_open=True, unit="m"),
         table_pdrs=Seq(PROBABILITY, unique=True)),
    [Rule(("table_pdrs", "pdrs"), lambda p: subset(p["table_pdrs"], p["pdrs"]),
          "every table_pdrs must be one of pdrs (the table is read from the figure's runs)"),
     Rule(("pdrs",), lambda p: 0.0 in [float(x) for x in p["pdrs"]],
          "pdrs must include 0.0 (the reference the gains are computed against)")])


FIG6_CWND = NotebookSpec("alheid-fig6-cwnd", dict(
    pdr2=PROBABILITY,
    distance_m=Real(0, 1000, lo_open=True, unit="m"),
    duration_s=SIM_DURATION_S,
    seed=Int(0, 10_000, unit="(the run plotted)"),
    n_seeds=N_SEEDS,
    preset=Choice(_presets),
    rfc_panel=Bool(),
    prr_ssthresh=Choice(_prr_rules),
))

#: Notebook name → its spec.
SPECS = {s.notebook: s for s in (TABLE1_MPTCP_GAIN, FIG4_TABLE3_DISTANCE, FIG5_TABLE4_PDR, FIG6_CWND)}

__all__ = ["TABLE1_MPTCP_GAIN", "FIG4_TABLE3_DISTANCE", "FIG5_TABLE4_PDR", "FIG6_CWND", "SPECS"]
