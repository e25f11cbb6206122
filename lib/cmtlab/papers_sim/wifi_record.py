"""Recorded runs of the papers' simulator over Wi-Fi, with provenance, pinned by SHA-256 and checked when read.

A *plan* (``data/papers-sim/wifi/<name>.plan.json``) says which runs a recording holds, as data:
the fixed parameters of :func:`cmtlab.papers_sim.wifi.scenario` and a list of axes, whose
product is the runs.  An axis has a ``label`` (the column it adds), ``values`` (a list, or
``{"range": [start, stop]}`` for integers) and a ``set`` template of scenario parameters in
which the string ``"$"`` stands for the value (``{"drop_rate": [0.0, "$"]}``), or ``cases``: a
mapping of label values to parameters (``{"PR-R": {"reordering": "pr_r"}}``).  An optional ``more``
adds runs after the product: a list of blocks, each replacing the ``values`` of some axes
(``{"distance_m": [10.0], "seed": {"range": [3, 12]}}``: more seeds at 10 m only) and expanding to
that block's product; a run already expanded is not repeated.  Runs added this way come after the
earlier ones, so ``record(append=True)`` writes only them, after the recorded rows' unchanged bytes.  ``record`` is
``"rows"`` (one row per run: the labels, then the columns of
:meth:`~cmtlab.papers_sim.model.PapersSimResult.row` without ``wall_time_s`` and
``code_version``, then ``command``) or ``"cwnd"`` (one row per sample and subflow: ``time_s``
from the first data segment, ``subflow`` 1.., ``cwnd_segments``).  ``live`` lists label sets whose
rows a test re-runs (``tests/test_papers_sim_wifi.py``).  This module knows plans, not papers:
what a plan is for is in its ``description``.

``python -m cmtlab.papers_sim record-wifi`` (part of ``make papers-sim-data``) runs every plan in
parallel over the usable cores, printing progress, and writes ``<name>.csv`` and
``provenance.json``: the archives and patches (name, kind, SHA-256), both drivers' SHA-256, the
compiler and flags, the code version, and per plan the plan's SHA-256, its fixed parameters,
the number of runs and seeds, and the CSV's rows and SHA-256.  Every file written (each CSV and
``provenance.json``) is pinned in ``data/MANIFEST.json`` (:func:`cmtlab.pinned.pin`), and so are the
plans.  :func:`load` reads a CSV through :func:`cmtlab.pinned.read_csv` — its bytes against the manifest,
every row for possible values (counters >= 0, goodput at most the paths' 54 Mbit/s each) — and checks the
plan against the SHA-256 it was recorded from: a changed byte is an error naming the file and how to
regenerate it.

The loader other modules use: ``load(name)`` for ``name`` in ``"alheid-fig4"``, ``"alheid-fig5"``,
``"alheid-fig6-cwnd"`` (:func:`recorded_names`), and :func:`provenance`.
"""

from __future__ import annotations

import hashlib
import io
import itertools
import json
import shlex
import time
from pathlib import Path

import pandas as pd

from .. import pinned
from . import build as bld

DATA_DIR = bld.REPO / "data" / "papers-sim" / "wifi"
PROVENANCE = DATA_DIR / "provenance.json"
DROP_COLUMNS = ("wall_time_s", "code_version")
RECORD_KINDS = ("rows", "cwnd")
REGENERATE = "make papers-sim-data  (python -m cmtlab.papers_sim record-wifi)"
#: The recordings' folder and provenance in the pinned data (:mod:`cmtlab.pinned`).
PINNED_DIR = "papers-sim/wifi"
PINNED_PROVENANCE = f"{PINNED_DIR}/provenance.json"
#: The manifest's ``regenerate`` of a plan: written by hand, not by a command.
PLAN_REGENERATE = "written by hand (data/papers-sim/wifi/README.md); after editing it: python -m cmtlab.pinned pin " \
                  "<the plan> && make papers-sim-data"


class RecordError(RuntimeError):
    """A recorded file is missing, changed, or does not match its plan (the message says how to regenerate)."""


# ---------------------------------------------------------------------------------------- plans

def plan_path(name: str) -> Path:
    """The plan's file (in the pinned root's ``papers-sim/wifi/``: the checkout's, or :func:`cmtlab.pinned.using_root`'s)."""
    return pinned.resolve(f"{PINNED_DIR}/{name}.plan.json")


def plan_names() -> list[str]:
    """The plans in ``data/papers-sim/wifi/``, sorted."""
    return sorted(p.name[: -len(".plan.json")] for p in pinned.resolve(PINNED_DIR).glob("*.plan.json"))


