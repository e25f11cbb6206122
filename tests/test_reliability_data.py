"""Reliability: nothing recorded is served unverified — every file under data/ the book reads is pinned.

Replays the data reproducers of the reliability probe of 22f83c4 (``shared/reviews/reliability-probe.md``,
section 4, "Corrupted recorded data in a copy of the repo"): a value edited in a recorded file (the papers'
simulator's runs, the kernel's, the field reconstruction), an impossible row, a truncated file, a dropped
row — on 22f83c4 the book served most of them — and the Wi-Fi error table's NaN row, which failed with
``invalid literal for int() with base 10: 'nan'``, naming neither file nor row.

Every test works on a copy of ``data/`` (:func:`cmtlab.pinned.using_root`) and reads it through the very
function the book reads it with.  A file changed behind the manifest's back is a
:class:`~cmtlab.pinned.PinnedFileError` naming the file and the command that regenerates it; a file re-pinned
with an impossible value (a deliberate edit, or a recorder's bug) is an
:class:`~cmtlab.pinned.ImplausibleValueError` naming the file, the row and the column.
"""

from __future__ import annotations

import io
import json
import shutil

import pandas as pd
import pytest

from cmtlab import pinned
from cmtlab._paths import DATA


def _readers():
    """Pinned file → the book's own reader of it."""
    from cmtlab import today
    from cmtlab.papers.song import field
    from cmtlab.papers_sim import record, wifi_record
    from cmtlab.sim.net import wifi_phy as wifi
    from cmtlab.testbed import recorded
    from cmtlab.validation import wifi as wv

    out = {"field-measurements/rtt_samples.csv": field.load_rtt_samples,
           "field-measurements/data_rates.csv": field.load_data_rates,
           "papers-sim/provenance.json": record.provenance,
           "wifi/ns3-3.44-table-based-per.csv": wifi.TableErrorModel,
           "wifi/ns3-wifi-throughput.csv": wv.load_ns3_record}
    for name in record.recorded_names():
        out[f"papers-sim/{name}.csv"] = lambda name=name: record.load(name)
    out["papers-sim/wifi/provenance.json"] = wifi_record.provenance
    for name in wifi_record.plan_names():
        out[f"papers-sim/wifi/{name}.plan.json"] = lambda name=name: wifi_record.load_plan(name)
    for name in wifi_record.recorded_names():
        out[f"papers-sim/wifi/{name}.csv"] = lambda name=name: wifi_record.load(name)
    for f in (*recorded.FILES.values(), recorded.PROVENANCE, recorded.HISTORY):
        out[f"testbed/{f}"] = recorded.load
    for name in today.RECORDED:
        out[f"today/{name}"] = lambda name=name: today.recorded(name)
    return out


READERS = _readers()
CSV = sorted(r for r in READERS if r.endswith(".csv"))

#: Per CSV: a value no run can produce (column, value) and what the error says of it.
IMPOSSIBLE = {
    "field-measurements/rtt_samples.csv": ("rtt_ms", -5.0, "below 0"),
    "field-measurements/data_rates.csv": ("avg_dr_mbps", 1e6, "above 10000"),
    "wifi/ns3-3.44-table-based-per.csv": ("per_1458", 1.5, "above 1"),
    "wifi/ns3-wifi-throughput.csv": ("ns3_udp_mbps", 1e12, "above 54"),
    "testbed/calibration_pings.csv": ("rtt_s", -1.0, "below 0"),
    "testbed/history.csv": ("min_bps", -1.0, "below 0"),
    "today/kernel_internals.csv": ("TCPTimeouts", -5, "below 0"),
    "today/replay_testbed.csv": ("idle_share", 2.0, "above 1"),
    "today/cubic_vs_ns3.csv": ("sim_retransmissions", -5, "below 0"),
    "today/kernel_agreement.csv": ("n_kernel", 0, "below 1"),
    "today/kernel_agreement_wider.csv": ("n_kernel", 0, "below 1"),
    "today/kernel_socket_traces.csv": ("send_q_bytes", -5.0, "below 0"),
    "papers-sim/alheid-fig6-cwnd.csv": ("cwnd_segments", -5.0, "below 0"),
    "papers-sim/wifi/alheid-fig6-cwnd.csv": ("cwnd_segments", -5.0, "below 0"),
}
for _rel in ("testbed/arabi.csv", "testbed/calibration_rates.csv", "testbed/table1.csv", "testbed/table1_fixed_buffers.csv",
             "today/kernel_cells.csv", "today/kernel_cells_sim.csv", "today/kernel_cells_wider.csv",
             "today/kernel_cells_wider_sim.csv", "today/kernel_arabi_paper.csv",
             "today/kernel_cells_rerun.csv"):  # the kernel's rows count bytes, not segments
    IMPOSSIBLE[_rel] = ("received_bytes", -5, "below 0")
