# C types for lia.py, which stays the source (compiled by cmtlab.compiled; see its docstring).
# The per-ACK increase (ca_increase, called by the frame's increase_window) with C integers for windows
# (bytes) and C doubles for the float terms: the same IEEE operations, in the same order, as the Python
# ints (all below 2**53) and floats.
cimport cython
from .coupled cimport CoupledCongestionControl
from ...tcp.base cimport SenderBase
from ..schedulers.base cimport SchedulerView

cdef class Lia(CoupledCongestionControl):
    @cython.locals(subs=list, best=cython.double, ssum=cython.double, s=SenderBase, w=cython.longlong,
                   r=cython.double, x=cython.double, seg=cython.longlong, cap=cython.double, linked=cython.double)
    cpdef double ca_increase(self, SenderBase sub, long long bytes_acked) except? -1.0
