# C types for link.py, which stays the source (compiled by cmtlab.compiled; see its docstring).
cimport cython

@cython.final
cdef class TimeFifo:
    cdef long long[::1] _ring
    cdef Py_ssize_t _mask, _head
    cdef public Py_ssize_t size

    cpdef long long first(self)
    cpdef long long at(self, Py_ssize_t i)
    cpdef void push(self, long long t)
    cpdef long long pop(self)
    cpdef void drop_through(self, long long t)

    @cython.locals(ring=cython.longlong[::1], i=cython.Py_ssize_t)
    cdef void _grow(self)

cdef class LinkModel:
    cdef public long long packets, bytes, queue_drops, loss_drops, last_start_ns
    cpdef long long transmit(self, long long now_ns, long long wire_bytes, long long order_ns=*)

cdef class PointToPointLink(LinkModel):
    cdef public double rate_bps, delay_s, _last_p
    cdef public long long delay_ns, _busy_until, _service_start, _last_size, _last_tx, max_queue
    cdef public Py_ssize_t queue_packets, _wait_limit
    cdef public long long queue_bytes, _wait_bytes, _service_bytes
    cdef public bint _count_service
    cdef public TimeFifo _waiting, _wait_sizes
    cdef public object loss, rng, _tx_cache, _p_cache, _size_cache, queue_counts

    @cython.locals(waiting=TimeFifo, s0=cython.longlong, busy=cython.longlong, start=cython.longlong,
                   tx=cython.longlong, finish=cython.longlong, nwait=cython.Py_ssize_t, p=cython.double,
                   size=cython.longlong, by_bytes=cython.longlong, held=cython.longlong)
    cpdef long long transmit(self, long long now_ns, long long wire_bytes, long long order_ns=*)

cdef class IdealPath(LinkModel):
    pass
