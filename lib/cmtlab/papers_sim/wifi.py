"""The papers' own simulator over Wi-Fi: the Chihani–Collange MPTCP model (ns-3.7) on a multi-homed
mobile associated with one access point per path — the topology of Alheid et al. (ICT 2016), Fig. 3.

An instrument, like :mod:`cmtlab.papers_sim.model`: it knows the topology and its parameters, not
any paper's claims.  :func:`scenario` validates a run into a :class:`WifiScenario`; :func:`run`
runs it with the Wi-Fi driver (``driver/mptcp-wifi-scenario.cc``, built on demand) and returns a
:class:`~cmtlab.papers_sim.model.PapersSimResult`, whose row has the model's columns plus the
Wi-Fi ones (:meth:`WifiScenario.extra_columns`).

What is built (the driver's header says it in detail)::

    server ==(backbone k)== router --(AP link k)-- AP k ~~(BSS k)~~ mobile,   k = 1..paths

* a download, as the paper's FTP transfer: the model's sending socket on the server, the sink on
  the mobile; the access points send the data, the mobile the TCP ACKs, on the same air;
* the backbone: ``backbone_bps`` (100 Mbit/s), ``backbone_delay_s`` (10 ms) one way, one
  point-to-point link per path, because the model pairs the sender's and the receiver's
  addresses one to one (one server address per subflow); the router–AP links have the
  backbone's rate and ``ap_link_delay_s`` (0);
* **the 802.11g stand-in**: ns-3.7 has no 802.11g (ERP-OFDM arrived in ns-3.10), so each BSS is
  ns-3.7's 802.11a OFDM PHY (``YansWifiPhy``, ``YansErrorRateModel``) with its DCF.  ERP-OFDM
  uses the same OFDM modes (6–54 Mbit/s) and, with the short slot of an all-ERP BSS, the same
  timing: a 9 µs slot, SIFS 10 µs + 6 µs signal extension = 802.11a's 16 µs SIFS, DIFS 34 µs.
  What differs: the beacons (802.11a: 6 Mbit/s OFDM; 802.11g: 1 Mbit/s DSSS, 0.7 % of the air
  instead of 0.1 %) and the error model (ns-3.7's Yans curves, not ns-3.44's tables);
* **rate**: ``rate_manager="ideal"`` (the default) — ns-3.7's ``IdealWifiManager``: every frame at
  the fastest mode whose SNR threshold (bit error rate ``ber_threshold`` = 1e-5 under the Yans
  model) lies below the SNR the receiver reported last; with a fixed distance and no fading the
  SNR, hence the rate, is a function of the distance (54 Mbit/s at 10–20 m, 48 at 30, 36 at 40,
  24 at 50, 18 at 60–70, 12 at 80–90, 9 at 100 m with the defaults).  Why a distance-driven
  manager: Alheid et al. say the links use "54 Mbps as the physical data rate" and that "as the
  distance increases, the performance will decrease due to the deterioration of link (lower
  signal-to-interference-plus-noise ratio (SINR))", with gThroughput and LU falling gradually
  over 10–100 m (Fig. 4, Table III).  At a constant 54 Mbit/s the Yans error model turns from no
  loss to no reception within a few dB (about 25–35 m here): throughput would be flat, then zero.
  The book's 802.11g model and ns-3.44 use the same kind of manager (``IdealWifiManager``).
  ``rate_manager="constant"`` keeps every frame at ``data_mode`` (``"wifia-54mbs"``);
* **propagation**: ``LogDistancePropagationLossModel`` with exponent 3 and ``reference_loss_db`` =
  46.6777 dB at 1 m — the default of ns-3's ``YansWifiChannelHelper`` in every ns-3 release,
  hence of an ns-3 802.11g script of Alheid's time, and what the book's 802.11g model and its
  ns-3.44 runs use (note: 46.6777 dB is free space at 1 m for 5.15 GHz; free space at 2.4 GHz
  is :data:`FRIIS_1M_2_4GHZ_DB` = 40.05 dB, which :func:`scenario` accepts); transmit power
  16.0206 dBm, noise figure 7 dB, no antenna gains (ns-3.7's defaults are 1 dB each way; 0 as
  in ns-3.44 and the book's model);
* RTS/CTS and fragmentation off, Wi-Fi MTU 1500 B (the model's MSS = 1400 B, the paper's
  packet size), MAC queue ``mac_queue_packets`` (500, ns-3.44's; ns-3.7 had 400), DropTail
  ``queue_packets`` (100) on the wired links;
* the flow: mpTopology's (the model's example) buffers and writes, ``duration_s`` (50 s, the
  paper's run) from the first data segment, started ``start_s`` (1 s) after the simulation
  starts (the stations associate within a millisecond: the driver checks);
* ``drop_rate``: a packet drop rate per path, by the model's own drop
  (``MpTcpSocketImpl::SetLossThreshold``: a new data segment of that subflow is dropped at the
  sender when ``rand() % 1013 / 1013`` falls below the threshold; :func:`loss_threshold`
  picks the threshold whose effective rate, a multiple of 1/1013, is nearest).

The reordering responses (``reordering``) are the model's own, as Alheid et al. ran them: ``"none"``
(NoPR), ``"dsack"`` (the model's D_SACK), ``"pr_r"`` (their Algorithm 1, patch 05) and
``"tcp_door"`` — **what the model's TCP_DOOR really does**: in the published overlay
(``dzlab/mptcp-ns3`` d4ad7bf, ``src/internet-stack/mp-tcp-socket-impl.cc``) its whole code is
``case TCP_DOOR: break;`` (lines 1668-1669) in ``IsDuplicatedAck``'s switch on a duplicate ACK, where
NoPR calls ``DupAck`` (lines 1670-1672: the 3rd duplicate ACK halves the window and retransmits).  A
TCP_DOOR sender thus *ignores duplicate ACKs*: no fast retransmit, no window reduction; a loss is
repaired only when the retransmission timer expires (``ReTxTimeout``, line 615).  The receiver has
no TCP_DOOR case and the model no option to carry TCP-DOOR's TPSN/ADSN sequence numbers, so it is
not Wang and Zhang's TCP-DOOR (MobiHoc 2002: out-of-order detection, congestion control disabled
for a while, instant recovery).  It does match the paper: Alheid et al. cite no TCP-DOOR source
(their [14, 15] are their own studies on this model) and describe exactly this behaviour (sec. V.B:
"it does not take any action when receiving the third DUPACK and depends on the RTO response
only").  :data:`cmtlab.papers_sim.model.REORDERING`'s comment gives the same lines.

Randomness — every source is driven by ``seed``: ns-3's run number (``RngRun`` = seed + 1: the
DCF back-offs, the PHY's frame-error draws, everything ns-3.7 draws from its MRG32k3a streams)
and the C library's ``rand()``, which the model uses for its drop draws (re-seeded with seed + 1
when the flow starts; the model seeds it with a constant in every socket constructor, so the
initial sequence numbers and tokens do not change).  There is no start jitter: the flow starts
at ``start_s`` in every run, and the back-offs alone make the runs differ (the tests show it).
F_RTO's clock (:func:`cmtlab.papers_sim.model.frto_clock`) is also the seed's.

Metrics in a row (beyond :meth:`~cmtlab.papers_sim.model.PapersSimResult.row`'s): per path
``sf<i>_distance_m``, ``sf<i>_phy_rate_mbps`` (the rate of most of the AP's data frames),
``sf<i>_ap_data_frames``, ``sf<i>_mac_retries`` (MAC retransmissions, both directions),
``sf<i>_retry_limit_drops``, ``sf<i>_snr_db`` (the mobile's mean SNR); the receiver's
``rx_data_segments``, ``rx_new_segments`` (non-duplicate), ``ooo_stored_segments`` and
``ooo_ratio`` (= stored / non-duplicate: Alheid's OOO-R), ``ooo_max_segments`` and
``ooo_max_bytes`` (the out-of-order list's largest length and content: Alheid's OOO-BO; the
model's list is unbounded, so the paper's 10-MB buffer never binds — the columns show how much
was used), and the drop: ``sf<i>_drop_rate`` (requested), ``sf<i>_drop_threshold``,
``sf<i>_effective_drop_rate``.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import math
from dataclasses import dataclass

import numpy as np

from .._validate import check_int, check_number, check_positive
from . import model as _model
from .model import (CONGESTION, DEFAULT_RECEIVE_BUFFER_BYTES, DEFAULT_SEND_BUFFER_BYTES, MAX_PATHS, REORDERING,
                    PapersSimResult, check_run_size, congestion_name, frto_clock, reordering_name)

SIMULATOR_NAME = "papers-sim-wifi"
#: Free-space loss at 1 m for 2.4 GHz, 20 log10(4 pi f / c) (dB); ns-3's default 46.6777 dB is 5.15 GHz.
FRIIS_1M_2_4GHZ_DB = 20 * math.log10(4 * math.pi * 2.4e9 / 299_792_458.0)
#: ns-3's ``LogDistancePropagationLossModel`` default reference loss at 1 m (dB).
NS3_DEFAULT_REFERENCE_LOSS_DB = 46.6777
RATE_MANAGERS = ("ideal", "constant")
#: ns-3.7's 802.11a OFDM modes (``WifiPhy::Get6mba`` ...) → data rate (bit/s).
MODES = {"wifia-6mbs": 6e6, "wifia-9mbs": 9e6, "wifia-12mbs": 12e6, "wifia-18mbs": 18e6, "wifia-24mbs": 24e6,
         "wifia-36mbs": 36e6, "wifia-48mbs": 48e6, "wifia-54mbs": 54e6}
#: The model's drop draw: ``rand() % 1013 / 1013 < threshold`` (``MpTcpSocketImpl::rejectPacket``).
LOSS_GRID = 1013


def loss_threshold(rate: float) -> tuple[float, float]:
    """``(threshold, effective)``: the model's loss threshold for a wanted drop rate in [0, 1) and the
    rate it gives, ``round(1013 rate) / 1013`` (the model draws ``rand() % 1013 / 1013``)."""
    if isinstance(rate, (bool, np.bool_)) or not isinstance(rate, (int, float, np.integer, np.floating)) \
            or not 0 <= rate < 1:
        raise ValueError(f"drop_rate values must be probabilities in [0, 1), got {rate!r}")
    k = round(float(rate) * LOSS_GRID)
    if k == 0:
        return 0.0, 0.0
    return (k - 0.5) / LOSS_GRID, k / LOSS_GRID


@dataclass(frozen=True)
class WifiScenario:
    """One run of the model over Wi-Fi (build it with :func:`scenario`, which validates; the module
    docstring says what each parameter is)."""

    distances_m: tuple
    congestion: str = "linked_increases"
    reordering: str = "dsack"
    duration_s: float | None = 50.0
    transfer_bytes: int | None = None
    drop_rate: tuple = ()
    seed: int = 0
    rate_manager: str = "ideal"
    data_mode: str = "wifia-54mbs"
    reference_loss_db: float = NS3_DEFAULT_REFERENCE_LOSS_DB
    path_loss_exponent: float = 3.0
    tx_power_dbm: float = 16.0206
    tx_gain_db: float = 0.0
    rx_gain_db: float = 0.0
    noise_figure_db: float = 7.0
    ber_threshold: float = 1e-5
    backbone_bps: float = 100e6
    backbone_delay_s: float = 0.010
    ap_link_delay_s: float = 0.0
    queue_packets: int = 100
    mac_queue_packets: int = 500
    send_buffer_bytes: int = DEFAULT_SEND_BUFFER_BYTES
    receive_buffer_bytes: int = DEFAULT_RECEIVE_BUFFER_BYTES
    sample_s: float = 0.1
    start_s: float = 1.0
    max_sim_time_s: float = 36_000.0

    @property
    def n_links(self) -> int:
        return len(self.distances_m)

    n_subflows = n_links

    @property
    def drop_thresholds(self) -> tuple:
        """The model's loss threshold per path (:func:`loss_threshold`)."""
        return tuple(loss_threshold(p)[0] for p in self.drop_rate)

    @property
    def loss_rate(self):
        """The thresholds passed to the model (the ``loss_rate`` column of the point-to-point runs)."""
        thr = self.drop_thresholds
        return thr if any(thr) else 0.0

    def path_capacity_bps(self) -> tuple:
        """The most a path can carry (bit/s): the fastest PHY rate its manager may use."""
        top = MODES["wifia-54mbs"] if self.rate_manager == "ideal" else MODES[self.data_mode]
        return (top,) * self.n_links

    def path_columns(self, i: int) -> dict:
        return {"distance_m": self.distances_m[i] if i < self.n_links else np.nan}

    def to_dict(self) -> dict:
        out = dataclasses.asdict(self)
        out["distances_m"] = list(out["distances_m"])
        out["drop_rate"] = list(out["drop_rate"])
        out["kind"] = SIMULATOR_NAME
        return out

    def key(self) -> str:
        """Stable SHA-256 of :meth:`to_dict`."""
        blob = json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"), default=float)
        return hashlib.sha256(blob.encode()).hexdigest()

    def replace(self, **changes) -> "WifiScenario":
        """A validated copy with some fields changed (unknown names raise ``ValueError``)."""
        current = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        unknown = set(changes) - set(current)
        if unknown:
            raise ValueError(f"unknown scenario field(s) {sorted(unknown)}; allowed: {sorted(current)}")
        if "duration_s" in changes and changes["duration_s"] is not None and "transfer_bytes" not in changes:
            changes["transfer_bytes"] = None
        if "transfer_bytes" in changes and changes["transfer_bytes"] is not None and "duration_s" not in changes:
            changes["duration_s"] = None
        current.update(changes)
        return scenario(**current)

    def command(self, binary) -> list[str]:
        """The Wi-Fi driver's command line for this run."""
        cmd = [str(binary), f"--paths={self.n_links}", "--distance=" + ",".join(repr(float(d)) for d in self.distances_m),
               f"--cc={CONGESTION[self.congestion]}", f"--pr={REORDERING[self.reordering]}",
               f"--bytes={self.transfer_bytes if self.transfer_bytes is not None else 0}",
               f"--duration={self.duration_s if self.duration_s is not None else 0}",
               f"--sndbuf={self.send_buffer_bytes}", f"--rcvbuf={self.receive_buffer_bytes}",
               f"--queue={self.queue_packets}", f"--mac-queue={self.mac_queue_packets}",
               f"--manager={self.rate_manager}", f"--mode={self.data_mode}",
               f"--ref-loss={self.reference_loss_db!r}", f"--exponent={self.path_loss_exponent!r}",
               f"--tx-power={self.tx_power_dbm!r}", f"--tx-gain={self.tx_gain_db!r}", f"--rx-gain={self.rx_gain_db!r}",
               f"--noise-figure={self.noise_figure_db!r}", f"--ber={self.ber_threshold!r}",
               f"--backbone-rate={self.backbone_bps!r}", f"--backbone-delay={self.backbone_delay_s!r}",
               f"--ap-link-delay={self.ap_link_delay_s!r}", f"--start={self.start_s!r}",
               f"--sample={self.sample_s!r}", f"--max-time={self.max_sim_time_s!r}",
               f"--rng-run={self.seed + 1}", f"--loss-seed={self.seed}", f"--frto-clock={frto_clock(self.seed)}"]
        if any(t > 0 for t in self.drop_thresholds):
            cmd.append("--loss=" + ",".join(repr(t) for t in self.drop_thresholds))
        return cmd

    def extra_columns(self, out: dict) -> dict:
        """The Wi-Fi and receiver columns of a row (see the module docstring)."""
        cols = {"rate_manager": self.rate_manager, "reference_loss_db": self.reference_loss_db}
        rx = out.get("receiver", {})
        cols.update({"rx_data_segments": rx.get("data_segments"), "rx_new_segments": rx.get("new_segments"),
                     "ooo_stored_segments": rx.get("stored_ooo"),
                     "ooo_ratio": (rx["stored_ooo"] / rx["new_segments"]) if rx.get("new_segments") else float("nan"),
                     "ooo_max_segments": rx.get("max_ooo_segments"), "ooo_max_bytes": rx.get("max_ooo_bytes")})
        for i, p in enumerate(out.get("wifi", {}).get("paths", [])):
            frames = {float(k): int(v) for k, v in p["ap_data_frames_by_mbps"].items()}
            cols[f"sf{i}_phy_rate_mbps"] = max(frames, key=lambda k: (frames[k], k)) if frames else float("nan")
            cols[f"sf{i}_ap_data_frames"] = sum(frames.values())
            cols[f"sf{i}_sta_frames"] = sum(int(v) for v in p["sta_data_frames_by_mbps"].values())
            cols[f"sf{i}_mac_retries"] = p["ap_mac_retries"] + p["sta_mac_retries"]
            cols[f"sf{i}_retry_limit_drops"] = p["ap_retry_limit_drops"] + p["sta_retry_limit_drops"]
            sig, noise = p["sta_mean_signal_dbm"], p["sta_mean_noise_dbm"]
            cols[f"sf{i}_snr_db"] = (sig - noise - self.noise_figure_db) if sig is not None and noise is not None \
                else float("nan")
            cols[f"sf{i}_assoc_s"] = p["assoc_s"]
        for i in range(self.n_links):
            want = self.drop_rate[i] if i < len(self.drop_rate) else 0.0
            thr, eff = loss_threshold(want)
            cols[f"sf{i}_drop_rate"], cols[f"sf{i}_drop_threshold"], cols[f"sf{i}_effective_drop_rate"] = want, thr, eff
        return cols


