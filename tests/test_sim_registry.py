"""cmtlab.sim.registry: names in a scenario map to mechanism classes; bad names are clear errors."""

import pytest

from cmtlab.sim import registry
from cmtlab.sim.congestion import CongestionControl, NewReno
from cmtlab.sim.recovery import PrrRecovery


def test_builtin_names_resolve_to_their_classes():
    assert isinstance(registry.make("congestion", "newreno"), NewReno)
    prr = registry.make("recovery", "prr", ns3_344_overflow=False)
    assert isinstance(prr, PrrRecovery) and prr.ns3_344_overflow is False
    assert "none" in registry.names("reordering")


def test_unknown_kind_name_or_parameter_is_a_value_error_naming_it():
    with pytest.raises(ValueError, match=r"congestion must be one of .*'newreno'.*got 'nope'"):
        registry.make("congestion", "nope")
    with pytest.raises(ValueError, match="mechanism kind must be one of"):
        registry.names("colour")
    with pytest.raises(ValueError, match="recovery 'prr': invalid parameters"):
        registry.make("recovery", "prr", speed=3)


def test_a_name_cannot_be_taken_twice_by_different_classes():
    class Other(CongestionControl):
        def increase_window(self, sub, segments_acked):
            pass

        def ssthresh(self, sub, bytes_in_flight):
            return 0

    with pytest.raises(ValueError, match="already registered"):
        registry.register("congestion", "newreno")(Other)
