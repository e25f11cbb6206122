# C types for lia.py, which stays the source (compiled by cmtlab.compiled; see its docstring).
# The per-ACK increase with C integers for windows (bytes) and C doubles for the float terms: the
# same IEEE operations, in the same order, as the Python ints (all below 2**53) and floats.
cimport cython
from .coupled cimport CoupledCongestionControl, _floor
from ...tcp.base cimport SenderBase
from ..schedulers.base cimport SchedulerView

cdef class Lia(CoupledCongestionControl):
    @cython.locals(cwnd=cython.longlong, ssthresh=cython.longlong, seg=cython.longlong,
                   bytes_acked=cython.longlong, best=cython.double, ssum=cython.double, srtt=cython.longlong,
                   r=cython.double, w=cython.longlong, x=cython.double, cap=cython.double, inc=cython.double,
                   linked=cython.double, frac=cython.double, whole=cython.longlong, c=cython.longlong,
                   s=SenderBase, subs=list)
    cpdef increase_window(self, SenderBase sub, long long segments_acked)

    @cython.locals(best=cython.double, ssum=cython.double, w=cython.longlong, x=cython.double,
                   cap=cython.double, linked=cython.double, s=SenderBase)
    cpdef ca_increase(self, SenderBase sub, long long bytes_acked)
