"""A link whose rate is replayed from a measured trace (piecewise constant over time).

:class:`RateTraceLink` is a FIFO link direction like :class:`~cmtlab.sim.net.link.PointToPointLink`
(drop-tail queue counting waiting packets, constant one-way propagation delay, random loss), but
its rate changes every ``interval_s`` following ``rates_bps`` — e.g. the per-second downlink bit rates
of the Raca et al. 5G traces or the Starlink iperf samples loaded by
:mod:`cmtlab.measurements.public`.  A packet's serialisation integrates the rate from its start:
it ends when ``8 * wire_bytes`` bits have been sent, across interval boundaries and through
intervals of rate 0 (an outage: the packet waits).  The trace starts at engine time
``offset_s`` (default 0; negative: it started before the run, which begins ``-offset_s`` into it — how
a kernel run on the testbed's delay line, whose schedule starts before the transfer, is replayed) and
repeats when ``repeat`` (default), else its last rate holds.
"""

from __future__ import annotations

import random
from collections import deque

import numpy as np

from ..._validate import MAX_DURATION_S, as_float_array, check_bool, check_duration_s, check_real
from ...scenario import NO_LOSS, PPP_HEADER_BYTES, LossModel
from ..registry import register
from .delay_line import COUNTINGS
from .link import (DROPPED_LOSS, DROPPED_QUEUE, NO_ORDER, NS_PER_S, LinkModel, PointToPointLink, check_queue_limits,
                   seconds_to_ns)


