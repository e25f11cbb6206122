"""The congestion states of a sender (ns-3 ``TcpSocketState::TcpCongState_t``) and its saved record."""

from __future__ import annotations

from typing import NamedTuple

# congestion states (ns-3 TcpSocketState::TcpCongState_t)
OPEN, DISORDER, RECOVERY, LOSS = 0, 1, 2, 3
STATE_NAMES = ("open", "disorder", "recovery", "loss")


class CongestionState(NamedTuple):
    """Immutable record of a sender's congestion state (:meth:`TcpSender.snapshot_congestion_state`).

    Windows in bytes, ``state`` one of ``OPEN``/``DISORDER``/``RECOVERY``/``LOSS``,
    ``recover`` the recovery point (segment index), ``flight_bytes`` the RFC 6675 pipe,
    RTT/RTO values in ns, ``time_ns`` when the snapshot was taken.
    """

    cwnd: int
    ssthresh: int
    state: int
    recover: int
    recover_active: bool
    una: int
    high: int
    flight_bytes: int
    srtt: int
    rttvar: int
    rto: int
    time_ns: int


__all__ = ["OPEN", "DISORDER", "RECOVERY", "LOSS", "STATE_NAMES", "CongestionState"]
