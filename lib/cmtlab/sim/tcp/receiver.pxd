# C types for receiver.py, which stays the source (compiled by cmtlab.compiled; see its docstring).
cimport cython
from ..engine.timers cimport LazyTimer
from ..engine.events cimport EventQueue
from ..net.packet cimport Packet, PacketSink
from .wire cimport AckOut
from .segment_set cimport SegmentSet
from .data_sink cimport DataSink

cdef class TcpReceiver(PacketSink):
    cdef public long long n_segs, m_ack, delack_timeout, max_blocks, rcv_nxt, delack_count, high_tx_ack
    cdef public long long ts_recent, ts_last, done_time, index, rwin_index
    cdef public long long segments_rx, duplicates_rx, ooo_rx, max_ooo, acks_sent, delayed_acks
    cdef public long long timer_acks, dsacks_sent
    cdef public bint immediate_ooo, sack, dsack, timestamps, rfc7323_echo, done, completes_run, echo_arrival
    cdef public SegmentSet ooo
    cdef public list sack_list
    cdef public LazyTimer delack_timer
    cdef public AckOut _net_ack
    cdef public EventQueue queue
    cdef public DataSink _sink
    cdef public object trace, _rd, ack_cap, held_copy, rwin

    cpdef receive(self, long long now, Packet packet)

    @cython.locals(rcv_nxt=cython.longlong, filled=cython.bint, send_now=cython.bint, ooo=SegmentSet,
                   sink=DataSink)
    cpdef on_data(self, long long now, long long k, long long tsval, bint retx)

    @cython.locals(lst=list, first=cython.longlong, end=cython.longlong, merged=cython.bint,
                   j=cython.Py_ssize_t, a=cython.longlong, b=cython.longlong)
    cpdef _update_sack_list(self, long long k)

    @cython.locals(ack=cython.longlong, nb=cython.Py_ssize_t, nblocks=cython.Py_ssize_t, j=cython.Py_ssize_t)
    cpdef _send_ack(self, long long now, object dsack)
