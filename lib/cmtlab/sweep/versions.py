"""Code versions: a short, machine-independent hash of the sources a simulator runs (part of every cache key)."""

from __future__ import annotations

import ast
import contextlib
import hashlib
import importlib.machinery
import importlib.util
import os
import re
import types
from pathlib import Path

__all__ = ["code_version", "closure_version", "import_closure", "HARNESS_PACKAGES"]


def code_version(*sources, extra=()) -> str:
    """A short, machine-independent hash of source files: the ``CODE_VERSION`` of a simulator.

    Each source is a module object (a package means all its ``*.py`` files, recursively), a
    dotted module name (found without importing the module itself), a file, or a directory
    (its ``*.py`` files, recursively; ``__pycache__`` and hidden folders skipped).  Files are
    hashed with their path relative to the source's own folder, so moving the checkout does
    not change the version but renaming or editing a file does.  ``extra`` strings (e.g. the
    version of an external package, ``f"ns3=={ns.__version__}"``) are mixed in.

    A simulator package would write::

        CODE_VERSION = code_version(Path(__file__).parent, cmtlab.scenario)
    """
    if not sources:
        raise ValueError("code_version needs at least one source (a module, module name, file or directory)")
    if isinstance(extra, str):
        extra = (extra,)
    h = hashlib.sha256(b"cmtlab-code-version-1\0")
    for source in sources:
        for label, path in _source_files(source):
            data = path.read_bytes()
            h.update(f"{label}\0{len(data)}\0".encode())
            h.update(data)
    for item in extra:
        if not isinstance(item, str):
            raise ValueError(f"extra must contain strings, got {item!r}")
        h.update(f"extra\0{item}\0".encode())
    return h.hexdigest()[:16]


def _python_files(directory: Path) -> list[tuple[str, Path]]:
    out = []
    for path in sorted(directory.rglob("*.py")):
        rel = path.relative_to(directory)
        if any(part == "__pycache__" or part.startswith(".") for part in rel.parts[:-1]):
            continue
        out.append((f"{directory.name}/{rel.as_posix()}", path))
    return out


def _source_files(source) -> list[tuple[str, Path]]:
    if isinstance(source, types.ModuleType):
        locations = getattr(source, "__path__", None)
        origin = getattr(source, "__file__", None)
        name = source.__name__
    elif isinstance(source, (str, os.PathLike)) and Path(source).exists():
        path = Path(source)
        return _python_files(path) if path.is_dir() else [(path.name, path)]
    elif isinstance(source, str) and re.fullmatch(r"[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)*", source):
        try:
            spec = importlib.util.find_spec(source)
        except (ImportError, ValueError) as exc:
            raise ValueError(f"code_version source {source!r} is neither a path nor an importable module") from exc
        if spec is None:
            raise ValueError(f"code_version source {source!r} is neither a path nor an importable module")
        locations, origin, name = spec.submodule_search_locations, spec.origin, source
    else:
        raise ValueError(f"code_version source must be a module, a module name, a file or a directory, "
                         f"got {source!r}")
    if locations:
        files = [f for loc in locations for f in _python_files(Path(loc))]
    elif origin and Path(origin).is_file():
        files = [(Path(origin).name, Path(origin))]
    else:
        files = []
    if not files:
        raise ValueError(f"code_version source {name!r} has no source files to hash")
    return files



# ---------------------------------------------------------------------------------------- import closures

#: The sweep's own package: the harness that runs a simulator, never part of its code version
#: (a change to how the harness stores rows bumps :data:`cmtlab.sweep.cache.CACHE_FORMAT` instead).
HARNESS_PACKAGES = ("cmtlab.sweep",)


def _is_harness(name: str) -> bool:
    return any(name == h or name.startswith(h + ".") for h in HARNESS_PACKAGES)


