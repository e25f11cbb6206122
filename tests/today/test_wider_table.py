"""Issue 37's wider agreement table: the kernel's runs of :data:`cmtlab.today.kernel.WIDER_CELLS` as recorded
(every cell's paths as the cell defines them, 5 repetitions), and the table counted per metric from the pinned
simulator rows exactly as recorded."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from cmtlab.today import kernel, recorded


def _queue(row, i):
    qp, qb = row[f"path{i}_queue_packets"], row[f"path{i}_queue_bytes"]
    return ("bytes", int(qb)) if pd.notna(qb) else int(qp)


def test_the_kernel_ran_every_wider_cell_as_it_is_defined():
    k = recorded("kernel_cells_wider.csv")
    assert len(kernel.WIDER_CELLS) >= 10
    assert set(k.cell) == {c["cell"] for c in kernel.WIDER_CELLS}
    for c in kernel.WIDER_CELLS:
        rows = k[k.cell == c["cell"]]
        assert sorted(rows.rep) == [0, 1, 2, 3, 4] and (rows.k_congestion == c["congestion"]).all()
        assert (rows.n_paths == len(c["paths"])).all()
        for i, (rate, delay, q, loss, *jitter) in enumerate(c["paths"]):
            r = rows.iloc[0]
            assert r[f"path{i}_rate_bps"] == rate and r[f"path{i}_delay_s"] == pytest.approx(delay)
            assert r[f"path{i}_loss"] == pytest.approx(loss)
            if q is not None:  # None: the testbed sized the queue from the path's bandwidth-delay product
                assert _queue(r, i) == q
            if jitter:
                assert r[f"path{i}_jitter_s"] == pytest.approx(jitter[0])
        assert (rows.throughput_bps < sum(p[0] for p in c["paths"])).all()


def test_the_wider_kinds_name_paths_queues_and_asymmetry():
    kinds = {c["cell"]: kernel.cell_kind(c["cell"]) for c in kernel.WIDER_CELLS}
    assert kinds["mptcp cubic 3 paths 10M/20ms + 5M/80ms + 2M/160ms"] == "mptcp 3 paths asymmetric"
    assert kinds["mptcp cubic 5M/30ms + 5M/240ms queue 10"] == "mptcp queue"
    assert kinds["mptcp cubic 10M/20ms queue 30kB + 10M/80ms queue 150kB"] == "mptcp queue"
    assert kinds["mptcp cubic 3 paths BDP queues"] == "mptcp 3 paths asymmetric"
    assert kinds["mptcp cubic 10M/40ms 0.5% loss + 10M/100ms"] == "mptcp loss"
    assert kinds["mptcp cubic 20M/20ms + 2M/600ms"] == "mptcp asymmetric"


def test_the_wider_table_is_the_recorded_one_and_counts_per_metric():
    agree = kernel.wider_agreement()
    rec = recorded("kernel_agreement_wider.csv")
    pd.testing.assert_frame_equal(agree.reset_index(drop=True), rec, check_dtype=False)
    n_cells = len(kernel.CELLS) + len(kernel.WIDER_CELLS)
    assert (agree.sim_config == "linux").sum() == n_cells * len(kernel.METRICS)
    assert (agree.sim_config == "today").sum() == n_cells * len(kernel.METRICS)
    by = kernel.agreement_by_metric(agree).set_index(["sim_config", "metric"])
    for cfg in ("linux", "today"):
        a = agree[agree.sim_config == cfg]
        for m in kernel.METRICS:
            assert by.loc[(cfg, m), "inside"] == a[a.metric == m].inside.sum()
            assert by.loc[(cfg, m), "n"] == n_cells
    # inside is the simulator's mean within the kernel's [min, max], recomputed here from the rows
    a = agree[(agree.sim_config == "linux") & (agree.metric == "goodput_mbps")]
    k, s = kernel.wider_kernel(), recorded("kernel_cells_wider_sim.csv")
    for _, r in a.iterrows():
        kg = k[k.cell == r.cell].throughput_bps / 1e6
        sg = s[(s.cell == r.cell) & (s.sim_config == "linux")].throughput_bps / 1e6
        assert len(sg) == len(kg) and r.inside == bool(kg.min() <= sg.mean() <= kg.max())
        assert np.isclose(r.ratio, sg.mean() / kg.mean())


def test_arabis_scenarios_on_the_kernel_are_the_jobs_as_defined():
    """``kernel_arabi_paper.csv``: every job of :func:`cmtlab.testbed.experiments.arabi_paper_jobs` once, with the
    paper's paths and the variant's switches; goodput at most the paths' capacity plus what their queues held."""
    from cmtlab.testbed.experiments import ARABI_PAPER_VARIANTS, ARABI_SCENARIOS, arabi_paper_jobs

    k = recorded("kernel_arabi_paper.csv")
    jobs = arabi_paper_jobs()
    assert len(k) == len(jobs) == 2 * len(ARABI_PAPER_VARIANTS) * 5
    assert set(zip(k.scenario, k.variant, k.rep)) == {(j["labels"]["scenario"], j["labels"]["variant"],
                                                       j["labels"]["rep"]) for j in jobs}
    for r in k.itertuples():
        rates, delays = ARABI_SCENARIOS[r.scenario]
        assert r.n_paths == len(rates) and r.k_congestion == "reno"
        for i, (rate, delay) in enumerate(zip(rates, delays)):
            assert getattr(r, f"path{i}_rate_bps") == rate and getattr(r, f"path{i}_delay_s") == pytest.approx(delay)
        v = ARABI_PAPER_VARIANTS[r.variant]
        assert (bool(r.k_dsack), int(r.k_frto), bool(r.k_timestamps)) == (v["dsack"], v["frto"], v["timestamps"])
        # goodput over [warm-up, end] may exceed the rates by what the queues held at the warm-up (100 packets of
        # at most 1500 bytes per path, delivered within the measured seconds)
        queued_bits = 8 * 1500 * sum(getattr(r, f"path{i}_queue_packets") for i in range(len(rates)))
        assert 0 < r.throughput_bps <= sum(rates) + queued_bits / (r.duration_s - r.warmup_s)


