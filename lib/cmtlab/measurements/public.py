"""Real public link measurements, loaded with sha256-pinned downloads.

Two public data sets show link-quality asymmetry between heterogeneous radio
technologies in data nobody in this project made (the "beyond the paper" evidence
for Song et al., sec. 3, Fig. 1):

* Raca, Leahy, Sreenan, Quinlan, *Beyond Throughput, The Next Generation: A 5G
  Dataset with Channel and Context Metrics*, ACM MMSys 2020 — GitHub
  ``uccmisl/5Gdataset``, licence GPL-3.0.  One Irish operator, car (Driving) and
  Static, apps Download / Netflix / Amazon_Prime, nominally 1-s samples with the
  serving technology (``NetworkMode``), ``DL_bitrate`` (kbit/s) and, in part of the
  Download traces, ping statistics ``PINGAVG/PINGMIN/PINGMAX`` (ms).
* Laniewski, Lanfer, Beginn, Dunker, Dückers, Aschenbruck, *Starlink on the Road: A
  First Look at Mobile Starlink Performance in Central Europe*, TMA 2024 — GitHub
  ``sys-uos/Starlink-on-the-Road``, licence CC BY-SA 4.0.  iperf3 UDP 1-s samples
  with driving speed; ping summaries of 250 pings per row.

Files are fetched with :mod:`pooch` from the public source at a pinned commit into
the user cache (``pooch.os_cache("cmtlab")``), or read from a local mirror when the
environment variable ``CMTLAB_DATA_MIRROR`` names a directory with the layout
``uccmisl-5g/5G-production-dataset.zip`` and ``starlink-on-the-road/{iperf,ping}.csv``.
Either way the sha256 — pinned with the book's recorded data in ``data/MANIFEST.json``
(:func:`cmtlab.pinned.public_sha256`) — is verified; a mismatch raises :class:`DataIntegrityError`.
Nothing is ever written into the repository.

Units: the loaders return Mbit/s and ms as the column names say (``_mbps``, ``_ms``).
"""

from __future__ import annotations

import io
import os
import warnings
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

import numpy as np
import pandas as pd

with warnings.catch_warnings():
    # pooch imports tqdm.auto, which warns inside Jupyter when ipywidgets is absent
    warnings.filterwarnings("ignore", message="IProgress not found")
    import pooch

from .. import pinned

__all__ = [
    "MIRROR_ENV", "DATASETS", "NETWORK_MODES", "TECHNOLOGY_ORDER", "DataIntegrityError",
    "DataUnavailableError", "fetch", "sha256", "load_uccmisl_5g", "load_starlink_iperf",
    "load_starlink_ping", "load_starlink", "Starlink", "technology_summary", "starlink_summary",
    "asymmetry_ratios",
]

MIRROR_ENV = "CMTLAB_DATA_MIRROR"
_UCC_COMMIT = "306d92eba81cb4f1195d8b8eba625666a02a10ec"
_SOR_COMMIT = "6be9959c3e3ae9ee43483e8e4775fe3402771f9b"

#: name (= path under the mirror) → public URL at a pinned commit, sha256, licence.  The sha256 of every
#: dataset is pinned in the one manifest of recorded data, ``data/MANIFEST.json`` (:mod:`cmtlab.pinned`).
DATASETS = {
    "uccmisl-5g/5G-production-dataset.zip": dict(
        url=f"https://github.com/uccmisl/5Gdataset/raw/{_UCC_COMMIT}/5G-production-dataset.zip",
        licence="GPL-3.0"),
    "starlink-on-the-road/iperf.csv": dict(
        url=f"https://raw.githubusercontent.com/sys-uos/Starlink-on-the-Road/{_SOR_COMMIT}/data/iperf.csv",
        licence="CC BY-SA 4.0"),
    "starlink-on-the-road/ping.csv": dict(
        url=f"https://raw.githubusercontent.com/sys-uos/Starlink-on-the-Road/{_SOR_COMMIT}/data/ping.csv",
        licence="CC BY-SA 4.0"),
}
for _name, _entry in DATASETS.items():
    _entry["sha256"] = pinned.public_sha256(_name)

