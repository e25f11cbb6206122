"""The allowed values of the validation chapters' notebook parameters (one spec per notebook), the Wi-Fi
model's check against ns-3 (in the Alheid part of the book) included.

Each notebook's first code cell after its ``parameters`` cell calls
``validate_parameters(<its spec>, globals())`` (:func:`cmtlab.report.parameters.validate_parameters`): a bad
value — from the ``parameters`` cell or injected by papermill — fails there, naming the parameter and its
allowed range, before any computation.  Choices come from the library (registries, presets), read when a
notebook is validated.  :data:`SPECS`: notebook name → spec.
"""

from __future__ import annotations

from ..scenario import DELAY_DIFFERENCE_MEANINGS
from ..report.parameters import (BYTES, Bool, Choice, Int, Mapping, NotebookSpec, PROBABILITY, Real, Rule, SEED,
                                 SIM_DURATION_S, Seq, Text, WORKERS, subset)


def _tcp_presets():
    from ..scenario import PRESETS
    return tuple(sorted(PRESETS))


def _registry(kind):
    def names():
        from ..sim import registry
        # plug-ins (e.g. "osia" from cmtlab.papers.osia) register on import: allowed before they are imported
        return tuple(sorted(set(registry.names(kind)) | {n for k, n in registry.PLUGIN_PACKAGES if k == kind}))
    return names


def _testbed_live_modes():
    from ..testbed.recorded import LIVE_MODES
    return LIVE_MODES


CMTLAB_VS_NS3_VALIDATION = NotebookSpec("cmtlab-vs-ns3-validation", dict(
    rates_mbps=Seq(Real(0, 1000, lo_open=True, unit="Mbit/s"), unique=True),
    rtts_ms=Seq(Real(0, 10_000, lo_open=True, unit="ms"), unique=True),
    loss_rates=Seq(PROBABILITY, unique=True),
    single_link_bytes=BYTES,
    seeds=Seq(Int(1, 2**31 - 1), unique=True),
    presets=Seq(Choice(_tcp_presets), unique=True),
    n_random_sets=Int(1, 100_000),
    striped_bytes=BYTES,
    sensitivity_bytes=BYTES,
    workers=WORKERS,
))


MPTCP_VALIDATION = NotebookSpec("mptcp-validation", dict(
    seeds=Seq(SEED, unique=True),
    n_paths=Int(1, 16, unit="paths"),
    loss_rate=Real(0, 1, lo_open=True, hi_open=True),
    rtt_s=Real(0, 10, lo_open=True, unit="s"),
    duration_s=SIM_DURATION_S,
    round_duration_s=SIM_DURATION_S,
    access_bps=Real(0, 1e11, lo_open=True, unit="bit/s"),
    congested_loss_rates=Seq(PROBABILITY, min_len=2, max_len=2, tuple_=True),
    bottleneck_bps=Real(0, 1e11, lo_open=True, unit="bit/s"),
    bottleneck_rtts_s=Seq(Real(0, 10, lo_open=True, unit="s")),
    bottleneck_duration_s=SIM_DURATION_S,
    dupack_loss_rate=PROBABILITY,
    dupack_seeds=Seq(SEED, unique=True),
    dupack_duration_s=SIM_DURATION_S,
))


def _wifi_distances():
    from ..papers_sim import wifi_record
    return tuple(float(d) for d in sorted(wifi_record.load("alheid-fig4").distance_m.unique()))


PAPERS_SIM_AGREEMENT = NotebookSpec("papers-sim-agreement", dict(
    tolerance=Real(0, 1, lo_open=True, hi_open=True, unit="(relative goodput difference)"),
    wifi_distances_m=Seq(Choice(_wifi_distances), unique=True),
    wifi_seeds=Int(1, 30),
    wifi_workers=WORKERS,
))