def test_the_wider_facts_count_what_the_table_shows():
    """The glued counts of the wider table are the table's own: per metric and configuration the cell metrics inside
    the kernel's spread, the total and its share, the goal's verdict, one explained miss per miss."""
    from cmtlab.today import chapter

    agree = kernel.wider_agreement()
    lin = agree[agree.sim_config == "linux"]
    misses = kernel.explain(agree.iloc[:0], kernel.wider_kernel(), recorded("kernel_cells_wider_sim.csv"),
                            sim_config="linux")
    steps = pd.DataFrame(dict(cell=["c", "c", "c"], key=["configured", "no_msk_rtx", "no_conn_buffer"],
                              step=["a", "b", "c"], kernel_mean=1.0, sim_mean=[0.8, 0.9, 2.0],
                              ratio=[0.8, 0.9, 2.0], inside=False))
    f = chapter.wider_facts(wider=agree, misses=misses, steps=steps)
    assert f["wider_cell_metrics"] == len(lin) == 3 * f["wider_cells"]
    assert f["wider_linux_inside"] == int(lin.inside.sum()) == sum(
        f[f"wider_linux_{t}_inside"] for t in ("goodput", "retx", "spurious"))
    assert f["wider_linux_goodput_inside"] == int(lin[lin.metric == "goodput_mbps"].inside.sum())
    assert np.isclose(f["wider_linux_share"], 100 * lin.inside.mean())
    assert f["wider_goal_met"] == ("met" if lin.inside.mean() >= 0.8 else "not met")
    assert (f["sndbuf_configured_lo"], f["sndbuf_no_msk_rtx_hi"], f["sndbuf_no_conn_buffer_hi"]) == (0.8, 0.9, 2.0)
    assert f["wider_misses"] == 0


