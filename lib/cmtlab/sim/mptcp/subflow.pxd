# C types for subflow.py, which stays the source (compiled by cmtlab.compiled; see its docstring).
# A cdef subclass: TcpSender's calls of _app_fill then go straight to this one (a Python subclass
# would make every cpdef call of the sender look for Python overrides first).  Its connection is
# typed (a circular cimport with connection.pxd): the connection's counters and its scheduler's
# answer are C values.
cimport cython
from ..tcp.sender cimport TcpSender
from .connection cimport MptcpConnection

cdef class MptcpSubflow(TcpSender):
    @cython.locals(conn=MptcpConnection, cap=cython.longlong, window_end=cython.longlong, nxt=cython.longlong,
                   seg=cython.longlong, una=cython.longlong, high=cython.longlong, tail_max=cython.longlong,
                   cwnd=cython.longlong, rwnd=cython.longlong, flight=cython.longlong, unsent_max=cython.longlong,
                   index=cython.Py_ssize_t, tail=cython.longlong, choice=cython.Py_ssize_t)
    cpdef _app_fill(self)
