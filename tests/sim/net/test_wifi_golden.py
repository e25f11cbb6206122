"""Golden hashes of the Wi-Fi path (the Alheid chapters' scenarios): counters and full traces, pinned.

The other golden files never put a packet on :class:`cmtlab.sim.net.wifi.WifiMedium`, so speed
work on the medium (back-off draws, the DCF alternation, beacons, retries) could change results
without a test noticing.  These cases, pinned from the code before any such work, run Alheid's
scenarios (:func:`cmtlab.papers.alheid.experiments.scenario`, 3-s runs) near and far from the access
points, with a PDR on one path, under the paper's and the RFC presets; each traced and untraced.
Regenerate only for an intended, explained change: ``PYTHONPATH=tests python tests/sim/net/test_wifi_golden.py``.
"""

import pytest
from helpers.sim import fingerprint

from cmtlab import sim
from cmtlab.papers.alheid import experiments as alheid

CASES = {
    "prr_pdr_10m": dict(solution="PR-R", pdr2=0.005, seed=1),
    "nopr_70m": dict(solution="NoPR", distance_m=70.0, seed=2),
    "dsack_rfc_pdr_40m": dict(solution="D-SACK", distance_m=40.0, pdr2=0.003, preset="rfc", seed=3),
    "tcpdoor_100m_single_path": dict(solution="TCP-DOOR", distance_m=100.0, n_paths=1, seed=4),
}

GOLDEN = {
    "prr_pdr_10m": "84ac1406154b2411/9b0a1cbc7c1ae02e",
    "nopr_70m": "43ff5001563cd6c3/ea65cccca1c2e0b6",
    "dsack_rfc_pdr_40m": "b4d216c5174904b5/af2ba7bd4f26a7e2",
    "tcpdoor_100m_single_path": "234651ff5809a126/561d6ce1b67b78d5",
}


def fingerprints(name):
    sc = alheid.scenario(duration_s=3.0, **CASES[name])
    return fingerprint(sim.run(sc, trace=True)) + "/" + fingerprint(sim.run(sc))


@pytest.mark.parametrize("name", sorted(CASES))
def test_wifi_golden(name):
    assert fingerprints(name) == GOLDEN[name], f"the Wi-Fi path changed its results on {name!r}"


if __name__ == "__main__":
    for name in sorted(CASES):
        print(f'    "{name}": "{fingerprints(name)}",')
