# C types for connection.py, which stays the source (compiled by cmtlab.compiled; see its docstring).
# The per-segment paths (pump: the sender's DSN hand-out; deliver: the receiver's reorder buffer) with
# typed locals; sizes that grow without bound (the occupancy integral ooo_bytes_time, the seed) stay
# Python integers, as do values that can be None.
cimport cython
from ..tcp.receiver cimport TcpReceiver
from .subflow cimport MptcpSubflow

cdef class MptcpConnection:
    cdef public list subflows, receivers, maps, pruned, per_sub_delivered
    cdef public object n_dsn, scheduler, dupack_mode, _hold_code, retransmit, seed, queue, buffer_trace
    cdef public object held_until, _refusal, ooo_bytes_time
    cdef public long long last_len, seg, next_dsn, prefetch_bytes, rcvbuf_segs, _short_dsn, _dsn_cap, now
    cdef public long long data_ack_seen, rcv_dsn, max_ooo, ooo_events, _occ_t, duplicate_dsn, done_time
    cdef public long long reinjections
    cdef public bint _ns3_receiver, _plain_receiver, done
    cdef public set pending_ack, ooo

    @cython.locals(dsn=cython.longlong, k=cython.longlong)
    cpdef _assign(self, MptcpSubflow sub)

    @cython.locals(cap=cython.longlong, window_end=cython.longlong, seg=cython.longlong, nxt=cython.longlong,
                   tail=cython.longlong, short_dsn=cython.longlong, subs=list, maps=list, sub=MptcpSubflow)
    cpdef pump(self, long long now)

    @cython.locals(i=cython.Py_ssize_t, m=list, ooo=set, old=cython.longlong, nxt=cython.longlong,
                   ooo_added=cython.bint, base=cython.longlong, hi=cython.longlong, dsn=cython.longlong,
                   n_ooo=cython.Py_ssize_t)
    cpdef deliver(self, long long now, TcpReceiver rcv, long long first, long long end)
