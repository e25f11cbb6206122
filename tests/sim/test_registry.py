"""cmtlab.sim.registry: names in a scenario map to mechanism classes; bad names are clear errors."""

import pytest

from cmtlab.sim import registry
from cmtlab.sim.mechanisms.congestion import CongestionControl, NewReno
from cmtlab.sim.mechanisms.recovery import PrrRecovery


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


def test_the_simulator_imports_no_paper_package_and_plugins_register_themselves():
    """cmtlab.sim never imports a paper package; a plug-in (OSIA's scheduler, cmtlab.papers.osia) registers
    itself when its package is imported — also when a scenario names it first (the registry's
    PLUGIN_PACKAGES), as in a sweep's fresh worker process."""
    import subprocess
    import sys

    code = ("import sys, cmtlab.sim as s; "
            "assert not [m for m in sys.modules if m.startswith(('cmtlab.papers.osia', 'cmtlab.papers.song', 'cmtlab.papers.alheid', "
            "'cmtlab.papers.arabi'))], sorted(m for m in sys.modules if m.startswith('cmtlab.')); "
            "r = s.simulate_mptcp([2e6, 1e6], [0.04, 0.08], transfer_bytes=30000, scheduler='osia'); "
            "assert r.completed and 'cmtlab.papers.osia.scheduler' in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_registry_imports_no_mechanism_module():
    import ast
    from pathlib import Path

    from cmtlab.sim import registry as reg

    tree = ast.parse(Path(reg.__file__).read_text())
    imported = [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert all(isinstance(n, ast.ImportFrom) and n.module == "__future__" or isinstance(n, ast.Import)
               and all(a.name in ("importlib",) for a in n.names) or isinstance(n, ast.ImportFrom)
               and n.module == "typing" for n in imported), [ast.dump(n) for n in imported]
