"""Golden hashes: full traces and counters of today's striped simulator, pinned.

Any change in behaviour of :func:`cmtlab.sim.simulate_striped` (event order, a timer, a
window update, a loss draw) changes a hash.  Two tables: :data:`GOLDEN` (one hash per run,
traced/untraced) and :data:`GOLDEN_PARTS` (one hash per trace and one for the counters, so a
failure names the scenario and the trace that changed).  Regenerate them only for an intended,
explained change of behaviour: ``PYTHONPATH=tests python tests/sim/test_striped_golden.py`` prints both.
"""

import hashlib

import pytest
from helpers.sim import golden_mismatch, golden_parts

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


def runs(name):
    """Traced run (general paths) and untraced run (the engine's fast paths)."""
    kw = dict(CASES[name])
    b, d = kw.pop("bandwidths_bps"), kw.pop("delays_s")
    return run_case(name), sim.simulate_striped(b, d, **kw)


def fingerprint_case(name, results=None) -> str:
    traced, fast = results or runs(name)
    return fingerprint(traced) + "/" + fingerprint(fast)


def parts_case(name, results=None) -> dict:
    """``{"traced/row": h, "traced/trace:cwnd": h, ..., "fast/row": h}``."""
    out = {}
    for label, res in zip(("traced", "fast"), results or runs(name)):
        parts = golden_parts(res.to_row(), res.traces, VOLATILE | {"wall_time_s"})
        out.update({f"{label}/{k}": v for k, v in parts.items()})
    return out


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

# the same runs, one hash per trace and one for the counters (pinned with GOLDEN)
GOLDEN_PARTS = {
    'first_ack_path_short_tail': {
        'traced/row': 'cc664f68e2cc',
        'traced/trace:acks': '4cabf6a15fcb',
        'traced/trace:cwnd': 'e2a90b70b77d',
        'traced/trace:dupacks': '8e85893e04d3',
        'traced/trace:events': '4a80a3be9667',
        'traced/trace:packets': 'e62aa5a7d3bc',
        'traced/trace:rate': '35ab0f0a871a',
        'traced/trace:reordering': 'd4cfdc6ff23c',
        'fast/row': '312a360c1bb3',
    },
    'ideal_ack_path': {
        'traced/row': 'd8c1090649bf',
        'traced/trace:acks': 'ec997df30ce7',
        'traced/trace:cwnd': '3968bd67d177',
        'traced/trace:dupacks': '81332c7ec27f',
        'traced/trace:events': '15ea20a744f4',
        'traced/trace:packets': 'c950a7a6ee7d',
        'traced/trace:rate': '5028315128b3',
        'traced/trace:reordering': '9a03dfe0b0df',
        'fast/row': '638439a2008b',
    },
    'one_link_loss': {
        'traced/row': 'b24b04c660ac',
        'traced/trace:acks': '59d69d47c5a7',
        'traced/trace:cwnd': '8d8fc112b287',
        'traced/trace:dupacks': '25924ff69954',
        'traced/trace:events': 'dbb53f2a4082',
        'traced/trace:packets': '13cc16d05416',
        'traced/trace:rate': '88564e2d9aad',
        'traced/trace:reordering': '82a8d40c06de',
        'fast/row': '3dbde3af5831',
    },
    'three_links_prr_ts': {
        'traced/row': '5bef0cca5eb0',
        'traced/trace:acks': '3e33c77ae138',
        'traced/trace:cwnd': '20211f1ee08c',
        'traced/trace:dupacks': '53b3950d38b5',
        'traced/trace:events': '320cb3899e08',
        'traced/trace:packets': 'c6b7fb7faf24',
        'traced/trace:rate': '4b6b01460ba0',
        'traced/trace:reordering': 'acdf9cbd1b45',
        'fast/row': '049f1f937f7a',
    },
    'three_links_rr': {
        'traced/row': '12c43177d360',
        'traced/trace:acks': '88b249baf383',
        'traced/trace:cwnd': '330e61519e29',
        'traced/trace:dupacks': '81789d3a9fd9',
        'traced/trace:events': '74633a699564',
        'traced/trace:packets': 'a97c45e2a84f',
        'traced/trace:rate': '54106e2313c4',
        'traced/trace:reordering': '34def70bdb20',
        'fast/row': '1dd6430e4f51',
    },
    'three_links_sack_loss': {
        'traced/row': 'e592c3321620',
        'traced/trace:acks': 'e11632b90276',
        'traced/trace:cwnd': 'b20f8ec9841c',
        'traced/trace:dupacks': 'ea632540cacc',
        'traced/trace:events': '0cd7e2e762e6',
        'traced/trace:packets': '8ebc6e4ff06a',
        'traced/trace:rate': '75046f0259ac',
        'traced/trace:reordering': 'fd53acc27304',
        'fast/row': '4a5cdb254d05',
    },
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_striped_behaviour_is_unchanged(name):
    results = runs(name)
    msg = golden_mismatch(name, GOLDEN_PARTS[name], parts_case(name, results))
    assert not msg, msg
    assert fingerprint_case(name, results) == GOLDEN[name]


if __name__ == "__main__":
    print("GOLDEN = {")
    for n in sorted(CASES):
        print(f"    {n!r}: {fingerprint_case(n)!r},")
    print("}\n\nGOLDEN_PARTS = {")
    for n in sorted(CASES):
        print(f"    {n!r}: {{")
        for k, v in parts_case(n).items():
            print(f"        {k!r}: {v!r},")
        print("    },")
    print("}")
