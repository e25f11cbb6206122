"""cmtlab.testbed under faults and bad input (issue 22).

* whatever kills a run, nothing of it survives the next run (kill -9 mid-transfer, then a clean
  run: no namespace, no endpoint, no delay line of the killed run is left);
* every kernel setting asked for is applied and read back, or the run fails at once naming it
  (MPTCP scheduler, congestion control with MPTCP and with TCP);
* timeouts and lifetimes are validated before anything is set up; a transfer that cannot
  complete (99 % loss) returns a result that says so;
* the CLI answers bad ``--path`` values in one line naming the argument and the accepted form;
  numpy scalars are accepted, strings for booleans and integers are refused by name.

The live tests need root, TUN and MPTCP (skipped with the reason elsewhere, a failure in CI,
like tests/references/test_testbed.py).  Their real-time cost is about 15 s.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import cmtlab.testbed as tb
from cmtlab._paths import REPO
from helpers.testbed import live

LIB = REPO / "lib"


def _namespaces(prefix: str) -> list[str]:
    out = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    return [ln.split()[0] for ln in out.splitlines() if ln.startswith(prefix)]


def _processes_of_run(pid: int) -> list[str]:
    """Command lines of every process that belongs to the run of harness ``pid``: endpoints
    (``--owner-pid PID``) and delay lines (``/run/netns/cmtlab-PID-...``)."""
    found = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit() or int(d.name) == os.getpid():
            continue
        try:
            argv = (d / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        args = [a.decode(errors="replace") for a in argv if a]
        text = " ".join(args)
        if f"/run/netns/{tb.NS_PREFIX}{pid}-" in text or f"{tb.NS_PREFIX}{pid}-" in text \
                or ("cmtlab.testbed._endpoint" in text and f"--owner-pid {pid}" in text):
            found.append(f"{d.name}: {text}")
    return found


# ---------------------------------------------------------------- kill -9, then a clean run
@live
def test_sigkill_mid_transfer_then_clean_run_leaves_nothing():
    env = {**os.environ, "PYTHONPATH": str(LIB)}
    pr = subprocess.Popen([sys.executable, "-m", "cmtlab.testbed", "--path", "5e6,0.01", "--path", "5e6,0.02",
                           "--duration-s", "30"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    prefix = f"{tb.NS_PREFIX}{pr.pid}-"
    try:
        # wait until the transfer runs: both namespaces exist and the receiver lives in B
        deadline = time.monotonic() + 20
        running = False
        while time.monotonic() < deadline and not running:
            ns = _namespaces(prefix)
            if len(ns) == 2:
                b = [n for n in ns if n.endswith("-b")][0]
                pids = subprocess.run(["ip", "netns", "pids", b], capture_output=True, text=True).stdout.split()
                a = [n for n in ns if n.endswith("-a")][0]
                pids_a = subprocess.run(["ip", "netns", "pids", a], capture_output=True, text=True).stdout.split()
                running = bool(pids) and bool(pids_a)
            time.sleep(0.1)
        assert running, f"the run did not start: {pr.stderr.read1(4000) if pr.poll() is not None else ''}"
        time.sleep(1.0)                      # mid-transfer
        pr.send_signal(signal.SIGKILL)
        # not reaped yet (a zombie until its parent waits, as a Jupyter kernel's parent may be slow
        # to): the next run must still see the owner as dead
        deadline = time.monotonic() + 5
        while Path(f"/proc/{pr.pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z" \
                and time.monotonic() < deadline:
            time.sleep(0.05)
        # endpoints and delay lines cannot outlive their parent (PR_SET_PDEATHSIG + owner check)
        deadline = time.monotonic() + 5
        while _processes_of_run(pr.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _processes_of_run(pr.pid) == []
        # the next run removes the killed run's namespaces when it starts
        r = tb.run_transfer([tb.path(5e6, 0.005)], mptcp=False, duration_s=1.0, timeout_s=10)
        assert r.completed and r.throughput_bps > 0
        assert _namespaces(prefix) == []
        assert _processes_of_run(pr.pid) == []
        assert _namespaces(f"{tb.NS_PREFIX}{os.getpid()}-") == []
        pr.wait(timeout=10)
    finally:
        if pr.poll() is None:
            pr.kill()
            pr.wait()
        for n in _namespaces(prefix):
            subprocess.run(["ip", "netns", "del", n], capture_output=True)


@live
def test_stale_endpoint_of_a_dead_run_is_killed_when_a_run_starts():
    """An endpoint left by a dead run (owner PID gone) inside a stale namespace is killed and the
    namespace removed by the next run's start, even when it ignores its parent's death."""
    dead = _dead_pid()
    ns = f"{tb.NS_PREFIX}{dead}-abcdef-b"
    subprocess.run(["ip", "netns", "add", ns], check=True)
    sleeper = subprocess.Popen(["ip", "netns", "exec", ns, "sleep", "120"], start_new_session=True)
    try:
        time.sleep(0.3)
        removed = tb.cleanup_stale()
        assert ns in removed
        sleeper.wait(timeout=5)
        assert ns not in _namespaces(tb.NS_PREFIX)
    finally:
        if sleeper.poll() is None:
            sleeper.kill()
            sleeper.wait()
        subprocess.run(["ip", "netns", "del", ns], capture_output=True)


@live
def test_cli_cleanup_removes_what_a_killed_run_left_and_nothing_else():
    """After a SIGKILL the killed run's namespaces stay until the next run — or ``python -m cmtlab.testbed --cleanup``
    (reliability probe of 22f83c4: the CLI had no way to remove them at once)."""
    dead = _dead_pid()
    stale = f"{tb.NS_PREFIX}{dead}-abcdef-a"
    mine = f"{tb.NS_PREFIX}{os.getpid()}-abcdef-a"   # a live owner: never touched
    for ns in (stale, mine):
        subprocess.run(["ip", "netns", "add", ns], check=True)
    sleeper = subprocess.Popen(["ip", "netns", "exec", stale, "sleep", "120"], start_new_session=True)
    try:
        time.sleep(0.3)
        p = subprocess.run([sys.executable, "-m", "cmtlab.testbed", "--cleanup"], env={**os.environ, "PYTHONPATH": str(LIB)},
                           capture_output=True, text=True, timeout=60)
        assert p.returncode == 0, p.stderr
        assert stale in p.stdout and mine not in p.stdout
        sleeper.wait(timeout=5)
        assert stale not in _namespaces(tb.NS_PREFIX) and mine in _namespaces(tb.NS_PREFIX)
    finally:
        if sleeper.poll() is None:
            sleeper.kill()
            sleeper.wait()
        for ns in (stale, mine):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)


def test_cli_cleanup_is_documented_and_runs_no_transfer(capsys, monkeypatch):
    from cmtlab.testbed.__main__ import main
    monkeypatch.setattr(tb.Testbed, "open", lambda self: pytest.fail("Testbed.open reached"))
    with pytest.raises(SystemExit) as e:
        main(["--help"])
    assert e.value.code == 0 and "--cleanup" in capsys.readouterr().out
    with pytest.raises(SystemExit) as e:
        main(["--cleanup", "--path", "10e6,0.01"])
    err = capsys.readouterr().err
    assert e.value.code == 2 and "--cleanup" in err and "--path" in err and "\n" not in err.strip()
    with pytest.raises(SystemExit) as e:
        main([])
    assert e.value.code == 2 and "--path" in capsys.readouterr().err


@live
def test_namespaces_of_live_runs_are_never_touched():
    """A namespace named after a live process older than it (another run) survives cleanup."""
    other = subprocess.Popen(["sleep", "60"])
    ns = f"{tb.NS_PREFIX}{other.pid}-abcdef-a"
    try:
        subprocess.run(["ip", "netns", "add", ns], check=True)
        assert ns not in tb.cleanup_stale()
        assert ns in _namespaces(tb.NS_PREFIX)
    finally:
        subprocess.run(["ip", "netns", "del", ns], capture_output=True)
        other.kill()
        other.wait()


def test_owner_liveness_sees_zombies_and_reused_pids():
    z = subprocess.Popen(["true"])
    deadline = time.monotonic() + 5
    while tb.hygiene._start_time(z.pid)[0] != "Z" and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not tb.hygiene._pid_alive(z.pid)            # killed, not reaped: dead
    z.wait()
    assert not tb.hygiene._pid_alive(z.pid)            # gone
    assert tb.hygiene._pid_alive(os.getpid())
    assert tb.hygiene._pid_alive(os.getpid(), born_after=time.time())
    # a namespace made a day before this process started cannot be this process's: PID reused
    assert not tb.hygiene._pid_alive(os.getpid(), born_after=tb.hygiene._start_time(os.getpid())[1] - 86400)


def _dead_pid() -> int:
    p = subprocess.Popen(["true"])
    p.wait()
    return p.pid


# ---------------------------------------------------------------- kernel settings applied or refused
@live
def test_unknown_mptcp_scheduler_fails_at_once_naming_it():
    t0 = time.monotonic()
    with pytest.raises((ValueError, RuntimeError), match="mptcp_scheduler"):
        tb.run_transfer([tb.path(5e6, 0.005)], tb.KernelSettings(mptcp_scheduler="nosuchsched"), mptcp=True,
                        duration_s=1.0, timeout_s=10)
    assert time.monotonic() - t0 < 10
    assert _namespaces(f"{tb.NS_PREFIX}{os.getpid()}-") == []


@live
def test_mptcp_scheduler_applied_and_read_back():
    sched = tb.kernel_info()["mptcp_available_schedulers"].split()[0]
    r = tb.run_transfer([tb.path(5e6, 0.005), tb.path(5e6, 0.01)], tb.KernelSettings(mptcp_scheduler=sched),
                        mptcp=True, duration_s=1.0, timeout_s=10)
    row = r.to_row()
    assert row["k_mptcp_scheduler"] == sched and row["mptcp_scheduler_used"] == sched


@live
def test_unknown_congestion_with_mptcp_is_refused_not_replaced():
    t0 = time.monotonic()
    with pytest.raises(ValueError, match=r"congestion.*nosuchcc.*available"):
        tb.run_transfer([tb.path(5e6, 0.005)], tb.KernelSettings(congestion="nosuchcc"), mptcp=True,
                        duration_s=1.0, timeout_s=10)
    assert time.monotonic() - t0 < 10


@live
def test_congestion_used_is_read_back_from_the_subflows(monkeypatch):
    """Even past the up-front check, MPTCP's silent fallback (the socket keeps the name asked for,
    its subflows run the namespace default) fails the run naming the algorithm."""
    monkeypatch.setattr(tb.namespace, "_check_congestion_available", lambda name: None)
    t0 = time.monotonic()
    with pytest.raises(RuntimeError, match="nosuchcc"):
        tb.run_transfer([tb.path(5e6, 0.005)], tb.KernelSettings(congestion="nosuchcc"), mptcp=True,
                        duration_s=1.0, timeout_s=10)
    assert time.monotonic() - t0 < 15


@live
def test_tcp_sender_failure_is_reported_at_once(monkeypatch):
    """With --tcp the sender fails in setsockopt; the run reports that failure at once instead of
    waiting for the receiver's accept timeout."""
    monkeypatch.setattr(tb.namespace, "_check_congestion_available", lambda name: None)
    t0 = time.monotonic()
    with pytest.raises(RuntimeError, match=r"sender.*nosuchcc|nosuchcc.*sender"):
        tb.run_transfer([tb.path(5e6, 0.005)], tb.KernelSettings(congestion="nosuchcc"), mptcp=False,
                        duration_s=1.0, timeout_s=60)
    assert time.monotonic() - t0 < 15
    assert _namespaces(f"{tb.NS_PREFIX}{os.getpid()}-") == []


