"""CUBIC congestion control (RFC 9438), for single-path TCP and as uncoupled MPTCP subflow control.

Equations (RFC 9438 sec. 4; windows in segments, times in seconds)::

    W_cubic(t) = C * (t - K)**3 + W_max                          (eq. 1)
    K          = cbrt((W_max - cwnd_epoch) / C)                  (eq. 2)
    target     = clamp(W_cubic(t + RTT), cwnd, 1.5 * cwnd)       (sec. 4.2)
    W_est     += alpha_cubic * segments_acked / cwnd             (eq. 4, Reno-friendly estimate)
    alpha_cubic = 3 * (1 - beta) / (1 + beta)                    (eq. 3; 1 once W_est >= cwnd_prior)

* congestion avoidance: ``t`` runs from the first ACK of the current congestion-avoidance
  stage (``t_epoch``), when ``cwnd_epoch = cwnd``; if ``W_cubic(t) < W_est`` the flow is in the
  Reno-friendly region and ``cwnd = W_est`` (sec. 4.3), otherwise ``cwnd += (target - cwnd) / cwnd``
  per acknowledged segment (concave and convex regions, sec. 4.4/4.5);
* on a congestion event (fast retransmit or timeout, :meth:`Cubic.ssthresh`): fast convergence
  (sec. 4.7) — ``W_max = cwnd * (1 + beta) / 2`` if ``cwnd < W_max``, else ``W_max = cwnd`` —,
  ``cwnd_prior = cwnd``, ``ssthresh = max(floor(cwnd * beta), 2)`` segments (sec. 4.6: the RFC
  writes ``flight_size * beta`` and allows ``cwnd * beta``; Linux and ns-3.44's ``TcpCubic`` use
  ``cwnd``, as does the default ``reduce_from="cwnd"``), and the epoch ends;
* slow start is RFC 5681's (HyStart/HyStart++ are not modelled).

Where the RFC leaves room the defaults follow Linux's ``tcp_cubic.c``: when ``W_max <= cwnd_epoch``
(first epoch after slow start, or a window that grew past the last maximum) ``K = 0`` and the
curve starts from ``cwnd_epoch`` (Linux's ``origin_point = cwnd``); ``counting="segments"``
counts every acknowledged segment, as Linux does (RFC 3465 byte counting, L = unlimited;
``"ack"``: one increase per ACK, the literal reading of sec. 4.4 and ns-3's ``TcpNewReno`` slow
start). Differences from Linux that remain by default: no HyStart, the cubic curve in floating point
instead of Linux's fixed-point ``bictcp_update`` with its ``cnt`` clamp (``cnt >= 2``: at most
half a segment per acknowledged segment; ``arithmetic="linux"`` runs Linux's), ``RTT`` = the smoothed RTT (Linux adds its minimum
RTT ``delay_min``; ``rtt="min"`` does the same), and after a timeout Linux forgets ``W_max``
(``bictcp_reset`` in ``TCP_CA_Loss``) while this class keeps it, as RFC 9438 sec. 4.8 describes
(``forget_on_timeout=True`` forgets it as Linux does); Linux's growth of at least 5 % a round trip before the
first congestion event is ``initial_growth=True``.

The sender passes the time of the ACK it is processing in ``sub.ack_time_ns`` (integer ns, the
engine clock; :class:`cmtlab.sim.tcp.TcpSender` sets it at every ACK) — the only thing CUBIC
needs beyond the congestion-control interface.
"""

from __future__ import annotations

import math

from ...._validate import check_choice
from ...registry import check_variant, register, register_variant
from .base import CongestionControl
from .bictcp_update import NS_PER_JIFFY, LINUX_HZ, BictcpUpdate
from .cwnd_validation import LinuxCwndValidation

