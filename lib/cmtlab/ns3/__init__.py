"""The book's scenarios in ns-3 3.44: one TCP NewReno flow striped below TCP over ``n`` links.

Song et al., sec. 5 and Fig. 5: two endpoints joined by ``n`` point-to-point links; at each
endpoint a virtual network device (VND) owns the IP address of the TCP connection; each IP
packet the VND gets is wrapped in a UDP datagram and sent over one of the point-to-point
devices, chosen round-robin; the peer unwraps it and hands it to its IP stack.  This package
builds exactly that in ns-3 (PyPI ``ns3==3.44.post0``, cppyy bindings) for a
:class:`~cmtlab.scenario.StripedScenario` and returns the same
:class:`~cmtlab.scenario.TransferResult` as :mod:`cmtlab.sim` (``simulator="ns-3"``)::

    from cmtlab import ns3
    r = ns3.simulate_striped([10e6, 5e6], [0.020, 0.060], transfer_bytes=5_000_000)
    r.throughput_bps            # ≈ 8.2e6 with RFC NewReno (no SACK, no limited transmit)
    ns3.simulate_striped([10e6, 5e6], [0.020, 0.060], transfer_bytes=5_000_000,
                         options="ns3-3.44-defaults").throughput_bps      # ≈ 0.3e6

Topology and mapping (all set per object, no ``Config::SetDefault``; see :mod:`._glue`)
---------------------------------------------------------------------------------------
* **Links.**  ``PointToPointNetDevice`` pairs, ``DataRate`` = ``bandwidths_bps[i]`` (rounded to
  an integer bit/s), channel ``Delay`` = the one-way delay of
  :meth:`StripedScenario.one_way_delays_s`: ``delays_s`` are *round-trip* propagation delays,
  so a link carrying data one way and ACKs the other gets ``d/2`` in each direction; with
  ``ack_path="ideal"`` the link gets ``d`` forward and the ACKs return over one extra
  point-to-point link of 1 Tbit/s and zero delay used only receiver→sender (the model's
  zero reverse delay, Song sec. 3), so the round trip is still ``d``.
* **Queues.**  Each device transmits from a ``DropTailQueue<Packet>`` with
  ``MaxSize = queue_packets`` packets (ns-3's default is 100p); the packet being serialised is
  not in the queue.  No queue disc: the devices are built without ``PointToPointHelper`` and
  addressed without ``Ipv4AddressHelper``, so the traffic-control layer has no root queue
  disc (ns-3 3.44's helper would install FqCoDel, 3.27/3.28's pfifo_fast, 1000 packets) and
  no flow control; every run checks that no queue disc is installed.
* **Tunnel.**  One ``VirtualNetDevice`` per node (addresses 10.9.0.1/.2) whose send callback
  wraps the IP packet in UDP (port 4789) and sends it from the UDP socket bound to the chosen
  link.  Data: round-robin over all links; ACKs: per ``ack_path`` (``round_robin``, ``first``,
  ``fastest`` = smallest round-trip delay, ``ideal``).  SYNs and the sender's handshake ACK go
  over link 0 without advancing the round robin, so data segment ``k`` uses link ``k mod n``.
  VND MTU = link MTU − 28; link MTU = max(1500, largest packet), so nothing is fragmented.
* **Wire sizes.**  A full data segment is ``segment_bytes`` + 20 (TCP) + 20 (IP) [+ 12
  timestamps] [+ 28 UDP/IP tunnel] + 2 (PPP) bytes = :meth:`StripedScenario.data_packet_bytes`
  (checked by the tests on the devices' ``PhyTxBegin`` trace).  Checksums stay off (ns-3
  default; they do not change sizes).
* **TCP.**  ``TcpNewReno`` (ns-3 3.44 defaults to CUBIC), ``SegmentSize`` = ``segment_bytes``,
  ``InitialSlowStartThreshold`` = ``ssthresh_bytes``, ``DelAckCount`` = ``m_ack``,
  ``TcpNoDelay`` true (Nagle off; the sender only ever writes whole segments except the last),
  ``WindowScaling`` true (so a ``receive_buffer_bytes`` above 65535 is advertised in full),
  ``UseEcn`` Off, pacing off (``TcpSocketState::EnablePacing`` default false, not touched),
  ``DataRetries``/``ConnCount`` 10^9 (ns-3 would otherwise abort the connection after 6
  consecutive timeouts).  **Initial window:** ns-3's ``InitialCwnd`` counts segments; it is
  set to ``initial_window_bytes // segment_bytes`` and, when ``initial_window_bytes`` is not
  a whole number of segments, the sender socket (a ``TcpSocketBase`` subclass) sets ``cWnd``
  to ``initial_window_bytes`` just before the first data segment.
* **TcpOptions.**  ``sack`` → ``TcpSocketBase::Sack``; ``sack_loss_detection`` is what ns-3
  does whenever SACK is on (``TcpTxBuffer::IsLost`` in ``DupAck``), so ``sack=True,
  sack_loss_detection=False`` raises ``ValueError``; ``limited_transmit`` →
  ``LimitedTransmit``, which ns-3 consults only without SACK — with SACK the RFC 6675 pipe
  lets new segments out on duplicate ACKs anyway, so ``sack=True, limited_transmit=False``
  raises ``ValueError`` too; ``recovery`` → ``TcpL4Protocol::RecoveryType``
  ``TcpClassicRecovery`` / ``TcpPrrRecovery``; ``timestamps`` → ``Timestamp``; ``min_rto_s``
  → ``MinRto``; ``clock_granularity_s`` → ``ClockGranularity``; ``initial_rto_s`` →
  ``RttEstimator::InitialEstimation`` and ``ConnTimeout`` (SYN timeout); ``delayed_ack_timeout_s``
  → ``DelAckTimeout``; ``dupack_threshold`` → ``ReTxThreshold``;
  ``send_buffer_bytes``/``receive_buffer_bytes`` → ``SndBufSize``/``RcvBufSize``;
  ``immediate_ack_on_out_of_order`` is hard-wired on in ``TcpSocketBase::ReceivedData``, so
  ``False`` raises ``ValueError``.
* **Loss.**  A ``RateErrorModel`` (``ERROR_UNIT_PACKET`` or ``ERROR_UNIT_BIT``, which drops a
  packet of ``L`` wire bytes with probability ``1-(1-rate)^(8L)``, as
  :meth:`LossModel.drop_probability`) as the *receive* error model of the receiver's device of
  each link, i.e. the data direction only, enabled once the connection is established (the
  SYN cannot be lost).  Its random stream is ``AssignStreams(link index)`` under
  ``RngSeedManager`` seed 1, run ``scenario.seed + 1``: the same seed gives the same run, in
  this process or any other.

Measurement
-----------
``completion_time_s`` = time the receiver holds the last byte in order − time the first
data segment starts onto its link.  (It is handed to IP at the same instant as the
handshake's final ACK, which is ahead of it in link 0's queue; starting the clock on the wire
excludes that piece of the handshake, so a one-segment transfer takes exactly serialisation +
one-way delay.)  ``data_segments_sent`` counts TCP ``Tx`` events with payload (until
completion), ``retransmissions`` those not above the highest byte sent before,
``fast_retransmits`` the entries into ``CA_RECOVERY``, ``timeouts`` the RTO expiries acted on
(``TcpSocketBase::ReTxTimeout`` while data is outstanding), ``spurious_retransmissions`` the
data segments that reached the receiver's IP layer although it already held all their bytes
(a retransmission that is itself lost is not counted).  ``extra`` has per-link packet counts
(``link_data_packets``, ``link_ack_packets``; scalars ``link{i}_packets`` = data-direction
packets of link ``i``, SYN and handshake ACK included), the largest wire size per link, queue
drops (``queue_drops`` data direction, ``ack_queue_drops``), ``loss_drops``, the number of
simulator ``events`` and ``segments_per_second`` (data segments per wall-clock second).  ``trace=True`` adds tidy frames ``"cwnd"``
(``time_s, cwnd_bytes, ssthresh_bytes``), ``"congestion_state"`` and ``"packets"`` (one row
per data segment sent: ``time_s, seq_bytes, length_bytes, retransmission, link``).

Behaviour of ns-3's TCP worth knowing when comparing with :mod:`cmtlab.sim`: the handshake
gives an RTT sample, so data never sees ``initial_rto_s`` unless the SYN is retransmitted
(the RTO after the handshake is ``max(min_rto_s, 3 × RTT_syn)``); the receiver ACKs the first
data segment at once; slow start grows ``cwnd`` by one segment per ACK that acknowledges new
data (``TcpNewReno::SlowStart`` with ``segmentsAcked`` ≥ 1, so delayed ACKs slow it down) and
congestion avoidance by ``segment²/cwnd`` per such ACK; the RTO backs off to at most 60 s;
with timestamps RTT samples have 1 ms resolution.

Cost: importing ns-3 takes ~10–15 s and compiling the glue ~2–3 s, once per process (first
:func:`run`); later runs in the same process pay only the simulation.
"""

