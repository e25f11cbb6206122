"""Linux's fixed-point CUBIC increase: ``bictcp_update`` and ``tcp_cong_avoid_ai`` (``net/ipv4/tcp_cubic.c``,
``net/ipv4/tcp_cong.c``), as :class:`~.cubic.Cubic` runs them with ``arithmetic="linux"``.

RFC 9438's curve (eq. 1, 2) in Linux's integers::

    t      = ((jiffies - epoch_start) + usecs_to_jiffies(delay_min)) * 1024 / HZ     (1/1024 s)
    K      = cubic_root(cube_factor * (last_max_cwnd - cwnd_epoch))                  (1/1024 s)
    target = origin_point +- (cube_rtt_scale * |t - K|**3) >> 40                       (segments)
    cnt    = cwnd / (target - cwnd)   if target > cwnd   else 100 * cwnd              (integer division)

with ``cube_rtt_scale = bic_scale * 10 = 410`` (C = 410 / 1024 = 0.4) and ``cube_factor = 2**40 / 410``;
then ``cnt <= 20`` while ``last_max_cwnd`` is 0, the Reno-friendly bound (``tcp_friendliness``: ``tcp_cwnd``
grows by one every ``cwnd * beta_scale >> 3`` acknowledged segments, ``beta_scale = 8 * (1024 + 717) / 3 /
(1024 - 717) = 15``; if it is ahead, ``cnt <= cwnd / (tcp_cwnd - cwnd)``) and ``cnt >= 2``.  ``cnt`` is
recomputed at most once per jiffy, and not at all while the window is unchanged and less than ``HZ / 32``
jiffies have passed since the last time.  ``tcp_cong_avoid_ai(cnt, acked)`` then adds one segment per ``cnt``
acknowledged segments, keeping the remainder in ``snd_cwnd_cnt`` (which a window reduction clears:
``tcp_init_cwnd_reduction``).

Where this differs from the floating-point curve: the integer division in ``cnt`` (a window 120 segments behind
a target 28 ahead grows 1/4 per segment, not 28/120), the stale ``cnt`` between recomputations, time in
jiffies and ``delay_min`` rounded up to one, and the Reno-friendly estimate in whole segments.
``cubic_root`` here is the exact integer cube root (Linux's table lookup and Newton step are within 0.2 % of it).
"""

from __future__ import annotations

from .tcp_cong import tcp_cong_avoid_ai

#: The testbed kernel's ``CONFIG_HZ`` (``/proc/config.gz``: ``CONFIG_HZ_250=y``): jiffies of 4 ms.
LINUX_HZ = 250
NS_PER_JIFFY = 1_000_000_000 // LINUX_HZ
#: ``BICTCP_HZ``: CUBIC's time unit is 1/1024 s.
BICTCP_HZ = 10
#: ``cube_rtt_scale = bic_scale * 10`` with ``bic_scale = 41``.
CUBE_RTT_SCALE = 41 * 10
#: ``cube_factor = 2**(10 + 3 * BICTCP_HZ) / cube_rtt_scale``.
CUBE_FACTOR = (1 << (10 + 3 * BICTCP_HZ)) // CUBE_RTT_SCALE
#: ``beta_scale = 8 * (BICTCP_BETA_SCALE + beta) / 3 / (BICTCP_BETA_SCALE - beta)`` with ``beta = 717``.
BETA_SCALE_FRIENDLY = 8 * (1024 + 717) // 3 // (1024 - 717)


def integer_cube_root(a: int) -> int:
    """The largest integer ``r`` with ``r**3 <= a`` (``a >= 0``)."""
    if a < 0:
        raise ValueError(f"integer_cube_root needs a >= 0, got {a}")
    r = round(a ** (1.0 / 3.0))
    while r ** 3 > a:
        r -= 1
    while (r + 1) ** 3 <= a:
        r += 1
    return r