def load_plan(name: str) -> dict:
    """A plan, read through :func:`cmtlab.pinned.read_json` (pinned: after editing one, pin it with ``python -m
    cmtlab.pinned pin <the plan>``) and checked: ``name`` matches the file, the axes are well formed."""
    names = plan_names()
    rel = f"{PINNED_DIR}/{name}.plan.json"
    if name not in names and rel not in pinned.manifest()["files"]:
        raise ValueError(f"name must be one of the plans {names}, got {name!r}")
    path = plan_path(name)
    plan = pinned.read_json(rel)
    if not isinstance(plan, dict):
        raise ValueError(f"{path}: a plan is a JSON object, got {type(plan).__name__}")
    for key in ("name", "description", "scenario", "axes", "record"):
        if key not in plan:
            raise ValueError(f"{path}: the plan has no {key!r}")
    if plan["name"] != name:
        raise ValueError(f"{path}: the plan's name is {plan['name']!r}, not {name!r}")
    if plan["record"] not in RECORD_KINDS:
        raise ValueError(f"{path}: record must be one of {RECORD_KINDS}, got {plan['record']!r}")
    for ax in plan["axes"]:
        if "label" not in ax or ("cases" in ax) == ("values" in ax):
            raise ValueError(f"{path}: an axis needs a label and either values (with set) or cases, got {ax!r}")
        if "values" in ax and "set" not in ax:
            raise ValueError(f"{path}: axis {ax['label']!r} has values but no set template")
    labels = {ax["label"]: ax for ax in plan["axes"]}
    more = plan.get("more", [])
    if not isinstance(more, list):
        raise ValueError(f"{path}: more must be a list of blocks, got {type(more).__name__}")
    for block in more:
        if not isinstance(block, dict) or not block:
            raise ValueError(f"{path}: a block of more maps axis labels to values, got {block!r}")
        for label, values in block.items():
            if label not in labels or "values" not in labels[label]:
                raise ValueError(f"{path}: more names {label!r}, which is not an axis with values "
                                 f"(axes with values: {sorted(k for k, a in labels.items() if 'values' in a)})")
            if not (isinstance(values, list) or (isinstance(values, dict) and list(values) == ["range"])):
                raise ValueError(f"{path}: more's values of {label!r} must be a list or {{\"range\": [start, stop]}}, "
                                 f"got {values!r}")
    return plan


def _axis_items(ax):
    """``[(label value, scenario parameters)]`` of one axis."""
    if "cases" in ax:
        return [(k, dict(v)) for k, v in ax["cases"].items()]
    values = ax["values"]
    if isinstance(values, dict):
        values = list(range(*values["range"]))

    def fill(t, v):
        if t == "$":
            return v
        if isinstance(t, list):
            return [fill(x, v) for x in t]
        if isinstance(t, dict):
            return {k: fill(x, v) for k, x in t.items()}
        return t
    return [(v, fill(ax["set"], v)) for v in values]


def _blocks(plan: dict) -> list[list[dict]]:
    """The axes of the plan's product, then those of each ``more`` block (its axes' values replaced)."""
    blocks = [plan["axes"]]
    for block in plan.get("more", []):
        blocks.append([{**ax, "values": block[ax["label"]]} if ax["label"] in block else ax for ax in plan["axes"]])
    return blocks


def _label_key(labels: dict) -> tuple:
    return tuple(sorted((k, str(v)) for k, v in labels.items()))


def expand(plan: dict) -> list[tuple[dict, object]]:
    """``(labels, WifiScenario)`` of every run of a plan, in the plan's order: the axes' product (the last
    axis fastest), then each ``more`` block's product, without repeating a run."""
    from .wifi import scenario

    out, seen = [], set()
    for axes in _blocks(plan):
        for combo in itertools.product(*[_axis_items(ax) for ax in axes]):
            labels, params = {}, dict(plan["scenario"])
            for ax, (value, p) in zip(axes, combo):
                labels[ax["label"]] = value
                params.update(p)
            key = _label_key(labels)
            if key in seen:
                continue
            seen.add(key)
            out.append((labels, scenario(**params)))
    return out


def seed_count(plan: dict) -> int | str:
    """How many seeds a plan runs per point: the size of its ``seed`` axis (1 without one); with ``more``
    blocks that change the seeds, the range of counts per point as ``"3-12"``."""
    seed_axes = [ax for axes in _blocks(plan) for ax in axes if ax["label"] == "seed"]
    if not seed_axes:
        return 1
    if not plan.get("more"):
        return len(_axis_items(seed_axes[0]))
    per_point: dict = {}
    for labels, _ in expand(plan):
        key = _label_key({k: v for k, v in labels.items() if k != "seed"})
        per_point[key] = per_point.get(key, 0) + 1
    lo, hi = min(per_point.values()), max(per_point.values())
    return lo if lo == hi else f"{lo}-{hi}"


