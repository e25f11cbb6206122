"""Build the papers' own simulator — the Chihani–Collange ns-3 MPTCP model on ns-3.7 — without waf.

Alheid et al. and Arabi et al. ran the ns-3 MPTCP model of Chihani and Collange (2011).  Its
sources survive as an overlay on ns-3.6/3.7 (GitHub ``dzlab/mptcp-ns3``).  This module builds it
reproducibly:

1. **Sources** (:data:`ARCHIVES`): two pinned archives, ``ns-3.7.tar.gz`` and
   ``mptcp-ns3-d4ad7bf.tar.gz``, read from a mirror directory (``$CMTLAB_PEER_MIRROR``, default
   ``../shared/peer-simulators`` beside the repository) and checked by sha256; without a mirror
   they are downloaded from their public origins at the same versions (the tag ``ns-3.7`` of
   ``nsnam/ns-3-dev-git`` and commit ``d4ad7bf`` of ``dzlab/mptcp-ns3``).  A GitHub-generated
   archive need not be byte-identical to the mirrored one, so a download is checked by the
   sha256 of the files the build uses (:func:`tree_sha256`), pinned from the mirrored archives.
2. **Patches** (``patches/*.patch``, applied in name order with ``patch -p1``): each starts with a
   header ``Kind:`` — ``build`` (portability to g++ 12, build integration), ``api`` (the overlay's
   ns-3.6 calls adapted to ns-3.7), ``behaviour`` (changes what the model computes) or
   ``performance`` (changes how fast, never what: proven by re-running every recorded row) or
   ``instrument`` (counters the drivers report; nothing the model decides reads them) — and says
   why.  :func:`patches` lists them.
3. **Compile** (no waf: ns-3.7's waf needs Python 2).  Only the modules the driver needs
   (:data:`MODULES`; test suites left out) are compiled, each module's file list read from its own
   ``wscript``, with ``g++ -std=gnu++98 -fpermissive`` and forced includes of ``<cstring>``,
   ``<cstdlib>``, ``<cstdio>`` (ns-3.7 relied on headers that included them implicitly).  The
   objects go into one static library linked with ``--whole-archive`` (ns-3 registers its types
   in static constructors), together with the scenario driver ``driver/mptcp-scenario.cc``.
   ns-3.7's Wi-Fi (:data:`WIFI_MODULES`: mobility, wifi — which in ns-3.7 holds the propagation
   models — and four helpers) goes into a second library, linked only into the Wi-Fi driver
   ``driver/mptcp-wifi-scenario.cc`` (:mod:`cmtlab.papers_sim.wifi`); it compiles under g++ 12
   with the flags above and needs no patch.  ``build(wifi=False)`` (``--no-wifi``) leaves it out.
   A generated Makefile makes the build incremental: nothing is recompiled when nothing changed.

Everything goes into ``_build/papers-sim/`` of the repository (``$CMTLAB_PAPERS_SIM_BUILD``
overrides).  Command line: ``python -m cmtlab.papers_sim build`` (``make papers-sim``).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import tarfile
import tempfile
import time
from pathlib import Path

from .._paths import REPO as _REPO

HERE = Path(__file__).resolve().parent
#: The repository checkout this package lives in (``lib/cmtlab/papers_sim`` → repository root).
REPO = _REPO
PATCH_DIR = HERE / "patches"
DRIVER_SOURCE = HERE / "driver" / "mptcp-scenario.cc"
#: The driver of the Wi-Fi topology (Alheid et al.'s Fig. 3 on ns-3.7's 802.11a PHY, the 802.11g stand-in).
WIFI_DRIVER_SOURCE = HERE / "driver" / "mptcp-wifi-scenario.cc"
#: Diff turning a copy of the driver into the wire-trace diagnostic (``bin/mptcp-scenario-wire``).
WIRE_PATCH = HERE / "driver" / "wire-trace.patch"

MIRROR_ENV = "CMTLAB_PEER_MIRROR"
BUILD_ENV = "CMTLAB_PAPERS_SIM_BUILD"
CXX_ENV = "CXX"


@dataclasses.dataclass(frozen=True)
class Archive:
    """One pinned source archive: file name in the mirror, sha256 of the file, public origin,
    top-level folder inside it, the parts of it the build uses and the sha256 of those files
    (:func:`tree_sha256`), which also checks an archive downloaded from the origin."""

    name: str
    file: str
    sha256: str
    url: str
    used: tuple
    tree_sha256: str


#: The two pinned sources (``../shared/peer-simulators/README.md``).
ARCHIVES = (
    Archive("ns-3.7", "ns-3.7.tar.gz",
            "fad6c8278bf20a98c8e846d84c0c759c3efc7f78b32e9390c7f2f628f192138e",
            "https://github.com/nsnam/ns-3-dev-git/archive/refs/tags/ns-3.7.tar.gz",
            ("src",), "cc2f9395e571846d3243711d7b051bd9ee7e0e05368ec71e0fd3db05f5e98400"),
    Archive("mptcp-ns3", "mptcp-ns3-d4ad7bf.tar.gz",
            "6f385f1318d062eabb2d462f174060769d7ce2fafd698cef25b53daf6fc7c989",
            "https://github.com/dzlab/mptcp-ns3/archive/d4ad7bf.tar.gz",
            ("src", "scratch/mpTopology.cc"), "ade2164af7b1033c21e19d04f1caad655572fd5b1d25845be719eb4b4f5bd031"),
)

#: ns-3.7 modules the driver needs, in link order, with what to take from each.  ``only``: compile
#: just these files of the module (the helper module is a grab-bag of every device's helpers);
#: ``extra``: platform files its wscript adds conditionally.  Test-suite sources (``*test*`` except core's ``test.cc`` framework) are skipped.
MODULES = (
    ("core", {"extra": ("unix-system-wall-clock-ms.cc",)}),
    ("common", {}),
    ("simulator", {"extra": ("high-precision-128.cc", "cairo-wideint.c")}),
    ("node", {}),
    ("internet-stack", {}),
    ("devices/point-to-point", {}),
    ("devices/bridge", {}),
    ("routing/static-routing", {}),
    ("routing/list-routing", {}),
    ("routing/global-routing", {}),
    ("applications/packet-sink", {}),
    ("contrib", {"only": ("gnuplot.cc",)}),
    ("helper", {"only": ("node-container.cc", "net-device-container.cc", "point-to-point-helper.cc",
                         "ipv4-address-helper.cc", "ipv4-interface-container.cc", "application-container.cc",
                         "ipv4-static-routing-helper.cc", "ipv4-global-routing-helper.cc",
                         "ipv4-list-routing-helper.cc", "ipv4-routing-helper.cc", "ipv6-static-routing-helper.cc",
                         "ipv6-list-routing-helper.cc", "ipv6-routing-helper.cc", "mp-internet-stack-helper.cc")}),
)

#: ns-3.7 modules the Wi-Fi driver needs on top of :data:`MODULES` (its own library, ``libns3-wifi.a``):
#: mobility (node positions), wifi (which in ns-3.7 also holds the propagation loss and delay
#: models: Yans PHY and channel, the DCF, the non-QoS AP and station MACs, the rate managers) and
#: the four helpers that set them up.  ``make papers-sim`` builds them; ``--no-wifi`` skips them.
WIFI_MODULES = (
    ("mobility", {}),
    ("devices/wifi", {}),
    ("helper", {"only": ("wifi-helper.cc", "yans-wifi-helper.cc", "nqos-wifi-mac-helper.cc", "mobility-helper.cc")}),
)

#: Configuration headers waf would have generated (``conf.write_config_header``).
CONFIG_HEADERS = {
    "core-config.h": ("HAVE_STDLIB_H", "HAVE_GETENV", "HAVE_SIGNAL_H", "HAVE_PTHREAD_H"),
    "simulator-config.h": ("HAVE_STDINT_H", "HAVE_INTTYPES_H"),
    "contrib-config.h": (),
    "net-anim-config.h": ("HAVE_SYS_SOCKET_H", "HAVE_NETINET_IN_H"),
}

#: ``NS3_LOG_ENABLE``/``NS3_ASSERT_ENABLE``: what waf's default (debug) build defined.  The model computes
#: its logged "global throughput" inside NS_LOG_WARN statements, and mpTopology enables them.
CXXFLAGS = ("-std=gnu++98", "-fpermissive", "-w", "-O2", "-fno-strict-aliasing", "-fPIC",
            "-DNS3_LOG_ENABLE", "-DNS3_ASSERT_ENABLE",
            "-include", "cstring", "-include", "cstdlib", "-include", "cstdio")
CFLAGS = ("-O2", "-w", "-fPIC")
LIBS = ("-lpthread", "-lrt")
PATCH_KINDS = ("build", "api", "behaviour", "performance", "instrument")


class BuildError(RuntimeError):
    """The model could not be built (the message says what is missing or what failed)."""


# ---------------------------------------------------------------------------------------- locations

def build_dir() -> Path:
    """``$CMTLAB_PAPERS_SIM_BUILD`` or ``<repository>/_build/papers-sim``."""
    env = os.environ.get(BUILD_ENV, "").strip()
    return Path(env).expanduser().resolve() if env else REPO / "_build" / "papers-sim"


def mirror_dir() -> Path:
    """``$CMTLAB_PEER_MIRROR`` or ``<repository>/../shared/peer-simulators`` (may not exist)."""
    env = os.environ.get(MIRROR_ENV, "").strip()
    return Path(env).expanduser() if env else REPO.parent / "shared" / "peer-simulators"


def binary_path() -> Path:
    """The scenario driver executable the build produces."""
    return build_dir() / "bin" / "mptcp-scenario"


def wifi_binary_path() -> Path:
    """The Wi-Fi scenario driver (:mod:`cmtlab.papers_sim.wifi`)."""
    return build_dir() / "bin" / "mptcp-wifi-scenario"


def wire_binary_path() -> Path:
    """The wire-trace variant of the driver (diagnostics, :mod:`cmtlab.papers_sim.trace`)."""
    return build_dir() / "bin" / "mptcp-scenario-wire"


def _wire_source() -> Path:
    """``<build>/driver-wire/mptcp-scenario.cc``: the driver with :data:`WIRE_PATCH` applied (rewritten
    only when it changes)."""
    out = build_dir() / "driver-wire" / "mptcp-scenario.cc"
    patch_tool = _need_tool("patch", "patch")
    with tempfile.TemporaryDirectory() as tmp:
        src, dst = Path(tmp) / "in.cc", Path(tmp) / "out.cc"
        shutil.copyfile(DRIVER_SOURCE, src)
        res = subprocess.run([patch_tool, "-s", "-o", str(dst), str(src), "-i", str(WIRE_PATCH)],
                             capture_output=True, text=True)
        if res.returncode != 0:
            raise BuildError(f"{WIRE_PATCH.name} does not apply to the driver:\n{res.stdout}{res.stderr}")
        _write_if_changed(out, dst.read_bytes())
    return out


# ---------------------------------------------------------------------------------------- hashes

def sha256_file(path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _archive_members(path: Path):
    """``(relative path, bytes)`` of every regular file, the top-level folder stripped, sorted."""
    out = []
    with tarfile.open(path, "r:gz") as tar:
        for m in tar.getmembers():
            if not m.isfile():
                continue
            parts = m.name.split("/", 1)
            if len(parts) < 2:
                continue
            out.append((parts[1], tar.extractfile(m).read()))
    out.sort()
    return out


def tree_sha256(members, used) -> str:
    """sha256 over the files under ``used`` (relative paths and contents, sorted): the identity of
    an archive's content whatever its compression, timestamps or top-level folder name."""
    h = hashlib.sha256(b"cmtlab-papers-sim-tree-1\0")
    for rel, data in members:
        if any(rel == u or rel.startswith(u.rstrip("/") + "/") for u in used):
            h.update(rel.encode() + b"\0" + str(len(data)).encode() + b"\0" + data)
    return h.hexdigest()