#: Every ``NetworkMode`` value of the 5G dataset → a readable technology name.  A value
#: not listed here makes :func:`load_uccmisl_5g` raise (nothing is silently dropped).
NETWORK_MODES = {
    "5G": "5G NSA",       # non-standalone 5G (NR with an LTE anchor), Raca et al. 2020
    "LTE": "LTE",
    "HSPA+": "HSPA+",
    "HSDPA": "HSPA",
    "HSUPA": "HSPA",
    "UMTS": "UMTS",
    "EDGE": "EDGE/GPRS",
    "GPRS": "EDGE/GPRS",
}
#: Display order of technologies, fastest first.
TECHNOLOGY_ORDER = ("5G NSA", "LTE", "HSPA+", "HSPA", "UMTS", "EDGE/GPRS", "Starlink")


class DataIntegrityError(ValueError):
    """A data file's sha256 differs from the pinned one."""


class DataUnavailableError(RuntimeError):
    """Neither the network nor a local mirror could provide a data file."""


def sha256(path) -> str:
    """Hex sha256 of a file."""
    return pooch.file_hash(str(path), alg="sha256")


def _cache_dir() -> Path:
    return Path(pooch.os_cache("cmtlab")) / "public-measurements"


def fetch(name: str, *, mirror=None) -> Path:
    """Local path of the verified data file ``name`` (a key of :data:`DATASETS`).

    ``mirror`` (default: ``$CMTLAB_DATA_MIRROR``) is a directory holding the files under
    the same relative names; the file is read there in place after checking its sha256.
    Without a mirror, pooch downloads the pinned URL into the user cache and checks the
    sha256.  Raises :class:`DataIntegrityError` on a hash mismatch and
    :class:`DataUnavailableError` if the file cannot be obtained.
    """
    if name not in DATASETS:
        raise ValueError(f"name must be one of {sorted(DATASETS)}, got {name!r}")
    entry = DATASETS[name]
    mirror = mirror if mirror is not None else os.environ.get(MIRROR_ENV) or None
    if mirror is not None:
        path = Path(mirror) / name
        if not path.is_file():
            raise DataUnavailableError(
                f"{name} not found in the mirror {mirror} ({MIRROR_ENV}); expected {path}")
        digest = sha256(path)
        if digest != entry["sha256"]:
            raise DataIntegrityError(
                f"sha256 mismatch for {path}: expected {entry['sha256']}, got {digest}; "
                f"the mirror copy is corrupted or a different version of {name}")
        return path
    target = _cache_dir() / PurePosixPath(name).parent
    try:
        fname = pooch.retrieve(entry["url"], known_hash=f"sha256:{entry['sha256']}",
                               fname=PurePosixPath(name).name, path=target, progressbar=False)
    except ValueError as exc:  # pooch's hash-mismatch error
        raise DataIntegrityError(f"sha256 mismatch downloading {entry['url']}: {exc}") from exc
    except Exception as exc:  # network errors (requests, OSError, …)
        raise DataUnavailableError(
            f"could not download {entry['url']} ({type(exc).__name__}: {exc}). Without internet, "
            f"set the environment variable {MIRROR_ENV} to a directory holding {name}") from exc
    return Path(fname)


# --------------------------------------------------------------------------- 5G dataset

_UCC_COLUMNS = {  # raw column → (tidy name, scale) ; numeric, '-' means missing
    "Speed": ("speed_kmh", 1.0),
    "DL_bitrate": ("dl_bitrate_mbps", 1e-3),   # kbit/s → Mbit/s
    "UL_bitrate": ("ul_bitrate_mbps", 1e-3),
    "PINGAVG": ("rtt_avg_ms", 1.0),
    "PINGMIN": ("rtt_min_ms", 1.0),
    "PINGMAX": ("rtt_max_ms", 1.0),
    "PINGSTDEV": ("rtt_std_ms", 1.0),
    "PINGLOSS": ("ping_loss_pct", 1.0),
    "RSRP": ("rsrp_dbm", 1.0),
    "RSRQ": ("rsrq_db", 1.0),
    "SNR": ("snr_db", 1.0),
    "CQI": ("cqi", 1.0),
    "Longitude": ("longitude", 1.0),
    "Latitude": ("latitude", 1.0),
}


def _ucc_members(zf: zipfile.ZipFile) -> list[str]:
    out = []
    for member in zf.namelist():
        parts = PurePosixPath(member).parts
        if parts[0] == "__MACOSX" or not member.endswith(".csv"):
            continue  # macOS resource forks and .DS_Store are not data
        out.append(member)
    return sorted(out)


