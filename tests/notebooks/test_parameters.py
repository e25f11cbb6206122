"""Every notebook validates its parameters in its first code cell after ``parameters`` (issue 22).

* structure: the cell right after the ``parameters`` cell calls ``validate_parameters(<its spec>, globals())``
  with its own spec, declared beside its chapter's code (``cmtlab.papers.<paper>.parameters``,
  :mod:`cmtlab.validation.parameters`, :mod:`cmtlab.today.parameters`) under the notebook's name, and the spec
  names exactly the parameters the cell assigns;
* the defaults of both profiles pass; bad values fail naming the parameter and its range;
* under papermill (``-k python3``, quick profile) one bad parameter per notebook fails in that
  validation cell — the notebooks themselves are run, papermill stops at the first error, so
  nothing after the validation cell executes (about 2 s per notebook: a kernel start).
"""

from __future__ import annotations

import ast
import os
from pathlib import Path

import nbformat
import pytest

from cmtlab._paths import REPO as ROOT
from cmtlab.papers.alheid import parameters as alheid
from cmtlab.papers.arabi import parameters as arabi
from cmtlab.papers.osia import parameters as osia
from cmtlab.papers.song import parameters as song
from cmtlab.report import profile
from cmtlab.report.parameters import NotebookSpec, validate_parameters
from cmtlab.today import parameters as today
from cmtlab.validation import parameters as validation

#: The chapters' parameter modules (module, the prefix of its notebooks' names; "" for the validation chapters).
MODULES = ((song, "song-"), (osia, "osia-"), (arabi, "arabi-"), (alheid, "alheid-"), (validation, ""), (today, ""))
SPECS = {name: spec for module, _ in MODULES for name, spec in module.SPECS.items()}
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
NAMES = [p.stem for p in NOTEBOOKS]


def _declared(name: str) -> tuple:
    """(module, constant) of notebook ``name``'s spec."""
    for module, _ in MODULES:
        for const, value in vars(module).items():
            if isinstance(value, NotebookSpec) and value.notebook == name:
                return module, const
    raise LookupError(name)


def _cells(path: Path):
    nb = nbformat.read(path, as_version=4)
    i = [k for k, c in enumerate(nb.cells) if "parameters" in c.metadata.get("tags", [])]
    assert len(i) == 1, f"{path.name}: one cell tagged 'parameters' expected, found {len(i)}"
    return nb, i[0]


def _defaults(name: str, profile_name: str, monkeypatch) -> dict:
    nb, i = _cells(ROOT / "notebooks" / f"{name}.ipynb")
    monkeypatch.setenv(profile.ENV_VAR, profile_name)
    ns: dict = {}
    exec(nb.cells[i].source, ns)
    ns.pop("__builtins__", None)
    return ns


def test_every_notebook_has_a_spec():
    assert sorted(SPECS) == NAMES
    assert sum(len(module.SPECS) for module, _ in MODULES) == len(NAMES)   # one spec per notebook, no two


#: Where a notebook's spec is declared: its paper's package, or validation/ (the simulator's validation chapters and
#: the Wi-Fi model's check against ns-3), or today/.
def _expected_module(name: str):
    if name == "alheid-wifi-model-check":
        return validation
    for module, prefix in MODULES:
        if prefix and name.startswith(prefix):
            return module
    return today if name.startswith("today-") else validation


@pytest.mark.parametrize("name", NAMES)
def test_the_spec_lives_beside_its_chapter_and_is_named_after_its_notebook(name):
    module, const = _declared(name)
    assert module is _expected_module(name)
    prefix = dict((m.__name__, p) for m, p in MODULES)[module.__name__]
    assert const == name[len(prefix):].replace("-", "_").upper()
    assert module.SPECS[name] is getattr(module, const)


@pytest.mark.parametrize("name", NAMES)
def test_validation_cell_follows_the_parameters_cell(name):
    nb, i = _cells(ROOT / "notebooks" / f"{name}.ipynb")
    params = nb.cells[i]
    assigned = [t.id for node in ast.parse(params.source).body if isinstance(node, ast.Assign)
                for t in node.targets if isinstance(t, ast.Name)]
    assert sorted(assigned) == sorted(SPECS[name].params), "the spec must name exactly the parameters of the cell"
    nxt = nb.cells[i + 1]
    assert nxt.cell_type == "code" and "validate-parameters" in nxt.metadata.get("tags", [])
    module, const = _declared(name)
    assert f"from {module.__name__} import {const}\n" in nxt.source
    assert f"validate_parameters({const}, globals())" in nxt.source
    # the validation cell does no work of its own: nothing computed before the values are checked
    assert all(c.cell_type != "code" for c in nb.cells[:i])


