# C types for base.py, which stays the source (compiled by cmtlab.compiled; see its docstring).
# The connection-level scheduler interface as a compiled class: cpdef methods, so a compiled
# scheduler is called directly (the clock and the DSN as C integers) and a Python subclass's own
# methods are still found.  ``conn`` stays an object (the scheduler contract, base.py's docstring;
# tests use stubs); the simulator's connection is a SchedulerView, whose attributes are C fields.
cimport cython
from ...tcp.scoreboard cimport Scoreboard

cdef class SchedulerView:
    cdef public list subflows
    cdef public object n_dsn
    cdef public long long next_dsn, data_ack_seen, rcvbuf_segs, seg

cdef class ConnectionScheduler:

    cpdef init(self, conn)
    cpdef select(self, conn, long long now_ns)
    cpdef Py_ssize_t select_index(self, conn, long long now_ns) except? -4
    cpdef on_sent(self, conn, Py_ssize_t subflow, long long dsn, long long now_ns)

cpdef list _subflows(object conn)

@cython.locals(s=Scoreboard)
cpdef bint _has_room(object sub) except -1
