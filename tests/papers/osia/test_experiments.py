"""OSIA experiments (cmtlab.papers.osia.experiments): scenario construction, grid bookkeeping, cache, end to end."""

import numpy as np
import pandas as pd
import pytest

from cmtlab.papers import osia
from cmtlab.papers.osia import experiments as ex
from cmtlab.scenario import striped_scenario
from cmtlab.sim import PointToPointLink, Simulation
from cmtlab.sim.net.cross_traffic import BitErrorLink, CrossTrafficLink


def striped_stand_in(run: ex.OsiaRun) -> dict:
    """A real simulator run with the run's links, scheduler ignored: TCP striped round-robin (Song Fig. 5)."""
    fwd, rev = run.links()
    sc = striped_scenario(list(run.rates_bps), run.rtts_s, transfer_bytes=run.transfer_bytes,
                          segment_bytes=run.segment_bytes, initial_window_bytes=run.segment_bytes, seed=run.seed,
                          tunnel=run.n_paths > 1, queue_packets=run.path_model.queue_packets)
    r = Simulation(sc, links=fwd, ack_links=rev).run()
    return ex.result_row(r, run, fwd)


def test_fig7_grid_layout():
    g = ex.fig7_grid()
    assert len(g) == len(ex.DELAY_RATIOS) * len(ex.BW_RATIOS)
    row = g[(g["D2/D1"] == 4) & (g["BW2/BW1"] == 0.5)].iloc[0]
    assert row.rates_bps == (1e6, 0.5e6)
    assert row.one_way_delays_s == pytest.approx((0.05, 0.2))
    assert set(g["D2/D1"]) == set(ex.DELAY_RATIOS) and set(g["BW2/BW1"]) == set(ex.BW_RATIOS)


def test_fig9_cases_are_table1():
    c = ex.fig9_cases()
    assert list(c.n_paths) == [1, 2, 3, 4]
    for _, row in c.iterrows():
        assert sum(row.rates_bps) == pytest.approx(4e6)           # sec. 5.4: 4 Mbit/s in total
        rates, delays = osia.table1_paths(row.n_paths)
        assert list(row.rates_bps) == rates and list(row.one_way_delays_s) == delays


def test_build_runs_bookkeeping():
    g = ex.fig7_grid((1, 2), (0.5, 1, 2))
    runs = ex.build_runs("fig8", g, schedulers=ex.SCHEDULERS, seeds=[3, 4])
    assert len(runs) == 6 * 6 * 2
    labels, run = runs[0]
    assert labels == {"D2/D1": 1, "BW2/BW1": 0.5, "scheduler": "round_robin", "seed": 3}
    assert run.packets == ex.FIG8_PACKETS == 500 and run.transfer_bytes == 500_000
    assert run.rtts_s == pytest.approx([0.1, 0.1])
    keys = {r.key() for _, r in runs}
    assert len(keys) == len(runs)                                  # every run distinct
    assert runs[0][1].key() == ex.build_runs("fig8", g, seeds=[3, 4])[0][1].key()   # stable
    assert ex.build_runs("fig7", g, seeds=[0])[0][1].packets == ex.FIG7_PACKETS
    assert ex.scheduler_params("osia") == {"period_s": 1.0} == ex.scheduler_params("flow_level")
    assert ex.scheduler_params("round_robin") == {} == ex.scheduler_params("edpf")


def test_run_links_follow_the_path_model():
    run = ex.OsiaRun("fig9", (1e6, 2e6, 3e6), (0.02, 0.04, 0.08), "osia", seed=5)
    fwd, rev = run.links()
    assert all(isinstance(lk, CrossTrafficLink) and lk.ber is not None for lk in fwd)
    assert [lk.stream for lk in fwd] == [0, 1, 2] and all(lk.seed == 5 for lk in fwd)
    assert [lk.delay_s for lk in fwd] == [0.02, 0.04, 0.08] == [lk.delay_s for lk in rev]
    assert all(type(lk) is PointToPointLink for lk in rev)
    assert fwd[1].mean_load == pytest.approx(0.25, rel=1e-3)
    # switches
    r2 = run.replace(path_model=ex.PathModel(cross_load=0))
    assert all(type(lk) is BitErrorLink for lk in r2.links()[0])
    r3 = run.replace(path_model=ex.PathModel(cross_load=0, ber=False))
    assert all(type(lk) is PointToPointLink for lk in r3.links()[0])
    assert r2.key() != run.key() != r3.key()


