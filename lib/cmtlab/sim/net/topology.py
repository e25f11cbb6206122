"""Paths as chains of links; links shared by several paths and flows.

A *path* is a tuple of :class:`~cmtlab.sim.net.link.LinkModel` objects, one per hop, in the
order a packet crosses them.  The same link object may appear in several paths (a shared
bottleneck, Alheid's 100 Mbit/s backbone in front of two access links): its FIFO queue
then serves the packets of every path through it.  Because a link computes departure
times arithmetically from the previous one, the packets handed to one link must arrive in
time order; the multipath engine therefore schedules one event per hop (a packet reaching
the end of hop ``h`` is handed to hop ``h + 1`` when that event is processed).  A path of
one link costs one event per packet, as in the striped engine.

:class:`PathInfo` is the static description a mechanism may read as ``sub.path``:
bottleneck rate and round-trip propagation delay.
"""

from __future__ import annotations

from dataclasses import dataclass

from .link import NS_PER_S


@dataclass(frozen=True)
class PathInfo:
    """What a mechanism may know of a subflow's path: ``rate_bps`` (bottleneck) and ``delay_s`` (RTT)."""

    rate_bps: float
    delay_s: float


def path_info(forward: tuple, reverse: tuple) -> PathInfo:
    """Bottleneck rate of ``forward`` and the round-trip propagation delay of both directions."""
    rate = min(getattr(lk, "rate_bps", float("inf")) for lk in forward)
    prop = sum(lk.propagation_ns() for lk in forward) + sum(lk.propagation_ns() for lk in reverse)
    return PathInfo(rate_bps=float(rate), delay_s=prop / NS_PER_S)


__all__ = ["PathInfo", "path_info"]
