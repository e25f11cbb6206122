# C types for route.py, which stays the source (compiled by cmtlab.compiled; see its docstring).
cimport cython
from ..engine.events cimport EventQueue
from ..engine.heap cimport heappush
from .link cimport LinkModel

cdef class PacketPath:
    cdef public EventQueue queue
    cdef public object arrive, _ids
    cdef public list _heap

    cpdef long long send(self, long long now, object wire_bytes, tuple payload)

cdef class Route(PacketPath):
    cdef public list links
    cdef public Py_ssize_t n_hops
    cdef public LinkModel first
    cdef public object _hop

    @cython.locals(first=LinkModel, arr=cython.longlong)
    cpdef long long send(self, long long now, object wire_bytes, tuple payload)

    @cython.locals(lk=LinkModel, arr=cython.longlong)
    cpdef hop_done(self, long long now, Py_ssize_t hop, object wire_bytes, tuple payload)

cdef class Rotation(PacketPath):
    cdef public list links
    cdef public Py_ssize_t n_links, turn

    @cython.locals(lk=LinkModel, arr=cython.longlong, i=cython.Py_ssize_t)
    cpdef long long send(self, long long now, object wire_bytes, tuple payload)
