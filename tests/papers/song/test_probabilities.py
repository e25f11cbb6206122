"""Song eqs. 4–13 against an independent Monte-Carlo of random arrival orders."""

import numpy as np
import pytest

from cmtlab.papers.song import ack_pmf, case2_pmf, expected_acked, montecarlo, probabilities

N_MC = 200_000


def _within_mc(exact, empirical, n, sigmas=5.0):
    """|exact - empirical| within `sigmas` binomial standard errors (plus a floor)."""
    se = np.sqrt(np.clip(exact * (1 - exact), 1e-12, None) / max(n, 1))
    return np.abs(exact - empirical) <= sigmas * se + 1e-3


@pytest.mark.parametrize("C", range(1, 31))
@pytest.mark.parametrize("m_ack", [1, 2, 3, 5])
def test_exact_pmfs_are_distributions(C, m_ack):
    p1, p2 = ack_pmf(C, m_ack)
    assert p1.shape == p2.shape == (C,)
    assert np.all(p1 >= 0) and np.all(p2 >= 0)
    assert p1.sum() == pytest.approx(1.0, abs=1e-12)
    assert p2.sum() == pytest.approx(1.0, abs=1e-12)
    # A = min(m, m_ack) can never exceed m_ack (case I)
    assert np.all(p1[m_ack:] == 0)


@pytest.mark.parametrize("C", [2, 3, 4, 5, 7, 10])
@pytest.mark.parametrize("m_ack", [1, 2, 3])
def test_closed_forms_match_monte_carlo(C, m_ack):
    p1, p2 = ack_pmf(C, m_ack)
    mc = montecarlo.empirical_pmfs(C, m_ack, n_samples=N_MC, seed=C * 10 + m_ack)
    assert mc["P_F"] == pytest.approx(1 / C, abs=5 * np.sqrt((1 / C) * (1 - 1 / C) / N_MC) + 1e-3)  # eq. 4
    assert np.all(_within_mc(p1, mc["case1"], mc["n_case1"]))  # eqs. 5–6
    assert np.all(_within_mc(p2, mc["case2"], mc["n_case2"]))  # eq. 9 (exact)
    e = expected_acked(C, m_ack)
    assert e["E1"] == pytest.approx(mc["E1"], abs=0.02 * C)  # eq. 8
    assert e["E2"] == pytest.approx(mc["E2"], abs=0.02 * C)  # eq. 11 (exact)
    assert e["E"] == pytest.approx(mc["E"], abs=0.02 * C)  # eq. 13


@pytest.mark.parametrize("C", [3, 4, 5, 6, 8, 12])
def test_printed_eq9_fails_monte_carlo(C):
    """The erratum is real: printed eq. 9 loses the mass at k = C-1 (and more for C >= 6)."""
    printed = case2_pmf(C, "as_printed")
    exact = case2_pmf(C, "exact")
    mc = montecarlo.empirical_pmfs(C, 2, n_samples=N_MC, seed=C)
    assert printed[C - 2] == 0.0 and mc["case2"][C - 2] > 0.5 / (C - 1) ** 2  # exact: 1/(C-1)^2
    assert not np.all(_within_mc(printed, mc["case2"], mc["n_case2"]))
    if C <= 5:  # the printed sum is exactly 1 - 1/(C-1)^2 and the other branches agree
        assert printed.sum() == pytest.approx(1 - 1 / (C - 1) ** 2)
        mask = np.arange(1, C + 1) != C - 1
        assert np.allclose(printed[mask], exact[mask])
    else:
        assert printed.sum() < 1 - 1 / (C - 1) ** 2 - 1e-6


@pytest.mark.parametrize("C", [2, 3, 4, 9])
def test_printed_case1_equals_exact(C):
    """Eqs. 5–6 as printed are correct wherever they are defined (C >= m_ack)."""
    for m_ack in range(1, C + 1):
        assert np.allclose(ack_pmf(C, m_ack, "as_printed")[0], ack_pmf(C, m_ack, "exact")[0])


