# C types for round_robin.py, which stays the source (compiled by cmtlab.compiled; see its docstring).
# Called for every data segment: the turn and the loop over the subflows as C integers.
cimport cython
from .base cimport ConnectionScheduler, _has_room, _subflows

cdef Py_ssize_t _NO_SUBFLOW, _USE_SELECT

cdef class RoundRobinConnectionScheduler(ConnectionScheduler):
    cdef public Py_ssize_t _next

    @cython.locals(i=cython.Py_ssize_t)
    cpdef select(self, conn, long long now_ns)

    cpdef Py_ssize_t select_index(self, conn, long long now_ns) except? -4

    @cython.locals(subs=list, n=cython.Py_ssize_t, i=cython.Py_ssize_t, _=cython.Py_ssize_t)
    cdef Py_ssize_t _turn(self, conn) except? -4

    cpdef on_sent(self, conn, Py_ssize_t subflow, long long dsn, long long now_ns)
