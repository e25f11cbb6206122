"""Code versions cover a simulator's whole import closure, so the sweep cache cannot serve results of old code.

The defect this guards against: the ``"cmtlab"`` simulator's version hashed ``sim/``,
``scenario.py`` and ``_validate.py`` only, while its OSIA scheduler imports
``cmtlab/papers/osia/model.py`` and ``timeline.py`` — editing those left the version unchanged and
:func:`run_sweep` served results computed by the old code.
"""

import hashlib
import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import cmtlab
from cmtlab import sweep
from cmtlab.sweep import closure_version, import_closure

LIB = Path(cmtlab.__file__).resolve().parent.parent


def copy_library(dest: Path) -> Path:
    """A copy of the ``cmtlab`` package under ``dest`` (no bytecode caches)."""
    shutil.copytree(LIB / "cmtlab", dest / "cmtlab", ignore=shutil.ignore_patterns("__pycache__", "bin", "*.so"))
    return dest


def run_python(code: str, pythonpath, env_extra=None) -> str:
    env = {**os.environ, "PYTHONPATH": str(pythonpath), "CMTLAB_PROGRESS": "0", **(env_extra or {})}
    env.pop("CMTLAB_DASK_SCHEDULER", None)
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, env=env,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


# What the simulator really loads: import every module of cmtlab.sim, then run it with every
# registered mechanism a small scenario can name, in a fresh interpreter.
LOADED_BY_THE_SIMULATOR = """
    import importlib, json, pkgutil, sys
    import cmtlab.sim as sim
    for info in pkgutil.walk_packages(sim.__path__, "cmtlab.sim."):
        importlib.import_module(info.name)
    rates, rtts = [1e6, 2e6], [0.02, 0.06]
    for reordering in ("none", "dsack", "eifel", "frto", "pr-r", "tcp-door"):
        try:
            sim.simulate_striped(rates, rtts, transfer_bytes=20_000, reordering=reordering)
        except ValueError:
            pass  # a response that needs other options: importing it is what counts
    links = ("pareto_cross_traffic", {"mean_load": 0.25, "ber": True, "ber_mean": 2e-5, "ber_low": 1e-5,
                                      "ber_high": 1e-3, "ber_period_s": 0.1})
    for scheduler in ("round_robin", "lowest_rtt", "edpf", "cwnd_aware", "flow_level", "osia"):
        for congestion in ("newreno", "lia", "olia"):
            try:
                sim.simulate_mptcp(rates, rtts, transfer_bytes=20_000, scheduler=scheduler, congestion=congestion,
                                   links=links, segment_bytes=1000, initial_window_bytes=1000)
            except ValueError:
                pass
    print(json.dumps({m: getattr(mod, "__file__", None) for m, mod in sys.modules.items()
                      if m == "cmtlab" or m.startswith("cmtlab.")}))
"""


def test_closure_holds_every_module_the_simulator_loads():
    loaded = json.loads(run_python(LOADED_BY_THE_SIMULATOR, LIB).strip().splitlines()[-1])
    # (a module loaded from its compiled copy keeps its .py source as __file__: cmtlab.compiled)
    closure = import_closure("cmtlab.sim")
    closure_files = {Path(f).resolve() for f in closure.values()}
    missing = {m: f for m, f in loaded.items()
               if f and Path(f).resolve() not in closure_files and not m.startswith(sweep.versions.HARNESS_PACKAGES)}
    assert not missing, f"modules the simulator loads but its code version does not hash: {sorted(missing)}"
    # the defect of issue: the OSIA scheduler's planner, outside sim/, is covered whenever it is loaded
    for name in ("cmtlab.papers.osia.model", "cmtlab.papers.osia.timeline"):
        if name in loaded:
            assert name in closure


def test_presentation_code_is_outside_the_simulator_version():
    """The chapters' tables and figures (cmtlab.report, cmtlab.report.style, cmtlab.papers.osia.figures) are neither loaded by
    the simulator nor hashed into its version: editing them keeps every cached simulation (the OSIA plug-in's package
    imports its checks, experiments and figures on demand)."""
    loaded = json.loads(run_python(LOADED_BY_THE_SIMULATOR, LIB).strip().splitlines()[-1])
    closure = import_closure("cmtlab.sim")
    assert "cmtlab.papers.osia.scheduler" in loaded and "cmtlab.papers.osia.scheduler" in closure   # the plug-in ran
    for name in ("cmtlab.report", "cmtlab.report.style", "cmtlab.papers.osia.figures", "cmtlab.papers.osia.checks",
                 "cmtlab.papers.osia.experiments"):
        assert name not in loaded and name not in closure, name


def test_registered_simulator_version_is_its_closure():
    sim = sweep.get_simulator("cmtlab")
    import cmtlab.sim

    # one mechanism: no version of the simulator's own, the closure with the data files it declares
    assert getattr(cmtlab.sim, "CODE_VERSION", None) is None
    data = tuple(f"data:{p.name}:{hashlib.sha256(p.read_bytes()).hexdigest()}" for p in cmtlab.sim.CODE_DATA_FILES)
    assert sim.code_version == closure_version("cmtlab.sim", extra=data) != closure_version("cmtlab.sim")


