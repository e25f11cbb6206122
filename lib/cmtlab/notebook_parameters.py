"""The allowed values of every notebook's parameters, declared once (one spec per notebook).

Each notebook's first code cell after its ``parameters`` cell calls
``cmtlab.config.validate_parameters("<notebook name>", globals())``: a bad value — from the
``parameters`` cell or injected by papermill — fails there, naming the parameter and its allowed
range, before any computation.  Choices come from the library (registries, presets), read when a
notebook is validated.  ``tests/test_notebook_parameters.py`` checks that every parameter of every
notebook has a spec here, that the defaults of both profiles pass, and that one bad value per
notebook fails in that cell under papermill.
"""

from __future__ import annotations

from .config import Bool, Choice, Int, Mapping, NotebookSpec, Real, Rule, Seq, Text

SEED = Int(0, 2**32 - 1)
WORKERS = Int(1, 256, none_ok=True, unit="(worker processes; None: all cores)")
N_SEEDS = Int(1, 10_000, unit="(runs)")
SIM_DURATION_S = Real(0, 36_000, lo_open=True, unit="s")
PROBABILITY = Real(0, 1, hi_open=True)
BYTES = Int(1, 10**10, unit="bytes")


def _testbed_live_modes():
    from .testbed.recorded import LIVE_MODES
    return LIVE_MODES


def _alheid_presets():
    from .papers.alheid.experiments import PRESETS
    return tuple(PRESETS)


def _alheid_recovery():
    from .papers.alheid.experiments import RECOVERY_CHOICES
    return RECOVERY_CHOICES


def _prr_rules():
    from .sim.reordering.pr_r import SSTHRESH_RULES
    return SSTHRESH_RULES


def _t1_variants():
    from .papers.alheid import table1
    return tuple(table1.VARIANTS)


def _t1_setups():
    from .papers.alheid import table1
    return tuple(s for s in table1.SETUPS if s != "base")


def _registry(kind):
    def names():
        from .sim import registry
        # plug-ins (e.g. "osia" from cmtlab.papers.osia) register on import: allowed before they are imported
        return tuple(sorted(set(registry.names(kind)) | {n for k, n in registry.PLUGIN_PACKAGES if k == kind}))
    return names


def _arabi(attr):
    def names():
        from .papers.arabi import experiments
        v = getattr(experiments, attr)
        return tuple(v) if not isinstance(v, tuple) else v
    return names


def _arabi_congestion():
    from .papers.arabi import experiments
    return tuple(experiments.PAPER_CONGESTION) + tuple(experiments.MODERN_CONGESTION)


def _tcp_presets():
    from .scenario import PRESETS
    return tuple(sorted(PRESETS))


def _song(attr):
    def names():
        from .papers.song import linksets
        return tuple(getattr(linksets, attr))
    return names


def _song_variants():
    from .papers.song.model import VARIANTS
    return tuple(VARIANTS)


def _field_link_counts():
    from .papers.song.fig6 import LINK_MODEMS
    return len(LINK_MODEMS)


def _subset(points, within):
    have = {float(x) for x in within}
    return all(float(x) in have for x in points)


def _divides(step, whole, tol=1e-9):
    k = whole / step
    return abs(k - round(k)) < tol * max(1.0, k)


ALHEID_COMMON = dict(
    n_seeds=N_SEEDS,
    duration_s=SIM_DURATION_S,
    preset=Choice(_alheid_presets),
    alt_seeds=Int(1, 10_000, unit="(runs)"),
    prr_ssthresh=Choice(_prr_rules),
    workers=WORKERS,
    live_seeds=Int(1, 10_000, unit="(seeds simulated while the page builds)"),
    use_records=Bool(),
)
#: n_seeds >= live_seeds (the live seeds are the first ones).
ALHEID_LIVE_RULE = Rule(("live_seeds", "n_seeds"), lambda p: p["live_seeds"] <= p["n_seeds"],
                        "live_seeds must be at most n_seeds (the first live_seeds seeds are simulated, the rest "
                        "come from the record)")