@live
def test_receiver_failure_is_reported_at_once(monkeypatch):
    """A receiver that cannot start (its bind fails) is reported at once, naming the receiver."""
    real = tb.Testbed._exec

    def bad_bind(self, ns, args, **kw):
        if args and args[0] == "recv":
            args = [a if a != "0.0.0.0" else "203.0.113.9" for a in args]   # not an address of B
        return real(self, ns, args, **kw)
    monkeypatch.setattr(tb.Testbed, "_exec", bad_bind)
    t0 = time.monotonic()
    with pytest.raises(RuntimeError, match="receiver.*(bind|address|setup)"):
        tb.run_transfer([tb.path(5e6, 0.005)], mptcp=False, duration_s=1.0, timeout_s=60)
    assert time.monotonic() - t0 < 15
    assert _namespaces(f"{tb.NS_PREFIX}{os.getpid()}-") == []


@live
def test_row_records_what_the_kernel_used():
    r = tb.run_transfer([tb.path(5e6, 0.005)], tb.KernelSettings(congestion="cubic", ecn=1), mptcp=False,
                        duration_s=1.0, timeout_s=10)
    row = r.to_row()
    assert row["congestion_used"] == "cubic" and row["sub0_cc"] == "cubic"
    assert row["k_ecn"] == 1 and row["sysctl_net.ipv4.tcp_ecn"] == "1"
    assert row["sysctl_net.ipv4.tcp_sack"] == "1"


