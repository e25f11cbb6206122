"""Song et al. Fig. 1 reconstruction: every S1 number and claim, on the committed CSVs."""

import hashlib
import itertools

import numpy as np
import pandas as pd
import pytest

from cmtlab.papers.song import field

# The paper's stated numbers (Song et al. sec. 3 and sec. 5.3), typed here as test targets.
PAPER_MAX_DR = [35.9, 18.4, 33.3, 14.7, 14.8, 4.4, 22.5, 12.5]
PAPER_MAX_RATIO = 8.2
PAPER_AVG_RATIO = 15.1


@pytest.fixture(scope="module")
def rtt():
    return field.load_rtt_samples()


@pytest.fixture(scope="module")
def rates():
    return field.load_data_rates()


@pytest.fixture(scope="module")
def summary(rtt):
    return field.rtt_summary(rtt)


def test_committed_files_have_expected_shape(rtt, rates):
    assert list(rates["modem"].astype(str)) == list(field.MODEMS)
    assert list(rates["link"]) == ["I", "II", "III", "IV", "V", "VI", "VII", "VIII"]
    assert list(rates["technology"]) == ["FDD-LTE"] * 6 + ["TD-LTE"] * 2
    assert rtt.groupby("modem", observed=True).size().eq(field.DEFAULT_N_SAMPLES).all()
    assert rtt["rtt_ms"].notna().all()


def test_max_dr_are_the_papers(rates):
    assert rates["max_dr_mbps"].tolist() == pytest.approx(PAPER_MAX_DR, abs=1e-9)
    assert set(rates["max_dr_source"]) == {"paper (Song et al. sec. 5.3)"}
    assert set(rates["avg_dr_source"]) == {"chosen (reconstruction)"}


def test_max_dr_ratio_is_8_2_ct1_over_cu3(rates):
    r = rates.set_index(rates["modem"].astype(str))["max_dr_mbps"]
    assert r.idxmax() == "CT1" and r.idxmin() == "CU3"
    assert round(r.max() / r.min(), 1) == PAPER_MAX_RATIO


def test_avg_dr_ratio_is_15_1(rates):
    a = rates["avg_dr_mbps"]
    assert round(a.max() / a.min(), 1) == PAPER_AVG_RATIO
    assert (rates["avg_dr_mbps"] < rates["max_dr_mbps"]).all()
    assert (rates["avg_dr_mbps"] > 0).all()


def test_rtt_plausible_for_lte_on_a_train(summary, rtt):
    # tens to a few hundred ms in the body, right-skewed (mean > median) for every modem
    assert summary["median"].between(30, 500).all()
    assert (summary["mean"] > summary["median"]).all()
    assert rtt["rtt_ms"].min() > 10


@pytest.mark.parametrize("high,low", list(itertools.product(["CT1", "CU3", "CM1", "CM2"], ["CT2", "CU1", "CU2"])))
def test_rtt_significantly_higher(summary, high, low):
    # IQRs do not overlap and the high one lies above
    assert summary.loc[high, "q1"] > summary.loc[low, "q3"]


@pytest.mark.parametrize("modem", ["CT1", "CU3", "CM1"])
def test_different_from_all_others(summary, modem):
    for other in field.MODEMS:
        if other == modem:
            continue
        m, o = summary.loc[modem], summary.loc[other]
        assert not (o["q1"] <= m["median"] <= o["q3"]), (modem, other)
        assert not (m["q1"] <= o["median"] <= m["q3"]), (modem, other)


@pytest.mark.parametrize("modem", ["CT2", "CT3", "CU1", "CU2", "CM2"])
def test_only_the_three_are_different(summary, modem):
    # each of the other five shares the median-in-IQR relation with at least one other modem
    assert any(field.differ(summary, modem, o) is False for o in field.MODEMS if o != modem)


def test_check_fig1_claims_all_hold(rtt, rates):
    claims = field.check_fig1_claims(rtt, rates)
    assert len(claims) == 8
    assert claims["holds"].all(), claims[~claims["holds"]].to_string()
    numbers = claims.set_index("claim")["number"]
    assert round(numbers["max_dr_ratio"], 1) == PAPER_MAX_RATIO
    assert round(numbers["avg_dr_ratio"], 1) == PAPER_AVG_RATIO


def test_check_fig1_claims_can_fail(rtt, rates):
    # move CT1 into the low group: the significance and difference claims must fail
    bad = rtt.copy()
    sel = bad["modem"] == "CT1"
    bad.loc[sel, "rtt_ms"] = bad.loc[bad["modem"] == "CU1", "rtt_ms"].to_numpy()
    bad_rates = rates.copy()
    bad_rates.loc[bad_rates["modem"] == "CU3", "avg_dr_mbps"] = 2.0
    claims = field.check_fig1_claims(bad, bad_rates).set_index("claim")["holds"]
    assert not claims["rtt_significantly_higher"]
    assert not claims["rtt_different_from_others"]
    assert not claims["avg_dr_ratio"]
    assert claims["max_dr_ratio"]


def test_generator_reproduces_committed_csvs_byte_for_byte(tmp_path):
    paths = field.write_reconstruction(tmp_path)
    for name, path in paths.items():
        assert path.read_bytes() == (field.DATA_DIR / name).read_bytes(), name


def test_datasheet_lists_the_committed_sha256():
    readme = (field.DATA_DIR / "README.md").read_text()
    for name in (field.RTT_FILE, field.RATES_FILE):
        digest = hashlib.sha256((field.DATA_DIR / name).read_bytes()).hexdigest()
        assert digest in readme, name


def test_generator_is_seeded():
    a, _ = field.generate_reconstruction(seed=1, n_samples_per_modem=300)
    b, _ = field.generate_reconstruction(seed=1, n_samples_per_modem=300)
    c, _ = field.generate_reconstruction(seed=2, n_samples_per_modem=300)
    pd.testing.assert_frame_equal(a, b)
    assert not np.array_equal(a["rtt_ms"], c["rtt_ms"])


@pytest.mark.parametrize("seed", range(10))
def test_claims_hold_for_other_seeds(seed):
    claims = field.check_fig1_claims(*field.generate_reconstruction(seed=seed))
    assert claims["holds"].all(), claims[~claims["holds"]].to_string()


@pytest.mark.parametrize("kwargs,name", [
    (dict(n_samples_per_modem=10), "n_samples_per_modem"),
    (dict(n_samples_per_modem=field.MIN_N_SAMPLES - 1), "n_samples_per_modem"),
    (dict(n_samples_per_modem=500.0), "n_samples_per_modem"),
    (dict(seed=-1), "seed"),
    (dict(seed=1.5), "seed"),
    (dict(seed="42"), "seed"),
])
def test_invalid_input_names_the_parameter(kwargs, name):
    with pytest.raises(ValueError, match=name):
        field.generate_reconstruction(**kwargs)


def test_loader_accepts_explicit_path_and_reports_missing(tmp_path):
    paths = field.write_reconstruction(tmp_path, seed=3, n_samples_per_modem=200)
    assert len(field.load_rtt_samples(tmp_path)) == 8 * 200
    assert len(field.load_data_rates(paths[field.RATES_FILE])) == 8
    with pytest.raises(FileNotFoundError, match="generate.py"):
        field.load_rtt_samples(tmp_path / "nowhere")
