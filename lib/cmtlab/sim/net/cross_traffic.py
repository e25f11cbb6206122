"""OSIA's path model (Wang, Liao, Li, sec. 5.1): Pareto on-off cross traffic and a varying bit-error rate.

Sec. 5.1 of the OSIA paper describes each simulated path in three sentences: "cross-traffic in
each path is generated according to a Pareto process with an on-off period that takes value in
the range [10 ms, 1 s]. The bit error rate on a link dynamically changes within the range between
1×10⁻³ to 1×10⁻⁵ (with the average of 2×10⁻⁵), and all links have the same bit error rate. The
path MTU at each path is 1 Kbytes".  This module turns that into two random processes and two
:class:`~cmtlab.sim.net.link.LinkModel` classes that compose on one link:

* :class:`ParetoOnOff` — the cross-traffic source (a process, no link);
* :class:`BitErrorProcess` — the bit-error rate over time (a process, no link);
* :class:`BitErrorLink` (registered as link ``"varying_ber"``) — a
  :class:`~cmtlab.sim.net.link.PointToPointLink` whose packets are lost with the frame-error
  probability of the BER *at the moment the packet is serialised*;
* :class:`CrossTrafficLink` (link ``"pareto_cross_traffic"``) — the same link whose FIFO
  transmitter is shared with a :class:`ParetoOnOff` source: a data packet's departure time
  includes the cross-traffic bytes queued ahead of it.  It takes a ``ber`` process too, so cross
  traffic and bit errors sit on one link (``pareto_cross_traffic`` with ``ber=...``).

Choices the paper leaves open (each a parameter; the defaults and why)
----------------------------------------------------------------------
**On and off periods** — both drawn independently from a *bounded* Pareto distribution on
[``min_period_s``, ``max_period_s``] = [10 ms, 1 s] (the paper's range) with density
``∝ x^-(α+1)``.  Shape ``α = 1.5`` (default): the classic heavy-tailed on-off source
(1 < α < 2: infinite variance without the bound, the regime in which aggregated on-off sources
give self-similar traffic — Willinger, Taqqu, Sherman, Wilson, IEEE/ACM ToN 1997 — and the
usual shape of Pareto on-off cross traffic in ns-2/ns-3 studies).  Mean period
``E[X] = L^α/(1−(L/H)^α) · α/(α−1) · (L^{1−α} − H^{1−α})`` = 27.0 ms for α = 1.5, so the duty
cycle is 1/2.  The source starts on or off with probability 1/2 (the duty cycle) and a fresh
period.

**Cross-traffic rate** — while on, the source sends ``cross_packet_bytes`` = 1000-byte packets
back to back at ``peak_rate_bps`` (constant bit rate within an on period; the fraction of a
packet interval left at the end of an on period carries over to the next one, as ns-3's
``OnOffApplication`` does, so the long-run cross-traffic rate is exactly
``peak_rate_bps × duty cycle``).  The paper gives no rate.  Give either ``peak_rate_bps`` or
``mean_load`` (the long-run fraction of the link's capacity the cross traffic takes; peak =
``mean_load × rate_bps / duty``).  :mod:`cmtlab.papers.osia.experiments` uses ``mean_load = 0.25``
(peak = half the link rate): on the 10 ms–1 s time scale the bandwidth left to the flow then
swings between 50 % and 100 % of the capacity — "paths with different available bandwidths in
the dynamic network" — without ever starving the path.  The cross traffic is open loop (UDP-like)
and shares the drop-tail queue: when the queue is full a cross packet is dropped (counted in
``cross_drops``), as a data packet is.

**Bit-error rate** — piecewise constant: time is cut into periods of ``period_s`` = 100 ms (a
time scale between the paths' round trips and OSIA's 1 s scheduling period), and period ``k``
has the BER ``B_k`` drawn independently from a bounded Pareto on [1e-5, 1e-3] — the paper's
range — whose shape is solved so that the mean is the paper's 2e-5 (α = 1.9784; a mean so close
to the lower end needs a distribution that puts most periods near 1e-5 and a few far above: the
median is 1.42e-5, 5 % of the periods exceed 4.5e-5).  The time average of the BER is then 2e-5.
"All links have the same bit error rate" is read as the same *distribution*: each link gets its
own process by default; pass one :class:`BitErrorProcess` to several links to give them the same
BER trajectory (their loss draws stay independent).

**Frame loss** — a packet of ``L`` bytes on the wire is lost with probability
``1 − (1 − B)^(8 L)`` (independent bit errors, as :class:`~cmtlab.scenario.LossModel` with
``unit="bit"``), with ``B`` the BER of the period in which it starts serialisation.  With the
paper's 1 KB packets that is 14.8 % at the mean BER and 14.4 % on average over the BER
distribution (1040 bytes on the wire with TCP/IP headers: 15.3 % / 14.4 %) — a heavy loss for TCP.
(The paper says both "MTU 1 Kbytes" and "packet size is 1 kb"; 1000-bit packets would lose 2.0 %.)

Randomness
----------
Every process and every link draws from its own generator, seeded from ``(seed, stream)`` and the
kind of draw (``random.Random`` seeded with a string key; the string seeding of ``random`` is a
SHA-512 of the key, the same on every platform and Python process).  So adding a link, turning on
the BER of a link, or drawing more cross traffic never changes another link's or process's draws:
cross-traffic periods, BER values and per-packet loss draws are three separate streams.

Only the forward (data) direction of a path needs these links; the ACK direction is a plain
:class:`~cmtlab.sim.net.link.PointToPointLink` in :mod:`cmtlab.papers.osia.experiments` (the paper says
nothing about cross traffic against the ACKs).
"""

