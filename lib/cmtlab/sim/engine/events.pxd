# C types for events.py, which stays the source (compiled by cmtlab.compiled; see its docstring).
from .heap cimport heappush

cdef class EventQueue:
    cdef public list heap
    cdef public object _ids, order_ns
    cdef public bint done
