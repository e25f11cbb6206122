"""cmtlab.testbed: the real Linux TCP/MPTCP stack over compiled TUN delay lines.

Needs root, TUN, ``ip``/``ss``, MPTCP and a C compiler.  Outside CI the live tests are skipped
with the reason when something is missing; in CI (CI=true) that is a failure, like the browser
tests.  The calibration tests are the precision contract of issue 11: ping RTT within 1 ms of
the configured round trip, single-path TCP goodput within 2 % of the rate (up to 20 Mbit/s).
CI's share of real-time transfers is about 10 s.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import cmtlab.testbed as tb
from cmtlab._paths import REPO
from helpers.testbed import live

LIB = REPO / "lib"


def _our_namespaces() -> list[str]:
    out = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    return [ln.split()[0] for ln in out.splitlines() if ln.startswith(f"{tb.NS_PREFIX}{os.getpid()}-")]


# ---------------------------------------------------------------- bad input (no root needed)
@pytest.mark.parametrize("kw, word", [
    (dict(rate_bps=0, delay_s=0.01), "rate_bps"),
    (dict(rate_bps=2e9, delay_s=0.01), "rate_bps"),
    (dict(rate_bps=1e6, delay_s=-1), "delay_s"),
    (dict(rate_bps=1e6, delay_s=6), "delay_s"),
    (dict(rate_bps=1e6, delay_s=0.01, loss=1.0), "loss"),
    (dict(rate_bps=1e6, delay_s=0.01, queue_packets=0), "queue_packets"),
    (dict(rate_bps=1e6, delay_s=0.01, queue_packets=None, queue_bytes=None), "queue"),
])
def test_direction_rejects_bad_input(kw, word):
    with pytest.raises(ValueError, match=word):
        tb.Direction(**kw)


@pytest.mark.parametrize("kw, word", [
    (dict(congestion="no such"), "congestion"), (dict(frto=3), "frto"), (dict(recovery=9), "recovery"),
    (dict(reordering=0), "reordering"), (dict(sndbuf_bytes=10), "sndbuf_bytes"),
])
def test_kernel_settings_reject_bad_input(kw, word):
    with pytest.raises(ValueError, match=word):
        tb.KernelSettings(**kw)


def test_testbed_rejects_bad_input_before_touching_the_system():
    with pytest.raises(ValueError, match="paths"):
        tb.Testbed([])
    with pytest.raises(ValueError, match="paths"):
        tb.Testbed([tb.path(1e6, 0.01)] * (tb.MAX_PATHS + 1))
    with pytest.raises(ValueError, match=r"paths\[0\]"):
        tb.Testbed([(1e6, 0.01)])
    t = tb.Testbed([tb.path(1e6, 0.01)])
    with pytest.raises(ValueError, match="exactly one"):
        t.transfer()
    with pytest.raises(ValueError, match="duration_s"):
        t.transfer(duration_s=-1)
    with pytest.raises(ValueError, match="warmup_s"):
        t.transfer(duration_s=1, warmup_s=2)
    with pytest.raises(ValueError, match="transfer_bytes"):
        t.transfer(transfer_bytes=0)
    assert not t._created  # nothing was set up


def test_clear_errors_for_missing_root_and_compiler(monkeypatch):
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    with pytest.raises(RuntimeError, match="root"):
        tb.check_environment()
    monkeypatch.undo()
    monkeypatch.delenv("CC", raising=False)
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(RuntimeError, match="C compiler"):
        tb.build_delayline(force=True)


def test_expected_values():
    p = tb.path(10e6, 0.02)
    assert tb.expected_ping_rtt_s(p, 56) == pytest.approx(0.04 + 2 * 84 * 8 / 10e6)
    assert tb.tcp_goodput_bps(15e6) == pytest.approx(15e6 * 1448 / 1500)
    assert tb.tcp_goodput_bps(15e6, timestamps=False) == pytest.approx(15e6 * 1460 / 1500)
    assert tb.path(20e6, 0.01).forward.queue_packets == 34  # one BDP of 1500-byte packets


def test_parse_ss_keys_subflows_by_path():
    text = ("ESTAB 0 220528 198.18.1.1%tbA1:34241 198.18.0.2:5201\n"
            "\t reno wscale:10,10 rto:340 rtt:139.09/0.018 mss:1448 cwnd:117 ssthresh:102 bytes_acked:3935929 "
            "retrans:0/189 sndbuf_limited:12ms tcp-ulp-mptcp\n"
            "ESTAB 0 0 198.18.0.1:39763 198.18.0.2:5201\n\t cubic wscale:10,10 rtt:30.8/0.5 cwnd:27\n")
    d = tb.parse_ss(text, ["198.18.0.1", "198.18.1.1"])
    assert d[1]["cwnd"] == 117 and d[1]["rtt_ms"] == pytest.approx(139.09) and d[1]["retrans_total"] == 189
    assert d[1]["sndbuf_limited_ms"] == 12 and d[1]["cc"] == "reno"
    assert d[0]["cc"] == "cubic" and d[0]["cwnd"] == 27


# ---------------------------------------------------------------- live: calibration
@live
def test_calibration_ping_rtt_within_1ms():
    p = tb.path(10e6, 0.02)
    rtts = tb.ping(p, count=30, interval_s=0.03)
    expect = tb.expected_ping_rtt_s(p)
    err = rtts - expect
    print(f"ping RTT error vs {expect * 1e3:.3f} ms: median {np.median(err) * 1e3:+.3f} ms, "
          f"mean {err.mean() * 1e3:+.3f} ms, min {err.min() * 1e3:+.3f}, max {err.max() * 1e3:+.3f} ms")
    assert len(rtts) == 30
    assert err.min() > -0.05e-3          # never early: the delay line cannot deliver before its time
    assert abs(np.median(err)) < 1e-3
    # three quarters of the pings within 1 ms: the line's own error.  Not the mean: a single ping the host held
    # (a VM can hold the delay line's process for tens of ms; seen in CI: 1 of 30 at +22 ms, mean +1.19 ms,
    # median +0.44 ms) moves the mean past 1 ms while every other ping is on time.
    assert abs(np.percentile(err, 75)) < 1e-3
    assert _our_namespaces() == []


@live
@pytest.mark.parametrize("rate_bps", [5e6, 20e6])
def test_calibration_tcp_goodput_within_2_percent(rate_bps):
    r = tb.run_transfer([tb.path(rate_bps, 0.01)], tb.KernelSettings(congestion="reno"), mptcp=False,
                        duration_s=2.5, warmup_s=1.0)
    ideal = tb.tcp_goodput_bps(rate_bps)
    err = r.throughput_bps / ideal - 1
    print(f"{rate_bps / 1e6:g} Mbit/s: goodput {r.throughput_bps / 1e6:.3f} Mbit/s vs {ideal / 1e6:.3f} ({err:+.2%})")
    assert abs(err) < 0.02
    row = r.to_row()
    assert row["simulator"] == "linux-tcp" and row["congestion_used"] == "reno" and row["k_sack"] is True
    c = r.counters[0]
    assert c["ab"]["write_errors"] == 0 and c["ab"]["random_drops"] == 0
    assert c["ab"]["max_queue_packets"] <= r.paths[0].forward.queue_packets
    assert _our_namespaces() == []


# ---------------------------------------------------------------- live: MPTCP, loss, cleanup
@live
def test_mptcp_uses_both_paths():
    paths = [tb.path(8e6, 0.01), tb.path(8e6, 0.02)]
    r = tb.run_transfer(paths, tb.KernelSettings(congestion="cubic"), mptcp=True, duration_s=2.5, warmup_s=1.0)
    row = r.to_row()
    total = row["sub0_bytes"] + row["sub1_bytes"]
    assert min(row["sub0_bytes"], row["sub1_bytes"]) > 0.25 * total
    assert r.throughput_bps > 1.4 * tb.tcp_goodput_bps(8e6)   # more than one path can carry
    assert set(r.subflows) == {0, 1} and row["sub1_cc"] == "cubic"
    assert row["simulator"] == "linux-mptcp" and row["mptcp_scheduler"]
    assert _our_namespaces() == []


@live
def test_random_loss_and_sized_transfer():
    r = tb.run_transfer([tb.path(10e6, 0.005, loss=0.02)], mptcp=False, transfer_bytes=600_000)
    assert r.completed and r.received_bytes == 600_000 and r.completion_time_s > 0
    ab = r.counters[0]["ab"]
    n, k = ab["rx_packets"], ab["random_drops"]
    assert abs(k - 0.02 * n) < 4 * np.sqrt(0.02 * 0.98 * n) + 1
    assert r.counters[0]["ba"]["random_drops"] == 0


@live
def test_cleanup_on_error_and_stale_namespaces():
    with pytest.raises(ZeroDivisionError):
        with tb.Testbed([tb.path(1e6, 0.001)], mptcp=False) as t:
            assert _our_namespaces() == sorted([t.ns_a, t.ns_b]) or len(_our_namespaces()) == 2
            1 / 0
    assert _our_namespaces() == []
    stale = f"{tb.NS_PREFIX}999999999-abcdef-a"
    subprocess.run(["ip", "netns", "add", stale], check=True)
    try:
        assert stale in tb.cleanup_stale()
    finally:
        subprocess.run(["ip", "netns", "del", stale], capture_output=True)
    assert stale not in subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout


@live
def test_cleanup_on_sigint():
    env = {**os.environ, "PYTHONPATH": str(LIB)}
    pr = subprocess.Popen([sys.executable, "-m", "cmtlab.testbed", "--path", "5e6,0.01", "--path", "5e6,0.02",
                           "--duration-s", "20"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    prefix = f"{tb.NS_PREFIX}{pr.pid}-"

    def ours():
        out = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
        return [ln for ln in out.splitlines() if ln.startswith(prefix)]
    try:
        deadline = time.monotonic() + 15
        while len(ours()) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len(ours()) == 2
        time.sleep(0.8)
        pr.send_signal(signal.SIGINT)
        # Cleanup's own bounds add up to about 30 s in the worst case (each endpoint and delay line
        # is given 5 s to stop before SIGKILL); on a loaded 2-core machine 15 s was once too short.
        pr.wait(timeout=60)
        assert ours() == []
        lines = subprocess.run(["pgrep", "-f", f"/run/netns/{prefix}"], capture_output=True, text=True).stdout
        assert lines.strip() == ""
    finally:
        if pr.poll() is None:
            pr.kill()
            pr.wait()
        for ln in ours():
            subprocess.run(["ip", "netns", "del", ln.split()[0]], capture_output=True)


# ---------------------------------------------------------------- the simulator column (no root needed)
def _kernel_like_rows():
    from cmtlab.testbed import experiments as ex
    rows = []
    for kind, d in (("tcp", 0.0), ("mptcp", 0.0), ("mptcp", 0.1)):
        ps = ex.table1_paths(d, "rtt", rate_bps=2e6)
        ps = ps[:1] if kind == "tcp" else ps
        row = dict(congestion="reno", rep=0, kind=kind, meaning="-" if kind == "tcp" else ("both" if d == 0 else "rtt"),
                   delta_s=d, warmup_s=0.5, duration_s=2.0, n_paths=len(ps), throughput_bps=1.0, simulator="linux-mptcp",
                   sub0_bytes=1, k_sack=True)
        for i, p in enumerate(ps):
            row.update({f"path{i}_rate_bps": p.forward.rate_bps, f"path{i}_delay_s": p.forward.delay_s,
                         f"path{i}_rtt_s": p.rtt_s})
        if len(ps) == 1:
            row.update(path1_rtt_s=np.nan)
        rows.append(row)
    import pandas as pd
    return pd.DataFrame(rows)


def test_simulator_column_is_guarded_or_gives_the_same_rows():
    from cmtlab.validation import kernel_sim as ks
    runs = _kernel_like_rows()
    reason = ks.simulator_available()
    if reason is not None:
        assert "cmtlab.sim" in reason
        with pytest.raises(RuntimeError, match="cmtlab.sim"):
            ks.simulate_like_kernel(runs, progress_bar=False)
        return
    sim = ks.simulate_like_kernel(runs, progress_bar=False)
    assert list(sim.kind) == list(runs.kind) and (sim.simulator == "cmtlab.sim").all()
    assert not any(c.startswith("k_") for c in sim.columns)   # kernel settings are not the simulator's
    assert (sim.throughput_bps > 0).all()
    assert (sim.throughput_bps <= 2 * 2e6).all()
    g = ks.kernel_gains(sim)
    assert set(g.delta_ms) == {0, 100}


def test_rate_schedule_is_validated_and_the_reverse_direction_is_not_scheduled():
    with pytest.raises(ValueError, match="rate_schedule_bps"):
        tb.Direction(10e6, 0.01, rate_schedule_bps=(0.0, 0.0))
    with pytest.raises(ValueError, match="rate_schedule_bps"):
        tb.Direction(10e6, 0.01, rate_schedule_bps=[1e6])
    with pytest.raises(ValueError, match="schedule_interval_s"):
        tb.Direction(10e6, 0.01, rate_schedule_bps=(1e6,), schedule_interval_s=0)
    p = tb.EmulatedPath(tb.Direction(10e6, 0.01, rate_schedule_bps=(1e6, 2e6)))
    assert p.back.rate_schedule_bps is None


@live
def test_rate_schedule_replayed_by_the_delay_line():
    """The delay line replays a rate schedule (the same one cmtlab.sim.net.trace_link replays): TCP's
    goodput in 0.1 s bins sits at the payload share of either scheduled rate (10 / 2 Mbit/s, 2 s
    each) except around the changes (the schedule starts when the line is ready, the transfer a
    fraction of a second later), and its mean is the schedule's."""
    f = tb.Direction(10e6, 0.01, queue_packets=50, rate_schedule_bps=(10e6, 10e6, 2e6, 2e6))
    r = tb.run_transfer([tb.EmulatedPath(f)], tb.KernelSettings(congestion="cubic"), mptcp=False, duration_s=8)
    bins = r.goodput.goodput_bps.to_numpy()[2:78]
    hi, lo = tb.tcp_goodput_bps(10e6), tb.tcp_goodput_bps(2e6)
    near = np.minimum(np.abs(bins - hi) / hi, np.abs(bins - lo) / lo) <= 0.15
    assert near.mean() >= 0.75, bins
    assert (np.abs(bins - hi) / hi <= 0.15).sum() >= 20 and (np.abs(bins - lo) / lo <= 0.15).sum() >= 20
    assert r.throughput_bps == pytest.approx((hi + lo) / 2, rel=0.1)


