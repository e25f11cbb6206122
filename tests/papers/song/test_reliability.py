"""Reliability: Song's model names every bad input, and says when its value exceeds the links' capacity.

Replays the reproducers of the reliability probe of 22f83c4 (``shared/reviews/reliability-probe.md``,
section 1): strings and ragged link sets failed inside numpy without naming the parameter, and
``song.throughput([1e5], [0.0])`` returned 147.6 kbit/s on a 100 kbit/s link without a word.  That
value is the published model's (the book's errata explain it); now the function warns, once per
process, and points to the errata.
"""

from __future__ import annotations

import re
import warnings

import pytest

from cmtlab._paths import REPO
from cmtlab.papers import song
from cmtlab.papers.song import model

ERRATA = REPO / "book" / "errata.md"


@pytest.mark.parametrize("call, name", [
    (lambda: song.throughput("abc", [0.1]), "bandwidths_bps"),
    (lambda: song.throughput([1e5], "abc"), "delays_s"),
    (lambda: song.average_delay_asymmetry("abc"), "delays_s"),
    (lambda: song.average_bandwidth_asymmetry(["1e5", "2e5"]), "bandwidths_bps"),
    (lambda: song.throughput_many([[1e5, 1e5], [1e5]], [[0.1, 0.1], [0.1]]), "bandwidths_bps"),
    (lambda: song.throughput_many([[1e5, 1e5], [1e5, 1e5]], [[0.1, 0.1], [0.1]]), "delays_s"),
    (lambda: song.throughput_many([[1e5, "x"], [1e5, 1e5]], [[0.1, 0.1], [0.1, 0.1]]), "bandwidths_bps"),
    (lambda: song.average_delay_asymmetry([[0.1, 0.2], [0.1]]), "delays_s"),
])
def test_strings_and_ragged_link_sets_name_the_parameter(call, name):
    with pytest.raises(ValueError, match=rf"^{name} must be"):
        call()


@pytest.fixture
def warn_again(monkeypatch):
    """A process that has not warned yet."""
    monkeypatch.setattr(model, "_ABOVE_CAPACITY_WARNED", [False])


def test_a_value_above_capacity_warns_once_and_points_to_the_errata(warn_again):
    with pytest.warns(song.AboveCapacityWarning, match=r"147\.6 kbit/s on links of 100\.0 kbit/s") as record:
        value = song.throughput([1e5], [0.0])
    assert value == pytest.approx(147_600, rel=1e-3)  # the model as published: unchanged
    assert "errata" in str(record[0].message) and "Throughput above capacity" in str(record[0].message)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        song.throughput([1e5], [0.005])  # 136.6 kbit/s: above capacity again, but warned once already
        song.throughput([1e300, 1e300], [0.0, 0.0])


def test_no_warning_within_capacity(warn_again):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert song.throughput([1e6], [0.05]) < 1e6


def test_the_docstring_and_the_errata_say_it():
    doc = song.throughput.__doc__
    assert "AboveCapacityWarning" in doc and "147.6 kbit/s" in doc and "errata" in doc
    text = ERRATA.read_text()
    entry = text[text.index("**Throughput above capacity.**"):]
    entry = entry[:entry.index("\n* **")]
    # the example is computed by the chapter, not typed: a glued value
    assert re.search(r"song-model-check\.ipynb::cap_slow_zero_kbps", entry)
    assert float(song.throughput_many([1e5], [0.0])[0]) / 1e3 == pytest.approx(147.6, abs=0.05)