def test_bad_input():
    with pytest.raises(ValueError, match="cross_load"):
        ex.PathModel(cross_load=1.0)
    with pytest.raises(ValueError, match="shape"):
        ex.PathModel(shape=0)
    with pytest.raises(ValueError, match="mean"):
        ex.PathModel(ber_mean=1e-6)
    with pytest.raises(ValueError, match="experiment"):
        ex.OsiaRun("fig10", (1e6,), (0.05,), "osia")
    with pytest.raises(ValueError, match="same length"):
        ex.OsiaRun("fig9", (1e6, 2e6), (0.05,), "osia")
    with pytest.raises(ValueError, match="rates_bps"):
        ex.OsiaRun("fig9", (0.0,), (0.05,), "osia")
    with pytest.raises(ValueError, match="delay_ratios"):
        ex.fig7_grid((0, 1), (1,))
    with pytest.raises(ValueError, match="seeds"):
        ex.build_runs("fig7", ex.fig7_grid((1,), (1,)), seeds=[1, 1])
    with pytest.raises(ValueError, match="schedulers"):
        ex.build_runs("fig7", ex.fig7_grid((1,), (1,)), schedulers=[])
    with pytest.raises(ValueError, match="runs"):
        ex.run_experiment([("not", "a run")])
    with pytest.raises(ValueError, match="cache"):
        ex.run_experiment([], cache="yes")


def test_run_experiment_end_to_end_with_cache(tmp_path):
    """Runs go through real links and a real TCP (striped stand-in), rows in input order, cached."""
    g = ex.fig7_grid((1, 4), (1,))
    pm = ex.PathModel(ber=False)
    runs = ex.build_runs("fig8", g, schedulers=["round_robin", "osia"], seeds=[0, 1], path_model=pm)
    t1 = ex.run_experiment(runs, cache_dir=tmp_path, progress=False, simulate_fn=striped_stand_in)
    assert t1.attrs["osia_runs"]["simulated"] == len(runs) == len(t1)
    assert list(t1.scheduler) == [lab["scheduler"] for lab, _ in runs]
    assert t1.completed.all()
    assert (t1.goodput_bps > 0).all() and (t1.goodput_bps < 2e6).all()
    assert {"path1_cross_drops", "path2_loss_drops", "dupack_events"} <= set(t1.columns)
    t2 = ex.run_experiment(runs, cache_dir=tmp_path, progress=False, simulate_fn=striped_stand_in)
    assert t2.attrs["osia_runs"]["cached"] == len(runs)
    pd.testing.assert_frame_equal(t1, t2)
    # the stand-in ignores the scheduler: same seed, same links -> same result
    a = t1[(t1.scheduler == "round_robin") & (t1.seed == 0)].goodput_bps.to_numpy()
    b = t1[(t1.scheduler == "osia") & (t1.seed == 0)].goodput_bps.to_numpy()
    np.testing.assert_array_equal(a, b)
    s = ex.summarise(t1, ["D2/D1", "BW2/BW1", "scheduler"])
    assert len(s) == 4 and (s.runs == 2).all() and "goodput_bps_se" in s
    hm = ex.heatmap(s, "goodput_bps", "osia")
    assert hm.shape == (2, 1) and list(hm.index) == [1, 4]


def test_cross_traffic_lowers_goodput_in_a_run():
    base = ex.OsiaRun("fig9", (2e6,), (0.03,), "round_robin", packets=1500,
                      path_model=ex.PathModel(cross_load=0, ber=False))
    loaded = base.replace(path_model=ex.PathModel(cross_load=0.4, ber=False))
    g0 = striped_stand_in(base)["goodput_bps"]
    g1 = np.mean([striped_stand_in(loaded.replace(seed=s))["goodput_bps"] for s in range(3)])
    assert g1 < 0.85 * g0


