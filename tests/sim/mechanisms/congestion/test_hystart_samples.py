"""HyStart's RTT samples (``hystart_samples`` of :class:`~cmtlab.sim.mechanisms.congestion.cubic.Cubic`): the
sender's estimator's (default) or Linux's ``ca_rtt_us`` (``"ca_rtt"``): the round trip of the newest original
segment an ACK SACKs, else of the newest it acknowledges cumulatively, on SACK-only ACKs too."""

import numpy as np
import pytest

from cmtlab.sim import simulate_mptcp
from cmtlab.sim.mechanisms.congestion import cubic as cubic_module
from cmtlab.sim.presets import LINUX_CONGESTION, linux
from cmtlab.today import agreement, kernel


def _run_recording(monkeypatch, samples, **kw):
    """One CUBIC flow with the preset; every HyStart call records (ACK time, cumulative ACK, ca_rtt sample, count)."""
    seen = []
    original = cubic_module.Cubic._hystart_exit

    def spy(self, sub, cwnd_segs):
        seen.append((sub.ack_time_ns, sub.una, sub.cc_rtt_ns, sub.cc_rtt_samples, sub.rtt_samples_taken))
        return original(self, sub, cwnd_segs)

    monkeypatch.setattr(cubic_module.Cubic, "_hystart_exit", spy)
    p = linux("cubic", mptcp=False)
    p["congestion_params"]["hystart_samples"] = samples
    r = simulate_mptcp([10e6], [0.04], duration_s=1.0, seed=0, trace=True, **dict(p, **kw))
    return r, seen


def test_a_cumulative_ack_samples_the_newest_segment_it_acknowledges(monkeypatch):
    """Loss- and reordering-free: each new ca_rtt sample is the ACK's arrival minus the send time of segment
    ``ack - 1`` (the newest acknowledged), exactly."""
    r, seen = _run_recording(monkeypatch, "ca_rtt")
    pk = r.traces["packets"]
    assert not pk.retransmission.any()
    sent = pk.groupby("seq").time_s.first()
    t0 = None
    checked = 0
    last = 0
    for ack_ns, una, rtt_ns, n, _ in seen:
        if n == last:
            continue
        last = n
        if t0 is None:  # the traces' clock starts at the first data segment: align on the first sample
            t0 = ack_ns / 1e9 - rtt_ns / 1e9 - sent[una - 1]
        assert ack_ns / 1e9 - t0 - sent[una - 1] == pytest.approx(rtt_ns / 1e9, abs=1e-6)
        checked += 1
    assert checked > 20  # (HyStart is asked only in slow start)


def test_sack_only_acks_give_samples_too_on_a_jittered_path(monkeypatch):
    """With per-packet delay variation the receiver SACKs reordered segments: ca_rtt is sampled on those ACKs as
    well, so more often than the estimator, which samples only when the cumulative ACK advances."""
    links = [("delay_line", {"jitter_s": 0.004, "counting": "delay_line"})]
    r, seen = _run_recording(monkeypatch, "ca_rtt", links=links)
    ca, est = seen[-1][3], seen[-1][4]
    assert ca > est > 0


def test_on_the_jittered_lossy_cell_ca_rtt_ends_slow_start_before_the_queue_fills_as_the_kernel_does():
    """``tcp cubic 20M/40ms jitter 2ms 0.2% loss``, the kernel's five runs: no queue drop in four (13 in one).
    With the estimator's samples — the oldest segment each cumulative ACK covers, the lowest of a round trip on a
    jittered path — the simulator's slow start overruns the 100-packet queue in the warm-up in four runs; with
    ca_rtt in at most one."""
    rows = kernel.wider_kernel()
    rows = rows[rows.cell == "tcp cubic 20M/40ms jitter 2ms 0.2% loss"]
    assert int((rows.sub0_queue_drops == 0).sum()) == 4
    base = agreement.SIM_CONFIGS["linux"]
    drops = {}
    for samples in ("estimator", "ca_rtt"):
        cfg = {cc: dict(v, congestion_params=dict(LINUX_CONGESTION[cc][1],
                                                  **({"hystart_samples": samples} if cc == "cubic" else {})))
               for cc, v in base.items()}
        s = agreement.sim_runs(rows, {samples: cfg}, progress_bar=False)
        drops[samples] = np.asarray(s.sub0_queue_drops_warmup)
    assert (drops["estimator"] > 0).sum() >= 3 and drops["estimator"].max() > 50
    assert (drops["ca_rtt"] > 0).sum() <= 1 and drops["ca_rtt"].max() < 20


def test_the_preset_runs_linux_samples_and_whole_segment_reduction_and_a_bad_value_is_named():
    params = LINUX_CONGESTION["cubic"][1]
    assert params["hystart_samples"] == "ca_rtt" and params["reduce_from"] == "snd_cwnd"
    cc = cubic_module.LinuxCubic(**{k: v for k, v in params.items() if k != "variant"})
    assert cc.hystart_samples == "ca_rtt" and cc.reduce_from == "snd_cwnd"
    with pytest.raises(ValueError, match="hystart_samples"):
        cubic_module.LinuxCubic(hystart=True, hystart_samples="srtt")
