"""The papers' own simulator over Wi-Fi (cmtlab.papers_sim.wifi, wifi_record) and its recorded plans.

The ``built`` tests run the Chihani–Collange model with ns-3.7's Wi-Fi, built by this test run
(see the ``built`` fixture in tests/conftest.py for the rules: skipped without a compiler, failing under
CI); the others need no compiler.
"""

from __future__ import annotations

import copy
import json
import math
import shutil

import numpy as np
import pytest

from cmtlab.papers_sim import model, wifi, wifi_record

from helpers.papers_sim import _equal


@pytest.fixture(scope="module")
def built_wifi(request):
    """The Wi-Fi driver (built with the model; the ``built`` fixture's rules)."""
    request.getfixturevalue("built")
    return model.binary(wifi=True)


# ---------------------------------------------------------------------------------------- no compiler needed

def test_scenario_validation_names_the_parameter():
    with pytest.raises(ValueError, match="distances_m"):
        wifi.scenario([10.0, -1.0])
    with pytest.raises(ValueError, match="distances_m"):
        wifi.scenario([10.0] * 8)
    with pytest.raises(ValueError, match="not both"):
        wifi.scenario([10.0], distance_m=10.0)
    with pytest.raises(ValueError, match="paths"):
        wifi.scenario(distance_m=10.0, paths=0)
    with pytest.raises(ValueError, match="drop_rate"):
        wifi.scenario(distance_m=10.0, drop_rate=(0.0, 1.0))
    with pytest.raises(ValueError, match="drop_rate"):
        wifi.scenario(distance_m=10.0, drop_rate=(0.0,))
    with pytest.raises(ValueError, match="rate_manager"):
        wifi.scenario(distance_m=10.0, rate_manager="minstrel")
    with pytest.raises(ValueError, match="data_mode"):
        wifi.scenario(distance_m=10.0, rate_manager="constant", data_mode="erp-54mbs")
    with pytest.raises(ValueError, match="reference_loss_db"):
        wifi.scenario(distance_m=10.0, reference_loss_db=float("nan"))
    with pytest.raises(ValueError, match="duration_s = 1000.0 s is too long"):
        wifi.scenario(distance_m=10.0, duration_s=1000.0)     # 54 Mbit/s x 1000 s > the 32-bit sequence space
    with pytest.raises(ValueError, match="unknown scenario field"):
        wifi.scenario(distance_m=10.0).replace(rates_bps=(1e6,))
    sc = wifi.scenario(distance_m=30.0)
    assert sc.distances_m == (30.0, 30.0) and sc.duration_s == 50.0 and sc.transfer_bytes is None
    assert sc.replace(transfer_bytes=1_000_000).duration_s is None


def test_loss_threshold_gives_the_nearest_multiple_of_the_models_grid():
    """The model drops when ``rand() % 1013 / 1013 < threshold``: count the residues that drop (an
    enumeration, independent of the formula) and compare with the wanted rate."""
    residues = np.arange(wifi.LOSS_GRID) / wifi.LOSS_GRID
    for p in (0.0, 0.001, 0.005, 0.009, 0.0004, 0.3):
        thr, eff = wifi.loss_threshold(p)
        assert int((residues < thr).sum()) / wifi.LOSS_GRID == pytest.approx(eff)
        assert abs(eff - p) <= 0.5 / wifi.LOSS_GRID + 1e-15
    for bad in (-0.1, 1.0, float("nan"), "0.1", True):
        with pytest.raises(ValueError, match="drop_rate"):
            wifi.loss_threshold(bad)


