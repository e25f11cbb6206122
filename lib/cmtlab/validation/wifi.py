"""The Wi-Fi link model (:mod:`cmtlab.sim.net.wifi`) against ns-3.44's Wi-Fi (:mod:`cmtlab.ns3.wifi`).

One 802.11g link, AP → station at a distance ``d`` (Alheid et al., sec. IV.A: 10–100 m, 1400 B
packets), two workloads:

* **UDP saturation** — the AP always has a 1400 B datagram queued; throughput = payload bytes
  delivered per second.  Model: :func:`model_udp_throughput_bps` (a saturated sender on a
  :class:`~cmtlab.sim.net.wifi.WifiLink`), also in closed form
  (:func:`cmtlab.sim.net.wifi_phy.saturation_throughput_bps`).
* **TCP bulk transfer** — one NewReno flow, 1400 B segments, ns-3.44's other TCP defaults
  (SACK, timestamps, PRR, initial window 10 segments, 131072 B buffers), data AP → station and
  the ACKs back over the same medium.  Model: :func:`model_tcp_throughput_bps` runs
  :class:`cmtlab.sim.Simulation` with the two directions of one :class:`~cmtlab.sim.net.wifi.WifiMedium`
  as its data and ACK links.

:func:`compare` runs both simulators over a list of distances and returns one tidy table;
:func:`agreement` states the agreement as the median and the largest relative difference.
ns-3 runs take about a second each after a ~12 s import; the book's full profile records them in
``data/wifi/ns3-wifi-throughput.csv`` (:func:`record_ns3`) and the quick profile re-runs one
distance live.

Nothing here is fitted to ns-3 or to the paper: the model's constants are ns-3.44's documented
defaults (see :mod:`cmtlab.sim.net.wifi_phy`), checked against what the installed ns-3 reports.
"""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd

from .._paths import DATA
from ..pinned import Column, RowRule, read_csv
from ..sim.net import wifi as wm
from ..sim.net import wifi_phy as phy

#: Recorded ns-3 results of the full profile.
NS3_RECORD = "wifi/ns3-wifi-throughput.csv"  # its name in the pinned data (cmtlab.pinned)
NS3_RECORD_PATH = DATA / NS3_RECORD
#: IP + UDP headers (bytes) around a UDP payload.
UDP_IP_HEADER_BYTES = 28


def comparison_params(preamble_detection: bool = False) -> phy.WifiParams:
    """Model parameters matching the ns-3 setup (with or without ns-3.44's preamble-detection model)."""
    return phy.DEFAULT_PARAMS if preamble_detection else replace(phy.DEFAULT_PARAMS, preamble_min_rssi_dbm=None)


def model_udp_throughput_bps(distance_m: float, *, payload_bytes: int = 1400, duration_s: float = 1.0, seed: int = 0,
                             params: phy.WifiParams | None = None) -> float:
    """Saturation throughput (payload bit/s) of the AP → station direction of the model.

    A new datagram is handed to the link whenever the previous one starts its transmission, so the
    station's queue never runs dry; throughput = payload bytes delivered between the first and the
    last delivery × 8 / that time (as :func:`cmtlab.ns3.wifi.run_wifi` measures it).
    """
    params = params or comparison_params()
    if isinstance(payload_bytes, bool) or not isinstance(payload_bytes, int) or payload_bytes < 1:
        raise ValueError(f"payload_bytes must be an integer >= 1, got {payload_bytes!r}")
    if not (isinstance(duration_s, (int, float)) and duration_s > 0):
        raise ValueError(f"duration_s must be > 0 (s), got {duration_s!r}")
    down, _ = wm.wifi_links(distance_m, seed=seed, params=params)
    if down.drop_probability(payload_bytes + UDP_IP_HEADER_BYTES + params.l2_header_bytes) >= 1.0:
        return 0.0
    wire = payload_bytes + UDP_IP_HEADER_BYTES + params.l2_header_bytes
    end_ns = round(duration_s * 1e9)
    now = 0
    first = last = None
    delivered = 0
    while now <= end_ns:  # the next datagram is handed over when the previous one starts: always one queued
        arr = down.transmit(now, wire)
        if arr >= 0:
            if first is None:
                first = arr
            else:
                delivered += payload_bytes
            last = arr
        now = down.last_start_ns
    if first is None or last is None or last <= first:
        return 0.0
    return delivered * 8 / ((last - first) / 1e9)