# ---------------------------------------------------------------- timeouts, lifetimes, incomplete runs
@pytest.mark.parametrize("kw, word", [
    (dict(duration_s=1.0, timeout_s=float("nan")), "timeout_s"),
    (dict(duration_s=1.0, timeout_s=float("inf")), "timeout_s"),
    (dict(duration_s=1.0, timeout_s=1e300), "timeout_s"),
    (dict(duration_s=float("nan")), "duration_s"),
    (dict(duration_s=float("inf")), "duration_s"),
    (dict(duration_s=1e300), "duration_s"),
    (dict(duration_s=1.0, warmup_s=float("nan")), "warmup_s"),
    (dict(transfer_bytes=10**15), "transfer_bytes"),
    (dict(duration_s=1.0, ss_interval_s=-1.0), "ss_interval_s"),
])
def test_run_transfer_validates_times_before_setting_anything_up(kw, word, monkeypatch):
    monkeypatch.setattr(tb.Testbed, "open", lambda self: pytest.fail("Testbed.open reached"))
    with pytest.raises(ValueError, match=word):
        tb.run_transfer([tb.path(5e6, 0.005)], mptcp=False, **kw)


@pytest.mark.parametrize("v", [float("nan"), float("inf"), 1e300, 0, -5, "60"])
def test_testbed_lifetime_validated(v):
    with pytest.raises(ValueError, match="max_lifetime_s"):
        tb.Testbed([tb.path(1e6, 0.01)], max_lifetime_s=v)


