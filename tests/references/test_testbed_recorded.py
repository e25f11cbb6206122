"""cmtlab.testbed.recorded: the Linux chapter's recorded kernel runs (data/testbed/) and the live subset beside them.

Everything except the last test is pure data (no kernel): which runs a parameter set asks for, which of them a
recording serves (only exact configurations — a changed parameter makes the affected runs live, never a
mismatched record), the agreement rule, and the recording on disk against its provenance and against the
chapter's full-profile parameters.  The last test runs one short transfer on the kernel (under the testbed
skip rule of tests/references/test_testbed.py) to check that a real row matches its job's key and nothing else.
"""

from __future__ import annotations


import numpy as np
import pandas as pd
import pytest

from cmtlab._git import git
from cmtlab.report.parameters import validate_parameters
from cmtlab.validation.parameters import LINUX_MPTCP_VALIDATION
from cmtlab.validation import kernel_table as tc
from cmtlab.testbed import experiments as ex
from cmtlab.validation import kernel_sim as ks
from cmtlab.testbed import recorded as rd
from helpers.testbed import live

FULL = rd.chapter_parameters("full")
LIVE = dict(live="subset", live_calib_rates_mbps=[20], live_congestions=["reno", "cubic"], live_deltas_ms=[0, 500],
            live_repetitions=1)


def _goodput(job: dict) -> float:
    """A made-up but deterministic goodput per job (Mbit/s scale), different per repetition."""
    lab = job["labels"]
    base = 9.6e6 if lab.get("kind") == "tcp" else 18e6 - 10e6 * lab.get("delta_s", 0.0)
    return base * (1 + 0.01 * lab["rep"])


def _fake_rows(jobs) -> pd.DataFrame:
    """What run_jobs would return for ``jobs``: the job keys and a goodput (no kernel)."""
    return pd.DataFrame([{**rd.job_key(j), "throughput_bps": _goodput(j), "path1_rtt_s": 0.02, "sub0_bytes": 1.0,
                          "sub1_bytes": 1.0} for j in jobs])


def _fake_calibration(keys) -> tuple[pd.DataFrame, pd.DataFrame]:
    pings = pd.DataFrame([{**k, "rate_bps": k["calib_rate_bps"], "error_s": 3e-4} for k in keys for _ in range(3)])
    rates = pd.DataFrame([{**k, "path0_rate_bps": k["calib_rate_bps"], "throughput_bps": 0.965 * k["calib_rate_bps"]}
                          for k in keys])
    return pings, rates


def _recording(p: dict, *, csv_dir=None) -> rd.Recording:
    """A synthetic recording of every run of ``p``; written to and read back from ``csv_dir`` when given (a CSV
    round trip, as the chapter reads the real one)."""
    pings, rates = _fake_calibration(rd.calibration_keys(p))
    frames = dict(pings=pings, rates=rates, table1=_fake_rows(rd.table1_jobs(p)),
                  fixed=_fake_rows(rd.fixed_buffer_jobs(p)), arabi=_fake_rows(rd.arabi_jobs(p)))
    if csv_dir is not None:
        for k, f in rd.FILES.items():
            frames[k].to_csv(csv_dir / f, index=False)
        frames = {k: pd.read_csv(csv_dir / f) for k, f in rd.FILES.items()}
    prov = {"kernel": "6.0-recorded", "parameters": dict(p), "recorded_utc": ["2026-01-01 00:00", "2026-01-01 00:12"],
            "commit": "0123456789abcdef"}
    return rd.Recording(**frames, provenance=prov)


@pytest.fixture
def fake_kernel(monkeypatch):
    """run_jobs and calibrate_rate answer from _goodput without a kernel; the calls are counted."""
    calls = {"jobs": [], "rates": []}

    def run_jobs(jobs, desc="", **kw):
        calls["jobs"] += list(jobs)
        return _fake_rows(jobs)

    def calibrate_rate(rate_bps, one_way_delay_s, *, ping_count, duration_s, warmup_s, provenance=False):
        calls["rates"].append(rate_bps)
        keys = dict(zip(ex.CALIBRATION_KEYS, (rate_bps, one_way_delay_s, ping_count, duration_s, warmup_s)))
        pings, rates = _fake_calibration([keys])
        return pings, rates.iloc[0].to_dict()

    monkeypatch.setattr(ex, "run_jobs", run_jobs)
    monkeypatch.setattr(ex, "calibrate_rate", calibrate_rate)
    return calls