def patches() -> list[dict]:
    """The patch files in application order: ``name``, ``kind``, ``summary``, ``sha256``, ``path``."""
    out = []
    for path in sorted(PATCH_DIR.glob("*.patch")):
        text = path.read_text()
        kind = re.search(r"^Kind:\s*(\S+)", text, re.M)
        summary = re.search(r"^Subject:\s*(.+)$", text, re.M)
        if kind is None or kind.group(1) not in PATCH_KINDS:
            raise BuildError(f"patch {path.name} needs a header line 'Kind: <{'|'.join(PATCH_KINDS)}>'")
        out.append({"name": path.name, "kind": kind.group(1), "summary": summary.group(1).strip() if summary else "",
                    "sha256": sha256_file(path), "path": path})
    return out


# ---------------------------------------------------------------------------------------- tools

def compiler() -> str:
    """The C++ compiler: ``$CXX``, else the first of ``g++``, ``c++``, ``clang++`` on ``PATH``."""
    env = os.environ.get(CXX_ENV, "").strip()
    candidates = [env] if env else ["g++", "c++", "clang++"]
    for c in candidates:
        found = shutil.which(shlex.split(c)[0]) if c else None
        if found:
            return c
    raise BuildError("no C++ compiler found: the papers' simulator (ns-3.7 + the Chihani-Collange MPTCP model) "
                     f"needs g++ (tried {', '.join(candidates)}); install it, e.g. the Debian package 'g++', "
                     "or name one with $CXX")