from __future__ import annotations

import math
import random

import numpy as np

from ..._validate import MAX_DURATION_S, check_bool, check_int, check_real
from ...scenario import NO_LOSS, LossModel
from .link import DROPPED_LOSS, NO_ORDER, NS_PER_S, PointToPointLink, transmission_ns
from ..registry import register

#: Sec. 5.1: on and off periods take values in [10 ms, 1 s].
PERIOD_RANGE_S = (0.010, 1.0)
#: Default shape of the bounded Pareto on/off periods (see the module docstring).
DEFAULT_SHAPE = 1.5
#: Sec. 5.1: the bit-error rate varies in [1e-5, 1e-3] with mean 2e-5.
BER_RANGE = (1e-5, 1e-3)
BER_MEAN = 2e-5
#: Default length of a constant-BER period (s).
BER_PERIOD_S = 0.1
#: Sec. 5.1: 1 KB packets (the cross traffic's packet size).
PACKET_BYTES = 1000
#: A scenario's names (link parameters, :class:`~cmtlab.papers.osia.experiments.PathModel`'s fields) of
#: :class:`BitErrorProcess`'s parameters, so that an error names what the caller gave.
BER_NAMES = {"mean": "ber_mean", "low": "ber_low", "high": "ber_high", "period_s": "ber_period_s"}


# ---------------------------------------------------------------------------------------- validation

def _check_seed(name: str, value) -> int:
    return check_int(name, value, minimum=0)


def stream_rng(kind: str, seed: int, stream: int) -> random.Random:
    """The generator of one kind of draw (``"onoff"``, ``"ber"``, ``"loss"``) for ``(seed, stream)``."""
    # the key keeps the module's first name (cmtlab.sim.osia_links): it seeds the draws, results depend on it
    return random.Random(f"cmtlab.sim.osia_links/{kind}/{_check_seed('seed', seed)}/{_check_seed('stream', stream)}")


# ---------------------------------------------------------------------------------------- bounded Pareto

def bounded_pareto_mean(shape: float, low: float, high: float) -> float:
    """Mean of the Pareto distribution of shape ``α`` truncated to ``[low, high]`` (closed form).

    ``E[X] = L^α/(1−(L/H)^α) · α/(α−1) · (L^{1−α} − H^{1−α})`` for ``α ≠ 1``, and
    ``L H ln(H/L)/(H − L)`` for ``α = 1``.
    """
    a = check_real("shape", shape, low=0, low_open=True)
    L = check_real("low", low, low=0, low_open=True)
    H = check_real("high", high, low=L, low_open=True, what=" (above low)")
    norm = 1.0 - (L / H) ** a
    if abs(a - 1.0) < 1e-12:
        return L * H * math.log(H / L) / (H - L)
    return L ** a / norm * a / (a - 1.0) * (L ** (1.0 - a) - H ** (1.0 - a))


