"""Song Fig. 6 delay-group selection (sec. 5.2) and the accuracy table (eq. 24)."""

import itertools

import numpy as np
import pandas as pd
import pytest

from cmtlab.papers.song import asymmetry
from cmtlab.papers.song import fig6


def test_enumerated_groups_are_evenly_spaced_ranks_of_all_combinations():
    rng = np.random.default_rng(3)
    sets = [rng.uniform(0.02, 0.3, 7), rng.uniform(0.05, 0.5, 5), rng.uniform(0.01, 0.2, 4)]
    g = fig6.delay_groups(sets, n_groups=6)
    assert (g.method == "enumerated").all() and g.combinations.iloc[0] == 7 * 5 * 4
    every = sorted(asymmetry.average_delay_asymmetry(np.array(c)) for c in itertools.product(*sets))
    expected = [every[int(round(k * (len(every) - 1) / 5))] for k in range(6)]
    assert np.allclose(g.ada_s, expected)
    # each group really is a combination of one value per link, with the ADA it claims
    d = g[["d1_s", "d2_s", "d3_s"]].to_numpy()
    for k, s in enumerate(sets):
        assert np.all(np.isin(d[:, k], s))
    assert np.allclose(asymmetry.average_delay_asymmetry(d), g.ada_s)


def test_sampled_groups_estimate_the_enumerated_quantiles():
    rng = np.random.default_rng(5)
    sets = [rng.lognormal(-2, 0.5, 40) for _ in range(3)]
    full = fig6.delay_groups(sets, n_groups=11)
    sampled = fig6.delay_groups(sets, n_groups=11, max_enumerate=1000, n_draws=50_000, seed=1)
    assert (sampled.method == "sampled").all()
    # interior quantiles agree closely; the ends are the sample's extremes (inside the population's)
    assert np.allclose(sampled.ada_s[1:-1], full.ada_s[1:-1], rtol=0.05)
    assert sampled.ada_s.iloc[0] >= full.ada_s.iloc[0] and sampled.ada_s.iloc[-1] <= full.ada_s.iloc[-1]
    again = fig6.delay_groups(sets, n_groups=11, max_enumerate=1000, n_draws=50_000, seed=1)
    pd.testing.assert_frame_equal(sampled, again)


def test_field_links_follow_section_5_3():
    bw, sets, modems = fig6.field_links(8)
    assert modems == ("CT1", "CT2", "CT3", "CU1", "CU2", "CU3", "CM1", "CM2")
    assert bw[0] > bw[1] and bw.argmin() == 5  # CT1 fastest of the first two, CU3 slowest
    assert all(s.size > 100 and s.min() > 0 for s in sets)


def test_accuracy_table_is_eq24_averaged_per_link_count():
    res = pd.DataFrame({"n_links": [2, 2, 3], "model": [90.0, 110.0, 50.0], "sim": [100.0, 100.0, 100.0]})
    t = fig6.accuracy_table(res, model_cols=["model"], sim_cols=["sim"])
    assert t.loc[2, "model vs sim"] == pytest.approx(90.0)
    assert t.loc[3, "model vs sim"] == pytest.approx(50.0)
    assert t.loc["average", "model vs sim"] == pytest.approx(70.0)


@pytest.mark.parametrize("sets, name", [([np.array([0.1])], "rtt_sets"), ([np.array([0.1]), np.array([])], "rtt_sets"),
                                        ([np.array([0.1]), np.array([-1.0])], "rtt_sets")])
def test_invalid_delay_sets(sets, name):
    with pytest.raises(ValueError, match=name):
        fig6.delay_groups(sets)
