"""Packets in flight, the paths they travel and the endpoints they reach.

A :class:`Packet` is an :class:`~cmtlab.sim.engine.events.Event`: while it crosses a link it
sits in the event queue, due when it reaches the link's far end; then its
:class:`PacketPath` takes it (:meth:`PacketPath.arrived`) — onto the path's next link, or to the
path's :class:`PacketSink`, the endpoint at its end (a :class:`~cmtlab.sim.tcp.TcpReceiver` for
data, a :class:`~cmtlab.sim.tcp.TcpSender` or an MPTCP connection's
:class:`~cmtlab.sim.mptcp.ack_arrival.AckArrival` for ACKs).  One object carries the packet over all
its links (it is pushed again at each hop), so a packet costs one object however long its path;
once its sink has taken it (or a link dropped it), the object goes to the queue's
``spare_packets`` and carries a later packet: a sink reads a packet's fields and keeps nothing of it.

What a packet carries:

* ``seq`` — a data segment's index ``k``, or an ACK's cumulative acknowledgement;
* ``ts`` — the RFC 7323 timestamp: a segment's TSval, an ACK's TSecr (ms; 0 without timestamps);
* ``retx`` — the segment is a retransmission (data only);
* ``sack`` — an ACK's SACK information, ``None`` or ``(dsack_block_or_None, blocks)``;
* ``data_ack`` — an MPTCP subflow ACK's DATA_ACK (RFC 8684), 0 otherwise;
* ``wire_bytes`` — its size on the wire (headers included), ``hop`` — the next link of its route.

The concrete paths (a route over links in series, a round-robin rotation over parallel links)
are in :mod:`cmtlab.sim.net.route`.
"""

from __future__ import annotations

from ..engine.events import Event


class PacketSink:
    """An endpoint at the end of a path: :meth:`receive` takes each packet that arrives."""

    __slots__ = ()

    def receive(self, now: int, packet: "Packet") -> None:
        """``packet`` arrived at ``now`` (ns)."""
        raise NotImplementedError(f"{type(self).__name__} must implement receive()")


class PacketPath:
    """How an endpoint's packets reach ``sink`` (see the module docstring).

    The base class is a path whose sender has already put the packet on a link: the packet's
    event goes straight to the sink (:meth:`arrived`).  Subclasses implement :meth:`send`.
    """

    __slots__ = ("queue", "sink")

    def __init__(self, queue, sink: PacketSink):
        if not isinstance(sink, PacketSink):
            raise TypeError(f"sink must be a PacketSink (an endpoint with receive(now, packet)), got {sink!r}")
        self.queue = queue
        self.sink = sink

    def send(self, now: int, packet: "Packet") -> int:
        """Hand ``packet`` (``wire_bytes`` set) to the path at ``now`` (ns); it reaches the sink later.

        Returns the first link's answer: when the packet reaches that link's far end, or a
        negative drop code (:data:`~cmtlab.sim.net.link.DROPPED_QUEUE`,
        :data:`~cmtlab.sim.net.link.DROPPED_LOSS`).
        """
        raise NotImplementedError(f"{type(self).__name__} must implement send()")

    def arrived(self, now: int, packet: "Packet") -> None:
        """``packet`` reached the far end of the link it was crossing (its event fired)."""
        self.sink.receive(now, packet)
        self.queue.spare_packets.append(packet)


class Packet(Event):
    """A packet in flight: its event is its arrival at the end of the link it is crossing."""

    __slots__ = ("path", "hop", "wire_bytes", "seq", "ts", "retx", "sack", "data_ack")

    def fire(self, now: int) -> None:
        self.path.arrived(now, self)


def data_packet(path: PacketPath, wire_bytes: int, k: int, tsval: int, retx: bool) -> Packet:
    """A data segment ``k`` (TSval ``tsval`` ms; ``retx``: a retransmission) of ``wire_bytes`` on ``path``."""
    spare = path.queue.spare_packets
    p = spare.pop() if spare else Packet.__new__(Packet)
    p.path = path
    p.hop = 0
    p.wire_bytes = wire_bytes
    p.seq = k
    p.ts = tsval
    p.retx = retx
    p.sack = None
    p.data_ack = 0
    return p


def ack_packet(path: PacketPath, wire_bytes: int, ack: int, echo: int, sack, data_ack: int) -> Packet:
    """An ACK (cumulative ``ack``, TSecr ``echo``, SACK ``sack``, MPTCP ``data_ack``) of ``wire_bytes`` on ``path``."""
    spare = path.queue.spare_packets
    p = spare.pop() if spare else Packet.__new__(Packet)
    p.path = path
    p.hop = 0
    p.wire_bytes = wire_bytes
    p.seq = ack
    p.ts = echo
    p.retx = False
    p.sack = sack
    p.data_ack = data_ack
    return p


__all__ = ["Packet", "PacketPath", "PacketSink", "data_packet", "ack_packet"]