def scenario(distances_m=None, *, distance_m=None, paths: int | None = None, congestion="linked_increases",
             reordering="dsack", duration_s=None, transfer_bytes=None, drop_rate=0.0, seed=0, rate_manager="ideal",
             data_mode="wifia-54mbs", reference_loss_db=NS3_DEFAULT_REFERENCE_LOSS_DB, path_loss_exponent=3.0,
             tx_power_dbm=16.0206, tx_gain_db=0.0, rx_gain_db=0.0, noise_figure_db=7.0, ber_threshold=1e-5,
             backbone_bps=100e6, backbone_delay_s=0.010, ap_link_delay_s=0.0, queue_packets=100,
             mac_queue_packets=500, send_buffer_bytes=DEFAULT_SEND_BUFFER_BYTES,
             receive_buffer_bytes=DEFAULT_RECEIVE_BUFFER_BYTES, sample_s=0.1, start_s=1.0,
             max_sim_time_s=36_000.0) -> WifiScenario:
    """Validate the arguments and build a :class:`WifiScenario` (errors name the parameter).

    The distances: ``distances_m`` (one per path), or ``distance_m`` with ``paths`` (default 2)
    for every path alike.  Without ``duration_s`` and ``transfer_bytes`` a run lasts the paper's
    50 s.  ``drop_rate``: one probability for every path or one per path.
    """
    if distances_m is not None and (distance_m is not None or paths is not None):
        raise ValueError("give distances_m (one per path) or distance_m with paths, not both, got "
                         f"distances_m={distances_m!r}, distance_m={distance_m!r}, paths={paths!r}")
    if distances_m is None:
        n = 2 if paths is None else check_int("paths", paths, minimum=1, maximum=MAX_PATHS)
        if distance_m is None:
            raise ValueError("give distances_m (one per path) or distance_m (every path)")
        distances_m = [distance_m] * n
    if isinstance(distances_m, (str, bytes)) or not hasattr(distances_m, "__len__"):
        raise ValueError(f"distances_m must be a sequence of distances (m), one per path, got {distances_m!r}")
    if not 1 <= len(distances_m) <= MAX_PATHS:
        raise ValueError(f"distances_m must give 1..{MAX_PATHS} paths, got {len(distances_m)}")
    dists = []
    for d in distances_m:
        if isinstance(d, (bool, np.bool_)) or not isinstance(d, (int, float, np.integer, np.floating)) \
                or not (math.isfinite(d) and 0 < d <= 1e5):
            raise ValueError(f"distances_m values must be distances in (0, 100000] m, got {distances_m!r}")
        dists.append(float(d))
    n = len(dists)
    cc = congestion_name(congestion)
    ro = reordering_name(reordering)
    if transfer_bytes is not None and duration_s is not None:
        raise ValueError("give transfer_bytes or duration_s, not both, got "
                         f"transfer_bytes={transfer_bytes!r}, duration_s={duration_s!r}")
    if transfer_bytes is None and duration_s is None:
        duration_s = 50.0
    nbytes = check_int("transfer_bytes", transfer_bytes, minimum=1, maximum=4_000_000_000) \
        if transfer_bytes is not None else None
    dur = check_positive("duration_s", duration_s) if duration_s is not None else None
    if isinstance(drop_rate, (list, tuple, np.ndarray)):
        drops = list(drop_rate)
        if len(drops) != n:
            raise ValueError(f"drop_rate must be one probability or one per path ({n}), got {len(drops)} values")
    else:
        drops = [drop_rate] * n
    for p in drops:
        loss_threshold(p)   # a ValueError naming drop_rate
    drops = tuple(float(p) for p in drops)
    sd = check_int("seed", seed, minimum=0, maximum=2**31 - 2)
    if rate_manager not in RATE_MANAGERS:
        raise ValueError(f"rate_manager must be one of {RATE_MANAGERS}, got {rate_manager!r}")
    if data_mode not in MODES:
        raise ValueError(f"data_mode must be one of {sorted(MODES, key=MODES.get)}, got {data_mode!r}")

    def ranged(name, value, lo, hi):
        v = check_number(name, value)
        if not lo <= v <= hi:
            raise ValueError(f"{name} must be in [{lo}, {hi}], got {value!r}")
        return v

    ref = ranged("reference_loss_db", reference_loss_db, 0.0, 200.0)
    expo = ranged("path_loss_exponent", path_loss_exponent, 1.0, 8.0)
    txp = ranged("tx_power_dbm", tx_power_dbm, -50.0, 50.0)
    txg = ranged("tx_gain_db", tx_gain_db, -50.0, 50.0)
    rxg = ranged("rx_gain_db", rx_gain_db, -50.0, 50.0)
    nf = ranged("noise_figure_db", noise_figure_db, 0.0, 50.0)
    ber = ranged("ber_threshold", ber_threshold, 1e-12, 0.5)
    bb = ranged("backbone_bps", backbone_bps, 1e3, 1e11)
    bbd = ranged("backbone_delay_s", backbone_delay_s, 0.0, 10.0)
    apd = ranged("ap_link_delay_s", ap_link_delay_s, 0.0, 10.0)
    q = check_int("queue_packets", queue_packets, minimum=1, maximum=1_000_000)
    mq = check_int("mac_queue_packets", mac_queue_packets, minimum=1, maximum=1_000_000)
    snd = check_int("send_buffer_bytes", send_buffer_bytes, minimum=_model.MSS_BYTES, maximum=1 << 30)
    rcv = check_int("receive_buffer_bytes", receive_buffer_bytes, minimum=_model.MSS_BYTES, maximum=1 << 30)
    smp = ranged("sample_s", sample_s, 1e-4, 60.0)
    st = ranged("start_s", start_s, 0.5, 100.0)
    tmax = check_positive("max_sim_time_s", max_sim_time_s)
    sc = WifiScenario(distances_m=tuple(dists), congestion=cc, reordering=ro, duration_s=dur, transfer_bytes=nbytes,
                      drop_rate=drops, seed=sd, rate_manager=rate_manager, data_mode=data_mode, reference_loss_db=ref,
                      path_loss_exponent=expo, tx_power_dbm=txp, tx_gain_db=txg, rx_gain_db=rxg, noise_figure_db=nf,
                      ber_threshold=ber, backbone_bps=bb, backbone_delay_s=bbd, ap_link_delay_s=apd,
                      queue_packets=q, mac_queue_packets=mq, send_buffer_bytes=snd, receive_buffer_bytes=rcv,
                      sample_s=smp, start_s=st, max_sim_time_s=tmax)
    if dur is not None and not st + dur < tmax:
        raise ValueError(f"start_s + duration_s must be below max_sim_time_s ({tmax!r} s), got {st + dur!r}")
    check_run_size(sc.path_capacity_bps(), dur, smp, tmax)
    return sc