def compiler_version(cxx: str | None = None) -> str:
    """First line of ``<cxx> --version`` (part of the simulator's code version)."""
    cxx = cxx or compiler()
    out = subprocess.run([*shlex.split(cxx), "--version"], capture_output=True, text=True, check=False)
    return (out.stdout or out.stderr).splitlines()[0].strip() if (out.stdout or out.stderr) else cxx


def _need_tool(name: str, package: str) -> str:
    path = shutil.which(name)
    if not path:
        raise BuildError(f"the papers' simulator build needs '{name}' (Debian package '{package}'), "
                         f"which is not on PATH")
    return path


# ---------------------------------------------------------------------------------------- sources

def fetch_archive(archive: Archive, *, log=print) -> Path:
    """The archive file: from the mirror (sha256 checked) or downloaded (content checked)."""
    mirror = mirror_dir()
    path = mirror / archive.file
    if path.is_file():
        got = sha256_file(path)
        if got != archive.sha256:
            raise BuildError(f"{path}: sha256 {got} differs from the pinned {archive.sha256} "
                             f"({archive.name}); the mirror holds another file than the one this build expects")
        return path
    target = build_dir() / "downloads" / archive.file
    if target.is_file() and tree_sha256(_archive_members(target), archive.used) == archive.tree_sha256:
        return target
    log(f"papers-sim: {archive.file} is not in the mirror {mirror} (set ${MIRROR_ENV}); downloading {archive.url}")
    import urllib.request

    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(".part")
    try:
        with urllib.request.urlopen(archive.url, timeout=120) as resp, open(tmp, "wb") as fh:
            shutil.copyfileobj(resp, fh)
    except OSError as exc:
        raise BuildError(f"{archive.name}: not in the mirror {mirror} and the download of {archive.url} failed "
                         f"({type(exc).__name__}: {exc}); put {archive.file} (sha256 {archive.sha256}) into "
                         f"a directory and name it with ${MIRROR_ENV}") from exc
    got = tree_sha256(_archive_members(tmp), archive.used)
    if got != archive.tree_sha256:
        tmp.unlink()
        raise BuildError(f"{archive.url}: the files the build uses hash to {got}, not the pinned "
                         f"{archive.tree_sha256}; refusing to build from it")
    tmp.replace(target)
    return target