# ---------------------------------------------------------------- the runs a parameter set asks for
def test_full_profile_jobs_and_their_keys_are_distinct():
    jobs = rd.table1_jobs(FULL)
    # 2 congestion controls × 3 repetitions × (TCP + Δ 0 + Δ 100, 500 in both readings)
    assert len(jobs) == 2 * 3 * 6 and len(rd.fixed_buffer_jobs(FULL)) == 4 and len(rd.arabi_jobs(FULL)) == 6
    keys = [tuple(sorted((k, str(v)) for k, v in rd.job_key(j).items())) for j in jobs + rd.fixed_buffer_jobs(FULL)]
    assert len(set(keys)) == len(keys)
    fixed = rd.job_key(rd.fixed_buffer_jobs(FULL)[0])
    assert fixed["k_sndbuf_bytes"] == FULL["fixed_buffer_bytes"] == fixed["k_rcvbuf_bytes"]
    one_way = [j for j in jobs if j["labels"]["meaning"] == "one_way" and j["labels"]["delta_s"] == 0.5][0]
    assert rd.job_key(one_way)["path1_delay_s"] == pytest.approx(0.51)      # one-way reading: +Δ one way
    rtt = [j for j in jobs if j["labels"]["meaning"] == "rtt" and j["labels"]["delta_s"] == 0.5][0]
    assert rd.job_key(rtt)["path1_delay_s"] == pytest.approx(0.26)          # RTT reading: +Δ/2 each way


def test_same_normalises_csv_values():
    assert rd.same(True, "True") and rd.same(np.bool_(False), False) and not rd.same(True, "False")
    assert rd.same(16777216, "16777216") and rd.same(0.1, 0.1000000000000000055) and not rd.same(0.1, 0.1001)
    assert rd.same(None, float("nan")) and rd.same(None, "") and not rd.same(None, 0)
    assert rd.same("auto", "auto") and not rd.same("auto", 4096) and rd.same(2, 2.0)


# ---------------------------------------------------------------- serving recorded runs, and only exact ones
def test_the_full_profile_is_served_from_its_recording_after_a_csv_round_trip(tmp_path, fake_kernel):
    rec = _recording(FULL, csv_dir=tmp_path)
    kr = rd.KernelRuns({**FULL, **LIVE}, recording=rec)
    plan = kr.plan()
    assert (plan["live (not recorded)"] == 0).all() and (plan["from the recording"] == plan["runs"]).all()
    # the live subset: calibration at 20 Mbit/s; Reno and CUBIC repetition 0: TCP, Δ = 0, Δ = 500 ms both readings
    assert plan.loc["calibration (rates)", "live beside the recording"] == 1
    assert plan.loc["Table I", "live beside the recording"] == 2 * 4
    assert plan.loc[["Table I, fixed buffers", "Arabi"], "live beside the recording"].sum() == 0
    assert kr.n_live == 9 and kr.needs_kernel and kr.mismatched_parameters() == []
    runs = kr.table1()
    assert (runs.source == "recorded").all() and len(runs) == 36
    assert list(runs.throughput_bps) == [_goodput(j) for j in rd.table1_jobs(FULL)]   # in the jobs' order
    assert kr.fixed_buffers().source.eq("recorded").all() and kr.arabi().source.eq("recorded").all()
    pings, rates = kr.calibration()
    assert (rates.source == "recorded").all() and len(pings) == 3 * 4
    # only the live subset ran, each run once
    assert len(fake_kernel["jobs"]) == 8 and fake_kernel["rates"] == [20e6]
    assert {(j["labels"]["congestion"], j["labels"]["rep"]) for j in fake_kernel["jobs"]} == {("reno", 0), ("cubic", 0)}
    assert (kr.live_rows["table1"].source == "live check").all()
    shown = kr.beside("table1")
    assert len(shown) == 36 + 8 and (shown.source == "live check").sum() == 8
    assert len(kr.beside("rates")) == 5


