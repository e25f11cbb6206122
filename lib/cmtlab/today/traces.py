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


__all__ = ["rates_from_5g", "rates_from_starlink", "real_pair", "FIVE_G_FILE"]


#: The 5G drive of the real pair (Raca et al., ``file`` column of the loader).
FIVE_G_FILE = "Download/Driving/B_2019.12.16_07.22.43.csv"


def real_pair(*, seconds: int = 60, start_s: int | None = None, rate_scale: float = 0.1, mirror=None) -> dict:
    """The 5G + Starlink pair: per-second rate schedules (bit/s, scaled by ``rate_scale``), round trips (s)
    from the data sets' pings, and where each comes from.  ``start_s`` (None: the first second at which the 5G
    drive's rate reaches a tenth of its median — its logger starts before the download does) selects the
    window of both traces."""
    from ..measurements import public

    if not 0 < rate_scale <= 1:
        raise ValueError(f"rate_scale must be in (0, 1], got {rate_scale!r}")
    if not isinstance(seconds, int) or seconds < 5:
        raise ValueError(f"seconds must be an integer >= 5, got {seconds!r}")
    five_g = public.load_uccmisl_5g(mirror=mirror)
    full = rates_from_5g(five_g, FIVE_G_FILE)
    if start_s is None:
        floor = 0.1 * float(np.median(full))
        start_s = next(i for i, r in enumerate(full) if r >= floor)
    g = full[start_s:start_s + seconds]
    star = public.load_starlink(mirror=mirror)
    s = rates_from_starlink(star.iperf, start=start_s, seconds=seconds)
    if len(g) < seconds or len(s) < seconds:
        raise ValueError(f"start_s + seconds = {start_s + seconds} s is beyond the traces ({len(g)} / {len(s)} s left)")
    rtt_5g = float(five_g.loc[five_g["file"] == FIVE_G_FILE, "rtt_min_ms"].median()) / 1e3
    rtt_star = float(star.ping["rtt_min_ms"].median()) / 1e3
    return dict(rates_bps=(tuple(r * rate_scale for r in g), tuple(r * rate_scale for r in s)),
                rtts_s=(rtt_5g, rtt_star), names=("5G (Raca et al.)", "Starlink (Laniewski et al.)"),
                rate_scale=rate_scale, start_s=start_s)
