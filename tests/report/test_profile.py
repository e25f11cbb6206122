"""cmtlab.report.profile: profiles and list-valued notebook parameters as papermill passes them."""

import pytest

from cmtlab.report import profile as config
from cmtlab.report.parameters import parameter_list


@pytest.mark.parametrize("value, expected", [
    ([1, 2], [1, 2]), ((2,), [2]), ("[2]", [2]), ("[1, 2]", [1, 2]), ('["lia","uncoupled"]', ["lia", "uncoupled"]),
    ("['rfc']", ["rfc"]), ("lia,uncoupled", ["lia", "uncoupled"]), ("[lia, uncoupled]", ["lia", "uncoupled"]),
    (2, [2]), ("rfc", ["rfc"]), ("1,2", [1, 2]),
])
def test_parameter_list_accepts_what_papermill_injects(value, expected):
    assert parameter_list("scenarios", value) == expected


@pytest.mark.parametrize("value", ["[]", [], None, True, {"a": 1}])
def test_parameter_list_rejects_empty_and_non_lists(value):
    with pytest.raises(ValueError, match="scenarios"):
        parameter_list("scenarios", value)


def test_choose_follows_the_profile(monkeypatch):
    monkeypatch.setenv(config.ENV_VAR, "quick")
    assert config.choose(full=10, quick=2) == 2
    monkeypatch.setenv(config.ENV_VAR, "full")
    assert config.choose(full=10, quick=2) == 10
    monkeypatch.setenv(config.ENV_VAR, "fast")
    with pytest.raises(ValueError, match=config.ENV_VAR):
        config.profile()


def test_using_sets_the_profile_for_a_block_and_restores_it(monkeypatch):
    monkeypatch.setenv(config.ENV_VAR, "full")
    with config.using("quick") as name:
        assert name == "quick" and config.profile() == "quick" and config.choose(full=10, quick=2) == 2
        with config.using("full"):
            assert config.profile() == "full"
        assert config.profile() == "quick"
    assert config.profile() == "full"
    with pytest.raises(ValueError, match="profile must be one of"):
        with config.using("fast"):
            pass
    with pytest.raises(RuntimeError):
        with config.using("quick"):
            raise RuntimeError("the block failed")
    assert config.profile() == "full"
    import os
    assert os.environ[config.ENV_VAR] == "full"   # the environment is never written
