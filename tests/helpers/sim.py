"""Helpers shared by the tests of :mod:`cmtlab.sim` (not a test module)."""

from __future__ import annotations

import hashlib

from cmtlab.scenario import striped_scenario
from cmtlab.sim import DROPPED_LOSS, LinkModel, PointToPointLink, Simulation
from cmtlab.sim.net.link import NO_ORDER


class DropData(LinkModel):
    """A point-to-point link that loses chosen *data* packets (by their order on this link).

    Data packets are recognised by size (``>= min_bytes``); the handshake ACK and pure
    ACKs are never dropped.  ``drop`` holds 0-based indices among this link's data packets
    (originals and retransmissions in transmission order).
    """

    def __init__(self, rate_bps, delay_s, drop, queue_packets=100, min_bytes=200):
        self.inner = PointToPointLink(rate_bps, delay_s, queue_packets)
        self.drop = set(drop)
        self.min_bytes = min_bytes
        self.n_data = 0
        self.packets = self.bytes = self.queue_drops = self.loss_drops = 0
        self.last_start_ns = 0

    def transmit(self, now_ns, wire_bytes, order_ns=NO_ORDER):
        arr = self.inner.transmit(now_ns, wire_bytes, order_ns)
        self.last_start_ns = self.inner.last_start_ns
        self.packets, self.bytes, self.queue_drops = self.inner.packets, self.inner.bytes, self.inner.queue_drops
        if wire_bytes >= self.min_bytes:
            i = self.n_data
            self.n_data += 1
            if arr >= 0 and i in self.drop:
                self.loss_drops += 1
                return DROPPED_LOSS
        return arr

    def serialisation_ns(self, wire_bytes):
        return self.inner.serialisation_ns(wire_bytes)

    def propagation_ns(self):
        return self.inner.propagation_ns()


def one_link(drop=(), *, rate=10e6, rtt=0.1, segments=40, trace=True, **kw):
    """Run a single-link scenario (no tunnel) whose data packets ``drop`` are lost; return (result, sim)."""
    kw.setdefault("tunnel", False)
    sc = striped_scenario([rate], [rtt], transfer_bytes=536 * segments, **kw)
    link = DropData(rate, rtt / 2, drop, queue_packets=sc.queue_packets)
    sim = Simulation(sc, trace=trace, links=[link])
    return sim.run(), sim


# ---------------------------------------------------------------- golden hashes per trace
def _h(blob: bytes) -> str:
    return hashlib.sha256(blob).hexdigest()[:12]


def golden_parts(row: dict, traces: dict, volatile) -> dict:
    """One short hash per part of a run: ``"row"`` (the counters) and ``"trace:<name>"`` per trace.

    A golden test compares these, so a failure names the trace (or the counters) that changed.
    """
    out = {"row": _h(repr(sorted((k, v) for k, v in row.items() if k not in volatile)).encode())}
    for name in sorted(traces):
        out[f"trace:{name}"] = _h(traces[name].to_csv(index=False, float_format="%.12g").encode())
    return out


def golden_mismatch(case: str, expected: dict, actual: dict) -> str:
    """A message naming the scenario and every part whose hash changed ("" when none)."""
    keys = sorted(set(expected) | set(actual))
    changed = [k for k in keys if expected.get(k) != actual.get(k)]
    if not changed:
        return ""
    lines = [f"scenario {case!r}: {len(changed)} of {len(keys)} parts changed:"]
    lines += [f"  {k}: pinned {expected.get(k)!r}, now {actual.get(k)!r}" for k in changed]
    return "\n".join(lines)


#: Result columns a repeated MPTCP run does not reproduce (left out of the golden fingerprints).
MPTCP_VOLATILE = {"segments_per_second", "code_version", "wall_time_s", "scenario_key"}


def fingerprint(result, volatile=MPTCP_VOLATILE) -> str:
    """sha256 (16 hex) of a result's row (without ``volatile``) and its traces."""
    h = hashlib.sha256()
    row = {k: v for k, v in result.row().items() if k not in volatile}
    h.update(repr(sorted(row.items())).encode())
    for name in sorted(result.traces):
        h.update(name.encode())
        h.update(result.traces[name].to_csv(index=False, float_format="%.12g").encode())
    return h.hexdigest()[:16]
