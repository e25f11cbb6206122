"""cmtlab.papers.arabi.tables and figures: the chapter's descriptive tables and figures on synthetic summaries."""

import numpy as np
import pandas as pd
import pytest

from cmtlab.papers.arabi import experiments as ex
from cmtlab.papers.arabi import sources as src
from cmtlab.papers.arabi import tables as tab


#: Synthetic means (× 1 Mbit/s) with the paper's picture in scenario 2: DSACK + uncoupled best,
#: F-RTO and Eifel 40 % below no algorithm; in scenario 1 Eifel gains 20 % and LIA's DSACK = none.
_CC = {"uncoupled": 1.3, "fully_coupled": 0.8, "lia": 1.0, "rtt_compensation": 1.1, "olia": 0.9}
_RO = {1: {"none": 1.0, "dsack": 1.2, "eifel": 1.2, "frto": 0.6}, 2: {"none": 1.0, "dsack": 1.2, "eifel": 0.6, "frto": 0.6}}
_BASE = {1: 5e6, 2: 8e6}


def _synthetic(scenarios=(1, 2), congestion=ex.PAPER_CONGESTION, reordering=ex.REORDERING, presets=("chihani", "rfc"),
               modern=True, n_bins=10):
    """A summary and traces shaped like those of run_cases → summarise / throughput_traces."""
    groups = []
    for sid in scenarios:
        for preset in presets:
            groups += [("round_robin", cc, ro, sid, preset) for cc in congestion for ro in reordering]
            if modern:
                groups += [("round_robin", "olia", ro, sid, preset) for ro in reordering]
                groups += [("lowest_rtt", cc, ro, sid, preset) for cc in ("lia", "olia") for ro in reordering]
    rows, tr = [], []
    for sched, cc, ro, sid, preset in groups:
        f = 1.0 if (sid == 1 and cc == "lia" and ro == "dsack") else _RO[sid][ro]
        m = _BASE[sid] * _CC[cc] * f
        labels = dict(setting="main", scenario=sid, preset=preset, scheduler=sched, congestion=cc, reordering=ro)
        rows.append({**labels, "mean_bps": m, "ci95_bps": 0.1e6, "seeds": 2, "fast_retransmits": 3.0, "timeouts": 1.0,
                     "spurious_undos": 0.5, "retransmissions": 4.0})
        for i in range(n_bins):  # F-RTO: like none in the first half, half of it in the second
            late = i >= n_bins / 2
            v = m if ro != "frto" else _BASE[sid] * _CC[cc] * (0.5 if late else 1.0)
            tr.append({**labels, "time_s": (i + 0.5) * ex.BIN_S, "mean_bps": v, "ci95_bps": 0.0})
    return pd.DataFrame(rows), pd.DataFrame(tr)


HERE = src.source_label("chihani")
RFC = src.source_label("rfc")


