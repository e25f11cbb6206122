"""How a packet travels from an endpoint to its peer: a route over links in series, or a
rotation over parallel links (a round-robin tunnel).

Both are a :class:`~cmtlab.sim.net.packet.PacketPath`: :meth:`~cmtlab.sim.net.packet.PacketPath.send`
hands a :class:`~cmtlab.sim.net.packet.Packet` to a link at ``now_ns`` and puts it on the run's
:class:`~cmtlab.sim.engine.events.EventQueue`, due when it reaches the link's far end and ordered
by the time it started serialisation there (``last_start_ns``), then by insertion; the packet's
event brings it back to the path (:meth:`~cmtlab.sim.net.packet.PacketPath.arrived`).

- :class:`Route`: the links of one path, crossed in order (Alheid's backbone in front of an
  access link, :mod:`cmtlab.sim.net.topology`).  On a path of several links the end of each
  hop is an event, so every link sees its packets in time order; the event at the end of the
  last link is the packet's arrival at the sink.
- :class:`Rotation`: Song et al.'s round-robin tunnel — packet ``j`` takes link
  ``j mod n`` of the rotation (:meth:`~cmtlab.sim.mechanisms.schedulers.Scheduler.rotation`).
"""

from __future__ import annotations

from .packet import PacketPath


class Route(PacketPath):
    """The links of one path, crossed in order (at least one), then the sink."""

    __slots__ = ("links", "n_hops", "first")

    def __init__(self, queue, links, sink):
        super().__init__(queue, sink)
        links = list(links)
        if not links:
            raise ValueError("a route needs at least one link")
        self.links = links
        self.n_hops = len(links)
        self.first = links[0]

    def send(self, now: int, packet) -> int:
        first = self.first
        arr = first.transmit(now, packet.wire_bytes, self.queue.order_ns)
        if arr >= 0:
            packet.hop = 1
            self.queue.push(packet, arr, first.last_start_ns)
        else:
            self.queue.spare_packets.append(packet)  # dropped
        return arr

    def arrived(self, now: int, packet) -> None:
        """The packet reached the end of hop ``packet.hop - 1``: hand it to the next link, or to the sink."""
        hop = packet.hop
        if hop >= self.n_hops:
            self.sink.receive(now, packet)
            self.queue.spare_packets.append(packet)
            return
        lk = self.links[hop]
        arr = lk.transmit(now, packet.wire_bytes, self.queue.order_ns)
        if arr >= 0:
            packet.hop = hop + 1
            self.queue.push(packet, arr, lk.last_start_ns)
        else:
            self.queue.spare_packets.append(packet)  # dropped


class Rotation(PacketPath):
    """Parallel links taken in turn: ``links[turn]`` carries the next packet, then ``turn + 1`` (mod ``n``).

    ``turn``: the next packet's link (a scheduler's rotation starts anywhere, e.g. where the
    first window left it)."""

    __slots__ = ("links", "n_links", "turn")

    def __init__(self, queue, links, sink, turn: int = 0):
        super().__init__(queue, sink)
        links = list(links)
        if not links:
            raise ValueError("a rotation needs at least one link")
        if not 0 <= turn < len(links):
            raise ValueError(f"turn must be in [0, {len(links) - 1}], got {turn!r}")
        self.links = links
        self.n_links = len(links)
        self.turn = turn

    def send(self, now: int, packet) -> int:
        i = self.turn
        self.turn = i + 1 if i + 1 < self.n_links else 0
        lk = self.links[i]
        arr = lk.transmit(now, packet.wire_bytes, self.queue.order_ns)
        if arr >= 0:
            self.queue.push(packet, arr, lk.last_start_ns)
        else:
            self.queue.spare_packets.append(packet)  # dropped
        return arr


__all__ = ["Route", "Rotation"]
