# C types for base.py, which stays the source (compiled by cmtlab.compiled; see its docstring).
# Every attribute of a sender: sequence numbers, windows, counters and times (ns) as 64-bit integers,
# flags as bint (only True/False are ever stored), anything that can be None or a mechanism as object.
from ..engine.timers cimport LazyTimer
from ..engine.events cimport EventQueue
from ..net.packet cimport PacketSink
from .wire cimport SegmentOut
from ..mechanisms.congestion.base cimport CongestionControl
from ..mechanisms.recovery.base cimport RecoveryAlgorithm
from ..mechanisms.recovery.loss_detection cimport LossDetection

cdef class SenderBase(PacketSink):
    # configuration
    cdef public long long seg, n_segs, last_len, short, max_out, buf_bytes, rwnd, app_tail
    cdef public long long dupthresh, min_rto, clock_g, initial_rto
    cdef public bint _last_delivered, sack, sack_loss_detection, limited_transmit, timestamps
    cdef public CongestionControl cc
    cdef public RecoveryAlgorithm recovery
    cdef public SegmentOut _net_send
    cdef public EventQueue queue
    cdef public object reordering, trace
    # scoreboard
    cdef public long long una, high, mask, hist_lo, sacked_out, lost_out, retrans_out
    cdef public long long highest_sack, lost_cursor, lost_marked_upto, lost_pending
    cdef public bytearray flags
    cdef public long long[::1] sent_time
    # congestion state
    cdef public long long cwnd, ssthresh, state, dupacks, recover, high_rx_ack, pipe_snapshot
    cdef public long long bytes_acked_not_processed
    cdef public bint recover_active, first_partial_ack, retrans_data_acked
    # rtt / rto
    cdef public long long srtt, rttvar, n_rtt_samples, rto
    cdef public LazyTimer rto_timer
    cdef public object rto_rule
    # counters
    cdef public long long ts_offset_ns, segments_sent, retransmissions, fast_retransmits, timeouts, partial_acks
    cdef public long long dupacks_rx, acks_rx, stale_acks, rtt_samples_taken, max_backoff, _consecutive_rto
    # dupack run trace
    cdef public long long _run_ack, _run_len, _run_start
    # multipath plumbing
    cdef public long long index
    cdef public object connection, path
    # reordering-response hooks
    cdef public bint _every_ack, _plain
    cdef public long long spurious_undos, initial_cwnd
    # clock hooks
    cdef public long long ack_time_ns, last_rtt_sample_ns
    # Linux's congestion-control RTT sample (ca_rtt_us)
    cdef public bint cc_rtt_linux
    cdef public long long cc_rtt_ns, cc_rtt_samples, _sack_newest
    # loss detection
    cdef public LossDetection loss_detection
    cdef public bint _rule3, _rto_rfc6298, _rearm_on_send
