"""Helpers shared by the tests of :mod:`cmtlab.sim` (not a test module)."""

from __future__ import annotations

from cmtlab.scenario import striped_scenario
from cmtlab.sim import DROPPED_LOSS, LinkModel, PointToPointLink, Simulation


class DropData(LinkModel):
    """A point-to-point link that loses chosen *data* packets (by their order on this link).

    Data packets are recognised by size (``>= min_bytes``); the handshake ACK and pure
    ACKs are never dropped.  ``drop`` holds 0-based indices among this link's data packets
    (originals and retransmissions in transmission order).
    """

    def __init__(self, rate_bps, delay_s, drop, queue_packets=100, min_bytes=200):
        self.inner = PointToPointLink(rate_bps, delay_s, queue_packets)
        self.drop = set(drop)
        self.min_bytes = min_bytes
        self.n_data = 0
        self.packets = self.bytes = self.queue_drops = self.loss_drops = 0
        self.last_start_ns = 0

    def transmit(self, now_ns, wire_bytes, order_ns=None):
        arr = self.inner.transmit(now_ns, wire_bytes, order_ns)
        self.last_start_ns = self.inner.last_start_ns
        self.packets, self.bytes, self.queue_drops = self.inner.packets, self.inner.bytes, self.inner.queue_drops
        if wire_bytes >= self.min_bytes:
            i = self.n_data
            self.n_data += 1
            if arr >= 0 and i in self.drop:
                self.loss_drops += 1
                return DROPPED_LOSS
        return arr

    def serialisation_ns(self, wire_bytes):
        return self.inner.serialisation_ns(wire_bytes)

    def propagation_ns(self):
        return self.inner.propagation_ns()


def one_link(drop=(), *, rate=10e6, rtt=0.1, segments=40, trace=True, **kw):
    """Run a single-link scenario (no tunnel) whose data packets ``drop`` are lost; return (result, sim)."""
    kw.setdefault("tunnel", False)
    sc = striped_scenario([rate], [rtt], transfer_bytes=536 * segments, **kw)
    link = DropData(rate, rtt / 2, drop, queue_packets=sc.queue_packets)
    sim = Simulation(sc, trace=trace, links=[link])
    return sim.run(), sim
