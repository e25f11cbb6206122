"""An 802.11g (ERP-OFDM) link for :mod:`cmtlab.sim`: one medium shared by both directions, DCF contention.

Alheid et al. (ICT 2016), sec. IV.A: the mobile node is 10–100 m from two 802.11g access points
(54 Mbit/s PHY), 1400 B packets.  This module is that last hop as a
:class:`~cmtlab.sim.net.link.LinkModel`: one :class:`WifiMedium` (the channel shared by the AP and
the station) and one :class:`WifiLink` per direction (AP→station carries data, station→AP the
TCP ACKs), both contending for the same medium.  The physics (path loss, SNR, the rate manager,
the error models, PPDU durations and the DCF parameters, all ns-3.44's) is
:mod:`cmtlab.sim.net.wifi_phy`; this module is the medium and its two links.

MAC layer: one exchange (DCF, non-QoS)
--------------------------------------
Timing and contention parameters (slot, SIFS, DIFS, CW, retry limit, PPDU durations) are those of
:mod:`cmtlab.sim.net.wifi_phy`.  One exchange (one MPDU, attempt by attempt): a back-off of ``U{0..CW}`` slots after DIFS from
the end of the last busy period of the medium (a frame that finds the medium idle for longer
than that goes at once, as ns-3's ``Txop`` does), then the data PPDU; success → SIFS + ACK,
failure → ACK timeout and the next attempt.  The packet reaches the far end at the end of its
data PPDU plus the propagation delay (``d`` / 299792458 m/s, ``ConstantSpeedPropagationDelayModel``).

Shared medium and its limits
----------------------------
Both directions reserve time on one :class:`WifiMedium`; the engine needs each packet's arrival
time when it is sent, so a frame's times are fixed when it is handed over.  A station's frames
queue behind its own earlier frames (500 packets, ns-3's ``WifiMacQueue`` ``MaxSize``).  Between
the two stations (``WifiParams.backlog_service``):

* ``"alternate"`` (default) — when the other station is backlogged (two or more exchanges
  reserved ahead), DCF lets this frame in after the other's exchange under way, not after its
  whole queue: it contends once with the other's next frame (it goes first on a smaller back-off
  count, after that frame on a larger one, and equal counts collide: a failed attempt, retried
  with a doubled CW), and the airtime it takes is *charged* to the medium — everything reserved
  later starts that much later, while the other's frames already reserved keep their times (the
  model's one approximation: those frames do not see the delay, the frames after them see it in
  full; total airtime, hence throughput, is conserved);
* ``"fifo"`` — the medium serves frames in hand-over order: a frame also waits behind everything
  the other station has reserved.

In both, a frame that becomes ready while the other station is counting down its back-off for
the exchange reserved last contends with it (equal counts collide: both frames on the air, an
ACK timeout, and the other station's retransmission are charged to the medium; a larger count
continues where it froze).  Against ns-3 (chapter ``alheid-wifi-model-check``) TCP agrees within
about 3 % at 10–100 m with ``"alternate"``, and from −2 % to +6 % with ``"fifo"``, whose
backlogged stations never collide (a collision costs a 2 ms frame at 6 Mbit/s).  With a
window-limited TCP flow the round-trip time is the window over the rate in both (Little's law).

**Beacons**: the AP sends one every 102.4 ms (ns-3 ``ApWifiMac`` ``BeaconInterval``), 70 bytes at
1 Mbit/s DSSS with the long preamble, 752 µs (size, rate and duration as ns-3.44 sends them,
read from its ``MonitorSnifferTx`` trace), after PIFS (SIFS + one slot; the beacon queue has AIFSN
1 and no back-off); a beacon that falls due takes the medium before the next frame.  First
beacon at a random phase.  ``beacon_interval_us=None`` removes them.

A **packet drop rate** ``pdr`` (Alheid's PDR) drops a packet at random *after* it was
delivered by the MAC (an independent loss above the Wi-Fi losses, no MAC retry).  The paper does
not say where its PDR acts; a drop below the MAC (e.g. ns-3's ``PostReceptionErrorModel`` on the
PHY) would be repaired by MAC retransmissions and TCP would never see it, whereas the paper's
Fig. 5 shows TCP reacting to it — hence above the MAC here.

Randomness: one seeded generator per :class:`WifiMedium` (back-off, frame errors, PDR), so a
run is repeatable and adding another link does not change this one's draws.  The links take its
numbers through :class:`RandomDraws` (the generator's own ``random()`` and ``randint`` numbers;
compiled, without a Python call per draw).
"""

