"""Real public data sets: sha256 pinning, parsing, units, technology mapping."""

import io
import os
import shutil
import socket
import zipfile

import pandas as pd
import pytest

from cmtlab.measurements import public

MIRROR = os.environ.get(public.MIRROR_ENV)


def _network() -> bool:
    try:
        socket.create_connection(("github.com", 443), timeout=3).close()
        return True
    except OSError:
        return False


needs_data = pytest.mark.skipif(
    not MIRROR and not _network(),
    reason=f"no network and {public.MIRROR_ENV} unset: set it to a directory with the public data mirror")


def _copy_mirror(tmp_path):
    src = MIRROR
    dst = tmp_path / "mirror"
    for name in public.DATASETS:
        (dst / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(public.fetch(name, mirror=src) if src else public.fetch(name), dst / name)
    return dst


def test_pins_are_sha256_and_urls_pinned_to_commits():
    for name, entry in public.DATASETS.items():
        assert len(entry["sha256"]) == 64 and int(entry["sha256"], 16) >= 0
        assert any(c in entry["url"] for c in ("306d92eba81cb4f1195d8b8eba625666a02a10ec",
                                                "6be9959c3e3ae9ee43483e8e4775fe3402771f9b"))
        assert entry["url"].endswith(name.split("/")[-1])


@needs_data
def test_mirror_files_match_pins():
    for name, entry in public.DATASETS.items():
        assert public.sha256(public.fetch(name)) == entry["sha256"]


@needs_data
def test_corrupted_copy_raises(tmp_path, monkeypatch):
    mirror = _copy_mirror(tmp_path)
    target = mirror / "starlink-on-the-road/ping.csv"
    data = bytearray(target.read_bytes())
    data[200] ^= 0x01  # flip one bit
    target.write_bytes(bytes(data))
    monkeypatch.setenv(public.MIRROR_ENV, str(mirror))
    with pytest.raises(public.DataIntegrityError, match="sha256 mismatch"):
        public.load_starlink_ping()
    public.load_starlink_iperf()  # the intact file still loads


def test_missing_file_in_mirror_raises(tmp_path):
    with pytest.raises(public.DataUnavailableError, match="not found in the mirror"):
        public.fetch("starlink-on-the-road/ping.csv", mirror=tmp_path)


def test_no_network_no_mirror_tells_user_to_set_mirror(tmp_path, monkeypatch):
    monkeypatch.delenv(public.MIRROR_ENV, raising=False)
    monkeypatch.setattr(public, "_cache_dir", lambda: tmp_path / "cache")
    entry = dict(public.DATASETS["starlink-on-the-road/ping.csv"], url="http://127.0.0.1:9/ping.csv")
    monkeypatch.setitem(public.DATASETS, "starlink-on-the-road/ping.csv", entry)
    with pytest.raises(public.DataUnavailableError, match=public.MIRROR_ENV):
        public.fetch("starlink-on-the-road/ping.csv")
    assert not list((tmp_path / "cache").rglob("*.csv"))


def test_unknown_name_rejected():
    with pytest.raises(ValueError, match="name"):
        public.fetch("nope.csv")


@pytest.fixture(scope="module")
def ucc():
    if not MIRROR and not _network():
        pytest.skip(f"no network and {public.MIRROR_ENV} unset")
    return public.load_uccmisl_5g()


@needs_data
def test_uccmisl_parsing(ucc):
    assert len(ucc) == 188711
    assert ucc["file"].nunique() == 83  # CSVs only, no __MACOSX resource forks
    assert set(ucc["app"]) == {"Download", "Netflix", "Amazon_Prime"}
    assert set(ucc["scenario"]) == {"Driving", "Static"}
    assert ucc["technology"].notna().all()
    counts = ucc["technology"].value_counts()
    assert counts["5G NSA"] == 136403 and counts["LTE"] == 35212 and counts["HSPA+"] == 15880
    # ping fields only where a ping ran ('-' in the raw file → NaN), only in Download traces
    has_ping = ucc["rtt_avg_ms"].notna()
    assert has_ping.sum() == 3208
    assert set(ucc.loc[has_ping, "app"]) == {"Download"}
    assert (ucc.loc[has_ping, "rtt_min_ms"] <= ucc.loc[has_ping, "rtt_avg_ms"]).all()
    assert (ucc.loc[has_ping, "rtt_avg_ms"] <= ucc.loc[has_ping, "rtt_max_ms"]).all()
    assert ucc["speed_kmh"].between(0, 200).all()


@needs_data
def test_uccmisl_units_against_a_raw_row(ucc):
    zpath = public.fetch("uccmisl-5g/5G-production-dataset.zip")
    member = "5G-production-dataset/Download/Driving/B_2020.02.14_09.38.22.csv"
    with zipfile.ZipFile(zpath) as zf:
        raw = pd.read_csv(io.BytesIO(zf.read(member)), dtype=str)
    i = int((raw["DL_bitrate"].astype(float) > 1000).to_numpy().nonzero()[0][0])
    tidy = ucc[ucc["file"] == "Download/Driving/B_2020.02.14_09.38.22.csv"].reset_index(drop=True)
    assert len(tidy) == len(raw)
    assert tidy.loc[i, "dl_bitrate_mbps"] == pytest.approx(float(raw.loc[i, "DL_bitrate"]) / 1000)
    assert tidy.loc[i, "ul_bitrate_mbps"] == pytest.approx(float(raw.loc[i, "UL_bitrate"]) / 1000)
    j = int((raw["PINGAVG"] != "-").to_numpy().nonzero()[0][0])
    assert tidy.loc[j, "rtt_avg_ms"] == pytest.approx(float(raw.loc[j, "PINGAVG"]))


def test_technology_mapping_complete_and_unknown_raises(tmp_path, monkeypatch):
    assert set(public.NETWORK_MODES.values()) <= set(public.TECHNOLOGY_ORDER)
    # build a tiny fake mirror with an unknown NetworkMode and a matching pin
    header = ("Timestamp,Longitude,Latitude,Speed,Operatorname,CellID,NetworkMode,RSRP,RSRQ,SNR,CQI,RSSI,"
              "DL_bitrate,UL_bitrate,State,PINGAVG,PINGMIN,PINGMAX,PINGSTDEV,PINGLOSS,CELLHEX,NODEHEX,"
              "LACHEX,RAWCELLID,NRxRSRP,NRxRSRQ\n")
    row = "2020.02.14_09.38.22,-8.5,51.9,2,B,1,{mode},-89,-12,1.0,10,-89,1500,20,D,-,-,-,-,-,1,53B22,9CBA,1,-,-\n"
    zpath = tmp_path / "uccmisl-5g/5G-production-dataset.zip"
    zpath.parent.mkdir(parents=True)
    with zipfile.ZipFile(zpath, "w") as zf:
        zf.writestr("5G-production-dataset/Download/Driving/a.csv", header + row.format(mode="LTE"))
        zf.writestr("5G-production-dataset/Download/Static/b.csv", header + row.format(mode="NR-SA"))
        zf.writestr("__MACOSX/5G-production-dataset/Download/Driving/._a.csv", "junk")
    entry = dict(public.DATASETS["uccmisl-5g/5G-production-dataset.zip"], sha256=public.sha256(zpath))
    monkeypatch.setitem(public.DATASETS, "uccmisl-5g/5G-production-dataset.zip", entry)
    with pytest.raises(ValueError, match="NR-SA"):
        public.load_uccmisl_5g(mirror=tmp_path)
    # with the mode known, the same file loads and converts kbit/s to Mbit/s
    monkeypatch.setitem(public.NETWORK_MODES, "NR-SA", "5G SA")
    data = public.load_uccmisl_5g(mirror=tmp_path)
    assert list(data["technology"]) == ["LTE", "5G SA"]
    assert data["dl_bitrate_mbps"].tolist() == [1.5, 1.5]


@needs_data
def test_starlink_parsing_and_units():
    s = public.load_starlink()
    assert len(s.iperf) == 17478 and len(s.ping) == 1190
    raw = pd.read_csv(public.fetch("starlink-on-the-road/iperf.csv"))
    ok = raw["download"].notna()
    assert (s.iperf.loc[ok, "download_mbps"] - raw.loc[ok, "download"] / 1e6).abs().max() < 1e-9
    assert (s.iperf.loc[ok, "download_mbps"] - raw.loc[ok, "download_mbps"]).abs().max() < 1e-6
    assert (s.ping["rtt_min_ms"] <= s.ping["rtt_avg_ms"]).all()
    assert (s.ping["rtt_avg_ms"] <= s.ping["rtt_max_ms"]).all()
    assert set(s.ping["packets_sent"]) == {250}


@needs_data
def test_summaries_show_asymmetry(ucc):
    ts = public.technology_summary(ucc)
    assert list(ts.index) == ["5G NSA", "LTE", "HSPA+"]
    assert ts.loc["5G NSA", "rtt_median_ms"] < ts.loc["LTE", "rtt_median_ms"] < ts.loc["HSPA+", "rtt_median_ms"]
    assert ts.loc["5G NSA", "dl_mean_mbps"] > ts.loc["LTE", "dl_mean_mbps"] > ts.loc["HSPA+", "dl_mean_mbps"]
    ratios = public.asymmetry_ratios(ts)
    assert ratios["dl_mean"][1:] == ("5G NSA", "HSPA+") and ratios["dl_mean"][0] > 8
    assert ("5G NSA", "HSPA+") in ratios["rtt_iqr_disjoint"]
    sl = public.starlink_summary(public.load_starlink())
    assert sl.loc["Starlink", "n_rtt"] == 1190
    assert 20 < sl.loc["Starlink", "rtt_median_ms"] < 100
