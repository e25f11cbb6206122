"""An MPTCP subflow: a TCP sender whose data source is its connection (RFC 8684 sec. 3.3)."""

from __future__ import annotations

from ..mechanisms.schedulers import HoldUntil
from ..tcp import TcpSender


class MptcpSubflow(TcpSender):
    """A :class:`~cmtlab.sim.tcp.TcpSender` whose data comes from its :class:`MptcpConnection`."""

    __slots__ = ()

    def _app_fill(self) -> None:
        """This subflow wants new data: the connection hands it DSNs (the source side of ``_app_fill``).

        Hands the subflow DSNs while the connection scheduler picks it, its send buffer has
        room and the data-level window allows, until it holds enough unsent data to fill its
        window plus one segment.
        """
        conn = self.connection
        cap = conn._dsn_cap
        nxt = conn.next_dsn  # room: a DSN left, within the data-level receive window
        if nxt >= cap or nxt >= conn.data_ack_seen + conn.rcvbuf_segs:
            return  # (the common answer to an ACK while the data-level window is full)
        seg = conn.seg
        select = conn.scheduler.select
        index = self.index
        while True:
            nxt = conn.next_dsn  # room: a DSN left, within the data-level receive window
            if nxt >= cap or nxt >= conn.data_ack_seen + conn.rcvbuf_segs:
                return
            tail = self.app_tail
            una = self.una
            if (tail - una + 1) * seg > self.buf_bytes:
                return
            high = self.high
            if tail > high:  # unsent data: enough to fill the window plus one segment?
                cwnd = self.cwnd
                rwnd = self.rwnd
                if self.short and high == self.n_segs and una < high:
                    flight = self.in_flight()
                else:  # in_flight(), inlined
                    flight = (high - una - self.sacked_out - self.lost_out + self.retrans_out) * seg
                if (tail - high) * seg >= (cwnd if cwnd < rwnd else rwnd) - flight + conn.prefetch_bytes:
                    return
            choice = select(conn, conn.now)
            if choice != index:
                if choice.__class__ is HoldUntil:
                    conn._hold(choice.time_ns)
                conn._refusal = (nxt, choice)
                return
            conn._assign(self)


__all__ = ["MptcpSubflow"]
