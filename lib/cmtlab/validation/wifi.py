"""The Wi-Fi link model (:mod:`cmtlab.sim.net.wifi`) against ns-3.44's Wi-Fi (:mod:`cmtlab.ns3.wifi`).

One 802.11g link, AP → station at a distance ``d`` (Alheid et al., sec. IV.A: 10–100 m, 1400 B
packets), two workloads:

* **UDP saturation** — the AP always has a 1400 B datagram queued; throughput = payload bytes
  delivered per second.  Model: :func:`model_udp_throughput_bps` (a saturated sender on a
  :class:`~cmtlab.sim.net.wifi.WifiLink`), also in closed form
  (:func:`cmtlab.sim.net.wifi.saturation_throughput_bps`).
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
defaults (see :mod:`cmtlab.sim.net.wifi`), checked against what the installed ns-3 reports.
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

#: Recorded ns-3 results of the full profile.
NS3_RECORD = "wifi/ns3-wifi-throughput.csv"  # its name in the pinned data (cmtlab.pinned)
NS3_RECORD_PATH = DATA / NS3_RECORD
#: IP + UDP headers (bytes) around a UDP payload.
UDP_IP_HEADER_BYTES = 28


def comparison_params(preamble_detection: bool = False) -> wm.WifiParams:
    """Model parameters matching the ns-3 setup (with or without ns-3.44's preamble-detection model)."""
    return wm.DEFAULT_PARAMS if preamble_detection else replace(wm.DEFAULT_PARAMS, preamble_min_rssi_dbm=None)


def model_udp_throughput_bps(distance_m: float, *, payload_bytes: int = 1400, duration_s: float = 1.0, seed: int = 0,
                             params: wm.WifiParams | None = None) -> float:
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
                             seed: int = 0, params: wm.WifiParams | None = None, return_result: bool = False):
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
              tcp_transfer_bytes: int = 2_000_000, seed: int = 0, params: wm.WifiParams | None = None) -> dict:
    """The model's numbers at one distance (SNR, rate, frame error rate, UDP and TCP throughput)."""
    params = params or comparison_params()
    snr = wm.snr_db(distance_m, params)
    rate = wm.ideal_rate_mbps(snr, params)
    mpdu = payload_bytes + UDP_IP_HEADER_BYTES + wm.MPDU_OVERHEAD_BYTES
    return {
        "distance_m": float(distance_m), "snr_db": snr, "rx_power_dbm": wm.rx_power_dbm(distance_m, params),
        "model_rate_mbps": rate, "model_fer": wm.frame_error_rate(distance_m, mpdu, params),
        "model_udp_mbps": model_udp_throughput_bps(distance_m, payload_bytes=payload_bytes,
                                                   duration_s=udp_duration_s, seed=seed, params=params) / 1e6,
        "model_udp_closed_form_mbps": wm.saturation_throughput_bps(distance_m, payload_bytes, params) / 1e6,
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


__all__ = ["NS3_RECORD", "NS3_RECORD_PATH", "comparison_params", "model_udp_throughput_bps", "model_tcp_throughput_bps",
           "model_row", "ns3_row", "record_ns3", "load_ns3_record", "compare", "agreement", "plot_comparison"]