def _write_if_changed(path: Path, data: bytes) -> bool:
    """Write ``data`` unless the file already holds it (keeps mtimes, so make rebuilds only what changed)."""
    if path.is_file() and path.stat().st_size == len(data) and path.read_bytes() == data:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    tmp.replace(path)
    return True


def _sync_tree(src: Path, dst: Path) -> int:
    """Make ``dst`` a copy of ``src`` writing only changed files; returns how many were written."""
    n = 0
    seen = set()
    for path in sorted(src.rglob("*")):
        if path.is_file():
            rel = path.relative_to(src)
            seen.add(rel)
            n += _write_if_changed(dst / rel, path.read_bytes())
    if dst.is_dir():
        for path in sorted(dst.rglob("*"), reverse=True):
            if path.is_file() and path.relative_to(dst) not in seen:
                path.unlink()
    return n


def source_identity() -> dict:
    """What the prepared source tree is made of: archive hashes and patch hashes."""
    return {"archives": {a.name: a.sha256 for a in ARCHIVES},
            "patches": {p["name"]: p["sha256"] for p in patches()}}


def prepare_sources(*, log=print) -> Path:
    """``<build>/tree``: ns-3.7's ``src/`` with the overlay copied over it and the patches applied.

    Re-done only when an archive or a patch changed (a stamp records them); files are rewritten
    only where their content changed.
    """
    out = build_dir()
    tree = out / "tree"
    stamp = out / "tree.stamp.json"
    ident = source_identity()
    if tree.is_dir() and stamp.is_file():
        with open(stamp) as fh:
            if json.load(fh) == ident:
                return tree
    patch_tool = _need_tool("patch", "patch")
    files = {a.name: fetch_archive(a, log=log) for a in ARCHIVES}
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=out, prefix="stage-") as tmp:
        stage = Path(tmp) / "tree"
        for a in ARCHIVES:  # ns-3.7 first, then the overlay over it
            for rel, data in _archive_members(files[a.name]):
                if any(rel == u or rel.startswith(u.rstrip("/") + "/") for u in a.used):
                    target = stage / rel
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(data)
        for p in patches():
            res = subprocess.run([patch_tool, "-p1", "--forward", "--no-backup-if-mismatch", "-s", "-i", str(p["path"])],
                                 cwd=stage, capture_output=True, text=True)
            if res.returncode != 0:
                raise BuildError(f"patch {p['name']} does not apply:\n{res.stdout}{res.stderr}")
        changed = _sync_tree(stage, tree)
    stamp.write_text(json.dumps(ident, indent=1, sort_keys=True))
    log(f"papers-sim: sources prepared in {tree} ({changed} files written)")
    return tree