from __future__ import annotations

import dataclasses
import random
from array import array

import cython  # Cython's shadow module as Python: cython.compiled is False

from .link import DROPPED_LOSS, DROPPED_QUEUE, NO_ORDER, LinkModel, TimeFifo
from .wifi_phy import (ACK_BYTES, DEFAULT_PARAMS, MPDU_OVERHEAD_BYTES, SPEED_OF_LIGHT_M_S, NistErrorModel,
                       TableErrorModel, WifiParams, _check_distance, ack_rate_mbps, default_error_model,
                       frame_success_probability, ideal_rate_mbps, ppdu_duration_us, rx_power_dbm, snr_db)
# the PHY's closed forms, readable from the link's module too (chapters and the papers' model read them here)
from .wifi_phy import saturation_throughput_bps  # noqa: F401
from ..registry import register


#: MT19937 constants (CPython ``_randommodule.c``): twist and tempering masks.
_MT_MATRIX_A = 0x9908B0DF
_MT_UPPER_MASK = 0x80000000
_MT_LOWER_MASK = 0x7FFFFFFF
_MT_TEMPER_B = 0x9D2C5680
_MT_TEMPER_C = 0xEFC60000
#: The largest ``n`` of :meth:`RandomDraws.below` (its draws take at most the 32 bits of one output).
_BELOW_MAX = 1 << 31


class RandomDraws:
    """The draws of one ``random.Random`` (CPython's Mersenne Twister MT19937) as the Wi-Fi model takes them.

    :meth:`random` and :meth:`below` return the very numbers the generator's own ``random()`` and
    ``randrange(n)`` (``randint(0, n - 1)``) return, in the order they are taken, and leave it in
    the same state (``tests/sim/net/test_wifi.py`` checks the identity; the Wi-Fi golden hashes pin whole
    runs).  As Python they call the generator.  Compiled (``wifi.pxd``) they run CPython's
    ``genrand_uint32`` on a copy of the generator's state (``getstate()``), a few C operations per
    draw instead of a Python method call; :attr:`rng` writes the copy back before it hands out the
    generator and reads it again at the next draw, so draws taken from the generator directly
    interleave with these exactly.
    """

    __slots__ = ("_rng", "_mt", "_index", "_stale")

    def __init__(self, rng: random.Random):
        self._rng = rng
        self._mt = array("I", bytes(4 * 624))   # compiled: the MT19937 state words ...
        self._index = 624                       # ... and the next one to temper (624: twist first)
        self._stale = True                      # ... to be read from rng at the next draw

    @property
    def rng(self) -> random.Random:
        """The generator, in the state after the draws taken so far."""
        if cython.compiled and not self._stale:
            version, _, gauss_next = self._rng.getstate()
            self._rng.setstate((version, tuple(self._mt) + (self._index,), gauss_next))
            self._stale = True
        return self._rng

    @cython.boundscheck(False)  # (the index is below 624 by construction)
    @cython.wraparound(False)
    def _word(self) -> int:
        """The generator's next 32-bit output (CPython ``genrand_uint32``, on the copy of its state)."""
        if self._stale:
            self._load()
        if self._index >= 624:
            self._twist()
        y = self._mt[self._index]
        self._index += 1
        y ^= y >> 11
        y ^= (y << 7) & _MT_TEMPER_B
        y ^= (y << 15) & _MT_TEMPER_C
        return y ^ (y >> 18)

    def _load(self) -> None:
        """Copy the generator's state (its 624 state words and index)."""
        _, internal, _ = self._rng.getstate()
        self._mt = array("I", internal[:624])
        self._index = internal[624]
        self._stale = False

    @cython.boundscheck(False)  # (indices below 624)
    @cython.wraparound(False)
    def _twist(self) -> None:
        """The next 624 state words at once (MT19937's twist)."""
        mt = self._mt
        for kk in range(624):
            y = (mt[kk] & _MT_UPPER_MASK) | (mt[kk + 1 if kk < 623 else 0] & _MT_LOWER_MASK)
            mt[kk] = mt[kk + 397 if kk < 227 else kk - 227] ^ (y >> 1) ^ (_MT_MATRIX_A if y & 1 else 0)
        self._index = 0

    def random(self) -> float:
        """``rng.random()``: a float in [0, 1) from 53 bits of two outputs (CPython ``random_random``)."""
        if not cython.compiled:
            return self._rng.random()
        a = self._word() >> 5
        b = self._word() >> 6
        return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)

    def below(self, n: int) -> int:
        """``rng.randrange(n)``, ``1 <= n <= 2**31``: CPython's ``_randbelow`` draws ``getrandbits(k)`` (the top
        ``k`` bits of an output), ``k`` the bit length of ``n``, until the draw is below ``n``."""
        if not 1 <= n <= _BELOW_MAX:
            raise ValueError(f"n must be in [1, 2**31], got {n!r}")
        if not cython.compiled:
            k = n.bit_length()
            r = self._rng.getrandbits(k)
            while r >= n:
                r = self._rng.getrandbits(k)
            return r
        k = 1
        while n >> k:
            k += 1
        r = self._word() >> (32 - k)
        while r >= n:
            r = self._word() >> (32 - k)
        return r


