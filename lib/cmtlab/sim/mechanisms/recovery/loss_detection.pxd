# C types for loss_detection.py, which stays the source (compiled by cmtlab.compiled; see its docstring).
# The loss-detection interface as a compiled class: cpdef hooks, so the sender's calls reach the
# duplicate-ACK rules' code directly (the empty defaults cost no Python frame) and a Python subclass's
# own methods (RACK-TLP) are still found.  ``sub`` is the sender (untyped here: no cimport cycle with tcp/base.pxd).


cdef class LossDetection:
    cdef public object _sub

    cpdef timers(self)
    cpdef on_ack(self, object sub, long long now, long long ack, object sack, long long ts_echo)
    cpdef on_dupack(self, object sub, long long now)
    cpdef on_sacked(self, object sub, long long newly)
    cpdef after_ack(self, object sub, long long now, long long una, long long high)
    cpdef on_retransmit(self, object sub, long long k, long long now)
    cpdef on_new_data_sent(self, object sub, long long now)
    cpdef bint retransmits_on_partial_ack(self, object sub)
    cpdef long long recovery_exit_segments(self, object sub, long long ack, long long old_head,
                                           long long segs_acked)
    cpdef on_timeout(self, object sub, long long now)
    cpdef mark_on_timeout(self, object sub, long long now)

cdef class DupAckThreshold(LossDetection):
    cpdef on_dupack(self, object sub, long long now)
    cpdef on_sacked(self, object sub, long long newly)
