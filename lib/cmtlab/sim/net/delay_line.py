"""The testbed's delay line as a link model: the same random drops and delay variation, packet for packet.

:mod:`cmtlab.testbed`'s delay line (``delayline.c``) decides a path direction's random drops and its
per-packet delay variation with two xorshift64* generators seeded through splitmix64, one draw per
packet: the drop draw for every packet that *arrives* at the line, before its queue (a dropped packet
never occupies the link, as with netem's loss), the delay draw for every packet the queue accepts.
The testbed seeds a run's path ``i`` data direction with ``2 * (64 * seed + i) + 1`` (the delay
stream with that seed XOR ``0x6a09e667f3bcc908``).

:class:`DelayLineLink` draws from the very same streams, so a simulated run with seed ``s`` loses the
packets of the same *ordinal numbers* the kernel's run with seed ``s`` lost, and gives them the same
delay variation (common random numbers between the simulator and the kernel): the seed-to-seed spread
of a lossy cell — which packets of a window are lost, how often two fall into one window — is then
shared by the two columns instead of being sampled twice.  The first ``skip_packets`` draws of each
stream belong to the handshake (the client's SYN and the ACK completing it, both through the data
direction: 2) and are consumed before the first data packet.  A draw is made only where the delay line
makes one: a drop draw only with a loss rate > 0, a delay draw only with ``jitter_s`` > 0.

Otherwise the link is a :class:`~cmtlab.sim.net.link.PointToPointLink` (rate, FIFO drop-tail queue,
propagation delay), counting as ``counting`` says (:data:`COUNTINGS`):

* ``"ns3"`` (the default, what this class did first, kept for the configurations recorded with it): the
  point-to-point link's counting — the queue limit counts the packets waiting behind the one on the wire
  and the rate serialises the simulator's wire bytes (IP + TCP + the 2-byte PPP header); the ACK direction
  is a plain point-to-point link;
* ``"delay_line"``: ``delayline.c``'s — the delay line reads IP packets from its TUN device, so its rate and
  its byte limit count IP bytes (the wire size less :data:`~cmtlab.scenario.PPP_HEADER_BYTES`), and its limits
  count every packet not yet serialised, the one on the wire included (``q_pkts + 1 > limit``,
  ``q_bytes + size > limit``: :data:`~cmtlab.sim.net.link.QUEUE_COUNTS` ``"unserialised"``); the ACK direction
  is the delay line's return direction (the same counting, no drops, no delay variation).
"""

from __future__ import annotations

import math

from ...scenario import NO_LOSS, PPP_HEADER_BYTES, LossModel
from ..registry import register
from .link import DROPPED_LOSS, NO_ORDER, PointToPointLink, seconds_to_ns

_M64 = (1 << 64) - 1
#: How a :class:`DelayLineLink` counts its queue and its rate (module docstring).
COUNTINGS = ("ns3", "delay_line")
#: XOR of the delay-variation stream's seed (``delayline.c``: ``seeds[i] ^ 0x6a09e667f3bcc908``).
JITTER_SEED_XOR = 0x6A09E667F3BCC908


def splitmix64_state(seed: int) -> int:
    """``seed_state`` of ``delayline.c``: one splitmix64 step (a zero state becomes 1)."""
    z = (seed + 0x9E3779B97F4A7C15) & _M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    z ^= z >> 31
    return z or 1


class XorShift64Star:
    """``urand`` of ``delayline.c``: xorshift64* returning a double in [0, 1) (53 high bits)."""

    __slots__ = ("state",)

    def __init__(self, seed: int):
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= _M64:
            raise ValueError(f"seed must be an integer in [0, 2**64), got {seed!r}")
        self.state = splitmix64_state(seed)

    def random(self) -> float:
        x = self.state
        x ^= x >> 12
        x ^= (x << 25) & _M64
        x ^= x >> 27
        self.state = x
        return (((x * 2685821657736338717) & _M64) >> 11) * (1.0 / 9007199254740992.0)


def delay_line_seed(seed: int, path: int) -> int:
    """The seed the testbed gives path ``path``'s data direction in a run with seed ``seed``
    (:class:`cmtlab.testbed.Testbed`: ``2 * (seed * 64 + i) + 1``)."""
    return 2 * (int(seed) * 64 + int(path)) + 1


