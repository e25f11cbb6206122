"""cmtlab.config: profiles and list-valued notebook parameters as papermill passes them."""

import pytest

from cmtlab import config


@pytest.mark.parametrize("value, expected", [
    ([1, 2], [1, 2]), ((2,), [2]), ("[2]", [2]), ("[1, 2]", [1, 2]), ('["lia","uncoupled"]', ["lia", "uncoupled"]),
    ("['rfc']", ["rfc"]), ("lia,uncoupled", ["lia", "uncoupled"]), ("[lia, uncoupled]", ["lia", "uncoupled"]),
    (2, [2]), ("rfc", ["rfc"]), ("1,2", [1, 2]),
])
def test_parameter_list_accepts_what_papermill_injects(value, expected):
    assert config.parameter_list("scenarios", value) == expected


@pytest.mark.parametrize("value", ["[]", [], None, True, {"a": 1}])
def test_parameter_list_rejects_empty_and_non_lists(value):
    with pytest.raises(ValueError, match="scenarios"):
        config.parameter_list("scenarios", value)


def test_choose_follows_the_profile(monkeypatch):
    monkeypatch.setenv(config.ENV_VAR, "quick")
    assert config.choose(full=10, quick=2) == 2
    monkeypatch.setenv(config.ENV_VAR, "full")
    assert config.choose(full=10, quick=2) == 10
    monkeypatch.setenv(config.ENV_VAR, "fast")
    with pytest.raises(ValueError, match=config.ENV_VAR):
        config.profile()
