# C types for source.py, which stays the source (compiled by cmtlab.compiled; see its docstring).
cimport cython
from .base cimport SenderBase

cdef class BulkSource(SenderBase):
    @cython.locals(tail=cython.longlong, n=cython.longlong, free=cython.longlong)
    cpdef _app_fill(self)
