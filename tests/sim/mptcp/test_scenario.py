"""cmtlab.sim.mptcp.scenario: an MPTCP scenario is frozen data keyed by its fields, and bad input to
mptcp_scenario (or simulate_mptcp, which builds one) is a ValueError that names the parameter — the
mechanisms' own checks included, made through the registry without building a run."""

import dataclasses

import pytest

from cmtlab import sim
from cmtlab.scenario import LossModel
from cmtlab.sim import registry
from cmtlab.sim.mptcp.scenario import mptcp_scenario

B = [5e6, 2e6]
D = [0.1, 0.01]


def _call(entry, b, d, **kw):
    kw.setdefault("transfer_bytes", 10_000)
    return entry(b, d, **kw)


ENTRIES = [sim.simulate_mptcp, mptcp_scenario]

BAD = [
    # unknown mechanism names: the message lists the registered ones
    (dict(congestion="cubic-ish"), r"congestion must be one of \[.*'lia'.*\]"),
    (dict(scheduler="fastest"), r"scheduler must be one of \[.*'round_robin'.*\]"),
    (dict(reordering="magic"), r"reordering must be one of \[.*'dsack'.*\]"),
    (dict(links=[("ethernet", {}), ("ethernet", {})]), r"links\[0\] must name a link model .*'point_to_point'"),
    (dict(recovery="fast"), r"recovery must be one of"),
    (dict(dupack_mode="sometimes"), r"dupack_mode must be one of"),
    (dict(retransmit="twice"), r"retransmit must be one of"),
    (dict(congestion="lia", congestion_params={"counting": "bits"}), r"counting must be one of \['ack', 'bytes'\]"),
    (dict(congestion="lia", congestion_params={"gain": 2}), r"congestion 'lia': invalid parameters \['gain'\]"),
    (dict(scheduler_params={"weights": [1, 2]}), r"scheduler 'round_robin': invalid parameters"),
    # impossible combinations
    (dict(reordering="dsack"), r"sack must be True"),
    (dict(reordering="eifel"), r"timestamps must be True"),
    (dict(ack_path="ideal"), r"ack_path must be 'round_robin'"),
    (dict(backbone_delay_s=0.01), r"backbone_delay_s needs backbone_bps"),
    (dict(links=[("wifi80211g", {"distance_m": 50})] * 2), r"rtts_s of a 'wifi80211g' path must be 0"),
    (dict(duration_s=1.0), r"exactly one of transfer_bytes .* and duration_s"),
    # rates, delays, loss
    (dict(backbone_bps=0), r"backbone_bps must be > 0"),
    (dict(backbone_bps=-1e6), r"backbone_bps must be > 0"),
    (dict(backbone_bps=1e8, backbone_delay_s=-0.01), r"backbone_delay_s must be >= 0"),
    (dict(loss=0.01), r"loss must be a LossModel .*LossModel\('packet', 0.01\)"),
    (dict(loss="packet"), r"loss must be a LossModel"),
    (dict(loss=[LossModel("packet", 0.01)] * 3), r"loss must be a LossModel or a sequence of 2 LossModel"),
    (dict(loss=[0.01, 0.02]), r"loss must be a LossModel or a sequence of 2 LossModel"),
    # buffers and sizes
    (dict(receive_buffer_bytes=535), r"receive_buffer_bytes must be >= segment_bytes \(536\)"),
    (dict(receive_buffer_bytes=0), r"receive_buffer_bytes must be >= 1"),
    (dict(segment_bytes=1000, receive_buffer_bytes=999), r"receive_buffer_bytes must be >= segment_bytes \(1000\)"),
    (dict(send_buffer_bytes=100), r"send_buffer_bytes and receive_buffer_bytes must be >= segment_bytes \(536\)"),
    (dict(segment_bytes=0), r"segment_bytes must be >= 1"),
    (dict(queue_packets=0), r"queue_packets must be >= 1"),
    (dict(competing_flows=-1), r"competing_flows must be >= 0"),
    (dict(dss_bytes=-1), r"dss_bytes must be >= 0"),
    (dict(m_ack=0), r"m_ack must be >= 1"),
    (dict(transfer_bytes=0), r"transfer_bytes must be >= 1"),
    (dict(transfer_bytes=None, duration_s=-1.0), r"duration_s must be > 0"),
    (dict(seed=-1), r"seed must be >= 0"),
    (dict(max_sim_time_s=0), r"max_sim_time_s must be > 0"),
    (dict(no_such_option=True), r"unknown TcpOptions field\(s\) \['no_such_option'\]"),
]


@pytest.mark.parametrize("entry", ENTRIES, ids=["simulate_mptcp", "mptcp_scenario"])
@pytest.mark.parametrize("kw,match", BAD, ids=[m.split(" ")[0].strip("r\\(") for _, m in BAD])
def test_bad_option_raises_value_error_naming_it(entry, kw, match):
    with pytest.raises(ValueError, match=match):
        _call(entry, B, D, **kw)


@pytest.mark.parametrize("b,d,match", [
    ([0.0, 2e6], D, r"bandwidths_bps must be > 0 \(bit/s\)"),
    ([-1e6, 2e6], D, r"bandwidths_bps must be > 0"),
    ([float("nan"), 2e6], D, r"bandwidths_bps must be finite"),
    (["fast", 2e6], D, r"bandwidths_bps must hold real numbers"),
    (B, [0.1, -0.01], r"rtts_s must be >= 0 \(round-trip seconds\)"),
    (B, [float("inf"), 0.01], r"rtts_s must be finite"),
    ([], [], r"bandwidths_bps must contain at least 1"),
    ([5e6], [0.1, 0.01], r"bandwidths_bps and rtts_s must have the same length"),
    ([5e6, 2e6, 1e6], D, r"bandwidths_bps and rtts_s must have the same length"),
])
@pytest.mark.parametrize("entry", ENTRIES, ids=["simulate_mptcp", "mptcp_scenario"])
def test_bad_paths_raise_value_error_naming_them(entry, b, d, match):
    with pytest.raises(ValueError, match=match):
        _call(entry, b, d)