def test_sensitivity_loss_free_modern_and_counter_tables():
    s, _ = _synthetic(scenarios=(2,), congestion=("uncoupled", "lia"), presets=("chihani",))
    t = tab.sensitivity_table(s[s.scheduler == "round_robin"])
    assert len(t) == 1 and t["best in scenario 2"].iloc[0].startswith("uncoupled + DSACK")
    assert np.isnan(t["Eifel gain s1"].iloc[0]) and t["Eifel gain s2"].iloc[0] == pytest.approx(-0.4)
    assert "not run" in tab.style_sensitivity(t).to_html()
    m = tab.modern_table(s)
    assert set(zip(m.scheduler, m.congestion)) == {("round_robin", "lia"), ("round_robin", "olia"),
                                                   ("lowest_rtt", "lia"), ("lowest_rtt", "olia")}
    assert m.loc[(m.scheduler == "round_robin") & (m.congestion == "olia"), "none"].iloc[0] == pytest.approx(8 * 0.9)
    assert tab.mean_of(s, scenario=2, congestion="lia", reordering="none", scheduler="round_robin") == pytest.approx(8e6)
    assert np.isnan(tab.mean_of(s, scenario=1))
    with pytest.raises(ValueError, match="seeds_x"):
        tab.mean_of(s, seeds_x=1)
    r = tab.response_counters(s)
    assert len(r) == 4 and list(r.columns[:3]) == ["preset", "reordering", "Mbit/s"]
    assert tab.response_counters(s, scenario_id=1).empty
    runs = pd.DataFrame({"setting": ["loss 0"] * 4, "scenario": 2, "preset": "rfc", "scheduler": "round_robin",
                         "congestion": "lia", "seed": 0, "reordering": list(ex.REORDERING),
                         "mean_throughput_bps": 5e6, "fast_retransmits": 0, "timeouts": 0})
    assert tab.loss_free_check(runs) == {"identical": True, "fast_retransmits": 0, "timeouts": 0, "runs": 4}
    runs.loc[3, ["mean_throughput_bps", "timeouts"]] = (4e6, 2)
    assert tab.loss_free_check(runs)["identical"] is False and tab.loss_free_check(runs)["timeouts"] == 2
    assert tab.loss_free_check(runs, setting="main")["identical"] is None


def test_mean_table_formats_mean_and_ci_with_labels():
    s, _ = _synthetic(scenarios=(2,), presets=("rfc",), modern=False)
    t = tab.mean_table(s, "rfc", 2)
    assert list(t.index) == ["uncoupled", "fully coupled", "LIA", "RTT compensation"]
    assert list(t.columns) == ["none", "DSACK", "Eifel", "F-RTO"]
    assert t.loc["uncoupled", "DSACK"] == f"{8 * 1.3 * 1.2:.2f} ± 0.1"
    one = s.assign(seeds=1)                       # one run: its value alone (exact, or no interval)
    assert tab.mean_table(one, "rfc", 2).loc["uncoupled", "DSACK"] == f"{8 * 1.3 * 1.2:.2f}"
    with pytest.raises(ValueError, match="scenario=1"):
        tab.mean_table(s, "rfc", 1)


def test_loss_free_table_tells_a_tie_from_a_spread():
    s, _ = _synthetic(modern=False)
    s = s.copy()
    s.loc[s.preset == "rfc", "mean_bps"] = 5e6          # RFC: every algorithm the same
    t = tab.loss_free_table(s).set_index("source")
    assert bool(t.loc[RFC, "algorithms tie"]) and t.loc[RFC, "largest spread"] == 0.0
    assert not t.loc[HERE, "algorithms tie"] and t.loc[HERE, "largest spread"] == pytest.approx(1.2 / 0.6 - 1)
    assert t.loc[HERE, "fast retransmits per run"] == 3.0
    with pytest.raises(ValueError, match="chihani_ns3"):
        tab.loss_free_table(s, sources=["chihani_ns3"])


def test_sources_over_time_validates_its_inputs():
    import matplotlib
    matplotlib.use("Agg")
    from cmtlab.papers.arabi import figures

    _, tr = _synthetic(modern=False)
    fig = figures.sources_over_time(tr, scenario_id=2, congestion="uncoupled", sources=("chihani", "rfc", "absent"))
    assert len([a for a in fig.axes if a.get_visible() and a.lines]) == 2       # one panel per source present
    assert len(fig.axes[0].lines) == len(ex.REORDERING)
    assert figures.fig8(tr, sources=("rfc",)).axes and figures.fig9(tr, sources=("rfc",)).axes
    for kw, match in ((dict(scenario_id=3), "scenario_id"), (dict(congestion="bbr"), "congestion"),
                      (dict(sources=()), "sources"), (dict(sources="rfc"), "sources"),
                      (dict(sources=("chihani_ns3",)), "no traces")):
        args = {**dict(scenario_id=2, congestion="uncoupled", sources=("rfc",)), **kw}
        with pytest.raises(ValueError, match=match):
            figures.sources_over_time(tr, **args)
