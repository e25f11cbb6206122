# C types for route.py, which stays the source (compiled by cmtlab.compiled; see its docstring).
cimport cython
from .link cimport LinkModel
from .packet cimport Packet, PacketPath

cdef class Route(PacketPath):
    cdef public list links
    cdef public Py_ssize_t n_hops
    cdef public LinkModel first

    @cython.locals(first=LinkModel, arr=cython.longlong)
    cpdef long long send(self, long long now, Packet packet) except? -3

    @cython.locals(lk=LinkModel, arr=cython.longlong, hop=cython.Py_ssize_t)
    cpdef arrived(self, long long now, Packet packet)

cdef class Rotation(PacketPath):
    cdef public list links
    cdef public Py_ssize_t n_links, turn

    @cython.locals(lk=LinkModel, arr=cython.longlong, i=cython.Py_ssize_t)
    cpdef long long send(self, long long now, Packet packet) except? -3
