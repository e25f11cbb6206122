# C types for data_sink.py, which stays the source (compiled by cmtlab.compiled; see its docstring).
# The receiver's calls up (deliver, once per in-order segment) and its ACK's DATA_ACK (data_ack) are
# C calls with C integers.

cdef object _ACK

cdef class DataSink:
    cpdef deliver(self, long long now, receiver, long long first, long long end)
    cpdef long long data_ack(self) except? -3

cdef class DataSinkCall(DataSink):
    cdef public object fn
