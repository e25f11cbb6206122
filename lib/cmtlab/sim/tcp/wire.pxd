# C types for wire.py, which stays the source (compiled by cmtlab.compiled; see its docstring).
cimport cython
from ..net.packet cimport PacketPath, data_packet, ack_packet
from .data_sink cimport DataSink

cdef class SegmentOut:
    cpdef send(self, long long now, long long k, long long nbytes, bint retx)

cdef class SegmentCall(SegmentOut):
    cdef public object fn

cdef class SegmentSend(SegmentOut):
    cdef public PacketPath path
    cdef public long long overhead_bytes, ts_offset_ns, flow
    cdef public bint timestamps
    cdef public object packets_trace, dsn_of, on_retransmit

    @cython.locals(wire=cython.longlong, tsval=cython.longlong, arr=cython.longlong)
    cpdef send(self, long long now, long long k, long long nbytes, bint retx)

cdef class AckOut:
    cpdef send(self, long long now, long long ack, long long echo, object sack, Py_ssize_t nblocks)

cdef class AckCall(AckOut):
    cdef public object fn

cdef class AckSend(AckOut):
    cdef public PacketPath path
    cdef public tuple ack_bytes
    cdef public DataSink data_level
    cdef public object acks_trace
    cdef public long long flow

    @cython.locals(wire=cython.longlong, arr=cython.longlong, data_ack=cython.longlong)
    cpdef send(self, long long now, long long ack, long long echo, object sack, Py_ssize_t nblocks)