@live
def test_transfer_that_cannot_complete_returns_an_incomplete_result():
    t0 = time.monotonic()
    r = tb.run_transfer([tb.path(10e6, 0.005, loss=0.99)], mptcp=False, transfer_bytes=200_000, timeout_s=3)
    assert time.monotonic() - t0 < 20
    assert r.completed is False and r.reason
    assert np.isnan(r.throughput_bps)
    row = r.to_row()
    assert row["completed"] is False and row["incomplete_reason"] == r.reason
    assert r.counters[0]["ab"]["random_drops"] > 0
    assert _namespaces(f"{tb.NS_PREFIX}{os.getpid()}-") == []


# ---------------------------------------------------------------- the CLI
@pytest.mark.parametrize("args, word", [
    (["--path", "10e6,0.01,inf"], "--path"), (["--path", "10e6,0.01,100,1.0"], "--path"),
    (["--path", "10e6,0.01,0.5"], "--path"), (["--path", "-5e6,0.01"], "--path"), (["--path=-5e6,0.01"], "--path"),
    (["--path", "abc"], "--path"), (["--path", "10e6"], "--path"), (["--path", "10e6,nan"], "--path"),
    (["--path", "10e6,0.01", "--duration-s", "nan"], "--duration-s"),
    (["--path", "10e6,0.01", "--duration-s", "inf"], "--duration-s"),
    (["--path", "10e6,0.01", "--bytes", "0"], "--bytes"),
    (["--path", "10e6,0.01", "--duration-s", "1", "--frto", "7"], "--frto"),
    (["--path", "10e6,0.01", "--duration-s", "1", "--timeout-s", "inf"], "--timeout-s"),
    (["--path", "10e6,0.01", "--duration-s", "1", "--congestion", "no such"], "--congestion"),
])
def test_cli_bad_input_one_line_naming_the_argument(args, word, capsys, monkeypatch):
    from cmtlab.testbed.__main__ import main
    monkeypatch.setattr(tb.Testbed, "open", lambda self: pytest.fail("Testbed.open reached"))
    if "--bytes" not in args and "--duration-s" not in args:
        args = args + ["--duration-s", "1"]
    with pytest.raises(SystemExit) as e:
        main(args)
    err = capsys.readouterr().err.strip()
    assert e.value.code == 2, err
    assert "Traceback" not in err and "\n" not in err, err
    assert word in err, err
    if word == "--path":
        assert "RATE_BPS,ONE_WAY_DELAY_S" in err


