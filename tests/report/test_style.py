"""The book's figure style: sizes for the text column, text metadata for the browser test, series styles."""

import io

import matplotlib

matplotlib.use("Agg")  # tests only; notebooks keep their inline backend

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from PIL import Image  # noqa: E402

from cmtlab.report import style  # noqa: E402


def test_figsize_keeps_the_column_width_whatever_the_panels():
    assert style.figsize(1) == (style.COLUMN_WIDTH_IN, 2.9)
    assert style.figsize(3, 2, panel_height_in=2.0) == (style.COLUMN_WIDTH_IN, 4.0)
    with pytest.raises(ValueError, match="ncols"):
        style.figsize(0)
    with pytest.raises(ValueError, match="width_in"):
        style.figsize(1, width_in=30)


def test_grid_shape_has_at_most_two_columns_by_default():
    assert style.grid_shape(1) == (1, 1)
    assert style.grid_shape(4) == (2, 2)
    assert style.grid_shape(7) == (4, 2)
    assert style.grid_shape(7, max_cols=3) == (3, 3)
    with pytest.raises(ValueError, match="n_panels"):
        style.grid_shape(0)


def test_text_metadata_reports_the_smallest_visible_text_and_survives_png():
    style.use_style()
    fig, ax = plt.subplots(figsize=style.figsize())
    ax.plot([0, 1], [0, 1], label="a series")
    ax.legend()
    assert float(style.text_metadata(fig)["cmtlab:min-font-pt"]) == pytest.approx(9.0)  # the legend
    ax.text(0.5, 0.5, "tiny", fontsize=6)
    ax.text(0.5, 0.2, "hidden", fontsize=3, visible=False)  # invisible text does not count
    meta = style.text_metadata(fig)
    assert float(meta["cmtlab:min-font-pt"]) == pytest.approx(6.0)
    assert float(meta["cmtlab:dpi"]) == pytest.approx(style.DPI)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=fig.dpi, metadata=meta)
    plt.close(fig)
    info = Image.open(io.BytesIO(buf.getvalue())).info
    assert info["cmtlab:min-font-pt"] == meta["cmtlab:min-font-pt"]


def test_series_styles_are_shared_and_distinct_within_a_family():
    assert style.series_style("PR-R") == style.series_style("pr_r")
    assert style.series_style("D-SACK") == style.series_style("dsack")  # Alheid and Arabi agree
    schedulers = ["round_robin", "cwnd_aware", "flow_level", "osia", "lowest_rtt", "edpf", "osia_every_period"]
    styles = [tuple(style.series_style(s).items()) for s in schedulers]
    assert len({dict(s)["color"] for s in styles}) == len(schedulers)
    assert style.series_style("unknown", 0) != style.series_style("unknown", 1)