def test_the_capacity_facts_recount_the_misses_and_the_reno_three_path_kernel_exceeds_its_paths():
    """The glued capacity counts are the misses table's own; on the recorded three-path Reno cell every kernel run's
    window goodput exceeds what its paths can carry (the reordering backlog at the window's start), while the
    simulator's stays below it."""
    from cmtlab.today import chapter

    agree = kernel.wider_agreement()
    misses = kernel.explain(agree, kernel.wider_kernel(), recorded("kernel_cells_wider_sim.csv"), sim_config="linux")
    f = chapter.wider_facts(wider=agree, misses=misses, steps=pd.DataFrame(columns=["key", "ratio"]))
    g = misses[misses.metric == "goodput_mbps"].dropna(subset=["payload_capacity_share_sim"])
    assert f["capacity_goodput_misses"] == len(g) > 0
    assert f["capacity_sim_full"] == int((g.payload_capacity_share_sim >= chapter.CAPACITY_FULL_SHARE).sum())
    assert f["capacity_full_pct"] == 100 * chapter.CAPACITY_FULL_SHARE
    assert f["capacity_kernel_above"] == int((g.payload_capacity_share_kernel_min > 1.0).sum()) >= 1
    above = g[g.payload_capacity_share_kernel_min > 1.0]
    assert f["capacity_kernel_above_sim_below"] == int((above.payload_capacity_share_sim < 1.0).sum())
    k = kernel.wider_kernel()
    reno = k[k.cell == "mptcp reno 3 paths 10M/20ms + 5M/80ms + 2M/160ms"]
    cap = np.array([kernel.payload_capacity_bps(r) for _, r in reno.iterrows()])
    assert (reno.throughput_bps.to_numpy() > cap).all()
    sim = recorded("kernel_cells_wider_sim.csv")
    sim = sim[(sim.cell == reno.cell.iloc[0]) & (sim.sim_config == "linux")]
    assert (sim.throughput_bps.to_numpy() < cap.mean()).all()


def test_the_send_buffer_steps_start_from_the_recorded_rows_and_the_buffer_decides_the_small_queue_cells():
    """``send_buffer_steps`` on the first repetition of the 10-packet-queue cells: the configured step is the recorded
    row's goodput; without the connection's send buffer the simulator delivers no less, on the Reno cell more than
    twice as much (there the buffer decides the goodput; on the CUBIC cell, since Linux's PRR is read on the flight
    after loss marking, the connection-level retransmission repairs the long path's holes before it fills), and Linux's
    connection-level retransmission (on in the preset) delivers more than the same configuration without it."""
    k = kernel.wider_kernel()
    rows = k[k.cell.isin(kernel.SMALL_QUEUE_CELLS) & (k.rep == 0)]
    rec = recorded("kernel_cells_wider_sim.csv")
    st = kernel.send_buffer_steps(rows, configured=rec)
    assert len(st) == len(kernel.SEND_BUFFER_STEPS) * len(kernel.SMALL_QUEUE_CELLS)
    for cell, g in st.groupby("cell"):
        r = g.set_index("key").ratio
        s = rec[(rec.cell == cell) & (rec.sim_config == "linux") & (rec.rep == 0)].throughput_bps.iloc[0] / 1e6
        assert np.isclose(g.set_index("key").sim_mean["configured"], s)
        assert r["no_conn_buffer"] >= r["configured"]
        if cell.startswith("mptcp reno"):
            assert r["no_conn_buffer"] > 2 * r["configured"]
        assert r["configured"] > r["no_msk_rtx"]
    with pytest.raises(ValueError, match="configured must hold"):
        kernel.send_buffer_steps(rows, configured=rec.iloc[:0])