class _Resolver:
    """Module name → source file, found on ``path`` (default ``sys.path``) without importing anything."""

    def __init__(self, path=None):
        self.path = None if path is None else [str(p) for p in path]
        self._tops: dict[str, tuple[Path, Path | None] | None] = {}

    def _top(self, top: str):
        if top not in self._tops:
            spec = None
            with contextlib.suppress(ImportError, ValueError):
                # Without an explicit path, ask every finder on sys.meta_path: an editable install
                # (pip install -e ./lib, as the Makefile does) is found by its own finder, not on sys.path.
                # find_spec of a top-level name imports nothing.
                spec = (importlib.util.find_spec(top) if self.path is None
                        else importlib.machinery.PathFinder.find_spec(top, self.path))
            if spec is None:
                self._tops[top] = None
            elif spec.submodule_search_locations:
                pkg = Path(next(iter(spec.submodule_search_locations)))
                self._tops[top] = (pkg.parent, None)
            elif spec.origin and spec.origin.endswith(".py") and Path(spec.origin).is_file():
                self._tops[top] = (Path(spec.origin).parent, Path(spec.origin))
            else:
                self._tops[top] = None  # built-in or extension module: nothing to hash
        return self._tops[top]

    def base(self, name: str) -> Path | None:
        found = self._top(name.partition(".")[0])
        return None if found is None else found[0]

    def file(self, name: str) -> Path | None:
        found = self._top(name.partition(".")[0])
        if found is None:
            return None
        base, single = found
        parts = name.split(".")
        if single is not None:
            return single if len(parts) == 1 else None
        p = base.joinpath(*parts)
        if (p / "__init__.py").is_file():
            return p / "__init__.py"
        if p.with_suffix(".py").is_file():
            return p.with_suffix(".py")
        return None


#: A string that is exactly a dotted module name (``"cmtlab.papers.osia"``), optionally with ``:attribute``.
_MODULE_LITERAL = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)+(:[A-Za-z_]\w*)?")


def _imported_names(tree: ast.AST, module: str, is_package: bool) -> set[str]:
    """Every module name ``tree`` may import: module-level and function-level ``import``/``from``
    statements (relative ones resolved), ``from x import y`` also as ``x.y`` (``y`` may be a
    submodule), ``importlib.import_module("...")``/``__import__("...")`` with a literal name, and
    any string that is exactly a dotted module name (a table of plug-in packages imported by name
    later); names that are not modules of the followed packages are dropped by the caller."""
    names: set[str] = set()
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".") if package else []
                if node.level - 1 > len(parts):
                    continue
                parts = parts[:len(parts) - (node.level - 1)]
                base = ".".join(parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            if not base:
                continue
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names if alias.name != "*")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and _MODULE_LITERAL.fullmatch(node.value):
            names.add(node.value.partition(":")[0])  # e.g. a plug-in table {"osia": "cmtlab.papers.osia"}
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str):
            fn = node.func
            called = fn.attr if isinstance(fn, ast.Attribute) else getattr(fn, "id", None)
            if called in ("import_module", "__import__"):
                target = node.args[0].value
                if target.startswith("."):
                    level = len(target) - len(target.lstrip("."))
                    parts = package.split(".")[:len(package.split(".")) - (level - 1)]
                    target = ".".join(parts + [target.lstrip(".")]).rstrip(".")
                names.add(target)
    return names


