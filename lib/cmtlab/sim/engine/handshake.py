"""The connection set-up both topologies model (SYN, SYN-ACK, the handshake's final ACK), as ns-3 has it.

The data transfer starts after a three-way handshake that the engine does not simulate packet by
packet but accounts for exactly as ns-3's run of the same scenario would:

* the RTT estimator starts with the SYN/SYN-ACK round trip over the flow's first data and ACK
  paths (RFC 6298 with the handshake's sample, as ns-3 and Linux do) — on ns-3's millisecond
  timestamp clock when timestamps are on (:func:`rtt_sample_ns`);
* the handshake's final ACK leaves on the first data link just before the first window: it
  delays the first data segment on that link by its serialisation time and takes one loss draw;
  the clock's zero is when the first data segment can start, so the run starts at
  :func:`start_ns` (below zero);
* the phase of the millisecond timestamp clock is ns-3's absolute time (SYN sent at 0).

SYN and SYN-ACK carry the window-scale option, and SACK-permitted and timestamps when enabled,
padded to 4 bytes (:func:`syn_bytes`).
"""

from __future__ import annotations

from typing import NamedTuple

from ...scenario import TIMESTAMP_OPTION_BYTES


def syn_bytes(bare_ack_bytes: int, options) -> int:
    """Wire size of the SYN (and SYN-ACK): a pure ACK's size without its timestamp option, plus the
    SYN options (window scale 3 B, SACK-permitted 2 B, timestamps 10 B) padded to 4 bytes."""
    syn_opts = 3 + (2 if options.sack else 0) + (10 if options.timestamps else 0)
    return bare_ack_bytes - (TIMESTAMP_OPTION_BYTES if options.timestamps else 0) + 4 * ((syn_opts + 3) // 4)


def round_trip_ns(forward, reverse, syn: int) -> int:
    """SYN over the links of ``forward`` and SYN-ACK over ``reverse``: serialisation and propagation per hop (ns)."""
    t = 0
    for lk in forward:
        t += lk.serialisation_ns(syn) + lk.propagation_ns()
    for lk in reverse:
        t += lk.serialisation_ns(syn) + lk.propagation_ns()
    return t


def rtt_sample_ns(round_trip: int, timestamps: bool) -> int:
    """The sender's first RTT sample: the exact round trip, or ns-3's measurement with the
    millisecond timestamp clock (whole milliseconds, at least 1 µs)."""
    return ((round_trip // 1_000_000) * 1_000_000 or 1000) if timestamps else round_trip


def start_ns(first_links, final_ack_bytes: int) -> int:
    """When the run starts (ns, <= 0): the handshake's final ACKs, one on each flow's first link, all
    end by time 0, the moment the first data segment can start on the slowest of those links."""
    return -max(lk.serialisation_ns(final_ack_bytes) for lk in first_links)


class Setup(NamedTuple):
    """The connection set-up of a run's flows (:func:`setup`): when the run starts (ns, <= 0), each flow's
    phase of the millisecond timestamp clock (ns) and its first RTT sample (ns; ``None``: no sample)."""

    start_ns: int
    ts_offsets_ns: tuple
    rtt_samples_ns: tuple


def setup(forward, reverse, syn: int, final_ack_bytes: int, *, timestamps: bool, sample: bool = True) -> Setup:
    """The set-up of each flow ``f`` whose SYN crosses the links ``forward[f]`` and SYN-ACK ``reverse[f]``
    (the first of ``forward[f]`` also carries the handshake's final ACK of ``final_ack_bytes``).

    ``sample=False``: no set-up at all — the run starts at 0, the senders run on their initial RTO and
    every link starts idle.
    """
    n = len(forward)
    if not sample:
        return Setup(0, (0,) * n, (None,) * n)
    exact = [round_trip_ns(forward[f], reverse[f], syn) for f in range(n)]
    start = start_ns([forward[f][0] for f in range(n)], final_ack_bytes)
    return Setup(start, tuple(h - start for h in exact), tuple(rtt_sample_ns(h, timestamps) for h in exact))


__all__ = ["syn_bytes", "round_trip_ns", "rtt_sample_ns", "start_ns", "Setup", "setup"]
