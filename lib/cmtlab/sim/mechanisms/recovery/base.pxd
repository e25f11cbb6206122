# C types for base.py, which stays the source (compiled by cmtlab.compiled; see its docstring).
# The recovery interface as a compiled class: cpdef methods, so the sender's calls reach a compiled
# algorithm's code directly (the empty defaults cost no Python frame) and a Python subclass's own
# methods are still found.  ``sub`` stays an object.

cdef class RecoveryAlgorithm:
    cdef dict __dict__  # attributes of its own, as any Python object (subclasses, tests, notes)

    cpdef enter(self, sub, dupacks, unacked_bytes, delivered_bytes, decision=*)
    cpdef on_ack(self, sub, delivered_bytes, is_dupack)
    cpdef timeout_window(self, sub)
    cpdef allows_fast_retransmit(self, sub)
    cpdef exit(self, sub)
    cpdef bytes_sent(self, sub, nbytes)
