"""Golden scenario keys: every scenario class's ``key()`` is byte-for-byte what it was.

The sweep cache, the Alheid records and the recorded papers'-simulator rows are looked up by these keys
(``tests/papers/alheid/test_papers_sim.py`` compares one with a recorded key), so a refactoring of ``key()`` /
``replace()`` (issue 33: one :class:`cmtlab.scenario.KeyedScenario` for the four classes) must leave them alone.
The hashes below were computed at ff15a48, before that refactoring; each class keeps its own ``to_dict``.
"""

from __future__ import annotations

import pytest

from cmtlab.scenario import LossModel, striped_scenario


def _striped():
    return {
        "default": striped_scenario([1e6], [0.1], transfer_bytes=100_000),
        "two links, loss, options": striped_scenario([2e6, 5e5], [0.02, 0.3], transfer_bytes=1_000_000,
                                                     loss=[LossModel("packet", 0.01), LossModel()], seed=3,
                                                     sack=True, timestamps=True, min_rto_s=0.2),
    }


def _mptcp():
    from cmtlab.sim.multipath import mptcp_scenario

    return {
        "default": mptcp_scenario([1e6, 2e6], [0.02, 0.05], transfer_bytes=200_000),
        "links, params, backbone": mptcp_scenario(
            [10e6, 10e6], [0.02, 0.12], duration_s=5.0, congestion="lia", congestion_params={"variant": "chihani"},
            scheduler="lowest_rtt", reordering="dsack", reordering_params={"variant": "rfc"}, dupack_mode="paper",
            links=[("pareto_cross_traffic", {"mean_load": 0.25}), "point_to_point"], backbone_bps=100e6, backbone_delay_s=0.01,
            loss=[LossModel("packet", 1e-5), LossModel()], seed=7, sack=True),
    }


def _papers_sim():
    from cmtlab.papers_sim.model import scenario

    return {
        "default": scenario([5e6, 2e6], [0.1, 0.1]),
        "loss per path, loss seed": scenario([5e6, 2e6], [0.1, 0.05], reordering="none", duration_s=20.0,
                                             loss_rate=(0.01, 0.0), loss_seed=4, seed=2),
    }


def _osia():
    from cmtlab.papers.osia.experiments import OsiaRun, PathModel

    return {
        "default": OsiaRun("fig8", (1e6, 2e6), (0.01, 0.05), "osia"),
        "options, path model": OsiaRun("fig9", (1e6, 2e6, 3e6), (0.01, 0.05, 0.2), "round_robin", seed=5,
                                       packets=100, path_model=PathModel(cross_load=0.5, ber=False),
                                       options=(("sack", True), ("min_rto_s", 0.2))),
    }


GOLDEN = {
    ("StripedScenario", "default"):
        "dc450e093e4c7b459482eb3851c768b97b07914df92cd911029ac0b6f0388619",
    ("StripedScenario", "two links, loss, options"):
        "b2c6850806546964ff20ccfaa231ff80c0302b903118fd3595570d607db7d906",
    ("MptcpScenario", "default"):
        "e85c61d2612696387db5834c645671301c7d429b56fcb664ac241bb3f9ff0348",
    ("MptcpScenario", "links, params, backbone"):
        "2a7138aab3771ba8c4bdcc0bdd7d0e34ab69fabb21f668dce99de1aa5f74e3a4",
    ("PapersSimScenario", "default"):
        "664dc02402be236e25b23412b69b954047dcbd0b43eff104fe067fbeda64e37f",
    ("PapersSimScenario", "loss per path, loss seed"):
        "4e27c0838fdc3f9aa3637c96f4f3c550d04e4819f7f902fac43acdf9ba921654",
    ("OsiaRun", "default"):
        "7773070c499f91d91923275687f5b2365713f58ea55f20e0e26364c238bc71d1",
    ("OsiaRun", "options, path model"):
        "267a04447922d42947e3fc74816754c6df96867934c556781c0d07a8f7f6c804",
}

BUILDERS = {"StripedScenario": _striped, "MptcpScenario": _mptcp, "PapersSimScenario": _papers_sim,
            "OsiaRun": _osia}


@pytest.mark.parametrize("cls, case", sorted(GOLDEN))
def test_scenario_key_is_golden(cls, case):
    sc = BUILDERS[cls]()[case]
    assert type(sc).__name__ == cls
    assert sc.key() == GOLDEN[cls, case]


@pytest.mark.parametrize("cls", sorted(BUILDERS))
def test_replace_keeps_the_key_and_changes_it_with_the_seed(cls):
    for sc in BUILDERS[cls]().values():
        assert sc.replace().key() == sc.key()
        other = sc.replace(seed=sc.seed + 1)
        assert other.seed == sc.seed + 1 and other.key() != sc.key()
        assert other.replace(seed=sc.seed).key() == sc.key()
        with pytest.raises(ValueError, match="unknown scenario field"):
            sc.replace(no_such_field=1)