@live
def test_replay_check_measures_the_schedule_at_the_line():
    """The delay line's own per-interval count (bytes written out, binned by write time minus the delay) of
    a schedule replayed under one CUBIC flow: every interval in which its serialiser stayed busy delivered
    the scheduled rate within one packet; the transfer began a fraction of a second into the schedule, and
    the row records where (what cmtlab.sim needs to replay the same rates)."""
    from cmtlab.today.kernel import replay_check_testbed, replay_summary

    t = replay_check_testbed((8e6, 2e6, 6e6, 12e6, 4e6, 6e6, 3e6), 0.01, queue_packets=200, warmup_s=2.0)
    assert 0 < t.schedule_offset_s.iloc[0] < 3 and (t.max_late_s < 0.05).all()
    b = t[t.backlogged]
    assert len(b) >= 3 and (b.error_packets.abs() <= 1.0).all(), t
    assert replay_summary(t).iloc[0].share_within_2pct_or_1_packet == 1.0


def test_jitter_is_validated_and_only_on_the_data_direction():
    with pytest.raises(ValueError, match="jitter_s"):
        tb.Direction(10e6, 0.01, jitter_s=-0.001)
    with pytest.raises(ValueError, match="jitter_s"):
        tb.Direction(10e6, 0.01, jitter_s=2.0)
    p = tb.path(10e6, 0.01, jitter_s=0.004)
    assert p.forward.jitter_s == 0.004 and p.back.jitter_s == 0.0