NS_PER_S = 1_000_000_000
#: Linux's ``BICTCP_BETA_SCALE``: ``tcp_cubic.c`` keeps beta in 1/1024ths (``beta = 717``, 0.7).
BETA_SCALE = 1024
#: ``hystart_rules``: the first reading (``"book"``) or ``tcp_cubic.c``'s (``"linux"``).
HYSTART_RULES = ("book", "linux")
#: ``hystart_samples``: which RTT samples HyStart's delay detection reads — ``"estimator"`` (the sender's RTT
#: estimator's: one per ACK that advances the cumulative ACK, from the timestamp echo with timestamps, the oldest
#: segment it acknowledges) or ``"ca_rtt"`` (Linux's ``ca_rtt_us``, what ``tcp_clean_rtx_queue`` hands
#: ``cubictcp_acked``: the RTT of the newest original segment the ACK SACKs, else of the newest it acknowledges
#: cumulatively, to the microsecond, on SACK-only ACKs too).
HYSTART_SAMPLES = ("estimator", "ca_rtt")
#: ``arithmetic``: RFC 9438's curve in floating point (``"float"``) or Linux's fixed-point ``bictcp_update`` and
#: ``tcp_cong_avoid_ai`` (``"linux"``, :mod:`.bictcp_update`).
ARITHMETICS = ("float", "linux")
#: Linux's ``hystart_ack_delay``: min(1 ms, 4 * gso_max_size / pacing rate); 1 ms below 2 Gbit/s (64 KiB GSO).
HYSTART_ACK_DELAY_NS = 1_000_000