def test_kernel_runs_names_a_bad_mptcp_counters_value_before_setting_anything_up():
    with pytest.raises(ValueError, match="mptcp_counters must be True or False"):
        kernel.kernel_runs(kernel.WIDER_CELLS[:1], mptcp_counters="yes")


def test_the_wider_kernel_rows_count_connection_level_retransmission_and_it_shows_in_the_payload_share():
    """Every recorded wider row holds the kernel's connection-level counters (``mptcp_counters=True``); on the clean
    two-path cells the payload per IP byte is below the full-packet share of the preset's MPTCP packets (short
    packets and retransmissions only lower it) and above that of the earlier configurations' smaller packets (the
    kernel's full packets carry more); a cell where the receiving connection got many segments twice carries less payload per
    IP byte than the clean ones."""
    from cmtlab.sim.presets import linux_segment_bytes
    from cmtlab.today import chapter
    from cmtlab.validation.kernel_sim import EARLIER_MPTCP_PAYLOAD_DEFICIT_BYTES, payload_per_ip_byte

    k = recorded("kernel_cells_wider.csv")
    assert k[["mptcp_retrans_segs", "mptcp_duplicate_data"]].notna().all(axis=None)
    assert (k[["mptcp_retrans_segs", "mptcp_duplicate_data"]] >= 0).all(axis=None)
    per = payload_per_ip_byte(kernel.wider_kernel()).set_index("cell")
    clean = per.loc[list(chapter.CLEAN_TWO_PATH_CELLS)]
    full, earlier = linux_segment_bytes(mptcp=True), 1448 - EARLIER_MPTCP_PAYLOAD_DEFICIT_BYTES
    assert (clean["max"] < full / 1500).all() and (clean["min"] > earlier / 1500).all()
    dup = k.groupby("cell").mptcp_duplicate_data.mean()
    many = dup[dup > 100].index
    assert len(many) and (per.loc[many, "payload_per_ip_byte"] < clean["min"].min()).all()


def test_the_writer_steps_lower_the_long_path_cell_and_the_facts_say_so():
    """``send_buffer_steps`` with :data:`WRITER_STEPS` on the first repetition of :data:`WRITER_CELLS`: the configured
    step is the recorded row's (the 600-ms cell's goodput 1.5 times the kernel's run and more); the testbed's writer
    (a send() only when a third of the connection's buffer is free) with idle restart lowers it, with the later join
    too it stays lower (which of the two is lower is not a property: with the connection-level timer read as Linux
    reads it the join raises it again a little); and the facts glue each step's ratio."""
    from cmtlab.today import chapter

    k = kernel.wider_kernel()
    rows = k[k.cell.isin(kernel.WRITER_CELLS) & (k.rep == 0)]
    rec = recorded("kernel_cells_wider_sim.csv")
    st = kernel.send_buffer_steps(rows, cells=kernel.WRITER_CELLS, configured=rec, changes=kernel.WRITER_STEPS)
    assert len(st) == len(kernel.WRITER_STEPS) * len(kernel.WRITER_CELLS)
    long_cell = st[st.cell == chapter.LONG_PATH_CELL].set_index("key").ratio
    assert long_cell["configured"] > 1.5
    assert long_cell["writer_idle"] < long_cell["configured"] and long_cell["writer_idle_join"] < long_cell["configured"]
    f = chapter.wider_facts(wider=kernel.wider_agreement(), misses=pd.DataFrame(), steps=st[st.key == "configured"],
                            writer_steps=st)
    assert f["long_cell_writer_idle_ratio"] == long_cell["writer_idle"]
    sq = st[st.cell.isin(kernel.SMALL_QUEUE_CELLS) & (st.key == "writer_idle")]
    assert (f["small_queue_writer_idle_lo"], f["small_queue_writer_idle_hi"]) == (sq.ratio.min(), sq.ratio.max())
    assert f["small_queue_writer_idle_inside"] == int(sq.inside.sum()) and f["small_queue_cells"] == 2
    with pytest.raises(ValueError, match="changes must be"):
        kernel.send_buffer_steps(rows, cells=kernel.WRITER_CELLS, changes={"writer": ("w", {"writer_wakeup": True})})


