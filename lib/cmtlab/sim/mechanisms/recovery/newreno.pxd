# C types for newreno.py, which stays the source (compiled by cmtlab.compiled; see its docstring).
from .base cimport RecoveryAlgorithm
from ...tcp.base cimport SenderBase

cdef class ClassicRecovery(RecoveryAlgorithm):
    cpdef enter(self, SenderBase sub, long long dupacks, long long unacked_bytes, long long delivered_bytes,
                decision=*)
    cpdef on_ack(self, SenderBase sub, long long delivered_bytes, bint is_dupack)
    cpdef exit(self, SenderBase sub)