@pytest.mark.parametrize("profile", ["full", "quick"])
@pytest.mark.parametrize("name", NAMES)
def test_defaults_are_valid(name, profile, monkeypatch):
    ns = _defaults(name, profile, monkeypatch)
    validate_parameters(SPECS[name], ns)


#: One or more bad values per notebook: (parameter, value, what the message must say).
BAD = {
    "alheid-fig4-table3-distance": [("n_seeds", 0, "n_seeds must be an integer in [1, 10000]"),
                                    ("table_distances_m", [55], "table_distances_m must be one of distances_m"),
                                    ("preset", "nosuch", "preset must be one of 'paper'")],
    "alheid-fig5-table4-pdr": [("pdrs", [0.001, 1.5], "pdrs[1] must be a finite number in [0, 1)"),
                               ("pdrs", [0.001, 0.009], "pdrs must include 0.0"),
                               ("n_seeds", 0, "n_seeds must be an integer in [1, 10000]")],
    "alheid-fig6-cwnd": [("preset", "nosuch", "preset must be one of"), ("rfc_panel", "yes", "rfc_panel must be True or False")],
    "alheid-table1-mptcp-gain": [("meanings", "['rtt', 'two_way']", "meanings[1] must be one of 'rtt', 'one_way'"),
                                 ("kernel_chapter", "../etc/passwd", "kernel_chapter must be a notebook file name")],
    "alheid-wifi-model-check": [("payload_bytes", -1, "payload_bytes must be an integer in [1, 2200]"),
                                ("live_check_distance_m", 15.0, "live_check_distance_m must be one of distances_m")],
    "arabi-figs8-9-reordering-algorithms": [("scenarios", "[3]", "scenarios[0] must be one of 1, 2"),
                                            ("workers", 0, "workers must be an integer in [1, 256]")],
    "cmtlab-vs-ns3-validation": [("loss_rates", "[0, 1.0]", "loss_rates[1] must be a finite number in [0, 1)"),
                                 ("presets", "nosuch", "presets[0] must be one of")],
    "linux-mptcp-validation": [("warmup_s", 50.0, "warmup_s must be < duration_s"),
                               ("congestions", "['reno', 'no such']", "congestions[1] must be a kernel congestion"),
                               ("sim_options", "[1]", "sim_options must be a dict")],
    "today-transport": [("seeds", 0, "seeds must be an integer in [1, 10000]"),
                        ("axes", ["recovery", "nosuch"], "axes[1] must be one of"),
                        ("rate_scale", 2.0, "rate_scale must be")],
    "mptcp-validation": [("n_paths", 0, "n_paths must be an integer in [1, 16]"),
                         ("congested_loss_rates", (0.02,), "congested_loss_rates must be a list of exactly 2")],
    "papers-sim-agreement": [("tolerance", 0.0, "tolerance must be a finite number in (0, 1)"),
                             ("tolerance", "5 %", "tolerance must be a finite number")],
    "osia-figs3-5-water-filling": [("g22_step", 0, "g22_step must be a finite number in (0, 0.5]"),
                                   ("K", float("nan"), "K must be a finite number")],
    "osia-figs7-9-scheduler-grids": [("schedulers", "['round_robin', 'fastest']", "schedulers[1] must be one of"),
                                     ("cross_load", 1.0, "cross_load must be a finite number in [0, 1)")],
    "song-fig1-field-measurements": [("n_samples_per_modem", 0, "n_samples_per_modem must be an integer in [1, "),
                                     ("regenerate", "False", "regenerate must be True or False")],
    "song-fig6-model-vs-simulation": [("link_counts", "[2, 9]", "link_counts[1] must be an integer in [2, 8]"),
                                      ("presets", [], "presets must be a list of at least 1")],
    "song-fig7-asymmetry-surfaces": [("grid_points", 1, "grid_points must be an integer in [2, 500]"),
                                     ("construction", "odd", "construction must be one of 'even'")],
    "song-fig8-throughput-vs-ada": [("ada_step_ms", 0, "ada_step_ms must be a finite number in (0, 10]"),
                                    ("ada_step_ms", -1, "ada_step_ms must be a finite number in (0, 10]"),
                                    ("ada_step_ms", 3.0, "ada_step_ms must divide 10 ms"),
                                    ("sensitivity_transfer_bytes", -5, "sensitivity_transfer_bytes[0] must be an integer"),
                                    ("ada_range_ms", (90.0, 10.0), "ada_range_ms must be a list of exactly 2 value(s), increasing")],
    "song-model-check": [("m_ack", 0, "m_ack must be an integer in [1, 16]"),
                         ("c_values", [3, 2], "c_values must be a list of at least 1 value(s), without repeats, increasing")],
}