@live
def test_jitter_calibration_ping():
    """Per-packet delay variation (``jitter_s``, uniform in [0, J) on the data direction): ping RTTs
    exceed the configured round trip by a draw in [0, J) (within the 1 ms calibration contract), with
    median J/2 and interquartile range J/2 — the distribution cmtlab.sim's JitterLink draws from."""
    J = 0.01
    p = tb.path(10e6, 0.02, jitter_s=J)
    rtts = tb.ping(p, count=200, interval_s=0.01)
    extra = rtts - tb.expected_ping_rtt_s(p)
    print(f"jitter {J * 1e3:.1f} ms: extra RTT mean {extra.mean() * 1e3:.3f} ms, sd {extra.std() * 1e3:.3f} ms, "
          f"min {extra.min() * 1e3:+.3f}, max {extra.max() * 1e3:+.3f} ms")
    assert len(rtts) == 200
    assert extra.min() > -0.05e-3  # never early
    # robust to the timer lateness of a loaded machine (a positive tail): median J/2, interquartile range
    # J/2 (uniform), and nearly every echo inside [0, J) plus the 1 ms calibration contract
    assert np.median(extra) == pytest.approx(J / 2, abs=1e-3)
    q1, q3 = np.percentile(extra, [25, 75])
    assert q3 - q1 == pytest.approx(J / 2, abs=1.5e-3)
    assert (extra < J + 1e-3).mean() >= 0.9
    assert _our_namespaces() == []


