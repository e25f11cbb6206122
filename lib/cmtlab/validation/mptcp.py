"""Validation checks of coupled congestion control against RFC 6356's goals.

Each check runs a multipath connection over several seeds and returns a tidy table with the
mean, a Student-t confidence interval and the theoretical expectation
(:mod:`cmtlab.validation.theory`):

* :func:`disjoint_paths_table` — random loss ``p`` on ``n`` identical disjoint paths: uncoupled
  ≈ ``n`` single-path TCPs, LIA and OLIA ≈ one (RFC 6356 sec. 2, goal 2 generalised to
  disjoint paths: "do no harm", and sec. 3's equilibrium);
* :func:`congested_clean_table` — one congested and one clean path: LIA and OLIA move traffic
  off the congested path (goal 3, "balance congestion");
* :func:`shared_bottleneck_table` — an MPTCP connection and one single-path TCP through one
  bottleneck (goal 2, "do no harm").

Two further checks of the MPTCP engine itself: :func:`single_subflow_bridge` (one subflow sends
exactly what the ns-3-validated single-path TCP sends) and :func:`dupack_mode_table` (the
receiver's duplicate-ACK semantics and the retransmission policy on one lossy scenario).

What runs a connection is a *runner*: a callable ``runner(congestion, loss_rates, rtts_s,
seed) -> per-subflow throughputs (bit/s)``.  The default, :func:`round_runner`, is the
engine-free round model (:func:`cmtlab.validation.round_model.simulate_rounds`) driving the real
congestion classes; a packet-level runner built on :func:`cmtlab.sim.simulate_mptcp` has the
same shape.  ``"single"`` in place of a congestion name runs one single-path NewReno flow on
the first path — the reference a multipath connection is compared with.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._validate import as_float_array, check_int, check_positive
from ..progress import progress
from ..stats import mean_ci


def round_runner(duration_s: float = 300.0, seg_bytes: int = 1448):
    """A runner on the round model (module docstring) with this run length and segment size."""
    from .round_model import simulate_rounds

    duration_s = check_positive("duration_s", duration_s)

    def run(congestion, loss_rates, rtts_s, seed):
        if congestion == "single":
            return simulate_rounds("newreno", loss_rates[:1], rtts_s[:1], duration_s=duration_s,
                                   seg_bytes=seg_bytes, seed=seed).subflow_bps
        return simulate_rounds(congestion, loss_rates, rtts_s, duration_s=duration_s, seg_bytes=seg_bytes,
                               seed=seed).subflow_bps

    run.description = f"round model, {duration_s:g} s per run, {seg_bytes} B segments"
    return run


def packet_runner(duration_s: float = 120.0, rate_bps: float = 50e6, **options):
    """A runner on the packet-level MPTCP engine (:func:`cmtlab.sim.simulate_mptcp`).

    One subflow per path, each on its own access link of ``rate_bps`` (fast enough that random
    loss, not the link, limits the window), random packet loss ``p_i`` on path ``i``,
    ``duration_s`` seconds; the per-subflow **goodput** is returned.  ``"single"`` runs one
    subflow with ``congestion="uncoupled"`` (NewReno) on the first path.  ``options`` go to
    ``simulate_mptcp`` (``m_ack``, ``segment_bytes``, ``congestion_params``, ...).

    Note the counting: with delayed ACKs (``m_ack=2``, the default) the simulator's NewReno grows
    once per ACK, RFC 6356's LIA per acknowledged byte — ``congestion_params={"counting": "ack"}``
    puts them on the same footing (see :class:`cmtlab.sim.mechanisms.congestion.CoupledCongestionControl`).
    """
    duration_s = check_positive("duration_s", duration_s)
    rate_bps = check_positive("rate_bps", rate_bps)

    def run(congestion, loss_rates, rtts_s, seed):
        from ..scenario import LossModel
        from ..sim import simulate_mptcp

        if congestion == "single":
            congestion, loss_rates, rtts_s = "uncoupled", loss_rates[:1], rtts_s[:1]
        r = simulate_mptcp([rate_bps] * len(rtts_s), list(rtts_s), duration_s=duration_s, congestion=congestion,
                           loss=[LossModel("packet", float(p)) if p > 0 else LossModel() for p in loss_rates],
                           seed=seed, **options)
        return r.subflows.goodput_bps.to_numpy()

    run.description = f"packet-level MPTCP, {duration_s:g} s per run, access links {rate_bps / 1e6:g} Mbit/s"
    return run


def shared_bottleneck_table(n_subflows: int = 2, bottleneck_bps: float = 10e6, rtt_s: float = 0.04, *,
                            algorithms=("uncoupled", "lia", "olia"), seeds=range(5), duration_s: float = 60.0,
                            access_bps: float = 100e6, confidence: float = 0.95, **options) -> pd.DataFrame:
    """RFC 6356 goal 2 ("do no harm") at a shared bottleneck: an MPTCP connection against one single-path TCP.

    All ``n_subflows`` subflows and one competing NewReno flow cross one bottleneck link of
    ``bottleneck_bps`` (the engine's ``backbone_bps``; access links ``access_bps``, equal RTTs).
    One row per algorithm: the MPTCP and TCP goodputs (mean ± CI over ``seeds``), their ratio
    (``expected_ratio``: 1 for the coupled algorithms — "take no more than a single TCP" — and
    ``n`` for uncoupled, n flows against one) and Jain's index of the two.

    Defaults passed to the engine unless given: ``receive_buffer_bytes=10**8`` (the connection's
    receive buffer must not be the limit: with the engine's default an uncoupled pair got 1.3
    TCP shares instead of 2) and ``queue_packets=30`` (with 100-packet drop-tail queues at
    10 Mbit/s the flows synchronise and uncoupled got 1.6).  Without random loss the runs
    are deterministic: every seed gives the same numbers (CI 0).  Measured (engine of the
    ``engine`` branch, 2 subflows, 10 Mbit/s, 40 ms, 60 s): uncoupled 2.09 TCP shares; LIA
    1.00 with ``congestion_params={"counting": "ack"}`` and 1.31 with RFC byte counting under
    delayed ACKs; OLIA 0.85 / 1.30.
    """
    options.setdefault("receive_buffer_bytes", 10**8)
    options.setdefault("queue_packets", 30)
    from .theory import jain_fairness
    from ..sim import simulate_mptcp

    n = check_int("n_subflows", n_subflows, minimum=1)
    check_positive("bottleneck_bps", bottleneck_bps)
    check_positive("rtt_s", rtt_s)
    check_positive("access_bps", access_bps)
    rows = []
    jobs = [(a, s) for a in algorithms for s in seeds]
    runs = []
    for a, s in progress(jobs, desc="shared bottleneck", unit="run"):
        r = simulate_mptcp([access_bps] * n, [rtt_s] * n, duration_s=duration_s, congestion=a, seed=s,
                           backbone_bps=bottleneck_bps, competing_flows=1, **options)
        runs.append(dict(congestion=a, seed=s, mptcp_bps=float(r.subflows.goodput_bps.sum()),
                         tcp_bps=float(r.extra["tcp0_throughput_bps"])))
    runs = pd.DataFrame(runs)
    for a, g in runs.groupby("congestion", sort=False):
        m, h, _ = mean_ci(g.mptcp_bps, confidence)
        tm, th, _ = mean_ci(g.tcp_bps, confidence)
        ratio = g.mptcp_bps / g.tcp_bps
        rm, rh, _ = mean_ci(ratio, confidence)
        rows.append(dict(congestion=a, n_subflows=n, bottleneck_bps=bottleneck_bps, n_seeds=len(g), mptcp_bps=m,
                         ci_mptcp_bps=h, tcp_bps=tm, ci_tcp_bps=th, ratio_to_tcp=rm, ci_ratio=rh,
                         expected_ratio=float(n if a == "uncoupled" else 1.0),
                         jain=float(np.mean([jain_fairness([x, y]) for x, y in zip(g.mptcp_bps, g.tcp_bps)]))))
    return pd.DataFrame(rows)


def _runs(runner, algorithms, loss_rates, rtts_s, seeds, desc):
    rows = []
    jobs = [(a, s) for a in algorithms for s in seeds]
    for a, s in progress(jobs, desc=desc, unit="run"):
        bps = np.asarray(runner(a, list(loss_rates), list(rtts_s), s), dtype=float)
        rows.append(dict(congestion=a, seed=s, total_bps=float(bps.sum()),
                         **{f"subflow{i}_bps": float(v) for i, v in enumerate(bps)}))
    return pd.DataFrame(rows)


def disjoint_paths_table(n_paths: int = 3, loss_rate: float = 0.01, rtt_s: float = 0.1, *,
                         algorithms=("uncoupled", "lia", "olia"), seeds=range(5), runner=None,
                         confidence: float = 0.95, mss_bytes: int = 1448, segments_per_ack: int = 1) -> pd.DataFrame:
    """Total throughput of each algorithm on ``n_paths`` identical disjoint paths, in single-TCP units.

    One row per algorithm (and one for ``"single"``, the single-path TCP reference measured
    with the same runner): ``mean_bps``, ``ci_bps`` (half-width), ``ratio_to_single`` (mean over
    mean of the reference), ``expected_ratio`` (``n`` for uncoupled, 1 for the coupled ones,
    from :func:`cmtlab.validation.theory.multipath_throughput_bps`) and ``mathis_bps``.
    ``mss_bytes`` and ``segments_per_ack`` only set the Mathis column (the runner's own segment
    size and delayed-ACK count, e.g. 536 B and 2 for :func:`packet_runner`'s defaults).
    """
    from .theory import mathis_throughput_bps, multipath_throughput_bps

    n = check_int("n_paths", n_paths, minimum=1)
    check_positive("rtt_s", rtt_s)
    if not 0 < loss_rate < 1:
        raise ValueError(f"loss_rate must be in (0, 1), got {loss_rate!r}")
    runner = runner or round_runner()
    p, r = [float(loss_rate)] * n, [float(rtt_s)] * n
    runs = _runs(runner, ("single",) + tuple(algorithms), p, r, list(seeds), "disjoint paths")
    single = runs.loc[runs.congestion == "single", "total_bps"].mean()
    mathis = mathis_throughput_bps(mss_bytes, rtt_s, loss_rate, segments_per_ack=segments_per_ack)
    rows = []
    for a, g in runs.groupby("congestion", sort=False):
        m, h, _ = mean_ci(g.total_bps, confidence)
        exp = 1.0 if a == "single" else multipath_throughput_bps(a if a in ("lia", "olia", "uncoupled") else "lia",
                                                                  p, r, mss_bytes,
                                                                  segments_per_ack=segments_per_ack) / mathis
        rows.append(dict(congestion=a, n_paths=n, loss_rate=loss_rate, rtt_s=rtt_s, n_seeds=len(g), mean_bps=m,
                         ci_bps=h, ratio_to_single=m / single, ci_ratio=h / single, expected_ratio=exp,
                         mathis_bps=mathis))
    return pd.DataFrame(rows)


def congested_clean_table(loss_rates=(0.02, 0.002), rtt_s: float = 0.1, *,
                          algorithms=("uncoupled", "lia", "olia"), seeds=range(5), runner=None,
                          confidence: float = 0.95) -> pd.DataFrame:
    """Share of each algorithm's throughput on the congested path (path 0) of two disjoint paths.

    ``expected_share``: uncoupled ``sqrt(p1)/(sqrt(p0)+sqrt(p1))`` (two independent TCPs), LIA
    from its fluid equilibrium (windows ∝ ``1/p``), OLIA 0 (only the best path in equilibrium).
    """
    from .theory import lia_equilibrium_windows

    p = as_float_array("loss_rates", loss_rates)
    if p.size != 2 or np.any(p <= 0) or np.any(p >= 1):
        raise ValueError(f"loss_rates must be two values in (0, 1), got {loss_rates!r}")
    check_positive("rtt_s", rtt_s)
    runner = runner or round_runner()
    r = [float(rtt_s)] * 2
    runs = _runs(runner, tuple(algorithms), list(p), r, list(seeds), "congested + clean")
    runs["congested_share"] = runs.subflow0_bps / runs.total_bps
    w = lia_equilibrium_windows(p, r)
    expected = {"uncoupled": float((1 / np.sqrt(p[0])) / (1 / np.sqrt(p)).sum()), "lia": float(w[0] / w.sum()),
                "olia": 0.0}
    rows = []
    for a, g in runs.groupby("congestion", sort=False):
        m, h, _ = mean_ci(g.congested_share, confidence)
        tm, th, _ = mean_ci(g.total_bps, confidence)
        rows.append(dict(congestion=a, loss_rate_congested=float(p[0]), loss_rate_clean=float(p[1]),
                         n_seeds=len(g), congested_share=m, ci_share=h, expected_share=expected.get(a, np.nan),
                         mean_total_bps=tm, ci_total_bps=th))
    return pd.DataFrame(rows)


#: Scenarios of the bridge check (one 10 Mbit/s, 50 ms path): loss, SACK, PRR, timestamps, limited
#: transmit, small queues, bit errors and a receive-window limit — the cases of
#: ``tests/sim/test_multipath.py``.
BRIDGE_CASES = {
    "1 % loss": dict(transfer_bytes=400_000, loss=("packet", 0.01), seed=3),
    "2 % loss, SACK": dict(transfer_bytes=300_001, loss=("packet", 0.02), seed=1, sack=True),
    "2 % loss, SACK, PRR, timestamps": dict(transfer_bytes=300_001, loss=("packet", 0.02), seed=2, sack=True,
                                            recovery="prr", timestamps=True),
    "3 % loss, limited transmit, 10-packet queue": dict(transfer_bytes=200_000, loss=("packet", 0.03), seed=4,
                                                        limited_transmit=True, queue_packets=10),
    "no random loss, 8-packet queue": dict(transfer_bytes=500_000, seed=5, queue_packets=8),
    "bit errors 2e-6, SACK loss detection, 20-segment receive window": dict(
        transfer_bytes=150_000, loss=("bit", 2e-6), seed=6, sack=True, sack_loss_detection=True,
        receive_buffer_bytes=20 * 536),
}


def single_subflow_bridge(cases=None, *, rate_bps: float = 10e6, rtt_s: float = 0.05) -> pd.DataFrame:
    """The bridge to single-path TCP: an MPTCP connection with ONE subflow against ``simulate_striped``.

    For every case (label → keyword arguments of both entry points; ``loss`` as a
    :class:`cmtlab.scenario.LossModel` or a ``(kind, rate)`` pair; default :data:`BRIDGE_CASES`)
    runs the single-path TCP of :func:`cmtlab.sim.simulate_striped` (one link, no tunnel) and
    :func:`cmtlab.sim.simulate_mptcp` with one subflow (``congestion="newreno"``, round robin,
    ``dupack_mode="rfc"``, no DSS overhead) on a path of ``rate_bps`` and round trip ``rtt_s``,
    both traced.  One row per case: completion times, packets sent, and whether the packet
    traces (send time and sequence number of every packet), the cwnd traces and the counters
    are identical, and whether every packet's DSN equals its subflow sequence number.
    """
    from ..scenario import LossModel
    from ..sim import simulate_mptcp, simulate_striped

    check_positive("rate_bps", rate_bps)
    check_positive("rtt_s", rtt_s)
    cases = BRIDGE_CASES if cases is None else dict(cases)
    counters = ("data_segments_sent", "retransmissions", "fast_retransmits", "timeouts", "spurious_retransmissions")
    rows = []
    for label, kw in progress(list(cases.items()), desc="bridge", unit="case"):
        kw = dict(kw)
        if isinstance(kw.get("loss"), tuple):
            kw["loss"] = LossModel(*kw["loss"])
        a = simulate_striped([rate_bps], [rtt_s], tunnel=False, trace={"packets", "cwnd"}, **kw)
        b = simulate_mptcp([rate_bps], [rtt_s], congestion="newreno", scheduler="round_robin", dupack_mode="rfc",
                           dss_bytes=0, trace={"packets", "cwnd"}, **kw)
        pa, pb = a.traces["packets"], b.traces["packets"]
        same_packets = (len(pa) == len(pb) and np.array_equal(pa.time_s.to_numpy(), pb.time_s.to_numpy())
                        and np.array_equal(pa.seq.to_numpy(), pb.seq.to_numpy()))
        ca, cb = a.traces["cwnd"].cwnd_bytes.to_numpy(), b.traces["cwnd"].cwnd_bytes.to_numpy()
        rows.append(dict(case=label, completion_time_tcp_s=a.completion_time_s,
                         completion_time_mptcp_s=b.completion_time_s, packets_tcp=len(pa), packets_mptcp=len(pb),
                         retransmissions=b.retransmissions, timeouts=b.timeouts,
                         same_packet_trace=bool(same_packets), same_cwnd_trace=bool(np.array_equal(ca, cb)),
                         same_counters=all(getattr(a, c) == getattr(b, c) for c in counters),
                         dsn_equals_seq=bool(np.array_equal(pb.seq.to_numpy(), pb.dsn.to_numpy()))))
    return pd.DataFrame(rows)


def dupack_mode_table(bandwidths_bps=(5e6, 2e6, 7e6), delays_s=(0.1, 0.01, 0.05), loss_rate: float = 0.005, *,
                      modes=("rfc", "paper", "chihani"), retransmit=("original", "reinject"), congestion="lia",
                      seeds=range(5), duration_s: float = 60.0, confidence: float = 0.95, **options) -> pd.DataFrame:
    """The receiver's duplicate-ACK semantics and the retransmission policy on one lossy scenario.

    Runs :func:`cmtlab.sim.simulate_mptcp` on the paths (default: Arabi et al.'s scenario 2,
    round-trip delays) with random packet loss ``loss_rate`` on every path, for every
    ``dupack_mode`` (``"rfc"``: subflow-level duplicate ACKs only; ``"paper"``: Alheid et al.'s
    Fig. 1, a duplicate ACK when the segment is ahead in the data sequence; ``"chihani"``: ACK
    withheld on a data-level gap) and every ``retransmit`` policy (``"original"`` subflow or
    ``"reinject"`` a copy on another subflow too).  One row per combination, mean and CI
    half-width over ``seeds`` of: goodput (bit/s), fast retransmits, timeouts, spurious
    retransmissions, re-injections and OOO-R (Alheid sec. IV.B).  ``options`` go to
    ``simulate_mptcp``.
    """
    from ..scenario import LossModel
    from ..sim import simulate_mptcp

    if not 0 <= loss_rate < 1:
        raise ValueError(f"loss_rate must be in [0, 1), got {loss_rate!r}")
    check_positive("duration_s", duration_s)
    loss = LossModel("packet", float(loss_rate)) if loss_rate > 0 else LossModel()
    metrics = ("goodput_bps", "fast_retransmits", "timeouts", "spurious_retransmissions", "reinjections", "ooo_r")
    jobs = [(m, r, s) for m in modes for r in retransmit for s in seeds]
    runs = []
    for m, r, s in progress(jobs, desc="duplicate-ACK modes", unit="run"):
        row = simulate_mptcp(list(bandwidths_bps), list(delays_s), duration_s=duration_s, congestion=congestion,
                             loss=loss, seed=s, dupack_mode=m, retransmit=r, **options).row()
        runs.append(dict(dupack_mode=m, retransmit=r, seed=s, **{k: float(row[k]) for k in metrics}))
    runs = pd.DataFrame(runs)
    rows = []
    for (m, r), g in runs.groupby(["dupack_mode", "retransmit"], sort=False):
        out = dict(dupack_mode=m, retransmit=r, n_seeds=len(g))
        for k in metrics:
            out[k], out[f"ci_{k}"], _ = mean_ci(g[k], confidence)
        rows.append(out)
    return pd.DataFrame(rows)


#: The settings the chapter compares: byte vs ACK counting (RFC 6356) under delayed ACKs, no delayed
#: ACKs, and the round model.
BYTES, ACKS, NO_DELACK, ROUNDS = ("packet, byte counting (RFC 6356)", "packet, ACK counting", "packet, no delayed ACKs",
                                  "round model")


def chapter_runners(duration_s: float, access_bps: float, round_duration_s: float) -> dict:
    """The chapter's runners, ``{setting: (runner, Mathis-law keywords)}``: the packet engine with
    byte counting, with ACK counting, without delayed ACKs (536-byte segments, ``access_bps`` links,
    ``duration_s``), and the round model (1448-byte segments, ``round_duration_s``)."""
    return {
        BYTES: (packet_runner(duration_s, access_bps), dict(mss_bytes=536, segments_per_ack=2)),
        ACKS: (packet_runner(duration_s, access_bps, congestion_params={"counting": "ack"}),
               dict(mss_bytes=536, segments_per_ack=2)),
        NO_DELACK: (packet_runner(duration_s, access_bps, m_ack=1), dict(mss_bytes=536, segments_per_ack=1)),
        ROUNDS: (round_runner(round_duration_s), dict(mss_bytes=1448, segments_per_ack=1)),
    }


def disjoint_paths_by_setting(runners: dict, n_paths: int, loss_rate: float, rtt_s: float, seeds) -> pd.DataFrame:
    """:func:`disjoint_paths_table` for every runner of ``runners`` (:func:`chapter_runners`), one
    ``setting`` column, plus ``single_over_mathis`` (the single TCP's throughput over the Mathis rate)."""
    out = pd.concat([disjoint_paths_table(n_paths, loss_rate, rtt_s, seeds=seeds, runner=run, **mathis)
                     .assign(setting=name) for name, (run, mathis) in runners.items()], ignore_index=True)
    out["single_over_mathis"] = out.mean_bps / out.mathis_bps
    return out


#: The shared-bottleneck check's tolerance on the ratio to TCP (the measured-number band's 10 %).
SHARED_BAND = 0.10


def shared_bottleneck_by_setting(bottleneck_bps: float, rtts_s, duration_s: float,
                                 settings=((BYTES, {}), (ACKS, {"counting": "ack"}))):
    """:func:`shared_bottleneck_table` (two subflows against one TCP, seed 0) at each RTT of ``rtts_s`` under
    each ``(setting, congestion_params)``.  Returns ``(runs, means)``: one row per run, and per
    (setting, congestion) the mean ratio to TCP over the RTTs, its min and max over them, how many RTTs
    are within ``SHARED_BAND`` of the expected ratio (``n_rtts_within``), the expected ratio and the mean
    Jain index.  The runs are deterministic (no random loss) and each RTT is another configuration, not a
    sample: the spread over the RTTs is shown as their range, never as a confidence interval."""
    runs = pd.concat([shared_bottleneck_table(2, bottleneck_bps, rtt, seeds=[0], duration_s=duration_s,
                                              congestion_params=params).assign(setting=name, rtt_ms=rtt * 1e3)
                      for rtt in rtts_s for name, params in settings], ignore_index=True)
    rows = []
    for (setting, alg), g in runs.groupby(["setting", "congestion"], sort=False):
        exp = float(g.expected_ratio.iloc[0])
        within = (g.ratio_to_tcp - exp).abs() <= SHARED_BAND * abs(exp)
        rows.append(dict(setting=setting, congestion=alg, n_rtts=len(g), ratio_to_tcp=float(g.ratio_to_tcp.mean()),
                         min_ratio=g.ratio_to_tcp.min(), max_ratio=g.ratio_to_tcp.max(),
                         n_rtts_within=int(within.sum()), expected_ratio=exp, jain=g.jain.mean()))
    return runs, pd.DataFrame(rows)


def congested_clean_by_setting(runners: dict, settings, loss_rates, rtt_s: float, seeds) -> pd.DataFrame:
    """:func:`congested_clean_table` for each setting of ``settings`` (names of ``runners``)."""
    return pd.concat([congested_clean_table(loss_rates, rtt_s, seeds=seeds, runner=runners[name][0]).assign(setting=name)
                      for name in settings], ignore_index=True)


def plot_tables(disjoint: pd.DataFrame, shared: pd.DataFrame, congested: pd.DataFrame, *, by: str = "setting"):
    """Three panels: the checks of RFC 6356's goals, measured (mean ± 95 % CI over seeds; for the shared
    bottleneck the mean over the RTTs with their min–max range, the RTTs being configurations, not samples)
    beside the expectation.

    ``disjoint``: rows of :func:`disjoint_paths_table`, ``shared``: of :func:`shared_bottleneck_table`,
    ``congested``: of :func:`congested_clean_table`, each with a column ``by`` naming the variant
    (runner, ACK counting); one marker per variant, the expectation as a black bar.
    """
    import matplotlib.pyplot as plt

    panels = [(disjoint[disjoint.congestion != "single"], "ratio_to_single", "ci_ratio", "expected_ratio",
               "identical disjoint lossy paths", "total / one single-path TCP"),
              (shared, "ratio_to_tcp", ("min_ratio", "max_ratio"), "expected_ratio", "shared bottleneck with one TCP",
               "MPTCP / competing TCP"),
              (congested, "congested_share", "ci_share", "expected_share", "one congested, one clean path",
               "share on the congested path")]
    from ..report.style import figsize

    fig, grid = plt.subplots(2, 2, figsize=figsize(2, 2, panel_height_in=2.7))
    axes = list(grid.flat)[:3]
    # one colour per variant in every panel
    every = list(dict.fromkeys(v for t, *_ in panels for v in t[by]))
    cycle = plt.rcParams["axes.prop_cycle"].by_key().get("color", ["C0", "C1", "C2", "C3"])
    colour = {v: cycle[i % len(cycle)] for i, v in enumerate(every)}
    for ax, (t, col, ci, exp, title, ylabel) in zip(axes, panels):
        algs = list(dict.fromkeys(t.congestion))
        variants = list(dict.fromkeys(t[by]))
        for j, v in enumerate(variants):
            tv = t[t[by] == v].set_index("congestion")
            x = np.array([algs.index(a) for a in tv.index]) + (j - (len(variants) - 1) / 2) * 0.15
            yerr = tv[ci] if isinstance(ci, str) else [tv[col] - tv[ci[0]], tv[ci[1]] - tv[col]]   # a CI or a range
            ax.errorbar(x, tv[col], yerr=yerr, fmt="o", capsize=3, color=colour[v], label=str(v))
        e = t.drop_duplicates("congestion").set_index("congestion")[exp].reindex(algs)
        ax.hlines(e, np.arange(len(algs)) - 0.35, np.arange(len(algs)) + 0.35, colors="k", lw=2,
                  label="expected")
        ax.set_xticks(range(len(algs)), algs)
        ax.set_title(title)
        ax.set_ylabel(ylabel)
        ax.set_ylim(bottom=0)
    handles = {}
    for ax in axes:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(lab, h)
    legend_ax = grid.flat[3]  # the fourth slot holds the legend, at the figure's text size
    legend_ax.axis("off")
    legend_ax.legend(list(handles.values()), list(handles), loc="center")
    fig.tight_layout()
    return fig


__all__ = ["SHARED_BAND", "round_runner", "packet_runner", "disjoint_paths_table", "congested_clean_table",
           "shared_bottleneck_table", "single_subflow_bridge", "dupack_mode_table", "plot_tables", "BRIDGE_CASES"]