def model_tcp_throughput_bps(distance_m: float, *, transfer_bytes: int = 2_000_000, payload_bytes: int = 1400,
                             seed: int = 0, params: phy.WifiParams | None = None, return_result: bool = False):
    """Throughput (bit/s) of one TCP NewReno bulk transfer over the model's Wi-Fi link (cmtlab.sim).

    ns-3.44's TCP defaults as in :func:`cmtlab.ns3.wifi.run_wifi`: options preset
    ``"ns3-3.44-defaults"`` (SACK, limited transmit, PRR, timestamps), initial window 10 segments,
    initial ssthresh unlimited, delayed ACKs every 2 segments, 131072 B buffers, no tunnel;
    the AP's queue is the 500-packet ``WifiMacQueue``.
    """
    from ..scenario import striped_scenario
    from ..sim import Simulation
    params = params or comparison_params()
    medium = wm.WifiMedium(distance_m, seed=seed, params=params)
    sc = striped_scenario([max(medium.rate_mbps, 1) * 1e6], [0.0], transfer_bytes=int(transfer_bytes),
                          segment_bytes=int(payload_bytes), initial_window_bytes=10 * int(payload_bytes),
                          ssthresh_bytes=1 << 30, m_ack=2, queue_packets=params.queue_packets, tunnel=False,
                          options="ns3-3.44-defaults", seed=seed, max_sim_time_s=600.0)
    res = Simulation(sc, links=[medium.down], ack_links=[medium.up]).run()
    tput = res.throughput_bps if res.completed else float("nan")
    return (tput, res, medium) if return_result else tput


def model_row(distance_m: float, *, payload_bytes: int = 1400, udp_duration_s: float = 1.0,
              tcp_transfer_bytes: int = 2_000_000, seed: int = 0, params: phy.WifiParams | None = None) -> dict:
    """The model's numbers at one distance (SNR, rate, frame error rate, UDP and TCP throughput)."""
    params = params or comparison_params()
    snr = phy.snr_db(distance_m, params)
    rate = phy.ideal_rate_mbps(snr, params)
    mpdu = payload_bytes + UDP_IP_HEADER_BYTES + phy.MPDU_OVERHEAD_BYTES
    return {
        "distance_m": float(distance_m), "snr_db": snr, "rx_power_dbm": phy.rx_power_dbm(distance_m, params),
        "model_rate_mbps": rate, "model_fer": phy.frame_error_rate(distance_m, mpdu, params),
        "model_udp_mbps": model_udp_throughput_bps(distance_m, payload_bytes=payload_bytes,
                                                   duration_s=udp_duration_s, seed=seed, params=params) / 1e6,
        "model_udp_closed_form_mbps": phy.saturation_throughput_bps(distance_m, payload_bytes, params) / 1e6,
        "model_tcp_mbps": model_tcp_throughput_bps(distance_m, transfer_bytes=tcp_transfer_bytes,
                                                   payload_bytes=payload_bytes, seed=seed, params=params) / 1e6,
    }


def ns3_row(distance_m: float, *, payload_bytes: int = 1400, udp_duration_s: float = 1.0,
            tcp_transfer_bytes: int = 2_000_000, seed: int = 0, preamble_detection: bool = False) -> dict:
    """ns-3.44's numbers at one distance (UDP saturation and one TCP transfer)."""
    from ..ns3 import wifi as nw
    u = nw.run_wifi(distance_m, protocol="udp", payload_bytes=payload_bytes, duration_s=udp_duration_s,
                    preamble_detection=preamble_detection, seed=seed)
    t = nw.run_wifi(distance_m, protocol="tcp", payload_bytes=payload_bytes, transfer_bytes=tcp_transfer_bytes,
                    duration_s=max(30.0, tcp_transfer_bytes * 8 / 1e6), preamble_detection=preamble_detection,
                    seed=seed)
    return {"distance_m": float(distance_m), "ns3_rate_mbps": u.main_rate_bps / 1e6,
            "ns3_udp_mbps": u.throughput_bps / 1e6,
            "ns3_tcp_mbps": t.throughput_bps / 1e6 if t.completed else float("nan"),
            "ns3_snr_db": u.sniffer_signal_dbm - u.sniffer_noise_dbm,
            "ns3_station_manager": u.station_manager, "ns3_error_model": u.error_rate_model,
            "ns3_slot_us": u.slot_us, "ns3_sifs_us": u.sifs_us, "ns3_cw_min": u.cw_min, "ns3_cw_max": u.cw_max}