@register("link", "delay_line")
class DelayLineLink(PointToPointLink):
    """A point-to-point link whose drops and delay variation are the testbed delay line's (module docstring).

    ``loss``: a per-packet :class:`cmtlab.scenario.LossModel` (the delay line drops packets, not bits);
    ``stream_seed``: the delay line's seed of this direction (:func:`delay_line_seed`); ``jitter_s``:
    uniform per-packet delay variation in [0, jitter_s) s; ``skip_packets``: draws consumed before the
    first packet (the handshake's); ``queue_bytes``: a limit in bytes too (None: packets only);
    ``counting``: :data:`COUNTINGS` (module docstring).
    """

    __slots__ = ("p_drop", "drop_rng", "jitter_ns", "jitter_rng", "header_bytes")

    def __init__(self, rate_bps, delay_s, queue_packets=100, loss: LossModel = NO_LOSS, *, stream_seed: int,
                 jitter_s: float = 0.0, skip_packets: int = 2, queue_bytes: int | None = None,
                 counting: str = "ns3"):
        if not isinstance(loss, LossModel) or loss.unit not in ("none", "packet"):
            raise ValueError(f"loss must be a per-packet cmtlab.scenario.LossModel (the delay line drops packets), "
                             f"got {loss!r}")
        if isinstance(jitter_s, bool) or not isinstance(jitter_s, (int, float)) or not math.isfinite(jitter_s) \
                or not 0 <= jitter_s <= 1.0:
            raise ValueError(f"jitter_s must be a number of seconds in [0, 1], got {jitter_s!r}")
        if isinstance(skip_packets, bool) or not isinstance(skip_packets, int) or not 0 <= skip_packets <= 1000:
            raise ValueError(f"skip_packets must be an integer in [0, 1000], got {skip_packets!r}")
        if counting not in COUNTINGS:
            raise ValueError(f"counting must be one of {COUNTINGS}, got {counting!r}")
        # no loss of its own: dropped before the queue here
        super().__init__(rate_bps, delay_s, queue_packets, queue_bytes=queue_bytes,
                         queue_counts="unserialised" if counting == "delay_line" else "waiting")
        #: link-layer bytes of a packet the line neither serialises nor counts (its TUN device carries IP packets)
        self.header_bytes = PPP_HEADER_BYTES if counting == "delay_line" else 0
        self.p_drop = float(loss.rate) if loss.unit == "packet" else 0.0
        self.drop_rng = XorShift64Star(stream_seed)
        self.jitter_ns = seconds_to_ns(jitter_s)
        self.jitter_rng = XorShift64Star(stream_seed ^ JITTER_SEED_XOR)
        for _ in range(skip_packets):
            if self.p_drop > 0:
                self.drop_rng.random()
            if self.jitter_ns:
                self.jitter_rng.random()

    def handshake_ack(self, now_ns: int, wire_bytes: int) -> int:
        """The handshake's final ACK.  ``counting="ns3"``: a packet like any other (it holds the queue while
        the first window arrives, and takes a loss draw after the ``skip_packets`` ones).  ``"delay_line"``: it
        takes the line's draw (the line draws for every packet: the SYN, this ACK, then the data) but not the
        queue — the testbed's sender writes its first data once ``connect()`` has returned, after the ACK has
        left the line (it takes 0.1 ms at 5 Mbit/s), so the first window meets an empty queue."""
        if self.header_bytes == 0:
            return self.transmit(now_ns, wire_bytes, now_ns)
        self.packets += 1
        self.bytes += wire_bytes - self.header_bytes
        if self.p_drop > 0 and self.drop_rng.random() < self.p_drop:
            self.loss_drops += 1
            return DROPPED_LOSS
        return now_ns + self.serialisation_ns(wire_bytes - self.header_bytes) + self.delay_ns

    def transmit(self, now_ns: int, wire_bytes: int, order_ns: int = NO_ORDER) -> int:
        if self.p_drop > 0 and self.drop_rng.random() < self.p_drop:
            self.loss_drops += 1  # on arrival, before the queue: never serialised
            return DROPPED_LOSS
        arrival = super().transmit(now_ns, wire_bytes - self.header_bytes, order_ns)
        if arrival >= 0 and self.jitter_ns:
            arrival += int(self.jitter_rng.random() * self.jitter_ns)
        return arrival

    @classmethod
    def for_path(cls, *, rate_bps, delay_s, queue_packets, loss, rng, seed, stream, jitter_s=0.0, skip_packets=None,
                 queue_bytes=None, counting="ns3", **params):
        """Forward: the delay line's data direction of path ``stream`` in a run seeded ``seed``; reverse: with
        ``counting="ns3"`` a point-to-point link, with ``"delay_line"`` the line's return direction (no drops,
        no delay variation: the book's testbed paths have none on the ACKs).

        ``skip_packets`` (None: the default of the counting): the draws made before the topology hands the line
        its first packet, the handshake's final ACK (:meth:`handshake_ack`), which takes a draw of its own.  The
        delay line draws for the SYN, that ACK, then the data: 1 with ``counting="delay_line"``.  With ``"ns3"``
        the default is 2, as this link was first recorded with — one draw too many: the simulator's data packet
        ``k`` then meets the draw of the kernel's data packet ``k + 1`` (measured on the testbed: with 10 %
        loss on one path, the first data segment the kernel lost was the one the line's stream predicts with
        two draws before the data, in 4 of 4 seeded runs)."""
        if skip_packets is None:
            skip_packets = 1 if counting == "delay_line" else 2
        if params:
            raise ValueError(f"link 'delay_line' takes only jitter_s, skip_packets, queue_bytes and counting, "
                             f"got {sorted(params)}")
        fwd = cls(rate_bps, delay_s, queue_packets, loss, stream_seed=delay_line_seed(seed, stream),
                  jitter_s=jitter_s, skip_packets=skip_packets, queue_bytes=queue_bytes, counting=counting)
        if counting == "delay_line":
            rev = cls(rate_bps, delay_s, queue_packets, stream_seed=delay_line_seed(seed, stream) + 1,
                      skip_packets=0, queue_bytes=queue_bytes, counting=counting)
        elif queue_bytes is None:
            rev = PointToPointLink(rate_bps, delay_s, queue_packets)
        else:
            rev = PointToPointLink(rate_bps, delay_s, queue_packets, queue_bytes=queue_bytes)
        return fwd, rev


__all__ = ["DelayLineLink", "XorShift64Star", "delay_line_seed", "splitmix64_state", "JITTER_SEED_XOR", "COUNTINGS"]
