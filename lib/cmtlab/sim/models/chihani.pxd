# chihani.py stays the source; this file only makes cmtlab.compiled compile it (see its docstring).
# The model's mechanisms stay Python classes (mixins over the compiled RFC mechanisms; the model keeps
# per-instance attributes of its own); compiled, their methods run without the bytecode interpreter.
# Its receivers are compiled classes (policies of mptcp/out_of_order.pxd): the connection calls their
# answer() once per delivery, a C call, reading the connection's rings as C fields.
cimport cython
from ..mechanisms.schedulers.base cimport SchedulerView
from ..mptcp.out_of_order cimport HoldUntilInOrder, OutOfOrderPolicy
from ..mptcp.connection cimport DsnMap, MptcpConnection
from ..tcp.base cimport SenderBase
from ..tcp.receiver cimport TcpReceiver

cdef object _ACK

cdef class ChihaniWithheldAck(HoldUntilInOrder):
    pass

cdef class ChihaniNs3Receiver(OutOfOrderPolicy):
    @cython.locals(conn=MptcpConnection, m=DsnMap, k=cython.longlong, top=cython.longlong, j=cython.Py_ssize_t,
                   r=TcpReceiver, a=cython.longlong)
    cpdef answer(self, long long now, TcpReceiver rcv, long long first, long long end, long long old,
                 long long nxt, bint held)

# the model's LIA increase (once per ACK of a multipath subflow in congestion avoidance): windows and the
# total as C integers, the float terms as C doubles (the same IEEE operations, in the same order)
@cython.locals(subs=list, total_w=cython.double, best=cython.double, ssum=cython.double, total=cython.longlong,
               s=SenderBase, w=cython.double, r=cython.double, x=cython.double, alpha=cython.double)
cpdef double _model_lia_increase(SenderBase sub, long long bytes_acked) except? -1.0