@pytest.mark.parametrize("rate", [-0.1, 1.0, 1.5])
@pytest.mark.parametrize("unit", ["packet", "bit"])
def test_loss_rate_outside_zero_one_is_refused_where_it_is_made(unit, rate):
    with pytest.raises(ValueError, match=r"loss rate must be"):
        LossModel(unit, rate)


def test_replace_validates_like_the_constructor():
    sc = mptcp_scenario(B, D, transfer_bytes=10_000)
    with pytest.raises(ValueError, match=r"receive_buffer_bytes must be >= segment_bytes"):
        sc.replace(receive_buffer_bytes=100)
    with pytest.raises(ValueError, match=r"congestion must be one of"):
        sc.replace(congestion="nope")
    with pytest.raises(ValueError, match=r"unknown scenario field\(s\) \['rate'\]"):
        sc.replace(rate=1)


def test_a_valid_call_still_runs():
    r = sim.simulate_mptcp(B, D, transfer_bytes=20_000, loss=[LossModel("packet", 0.01), LossModel()], seed=1)
    assert r.completed and r.throughput_bps > 0


def test_scenario_is_frozen_and_keyed_by_mechanisms():
    a = mptcp_scenario(B, D, transfer_bytes=1000, congestion="newreno", scheduler="round_robin")
    b = a.replace(dupack_mode="paper")
    assert a.key() != b.key() and a.key() == a.replace().key()
    with pytest.raises(Exception):
        a.seed = 3


# ---------------------------------------------------------------- the mechanisms' checks, without a run
def _mechanism_grid():
    """Mechanism settings over every registered name and model variant, with and without the options they need."""
    out = []
    for cc in registry.names("congestion"):
        for v in [None] + registry.variants("congestion", cc):
            out.append(dict(congestion=cc, congestion_params={"variant": v} if v else None))
        out.append(dict(congestion=cc, congestion_params={"bogus": 1}))
    for s in registry.names("scheduler"):
        for v in [None] + registry.variants("scheduler", s):
            out.append(dict(scheduler=s, scheduler_params={"variant": v} if v else None))
        out.append(dict(scheduler=s, scheduler_params={"bogus": 1}))
    for ro in registry.names("reordering"):
        for v in [None] + registry.variants("reordering", ro):
            for sack in (False, True):
                for ts in (False, True):
                    out.append(dict(reordering=ro, reordering_params={"variant": v} if v else None, sack=sack,
                                    timestamps=ts))
        out.append(dict(reordering=ro, reordering_params={"bogus": 1}))
    for mode in registry.names("dupack_mode"):
        out.append(dict(dupack_mode=mode))
    for links, rtts in [(("wifi80211g", {"distance_m": 30}), D), (("wifi80211g", {"distance_m": 30}), [0, 0]),
                        (("wifi80211g", {"distance_m": 30, "bogus": 1}), [0, 0]),
                        (("pareto_cross_traffic", {"mean_load": 2}), D), (("jitter", {"jitter_s": -1}), D)]:
        out.append(dict(links=links, rtts_s=rtts))
    return out


def _outcome(call):
    try:
        call()
    except ValueError as exc:
        return str(exc)
    return "ok"


def test_the_scenario_refuses_exactly_what_the_builder_refuses():
    """``mptcp_scenario`` checks the mechanisms through the registry (and the link models through ``for_path``)
    instead of building a run: for every registered mechanism and variant, with and without the options it
    needs, it refuses a setting exactly when building the run from the unchecked scenario fails, with the
    builder's message."""
    from cmtlab.sim.multipath import MptcpSimulation

    base = mptcp_scenario(B, D, transfer_bytes=10_000)
    n_refused = 0
    for kw in _mechanism_grid():
        kw = dict(kw)
        rtts = kw.pop("rtts_s", D)
        options = {k: kw.pop(k) for k in ("sack", "timestamps") if k in kw}
        checked = _outcome(lambda: mptcp_scenario(B, rtts, transfer_bytes=10_000, **kw, **options))
        params = {k: v for k, v in kw.items() if not k.endswith("_params")}
        params.update({k: tuple(sorted(v.items())) if v else () for k, v in kw.items() if k.endswith("_params")})
        if "links" in params:
            name, p = params["links"]
            params["links"] = ((name, tuple(sorted(p.items()))),) * len(B)
        unchecked = dataclasses.replace(base, rtts_s=tuple(rtts), options=base.options.replace(**options), **params)
        built = _outcome(lambda: MptcpSimulation(unchecked))
        assert checked == built, kw
        n_refused += checked != "ok"
    assert n_refused > 20  # the grid holds refusals of every kind (parameters, needs, link rules)


def test_the_scenario_is_checked_without_building_a_run(monkeypatch):
    from cmtlab.sim import multipath

    def refuse(*args, **kwargs):
        raise AssertionError("mptcp_scenario built a run")

    monkeypatch.setattr(multipath.MptcpSimulation, "__init__", refuse)
    sc = mptcp_scenario(B, [0, 0], transfer_bytes=10_000, links=("wifi80211g", {"distance_m": 30}),
                        reordering="eifel", timestamps=True, congestion="lia", congestion_params={"variant": "chihani"})
    assert sc.reordering == "eifel" and sc.replace(seed=3).seed == 3
    with pytest.raises(ValueError, match="timestamps must be True"):
        sc.replace(options=sc.options.replace(timestamps=False))
