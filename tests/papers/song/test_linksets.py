"""Link-set constructions for Song Figs. 7–8 hit the requested ADA/ABA exactly."""

import numpy as np
import pytest

from cmtlab.papers.song import asymmetry
from cmtlab.papers.song import linksets


@pytest.mark.parametrize("construction", linksets.CONSTRUCTIONS)
@pytest.mark.parametrize("n", [2, 3, 4, 5, 8])
def test_constructions_hit_requested_asymmetry(construction, n):
    ada = np.array([0.0, 0.001, 0.0123, 0.035, 0.09])
    D = linksets.delays_for_ada(n, ada, 0.005, construction)
    assert D.shape == (5, n)
    assert np.allclose(D.min(axis=1), 0.005)
    assert np.allclose(asymmetry.average_delay_asymmetry(D), ada, atol=1e-12)
    aba = np.array([0.0, 350e3, 700e3])
    B = linksets.bandwidths_for_aba(n, aba, 100e3, construction)
    assert np.allclose(B.min(axis=1), 100e3)
    assert np.allclose(asymmetry.average_bandwidth_asymmetry(B), aba, rtol=1e-9)


def test_two_links_constructions_coincide():
    rows = [linksets.delays_for_ada(2, 0.03, 0.005, c) for c in linksets.CONSTRUCTIONS]
    for r in rows[1:]:
        assert np.allclose(r, rows[0])


def test_single_link_has_no_asymmetry():
    assert linksets.delays_for_ada(1, 0.0, 0.005).tolist() == [0.005]
    with pytest.raises(ValueError, match="asymmetry"):
        linksets.delays_for_ada(1, 0.01, 0.005)
    surf = linksets.asymmetry_surface(1, [0, 0.01], [0, 1e5])
    assert np.all(surf == surf[0, 0])


def test_surface_shape_and_orientation():
    ada = np.array([0.0, 0.035])
    aba = np.array([0.0, 350e3, 700e3])
    S = linksets.asymmetry_surface(3, ada, aba)
    assert S.shape == (2, 3)
    assert S[1, 0] < S[0, 0]  # more delay asymmetry, less throughput


def test_crossover_interpolates():
    x = np.array([0.0, 1.0, 2.0, 3.0])
    assert linksets.crossover(x, np.array([4.0, 3.0, 1.0, 0.0]), 2.0) == pytest.approx(1.5)
    assert linksets.crossover(x, np.array([4.0, 3.0, 3.0, 3.0]), 2.0) is None
    assert linksets.crossover(x, np.array([1.0, 3.0, 3.0, 3.0]), 2.0) == 0.0


@pytest.mark.parametrize("kwargs, name", [
    (dict(n_links=0, asymmetry=0.01, minimum=0.005), "n_links"),
    (dict(n_links=3, asymmetry=-0.01, minimum=0.005), "asymmetry"),
    (dict(n_links=3, asymmetry=0.01, minimum=0.005, construction="random"), "construction"),
])
def test_invalid_construction_input(kwargs, name):
    with pytest.raises(ValueError, match=name):
        linksets.spread(**kwargs)


@pytest.mark.parametrize("construction", ["even", "one_outlier", "two_groups"])
def test_mean_anchor_keeps_mean_and_reaches_minimum_at_largest_asymmetry(construction):
    aba = np.array([0.0, 200e3, 700e3])
    B = linksets.bandwidths_for_aba(4, aba, 100e3, construction, anchor="mean")
    assert np.allclose(B.mean(axis=1), B.mean(axis=1)[0])
    assert B[-1].min() == pytest.approx(100e3)
    assert np.all(B[:-1].min(axis=1) > 100e3)
    assert np.allclose(asymmetry.average_bandwidth_asymmetry(B[1:]), aba[1:])
    with pytest.raises(ValueError, match="anchor"):
        linksets.spread(4, aba, 100e3, "geometric", anchor="mean")
    with pytest.raises(ValueError, match="anchor"):
        linksets.spread(4, aba, 100e3, anchor="median")


def test_delay_asymmetry_acts_through_the_mean_delay():
    """Song's model: C_i is delay-free and E(T_i) linear in delays, so a link set and the same links
    at the set's mean delay give nearly the same throughput (Fig. 7 chapter), while the mean delay
    itself matters a lot."""
    from cmtlab.papers.song import figures
    eq = figures.mean_delay_equivalent(4, np.linspace(0.0, 0.09, 7), min_delay_s=0.005)
    rel = eq.throughput_kbps / eq.equal_delay_kbps - 1
    assert np.all(np.abs(rel) < 0.01)
    assert eq.throughput_kbps.iloc[0] > 1.5 * eq.throughput_kbps.iloc[-1]
    # a fixed-mean delay set therefore has a (nearly) flat ADA axis
    S = linksets.asymmetry_surface(4, [0.0, 0.035], [0.0], delay_anchor="mean")
    assert S[0, 0] == pytest.approx(S[1, 0], rel=0.01)


@pytest.mark.parametrize("args, kwargs, message", [
    ((3, 0.1, float("nan")), {}, "minimum must be finite"),
    ((3, 0.1, float("inf")), {}, "minimum must be finite"),
    ((3, 0.1, -0.005), {}, "minimum must be >= 0"),
    ((3, 0.1, "0.005"), {}, "minimum must be a real number"),
    ((3, 0.1, True), {}, "minimum must be a real number"),
    ((3, 0.1, float("nan")), {"anchor": "mean"}, "minimum must be finite"),
    ((3, [0.1, float("nan")], 0.005), {}, "asymmetry must be finite"),
    ((3, 1e308, 1.0), {}, "beyond the float range"),
    ((3, 1e308, 1.0), {"construction": "geometric"}, "cannot be reached by the geometric construction"),
    ((10**6, 0.1, 1.0), {}, "n_links must be <= 1000"),
])
def test_spread_refuses_what_would_give_nan_or_inf(args, kwargs, message):
    with pytest.raises(ValueError, match=message):
        linksets.spread(*args, **kwargs)


def test_sibling_inputs_are_validated():
    with pytest.raises(ValueError, match="min_bandwidth_bps must be finite"):
        linksets.bandwidths_for_aba(3, 1e5, float("inf"))
    with pytest.raises(ValueError, match="bandwidth_bps must be a real number"):
        linksets.throughput_vs_ada(2, [0.0, 0.01], min_delay_s=0.005, bandwidth_bps="1e5")
    with pytest.raises(ValueError, match="min_delay_s must be finite"):
        linksets.asymmetry_surface(2, [0.0], [0.0], min_delay_s=float("nan"))
    with pytest.raises(ValueError, match="reference must be finite"):
        linksets.crossover([0, 1, 2], [3, 2, 1], float("nan"))
