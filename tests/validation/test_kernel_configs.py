"""The named simulator configurations of :func:`cmtlab.validation.kernel_sim.simulate_like_kernel`: the kernel-like
one by default, the earlier ones by name and unchanged."""

import pandas as pd
import pytest

from cmtlab.today import DATA_DIR
from cmtlab.validation import kernel_sim as ks


def _recorded(cell, rep=0):
    k = pd.read_csv(DATA_DIR / "kernel_cells.csv")
    s = pd.read_csv(DATA_DIR / "kernel_cells_sim.csv")
    return k[(k.cell == cell) & (k.rep == rep)], s[(s.cell == cell) & (s.rep == rep)]


def test_the_default_is_todays_linux_over_the_delay_line_as_it_is():
    k, _ = _recorded("tcp cubic 10M/60ms 1% loss")
    r = ks.simulate_like_kernel(k, progress_bar=False).iloc[0]
    assert ks.DEFAULT_CONFIG == "linux" and r.sim_kernel_config == "linux"
    assert (r.sim_congestion, r.sim_scheduler, r.sim_loss_draws) == ("cubic", "linux", "delay_line")
    assert r.sim_segment_bytes == 1448


@pytest.mark.parametrize("config", ["today", "today-dupack", "before"])
def test_the_chapters_earlier_configurations_give_their_recorded_rows(config):
    """The today's-transport chapter's recorded simulator rows (``kernel_cells_sim.csv``) come out again, number for
    number, when their configuration is named."""
    k, s = _recorded("tcp cubic 10M/60ms 1% loss")
    want = s[s.sim_config == config].iloc[0]
    got = ks.simulate_like_kernel(k, config, progress_bar=False, warmup_counters=True).iloc[0]
    for col in ("throughput_bps", "received_bytes", "sub0_retrans_total", "sub0_timeouts", "sub0_queue_drops",
                "sub0_loss_drops", "sub0_queue_drops_warmup"):
        assert got[col] == want[col], col


def test_ns3_uncoupled_is_the_first_kernel_like_configuration():
    k, _ = _recorded("tcp cubic 10M/60ms 1% loss")
    r = ks.simulate_like_kernel(k, "ns3-uncoupled", progress_bar=False).iloc[0]
    assert (r.sim_congestion, r.sim_scheduler) == ("uncoupled", "lowest_rtt") and "sim_loss_draws" not in r
    custom = ks.simulate_like_kernel(k, {"cubic": dict(congestion="uncoupled", scheduler="lowest_rtt")},
                                     progress_bar=False).iloc[0]
    assert custom.throughput_bps == r.throughput_bps and custom.sim_kernel_config == "custom"


def test_bad_configurations_are_named():
    k, _ = _recorded("tcp cubic 10M/60ms 1% loss")
    with pytest.raises(ValueError, match="config must be one of"):
        ks.simulate_like_kernel(k, "linux-5.4", progress_bar=False)
    with pytest.raises(ValueError, match="k_congestion = 'bbr'"):
        ks.simulate_like_kernel(k.assign(k_congestion="bbr"), progress_bar=False)
    with pytest.raises(ValueError, match="link_counting"):
        ks.simulate_like_kernel(k, link_counting="exact", progress_bar=False)


def test_another_scheduler_on_the_default_leaves_the_linux_schedulers_parameters():
    """The OSIA chapter's today's-stack column runs the paper's schedulers on the default configuration: a scheduler
    other than the preset's runs without the Linux scheduler's send buffers and joins (which it would refuse), the
    rest of today's Linux stays; given explicitly, scheduler_params are the caller's."""
    k, _ = _recorded("mptcp cubic 10M/20ms + 10M/100ms")
    k = k.assign(duration_s=3.0, warmup_s=1.0)
    linux = ks.simulate_like_kernel(k, progress_bar=False).iloc[0]
    rr = ks.simulate_like_kernel(k, scheduler="round_robin", progress_bar=False).iloc[0]
    assert (rr.sim_scheduler, rr.sim_congestion, rr.sim_kernel_config) == ("round_robin", "cubic", "linux")
    assert rr.sim_segment_bytes == linux.sim_segment_bytes and rr.throughput_bps != linux.throughput_bps
    same = ks.simulate_like_kernel(k, scheduler="linux", progress_bar=False).iloc[0]
    assert same.throughput_bps == linux.throughput_bps  # the preset's own scheduler keeps its parameters
    with pytest.raises(ValueError, match="memory_check"):
        ks.simulate_like_kernel(k, scheduler_params={"send_buffers": True, "memory_check": "page"}, progress_bar=False)