def test_small_c_edge_cases():
    # C = 1: a single segment, acknowledged alone
    p1, p2 = ack_pmf(1, 2)
    assert p1.tolist() == [1.0] and p2.tolist() == [1.0]
    # C = 2 with delayed ACK: both segments are always acknowledged together
    p1, p2 = ack_pmf(2, 2)
    assert p1.tolist() == [0.0, 1.0] and p2.tolist() == [0.0, 1.0]
    # C < m_ack: A = m can never reach m_ack
    p1, _ = ack_pmf(3, 5)
    assert p1.tolist() == pytest.approx([0.5, 0.0, 0.5])


@pytest.mark.parametrize("C", [2, 3, 6])
def test_round_time_eq12_matches_monte_carlo(C):
    rng = np.random.default_rng(C)
    D = np.sort(rng.uniform(0.01, 0.2, size=C))[rng.permutation(C)]
    EA, W = probabilities.moment_table(C, 2, "exact")
    closed = float(W[C, : min(2, C)] @ D[: min(2, C)])
    mc = montecarlo.mean_round_time(C, D, 2, n_samples=N_MC, seed=C)
    assert closed == pytest.approx(mc, rel=0.01)


def test_large_c_no_overflow():
    p1, p2 = ack_pmf(400, 2)
    assert np.isfinite(p1).all() and np.isfinite(p2).all()
    assert p2.sum() == pytest.approx(1.0)


@pytest.mark.parametrize("kwargs, name", [
    (dict(C=0), "C"), (dict(C=2.5), "C"), (dict(C=3, m_ack=0), "m_ack"),
    (dict(C=3, variant="printed"), "variant"),
])
def test_invalid_input_names_parameter(kwargs, name):
    with pytest.raises(ValueError, match=name):
        ack_pmf(**kwargs)


def test_pmf_check_marks_impossible_case_and_flags_printed_eq9():
    from cmtlab.papers.song import checks
    df = checks.pmf_check([1, 4], n_samples=20_000, seed=1)
    impossible = df[(df.C == 1) & (df.distribution.str.startswith("case II"))]
    assert impossible.agrees.isna().all() and (impossible.mc_rounds == 0).all()
    c4 = df[df.C == 4].set_index(["distribution", "variant"]).agrees
    assert bool(c4[("case II, eq. 9", "exact")]) and not bool(c4[("case II, eq. 9", "as_printed")])


def test_model_can_exceed_link_capacity_on_slow_short_links():
    """A documented limit of the model (errata page): only the ACK-triggering segments' serialisation
    is charged, so a 100 kbit/s, 5 ms link is predicted above its capacity, a fast long one far below."""
    from cmtlab.papers.song import checks
    cap = checks.capacity_ratio([100e3, 35.9e6], [0.005, 0.2]).set_index(["bandwidth_kbps", "delay_ms"]).ratio
    assert cap[(100.0, 5.0)] > 1.0
    assert cap[(35900.0, 200.0)] < 0.01


def _printed_eq9_literal(C: int) -> list:
    """Eq. 9 as printed, term by term in exact rational arithmetic (reference for small C)."""
    from fractions import Fraction
    from math import factorial

    middle = [Fraction((C - k - 1) * sum(Fraction(factorial(l - 2), factorial(l - k - 1)) * (C - l + 1)
                                         for l in range(k + 1, C + 1)), factorial(C) - factorial(C - 1))
              for k in range(2, C)]
    return [Fraction(C - 2, 2 * (C - 1))] + middle + [Fraction(1, C - 1)]


@pytest.mark.parametrize("C", [2, 3, 4, 5, 6, 7, 10, 17, 25])
def test_printed_eq9_closed_form_equals_the_printed_sum(C):
    literal = np.array([float(x) for x in _printed_eq9_literal(C)])
    assert np.allclose(case2_pmf(C, "as_printed"), literal, rtol=1e-13, atol=0)


def test_printed_eq9_for_a_large_window_is_computed_not_hung():
    """ack_pmf(20000, variant='as_printed') summed O(C²) terms in Python (minutes); now O(C)."""
    from math import factorial

    C = 20_000
    p1, p2 = ack_pmf(C, 2, "as_printed")
    exact = case2_pmf(C, "exact")
    assert np.isfinite(p1).all() and np.isfinite(p2).all() and (p2 >= 0).all()
    assert p2[C - 2] == 0.0 and p2[[0, C - 1]].tolist() == exact[[0, C - 1]].tolist()
    k = np.arange(2, 8)  # printed = exact / (C-k-2)!: far below it, 0 beyond float range
    assert np.all(p2[k - 1] < exact[k - 1] * 1e-300)
    for j in (3, 4, 5, 6):  # k = C - j: exact divided by (j-2)!
        assert p2[C - j - 1] == pytest.approx(exact[C - j - 1] / factorial(j - 2), rel=1e-12)
    assert 0.49 < p2.sum() < 0.51


