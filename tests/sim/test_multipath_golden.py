"""Golden hashes of the multipath engine: full traces and counters of simulate_mptcp, pinned.

Pins what :func:`cmtlab.sim.simulate_mptcp` does today on scenarios that cover every coupled
congestion control, connection scheduler, duplicate-ACK mode, re-injection, a reordering
response, a shared backbone with a competing TCP flow, a short last segment and a
duration-limited run — so that speed work on the multipath hot path can prove it changed
nothing.  Each case runs traced (the general paths) and untraced (the fast paths).
:data:`GOLDEN` pins one hash per run; :data:`GOLDEN_PARTS` one per trace and one for the
counters, so a failure names the scenario and the trace that changed.
Regenerate only for an intended, explained change of behaviour:
``PYTHONPATH=tests python tests/sim/test_multipath_golden.py`` prints both tables.
"""


import pytest
from helpers.sim import MPTCP_VOLATILE, fingerprint, golden_mismatch, golden_parts

from cmtlab import sim
from cmtlab.scenario import LossModel

ARABI_B = [5e6, 2e6, 7e6]
ARABI_D = [0.1, 0.01, 0.05]
P1 = LossModel("packet", 0.01)

CASES = {
    "lia_round_robin": dict(congestion="lia", transfer_bytes=300_001, loss=P1, seed=1),
    "olia_lowest_rtt": dict(congestion="olia", scheduler="lowest_rtt", transfer_bytes=300_000, loss=P1, seed=2),
    "fully_coupled_cwnd_aware": dict(congestion="fully_coupled", scheduler="cwnd_aware", transfer_bytes=300_000,
                                     loss=P1, seed=3),
    "rtt_compensation_edpf": dict(congestion="rtt_compensation", scheduler="edpf", transfer_bytes=300_000,
                                  loss=P1, seed=4),
    "uncoupled_flow_level": dict(congestion="uncoupled", scheduler="flow_level", transfer_bytes=300_000, loss=P1,
                                 seed=5),
    "lia_osia": dict(congestion="lia", scheduler="osia", transfer_bytes=200_000, loss=P1, seed=6),
    "chihani_preset": dict(congestion="lia", congestion_params={"variant": "chihani"}, recovery="chihani",
                           dupack_mode="chihani", transfer_bytes=300_000, loss=P1, seed=7),
    "paper_dupacks_reinject": dict(congestion="lia", dupack_mode="paper", retransmit="reinject", duration_s=5.0,
                                   loss=P1, seed=8),
    "rfc_reinject_sack_dsack": dict(congestion="lia", retransmit="reinject", sack=True, reordering="dsack",
                                    transfer_bytes=300_000, loss=P1, seed=9),
    "eifel_timestamps_prr": dict(congestion="olia", reordering="eifel", timestamps=True, sack=True, recovery="prr",
                                 transfer_bytes=300_000, loss=LossModel("bit", 1e-6), seed=10),
    "backbone_competing_tcp": dict(congestion="lia", transfer_bytes=300_000, backbone_bps=8e6, competing_flows=1,
                                   queue_packets=20, seed=11),
    "small_receive_buffer": dict(congestion="lia", counting_ack=True, transfer_bytes=200_000,
                                 receive_buffer_bytes=8 * 536, queue_packets=5, seed=12),
    # added before the simulator's files moved (pinned from the code as it was): link models with
    # their own random streams, and a backbone crossed in both directions (two hops each way)
    "cross_traffic_links": dict(congestion="lia", links=("pareto_cross_traffic", {"mean_load": 0.25}),
                                transfer_bytes=200_000, seed=13),
    "backbone_both_ways_chihani": dict(congestion="lia", congestion_params={"variant": "chihani"},
                                       recovery="chihani", dupack_mode="chihani", backbone_bps=20e6,
                                       backbone_delay_s=0.01, transfer_bytes=200_000, loss=P1, seed=14),
}

VOLATILE = MPTCP_VOLATILE


def _kwargs(name):
    kw = dict(CASES[name])
    if kw.pop("counting_ack", False):
        kw["congestion_params"] = {"counting": "ack"}
    return kw


def runs(name):
    """Traced run (the general paths) and untraced run (the fast paths)."""
    return (sim.simulate_mptcp(ARABI_B, ARABI_D, trace=True, **_kwargs(name)),
            sim.simulate_mptcp(ARABI_B, ARABI_D, **_kwargs(name)))


def fingerprint_case(name, results=None) -> str:
    traced, fast = results or runs(name)
    return fingerprint(traced) + "/" + fingerprint(fast)