def run(sc: WifiScenario, *, timeout_s: float | None = None, release_acked: bool = True) -> PapersSimResult:
    """Run one :class:`WifiScenario` on the model (building the Wi-Fi driver first if needed); the
    arguments and errors of :func:`cmtlab.papers_sim.model.run`."""
    if not isinstance(sc, WifiScenario):
        raise ValueError(f"run() takes a WifiScenario (cmtlab.papers_sim.wifi.scenario(...)), got {type(sc).__name__}")
    _model._check_run_options(sc, timeout_s, release_acked)   # before building anything
    res = _model.run_driver(sc, _model.binary(wifi=True), timeout_s=timeout_s, release_acked=release_acked)
    res.simulator = SIMULATOR_NAME
    res.extra["code_version"] = code_version()
    return res


def simulate(**kw) -> PapersSimResult:
    """:func:`scenario` + :func:`run` in one call."""
    return run(scenario(**kw))


def run_many(scenarios, *, workers: int | None = None, progress: bool = True, desc: str = "papers-sim-wifi",
             log=None) -> list:
    """:func:`run` over ``scenarios`` in parallel (threads, each waiting for its driver process; ``workers``
    default: the usable cores); the results in the scenarios' order.  Progress: a line every 30 s
    (``log``, default stderr when ``progress``) saying how many runs are done and about how long is left."""
    import concurrent.futures
    import os
    import sys
    import threading
    import time

    scenarios = list(scenarios)
    if workers is None:
        workers = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    workers = check_int("workers", workers, minimum=1, maximum=256)
    if log is None:
        log = (lambda msg: print(msg, file=sys.stderr, flush=True)) if progress else (lambda msg: None)
    if not scenarios:
        return []
    _model.binary(wifi=True)  # build once, before the threads
    results = [None] * len(scenarios)
    lock = threading.Lock()
    state = {"done": 0, "t0": time.monotonic(), "last": time.monotonic()}

    def one(i):
        results[i] = run(scenarios[i])
        with lock:
            state["done"] += 1
            now, done = time.monotonic(), state["done"]
            if now - state["last"] >= 30 or done == len(scenarios):
                state["last"] = now
                left = (now - state["t0"]) / done * (len(scenarios) - done)
                log(f"{desc}: {done}/{len(scenarios)} runs, {(now - state['t0']) / 60:.1f} min, "
                    f"about {left / 60:.1f} min left")
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        for f in [pool.submit(one, i) for i in range(len(scenarios))]:
            f.result()
    return results