def draw_backoff_slots(draws: RandomDraws, cw: int) -> int:
    """A DCF back-off: a whole number of slots drawn uniformly from ``0 .. cw``.

    The number ``draws.rng.randint(0, cw)`` would return (:meth:`RandomDraws.below`).
    """
    return draws.below(cw + 1)


# ---------------------------------------------------------------------------- the medium and its links
class WifiMedium:
    """The channel shared by one AP and one station ``distance_m`` apart (see the module docstring).

    Parameters
    ----------
    distance_m
        AP–station distance (m, > 0).
    seed
        Seed of this medium's random stream (back-off, frame errors, PDR draws).
    params
        :class:`WifiParams` (ns-3.44 defaults).
    pdr
        Packet drop rate on the AP→station direction (probability in [0, 1)), Alheid's PDR.
    pdr_up
        Packet drop rate on the station→AP direction (default 0).

    Attributes
    ----------
    rng
        The medium's ``random.Random``; its links draw from it through ``draws``
        (:class:`RandomDraws`), which setting ``rng`` renews.
    """

    def __init__(self, distance_m: float, *, seed: int = 0, params: WifiParams = DEFAULT_PARAMS, pdr: float = 0.0,
                 pdr_up: float = 0.0, error_model: TableErrorModel | None = None):
        self.distance_m = _check_distance(distance_m)
        for name, v in (("pdr", pdr), ("pdr_up", pdr_up)):
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v < 1:
                raise ValueError(f"{name} must be a probability in [0, 1), got {v!r}")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"seed must be an integer, got {seed!r}")
        self.params = params
        self.error_model = error_model or default_error_model()
        self.snr_db = snr_db(self.distance_m, params)
        self.rx_power_dbm = rx_power_dbm(self.distance_m, params)
        self.rate_mbps = ideal_rate_mbps(self.snr_db, params, self.error_model) or 6
        self.ack_rate_mbps = ack_rate_mbps(self.rate_mbps)
        self.propagation_ns = round(self.distance_m / SPEED_OF_LIGHT_M_S * 1e9)
        self.rng = random.Random(seed)
        self.busy_until_ns = -(1 << 62)
        if params.beacon_interval_us:
            self.beacon_interval_ns = round(params.beacon_interval_us * 1000)
            self.next_beacon_ns = int(self.rng.random() * self.beacon_interval_ns)   # random phase
        else:
            self.beacon_interval_ns = 0
            self.next_beacon_ns = 1 << 62
        self.beacon_ns = round(params.beacon_us * 1000)
        self.beacon_access_ns = round((params.sifs_us + params.slot_us) * 1000)       # PIFS: AIFSN 1, CW 0
        self.beacons = 0
        # the exchange reserved last: whose, when its back-off began, when it went on the air, its data PPDU
        self.last_owner = None
        self.last_contend_ns = self.last_start_ns = self.last_tx_ns = 0
        self._succ_cache: dict[int, float] = {}
        self.down = WifiLink(medium=self, pdr=pdr, name="down")
        self.up = WifiLink(medium=self, pdr=pdr_up, name="up")

    @property
    def rng(self) -> random.Random:
        return self.draws.rng   # (in the state after the links' draws)

    @rng.setter
    def rng(self, rng: random.Random) -> None:
        self.draws = RandomDraws(rng)

    def success_probability(self, mpdu_bytes: int) -> float:
        """P(data PPDU and its MAC ACK both received) for one attempt."""
        p = self._succ_cache.get(mpdu_bytes)
        if p is None:
            p = (frame_success_probability(mpdu_bytes, self.rate_mbps, self.snr_db, self.params, self.error_model,
                                           self.rx_power_dbm)
                 * frame_success_probability(ACK_BYTES, self.ack_rate_mbps, self.snr_db, self.params,
                                             self.error_model, self.rx_power_dbm))
            self._succ_cache[mpdu_bytes] = p
        return p

    def links(self) -> tuple["WifiLink", "WifiLink"]:
        """``(down, up)``: the AP→station (data) and station→AP (ACK) directions."""
        return self.down, self.up


