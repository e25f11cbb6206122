"""Upstream Linux MPTCP's default packet scheduler (``mptcp_subflow_get_send``, net/mptcp/protocol.c,
Linux 6.18 — the testbed's running kernel is 6.18.44)."""

from __future__ import annotations

from ...registry import register
from ._paths import rtt_ns
from .base import ConnectionScheduler, HoldUntil, _has_room
from .linux_idle_restart import cubic_tx_start, restart_after_idle
from .linux_send_buffers import EXPANDS as SNDBUF_EXPANDS
from .linux_send_buffers import LinuxSendBuffers

#: Linux's ``MPTCP_SEND_BURST_SIZE``: 64 KiB minus the TCP header, the largest TCP option space,
#: an IPv6 header and an IPv6 fragment header (65536 - 20 - 40 - 40 - 8).
LINUX_SEND_BURST_BYTES = 65428
#: When a subflow other than the first can carry data (``join``): ``"at_start"`` — every subflow from the
#: first data segment on (what this scheduler did first); ``"mp_join"`` — as the in-kernel path manager
#: opens them: the additional subflows' MP_JOIN handshakes start once the first subflow is established, and a
#: joined subflow carries data one round trip of its own path later (RFC 8684 sec. 3.2); ``"fully_established"``
#: — as Linux lets a joined subflow carry data: only once the peer's ACK of its third handshake packet (the
#: "fourth ACK") has made it fully established (``__mptcp_subflow_active``: ``request_join && !fully_established``
#: cannot send), two round trips of its own path after the handshake starts.
JOINS = ("at_start", "mp_join", "fully_established")
#: When a picked subflow's send buffer is tested (``memory_check``): ``"segment"`` — before each segment of the
#: burst (what this scheduler did first); ``"burst"`` — when the scheduler picks it, then the burst goes to it
#: whole.
MEMORY_CHECKS = ("segment", "burst")
#: The connection's data fragments (``struct mptcp_data_frag``) live in the socket's page fragment
#: (``sk_page_frag``: ``SKB_FRAG_PAGE_ORDER``, 32 KiB pages): a fragment holds at most this many bytes of data, and
#: Linux's connection-level retransmission (``__mptcp_retrans``) sends the head fragment's data again.
MPTCP_DFRAG_BYTES = 32768
#: What the testbed's sender hands the kernel per ``send()`` (``cmtlab.testbed._endpoint``: a 256 KiB buffer; with
#: its socket timeout every call polls for ``EPOLLOUT`` first): ``writer_wakeup``'s write size.
WRITER_CHUNK_BYTES = 256 * 1024
#: ``TCP_RTO_MIN`` (ns): the connection-level retransmission timer's interval when no subflow has a timer pending.
TCP_RTO_MIN_NS = 200_000_000
#: How the connection-level retransmission timer's interval is taken (``msk_timer``; :meth:`LinuxScheduler.timer_ival_ns`).
MSK_TIMERS = ("rto", "remaining")


def pending_timer_ns(sub):
    """Linux's ``icsk_timeout`` of a subflow: the deadline of the one timer ``icsk_retransmit_timer`` holds — the
    earliest running of the retransmission timer and the loss detection's probe (TLP) and RACK reordering timers,
    which Linux arms on the same timer (``inet_csk_reset_xmit_timer`` with ``ICSK_TIME_RETRANS``,
    ``ICSK_TIME_LOSS_PROBE`` or ``ICSK_TIME_REO_TIMEOUT``); ``None`` when none runs."""
    at = sub.rto_timer.deadline_ns if sub.rto_timer.running else None
    ld = getattr(sub, "loss_detection", None)  # None: the sender has no loss detection of its own
    for t in (ld.timers() if ld is not None else ()):
        if t is not None and t.running and (at is None or t.deadline_ns < at):
            at = t.deadline_ns
    return at


