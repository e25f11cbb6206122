"""The scoreboard's flags per outstanding segment (:mod:`cmtlab.sim.tcp.scoreboard`).

* ``SACKED`` — reported received by a SACK block (or guessed so by a duplicate ACK without SACK:
  ns-3's "Reno SACK");
* ``LOST`` — deemed lost (RFC 6675 ``IsLost``, a timeout, a time-based detection);
* ``RETRANS`` — retransmitted and not yet acknowledged (counts in ``pipe`` again);
* ``HIST_RETX`` — the transmission-history entry was retransmitted (Karn: no RTT sample from it).

A plain module of constants: the compiled modules that test the flags declare them as C integers
(``cdef long`` in their ``.pxd``), so a test costs no Python object.
"""

SACKED, LOST, RETRANS, HIST_RETX = 1, 2, 4, 8

__all__ = ["SACKED", "LOST", "RETRANS", "HIST_RETX"]