@pytest.mark.parametrize("change, live_table1", [
    (dict(deltas_ms=[0, 200]), 2 * 3 * 2),             # Δ = 200 ms is not recorded: both readings × reps × ccs
    (dict(duration_s=10.0), 36),                        # another run length: nothing of Table I is recorded
    (dict(queue_packets=50), 36),                       # another queue on every path
    (dict(rate_mbps=20.0), 36),
    (dict(base_one_way_ms=5.0), 36),
    (dict(congestions=["reno", "bbr"]), 18),            # BBR was never recorded
    (dict(repetitions=5), 2 * 2 * 6),                   # repetitions 3 and 4 were not recorded; 0–2 were
    (dict(repetitions=1, congestions=["reno"]), 0),     # a smaller set: all of it recorded
])
def test_a_changed_parameter_runs_what_is_not_recorded_live(change, live_table1, fake_kernel):
    rec = _recording(FULL)
    kr = rd.KernelRuns({**FULL, **LIVE, **change}, recording=rec)
    assert kr.plan().loc["Table I", "live (not recorded)"] == live_table1
    runs = kr.table1()
    jobs = rd.table1_jobs({**FULL, **change})
    assert len(runs) == len(jobs) and (runs.source == "live").sum() == live_table1
    # every served row is the record of exactly its job: same goodput as the job's own
    assert list(runs.throughput_bps) == [_goodput(j) for j in jobs]
    for row, job in zip(runs.to_dict("records"), jobs):
        assert all(rd.same(row[k], v) for k, v in rd.job_key(job).items())
    differing = set(kr.mismatched_parameters())
    assert differing == set(change)
    if live_table1:
        assert "ran live" in kr.describe() and all(f"`{k}`" in kr.describe() for k in change)


@pytest.mark.parametrize("change, experiment", [
    (dict(arabi_duration_s=10.0), "Arabi"), (dict(fixed_buffer_bytes=8 << 20), "Table I, fixed buffers"),
    (dict(calib_ping_count=50), "calibration (rates)"), (dict(calib_one_way_ms=10.0), "calibration (rates)")])
def test_the_other_experiments_never_serve_mismatched_records(change, experiment, fake_kernel):
    kr = rd.KernelRuns({**FULL, **LIVE, **change}, recording=_recording(FULL))
    plan = kr.plan()
    assert plan.loc[experiment, "from the recording"] == 0 and plan.loc[experiment, "live (not recorded)"] > 0
    others = plan.drop(index=experiment)
    assert (others["live (not recorded)"] == 0).all() and kr.mismatched_parameters() == list(change)
    if experiment == "calibration (rates)":
        pings, rates = kr.calibration()
        assert (rates.source == "live").all() and (pings.source == "live").all()
        assert plan.loc[experiment, "live beside the recording"] == 0     # nothing recorded to compare with
    else:
        rows = kr.arabi() if experiment == "Arabi" else kr.fixed_buffers()
        assert (rows.source == "live").all()


def test_one_tampered_record_is_not_served(fake_kernel):
    rec = _recording(FULL)
    i = rec.table1.index[(rec.table1.kind == "mptcp") & (rec.table1.delta_s == 0.5)][0]
    rec.table1.loc[i, "path1_delay_s"] += 0.001          # that row no longer describes its job
    kr = rd.KernelRuns({**FULL, **LIVE}, recording=rec)
    assert kr.plan().loc["Table I", "live (not recorded)"] == 1
    assert (kr.table1().source == "live").sum() == 1
    rec.table1 = rec.table1.drop(columns=["k_frto"])      # a recording without a setting serves nothing
    assert rd.KernelRuns({**FULL, **LIVE}, recording=rec).plan().loc["Table I", "from the recording"] == 0


