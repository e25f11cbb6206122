"""The recorded 30-seed Alheid runs (data/alheid/) are the chapters' runs and the simulator still produces them.

* each file holds exactly the full profile's cases × 30 seeds — a scenario field or default that
  changed (a new scenario key) would otherwise leave the chapter simulating every seed silently;
* every row is possible (:func:`cmtlab.sweep.cache.check_row`) and the seeds differ;
* a few recorded rows (cheap ones: far distances, single TCP) re-simulated here equal their
  recorded rows in every compared column — the same check the chapters make with their live seeds;
* the notebooks' full-profile parameters are those the records were made with.
"""

from __future__ import annotations

import nbformat
import pytest

from cmtlab._paths import REPO as ROOT
from cmtlab.papers.alheid import paper, record_files, records, table1 as t1
from cmtlab.report import profile
from cmtlab.sweep.cache import check_row
from cmtlab.sweep import run_sweep
from cmtlab.sweep.recorded import differences

NOTEBOOK = {"fig4": "alheid-fig4-table3-distance", "fig5": "alheid-fig5-table4-pdr", "table1": "alheid-table1-mptcp-gain"}


@pytest.fixture(scope="module", params=sorted(records.RECORDED))
def record(request):
    return request.param, record_files.load(request.param)


def test_record_holds_exactly_the_chapter_cases(record):
    name, rec = record
    expected = {sc.replace(seed=s).key() for _, sc in records.cases(name) for s in range(records.N_SEEDS)}
    assert set(rec.rows) == expected
    assert rec.header["seeds"] == list(range(records.N_SEEDS)) == list(range(30))
    assert rec.header["simulator"] == "cmtlab" and rec.header["command"] == "make alheid-records"


def test_recorded_rows_are_possible_and_seeds_differ(record):
    name, rec = record
    for labels, sc in records.cases(name):
        rows = [rec.get(sc.replace(seed=s)) for s in range(records.N_SEEDS)]
        for s, row in enumerate(rows):
            assert row["seed"] == s
            assert check_row(row, sc.replace(seed=s)) is None
        if labels.get("solution") == "single TCP" or labels.get("pdr2", 0.0) > 0 or "variant" in labels:
            assert len({r["gthroughput_bps"] for r in rows}) > 1, labels   # random loss: the seeds matter


@pytest.mark.parametrize("name, labels, seed", [("fig4", {"distance_m": 100.0, "solution": "single TCP"}, 29),
                                                ("fig4", {"distance_m": 100.0, "solution": "PR-R"}, 17),
                                                ("fig5", {"pdr2": 0.009, "solution": "single TCP"}, 5),
                                                ("table1", {"variant": "round robin + LIA", "delta_ms": 500.0,
                                                            "meaning": "one_way"}, 21)])
def test_recorded_rows_are_reproduced(name, labels, seed):
    rec = record_files.load(name)
    (sc,) = [sc for lab, sc in records.cases(name) if all(lab.get(k) == v for k, v in labels.items())]
    run = sc.replace(seed=seed)
    live = run_sweep("cmtlab", [run], workers=1, cache=False, progress=False).iloc[0].to_dict()
    assert differences(live, rec.get(run)) == []


@pytest.mark.parametrize("name", sorted(NOTEBOOK))
def test_full_profile_parameters_are_the_recorded_ones(name, monkeypatch):
    nb = nbformat.read(ROOT / "notebooks" / f"{NOTEBOOK[name]}.ipynb", as_version=4)
    (cell,) = [c for c in nb.cells if "parameters" in c.metadata.get("tags", [])]
    monkeypatch.setenv(profile.ENV_VAR, "full")
    p: dict = {}
    exec(cell.source, p)
    assert p["n_seeds"] == records.N_SEEDS and p["use_records"] is True and p["live_seeds"] == records.LIVE_SEEDS
    assert p["duration_s"] == paper.DURATION_S
    if name == "table1":
        assert [float(d) for d in p["deltas_ms"]] == [float(d) for d in paper.DELTAS_MS]
        assert tuple(p["meanings"]) == t1.MEANINGS and list(p["variants"]) == list(t1.VARIANTS)
        return
    assert p["preset"] == "paper" and p["prr_ssthresh"] == "keep"
    if name == "fig4":
        assert [float(d) for d in p["distances_m"]] == [float(d) for d in paper.DISTANCES_M]
    else:
        assert [float(x) for x in p["pdrs"]] == [float(x) for x in paper.PDRS]
        assert p["distance_m"] == paper.SCENARIO2_DISTANCE_M