def test_the_seed_drives_every_random_source_and_the_key():
    a, b = wifi.scenario(distance_m=10.0, seed=0), wifi.scenario(distance_m=10.0, seed=1)
    ca, cb = a.command("x"), b.command("x")
    assert "--rng-run=1" in ca and "--rng-run=2" in cb                 # ns-3's MRG32k3a substreams
    assert "--loss-seed=0" in ca and "--loss-seed=1" in cb             # the model's rand() (its drop)
    assert f"--frto-clock={model.frto_clock(1)}" in cb
    assert a.key() != b.key() and a.key() == wifi.scenario(distances_m=[10.0, 10.0], seed=0).key()
    lossy = wifi.scenario(distance_m=10.0, drop_rate=(0.0, 0.005))
    assert "--loss=0.0,0.004442250740375123" in lossy.command("x")     # (5 - 0.5) / 1013: 5/1013 dropped
    assert not any(c.startswith("--loss=") for c in ca)


def test_the_reference_losses_are_free_space_at_1_m():
    """ns-3's default reference loss (what the stand-in uses, as the book's 802.11g model does) is free space
    at 1 m for 5.15 GHz (with c = 3e8 m/s, as ns-3 wrote it); 2.4 GHz is 6.6 dB less."""
    assert wifi.FRIIS_1M_2_4GHZ_DB == pytest.approx(40.05, abs=0.01)
    assert wifi.NS3_DEFAULT_REFERENCE_LOSS_DB == pytest.approx(20 * math.log10(4 * math.pi * 5.15e9 / 3e8), abs=5e-4)


def test_plans_expand_to_their_axes():
    for name in wifi_record.plan_names():
        plan = wifi_record.load_plan(name)
        cases = wifi_record.expand(plan)
        sizes = [len(wifi_record._axis_items(ax)) for ax in plan["axes"]]
        assert len(cases) >= math.prod(sizes)                          # the product, then any more blocks' runs
        base = wifi_record.expand({**plan, "more": []})
        assert [lab for lab, _ in cases[: len(base)]] == [lab for lab, _ in base]   # the product first, in order
        assert len(cases) == len(base) or plan.get("more")
        assert len({sc.key() for _, sc in cases}) == len(cases)        # every case a distinct run
        assert wifi_record.live_cases(name), name                      # the live test has rows to re-run
    f5 = wifi_record.expand(wifi_record.load_plan("alheid-fig5"))
    lab, sc = next(c for c in f5 if c[0]["pdr2"] == 0.009 and c[0]["solution"] == "PR-R")
    assert sc.drop_rate == (0.0, 0.009) and sc.reordering == "pr_r" and sc.distances_m == (10.0, 10.0)
    f4 = wifi_record.expand(wifi_record.load_plan("alheid-fig4"))
    single = [sc for lab, sc in f4 if lab["solution"] == "single TCP"]
    assert single and all(sc.n_links == 1 and sc.reordering == "none" for sc in single)


def test_more_blocks_add_runs_after_the_product_without_repeating_one():
    plan = copy.deepcopy(wifi_record.load_plan("alheid-fig4"))
    plan["more"] = [{"distance_m": [10.0], "seed": {"range": [2, 6]}}]      # seed 2 at 10 m is already in the product
    base = wifi_record.expand({**plan, "more": []})
    cases = wifi_record.expand(plan)
    added = cases[len(base):]
    n_solutions = len(plan["axes"][1]["cases"])
    assert len(added) == 3 * n_solutions                                     # seeds 3, 4, 5 only
    assert {lab["seed"] for lab, _ in added} == {3, 4, 5} and {lab["distance_m"] for lab, _ in added} == {10.0}
    assert len({sc.key() for _, sc in cases}) == len(cases)
    assert wifi_record.seed_count(plan) == "3-6" and wifi_record.seed_count({**plan, "more": []}) == 3


def test_a_malformed_more_block_is_an_error_naming_it(tmp_path):
    from cmtlab import pinned

    root = tmp_path / "data"
    shutil.copytree(pinned.root(), root)
    path = root / "papers-sim" / "wifi" / "alheid-fig4.plan.json"
    plan = json.loads(path.read_text())
    with pinned.using_root(root):
        for more, match in (({"distance_m": [10.0]}, "more must be a list"),
                            ([{"solution": ["NoPR"]}], "more names 'solution', which is not an axis with values"),
                            ([{"seed": 7}], "more's values of 'seed' must be a list")):
            path.write_text(json.dumps({**plan, "more": more}))
            pinned.pin(path)
            with pytest.raises(ValueError, match=match):
                wifi_record.load_plan("alheid-fig4")


