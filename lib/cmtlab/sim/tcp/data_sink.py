"""The level above a subflow receiver: where its in-order segments go and what its ACKs' DATA_ACK reads.

A plain TCP receiver is its own application (no sink).  An MPTCP subflow receiver hands the
segments its cumulative point passes to the connection's data level (RFC 8684 sec. 3.3: the
subflow sequence maps onto the data sequence), which answers how the receiver acknowledges
them (:class:`~cmtlab.sim.tcp.decisions.OutOfOrderAck`); each of the subflow's ACKs carries the
data level's cumulative point (DATA_ACK, RFC 8684 sec. 3.3.2).  Both are calls of one
:class:`DataSink` (compiled: direct C calls, no arguments boxed).
"""

from __future__ import annotations

from .decisions import OutOfOrderAck

_ACK = OutOfOrderAck.ACK


class DataSink:
    """The interface: :meth:`deliver` and :meth:`data_ack`."""

    __slots__ = ()

    def deliver(self, now: int, receiver, first: int, end: int):
        """Subflow segments ``[first, end)`` of ``receiver`` are in order at ``now`` (ns): take them.

        Returns an :class:`~cmtlab.sim.tcp.decisions.OutOfOrderAck` (anything but ``ACK``
        replaces the receiver's ACK of this segment); may set ``receiver.done`` to end the run.
        """
        raise NotImplementedError(f"{type(self).__name__} must implement deliver()")

    def data_ack(self) -> int:
        """The data-level cumulative ACK the receiver's ACKs carry (segments; RFC 8684 DATA_ACK)."""
        return 0

    def __call__(self, now: int, receiver, first: int, end: int):
        return self.deliver(now, receiver, first, end)


class DataSinkCall(DataSink):
    """A function ``fn(now, receiver, first, end)`` as a sink (its answer as :meth:`DataSink.deliver`'s,
    ``None`` meaning ``ACK``)."""

    __slots__ = ("fn",)

    def __init__(self, fn):
        if not callable(fn):
            raise TypeError(f"sink must be a DataSink or a function (now, receiver, first, end), got {fn!r}")
        self.fn = fn

    def deliver(self, now: int, receiver, first: int, end: int):
        answer = self.fn(now, receiver, first, end)
        return _ACK if answer is None else answer


def data_sink(sink):
    """``sink`` as a :class:`DataSink` (``None`` stays ``None``: the receiver is the application;
    a function is wrapped in a :class:`DataSinkCall`)."""
    if sink is None or isinstance(sink, DataSink):
        return sink
    return DataSinkCall(sink)


__all__ = ["DataSink", "DataSinkCall", "data_sink"]