def _check_unit_interval(name: str, value, lo: float, hi: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or not lo < value < hi:
        raise ValueError(f"{name} must be a number in ({lo}, {hi}), got {value!r}")
    return float(value)


def cubic_k_s(w_max_segs: float, cwnd_epoch_segs: float, c: float = 0.4) -> float:
    """RFC 9438 eq. 2: the time (s) ``W_cubic`` takes to climb from ``cwnd_epoch`` back to ``W_max``
    (0 when ``cwnd_epoch >= W_max``, as in Linux)."""
    d = w_max_segs - cwnd_epoch_segs
    return (d / c) ** (1.0 / 3.0) if d > 0 else 0.0


def w_cubic(t_s: float, w_max_segs: float, k_s: float, c: float = 0.4) -> float:
    """RFC 9438 eq. 1: ``C * (t - K)**3 + W_max`` segments."""
    return c * (t_s - k_s) ** 3 + w_max_segs


@register("congestion", "cubic")
class Cubic(CongestionControl):
    """CUBIC (RFC 9438) on one subflow; see the module docstring for the equations and choices.

    Parameters
    ----------
    beta, c
        Multiplicative decrease factor β_cubic (0.7) and the constant C (0.4, segments/s³).
    fast_convergence
        RFC 9438 sec. 4.7 (default on, as in Linux).
    reno_friendly
        The Reno-friendly region of sec. 4.3 (default on, Linux's ``tcp_friendliness``).
    counting
        ``"segments"`` (default, Linux) or ``"ack"``: how ACKs count in slow start and in the
        congestion-avoidance increase.
    reduce_from
        ``"cwnd"`` (default: the window with its fraction), ``"flight"`` (RFC 9438 sec. 4.6's ``flight_size``)
        or ``"snd_cwnd"`` (Linux's ``bictcp_recalc_ssthresh``: the window in whole segments — ``tcp_snd_cwnd``
        is an integer count, the fraction lives in ``snd_cwnd_cnt`` — times ``beta`` in 1/1024ths, integer
        arithmetic: ``snd_cwnd * 717 / 1024``, and ``last_max_cwnd = snd_cwnd * (1024 + 717) / 2048`` under
        fast convergence): what ``beta`` multiplies on a congestion event.  With ``"cwnd"`` a window of 97.5
        segments leaves 68 where Linux's 97 leaves 67.
    rtt
        ``"srtt"`` (default: RFC 9438's RTT) or ``"min"`` (the smallest smoothed RTT seen, for Linux's
        minimum RTT sample ``delay_min``; the sender keeps no minimum sample): the RTT added to ``t``.
    alpha_to_one
        RFC 9438 sec. 4.3: once ``W_est >= cwnd_prior`` the Reno-friendly estimate grows by one
        segment per RTT instead of ``alpha_cubic`` (default on).  Linux's ``tcp_friendliness`` (and
        ns-3.44's port of it) keeps ``alpha_cubic`` = 0.53 throughout.
    hystart, hystart_ack_train
        Linux's HyStart (default off), on ACKs that carry an RTT sample, in slow start from
        ``hystart_low_window`` (16) segments on.  Rounds: a round ends when the cumulative ACK
        passes the highest segment sent at its start.  Delay increase: the smallest of a round's
        first 8 RTT samples at or above ``delay_min + clamp(delay_min / 8, 4 ms, 16 ms)``
        (``delay_min``: the smallest sample so far).  ACK train (``hystart_ack_train``, on with
        ``hystart``): ACKs no more than 2 ms apart since the round started, for longer than
        ``delay_min / 2`` (Linux without pacing).  Either ends slow start (``ssthresh = cwnd``).
        Reads ``sub.last_rtt_sample_ns``/``sub.rtt_samples_taken``, ``sub.una``/``sub.high`` and
        ``sub.ack_time_ns``.
    hystart_rules
        ``"book"`` (default: the rules above, this book's first reading of HyStart) or ``"linux"``
        (``tcp_cubic.c``'s ``hystart_update`` as Linux 6.18 runs it, traced on the testbed): a round ends
        when the cumulative ACK passes the round's ``end_seq`` (``after(snd_una, end_seq)``: the ACK that
        only reaches it still belongs to the round, so the next round, and its ACK train, start with the
        first ACK of the next flight — with ``"book"`` a round started on the last ACK of a flight and
        its train broke at the gap that follows); the ACK train's threshold is ``(delay_min +
        hystart_ack_delay) / 2`` with ``hystart_ack_delay`` = min(1 ms, 4 GSO sizes at the pacing rate),
        1 ms below 2 Gbit/s; the delay test reads the smallest sample of the round so far, this one included,
        on every sample from the 9th on (it counts 8 first) — Linux since 5.8 ("tcp_cubic: fix spurious
        HYSTART_DELAY exit upon drop in min RTT"; before it, the smallest of the first 8 was kept, which
        ``"book"`` with ``hystart_samples="ca_rtt"`` still does).
    hystart_samples
        :data:`HYSTART_SAMPLES`: the RTT samples HyStart reads — ``"estimator"`` (default) or ``"ca_rtt"``, Linux's
        (``tcp_clean_rtx_queue``: the newest original segment the ACK SACKs, else the newest it acknowledges
        cumulatively; none for an ACK of a retransmission), which the sender computes when this is set
        (``sub.cc_rtt_ns``/``sub.cc_rtt_samples``).  On a jittered path the estimator's samples, from the
        timestamp echo of the oldest segment each cumulative ACK covers, are a round trip's lowest: in the recorded ``ss``
        trace of ``tcp cubic 20M/40ms jitter 2ms 0.2% loss`` (``data/today/kernel_socket_traces.csv``) the kernel
        leaves slow start before its first retransmission, where with the estimator's samples the simulator's round
        minimum stays near the path's round trip and its slow start overruns the 100-packet queue
        (``tests/sim/mechanisms/congestion/test_hystart_samples.py``).
    slow_start_cwnd_limited
        Linux's ``tcp_is_cwnd_limited`` in slow start (default off): the window grows only while it is
        less than twice what the flow has out — here the bytes in flight before this ACK (Linux: the most
        packets out in the last window, ``max_packets_out``) — so a subflow the scheduler does not keep
        busy does not double a window it never fills.  HyStart still runs.  (Linux also stops growth in
        congestion avoidance when the window was not filled: ``cwnd_validation``.)
    cwnd_validation
        Linux's ``tcp_is_cwnd_limited`` in both phases (default off; replaces ``slow_start_cwnd_limited``): the
        window grows only when the flow was cwnd-limited in the current window of data, or, in slow start, while it
        is less than twice the most packets out in it (:class:`~.cwnd_validation.LinuxCwndValidation`).  HyStart
        still runs.
    initial_growth
        Linux's growth before the first congestion event (default off): ``bictcp_update`` clamps its ``cnt`` to
        at most 20 while ``last_max_cwnd`` is 0 ("the initial growth of cubic function may be too conservative
        when the available bandwidth is still unknown"), so in congestion avoidance before any loss — after
        HyStart ended slow start below the path's capacity — the window grows at least 5 % per round trip (1/20
        segment per acknowledged segment) where the cubic curve from ``K = 0`` would add almost nothing; the
        first overflow then drops as many packets as that growth puts into one round trip.
    forget_on_timeout
        Linux's reset after a retransmission timeout (default off, RFC 9438 sec. 4.8's reading): entering
        ``TCP_CA_Loss`` runs ``bictcp_reset``, so ``last_max_cwnd`` is 0 again — ``W_max`` forgotten and, with
        ``initial_growth``, the 5 %-per-round-trip growth back until the next congestion event.  (A timeout is
        told from a fast retransmit by the sender's ``timeouts`` count, which it raises before asking for
        ``ssthresh``.)
    arithmetic
        :data:`ARITHMETICS`: ``"float"`` (default: the curve in floating point, the window's fraction kept here) or
        ``"linux"`` (:mod:`.bictcp_update`: Linux's ``bictcp_update`` in integers — time in jiffies of the
        testbed kernel's ``HZ`` = 250, the target one ``delay_min`` ahead with ``delay_min`` the smallest RTT sample
        (Linux's ``ca_rtt``, none from the first second of an epoch), ``cnt = cwnd / (target - cwnd)`` by integer
        division, recomputed at most once per jiffy and not while the window is unchanged for ``HZ / 32``, the
        Reno-friendly estimate in whole segments, ``cnt >= 2`` — and ``tcp_cong_avoid_ai``: one segment per
        ``cnt`` acknowledged, the remainder in ``snd_cwnd_cnt``).  Needs ``reduce_from="snd_cwnd"`` and
        ``counting="segments"``; ``rtt``, ``alpha_to_one`` and ``initial_growth`` are Linux's then (the 5 %
        clamp while ``last_max_cwnd`` is 0 is part of ``bictcp_update``), and an epoch that starts above
        ``W_max`` leaves ``W_max`` as it is (Linux's ``last_max_cwnd``; the float curve raises it to the window).
    variant
        ``"spec"`` (this class) or ``"linux"`` (:class:`LinuxCubic`: ``alpha_to_one=False``,
        ``rtt="min"``, built by ``registry.make("congestion", "cubic", variant="linux")``).

    Notes
    -----
    State (segments unless named otherwise): ``w_max``, ``k_s``, ``cwnd_epoch``, ``t_epoch_ns``
    (``None`` outside an epoch), ``w_est``, ``cwnd_prior``, ``alpha``.  ``sub.cwnd`` stays an
    integer number of bytes; the fraction is kept here (``cwnd_segs``) so that growth is exact.
    """

    VARIANT = "spec"
    COUNTINGS = ("segments", "ack")
    REDUCE_FROM = ("cwnd", "flight", "snd_cwnd")
    RTTS = ("srtt", "min")

    def __init__(self, beta: float = 0.7, c: float = 0.4, fast_convergence: bool = True,
                 reno_friendly: bool = True, counting: str = "segments", reduce_from: str = "cwnd",
                 rtt: str = "srtt", alpha_to_one: bool = True, hystart: bool = False,
                 hystart_low_window: int = 16, hystart_ack_train: bool = True, variant: str = "spec",
                 slow_start_cwnd_limited: bool = False, cwnd_validation: bool = False,
                 hystart_rules: str = "book", initial_growth: bool = False, forget_on_timeout: bool = False,
                 hystart_samples: str = "estimator", arithmetic: str = "float"):
        self.variant = check_variant("congestion", self, variant)
        self.arithmetic = check_choice("arithmetic", arithmetic, ARITHMETICS)
        if arithmetic == "linux" and (reduce_from != "snd_cwnd" or counting != "segments"):
            raise ValueError(f"arithmetic='linux' needs reduce_from='snd_cwnd' and counting='segments' (Linux's), "
                             f"got {reduce_from!r} and {counting!r}")
        self._bic = BictcpUpdate() if arithmetic == "linux" else None
        self._delay_min_us = 0  # Linux's delay_min (us; 0: no sample yet), with arithmetic="linux"
        self._delay_seen = 0
        self.hystart_samples = check_choice("hystart_samples", hystart_samples, HYSTART_SAMPLES)
        self._hs_ca_rtt = hystart_samples == "ca_rtt"
        for name, v in (("initial_growth", initial_growth), ("forget_on_timeout", forget_on_timeout)):
            if not isinstance(v, bool):
                raise ValueError(f"{name} must be a boolean, got {v!r}")
        self.initial_growth = initial_growth
        self.forget_on_timeout = forget_on_timeout
        self._timeouts_seen = 0
        self.had_loss = False  # Linux's last_max_cwnd != 0: a congestion event since the start
        self.hystart_rules = check_choice("hystart_rules", hystart_rules, HYSTART_RULES)
        self._hs_linux = hystart_rules == "linux"
        if not isinstance(cwnd_validation, bool):
            raise ValueError(f"cwnd_validation must be a boolean, got {cwnd_validation!r}")
        self.validation = LinuxCwndValidation() if cwnd_validation else None
        if not isinstance(slow_start_cwnd_limited, bool):
            raise ValueError(f"slow_start_cwnd_limited must be a boolean, got {slow_start_cwnd_limited!r}")
        self.slow_start_cwnd_limited = slow_start_cwnd_limited
        if not isinstance(hystart, bool) or not isinstance(hystart_ack_train, bool):
            raise ValueError(f"hystart and hystart_ack_train must be booleans, got {hystart!r}, {hystart_ack_train!r}")
        if isinstance(hystart_low_window, bool) or not isinstance(hystart_low_window, int) or hystart_low_window < 2:
            raise ValueError(f"hystart_low_window must be an integer >= 2 (segments), got {hystart_low_window!r}")
        self.hystart = hystart
        self.hystart_low_window = hystart_low_window
        self._hs_round_end = -1
        self._hs_samples = 0
        self._hs_round_min = None
        self._hs_seen = 0
        self._hs_delay_min = None
        self._hs_round_start = self._hs_last_ack = 0
        self.hystart_ack_train = hystart_ack_train
        self.hystart_exits = 0
        if not isinstance(alpha_to_one, bool):
            raise ValueError(f"alpha_to_one must be a boolean, got {alpha_to_one!r}")
        self.alpha_to_one = alpha_to_one
        self.beta = _check_unit_interval("beta", beta, 0.0, 1.0)
        self.c = _check_unit_interval("c", c, 0.0, math.inf)
        if not isinstance(fast_convergence, bool) or not isinstance(reno_friendly, bool):
            raise ValueError(f"fast_convergence and reno_friendly must be booleans, got "
                             f"{fast_convergence!r} and {reno_friendly!r}")
        self.fast_convergence = fast_convergence
        self.reno_friendly = reno_friendly
        self.counting = check_choice("counting", counting, self.COUNTINGS)
        self.reduce_from = check_choice("reduce_from", reduce_from, self.REDUCE_FROM)
        self.rtt = check_choice("rtt", rtt, self.RTTS)
        self.alpha_reno = 3.0 * (1.0 - self.beta) / (1.0 + self.beta)
        self.w_max = 0.0
        self.k_s = 0.0
        self.cwnd_epoch = 0.0
        self.t_epoch_ns = None
        self.w_est = 0.0
        self.cwnd_prior = 0.0
        self.alpha = self.alpha_reno
        self.cwnd_segs = 0.0
        self.min_rtt_ns = None
        self._written = -1  # sub.cwnd as this class last wrote it (else: resynchronise)

    def init(self, sub) -> None:
        self.cwnd_segs = sub.cwnd / sub.seg
        self._written = sub.cwnd
        if (self.hystart and self._hs_ca_rtt) or self._bic is not None:
            sub.cc_rtt_linux = True  # the sender computes Linux's ca_rtt_us (HyStart, delay_min)

    def _sync(self, sub) -> float:
        if sub.cwnd != self._written:  # the sender or recovery set cwnd (recovery exit, timeout, undo)
            self.cwnd_segs = sub.cwnd / sub.seg
        return self.cwnd_segs

    def _write(self, sub, cwnd_segs: float) -> None:
        self.cwnd_segs = cwnd_segs
        b = int(cwnd_segs * sub.seg)
        sub.cwnd = b
        self._written = b

    def _rtt_s(self, sub) -> float:
        if getattr(sub, "n_rtt_samples", 0) > 0 and sub.srtt > 0:
            srtt = sub.srtt
            if self.min_rtt_ns is None or srtt < self.min_rtt_ns:
                self.min_rtt_ns = srtt
            return (srtt if self.rtt == "srtt" else self.min_rtt_ns) / NS_PER_S  # "min": smallest SRTT seen
        path = getattr(sub, "path", None)
        d = getattr(path, "delay_s", None) if path is not None else None
        return float(d) if d else 0.0

    def _start_epoch(self, now_ns: int, cwnd: float) -> None:
        self.t_epoch_ns = now_ns
        self.cwnd_epoch = cwnd
        self.w_est = cwnd
        if self._bic is not None:
            return  # bictcp_update keeps K and the origin; last_max_cwnd stays
        if self.w_max <= cwnd:  # Linux: origin_point = cwnd, K = 0
            self.w_max = cwnd
            self.k_s = 0.0
        else:
            self.k_s = cubic_k_s(self.w_max, cwnd, self.c)

    def increase_window(self, sub, segments_acked: int) -> None:
        cwnd = self._sync(sub)
        if self._bic is not None:
            self._note_delay(sub)
        ssthresh = sub.ssthresh / sub.seg
        if cwnd < ssthresh and self.hystart and self._hystart_exit(sub, cwnd):
            ssthresh = cwnd
            sub.ssthresh = int(cwnd) * sub.seg
        acked = float(segments_acked)
        if acked <= 0:
            return
        if self.validation is not None:
            if not self.validation.cwnd_limited(sub, segments_acked):
                return  # Linux tcp_is_cwnd_limited: the window was not used
        elif cwnd < ssthresh and self.slow_start_cwnd_limited \
                and cwnd * sub.seg >= 2 * (sub.pipe_snapshot + segments_acked * sub.seg):
            return  # Linux tcp_is_cwnd_limited in slow start: cwnd < 2 * the packets the flow had out
        if cwnd < ssthresh:  # slow start (RFC 5681 / RFC 9438 sec. 4.10)
            if self.counting == "ack":
                cwnd += 1.0
                acked -= 1.0
            else:
                new = min(cwnd + acked, ssthresh)
                acked -= new - cwnd
                cwnd = new
        if cwnd >= ssthresh and acked > 0 and self._bic is not None:
            cwnd = self._linux_cong_avoid(sub, int(cwnd), int(acked))
        elif cwnd >= ssthresh and acked > 0:
            now = sub.ack_time_ns
            if self.t_epoch_ns is None:
                self._start_epoch(now, cwnd)
            t = (now - self.t_epoch_ns) / NS_PER_S
            n = acked if self.counting == "segments" else 1.0
            target = w_cubic(t + self._rtt_s(sub), self.w_max, self.k_s, self.c)
            target = cwnd if target < cwnd else (1.5 * cwnd if target > 1.5 * cwnd else target)
            self.w_est += self.alpha * n / cwnd
            if self.alpha_to_one and self.w_est >= self.cwnd_prior:
                self.alpha = 1.0  # RFC 9438 sec. 4.3: Reno's own increase once past cwnd_prior
            if self.reno_friendly and w_cubic(t, self.w_max, self.k_s, self.c) < self.w_est:
                grown = max(cwnd, self.w_est)  # Reno-friendly region
            else:
                grown = cwnd + n * (target - cwnd) / cwnd  # concave / convex region
            if self.initial_growth and not self.had_loss and grown < cwnd + n / 20.0:
                grown = cwnd + n / 20.0  # Linux: cnt <= 20 while last_max_cwnd == 0
            cwnd = grown
        self._write(sub, cwnd)

    def _note_delay(self, sub) -> None:
        """``cubictcp_acked``: ``delay_min`` is the smallest ``ca_rtt`` sample (us, at least 1), none taken in the
        first second (``HZ`` jiffies) of an epoch ("discard delay samples right after fast recovery")."""
        n = sub.cc_rtt_samples
        if n == self._delay_seen:
            return
        self._delay_seen = n
        now = sub.ack_time_ns
        if self.t_epoch_ns is not None and now // NS_PER_JIFFY - self.t_epoch_ns // NS_PER_JIFFY < LINUX_HZ:
            return
        us = max(sub.cc_rtt_ns // 1000, 1)
        if self._delay_min_us == 0 or us < self._delay_min_us:
            self._delay_min_us = us

    def _linux_cong_avoid(self, sub, cwnd: int, acked: int) -> float:
        """``cubictcp_cong_avoid`` past slow start: ``bictcp_update`` then ``tcp_cong_avoid_ai`` (:mod:`.bictcp_update`)."""
        now = sub.ack_time_ns
        new_epoch = self.t_epoch_ns is None
        last_max = int(self.w_max) if self.had_loss else 0
        if self._bic.update(now, now if new_epoch else self.t_epoch_ns, new_epoch, cwnd, acked, last_max,
                            self._delay_min_us):
            self._start_epoch(now, float(cwnd))
        return float(self._bic.cong_avoid_ai(cwnd, acked))

    def _hystart_exit(self, sub, cwnd_segs: float) -> bool:
        """Linux HyStart's delay detection (``hystart_update``, ``HYSTART_DELAY``) on this ACK."""
        if self._hs_ca_rtt:
            n = sub.cc_rtt_samples
            sample = sub.cc_rtt_ns
        else:
            n = getattr(sub, "rtt_samples_taken", 0)
            sample = sub.last_rtt_sample_ns
        if n == self._hs_seen:
            return False
        self._hs_seen = n
        if self._hs_delay_min is None or sample < self._hs_delay_min:
            self._hs_delay_min = sample
        now = sub.ack_time_ns
        if sub.una > self._hs_round_end if self._hs_linux else sub.una >= self._hs_round_end:  # a new round trip
            self._hs_round_end = sub.high
            self._hs_samples = 0
            self._hs_round_min = None
            self._hs_round_start = self._hs_last_ack = now
        if cwnd_segs < self.hystart_low_window:
            return False
        if self.hystart_ack_train and now - self._hs_last_ack <= 2_000_000:
            # HYSTART_ACK_TRAIN: ACKs closely spaced (<= 2 ms, hystart_ack_delta_us) since the round
            # started, for longer than delay_min / 2 (Linux without pacing): the pipe is full
            self._hs_last_ack = now
            if self._hs_linux:  # (delay_min + hystart_ack_delay) >> 1, hystart_ack_delay = 1 ms below 2 Gbit/s
                threshold = (self._hs_delay_min + HYSTART_ACK_DELAY_NS) // 2
            else:
                threshold = self._hs_delay_min // 2
            if now - self._hs_round_start > threshold:
                self.hystart_exits += 1
                return True
        if self._hs_linux or self._hs_ca_rtt:
            # hystart_update: curr_rtt is the smallest sample of the round — since Linux 5.8 ("tcp_cubic: fix
            # spurious HYSTART_DELAY exit upon drop in min RTT", hystart_rules="linux") of every sample so far, this
            # one included; before it (ca_rtt with "book") of the first HYSTART_MIN_SAMPLES (8) only.  Those 8 are
            # only counted; every later ACK of the round tests curr_rtt > delay_min + eta.
            if self._hs_linux or self._hs_samples < 8:
                if self._hs_round_min is None or sample < self._hs_round_min:
                    self._hs_round_min = sample
            if self._hs_samples < 8:
                self._hs_samples += 1
                return False
            if self._hs_round_min > self._hs_delay_min + self._hs_eta():
                self.hystart_exits += 1
                return True
            return False
        if self._hs_samples < 8:
            self._hs_samples += 1
            if self._hs_round_min is None or sample < self._hs_round_min:
                self._hs_round_min = sample
            if self._hs_samples == 8 and self._hs_round_min >= self._hs_delay_min + self._hs_eta():
                self.hystart_exits += 1
                return True
        return False

    def _hs_eta(self) -> int:
        """HyStart's delay threshold above ``delay_min`` (ns): ``HYSTART_DELAY_THRESH(delay_min / 8)``, clamped to
        [4 ms, 16 ms]."""
        return min(max(self._hs_delay_min // 8, 4_000_000), 16_000_000)

    def ssthresh(self, sub, bytes_in_flight: int) -> int:
        cwnd = self._sync(sub)
        seg = sub.seg
        self.t_epoch_ns = None
        self.had_loss = True
        whole = self.reduce_from == "snd_cwnd"
        if whole:  # Linux: tcp_snd_cwnd in whole segments, beta in 1/1024ths (BICTCP_BETA_SCALE)
            cwnd = sub.cwnd // seg
            beta_1024 = round(self.beta * BETA_SCALE)
        if self.fast_convergence and cwnd < self.w_max:
            self.w_max = (cwnd * (BETA_SCALE + beta_1024)) // (2 * BETA_SCALE) if whole else cwnd * (1.0 + self.beta) / 2.0
        else:
            self.w_max = cwnd
        if self._bic is not None:
            self._bic.reset_count()  # tcp_init_cwnd_reduction: snd_cwnd_cnt = 0
        if self.forget_on_timeout and sub.timeouts != self._timeouts_seen:  # Linux bictcp_reset in TCP_CA_Loss
            self._timeouts_seen = sub.timeouts
            self.w_max = 0.0
            self.had_loss = False
            if self._bic is not None:
                self._bic.reset()
        self.cwnd_prior = cwnd
        self.alpha = self.alpha_reno
        if whole:
            return max((cwnd * beta_1024) // BETA_SCALE, 2) * seg
        base = cwnd if self.reduce_from == "cwnd" else bytes_in_flight / seg
        return max(math.floor(base * self.beta), 2) * seg


@register_variant("congestion", "cubic", "linux")
class LinuxCubic(Cubic):
    """CUBIC with Linux's choices where they differ from RFC 9438's text (``tcp_cubic.c``, also
    ns-3.44's ``TcpCubic``): the Reno-friendly estimate keeps ``alpha_cubic`` (no switch to 1 past
    ``cwnd_prior``) and the target adds the minimum RTT (``delay_min``), not the smoothed one."""

    def __init__(self, beta: float = 0.7, c: float = 0.4, fast_convergence: bool = True,
                 reno_friendly: bool = True, counting: str = "segments", reduce_from: str = "cwnd",
                 rtt: str = "min", alpha_to_one: bool = False, hystart: bool = False,
                 hystart_low_window: int = 16, hystart_ack_train: bool = True, variant: str = "linux",
                 slow_start_cwnd_limited: bool = False, cwnd_validation: bool = False,
                 hystart_rules: str = "book", initial_growth: bool = False, forget_on_timeout: bool = False,
                 hystart_samples: str = "estimator", arithmetic: str = "float"):
        super().__init__(beta=beta, c=c, fast_convergence=fast_convergence, reno_friendly=reno_friendly,
                         counting=counting, reduce_from=reduce_from, rtt=rtt, alpha_to_one=alpha_to_one,
                         hystart=hystart, hystart_low_window=hystart_low_window,
                         hystart_ack_train=hystart_ack_train, variant=variant,
                         slow_start_cwnd_limited=slow_start_cwnd_limited, cwnd_validation=cwnd_validation,
                         hystart_rules=hystart_rules, initial_growth=initial_growth,
                         forget_on_timeout=forget_on_timeout, hystart_samples=hystart_samples,
                         arithmetic=arithmetic)


__all__ = ["Cubic", "LinuxCubic", "cubic_k_s", "w_cubic"]