def test_rr_closed_form_grid():
    cf = ex.rr_closed_form((1, 2), (0.5, 1, 2), packets=500)
    assert len(cf) == 6 and {"closed_form", "timeline"} <= set(cf.columns)
    assert (cf.closed_form >= 0).all()


def test_simulate_tunnel_counts_reordering_events():
    """Round robin below one TCP: a large delay difference makes dupACK events without any loss."""
    pm = ex.PathModel(cross_load=0, ber=False)
    same = ex.simulate_tunnel(ex.OsiaRun("fig7", (1e6, 1e6), (0.05, 0.05), "round_robin", packets=1000,
                                         path_model=pm))
    far = ex.simulate_tunnel(ex.OsiaRun("fig7", (1e6, 1e6), (0.05, 0.4), "round_robin", packets=1000,
                                        path_model=pm))
    assert same["completed"] and far["completed"]
    assert same["dupack_events"] == 0 and same["path1_loss_drops"] == 0
    assert far["dupack_events"] > 10 and far["goodput_bps"] < 0.2 * same["goodput_bps"]


def test_path_model_checks():
    c = ex.cross_traffic_check(shapes=(1.5,), loads=(0.25,), horizon_s=500)
    assert abs(c.rel_error.iloc[0]) < 0.03 and c.mean_period_ms.iloc[0] == pytest.approx(27.027, abs=1e-3)
    tr = ex.cross_traffic_trace(duration_s=2.0)
    assert len(tr) == 200 and tr.cross_share.max() <= 0.5 + 1e-9 + 0.4   # at most the peak (plus bin edges)
    b = ex.ber_check(20_000)
    assert b["min"] >= 1e-5 and b["max"] <= 1e-3 and b["mean"] == pytest.approx(2e-5, rel=0.05)
    assert b["frame_loss"].set_index("packet_bytes").loc[1000, "at_mean_ber"] == pytest.approx(0.1479, abs=1e-4)


def test_simulate_on_the_multipath_engine():
    """simulate() names the path model in the scenario (``links``); the engine's links are the ones
    OsiaRun.links() builds (same class, rate, delay, cross-traffic and BER streams)."""
    from cmtlab.sim import multipath
    from cmtlab.sim.mptcp.scenario import mptcp_scenario

    run = ex.OsiaRun("fig8", (1e6, 2e6), (0.05, 0.1), "round_robin", packets=300, segment_bytes=536,
                     path_model=ex.PathModel(cross_load=0.25, ber=True))
    row = ex.simulate(run)
    assert row["completed"] and row["goodput_bps"] > 0
    assert row["path1_loss_drops"] + row["path2_loss_drops"] > 0        # the BER acted on the engine's packets
    again = ex.simulate(run)
    assert again == row                                                 # seeded, repeatable
    sc = mptcp_scenario(list(run.rates_bps), run.rtts_s, transfer_bytes=run.transfer_bytes,
                        seed=run.seed, links=run.path_model.link_spec())
    engine_links = multipath.MptcpSimulation(sc).access
    own, _ = run.links()
    for a, b in zip(engine_links, own):
        assert type(a) is type(b) and a.rate_bps == b.rate_bps and a.delay_ns == b.delay_ns
        assert [a.cross.pop() for _ in range(20)] == [b.cross.pop() for _ in range(20)]
        assert [a.ber.ber_at(k * 10**8) for k in range(20)] == [b.ber.ber_at(k * 10**8) for k in range(20)]
    for model, name in ((ex.PathModel(cross_load=0.0, ber=True), "varying_ber"),
                        (ex.PathModel(cross_load=0.0, ber=False), "point_to_point")):
        assert model.link_spec()[0] == name


def test_run_experiment_on_the_sweep_equals_simulate(tmp_path):
    """Without simulate_fn the runs go through cmtlab.sweep.run_sweep (cache): rows as simulate()'s."""
    g = ex.fig7_grid((2,), (0.5,))
    runs = ex.build_runs("fig8", g, schedulers=["osia", "cwnd_aware"], seeds=[0], packets=200,
                         path_model=ex.PathModel(ber=False))
    t1 = ex.run_experiment(runs, cache_dir=tmp_path, progress=False)
    assert t1.attrs["osia_runs"]["simulated"] == 2
    t2 = ex.run_experiment(runs, cache_dir=tmp_path, progress=False)
    assert t2.attrs["osia_runs"]["cached"] == 2
    pd.testing.assert_frame_equal(t1, t2)
    for (labels, run), (_, row) in zip(runs, t1.iterrows()):
        direct = ex.simulate(run)
        assert row.scheduler == labels["scheduler"]
        for k, v in direct.items():
            if "cross_drops" not in k:
                assert row[k] == pytest.approx(v), k


