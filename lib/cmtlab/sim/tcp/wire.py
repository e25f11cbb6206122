"""A TCP endpoint's packets put on the wire: the sender's ``net_send`` and the receiver's ``net_ack``.

:class:`~cmtlab.sim.tcp.TcpSender` hands each segment to ``net_send(now, k, nbytes, retx)``
and :class:`~cmtlab.sim.tcp.TcpReceiver` each ACK to ``net_ack(now, ack, echo, sack,
nblocks)``.  A topology connects them to a :class:`~cmtlab.sim.net.packet.PacketPath` with
:class:`SegmentSend` and :class:`AckSend`: these make the :class:`~cmtlab.sim.net.packet.Packet`
— its wire size is the segment's bytes plus ``overhead_bytes`` for data, for an ACK it grows with
its SACK blocks; the RFC 7323 TSval is ``(now + ts_offset_ns) // 1 ms``, the phase of ns-3's
millisecond timestamp clock; an MPTCP subflow's ACK carries the connection's DATA_ACK (RFC 8684)
— and hand it to the path, which delivers it to the far end's ``receive``.

They are small classes rather than closures so that :mod:`cmtlab.compiled` can type them
(``wire.pxd``); the optional hooks (traces, MPTCP re-injection) cost one test each when unset.
Both derive from the two interfaces an endpoint sees, :class:`SegmentOut` and :class:`AckOut`;
a plain function given as ``net_send`` / ``net_ack`` (a test's recorder, a topology's own
link choice) is wrapped in :class:`SegmentCall` / :class:`AckCall`.  Each is also callable as
the function it stands for.
"""

from __future__ import annotations

from ..net.packet import ack_packet, data_packet
from .data_sink import DataSink


class SegmentOut:
    """How a sender's segments leave: ``send(now, k, nbytes, retx)`` (``nbytes`` of payload;
    ``retx``: a retransmission)."""

    __slots__ = ()

    def send(self, now: int, k: int, nbytes: int, retx: bool) -> None:
        raise NotImplementedError(f"{type(self).__name__} must implement send()")

    def __call__(self, now: int, k: int, nbytes: int, retx: bool) -> None:
        self.send(now, k, nbytes, retx)


class SegmentCall(SegmentOut):
    """A function ``fn(now, k, nbytes, retx)`` as a sender's way out."""

    __slots__ = ("fn",)

    def __init__(self, fn):
        if not callable(fn):
            raise TypeError(f"net_send must be a SegmentOut or a function (now, k, nbytes, retx), got {fn!r}")
        self.fn = fn

    def send(self, now: int, k: int, nbytes: int, retx: bool) -> None:
        self.fn(now, k, nbytes, retx)


def segment_out(net_send):
    """``net_send`` as a :class:`SegmentOut` (``None`` stays ``None``: not connected yet)."""
    if net_send is None or isinstance(net_send, SegmentOut):
        return net_send
    return SegmentCall(net_send)


class SegmentSend(SegmentOut):
    """A sender's ``net_send``: data segments onto ``path``.

    Parameters
    ----------
    path
        A :class:`~cmtlab.sim.net.packet.PacketPath` ending at the receiver.
    overhead_bytes
        Header bytes added to each segment's payload (IP, TCP, options, an MPTCP DSS option).
    timestamps
        Stamp the RFC 7323 TSval (else 0); ``ts_offset_ns`` is the phase of the millisecond clock.
    packets_trace
        ``None`` or a list receiving ``(now, flow, k, dsn, retx, wire_bytes, arrival)`` per segment.
    flow, dsn_of
        The flow's number in the trace, and ``dsn_of(flow, k)`` (an MPTCP connection's data
        sequence number of segment ``k``; ``None``: ``k`` itself).
    on_retransmit
        ``None`` or ``on_retransmit(now, flow, k)`` after each retransmission is sent (MPTCP
        re-injection on another subflow).
    """

    __slots__ = ("path", "overhead_bytes", "timestamps", "ts_offset_ns", "packets_trace", "flow", "dsn_of",
                 "on_retransmit")

    def __init__(self, path, overhead_bytes: int, *, timestamps: bool = False, ts_offset_ns: int = 0,
                 packets_trace=None, flow: int = 0, dsn_of=None, on_retransmit=None):
        self.path = path
        self.overhead_bytes = overhead_bytes
        self.timestamps = bool(timestamps)
        self.ts_offset_ns = ts_offset_ns
        self.packets_trace = packets_trace
        self.flow = flow
        self.dsn_of = dsn_of
        self.on_retransmit = on_retransmit

    def send(self, now: int, k: int, nbytes: int, retx: bool) -> None:
        """Put segment ``k`` (``nbytes`` of payload; ``retx``: a retransmission) on the wire at ``now``."""
        wire = nbytes + self.overhead_bytes
        tsval = (now + self.ts_offset_ns) // 1_000_000 if self.timestamps else 0
        arr = self.path.send(now, data_packet(self.path, wire, k, tsval, retx))
        if self.packets_trace is not None:
            dsn = self.dsn_of(self.flow, k) if self.dsn_of is not None else k
            self.packets_trace.append((now, self.flow, k, dsn, retx, wire, arr))
        if retx and self.on_retransmit is not None:
            self.on_retransmit(now, self.flow, k)