def record_ns3(distances_m, *, path: Path = NS3_RECORD_PATH, progress: bool = True, **kwargs) -> pd.DataFrame:
    """Run ns-3 at each distance and write the small CSV the quick profile reads (under ``data/``, its manifest
    entry is rewritten: :func:`cmtlab.pinned.pin`)."""
    from ..pinned import pin
    from ..progress import progress as progress_bar
    rows = [ns3_row(d, **kwargs) for d in progress_bar(list(distances_m), desc="ns-3 Wi-Fi", enabled_=progress)]
    df = pd.DataFrame(rows)
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    df.to_csv(path, index=False, float_format="%.6g")
    pin(path, regenerate="CMTLAB_PROFILE=full papermill notebooks/alheid-wifi-model-check.ipynb "
                         "(cmtlab.validation.wifi.record_ns3, which pins it)")
    return df


#: What a row of the recorded ns-3 results may hold (cmtlab.pinned checks every row when it is read).
NS3_COLUMNS = {"distance_m": Column(low=0), "ns3_rate_mbps": Column("choice", choices=(6, 9, 12, 18, 24, 36, 48, 54)),
               "ns3_udp_mbps": Column(low=0, high=54), "ns3_tcp_mbps": Column(low=0, high=54, nan=True),
               "ns3_snr_db": Column(low=-100, high=200)}
NS3_RULES = [RowRule(("ns3_udp_mbps", "ns3_rate_mbps"), lambda r: r["ns3_udp_mbps"] <= r["ns3_rate_mbps"], "ns3_udp_mbps",
                     "the UDP throughput is at most the PHY rate"),
             RowRule(("ns3_tcp_mbps", "ns3_rate_mbps"), lambda r: not r["ns3_tcp_mbps"] > r["ns3_rate_mbps"],
                     "ns3_tcp_mbps", "the TCP throughput is at most the PHY rate")]


def load_ns3_record(path: Path | str = NS3_RECORD) -> pd.DataFrame:
    """The recorded ns-3 results, checked against their pinned SHA-256 and for possible values
    (:func:`cmtlab.pinned.read_csv`)."""
    return read_csv(path, columns=NS3_COLUMNS, rows=NS3_RULES)


def compare(distances_m, *, ns3: pd.DataFrame | None = None, live_ns3: bool = True, progress: bool = True,
            **kwargs) -> pd.DataFrame:
    """Model vs ns-3 at each distance: one row per distance with both simulators' numbers.

    ``ns3``: a table of ns-3 results (e.g. :func:`load_ns3_record`) used for the distances it
    has; the others are run live when ``live_ns3`` (else left NaN).  Relative differences are
    (model − ns-3) / ns-3.
    """
    from ..progress import progress as progress_bar
    ns3_rows = {}
    if ns3 is not None:
        for rec in ns3.to_dict("records"):
            ns3_rows[float(rec["distance_m"])] = rec
    rows = []
    for d in progress_bar(list(distances_m), desc="Wi-Fi model vs ns-3", enabled_=progress):
        row = model_row(d, **kwargs)
        n = ns3_rows.get(float(d))
        source = "recorded"
        if n is None and live_ns3:
            n = ns3_row(d, **kwargs)
            source = "live"
        if n is None:
            n = {"ns3_rate_mbps": float("nan"), "ns3_udp_mbps": float("nan"), "ns3_tcp_mbps": float("nan")}
            source = "none"
        row.update({k: v for k, v in n.items() if k != "distance_m"})
        row["ns3_source"] = source
        rows.append(row)
    df = pd.DataFrame(rows)
    for w in ("udp", "tcp"):
        df[f"{w}_rel_diff"] = (df[f"model_{w}_mbps"] - df[f"ns3_{w}_mbps"]) / df[f"ns3_{w}_mbps"]
    return df


