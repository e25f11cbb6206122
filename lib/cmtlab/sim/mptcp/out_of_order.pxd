# C types for out_of_order.py, which stays the source (compiled by cmtlab.compiled; see its docstring).
# The connection calls answer() once per delivery that is not plain (a C call with C integers); a
# Python subclass's own answer() is still found (cpdef).
cimport cython
from ..tcp.receiver cimport TcpReceiver

cdef object _ACK

cdef class OutOfOrderPolicy:
    cdef public object connection  # the MptcpConnection it answers for

    cpdef answer(self, long long now, TcpReceiver rcv, long long first, long long end, long long old,
                 long long nxt, bint held)

cdef class RfcOutOfOrder(OutOfOrderPolicy):
    cpdef answer(self, long long now, TcpReceiver rcv, long long first, long long end, long long old,
                 long long nxt, bint held)

cdef class HoldUntilInOrder(OutOfOrderPolicy):
    cdef public object code
    cdef public set pending

    @cython.locals(pend=set, receivers=list)
    cpdef answer(self, long long now, TcpReceiver rcv, long long first, long long end, long long old,
                 long long nxt, bint held)

cdef class DuplicateAckUntilInOrder(HoldUntilInOrder):
    pass
