# C types for timers.py, which stays the source (compiled by cmtlab.compiled; see its docstring).
from .heap cimport heappush

cdef class LazyTimer:
    cdef public object queue, expire, deadline, event_ns, handler, _heap, _ids
    cdef public long long armed_at

    cpdef arm(self, long long now, long long deadline)
    cpdef cancel(self)
    cpdef fire(self, long long now)