class WifiLink(LinkModel):
    """One direction of an 802.11g link (a view of a :class:`WifiMedium`).

    Built by :class:`WifiMedium` (``medium.down``, ``medium.up``), or standalone with
    ``WifiLink(distance_m=…, seed=…)`` / ``registry.make("link", "wifi80211g", distance_m=…)``,
    which makes its own medium and returns its AP→station direction (``link.medium.up`` is the
    reverse direction on the same medium).
    """

    def __init__(self, medium: WifiMedium | None = None, *, pdr: float = 0.0, name: str = "down",
                 distance_m: float | None = None, seed: int = 0, params: WifiParams = DEFAULT_PARAMS):
        if medium is None:
            if distance_m is None:
                raise ValueError("distance_m must be given (m, > 0) when no medium is given")
            medium = WifiMedium(distance_m, seed=seed, params=params, pdr=pdr)
            medium.down = self
        self.medium = medium
        self.pdr = float(pdr)
        self.name = name
        p = medium.params
        self._slot_ns = round(p.slot_us * 1000)
        self._difs_ns = round(p.difs_us * 1000)
        self._sifs_ns = round(p.sifs_us * 1000)
        self._ack_ns = round(ppdu_duration_us(ACK_BYTES, medium.ack_rate_mbps, p) * 1000)
        self._ack_timeout_ns = round((p.sifs_us + p.slot_us + p.preamble_us + p.signal_us) * 1000)
        self._queue_packets = p.queue_packets   # (the WifiParams that transmit() reads, as C fields compiled)
        self._cw_min = p.cw_min
        self._cw_max = p.cw_max
        self._retry_limit = p.retry_limit
        self._alternating = p.backlog_service == "alternate"
        self._tx_cache: dict[int, int] = {}
        self._memo_bytes = -1          # transmit(): the last packet size and its PPDU time and P(success)
        self._memo_tx = 0
        self._memo_p_ok = 0.0
        self._done_ns = -(1 << 62)     # when this station's last exchange ends
        self._waiting = TimeFifo()     # start times of this station's frames not yet on the air
        self._sched = TimeFifo()       # ends of this station's reserved exchanges
        self._last_tx = 0
        self.packets = self.bytes = self.queue_drops = self.loss_drops = self.max_queue = 0
        self.mac_retries = self.mac_drops = self.pdr_drops = self.collisions = 0
        self.last_start_ns = 0
        self.pdr_draws = None

    @property
    def pdr_rng(self) -> random.Random | None:
        """Generator of the PDR draws (``None``: the medium's; :meth:`for_path` gives each direction its own),
        taken through ``pdr_draws`` (:class:`RandomDraws`), which setting it renews."""
        return None if self.pdr_draws is None else self.pdr_draws.rng

    @pdr_rng.setter
    def pdr_rng(self, rng: random.Random | None) -> None:
        self.pdr_draws = None if rng is None else RandomDraws(rng)

    @property
    def rate_bps(self) -> float:
        """The PHY data rate (bit/s) the rate manager picked for this distance (what ``sub.path.rate_bps`` shows)."""
        return self.medium.rate_mbps * 1e6

    @classmethod
    def for_path(cls, *, rate_bps, delay_s, queue_packets, loss, rng, seed, stream, distance_m=None, pdr=0.0,
                 pdr_up=0.0, error_model="table", **params):
        """``(medium.down, medium.up)`` of a new :class:`WifiMedium`: one multipath path ending in 802.11g.

        Named in a scenario as ``links=[("wifi80211g", {"distance_m": 50, "pdr": 0.005}), ...]``
        (:func:`cmtlab.sim.mptcp.scenario.mptcp_scenario`): the path's data go AP → station over
        ``medium.down`` and its ACKs station → AP over ``medium.up`` of the *same* medium, so they
        contend for it (Alheid et al., Fig. 3: each path ends in its own 802.11g link).

        Parameters (from the scenario)
        ------------------------------
        rate_bps
            Ignored by the link (the PHY rate follows from ``distance_m``); the engine divides a
            subflow's bytes on the wire by it for ``link_utilisation``, so give the nominal PHY
            rate (54e6: Alheid's LU is "the throughput of the SF over its physical data rate").
        delay_s
            Must be 0: the Wi-Fi hop's own delay is the propagation over ``distance_m``; a wired
            delay in front of the access point belongs to the backbone
            (``backbone_bps``/``backbone_delay_s``), which the data cross *before* the medium and
            the ACKs *after* it (a delay folded into this link would shift data and ACKs against
            each other on the shared medium).
        queue_packets
            The AP's and the station's MAC queue (packets; ns-3.44's ``WifiMacQueue`` holds 500).
        loss
            A per-packet :class:`cmtlab.scenario.LossModel` is taken as the PDR (then ``pdr`` must
            be 0); bit errors are refused (the medium has its own frame errors).
        seed, stream
            The medium's generator (back-off, frame errors) is seeded from ``("wifi80211g", seed,
            stream)`` and the PDR draws of each direction from their own generators, so a PDR
            does not shift the back-off draws and paths never share draws.
        distance_m
            AP–station distance (m, > 0).
        pdr, pdr_up
            Packet drop rate on the AP → station (data) and station → AP (ACK) direction:
            Alheid's PDR, an independent drop after the MAC delivered the frame.
        error_model
            ``"table"`` (ns-3.44's ``TableBasedErrorRateModel``) or ``"nist"``
            (:class:`NistErrorModel`).
        params
            Keyword arguments: overrides of :class:`WifiParams` fields (e.g. ``preamble_min_rssi_dbm=None``: no
            preamble-detection threshold, as in the ns-3 releases of 2016).
        """
        if distance_m is None:
            raise ValueError("distance_m must be given for a 'wifi80211g' path (m, > 0)")
        if isinstance(delay_s, bool) or not isinstance(delay_s, (int, float)) or delay_s != 0:
            raise ValueError(f"rtts_s of a 'wifi80211g' path must be 0 (its delay is the propagation over "
                             f"distance_m; put a wired delay in backbone_delay_s), got one-way {delay_s!r} s")
        unknown = set(params) - {f.name for f in dataclasses.fields(WifiParams)}
        if unknown:
            raise ValueError(f"unknown 'wifi80211g' parameter(s) {sorted(unknown)}; allowed: distance_m, pdr, pdr_up, "
                             f"error_model and the WifiParams fields {[f.name for f in dataclasses.fields(WifiParams)]}")
        models = {"table": default_error_model, "nist": NistErrorModel}
        if error_model not in models:
            raise ValueError(f"error_model must be one of {sorted(models)}, got {error_model!r}")
        if loss is not None and getattr(loss, "rate", 0):
            if loss.unit != "packet":
                raise ValueError(f"loss on a 'wifi80211g' path must be per packet (the PDR), got unit {loss.unit!r}")
            if pdr:
                raise ValueError(f"give the PDR either as pdr ({pdr!r}) or as the path's loss ({loss!r}), not both")
            pdr = loss.rate
        prm = dataclasses.replace(DEFAULT_PARAMS, queue_packets=queue_packets, **params)
        medium = WifiMedium(distance_m, seed=0, params=prm, pdr=pdr, pdr_up=pdr_up, error_model=models[error_model]())
        medium.rng = random.Random(f"wifi80211g/{int(seed)}/{int(stream)}")
        if prm.beacon_interval_us:   # the beacon phase from the seeded generator
            medium.next_beacon_ns = int(medium.rng.random() * medium.beacon_interval_ns)
        medium.down.pdr_rng = random.Random(f"wifi80211g-pdr-down/{int(seed)}/{int(stream)}")
        medium.up.pdr_rng = random.Random(f"wifi80211g-pdr-up/{int(seed)}/{int(stream)}")
        return medium.down, medium.up

    # -- LinkModel
    def _mpdu(self, wire_bytes: int) -> int:
        return wire_bytes - self.medium.params.l2_header_bytes + MPDU_OVERHEAD_BYTES

    def serialisation_ns(self, wire_bytes: int) -> int:
        t = self._tx_cache.get(wire_bytes)
        if t is None:
            t = self._tx_cache[wire_bytes] = round(
                ppdu_duration_us(self._mpdu(wire_bytes), self.medium.rate_mbps, self.medium.params) * 1000)
        return t

    def propagation_ns(self) -> int:
        return self.medium.propagation_ns

    def drop_probability(self, wire_bytes: int) -> float:
        """P(a packet is lost): all ``retry_limit`` attempts fail, or the PDR drops it."""
        p = self.medium.success_probability(self._mpdu(wire_bytes))
        mac_loss = (1.0 - p) ** self.medium.params.retry_limit
        return 1.0 - (1.0 - mac_loss) * (1.0 - self.pdr)

    def transmit(self, now_ns: int, wire_bytes: int, order_ns: int = NO_ORDER) -> int:
        if isinstance(wire_bytes, bool) or not isinstance(wire_bytes, int) or wire_bytes < 1:
            raise ValueError(f"wire_bytes must be an integer >= 1, got {wire_bytes!r}")
        size = wire_bytes  # (compiled: a C integer)
        med = self.medium
        self._waiting.drop_through(now_ns)
        self._sched.drop_through(now_ns)
        if self._waiting.size >= self._queue_packets:
            self.queue_drops += 1
            return DROPPED_QUEUE
        draws = med.draws  # back-off draws: draw_backoff_slots(draws, cw) is what rng.randint(0, cw) returns
        if size == self._memo_bytes:  # most packets have the size of the one before
            tx = self._memo_tx
            p_ok = self._memo_p_ok
        else:
            tx = self.serialisation_ns(size)
            p_ok = med.success_probability(self._mpdu(size))
            self._memo_bytes, self._memo_tx, self._memo_p_ok = size, tx, p_ok
        earliest = now_ns if now_ns > self._done_ns else self._done_ns
        self._last_tx = tx
        if self._alternating:
            other = med.up if self is med.down else med.down
            other._sched.drop_through(earliest)
            if other._sched.size >= 2:  # the other station is backlogged: DCF alternates
                start, arrival = self._alternate(earliest, tx, p_ok, other)
                return self._finish(now_ns, size, start, arrival)
        cw = self._cw_min
        slot = self._slot_ns
        start = -1
        arrival = DROPPED_LOSS
        t = earliest
        attempt = 0
        first_backoff = -1
        last = med.last_owner
        if last is not None and last is not self and t < med.last_start_ns:
            # This frame was ready while the other station counted down its back-off for the
            # exchange already reserved last: both contended (DCF).  Our back-off counted the
            # same idle slots; equal counts collide, a larger count continues after that exchange.
            cs = med.last_contend_ns
            elapsed = (med.last_start_ns - (t if t > cs else cs)) // slot
            b = draw_backoff_slots(draws, cw)
            if b == elapsed:
                # collision: both frames on the air, ACK timeout, the other station's retry (its
                # reserved exchange stands; its retransmission is charged to the medium here)
                other_cw = min(2 * self._cw_min + 1, self._cw_max)
                med.busy_until_ns += (max(tx, med.last_tx_ns) + self._ack_timeout_ns + self._difs_ns
                                      + draw_backoff_slots(draws, other_cw) * slot)
                start = med.last_start_ns
                self.mac_retries += 1
                self.collisions += 1
                cw = min(2 * cw + 1, self._cw_max)
                attempt = 1
                t = med.busy_until_ns
            else:
                first_backoff = b - elapsed if b > elapsed else 0
        while attempt < self._retry_limit:
            if first_backoff >= 0:
                bo = first_backoff
                first_backoff = -1
            else:
                bo = draw_backoff_slots(draws, cw)
            idle_from = med.busy_until_ns + self._difs_ns
            access = idle_from + bo * slot
            s = t if t > access else access
            while s >= med.next_beacon_ns:  # a beacon falls due first: it takes the medium (PIFS, no back-off)
                b0 = med.next_beacon_ns if med.next_beacon_ns > med.busy_until_ns else med.busy_until_ns
                med.busy_until_ns = b0 + med.beacon_access_ns + med.beacon_ns
                med.next_beacon_ns += med.beacon_interval_ns
                med.beacons += 1
                idle_from = med.busy_until_ns + self._difs_ns
                access = idle_from + bo * slot
                s = t if t > access else access
            if start < 0:
                start = s
            med.last_owner = self
            med.last_contend_ns = (t if t > idle_from else idle_from) if s > t else s
            med.last_start_ns = s
            med.last_tx_ns = tx
            if p_ok >= 1.0 or draws.random() < p_ok:
                end = s + tx + self._sifs_ns + self._ack_ns
                arrival = s + tx + med.propagation_ns
                med.busy_until_ns = end
                break
            end = s + tx + self._ack_timeout_ns
            med.busy_until_ns = end
            t = end
            cw = min(2 * cw + 1, self._cw_max)
            self.mac_retries += 1
            attempt += 1
        self._done_ns = med.busy_until_ns
        self._sched.push(med.busy_until_ns)
        return self._finish(now_ns, size, start, arrival)

    def _alternate(self, t: int, tx: int, p_ok: float, other: "WifiLink") -> tuple[int, int]:
        """``backlog_service="alternate"``: the other station has two or more exchanges reserved beyond ``t``.

        DCF lets this frame in after the other's exchange under way (or next), not after its
        whole queue: the frame gets that start, and the airtime it takes is charged to the medium
        (later reservations start that much later; the other's already reserved frames keep their
        times).  Against the other's following frame it contends once (back-off counts; equal
        counts collide, a failed attempt here).
        """
        med = self.medium
        draws = med.draws
        slot = self._slot_ns
        osched = other._sched
        cw = self._cw_min
        anchor = osched.first()
        b = draw_backoff_slots(draws, cw)
        collided = False
        if osched.size >= 2:
            b_o = draw_backoff_slots(draws, self._cw_min)
            if b > b_o:
                anchor = osched.at(1)
                b -= b_o
            elif b == b_o:
                collided = True
        s = anchor + self._difs_ns + b * slot
        start = s
        debt = 0
        arrival = DROPPED_LOSS
        attempt = 0
        end = s
        while attempt < self._retry_limit:
            if collided:
                collided = False
                end = s + max(tx, other._last_tx) + self._ack_timeout_ns
                self.collisions += 1
                ok = False
            else:
                ok = p_ok >= 1.0 or draws.random() < p_ok
                end = s + tx + (self._sifs_ns + self._ack_ns if ok else self._ack_timeout_ns)
            debt += end - s + self._difs_ns + b * slot
            if ok:
                arrival = s + tx + med.propagation_ns
                break
            self.mac_retries += 1
            cw = min(2 * cw + 1, self._cw_max)
            b = draw_backoff_slots(draws, cw)
            s = end + self._difs_ns + b * slot
            attempt += 1
        if start >= med.busy_until_ns:
            med.busy_until_ns = end
        else:
            med.busy_until_ns += debt
        med.last_owner = None
        self._done_ns = end
        self._sched.push(end)
        return start, arrival

    def _finish(self, now_ns: int, wire_bytes: int, start: int, arrival: int) -> int:
        waiting = self._waiting
        if start > now_ns:
            waiting.push(start)
            if waiting.size > self.max_queue:
                self.max_queue = waiting.size
        self.last_start_ns = start
        self.packets += 1
        self.bytes += wire_bytes
        if arrival == DROPPED_LOSS:
            self.mac_drops += 1
            self.loss_drops += 1
            return DROPPED_LOSS
        if self.pdr and (self.medium.draws if self.pdr_draws is None else self.pdr_draws).random() < self.pdr:
            self.pdr_drops += 1
            self.loss_drops += 1
            return DROPPED_LOSS
        return arrival

    def stats(self) -> dict:
        d = super().stats()
        d.update(mac_retries=self.mac_retries, mac_drops=self.mac_drops, pdr_drops=self.pdr_drops,
                 collisions=self.collisions,
                 rate_mbps=self.medium.rate_mbps)
        return d


register("link", "wifi80211g")(WifiLink)  # (a compiled class takes no decorator)


def wifi_links(distance_m: float, *, seed: int = 0, pdr: float = 0.0, params: WifiParams = DEFAULT_PARAMS
               ) -> tuple[WifiLink, WifiLink]:
    """``(down, up)`` links of a new :class:`WifiMedium` — for ``Simulation(links=[down], ack_links=[up])``."""
    return WifiMedium(distance_m, seed=seed, pdr=pdr, params=params).links()


__all__ = ["WifiMedium", "WifiLink", "RandomDraws", "draw_backoff_slots", "wifi_links"]