@register("scheduler", "linux")
class LinuxScheduler(ConnectionScheduler):
    """The rule of upstream Linux's ``mptcp_subflow_get_send`` (6.18), as it maps onto cmtlab.sim.

    Linux picks, among the active non-backup subflows, the one with the smallest *linger time*
    ``wmem_queued / avg_pacing_rate`` — the time to flush what the subflow already holds at its
    pacing rate (the kernel's comment calls it BLEST's idea in a simple form) — returns nothing if
    that subflow's send buffer is full, and then keeps sending on it for a *burst* of up to
    :data:`LINUX_SEND_BURST_BYTES` (less if the connection-level window is smaller) before asking
    again.  ``avg_pacing_rate`` starts at the socket's pacing rate and, at each pick, becomes the
    byte-weighted average ``(avg * wmem + pacing_rate * burst) / (burst + wmem)``.  The pacing rate is
    Linux's ``tcp_update_pacing_rate``: ``cwnd / SRTT`` times 2 in slow start (``cwnd < ssthresh / 2``
    in Linux: ``pacing_ss_ratio`` 200 %) and 1.2 otherwise (``pacing_ca_ratio`` 120 %), with the path's
    static round trip before the first RTT sample.  No backup subflows, no stale-subflow detection.
    Ties go to the lower index (the kernel's list order).

    ``send_buffers``: what a subflow's "send buffer full" is.

    * ``False`` (the default, the first mapping): a subflow holds no unsent data beyond its window, so
      ``wmem_queued`` is its bytes in flight (``in_flight()``) and "send buffer full" is "no room in the
      window" (:func:`~.base._has_room`) — where the kernel queues up to the send buffer on the picked
      subflow, this scheduler waits (``None``) and asks again on the next ACK.  While the subflow with the
      smallest linger time has a full window, no other subflow gets data: a subflow can idle behind it, then
      send its whole window at once;
    * ``True``: Linux's send buffers (:class:`~.linux_send_buffers.LinuxSendBuffers`): a subflow holds data
      beyond its window, queued on it, up to its autotuned send buffer (``sk_stream_memory_free``), its
      ``wmem_queued`` is everything it holds (sent and unsent, in socket memory), and no new data-sequence
      number goes out while the connection's send buffer — the sum of its subflows' — is full of data not
      yet DATA_ACKed (``mptcp_sendmsg`` waits for memory).  The connection lets a subflow hold unsent data
      (:attr:`subflow_send_queues`).

    ``join`` (:data:`JOINS`): when a subflow other than the first is active (``mptcp_subflow_active``: fully
    established).  With ``"mp_join"`` subflow ``i >= 1`` becomes active ``RTT_0 + RTT_i`` after the first data
    segment (its path's static round trips): measured on the testbed's kernel (``tcp_probe``), subflow ``i``'s
    first ACK arrives ``RTT_0 + 2 RTT_i`` after the first data segment on every traced run.  That first ACK is the
    handshake's fourth: in the recorded ``ss`` trace of ``mptcp cubic 20M/20ms + 2M/600ms``
    (``data/today/kernel_socket_traces.csv``, :func:`cmtlab.today.chapter.socket_trace_facts`) the joined subflow
    sends its first data ``RTT_0`` plus about two of its own round trips after the first subflow's — once fully
    established.  ``"fully_established"`` is that rule; the preset keeps
    ``"mp_join"`` (the today's-transport chapter shows what the later join does to the wider table).  While a subflow is
    not active the scheduler answers :class:`~.base.HoldUntil` its joining time when nothing else can send.

    ``memory_check`` (:data:`MEMORY_CHECKS`, with ``send_buffers``): when the picked subflow's send buffer is
    tested.  Linux tests it once, in ``mptcp_subflow_get_send``; ``__subflow_push_pending`` then moves whole data
    fragments onto the subflow (``mptcp_sendmsg_frag`` charges the socket's memory without testing its send
    buffer) and tests ``sk_stream_memory_free`` only between fragments, which the testbed's sender writes up to
    64 KB long: on the testbed's kernel a pick moved 32 to 65 KB at once onto the picked subflow (``tracepoint
    mptcp:mptcp_sendmsg_frag``, ``data_len`` 32728 to 64080 bytes), beyond its buffer.  ``"burst"``: the burst
    (:data:`LINUX_SEND_BURST_BYTES`) goes to the picked subflow whole.  With ``"segment"`` the burst stopped at
    the buffer's edge: a subflow in slow start that had been picked once held too little to fill its next
    round, while the subflow with the smaller linger time and a full buffer held the scheduler at ``None``.

    ``msk_retransmit`` (with ``send_buffers``): Linux's connection-level retransmission (``net/mptcp/protocol.c``:
    ``mptcp_retransmit_timer`` -> ``__mptcp_retrans``).  The connection's timer is reset whenever the DATA_ACK
    advances (``__mptcp_clean_una``) and when it fires to ``timer_ival``, the longest time any subflow's own timer
    still had to run (``mptcp_set_timeout``, ``TCP_RTO_MIN`` when none has one pending; with ``"remaining"`` taken,
    as Linux takes it, at the scheduler's last pick of a subflow for new data, not at the reset —
    :attr:`timer_ival`; ``msk_timer``, :data:`MSK_TIMERS`:
    ``"remaining"`` is Linux's — what is left of each subflow's pending timer (``icsk_timeout``: the retransmission
    timer or, while one is armed on it instead, the loss probe or RACK reordering timeout; :func:`pending_timer_ns`),
    a subflow that made no progress since the previous expiry left out (``mptcp_timeout_from_subflow``,
    ``mptcp_pm_subflow_chk_stale``) —,
    ``"rto"`` each subflow's whole RTO while it has data outstanding, a longer interval).
    When it fires, the head of the connection's retransmission queue — the data fragment holding the first byte
    not DATA_ACKed, from that byte to the fragment's end (:data:`MPTCP_DFRAG_BYTES`) — is sent again on the first
    active subflow with nothing outstanding and nothing queued (``mptcp_subflow_get_retrans``:
    ``tcp_rtx_and_write_queues_empty``), as new data of that subflow; none idle: nothing is sent and the timer is
    reset.  In a bulk transfer a subflow is idle only while the connection's send buffer is full (the scheduler
    gives an idle subflow data otherwise), so the timer is checked then: the scheduler answers
    :class:`~.base.HoldUntil` the timer's expiry.  Without it a segment lost on a long path holds every later
    byte — and the connection's send buffer — until that path repairs it.

    ``writer_wakeup`` (with ``send_buffers``): the application writes into the connection as the testbed's sender
    does, and the scheduler hands subflows what it has written.  Each ``send()`` first waits for ``EPOLLOUT``
    (``mptcp_poll`` -> ``__mptcp_stream_is_writeable``: ``sndbuf - wmem_queued >= wmem_queued / 2`` and memory
    free, i.e. a third of the buffer free; the wait ends at a DATA_ACK, ``mptcp_write_space``), then copies up to
    ``writer_chunk_bytes`` (:data:`WRITER_CHUNK_BYTES`), stopping when the buffer is full.  What it wrote waits in
    the connection until a subflow takes it (``mptcp_sendmsg`` copies into the connection's data fragments,
    ``__mptcp_push_pending`` hands them to subflows as they can take them), so subflows keep taking it while the
    writer sleeps; and on a large buffer one chunk can leave the writer asleep with much of the buffer free
    (``data/today/kernel_socket_traces.csv``: once its buffer reached 1.92 MB, ``mptcp cubic 20M/20ms + 2M/600ms``
    held 1.28-1.54 MB in every sample, never more).  Default False (the preset's): data enters the connection as a
    subflow takes it, while the connection's buffer has a free byte.

    ``slow_start_after_idle``: Linux's window restart when data is entailed on a subflow idle for longer than its
    RTO, and CUBIC's epoch moved on by the idle time
    (:func:`~cmtlab.sim.mechanisms.schedulers.linux_idle_restart.restart_after_idle`); counted in :attr:`idle_restarts`.
    Default False (the preset's).

    ``cubic_tx_start``: CUBIC's ``CA_EVENT_TX_START`` on its own — a subflow handed data with nothing outstanding moves
    its CUBIC epoch on by the time since its last send
    (:func:`~cmtlab.sim.mechanisms.schedulers.linux_idle_restart.cubic_tx_start`), as Linux's CUBIC does whatever
    ``tcp_slow_start_after_idle`` says; with ``slow_start_after_idle`` the restart does it too.  Default False (the
    preset's: True).  An MPTCP subflow that waits for data while its window is open (the scheduler hands another
    subflow the data, or the connection's buffer is full) otherwise comes back on a cubic curve that counted the wait.

    ``sndbuf_expand`` (with ``send_buffers``; :data:`~.linux_send_buffers.EXPANDS`): when a subflow's send buffer
    grows — ``"largest_window"`` (the default, the preset's) with its window, ``"not_cwnd_limited"`` as Linux's
    ``tcp_should_expand_sndbuf`` lets it, only after an ACK whose transmissions left the window not filled, so a
    subflow kept busy by what it holds keeps the buffer it had (:mod:`~.linux_send_buffers`).

    ``connection_send_buffer`` (with ``send_buffers``; default True): whether the connection's send buffer limits
    what is handed out.  ``False`` is a diagnostic (the kernel always has it): the subflows' buffers alone bound
    what the connection holds, which shows how much the connection-level limit costs on a cell.
    """

    def __init__(self, burst_bytes: int = LINUX_SEND_BURST_BYTES, send_buffers: bool = False, join: str = "at_start",
                 memory_check: str = "segment", msk_retransmit: bool = False, connection_send_buffer: bool = True,
                 msk_timer: str = "rto", writer_wakeup: bool = False, slow_start_after_idle: bool = False,
                 writer_chunk_bytes: int = WRITER_CHUNK_BYTES, cubic_tx_start: bool = False,
                 sndbuf_expand: str = "largest_window"):
        if isinstance(burst_bytes, bool) or not isinstance(burst_bytes, int) or burst_bytes < 0:
            raise ValueError(f"burst_bytes must be an integer >= 0, got {burst_bytes!r}")
        if not isinstance(send_buffers, bool):
            raise ValueError(f"send_buffers must be True or False, got {send_buffers!r}")
        if join not in JOINS:
            raise ValueError(f"join must be one of {JOINS}, got {join!r}")
        if memory_check not in MEMORY_CHECKS:
            raise ValueError(f"memory_check must be one of {MEMORY_CHECKS}, got {memory_check!r}")
        if memory_check == "burst" and not send_buffers:
            raise ValueError("memory_check='burst' needs send_buffers=True (a subflow holding data beyond its window)")
        if not isinstance(connection_send_buffer, bool):
            raise ValueError(f"connection_send_buffer must be True or False, got {connection_send_buffer!r}")
        if not isinstance(msk_retransmit, bool):
            raise ValueError(f"msk_retransmit must be True or False, got {msk_retransmit!r}")
        if msk_retransmit and not send_buffers:
            raise ValueError("msk_retransmit=True needs send_buffers=True (its timer runs while the send buffer is full)")
        if msk_timer not in MSK_TIMERS:
            raise ValueError(f"msk_timer must be one of {MSK_TIMERS}, got {msk_timer!r}")
        if msk_timer != "rto" and not msk_retransmit:
            raise ValueError(f"msk_timer={msk_timer!r} needs msk_retransmit=True (it times the connection-level "
                             "retransmission)")
        if not isinstance(writer_wakeup, bool):
            raise ValueError(f"writer_wakeup must be True or False, got {writer_wakeup!r}")
        if writer_wakeup and not (send_buffers and connection_send_buffer):
            raise ValueError("writer_wakeup=True needs send_buffers=True and connection_send_buffer=True (it wakes the "
                             "writer of the connection's send buffer)")
        self.writer_wakeup = writer_wakeup
        if isinstance(writer_chunk_bytes, bool) or not isinstance(writer_chunk_bytes, int) or writer_chunk_bytes < 1:
            raise ValueError(f"writer_chunk_bytes must be an integer >= 1 (bytes per send()), got {writer_chunk_bytes!r}")
        self.writer_chunk_bytes = writer_chunk_bytes
        #: payload bytes the application has written into the connection (``writer_wakeup``), from the first DSN on
        self.written_bytes = 0.0
        if not isinstance(slow_start_after_idle, bool):
            raise ValueError(f"slow_start_after_idle must be True or False, got {slow_start_after_idle!r}")
        self.slow_start_after_idle = slow_start_after_idle
        if not isinstance(cubic_tx_start, bool):
            raise ValueError(f"cubic_tx_start must be True or False, got {cubic_tx_start!r}")
        self.cubic_tx_start = cubic_tx_start
        #: windows restarted after an idle period (:func:`~cmtlab.sim.mechanisms.schedulers.linux_idle_restart.restart_after_idle`)
        self.idle_restarts = 0
        self.memory_check = memory_check
        self.msk_retransmit = msk_retransmit
        self.msk_timer = msk_timer
        self._stale = None  # per subflow: [stale_count, acks_rx when it was counted] (mptcp_pm_subflow_chk_stale)
        self.connection_send_buffer = connection_send_buffer
        self._rtx_ack = -1  # the DATA_ACK the connection-level timer was last reset at
        self._rtx_expiry = 0
        #: ``msk->timer_ival`` (ns) with ``msk_timer="remaining"``: taken at the scheduler's picks, read when
        #: the timer is reset (``TCP_RTO_MIN`` until then, as ``mptcp_init_sock`` sets it)
        self.timer_ival = TCP_RTO_MIN_NS
        #: connection-level retransmissions: timer expiries, and segments sent again by them
        self.msk_rtx_fired = 0
        self.msk_rtx_segments = 0
        self.burst_bytes = burst_bytes
        self.avg_rate = None  # per subflow, bytes/ns
        self.current = None
        self.burst_left = 0
        self.join = join
        if sndbuf_expand not in SNDBUF_EXPANDS:
            raise ValueError(f"sndbuf_expand must be one of {SNDBUF_EXPANDS}, got {sndbuf_expand!r}")
        if sndbuf_expand != "largest_window" and not send_buffers:
            raise ValueError(f"sndbuf_expand={sndbuf_expand!r} needs send_buffers=True (it is when a subflow's send "
                             "buffer grows)")
        self.buffers = LinuxSendBuffers(expand=sndbuf_expand) if send_buffers else None
        if send_buffers:
            #: the connection lets a subflow hold unsent data beyond its window (its send buffer bounds it here)
            self.subflow_send_queues = True
            self.prefetch_segments = 1 << 30

    @staticmethod
    def pacing_rate(sub) -> float:
        """Linux's ``sk_pacing_rate`` (bytes/ns) of a subflow: ratio * cwnd / SRTT."""
        rtt = rtt_ns(sub) or 1.0
        ratio = 2.0 if sub.cwnd < sub.ssthresh // 2 else 1.2
        return ratio * sub.cwnd / rtt

    def wmem_bytes(self, sub) -> float:
        """The subflow's ``sk_wmem_queued`` as this scheduler maps it (see the class docstring)."""
        return self.buffers.wmem_bytes(sub) if self.buffers is not None else sub.in_flight()

    def has_room(self, i: int, sub) -> bool:
        """``sk_stream_memory_free`` of subflow ``i`` as this scheduler maps it (see the class docstring)."""
        return self.buffers.subflow_has_room(i, sub) if self.buffers is not None else _has_room(sub)

    def linger_time_ns(self, i: int, sub) -> float:
        """``wmem_queued / avg_pacing_rate`` of subflow ``i`` (ns)."""
        if self.avg_rate is None or len(self.avg_rate) <= i:
            self.avg_rate = (self.avg_rate or []) + [None] * (i + 1 - len(self.avg_rate or []))
        if self.avg_rate[i] is None:
            self.avg_rate[i] = self.pacing_rate(sub)
        return self.wmem_bytes(sub) / self.avg_rate[i]

    def active_from_ns(self, conn, i: int):
        """When subflow ``i`` can carry data (ns after the first data segment; see ``join``), None: from the start."""
        if self.join == "at_start" or i == 0:
            return None
        subs = conn.subflows
        own = 2 if self.join == "fully_established" else 1
        return int(round((subs[0].path.delay_s + own * subs[i].path.delay_s) * 1e9))

    def timer_ival_ns(self, conn, now_ns: int = 0) -> int:
        """``mptcp_set_timeout``: the longest time a subflow's own timer has to run, ``TCP_RTO_MIN`` when none has one
        pending.  ``msk_timer="rto"``: each subflow's RTO while it has data outstanding; ``"remaining"`` (Linux,
        ``mptcp_timeout_from_subflow``): what is left of each subflow's pending timer (``icsk_timeout - jiffies``,
        :func:`pending_timer_ns`: a loss probe or RACK reordering timeout armed before the RTO counts), a subflow
        counted stale (``stale_count``, :meth:`_check_stale`) left out."""
        tout = 0
        if self.msk_timer == "rto":
            for sub in conn.subflows:
                if sub.high > sub.una and sub.rto > tout:
                    tout = sub.rto
        else:
            stale = self._stale
            for i, sub in enumerate(conn.subflows):
                if stale is not None and i < len(stale) and stale[i][0] != 0:
                    continue
                at = pending_timer_ns(sub)
                if at is not None and at - now_ns > tout:
                    tout = at - now_ns
        return tout if tout > 0 else TCP_RTO_MIN_NS

    def _reset_interval_ns(self, conn, now_ns: int) -> int:
        """The interval the connection's timer is reset to (``mptcp_reset_rtx_timer``): ``"rto"``: computed now;
        ``"remaining"`` (Linux): ``msk->timer_ival`` as last taken (:meth:`_take_timer_ival`), not recomputed."""
        return self.timer_ival if self.msk_timer == "remaining" else self.timer_ival_ns(conn, now_ns)

    def _take_timer_ival(self, conn, now_ns: int) -> None:
        """``mptcp_set_timeout`` where Linux calls it: at every pick of a subflow for new data
        (``mptcp_subflow_get_send``, ``__mptcp_set_timeout``) and between the data fragments one pick hands to it
        (``__subflow_push_pending``) — before ``tcp_push`` sends them, so on the subflows' timers as the pick
        found them: here at every pick."""
        if self.msk_timer == "remaining":
            self.timer_ival = self.timer_ival_ns(conn, now_ns)

    def _check_stale(self, conn) -> None:
        """``mptcp_pm_subflow_chk_stale`` for every subflow with data outstanding or queued, as
        ``mptcp_subflow_get_retrans`` calls it when the connection's timer fires: the first call counts the subflow
        stale once and notes its last ACK (``rcv_tstamp``; here its count of ACKs received), a later one counts it
        again if no ACK came since, else clears the count."""
        subs = conn.subflows
        if self._stale is None or len(self._stale) != len(subs):
            self._stale = [[0, -1] for _ in subs]
        for i, sub in enumerate(subs):
            if sub.una == sub.app_tail:
                continue
            st = self._stale[i]
            if st[0] == 0:
                st[0], st[1] = 1, sub.acks_rx
            elif st[1] == sub.acks_rx:
                st[0] += 1
            else:
                st[0] = 0

    def _msk_retransmit(self, conn, now_ns: int) -> None:
        """``__mptcp_retrans``: the head data fragment's data from the DATA_ACK on, again, on the first idle subflow."""
        idle = None
        for i, sub in enumerate(conn.subflows):
            start = self.active_from_ns(conn, i)
            if (start is None or now_ns >= start) and sub.una == sub.app_tail:
                idle = sub
                break
        if idle is None:
            return
        first = conn.data_ack_seen
        per_frag = max(1, MPTCP_DFRAG_BYTES // conn.seg)
        end = min((first // per_frag + 1) * per_frag, conn.next_dsn)
        if end <= first:
            return
        m = conn.maps[idle.index]
        for dsn in range(first, end):
            m.append(dsn)
        idle.app_tail += end - first
        conn.reinjections += end - first
        self.msk_rtx_segments += end - first
        conn.queue.schedule(now_ns, now_ns, lambda t, sub=idle: sub.send_pending(t))

    def _writer_has_room(self, conn) -> bool:
        """Whether the connection has data for a subflow.  Without ``writer_wakeup``: while its send buffer has
        room (``sk_stream_memory_free``), the application's data entering as a subflow takes it.  With it: a
        segment the application has written and no subflow has taken yet, the application writing first if
        :meth:`_write` lets it."""
        if not self.writer_wakeup:
            return self.buffers.connection_has_room(conn)
        seg = conn.seg
        if self.written_bytes < conn.next_dsn * seg:
            self.written_bytes = float(conn.next_dsn * seg)
        if self.written_bytes < (conn.next_dsn + 1) * seg:
            self._write(conn)
        return self.written_bytes >= (conn.next_dsn + 1) * seg

    def _write(self, conn) -> None:
        """The testbed's writer (``writer_wakeup``): while the connection is writeable
        (:meth:`LinuxSendBuffers.writeable`) one ``send()`` more, up to ``writer_chunk_bytes``, stopping when the
        buffer is full."""
        b = self.buffers
        per_byte = b.connection_wmem_per_byte
        acked = conn.data_ack_seen * conn.seg
        while True:
            held = (self.written_bytes - acked) * per_byte
            sndbuf = b.connection_sndbuf_bytes(conn)
            if not b.writeable(held, sndbuf):
                return
            self.written_bytes += min(self.writer_chunk_bytes, (sndbuf - held) / per_byte)

    def select(self, conn, now_ns: int):
        subs = conn.subflows
        if self.avg_rate is None or len(self.avg_rate) != len(subs):
            self.avg_rate = [None] * len(subs)
        if self.msk_retransmit and conn.data_ack_seen != self._rtx_ack:
            self._rtx_ack = conn.data_ack_seen  # a DATA_ACK advanced: __mptcp_clean_una resets the timer
            self._rtx_expiry = now_ns + self._reset_interval_ns(conn, now_ns)
        if self.buffers is not None and self.connection_send_buffer and not self._writer_has_room(conn):
            if self.msk_retransmit:
                if now_ns >= self._rtx_expiry:
                    self.msk_rtx_fired += 1
                    if self.msk_timer != "rto":
                        self._check_stale(conn)
                    # __mptcp_retrans: mptcp_clean_una_wakeup resets the timer first, then the fragment goes out
                    self._rtx_expiry = now_ns + self._reset_interval_ns(conn, now_ns)
                    self._msk_retransmit(conn, now_ns)
                return HoldUntil(self._rtx_expiry)
            return None  # the application waits for memory: nothing new to schedule until a DATA_ACK
        if self.current is not None and self.burst_left > 0:  # the burst goes on while the subflow can send
            sub = subs[self.current]
            if self.memory_check == "burst" or self.has_room(self.current, sub):
                return self.current
        best, best_t = None, None
        joining = None
        for i, sub in enumerate(subs):
            start = self.active_from_ns(conn, i)
            if start is not None and now_ns < start:
                joining = start if joining is None or start < joining else joining
                continue
            t = self.linger_time_ns(i, sub)
            if best is None or t < best_t:
                best, best_t = i, t
        sub = subs[best]
        if self.msk_retransmit:
            self._take_timer_ival(conn, now_ns)
        if not self.has_room(best, sub):
            self.current, self.burst_left = None, 0
            return HoldUntil(joining) if joining is not None else None
        window = (conn.data_ack_seen + conn.rcvbuf_segs - conn.next_dsn) * conn.seg
        burst = min(self.burst_bytes, max(window, 0))
        if burst:
            wmem = self.wmem_bytes(sub)
            self.avg_rate[best] = (self.avg_rate[best] * wmem + self.pacing_rate(sub) * burst) / (burst + wmem)
        self.current, self.burst_left = best, burst
        return best

    def on_sent(self, conn, subflow: int, dsn: int, now_ns: int) -> None:
        if subflow == self.current:
            self.burst_left -= conn.seg
        if self.slow_start_after_idle or self.cubic_tx_start:
            sub = conn.subflows[subflow]
            if sub.una == sub.high and sub.app_tail == sub.high + 1:  # the first data entailed on an idle subflow
                if self.slow_start_after_idle:
                    self.idle_restarts += restart_after_idle(sub, now_ns)  # CUBIC's epoch moves on too
                else:
                    cubic_tx_start(sub, now_ns)


__all__ = ["LinuxScheduler", "pending_timer_ns", "MSK_TIMERS", "LINUX_SEND_BURST_BYTES", "JOINS", "MEMORY_CHECKS", "MPTCP_DFRAG_BYTES", "TCP_RTO_MIN_NS"]