def test_a_run_recorded_twice_is_an_error():
    rec = _recording(FULL)
    rec.table1 = pd.concat([rec.table1, rec.table1.iloc[:1]], ignore_index=True)
    with pytest.raises(ValueError, match="holds 2 rows"):
        rd.KernelRuns({**FULL, **LIVE}, recording=rec)


def test_live_all_reads_no_recording_and_runs_everything(fake_kernel):
    kr = rd.KernelRuns({**FULL, **LIVE, "live": "all"}, recording=_recording(FULL))
    assert kr.recording.empty and kr.plan()["from the recording"].sum() == 0
    assert kr.plan()["live beside the recording"].sum() == 0
    assert (kr.table1().source == "live").all() and len(fake_kernel["jobs"]) == 36
    assert kr.live_check().empty and kr.live_summary() is None
    assert kr.describe().startswith("All 50 kernel runs")
    g = kr.glue_values()
    assert g["tb_live_checked"] == 0 and g["tb_recorded_runs"] == 0 and g["tb_live_runs"] == 50


def test_an_empty_live_subset_needs_no_kernel(fake_kernel):
    kr = rd.KernelRuns({**FULL, **LIVE, "live_deltas_ms": [], "live_congestions": [], "live_calib_rates_mbps": []},
                       recording=_recording(FULL))
    assert not kr.needs_kernel and kr.n_live == 0
    kr.table1()
    kr.calibration()
    assert fake_kernel["jobs"] == [] and fake_kernel["rates"] == [] and kr.live_seconds < 1


def test_bad_live_mode_and_missing_parameters():
    with pytest.raises(ValueError, match="live must be one of"):
        rd.KernelRuns({**FULL, **LIVE, "live": "some"}, recording=rd.empty_recording())
    with pytest.raises(ValueError, match="missing.*live_deltas_ms"):
        rd.KernelRuns({k: v for k, v in {**FULL, **LIVE}.items() if k != "live_deltas_ms"})
    with pytest.raises(ValueError, match="live"):
        validate_parameters(LINUX_MPTCP_VALIDATION, {**FULL, **LIVE, "live": "everything", "sim_reordering": "eifel",
                                                       "sim_options": {}, "sim_buffer_mib": [1]})


# ---------------------------------------------------------------- the agreement rule
def test_agreement_band_is_the_stored_range_widened_by_the_floor():
    lo, hi, w = rd.agreement_band([10e6, 10e6, 10e6])                  # 2 % of the mean on each side
    assert (lo, hi, w) == pytest.approx((9.8e6, 10.2e6, 0.2e6))
    lo, hi, w = rd.agreement_band([9e6, 11e6, np.nan])
    assert (lo, hi, w) == pytest.approx((8.8e6, 11.2e6, 0.2e6))
    assert rd.agreement_band([10e6], floor_pct=5)[:2] == pytest.approx((9.5e6, 10.5e6))
    with pytest.raises(ValueError, match="at least one stored"):
        rd.agreement_band([np.nan])


def test_outside_chance_is_two_over_n_plus_one():
    """n exchangeable runs: a further one is below all of them or above all of them with 1/(n+1) each."""
    assert rd.outside_chance(1) == 1 and rd.outside_chance(3) == 0.5 and rd.outside_chance(23) == pytest.approx(1 / 12)
    rng = np.random.default_rng(0)
    x = rng.random((200_000, 4))                                        # 3 runs and one more, 200 000 times
    outside = (x[:, 3] < x[:, :3].min(axis=1)) | (x[:, 3] > x[:, :3].max(axis=1))
    assert outside.mean() == pytest.approx(rd.outside_chance(3), abs=0.005)
    with pytest.raises(ValueError, match="n_runs"):
        rd.outside_chance(0)


RECORDED = pd.DataFrame({"congestion": "reno", "kind": ["tcp", "tcp", "mptcp", "mptcp"], "meaning": ["-", "-", "both", "both"],
                         "delta_s": 0.0, "throughput_bps": [9.5e6, 9.7e6, 18.0e6, 18.4e6]})


