"""Rate schedules for :class:`cmtlab.sim.net.trace_link.RateTraceLink` from the mirrored public
measurements (loaded by :mod:`cmtlab.measurements.public`, pinned by sha256; never committed)."""

from __future__ import annotations

import numpy as np
import pandas as pd


def rates_from_5g(data: pd.DataFrame, file: str, *, column: str = "dl_bitrate_mbps",
                  downloading_only: bool = True) -> tuple:
    """Per-second rates (bit/s) of one Raca et al. 5G trace (``file`` as in the loader's ``file``
    column): the samples in time order, two rows logged in one second averaged, missing seconds
    filled with the previous rate, only the downloading phase (``state == "D"``) by default."""
    if column not in data:
        raise ValueError(f"column must be one of the loader's rate columns, got {column!r}")
    rows = data[data["file"] == file]
    if rows.empty:
        raise ValueError(f"file {file!r} is not in the data (see data['file'].unique())")
    if downloading_only:
        rows = rows[rows["state"] == "D"]
    s = rows.groupby("timestamp")[column].mean().sort_index()
    s = s.resample("1s").mean().ffill().dropna()
    if s.empty or s.max() <= 0:
        raise ValueError(f"trace {file!r} has no positive {column} sample")
    return tuple(float(x) * 1e6 for x in np.clip(s.to_numpy(), 0, None))


def rates_from_starlink(iperf: pd.DataFrame, *, column: str = "download_mbps", start: int = 0,
                        seconds: int | None = None) -> tuple:
    """Per-second rates (bit/s) from the Starlink-on-the-Road iperf samples (1 s each), in time order,
    gaps (NaN) filled with the previous rate; ``start``/``seconds`` select a window of samples."""
    if column not in iperf:
        raise ValueError(f"column must be 'download_mbps' or 'upload_mbps', got {column!r}")
    s = iperf.sort_values("timestamp_start")[column].ffill().dropna().to_numpy()
    s = s[start:start + seconds] if seconds is not None else s[start:]
    if s.size == 0 or s.max() <= 0:
        raise ValueError("the selected Starlink window has no positive rate")
    return tuple(float(x) * 1e6 for x in np.clip(s, 0, None))


__all__ = ["rates_from_5g", "rates_from_starlink"]