def import_closure(module: str, *, file=None, path=None, within=None) -> dict[str, Path]:
    """The source files of ``module`` and of every module it imports, transitively: module name → file.

    The closure follows, without importing anything, every ``import`` statement — at module level
    or inside a function, absolute or relative — and literal ``importlib.import_module`` calls,
    into the packages named in ``within`` (default: ``cmtlab`` and ``module``'s own top-level
    package; third-party packages are pinned in ``requirements.txt``, not hashed).  Importing
    ``a.b.c`` runs ``a/__init__.py`` and ``a/b/__init__.py`` first, so those are followed too.
    If ``module`` is a package, every ``*.py`` file below it is part of the closure (plug-ins found
    by walking the package are covered).  The sweep's own package (:data:`HARNESS_PACKAGES`) is
    never followed.

    ``file`` is the module's source when it is not importable by name (e.g. a script);
    ``path`` replaces ``sys.path`` for finding modules (tests hash a copy of the library).
    Raises ``ValueError`` if ``module`` has no Python source.
    """
    if not isinstance(module, str) or not re.fullmatch(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*", module):
        raise ValueError(f"module must be a dotted module name, got {module!r}")
    resolver = _Resolver(path)
    roots = {"cmtlab", module.partition(".")[0]} if within is None else set(within)
    root_file = Path(file) if file is not None else resolver.file(module)
    if root_file is None or not root_file.is_file():
        raise ValueError(f"module {module!r} has no Python source file to hash (path {path or 'sys.path'})")
    found: dict[str, Path] = {module: root_file}
    queue = [module]
    if root_file.name == "__init__.py" and file is None:  # a package: all of it
        base = resolver.base(module)
        for p in sorted(root_file.parent.rglob("*.py")):
            rel = p.relative_to(base)
            if any(part == "__pycache__" or part.startswith(".") for part in rel.parts[:-1]):
                continue
            name = ".".join(rel.with_suffix("").parts)
            name = name[: -len(".__init__")] if name.endswith(".__init__") else name
            if name not in found:
                found[name] = p
                queue.append(name)

    def want(name: str) -> None:
        parts = name.split(".")
        for i in range(1, len(parts) + 1):  # parents first: importing a.b.c runs a and a.b
            sub = ".".join(parts[:i])
            if sub in found or sub.partition(".")[0] not in roots or _is_harness(sub):
                continue
            f = resolver.file(sub)
            if f is not None:
                found[sub] = f
                queue.append(sub)

    want(module)
    while queue:
        name = queue.pop()
        for imported in _imports_of(found[name], name):
            want(imported)
    return found


_IMPORTS_CACHE: dict[tuple, frozenset] = {}


def _imports_of(src: Path, name: str) -> frozenset:
    """:func:`_imported_names` of one file, remembered while its size and mtime stay the same."""
    st = src.stat()
    key = (str(src), name, st.st_mtime_ns, st.st_size)
    if key not in _IMPORTS_CACHE:
        try:
            tree = ast.parse(src.read_bytes(), filename=str(src))
        except (SyntaxError, ValueError):
            tree = None  # hashed as bytes all the same; importing it would fail anyway
        _IMPORTS_CACHE[key] = frozenset() if tree is None else frozenset(
            _imported_names(tree, name, src.name == "__init__.py"))
    return _IMPORTS_CACHE[key]


_CLOSURE_CACHE: dict[tuple, tuple[list, tuple, str]] = {}


def _stamp(files) -> tuple:
    """What must not change for a remembered closure to hold: each file's and folder's size and
    modification time (a folder's changes when a file is added to it)."""
    out = []
    for f in sorted({str(f) for f in files} | {str(Path(f).parent) for f in files}):
        try:
            st = os.stat(f)
        except OSError:
            return ()
        out.append((f, st.st_mtime_ns, st.st_size))
    return tuple(out)


def closure_version(module: str, *, extra=(), file=None, path=None) -> str:
    """:func:`code_version` of :func:`import_closure` ``(module)``: a short hash that changes when any
    byte of any module the simulator can import (within ``cmtlab`` and its own package) changes.

    Files are hashed with their path relative to the folder holding their top-level package
    (``cmtlab/sim/engine.py``), so moving the checkout does not change the version.  The result
    is remembered while no file of the closure and no folder holding one changes size or
    modification time (Python's own rule for reusing bytecode), so repeated calls cost a few
    ``stat`` calls.
    """
    extra = (extra,) if isinstance(extra, str) else tuple(extra)
    for item in extra:
        if not isinstance(item, str):
            raise ValueError(f"extra must contain strings, got {item!r}")
    key = (module, None if file is None else str(file), None if path is None else tuple(map(str, path)), extra)
    cached = _CLOSURE_CACHE.get(key)
    if cached is not None and cached[1] and _stamp(cached[0]) == cached[1]:
        return cached[2]
    closure = import_closure(module, file=file, path=path)
    # a module's .pxd file (C types of its compiled copy, cmtlab.compiled) counts as part of it
    closure.update({f"{name}.pxd": f.with_suffix(".pxd") for name, f in list(closure.items())
                    if f.with_suffix(".pxd").is_file()})
    files = list(closure.values())
    stamp = _stamp(files)
    resolver = _Resolver(path)
    h = hashlib.sha256(b"cmtlab-closure-version-1\0")
    labelled = []
    for name, f in closure.items():
        base = resolver.base(name)
        label = f.relative_to(base).as_posix() if base is not None and f.is_relative_to(base) else f.name
        labelled.append((label, f))
    for label, f in sorted(labelled):
        data = f.read_bytes()
        h.update(f"{label}\0{len(data)}\0".encode())
        h.update(data)
    for item in extra:
        h.update(f"extra\0{item}\0".encode())
    version = h.hexdigest()[:16]
    _CLOSURE_CACHE[key] = (files, stamp, version)
    return version
