# C types for connection.py, which stays the source (compiled by cmtlab.compiled; see its docstring).
# The per-segment paths (pump: the sender's DSN hand-out; deliver: the receiver's reorder buffer) with
# typed locals, a typed scheduler (its answer a C integer, _select) and the two rings (DsnMap,
# SegmentSet) of C-sized entries; sizes that grow without bound (the occupancy integral's
# _occ_spill, the seed) stay Python integers, as do values that can be None.
cimport cython
from ..tcp.receiver cimport TcpReceiver
from ..tcp.segment_set cimport SegmentSet
from ..tcp.data_sink cimport DataSink
from ..mechanisms.schedulers.base cimport ConnectionScheduler, SchedulerView
from .subflow cimport MptcpSubflow
from .out_of_order cimport OutOfOrderPolicy

cdef Py_ssize_t _NO_SUBFLOW, _HOLD, _USE_SELECT
cdef long long _OCC_SPLIT

# The connection's own data structures (not mechanisms to subclass): final, so their methods are direct C calls.
@cython.final
cdef class DsnMap:
    cdef long long[::1] dsns
    cdef public long long mask, end, delivered

    cpdef append(self, long long dsn)
    cpdef long long at(self, long long k)
    cpdef get(self, long long k)

cdef class MptcpConnection(SchedulerView):  # (subflows, n_dsn, next_dsn, data_ack_seen, rcvbuf_segs, seg)
    cdef public list receivers, maps
    cdef public ConnectionScheduler scheduler
    cdef public SegmentSet ooo
    cdef public object retransmit, seed, queue, buffer_trace
    cdef public object held_until, _occ_spill
    cdef public long long last_len, prefetch_bytes, _short_dsn, _dsn_cap, now
    cdef public long long rcv_dsn, max_ooo, ooo_events, _occ_seg_ns, _occ_t, duplicate_dsn, done_time
    cdef public long long reinjections, _refused_dsn
    cdef public Py_ssize_t _refused
    cdef public bint _plain_receiver, done, send_queues
    cdef public DataSink data_level  # a DataLevel
    cdef public OutOfOrderPolicy out_of_order

    @cython.locals(sched=ConnectionScheduler, index=cython.Py_ssize_t)
    cdef Py_ssize_t _select(self, long long now) except -3

    @cython.locals(dsn=cython.longlong, k=cython.longlong, m=DsnMap)
    cpdef _assign(self, MptcpSubflow sub)

    @cython.locals(cap=cython.longlong, window_end=cython.longlong, seg=cython.longlong, nxt=cython.longlong,
                   tail=cython.longlong, short_dsn=cython.longlong, subs=list, maps=list, sub=MptcpSubflow,
                   m=DsnMap, ask=cython.bint, choice=cython.Py_ssize_t)
    cpdef pump(self, long long now)

    @cython.locals(n=cython.longlong, dt=cython.longlong)
    cpdef _occupancy(self, long long now)

    @cython.locals(i=cython.Py_ssize_t, m=DsnMap, ooo=SegmentSet, old=cython.longlong, nxt=cython.longlong,
                   n_before=cython.longlong, ooo_added=cython.bint, k=cython.longlong, dsn=cython.longlong)
    cpdef deliver(self, long long now, TcpReceiver rcv, long long first, long long end)

cdef class DataLevel(DataSink):
    cdef public MptcpConnection connection

    cpdef deliver(self, long long now, receiver, long long first, long long end)
    cpdef long long data_ack(self) except? -3