#: The label of :func:`single_flow_goodput`'s rows (the simulator column a figure joins on).
STAND_IN_LABEL = "papers' simulator (ns-3.7 802.11a, the 802.11g stand-in)"


def goodput_rows(table):
    """The single-flow rows of a table of :meth:`~cmtlab.papers_sim.model.PapersSimResult.row` (one path: the
    model with one subflow, its TCP) in the layout of :func:`single_flow_goodput`."""
    import pandas as pd

    one = table[table["n_subflows"] == 1]
    return pd.DataFrame({"simulator": STAND_IN_LABEL, "distance_m": one["sf0_distance_m"].astype(float),
                         "seed": one["seed"].astype(int), "goodput_bps": one["throughput_bps"].astype(float),
                         "phy_rate_mbps": one["sf0_phy_rate_mbps"].astype(float),
                         "mac_retries": one["sf0_mac_retries"].astype(float), "snr_db": one["sf0_snr_db"].astype(float)
                         }).reset_index(drop=True)


def single_flow_goodput(distances_m=tuple(float(d) for d in range(10, 101, 10)), *, seeds=range(3),
                        duration_s: float = 50.0, workers: int | None = None, progress: bool = True, **scenario_kw):
    """A figure's data: the goodput of one TCP flow against the distance on the 802.11g stand-in.

    One BSS (``paths=1``), the model with one subflow and no reordering response (its TCP), for
    every distance (m) and seed, ``duration_s`` from the first data segment; other parameters of
    :func:`scenario` in ``scenario_kw`` (say ``reference_loss_db=FRIIS_1M_2_4GHZ_DB``).  Returns one
    row per run: ``simulator`` (:data:`STAND_IN_LABEL`), ``distance_m``, ``seed``, ``goodput_bps``,
    ``phy_rate_mbps`` (the AP's data rate), ``mac_retries``, ``snr_db``; :func:`goodput_summary` gives
    the mean and 95 % CI per distance.  The same layout as the book's 802.11g model and ns-3.44
    runs can be given, so the three can be plotted side by side.
    """
    import pandas as pd

    for name in ("paths", "distance_m", "distances_m", "seed", "reordering", "duration_s", "transfer_bytes"):
        if name in scenario_kw:
            raise ValueError(f"{name} is set by single_flow_goodput, not a scenario parameter here")
    seeds = [check_int("seeds", s, minimum=0, maximum=2**31 - 2) for s in seeds]
    if not seeds:
        raise ValueError("seeds must name at least one seed")
    cases = [scenario(distance_m=d, paths=1, reordering="none", duration_s=duration_s, seed=s, **scenario_kw)
             for d in distances_m for s in seeds]
    results = run_many(cases, workers=workers, progress=progress, desc="single-flow goodput")
    return goodput_rows(pd.DataFrame([r.row() for r in results]))