def test_append_runs_only_the_added_runs_and_keeps_the_recorded_bytes(tmp_path, monkeypatch):
    """record(append=True) on a copy of data/: the added runs (faked from recorded rows: no compiler needed) are
    written after the recorded rows' unchanged bytes; the provenance keeps its sets and says what was appended; a
    changed axis or another binary is refused."""
    import pandas as pd

    from cmtlab import pinned

    root = tmp_path / "data"
    shutil.copytree(pinned.root(), root)
    wdir = root / "papers-sim" / "wifi"
    path = wdir / "alheid-fig4.plan.json"
    old_csv = (wdir / "alheid-fig4.csv").read_bytes()
    with pinned.using_root(root):
        recorded = wifi_record.load("alheid-fig4")
        plan = wifi_record.load_plan("alheid-fig4")
        old_prov = wifi_record.provenance()
    n_old = len(recorded)
    plan = {**plan, "more": [*plan.get("more", []), {"distance_m": [100.0], "seed": {"range": [0, 5]}}]}  # 3, 4 at 100 m new
    path.write_text(json.dumps(plan, indent=1) + "\n")
    monkeypatch.setattr(wifi_record, "DATA_DIR", wdir)
    monkeypatch.setattr(wifi_record, "PROVENANCE", wdir / "provenance.json")
    monkeypatch.setattr(wifi_record.bld, "ensure_built", lambda **kw: None)
    now = {k: v for k, v in old_prov.items() if k != "sets"}
    monkeypatch.setattr(wifi_record, "provenance_now", lambda: {**now, "code_version": "appending"})
    ran = []

    def fake_run_cases(plan, cases, **kw):     # the recorded seed-0 row of each point, relabelled
        ran.extend(lab for lab, _ in cases)
        rows = []
        for lab, _ in cases:
            r = recorded[(recorded.distance_m == lab["distance_m"]) & (recorded.solution == lab["solution"])
                         & (recorded.seed == 0)].iloc[0].to_dict()
            rows.append({**r, **lab})
        return pd.DataFrame(rows)
    monkeypatch.setattr(wifi_record, "run_cases", fake_run_cases)
    with pinned.using_root(root):
        pinned.pin(path)
        wifi_record.record(only=["alheid-fig4"], append=True, progress=False)
        data = (wdir / "alheid-fig4.csv").read_bytes()
        assert data.startswith(old_csv) and len(data) > len(old_csv)
        assert {(lab["seed"], lab["distance_m"]) for lab in ran} == {(3, 100.0), (4, 100.0)}
        table = wifi_record.load("alheid-fig4")                     # pinned, provenance and plan consistent
        assert len(table) == n_old + 2 * len(plan["axes"][1]["cases"])
        prov = wifi_record.provenance()
        assert set(prov["sets"]) == set(old_prov["sets"]) and prov["code_version"] == old_prov["code_version"]
        entry = prov["sets"]["alheid-fig4"]
        assert entry["appended"][-1]["rows"] == len(table) - n_old and entry["appended"][-1]["after_row"] == n_old
        assert entry["appended"][-1]["code_version"] == "appending" and entry["seeds"] == "3-5"
        ran.clear()
        wifi_record.record(only=["alheid-fig4"], append=True, progress=False)    # nothing more to run
        assert not ran and (wdir / "alheid-fig4.csv").read_bytes() == data
        assert wifi_record.provenance()["sets"]["alheid-fig4"]["appended"] == entry["appended"]
        plan["axes"][0]["values"] = [10.0, 20.0, 50.0, 70.0, 100.0]            # a changed axis: not an append
        path.write_text(json.dumps(plan, indent=1) + "\n")
        pinned.pin(path)
        with pytest.raises(wifi_record.RecordError, match="not the plan's first .* runs in order"):
            wifi_record.record(only=["alheid-fig4"], append=True, progress=False)
        monkeypatch.setattr(wifi_record, "provenance_now", lambda: {**now, "compiler": "another"})
        with pytest.raises(wifi_record.RecordError, match="other compiler"):
            wifi_record.record(only=["alheid-fig4"], append=True, progress=False)


