"""Re-injection (``retransmit="reinject"``): retransmitted data sent once more on another subflow.

Retransmissions stay on the subflow that sent the segment (RFC 8684 sec. 3.3.6: a subflow is
a TCP connection); with re-injection, a segment retransmitted by a fast retransmit or timeout is
also sent once more on the other subflow with the most available window (its copy is a new
subflow segment mapped to the same DSN).
"""

from __future__ import annotations


def reinject(conn, now: int, f: int, k: int) -> None:
    """Send the DSN of subflow ``f``'s segment ``k`` once more on the subflow with most window.

    Only a subflow with a whole segment of window, room in its send buffer and no unsent data of
    its own takes the copy; none: no copy.
    """
    dsn = conn.dsn_of(f, k)
    if dsn is None:
        return
    best, best_w = None, 0
    for sub in conn.subflows:
        if sub.index != f:
            w = sub.available_window()
            if w >= sub.seg and w > best_w and (sub.app_tail - sub.una + 1) * sub.seg <= sub.buf_bytes:
                best, best_w = sub, w
    if best is None or best.app_tail != best.high:
        return
    conn.maps[best.index].append(dsn)
    best.app_tail += 1
    conn.reinjections += 1
    best.send_pending(now)


__all__ = ["reinject"]