def _wscript_lists(wscript: Path) -> tuple[list[str], list[str]]:
    """``(sources, headers)`` named by a module's wscript: the first ``<module>.source = [...]`` list,
    and every quoted ``*.h`` of the file (headers, including conditional ones)."""
    text = re.sub(r"#.*", "", wscript.read_text())
    sources = []
    m = re.search(r"(\w+)\.source\s*=\s*\[(.*?)\]", text, re.S)
    while m and m.group(1) == "headers":
        m = re.search(r"(\w+)\.source\s*=\s*\[(.*?)\]", text[m.end():], re.S)
    if m:
        sources = re.findall(r"['\"]([\w.+-]+\.(?:cc|c))['\"]", m.group(2))
    headers = re.findall(r"['\"]([\w.+-]+\.h)['\"]", text)
    return sources, headers


def module_files(tree: Path, modules=MODULES) -> tuple[list[Path], list[Path]]:
    """Sources to compile and headers to install, from the wscripts of ``modules`` (:data:`MODULES`)."""
    sources, headers = [], []
    for name, spec in modules:
        d = tree / "src" / name
        wscript = d / "wscript"
        if not wscript.is_file():
            raise BuildError(f"module {name}: {wscript} is missing")
        srcs, hdrs = _wscript_lists(wscript)
        srcs = [s for s in srcs if s == "test.cc" or "test" not in s] + list(spec.get("extra", ()))
        if "only" in spec:
            missing = set(spec["only"]) - set(srcs)
            if missing:
                raise BuildError(f"module {name}: its wscript does not list {sorted(missing)}")
            srcs = [s for s in srcs if s in spec["only"]]
        for s in srcs:
            if not (d / s).is_file():
                raise BuildError(f"module {name}: source {s} listed by its wscript is missing")
            sources.append(d / s)
        headers += [d / h for h in hdrs if (d / h).is_file()]
    return sources, headers


def install_headers(tree: Path, headers) -> Path:
    """Flat ``<build>/include/ns3/`` as waf's ``build/ns3`` (configuration headers generated)."""
    inc = build_dir() / "include" / "ns3"
    for h in headers:
        _write_if_changed(inc / h.name, h.read_bytes())
    for name, defines in CONFIG_HEADERS.items():
        guard = re.sub(r"\W", "_", name).upper()
        body = "".join(f"#define {d} 1\n" for d in defines)
        _write_if_changed(inc / name, f"#ifndef {guard}\n#define {guard}\n{body}#endif\n".encode())
    return inc.parent


