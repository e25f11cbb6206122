"""802.11g (ERP-OFDM) physics for the Wi-Fi link (:mod:`cmtlab.sim.net.wifi`): distance → SNR → rate and
frame errors, DCF timing, and the closed-form UDP saturation throughput.

Pure functions of a distance, a frame size and a rate, with the parameters in :class:`WifiParams`
(ns-3.44's defaults): what :class:`~cmtlab.sim.net.wifi.WifiMedium` computes once per medium, what the
validation chapter (:mod:`cmtlab.validation.wifi`) compares with ns-3 and what the papers' model of
the Alheid chapters reads (:func:`saturation_throughput_bps`).  Every constant below was checked against
the installed ns-3.44 (:mod:`cmtlab.ns3.wifi` reports what ns-3 used; ``tests/sim/net/test_wifi_phy.py``
holds the ns-3 tables).

Physical layer (ns-3.44 defaults)
---------------------------------
* **Path loss** — ``LogDistancePropagationLossModel``: ``L(d) = L0 + 10 n log10(d/d0)`` for
  ``d > d0``, ``L0`` for ``d <= d0``; ``n`` = 3, ``d0`` = 1 m, ``L0`` = 46.6777 dB (free space
  at 2.4 GHz, 1 m).  Received power ``P_rx = P_tx - L(d)`` with ``P_tx`` = 16.0206 dBm
  (``YansWifiPhy`` ``TxPowerStart``/``TxPowerEnd``), no antenna gains.
* **Noise** — thermal noise ``k T B`` with ns-3's ``k`` = 1.3803e-23 J/K
  (``InterferenceHelper``), ``T`` = 290 K, ``B`` = 20 MHz, times the receiver noise figure
  ``RxNoiseFigure`` = 7 dB: −93.97 dBm.  SNR = ``P_rx`` − noise (one link, no interference).
* **Preamble detection** — ``ThresholdPreambleDetectionModel`` (installed by
  ``YansWifiPhyHelper`` in ns-3.44): a frame is received only if ``P_rx`` ≥ −82 dBm and SNR ≥
  4 dB, i.e. up to ≈ 51.4 m with the values above.  ``preamble_min_rssi_dbm=None`` removes
  it (Alheid's 2016 ns-3 had no such model and reports results out to 100 m).
* **Frame error rate** — ns-3.44's default error model for ERP-OFDM is
  ``TableBasedErrorRateModel``: packet error rates from AWGN link simulations (IEEE 802.11 TGax
  tables, BCC, 20 MHz) for a 1458-byte and a 32-byte reference chunk, looked up at the SNR
  rounded to 0.01 dB with linear interpolation, and scaled to a chunk of ``s`` bytes as
  ``1 - (1 - PER_ref)^(s / ref)`` (reference 32 B below 400 B, else 1458 B) and set to 0 below
  1e-5 (behaviour of the installed ns-3, see :attr:`TableErrorModel.MIN_PER`); the 9 Mbit/s mode
  has no table and falls back to ``YansErrorRateModel``.  ns-3 keeps the tables in a ``.cc``
  file, so the curves are sampled from the installed ns-3 every 0.05 dB
  (:func:`cmtlab.ns3.wifi.export_error_table`) into ``data/wifi/ns3-3.44-table-based-per.csv``.
  :class:`NistErrorModel` (ns-3's ``NistErrorRateModel``, what ``YansWifiPhyHelper::Default()``
  used in earlier ns-3 releases) can be passed as ``error_model`` instead.
  A frame is received if its PHY header (the SIGNAL field, 24 bits at 6 Mbit/s) and its data
  field (``N_sym × N_DBPS`` bits at the data rate) both are: success = product of the two
  chunk success rates (ns-3 ``PhyEntity``/``InterferenceHelper``).
* **Rate adaptation** — ns-3.44's ``WifiHelper`` default is ``IdealWifiManager``: the sender
  uses the highest rate whose SNR threshold lies below the SNR the receiver measured; the
  threshold of a mode is the SNR at which the error model's 1-bit chunk error equals
  ``BerThreshold`` = 1e-6 (``ErrorRateModel::CalculateSnr``).  With a fixed distance the SNR
  is constant, so the rate is fixed per distance (54 Mbit/s above 19.13 dB, …, 6 Mbit/s above
  1.47 dB).  One quirk of ns-3.44 is kept: ``IdealWifiManager::GetLastObservedSnr`` rescales the
  reported SNR by the ratio of the channel widths of the report and the mode (22 MHz vs 20 MHz
  for 802.11g), i.e. it compares SNR + 0.41 dB with the thresholds (``ideal_snr_scale`` = 22/20;
  observed on the installed ns-3: 24 Mbit/s at 59.9 and 60 m, where the plain SNR is 9.96 dB
  < 10.375 dB, and 18 Mbit/s at 60.1 and 62 m).  MAC ACKs go at the highest basic ERP-OFDM rate
  (6, 12, 24 Mbit/s) not above the data rate (IEEE 802.11, rate selection for control response
  frames; ns-3 ``GetControlAnswerMode``: 34 µs ACKs after 54 Mbit/s data, checked live).

DCF timing (non-QoS; IEEE 802.11 DCF, OFDM PHY timing of Clause 17, ERP short slot of Clause 18)
------------------------------------------------------------------------------------------------
slot 9 µs, SIFS 10 µs, DIFS = SIFS + 2 slots = 28 µs (AIFSN 2), CWmin 15, CWmax 1023 (ns-3: slot
9 µs once all stations are ERP, checked live); PPDU duration ``16 µs preamble + 4 µs SIGNAL +
4 µs × ceil((16 + 8 L + 6) / N_DBPS)`` + 6 µs signal extension (IEEE 802.11 OFDM TXTIME with the
ERP signal extension; ns-3 ``CalculateTxDuration``: 246 µs for a 1464 B MPDU at 54 Mbit/s, 34 µs for the 14 B ACK at
24 Mbit/s); MPDU = IP packet + 8 B LLC/SNAP + 24 B MAC header + 4 B FCS; ACK timeout = SIFS +
slot + 20 µs (preamble + SIGNAL of the ACK, ns-3 ``FrameExchangeManager``); retry limit 7
transmissions (ns-3 ``MaxSsrc``); the contention window doubles after each failure
(``CW ← min(2 CW + 1, CWmax)``) and resets after a success or a drop.

:func:`dcf_exchange_us` is one successful exchange's medium time and :func:`saturation_throughput_bps`
one backlogged sender's mean throughput in closed form; how a frame actually contends for a shared
medium is :mod:`cmtlab.sim.net.wifi`'s.
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..._paths import DATA
from ..._validate import MAX_DURATION_S, check_real
from ...pinned import Column, read_csv

#: ns-3's Boltzmann constant (J/K) in ``InterferenceHelper`` (CODATA: 1.380649e-23).
BOLTZMANN_NS3 = 1.3803e-23
#: Speed of light (m/s), ns-3 ``ConstantSpeedPropagationDelayModel`` default.
SPEED_OF_LIGHT_M_S = 299_792_458.0
#: ERP-OFDM rates (Mbit/s) and data bits per OFDM symbol (IEEE 802.11 Clause 17 rate-dependent parameters).
ERP_RATES_MBPS = (6, 9, 12, 18, 24, 36, 48, 54)
N_DBPS = {6: 24, 9: 36, 12: 48, 18: 72, 24: 96, 36: 144, 48: 192, 54: 216}
#: Mandatory ERP-OFDM basic rates (Mbit/s): control responses (ACK) use the highest ≤ the data rate.
BASIC_RATES_MBPS = (6, 12, 24)
#: MAC overhead of a data MPDU around the IP packet: LLC/SNAP 8 + MAC header 24 + FCS 4 bytes.
MPDU_OVERHEAD_BYTES = 8 + 24 + 4
#: MAC ACK frame (bytes).
ACK_BYTES = 14
#: The CSV of ns-3.44's TableBasedErrorRateModel, sampled by cmtlab.ns3.wifi.export_error_table: its name in
#: the pinned data (cmtlab.pinned), and where it is in this checkout.
ERROR_TABLE = "wifi/ns3-3.44-table-based-per.csv"
ERROR_TABLE_PATH = DATA / ERROR_TABLE


@dataclass(frozen=True)
class WifiParams:
    """802.11g link parameters; defaults are ns-3.44's (sources in the module docstring).

    Times in µs, powers in dBm, gains/losses in dB.
    """

    tx_power_dbm: float = 16.0206
    reference_loss_db: float = 46.6777
    reference_distance_m: float = 1.0
    path_loss_exponent: float = 3.0
    noise_figure_db: float = 7.0
    bandwidth_hz: float = 20e6
    temperature_k: float = 290.0
    preamble_min_rssi_dbm: float | None = -82.0
    preamble_threshold_db: float = 4.0
    ber_threshold: float = 1e-6
    ideal_snr_scale: float = 22 / 20
    slot_us: float = 9.0
    sifs_us: float = 10.0
    aifsn: int = 2
    cw_min: int = 15
    cw_max: int = 1023
    preamble_us: float = 16.0
    signal_us: float = 4.0
    symbol_us: float = 4.0
    signal_extension_us: float = 6.0
    retry_limit: int = 7
    queue_packets: int = 500
    beacon_interval_us: float | None = 102_400.0
    backlog_service: str = "alternate"
    beacon_us: float = 752.0
    l2_header_bytes: int = 2

    @property
    def difs_us(self) -> float:
        return self.sifs_us + self.aifsn * self.slot_us

    @property
    def beacon_airtime_fraction(self) -> float:
        """Share of the airtime the AP's beacons take (PIFS access + the beacon PPDU per interval)."""
        if not self.beacon_interval_us:
            return 0.0
        return (self.sifs_us + self.slot_us + self.beacon_us) / self.beacon_interval_us


