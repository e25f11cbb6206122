# C types for newreno.py, which stays the source (compiled by cmtlab.compiled; see its docstring).
from .base cimport RecoveryAlgorithm

cdef class ClassicRecovery(RecoveryAlgorithm):
    cdef public object inflated_cwnd

    cpdef enter(self, sub, dupacks, unacked_bytes, delivered_bytes, decision=*)
    cpdef on_ack(self, sub, delivered_bytes, is_dupack)
    cpdef exit(self, sub)
