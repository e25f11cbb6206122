"""Song et al. — performance analysis model of TCP over multiple heterogeneous paths.

Public entry points:

* :func:`throughput` / :func:`throughput_many` — the iteration model (eqs. 1–19), bit/s;
* :func:`ack_pmf` — the conditional ACK distributions (eqs. 5–6 and 9);
* :func:`average_delay_asymmetry`, :func:`average_bandwidth_asymmetry`,
  :func:`prediction_accuracy` — eqs. 22–24;
* :mod:`.linksets` — link sets with a given ADA/ABA (Figs. 7–8) and the figure sweeps;
* :mod:`.montecarlo` — the Monte-Carlo check of the closed forms.
"""

from .asymmetry import average_bandwidth_asymmetry, average_delay_asymmetry, prediction_accuracy
from . import checks, figures, linksets, montecarlo, probabilities
from .model import (DEFAULT_TRANSFER_BYTES, VARIANTS, AboveCapacityWarning, Variant, ack_function, queue_position,
                    resolve_variant, rounds, throughput, throughput_many)
from .probabilities import ack_pmf, case1_pmf, case2_pmf, expected_acked

__all__ = [
    "throughput", "throughput_many", "rounds", "ack_function", "ack_pmf", "case1_pmf", "case2_pmf", "expected_acked",
    "average_delay_asymmetry", "average_bandwidth_asymmetry", "prediction_accuracy", "Variant", "VARIANTS",
    "resolve_variant", "queue_position", "DEFAULT_TRANSFER_BYTES", "montecarlo", "probabilities", "linksets",
    "figures", "checks", "AboveCapacityWarning",
]