def load_uccmisl_5g(*, mirror=None) -> pd.DataFrame:
    """Load the Raca et al. (2020) 5G production dataset as one tidy DataFrame.

    One row per sample (nominally 1 s; the logger sometimes writes two rows in one
    second).  Columns: ``app`` (Download, Netflix, Amazon_Prime), ``scenario``
    (Driving, Static), ``file`` (path inside the zip), ``timestamp``, ``network_mode``
    (raw), ``technology`` (:data:`NETWORK_MODES`), ``state`` (D downloading, I idle,
    V/VD video phases as logged), ``dl_bitrate_mbps``/``ul_bitrate_mbps`` (raw kbit/s
    divided by 1000), ``rtt_avg_ms``/``rtt_min_ms``/``rtt_max_ms``/``rtt_std_ms``/
    ``ping_loss_pct`` (only in rows where a ping ran; NaN elsewhere — the raw marker is
    ``-``), ``speed_kmh``, radio metrics and ``cell_id``.

    Raises ``ValueError`` if a ``NetworkMode`` outside :data:`NETWORK_MODES` occurs.
    """
    str_cols = ["Timestamp", "NetworkMode", "State", "CellID"]
    dtypes = {c: str for c in str_cols} | {c: float for c in _UCC_COLUMNS}
    frames = []
    with zipfile.ZipFile(fetch("uccmisl-5g/5G-production-dataset.zip", mirror=mirror)) as zf:
        for member in _ucc_members(zf):
            parts = PurePosixPath(member).parts  # 5G-production-dataset/<app>/<scenario>/...
            raw = pd.read_csv(io.BytesIO(zf.read(member)), usecols=list(dtypes), dtype=dtypes,
                              na_values=["-"], keep_default_na=False)
            raw["app"], raw["scenario"], raw["file"] = parts[1], parts[2], "/".join(parts[1:])
            frames.append(raw)
    raw = pd.concat(frames, ignore_index=True)
    data = pd.DataFrame({
        "app": raw["app"], "scenario": raw["scenario"], "file": raw["file"],
        "timestamp": pd.to_datetime(raw["Timestamp"], format="%Y.%m.%d_%H.%M.%S"),
        "network_mode": raw["NetworkMode"], "state": raw["State"], "cell_id": raw["CellID"],
    })
    for col, (name, scale) in _UCC_COLUMNS.items():
        data[name] = raw[col] * scale
    unknown = sorted(set(data["network_mode"].dropna().unique()) - set(NETWORK_MODES))
    if unknown or data["network_mode"].isna().any():
        files = sorted(data.loc[~data["network_mode"].isin(list(NETWORK_MODES)), "file"].unique())[:5]
        raise ValueError(f"unmapped NetworkMode values {unknown or ['<missing>']} in {files}; "
                         f"extend cmtlab.measurements.public.NETWORK_MODES")
    data.insert(data.columns.get_loc("network_mode") + 1, "technology",
                data["network_mode"].map(NETWORK_MODES))
    return data


# --------------------------------------------------------------------------- Starlink

def load_starlink_iperf(*, mirror=None) -> pd.DataFrame:
    """Starlink-on-the-Road iperf3 UDP samples (1 s).

    Columns: ``timestamp_start``, ``timestamp_end``, ``download_mbps``, ``upload_mbps``
    (Mbit/s; NaN where iperf reported nothing), ``speed_kmh`` (the source's
    ``average_speed``; the source does not state the unit — km/h is assumed, its range
    0–117 fits car driving), ``priority`` (1 = Starlink priority plan; as in the source).
    """
    raw = pd.read_csv(fetch("starlink-on-the-road/iperf.csv", mirror=mirror))
    return pd.DataFrame({
        "timestamp_start": pd.to_datetime(raw["timestamp_start"]),
        "timestamp_end": pd.to_datetime(raw["timestamp_end"]),
        "download_mbps": raw["download"].astype(float) / 1e6,   # bit/s → Mbit/s
        "upload_mbps": raw["upload"].astype(float) / 1e6,
        "speed_kmh": raw["average_speed"].astype(float),
        "priority": raw["priority"].astype(int),
    })