def test_live_check_inside_and_outside_the_band_with_gains():
    live = pd.DataFrame({"congestion": "reno", "kind": ["tcp", "mptcp"], "meaning": ["-", "both"], "delta_s": 0.0,
                         "throughput_bps": [9.95e6, 17.5e6]})
    c = rd.live_check(live, RECORDED).set_index("run")
    tcp, mp = c.loc["reno, TCP on the best path"], c.loc["reno, MPTCP, Δ = 0 ms"]
    # TCP: 9.5–9.7 widened by 2 % of 9.6: band [9.308, 9.892]; 9.95 is outside
    assert (tcp["band low (Mbit/s)"], tcp["band high (Mbit/s)"]) == pytest.approx((9.308, 9.892)) and not tcp["agrees"]
    # MPTCP: 18.0–18.4 widened by 2 % of 18.2: band [17.636, 18.764]; 17.5 is outside too
    assert (mp["band low (Mbit/s)"], mp["band high (Mbit/s)"]) == pytest.approx((17.636, 18.764)) and not mp["agrees"]
    assert mp["recorded gain (%)"] == pytest.approx(100 * (18.2 / 9.6 - 1))
    assert mp["live gain (%)"] == pytest.approx(100 * (17.5 / 9.95 - 1)) and np.isnan(tcp["live gain (%)"])
    assert mp["outside chance (%)"] == pytest.approx(100 * 2 / 3)   # 2 recorded runs and mp["earlier runs"] == 0
    live.loc[0, "throughput_bps"] = 9.89e6
    live.loc[1, "throughput_bps"] = 17.64e6
    assert rd.live_check(live, RECORDED)["agrees"].all()               # just inside the band's edges


def test_earlier_executions_widen_the_band_only_of_their_cell():
    live = pd.DataFrame({"congestion": "reno", "kind": ["tcp", "mptcp"], "meaning": ["-", "both"], "delta_s": 0.0,
                         "throughput_bps": [9.6e6, 16.0e6]})
    assert not rd.live_check(live, RECORDED)["agrees"].iloc[1]
    hist = pd.DataFrame([dict(commit="abc", committed_utc="", kernel="", congestion="reno", kind="mptcp", meaning="both",
                              delta_s=0.0, runs=3, min_bps=16.1e6, max_bps=18.1e6, mean_bps=17e6),
                         dict(commit="abc", committed_utc="", kernel="", congestion="cubic", kind="mptcp", meaning="both",
                              delta_s=0.0, runs=3, min_bps=1e6, max_bps=2e6, mean_bps=1.5e6)], columns=rd.HISTORY_COLUMNS)
    c = rd.live_check(live, RECORDED, history=hist)
    assert c["agrees"].all() and list(c["earlier runs"]) == [0, 3]
    assert c["stored min (Mbit/s)"].iloc[1] == pytest.approx(16.1) and c["outside chance (%)"].iloc[1] == pytest.approx(100 * 2 / 6)   # 2 recorded + 3 earlier runs
    assert c["band low (Mbit/s)"].iloc[0] == pytest.approx(9.5 - 0.192)   # the TCP cell has no earlier runs


def _gains_html(rows) -> str:
    head = ["congestion", "meaning", "Δ (ms)", "TCP best path (Mbit/s)", "MPTCP (Mbit/s)", "gain (%)", "std (pp)",
            "min (%)", "max (%)", "runs"]
    tr = "".join(f"<tr>{''.join(f'<td>{v}</td>' for v in r)}</tr>" for r in rows)
    return f"<table><thead><tr>{''.join(f'<th>{h}</th>' for h in head)}</tr></thead><tbody>{tr}</tbody></table>"


