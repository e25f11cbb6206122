# C types for segment_set.py, which stays the source (compiled by cmtlab.compiled; see its docstring).
cimport cython

@cython.final  # a data structure, not a mechanism to subclass: its methods are direct C calls
cdef class SegmentSet:
    cdef public bytearray flags
    cdef public long long mask, lo, hi, count

    cpdef bint contains(self, long long k)
    @cython.locals(lo=cython.longlong, hi=cython.longlong, i=cython.longlong)
    cpdef add(self, long long k)
    cpdef discard(self, long long k)
    @cython.locals(flags=bytearray, mask=cython.longlong)
    cpdef long long release_run(self, long long k)
    cpdef long long lowest(self) noexcept
    @cython.locals(cap=cython.longlong)
    cpdef _grow(self, long long span)