def load_starlink_ping(*, mirror=None) -> pd.DataFrame:
    """Starlink-on-the-Road ping summaries, 250 pings per row.

    Columns: ``timestamp_start``, ``timestamp_end``, ``rtt_avg_ms``, ``rtt_min_ms``
    (source ``ping_best``), ``rtt_max_ms`` (``ping_worst``), ``rtt_std_ms``,
    ``loss_pct`` (``packet_loss``, percent), ``packets_sent``, ``speed_kmh``.
    """
    raw = pd.read_csv(fetch("starlink-on-the-road/ping.csv", mirror=mirror))
    return pd.DataFrame({
        "timestamp_start": pd.to_datetime(raw["timestamp_start"]),
        "timestamp_end": pd.to_datetime(raw["timestamp_end"]),
        "rtt_avg_ms": raw["ping_avg"].astype(float),
        "rtt_min_ms": raw["ping_best"].astype(float),
        "rtt_max_ms": raw["ping_worst"].astype(float),
        "rtt_std_ms": raw["ping_stddev"].astype(float),
        "loss_pct": raw["packet_loss"].astype(float),
        "packets_sent": raw["packets_send"].astype(int),
        "speed_kmh": raw["average_speed"].astype(float),
    })


@dataclass(frozen=True)
class Starlink:
    """Both Starlink-on-the-Road tables."""

    iperf: pd.DataFrame
    ping: pd.DataFrame


def load_starlink(*, mirror=None) -> Starlink:
    """Load both Starlink-on-the-Road tables (:func:`load_starlink_iperf`, :func:`load_starlink_ping`)."""
    return Starlink(iperf=load_starlink_iperf(mirror=mirror), ping=load_starlink_ping(mirror=mirror))


# --------------------------------------------------------------------------- summaries

def _stats(rtt: pd.Series, dl: pd.Series) -> dict:
    rtt = rtt.dropna()
    dl = dl.dropna()
    return dict(n_rtt=int(rtt.size), rtt_q1_ms=rtt.quantile(0.25), rtt_median_ms=rtt.median(),
                rtt_q3_ms=rtt.quantile(0.75), n_dl=int(dl.size), dl_mean_mbps=dl.mean(),
                dl_p95_mbps=dl.quantile(0.95), dl_max_mbps=dl.max())


def technology_summary(data: pd.DataFrame, *, download_only: bool = True,
                       technologies=("5G NSA", "LTE", "HSPA+")) -> pd.DataFrame:
    """Per-technology RTT quartiles and DL-rate mean/95th percentile/max of the 5G dataset.

    RTT statistics use the per-sample ping averages (``rtt_avg_ms``, each an average of
    a short ping burst).  DL statistics use samples in state ``D`` (actively
    downloading) and, if ``download_only``, only the Download app (the streaming apps
    fetch in bursts, so their rates say little about link capacity).  ``technologies``
    selects and orders the rows (``None`` = all present).
    """
    dl_rows = data["state"].eq("D")
    if download_only:
        dl_rows &= data["app"].eq("Download")
    present = [t for t in TECHNOLOGY_ORDER if t in set(data["technology"])]
    techs = present if technologies is None else list(technologies)
    rows = {}
    for tech in techs:
        sel = data["technology"].eq(tech)
        rows[tech] = _stats(data.loc[sel, "rtt_avg_ms"], data.loc[sel & dl_rows, "dl_bitrate_mbps"])
    out = pd.DataFrame.from_dict(rows, orient="index")
    out.index.name = "technology"
    return out


def starlink_summary(starlink: Starlink) -> pd.DataFrame:
    """The same statistics as :func:`technology_summary` for Starlink (one row)."""
    out = pd.DataFrame.from_dict(
        {"Starlink": _stats(starlink.ping["rtt_avg_ms"], starlink.iperf["download_mbps"])}, orient="index")
    out.index.name = "technology"
    return out


def asymmetry_ratios(summary: pd.DataFrame) -> dict:
    """Highest/lowest ratios across the rows of a summary (the quantities of Song sec. 3).

    Returns ``{"dl_max": (ratio, hi, lo), "dl_mean": …, "rtt_median": …}`` and
    ``"rtt_iqr_disjoint"``: the pairs of technologies whose RTT IQRs do not overlap.
    """
    out = {}
    for key, col in (("dl_max", "dl_max_mbps"), ("dl_mean", "dl_mean_mbps"), ("rtt_median", "rtt_median_ms")):
        s = summary[col].dropna()
        out[key] = (float(s.max() / s.min()), str(s.idxmax()), str(s.idxmin()))
    techs = list(summary.index)
    out["rtt_iqr_disjoint"] = [
        (a, b) for i, a in enumerate(techs) for b in techs[i + 1:]
        if not (summary.loc[a, "rtt_q1_ms"] <= summary.loc[b, "rtt_q3_ms"]
                and summary.loc[b, "rtt_q1_ms"] <= summary.loc[a, "rtt_q3_ms"])
        and np.isfinite(summary.loc[[a, b], ["rtt_q1_ms", "rtt_q3_ms"]].values).all()]
    return out
