"""Today's mechanisms in cmtlab.sim against the real kernel (cmtlab.testbed), cell by cell.

A *cell* is one path configuration and transport (single-path TCP or MPTCP with the kernel's own
scheduler) run ``repetitions`` times on the kernel (:mod:`.cells`); the simulator runs the same rows
configured like the kernel (:func:`cmtlab.validation.kernel_sim.simulate_like_kernel`) in the configurations
of :data:`SIM_CONFIGS` — ``"linux"`` (its default: today's Linux as a whole, the ``linux-6.18`` preset of
:mod:`cmtlab.sim.presets`), ``"today"`` (RACK-TLP with PRR as Linux counts it, Linux's retransmission
timeout, CUBIC or Reno as Linux runs them, Linux 6.18's MPTCP scheduler), ``"today-dupack"`` (the same with
the duplicate-ACK threshold and RFC 6675 ``IsLost`` instead of RACK-TLP) and ``"before"`` (uncoupled ns-3
NewReno, lowest RTT first) — each drawing a path's random drops and delay variation from the testbed delay
line's own streams, seeded as the kernel's run of the same repetition (:data:`LOSS_DRAWS`).

:func:`agreement` states per cell and metric whether the simulator's mean over the same seeds lies inside the
kernel's spread (min..max over the repetitions) (:mod:`.agreement`); :func:`explain` gives one diagnosis per
miss (:mod:`.explain`); :func:`replay_checks` checks that both sides replay a rate trace (:mod:`.replay`).
Not modelled (the kernel has them): D-SACK/timestamp undo of spurious reductions and F-RTO (Linux's
``tcp_frto=2``), HyStart's ACK-train detection, pacing, TSO/GRO batching.
"""
# ruff: noqa: F401  (the face of the kernel comparison: its names are defined in .cells, .agreement, .explain, .replay)

from ..validation.kernel_sim import (DELAY_LINE_DRAWS as LOSS_DRAWS, LINUX_CUBIC_PARAMS, LINUX_REDUCTION,
                                     LINUX_RENO_PARAMS, LINUX_RTO)
from .agreement import (LOSSY_CELLS, METRICS, SHORT_QUEUE_PACKETS, SIM_CONFIGS, WIDER_CONFIGS, agreement, agreement_by_kind,
                        SEND_BUFFER_STEPS, SMALL_QUEUE_CELLS, agreement_by_metric, cell_kind, hystart_sensitivity, loss_steps,
                        send_buffer_steps, WRITER_CELLS, WRITER_STEPS, LINUX_MECHANISMS, LEDGER_TRACED_CELLS, mechanism_ledger,
                        sim_runs, wider_agreement, kernel_rerun_agreement, RERUN,
                        wider_jobs, wider_kernel, wider_sim_runs)
from .cells import (ALL_CELLS, CELLS, INTERNAL_COUNTERS, TRACE_RATE_SCALE, TRACE_SECONDS, TRACES,
                    WIDER_CELLS, kernel_internals, kernel_runs, kernel_socket_trace, testbed_path, trace_path)
from .explain import explain, misses_table, payload_capacity_bps, schedule_capacity_bps, trace_terms
from .replay import BACKLOGGED_IDLE_SHARE, replay_check_sim, replay_check_testbed, replay_checks, replay_summary