# ---------------------------------------------------------------------------------------- compile

def _makefile(cxx: str, sources, include_dir: Path, wifi_sources=()) -> str:
    out = build_dir()
    objs = []
    wifi_objs = []
    rules = []
    stamp = out / "flags.stamp"  # rewritten only when the compiler or its flags change: then all is rebuilt
    _write_if_changed(stamp, f"{cxx}\n{compiler_version(cxx)}\n{CXXFLAGS}\n{CFLAGS}\n{LIBS}\n".encode())
    wifi_set = set(wifi_sources)
    for src in [*sources, *wifi_sources]:
        rel = src.relative_to(out / "tree" / "src")
        obj = out / "obj" / rel.with_suffix(".o")
        (wifi_objs if src in wifi_set else objs).append(obj)
        if src.suffix == ".c":
            cc = "$(CC)"
            flags = "$(CFLAGS)"
        else:
            cc = "$(CXX)"
            flags = "$(CXXFLAGS)"
        rules.append(f"{obj}: {src} {stamp}\n\t@mkdir -p $(@D)\n\t{cc} {flags} -MMD -MP -I{include_dir} "
                     f"-c $< -o $@\n")
    lib = out / "lib" / "libns3-mptcp.a"
    wifi_lib = out / "lib" / "libns3-wifi.a"
    binary = binary_path()
    wire_src, wire_bin, wire_obj = _wire_source(), wire_binary_path(), out / "obj" / "driver-wire.o"
    wifi_bin, wifi_obj = wifi_binary_path(), out / "obj" / "driver-wifi.o"
    cc = shutil.which("gcc") or shutil.which("cc") or "cc"
    text = [
        "# Generated by cmtlab.papers_sim.build — do not edit (re-generated on every build).",
        f"CXX := {cxx}", f"CC := {cc}",
        f"CXXFLAGS := {' '.join(CXXFLAGS)}", f"CFLAGS := {' '.join(CFLAGS)}", f"LIBS := {' '.join(LIBS)}",
        "", f"all: {binary} {wire_bin}", f"wifi: {wifi_bin}", "",
        f"OBJS := {' '.join(str(o) for o in objs)}",
        f"WIFI_OBJS := {' '.join(str(o) for o in wifi_objs)}",
        f"{lib}: $(OBJS)\n\t@mkdir -p $(@D)\n\trm -f $@.tmp\n\tar rcs $@.tmp $(OBJS)\n\tmv -f $@.tmp $@\n",
        f"{wifi_lib}: $(WIFI_OBJS)\n\t@mkdir -p $(@D)\n\trm -f $@.tmp\n\tar rcs $@.tmp $(WIFI_OBJS)\n\tmv -f $@.tmp $@\n",
        f"{wifi_obj}: {WIFI_DRIVER_SOURCE} {stamp}\n\t@mkdir -p $(@D)\n\t$(CXX) $(CXXFLAGS) -MMD -MP "
        f"-I{include_dir} -c $< -o $@\n",
        f"{wifi_bin}: {wifi_obj} {lib} {wifi_lib}\n\t@mkdir -p $(@D)\n\t$(CXX) -o $@.tmp $< "
        f"-Wl,--whole-archive {wifi_lib} {lib} -Wl,--no-whole-archive $(LIBS)\n\tmv -f $@.tmp $@\n",
        f"{out / 'obj' / 'driver.o'}: {DRIVER_SOURCE} {stamp}\n\t@mkdir -p $(@D)\n\t$(CXX) $(CXXFLAGS) -MMD -MP "
        f"-I{include_dir} -c $< -o $@\n",
        f"{binary}: {out / 'obj' / 'driver.o'} {lib}\n\t@mkdir -p $(@D)\n\t$(CXX) -o $@.tmp $< "
        f"-Wl,--whole-archive {lib} -Wl,--no-whole-archive $(LIBS)\n\tmv -f $@.tmp $@\n",
        f"{wire_obj}: {wire_src} {stamp}\n\t@mkdir -p $(@D)\n\t$(CXX) $(CXXFLAGS) -MMD -MP -I{include_dir} -c $< -o $@\n",
        f"{wire_bin}: {wire_obj} {lib}\n\t@mkdir -p $(@D)\n\t$(CXX) -o $@.tmp $< "
        f"-Wl,--whole-archive {lib} -Wl,--no-whole-archive $(LIBS)\n\tmv -f $@.tmp $@\n",
        *rules,
        "-include $(OBJS:.o=.d)",
        "-include $(WIFI_OBJS:.o=.d)" if wifi_objs else "",
        f"-include {out / 'obj' / 'driver-wifi.d'}",
        f"-include {out / 'obj' / 'driver-wire.d'}",
        f"-include {out / 'obj' / 'driver.d'}",
        "",
    ]
    return "\n".join(text)