def test_a_changed_byte_in_any_closure_file_changes_the_version(tmp_path):
    root = copy_library(tmp_path / "a")
    closure = import_closure("cmtlab.sim", path=[root])
    assert all(Path(f).is_relative_to(root) for f in closure.values())
    base = closure_version("cmtlab.sim", path=[root])
    # content, not location: the copy has the live library's version, and so does a copy elsewhere
    assert base == closure_version("cmtlab.sim")
    assert closure_version("cmtlab.sim", path=[copy_library(tmp_path / "b")]) == base
    for name, f in closure.items():
        original = f.read_bytes()
        f.write_bytes(original + b"\n# edited\n")
        try:
            assert closure_version("cmtlab.sim", path=[root]) != base, f"editing {name} left the version unchanged"
        finally:
            f.write_bytes(original)
    assert closure_version("cmtlab.sim", path=[root]) == base
    # a module's .pxd (the C types of its compiled copy, cmtlab.compiled) counts with it
    pxd = root / "cmtlab" / "sim" / "net" / "link.pxd"
    original = pxd.read_bytes()
    pxd.write_bytes(original + b"\n# edited\n")
    assert closure_version("cmtlab.sim", path=[root]) != base, "editing link.pxd left the version unchanged"
    pxd.write_bytes(original)
    assert closure_version("cmtlab.sim", path=[root]) == base
    # files outside the closure do not count: the sweep harness itself, and a module nothing imports
    harness = root / "cmtlab" / "sweep" / "api.py"
    harness.write_bytes(harness.read_bytes() + b"\n# edited\n")
    (root / "cmtlab" / "unused_helper.py").write_text("X = 1\n")
    assert closure_version("cmtlab.sim", path=[root]) == base
    # a new module that the simulator imports does count
    (root / "cmtlab" / "sim" / "new_mechanism.py").write_text("Y = 2\n")
    assert closure_version("cmtlab.sim", path=[root]) != base


def test_closure_follows_function_level_relative_and_literal_imports(tmp_path):
    pkg = tmp_path / "toy"
    (pkg / "engine").mkdir(parents=True)
    (tmp_path / "elsewhere").mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "engine" / "__init__.py").write_text("from .loop import run\nPLUGINS = {'fast': 'toy.plugins.fast'}\n")
    (pkg / "plugins").mkdir()
    (pkg / "plugins" / "__init__.py").write_text("")
    (pkg / "plugins" / "fast.py").write_text("")
    (pkg / "engine" / "loop.py").write_text(
        "def run():\n    from ..plans import planner\n    import importlib\n"
        "    return importlib.import_module('toy.late')\n")
    (pkg / "plans.py").write_text("from toy.maths import f as planner\n")
    (pkg / "maths.py").write_text("def f():\n    pass\n")
    (pkg / "late.py").write_text("")
    (pkg / "unrelated.py").write_text("")
    got = import_closure("toy.engine", path=[tmp_path])
    assert set(got) == {"toy", "toy.engine", "toy.engine.loop", "toy.plans", "toy.maths", "toy.late", "toy.plugins",
                        "toy.plugins.fast"}
    with pytest.raises(ValueError, match="module"):
        import_closure("toy.nothing_here", path=[tmp_path])
    with pytest.raises(ValueError, match="module"):
        import_closure("not a name")


def test_editing_a_module_outside_sim_reruns_instead_of_serving_old_results(tmp_path):
    """The stale-cache defect end to end: a sweep, an edit of the OSIA planner, the same sweep again."""
    root = copy_library(tmp_path / "lib")
    if "cmtlab.papers.osia.timeline" not in import_closure("cmtlab.sim", path=[root]):
        pytest.skip("the simulator no longer imports cmtlab.papers.osia (nothing of it can go stale)")
    code = """
        import json
        from cmtlab.sim.mptcp.scenario import mptcp_scenario
        from cmtlab.sweep import run_sweep
        sc = mptcp_scenario([1e6, 2e6], [0.1, 0.4], transfer_bytes=30_000, scheduler="osia",
                            scheduler_params={"period_s": 1.0}, congestion="newreno", segment_bytes=1000,
                            initial_window_bytes=1000)
        t = run_sweep("cmtlab", [sc], workers=1, progress=False)
        print(json.dumps(t.attrs["sweep"]))
    """
    env = {"CMTLAB_CACHE_DIR": str(tmp_path / "cache")}
    first = json.loads(run_python(code, root, env).strip().splitlines()[-1])
    again = json.loads(run_python(code, root, env).strip().splitlines()[-1])
    assert (first["simulated"], again["cached"], again["code_version"]) == (1, 1, first["code_version"])
    timeline = root / "cmtlab" / "papers" / "osia" / "timeline.py"
    timeline.write_text(timeline.read_text() + "\n# a change to the planner\n")
    after = json.loads(run_python(code, root, env).strip().splitlines()[-1])
    assert after["code_version"] != first["code_version"]
    assert (after["simulated"], after["cached"]) == (1, 0)