def usecs_to_jiffies(us: int) -> int:
    """Linux's ``usecs_to_jiffies``: rounded up."""
    return -(-us // (1_000_000 // LINUX_HZ))


class BictcpUpdate:
    """The state ``bictcp_update`` keeps beside the epoch (``struct bictcp``: ``cnt``, ``last_cwnd``,
    ``last_time``, ``bic_K``, ``bic_origin_point``, ``ack_cnt``, ``tcp_cwnd``) and ``tcp_sock.snd_cwnd_cnt``."""

    def __init__(self):
        self.cnt = 0
        self.last_cwnd = 0
        self.last_time = 0
        self.k = 0
        self.origin = 0
        self.ack_cnt = 0
        self.tcp_cwnd = 0
        self.snd_cwnd_cnt = 0

    def reset(self) -> None:
        """``bictcp_reset`` (entering ``TCP_CA_Loss``): everything but ``snd_cwnd_cnt`` forgotten."""
        count = self.snd_cwnd_cnt
        self.__init__()
        self.snd_cwnd_cnt = count

    def reset_count(self) -> None:
        """``tcp_init_cwnd_reduction``: ``snd_cwnd_cnt = 0``."""
        self.snd_cwnd_cnt = 0

    def update(self, now_ns: int, epoch_ns: int, new_epoch: bool, cwnd: int, acked: int, last_max_cwnd: int,
               delay_min_us: int) -> bool:
        """``bictcp_update(ca, cwnd, acked)``: sets ``cnt`` (segments acknowledged per segment of growth).
        ``epoch_ns``: the epoch's start (``epoch_start``; CUBIC's ``CA_EVENT_TX_START`` may have moved it on), or,
        with ``new_epoch`` (``epoch_start`` is 0), this ACK's time.  Returns whether this call started the epoch
        (it does not while the window is unchanged and ``HZ / 32`` has not passed since the last update)."""
        now_j = now_ns // NS_PER_JIFFY
        self.ack_cnt += acked
        if self.last_cwnd == cwnd and now_j - self.last_time <= LINUX_HZ // 32:
            return False
        if not new_epoch and now_j == self.last_time:
            self._friendliness(cwnd)
            return False
        self.last_cwnd = cwnd
        self.last_time = now_j
        if new_epoch:
            self.ack_cnt = acked
            self.tcp_cwnd = cwnd
            if last_max_cwnd <= cwnd:
                self.k = 0
                self.origin = cwnd
            else:
                self.k = integer_cube_root(CUBE_FACTOR * (last_max_cwnd - cwnd))
                self.origin = last_max_cwnd
        t = now_j - epoch_ns // NS_PER_JIFFY + usecs_to_jiffies(delay_min_us)
        t = (t << BICTCP_HZ) // LINUX_HZ
        offs = self.k - t if t < self.k else t - self.k
        delta = (CUBE_RTT_SCALE * offs * offs * offs) >> (10 + 3 * BICTCP_HZ)
        target = self.origin - delta if t < self.k else self.origin + delta
        self.cnt = cwnd // (target - cwnd) if target > cwnd else 100 * cwnd
        if last_max_cwnd == 0 and self.cnt > 20:
            self.cnt = 20  # "increase cwnd 5% per RTT"
        self._friendliness(cwnd)
        return new_epoch

    def _friendliness(self, cwnd: int) -> None:
        delta = (cwnd * BETA_SCALE_FRIENDLY) >> 3
        if delta > 0 and self.ack_cnt > delta:  # Linux: while (ack_cnt > delta) { ack_cnt -= delta; tcp_cwnd++; }
            n = (self.ack_cnt - 1) // delta
            self.ack_cnt -= n * delta
            self.tcp_cwnd += n
        if self.tcp_cwnd > cwnd:
            max_cnt = cwnd // (self.tcp_cwnd - cwnd)
            if self.cnt > max_cnt:
                self.cnt = max_cnt
        if self.cnt < 2:
            self.cnt = 2

    def cong_avoid_ai(self, cwnd: int, acked: int) -> int:
        """``tcp_cong_avoid_ai(tp, cnt, acked)``: the new window (segments)."""
        cwnd, self.snd_cwnd_cnt = tcp_cong_avoid_ai(cwnd, self.snd_cwnd_cnt, self.cnt, acked)
        return cwnd


__all__ = ["BictcpUpdate", "LINUX_HZ", "integer_cube_root", "usecs_to_jiffies"]
