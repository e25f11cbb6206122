# C types for wifi.py, which stays the source (compiled by cmtlab.compiled; see its docstring).
cimport cython
from .link cimport LinkModel, TimeFifo

cdef class WifiLink

# link.py's drop codes, as C constants here
cdef long long DROPPED_LOSS, DROPPED_QUEUE, _BELOW_MAX
cdef unsigned int _MT_MATRIX_A, _MT_UPPER_MASK, _MT_LOWER_MASK, _MT_TEMPER_B, _MT_TEMPER_C

@cython.final
cdef class RandomDraws:
    cdef object _rng
    cdef unsigned int[::1] _mt
    cdef Py_ssize_t _index
    cdef bint _stale

    @cython.locals(y=cython.uint)
    cdef unsigned int _word(self) except? 0xFFFFFFFF
    cdef void _load(self)
    @cython.locals(mt=cython.uint[::1], kk=cython.Py_ssize_t, y=cython.uint)
    cdef void _twist(self) noexcept
    @cython.locals(a=cython.uint, b=cython.uint)
    cpdef double random(self)
    @cython.locals(k=cython.int, r=cython.longlong)
    cpdef long long below(self, long long n)

cpdef long long draw_backoff_slots(RandomDraws draws, long long cw)

cdef class WifiMedium:
    cdef public double distance_m, snr_db, rx_power_dbm
    cdef public long long propagation_ns, busy_until_ns, beacon_interval_ns, next_beacon_ns, beacon_ns
    cdef public long long beacon_access_ns, beacons, last_contend_ns, last_start_ns, last_tx_ns
    cdef public object params, error_model, rate_mbps, ack_rate_mbps, last_owner, _succ_cache
    cdef public WifiLink down, up
    cdef public RandomDraws draws

cdef class WifiLink(LinkModel):
    cdef public WifiMedium medium
    cdef public object name, _tx_cache
    cdef public TimeFifo _waiting, _sched
    cdef public RandomDraws pdr_draws
    cdef public double pdr, _memo_p_ok
    cdef public long long _slot_ns, _difs_ns, _sifs_ns, _ack_ns, _ack_timeout_ns, _memo_bytes, _memo_tx
    cdef public long long _queue_packets, _cw_min, _cw_max, _retry_limit
    cdef public long long _done_ns, _last_tx, max_queue, mac_retries, mac_drops, pdr_drops, collisions
    cdef public bint _alternating

    @cython.locals(med=WifiMedium, other=WifiLink, draws=RandomDraws, size=cython.longlong, tx=cython.longlong,
                   p_ok=cython.double, earliest=cython.longlong, cw=cython.longlong, slot=cython.longlong,
                   start=cython.longlong, arrival=cython.longlong, t=cython.longlong, attempt=cython.longlong,
                   first_backoff=cython.longlong, cs=cython.longlong, elapsed=cython.longlong, b=cython.longlong,
                   bo=cython.longlong, idle_from=cython.longlong, access=cython.longlong, s=cython.longlong,
                   b0=cython.longlong, end=cython.longlong, other_cw=cython.longlong)
    cpdef long long transmit(self, long long now_ns, long long wire_bytes, long long order_ns=*)

    @cython.locals(med=WifiMedium, draws=RandomDraws, osched=TimeFifo, slot=cython.longlong, cw=cython.longlong,
                   anchor=cython.longlong, b=cython.longlong, b_o=cython.longlong, collided=cython.bint,
                   s=cython.longlong, start=cython.longlong, debt=cython.longlong, arrival=cython.longlong,
                   attempt=cython.longlong, end=cython.longlong, ok=cython.bint)
    cpdef (long long, long long) _alternate(self, long long t, long long tx, double p_ok, WifiLink other)

    @cython.locals(waiting=TimeFifo)
    cpdef long long _finish(self, long long now_ns, long long wire_bytes, long long start, long long arrival)