def test_scheduler_params_option_reaches_the_scheduler():
    run = ex.OsiaRun("fig8", (1e6, 1e6), (0.05, 0.2), "osia", packets=100,
                     options=(("scheduler_params", (("replan", "every_period"),)),))
    assert dict(ex.scenario(run).scheduler_params) == {"period_s": 1.0, "replan": "every_period"}
    assert dict(ex.scenario(run.replace(options=())).scheduler_params) == {"period_s": 1.0}


def test_work_conserving_schedulers_coincide_when_only_one_subflow_has_room():
    """Round robin, lowest-RTT and EDPF pick among the subflows with room.  With a bulk sender and
    windows that start at one segment, an ACK opens room on one subflow only and it is refilled at
    once: almost no decision is a free choice, and the three make the same decisions (same run).
    With windows that never limit (64 KB initial window) most decisions are free and they differ."""
    pm = ex.PathModel(cross_load=0, ber=False)
    base = ex.OsiaRun("fig8", (1e6, 1e6), (0.05, 0.2), "round_robin", packets=300, path_model=pm)
    small = {s: ex.decision_profile(base.replace(scheduler=s)) for s in ("round_robin", "lowest_rtt", "edpf")}
    for d in small.values():
        assert d["free_choices"] <= 3 and d["free_share"] < 0.02
    assert small["round_robin"]["dupack_events"] == small["lowest_rtt"]["dupack_events"] == small["edpf"][
        "dupack_events"] > 0
    assert small["round_robin"]["goodput_bps"] == small["lowest_rtt"]["goodput_bps"] == small["edpf"]["goodput_bps"]
    big = {s: ex.decision_profile(base.replace(scheduler=s, options=(("initial_window_bytes", 64_000),)))
           for s in ("round_robin", "edpf")}
    assert all(d["free_share"] > 0.3 for d in big.values())
    assert big["edpf"]["dupack_events"] < big["round_robin"]["dupack_events"]


def test_variant_labels_keep_their_name():
    runs = ex.build_runs("fig8", ex.fig7_grid((1,), (1,)), schedulers=["osia", "osia_every_period"], seeds=[0])
    (la, ra), (lb, rb) = runs
    assert la["scheduler"] == "osia" and lb["scheduler"] == "osia_every_period"
    assert ra.scheduler == rb.scheduler == "osia"
    assert dict(ex.scenario(rb).scheduler_params)["replan"] == "every_period"
    assert "replan" not in dict(ex.scenario(ra).scheduler_params)


@pytest.mark.parametrize("d2, b2", [(0.1, 1e6), (0.2, 1e6), (0.4, 0.25e6), (0.025, 4e6)])
def test_osia_arrives_in_order_end_to_end_when_windows_carry_the_plan(d2, b2):
    """On the engine, without cross traffic or bit errors and with windows that never limit the
    faucets (64-segment initial window, above every path's bandwidth-delay product here), OSIA's
    plan arrives in order: no 3-dupACK event, no timeout — where round robin has events."""
    pm = ex.PathModel(cross_load=0, ber=False)
    opts = (("initial_window_bytes", 64_000),)
    osia_row = ex.simulate(ex.OsiaRun("fig8", (1e6, b2), (0.05, d2), "osia", packets=500, path_model=pm, options=opts))
    rr_row = ex.simulate(ex.OsiaRun("fig8", (1e6, b2), (0.05, d2), "round_robin", packets=500, path_model=pm,
                                    options=opts))
    assert osia_row["completed"] and osia_row["dupack_events"] == 0 and osia_row["timeouts"] == 0
    assert osia_row["path1_segments_sent"] > 0 and osia_row["path2_segments_sent"] > 0
    assert rr_row["dupack_events"] > 0