def agreement(df: pd.DataFrame) -> pd.DataFrame:
    """Median and largest abs(relative difference) of the UDP and TCP throughput (one row each)."""
    out = []
    for w in ("udp", "tcp"):
        x = df[f"{w}_rel_diff"].abs().replace([np.inf, -np.inf], np.nan).dropna()
        out.append({"workload": w.upper(), "distances": int(x.size),
                    "median_abs_rel_diff": float(x.median()) if x.size else math.nan,
                    "max_abs_rel_diff": float(x.max()) if x.size else math.nan,
                    "rate_matches": int((df["model_rate_mbps"] == df["ns3_rate_mbps"]).sum())})
    return pd.DataFrame(out)


def plot_comparison(df: pd.DataFrame, ax=None):
    """Throughput vs distance: model (lines) and ns-3 (markers), UDP and TCP."""
    import matplotlib.pyplot as plt
    if ax is None:
        _, ax = plt.subplots()
    ax.plot(df.distance_m, df.model_udp_mbps, "-", color="C0", label="UDP, cmtlab.sim Wi-Fi model")
    ax.plot(df.distance_m, df.ns3_udp_mbps, "o", color="C0", mfc="none", label="UDP, ns-3.44")
    ax.plot(df.distance_m, df.model_tcp_mbps, "-", color="C1", label="TCP, cmtlab.sim Wi-Fi model")
    ax.plot(df.distance_m, df.ns3_tcp_mbps, "s", color="C1", mfc="none", label="TCP, ns-3.44")
    ax.set_xlabel("AP–station distance (m)")
    ax.set_ylabel("throughput (Mbit/s)")
    ax.set_ylim(bottom=0)
    ax.legend()
    return ax


#: The labels of :func:`single_flow_distance`'s simulators.
BOOK_MODEL_LABEL = "cmtlab.sim 802.11g model"
NS3_LABEL = "ns-3.44 802.11g"