def bounded_pareto_quantile(u, shape: float, low: float, high: float):
    """Inverse CDF of the bounded Pareto: ``L (1 − u (1 − (L/H)^α))^{−1/α}`` for ``u`` in [0, 1)."""
    r = (low / high) ** shape
    return low * (1.0 - np.asarray(u) * (1.0 - r)) ** (-1.0 / shape) if not isinstance(u, float) \
        else low * (1.0 - u * (1.0 - r)) ** (-1.0 / shape)


def shape_for_mean(mean: float, low: float, high: float) -> float:
    """The shape ``α`` of the bounded Pareto on ``[low, high]`` whose mean is ``mean`` (bisection).

    The mean falls from ``(low+high)/2`` (α → 0) to ``low`` (α → ∞), so every mean strictly
    between ``low`` and ``(low+high)/2`` has exactly one shape.
    """
    L = check_real("low", low, low=0, low_open=True)
    H = check_real("high", high, low=L, low_open=True, what=" (above low)")
    m = check_real("mean", mean, low=L, high=(L + H) / 2, low_open=True, high_open=True,
                    what=" (between low and the midpoint (low+high)/2)")
    lo, hi = 1e-6, 1.0
    while bounded_pareto_mean(hi, L, H) > m:
        hi *= 2.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if abs(mid - 1.0) < 1e-9:
            mid += 2e-9
        if bounded_pareto_mean(mid, L, H) > m:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


# ---------------------------------------------------------------------------------------- processes

class ParetoOnOff:
    """A Pareto on-off cross-traffic source (OSIA sec. 5.1; choices in the module docstring).

    Parameters
    ----------
    peak_rate_bps
        Sending rate while on (bit/s, > 0).
    shape
        Shape ``α`` of the bounded Pareto on/off periods (> 0; default 1.5).
    min_period_s, max_period_s
        Range of the on and off periods (s; default 10 ms and 1 s, the paper's).
    packet_bytes
        Size of a cross-traffic packet on the wire (bytes, >= 1; default 1000).
    seed, stream
        Seed of this source's generator (on/off periods and the initial state).
    start_ns
        Time the source starts (ns).

    Notes
    -----
    ``next_ns`` is the time of the next cross-traffic packet; :meth:`pop` returns it and
    moves on to the following one.  Times are integer nanoseconds; a packet is sent whenever the
    accumulated on-time reaches another multiple of ``packet_bytes · 8 / peak_rate_bps``.
    """

    def __init__(self, peak_rate_bps: float, *, shape: float = DEFAULT_SHAPE, min_period_s: float = PERIOD_RANGE_S[0],
                 max_period_s: float = PERIOD_RANGE_S[1], packet_bytes: int = PACKET_BYTES, seed: int = 0,
                 stream: int = 0, start_ns: int = 0, names: dict | None = None):
        name = (names or {}).get  # the caller's names of the parameters, for the messages
        self.peak_rate_bps = check_real(name("peak_rate_bps", "peak_rate_bps"), peak_rate_bps, low=0, low_open=True,
                                        what=" (bit/s)")
        self.shape = check_real(name("shape", "shape"), shape, low=0, low_open=True)
        self.min_period_s = check_real(name("min_period_s", "min_period_s"), min_period_s, low=0,
                                       high=MAX_DURATION_S, low_open=True, what=" (s)")
        self.max_period_s = check_real(name("max_period_s", "max_period_s"), max_period_s, low=self.min_period_s,
                                       high=MAX_DURATION_S, low_open=True, what=" (s, above min_period_s)")
        self.packet_bytes = check_int(name("packet_bytes", "packet_bytes"), packet_bytes, minimum=1)
        check_int("start_ns", start_ns)
        self.seed, self.stream = _check_seed("seed", seed), _check_seed("stream", stream)
        self.rng = stream_rng("onoff", self.seed, self.stream)
        self.interval_ns = max(1, transmission_ns(self.packet_bytes, self.peak_rate_bps))
        self._r = (self.min_period_s / self.max_period_s) ** self.shape
        self.on_ns = 0          # on-time elapsed up to the current position (for the statistics)
        self.periods = 0
        self._on = self.rng.random() < self.duty_cycle
        self._t = int(start_ns)
        self._period_end = self._t + self._draw_ns()
        self._credit = self.interval_ns
        self.next_ns = 0
        self._advance()

    # -- distribution
    @property
    def mean_period_s(self) -> float:
        """Mean on (and off) period (s), closed form of the bounded Pareto."""
        return bounded_pareto_mean(self.shape, self.min_period_s, self.max_period_s)

    @property
    def duty_cycle(self) -> float:
        """Long-run fraction of time on (1/2: on and off periods have the same distribution)."""
        return 0.5

    @property
    def mean_rate_bps(self) -> float:
        """Long-run cross-traffic rate (bit/s): packet size over the packet interval (ns-rounded) × duty cycle."""
        return 8.0 * self.packet_bytes / (self.interval_ns / NS_PER_S) * self.duty_cycle

    def _draw_ns(self) -> int:
        u = self.rng.random()
        x = self.min_period_s * (1.0 - u * (1.0 - self._r)) ** (-1.0 / self.shape)
        self.periods += 1
        return max(1, int(round(x * NS_PER_S)))

    def _advance(self) -> None:
        while True:
            if self._on:
                t_emit = self._t + self._credit
                if t_emit <= self._period_end:
                    self.on_ns += self._credit
                    self._t = t_emit
                    self._credit = self.interval_ns
                    self.next_ns = t_emit
                    return
                self._credit -= self._period_end - self._t
                self.on_ns += self._period_end - self._t
            self._t = self._period_end
            self._on = not self._on
            self._period_end = self._t + self._draw_ns()

    def pop(self) -> int:
        """The time (ns) of the next cross-traffic packet; the source moves on to the one after."""
        t = self.next_ns
        self._advance()
        return t


