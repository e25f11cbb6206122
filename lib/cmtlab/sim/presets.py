"""Named simulator presets: every :func:`cmtlab.sim.simulate_mptcp` keyword of a stack someone runs.

``"linux-6.18"`` (:func:`linux`) is today's Linux as the book's testbed runs it (kernel 6.18, upstream MPTCP
with its in-kernel path manager and default scheduler), each mechanism the one the kernel runs where cmtlab.sim
has it, checked against that kernel on the testbed (:mod:`cmtlab.validation.kernel_sim`, the today's-transport
chapter):

* congestion control: CUBIC as Linux runs it (``tcp_cubic.c``: its constants, HyStart's delay and ACK-train
  detection on the round trip of the newest segment an ACK acknowledges or SACKs (``ca_rtt_us``), the delay test on
  the round's smallest sample so far (Linux 5.8 on), at least 5 % growth a round trip before the first loss, the
  reduction computed on the whole-segment window (``bictcp_recalc_ssthresh``), ``W_max`` forgotten after a timeout,
  the epoch moved on when a subflow resumes sending with nothing outstanding (``CA_EVENT_TX_START``, the
  scheduler's ``cubic_tx_start``), the curve in Linux's integers (``bictcp_update`` and ``tcp_cong_avoid_ai``:
  ``arithmetic="linux"``, :mod:`~cmtlab.sim.mechanisms.congestion.bictcp_update`)) or
  Linux's Reno (its count zeroed at each reduction), each growing the window only while the flow
  uses it (``tcp_is_cwnd_limited``), uncoupled on every subflow (upstream Linux has no LIA/OLIA);
* loss detection: RACK-TLP as Linux runs it (``"linux"``: ``tcp_recovery.c``'s RTT samples, the window growth
  around it) with Linux's PRR (``tcp_cwnd_reduction``), Linux's retransmission timer (``SRTT + max(4 RTTVAR,
  200 ms)``, restarted on every ACK of new data and stopped when nothing is outstanding), an initial RTO of
  1 s, the 40 ms delayed-ACK timer;
* MPTCP: the default scheduler (``mptcp_subflow_get_send``) over Linux's autotuned send buffers (each subflow's
  ``tcp_sndbuf_expand``, the connection's their sum) with subflows joining as the in-kernel path manager opens
  them (:class:`~cmtlab.sim.mechanisms.schedulers.linux.LinuxScheduler`);
* sizes: MSS 1448 bytes with timestamps (1460 without), an MPTCP packet's payload :data:`MPTCP_PAYLOAD_DEFICIT_BYTES`
  smaller with :data:`MPTCP_OPTION_BYTES` of DSS option, an initial window of 10 segments, no initial ssthresh,
  buffers up to ``tcp_wmem[2]`` (4 MiB) per subflow and a receive buffer of ``tcp_rmem[2]`` (32 MiB).

MPTCP's connection-level retransmission is on (the scheduler's ``msk_retransmit=True`` with Linux's timer,
``msk_timer="remaining"``): when no DATA_ACK has come for the connection's timer interval — what is left of the
subflows' own pending timers (each subflow's one timer, its loss probe or RACK reordering timeout when armed, else
its RTO), a subflow that made no progress since the last expiry left out, ``TCP_RTO_MIN``
when none is left (``mptcp_set_timeout``, ``mptcp_pm_subflow_chk_stale``) — the head data fragment goes out again
on an idle subflow (``__mptcp_retrans``).  The kernel does this on the testbed: ``MPTcpExtMPTCPRetrans`` and the
receiver's ``MPTcpExtDuplicateData`` count it per run (``cmtlab.today.kernel.kernel_runs(mptcp_counters=True)``).

Not modelled (the kernel has them): receive-buffer autotuning of the window the receiver announces (it starts near
64 KB and grows; here the right-sizing feeds only the quick ACKs, :mod:`cmtlab.sim.tcp.receive_window`),
D-SACK/timestamp undo and F-RTO, pacing, TSO/GSO.  Modelled and off here (the mechanism ledger of the
today's-transport chapter, ``cmtlab.today.kernel.LINUX_MECHANISMS``, shows what each does to the agreement):
``tcp_slow_start_after_idle``, the testbed's writer (a ``send()`` of up to 256 KiB once a third of the connection's
buffer is free), joins that send once fully established, the tail-loss probe re-armed at every transmission of new
data (``loss_detection="linux-probe-on-send"``; the preset arms it on ACKs only).
"""

from __future__ import annotations

from ..scenario import TcpOptions