def single_flow_distance(distances_m=None, *, model_seeds=range(3), progress: bool = False) -> pd.DataFrame:
    """One TCP flow's goodput against the distance on three 802.11g links: the papers' simulator's stand-in,
    the book's model, ns-3.44 (issue 35's distance figure; :func:`plot_single_flow_distance` draws it).

    * **the papers' simulator** (:data:`cmtlab.papers_sim.wifi.STAND_IN_LABEL`): ns-3.7's 802.11a OFDM PHY
      with ``IdealWifiManager`` standing for 802.11g, the Chihani–Collange model with one subflow and no
      reordering response (its TCP), 50-s runs from the first data segment behind the 100 Mbit/s, 10 ms
      backbone — the ``"single TCP"`` rows of the recorded ``alheid-fig4`` plan
      (:func:`cmtlab.papers_sim.wifi_record.load`, pinned), its seeds;
    * **the book's model** (:data:`BOOK_MODEL_LABEL`): :func:`model_tcp_throughput_bps` run now, one 2-MB
      NewReno transfer per seed in ``model_seeds`` (ns-3.44's TCP defaults: SACK, PRR, delayed ACKs);
    * **ns-3.44** (:data:`NS3_LABEL`): the recorded :func:`load_ns3_record` (one 2-MB transfer, seed 0).

    The workloads are not the same (a 50-s run of the model's TCP, without SACK, over a 10-ms backbone vs a
    2-MB transfer of a SACK TCP on the link alone): the figure shows where the stand-in's rate and goodput
    fall with distance, beside the two 802.11g models, not an agreement test.  ``distances_m``: default the
    stand-in's recorded distances; a distance ns-3.44 was not recorded at has no ns-3.44 row.  Returns one row
    per run: ``simulator``, ``distance_m``, ``seed``, ``goodput_bps``, ``phy_rate_mbps`` (the AP's data rate),
    ``snr_db``, ``workload``; :func:`cmtlab.papers_sim.wifi.goodput_summary` gives the mean and 95 % CI per
    simulator and distance.
    """
    from ..papers_sim import wifi as pw
    from ..papers_sim import wifi_record

    fig4 = wifi_record.load("alheid-fig4")
    stand_in = pw.goodput_rows(fig4[fig4["solution"] == "single TCP"])
    recorded = sorted(stand_in["distance_m"].unique())
    if distances_m is None:
        distances_m = recorded
    dists = [float(d) for d in distances_m]
    if not dists or any(not (isinstance(d, float) and math.isfinite(d) and d > 0) for d in dists):
        raise ValueError(f"distances_m must be distances > 0 (m), got {distances_m!r}")
    missing = sorted(set(dists) - set(recorded))
    if missing:
        raise ValueError(f"distances_m must be among the stand-in's recorded distances {recorded} (the alheid-fig4 "
                         f"plan; record more with make papers-sim-data), got {missing}")
    seeds = [int(s) for s in model_seeds]
    if not seeds or any(s < 0 for s in seeds):
        raise ValueError(f"model_seeds must name at least one seed >= 0, got {model_seeds!r}")
    stand_in = stand_in[stand_in["distance_m"].isin(dists)].assign(
        workload="50 s of the Chihani-Collange model's TCP (one subflow), 10 ms backbone")
    rows = []
    params = comparison_params()
    for d in dists:
        rate = phy.ideal_rate_mbps(phy.snr_db(d, params), params)
        for seed in seeds:
            rows.append({"simulator": BOOK_MODEL_LABEL, "distance_m": d, "seed": seed,
                         "goodput_bps": model_tcp_throughput_bps(d, seed=seed, params=params),
                         "phy_rate_mbps": rate, "snr_db": phy.snr_db(d, params),
                         "workload": "2 MB NewReno transfer (ns-3.44's TCP defaults)"})
    ns3 = load_ns3_record()
    for rec in ns3[ns3["distance_m"].astype(float).isin(dists)].to_dict("records"):
        rows.append({"simulator": NS3_LABEL, "distance_m": float(rec["distance_m"]), "seed": 0,
                     "goodput_bps": float(rec["ns3_tcp_mbps"]) * 1e6, "phy_rate_mbps": float(rec["ns3_rate_mbps"]),
                     "snr_db": float(rec["ns3_snr_db"]), "workload": "2 MB NewReno transfer (recorded)"})
    out = pd.concat([stand_in.drop(columns=["mac_retries"]), pd.DataFrame(rows)], ignore_index=True)
    return out.sort_values(["simulator", "distance_m", "seed"]).reset_index(drop=True)


def plot_single_flow_distance(rows: pd.DataFrame, ax=None):
    """Goodput (Mbit/s, mean and 95 % CI over the seeds) against the distance per simulator, from
    :func:`single_flow_distance`'s rows."""
    import matplotlib.pyplot as plt

    from ..papers_sim.wifi import goodput_summary
    if ax is None:
        _, ax = plt.subplots()
    summary = goodput_summary(rows)
    for i, (name, g) in enumerate(summary.groupby("simulator", sort=True)):
        lo = (g.goodput_bps - g.ci95_low_bps).fillna(0) / 1e6
        hi = (g.ci95_high_bps - g.goodput_bps).fillna(0) / 1e6
        ax.errorbar(g.distance_m, g.goodput_bps / 1e6, yerr=[lo, hi], marker="osd"[i % 3], capsize=3, label=name)
    ax.set_xlabel("AP–station distance (m)")
    ax.set_ylabel("one TCP flow's goodput (Mbit/s)")
    ax.set_ylim(bottom=0)
    ax.legend()
    return ax


__all__ = ["NS3_RECORD", "NS3_RECORD_PATH", "comparison_params", "model_udp_throughput_bps", "model_tcp_throughput_bps",
           "model_row", "ns3_row", "record_ns3", "load_ns3_record", "compare", "agreement", "plot_comparison",
           "single_flow_distance", "plot_single_flow_distance", "BOOK_MODEL_LABEL", "NS3_LABEL"]
