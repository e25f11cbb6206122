"""One 802.11g link in ns-3.44: an access point and one station at a distance (Alheid et al., sec. IV.A).

What is built (:mod:`cmtlab.ns3._wifi_glue`, C++ compiled by cppyy; nothing per packet in Python):

* two nodes, the AP (node 0, the sender — Alheid's server sits behind the AP) and a station
  (node 1) ``distance_m`` away (``ConstantPositionMobilityModel``);
* ``YansWifiChannelHelper::Default()``: ``ConstantSpeedPropagationDelayModel`` and
  ``LogDistancePropagationLossModel`` (exponent 3, reference loss 46.6777 dB at 1 m);
* ``YansWifiPhyHelper`` with all its ns-3.44 defaults: ``TxPowerStart`` = ``TxPowerEnd`` =
  16.0206 dBm, ``RxNoiseFigure`` 7 dB, error model ``TableBasedErrorRateModel`` (fallback
  ``YansErrorRateModel`` for the 9 Mbit/s mode, which has no table), and the
  ``ThresholdPreambleDetectionModel`` (``MinimumRssi`` −82 dBm, ``Threshold`` 4 dB) —
  which makes a link longer than about 51 m deaf (``preamble_detection=False`` removes it,
  the one deviation from the defaults we offer: Alheid's 2016 ns-3 had no preamble-detection
  model and reports throughput at 70–100 m);
* ``WifiHelper`` with ``WIFI_STANDARD_80211g`` and its default remote-station manager,
  ``IdealWifiManager`` (``BerThreshold`` 1e-6), infrastructure MACs (``ApWifiMac`` /
  ``StaWifiMac``, no active probing), non-QoS DCF (AIFSN 2, CWmin 15, CWmax 1023; slot 9 µs
  and SIFS 10 µs once the station has associated — short slot, all stations ERP);
* the internet stack with ns-3's default traffic control (``FqCoDelQueueDisc`` on the
  devices above the 500-packet ``WifiMacQueue``), TCP ``TcpNewReno`` with ns-3.44's other
  defaults (SACK, timestamps, PRR, initial window 10 segments, 131072 B buffers) and
  ``SegmentSize`` = ``payload_bytes``;
* traffic from the AP to the station starting at ``start_s`` (1 s, after association):
  UDP — ``OnOffApplication`` at a constant ``udp_offered_bps`` (60 Mbit/s, above what the
  channel can carry: saturation), ``payload_bytes`` per datagram, throughput = bytes received
  between the first and the last datagram over that time; TCP — one ``BulkSendApplication``
  of ``transfer_bytes``, throughput = bytes × 8 / (last byte received − ``start_s``).

The run reports what the installed ns-3 actually used (station manager, error model, preamble
detection model, queue disc, slot, SIFS, CW, AIFSN, tx power, the PHY rate of each data frame
sent, ``CalculateTxDuration`` of a 1464 B frame at 54 Mbit/s and of an ACK at 24 Mbit/s), so
:mod:`cmtlab.sim.net.wifi_phy`'s constants are checked against ns-3 rather than against memory.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass, field

from .._validate import check_positive
from .engine import load

_lock = threading.Lock()
_loaded = False

#: The eight ERP-OFDM data rates (Mbit/s), as ns-3's ``ErpOfdmPhy`` has them.
ERP_RATES_MBPS = (6, 9, 12, 18, 24, 36, 48, 54)


def load_wifi():
    """Import ns-3, compile the Wi-Fi glue once per process; return ``cppyy.gbl.cmtlab_wifi``."""
    global _loaded
    gbl = load()
    with _lock:
        if not _loaded:
            import cppyy

            from ._wifi_glue import WIFI_GLUE_CPP
            if not hasattr(gbl, "cmtlab_wifi"):
                cppyy.cppdef(WIFI_GLUE_CPP)
            _loaded = True
    return gbl.cmtlab_wifi


@dataclass
class WifiRunResult:
    """One ns-3 Wi-Fi run: throughput and what ns-3 used."""

    distance_m: float
    protocol: str
    throughput_bps: float
    rx_bytes: float
    completed: bool
    station_manager: str
    error_rate_model: str
    preamble_detection_model: str
    queue_disc: str
    slot_us: float
    sifs_us: float
    cw_min: int
    cw_max: int
    aifsn: int
    tx_power_dbm: float
    rx_power_dbm: float
    data_rate_counts: dict = field(default_factory=dict)
    mac_tx_failed: int = 0
    phy_rx_drops: int = 0
    duration_1464_54_us: float = 0.0
    duration_ack_24_us: float = 0.0
    sniffer_signal_dbm: float = float("nan")
    beacons: int = 0
    beacon_bytes: int = 0
    beacon_rate_bps: float = float("nan")
    beacon_duration_us: float = float("nan")
    sniffer_noise_dbm: float = float("nan")

    @property
    def main_rate_bps(self) -> float:
        """The PHY rate most data frames used (nan if none was sent)."""
        if not self.data_rate_counts:
            return float("nan")
        return float(max(self.data_rate_counts.items(), key=lambda kv: kv[1])[0])


def run_wifi(distance_m: float, *, protocol: str = "udp", payload_bytes: int = 1400, duration_s: float = 2.0,
             transfer_bytes: float = 2e6, udp_offered_bps: float = 60e6, preamble_detection: bool = True,
             seed: int = 0) -> WifiRunResult:
    """Run the single-link setup of the module docstring once in ns-3.44.

    ``protocol`` ``"udp"`` (saturation for ``duration_s``) or ``"tcp"`` (one bulk transfer of
    ``transfer_bytes``, stopped after ``duration_s`` if unfinished). ``seed`` → ns-3 run
    number ``seed + 1`` (``RngSeedManager`` seed 1).
    """
    d = check_positive("distance_m", distance_m)
    if protocol not in ("udp", "tcp"):
        raise ValueError(f"protocol must be 'udp' or 'tcp', got {protocol!r}")
    if isinstance(payload_bytes, bool) or not isinstance(payload_bytes, int) or not 1 <= payload_bytes <= 2200:
        raise ValueError(f"payload_bytes must be an integer in [1, 2200], got {payload_bytes!r}")
    check_positive("duration_s", duration_s)
    W = load_wifi()
    c = W.WifiConfig()
    c.distance_m = float(d)
    c.payload_bytes = int(payload_bytes)
    c.tcp = protocol == "tcp"
    c.udp_offered_bps = float(udp_offered_bps)
    c.transfer_bytes = float(transfer_bytes)
    c.duration_s = float(duration_s)
    c.preamble_detection = bool(preamble_detection)
    c.rng_seed = 1
    c.rng_run = int(seed) + 1
    with _lock:
        r = W.RunWifi(c)
    return WifiRunResult(
        distance_m=float(d), protocol=protocol, throughput_bps=float(r.throughput_bps), rx_bytes=float(r.rx_bytes),
        completed=bool(r.completed) if c.tcp else True, station_manager=str(r.station_manager),
        error_rate_model=str(r.error_rate_model), preamble_detection_model=str(r.preamble_detection_model),
        queue_disc=str(r.queue_disc), slot_us=float(r.slot_us), sifs_us=float(r.sifs_us), cw_min=int(r.cw_min),
        cw_max=int(r.cw_max), aifsn=int(r.aifsn), tx_power_dbm=float(r.tx_power_dbm),
        rx_power_dbm=float(r.rx_power_dbm), data_rate_counts={int(k): int(v) for k, v in r.data_rate_counts},
        mac_tx_failed=int(r.mac_tx_failed), phy_rx_drops=int(r.phy_rx_drops),
        duration_1464_54_us=float(r.duration_1464_54_us), duration_ack_24_us=float(r.duration_14_24_us),
        sniffer_signal_dbm=float(r.sniffer_signal_dbm), sniffer_noise_dbm=float(r.sniffer_noise_dbm),
        beacons=int(r.beacons), beacon_bytes=int(r.beacon_bytes), beacon_rate_bps=float(r.beacon_rate_bps),
        beacon_duration_us=float(r.beacon_duration_us))


def chunk_success_rate(model: str, rate_mbps: int, snr_db: float, nbits: int) -> float:
    """ns-3's ``ErrorRateModel::GetChunkSuccessRate`` for an ERP-OFDM mode (20 MHz, long preamble).

    ``model``: ``"table"`` (``TableBasedErrorRateModel``, ns-3.44's default), ``"nist"``,
    ``"yans"``.
    """
    names = {"table": "ns3::TableBasedErrorRateModel", "nist": "ns3::NistErrorRateModel",
             "yans": "ns3::YansErrorRateModel"}
    if model not in names:
        raise ValueError(f"model must be one of {sorted(names)}, got {model!r}")
    if rate_mbps not in ERP_RATES_MBPS:
        raise ValueError(f"rate_mbps must be one of {ERP_RATES_MBPS}, got {rate_mbps!r}")
    W = load_wifi()
    return float(W.ChunkSuccessRate(names[model], int(rate_mbps), 10 ** (snr_db / 10), int(nbits)))


def ideal_manager_thresholds_db(model: str = "table", ber: float = 1e-6) -> dict[int, float]:
    """SNR (dB) above which ns-3's ``IdealWifiManager`` picks each ERP-OFDM rate (``BerThreshold`` = ber)."""
    names = {"table": "ns3::TableBasedErrorRateModel", "nist": "ns3::NistErrorRateModel",
             "yans": "ns3::YansErrorRateModel"}
    W = load_wifi()
    return {r: 10 * math.log10(float(W.SnrForBer(names[model], r, ber))) for r in ERP_RATES_MBPS}


def export_error_table(path, *, snr_min_db: float = -2.0, snr_max_db: float = 32.0, step_db: float = 0.05) -> None:
    """Sample ns-3.44's default ``TableBasedErrorRateModel`` into the CSV :mod:`cmtlab.sim.net.wifi_phy` reads
    (written under ``data/``, its entry in the manifest is rewritten: :func:`cmtlab.pinned.pin`).

    Columns ``snr_db, rate_mbps, per_1458, per_32``: the packet error rate of a 1458-byte and a
    32-byte chunk (the two reference sizes of ns-3's tables, ``ERROR_TABLE_BCC_LARGE_FRAME_SIZE``
    and ``..._SMALL_...``), for each ERP-OFDM rate, on an SNR grid of ``step_db``.  ns-3 rounds the
    SNR to 0.01 dB and interpolates linearly between table points; other sizes scale as
    ``1 - (1 - per_ref)^(size/ref)`` — which :mod:`cmtlab.sim.net.wifi_phy` does the same way.
    """
    import numpy as np
    import pandas as pd
    rows = []
    for snr in np.round(np.arange(snr_min_db, snr_max_db + step_db / 2, step_db), 4):
        for r in ERP_RATES_MBPS:
            rows.append({"snr_db": float(snr), "rate_mbps": r,
                         "per_1458": 1.0 - chunk_success_rate("table", r, float(snr), 1458 * 8),
                         "per_32": 1.0 - chunk_success_rate("table", r, float(snr), 32 * 8)})
    df = pd.DataFrame(rows)
    # keep, per rate, the SNR range where something changes (plus one point either side)
    keep = []
    for r, g in df.groupby("rate_mbps"):
        moving = g.index[(g.per_1458 > 0) | (g.per_32 < 1)]
        inside = g.index[(g.per_1458 < 1) | (g.per_32 > 0)]
        lo = max(g.index.min(), min(inside) - 8) if len(inside) else g.index.min()
        hi = min(g.index.max(), max(moving) + 8) if len(moving) else g.index.max()
        keep.append(g.loc[lo:hi])
    pd.concat(keep).to_csv(path, index=False, float_format="%.10g")
    from ..pinned import pin

    pin(path, regenerate="cmtlab.ns3.wifi.export_error_table (ns-3.44), which pins it")  # in data/: its manifest entry


__all__ = ["ERP_RATES_MBPS", "WifiRunResult", "run_wifi", "chunk_success_rate", "ideal_manager_thresholds_db",
           "export_error_table", "load_wifi"]
