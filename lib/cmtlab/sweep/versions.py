"""Code versions: a short, machine-independent hash of the sources a simulator runs (part of every cache key)."""

from __future__ import annotations

import hashlib
import importlib.util
import os
import re
import types
from pathlib import Path

__all__ = ["code_version"]


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