# ---------------------------------------------------------------------------------------- running

def _relative_command(sc) -> str:
    return shlex.join(["mptcp-wifi-scenario", *sc.command("x")[1:]])


def _rows(plan, labels, sc, result) -> list[dict]:
    if plan["record"] == "rows":
        row = {k: v for k, v in result.row().items() if k not in DROP_COLUMNS}
        return [{**labels, **row, "command": _relative_command(sc)}]
    samples = result.samples
    rows = []
    for i in range(sc.n_subflows):
        col = f"sf{i}_cwnd_segments"
        if col not in samples:
            continue
        for t, w in zip(samples["time_s"], samples[col]):
            if t >= 0 and w == w:
                rows.append({**labels, "subflow": i + 1, "time_s": float(t), "cwnd_segments": float(w), "seed": sc.seed,
                             "scenario_key": sc.key()})
    return rows


def run_cases(plan: dict, cases, *, workers: int | None = None, progress: bool = True, log=None) -> pd.DataFrame:
    """Run ``cases`` (``(labels, WifiScenario)``) of ``plan`` live, in parallel
    (:func:`cmtlab.papers_sim.wifi.run_many`, progress lines), and return the table in the recorded
    layout, in the cases' order."""
    from .wifi import run_many

    results = run_many([sc for _, sc in cases], workers=workers, progress=progress, desc=f"papers-sim-wifi: {plan['name']}",
                       log=log)
    return pd.DataFrame([r for (labels, sc), res in zip(cases, results) for r in _rows(plan, labels, sc, res)])


def run_plan(name: str, *, workers: int | None = None, progress: bool = True) -> pd.DataFrame:
    """Run every case of plan ``name`` now (live)."""
    plan = load_plan(name)
    return run_cases(plan, expand(plan), workers=workers, progress=progress)


def _csv_bytes(table: pd.DataFrame) -> bytes:
    buf = io.StringIO()
    table.to_csv(buf, index=False)
    return buf.getvalue().encode()


def provenance_now() -> dict:
    """What a recording made now is made of: the model's provenance (:func:`cmtlab.papers_sim.record.provenance_now`:
    archives, patches, the point-to-point driver, compiler, flags) with the Wi-Fi driver and code version."""
    from . import record
    from .wifi import code_version

    prov = record.provenance_now()
    prov["model"] += ", over ns-3.7 Wi-Fi (802.11a OFDM, the 802.11g stand-in): cmtlab.papers_sim.wifi"
    prov["regenerate"] = REGENERATE
    prov["wifi_driver"] = {"file": str(bld.WIFI_DRIVER_SOURCE.relative_to(bld.REPO)),
                           "sha256": bld.sha256_file(bld.WIFI_DRIVER_SOURCE)}
    prov["wifi_modules"] = [name for name, _ in bld.WIFI_MODULES]
    prov["code_version"] = code_version()
    return prov


def _recorded_prefix(plan: dict, cases, path: Path) -> tuple[bytes, list[str], int]:
    """For ``append``: the recorded CSV's bytes, header and how many of ``cases`` (a prefix of them) it holds,
    checked: a ``rows`` plan, its rows' labels the plan's first runs in order, the recording's code version."""
    if plan["record"] != "rows":
        raise RecordError(f"{path}: append needs a rows plan, {plan['name']!r} records {plan['record']!r}")
    if not path.is_file():
        raise RecordError(f"{path}: nothing recorded to append to; record it whole with {REGENERATE}")
    data = path.read_bytes()
    old = pd.read_csv(io.BytesIO(data))
    labels = [ax["label"] for ax in plan["axes"]]
    got = [_label_key({k: r[k] for k in labels}) for r in old[labels].to_dict("records")]
    want = [_label_key(lab) for lab, _ in cases[: len(got)]]
    if len(got) > len(cases) or got != want:
        raise RecordError(f"{path}: its {len(got)} rows are not the plan's first {len(got)} runs in order "
                          f"(a changed axis, not an added run): record it whole with {REGENERATE}")
    return data, list(old.columns), len(got)


#: What makes the model's binary (and so its rows): the same in a recording and in a checkout appending to it.
BINARY_KEYS = ("archives", "patches", "driver", "wifi_driver", "wifi_modules", "compiler", "cxxflags")