@pytest.mark.parametrize("call, name", [
    (lambda: ack_pmf(10**7), "C must be <= 1000000"),
    (lambda: ack_pmf(3, 10**6), "m_ack must be <= 64"),
    (lambda: case2_pmf(float("nan")), "C must be an integer"),
    (lambda: ack_pmf(True), "C must be an integer"),
])
def test_window_and_mack_bounds_are_explicit(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_model_bounds_name_the_parameter():
    from cmtlab.papers import song
    from cmtlab.papers.song.probabilities import MAX_TABLE_SEGMENTS, moment_table

    with pytest.raises(ValueError, match=f"c_max must be <= {MAX_TABLE_SEGMENTS}"):
        moment_table(10**6)
    with pytest.raises(ValueError, match="initial_window_bytes must be <="):
        song.throughput([1e6], [0.01], initial_window_bytes=536 * 10**6)
    with pytest.raises(ValueError, match=r"C must be in \[1, "):
        song.ack_function(float(MAX_TABLE_SEGMENTS))


def _eq9_printed_exactly(C: int, k: int):
    """The printed eq. 9 term by term, in exact rational arithmetic (its sum over l as printed)."""
    from fractions import Fraction
    from math import factorial as f

    if k == 1:
        return Fraction((C - 2) * f(C - 1), 2 * f(C) - 2 * f(C - 1))
    if k == C:
        return Fraction(f(C - 1), f(C) - f(C - 1))
    inner = sum(Fraction(f(l - 2), f(l - k - 1)) * (C - l + 1) for l in range(k + 1, C + 1))
    return (C - k - 1) * inner / (f(C) - f(C - 1))


def _eq9_exact_rational(C: int, k: int):
    from fractions import Fraction

    if k == 1:
        return Fraction(C - 2, 2 * (C - 1))
    if k == C:
        return Fraction(1, C - 1)
    return Fraction(C, (C - 1) * k * (k + 1))


def test_printed_eq9_defects_by_c():
    """What the errata page says of the printed eq. 9, in exact arithmetic: the middle branch agrees with the
    exact form at k = C-3 and k = C-2 and nowhere else in 1 < k < C (every C >= 5; at C = 4 only k = 2 is
    middle); the k = C-1 term is missing; for C <= 5 that is the only defect (sum 1 - 1/(C-1)^2), from C = 6 on
    the branch is too small at every 1 < k < C-3 and the sum falls with C.  The library's printed form
    (floating point, through a closed form of the inner sum) equals the term-by-term evaluation."""
    from fractions import Fraction

    import numpy as np

    from cmtlab.papers.song import probabilities as pr

    sums = {}
    for C in range(3, 13):
        printed_q = [_eq9_printed_exactly(C, k) for k in range(1, C + 1)]
        exact_q = [_eq9_exact_rational(C, k) for k in range(1, C + 1)]
        agree = [k for k in range(2, C) if printed_q[k - 1] == exact_q[k - 1]]
        assert agree == [k for k in (C - 3, C - 2) if k > 1], (C, agree)
        assert printed_q[C - 2] == 0 and exact_q[C - 2] > 0                          # q = C-1 missing
        assert all(printed_q[k - 1] < exact_q[k - 1] for k in range(2, C - 3))    # too small below C-3
        assert sum(exact_q) == 1
        printed, exact = pr.case2_pmf(C, "as_printed"), pr.case2_pmf(C, "exact")
        assert np.allclose(printed, [float(x) for x in printed_q], rtol=1e-12, atol=0)
        assert np.allclose(exact, [float(x) for x in exact_q], rtol=1e-12, atol=0)
        sums[C] = sum(printed_q)
        if C <= 5:
            assert sums[C] == 1 - Fraction(1, (C - 1) ** 2)
        else:
            assert sums[C] < 1 - Fraction(1, (C - 1) ** 2) - Fraction(1, 20)
    assert all(sums[C + 1] < sums[C] for C in range(6, 12))
