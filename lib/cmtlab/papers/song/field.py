"""Reconstruction of the field measurement of Song et al., section 3, Fig. 1.

Song et al. measured eight LTE modems on a test train on a new high-speed railway
(three FDD-LTE modems of China Telecom CT1–CT3, three FDD-LTE modems of China
Unicom CU1–CU3, two TD-LTE modems of China Mobile CM1–CM2).  For each modem they
report an RTT data set (boxplots, Fig. 1(a)) and two download data rates, the
average and the maximum (bars, Fig. 1(b)).  Section 5.3 uses the modems as links
I–VIII, with bandwidths equal to the maximum download data rates.

**The original data is not public.**  This module generates a clearly-labelled,
seeded *reconstruction* that is consistent with every number and claim the paper
states about Fig. 1 (see ``data/field-measurements/README.md`` for the datasheet):

* maximum download DR per modem — the paper's numbers (sec. 5.3), used as inputs;
* ratio of highest (CT1) to lowest (CU3) maximum DR = 8.2 (sec. 3);
* ratio of highest to lowest *average* DR = 15.1 (sec. 3) — the average DRs
  themselves are not printed, they are chosen here (:data:`CHOSEN_AVG_DR_MBPS`);
* RTT of CT1, CU3, CM1, CM2 "significantly higher" than CT2, CU1, CU2: their
  interquartile ranges (IQRs) do not overlap (sec. 3's own criterion);
* RTT of CT1, CU3, CM1 "different from the others": interpreted here as *for every
  other modem Y, the median of X lies outside the IQR of Y and the median of Y lies
  outside the IQR of X* (the strongest reading of sec. 3's median-vs-IQR criterion,
  applied to all seven other modems).  See :func:`check_fig1_claims`.

The RTT distributions are chosen (shifted log-normal bodies plus a few handover
spikes); data rates in this module are in Mbit/s as the column names say
(``_mbps``), RTTs in milliseconds (``_ms``).
"""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pandas as pd

from ... import pinned
from ..._paths import DATA
from ..._validate import check_int
from .paper import PAPER_AVG_DR_RATIO, PAPER_MAX_DR_MBPS, PAPER_MAX_DR_RATIO

__all__ = [
    "MODEMS", "OPERATORS", "TECHNOLOGIES", "LINKS", "MAX_DR_MBPS_BY_MODEM", "CHOSEN_AVG_DR_MBPS",
    "RTT_MODEL", "DEFAULT_SEED", "DEFAULT_N_SAMPLES", "MIN_N_SAMPLES", "DATA_DIR",
    "generate_reconstruction", "write_reconstruction", "load_rtt_samples", "load_data_rates",
    "rtt_summary", "iqr_overlap", "median_outside_iqr", "differ", "check_fig1_claims",
]

#: The eight modems in the paper's order (= links I–VIII of sec. 5.3).
MODEMS = ("CT1", "CT2", "CT3", "CU1", "CU2", "CU3", "CM1", "CM2")
OPERATORS = {"CT": "China Telecom", "CU": "China Unicom", "CM": "China Mobile"}
TECHNOLOGIES = {"CT": "FDD-LTE", "CU": "FDD-LTE", "CM": "TD-LTE"}
LINKS = dict(zip(MODEMS, ("I", "II", "III", "IV", "V", "VI", "VII", "VIII")))

#: PAPER INPUT — maximum download data rate per modem in Mbit/s, Song et al. sec. 5.3
#: ("respectively 35.9Mbps, 18.4Mbps, 33.3Mbps, 14.7Mbps, 14.8Mbps, 4.4Mbps, 22.5Mbps
#: and 12.5Mbps"), read off Fig. 1(b): :data:`cmtlab.papers.song.paper.PAPER_MAX_DR_MBPS` (links I–VIII = the
#: modems in :data:`MODEMS`' order) keyed by modem.
MAX_DR_MBPS_BY_MODEM = dict(zip(MODEMS, PAPER_MAX_DR_MBPS))