LINUX_MPTCP_VALIDATION = NotebookSpec(
    "linux-mptcp-validation",
    dict(calib_rates_mbps=Seq(Real(0, 1000, lo_open=True, unit="Mbit/s")),
         calib_one_way_ms=Real(0, 5000, unit="ms"),
         calib_ping_count=Int(1, 10_000),
         calib_duration_s=Real(0, 600, lo_open=True, unit="s"),
         deltas_ms=Seq(Real(0, 9_990, unit="ms"), unique=True),
         meanings=Seq(Choice(DELAY_DIFFERENCE_MEANINGS), unique=True),
         congestions=Seq(Text(r"[a-z0-9_]{1,15}", "a kernel congestion control name like 'reno' or 'cubic'"),
                         unique=True),
         repetitions=Int(1, 100),
         duration_s=Real(0, 600, lo_open=True, unit="s (real time per run)"),
         warmup_s=Real(0, 600, unit="s"),
         rate_mbps=Real(0, 1000, lo_open=True, unit="Mbit/s"),
         base_one_way_ms=Real(0, 5000, unit="ms"),
         queue_packets=Int(1, 10**6, unit="packets"),
         fixed_buffer_deltas_ms=Seq(Real(0, 9_990, unit="ms"), min_len=0, unique=True),
         fixed_buffer_bytes=Int(4096, 2**30, unit="bytes"),
         arabi_repetitions=Int(1, 100),
         arabi_duration_s=Real(0, 600, lo_open=True, unit="s (real time per run)"),
         sim_reordering=Choice(_registry("reordering")),
         sim_options=Mapping(),
         sim_buffer_mib=Seq(Real(0, 1024, lo_open=True, unit="MiB"), unique=True),
         live=Choice(_testbed_live_modes),
         live_calib_rates_mbps=Seq(Real(0, 1000, lo_open=True, unit="Mbit/s"), min_len=0, unique=True),
         live_congestions=Seq(Text(r"[a-z0-9_]{1,15}", "a kernel congestion control name like 'reno' or 'cubic'"),
                              min_len=0, unique=True),
         live_deltas_ms=Seq(Real(0, 9_990, unit="ms"), min_len=0, unique=True),
         live_repetitions=Int(0, 100, unit="(first repetitions of each live cell)")),
    [Rule(("warmup_s", "duration_s"), lambda p: p["warmup_s"] < p["duration_s"],
          "warmup_s must be < duration_s (the goodput is measured after the warm-up)"),
     Rule(("base_one_way_ms", "deltas_ms", "fixed_buffer_deltas_ms"),
          lambda p: p["base_one_way_ms"] + max([0.0, *p["deltas_ms"], *p["fixed_buffer_deltas_ms"]]) <= 5000,
          "base_one_way_ms + the largest delta (deltas_ms, fixed_buffer_deltas_ms) must be <= 5000 ms "
          "(the delay line's largest one-way delay)")])


ALHEID_WIFI_MODEL_CHECK = NotebookSpec(
    "alheid-wifi-model-check",
    dict(distances_m=Seq(Real(0, 1000, lo_open=True, unit="m"), unique=True),
         payload_bytes=Int(1, 2200, unit="bytes"),
         udp_duration_s=Real(0, 3600, lo_open=True, unit="s"),
         tcp_transfer_bytes=BYTES,
         seed=SEED,
         run_ns3_all=Bool(),
         live_check_distance_m=Real(0, 1000, lo_open=True, unit="m")),
    [Rule(("live_check_distance_m", "distances_m"),
          lambda p: subset([p["live_check_distance_m"]], p["distances_m"]),
          "live_check_distance_m must be one of distances_m (it is compared with the recorded row)")])

#: Notebook name → its spec.
SPECS = {s.notebook: s for s in (CMTLAB_VS_NS3_VALIDATION, MPTCP_VALIDATION, PAPERS_SIM_AGREEMENT, LINUX_MPTCP_VALIDATION, ALHEID_WIFI_MODEL_CHECK)}

__all__ = ["CMTLAB_VS_NS3_VALIDATION", "MPTCP_VALIDATION", "PAPERS_SIM_AGREEMENT", "LINUX_MPTCP_VALIDATION", "ALHEID_WIFI_MODEL_CHECK", "SPECS"]