def parts_case(name, results=None) -> dict:
    """``{"traced/row": h, "traced/trace:cwnd": h, ..., "fast/row": h}``."""
    out = {}
    for label, res in zip(("traced", "fast"), results or runs(name)):
        parts = golden_parts(res.row(), res.traces, VOLATILE)
        out.update({f"{label}/{k}": v for k, v in parts.items()})
    return out


# pinned from the engine as merged on main at 09:35 UTC (before the hot-path speed work)
GOLDEN = {
    # link and backbone utilisation: bits still queued at the end of the run no longer count (utilisation <= 1)
    'backbone_competing_tcp': 'e16af5abf49fb9e1/6b81311b4ebdb68b',
    'chihani_preset': 'c149949a867aed2a/1b40b026239301bd',
    'eifel_timestamps_prr': '3dffd5f92b472ef3/73c1a0ba0ed948f3',
    'fully_coupled_cwnd_aware': '071527045f291dae/a26a2dbd2e7a3282',
    'lia_osia': '0166a20f563636b7/9ac0f42ac3b10c34',
    'lia_round_robin': '5aa5456ee9aee0cb/8de4f4c777c00980',
    'olia_lowest_rtt': 'b5f1d34963f0cdcf/7246dc4f7f34831a',
    'paper_dupacks_reinject': '5e8813f219d43b86/97fc587a6fa8288e',
    'rfc_reinject_sack_dsack': '764efe8b889188db/c871b06927f6265e',
    'rtt_compensation_edpf': 'cdc9956e32794bac/50ce44eb72624143',
    'small_receive_buffer': '9b4e556141192bb6/215d477461bedc55',
    'uncoupled_flow_level': 'd748789c32b7cdfa/d5c66e2c0a26bd70',
    # pinned from main at 469c1b0 (before the simulator's files moved into engine/, net/, tcp/, mechanisms/)
    'cross_traffic_links': 'b7119cdebf030862/342bf44152713afb',
    'backbone_both_ways_chihani': '559fceb53032a4af/ca3fece4e7749613',
}

