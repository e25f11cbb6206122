"""How a packet travels from an endpoint to its peer: a route over links in series, or a
rotation over parallel links (a round-robin tunnel).

Both are a :class:`PacketPath`: :meth:`PacketPath.send` hands a packet of ``wire_bytes`` to a
link at ``now_ns`` and schedules the packet's arrival, ``arrive(now_ns, *payload)`` (a
receiver's ``on_data``, a sender's ACK handler), into the run's
:class:`~cmtlab.sim.engine.events.EventQueue` exactly as
:meth:`~cmtlab.sim.engine.events.EventQueue.schedule` would: at the arrival time, ordered by
the time the packet started serialisation on the link it leaves (``last_start_ns``), then by
insertion.

- :class:`Route`: the links of one path, crossed in order (Alheid's backbone in front of an
  access link, :mod:`cmtlab.sim.net.topology`).  On a path of several links the end of each
  hop is an event (:meth:`Route.hop_done`), so every link sees its packets in time order; the
  event at the end of the last link is the packet's arrival.
- :class:`Rotation`: Song et al.'s round-robin tunnel — packet ``j`` takes link
  ``j mod n`` of the rotation (:meth:`~cmtlab.sim.mechanisms.schedulers.Scheduler.rotation`).

They are small classes rather than closures so that :mod:`cmtlab.compiled` can type them
(``route.pxd``: the links are the compiled :class:`~cmtlab.sim.net.link.LinkModel`); a hop
then costs no Python call.
"""

from __future__ import annotations

from ..engine.heap import heappush


class PacketPath:
    """Where an endpoint's packets go (see the module docstring); subclasses implement :meth:`send`."""

    __slots__ = ("queue", "arrive", "_heap", "_ids")

    def __init__(self, queue, arrive):
        self.queue = queue
        self.arrive = arrive
        self._heap = queue.heap
        self._ids = queue._ids

    def send(self, now: int, wire_bytes: int, payload: tuple) -> int:
        """Hand a packet of ``wire_bytes`` to the path at ``now`` (ns); ``arrive(t, *payload)`` when it arrives.

        Returns the first link's answer: when the packet reaches that link's far end, or a
        negative drop code (:data:`~cmtlab.sim.net.link.DROPPED_QUEUE`,
        :data:`~cmtlab.sim.net.link.DROPPED_LOSS`).
        """
        raise NotImplementedError(f"{type(self).__name__} must implement send()")


class Route(PacketPath):
    """The links of one path, crossed in order (at least one), then ``arrive``."""

    __slots__ = ("links", "n_hops", "first", "_hop")

    def __init__(self, queue, links, arrive):
        super().__init__(queue, arrive)
        links = list(links)
        if not links:
            raise ValueError("a route needs at least one link")
        self.links = links
        self.n_hops = len(links)
        self.first = links[0]
        self._hop = self.hop_done

    def send(self, now: int, wire_bytes: int, payload: tuple) -> int:
        first = self.first
        arr = first.transmit(now, wire_bytes, self.queue.order_ns)
        if arr >= 0:
            if self.n_hops == 1:
                heappush(self._heap, (arr, first.last_start_ns, next(self._ids), self.arrive, payload))
            else:
                heappush(self._heap, (arr, first.last_start_ns, next(self._ids), self._hop,
                                      (1, wire_bytes, payload)))
        return arr

    def hop_done(self, now: int, hop: int, wire_bytes: int, payload: tuple) -> None:
        """The packet reached the end of hop ``hop - 1``: hand it to link ``hop``.

        The packet's arrival at the end of the last link is scheduled as ``arrive`` itself (one
        event per hop, no extra call layer)."""
        lk = self.links[hop]
        arr = lk.transmit(now, wire_bytes, self.queue.order_ns)
        if arr >= 0:
            hop += 1
            if hop < self.n_hops:
                heappush(self._heap, (arr, lk.last_start_ns, next(self._ids), self._hop, (hop, wire_bytes, payload)))
            else:
                heappush(self._heap, (arr, lk.last_start_ns, next(self._ids), self.arrive, payload))


class Rotation(PacketPath):
    """Parallel links taken in turn: ``links[turn]`` carries the next packet, then ``turn + 1`` (mod ``n``).

    ``turn``: the next packet's link (a scheduler's rotation starts anywhere, e.g. where the
    first window left it)."""

    __slots__ = ("links", "n_links", "turn")

    def __init__(self, queue, links, arrive, turn: int = 0):
        super().__init__(queue, arrive)
        links = list(links)
        if not links:
            raise ValueError("a rotation needs at least one link")
        if not 0 <= turn < len(links):
            raise ValueError(f"turn must be in [0, {len(links) - 1}], got {turn!r}")
        self.links = links
        self.n_links = len(links)
        self.turn = turn

    def send(self, now: int, wire_bytes: int, payload: tuple) -> int:
        i = self.turn
        self.turn = i + 1 if i + 1 < self.n_links else 0
        lk = self.links[i]
        arr = lk.transmit(now, wire_bytes, self.queue.order_ns)
        if arr >= 0:
            heappush(self._heap, (arr, lk.last_start_ns, next(self._ids), self.arrive, payload))
        return arr


__all__ = ["PacketPath", "Route", "Rotation"]