#: CHOSEN (not in the paper) — average download data rate per modem in Mbit/s.  Chosen so
#: that highest/lowest = 12.84 / 0.85 = 15.106 (paper, sec. 3: "reaching 15.1"), each
#: average is 19–38 % of the modem's maximum (typical of LTE on a moving train, where the
#: peak is reached only briefly near a cell centre), and CU3 — the weakest maximum — is
#: also the weakest average.
CHOSEN_AVG_DR_MBPS = dict(zip(MODEMS, (12.84, 6.10, 11.20, 5.30, 4.90, 0.85, 7.60, 3.90)))

#: CHOSEN — RTT model per modem: (floor_ms, median_ms, sigma).  A sample is
#: ``floor + (median - floor) * exp(sigma * Z)``, Z standard normal (a right-skewed,
#: shifted log-normal body), so the body median is ``median_ms`` and its quartiles are
#: ``floor + (median - floor) * exp(±0.674 sigma)``.  Three groups (see the datasheet):
#: low (CT2, CU1, CU2), a wide intermediate CT3 that overlaps both low modems and CM2,
#: and high (CM2 < CT1 < CU3 < CM1), the last three well separated.
RTT_MODEL = {
    "CT1": (50.0, 195.0, 0.25),
    "CT2": (30.0, 58.0, 0.35),
    "CT3": (25.0, 95.0, 0.90),
    "CU1": (32.0, 64.0, 0.35),
    "CU2": (30.0, 61.0, 0.35),
    "CU3": (60.0, 265.0, 0.25),
    "CM1": (70.0, 350.0, 0.25),
    "CM2": (40.0, 130.0, 0.45),
}

#: CHOSEN — fraction of samples that are handover/retransmission spikes, drawn uniformly
#: between 2x and 5x the modem's body median (gives the boxplots realistic fliers).
SPIKE_FRACTION = 0.03
SPIKE_RANGE = (2.0, 5.0)

DEFAULT_SEED = 20180101
DEFAULT_N_SAMPLES = 1000
#: Below this many samples per modem the quartiles are too noisy for the IQR claims (with
#: the default 1000 every claim holds for all seeds 0–199 we tried; with 200 a few fail).
MIN_N_SAMPLES = 200

#: Where the committed CSVs live: ``<repo>/data/field-measurements``.
DATA_DIR = DATA / "field-measurements"
RTT_FILE = "rtt_samples.csv"
RATES_FILE = "data_rates.csv"

RTT_COLUMNS = ["modem", "operator", "technology", "link", "sample", "rtt_ms"]
RATE_COLUMNS = ["modem", "operator", "technology", "link", "avg_dr_mbps", "max_dr_mbps",
                "max_dr_source", "avg_dr_source"]

# The paper's grouping of RTT claims (sec. 3).
HIGH_RTT = ("CT1", "CU3", "CM1", "CM2")
LOW_RTT = ("CT2", "CU1", "CU2")
DIFFERENT = ("CT1", "CU3", "CM1")


def _meta(modem: str) -> dict:
    prefix = modem[:2]
    return dict(modem=modem, operator=OPERATORS[prefix], technology=TECHNOLOGIES[prefix],
                link=LINKS[modem])