class BitErrorProcess:
    """A piecewise-constant bit-error rate (OSIA sec. 5.1; choices in the module docstring).

    Parameters
    ----------
    mean, low, high
        Mean and range of the BER (default 2e-5 in [1e-5, 1e-3]); ``low < mean < (low+high)/2``.
    period_s
        Length of a constant-BER period (s, > 0; default 0.1).
    seed, stream
        Seed of the BER values.

    Notes
    -----
    Period ``k`` covers ``[k·period, (k+1)·period)`` and has BER ``B_k``, drawn from the bounded
    Pareto on ``[low, high]`` of shape ``shape`` (solved for ``mean``).  Values are drawn in
    period order and kept, so :meth:`ber_at` may be asked about any time in any order and one
    process can serve several links.
    """

    def __init__(self, *, mean: float = BER_MEAN, low: float = BER_RANGE[0], high: float = BER_RANGE[1],
                 period_s: float = BER_PERIOD_S, seed: int = 0, stream: int = 0, names: dict | None = None):
        name = (names or {}).get  # the caller's names of the parameters, for the messages
        lo, hi = name("low", "low"), name("high", "high")
        self.low = check_real(lo, low, low=0, high=1, low_open=True, high_open=True, what=" (a bit-error rate)")
        self.high = check_real(hi, high, low=self.low, high=1, low_open=True, high_open=True,
                               what=f" (a bit-error rate above {lo})")
        self.mean = check_real(name("mean", "mean"), mean, low=self.low, high=(self.low + self.high) / 2,
                               low_open=True, high_open=True,
                               what=f" (a bit-error rate between {lo} and ({lo}+{hi})/2)")
        self.period_s = check_real(name("period_s", "period_s"), period_s, low=0, high=MAX_DURATION_S,
                                   low_open=True, what=" (s)")
        self.period_ns = max(1, int(round(self.period_s * NS_PER_S)))
        self.seed, self.stream = _check_seed("seed", seed), _check_seed("stream", stream)
        self.shape = shape_for_mean(self.mean, self.low, self.high)
        self._r = (self.low / self.high) ** self.shape
        self.rng = stream_rng("ber", self.seed, self.stream)
        self.values: list[float] = []
        self._expected: dict[int, float] = {}

    def _draw(self) -> float:
        u = self.rng.random()
        return self.low * (1.0 - u * (1.0 - self._r)) ** (-1.0 / self.shape)

    def ber_at(self, now_ns: int) -> float:
        """The bit-error rate at time ``now_ns`` (ns >= 0; times before 0 belong to period 0)."""
        k = now_ns // self.period_ns if now_ns > 0 else 0
        values = self.values
        while len(values) <= k:
            values.append(self._draw())
        return values[k]

    @staticmethod
    def frame_loss_probability(ber: float, wire_bytes: int) -> float:
        """``1 − (1 − BER)^(8 L)``: a packet of ``L`` bytes with at least one bit error."""
        return -math.expm1(8.0 * wire_bytes * math.log1p(-ber))

    def expected_frame_loss(self, wire_bytes: int) -> float:
        """Frame-loss probability averaged over the BER distribution (numerical integral; cached per size)."""
        p = self._expected.get(wire_bytes)
        if p is None:
            u = (np.arange(200_000) + 0.5) / 200_000
            x = self.low * (1.0 - u * (1.0 - self._r)) ** (-1.0 / self.shape)
            p = self._expected[wire_bytes] = float(np.mean(-np.expm1(8.0 * wire_bytes * np.log1p(-x))))
        return p


