"""Linux's window restart after idle (``tcp_cwnd_restart``) and CUBIC's epoch shift on ``CA_EVENT_TX_START``
(:mod:`cmtlab.sim.mechanisms.schedulers.linux_idle_restart`), and the Linux scheduler that calls them
(``slow_start_after_idle``), its writer's wake-up threshold (``writer_wakeup``) and its later join
(``join="fully_established"``)."""

import numpy as np
import pytest

from cmtlab import sim
from cmtlab.sim.mechanisms.schedulers.linux_idle_restart import cubic_tx_start, restart_after_idle
from cmtlab.sim.mechanisms.schedulers.linux import LinuxScheduler
from cmtlab.sim.mechanisms.schedulers.linux_send_buffers import LinuxSendBuffers
from cmtlab.sim.presets import preset

MS = 1_000_000


class _Cc:
    def __init__(self, epoch):
        self.t_epoch_ns = epoch


class _Sub:
    """A subflow's state record as the restart reads it: segments of 1000 bytes, the last one sent at ``sent_ns``."""

    def __init__(self, cwnd_segs, ssthresh_segs, rto_ms, sent_ns, epoch=None, high=50):
        self.seg, self.cwnd, self.ssthresh, self.rto = 1000, cwnd_segs * 1000, ssthresh_segs * 1000, rto_ms * MS
        self.high, self.mask = high, 63
        self.sent_time = np.zeros(64, dtype=np.int64)
        self.sent_time[(high - 1) & 63] = sent_ns
        self.cc = _Cc(epoch)


@pytest.mark.parametrize("idle_ms,cwnd_after", [
    (250, 100),    # idle not longer than the RTO: no restart
    (300, 100),    # (delta -= rto) > 0 fails at once: the window stays, ssthresh rises
    (450, 50),     # one RTO beyond the first: halved once
    (650, 25),     # twice
    (2000, 10),    # down to the restart window min(TCP_INIT_CWND, cwnd)
])
def test_the_window_halves_once_per_rto_of_idle_time_down_to_the_restart_window(idle_ms, cwnd_after):
    s = _Sub(100, 60, rto_ms=300, sent_ns=0)
    restarted = restart_after_idle(s, idle_ms * MS)
    assert restarted == (idle_ms > 300)
    assert s.cwnd == cwnd_after * 1000
    # tcp_current_ssthresh: max(ssthresh, cwnd/2 + cwnd/4) of the window before the restart
    assert s.ssthresh == (75_000 if restarted else 60_000)


def test_a_small_window_is_its_own_restart_window_and_ssthresh_never_falls():
    s = _Sub(6, 200, rto_ms=200, sent_ns=0)
    assert restart_after_idle(s, 5000 * MS)
    assert (s.cwnd, s.ssthresh) == (6000, 200_000)


def test_cubic_epoch_moves_on_by_the_idle_time_at_most_to_now():
    s = _Sub(40, 30, rto_ms=300, sent_ns=1000 * MS, epoch=900 * MS)
    restart_after_idle(s, 1100 * MS)  # 100 ms idle: no restart, the epoch shifts by it
    assert s.cwnd == 40_000 and s.cc.t_epoch_ns == 1000 * MS
    s = _Sub(40, 30, rto_ms=300, sent_ns=1000 * MS, epoch=1050 * MS)
    restart_after_idle(s, 1100 * MS)
    assert s.cc.t_epoch_ns == 1100 * MS
    s = _Sub(40, 30, rto_ms=300, sent_ns=0, high=0)  # nothing sent yet: the initial window, untouched
    assert not restart_after_idle(s, 10_000 * MS) and s.cwnd == 40_000


def test_cubic_tx_start_alone_moves_the_epoch_and_leaves_the_window():
    """``CA_EVENT_TX_START`` without ``tcp_slow_start_after_idle``: however long the idle time, the window and
    ssthresh stay; only CUBIC's epoch moves on (returns the idle time)."""
    s = _Sub(100, 60, rto_ms=300, sent_ns=1000 * MS, epoch=500 * MS)
    assert cubic_tx_start(s, 3000 * MS) == 2000 * MS
    assert (s.cwnd, s.ssthresh, s.cc.t_epoch_ns) == (100_000, 60_000, 2500 * MS)
    s = _Sub(100, 60, rto_ms=300, sent_ns=0, high=0)
    assert cubic_tx_start(s, 3000 * MS) == 0 and s.cc.t_epoch_ns is None


