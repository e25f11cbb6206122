# C types for events.py, which stays the source (compiled by cmtlab.compiled; see its docstring).
# An event's keys are 64-bit integers compared in C; the heap is a list of events (indices are in range
# by construction: events.py's first line turns off the bounds checks).
cimport cython

cdef class Event:
    cdef public long long time_ns, order_ns, serial
    cpdef fire(self, long long now)

cdef class Call(Event):
    cdef public object handler
    cdef public tuple args

cdef bint _before(Event a, Event b)

cdef class EventQueue:
    cdef public list heap
    cdef public long long _seq, order_ns
    cdef public bint done

    cpdef push(self, Event event, long long time_ns, long long order_ns)

    @cython.locals(heap=list, parent=cython.Py_ssize_t, above=Event)
    cdef void _sift_up(self, Py_ssize_t pos, Event event)

    @cython.locals(heap=list, last=Event, first=Event, n=cython.Py_ssize_t, pos=cython.Py_ssize_t,
                   child=cython.Py_ssize_t, right=cython.Py_ssize_t)
    cpdef Event pop(self)
