# C types for base.py, which stays the source (compiled by cmtlab.compiled; see its docstring).
# The interface as a compiled class: its methods are cpdef, so a compiled caller calls a compiled
# algorithm directly and a Python subclass's own methods are still found (cpdef dispatch).
# ``sub`` is the sender's state record (a SenderBase: ns-3's TcpSocketState): its windows are read and
# written as C fields.

from ...tcp.base cimport SenderBase

cdef class CongestionControl:

    cpdef init(self, SenderBase sub)
    cpdef increase_window(self, SenderBase sub, long long segments_acked)
    cpdef ssthresh(self, SenderBase sub, long long bytes_in_flight)