def test_the_mechanism_ledger_counts_what_each_mechanism_moves():
    """``mechanism_ledger`` on the three-path CUBIC cell: the preset's count is the recorded agreement's; the testbed's
    writer moves its goodput into the kernel's spread (the connection's send buffer stalls the fast paths, as on the
    kernel); each mechanism's count is the preset's plus what it moves in minus what it moves out; the facts glue the
    counts."""
    from cmtlab.today import chapter

    k = kernel.wider_kernel()
    rec = recorded("kernel_cells_wider_sim.csv")
    cell = "mptcp cubic 3 paths 10M/20ms + 5M/80ms + 2M/160ms"
    led = kernel.mechanism_ledger(k, rec, cells=[cell]).set_index("key")
    assert list(led.index) == [*kernel.LINUX_MECHANISMS, "all"]
    assert (led.n == 3).all() and (led.inside_preset == led.inside_preset.iloc[0]).all()
    base = kernel.agreement(k[k.cell == cell], rec[(rec.sim_config == "linux") & (rec.cell == cell)])
    assert led.inside_preset.iloc[0] == int(base.inside.sum())
    assert led.moved_in["writer_wakeup"].split("; ") == [f"{cell}: goodput_mbps"]
    for key, r in led.iterrows():
        moved_in = r.moved_in.split("; ") if r.moved_in else []
        moved_out = r.moved_out.split("; ") if r.moved_out else []
        assert r.inside_with == r.inside_preset + len(moved_in) - len(moved_out), key
    f = chapter.wider_facts(wider=kernel.wider_agreement(), misses=pd.DataFrame(),
                            steps=pd.DataFrame(dict(cell=["c"], key=["configured"], step=["a"], kernel_mean=1.0,
                                                    sim_mean=1.0, ratio=1.0, inside=True)),
                            ledger=led.reset_index())
    assert (f["ledger_writer_wakeup_inside"], f["ledger_writer_wakeup_in"], f["ledger_n"]) == (
        int(led.inside_with["writer_wakeup"]), 1, 3)
    all_, preset = int(led.inside_with["all"]), int(led.inside_preset["all"])
    assert f["ledger_all_vs_preset"] == ("more" if all_ > preset else "as many" if all_ == preset else "fewer")
    with pytest.raises(ValueError, match="configured must hold"):
        kernel.mechanism_ledger(k, rec.iloc[:0], cells=[cell])


def test_the_socket_traces_show_linux_join_writer_threshold_and_hystart():
    """The recorded ``ss`` traces (pinned): the 600-ms subflow's first data comes the short path's round trip plus two
    of its own after the short subflow's (the join's fourth ACK); whenever both subflows idle, less than a third of
    the connection's send buffer is free (the writer is woken at a third: ``sk_stream_write_space``), though some is;
    after idle periods of two RTOs and more the short subflow's window is smaller than before; the jittered cell
    leaves slow start before its first retransmission."""
    from cmtlab.today import chapter

    tr = recorded("kernel_socket_traces.csv")
    f = chapter.socket_trace_facts(tr)
    assert 1.7 < f["trace_join_rtts_lo"] <= f["trace_join_rtts_hi"] < 2.3
    t = tr[tr.cell == chapter.LONG_PATH_CELL]
    s0, s1, msk = (t[t.path == p].set_index("t_s") for p in (0, 1, -1))
    both = s0[["send_q_bytes"]].join(s1[["unacked_segments"]]).join(msk[["wmem_bytes", "sndbuf_bytes"]]).dropna()
    stall = both[(both.send_q_bytes == 0) & (both.unacked_segments <= 1)]
    assert len(stall) >= 5
    free = stall.sndbuf_bytes - stall.wmem_bytes
    assert (free > 0).all() and (free < stall.sndbuf_bytes / 3).all()
    assert f["trace_stall_free_mb"] == pytest.approx(free.max() / 1e6)
    assert f["trace_restart_after_hi"] < f["trace_restart_before_hi"]
    assert f["trace_hystart_retrans"] == 0 and f["trace_hystart_cwnd"] > 16
    with pytest.raises(ValueError, match="traces must hold"):
        chapter.socket_trace_facts(tr.iloc[:0])


