"""An MPTCP subflow: a TCP sender whose data source is its connection (RFC 8684 sec. 3.3)."""

from __future__ import annotations

from ..tcp.sender import TcpSender


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
        window_end = conn.data_ack_seen + conn.rcvbuf_segs  # room: a DSN left, within the data-level window
        if window_end < cap:
            cap = window_end
        nxt = conn.next_dsn
        if nxt >= cap:
            return  # (the common answer to an ACK while the data-level window is full)
        # Fixed while DSNs are handed out (a scheduler only reads the subflows): SND.UNA, HighData,
        # the window and the data in flight; only the unsent tail grows.
        seg = conn.seg
        una = self.una
        high = self.high
        tail_max = una - 1 + self.buf_bytes // seg  # send buffer: (tail - una + 1) * seg <= buf_bytes
        cwnd = self.cwnd
        rwnd = self.rwnd
        if self.short and high == self.n_segs and una < high:
            flight = self.in_flight()
        else:  # in_flight(), inlined
            flight = (high - una - self.sacked_out - self.lost_out + self.retrans_out) * seg
        # unsent data beyond which the subflow holds enough to fill its window plus one segment
        unsent_max = (cwnd if cwnd < rwnd else rwnd) - flight + conn.prefetch_bytes
        index = self.index
        while True:
            tail = self.app_tail
            if tail > tail_max or (tail > high and (tail - high) * seg >= unsent_max):
                return
            choice = conn._select(conn.now)
            if choice != index:  # refused (another subflow, none, or held): the connection's pump sees it
                conn._refused_dsn = nxt
                conn._refused = choice
                return
            conn._assign(self)
            nxt = conn.next_dsn
            if nxt >= cap:
                return


__all__ = ["MptcpSubflow"]
