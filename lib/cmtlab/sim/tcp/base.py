"""The attributes of a TCP sender, declared once: :class:`SenderBase`, the root of the sender's class chain.

A :class:`~cmtlab.sim.tcp.sender.TcpSender` is built as one chain of classes, one concern per
file, each adding methods over the same attributes::

    SenderBase (base.py: the attributes; a PacketSink, the end of the ACK path)
      -> BulkSource (source.py: where the data comes from)
      -> RttEstimator (rto.py: RFC 6298 estimator and timer)
      -> Scoreboard (scoreboard.py: SACKED/LOST/RETRANS flags, pipe, NextSeg)
      -> UndoApi (undo.py: the reordering responses' snapshot/undo API)
      -> TcpSender (sender.py: the state machine)
      -> MptcpSubflow (cmtlab.sim.mptcp.subflow: its data comes from its connection)

A single chain (rather than mixins) lets each class be compiled (:mod:`cmtlab.compiled`; the
``.pxd`` beside each file declares the C types, ``base.pxd`` those of the attributes below).
The attributes are set by :meth:`TcpSender.__init__`; the mechanisms read and write them.
"""

from __future__ import annotations

from ..net.packet import PacketSink
from .wire import segment_out


class SenderBase(PacketSink):
    """The attributes of a TCP sender (no methods but the ``net_send`` property; see the module docstring).  A sender is the
    :class:`~cmtlab.sim.net.packet.PacketSink` of its ACK path (:meth:`TcpSender.receive`)."""

    __slots__ = (
        # configuration
        "seg", "n_segs", "last_len", "short", "_last_delivered", "max_out", "buf_bytes", "rwnd", "app_tail",
        "sack", "sack_loss_detection", "limited_transmit",
        "timestamps", "dupthresh", "min_rto", "clock_g", "initial_rto", "cc", "recovery", "reordering",
        "_net_send", "queue", "trace",
        # scoreboard
        "una", "high", "flags", "mask", "sent_time", "hist_lo", "sacked_out", "lost_out", "retrans_out",
        "highest_sack", "lost_cursor", "lost_marked_upto", "lost_pending",
        # congestion state
        "cwnd", "ssthresh", "state", "dupacks", "recover", "recover_active", "first_partial_ack",
        "high_rx_ack", "pipe_snapshot", "retrans_data_acked", "bytes_acked_not_processed",
        # rtt / rto
        "srtt", "rttvar", "n_rtt_samples", "rto", "rto_timer",
        # counters
        "ts_offset_ns", "segments_sent", "retransmissions", "fast_retransmits", "timeouts", "partial_acks",
        "dupacks_rx",
        "acks_rx", "stale_acks", "rtt_samples_taken", "max_backoff", "_consecutive_rto", "rto_rule",
        # dupack run trace
        "_run_ack", "_run_len", "_run_start",
        # multipath plumbing (read by mechanisms; see cmtlab.sim.mptcp)
        "index", "connection", "path",
        # reordering-response hooks (see cmtlab.sim.mechanisms.reordering)
        "_every_ack", "_plain", "spurious_undos", "initial_cwnd",
        # clock hook for time-based mechanisms (CUBIC's W_cubic(t)): the time of the ACK being processed
        "ack_time_ns", "last_rtt_sample_ns",
        # Linux's congestion-control RTT sample (tcp_clean_rtx_queue's ca_rtt_us; set by a congestion control
        # that asks for it: cc_rtt_linux)
        "cc_rtt_linux", "cc_rtt_ns", "cc_rtt_samples", "_sack_newest",
        # loss detection (cmtlab.sim.mechanisms.recovery.loss_detection): the sender calls its hooks at every
        # decision point; ``_rule3`` caches its answer to "may NextSeg rule 3 retransmit?" (read once)
        "loss_detection", "_rule3", "_rto_rfc6298", "_rearm_on_send",
    )

    @property
    def net_send(self):
        """How the sender's segments leave (a :class:`~cmtlab.sim.tcp.wire.SegmentOut`; a function
        ``(now, k, nbytes, retx)`` assigned here is wrapped in a :class:`~cmtlab.sim.tcp.wire.SegmentCall`)."""
        return self._net_send

    @net_send.setter
    def net_send(self, value) -> None:
        self._net_send = segment_out(value)


__all__ = ["SenderBase"]
