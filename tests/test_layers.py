"""The library's import graph: no import cycle, no import against the layers (issue 33).

Every ``import`` / ``from … import`` statement of ``lib/cmtlab`` is read with :mod:`ast` — at module level
and inside functions alike (a function-level import is an edge too: it runs when the function does).  An
edge goes to the module named, or to the package when the name is not a module of its own
(``from cmtlab.report import Comparison`` → ``cmtlab.report``; ``from cmtlab.papers.song import model``
→ ``cmtlab.papers.song.model``).  Importing a sub-module also runs its parents' ``__init__``; that
implicit edge is not counted (every module would import its own package).

The layers, bottom to top (an import may go down or sideways, never up):

====  ===========================================================================================
0     basics: the package face, ``_validate``, ``_paths``, ``pinned``, ``progress``, ``compiled``, ``_git``
1     ``scenario``, ``stats``, ``report`` (verdicts, tables, formatting, figure style, profiles,
      parameter types), ``measurements``
2     ``sim`` (the book's simulator), ``sweep``
3     the references: ``ns3``, ``papers_sim`` (the papers' ns-3.7 model), ``testbed`` (the kernel)
4     ``papers`` (Song, OSIA, Arabi, Alheid)
5     ``validation``
6     ``today``
====  ===========================================================================================

So the references import no paper, the papers import no validation chapter, and ``report`` imports no
chapter and no simulator.  Cycles are checked between modules and, inside every package, between its
children (a sub-package counts as one node).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import cmtlab

LIB = Path(cmtlab.__file__).resolve().parent
ROOT = LIB.name

#: Layer of every part of the library, bottom (0) to top; a module belongs to the longest prefix here.
LAYERS = {
    ROOT: 0, f"{ROOT}._validate": 0, f"{ROOT}._paths": 0, f"{ROOT}.pinned": 0, f"{ROOT}.progress": 0,
    f"{ROOT}.compiled": 0,
    f"{ROOT}._git": 0,
    f"{ROOT}.scenario": 1, f"{ROOT}.stats": 1, f"{ROOT}.report": 1, f"{ROOT}.measurements": 1,
    f"{ROOT}.sim": 2, f"{ROOT}.sweep": 2,
    f"{ROOT}.ns3": 3, f"{ROOT}.papers_sim": 3, f"{ROOT}.testbed": 3,
    f"{ROOT}.papers": 4,
    f"{ROOT}.validation": 5,
    f"{ROOT}.today": 6,
}
LAYER_NAMES = ("basics", "scenario/stats/report/measurements", "sim/sweep", "references (ns3, papers_sim, testbed)",
               "papers", "validation", "today")

#: Package-level cycles inside the simulator that issue 33 leaves open.  The traces moved to ``tcp/traces.py``
#: (phase D), which closed engine → tcp; left is tcp ↔ mechanisms: the sender builds its own loss detection
#: (``tcp/sender.py`` imports ``mechanisms/recovery/loss_detection.py``'s ``make_loss_detection``) while every
#: mechanism answers with ``tcp.decisions`` — it goes when the builders hand the sender its loss detection, as
#: they hand it its congestion control and recovery.  Listed exactly: any other cycle fails, and so does a
#: listed one that is gone (drop it here).
KNOWN_PACKAGE_CYCLES: set = set()


def modules(root: Path = LIB) -> dict[str, Path]:
    """``{dotted name: file}`` of every module of the package (a package is its ``__init__.py``)."""
    out = {}
    for f in sorted(root.rglob("*.py")):
        parts = list(f.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = f
    return out


def _known(name: str, mods) -> str | None:
    while name and name not in mods:
        name = name.rpartition(".")[0]
    return name or None


def import_graph(root: Path = LIB) -> dict[str, set[str]]:
    """``{module: modules it imports}`` within the package, function-level imports included."""
    mods = modules(root)
    graph: dict[str, set[str]] = {m: set() for m in mods}
    for m, f in mods.items():
        package = m if f.name == "__init__.py" else m.rpartition(".")[0]
        for node in ast.walk(ast.parse(f.read_text(), str(f))):
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")
                    base = base[:len(base) - (node.level - 1)]
                    source = ".".join(base + ([node.module] if node.module else []))
                else:
                    source = node.module or ""
                # ``from pkg import name``: the sub-module pkg.name if there is one, else pkg itself
                targets = [f"{source}.{a.name}" if f"{source}.{a.name}" in mods else source for a in node.names]
            for t in targets:
                if t.split(".")[0] != root.name:
                    continue
                k = _known(t, mods)
                if k and k != m:
                    graph[m].add(k)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one node (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def package_cycles(graph: dict[str, set[str]]) -> list[tuple[str, frozenset]]:
    """Per package: cycles between its children (modules and sub-packages, each sub-package one node)."""
    packages = {m for m in graph if any(o.startswith(m + ".") for o in graph)}
    out = []
    for p in sorted(packages):
        prefix = p + "."

        def child(m: str):
            return prefix + m[len(prefix):].split(".")[0] if m.startswith(prefix) else None

        children: dict[str, set[str]] = {}
        for a, targets in graph.items():
            ca = child(a)
            if ca is None:
                continue
            children.setdefault(ca, set())
            for b in targets:
                cb = child(b)
                if cb is not None and cb != ca:
                    children[ca].add(cb)
        out += [(p, frozenset(c)) for c in cycles(children)]
    return out


def layer(module: str) -> int | None:
    """The layer of ``module``: that of its longest prefix in :data:`LAYERS` (the package face only itself)."""
    k = module
    while k and k != ROOT:
        if k in LAYERS:
            return LAYERS[k]
        k = k.rpartition(".")[0]
    return LAYERS[ROOT] if module == ROOT else None


def layer_violations(graph: dict[str, set[str]]) -> list[str]:
    out = []
    for a in sorted(graph):
        la = layer(a)
        for b in sorted(graph[a]):
            lb = layer(b)
            if la is not None and lb is not None and lb > la:
                out.append(f"{a} ({LAYER_NAMES[la]}) imports {b} ({LAYER_NAMES[lb]})")
    return out


GRAPH = import_graph()


def test_every_module_has_a_layer():
    unplaced = sorted(m for m in GRAPH if layer(m) is None)
    assert not unplaced, f"modules outside every layer (place them in LAYERS): {unplaced}"


def test_no_import_against_the_layers():
    bad = layer_violations(GRAPH)
    assert not bad, f"{len(bad)} imports run up the layers:\n" + "\n".join(bad)


def test_no_cycle_between_modules():
    found = cycles(GRAPH)
    assert not found, f"{len(found)} import cycles between modules:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_no_cycle_between_packages():
    found = set(package_cycles(GRAPH))
    new = sorted((p, sorted(c)) for p, c in found - KNOWN_PACKAGE_CYCLES)
    gone = sorted((p, sorted(c)) for p, c in KNOWN_PACKAGE_CYCLES - found)
    assert not new, f"{len(new)} import cycles between the parts of a package:\n" + "\n".join(
        f"in {p}: {' <-> '.join(c)}" for p, c in new)
    assert not gone, f"listed cycles that no longer exist (remove them from KNOWN_PACKAGE_CYCLES): {gone}"


# ---------------------------------------------------------------------------------------- the checker itself

def _graph_of(tmp_path, files: dict[str, str]) -> dict[str, set[str]]:
    root = tmp_path / ROOT
    for name, text in files.items():
        p = root / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return import_graph(root)


def test_the_checker_sees_function_level_relative_and_from_imports(tmp_path):
    g = _graph_of(tmp_path, {
        "__init__.py": "",
        "report/__init__.py": "from .table import Comparison\n",
        "report/table.py": "def f():\n    from ..sim import run\n",
        "sim/__init__.py": "from cmtlab import report\nrun = None\n",
        "papers/__init__.py": "",
        "papers/song/__init__.py": "",
        "papers/song/model.py": "import cmtlab.validation.ns3\n",
        "validation/__init__.py": "",
        "validation/ns3.py": "from ..papers.song import model\n",
    })
    assert g[f"{ROOT}.report.table"] == {f"{ROOT}.sim"}
    assert g[f"{ROOT}.sim"] == {f"{ROOT}.report"}
    assert g[f"{ROOT}.validation.ns3"] == {f"{ROOT}.papers.song.model"}
    assert sorted(map(tuple, cycles(g))) == [(f"{ROOT}.papers.song.model", f"{ROOT}.validation.ns3"),
                                             (f"{ROOT}.report", f"{ROOT}.report.table", f"{ROOT}.sim")]
    bad = layer_violations(g)
    assert any("report.table" in b and "imports cmtlab.sim" in b for b in bad)
    assert any("papers.song.model" in b and "validation.ns3" in b for b in bad)
    assert (ROOT, frozenset({f"{ROOT}.papers", f"{ROOT}.validation"})) in package_cycles(g)


@pytest.mark.parametrize("text", ["import cmtlab.papers.song\n", "def f():\n    from cmtlab.papers import song\n"])
def test_a_reference_importing_a_paper_is_against_the_layers(tmp_path, text):
    g = _graph_of(tmp_path, {"__init__.py": "", "papers_sim/__init__.py": text, "papers/__init__.py": "",
                             "papers/song/__init__.py": ""})
    assert layer_violations(g) == [f"{ROOT}.papers_sim (references (ns3, papers_sim, testbed)) imports "
                                   f"{ROOT}.papers.song (papers)"]
