# C types for scoreboard.py, which stays the source (compiled by cmtlab.compiled; see its docstring).
cimport cython
from .rto cimport RttEstimator

# the scoreboard flags and congestion states as C integers (tcp/flags.py, tcp/state.py assign them)
cdef long SACKED, LOST, RETRANS, HIST_RETX

cdef class Scoreboard(RttEstimator):
    @cython.locals(p=cython.longlong, f=cython.long)
    cpdef long long in_flight(self)

    @cython.locals(cwnd=cython.longlong, rwnd=cython.longlong)
    cpdef long long available_window(self)

    @cython.locals(flags=bytearray, mask=cython.longlong, k=cython.longlong, high=cython.longlong,
                   sent=cython.longlong)
    cpdef long long _next_seg(self, bint rule3)

    @cython.locals(una=cython.longlong, n=cython.longlong, flags=bytearray, mask=cython.longlong,
                   delivered=cython.longlong, sack=cython.bint, k=cython.longlong, i=cython.longlong, f=cython.long)
    cpdef long long _discard_up_to(self, long long ack)

    @cython.locals(flags=bytearray, mask=cython.longlong, high=cython.longlong, k=cython.longlong)
    cpdef _add_reno_sack(self)

    @cython.locals(i=cython.longlong, f=cython.long)
    cpdef _mark_head_lost(self)

    @cython.locals(i=cython.longlong, f=cython.long)
    cpdef long long mark_lost(self, long long k)

    cpdef bint _head_is_lost(self)

    @cython.locals(flags=bytearray, mask=cython.longlong, una=cython.longlong, high=cython.longlong,
                   newly=cython.longlong, first=cython.longlong, end=cython.longlong, k=cython.longlong,
                   i=cython.longlong, f=cython.long, hs=cython.longlong)
    cpdef long long _update_sack(self, object blocks)

    @cython.locals(flags=bytearray, mask=cython.longlong, una=cython.longlong, thresh=cython.longlong,
                   count=cython.longlong, k=cython.longlong, lo=cython.longlong, marked=cython.bint,
                   i=cython.longlong)
    cpdef _update_lost_count(self)

    @cython.locals(flags=bytearray, mask=cython.longlong, marked=cython.bint, j=cython.longlong,
                   i=cython.longlong, f=cython.long)
    cpdef bint _mark_lost(self, long long lo, long long hi)

    @cython.locals(flags=bytearray, mask=cython.longlong, una=cython.longlong, high=cython.longlong,
                   lost=cython.longlong, k=cython.longlong, i=cython.longlong, f=cython.long)
    cpdef _mark_all_lost(self)

    @cython.locals(flags=bytearray, mask=cython.longlong, k=cython.longlong, i=cython.longlong, f=cython.long)
    cpdef _clear_lost_marks(self)
