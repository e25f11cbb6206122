"""What the heterogeneity-aware schedulers (BLEST, ECF, Linux's) read of a subflow, in one place."""

from __future__ import annotations


def rtt_ns(sub) -> float:
    """Smoothed RTT (ns) once the subflow has a sample, else its path's static round trip, else 0."""
    if getattr(sub, "n_rtt_samples", 0) > 0 and sub.srtt > 0:
        return float(sub.srtt)
    path = getattr(sub, "path", None)
    d = getattr(path, "delay_s", None) if path is not None else None
    return float(d) * 1e9 if d else 0.0


def rttvar_ns(sub) -> float:
    """RTT variation (ns, RFC 6298 RTTVAR) once sampled, else 0."""
    return float(sub.rttvar) if getattr(sub, "n_rtt_samples", 0) > 0 else 0.0


def fastest(subs, candidates=None):
    """Index of the lowest-RTT subflow among ``candidates`` (all by default); ties to the lower index."""
    idx = range(len(subs)) if candidates is None else candidates
    best, best_rtt = None, None
    for i in idx:
        r = rtt_ns(subs[i])
        if best is None or r < best_rtt:
            best, best_rtt = i, r
    return best


def connection_window_free_bytes(conn) -> int:
    """Free space of the connection-level (data-sequence) window: the receiver's advertised buffer
    (``conn.rcvbuf_segs`` segments from the last DATA_ACK ``conn.data_ack_seen``) minus the DSNs
    handed out beyond it (``conn.next_dsn``), in bytes."""
    return (conn.data_ack_seen + conn.rcvbuf_segs - conn.next_dsn) * conn.seg