SPECS: dict[str, NotebookSpec] = {
    "alheid-fig4-table3-distance": NotebookSpec(
        dict(ALHEID_COMMON,
             distances_m=Seq(Real(0, 1000, lo_open=True, unit="m"), unique=True),
             table_distances_m=Seq(Real(0, 1000, lo_open=True, unit="m"), unique=True),
             recovery_alternative=Choice(_alheid_recovery)),
        [Rule(("table_distances_m", "distances_m"), lambda p: _subset(p["table_distances_m"], p["distances_m"]),
              "every table_distances_m must be one of distances_m (the table is read from the figure's runs)"),
         ALHEID_LIVE_RULE]),
    "alheid-fig5-table4-pdr": NotebookSpec(
        dict(ALHEID_COMMON,
             pdrs=Seq(PROBABILITY, unique=True),
             distance_m=Real(0, 1000, lo_open=True, unit="m"),
             table_pdrs=Seq(PROBABILITY, unique=True)),
        [Rule(("table_pdrs", "pdrs"), lambda p: _subset(p["table_pdrs"], p["pdrs"]),
              "every table_pdrs must be one of pdrs (the table is read from the figure's runs)"),
         Rule(("pdrs",), lambda p: 0.0 in [float(x) for x in p["pdrs"]],
              "pdrs must include 0.0 (the reference the gains are computed against)"),
         ALHEID_LIVE_RULE]),
    "alheid-fig6-cwnd": NotebookSpec(dict(
        pdr2=PROBABILITY,
        distance_m=Real(0, 1000, lo_open=True, unit="m"),
        duration_s=SIM_DURATION_S,
        seed=Int(0, 10_000, unit="(the run plotted)"),
        n_seeds=N_SEEDS,
        preset=Choice(_alheid_presets),
        rfc_panel=Bool(),
        prr_ssthresh=Choice(_prr_rules),
    )),
    "alheid-table1-mptcp-gain": NotebookSpec(dict(
        deltas_ms=Seq(Real(0, 10_000, unit="ms"), unique=True),
        meanings=Seq(Choice(("rtt", "one_way")), unique=True),
        variants=Seq(Choice(_t1_variants), unique=True),
        n_seeds=N_SEEDS,
        duration_s=SIM_DURATION_S,
        setups=Seq(Choice(_t1_setups), min_len=0, unique=True),
        sensitivity_seeds=N_SEEDS,
        kernel_chapter=Text(r"[\w.-]+\.ipynb", "a notebook file name in notebooks/ (e.g. 'linux-mptcp-validation.ipynb')"),
        workers=WORKERS,
        live_seeds=Int(1, 10_000, unit="(seeds simulated while the page builds)"),
        use_records=Bool(),
    ), [ALHEID_LIVE_RULE]),
    "alheid-wifi-model-check": NotebookSpec(
        dict(distances_m=Seq(Real(0, 1000, lo_open=True, unit="m"), unique=True),
             payload_bytes=Int(1, 2200, unit="bytes"),
             udp_duration_s=Real(0, 3600, lo_open=True, unit="s"),
             tcp_transfer_bytes=BYTES,
             seed=SEED,
             run_ns3_all=Bool(),
             live_check_distance_m=Real(0, 1000, lo_open=True, unit="m")),
        [Rule(("live_check_distance_m", "distances_m"),
              lambda p: _subset([p["live_check_distance_m"]], p["distances_m"]),
              "live_check_distance_m must be one of distances_m (it is compared with the recorded row)")]),
    "today-transport": NotebookSpec(dict(
        seeds=N_SEEDS,
        duration_s=SIM_DURATION_S,
        real_seconds=Int(5, 3600, unit="s (of the 5G and Starlink traces)"),
        rate_scale=Real(0, 1, lo_open=True, unit="(factor on both traces' rates)"),
        papers_jitter_ms=Real(0, 1000, unit="ms"),
        papers_loss=Real(0, 0.5),
        receive_buffer_kib=Int(16, 1 << 20, unit="KiB"),
        axes=Seq(Choice(("recovery", "scheduler", "congestion")), unique=True),
        resimulate_kernel_rows=Bool(),
    )),
    "arabi-figs8-9-reordering-algorithms": NotebookSpec(dict(
        seeds=N_SEEDS,
        transfer_bytes=BYTES,
        duration_s=SIM_DURATION_S,
        loss_rate=PROBABILITY,
        receive_buffer_bytes=Int(1460, 2**31, unit="bytes"),
        scenarios=Seq(Choice((1, 2)), unique=True),
        congestion=Seq(Choice(_arabi_congestion), unique=True),
        reordering=Seq(Choice(_arabi("REORDERING")), unique=True),
        presets=Seq(Choice(_arabi("PRESET_NAMES")), unique=True),
        modern=Bool(),
        sensitivity_seeds=N_SEEDS,
        sensitivity_congestion=Seq(Choice(_arabi_congestion), unique=True),
        workers=WORKERS,
    )),
    "cmtlab-vs-ns3-validation": NotebookSpec(dict(
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
    )),
    "linux-mptcp-validation": NotebookSpec(
        dict(calib_rates_mbps=Seq(Real(0, 1000, lo_open=True, unit="Mbit/s")),
             calib_one_way_ms=Real(0, 5000, unit="ms"),
             calib_ping_count=Int(1, 10_000),
             calib_duration_s=Real(0, 600, lo_open=True, unit="s"),
             deltas_ms=Seq(Real(0, 9_990, unit="ms"), unique=True),
             meanings=Seq(Choice(("rtt", "one_way")), unique=True),
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
              "(the delay line's largest one-way delay)")]),
    "mptcp-validation": NotebookSpec(dict(
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
    )),
    "papers-sim-agreement": NotebookSpec(dict(
        tolerance=Real(0, 1, lo_open=True, hi_open=True, unit="(relative goodput difference)"),
    )),
    "osia-figs3-5-water-filling": NotebookSpec(dict(
        packet_bytes=Int(1, 65_000, unit="bytes"),
        extra_level_s=Real(0, 100, lo_open=True, unit="s"),
        K=Real(0, 100, lo_open=True),
        n_random_sets=Int(1, 100_000),
        mc_packets=Int(1, 10**7),
        mc_runs=Int(1, 10**6),
        g22_step=Real(0, 0.5, lo_open=True),
        a3_draws=Int(1, 10**8),
        seed=SEED,
    )),
    "osia-figs7-9-scheduler-grids": NotebookSpec(dict(
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
        workers=WORKERS,
    )),
    "song-fig1-field-measurements": NotebookSpec(dict(
        seed=SEED,
        n_samples_per_modem=Int(1, 10**7),
        regenerate=Bool(),
    )),
    "song-fig6-model-vs-simulation": NotebookSpec(
        dict(n_groups=Int(1, 1000),
             link_counts=Seq(Int(2, 8), unique=True),
             transfer_bytes=BYTES,
             presets=Seq(Choice(_tcp_presets), unique=True),
             seed=SEED,
             workers=WORKERS),
        [Rule(("link_counts",), lambda p: max(p["link_counts"]) <= _field_link_counts(),
              "link_counts must not exceed the number of field-measured links")]),
    "song-fig7-asymmetry-surfaces": NotebookSpec(dict(
        grid_points=Int(2, 500),
        max_ada_ms=Real(0, 10_000, lo_open=True, unit="ms"),
        max_aba_kbps=Real(0, 1e7, lo_open=True, unit="kbit/s"),
        min_delay_ms=Real(0, 10_000, lo_open=True, unit="ms"),
        min_bandwidth_kbps=Real(0, 1e7, lo_open=True, unit="kbit/s"),
        construction=Choice(_song("CONSTRUCTIONS")),
        pairing=Choice(_song("PAIRINGS")),
        transfer_bytes=BYTES,
        variant=Choice(_song_variants),
    )),
    "song-fig8-throughput-vs-ada": NotebookSpec(
        dict(ada_step_ms=Real(0, 10, lo_open=True, unit="ms (and 10 ms a whole multiple of it)"),
             ada_range_ms=Seq(Real(0, 10_000, unit="ms"), min_len=2, max_len=2, increasing=True, tuple_=True),
             min_delays_ms=Seq(Real(0, 10_000, lo_open=True, unit="ms"), unique=True),
             bandwidth_kbps=Real(0, 1e7, lo_open=True, unit="kbit/s"),
             construction=Choice(_song("CONSTRUCTIONS")),
             transfer_bytes=BYTES,
             variant=Choice(_song_variants),
             sensitivity_transfer_bytes=Seq(BYTES, unique=True)),
        [Rule(("ada_step_ms",), lambda p: _divides(p["ada_step_ms"], 10.0),
              "ada_step_ms must divide 10 ms (the grid always contains 10, 20, ..., 90 ms)"),
         Rule(("ada_range_ms", "ada_step_ms"), lambda p: p["ada_range_ms"][1] - p["ada_range_ms"][0] >= p["ada_step_ms"],
              "ada_range_ms must span at least one ada_step_ms (two grid points)")]),
    "song-model-check": NotebookSpec(dict(
        mc_samples=Int(1, 10**8),
        c_values=Seq(Int(1, 1000, unit="segments"), unique=True, increasing=True),
        m_ack=Int(1, 16, unit="segments per ACK"),
        seed=SEED,
        errata_grid_points=Int(2, 500),
        errata_ada_step_ms=Real(0, 10, lo_open=True, unit="ms"),
    ), [Rule(("errata_ada_step_ms",), lambda p: _divides(p["errata_ada_step_ms"], 10.0),
             "errata_ada_step_ms must divide 10 ms (the Fig. 8 grid always contains 10, 20, ..., 90 ms)")]),
}
