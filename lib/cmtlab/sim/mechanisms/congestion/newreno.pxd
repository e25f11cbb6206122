# C types for newreno.py, which stays the source (compiled by cmtlab.compiled; see its docstring).
# Windows and segment counts as 64-bit integers (bytes; the sender keeps them so); ``//`` keeps
# Python's floor division (cdivision off).
cimport cython
from .base cimport CongestionControl
from ...tcp.base cimport SenderBase

cdef class NewReno(CongestionControl):
    @cython.locals(cwnd=cython.longlong, ssthresh=cython.longlong, seg=cython.longlong, add=cython.longlong)
    cpdef increase_window(self, SenderBase sub, long long segments_acked)

    @cython.locals(half=cython.longlong, two=cython.longlong)
    cpdef ssthresh(self, SenderBase sub, long long bytes_in_flight)