# ---------------------------------------------------------------------------------------- links

@register("link", "varying_ber")
class BitErrorLink(PointToPointLink):
    """A :class:`~cmtlab.sim.net.link.PointToPointLink` whose bit-error rate varies over time (OSIA sec. 5.1).

    Parameters as :class:`~cmtlab.sim.net.link.PointToPointLink` (``rate_bps``, ``delay_s`` one way,
    ``queue_packets``, an optional static ``loss`` with its ``rng``), plus

    ber
        A :class:`BitErrorProcess`, ``True`` (a new one with the paper's defaults and this link's
        ``seed``/``stream``), or ``None``/``False`` (no bit errors).
    seed, stream
        Seed of this link's own generators (the per-packet loss draws; the BER process when this
        link makes it).

    A packet that was serialised (not tail-dropped) is lost with probability
    ``1 − (1 − B)^(8 L)``, ``B`` = the BER when it starts serialisation; one draw from the link's
    loss generator per packet whenever ``B > 0``.
    """

    def __init__(self, rate_bps: float, delay_s: float, queue_packets: int = 100, loss: LossModel = NO_LOSS,
                 rng=None, *, ber=True, seed: int = 0, stream: int = 0):
        super().__init__(rate_bps, delay_s, queue_packets, loss, rng)
        self.seed, self.stream = _check_seed("seed", seed), _check_seed("stream", stream)
        if ber is True:
            ber = BitErrorProcess(seed=self.seed, stream=self.stream)
        elif ber is False:
            ber = None
        if ber is not None and not isinstance(ber, BitErrorProcess):
            raise ValueError(f"ber must be a BitErrorProcess, True or None, got {ber!r}")
        self.ber = ber
        self.ber_rng = stream_rng("loss", self.seed, self.stream)
        self.ber_drops = 0
        self._fl_cache: dict = {}

    #: ``ber`` of :meth:`for_path` when a scenario does not give it
    for_path_ber = True

    @classmethod
    def for_path(cls, *, rate_bps, delay_s, queue_packets, loss, rng, seed, stream, ber=None, ber_mean=None,
                 ber_low=None, ber_high=None, ber_period_s=None, **params):
        """Forward: this link with the path's static loss and its own :class:`BitErrorProcess`
        (``ber`` on/off, default :attr:`for_path_ber`; ``ber_mean``, ``ber_low``, ``ber_high``,
        ``ber_period_s`` as :class:`BitErrorProcess`'s ``mean``, ``low``, ``high``, ``period_s``)
        and the other ``params`` of the constructor, on stream ``stream`` of ``seed``; reverse
        (ACKs): a plain point-to-point link (OSIA sec. 5.1 says nothing about it)."""
        if ber is None:
            ber = cls.for_path_ber
        check_bool("ber", ber)
        given = {"mean": ber_mean, "low": ber_low, "high": ber_high, "period_s": ber_period_s}
        process = (BitErrorProcess(seed=seed, stream=stream, names=BER_NAMES,
                                   **{k: v for k, v in given.items() if v is not None}) if ber else None)
        forward = cls(rate_bps, delay_s, queue_packets, loss, rng, ber=process, seed=seed, stream=stream, **params)
        return forward, PointToPointLink(rate_bps, delay_s, queue_packets)

    # drop_probability (inherited) stays the static ``loss`` part: PointToPointLink.transmit draws it.
    def expected_drop_probability(self, wire_bytes: int) -> float:
        """Loss probability of a packet: the static ``loss`` and the BER averaged over its distribution."""
        p = self.drop_probability(wire_bytes)
        if self.ber is not None:
            p = 1.0 - (1.0 - p) * (1.0 - self.ber.expected_frame_loss(wire_bytes))
        return p

    def _bit_errors(self, arrival: int, wire_bytes: int) -> int:
        if arrival < 0 or self.ber is None:
            return arrival
        b = self.ber.ber_at(self.last_start_ns)
        key = (b, wire_bytes)
        p = self._fl_cache.get(key)
        if p is None:
            if len(self._fl_cache) > 4096:
                self._fl_cache.clear()
            p = self._fl_cache[key] = BitErrorProcess.frame_loss_probability(b, wire_bytes)
        if p > 0 and self.ber_rng.random() < p:
            self.loss_drops += 1
            self.ber_drops += 1
            return DROPPED_LOSS
        return arrival

    def transmit(self, now_ns: int, wire_bytes: int, order_ns: int = NO_ORDER) -> int:
        return self._bit_errors(super().transmit(now_ns, wire_bytes, order_ns), wire_bytes)

    def stats(self) -> dict:
        d = super().stats()
        d["ber_drops"] = self.ber_drops
        return d


