"""What a subflow receiver answers for a segment that runs ahead of the data sequence (a scenario's ``dupack_mode``).

An MPTCP subflow receiver hands its in-order segments up to the connection
(:meth:`~cmtlab.sim.mptcp.connection.MptcpConnection.deliver`), which delivers them to the application
or keeps them in its out-of-order buffer (Alheid et al. Fig. 1).  The subflow's usual ACK is one
answer to a segment so buffered; a receiver may also withhold it or duplicate the last one.  The
connection is given one :class:`OutOfOrderPolicy`, built by name (``registry.make("dupack_mode",
name)``, one instance per connection: a policy may keep state of its connection), and asks it after
every delivery:

=================  ==================================================================  ===========================
``dupack_mode``    the answer                                                          class
=================  ==================================================================  ===========================
``"rfc"``          the usual ACK of the subflow sequence (RFC 8684); never asked       :class:`RfcOutOfOrder`
``"paper"``        at once a duplicate of the last ACK sent (Alheid Fig. 1)            :class:`DuplicateAckUntilInOrder`
``"chihani"``      no ACK until the data-level gap closes (the Chihani–Collange code)  :class:`~cmtlab.sim.models.chihani.ChihaniWithheldAck`
``"chihani_ns3"``  the ns-3.7 model's receiver exactly (calibrated)                    :class:`~cmtlab.sim.models.chihani.ChihaniNs3Receiver`
=================  ==================================================================  ===========================

Compiled (``out_of_order.pxd``): the connection's call is a C call, and a Python subclass's own
:meth:`~OutOfOrderPolicy.answer` is still found.
"""

from __future__ import annotations

from ..registry import register
from ..tcp.decisions import OutOfOrderAck

_ACK = OutOfOrderAck.ACK


class OutOfOrderPolicy:
    """A connection's answer to subflow segments that went into its out-of-order buffer (see the module docstring).

    :attr:`plain` ``True``: every subflow ACK is the usual one and the connection never asks
    (its common case, kept free of the call).
    """

    name = "abstract"
    #: Every subflow ACK is the usual one: the connection does not call :meth:`answer`.
    plain = False

    def __init__(self):
        self.connection = None

    def wire_bytes(self, segment_bytes: int, *, timestamps: bool):
        """``None`` (the scenario's TCP/IP packet sizes), or the sizes on the wire of a model's own
        connection: ``(data packet bytes, ACK bytes by number of SACK blocks 0..4)``."""
        return None

    def attach(self, connection) -> None:
        """The connection this policy answers for (one policy per connection)."""
        if self.connection is not None and self.connection is not connection:
            raise ValueError(f"dupack_mode {self.name!r} already answers for another connection: make one "
                             f"instance per connection (registry.make('dupack_mode', ...))")
        self.connection = connection

    def setup_receiver(self, receiver, reordering) -> None:
        """Subflow ``receiver`` was built; its sender's reordering response is ``reordering``."""

    def answer(self, now: int, rcv, first: int, end: int, old: int, nxt: int, held: bool):
        """What subflow receiver ``rcv`` sends for its segments ``[first, end)``, just handed to the
        connection (an :class:`~cmtlab.sim.tcp.decisions.OutOfOrderAck`), and the ACKs the connection
        then owes other subflows.  ``old``/``nxt``: the data-level RCV.NXT before and after the
        delivery; ``held``: one of the segments went into the out-of-order buffer."""
        raise NotImplementedError(f"{type(self).__name__} must implement answer")


class RfcOutOfOrder(OutOfOrderPolicy):
    """RFC 8684: subflow receivers acknowledge by subflow sequence only — the usual ACK, always."""

    name = "rfc"
    plain = True

    def answer(self, now: int, rcv, first: int, end: int, old: int, nxt: int, held: bool):
        return _ACK


class HoldUntilInOrder(OutOfOrderPolicy):
    """A segment that went into the out-of-order buffer is answered with :attr:`code`
    (``WITHHOLD``: no ACK; ``DUPLICATE``: a duplicate of the last ACK sent); when the data
    sequence advances, every other subflow receiver that withheld or duplicated an ACK sends one
    cumulative ACK (Chihani–Collange: ACKs when the buffer drains).  Plain cumulative ACKs, no
    SACK blocks: with ``sack=True`` a SACK sender does not count the duplicates (RFC 6675 sec. 2)."""

    name = "abstract"
    #: The answer to a segment that went into the out-of-order buffer.
    CODE = OutOfOrderAck.WITHHOLD

    def __init__(self):
        super().__init__()
        self.code = self.CODE
        self.pending: set[int] = set()  # subflow receivers owing an ACK

    def answer(self, now: int, rcv, first: int, end: int, old: int, nxt: int, held: bool):
        if held:
            self.pending.add(rcv.index)
            return self.code
        if self.pending and nxt > old:
            pend = self.pending
            self.pending = set()
            receivers = self.connection.receivers
            for j in sorted(pend):
                if j != rcv.index:
                    receivers[j]._send_ack(now, None)
        return _ACK


class DuplicateAckUntilInOrder(HoldUntilInOrder):
    """Alheid et al. Fig. 1: a segment in order on its subflow but ahead of the data sequence is
    answered at once with an ACK that does not advance (the subflow's ACK of its previous segment:
    a duplicate ACK)."""

    name = "paper"
    CODE = OutOfOrderAck.DUPLICATE


register("dupack_mode", "rfc")(RfcOutOfOrder)  # compiled classes (out_of_order.pxd) take no decorator
register("dupack_mode", "paper")(DuplicateAckUntilInOrder)


__all__ = ["OutOfOrderPolicy", "RfcOutOfOrder", "HoldUntilInOrder", "DuplicateAckUntilInOrder"]
