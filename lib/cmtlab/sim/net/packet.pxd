# C types for packet.py, which stays the source (compiled by cmtlab.compiled; see its docstring).
cimport cython
from ..engine.events cimport Event, EventQueue

cdef class PacketSink:
    cpdef receive(self, long long now, Packet packet)

cdef class PacketPath:
    cdef public EventQueue queue
    cdef public PacketSink sink

    cpdef long long send(self, long long now, Packet packet) except? -3
    cpdef arrived(self, long long now, Packet packet)

cdef class Packet(Event):
    cdef public PacketPath path
    cdef public Py_ssize_t hop
    cdef public long long wire_bytes, seq, ts, data_ack
    cdef public bint retx
    cdef public object sack

@cython.locals(p=Packet)
cpdef Packet data_packet(PacketPath path, long long wire_bytes, long long k, long long tsval, bint retx)
@cython.locals(p=Packet)
cpdef Packet ack_packet(PacketPath path, long long wire_bytes, long long ack, long long echo, object sack,
                        long long data_ack)