@register("link", "pareto_cross_traffic")
class CrossTrafficLink(BitErrorLink):
    """A point-to-point link shared with Pareto on-off cross traffic (OSIA sec. 5.1), optionally with bit errors.

    Parameters as :class:`BitErrorLink` (``ber`` defaults to ``None`` here: give ``ber=True`` or a
    :class:`BitErrorProcess` for the full path model of sec. 5.1), plus

    cross
        A :class:`ParetoOnOff` source, or ``None`` to build one from ``peak_rate_bps`` /
        ``mean_load`` and the keywords below with this link's ``seed``/``stream``.
    peak_rate_bps, mean_load
        Exactly one of them when ``cross`` is ``None``: the source's rate while on (bit/s, > 0), or
        the long-run fraction of this link's capacity the cross traffic takes (in (0, 1); the
        peak is then ``mean_load · rate_bps / duty cycle``).
    shape, min_period_s, max_period_s, cross_packet_bytes
        The source's period distribution and packet size (defaults: 1.5, 10 ms, 1 s, 1000 B).
    log_cross
        Keep ``(time_ns, start_ns)`` of every cross packet in ``cross_log`` (tests).

    Notes
    -----
    The transmitter serves data and cross-traffic packets in order of arrival (FIFO), so a data
    packet handed over at ``now_ns`` waits for every cross packet that arrived before it.  Cross
    packets arriving at the same nanosecond as a data packet go first.  Cross traffic is fed into
    the queue lazily, up to ``now_ns``, when the next data packet arrives (or on :meth:`advance`).
    """

    for_path_ber = False

    def __init__(self, rate_bps: float, delay_s: float, queue_packets: int = 100, loss: LossModel = NO_LOSS,
                 rng=None, *, cross: ParetoOnOff | None = None, peak_rate_bps: float | None = None,
                 mean_load: float | None = None, shape: float = DEFAULT_SHAPE,
                 min_period_s: float = PERIOD_RANGE_S[0], max_period_s: float = PERIOD_RANGE_S[1],
                 cross_packet_bytes: int = PACKET_BYTES, ber=None, seed: int = 0, stream: int = 0,
                 log_cross: bool = False):
        super().__init__(rate_bps, delay_s, queue_packets, loss, rng, ber=ber, seed=seed, stream=stream)
        if cross is None:
            if (peak_rate_bps is None) == (mean_load is None):
                raise ValueError("give exactly one of peak_rate_bps (bit/s, > 0) and mean_load (in (0, 1)) "
                                 "when no cross source is given")
            if mean_load is not None:
                load = check_real("mean_load", mean_load, low=0, high=1, low_open=True, high_open=True,
                                   what=" (fraction of the link rate)")
                peak_rate_bps = load * self.rate_bps / 0.5
            cross = ParetoOnOff(peak_rate_bps, shape=shape, min_period_s=min_period_s, max_period_s=max_period_s,
                                packet_bytes=cross_packet_bytes, seed=self.seed, stream=self.stream,
                                names={"packet_bytes": "cross_packet_bytes"})
        elif not isinstance(cross, ParetoOnOff):
            raise ValueError(f"cross must be a ParetoOnOff source or None, got {cross!r}")
        self.cross = cross
        self.cross_tx_ns = self.serialisation_ns(cross.packet_bytes)
        self.cross_packets = self.cross_bytes = self.cross_drops = 0
        self.cross_busy_ns = 0
        self.cross_log: list | None = [] if check_bool("log_cross", log_cross) else None

    @property
    def mean_load(self) -> float:
        """Long-run fraction of the link's capacity the cross traffic offers (before queue drops)."""
        return self.cross.mean_rate_bps / self.rate_bps

    def advance(self, now_ns: int) -> None:
        """Feed every cross-traffic packet that arrives at or before ``now_ns`` into the transmitter."""
        src = self.cross
        waiting = self._waiting
        tx = self.cross_tx_ns
        limit = self.queue_packets
        log = self.cross_log
        while src.next_ns <= now_ns:
            t = src.pop()
            while waiting.size and waiting.first() <= t:
                self._service_start = waiting.pop()
            busy = self._busy_until
            if busy > t:
                if waiting.size >= limit:
                    self.cross_drops += 1
                    continue
                waiting.push(busy)
                start = busy
            else:
                start = t
                self._service_start = t
            self._busy_until = start + tx
            self.cross_packets += 1
            self.cross_bytes += src.packet_bytes
            self.cross_busy_ns += tx
            if log is not None:
                log.append((t, start))

    def transmit(self, now_ns: int, wire_bytes: int, order_ns: int = NO_ORDER) -> int:
        if self.cross.next_ns <= now_ns:
            self.advance(now_ns)
        return super().transmit(now_ns, wire_bytes, order_ns)

    def stats(self) -> dict:
        d = super().stats()
        d.update(cross_packets=self.cross_packets, cross_bytes=self.cross_bytes, cross_drops=self.cross_drops)
        return d