def test_a_trace_snapshot_reads_subflows_memory_and_the_connection_after_the_separator():
    """``ss -tinmH`` then ``--- mptcp`` then ``ss -HMmi`` (the endpoint's snapshot): the subflows' windows, unacked
    segments, bytes sent and socket memory; the connection's written-not-DATA_ACKed bytes and memory; the
    connection's line (same addresses as subflow 0) is not read as a subflow."""
    from cmtlab.testbed import _endpoint
    from cmtlab.testbed.result import MPTCP_SEPARATOR, parse_ss_connection, socket_trace

    assert MPTCP_SEPARATOR in _endpoint._ss_snapshot()  # (the host's own sockets: the format, not the content)
    text = ("ESTAB 0 601576 198.18.0.1:44859 198.18.0.2:5201\n"
            "\t skmem:(r0,rb131072,t0,tb645120,f2136,w657320,o0,bl0,d0) ts sack cubic wscale:10,10 rto:264 "
            "rtt:64.01/3.1 mss:1448 cwnd:112 ssthresh:85 bytes_sent:15549992 retrans:0/8 unacked:112\n"
            "ESTAB 0 130912 198.18.1.1%tbA1:41555 198.18.0.2:5201\n"
            "\t skmem:(r0,rb131072,t0,tb1161216,f1184,w170848,o0,bl0,d0) ts sack cubic wscale:10,10 "
            "rtt:812.451/52.7 cwnd:176 ssthresh:176 bytes_sent:1006040 retrans:0/15 unacked:91\n"
            f"{MPTCP_SEPARATOR}\n"
            "ESTAB 0 0 198.18.0.1:44859 198.18.0.2:5201\n"
            "\t skmem:(r0,rb131072,t0,tb1810432,f2376,w1246904,o0,bl0,d0) subflows_max:2 "
            "write_seq:d9950fc058ce73c1 snd_una:d9950fc058cd7411\n")
    d = tb.parse_ss(text, ["198.18.0.1", "198.18.1.1"], trace=True)
    assert set(d) == {0, 1} and d[0]["cc"] == "cubic" and d[0]["send_q_bytes"] == 601576
    assert (d[0]["wmem_bytes"], d[0]["sndbuf_bytes"], d[1]["unacked"], d[1]["bytes_sent"]) == (657320, 645120, 91, 1006040)
    assert "wmem_bytes" not in tb.parse_ss(text, ["198.18.0.1", "198.18.1.1"])[0]  # rows keep their columns
    c = parse_ss_connection(text)
    assert c == {"send_q_bytes": float(0xd9950fc058ce73c1 - 0xd9950fc058cd7411), "wmem_bytes": 1246904.0,
                 "sndbuf_bytes": 1810432.0}
    tr = socket_trace([(10.5, text), (10.55, text)], ["198.18.0.1", "198.18.1.1"], 10.0)
    assert list(tr.path) == [0, 1, -1, 0, 1, -1] and tr.t_s.iloc[0] == pytest.approx(0.5)
    assert _endpoint._subflow_congestions(text, "198.18.1.1") == ["cubic", "cubic"]  # skmem before the name