# the same runs, one hash per trace and one for the counters (pinned with GOLDEN)
GOLDEN_PARTS = {
    'backbone_competing_tcp': {
        'traced/row': '6b81311b4ebd',
        'traced/trace:acks': '3f90042d4e94',
        'traced/trace:buffer': '31efe726c668',
        'traced/trace:cwnd': '9bec3eeeb096',
        'traced/trace:dupacks': '0eb92a2795ff',
        'traced/trace:events': '5989b828bbab',
        'traced/trace:packets': 'e23882b07b36',
        'fast/row': '6b81311b4ebd',
    },
    'chihani_preset': {
        'traced/row': '1b40b0262393',
        'traced/trace:acks': '4c6bd02a1ea7',
        'traced/trace:buffer': '8cc0834567cb',
        'traced/trace:cwnd': 'e7e5a1b96202',
        'traced/trace:dupacks': 'bba6ffaacdb2',
        'traced/trace:events': '5ffade77a2f6',
        'traced/trace:packets': '1e99d9591fac',
        'fast/row': '1b40b0262393',
    },
    'eifel_timestamps_prr': {
        'traced/row': '73c1a0ba0ed9',
        'traced/trace:acks': 'ca9a63c58c9f',
        'traced/trace:buffer': '7bb03fc9f3e2',
        'traced/trace:cwnd': '870641aefdcd',
        'traced/trace:dupacks': 'adbef51f3d89',
        'traced/trace:events': '38e3572c9825',
        'traced/trace:packets': '07521c50089b',
        'fast/row': '73c1a0ba0ed9',
    },
    'fully_coupled_cwnd_aware': {
        'traced/row': 'a26a2dbd2e7a',
        'traced/trace:acks': '81847b8464f1',
        'traced/trace:buffer': '61ff38b70aa5',
        'traced/trace:cwnd': '91e86c9de42c',
        'traced/trace:dupacks': '34c81c7a2b9f',
        'traced/trace:events': 'cdc607749c1f',
        'traced/trace:packets': '3d5d2fabf9fc',
        'fast/row': 'a26a2dbd2e7a',
    },
    'lia_osia': {
        'traced/row': '9ac0f42ac3b1',
        'traced/trace:acks': '89d2520ecd97',
        'traced/trace:buffer': '2e739181a5d9',
        'traced/trace:cwnd': 'a1450ce8591b',
        'traced/trace:dupacks': '6d4921749d66',
        'traced/trace:events': '58120d48879f',
        'traced/trace:packets': '2e2daf636fcc',
        'fast/row': '9ac0f42ac3b1',
    },
    'lia_round_robin': {
        'traced/row': '8de4f4c777c0',
        'traced/trace:acks': '29751c8b465c',
        'traced/trace:buffer': '0d3d35329eae',
        'traced/trace:cwnd': '3f1705852533',
        'traced/trace:dupacks': '110d50669fd8',
        'traced/trace:events': '2d9f7cc43685',
        'traced/trace:packets': '6f73d1dbf82a',
        'fast/row': '8de4f4c777c0',
    },
    'olia_lowest_rtt': {
        'traced/row': '7246dc4f7f34',
        'traced/trace:acks': '76b09bba15b8',
        'traced/trace:buffer': '3ac2257e7247',
        'traced/trace:cwnd': '333d68aa6d96',
        'traced/trace:dupacks': 'c124b140ba05',
        'traced/trace:events': '5ea779b3c2ad',
        'traced/trace:packets': '96f59b937ec5',
        'fast/row': '7246dc4f7f34',
    },
    'paper_dupacks_reinject': {
        'traced/row': '97fc587a6fa8',
        'traced/trace:acks': '547c168b94fd',
        'traced/trace:buffer': '0b876a9a8928',
        'traced/trace:cwnd': '2610e404f27a',
        'traced/trace:dupacks': '872fd56ebf52',
        'traced/trace:events': '599e31670b6b',
        'traced/trace:packets': '9be751807f52',
        'fast/row': '97fc587a6fa8',
    },
    'rfc_reinject_sack_dsack': {
        'traced/row': 'c871b06927f6',
        'traced/trace:acks': '480d0ea4938a',
        'traced/trace:buffer': '48804306224c',
        'traced/trace:cwnd': '538142dfdb8a',
        'traced/trace:dupacks': '39376769a6c3',
        'traced/trace:events': 'ab75265905aa',
        'traced/trace:packets': '2bbea04bb51c',
        'fast/row': 'c871b06927f6',
    },
    'rtt_compensation_edpf': {
        'traced/row': '50ce44eb7262',
        'traced/trace:acks': '5f0a80a13513',
        'traced/trace:buffer': '3d39a62ff336',
        'traced/trace:cwnd': '5d77270f6acd',
        'traced/trace:dupacks': '96bc340ac2a5',
        'traced/trace:events': 'ce130ad080a3',
        'traced/trace:packets': '5221bf44e090',
        'fast/row': '50ce44eb7262',
    },
    'small_receive_buffer': {
        'traced/row': '215d477461be',
        'traced/trace:acks': '56ec2c98574c',
        'traced/trace:buffer': 'd5fd3a5c55d0',
        'traced/trace:cwnd': '4539012c6f55',
        'traced/trace:dupacks': 'ead6eb168b8b',
        'traced/trace:events': 'c343620bb6b3',
        'traced/trace:packets': 'bffe089666f0',
        'fast/row': '215d477461be',
    },
    'uncoupled_flow_level': {
        'traced/row': 'd5c66e2c0a26',
        'traced/trace:acks': '1c7618960a5c',
        'traced/trace:buffer': '940f6d4f23eb',
        'traced/trace:cwnd': '7f93c0cc1f26',
        'traced/trace:dupacks': '15dda17a6f61',
        'traced/trace:events': '4a4af3d1062b',
        'traced/trace:packets': '04df29c26527',
        'fast/row': 'd5c66e2c0a26',
    },
    'cross_traffic_links': {
        'traced/row': '342bf4415271',
        'traced/trace:acks': 'aa9a410267f4',
        'traced/trace:buffer': '77284a77b5fc',
        'traced/trace:cwnd': 'a9e8ea4b6c90',
        'traced/trace:dupacks': 'ead6eb168b8b',
        'traced/trace:events': 'c343620bb6b3',
        'traced/trace:packets': '3bd3added05d',
        'fast/row': '342bf4415271',
    },
    'backbone_both_ways_chihani': {
        'traced/row': 'ca3fece4e774',
        'traced/trace:acks': '0f3db7743b1b',
        'traced/trace:buffer': '2fd7fc2bc87a',
        'traced/trace:cwnd': '6d886ff64524',
        'traced/trace:dupacks': '340a76b16ba2',
        'traced/trace:events': 'df57a3e06dec',
        'traced/trace:packets': '915fff82d63a',
        'fast/row': 'ca3fece4e774',
    },
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_multipath_behaviour_is_unchanged(name):
    results = runs(name)
    msg = golden_mismatch(name, GOLDEN_PARTS[name], parts_case(name, results))
    assert not msg, msg
    assert fingerprint_case(name, results) == GOLDEN[name]


if __name__ == "__main__":
    print("GOLDEN = {")
    for name in sorted(CASES):
        print(f"    {name!r}: {fingerprint_case(name)!r},")
    print("}\n\nGOLDEN_PARTS = {")
    for name in sorted(CASES):
        print(f"    {name!r}: {{")
        for k, v in parts_case(name).items():
            print(f"        {k!r}: {v!r},")
        print("    },")
    print("}")