for _rel in CSV:  # the tables of transfer results: the probe's 1e12 bit/s with -5 retransmissions
    IMPOSSIBLE.setdefault(_rel, ("retransmissions", -5, "below 0"))


@pytest.fixture
def data(tmp_path):
    """A copy of data/ that the library reads instead of the checkout's (caches of read tables cleared)."""
    from cmtlab.sim.net import wifi_phy as wifi

    copy = tmp_path / "data"
    shutil.copytree(DATA, copy)
    wifi.default_error_model.cache_clear()
    with pinned.using_root(copy):
        yield copy
    wifi.default_error_model.cache_clear()


def test_every_data_file_is_pinned_and_has_a_reader():
    assert pinned.verify() == []
    assert set(pinned.manifest()["files"]) == set(READERS)
    for rel, entry in pinned.manifest()["files"].items():
        assert entry["regenerate"].strip(), rel


@pytest.mark.parametrize("rel", sorted(READERS))
def test_the_readers_accept_the_recorded_files(rel):
    READERS[rel]()


def _edit_one_value(raw: bytes) -> bytes:
    """One digit of the last data line changed (a value edited, e.g. a seed's throughput)."""
    lines = raw.decode().splitlines(keepends=True)
    for i in range(len(lines) - 1, -1, -1):
        for j in range(len(lines[i]) - 1, -1, -1):
            if lines[i][j].isdigit():
                lines[i] = lines[i][:j] + str((int(lines[i][j]) + 5) % 10) + lines[i][j + 1:]
                return "".join(lines).encode()
    raise AssertionError("no digit to edit")


def _drop_a_row(raw: bytes) -> bytes:
    lines = raw.decode().splitlines(keepends=True)
    return "".join(lines[:2] + lines[3:]).encode()


