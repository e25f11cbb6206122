"""cmtlab.validation.kernel_table on the Linux-MPTCP chapter's *stored* data (the kernel is not driven here),
and at the edges of its thresholds on synthetic gains."""

import html
import json
import re

import numpy as np
import pandas as pd
import pytest

from cmtlab._paths import REPO
from cmtlab.validation import kernel_table as tc

CHAPTER = REPO / "notebooks" / "linux-mptcp-validation.ipynb"
SETUP = dict(rate_mbps=10, base_one_way_ms=10, queue_packets=100, duration_s=12, warmup_s=2, repetitions=3)


def _stored_gains():
    """The kernel's gains table as the chapter displayed it (columns congestion, meaning, Δ (ms), gain (%), std (pp),
    min (%), max (%), runs) — stored output, not re-run."""
    nb = json.loads(CHAPTER.read_text())
    for cell in nb["cells"]:
        for o in cell.get("outputs", []):
            h = "".join(o.get("data", {}).get("text/html", ""))
            rows = [[html.unescape(re.sub(r"<[^>]+>", "", x)).strip() for x in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", r, re.S)]
                    for r in re.findall(r"<tr>(.*?)</tr>", h, re.S)]
            if rows and rows[0][:3] == ["congestion", "meaning", "Δ (ms)"] and "std (pp)" in rows[0]:
                head = rows[0]
                f = pd.DataFrame([dict(zip(head, r[-len(head):])) for r in rows[1:]])
                # the chapter shows the library's names as readers read them ("one-way" for one_way)
                meaning = f.meaning.replace({"one-way": "one_way"})
                return pd.DataFrame({"congestion": f.congestion, "meaning": meaning,
                                     "delta_ms": f["Δ (ms)"].astype(int), "gain_pct": f["gain (%)"].astype(float),
                                     "gain_std_pct": pd.to_numeric(f["std (pp)"], errors="coerce"),
                                     "gain_min_pct": f["min (%)"].astype(float), "gain_max_pct": f["max (%)"].astype(float),
                                     "n": f["runs"].astype(int)})
    pytest.skip("the Linux-MPTCP chapter has no stored gains table (not executed)")


def test_on_the_chapters_stored_kernel_gains():
    g = _stored_gains()
    t = tc.comparison(g, deltas_ms=[0, 100, 500], meanings=["rtt", "one_way"], setup=SETUP,
                      calibration=dict(ping_median_ms=0.37, ping_p99_ms=0.79, ping_max_ms=9.96, rate_error_max_pct=0.33,
                                       max_rate_mbps=20))
    # no paper claim here: the Table I rows are checks of today's kernel (Table I's claim is decided in its chapter)
    assert t.rows == []
    c = {r["check"].split(": ", 1)[1]: r for r in t.checks if r["check"].startswith(tc.TODAY_CHECK)}
    assert len(c) == 5 and "kernel CUBIC" in c["MPTCP gain over best-path TCP, Δ = 0 ms"]["note"]
    v = {k: r["reproduction"].split(": ", 1)[1] for k, r in c.items()}
    # the kernel runs in real time, so the stored numbers vary between executions: the verdicts asserted here are
    # those that held on every execution so far (Δ = 0: 97 vs 94 %; Δ = 500 ms RTT reading: about 51 vs 23 %)
    assert v["MPTCP gain over best-path TCP, Δ = 0 ms"] == "reproduced"
    assert c["MPTCP gain over best-path TCP, Δ = 0 ms"]["verdict"] == "met"
    for reading in ("RTT", "one-way"):
        assert v[f"MPTCP gain over best-path TCP, Δ = 100 ms (Δ as {reading} difference)"].startswith(
            ("reproduced", "partly", "undecided")), reading
    assert v["MPTCP gain over best-path TCP, Δ = 500 ms (Δ as RTT difference)"] == "not reproduced"
    assert v["MPTCP gain over best-path TCP, Δ = 500 ms (Δ as one-way difference)"].startswith(("not reproduced", "undecided"))
    assert all(r["verdict"] == "not met" for k, r in c.items() if "500 ms" in k)
    # the value carries its CI over the kernel runs (numbers from the stored runs, which vary between executions)
    m = re.fullmatch(r"(-?\d+) % \(95 % CI (-?\d+) to (-?\d+), 3 runs\): .*",
                     c["MPTCP gain over best-path TCP, Δ = 0 ms"]["reproduction"])
    assert m is not None and int(m[2]) <= int(m[1]) <= int(m[3])
    assert t.checks[-1]["verdict"] == "met"
    t.consistency()


def test_agreement_check_edges_and_missing_runs():
    g = pd.DataFrame({"congestion": ["reno", "cubic"], "meaning": "rtt", "delta_ms": 0, "gain_pct": [94.0 * 1.1, 90.0],
                      "n": 1, "gain_std_pct": np.nan})
    for worst, verdict in ((5.0, "met"), (5.01, "not met")):
        agree = pd.DataFrame({"delta_ms": [0], "meaning": ["rtt"], "diff_pp": [-worst], "goodput_ratio": [1.0]})
        t = tc.comparison(g, deltas_ms=[0, 100], meanings=["rtt"], setup=SETUP, agree=agree)
        assert [c for c in t.checks if c["check"].startswith("cmtlab.sim configured")][0]["verdict"] == verdict
    c = {r["check"].split(": ", 1)[1]: r for r in t.checks if r["check"].startswith(tc.TODAY_CHECK)}
    assert c["MPTCP gain over best-path TCP, Δ = 0 ms"]["verdict"] == "met"          # exactly +10 %: reproduced
    assert c["MPTCP gain over best-path TCP, Δ = 100 ms (Δ as RTT difference)"]["reproduction"].startswith("not run")
    assert "kernel CUBIC 90 %: reproduced" in c["MPTCP gain over best-path TCP, Δ = 0 ms"]["note"]   # 90 vs 94
    assert t.rows == []


def test_gain_ci_from_repetitions():
    m, (lo, hi), n = tc.gain_ci(pd.Series({"gain_pct": 50.0, "gain_std_pct": 2.0, "n": 3}))
    assert m == 50 and n == 3 and hi - 50 == pytest.approx(4.302653 * 2 / np.sqrt(3))
    assert np.isnan(tc.gain_ci(pd.Series({"gain_pct": 50.0, "gain_std_pct": np.nan, "n": 1}))[1][0])