def test_every_notebook_has_bad_values():
    assert sorted(BAD) == NAMES


@pytest.mark.parametrize("name, param, value, message",
                         [(n, p, v, m) for n, cases in BAD.items() for p, v, m in cases])
def test_bad_value_fails_naming_the_parameter_and_range(name, param, value, message, monkeypatch):
    ns = _defaults(name, "quick", monkeypatch)
    ns[param] = value
    with pytest.raises(ValueError) as e:
        validate_parameters(SPECS[name], ns)
    assert str(e.value).startswith(f"{name}: ")
    assert message in str(e.value), str(e.value)


def test_list_text_from_papermill_is_normalised(monkeypatch):
    ns = _defaults("arabi-figs8-9-reordering-algorithms", "quick", monkeypatch)
    ns.update(scenarios="[2]", congestion="lia,olia")
    validate_parameters(SPECS["arabi-figs8-9-reordering-algorithms"], ns)
    assert ns["scenarios"] == [2] and ns["congestion"] == ["lia", "olia"]


def test_numpy_scalars_are_accepted(monkeypatch):
    import numpy as np
    ns = _defaults("song-fig8-throughput-vs-ada", "quick", monkeypatch)
    ns.update(ada_step_ms=np.float64(2.5), transfer_bytes=np.int64(10**6))
    validate_parameters(SPECS["song-fig8-throughput-vs-ada"], ns)


def test_not_a_spec_and_missing_parameter():
    with pytest.raises(TypeError, match="NotebookSpec"):
        validate_parameters("song-fig1-field-measurements", {})
    with pytest.raises(ValueError, match="not defined"):
        validate_parameters(SPECS["song-fig1-field-measurements"], {"seed": 1})


# ---------------------------------------------------------------- the notebooks under papermill
PAPERMILL_BAD = {name: cases[0] for name, cases in BAD.items()}


