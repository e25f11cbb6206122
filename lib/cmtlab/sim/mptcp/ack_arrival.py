"""An ACK's arrival at its MPTCP connection, and a timer's wake-up: the connection's clock first, its pump after.

Every event of a subflow's sender (an ACK arriving, a timer expiring) may open a window, so
the connection (:class:`~cmtlab.sim.mptcp.MptcpConnection`) sets its clock ``now`` before the
event and lets its scheduler hand out data after it (:meth:`~cmtlab.sim.mptcp.MptcpConnection.pump`).
An arriving subflow ACK also carries the connection's DATA_ACK (RFC 8684 sec. 3.3.2): the
data-level window's left edge moves before the subflow processes its ACK.  A competing
single-path TCP flow of the same topology shares the clock but not the pump.

:class:`AckArrival` and :class:`TimerWakeup` are these events' handlers, small classes rather
than closures so that :mod:`cmtlab.compiled` can type them (``ack_arrival.pxd``).
"""

from __future__ import annotations

from ..engine.timers import TimerHandler
from ..net.packet import PacketSink


class AckArrival(PacketSink):
    """An ACK of ``sender``'s flow arrives: the end of the flow's ACK path (:meth:`receive`).

    ``subflow``: the flow is a subflow of ``connection`` (its DATA_ACK is taken and the
    connection pumped after the ACK); else a single-path flow (only the clock is set).
    """

    __slots__ = ("connection", "sender", "subflow")

    def __init__(self, connection, sender, *, subflow: bool):
        self.connection = connection
        self.sender = sender
        self.subflow = bool(subflow)

    def receive(self, now: int, packet) -> None:
        """The ACK packet arrived (:class:`~cmtlab.sim.net.packet.PacketSink`)."""
        self.arrive(now, packet.seq, packet.ts, packet.sack, packet.data_ack)

    def arrive(self, now: int, ack: int, echo: int, sack, data_ack: int = 0) -> None:
        """The ACK's event (``data_ack``: the connection's DATA_ACK; a single-path flow's ACKs have none)."""
        conn = self.connection
        conn.now = now
        if self.subflow:
            if data_ack > conn.data_ack_seen:
                conn.data_ack_seen = data_ack
            self.sender.on_ack(now, ack, echo, sack)
            conn.pump(now)
        else:
            self.sender.on_ack(now, ack, echo, sack)


class TimerWakeup(TimerHandler):
    """A ``timer`` of a flow expires: ``due(now)`` sets the connection's clock, lets the timer fire,
    and pumps the connection when the flow is one of its subflows (``subflow``).  It makes itself
    the timer's handler (:class:`~cmtlab.sim.engine.timers.TimerHandler`)."""

    __slots__ = ("connection", "timer", "subflow")

    def __init__(self, connection, timer, *, subflow: bool):
        self.connection = connection
        self.timer = timer
        self.subflow = bool(subflow)
        timer.handler = self

    def due(self, now: int) -> None:
        conn = self.connection
        conn.now = now
        self.timer.fire(now)
        if self.subflow:
            conn.pump(now)


__all__ = ["AckArrival", "TimerWakeup"]