def test_stored_gains_of_an_executed_notebook_become_cells():
    nb = {"cells": [{"cell_type": "code", "outputs": [{"output_type": "display_data", "data": {"text/html": _gains_html([
        ["reno", "rtt", 0, 9.6, 19.2, 100.0, 0.5, 99, 101, 3],
        ["reno", "rtt", 500, 9.6, 14.4, 50.0, 2.0, 40, 60, 3],
        ["reno", "one-way", 0, 9.6, 19.2, 100.0, 0.5, 99, 101, 3]])}}]}]}
    f = rd.stored_gains(nb)
    assert list(f.meaning) == ["rtt", "rtt", "one_way"] and f["Δ (ms)"].tolist() == [0, 500, 0]
    cells = rd._cells_of_execution(f)
    assert [(c["kind"], c["meaning"], c["delta_s"]) for c in cells] == [("tcp", "-", 0.0), ("mptcp", "both", 0.0),
                                                                         ("mptcp", "rtt", 0.5)]
    far = cells[2]
    assert (far["min_bps"], far["max_bps"], far["runs"]) == pytest.approx((9.6e6 * 1.4, 9.6e6 * 1.6, 3))
    assert rd.stored_gains({"cells": []}) is None


def test_band_backtest_leaves_each_execution_out():
    rec = _recording(FULL)
    assert rd.band_backtest(rec).empty                                   # one execution: nothing to test against
    rec.history = pd.DataFrame([dict(commit="e1", committed_utc="", kernel="", congestion="reno", kind="tcp", meaning="-",
                                     delta_s=0.0, runs=1, min_bps=9.6e6, max_bps=9.6e6, mean_bps=9.6e6),
                                dict(commit="e2", committed_utc="", kernel="", congestion="reno", kind="tcp", meaning="-",
                                     delta_s=0.0, runs=1, min_bps=11e6, max_bps=11e6, mean_bps=11e6)],
                               columns=rd.HISTORY_COLUMNS)
    bt = rd.band_backtest(rec).set_index("commit")
    # reno TCP: recording 9.6, 9.696, 9.792 (3 reps), e1 9.6, e2 11.0; e2 is outside the others' band, e1 inside
    assert not bt.loc["e2", "inside"] and bt.loc["e1", "inside"]
    assert len(bt) == 2 + 2 and set(bt.index) == {"e1", "e2", "recording"}


def test_a_disagreement_is_shown_in_the_comparison_and_not_fatal(fake_kernel, monkeypatch):
    rec = _recording(FULL)
    kr = rd.KernelRuns({**FULL, **LIVE}, recording=rec)
    # this machine's kernel is slower on Δ = 500 ms one-way for CUBIC than the recording: far outside its band
    real = ex.run_jobs

    def slower(jobs, desc="", **kw):
        rows = real(jobs, desc)
        far = (rows.congestion == "cubic") & (rows.meaning == "one_way")
        rows.loc[far, "throughput_bps"] *= 0.5
        return rows
    monkeypatch.setattr(ex, "run_jobs", slower)
    kr.calibration()
    kr.table1()
    check = kr.live_check()
    assert len(check) == 9 and check["agrees"].sum() == 8
    assert not check.set_index("run").loc["cubic, MPTCP, Δ = 500 ms (one-way)", "agrees"]
    s = kr.live_summary()
    assert not s["holds"] and s["disagree"] == "cubic, MPTCP, Δ = 500 ms (one-way)"
    g = pd.DataFrame({"congestion": "reno", "meaning": "rtt", "delta_ms": [0], "gain_pct": [97.0], "n": 1,
                      "gain_std_pct": np.nan})
    t = tc.comparison(g, deltas_ms=[0], meanings=["rtt"], setup=dict(rate_mbps=10, base_one_way_ms=10, queue_packets=100,
                      duration_s=12, warmup_s=2, repetitions=3, source=kr.source_phrase()), live=s)
    live_row = [c for c in t.checks if c["check"].startswith("live kernel runs")][0]
    assert live_row["verdict"] == "not met" and "outside: cubic" in live_row["reproduction"]
    # the verdict still comes from the recorded gains
    today = [c for c in t.checks if c["check"].startswith(tc.TODAY_CHECK)][0]
    assert today["verdict"] == "met" and today["reproduction"].endswith(": reproduced")
    t.consistency()
    glue = kr.glue_values()
    assert glue["tb_live_agree"] == 8 and glue["tb_live_checked"] == 9 and "outside the band" in glue["tb_live_phrase"]


