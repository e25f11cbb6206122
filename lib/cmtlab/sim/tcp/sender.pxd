# C types for sender.py, which stays the source (compiled by cmtlab.compiled; see its docstring).
# The hot methods (every ACK, every segment) are cpdef with typed locals; the others stay Python methods.
cimport cython
from ..net.packet cimport Packet
from .undo cimport UndoApi

# the scoreboard flags and congestion states as C integers (tcp/flags.py, tcp/state.py assign them)
cdef long SACKED, LOST, RETRANS, HIST_RETX
cdef long long OPEN, DISORDER, RECOVERY, LOSS

cdef class TcpSender(UndoApi):
    cpdef receive(self, long long now, Packet packet)

    @cython.locals(i=cython.longlong, retx=cython.bint, f=cython.long, nbytes=cython.longlong)
    cpdef _send_segment(self, long long now, long long k)

    @cython.locals(seg=cython.longlong, state=cython.longlong, win=cython.longlong, high=cython.longlong,
                   una=cython.longlong, pipe=cython.longlong, rule3=cython.bint, no_lt=cython.bint,
                   avail=cython.longlong, n_segs=cython.longlong, last_k=cython.longlong, short=cython.longlong,
                   short_end=cython.longlong, rwnd=cython.longlong, rwnd_end=cython.longlong, tail=cython.longlong,
                   k=cython.longlong, data=cython.longlong, i=cython.longlong, nbytes=cython.longlong,
                   raw=cython.longlong)
    cpdef send_pending(self, long long now)

    @cython.locals(una=cython.longlong, front=cython.longlong, rto_fresh=cython.bint, now_ms=cython.longlong,
                   rtt=cython.longlong, plain=cython.bint, seg=cython.longlong, delivered=cython.longlong,
                   segs_acked=cython.longlong, rem=cython.longlong, high_before=cython.longlong,
                   newly_sacked=cython.longlong, old_state=cython.longlong, flags=bytearray, mask=cython.longlong,
                   k=cython.longlong, delivered_segs=cython.longlong, old_cwnd=cython.longlong,
                   old_ssthresh=cython.longlong)
    cpdef on_ack(self, long long now, long long ack, long long ts_echo, object sack)

    @cython.locals(flags=bytearray, mask=cython.longlong, newest=cython.longlong, k=cython.longlong, f=cython.long)
    cpdef _cc_rtt_sample(self, long long now, long long una, long long ack)

    @cython.locals(is_dupack=cython.bint, seg=cython.longlong, segs_acked=cython.longlong, rem=cython.longlong,
                   state=cython.longlong, exited_recovery=cython.bint)
    cpdef _process_ack(self, long long now, long long ack, long long old_head, bint scoreboard_updated,
                       long long delivered)

    @cython.locals(state=cython.longlong)
    cpdef _dupack(self, long long now, long long delivered)

    @cython.locals(seg=cython.longlong, pipe=cython.longlong, flight=cython.longlong)
    cpdef _enter_recovery(self, long long now, long long delivered)

    @cython.locals(k=cython.longlong)
    cpdef _do_retransmit(self, long long now)

    cpdef _new_ack(self, long long now, long long ack, bint reset_rto)
