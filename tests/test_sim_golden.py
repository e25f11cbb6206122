"""Golden hashes: full traces and counters of today's striped simulator, pinned.

Any change in behaviour of :func:`cmtlab.sim.simulate_striped` (event order, a timer, a
window update, a loss draw) changes a hash.  Regenerate the table only for an intended,
explained change of behaviour: ``python tests/test_sim_golden.py`` prints it.
"""

import hashlib

import pytest

from cmtlab import sim
from cmtlab.scenario import LossModel

SONG_B = [35.9e6, 18.4e6, 33.3e6]
SONG_D = [0.02, 0.05, 0.01]

CASES = {
    "one_link_loss": (dict(bandwidths_bps=[10e6], delays_s=[0.05], transfer_bytes=400_000, tunnel=False,
                           loss=LossModel("packet", 0.01), seed=3)),
    "three_links_rr": (dict(bandwidths_bps=SONG_B, delays_s=SONG_D, transfer_bytes=500_000, seed=1)),
    "three_links_sack_loss": (dict(bandwidths_bps=SONG_B, delays_s=SONG_D, transfer_bytes=500_000, sack=True,
                                   loss=LossModel("packet", 0.005), seed=2)),
    "three_links_prr_ts": (dict(bandwidths_bps=SONG_B, delays_s=SONG_D, transfer_bytes=400_000, sack=True,
                                recovery="prr", timestamps=True, loss=LossModel("bit", 1e-6), seed=4)),
    "ideal_ack_path": (dict(bandwidths_bps=[5e6, 2e6], delays_s=[0.1, 0.01], transfer_bytes=300_000,
                            ack_path="ideal", limited_transmit=True, seed=5)),
    "first_ack_path_short_tail": (dict(bandwidths_bps=[5e6, 7e6], delays_s=[0.1, 0.05], transfer_bytes=300_001,
                                       ack_path="first", loss=LossModel("packet", 0.01), queue_packets=20,
                                       seed=6)),
}

VOLATILE = {"segments_per_second", "code_version"}


def fingerprint(result) -> str:
    h = hashlib.sha256()
    row = {k: v for k, v in result.to_row().items() if k not in VOLATILE and k != "wall_time_s"}
    h.update(repr(sorted(row.items())).encode())
    for name in sorted(result.traces):
        df = result.traces[name]
        h.update(name.encode())
        h.update(df.to_csv(index=False, float_format="%.12g").encode())
    return h.hexdigest()[:16]


def run_case(name):
    kw = dict(CASES[name])
    b, d = kw.pop("bandwidths_bps"), kw.pop("delays_s")
    return sim.simulate_striped(b, d, trace=True, **kw)


def fingerprint_case(name) -> str:
    """Traced run (general paths) and untraced run (the engine's fast paths) together."""
    kw = dict(CASES[name])
    b, d = kw.pop("bandwidths_bps"), kw.pop("delays_s")
    fast = sim.simulate_striped(b, d, **kw)
    return fingerprint(run_case(name)) + "/" + fingerprint(fast)


# regenerated when the reordering responses added the counter ``spurious_undos`` to the row
# (traces and every other counter unchanged)
GOLDEN = {
    'first_ack_path_short_tail': 'a301114233a00ef3/312a360c1bb397ad',
    'ideal_ack_path': '8bc400909956048e/638439a2008b1b6d',
    'one_link_loss': '7a64beb7114fe9d6/3dbde3af58315fe6',
    'three_links_prr_ts': '530ce75206757726/049f1f937f7a3988',
    'three_links_rr': 'f3935cda6a283f33/1dd6430e4f51e18a',
    'three_links_sack_loss': '831f0b6245cbf5ff/4a5cdb254d0527c0',
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_striped_behaviour_is_unchanged(name):
    assert fingerprint_case(name) == GOLDEN[name]


if __name__ == "__main__":
    for n in sorted(CASES):
        print(f"    {n!r}: {fingerprint_case(n)!r},")