def test_fig5s_pdr_0_is_fig4s_10_m_run():
    """The README's and the plan's word: alheid-fig5 at PDR 0 would re-run alheid-fig4's 10-m runs (same scenario
    key, same driver command), so those rows stand for it."""
    f5 = copy.deepcopy(wifi_record.load_plan("alheid-fig5"))
    f5["axes"][0]["values"] = [0.0]
    at_0 = {(lab["solution"], lab["seed"]): sc for lab, sc in wifi_record.expand(f5)}
    f4 = {(lab["solution"], lab["seed"]): sc for lab, sc in wifi_record.expand(wifi_record.load_plan("alheid-fig4"))
          if lab["distance_m"] == 10.0}
    assert at_0 and set(at_0) <= set(f4)
    for k, sc in at_0.items():
        assert sc.key() == f4[k].key() and sc.command("x") == f4[k].command("x")


def test_recorded_data_matches_this_checkout():
    assert wifi_record.check_provenance() == []
    prov = wifi_record.provenance()
    assert set(prov["sets"]) == set(wifi_record.plan_names())
    for name, entry in prov["sets"].items():
        assert entry["seeds"] == wifi_record.seed_count(wifi_record.load_plan(name))
        assert len(wifi_record.load(name)) == entry["rows"]


def test_a_changed_recorded_file_is_an_error_naming_it(tmp_path):
    """In a copy of data/ (its own MANIFEST.json): a changed digit, a missing CSV, a changed plan are errors naming
    the file and how to regenerate it."""
    from cmtlab import pinned

    root = tmp_path / "data"
    shutil.copytree(pinned.root(), root)
    copy = root / "papers-sim" / "wifi"
    with pinned.using_root(root):
        name = sorted(wifi_record.provenance()["sets"])[0]
        assert len(wifi_record.load(name)) > 0
        csv = copy / f"{name}.csv"
        good = csv.read_bytes()
        text = good.decode().splitlines()
        text[1] = text[1].replace("1", "2", 1)                                # one digit of the first row
        csv.write_text("\n".join(text) + "\n")
        with pytest.raises(pinned.PinnedFileError, match=f"{name}.csv differs from its pinned SHA-256.*make papers-sim-data"):
            wifi_record.load(name)
        csv.unlink()
        with pytest.raises(pinned.PinnedFileError, match=f"{name}.csv is missing.*make papers-sim-data"):
            wifi_record.load(name)
        csv.write_bytes(good)
        plan = copy / f"{name}.plan.json"
        plan.write_text(plan.read_text().replace('"live"', '"live" ', 1))
        with pytest.raises(wifi_record.RecordError, match="the plan changed"):
            wifi_record.load(name)
        with pytest.raises(pinned.PinnedFileError, match=f"{name}.plan.json differs from its pinned SHA-256"):
            wifi_record.load_plan(name)


def test_recorded_rows_hold_the_papers_metrics():
    f4 = wifi_record.load("alheid-fig4")
    two = f4[f4.solution != "single TCP"]
    assert (two.completed & (two.n_subflows == 2)).all()
    assert ((0 <= two.ooo_ratio) & (two.ooo_ratio <= 1)).all()
    assert (two.ooo_stored_segments <= two.rx_new_segments).all() and (two.rx_new_segments <= two.rx_data_segments).all()
    # the rate falls with distance (IdealWifiManager): 54 Mbit/s at 10 m, at most 12 Mbit/s at 100 m
    near, far = two[two.distance_m == 10.0], two[two.distance_m == 100.0]
    assert (near.sf0_phy_rate_mbps == 54).all() and (far.sf0_phy_rate_mbps <= 12).all()
    assert near.throughput_bps.mean() > far.throughput_bps.mean()
    # every subflow sent what its path carried: goodput <= the sum of the new data sent, <= 2 x 54 Mbit/s
    sent = (two.sf0_bytes_sent + two.sf1_bytes_sent) * 8 / two.duration_s
    assert (two.throughput_bps <= sent + 1e-6).all() and (sent < 2 * 54e6).all()
    # the seeds change the runs: at every point the repetitions are not all equal
    spread = two.groupby(["distance_m", "solution"]).throughput_bps.nunique()
    assert (spread > 1).all()
    f5 = wifi_record.load("alheid-fig5")
    lossy = f5[f5.pdr2 > 0]
    assert (lossy.sf0_model_drops == 0).all() and (lossy.sf1_model_drops > 0).all()
    assert (f5[f5.pdr2 == 0].sf1_model_drops == 0).all()


