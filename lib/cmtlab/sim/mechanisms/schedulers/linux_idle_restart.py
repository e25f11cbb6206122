"""Linux's window after an idle period: ``tcp_slow_start_after_idle_check`` and ``tcp_cwnd_restart``
(``net/ipv4/tcp_output.c``, ``net.ipv4.tcp_slow_start_after_idle = 1``, the default), and CUBIC's
``CA_EVENT_TX_START`` (``cubictcp_cwnd_event``, ``net/ipv4/tcp_cubic.c``).

When data is added to a socket that has nothing outstanding (``tcp_skb_entail``: ``packets_out == 0``) and
its last data went out more than one RTO ago (``lsndtime``), Linux restarts the window (RFC 5681 sec. 4.1,
RFC 2861): ``ssthresh`` becomes ``tcp_current_ssthresh`` (at least three quarters of the window), the
window is halved once per RTO of idle time and set to at least the restart window
``min(TCP_INIT_CWND, cwnd)``.  A flow that sends with nothing in flight also moves CUBIC's epoch on by the
time since its last send, so the cubic curve does not count the idle time (:func:`cubic_tx_start`; CUBIC does this
whatever ``tcp_slow_start_after_idle`` says).

An MPTCP subflow goes idle while its connection's send buffer is held by another subflow (data sent on a fast path
waits for a segment of a slow one before the DATA_ACK frees memory): in the recorded ``ss`` trace of
``mptcp cubic 20M/20ms + 2M/600ms`` (``data/today/kernel_socket_traces.csv``) the 20-ms subflow comes back from every
idle period longer than two RTOs with a smaller window (:func:`cmtlab.today.chapter.socket_trace_facts`).
:class:`~cmtlab.sim.mechanisms.schedulers.linux.LinuxScheduler` (``slow_start_after_idle``) calls
:func:`restart_after_idle` where Linux entails data onto a subflow (``mptcp_sendmsg_frag``).
"""

from __future__ import annotations

#: ``TCP_INIT_CWND`` (segments): the restart window's bound (``tcp_init_cwnd``).
RESTART_WINDOW_SEGMENTS = 10


def cubic_tx_start(sub, now_ns: int) -> int:
    """CUBIC's ``CA_EVENT_TX_START`` (``cubictcp_cwnd_event``, called from ``tcp_event_data_sent`` when a segment
    leaves with nothing in flight): the epoch start (``t_epoch_ns`` of the congestion control, where it has one and an
    epoch has begun) moves on by the time since the subflow's last send, at most to now, so the cubic curve does not
    count the time the subflow had nothing to send.  Independent of ``tcp_slow_start_after_idle``.  Returns that idle
    time (ns; 0 when nothing was sent before).  The last send is the send time of the highest segment
    (``sent_time``)."""
    if sub.high == 0:
        return 0
    idle_ns = now_ns - int(sub.sent_time[(sub.high - 1) & sub.mask])
    if idle_ns <= 0:
        return 0
    cc = sub.cc
    epoch = getattr(cc, "t_epoch_ns", None)
    if epoch is not None:  # epoch_start += delta, at most now
        cc.t_epoch_ns = min(epoch + idle_ns, now_ns)
    return idle_ns


def restart_after_idle(sub, now_ns: int, *, restart_window_segments: int = RESTART_WINDOW_SEGMENTS) -> bool:
    """Apply Linux's idle restart to subflow ``sub`` (a :class:`~cmtlab.sim.tcp.TcpSender`) that is handed new data
    at ``now_ns`` with nothing outstanding.  Returns whether the window was restarted (idle longer than
    ``sub.rto``); CUBIC's epoch (``t_epoch_ns`` of the congestion control, where it has one) moves on by the idle
    time either way.  Its last send is the send time of its highest segment (``sent_time``)."""
    idle_ns = cubic_tx_start(sub, now_ns)
    if idle_ns <= 0:
        return False  # nothing sent yet (the initial window applies), or not idle
    rto = int(sub.rto)
    if idle_ns <= rto:
        return False
    seg = sub.seg
    cwnd = sub.cwnd // seg
    restart = min(restart_window_segments, cwnd)
    # tcp_current_ssthresh (outside CWR and Recovery): max(ssthresh, 3/4 cwnd)
    sub.ssthresh = max(sub.ssthresh, ((cwnd >> 1) + (cwnd >> 2)) * seg)
    delta = idle_ns - rto
    while delta > 0 and cwnd > restart:
        cwnd >>= 1
        delta -= rto
    sub.cwnd = max(cwnd, restart) * seg
    return True


__all__ = ["restart_after_idle", "cubic_tx_start", "RESTART_WINDOW_SEGMENTS"]