# ---------------------------------------------------------------- the recording in data/testbed/
REAL = rd.load()
needs_recording = pytest.mark.skipif(REAL.empty, reason="data/testbed/ holds no recording")


@needs_recording
def test_the_recording_is_what_its_provenance_says():
    assert rd.verify_files(REAL) == []
    p = REAL.provenance
    for key in ("kernel", "recorded_utc", "commit", "parameters", "command", "delayline_source_sha256"):
        assert p.get(key), key
    assert (REAL.table1.kernel == p["kernel"]).all() and (REAL.arabi.kernel == p["kernel"]).all()
    assert REAL.table1.completed.all() and (REAL.table1.throughput_bps > 0).all()
    h = p["history"]
    assert rd._sha256(REAL.directory / rd.HISTORY) == h["sha256"] and len(REAL.history) == h["rows"]
    assert sorted(set(REAL.history.commit)) == h["executions"]


@needs_recording
def test_the_chapter_shows_the_recorded_gains():
    """The executed chapter's gains table (stored output) is the recording's: the full profile serves Table I from
    data/testbed/ (re-execute the notebook after re-recording)."""
    import json

    stored = rd.stored_gains(json.loads(rd.CHAPTER.read_text()))
    if stored is None:
        pytest.skip("the chapter is not executed")
    g = ks.kernel_gains(REAL.table1)
    assert len(stored) == len(g)
    assert stored["gain (%)"].to_numpy() == pytest.approx(g.gain_pct.to_numpy(), abs=0.01)
    assert stored["MPTCP (Mbit/s)"].to_numpy() == pytest.approx(g.mptcp_mbps.to_numpy(), rel=1e-3)


@needs_recording
def test_the_history_is_what_git_holds():
    """history.csv is exactly the earlier executions git holds up to the recording's commit (needs the history)."""
    upto = REAL.provenance["history"]["upto_commit"]
    if git("cat-file", "-e", f"{upto}^{{commit}}") is None:
        pytest.skip(f"commit {upto} is not in this clone (shallow?)")
    again = rd.history_from_git(REAL.provenance["parameters"], upto=upto)
    pd.testing.assert_frame_equal(again.reset_index(drop=True), REAL.history.reset_index(drop=True), check_dtype=False)
    # every earlier execution with the same Table I parameters; the rule, tried on them, holds for most extremes
    bt = rd.band_backtest(REAL)
    assert len(set(bt.commit)) == len(h := set(REAL.history.commit)) + 1 and len(h) >= 1
    assert bt.inside.mean() > 0.9


@needs_recording
def test_the_recording_holds_the_chapters_full_profile():
    """The notebook's full-profile parameters are the recorded ones: the book's full profile serves every kernel
    run from the recording (if this fails, re-record with make testbed-record)."""
    assert {k: list(v) if isinstance(v, (list, tuple)) else v for k, v in FULL.items()} == REAL.provenance["parameters"]
    kr = rd.KernelRuns({**FULL, **LIVE}, recording=REAL)
    plan = kr.plan()
    assert (plan["live (not recorded)"] == 0).all(), plan
    assert plan["runs"].sum() == 4 + 36 + 4 + 6


# ---------------------------------------------------------------- a real row matches its job (kernel)
@live
def test_a_real_kernel_row_matches_its_job_and_only_it():
    p = {**FULL, "deltas_ms": [0], "meanings": ["rtt"], "congestions": ["reno"], "repetitions": 1, "duration_s": 1.5,
         "warmup_s": 0.5}
    job = rd.table1_jobs(p)[0]
    assert job["labels"]["kind"] == "tcp"
    rows = ex.run_jobs([job], progress_bar=False)                      # about 2 s of real time
    assert rd.find([rd.job_key(job)], rows) == [0]
    other = rd.table1_jobs({**p, "queue_packets": 99})[0]
    assert rd.find([rd.job_key(other)], rows) == [None]
