"""cmtlab.report.figure: captions, the data behind a figure, the caption block (issue 38)."""

from __future__ import annotations

import base64
import csv
import io
import re

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from cmtlab.report.figure import (Caption, caption_html, data_csv, figure_data, figure_number,  # noqa: E402
                                  reset_numbering, thin)


def test_caption_text_says_what_is_shown_what_it_reproduces_and_the_papers_values():
    c = Caption("song-fig8", "Throughput against ADA", "Song et al., Fig. 8", "35.6 ms at 5 ms", "Look at the crossing")
    assert c.text() == ("Throughput against ADA. Reproduces Song et al., Fig. 8. The paper: 35.6 ms at 5 ms. "
                        "Look at the crossing.")
    assert "reproduces no figure of a paper" in Caption("check", "A check").text()


@pytest.mark.parametrize("name", ["", "Song Fig 8", "a_b", "x" * 81])
def test_caption_rejects_a_bad_name(name):
    with pytest.raises(ValueError, match="name"):
        Caption(name, "something")


def test_caption_rejects_an_empty_description():
    with pytest.raises(ValueError, match="shows"):
        Caption("ok", "  ")


def test_figure_data_reads_lines_error_bars_bars_reference_lines_and_heat_maps():
    fig, (a, b, c) = plt.subplots(1, 3)
    a.errorbar([1, 2], [4.0, 6.0], yerr=[0.5, 1.0], label="PR-R")
    a.axhline(15, label="paper: 15")
    a.set_title("gThroughput")
    b.bar([0, 1], [3.0, 4.0], label="max")
    b.set_xticks([0, 1], ["CT1", "CT2"])
    mesh = c.pcolormesh([1, 2], [10, 20], np.array([[1.0, 2.0], [3.0, 4.0]]), shading="nearest")
    fig.colorbar(mesh, ax=c)
    d = figure_data(fig)
    plt.close(fig)
    pr = d[d.series == "PR-R"]
    assert list(pr.y) == [4.0, 6.0] and list(pr.low) == [3.5, 5.0] and list(pr.high) == [4.5, 7.0]
    assert pr.panel.unique().tolist() == ["gThroughput"]
    paper = d[d.series == "paper: 15"]
    assert paper.y.tolist() == [15.0] and paper.x.isna().all()
    bars = d[d.series == "max"]
    assert bars.x.tolist() == ["CT1", "CT2"] and bars.y.tolist() == [3.0, 4.0]
    heat = d[d.series == "heat map"]
    assert sorted(heat.value) == [1.0, 2.0, 3.0, 4.0]   # the colour bar is not read as data
    assert len(d) == 2 + 1 + 2 + 4


def test_caption_block_carries_number_alt_text_and_the_csv():
    reset_numbering()
    assert figure_number("first") == 1 and figure_number("second") == 2 and figure_number("first") == 1
    fig, ax = plt.subplots()
    ax.plot([0, 1], [2, 3], label="a")
    text = data_csv(figure_data(fig))
    plt.close(fig)
    block = caption_html(Caption("f-1", "Two points", "Song et al., Fig. 6"), 2, text)
    assert 'data-alt="Figure 2. Two points. Reproduces Song et al., Fig. 6."' in block
    assert '<span class="cmtlab-fignum">Figure 2.</span>' in block
    payload = re.search(r"base64,([A-Za-z0-9+/=]+)\" download=\"f-1.csv\"", block).group(1)
    rows = list(csv.reader(io.StringIO(base64.b64decode(payload).decode())))
    assert rows[0] == ["panel", "series", "x", "y"] and rows[1] == ["panel 1", "a", "0", "2"]


def test_data_csv_refuses_an_empty_table():
    import pandas as pd

    with pytest.raises(ValueError, match="non-empty"):
        data_csv(pd.DataFrame())


def test_thin_keeps_short_data_and_thins_long_series_evenly_with_their_ends():
    import pandas as pd

    short = pd.DataFrame({"panel": ["a"] * 5, "series": ["s"] * 5, "x": range(5), "y": range(5)})
    assert thin(short, 10)[1] is False
    long = pd.DataFrame({"panel": ["a"] * 1000 + ["b"] * 10, "series": ["s"] * 1010,
                         "x": list(range(1000)) + list(range(10)), "y": 0.0})
    out, thinned = thin(long, 100)
    assert thinned and len(out) <= 120
    a = out[out.panel == "a"].x.tolist()
    assert a[0] == 0 and a[-1] == 999 and len(a) >= 90
    assert out[out.panel == "b"].x.tolist() == list(range(10))   # a short series stays whole
    with pytest.raises(ValueError, match="max_rows"):
        thin(long, 5)


def test_figure_data_reads_error_bars_without_errors_or_with_gaps():
    fig, ax = plt.subplots()
    ax.errorbar([1, 2, 3], [1.0, np.nan, 3.0], yerr=None, label="no bars")
    ax.errorbar([1, 2, 3], [1.0, np.nan, 3.0], yerr=[0.1, np.nan, 0.2], label="gaps")
    d = figure_data(fig)
    plt.close(fig)
    assert d[d.series == "no bars"].x.tolist() == [1.0, 2.0, 3.0]
    assert len(d[d.series == "gaps"]) == 3