def _binary_differences(old: dict, now: dict) -> list[str]:
    """The :data:`BINARY_KEYS` in which a recorded provenance and this checkout's differ (empty: same binary)."""
    def norm(v):
        return json.dumps(v, sort_keys=True)
    return [k for k in BINARY_KEYS if norm(old.get(k)) != norm(now.get(k))]


def record(*, only=None, workers: int | None = None, progress: bool = True, append: bool = False) -> dict:
    """Run the plans (all, or those named in ``only``) and rewrite their CSVs and ``provenance.json``.

    ``append``: run only the runs a plan added after its recorded rows (a new ``more`` block: widening an
    existing block's values would interleave its runs with recorded ones, which is refused) and write them
    after the recorded bytes, which stay unchanged; needs the recording's binary (the
    same :data:`BINARY_KEYS`: archives, patches, drivers, compiler and flags — otherwise the old rows would
    not be what this checkout makes).  The recording's provenance is kept; the set's entry gets its new
    rows, SHA-256 and plan, and under ``appended`` each append's rows and the front end's code version."""
    names = plan_names() if not only else list(only)
    for n in names:
        load_plan(n)  # a ValueError naming a missing or malformed plan before anything runs
    bld.ensure_built(log=print, wifi=True)
    prov = provenance_now()
    old = json.loads(PROVENANCE.read_text()) if PROVENANCE.is_file() else {}
    same_code = old.get("code_version") == prov["code_version"]
    if append:
        differs = _binary_differences(old, prov)
        if differs:
            raise RecordError(f"{PROVENANCE}: the recording was made from other {', '.join(differs)} than this "
                              f"checkout's: appended rows would come from another model; record whole with {REGENERATE}")
        appended_by = prov["code_version"]
        prov = old                 # the recording's provenance stays; each appended set says what appended to it
    sets = dict(old.get("sets", {})) if same_code or append else {}
    for n in names:
        plan = load_plan(n)
        cases = expand(plan)
        path = DATA_DIR / f"{n}.csv"
        t0 = time.monotonic()
        if append:
            head, columns, n_old = _recorded_prefix(plan, cases, path)
            new = run_cases(plan, cases[n_old:], workers=workers, progress=progress,
                            log=lambda msg: print(msg, flush=True)) if n_old < len(cases) else pd.DataFrame(columns=columns)
            extra = sorted(set(new.columns) - set(columns))
            if extra:
                raise RecordError(f"{path}: the new runs have columns the recording has not: {extra}; record whole "
                                  f"with {REGENERATE}")
            body = _csv_bytes(new.reindex(columns=columns)).split(b"\n", 1)[1] if len(new) else b""
            data = head + body
            table = pd.read_csv(io.BytesIO(data))
            wall = round(sets.get(n, {}).get("wall_s", 0.0) + time.monotonic() - t0, 1)
        else:
            table = run_cases(plan, cases, workers=workers, progress=progress,
                              log=lambda msg: print(msg, flush=True))
            data = _csv_bytes(table)
            wall = round(time.monotonic() - t0, 1)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_bytes(data)
        tmp.replace(path)
        pinned.pin(path, regenerate=REGENERATE)                    # its entry in data/MANIFEST.json
        sets[n] = {"file": path.name, "rows": len(table), "runs": len(cases), "seeds": seed_count(plan),
                   "sha256": hashlib.sha256(data).hexdigest(), "plan": plan_path(n).name,
                   "plan_sha256": bld.sha256_file(plan_path(n)), "scenario": plan["scenario"],
                   "wall_s": wall}
        if append:
            earlier = old.get("sets", {}).get(n, {}).get("appended", [])
            now = [{"rows": len(table) - n_old, "after_row": n_old, "code_version": appended_by,
                    "wall_s": round(time.monotonic() - t0, 1)}] if len(table) > n_old else []
            if earlier or now:
                sets[n]["appended"] = [*earlier, *now]
        print(f"papers-sim-wifi: recorded {n}: {len(cases)} runs, {len(table)} rows into {path}", flush=True)
        prov["sets"] = {k: sets[k] for k in sorted(sets)}
        PROVENANCE.write_text(json.dumps(prov, indent=1, sort_keys=True) + "\n")
        pinned.pin(PROVENANCE, regenerate=REGENERATE)
    return prov


# ---------------------------------------------------------------------------------------- reading

def provenance() -> dict:
    """The recorded provenance (``data/papers-sim/wifi/provenance.json``, read through :mod:`cmtlab.pinned`)."""
    return pinned.read_json(PINNED_PROVENANCE)