@register("link", "rate_trace")
class RateTraceLink(LinkModel):
    """FIFO link direction with a replayed piecewise-constant rate (see the module docstring).

    ``rates_bps``: one rate (bit/s, >= 0, at least one > 0) per interval of ``interval_s`` s.
    ``queue_bytes``: a drop-tail limit in bytes too (None: packets only); ``counting``
    (:data:`cmtlab.sim.net.delay_line.COUNTINGS`): ``"ns3"`` — the limits count the packets waiting behind the
    one on the wire, the rate serialises the wire bytes (as this class did first); ``"delay_line"`` — as the
    testbed's delay line replays a schedule: IP bytes (the wire size less the PPP header), every packet not
    yet serialised counted.
    """

    def __init__(self, rates_bps, delay_s: float, queue_packets: int | None = 100, loss: LossModel = NO_LOSS,
                 rng: random.Random | None = None, *, interval_s: float = 1.0, offset_s: float = 0.0,
                 repeat: bool = True, queue_bytes: int | None = None, counting: str = "ns3"):
        if not isinstance(rates_bps, (list, tuple, np.ndarray)):
            raise ValueError(f"rates_bps must be a non-empty sequence of finite rates >= 0 (bit/s), got {rates_bps!r}")
        rates = as_float_array("rates_bps", rates_bps)
        if (rates < 0).any():
            raise ValueError(f"rates_bps must be a non-empty sequence of finite rates >= 0 (bit/s), got {rates_bps!r}")
        if max(rates) <= 0:
            raise ValueError("rates_bps: every rate is 0, no packet could ever be sent")
        check_duration_s("interval_s", interval_s)
        check_duration_s("delay_s", delay_s, zero=True)
        check_real("offset_s", offset_s, low=-MAX_DURATION_S, high=MAX_DURATION_S, what=" (s)")
        if counting not in COUNTINGS:
            raise ValueError(f"counting must be one of {COUNTINGS}, got {counting!r}")
        queue_packets, queue_bytes = check_queue_limits(queue_packets, queue_bytes)
        if not isinstance(loss, LossModel):
            raise ValueError(f"loss must be a cmtlab.scenario.LossModel, got {loss!r}")
        check_bool("repeat", repeat)
        self.rates_bps = tuple(float(r) for r in rates)
        self.interval_ns = seconds_to_ns(interval_s)
        self.offset_ns = seconds_to_ns(offset_s)
        self.repeat = repeat
        self.delay_ns = seconds_to_ns(delay_s)
        self.queue_packets = queue_packets  # (0: no limit in packets)
        self.queue_bytes = queue_bytes  # (0: no limit in bytes)
        self.counting = counting
        in_service = counting == "delay_line"
        self._wait_limit = (queue_packets - in_service) if queue_packets else 1 << 62
        self._header_bytes = PPP_HEADER_BYTES if in_service else 0
        self._wait_sizes = deque()
        self._service_bytes = 0
        self.loss = loss
        self.rng = rng if rng is not None else random.Random(0)
        self._busy_until = -(1 << 62)
        self._waiting = deque()
        self.packets = self.bytes = self.queue_drops = self.loss_drops = self.max_queue = 0
        self.last_start_ns = 0

    @property
    def rate_bps(self) -> float:
        """The trace's mean rate (bit/s): the path's static description (:func:`cmtlab.sim.net.topology.path_info`,
        read by planning schedulers such as OSIA), not the rate at any moment."""
        return sum(self.rates_bps) / len(self.rates_bps)

    def rate_at(self, t_ns: int) -> tuple[float, int]:
        """The rate (bit/s) at engine time ``t_ns`` and the end (ns) of its interval."""
        rel = t_ns - self.offset_ns
        n = len(self.rates_bps)
        if rel < 0:
            return self.rates_bps[0], self.offset_ns
        i = rel // self.interval_ns
        end = self.offset_ns + (i + 1) * self.interval_ns
        if i >= n:
            if not self.repeat:
                return self.rates_bps[-1], 1 << 62
            i %= n
        return self.rates_bps[i], end

    def finish_ns(self, start_ns: int, wire_bytes: int) -> int:
        """When a packet of ``wire_bytes`` bytes that starts serialising at ``start_ns`` has left."""
        bits = 8.0 * wire_bytes
        t = start_ns
        while True:
            rate, end = self.rate_at(t)
            if rate > 0:
                need_ns = bits * NS_PER_S / rate
                if t + need_ns <= end:
                    return t + max(1, int(round(need_ns)))
                bits -= rate * (end - t) / NS_PER_S
            t = end

    def propagation_ns(self) -> int:
        return self.delay_ns

    def drop_probability(self, wire_bytes: int) -> float:
        return self.loss.drop_probability(wire_bytes)

    def handshake_ack(self, now_ns: int, wire_bytes: int) -> int:
        """The handshake's final ACK: with ``counting="delay_line"`` it has left the line before the first window
        arrives (see :meth:`cmtlab.sim.net.delay_line.DelayLineLink.handshake_ack`); else a packet like any other."""
        if not self._header_bytes:
            return self.transmit(now_ns, wire_bytes, now_ns)
        self.packets += 1
        self.bytes += wire_bytes - self._header_bytes
        return now_ns + self.delay_ns

    def transmit(self, now_ns: int, wire_bytes: int, order_ns: int = NO_ORDER) -> int:
        wire_bytes -= self._header_bytes
        waiting = self._waiting
        sizes = self._wait_sizes
        while waiting and waiting[0] <= now_ns:
            waiting.popleft()
            if self.queue_bytes:
                self._service_bytes = sizes.popleft()
        busy = self._busy_until
        if busy > now_ns:
            if len(waiting) >= self._wait_limit:
                self.queue_drops += 1
                return DROPPED_QUEUE
            if self.queue_bytes:
                held = sum(sizes) + (self._service_bytes if self._header_bytes else 0)
                if held + wire_bytes > self.queue_bytes:
                    self.queue_drops += 1
                    return DROPPED_QUEUE
                sizes.append(wire_bytes)
            waiting.append(busy)
            self.max_queue = max(self.max_queue, len(waiting))
            start = busy
        else:
            start = now_ns
            self._service_bytes = wire_bytes
        finish = self.finish_ns(start, wire_bytes)
        self._busy_until = finish
        self.last_start_ns = start
        self.packets += 1
        self.bytes += wire_bytes
        p = self.drop_probability(wire_bytes)
        if p and self.rng.random() < p:
            self.loss_drops += 1
            return DROPPED_LOSS
        return finish + self.delay_ns

    @classmethod
    def for_path(cls, *, rate_bps, delay_s, queue_packets, loss, rng, seed, stream, rates_bps=None,
                 interval_s=1.0, offset_s=0.0, repeat=True, queue_bytes=None, counting="ns3"):
        """Forward: the trace (``rates_bps`` required); reverse (ACKs): point-to-point at the path's rate (with
        ``counting="delay_line"``: the delay line's return direction at that rate)."""
        if rates_bps is None:
            raise ValueError("link 'rate_trace' needs rates_bps (one rate per interval_s)")
        fwd = cls(rates_bps, delay_s, queue_packets, loss, rng, interval_s=interval_s, offset_s=offset_s,
                  repeat=repeat, queue_bytes=queue_bytes, counting=counting)
        if counting == "delay_line":
            from .delay_line import DelayLineLink

            rev = DelayLineLink(rate_bps, delay_s, queue_packets, stream_seed=1, skip_packets=0,
                                queue_bytes=queue_bytes, counting=counting)
        elif queue_bytes is None:
            rev = PointToPointLink(rate_bps, delay_s, queue_packets)
        else:
            rev = PointToPointLink(rate_bps, delay_s, queue_packets, queue_bytes=queue_bytes)
        return fwd, rev


def replayed_rates_bps(link: RateTraceLink, arrivals_ns, sizes_bytes, n_intervals: int):
    """Bits per second delivered per trace interval by a saturated link: from the arrival times
    (minus the propagation delay) of back-to-back packets — the check that the replay follows its trace."""
    out = [0.0] * n_intervals
    for t, b in zip(arrivals_ns, sizes_bytes):
        i = (t - link.delay_ns - link.offset_ns - 1) // link.interval_ns
        if 0 <= i < n_intervals:
            out[i] += 8.0 * b
    return [x * NS_PER_S / link.interval_ns for x in out]


__all__ = ["RateTraceLink", "replayed_rates_bps"]
