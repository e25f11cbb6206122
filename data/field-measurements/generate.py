#!/usr/bin/env python
"""Regenerate the reconstruction of Song et al. Fig. 1 (the original data is not public).

Usage (from the repository root)::

    .venv/bin/python data/field-measurements/generate.py            # default seed, into this folder
    .venv/bin/python data/field-measurements/generate.py --out DIR --seed 20180101 --n 1000

All logic lives in :mod:`cmtlab.papers.song.field`; see README.md here (the datasheet).
"""

import argparse
import hashlib
from pathlib import Path

from cmtlab.papers.song import field


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent)
    parser.add_argument("--seed", type=int, default=field.DEFAULT_SEED)
    parser.add_argument("--n", type=int, default=field.DEFAULT_N_SAMPLES, help="RTT samples per modem")
    args = parser.parse_args(argv)
    paths = field.write_reconstruction(args.out, seed=args.seed, n_samples_per_modem=args.n)
    rtt = field.load_rtt_samples(paths[field.RTT_FILE])
    rates = field.load_data_rates(paths[field.RATES_FILE])
    claims = field.check_fig1_claims(rtt, rates)
    for name, path in paths.items():
        print(f"{hashlib.sha256(path.read_bytes()).hexdigest()}  {name}")
    if not claims["holds"].all():
        raise SystemExit(f"claims that do not hold:\n{claims[~claims['holds']].to_string()}")
    print(f"all {len(claims)} Fig. 1 claims hold")


if __name__ == "__main__":
    main()