# ---------------------------------------------------------------------------------------- the model itself

def test_a_run_uses_one_bss_per_subflow_and_repeats_exactly(built_wifi):
    sc = wifi.scenario(distance_m=10.0, reordering="pr_r", duration_s=2.0, seed=3)
    r, again = wifi.run(sc), wifi.run(sc)
    assert r.completed and r.output["n_subflows"] == 2
    for i, f in enumerate(r.output["subflows"]):   # server address k -> the mobile's address in BSS k
        assert (f["src"], f["dst"]) == (f"10.3.{i + 1}.1", f"10.1.{i + 1}.2")
        assert f["mss"] == model.MSS_BYTES and f["segments_sent"] > 0
    row = r.row()
    assert row["sf0_phy_rate_mbps"] == 54.0 and row["sf0_snr_db"] == pytest.approx(33.3, abs=0.1)
    assert row["sf0_ap_data_frames"] >= row["sf0_new_segments_sent"]     # every segment went over the air
    assert {k: v for k, v in again.row().items() if k != "wall_time_s"} == \
        {k: v for k, v in row.items() if k != "wall_time_s"}
    other = wifi.run(sc.replace(seed=4)).row()
    changed = [k for k in ("throughput_bps", "sf0_mac_retries", "sf1_mac_retries", "retransmissions")
               if other[k] != row[k]]
    assert changed, "two seeds gave the same run"


def test_rate_falls_with_distance_and_a_far_station_fails_clearly(built_wifi):
    one = dict(paths=1, reordering="none", duration_s=1.0)
    near = wifi.run(wifi.scenario(distance_m=10.0, **one)).row()
    far = wifi.run(wifi.scenario(distance_m=100.0, **one)).row()
    assert near["sf0_phy_rate_mbps"] == 54.0 and far["sf0_phy_rate_mbps"] == 9.0
    assert near["throughput_bps"] > 2 * far["throughput_bps"] > 0
    with pytest.raises(RuntimeError, match="has not associated"):
        wifi.run(wifi.scenario(distance_m=2000.0, **one))


@pytest.mark.parametrize("name", ["alheid-fig4", "alheid-fig5", "alheid-fig6-cwnd"])
def test_recorded_rows_are_reproduced_exactly(built_wifi, name):
    """The plan's ``live`` rows, run now on the model this test run built, equal the recorded ones in every
    column (the cheapest rows of each figure: about 40 s of CPU in all)."""
    plan = wifi_record.load_plan(name)
    rec = wifi_record.load(name)
    live = wifi_record.run_cases(plan, wifi_record.live_cases(name), workers=2, progress=False)
    key = [ax["label"] for ax in plan["axes"]] + (["subflow", "time_s"] if plan["record"] == "cwnd" else [])
    assert len(live) > 0 and not live.duplicated(key).any()
    recorded = rec.set_index(key)
    compared = 0
    for _, row in live.iterrows():
        want = recorded.loc[tuple(row[k] for k in key)]
        for c in live.columns:
            if c in key:
                continue
            assert _equal(want[c], row[c]), (tuple(row[k] for k in key), c, want[c], row[c])
            compared += 1
    assert compared >= len(live) * (2 if plan["record"] == "cwnd" else 80)   # cwnd: cwnd_segments, scenario_key
