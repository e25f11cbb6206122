# C types for ack_arrival.py, which stays the source (compiled by cmtlab.compiled; see its docstring).
cimport cython
from ..tcp.sender cimport TcpSender
from .connection cimport MptcpConnection
from ..net.packet cimport Packet, PacketSink
from ..engine.timers cimport LazyTimer, TimerHandler

cdef class AckArrival(PacketSink):
    cdef public MptcpConnection connection
    cdef public TcpSender sender
    cdef public bint subflow

    cpdef receive(self, long long now, Packet packet)

    @cython.locals(conn=MptcpConnection)
    cpdef arrive(self, long long now, long long ack, long long echo, object sack, long long data_ack=*)

cdef class TimerWakeup(TimerHandler):
    cdef public MptcpConnection connection
    cdef public LazyTimer timer
    cdef public bint subflow

    @cython.locals(conn=MptcpConnection)
    cpdef due(self, long long now)