def recorded_names() -> list[str]:
    """The names of the recorded plans (those of ``provenance.json``): what :func:`load` accepts."""
    return sorted(provenance().get("sets", {}))


def capacity_bps(row: dict) -> float | None:
    """The paths' capacity of a recorded row (bit/s): 54 Mbit/s, the fastest 802.11a mode, per subflow."""
    n = row.get("n_subflows")
    if not isinstance(n, (int, float)) or n != n or n < 1:
        return None
    return float(n) * 54e6


def load(name: str) -> pd.DataFrame:
    """A recorded plan's table (the stable loader: ``name`` one of :func:`recorded_names`).

    Read through :func:`cmtlab.pinned.read_csv`: the CSV's bytes against ``data/MANIFEST.json`` (and the
    provenance's SHA-256), every row for possible values (:func:`cmtlab.pinned.result_columns`, goodput at most
    :func:`capacity_bps`); the plan against the SHA-256 it was recorded from.  ``rows`` plans: one row per run
    (the plan's labels, e.g. ``distance_m``/``pdr2``, ``solution``, ``seed``, then the model's columns);
    ``cwnd`` plans: one row per sample and subflow (``solution``, ``seed``, ``subflow``, ``time_s``,
    ``cwnd_segments``).  A :class:`cmtlab.pinned.PinnedFileError` or :class:`RecordError` names the file and
    how to regenerate it."""
    prov = provenance()
    sets = prov.get("sets", {})
    if name not in sets:
        raise ValueError(f"name must be one of the recorded plans {sorted(sets)}, got {name!r}")
    entry = sets[name]
    rel = f"{PINNED_DIR}/{entry['file']}"
    table = pinned.read_csv(rel, results=True, capacity=capacity_bps)   # missing or changed: PinnedFileError
    pplan = plan_path(name)
    if not pplan.is_file() or bld.sha256_file(pplan) != entry["plan_sha256"]:
        raise RecordError(f"{pplan}: the plan changed (or is missing) since {entry['file']} was recorded from it; "
                          f"regenerate with {REGENERATE}")
    got = hashlib.sha256(pinned.read_bytes(rel)).hexdigest()
    if got != entry["sha256"]:
        raise RecordError(f"data/{rel}: SHA-256 {got} differs from the recorded {entry['sha256']} "
                          f"({PROVENANCE.name}): the file changed since it was recorded; regenerate it with {REGENERATE}")
    return table


def check_provenance() -> list[str]:
    """Differences between the recorded provenance and this checkout (empty: consistent): archives, patches,
    both drivers, every plan and CSV.  The compiler is not compared (the live test decides)."""
    prov = provenance()
    now = provenance_now()
    problems = []
    if {a["name"]: a["sha256"] for a in prov["archives"]} != {a["name"]: a["sha256"] for a in now["archives"]}:
        problems.append("the archives differ from the pinned ones")
    if {p["name"]: p["sha256"] for p in prov["patches"]} != {p["name"]: p["sha256"] for p in now["patches"]}:
        problems.append(f"the patches differ: recorded {sorted(p['name'] for p in prov['patches'])}, now "
                        f"{sorted(p['name'] for p in now['patches'])} (or their contents)")
    for key in ("driver", "wifi_driver"):
        if prov[key]["sha256"] != now[key]["sha256"]:
            problems.append(f"the {key.replace('_', ' ')} source changed since the data was recorded")
    for name, entry in prov.get("sets", {}).items():
        try:
            load(name)
        except (RecordError, ValueError) as exc:   # pinned.PinnedFileError is a ValueError
            problems.append(str(exc))
    missing = sorted(set(plan_names()) - set(prov.get("sets", {})))
    if missing:
        problems.append(f"plans never recorded: {missing}")
    return problems


def live_cases(name: str) -> list[tuple[dict, object]]:
    """The cases of plan ``name`` whose labels match one of its ``live`` label sets (for the live test)."""
    plan = load_plan(name)
    want = plan.get("live", [])
    return [(lab, sc) for lab, sc in expand(plan) if any(all(lab.get(k) == v for k, v in w.items()) for w in want)]


__all__ = ["DATA_DIR", "PROVENANCE", "PINNED_DIR", "PINNED_PROVENANCE", "RecordError", "recorded_names", "capacity_bps", "plan_names", "load_plan", "expand", "seed_count", "run_cases",
           "run_plan", "provenance_now", "record", "provenance", "load", "check_provenance", "live_cases"]
