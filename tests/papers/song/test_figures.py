"""The plots moved out of the Song chapters into the library draw what the chapters showed."""

import matplotlib

matplotlib.use("Agg")  # tests only; notebooks never set a backend

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from cmtlab.papers import song  # noqa: E402
from cmtlab.report import style  # noqa: E402
from cmtlab.papers.song import field  # noqa: E402
from cmtlab.papers.song import checks, figures  # noqa: E402


@pytest.fixture(autouse=True)
def _style():
    style.use_style()
    yield
    plt.close("all")


def test_fig1_one_box_per_modem_coloured_by_operator():
    rtt, rates = field.load_rtt_samples(), field.load_data_rates()
    fig = figures.plot_fig1(rtt, rates)
    ax_rtt, ax_dr = fig.axes
    assert [t.get_text() for t in ax_rtt.get_xticklabels()] == list(field.MODEMS)
    assert ax_rtt.get_yscale() == "log"
    boxes = [p for p in ax_rtt.patches]
    assert len(boxes) == len(field.MODEMS)
    operators = rates.set_index(rates["modem"].astype(str)).loc[list(field.MODEMS), "operator"]
    colours = {matplotlib.colors.to_hex(b.get_facecolor(), keep_alpha=False) for b in boxes}
    assert colours == {figures.OPERATOR_COLOURS[o] for o in set(operators)}
    # (b): two bars per modem, the maximum rates as printed in the paper
    heights = [b.get_height() for b in ax_dr.patches]
    assert len(heights) == 2 * len(field.MODEMS)
    r = rates.set_index(rates["modem"].astype(str)).loc[list(field.MODEMS)]
    assert heights[:len(field.MODEMS)] == pytest.approx(list(r["max_dr_mbps"]))


def test_rounds_and_transfer_size_plots():
    tr = song.rounds([1e6], [0.05], transfer_bytes=1_000_000)
    fig = checks.plot_rounds(tr)
    assert len(fig.axes) == 2 and fig.axes[0].get_yscale() == "log"
    sizes = np.geomspace(1e5, 2e7, 5)
    curves = {"a": checks.transfer_size_effect([1e6], [0.05], sizes),
              "b": checks.transfer_size_effect([100e3] * 2, [0.005, 0.02], sizes)}
    fig = checks.plot_transfer_size_effect(curves, song.DEFAULT_TRANSFER_BYTES)
    ax = fig.axes[0]
    assert [line.get_label() for line in ax.get_lines()][:2] == ["a", "b"]
    assert fig.get_size_inches()[0] <= style.COLUMN_WIDTH_IN