def goodput_summary(rows):
    """Mean goodput (bit/s) and its 95 % Student-t interval per simulator and distance of
    :func:`single_flow_goodput` rows (``n``: the seeds; one seed gives no interval)."""
    import pandas as pd

    from ..stats import mean_ci

    out = []
    for (simulator, d), g in rows.groupby(["simulator", "distance_m"], sort=True):
        ci = mean_ci(g["goodput_bps"].to_numpy(dtype=float))
        m, lo, hi, n = ci.mean, ci.low, ci.high, ci.n
        out.append({"simulator": simulator, "distance_m": d, "goodput_bps": m, "ci95_low_bps": lo, "ci95_high_bps": hi,
                    "n": n, "phy_rate_mbps": float(g["phy_rate_mbps"].median())})
    return pd.DataFrame(out)


@functools.lru_cache(maxsize=None)
def code_version() -> str:
    """The model's code version (:func:`cmtlab.papers_sim.model.code_version`) with the Wi-Fi
    driver and this module."""
    from ..sweep import code_version as cv
    from . import build as bld

    return cv(bld.WIFI_DRIVER_SOURCE, __file__, extra=(_model.code_version(),))


__all__ = ["WifiScenario", "scenario", "run", "simulate", "run_many", "single_flow_goodput", "goodput_rows",
           "goodput_summary", "STAND_IN_LABEL", "loss_threshold", "code_version", "FRIIS_1M_2_4GHZ_DB",
           "NS3_DEFAULT_REFERENCE_LOSS_DB", "RATE_MANAGERS", "MODES", "LOSS_GRID", "SIMULATOR_NAME"]