def test_the_kernel_rerun_covers_every_cell_with_the_recorded_seeds_and_reads_as_its_readme_says():
    """``kernel_cells_rerun.csv`` (the kernel again on another build, seeds 0-2): every cell of the wider table three
    times with the recorded repetitions' seeds, on a kernel build other than the recording's, and its mean inside the
    recorded spread on the number of cell metrics ``data/today/README.md`` states (63 of 78)."""
    rerun = recorded("kernel_cells_rerun.csv")
    k = kernel.wider_kernel()
    assert set(rerun.cell) == set(k.cell) and (rerun.groupby("cell").rep.apply(sorted) == pd.Series(
        [[0, 1, 2]] * rerun.cell.nunique(), index=sorted(rerun.cell.unique()))).all()
    assert set(rerun.kernel).isdisjoint(set(k.kernel))
    a = kernel.agreement(k, rerun.assign(sim_config="rerun"))
    assert len(a) == 78 and int(a.inside.sum()) == 63
    assert "63 of 78" in (Path(__file__).parents[2] / "data" / "today" / "README.md").read_text()


def test_rerun_facts_equal_a_recount_from_the_two_agreement_tables():
    """:func:`cmtlab.today.chapter.rerun_facts` against a recount: the re-run's and the simulator's cell metrics
    inside the recorded spread from two separate :func:`agreement` calls (the simulator's equal to the wider table's
    ``linux`` count), the misses both share, the single runs inside counted run by run, the builds from the rows."""
    from cmtlab.today import chapter

    k, rerun = kernel.wider_kernel(), recorded("kernel_cells_rerun.csv")
    ra = kernel.kernel_rerun_agreement()
    f = chapter.rerun_facts(rerun_agree=ra, kernel_rows=k, rerun=rerun)
    re_a = kernel.agreement(k, rerun.assign(sim_config="x")).set_index(["cell", "metric"]).inside
    wider = kernel.wider_agreement()
    sim_a = wider[wider.sim_config == "linux"].set_index(["cell", "metric"]).inside
    assert f["rerun_inside"] == int(re_a.sum()) and f["sim_inside"] == int(sim_a.sum())
    assert f["sim_out_rerun_out"] == int((~re_a & ~sim_a.reindex(re_a.index)).sum())
    n_in = 0
    for (cell, rep), r in rerun.groupby(["cell", "rep"]):
        kr = k[k.cell == cell]
        for m in kernel.METRICS:
            lo, hi = kernel.agreement(kr, r.assign(sim_config="x"), metrics=(m,)).iloc[0][["kernel_min", "kernel_max"]]
            v = kernel.agreement(kr, r.assign(sim_config="x"), metrics=(m,)).iloc[0].sim_mean
            n_in += int(lo <= v <= hi)
    assert (f["rerun_runs_inside"], f["rerun_runs"]) == (n_in, 3 * len(re_a))
    assert (f["rerun_build"], f["recorded_build"]) == (rerun.kernel.iloc[0], k.kernel.iloc[0])
    assert f["rerun_build"] != f["recorded_build"]


