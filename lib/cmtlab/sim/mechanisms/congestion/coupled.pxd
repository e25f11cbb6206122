# C types for coupled.py, which stays the source (compiled by cmtlab.compiled; see its docstring).
# The frame of the coupled algorithms as a compiled class (a NewReno: one path is NewReno's);
# ca_increase is cpdef and answers a C double: a compiled subclass's is called directly, a Python
# subclass's still found (its float converted).
# The carried fraction of a byte as a C double (the same IEEE operations as a Python float).
cimport cython
from .newreno cimport NewReno
from ...tcp.base cimport SenderBase

@cython.locals(whole=cython.longlong)
cpdef long long _floor(double x)

cpdef _rtt_s(sub)

@cython.locals(total=cython.double, best=cython.double, s=cython.double, w=cython.double)
cpdef double rfc6356_alpha(windows, rtts_s) except? -1.0

cdef class CoupledCongestionControl(NewReno):
    cdef public object variant, _counting
    cdef public double _frac
    cdef public bint _per_ack

    @cython.locals(cwnd=cython.longlong, ssthresh=cython.longlong, seg=cython.longlong, acked=cython.longlong,
                   whole=cython.longlong)
    cpdef increase_window(self, SenderBase sub, long long segments_acked)

    cpdef double ca_increase(self, SenderBase sub, long long bytes_acked) except? -1.0
