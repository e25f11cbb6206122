# C types for base.py, which stays the source (compiled by cmtlab.compiled; see its docstring).
# The recovery interface as a compiled class: cpdef methods, so the sender's calls reach a compiled
# algorithm's code directly (the empty defaults cost no Python frame) and a Python subclass's own
# methods are still found.  ``sub`` is the sender's state record (a SenderBase: ns-3's TcpSocketState).

from ...tcp.base cimport SenderBase

cdef class RecoveryAlgorithm:

    cpdef enter(self, SenderBase sub, long long dupacks, long long unacked_bytes, long long delivered_bytes,
                decision=*)
    cpdef on_ack(self, SenderBase sub, long long delivered_bytes, bint is_dupack)
    cpdef timeout_window(self, SenderBase sub)
    cpdef allows_fast_retransmit(self, SenderBase sub)
    cpdef exit(self, SenderBase sub)
    cpdef bytes_sent(self, SenderBase sub, long long nbytes)
