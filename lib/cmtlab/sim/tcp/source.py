"""Where a sender's data comes from: the bulk-send application (ns-3's ``BulkSendApplication``).

A class of :class:`~cmtlab.sim.tcp.sender.TcpSender`'s chain (see :mod:`~cmtlab.sim.tcp.base`);
an MPTCP subflow (:class:`cmtlab.sim.mptcp.MptcpSubflow`) overrides :meth:`BulkSource._app_fill` to take the
next data-sequence numbers from its connection.
"""

from __future__ import annotations

from .base import SenderBase


class BulkSource(SenderBase):
    """The bulk application writing whole segments into the send buffer."""

    __slots__ = ()

    def _app_fill(self) -> None:
        """The bulk-send application writes whole segments into the free send buffer.

        As the application of :mod:`cmtlab.ns3`: whole segments while more than the free
        space remains, the rest of the transfer once it fits.  ns-3 lets the application
        write when TCP calls ``NotifySend``: after a new cumulative ACK (``NewAck``) and
        when the data left to send is less than the window.
        """
        tail = self.app_tail
        n = self.n_segs
        if tail >= n:
            return
        free = self.buf_bytes - (tail - self.una) * self.seg
        if (n - 1 - tail) * self.seg + self.last_len <= free:
            self.app_tail = n
        elif free >= self.seg:
            self.app_tail = tail + free // self.seg


__all__ = ["BulkSource"]