def generate_reconstruction(seed: int = DEFAULT_SEED,
                            n_samples_per_modem: int = DEFAULT_N_SAMPLES) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Generate the reconstruction of Song et al. Fig. 1.

    Returns ``(rtt, rates)``: ``rtt`` is tidy, one row per RTT sample, columns
    ``modem, operator, technology, link, sample, rtt_ms`` (RTT rounded to 0.1 ms, like
    ping output); ``rates`` has one row per modem with ``avg_dr_mbps`` (chosen, see
    :data:`CHOSEN_AVG_DR_MBPS`), ``max_dr_mbps`` (the paper's, :data:`MAX_DR_MBPS_BY_MODEM`)
    and two provenance columns.  Only the RTT samples depend on ``seed``; each modem gets
    its own child stream (``numpy.random.SeedSequence(seed).spawn``), so the output is
    deterministic for a given ``seed`` and ``n_samples_per_modem``.
    """
    seed = check_int("seed", seed, minimum=0)
    n = check_int("n_samples_per_modem", n_samples_per_modem, minimum=MIN_N_SAMPLES, maximum=10_000_000)
    children = np.random.SeedSequence(seed).spawn(len(MODEMS))
    frames = []
    for modem, child in zip(MODEMS, children):
        rng = np.random.default_rng(child)
        floor, median, sigma = RTT_MODEL[modem]
        body = floor + (median - floor) * np.exp(sigma * rng.standard_normal(n))
        spikes = rng.random(n) < SPIKE_FRACTION
        body[spikes] = median * rng.uniform(*SPIKE_RANGE, size=int(spikes.sum()))
        frame = pd.DataFrame({"sample": np.arange(n), "rtt_ms": np.round(body, 1)})
        for key, value in _meta(modem).items():
            frame[key] = value
        frames.append(frame[RTT_COLUMNS])
    rtt = pd.concat(frames, ignore_index=True)
    rates = pd.DataFrame([
        dict(_meta(m), avg_dr_mbps=CHOSEN_AVG_DR_MBPS[m], max_dr_mbps=MAX_DR_MBPS_BY_MODEM[m],
             max_dr_source="paper (Song et al. sec. 5.3)", avg_dr_source="chosen (reconstruction)")
        for m in MODEMS], columns=RATE_COLUMNS)
    return rtt, rates


def write_reconstruction(directory, seed: int = DEFAULT_SEED,
                         n_samples_per_modem: int = DEFAULT_N_SAMPLES) -> dict[str, Path]:
    """Generate and write ``rtt_samples.csv`` and ``data_rates.csv`` into ``directory``.

    The CSVs are written byte-for-byte reproducibly (fixed column order, ``\\n`` line
    ends, one decimal for RTTs, two for rates).  Returns ``{name: path}``.
    """
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    rtt, rates = generate_reconstruction(seed=seed, n_samples_per_modem=n_samples_per_modem)
    paths = {RTT_FILE: directory / RTT_FILE, RATES_FILE: directory / RATES_FILE}
    rtt.to_csv(paths[RTT_FILE], index=False, float_format="%.1f", lineterminator="\n")
    rates.to_csv(paths[RATES_FILE], index=False, float_format="%.2f", lineterminator="\n")
    for p in paths.values():  # in data/: their entries in data/MANIFEST.json (outside it: nothing)
        pinned.pin(p, regenerate=REGENERATE)
    return paths


#: The command that regenerates the reconstruction (and rewrites its manifest entries).
REGENERATE = ".venv/bin/python data/field-measurements/generate.py"
#: What the rows of the two files may hold (checked by :mod:`cmtlab.pinned` when they are read).
RTT_VALUES = {"modem": pinned.Column("choice", choices=tuple(MODEMS)), "sample": pinned.Column(low=0, integer=True),
              "rtt_ms": pinned.Column(low=0, high=60_000)}
RATE_VALUES = {"modem": pinned.Column("choice", choices=tuple(MODEMS)), "avg_dr_mbps": pinned.Column(low=0, high=10_000),
               "max_dr_mbps": pinned.Column(low=0, high=10_000)}
RATE_RULES = [pinned.RowRule(("avg_dr_mbps", "max_dr_mbps"), lambda r: r["avg_dr_mbps"] <= r["max_dr_mbps"],
                             "avg_dr_mbps", "the average data rate is at most the maximum")]


def _resolve(path, name: str) -> Path:
    if path is None:  # the committed file, in the pinned data (cmtlab.pinned)
        path = pinned.resolve(f"{DATA_DIR.name}/{name}")
    else:
        path = Path(path)
        if path.is_dir():
            path = path / name
    if not path.is_file():
        raise FileNotFoundError(
            f"{name} not found at {path}; pass path= explicitly or regenerate it with "
            f"`python data/field-measurements/generate.py` from the repository root")
    return path


def _read(path, name: str, values: dict, rules=()) -> pd.DataFrame:
    """``name`` (the committed file in ``data/``: pinned, :mod:`cmtlab.pinned`; or another copy) with every row
    checked for possible values."""
    return pinned.read_csv(_resolve(path, name), columns=values, rows=rules)


def load_rtt_samples(path=None) -> pd.DataFrame:
    """Load the committed RTT samples (reconstruction of Song Fig. 1(a)).

    ``path`` may be the CSV file or its directory; by default
    ``<repo>/data/field-measurements/rtt_samples.csv``.  Columns: see
    :func:`generate_reconstruction`; ``modem`` is an ordered categorical (CT1…CM2).
    """
    frame = _read(path, RTT_FILE, RTT_VALUES)
    missing = set(RTT_COLUMNS) - set(frame.columns)
    if missing:
        raise ValueError(f"path: {RTT_FILE} lacks columns {sorted(missing)}")
    frame["modem"] = pd.Categorical(frame["modem"], categories=MODEMS, ordered=True)
    return frame


def load_data_rates(path=None) -> pd.DataFrame:
    """Load the committed average/maximum download data rates (Song Fig. 1(b)), Mbit/s."""
    frame = _read(path, RATES_FILE, RATE_VALUES, RATE_RULES)
    missing = set(RATE_COLUMNS) - set(frame.columns)
    if missing:
        raise ValueError(f"path: {RATES_FILE} lacks columns {sorted(missing)}")
    frame["modem"] = pd.Categorical(frame["modem"], categories=MODEMS, ordered=True)
    return frame.sort_values("modem").reset_index(drop=True)


# --------------------------------------------------------------------------- claims

def rtt_summary(rtt: pd.DataFrame) -> pd.DataFrame:
    """Per-modem RTT statistics (ms): n, q1, median, q3, iqr, mean, min, max.

    Quartiles use numpy's default (linear) interpolation, as matplotlib's boxplot does.
    """
    if not {"modem", "rtt_ms"} <= set(rtt.columns):
        raise ValueError("rtt must have columns 'modem' and 'rtt_ms'")
    g = rtt.groupby("modem", observed=True)["rtt_ms"]
    out = pd.DataFrame({
        "n": g.size(), "q1": g.quantile(0.25), "median": g.median(), "q3": g.quantile(0.75),
        "mean": g.mean(), "min": g.min(), "max": g.max()})
    out["iqr"] = out["q3"] - out["q1"]
    return out


def iqr_overlap(summary: pd.DataFrame, a: str, b: str) -> bool:
    """True if the closed IQRs [q1, q3] of modems ``a`` and ``b`` intersect."""
    return bool(summary.loc[a, "q1"] <= summary.loc[b, "q3"] and summary.loc[b, "q1"] <= summary.loc[a, "q3"])


def median_outside_iqr(summary: pd.DataFrame, a: str, b: str) -> bool:
    """True if the median of ``a`` lies outside the closed IQR of ``b`` (sec. 3 criterion)."""
    m = summary.loc[a, "median"]
    return bool(m < summary.loc[b, "q1"] or m > summary.loc[b, "q3"])


def differ(summary: pd.DataFrame, a: str, b: str) -> bool:
    """Sec. 3 "difference exists", symmetric reading: each median is outside the other's IQR."""
    return median_outside_iqr(summary, a, b) and median_outside_iqr(summary, b, a)


def check_fig1_claims(rtt: pd.DataFrame, rates: pd.DataFrame) -> pd.DataFrame:
    """Check every claim Song et al. make about Fig. 1 on a data set.

    Returns one row per claim with columns ``claim`` (id), ``description``, ``value``
    (what the data gives, as text), ``number`` (the numeric value where there is one,
    else NaN) and ``holds`` (bool, computed from the data).  The claims:

    * ``max_dr_values`` — max DRs equal the paper's list (sec. 5.3) to 0.05 Mbit/s;
    * ``max_dr_ratio`` — highest/lowest max DR rounds to 8.2 and is CT1/CU3 (sec. 3);
    * ``avg_dr_ratio`` — highest/lowest average DR rounds to 15.1 (sec. 3);
    * ``avg_below_max`` — every average DR is below its maximum (consistency);
    * ``rtt_significantly_higher`` — for every X in CT1, CU3, CM1, CM2 and Y in CT2, CU1,
      CU2: IQRs do not overlap and q1(X) > q3(Y) (sec. 3, 12 pairs);
    * ``rtt_different_from_others`` — for X in CT1, CU3, CM1 and every other modem Y:
      median(X) outside IQR(Y) and median(Y) outside IQR(X) (our strong reading; 18
      distinct pairs);
    * ``only_those_different`` — (our inference, not a printed number) each of CT2, CT3,
      CU1, CU2, CM2 fails the sec. 3 difference test against at least one other modem,
      so the paper's list of "different" modems is exactly CT1, CU3, CM1;
    * ``ct3_not_significant`` — (our inference) CT3, listed in neither group, has an IQR
      overlapping at least one low-RTT and one high-RTT modem.
    """
    s = rtt_summary(rtt)
    missing = set(MODEMS) - set(s.index)
    if missing:
        raise ValueError(f"rtt lacks modems {sorted(missing)}")
    r = rates.set_index(rates["modem"].astype(str))
    rows = []

    def add(claim, description, value, holds, number=np.nan):
        rows.append(dict(claim=claim, description=description, value=value, number=float(number),
                         holds=bool(holds)))

    max_dr = r.loc[list(MODEMS), "max_dr_mbps"].astype(float)
    avg_dr = r.loc[list(MODEMS), "avg_dr_mbps"].astype(float)
    paper = pd.Series(MAX_DR_MBPS_BY_MODEM)
    add("max_dr_values", "max download DR per modem equals the paper's list (Mbit/s)",
        ", ".join(f"{m} {v:g}" for m, v in max_dr.items()),
        np.allclose(max_dr.values, paper.loc[list(MODEMS)].values, atol=0.05))
    ratio = max_dr.max() / max_dr.min()
    add("max_dr_ratio", f"highest/lowest max DR = {PAPER_MAX_DR_RATIO:g}, CT1/CU3",
        f"{max_dr.idxmax()}/{max_dr.idxmin()} = {ratio:.3f}",
        round(ratio, 1) == PAPER_MAX_DR_RATIO and max_dr.idxmax() == "CT1" and max_dr.idxmin() == "CU3", ratio)
    aratio = avg_dr.max() / avg_dr.min()
    add("avg_dr_ratio", f"highest/lowest average DR = {PAPER_AVG_DR_RATIO:g}",
        f"{avg_dr.idxmax()}/{avg_dr.idxmin()} = {aratio:.3f}", round(aratio, 1) == PAPER_AVG_DR_RATIO, aratio)
    add("avg_below_max", "every average DR is below its maximum",
        f"avg/max from {(avg_dr / max_dr).min():.2f} to {(avg_dr / max_dr).max():.2f}",
        bool((avg_dr < max_dr).all()))

    pairs = list(itertools.product(HIGH_RTT, LOW_RTT))
    bad = [f"{x}-{y}" for x, y in pairs if iqr_overlap(s, x, y) or not s.loc[x, "q1"] > s.loc[y, "q3"]]
    gap = min(s.loc[x, "q1"] - s.loc[y, "q3"] for x, y in pairs)
    add("rtt_significantly_higher", "RTT IQRs of CT1, CU3, CM1, CM2 lie above (no overlap) those of CT2, CU1, CU2",
        f"{len(pairs) - len(bad)}/{len(pairs)} pairs; smallest gap {gap:.1f} ms" + (f"; fail: {bad}" if bad else ""),
        not bad, gap)

    pairs = {tuple(sorted((x, y))) for x in DIFFERENT for y in MODEMS if y != x}
    bad = sorted(f"{a}-{b}" for a, b in pairs if not differ(s, a, b))
    add("rtt_different_from_others", "CT1, CU3, CM1: median outside the IQR of every other modem and vice versa",
        f"{len(pairs) - len(bad)}/{len(pairs)} pairs" + (f"; fail: {bad}" if bad else ""), not bad)

    others = [m for m in MODEMS if m not in DIFFERENT]
    partner = {m: [y for y in MODEMS if y != m and not differ(s, m, y)] for m in others}
    add("only_those_different", "each of CT2, CT3, CU1, CU2, CM2 is not different from some other modem",
        "; ".join(f"{m}~{','.join(p) if p else 'none'}" for m, p in partner.items()),
        all(partner.values()))

    low_ov = [y for y in LOW_RTT if iqr_overlap(s, "CT3", y)]
    high_ov = [x for x in HIGH_RTT if iqr_overlap(s, "CT3", x)]
    add("ct3_not_significant", "CT3's IQR overlaps a low-RTT and a high-RTT modem's IQR",
        f"overlaps {low_ov + high_ov}", bool(low_ov) and bool(high_ov))
    return pd.DataFrame(rows, columns=["claim", "description", "value", "number", "holds"])
