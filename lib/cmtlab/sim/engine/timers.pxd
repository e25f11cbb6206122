# C types for timers.py, which stays the source (compiled by cmtlab.compiled; see its docstring).
cimport cython
from .events cimport Event, EventQueue

cdef class LazyTimer

cdef class TimerHandler:
    cpdef due(self, long long now)

cdef class TimerExpiry(Event):
    cdef public LazyTimer timer

cdef class LazyTimer:
    cdef public EventQueue queue
    cdef public object expire
    cdef public TimerHandler handler
    cdef public TimerExpiry _spare
    cdef public long long deadline_ns, _event_ns, armed_at
    cdef public bint running, _queued

    @cython.locals(ev=TimerExpiry)
    cdef void _push(self, long long time_ns, long long order_ns) except *
    cpdef arm(self, long long now, long long deadline)
    cpdef cancel(self)
    cpdef fire(self, long long now)
