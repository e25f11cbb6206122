# C types for events.py, which stays the source (compiled by cmtlab.compiled; see its docstring).
# The heap's keys are 64-bit integers in arrays (typed memoryviews over array('q')); indices are in range
# by construction: events.py's first line turns off the bounds checks.
cimport cython

cdef class Event:
    cdef public long long time_ns, order_ns, serial
    cpdef fire(self, long long now)

cdef class Call(Event):
    cdef public object handler
    cdef public tuple args

cdef bint _before(long long t1, long long o1, long long s1, long long t2, long long o2, long long s2)

cdef class EventQueue:
    cdef public list _heap, spare_packets, _slots
    cdef public long long _seq, order_ns, count, _nfree, _cap
    cdef public bint done
    cdef long long[::1] _ht, _ho, _hs, _hx, _free

    @cython.locals(i=cython.Py_ssize_t, j=cython.Py_ssize_t, old=cython.Py_ssize_t, cap=cython.Py_ssize_t,
                   ht='long long[::1]', ho='long long[::1]', hs='long long[::1]', hx='long long[::1]',
                   free='long long[::1]')
    cpdef _grow(self)

    @cython.locals(serial=cython.longlong, slot=cython.longlong)
    cpdef push(self, Event event, long long time_ns, long long order_ns)

    @cython.locals(parent=cython.Py_ssize_t, ht=cython.p_longlong, ho=cython.p_longlong, hs=cython.p_longlong,
                   hx=cython.p_longlong)
    cdef void _sift_up(self, Py_ssize_t pos, long long t, long long o, long long s, long long x)

    @cython.locals(first=Event, n=cython.Py_ssize_t, pos=cython.Py_ssize_t, child=cython.Py_ssize_t,
                   right=cython.Py_ssize_t, slot=cython.longlong, ht=cython.p_longlong, ho=cython.p_longlong,
                   hs=cython.p_longlong, hx=cython.p_longlong)
    cpdef Event pop(self)