@pytest.mark.parametrize("name", NAMES)
def test_papermill_bad_parameter_fails_in_the_validation_cell(name, tmp_path, monkeypatch):
    papermill = pytest.importorskip("papermill")
    param, value, message = PAPERMILL_BAD[name]
    monkeypatch.setenv(profile.ENV_VAR, "quick")
    monkeypatch.setenv("PYTHONPATH", str(ROOT / "lib") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    monkeypatch.setenv("CMTLAB_PROGRESS", "0")
    out = tmp_path / f"{name}.ipynb"
    with pytest.raises(papermill.PapermillExecutionError) as e:
        papermill.execute_notebook(str(ROOT / "notebooks" / f"{name}.ipynb"), str(out), parameters={param: value},
                                   kernel_name="python3", cwd=str(ROOT / "notebooks"), progress_bar=False,
                                   execution_timeout=300)
    assert e.value.ename == "ValueError" and message in e.value.evalue, e.value.evalue
    nb = nbformat.read(out, as_version=4)
    failed = [c for c in nb.cells if c.cell_type == "code" and any(o.get("output_type") == "error" for o in c.outputs)]
    assert len(failed) == 1 and "validate-parameters" in failed[0].metadata.get("tags", [])
    # nothing ran after the validation cell
    k = nb.cells.index(failed[0])
    assert all(c.get("execution_count") is None for c in nb.cells[k + 1:] if c.cell_type == "code")
    code = [c for c in nb.cells if c.cell_type == "code"]
    j = code.index(failed[0])
    # papermill's injected cell comes right before the validation cell (it sees the injected value)
    assert "injected-parameters" in code[j - 1].metadata.get("tags", []) and param in code[j - 1].source
    assert "parameters" in code[j - 2].metadata.get("tags", [])


# ---------------------------------------------------------------- unknown names; papermill's own view of the cell
def test_an_injected_name_the_notebook_does_not_declare_fails_naming_the_closest(monkeypatch):
    """Reliability probe of 22f83c4: ``-p transfer_byte 5`` ran the defaults without a word."""
    ns = _defaults("song-fig8-throughput-vs-ada", "quick", monkeypatch)
    ns["transfer_byte"] = 5
    ns["In"] = ["", "# the parameters cell", "# Parameters\ntransfer_byte = 5\n", "# this cell"]
    with pytest.raises(ValueError, match=r"^song-fig8-throughput-vs-ada: unknown parameter 'transfer_byte' \(passed "
                                         r"with papermill -p/-y\); did you mean 'transfer_bytes'\?"):
        validate_parameters(SPECS["song-fig8-throughput-vs-ada"], ns)
    ns["In"][2] = "# Parameters\ntransfer_bytes = 5\n"  # a declared name passes
    ns.pop("transfer_byte")
    validate_parameters(SPECS["song-fig8-throughput-vs-ada"], ns)
    with pytest.raises(ValueError, match=r"unknown parameter 'zzz' \(passed with papermill -p/-y\); the notebook's parameters are \["):
        ns["In"][2] = "# Parameters\nzzz = 1\n"
        validate_parameters(SPECS["song-fig8-throughput-vs-ada"], ns)


def test_without_papermill_no_name_is_unknown(monkeypatch):
    ns = _defaults("song-fig8-throughput-vs-ada", "quick", monkeypatch)
    ns.update(In=["", "x = 1", "validate"], helper_value=3)  # an interactive session: other names are no parameters
    validate_parameters(SPECS["song-fig8-throughput-vs-ada"], ns)


@pytest.mark.parametrize("name", NAMES)
def test_papermill_reads_every_declared_parameter(name, caplog):
    """papermill infers a notebook's parameters from its ``parameters`` cell, one ``=`` per line; it warned "Passed
    unknown parameter" for real ones written ``choose(full=..., quick=...)``.  Every declared parameter is now what
    papermill infers, without a warning about the cell."""
    translators = pytest.importorskip("papermill.translators")
    nb, i = _cells(ROOT / "notebooks" / f"{name}.ipynb")
    import logging

    with caplog.at_level(logging.WARNING, logger="papermill"):
        inferred = [p.name for p in translators.PythonTranslator.inspect(nb.cells[i])]
    assert sorted(inferred) == sorted(SPECS[name].params)
    assert not [r for r in caplog.records if r.name.startswith("papermill")], [r.getMessage() for r in caplog.records]


def test_papermill_misspelt_parameter_fails_in_the_validation_cell(tmp_path, monkeypatch, caplog):
    papermill = pytest.importorskip("papermill")
    import logging

    name = "song-fig8-throughput-vs-ada"
    monkeypatch.setenv(profile.ENV_VAR, "quick")
    monkeypatch.setenv("PYTHONPATH", str(ROOT / "lib") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    monkeypatch.setenv("CMTLAB_PROGRESS", "0")
    out = tmp_path / f"{name}.ipynb"
    with caplog.at_level(logging.WARNING, logger="papermill"), \
            pytest.raises(papermill.PapermillExecutionError) as e:
        papermill.execute_notebook(str(ROOT / "notebooks" / f"{name}.ipynb"), str(out),
                                   parameters={"transfer_byte": 5, "ada_step_ms": 2.5}, kernel_name="python3",
                                   cwd=str(ROOT / "notebooks"), progress_bar=False, execution_timeout=300)
    assert e.value.ename == "ValueError" and "did you mean 'transfer_bytes'" in e.value.evalue, e.value.evalue
    # papermill's own warning is accurate now: the misspelt name, not the real one
    warned = [r.getMessage() for r in caplog.records if "unknown parameter" in r.getMessage()]
    assert warned == ["Passed unknown parameter: transfer_byte"], warned
    nb = nbformat.read(out, as_version=4)
    failed = [c for c in nb.cells if c.cell_type == "code" and any(o.get("output_type") == "error" for o in c.outputs)]
    assert len(failed) == 1 and "validate-parameters" in failed[0].metadata.get("tags", [])
    k = nb.cells.index(failed[0])
    assert all(c.get("execution_count") is None for c in nb.cells[k + 1:] if c.cell_type == "code")