def cross_traffic_links(rates_bps, one_way_delays_s, *, mean_load: float = 0.25, ber: bool = True, seed: int = 0,
                        queue_packets: int = 100, **kwargs) -> list[CrossTrafficLink]:
    """One :class:`CrossTrafficLink` per path (forward direction; ``one_way_delays_s``), streams 0, 1, …

    Path ``i`` uses stream ``i`` of ``seed`` for its cross traffic, BER and loss draws, so adding a
    path leaves the others' draws unchanged.
    """
    rates = np.atleast_1d(np.asarray(rates_bps, dtype=float))
    delays = np.atleast_1d(np.asarray(one_way_delays_s, dtype=float))
    if rates.shape != delays.shape:
        raise ValueError(f"rates_bps and one_way_delays_s must have the same length, got {rates.size} and {delays.size}")
    return [CrossTrafficLink(float(b), float(d), queue_packets, mean_load=mean_load,
                             ber=BitErrorProcess(seed=seed, stream=i) if ber else None, seed=seed, stream=i, **kwargs)
            for i, (b, d) in enumerate(zip(rates, delays))]


__all__ = ["ParetoOnOff", "BitErrorProcess", "BitErrorLink", "CrossTrafficLink", "cross_traffic_links",
           "bounded_pareto_mean", "bounded_pareto_quantile", "shape_for_mean", "stream_rng", "PERIOD_RANGE_S",
           "DEFAULT_SHAPE", "BER_RANGE", "BER_MEAN", "BER_PERIOD_S", "PACKET_BYTES"]
