"""Compiled copies of the simulator's hot modules, with their Python sources as the fallback.

What is compiled
----------------
A module of ``cmtlab`` is compiled when a ``.pxd`` file stands beside its ``.py`` file
(Cython's "pure Python mode"): the ``.py`` file stays the one source a reader reads, runs and
edits; the ``.pxd`` file only declares C types for some of its classes and attributes (e.g.
:mod:`cmtlab.sim.net.link`: a link's clock and counters as 64-bit integers).  The compiled
module performs the same operations on the same values, so it gives identical results — the
golden tests run against it, and ``tests/test_compiled.py`` runs them once more with the pure
Python sources.

Build and load
--------------
``make compiled`` (which ``make book``, ``make test`` and ``make bench`` run first;
:func:`build` or :func:`main` ``(["build"])`` from Python)
compiles each such module with Cython and the C compiler into
``<checkout>/_build/compiled/<module>.<key>.so`` (``$CMTLAB_COMPILED_DIR`` overrides the
folder), where ``<key>`` hashes the ``.py`` and ``.pxd`` sources and the Python ABI.
``import cmtlab`` installs an import hook (:class:`CompiledFinder`): a module whose current
sources have a built copy is loaded from it; otherwise from its ``.py`` file.  So an edited
source never runs stale compiled code — it runs as Python (slower, same results) until the
next build — and a machine without a C compiler runs everything as Python.
``CMTLAB_PURE_PYTHON=1`` loads every module from its ``.py`` file.  :func:`status` tells which
modules run compiled.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.machinery
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

from ._paths import REPO

#: The package whose modules may be compiled.
PACKAGE = "cmtlab"
#: Folder of the package's sources (``lib/cmtlab``).
PACKAGE_DIR = Path(__file__).resolve().parent
#: Cython directives: Python 3 semantics; annotations are documentation only (the C types are in
#: the ``.pxd`` files), so every operation keeps its Python meaning (Python division and
#: indexing, exceptions propagated).
DIRECTIVES = {"language_level": 3, "annotation_typing": False}
#: C compiler flags (besides the Python headers).
CFLAGS = ("-O2", "-fPIC", "-shared", "-fno-strict-aliasing", "-w")
_FORMAT = b"cmtlab-compiled-1"


def pure_python() -> bool:
    """``CMTLAB_PURE_PYTHON`` is set (to anything but ``""`` or ``0``): compiled copies are not used."""
    return os.environ.get("CMTLAB_PURE_PYTHON", "") not in ("", "0")


def compiled_dir() -> Path:
    """Where built modules are kept: ``$CMTLAB_COMPILED_DIR``, else ``<checkout>/_build/compiled``."""
    d = os.environ.get("CMTLAB_COMPILED_DIR")
    return Path(d) if d else REPO / "_build" / "compiled"


def compilable_modules() -> dict[str, Path]:
    """``{dotted module name: .py file}`` of every module with a ``.pxd`` file beside it."""
    out = {}
    for pxd in sorted(PACKAGE_DIR.rglob("*.pxd")):
        py = pxd.with_suffix(".py")
        if py.is_file():
            rel = py.relative_to(PACKAGE_DIR.parent).with_suffix("")
            out[".".join(rel.parts)] = py
    return out


def source_key(modules: dict[str, Path] | None = None) -> str:
    """Hash of the ``.py`` and ``.pxd`` sources of *all* compiled modules and of this Python's extension ABI.

    One key for all: a compiled module relies on the C layout of the classes it imports with ``cimport``
    from another (the Wi-Fi link extends the compiled ``LinkModel``), so the copies are loaded
    together or not at all.
    """
    if modules is None:
        modules = compilable_modules()
    h = hashlib.sha256(_FORMAT)
    h.update(str(sysconfig.get_config_var("EXT_SUFFIX")).encode())
    for name, py in sorted(modules.items()):
        for f in (py, py.with_suffix(".pxd")):
            data = f.read_bytes()
            h.update(f"\0{name}{f.suffix}\0{len(data)}\0".encode())
            h.update(data)
    return h.hexdigest()[:16]


def built_path(module: str, key: str | None = None) -> Path:
    """The built copy of ``module`` for the current sources (``key``: :func:`source_key`; it may not exist)."""
    return compiled_dir() / f"{module}.{key or source_key()}.so"


def built() -> bool:
    """Every compiled module has a built copy for the current sources (so they are loaded, unless
    ``CMTLAB_PURE_PYTHON`` is set)."""
    modules = compilable_modules()
    key = source_key(modules)
    return bool(modules) and all(built_path(name, key).is_file() for name in modules)


class _CompiledLoader(importlib.machinery.ExtensionFileLoader):
    """Loads a built copy; the module's ``__file__`` stays its ``.py`` source (paths next to it resolve
    as in the pure-Python module; ``__spec__.origin`` names the built file)."""

    def __init__(self, fullname: str, so: str, source: Path):
        super().__init__(fullname, so)
        self.source = source

    def exec_module(self, module):
        module.__file__ = str(self.source)
        super().exec_module(module)


class CompiledFinder:
    """Import hook: loads a module of :data:`PACKAGE` from its built copy when one matches its sources."""

    def __init__(self):
        self._use = None  # {module: (built copy, source)} decided at the first import, for the whole process
        self.sources_only = False  # python_sources_only() was called

    def _decide(self) -> dict:
        modules = compilable_modules()
        key = source_key(modules)
        copies = {name: (built_path(name, key), py) for name, py in modules.items()}
        if not modules or pure_python() or not all(so.is_file() for so, _ in copies.values()):
            return {}  # all modules as Python: the copies work only together (see source_key)
        return copies

    def find_spec(self, fullname, path=None, target=None):
        if not fullname.startswith(PACKAGE + "."):
            return None
        if self._use is None:
            self._use = self._decide()
        found = self._use.get(fullname)
        if found is None:
            return None
        so, py = found
        loader = _CompiledLoader(fullname, str(so), py)
        return importlib.machinery.ModuleSpec(fullname, loader, origin=str(so))


def install() -> None:
    """Put :class:`CompiledFinder` first on ``sys.meta_path`` (once; ``import cmtlab`` does this)."""
    if not any(isinstance(f, CompiledFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, CompiledFinder())


def python_sources_only() -> None:
    """Load every module in this process from its ``.py`` source (the book's API reference documents
    the sources: signatures with their defaults, members in source order).  Call it before the
    simulator is imported; child processes are not affected."""
    early = [name for name in compilable_modules() if name in sys.modules
             and str(getattr(sys.modules[name].__spec__, "origin", "")).endswith(".so")]
    if early:
        raise RuntimeError(f"python_sources_only() after compiled modules were imported: {early}")
    install()
    for finder in sys.meta_path:
        if isinstance(finder, CompiledFinder):
            finder._use = {}
            finder.sources_only = True


def status() -> dict[str, str]:
    """``{module: "compiled" | "python: ..."}`` — how each compilable module runs in this process."""
    out = {}
    ready = built()
    for name in compilable_modules():
        mod = sys.modules.get(name)
        if mod is not None:
            origin = getattr(getattr(mod, "__spec__", None), "origin", "") or ""
            loaded = "compiled" if origin.endswith(".so") else "python"
        else:
            loaded = None
        if pure_python():
            why = "python: CMTLAB_PURE_PYTHON is set"
        elif any(getattr(f, "sources_only", False) for f in sys.meta_path):
            why = "python: this process loads the sources (python_sources_only)"
        elif ready:
            why = "compiled"
        else:
            why = "python: not built for the current sources (make compiled)"
        out[name] = why if loaded in (None, why.split(":")[0]) else f"{loaded} (the sources changed since it was loaded)"
    return out


def c_compiler() -> list[str] | None:
    """The C compiler command: ``$CC`` if set, else the first of ``cc``, ``gcc``, ``clang`` found."""
    if os.environ.get("CC"):
        return os.environ["CC"].split()
    for name in ("cc", "gcc", "clang"):
        if shutil.which(name):
            return [name]
    return None


def summary() -> str:
    """One line for logs and benchmarks: how many of the compiled modules this process runs compiled."""
    st = status()
    n = sum(how == "compiled" for how in st.values())
    if n == len(st):
        return f"{n} simulator modules compiled (cmtlab.compiled)"
    reasons = sorted({how for how in st.values() if how != "compiled"})
    return f"{n} of {len(st)} simulator modules compiled; the rest run as Python ({'; '.join(reasons)})"


def _compile_one(name: str, py: str, target: str, cc: list, include: str) -> str:
    """Cython and the C compiler on one module into ``target`` (run in a worker process); ``""`` or the error."""
    from Cython.Compiler import Options
    from Cython.Compiler.Main import CompilationOptions, compile_single

    with tempfile.TemporaryDirectory() as tmp:
        c_file = Path(tmp) / f"{name}.c"
        Options.docstrings = True
        opts = CompilationOptions(language_level=3, compiler_directives=dict(DIRECTIVES),
                                  output_file=str(c_file), quiet=True)
        result = compile_single(py, opts, full_module_name=name)
        if result.num_errors or not c_file.is_file():
            return f"Cython could not compile {name} ({py}); see the errors above"
        so_tmp = Path(tmp) / "module.so"
        cmd = [*cc, *CFLAGS, f"-I{include}", str(c_file), "-o", str(so_tmp)]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            return f"the C compiler failed on {name}: {' '.join(cmd)}\n{proc.stderr[-4000:]}"
        shutil.move(str(so_tmp), target)
    return ""


def build(*, force: bool = False, quiet: bool = False, jobs: int | None = None) -> dict[str, Path]:
    """Compile every :func:`compilable_modules` module that has no built copy for the current sources.

    ``jobs`` modules at a time (default: the number of CPUs).  Raises ``RuntimeError`` naming the
    module when Cython or the C compiler fails.
    """
    out_dir = compiled_dir()
    out_dir.mkdir(parents=True, exist_ok=True)
    cc = c_compiler()
    if cc is None:
        raise RuntimeError("no C compiler found ($CC, cc, gcc or clang): the simulator runs as pure Python")
    include = sysconfig.get_paths()["include"]
    modules = compilable_modules()
    key = source_key(modules)
    wanted = {built_path(name, key).name for name in modules}
    todo = {name: py for name, py in modules.items() if force or not built_path(name, key).is_file()}
    done = {}
    if todo:
        from concurrent.futures import ProcessPoolExecutor

        jobs = max(1, min(jobs or os.cpu_count() or 1, len(todo)))
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = {name: pool.submit(_compile_one, name, str(py), str(built_path(name, key)), cc, include)
                       for name, py in todo.items()}
            errors = []
            for name, fut in futures.items():
                err = fut.result()
                if err:
                    errors.append(err)
                    continue
                done[name] = built_path(name, key)
                if not quiet:
                    print(f"compiled {name} -> {done[name]}")
        if errors:
            raise RuntimeError("\n".join(errors))
    # built copies of sources that no longer exist
    for old in out_dir.glob(f"{PACKAGE}.*.so"):
        if old.name not in wanted:
            old.unlink()
    return done


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m cmtlab.compiled", description=__doc__.splitlines()[0])
    ap.add_argument("command", choices=("build", "status"))
    ap.add_argument("--force", action="store_true", help="rebuild modules that are already built")
    ap.add_argument("--if-compiler", action="store_true",
                    help="without a C compiler, say so and keep the pure-Python modules (exit 0)")
    args = ap.parse_args(argv)
    if args.command == "build":
        if args.if_compiler and c_compiler() is None:
            print("cmtlab.compiled: no C compiler found; the simulator runs as pure Python (same results, slower)")
        else:
            build(force=args.force)
    for name, how in status().items():
        print(f"{name:40s} {how}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