from __future__ import annotations

from pathlib import Path

from .. import scenario as _scenario_module
from ..scenario import TransferResult, round_trips, striped_scenario
from .engine import (attribute_defaults, check_supported, load, ns3_version, run,  # noqa: F401
                     unsupported_options)

__all__ = ["run", "simulate_striped", "CODE_VERSION", "attribute_defaults", "check_supported",
           "unsupported_options", "ns3_version", "load"]


def _code_version() -> str:
    from ..sweep import code_version
    return code_version(Path(__file__).parent, _scenario_module, extra=(f"ns3=={ns3_version()}",))


#: Short hash of this package's sources, ``cmtlab/scenario.py`` and the installed ns-3 version.
CODE_VERSION: str = _code_version()


def simulate_striped(bandwidths_bps, rtts_s=None, *, transfer_bytes, segment_bytes=536, initial_window_bytes=536,
                     ssthresh_bytes=65535, m_ack=2, seed=0, trace=False, **options) -> TransferResult:
    """One transfer of ``transfer_bytes`` over the links, simulated in ns-3 3.44.

    Same signature as :func:`cmtlab.sim.simulate_striped`.  ``bandwidths_bps`` are link rates
    (bit/s); ``rtts_s`` are **round-trip** propagation delays (s; ``delays_s=`` is deprecated):
    each link gets ``d/2`` one way in each direction, or ``d`` forward with ``ack_path="ideal"`` (ACKs then return over
    a separate 1 Tbit/s zero-delay link).  ``**options`` are the other keywords of
    :func:`~cmtlab.scenario.striped_scenario` (``queue_packets``, ``loss``, ``tunnel``,
    ``options``, ``max_sim_time_s``) and any :class:`~cmtlab.scenario.TcpOptions` field;
    ``trace=True`` records the traces described in the module docstring.  Bad input raises
    ``ValueError`` naming the parameter, also for option values ns-3 cannot represent.
    """
    sc = striped_scenario(bandwidths_bps, round_trips(rtts_s, options, "simulate_striped"),
                          transfer_bytes=transfer_bytes, segment_bytes=segment_bytes,
                          initial_window_bytes=initial_window_bytes, ssthresh_bytes=ssthresh_bytes, m_ack=m_ack,
                          seed=seed, **options)
    return run(sc, trace=trace)