def build(*, jobs: int | None = None, log=print, quiet: bool = False, wifi: bool = True) -> Path:
    """Build (or bring up to date) the model and the scenario drivers; returns the driver's path.

    ``jobs``: parallel compile jobs (default: the usable cores).  ``wifi``: also the Wi-Fi modules
    (:data:`WIFI_MODULES`) and the Wi-Fi driver (:func:`wifi_binary_path`).  Raises
    :class:`BuildError` naming what is missing (compiler, make, patch, an archive) or what failed.
    """
    if not isinstance(wifi, (bool,)):
        raise ValueError(f"wifi must be True or False, got {wifi!r}")
    if jobs is None:
        jobs = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be an integer >= 1, got {jobs!r}")
    cxx = compiler()
    make = _need_tool("make", "make")
    if not DRIVER_SOURCE.is_file():
        raise BuildError(f"the scenario driver {DRIVER_SOURCE} is missing")
    t0 = time.monotonic()
    tree = prepare_sources(log=log)
    sources, headers = module_files(tree)
    wifi_sources, wifi_headers = module_files(tree, WIFI_MODULES)
    wifi_sources = [s for s in wifi_sources if s not in set(sources)]
    include_dir = install_headers(tree, headers + wifi_headers)
    out = build_dir()
    if wifi and not WIFI_DRIVER_SOURCE.is_file():
        raise BuildError(f"the Wi-Fi scenario driver {WIFI_DRIVER_SOURCE} is missing")
    _write_if_changed(out / "Makefile", _makefile(cxx, sources, include_dir, wifi_sources).encode())
    cmd = [make, "-f", str(out / "Makefile"), f"-j{jobs}", "all", *(["wifi"] if wifi else [])]
    if quiet:
        cmd.append("-s")
    res = subprocess.run(cmd, cwd=out, capture_output=quiet, text=True)
    if res.returncode != 0:
        detail = (res.stdout or "")[-4000:] + (res.stderr or "")[-4000:] if quiet else ""
        raise BuildError(f"compiling the papers' simulator failed (make exit {res.returncode}); "
                         f"see the compiler output above{': ' + detail if detail else ''}")
    info = {"compiler": compiler_version(cxx), "cxxflags": list(CXXFLAGS), "sources_compiled": len(sources),
            "wifi_sources_compiled": len(wifi_sources) if wifi else 0,
            **source_identity(), "driver_sha256": sha256_file(DRIVER_SOURCE),
            "wifi_driver_sha256": sha256_file(WIFI_DRIVER_SOURCE) if WIFI_DRIVER_SOURCE.is_file() else None}
    _write_if_changed(out / "build-info.json", json.dumps(info, indent=1, sort_keys=True).encode())
    log(f"papers-sim: {binary_path()} up to date ({len(sources)} model sources"
        + (f", {wifi_binary_path().name} with {len(wifi_sources)} Wi-Fi sources" if wifi else "")
        + f", {time.monotonic() - t0:.1f} s)")
    return binary_path()


def ensure_built(*, log=None, wifi: bool = False) -> Path:
    """The driver, building it first if it is missing or out of date (quietly unless ``log``);
    ``wifi``: the Wi-Fi driver too."""
    return build(log=log or (lambda *_: None), quiet=log is None, wifi=wifi)