CORRUPTIONS = {"a value edited": _edit_one_value, "truncated": lambda raw: raw[: len(raw) // 2],
               "a row dropped": _drop_a_row, "emptied": lambda raw: b""}


@pytest.mark.parametrize("how", sorted(CORRUPTIONS))
@pytest.mark.parametrize("rel", sorted(READERS))
def test_a_file_changed_behind_the_manifest_is_an_error_naming_it(data, rel, how):
    path = data / rel
    path.write_bytes(CORRUPTIONS[how](path.read_bytes()))
    with pytest.raises(pinned.PinnedFileError) as err:
        READERS[rel]()
    message = str(err.value)
    assert f"data/{rel}" in message and "differs from its pinned SHA-256" in message
    assert pinned.manifest()["files"][rel]["regenerate"] in message  # how to regenerate it


@pytest.mark.parametrize("rel", sorted(READERS))
def test_a_missing_file_is_an_error_naming_it(data, rel):
    (data / rel).unlink()
    if rel.startswith("testbed/"):
        pytest.skip("a recording without a file is read as an empty part (verify_files names it)")
    with pytest.raises((pinned.PinnedFileError, FileNotFoundError), match=rf"data/{rel}|{rel.split('/')[-1]}"):
        READERS[rel]()


@pytest.mark.parametrize("rel", CSV)
def test_an_impossible_value_repinned_is_an_error_naming_file_row_and_column(data, rel):
    column, value, why = IMPOSSIBLE[rel]
    path = data / rel
    frame = pd.read_csv(path)
    assert column in frame.columns, (rel, column)
    row = min(2, len(frame) - 1)
    frame[column] = frame[column].astype(object)
    frame.loc[row, column] = value
    buf = io.StringIO()
    frame.to_csv(buf, index=False)
    path.write_text(buf.getvalue())
    pinned.pin(path)  # a deliberate edit: the manifest agrees with the file
    with pytest.raises(pinned.ImplausibleValueError) as err:
        READERS[rel]()
    e = err.value
    assert e.column == column and e.row == row + 2, (e.row, e.column)
    assert f"data/{rel}, row {row + 2}" in str(e) and repr(column) in str(e) and why in str(e)


@pytest.mark.parametrize("rel", [r for r in CSV if r.startswith(("papers-sim/alheid-t", "papers-sim/arabi",
                                                                   "testbed/table1.csv", "today/kernel_cells.csv"))])
def test_a_goodput_above_the_capacity_is_an_error(data, rel):
    """Probe: one run set to 1e12 bit/s — above the capacity of its paths."""
    path = data / rel
    frame = pd.read_csv(path)
    frame.loc[0, "throughput_bps"] = 1e12
    frame.to_csv(path, index=False)
    pinned.pin(path)
    with pytest.raises(pinned.ImplausibleValueError, match=r"column 'throughput_bps': 1000000000000\.0 breaks the rule "
                                                           r"\"a rate at most the paths' capacity"):
        READERS[rel]()


def test_a_nan_row_of_the_wifi_error_table_names_file_row_and_column(data):
    """Probe: ``invalid literal for int() with base 10: 'nan'`` — now the file, the row and the column, also when a
    Wi-Fi scenario is built."""
    from cmtlab.sim import simulate_mptcp

    rel = "wifi/ns3-3.44-table-based-per.csv"
    path = data / rel
    lines = path.read_text().splitlines(keepends=True)
    lines.insert(5, "nan,nan,nan,nan\n")
    path.write_text("".join(lines))
    pinned.pin(path)
    with pytest.raises(pinned.ImplausibleValueError, match=rf"data/{rel}, row 6 .*column 'snr_db': nan is an empty "
                                                           r"cell where a value must be"):
        simulate_mptcp([54e6], [0.0], duration_s=0.1, links=[("wifi80211g", {"distance_m": 10})])


def test_garbage_json_repinned_is_an_error_naming_it(data):
    path = data / "papers-sim" / "provenance.json"
    path.write_text("{not json")
    pinned.pin(path)
    with pytest.raises(pinned.PinnedFileError, match=r"data/papers-sim/provenance.json: not valid JSON"):
        READERS["papers-sim/provenance.json"]()


def test_a_corrupted_manifest_is_an_error_naming_it(data):
    (data / pinned.MANIFEST_NAME).write_text(json.dumps({"format": 1, "files": {"x.csv": {"sha256": "abc"}}}))
    with pytest.raises(pinned.PinnedFileError, match=r"MANIFEST.json: not a manifest"):
        READERS["field-measurements/rtt_samples.csv"]()


def test_an_unpinned_data_file_is_found(data):
    (data / "wifi" / "extra.csv").write_text("a,b\n1,2\n")
    assert any("data/wifi/extra.csv is not pinned" in p for p in pinned.verify(data))


def test_pin_rewrites_one_entry_and_keeps_its_command(data):
    rel = "field-measurements/data_rates.csv"
    before = pinned.manifest()["files"]
    path = data / rel
    path.write_text(path.read_text().replace("12.84", "12.85"))
    digest = pinned.pin(path)
    after = pinned.manifest()["files"]
    assert after[rel] == {"regenerate": before[rel]["regenerate"], "sha256": digest}
    assert {k: v for k, v in after.items() if k != rel} == {k: v for k, v in before.items() if k != rel}
    READERS[rel]()  # the file and its entry agree again


def test_the_public_datasets_are_pinned_in_the_same_manifest():
    from cmtlab.measurements import public

    assert set(pinned.manifest()["public"]) == set(public.DATASETS)
    for name, entry in public.DATASETS.items():
        assert entry["sha256"] == pinned.public_sha256(name)


def test_the_cli_checks_everything():
    assert pinned.main(["check"]) == 0