class AckOut:
    """How a receiver's ACKs leave: ``send(now, ack, echo, sack, nblocks)`` (cumulative ``ack``,
    TSecr ``echo``, SACK information ``sack`` with ``nblocks`` blocks)."""

    __slots__ = ()

    def send(self, now: int, ack: int, echo: int, sack, nblocks: int) -> None:
        raise NotImplementedError(f"{type(self).__name__} must implement send()")

    def __call__(self, now: int, ack: int, echo: int, sack, nblocks: int) -> None:
        self.send(now, ack, echo, sack, nblocks)


class AckCall(AckOut):
    """A function ``fn(now, ack, echo, sack, nblocks)`` as a receiver's way out."""

    __slots__ = ("fn",)

    def __init__(self, fn):
        if not callable(fn):
            raise TypeError(f"net_ack must be an AckOut or a function (now, ack, echo, sack, nblocks), got {fn!r}")
        self.fn = fn

    def send(self, now: int, ack: int, echo: int, sack, nblocks: int) -> None:
        self.fn(now, ack, echo, sack, nblocks)


def ack_out(net_ack):
    """``net_ack`` as an :class:`AckOut` (``None`` stays ``None``: not connected yet)."""
    if net_ack is None or isinstance(net_ack, AckOut):
        return net_ack
    return AckCall(net_ack)


class AckSend(AckOut):
    """A receiver's ``net_ack``: ACKs onto ``path``.

    Parameters
    ----------
    path
        A :class:`~cmtlab.sim.net.packet.PacketPath` ending at the sender (or its connection's ACK arrival).
    ack_bytes
        Wire size of an ACK with 0, 1, 2, 3 and 4 or more SACK blocks.
    data_level
        ``None`` (the ACK's ``data_ack`` is 0), or the :class:`~cmtlab.sim.tcp.data_sink.DataSink`
        above the receiver (an MPTCP connection's data level): its DATA_ACK
        (``data_level.data_ack()`` when the ACK leaves) rides along as the ACK's ``data_ack``.
    acks_trace
        ``None`` or a list receiving ``(now, flow, ack, nblocks, wire_bytes, arrival)`` per ACK.
    """

    __slots__ = ("path", "ack_bytes", "data_level", "acks_trace", "flow")

    def __init__(self, path, ack_bytes, *, data_level=None, acks_trace=None, flow: int = 0):
        ack_bytes = tuple(int(b) for b in ack_bytes)
        if len(ack_bytes) != 5:
            raise ValueError(f"ack_bytes must give 5 sizes (0..4 SACK blocks), got {len(ack_bytes)}")
        self.path = path
        self.ack_bytes = ack_bytes
        if data_level is not None and not isinstance(data_level, DataSink):
            raise TypeError(f"data_level must be a DataSink or None, got {data_level!r}")
        self.data_level = data_level
        self.acks_trace = acks_trace
        self.flow = flow

    def send(self, now: int, ack: int, echo: int, sack, nblocks: int) -> None:
        """Put an ACK (cumulative ``ack``, TSecr ``echo``, SACK blocks ``sack``) on the wire at ``now``."""
        wire = self.ack_bytes[nblocks if nblocks < 5 else 4]
        data_ack = 0 if self.data_level is None else self.data_level.data_ack()
        arr = self.path.send(now, ack_packet(self.path, wire, ack, echo, sack, data_ack))
        if self.acks_trace is not None:
            self.acks_trace.append((now, self.flow, ack, nblocks, wire, arr))


__all__ = ["SegmentOut", "SegmentCall", "SegmentSend", "segment_out", "AckOut", "AckCall", "AckSend",
           "ack_out"]
