# C types for segment_set.py, which stays the source (compiled by cmtlab.compiled; see its docstring).
cimport cython

cdef class SegmentSet:
    cdef public bytearray flags
    cdef public long long mask, lo, hi, count

    cpdef bint contains(self, long long k)
    @cython.locals(lo=cython.longlong, hi=cython.longlong, i=cython.longlong)
    cpdef add(self, long long k)
    cpdef discard(self, long long k)
    @cython.locals(cap=cython.longlong)
    cpdef _grow(self, long long span)
