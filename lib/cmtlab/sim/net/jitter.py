"""A point-to-point link with per-packet delay variation: the reordering the delay line makes.

:class:`JitterLink` is a :class:`~cmtlab.sim.net.link.PointToPointLink` (rate, FIFO drop-tail queue,
random loss) whose propagation delay is, per packet, the path's one-way delay plus an independent
uniform draw in ``[0, jitter_s)`` — exactly what :mod:`cmtlab.testbed`'s delay line does with
``--jitter-ab-ns`` (``cmtlab.testbed.path(..., jitter_s=J)``).  A packet whose draw exceeds the next
one's by more than their spacing arrives after it: a link with ``jitter_s`` larger than a packet's
serialisation time reorders.  The draws come from their own stream (``seed``, path ``stream``), so the
loss draws of the path are those of a plain point-to-point link.  Only the data direction varies;
the ACKs return over a plain point-to-point link.
"""

from __future__ import annotations

import math
import random

from ...scenario import NO_LOSS
from ..registry import register
from .link import NO_ORDER, PointToPointLink, seconds_to_ns


@register("link", "jitter")
class JitterLink(PointToPointLink):
    """FIFO link direction with per-packet delay variation (see the module docstring)."""

    def __init__(self, rate_bps, delay_s, queue_packets=100, loss=NO_LOSS, rng=None, *, jitter_s: float = 0.0,
                 jitter_rng: random.Random | None = None, queue_bytes: int | None = None):
        if isinstance(jitter_s, bool) or not isinstance(jitter_s, (int, float)) or not math.isfinite(jitter_s) \
                or not 0 <= jitter_s <= 1.0:
            raise ValueError(f"jitter_s must be a number of seconds in [0, 1], got {jitter_s!r}")
        super().__init__(rate_bps, delay_s, queue_packets, loss, rng, queue_bytes=queue_bytes)
        self.jitter_ns = seconds_to_ns(jitter_s)
        self.jitter_rng = jitter_rng if jitter_rng is not None else random.Random(0)

    def transmit(self, now_ns: int, wire_bytes: int, order_ns: int = NO_ORDER) -> int:
        arrival = super().transmit(now_ns, wire_bytes, order_ns)
        if arrival >= 0 and self.jitter_ns:
            arrival += int(self.jitter_rng.random() * self.jitter_ns)
        return arrival

    @classmethod
    def for_path(cls, *, rate_bps, delay_s, queue_packets, loss, rng, seed, stream, jitter_s=0.0, queue_bytes=None,
                 **params):
        """Forward: the path's link with delay variation ``jitter_s`` (s); reverse (ACKs): point-to-point."""
        if params:
            raise ValueError(f"link 'jitter' takes only jitter_s, got {sorted(params)}")
        jr = random.Random(f"cmtlab.sim.net.jitter/{int(seed)}/{int(stream)}")
        rev = (PointToPointLink(rate_bps, delay_s, queue_packets) if queue_bytes is None
               else PointToPointLink(rate_bps, delay_s, queue_packets, queue_bytes=queue_bytes))
        return (cls(rate_bps, delay_s, queue_packets, loss, rng, jitter_s=jitter_s, jitter_rng=jr,
                    queue_bytes=queue_bytes), rev)


__all__ = ["JitterLink"]
