"""Today's answers to the papers' problem: RACK-TLP, CUBIC, BLEST, ECF and Linux's MPTCP
scheduler beside the papers' mechanisms.  Library side of the chapter ``notebooks/today-transport.ipynb``;
the mechanisms themselves live in :mod:`cmtlab.sim.mechanisms`.

* :mod:`cmtlab.today.cubic_ns3` — :class:`cmtlab.sim.mechanisms.congestion.Cubic` against ns-3.44's
  ``TcpCubic`` on the same single-path scenarios;
* :mod:`cmtlab.today.kernel` — the simulator configured like the kernel against the real kernel, cell by cell
  (trace cells included), and the replay check of the trace-driven links on both sides
  (:func:`~cmtlab.today.kernel.replay_checks`);
* :mod:`cmtlab.today.chapter` — the papers' mechanisms beside today's on the papers' scenario and a real
  5G + Starlink pair; :mod:`cmtlab.today.figures` — the chapter's figures;
* :mod:`cmtlab.today.traces` — rate schedules from the public 5G and Starlink measurements.

:data:`DATA_DIR` holds the recorded kernel runs and their simulator rows (``data/today``); the chapter reads
them with :func:`recorded` (pinned: :mod:`cmtlab.pinned`).
"""

from .. import pinned
from .._paths import DATA

#: ``data/today`` of the repository: recorded kernel runs (see its README for provenance).
DATA_DIR = DATA / "today"

_NONNEG = pinned.Column(low=0, nan=True, required=False)
_COUNT = pinned.Column(low=0, integer=True, nan=True, required=False)
#: Per recorded file: what its rows may hold beyond the transfer-result columns (:func:`cmtlab.pinned.result_columns`).
RECORDED = {
    "kernel_cells.csv": dict(results=True),
    "kernel_cells_sim.csv": dict(results=True),
    "kernel_cells_wider.csv": dict(results=True),
    "kernel_cells_rerun.csv": dict(results=True),
    "kernel_cells_wider_sim.csv": dict(results=True),
    "kernel_arabi_paper.csv": dict(results=True),
    "kernel_internals.csv": dict(columns={**{c: _COUNT for c in (
        "TCPSackRecovery", "TCPTimeouts", "TCPLossProbes", "TCPLossProbeRecovery", "TCPSpuriousRTOs", "TCPDSACKRecv",
        "TCPSACKReorder", "TCPLostRetransmit", "TcpRetransSegs", "TCPDelivered", "rcv_DelayedACKs", "random_drops",
        "queue_drops", "received_bytes")}, "throughput_bps": pinned.Column(low=0),
        "mean_cwnd_segments": _NONNEG, "mean_srtt_ms": _NONNEG}),
    "kernel_socket_traces.csv": dict(columns={
        "t_s": pinned.Column(low=0), "path": pinned.Column(low=-1, integer=True),
        "interval_s": pinned.Column(low=0.001, high=10), "run_throughput_bps": pinned.Column(low=0),
        **{c: _NONNEG for c in ("cwnd_segments", "ssthresh_segments", "unacked_segments", "bytes_sent",
                                "retrans_total", "rtt_ms", "wmem_bytes", "sndbuf_bytes")},
        "send_q_bytes": pinned.Column(low=0)}),
    "replay_testbed.csv": dict(columns={"t_s": pinned.Column(low=0), "scheduled_bps": pinned.Column(low=0),
                                        "delivered_bps": pinned.Column(low=0), "goodput_bps": _NONNEG,
                                        "idle_share": pinned.Column(low=0, high=1)}),
    "cubic_vs_ns3.csv": dict(columns={"rate_bps": pinned.Column(low=0), "rtt_s": pinned.Column(low=0),
                                      "sim_completion_s": pinned.Column(low=0), "ns3_completion_s": pinned.Column(low=0),
                                      **{c: pinned.Column(low=0, integer=True) for c in (
                                          "sim_retransmissions", "ns3_retransmissions", "sim_timeouts",
                                          "ns3_timeouts")}}),
    **{name: dict(columns={"kernel_mean": pinned.Column(), "sim_mean": pinned.Column(nan=True),
                           "n_kernel": pinned.Column(low=1, integer=True),
                           "n_sim": pinned.Column(low=0, integer=True)},
                  rows=[pinned.RowRule(("kernel_min", "kernel_mean", "kernel_max"),
                                       lambda r: r["kernel_min"] <= r["kernel_mean"] * (1 + 1e-9) + 1e-12
                                       and r["kernel_mean"] <= r["kernel_max"] * (1 + 1e-9) + 1e-12,
                                       "kernel_mean", "kernel_min <= kernel_mean <= kernel_max")])
       for name in ("kernel_agreement.csv", "kernel_agreement_wider.csv")},
}


def recorded(name: str):
    """The recorded table ``name`` of ``data/today`` (a key of :data:`RECORDED`), read through
    :func:`cmtlab.pinned.read_csv`: checked against its pinned SHA-256, and every row for possible values."""
    if name not in RECORDED:
        raise ValueError(f"name must be one of {sorted(RECORDED)}, got {name!r}")
    rules = RECORDED[name]
    return pinned.read_csv(f"today/{name}", capacity=pinned.path_rates_capacity if rules.get("results") else None,
                           **rules)


__all__ = ["DATA_DIR", "RECORDED", "recorded"]