def test_the_preset_shifts_cubic_epochs_of_subflows_that_resume_and_the_shift_changes_the_curve():
    """The preset's scheduler (``cubic_tx_start``), on the wider table's three-path CUBIC cell (first repetition,
    configured like the kernel): a subflow handed data with nothing outstanding has its CUBIC epoch moved on by the
    wait (spied); without the shift (the waits counted on the cubic curve) the run's retransmissions fall further below
    the kernel's five runs (80-115)."""
    from cmtlab.sim.mechanisms.schedulers import linux as linux_module
    from cmtlab.today import agreement, kernel

    rows = kernel.wider_kernel()
    rows = rows[(rows.cell == "mptcp cubic 3 paths 10M/20ms + 5M/80ms + 2M/160ms") & (rows.rep == 0)]
    assert preset("linux-6.18", congestion="cubic")["scheduler_params"]["cubic_tx_start"] is True
    calls = []
    original = linux_module.cubic_tx_start

    def spy(sub, now_ns):
        before = getattr(sub.cc, "t_epoch_ns", None)
        idle = original(sub, now_ns)
        calls.append((idle, before, sub.cc.t_epoch_ns, now_ns))
        return idle

    linux_module.cubic_tx_start = spy
    try:
        with_shift = agreement.sim_runs(rows, {"linux": agreement.SIM_CONFIGS["linux"]}, progress_bar=False)
    finally:
        linux_module.cubic_tx_start = original
    shifted = [c for c in calls if c[1] is not None and c[0] > 0]
    assert shifted and all(after == min(before + idle, now) for idle, before, after, now in shifted)
    cfg = {cc: dict(v, scheduler_params={**preset("linux-6.18", congestion=cc)["scheduler_params"],
                                          "cubic_tx_start": False})
           for cc, v in agreement.SIM_CONFIGS["linux"].items()}
    without = agreement.sim_runs(rows, {"no-shift": cfg}, progress_bar=False)
    retx = [int(sum(df[f"sub{i}_retrans_total"].iloc[0] for i in range(3))) for df in (with_shift, without)]
    assert retx[1] < retx[0] < 80


def _conn(cwnd_segments: int):
    class Conn:
        class S:
            seg, cwnd, una, app_tail = 1000, cwnd_segments * 1000, 0, 0
        subflows = [S(), S()]
        seg = 1000
        data_ack_seen = 0
        next_dsn = 0
    return Conn


def test_the_writer_is_woken_only_when_a_third_of_the_buffer_is_free():
    """``__sk_stream_is_writeable``: sndbuf - wmem >= wmem / 2."""
    b = LinuxSendBuffers()
    Conn = _conn(10)
    total = b.connection_sndbuf_bytes(Conn)
    assert total == 4096 + 2 * 46080
    held = total * 2 // 3 // 1000 * 1000          # held <= 2/3 of the buffer: writeable
    assert b.writeable(held, total)
    Conn.next_dsn = held // 1000 + 2              # beyond: the writer sleeps although there is room
    assert b.connection_has_room(Conn) and not b.writeable(b.connection_wmem_bytes(Conn), total)
    assert b.writeable(0, total) and not b.writeable(total, total)


