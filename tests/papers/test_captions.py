"""The figures' captions (issue 38): every one builds, names are unique, and the paper's numbers in a
caption are the registry's (targets read from papers/<paper>/paper.py, never typed twice)."""

from __future__ import annotations

from cmtlab.papers.alheid import captions as alheid, paper as alheid_paper
from cmtlab.papers.arabi import captions as arabi
from cmtlab.papers.osia import captions as osia
from cmtlab.papers.song import captions as song, paper as song_paper
from cmtlab.report.figure import Caption
from cmtlab.today import captions as today
from cmtlab.validation import captions as validation


def _all() -> list[Caption]:
    return [
        song.fig1(), song.fig1_public(), song.fig6(), song.fig7(), song.fig8(), song.pmf_check(), song.ack_function(),
        song.transfer_size(), song.rounds(),
        alheid.fig4(reference="x", n_runs=30), alheid.fig4(reference="the papers' simulator"),
        alheid.fig5(reference="x", n_runs=30), alheid.fig5(reference="the papers' simulator"),
        alheid.fig6(reference="x", detail="y"), alheid.fig6(reference="x", detail="y", slug="alheid-fig6-rfc"),
        alheid.fig6(reference="x", detail="y", slug="alheid-fig6-model"), alheid.table1(30), alheid.table1_sensitivity(),
        arabi.fig8(), arabi.fig9(), arabi.per_congestion(1), arabi.per_congestion(2), arabi.frto_clocks(),
        osia.fig3_buckets(), osia.fig5_schedule(), osia.theorem2(), osia.rr_checks(), osia.path_model(),
        osia.fig7("path model", 10), osia.fig8("path model", 500), osia.fig9(10),
        validation.ns3_single_link(), validation.ns3_mathis(), validation.ns3_striped(), validation.ns3_cwnd(),
        validation.kernel_calibration(), validation.kernel_table1(), validation.kernel_vs_simulator(),
        validation.mptcp_goals(), validation.papers_sim_agreement(0.05), validation.wifi_link(),
        validation.wifi_single_flow(),
        today.kernel_agreement(), today.replay_check(), today.axes_goodput(),
    ]


def test_every_caption_builds_with_a_unique_name():
    caps = _all()
    assert all(isinstance(c, Caption) and c.text() for c in caps)
    names = [c.name for c in caps]
    assert len(names) == len(set(names)), sorted(n for n in names if names.count(n) > 1)


def test_paper_values_come_from_the_registries():
    assert f"{song_paper.PAPER_FIG8_CROSS_5MS:g} ms" in song.fig8().paper
    assert f"{song_paper.PAPER_FIG8_CROSS_50MS:g} ms" in song.fig8().paper
    assert all(f"{v:.2f} %" in song.fig6().paper for v in song_paper.PAPER_ACCURACY_PCT.values())
    assert f"{song_paper.PAPER_ACCURACY_AVG_PCT:.2f} %" in song.fig6().paper
    assert all(f"{v:g}" in song.fig1().paper for v in song_paper.PAPER_MAX_DR_MBPS)
    assert f"{alheid_paper.PAPER_DSACK_MAX_MBPS:g} Mbit/s" in alheid.fig5(reference="x").paper
    assert [v for v, _ in alheid.FIG5_PAPER_LINES] == [alheid_paper.PAPER_SINGLE_TCP_MAX_VB_MBPS,
                                                       alheid_paper.PAPER_DSACK_MAX_MBPS]
    assert "about 10 Mbit/s" in arabi.fig9().paper and "\u201c40 less\u201d" in arabi.fig9().paper and "read as 40 %" in arabi.fig9().paper


def test_a_paper_figure_says_which_one_it_reproduces():
    assert song.fig6().reproduces == "Song et al., Fig. 6 (a–g)"
    assert "Reproduces Alheid et al., Fig. 5." in alheid.fig5(reference="x").text()
    assert "reproduces no figure of a paper" in validation.ns3_cwnd().text()