def test_a_ledger_mechanism_replaces_the_loss_detection_and_the_probe_on_send_drops_a_spurious_probe():
    """``probe_on_send`` is a configuration key, not a scheduler parameter: it names Linux's loss detection with the
    probe re-armed at every transmission (``"linux-probe-on-send"``) and leaves the scheduler's parameters alone.  On
    the 10-packet-queue CUBIC cell (kernel: no D-SACKed retransmission in any run) it removes a spurious
    retransmission of the preset's: the probe its last ACK armed, fired just after the scheduler fed the subflow."""
    from cmtlab.sim.presets import LINUX_SCHEDULER_PARAMS
    from cmtlab.today.agreement import _with_mechanisms

    cfg = _with_mechanisms(["probe_on_send"])
    assert {c["loss_detection"] for c in cfg.values()} == {"linux-probe-on-send"}
    assert all(c["scheduler_params"] == LINUX_SCHEDULER_PARAMS for c in cfg.values())
    both = _with_mechanisms(["probe_on_send", "writer_wakeup"])
    assert all(c["loss_detection"] == "linux-probe-on-send" and c["scheduler_params"]["writer_wakeup"]
               for c in both.values())
    k = kernel.wider_kernel()
    rows = k[(k.cell == "mptcp cubic 5M/30ms + 5M/240ms queue 10") & (k.rep == 0)]
    assert rows.sub0_dsack_dups.sum() + rows.sub1_dsack_dups.sum() == 0
    preset = kernel.sim_runs(rows, {"linux": _with_mechanisms([])}, progress_bar=False)
    rearmed = kernel.sim_runs(rows, {"linux": cfg}, progress_bar=False)

    def spurious(s):
        return int(s.sub0_spurious_retransmissions.sum() + s.sub1_spurious_retransmissions.sum())

    assert spurious(rearmed) <= spurious(preset) - 1


def test_linux_buffer_expansion_gives_the_long_subflow_the_kernels_slow_start_overshoot():
    """``sndbuf_expand="not_cwnd_limited"`` (Linux's ``tcp_should_expand_sndbuf``) on Arabi's second scenario against
    the recorded kernel runs: with the preset's buffers, which follow every window at once, the 5-Mbit/s, 200-ms
    subflow is never short of data in its slow start, HyStart ends it at the path's bandwidth-delay product and its
    queue drops stay below every kernel run's; with Linux's rule its buffer lags its window, the scheduler feeds it in
    bursts, HyStart's round starts see an empty queue and slow start ends in a burst of drops in the warm-up, as the
    kernel's does — the run's drops on that path inside the kernel's spread.  The other two paths stay inside theirs."""
    from cmtlab.sim.presets import LINUX_SCHEDULER_PARAMS
    from cmtlab.validation import kernel_sim as KS

    k = kernel.wider_kernel()
    runs = k[k.cell == "mptcp cubic Arabi s2 5M/200ms + 2M/20ms + 7M/100ms"]
    base = KS.KERNEL_CONFIGS["linux"]["cubic"]
    rule = {"cubic": dict(base, scheduler_params=dict(LINUX_SCHEDULER_PARAMS, sndbuf_expand="not_cwnd_limited"))}
    row = runs[runs.rep == 0]
    sim = kernel.sim_runs(row, {"linux": KS.KERNEL_CONFIGS["linux"], "rule": rule}, progress_bar=False)
    preset, linux = (sim[sim.sim_config == c].iloc[0] for c in ("linux", "rule"))
    drops = {i: (int(runs[f"sub{i}_queue_drops"].min()), int(runs[f"sub{i}_queue_drops"].max())) for i in range(3)}
    print({i: (drops[i], int(preset[f"sub{i}_queue_drops"]), int(linux[f"sub{i}_queue_drops"])) for i in range(3)})
    assert preset.sub0_queue_drops < drops[0][0] <= linux.sub0_queue_drops <= drops[0][1]
    assert linux.sub0_queue_drops_warmup > linux.sub0_queue_drops / 2 > preset.sub0_queue_drops_warmup
    for i in (1, 2):
        assert drops[i][0] <= linux[f"sub{i}_queue_drops"] <= drops[i][1] + 1, i