def test_the_writer_copies_a_chunk_per_send_and_subflows_take_what_it_wrote_while_it_sleeps():
    """``writer_wakeup``: each ``send()`` of the testbed's writer waits for ``EPOLLOUT`` (a third of the connection's
    buffer free), then copies up to 256 KiB, stopping when the buffer is full; what it wrote waits in the connection
    until a subflow takes it, writer asleep or not."""
    chunk = 256 * 1024
    sched = LinuxScheduler(send_buffers=True, writer_wakeup=True)
    assert sched.writer_chunk_bytes == chunk
    Conn = _conn(208)                             # two subflows of 208-segment windows: the kernel trace's 1.92 MB
    sndbuf = sched.buffers.connection_sndbuf_bytes(Conn)
    assert sndbuf == 4096 + 2 * 2 * 2304 * 208 == 1_921_024
    assert sched._writer_has_room(Conn)           # empty: it writes while writeable, chunk by chunk ...
    assert sched.written_bytes == 5 * chunk       # ... 4 chunks leave 2/3 or less held, the 5th does not
    Conn.next_dsn = 1000                          # subflows took 1 MB: the rest of what was written is theirs
    assert not sched.buffers.writeable(sched.written_bytes, sndbuf) and sched._writer_has_room(Conn)
    Conn.next_dsn = 5 * chunk // 1000             # all taken: the writer sleeps with 610 kB of 1.92 MB free
    assert not sched._writer_has_room(Conn) and sndbuf - sched.written_bytes == 610_304
    Conn.data_ack_seen = 100                      # a DATA_ACK frees 100 kB: held 1.21 MB <= 2/3 -> one chunk more
    assert sched._writer_has_room(Conn) and sched.written_bytes == 6 * chunk
    small = LinuxScheduler(send_buffers=True, writer_wakeup=True)
    Conn = _conn(10)                              # a buffer smaller than a chunk: one send() fills it, no more
    assert small._writer_has_room(Conn) and small.written_bytes == small.buffers.connection_sndbuf_bytes(Conn)


@pytest.mark.parametrize("bad,match", [
    (dict(writer_wakeup="yes", send_buffers=True), "writer_wakeup"),
    (dict(writer_wakeup=True), "writer_wakeup=True needs send_buffers"),
    (dict(writer_wakeup=True, send_buffers=True, writer_chunk_bytes=0), "writer_chunk_bytes"),
    (dict(slow_start_after_idle=1), "slow_start_after_idle"),
    (dict(cubic_tx_start="on"), "cubic_tx_start"),
    (dict(join="fourth"), "join must be one of"),
])
def test_bad_options_are_named(bad, match):
    with pytest.raises(ValueError, match=match):
        LinuxScheduler(**bad)


def _long_path_run(**params):
    kw = preset("linux-6.18", congestion="cubic")
    kw["scheduler_params"] = {**kw["scheduler_params"], **params}
    return sim.simulate_mptcp([20e6, 2e6], [0.02, 0.6], duration_s=8.0, seed=0, trace=True, **kw)


def test_a_joined_subflow_sends_once_fully_established_two_of_its_round_trips_later():
    """``join="fully_established"``: subflow 1's first data RTT_0 + 2 RTT_1 after the first data segment (the
    testbed's ss trace: 1.18-1.24 s on a 40 ms + 1.2 s pair); ``"mp_join"``: RTT_0 + RTT_1."""
    for join, first in (("mp_join", 0.02 + 0.6), ("fully_established", 0.02 + 1.2)):
        pk = _long_path_run(join=join).traces["packets"]
        assert pk[pk.subflow == 1].time_s.min() == pytest.approx(first, abs=0.005), join


def test_the_long_path_cell_stalls_with_linux_writer_and_idle_restart():
    """On a fast short path beside a slow long one the connection's buffer holds the fast path's data until the
    long path's arrives: with the writer's wake-up threshold the fast subflow idles (its window restarted), so the
    connection carries less than with the first free byte letting data in — the kernel's 600-ms cell."""
    base = _long_path_run()
    linux = _long_path_run(writer_wakeup=True, slow_start_after_idle=True)
    assert linux.delivered_bytes < 0.9 * base.delivered_bytes
    # conservation: what the subflows brought is what the connection delivered plus what waits out of order
    brought = sum(linux.subflows.goodput_bps) * linux.extra["sim_time_s"] / 8
    waiting = linux.traces["buffer"].ooo_buffer_bytes.iloc[-1]
    assert brought == linux.delivered_bytes + waiting