def test_cli_bad_path_as_a_user_sees_it():
    """The real command line: exit status 2, one line on stderr, nothing set up."""
    env = {**os.environ, "PYTHONPATH": str(LIB)}
    p = subprocess.run([sys.executable, "-m", "cmtlab.testbed", "--path", "10e6,0.01,inf", "--duration-s", "1"],
                       env=env, capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.count("\n") == 1 and "argument --path" in p.stderr and "QUEUE_PACKETS must be finite" in p.stderr


def test_cli_path_parser_accepts_the_documented_forms():
    from cmtlab.testbed.__main__ import _path
    p = _path("10e6,0.01,50,0.01")
    assert p.forward.rate_bps == 10e6 and p.forward.queue_packets == 50 and p.forward.loss == 0.01
    assert p.back.loss == 0.0
    assert _path("2e6,0.1").forward.queue_packets == tb.path(2e6, 0.1).forward.queue_packets


# ---------------------------------------------------------------- library input
def test_numpy_scalars_are_accepted():
    p = tb.path(np.float32(10e6), np.float64(0.01), queue_packets=np.int64(50), loss=np.float32(0.01))
    assert p.forward.rate_bps == pytest.approx(10e6) and p.forward.queue_packets == 50
    d = tb.Direction(np.int64(1_000_000), np.float32(0.02), queue_packets=np.int32(20), loss=np.float64(0.0))
    assert d.rate_bps == 1e6
    ks = tb.KernelSettings(frto=np.int64(2), recovery=np.int64(1), reordering=np.int64(3), ecn=np.int64(1),
                           sack=np.bool_(True), sndbuf_bytes=np.int64(1 << 20))
    assert ks.frto == 2 and ks.sysctls()["net.ipv4.tcp_ecn"] == "1" and ks.sysctls()["net.ipv4.tcp_sack"] == "1"
    t = tb.Testbed([p], seed=np.int64(3), max_lifetime_s=np.float64(60))
    assert t.seed == 3


@pytest.mark.parametrize("kw, word", [
    (dict(sack="yes"), "sack"), (dict(dsack="no"), "dsack"), (dict(timestamps=2), "timestamps"),
    (dict(no_metrics_save="1"), "no_metrics_save"), (dict(ecn=3), "ecn"), (dict(ecn="1"), "ecn"),
    (dict(ecn=True), "ecn"), (dict(frto="2"), "frto"), (dict(frto=2.0), "frto"), (dict(recovery="1"), "recovery"),
    (dict(congestion=None), "congestion"), (dict(mptcp_scheduler="Bad Name!"), "mptcp_scheduler"),
    (dict(mptcp_scheduler=""), "mptcp_scheduler"),
])
def test_kernel_settings_refuse_bad_types_by_name(kw, word):
    with pytest.raises(ValueError, match=word):
        tb.KernelSettings(**kw)


@pytest.mark.parametrize("kw, word", [
    (dict(seed="abc"), "seed"), (dict(seed=-1), "seed"), (dict(seed=1.5), "seed"), (dict(seed=2 ** 40), "seed"),
    (dict(mptcp="yes"), "mptcp"), (dict(settings="reno"), "settings"),
])
def test_testbed_refuses_bad_arguments_by_name(kw, word):
    with pytest.raises(ValueError, match=word):
        tb.Testbed([tb.path(1e6, 0.01)], **kw)


@pytest.mark.parametrize("kw, word", [
    (dict(rate_bps=np.nan, delay_s=0.01), "rate_bps"), (dict(rate_bps=-5e6, delay_s=0.01), "rate_bps"),
    (dict(rate_bps="1e6", delay_s=0.01), "rate_bps"), (dict(rate_bps=1e6, delay_s=0.01, loss=np.nan), "loss"),
    (dict(rate_bps=1e6, delay_s=0.01, loss="0.1"), "loss"), (dict(rate_bps=1e6, delay_s=0.01, queue_packets=0.5), "queue_packets"),
    (dict(rate_bps=1e6, delay_s=0.01, queue_packets=True), "queue_packets"),
    (dict(rate_bps=1e6, delay_s=0.01, queue_bytes=100), "queue_bytes"),
])
def test_direction_refuses_bad_values_by_name(kw, word):
    with pytest.raises(ValueError, match=word):
        tb.Direction(**kw)


def test_tcp_with_several_paths_is_refused(monkeypatch):
    """mptcp=False runs single-path TCP over paths[0]: a second path would be recorded (n_paths=2)
    but never used, so it is refused before anything is set up."""
    monkeypatch.setattr(tb.Testbed, "open", lambda self: pytest.fail("Testbed.open reached"))
    with pytest.raises(ValueError, match="mptcp=False"):
        tb.run_transfer([tb.path(5e6, 0.005), tb.path(5e6, 0.01)], mptcp=False, duration_s=1.0)
    t = tb.Testbed([tb.path(5e6, 0.005), tb.path(5e6, 0.01)], mptcp=False)
    with pytest.raises(ValueError, match="mptcp=False"):
        t.transfer(duration_s=1.0)


# ---------------------------------------------------------------- a real lossy kernel row reaches the simulator
@live
def test_real_lossy_kernel_row_is_simulated_with_its_loss():
    """The issue's example end to end: one 10 Mbit/s path, 60 ms RTT, 1 % loss on the kernel,
    its row re-run by simulate_like_kernel (which used to drop the loss: ~9.6 Mbit/s)."""
    import pandas as pd
    from cmtlab.validation import kernel_sim as ks
    if ks.simulator_available():
        pytest.skip(ks.simulator_available())
    r = tb.run_transfer([tb.path(10e6, 0.03, loss=0.01)], tb.KernelSettings(congestion="reno"), mptcp=False,
                        duration_s=6.0, warmup_s=2.0)
    row = dict(r.to_row(), warmup_s=2.0)
    sim = ks.simulate_like_kernel(pd.DataFrame([row]), progress_bar=False)
    mathis = 1448 * 8 / 0.06 * np.sqrt(1.5 / 0.01)
    print(f"kernel {r.throughput_bps / 1e6:.2f} Mbit/s, simulator {sim.throughput_bps.iloc[0] / 1e6:.2f}, "
          f"Mathis {mathis / 1e6:.2f}")
    assert row["path0_loss"] == 0.01 and sim.sim_loss.iloc[0] == "0.01"
    assert r.counters[0]["ab"]["random_drops"] > 0
    assert r.throughput_bps < 0.5 * 10e6 and sim.throughput_bps.iloc[0] < 0.5 * 10e6


@pytest.mark.parametrize("value", ["inf", "nan", "1e300", "0", "-5", "abc"])
def test_delay_line_refuses_a_lifetime_it_cannot_keep(value):
    """An infinite or huge --max-runtime-s used to overflow the deadline: the line exited at once
    and the user saw 'Cannot find device "tbB0"'.  It is refused by name before anything opens."""
    try:
        exe = tb.build_delayline()
    except RuntimeError as exc:
        pytest.skip(str(exc))
    p = subprocess.run([str(exe), "--ns-a", "/nonexistent", "--dev-a", "x", "--ns-b", "/nonexistent", "--dev-b", "y",
                        "--max-runtime-s", value], capture_output=True, text=True, timeout=10)
    assert p.returncode == 64 and "--max-runtime-s" in p.stderr
