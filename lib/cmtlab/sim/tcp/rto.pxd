# C types for rto.py, which stays the source (compiled by cmtlab.compiled; see its docstring).
cimport cython
from .source cimport BulkSource

cdef class RttEstimator(BulkSource):
    @cython.locals(delta=cython.longlong)
    cpdef rtt_sample(self, long long rtt)

    @cython.locals(v4=cython.longlong, r=cython.longlong)
    cpdef _update_rto(self)