DEFAULT_PARAMS = WifiParams()



def _check_distance(distance_m) -> float:
    # the propagation delay (integer ns) is a simulated duration: at most MAX_DURATION_S
    return check_real("distance_m", distance_m, low=0, high=SPEED_OF_LIGHT_M_S * MAX_DURATION_S, low_open=True,
                      what=" (m)")


def _check_bytes(name: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be an integer >= 1 (bytes), got {value!r}")
    return value


def path_loss_db(distance_m: float, params: WifiParams = DEFAULT_PARAMS) -> float:
    """Log-distance path loss (dB) at ``distance_m`` (ns-3 ``LogDistancePropagationLossModel``)."""
    d = _check_distance(distance_m)
    if d <= params.reference_distance_m:
        return params.reference_loss_db
    return params.reference_loss_db + 10 * params.path_loss_exponent * math.log10(d / params.reference_distance_m)


def rx_power_dbm(distance_m: float, params: WifiParams = DEFAULT_PARAMS) -> float:
    """Received power (dBm) at ``distance_m``."""
    return params.tx_power_dbm - path_loss_db(distance_m, params)


def noise_power_dbm(params: WifiParams = DEFAULT_PARAMS) -> float:
    """Thermal noise over the channel bandwidth plus the noise figure (dBm): −93.97 dBm by default."""
    return 10 * math.log10(BOLTZMANN_NS3 * params.temperature_k * params.bandwidth_hz * 1000) + params.noise_figure_db


def snr_db(distance_m: float, params: WifiParams = DEFAULT_PARAMS) -> float:
    """Signal-to-noise ratio (dB) at ``distance_m``."""
    return rx_power_dbm(distance_m, params) - noise_power_dbm(params)


def ppdu_duration_us(mpdu_bytes: int, rate_mbps: int, params: WifiParams = DEFAULT_PARAMS) -> float:
    """ERP-OFDM PPDU duration (µs): preamble + SIGNAL + data symbols (SERVICE 16 + 8L + tail 6 bits) + extension."""
    _check_bytes("mpdu_bytes", mpdu_bytes)
    if rate_mbps not in N_DBPS:
        raise ValueError(f"rate_mbps must be one of {ERP_RATES_MBPS}, got {rate_mbps!r}")
    n_sym = -(-(16 + 8 * mpdu_bytes + 6) // N_DBPS[rate_mbps])
    return params.preamble_us + params.signal_us + params.symbol_us * n_sym + params.signal_extension_us


def data_field_bits(mpdu_bytes: int, rate_mbps: int) -> int:
    """Bits of the data field as ns-3's error model sees them: ``N_sym × N_DBPS``."""
    n_sym = -(-(16 + 8 * mpdu_bytes + 6) // N_DBPS[rate_mbps])
    return n_sym * N_DBPS[rate_mbps]


def ack_rate_mbps(data_rate_mbps: int) -> int:
    """Rate of the MAC ACK answering a frame sent at ``data_rate_mbps`` (highest basic rate not above it)."""
    return max(r for r in BASIC_RATES_MBPS if r <= data_rate_mbps)


# ---------------------------------------------------------------------------- error model
class TableErrorModel:
    """ns-3.44's ``TableBasedErrorRateModel`` for the ERP-OFDM modes, from the sampled CSV."""

    SMALL_REF_BYTES = 32
    LARGE_REF_BYTES = 1458
    SIZE_THRESHOLD_BYTES = 400
    #: ns-3.44 returns a chunk error of exactly 0 below 1e-5 (observed on the installed ns-3:
    #: 1.0089e-5 is returned, 9.9e-6 becomes 0); the IdealWifiManager's thresholds
    #: (BER 1e-6) therefore sit where a 1-byte chunk's scaled error falls below 1e-5.
    MIN_PER = 1e-5

    #: What a row of the table may hold (checked when it is read: a corrupted row is an error naming the file,
    #: the row and the column, cmtlab.pinned).
    COLUMNS = {"snr_db": Column(low=-100, high=100), "rate_mbps": Column("choice", choices=ERP_RATES_MBPS),
               "per_1458": Column(low=0, high=1), "per_32": Column(low=0, high=1)}

    def __init__(self, path: Path | str = ERROR_TABLE):
        # pinned: checked against data/MANIFEST.json (pandas' parser gives the very floats float() does:
        # tests/sim/net/test_wifi_phy.py compares the two)
        table = read_csv(path, columns=self.COLUMNS)
        rows: dict[int, list[tuple[float, float, float]]] = {r: [] for r in ERP_RATES_MBPS}
        for snr, rate, large, small in zip(table["snr_db"].tolist(), table["rate_mbps"].tolist(),
                                           table["per_1458"].tolist(), table["per_32"].tolist()):
            rows[int(rate)].append((float(snr), float(large), float(small)))
        self._snr = {}
        self._large = {}
        self._small = {}
        for r, lst in rows.items():
            lst.sort()
            self._snr[r] = [x[0] for x in lst]
            self._large[r] = [x[1] for x in lst]
            self._small[r] = [x[2] for x in lst]

    def _per_ref(self, rate_mbps: int, snr: float, small: bool) -> float:
        xs = self._snr[rate_mbps]
        ys = self._small[rate_mbps] if small else self._large[rate_mbps]
        snr = math.floor(snr * 100 + 0.5) / 100  # ns-3 RoundSnr, precision 0.01 dB
        if snr <= xs[0]:  # the sampled range starts where the PER is still flat (1, or 0 at high SNR)
            return ys[0]
        if snr >= xs[-1]:
            return ys[-1]
        i = bisect.bisect_right(xs, snr)
        x0, x1 = xs[i - 1], xs[i]
        return ys[i - 1] + (snr - x0) * (ys[i] - ys[i - 1]) / (x1 - x0)

    def chunk_success_rate(self, rate_mbps: int, snr_db_value: float, nbits: int) -> float:
        """Probability that a chunk of ``nbits`` bits at ``rate_mbps`` survives at ``snr_db_value`` dB."""
        if rate_mbps == 9:  # no table: ns-3 falls back to YansErrorRateModel, independent bit errors
            small = nbits < 8 * self.SIZE_THRESHOLD_BYTES
            ref_bits = 8 * (self.SMALL_REF_BYTES if small else self.LARGE_REF_BYTES)
            per = min(max(self._per_ref(rate_mbps, snr_db_value, small), 0.0), 1.0)
            return (1.0 - per) ** (nbits / ref_bits)
        size = max(1, nbits // 8)
        small = size < self.SIZE_THRESHOLD_BYTES
        ref = self.SMALL_REF_BYTES if small else self.LARGE_REF_BYTES
        per = min(max(self._per_ref(rate_mbps, snr_db_value, small), 0.0), 1.0)
        if size != ref:
            per = 1.0 - (1.0 - per) ** (size / ref)
        if per < self.MIN_PER:
            per = 0.0
        return 1.0 - per

    def snr_threshold_db(self, rate_mbps: int, ber: float = 1e-6) -> float:
        """SNR (dB) where a 1-bit chunk fails with probability ``ber`` (ns-3 ``CalculateSnr``, bisection)."""
        lo, hi = -10.0, 60.0
        for _ in range(60):
            mid = (lo + hi) / 2
            if 1.0 - self.chunk_success_rate(rate_mbps, mid, 1) > ber:
                lo = mid
            else:
                hi = mid
        return hi


class NistErrorModel:
    """ns-3's ``NistErrorRateModel`` (Pei & Henderson, "Validation of OFDM error rate model in ns-3",
    Boeing 2010; ns-3 ``src/wifi/model/nist-error-rate-model.cc``), what ``YansWifiPhyHelper::Default()``
    used in earlier ns-3 releases.  Uncoded BER of the constellation — BPSK ``Q``-form ``erfc(sqrt(snr))/2``,
    QPSK ``erfc(sqrt(snr/2))/2``, M-QAM ``(b-1)/(b log2 b) erfc(sqrt(snr / (2(M-1)/3)))`` with
    ``b = sqrt(M)`` — turned into a first-event error probability of the convolutional code by the
    union bound with ``D = sqrt(4 p (1-p))`` and the code's distance spectrum (rate 1/2, 2/3, 3/4),
    and a chunk of ``n`` bits survives with ``(1 - pe)^n``.
    """

    MODES = {6: (2, 1), 9: (2, 3), 12: (4, 1), 18: (4, 3), 24: (16, 1), 36: (16, 3), 48: (64, 2), 54: (64, 3)}

    @staticmethod
    def _pe(p: float, b_value: int) -> float:
        d = math.sqrt(4.0 * p * (1.0 - p))
        if b_value == 1:
            c, first, scale = (36.0, 211.0, 1404.0, 11633.0, 77433.0, 502690.0, 3322763.0, 21292910.0,
                               134365911.0), 10, 0.5
            return scale * sum(ci * d ** (first + 2 * i) for i, ci in enumerate(c))
        if b_value == 2:
            c, first = (3.0, 70.0, 285.0, 1276.0, 6160.0, 27128.0, 117019.0, 498860.0, 2103891.0, 8784123.0), 6
        else:
            c, first = (42.0, 201.0, 1492.0, 10469.0, 62935.0, 379644.0, 2253373.0, 13073811.0, 75152755.0,
                        428005675.0), 5
        return 1.0 / (2.0 * b_value) * sum(ci * d ** (first + i) for i, ci in enumerate(c))

    def chunk_success_rate(self, rate_mbps: int, snr_db_value: float, nbits: int) -> float:
        m, b_value = self.MODES[rate_mbps]
        snr = 10 ** (snr_db_value / 10)
        if m == 2:
            ber = 0.5 * math.erfc(math.sqrt(snr))
        elif m == 4:
            ber = 0.5 * math.erfc(math.sqrt(snr / 2.0))
        else:
            bps = math.isqrt(m)
            ber = (bps - 1) / (bps * math.log2(bps)) * math.erfc(math.sqrt(snr / ((2 * (m - 1)) // 3)))
        if ber == 0.0:
            return 1.0
        pe = min(self._pe(ber, b_value), 1.0)
        return (1.0 - pe) ** nbits

    snr_threshold_db = TableErrorModel.snr_threshold_db


@lru_cache(maxsize=1)
def default_error_model() -> TableErrorModel:
    """The shared :class:`TableErrorModel` (the CSV is read once)."""
    return TableErrorModel()


def ideal_rate_mbps(snr: float, params: WifiParams = DEFAULT_PARAMS, error_model=None
                    ) -> int | None:
    """The rate ns-3's ``IdealWifiManager`` picks at ``snr`` dB (None if even 6 Mbit/s is below its threshold)."""
    em = error_model or default_error_model()
    best = None
    snr = snr + 10 * math.log10(params.ideal_snr_scale)
    for r in ERP_RATES_MBPS:
        if snr > em.snr_threshold_db(r, params.ber_threshold):
            best = r if best is None or r > best else best
    return best


def frame_success_probability(mpdu_bytes: int, rate_mbps: int, snr: float, params: WifiParams = DEFAULT_PARAMS,
                              error_model: TableErrorModel | None = None, rx_power: float | None = None) -> float:
    """Probability that a PPDU carrying ``mpdu_bytes`` at ``rate_mbps`` is received at ``snr`` dB.

    SIGNAL field (24 bits at 6 Mbit/s) × data field, and 0 when the preamble is not detected.
    """
    _check_bytes("mpdu_bytes", mpdu_bytes)
    em = error_model or default_error_model()
    if params.preamble_min_rssi_dbm is not None:
        if snr < params.preamble_threshold_db or (rx_power is not None and rx_power < params.preamble_min_rssi_dbm):
            return 0.0
    return em.chunk_success_rate(6, snr, 24) * em.chunk_success_rate(rate_mbps, snr, data_field_bits(mpdu_bytes,
                                                                                                  rate_mbps))


def frame_error_rate(distance_m: float, mpdu_bytes: int, params: WifiParams = DEFAULT_PARAMS) -> float:
    """Error rate of one transmission of a data MPDU at ``distance_m`` (at the rate the ideal manager picks)."""
    s = snr_db(distance_m, params)
    rate = ideal_rate_mbps(s, params) or 6
    return 1.0 - frame_success_probability(mpdu_bytes, rate, s, params, rx_power=rx_power_dbm(distance_m, params))


def dcf_exchange_us(mpdu_bytes: int, rate_mbps: int, backoff_slots: int, params: WifiParams = DEFAULT_PARAMS) -> float:
    """Medium time (µs) of one successful exchange: DIFS + back-off + data PPDU + SIFS + ACK."""
    return (params.difs_us + backoff_slots * params.slot_us + ppdu_duration_us(mpdu_bytes, rate_mbps, params)
            + params.sifs_us + ppdu_duration_us(ACK_BYTES, ack_rate_mbps(rate_mbps), params))


def saturation_throughput_bps(distance_m: float, payload_bytes: int = 1400, params: WifiParams = DEFAULT_PARAMS,
                              ip_udp_header_bytes: int = 28) -> float:
    """Closed-form UDP saturation throughput of one sender (mean back-off CW/2 per attempt, retries included)."""
    _check_bytes("payload_bytes", payload_bytes)
    s = snr_db(distance_m, params)
    rate = ideal_rate_mbps(s, params)
    if rate is None:
        return 0.0
    mpdu = payload_bytes + ip_udp_header_bytes + MPDU_OVERHEAD_BYTES
    rx = rx_power_dbm(distance_m, params)
    p_data = frame_success_probability(mpdu, rate, s, params, rx_power=rx)
    p_ack = frame_success_probability(ACK_BYTES, ack_rate_mbps(rate), s, params, rx_power=rx)
    p = p_data * p_ack
    if p <= 0:
        return 0.0
    t_ok = ppdu_duration_us(mpdu, rate, params) + params.sifs_us + ppdu_duration_us(ACK_BYTES, ack_rate_mbps(rate),
                                                                                     params)
    t_fail = ppdu_duration_us(mpdu, rate, params) + params.sifs_us + params.slot_us + params.preamble_us \
        + params.signal_us
    time_us = 0.0
    delivered = 0.0
    reach = 1.0
    cw = params.cw_min
    for _ in range(params.retry_limit):
        per_attempt = params.difs_us + cw / 2 * params.slot_us
        time_us += reach * (per_attempt + p * t_ok + (1 - p) * t_fail)
        delivered += reach * p
        reach *= 1 - p
        cw = min(2 * cw + 1, params.cw_max)
    return delivered * payload_bytes * 8 / (time_us * 1e-6) * (1.0 - params.beacon_airtime_fraction)


__all__ = ["WifiParams", "DEFAULT_PARAMS", "TableErrorModel", "default_error_model", "NistErrorModel", "path_loss_db",
           "rx_power_dbm", "noise_power_dbm", "snr_db", "ppdu_duration_us", "data_field_bits", "ack_rate_mbps",
           "ideal_rate_mbps", "frame_success_probability", "frame_error_rate", "dcf_exchange_us",
           "saturation_throughput_bps", "ERP_RATES_MBPS", "N_DBPS", "BASIC_RATES_MBPS", "MPDU_OVERHEAD_BYTES",
           "ACK_BYTES", "ERROR_TABLE", "ERROR_TABLE_PATH", "BOLTZMANN_NS3", "SPEED_OF_LIGHT_M_S"]
