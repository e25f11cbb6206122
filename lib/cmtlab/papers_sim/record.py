"""Recorded runs of the papers' simulator, with provenance, so the book builds without a compiler.

The papers declare what is recorded — record sets, each a name and a function returning
``(cases, run keyword arguments, runner)`` (:data:`cmtlab.papers.arabi.papers_sim.RECORD_SETS`,
:data:`cmtlab.papers.alheid.papers_sim.RECORD_SETS`) — and ``python -m cmtlab.papers record-papers-sim``
(``make papers-sim-data``) re-runs them with :func:`record_all`, which writes, under ``data/papers-sim/`` of the
repository:

* ``<set>.csv`` — one row per run: the labels, then the columns of
  :meth:`cmtlab.papers_sim.model.PapersSimResult.row` (``wall_time_s`` and ``code_version`` left
  out: the first is not repeatable, the second is in the provenance) and ``command``, the driver's
  exact arguments;
* ``provenance.json`` — the archives (file, sha256, origin), the patches (name, kind, sha256), the
  driver's sha256, the compiler's version and flags, the simulator's code version, the command
  that regenerates everything and, per set, its rows.

Every file written is pinned in ``data/MANIFEST.json`` (:func:`cmtlab.pinned.pin`) and read back through
:mod:`cmtlab.pinned`: :func:`load` checks a set's bytes against the manifest and every row for possible values
(a completed run's completion time, counters >= 0, a goodput at most the subflows' summed rates), naming the
file, row and column of a value that is not.  :func:`check_provenance` says whether the recorded data was
made from the sources and patches in this checkout (``tests/references/test_papers_sim.py`` requires it, and
re-runs a subset live requiring equal rows).  This module knows no paper: the record sets come from the callers.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import shlex

import pandas as pd

from .. import pinned
from . import build as bld

DATA_DIR = bld.REPO / "data" / "papers-sim"
PROVENANCE = DATA_DIR / "provenance.json"
#: The recording's folder and provenance file in the pinned data (:mod:`cmtlab.pinned`).
PINNED_DIR = "papers-sim"
PINNED_PROVENANCE = f"{PINNED_DIR}/provenance.json"
DROP_COLUMNS = ("wall_time_s", "code_version")
#: The command that regenerates the recording (written into its provenance).
COMMAND = "make papers-sim-data  (python -m cmtlab.papers record-papers-sim)"


def _relative_command(sc) -> str:
    return shlex.join(["mptcp-scenario", *sc.command("x")[1:]])


def run_set(name: str, sets: dict, *, workers=None, cache=True, progress=True) -> pd.DataFrame:
    """Run set ``name`` of ``sets`` (name → function returning ``(cases, run keyword arguments, runner)``) now
    (live) and return its table in the recorded layout."""
    if name not in sets:
        raise ValueError(f"name must be one of {sorted(sets)}, got {name!r}")
    cases, kw, runner = sets[name]()
    table = runner(cases, workers=workers, cache=cache, progress=progress, **kw)
    by_key = {}
    for _, sc in cases:
        for seed in sorted(set(int(x) for x in table["seed"])):
            run = sc.replace(seed=seed)
            by_key[run.key()] = run
    cmd = [_relative_command(by_key[k]) if k in by_key else "" for k in table["scenario_key"]]
    table = table.drop(columns=[c for c in DROP_COLUMNS if c in table.columns])
    table["command"] = cmd
    return table


def record_all(sets: dict, *, only=None, workers=None, progress=True) -> dict:
    """Re-run the record ``sets`` (name → function returning ``(cases, run keyword arguments, runner)``: all, or
    those named in ``only``) and rewrite them in ``data/papers-sim/``.  Every set's entry of the provenance
    carries the simulator's code version and the time of its own recording (``code_version``,
    ``generated_utc``; an entry written before entries had them inherits the file's top-level ones); the
    other recorded sets are kept with theirs — whether they still reproduce on this checkout is what the live
    tests re-running them decide."""
    names = list(sets) if not only else list(only)
    for n in names:
        if n not in sets:
            raise ValueError(f"unknown record set {n!r}; sets: {sorted(sets)}")
    record_sets = sets
    bld.ensure_built(log=print)
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    prov = provenance_now()
    old = json.loads(PROVENANCE.read_text()) if PROVENANCE.is_file() else {}
    sets = {}
    for name, entry in old.get("sets", {}).items():
        sets[name] = {"code_version": old.get("code_version"), "generated_utc": old.get("generated_utc"), **entry}
    for n in names:
        table = run_set(n, record_sets, workers=workers, progress=progress)
        path = DATA_DIR / f"{n}.csv"
        table.to_csv(path, index=False)
        sets[n] = {"file": path.name, "rows": len(table), "sha256": bld.sha256_file(path),
                   "code_version": prov["code_version"], "generated_utc": prov["generated_utc"]}
        pinned.pin(path, regenerate="make papers-sim-data")  # its entry in data/MANIFEST.json
        print(f"papers-sim: recorded {len(table)} runs into {path}")
    prov["sets"] = {k: sets[k] for k in sorted(sets)}
    PROVENANCE.write_text(json.dumps(prov, indent=1, sort_keys=True) + "\n")
    pinned.pin(PROVENANCE, regenerate="make papers-sim-data")
    return prov


def provenance_now() -> dict:
    """What a recording made now would be made of (archives, patches, driver, compiler, flags)."""
    from .model import code_version

    return {
        "model": "Chihani-Collange ns-3 MPTCP model (dzlab/mptcp-ns3 d4ad7bf) on ns-3.7",
        "regenerate": COMMAND,
        "archives": [{"name": a.name, "file": a.file, "sha256": a.sha256, "origin": a.url} for a in bld.ARCHIVES],
        "patches": [{"name": p["name"], "kind": p["kind"], "sha256": p["sha256"], "summary": p["summary"]}
                    for p in bld.patches()],
        "driver": {"file": str(bld.DRIVER_SOURCE.relative_to(bld.REPO)), "sha256": bld.sha256_file(bld.DRIVER_SOURCE)},
        "compiler": bld.compiler_version(),
        "cxxflags": list(bld.CXXFLAGS),
        "code_version": code_version(),
        "generated_utc": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }


def provenance() -> dict:
    """The recorded provenance (``data/papers-sim/provenance.json``, read through :mod:`cmtlab.pinned`)."""
    return pinned.read_json(PINNED_PROVENANCE)


def check_provenance() -> list[str]:
    """Differences between the recorded provenance and this checkout's sources (empty: consistent).

    Compared: archive hashes, patch names and hashes, the driver's hash; each CSV against its pinned
    SHA-256 (``data/MANIFEST.json``, :mod:`cmtlab.pinned`).  The compiler is not compared (another machine
    may have another g++ build; the live test decides).
    """
    prov = provenance()
    problems = []
    want = {a.name: a.sha256 for a in bld.ARCHIVES}
    got = {a["name"]: a["sha256"] for a in prov["archives"]}
    if want != got:
        problems.append(f"archives differ: recorded {got}, pinned {want}")
    want_p = {p["name"]: p["sha256"] for p in bld.patches()}
    got_p = {p["name"]: p["sha256"] for p in prov["patches"]}
    if want_p != got_p:
        problems.append(f"patches differ: recorded {sorted(got_p)}, now {sorted(want_p)} (or their contents)")
    if prov["driver"]["sha256"] != bld.sha256_file(bld.DRIVER_SOURCE):
        problems.append("the driver source changed since the data was recorded")
    for name, entry in prov.get("sets", {}).items():
        try:
            pinned.read_bytes(f"{PINNED_DIR}/{entry['file']}")
        except pinned.PinnedFileError as exc:
            problems.append(str(exc))
    return problems


def recorded_names() -> list[str]:
    """The names of the recorded sets (those of ``provenance.json``)."""
    return sorted(provenance().get("sets", {}))


def capacity_bps(row: dict) -> float | None:
    """The paths' capacity of a recorded row (bit/s): the sum of its subflows' rates (``sf<i>_rate_bps``), else
    ``rate_bps`` × ``paths`` (the sets that give one rate for every path); None when the row says nothing."""
    import math

    rates = [v for k, v in row.items() if k.startswith("sf") and k.endswith("_rate_bps") and isinstance(v, float)
             and math.isfinite(v)]
    if rates:
        return float(sum(rates))
    rate, paths = row.get("rate_bps"), row.get("paths", row.get("n_subflows"))
    if isinstance(rate, float) and math.isfinite(rate) and isinstance(paths, (int, float)) and paths == paths:
        return float(rate) * float(paths)
    return None


def load(name: str) -> pd.DataFrame:
    """A recorded set as a DataFrame (``ValueError`` for a name that is not recorded), read through
    :func:`cmtlab.pinned.read_csv`: checked against its pinned SHA-256, and every row for possible values
    (:func:`cmtlab.pinned.result_columns` with :func:`capacity_bps`)."""
    known = recorded_names()
    if name not in known:
        raise ValueError(f"name must be one of {known}, got {name!r}")
    return pinned.read_csv(f"{PINNED_DIR}/{name}.csv", results=True, capacity=capacity_bps)


def digest(table: pd.DataFrame) -> str:
    """sha256 of a table's CSV text (how a recorded table is identified)."""
    return hashlib.sha256(table.to_csv(index=False).encode()).hexdigest()


__all__ = ["DATA_DIR", "PROVENANCE", "PINNED_DIR", "PINNED_PROVENANCE", "COMMAND", "capacity_bps", "run_set", "record_all", "provenance_now", "provenance",
           "check_provenance", "recorded_names", "load", "digest"]