#: Initial window (RFC 6928, Linux's ``TCP_INIT_CWND``), segments.
LINUX_INITIAL_WINDOW_SEGMENTS = 10
#: Largest autotuned send buffer (``net.ipv4.tcp_wmem[2]``, bytes) and receive buffer (``tcp_rmem[2]``; the
#: testbed's namespaces inherit the host's, 32 MiB).
LINUX_SNDBUF_MAX_BYTES = 4 * 1024 * 1024
LINUX_RCVBUF_MAX_BYTES = 32 * 1024 * 1024
#: MPTCP data packets carry fewer payload bytes than a TCP packet of the same MTU: the DSS option (RFC 8684
#: sec. 3.3) takes option space.  Linux's sender puts a 64-bit data sequence mapping (14 bytes) and a 32-bit
#: DATA_ACK (4 bytes: ``use_64bit_ack`` is set only by a peer that receives 64-bit mappings) after the option's
#: 4-byte head, 22 bytes padded to 24, beside the 12 of the timestamps: 1424 payload bytes in a 1500-byte packet.
#: Measured on the testbed (kernel 6.18): the receiving subflows' ``rcvmss`` is 1424 (``ss -i``), and on the
#: wider table's clean two-path cells the payload delivered per IP byte through the delay lines is 0.9454 to
#: 0.9479 per run (1424/1500 = 0.9493; 0.1 % of the packets are retransmissions; ``kernel_sim.payload_per_ip_byte``)
#: — the values this preset had before, 1410 payload bytes in 1476 (0.955), delivered 0.8 % more than the kernel
#: on those cells.  A packet's payload
#: is MSS - 24 and its wire size payload + headers + 24 option bytes (the pure ACKs carry these 24 too; Linux's
#: carry a 12-byte DSS with a 64-bit DATA_ACK: 12 bytes more per ACK here).
MPTCP_PAYLOAD_DEFICIT_BYTES = 24
MPTCP_OPTION_BYTES = 24
#: Linux's congestion controls: name -> (cmtlab.sim congestion control, its parameters).
LINUX_CONGESTION = {
    "cubic": ("cubic", {"variant": "linux", "hystart": True, "cwnd_validation": True, "hystart_rules": "linux",
                        "initial_growth": True, "forget_on_timeout": True, "hystart_samples": "ca_rtt",
                        "reduce_from": "snd_cwnd", "arithmetic": "linux"}),
    "reno": ("reno", {"reset_count_on_reduction": True, "cwnd_validation": True}),
}
#: Linux's TCP as :class:`~cmtlab.scenario.TcpOptions` fields (timestamps and buffers apart).
LINUX_OPTIONS = dict(sack=True, sack_loss_detection=True, limited_transmit=True, recovery="linux_prr",
                     min_rto_s=0.2, initial_rto_s=1.0, clock_granularity_s=0.2, delayed_ack_timeout_s=0.04,
                     loss_detection="linux", rto_timer="rfc6298", ack_policy="linux")
#: The MPTCP scheduler's parameters: Linux's send buffers and the path manager's joins.
LINUX_SCHEDULER_PARAMS = {"send_buffers": True, "join": "mp_join", "memory_check": "burst", "msk_retransmit": True,
                          "msk_timer": "remaining", "cubic_tx_start": True}


def linux_segment_bytes(*, mptcp: bool, timestamps: bool = True) -> int:
    """Payload bytes of a full data packet: MSS (1500 - 40, - 12 with timestamps), less the MPTCP deficit."""
    mss = 1500 - 40 - (12 if timestamps else 0)
    return mss - MPTCP_PAYLOAD_DEFICIT_BYTES if mptcp else mss


def linux(congestion: str = "cubic", *, mptcp: bool = True, timestamps: bool = True) -> dict:
    """:func:`cmtlab.sim.simulate_mptcp` keywords for Linux 6.18 (module docstring): ``congestion`` ``"cubic"``
    (the default of most distributions) or ``"reno"``; ``mptcp``: an MPTCP connection (else one TCP connection, run
    as a one-path connection with full TCP packets); ``timestamps``: the RFC 7323 option (``net.ipv4.tcp_timestamps``)."""
    if congestion not in LINUX_CONGESTION:
        raise ValueError(f"congestion must be one of {sorted(LINUX_CONGESTION)} (as Linux runs it), got {congestion!r}")
    for name, v in (("mptcp", mptcp), ("timestamps", timestamps)):
        if not isinstance(v, bool):
            raise ValueError(f"{name} must be True or False, got {v!r}")
    cc, params = LINUX_CONGESTION[congestion]
    seg = linux_segment_bytes(mptcp=mptcp, timestamps=timestamps)
    options = TcpOptions(**LINUX_OPTIONS, timestamps=timestamps, send_buffer_bytes=LINUX_SNDBUF_MAX_BYTES,
                         receive_buffer_bytes=LINUX_RCVBUF_MAX_BYTES)
    return dict(congestion=cc, congestion_params=dict(params), scheduler="linux",
                scheduler_params=dict(LINUX_SCHEDULER_PARAMS), options=options, segment_bytes=seg,
                dss_bytes=MPTCP_OPTION_BYTES if mptcp else 0,
                initial_window_bytes=LINUX_INITIAL_WINDOW_SEGMENTS * seg, ssthresh_bytes=1 << 30,
                receive_buffer_bytes=LINUX_RCVBUF_MAX_BYTES)


#: Named presets: name -> function of the keywords above returning ``simulate_mptcp`` keywords.
PRESETS = {"linux-6.18": linux}


def preset(name: str, **kw) -> dict:
    """The ``simulate_mptcp`` keywords of preset ``name`` (:data:`PRESETS`), e.g.
    ``simulate_mptcp(rates, rtts, duration_s=10, **preset("linux-6.18", congestion="cubic"))``."""
    if name not in PRESETS:
        raise ValueError(f"preset must be one of {sorted(PRESETS)}, got {name!r}")
    return PRESETS[name](**kw)


__all__ = ["PRESETS", "preset", "linux", "linux_segment_bytes", "LINUX_CONGESTION", "LINUX_OPTIONS",
           "LINUX_SCHEDULER_PARAMS", "LINUX_INITIAL_WINDOW_SEGMENTS", "LINUX_SNDBUF_MAX_BYTES",
           "LINUX_RCVBUF_MAX_BYTES", "MPTCP_PAYLOAD_DEFICIT_BYTES", "MPTCP_OPTION_BYTES"]
