"""Golden hashes of the multipath engine: full traces and counters of simulate_mptcp, pinned.

Pins what :func:`cmtlab.sim.simulate_mptcp` does today on scenarios that cover every coupled
congestion control, connection scheduler, duplicate-ACK mode, re-injection, a reordering
response, a shared backbone with a competing TCP flow, a short last segment and a
duration-limited run — so that speed work on the multipath hot path can prove it changed
nothing.  Each case runs traced (the general paths) and untraced (the fast paths).
Regenerate only for an intended, explained change of behaviour:
``python tests/test_sim_mptcp_golden.py`` prints the table.
"""

import hashlib

import pytest

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
}

VOLATILE = {"segments_per_second", "code_version", "wall_time_s", "scenario_key"}


def _kwargs(name):
    kw = dict(CASES[name])
    if kw.pop("counting_ack", False):
        kw["congestion_params"] = {"counting": "ack"}
    return kw


def fingerprint(result) -> str:
    h = hashlib.sha256()
    row = {k: v for k, v in result.row().items() if k not in VOLATILE}
    h.update(repr(sorted(row.items())).encode())
    for name in sorted(result.traces):
        h.update(name.encode())
        h.update(result.traces[name].to_csv(index=False, float_format="%.12g").encode())
    return h.hexdigest()[:16]


def fingerprint_case(name) -> str:
    traced = sim.simulate_mptcp(ARABI_B, ARABI_D, trace=True, **_kwargs(name))
    fast = sim.simulate_mptcp(ARABI_B, ARABI_D, **_kwargs(name))
    return fingerprint(traced) + "/" + fingerprint(fast)


# pinned from the engine as merged on main at 09:35 UTC (before the hot-path speed work)
GOLDEN = {
    'backbone_competing_tcp': '14cbc5231820304f/045d5eb61ae9a42f',
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
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_multipath_behaviour_is_unchanged(name):
    assert fingerprint_case(name) == GOLDEN[name]


if __name__ == "__main__":
    print("GOLDEN = {")
    for name in sorted(CASES):
        print(f"    {name!r}: {fingerprint_case(name)!r},")
    print("}")
