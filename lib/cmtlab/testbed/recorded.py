"""Recorded kernel runs of the Linux-MPTCP chapter (``data/testbed/``) and a live subset beside them.

The chapter (``notebooks/linux-mptcp-validation.ipynb``) runs the real kernel in real time: its full
profile takes 11–13 minutes of transfers.  So the book keeps one recording of every full-profile kernel
run — the calibration, Alheid et al.'s Table I (autotuned and fixed buffers) and the Arabi runs — made
by :func:`record` (``make testbed-record`` or ``python -m cmtlab.testbed.record``), with its provenance
(kernel release, date, commit, parameters, command) in ``data/testbed/provenance.json``.

:class:`KernelRuns` decides, for every run the notebook's parameters ask for, where it comes from:

* ``live="all"``: every run on this machine's kernel, now (the quick profile, CI, and any reader who
  wants it);
* ``live="subset"`` (the full profile): a run whose *exact* configuration — labels (congestion
  control, repetition, kind, reading of Δ, Δ / variant), every path property, the kernel settings, run
  length and warm-up (:func:`job_key`) — is in the recording is served from it; a run that is not
  (a reader changed ``deltas_ms``, ``duration_s``, …) runs live: mismatched records are never served.
  Besides, a *live subset* of the recorded runs (``live_*`` parameters: the calibration at some rates and
  the first repetition(s) of some Table I cells) is re-run on this kernel and compared with the recorded
  runs of the same cell by :func:`agreement_band`; the chapter's verdicts still come from the recorded
  set, and a live run outside the band is shown as a finding (another kernel, another machine), never
  hidden and never fatal.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import os
import time
from pathlib import Path

import numpy as np
import pandas as pd

from .. import pinned
from .._git import checkout_state, git
from .._paths import REPO
from . import KernelSettings
from . import experiments as ex

ROOT = REPO
#: Where the recording lives (one CSV per experiment and ``provenance.json``).
DATA_DIR = ROOT / "data" / "testbed"
CHAPTER = ROOT / "notebooks" / "linux-mptcp-validation.ipynb"
FILES = {"pings": "calibration_pings.csv", "rates": "calibration_rates.csv", "table1": "table1.csv",
         "fixed": "table1_fixed_buffers.csv", "arabi": "arabi.csv"}
PROVENANCE = "provenance.json"
#: Earlier executions' Table I runs (per cell: runs, min, max, mean), from the notebook's git history.
HISTORY = "history.csv"
#: ``live`` values: every run live, or the recording plus a live subset.
LIVE_MODES = ("all", "subset")
#: The smallest half-width of the agreement band, % of the recorded mean: the delay line's rate precision
#: contract (single-path TCP goodput within 2 % of the rate, :data:`cmtlab.validation.kernel_table.RATE_ERROR_PCT`).
LIVE_FLOOR_PCT = 2.0
#: The chapter's parameters :class:`KernelRuns` reads (all of them are the notebook's ``parameters``).
PARAMETERS = ("calib_rates_mbps", "calib_one_way_ms", "calib_ping_count", "calib_duration_s", "deltas_ms", "meanings",
              "congestions", "repetitions", "duration_s", "warmup_s", "rate_mbps", "base_one_way_ms", "queue_packets",
              "fixed_buffer_deltas_ms", "fixed_buffer_bytes", "arabi_repetitions", "arabi_duration_s")
LIVE_PARAMETERS = ("live", "live_calib_rates_mbps", "live_congestions", "live_deltas_ms", "live_repetitions")
SOURCES = ("recorded", "live", "live check")


# ---------------------------------------------------------------- the runs a parameter set asks for
def arabi_warmup_s(arabi_duration_s: float) -> float:
    """The Arabi runs' warm-up: 2 s, or half a shorter run."""
    return min(2.0, arabi_duration_s / 2)


def calibration_keys(p: dict) -> list[dict]:
    """One :data:`cmtlab.testbed.experiments.CALIBRATION_KEYS` dict per calibrated rate of parameters ``p``."""
    return [dict(zip(ex.CALIBRATION_KEYS, (float(r) * 1e6, float(p["calib_one_way_ms"]) / 1e3, int(p["calib_ping_count"]),
                                           float(p["calib_duration_s"]), float(p["calib_duration_s"]) / 2)))
            for r in p["calib_rates_mbps"]]


def table1_jobs(p: dict) -> list[dict]:
    """The Table I jobs (:func:`cmtlab.testbed.experiments.table1_jobs`) of parameters ``p``."""
    return ex.table1_jobs(np.array(p["deltas_ms"], dtype=float) / 1e3, list(p["meanings"]), list(p["congestions"]),
                          repetitions=int(p["repetitions"]), duration_s=float(p["duration_s"]),
                          warmup_s=float(p["warmup_s"]), rate_bps=float(p["rate_mbps"]) * 1e6,
                          base_one_way_s=float(p["base_one_way_ms"]) / 1e3, queue_packets=int(p["queue_packets"]))


def fixed_buffer_jobs(p: dict) -> list[dict]:
    """Table I re-run with fixed socket buffers of ``fixed_buffer_bytes`` (Reno, one repetition) at
    ``fixed_buffer_deltas_ms``; none when that list is empty."""
    if not len(p["fixed_buffer_deltas_ms"]):
        return []
    b = int(p["fixed_buffer_bytes"])
    return ex.table1_jobs(np.array(p["fixed_buffer_deltas_ms"], dtype=float) / 1e3, list(p["meanings"]), ["reno"],
                          repetitions=1, duration_s=float(p["duration_s"]), warmup_s=float(p["warmup_s"]),
                          rate_bps=float(p["rate_mbps"]) * 1e6, base_one_way_s=float(p["base_one_way_ms"]) / 1e3,
                          queue_packets=int(p["queue_packets"]), settings=KernelSettings(sndbuf_bytes=b, rcvbuf_bytes=b))


def arabi_jobs(p: dict) -> list[dict]:
    """The Arabi jobs (:func:`cmtlab.testbed.experiments.arabi_jobs`) of parameters ``p``."""
    d = float(p["arabi_duration_s"])
    return ex.arabi_jobs(repetitions=int(p["arabi_repetitions"]), duration_s=d, warmup_s=arabi_warmup_s(d))


def run_key(run: dict) -> dict:
    """The columns of :meth:`cmtlab.testbed.TestbedResult.to_row` that a run's arguments fix (``run``: the
    ``"run"`` of a job): kind, paths (both directions), kernel settings, run length and warm-up."""
    paths = run["paths"]
    if any(q.forward.rate_schedule_bps is not None for q in paths):
        raise ValueError("run_key: paths with a rate schedule are not recorded by the chapter")
    k = {"simulator": "linux-mptcp" if run["mptcp"] else "linux-tcp", "n_paths": len(paths),
         "duration_s": run["duration_s"], "warmup_s": run["warmup_s"]}
    for i, q in enumerate(paths):
        f, b = q.forward, q.back
        k.update({f"path{i}_rate_bps": f.rate_bps, f"path{i}_delay_s": f.delay_s,
                  f"path{i}_queue_packets": f.queue_packets, f"path{i}_queue_bytes": f.queue_bytes,
                  f"path{i}_loss": f.loss, f"path{i}_reverse_rate_bps": b.rate_bps,
                  f"path{i}_reverse_delay_s": b.delay_s, f"path{i}_reverse_queue_packets": b.queue_packets,
                  f"path{i}_reverse_queue_bytes": b.queue_bytes, f"path{i}_reverse_loss": b.loss})
        if f.jitter_s or b.jitter_s:
            k.update({f"path{i}_jitter_s": f.jitter_s, f"path{i}_reverse_jitter_s": b.jitter_s})
    k.update(run["settings"].to_row())
    return k


def job_key(job: dict) -> dict:
    """What a recorded row must hold to stand for ``job``: its labels and :func:`run_key`."""
    return {**job["labels"], **run_key(job["run"])}


def _norm(v):
    """A value as compared between a job and a CSV row: None for missing, "True"/"False" for booleans, a float
    for anything numeric, else the text."""
    if v is None:
        return None
    if isinstance(v, (bool, np.bool_)):
        return str(bool(v))
    if isinstance(v, str):
        s = v.strip()
        if s in ("True", "False"):
            return s
        if s == "":
            return None
        try:
            f = float(s)
        except ValueError:
            return s
        return None if math.isnan(f) else f
    try:
        f = float(v)
    except (TypeError, ValueError):
        return str(v)
    return None if math.isnan(f) else f


def same(a, b) -> bool:
    """Whether two values are the same setting (:func:`_norm`; floats to a relative 1e-9: a CSV round trip)."""
    x, y = _norm(a), _norm(b)
    if isinstance(x, float) and isinstance(y, float):
        return math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-12)
    return x == y


def find(keys: list[dict], recorded: pd.DataFrame | None) -> list[int | None]:
    """Per key dict, the index of the one row of ``recorded`` holding every key's value (:func:`same`), or None
    when no row does (a column it needs is missing, or a value differs).  ValueError if several rows match:
    a recording holds each run once."""
    if recorded is None or not len(recorded):
        return [None] * len(keys)
    cols = {c: [_norm(v) for v in recorded[c]] for c in recorded.columns}
    out = []
    for key in keys:
        if any(c not in cols for c in key):
            out.append(None)
            continue
        hits = [i for i in range(len(recorded)) if all(same(cols[c][i], v) for c, v in key.items())]
        if len(hits) > 1:
            raise ValueError(f"the recording holds {len(hits)} rows for the run {key} (rows {hits}); it must hold one")
        out.append(recorded.index[hits[0]] if hits else None)
    return out


# ---------------------------------------------------------------- the recording on disk
@dataclasses.dataclass
class Recording:
    """The recorded runs (one frame per :data:`FILES` entry; empty frames when absent) and their provenance."""

    pings: pd.DataFrame
    rates: pd.DataFrame
    table1: pd.DataFrame
    fixed: pd.DataFrame
    arabi: pd.DataFrame
    provenance: dict
    directory: Path | None = None
    #: Earlier executions of the chapter (:func:`history_from_git`), for the agreement band only.
    history: pd.DataFrame | None = None

    @property
    def empty(self) -> bool:
        return not any(len(getattr(self, k)) for k in FILES)

    def describe(self) -> str:
        """One phrase: what was recorded, when, on which kernel (for the page)."""
        if self.empty:
            return "no recorded kernel runs"
        p = self.provenance
        n = sum(len(getattr(self, k)) for k in ("rates", "table1", "fixed", "arabi"))
        when = p.get("recorded_utc", ["?", "?"])
        return f"{n} kernel runs recorded between {when[0]} and {when[1]} UTC"

    def provenance_phrase(self) -> str:
        """The recording's kernel build and commit (the page's provenance line, not its body)."""
        if self.empty:
            return "no recorded kernel runs"
        p = self.provenance
        return (f"the recorded kernel runs were made on kernel {p.get('kernel', '?')} "
                f"(commit {str(p.get('commit', '?'))[:10]}{' with local changes' if p.get('dirty') else ''})")


def empty_recording() -> Recording:
    return Recording(*(pd.DataFrame() for _ in FILES), provenance={})


#: What a recorded calibration ping may hold (cmtlab.pinned checks every row when it is read).
PING_COLUMNS = {"rate_bps": pinned.Column(low=0), "configured_rtt_s": pinned.Column(low=0),
                "expected_rtt_s": pinned.Column(low=0), "rtt_s": pinned.Column(low=0)}
#: What a row of the earlier executions' history may hold.
HISTORY_VALUES = {"runs": pinned.Column(low=1, integer=True), "min_bps": pinned.Column(low=0),
                   "max_bps": pinned.Column(low=0), "mean_bps": pinned.Column(low=0)}
HISTORY_RULES = [pinned.RowRule(("min_bps", "mean_bps", "max_bps"),
                                lambda r: r["min_bps"] <= r["mean_bps"] * (1 + 1e-9) and r["mean_bps"] <= r["max_bps"] * (1 + 1e-9),
                                "mean_bps", "min_bps <= mean_bps <= max_bps")]


def _read_table(d: Path, key: str) -> pd.DataFrame:
    """One recorded table, through :func:`cmtlab.pinned.read_csv`: in ``data/`` checked against its pinned SHA-256;
    everywhere every row for possible values (counters >= 0, goodput at most the paths' rates, …)."""
    if key == "pings":
        return pinned.read_csv(d / FILES[key], columns=PING_COLUMNS)
    return pinned.read_csv(d / FILES[key], results=True, capacity=pinned.path_rates_capacity)


def load(directory=None) -> Recording:
    """The recording in ``directory`` (missing files are empty frames; no directory: an empty recording).  Every
    file is read through :mod:`cmtlab.pinned`: in ``data/`` a file that differs from its pinned SHA-256, and
    anywhere a row with an impossible value, is an error naming the file (and the row and column).  Default: the
    recording in the pinned data (``data/testbed``)."""
    d = Path(directory) if directory is not None else pinned.resolve("testbed")
    if not d.is_dir():
        return empty_recording()
    frames = {k: _read_table(d, k) if (d / f).is_file() else pd.DataFrame() for k, f in FILES.items()}
    prov = pinned.read_json(d / PROVENANCE) if (d / PROVENANCE).is_file() else {}
    hist = pinned.read_csv(d / HISTORY, columns=HISTORY_VALUES, rows=HISTORY_RULES, dtype={"commit": str, "kernel": str},
                           keep_default_na=False) if (d / HISTORY).is_file() else None
    return Recording(**frames, provenance=prov, directory=d, history=hist)


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def chapter_parameters(profile: str = "full", notebook=CHAPTER) -> dict:
    """The chapter's parameters as its ``parameters`` cell sets them under ``profile`` (the cell is executed with
    ``CMTLAB_PROFILE=profile``)."""
    import nbformat

    from ..report.profile import using

    nb = nbformat.read(str(notebook), as_version=4)
    cells = [c for c in nb.cells if "parameters" in c.metadata.get("tags", [])]
    if len(cells) != 1:
        raise ValueError(f"{notebook}: one cell tagged 'parameters' expected, found {len(cells)}")
    with using(profile):
        ns: dict = {}
        exec(cells[0].source, ns)
    return {k: ns[k] for k in PARAMETERS}


#: Module paths that earlier executions' ``parameters`` cells import and that have moved since: an
#: earlier cell is read with the current path, so the history of the chapter does not depend on the layout.
MOVED_MODULES = {"cmtlab.config": "cmtlab.report.profile"}


def _current_paths(source: str) -> str:
    """A ``parameters`` cell of an earlier execution, its imports of moved modules (:data:`MOVED_MODULES`) read
    with their current paths."""
    import re

    for old, new in MOVED_MODULES.items():
        source = re.sub(rf"\b{re.escape(old)}\b", new, source)
    return source


def _utc(t: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.gmtime(t))


def record(parameters: dict | None = None, directory=DATA_DIR, *, command: str = "python -m cmtlab.testbed.record",
           attempts: int = 3, progress_bar: bool = True) -> Recording:
    """Run every kernel run of ``parameters`` (default: the chapter's full profile, :func:`chapter_parameters`)
    on this machine's kernel and write them to ``directory`` (:data:`FILES`, each rewritten after its experiment)
    with ``provenance.json``: kernel, MPTCP facts, first and last run (UTC), git commit and whether ``lib/`` had
    local changes when the recording started, the parameters, the command, the delay line's source sha256, the load average range, and per
    file its rows and sha256.  A failed run is retried up to ``attempts`` times (recorded per row)."""
    from .. import testbed

    p = dict(parameters or chapter_parameters("full"))
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    testbed.check_environment(mptcp=True)
    testbed.cleanup_stale()
    commit, dirty = checkout_state(ROOT)   # the code that runs
    t0 = time.time()
    frames: dict[str, pd.DataFrame] = {}
    pings, rates = [], []
    for keys in calibration_keys(p):
        pi, row = ex.calibrate_rate(keys["calib_rate_bps"], keys["calib_one_way_s"], ping_count=keys["calib_ping_count"],
                                    duration_s=keys["calib_duration_s"], warmup_s=keys["calib_warmup_s"],
                                    provenance=True)
        pings.append(pi)
        rates.append(row)
    frames["pings"], frames["rates"] = pd.concat(pings, ignore_index=True), pd.DataFrame(rates)
    for k in ("pings", "rates"):
        frames[k].to_csv(d / FILES[k], index=False)
    for k, jobs, desc in (("table1", table1_jobs(p), "Table I"), ("fixed", fixed_buffer_jobs(p), "fixed buffers"),
                          ("arabi", arabi_jobs(p), "Arabi")):
        frames[k] = ex.run_jobs(jobs, desc=f"{desc} (recording)", attempts=attempts, provenance=True,
                                progress_bar=progress_bar)
        frames[k].to_csv(d / FILES[k], index=False)
    t1 = time.time()
    runs = pd.concat([frames[k] for k in ("rates", "table1", "fixed", "arabi")], ignore_index=True)
    info = testbed.kernel_info()
    prov = {"what": "the kernel runs of notebooks/linux-mptcp-validation.ipynb (full profile)",
            "command": command, "kernel": info["kernel"], "kernel_info": info,
            "recorded_utc": [_utc(t0), _utc(t1)], "real_time_minutes": round((t1 - t0) / 60, 2),
            "commit": commit, "dirty": dirty,
            "parameters": {k: (list(v) if isinstance(v, (list, tuple)) else v) for k, v in p.items()},
            "delayline_source_sha256": _sha256(Path(testbed.__file__).with_name("delayline.c")),
            "load1_range": [round(float(runs[["load1_before", "load1_after"]].min().min()), 2),
                            round(float(runs[["load1_before", "load1_after"]].max().max()), 2)],
            "attempts_max": int(runs.attempts.max()) if "attempts" in runs else 1,
            "cpus": os.cpu_count(),
            "files": {f: {"rows": len(frames[k]), "sha256": _sha256(d / f)} for k, f in FILES.items()}}
    (d / PROVENANCE).write_text(json.dumps(prov, indent=1, sort_keys=True) + "\n")
    for f in (*FILES.values(), PROVENANCE):  # in data/: their entries in data/MANIFEST.json (cmtlab.pinned)
        pinned.pin(d / f, regenerate="make testbed-record (root; about 12 minutes of real time)")
    write_history(d, upto=commit or "HEAD")
    return load(d)


def write_history(directory=DATA_DIR, *, upto: str | None = None) -> pd.DataFrame:
    """Write :data:`HISTORY` (:func:`history_from_git` with the recording's parameters, commits up to ``upto``,
    default the recording's commit) and note it in ``provenance.json`` (``history``: commits, rows, sha256)."""
    d = Path(directory)
    prov = json.loads((d / PROVENANCE).read_text())
    upto = upto or prov.get("commit") or "HEAD"
    hist = history_from_git(prov["parameters"], upto=upto)
    hist.to_csv(d / HISTORY, index=False)
    prov["history"] = {"file": HISTORY, "upto_commit": upto, "executions": sorted(set(hist.commit)),
                       "rows": len(hist), "sha256": _sha256(d / HISTORY),
                       "command": "python -m cmtlab.testbed.record --history-only"}
    (d / PROVENANCE).write_text(json.dumps(prov, indent=1, sort_keys=True) + "\n")
    pinned.pin(d / HISTORY, regenerate=".venv/bin/python -m cmtlab.testbed.record --history-only")
    pinned.pin(d / PROVENANCE, regenerate="make testbed-record (root; about 12 minutes of real time)")
    return hist


def verify_files(rec: Recording) -> list[str]:
    """Files of ``rec`` that differ from what was recorded (empty: all as recorded): in ``data/`` against their
    pinned SHA-256 (:mod:`cmtlab.pinned`, the one manifest), elsewhere against the recording's provenance; and
    every file's row count against the provenance."""
    bad = []
    for k, f in FILES.items():
        want = rec.provenance.get("files", {}).get(f)
        path = rec.directory / f if rec.directory is not None else None
        if want is None or path is None or not path.is_file():
            bad.append(f"{f}: not in the recording")
            continue
        try:
            data = pinned.read_bytes(path)  # data/: the manifest's check
        except pinned.PinnedFileError as exc:
            bad.append(f"{f}: {exc}")
            continue
        if pinned.sha256_bytes(data) != want["sha256"] or len(getattr(rec, k)) != want["rows"]:
            bad.append(f"{f}: differs from provenance.json")
    return bad


# ---------------------------------------------------------------- earlier executions (git history)
#: The parameters that fix Table I's runs: an earlier execution counts for the agreement band only with all equal.
TABLE1_PARAMETERS = ("deltas_ms", "meanings", "congestions", "repetitions", "duration_s", "warmup_s", "rate_mbps",
                     "base_one_way_ms", "queue_packets")
HISTORY_COLUMNS = ["commit", "committed_utc", "kernel", "congestion", "kind", "meaning", "delta_s", "runs", "min_bps",
                   "max_bps", "mean_bps"]


def stored_gains(nb: dict) -> pd.DataFrame | None:
    """The kernel's gains table as an executed chapter stored it (HTML of :func:`cmtlab.validation.kernel.gains_table`),
    or None: columns of :data:`cmtlab.validation.kernel.GAINS_COLUMNS`' shown names, as numbers where numeric."""
    import html
    import re

    for cell in nb.get("cells", []):
        for o in cell.get("outputs", []) or []:
            h = "".join(o.get("data", {}).get("text/html", ""))
            rows = [[html.unescape(re.sub(r"<[^>]+>", "", x)).strip() for x in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", r, re.S)]
                    for r in re.findall(r"<tr>(.*?)</tr>", h, re.S)]
            if rows and rows[0][:3] == ["congestion", "meaning", "Δ (ms)"] and "std (pp)" in rows[0]:
                f = pd.DataFrame([dict(zip(rows[0], r[-len(rows[0]):])) for r in rows[1:]])
                f["meaning"] = f.meaning.replace({"one-way": "one_way"})
                for c in f.columns:
                    if c not in ("congestion", "meaning"):
                        f[c] = pd.to_numeric(f[c], errors="coerce")
                return f
    return None


def _cells_of_execution(f: pd.DataFrame) -> list[dict]:
    """Per cell of a stored gains table: kind, labels, runs and the per-run goodput range (an MPTCP run's goodput is
    the TCP mean × (1 + its gain); only the TCP mean is stored, so a TCP cell is that one value)."""
    out, seen = [], set()
    for r in f.itertuples(index=False):
        d = dict(zip(f.columns, r))
        delta_ms, tcp = int(d["Δ (ms)"]), d["TCP best path (Mbit/s)"] * 1e6
        if d["congestion"] not in seen:
            seen.add(d["congestion"])
            out.append(dict(congestion=d["congestion"], kind="tcp", meaning="-", delta_s=0.0, runs=1, min_bps=tcp,
                            max_bps=tcp, mean_bps=tcp))
        meaning = "both" if delta_ms == 0 else d["meaning"]
        if any(c["congestion"] == d["congestion"] and c["meaning"] == meaning and c["delta_s"] == delta_ms / 1e3
               for c in out):
            continue
        out.append(dict(congestion=d["congestion"], kind="mptcp", meaning=meaning, delta_s=delta_ms / 1e3,
                        runs=int(d["runs"]), min_bps=tcp * (1 + d["min (%)"] / 100),
                        max_bps=tcp * (1 + d["max (%)"] / 100), mean_bps=d["MPTCP (Mbit/s)"] * 1e6))
    return out


def history_from_git(parameters: dict, upto: str = "HEAD", notebook=CHAPTER) -> pd.DataFrame:
    """Every earlier execution of the chapter stored in git (commits up to ``upto`` that change the notebook), whose
    full-profile :data:`TABLE1_PARAMETERS` equal ``parameters``' and whose stored gains table differs from every
    other's (a notebook committed again without re-executing it counts once, at its first commit): per cell one row
    of :data:`HISTORY_COLUMNS` (``kernel`` from the stored log line of :func:`cmtlab.validation.kernel.start`, ""
    where the execution did not store it)."""
    import re

    import nbformat

    from ..report.profile import using

    rel = str(Path(notebook).resolve().relative_to(ROOT))
    log = git("log", "--format=%H %cI", upto, "--", rel, repo=ROOT) or ""
    rows, seen = [], set()
    for line in reversed(log.splitlines()):
        commit, when = line.split(" ", 1)
        text = git("show", f"{commit}:{rel}", repo=ROOT)
        if not text:
            continue
        nb = json.loads(text)
        f = stored_gains(nb)
        if f is None or f.to_csv() in seen:
            continue
        seen.add(f.to_csv())
        cells = [c for c in nbformat.reads(text, as_version=4).cells if "parameters" in c.metadata.get("tags", [])]
        if len(cells) != 1:
            continue
        try:
            with using("full"):
                ns: dict = {}
                exec(_current_paths(cells[0].source), ns)
        except Exception:  # noqa: BLE001 - an old cell that no longer runs is not history we can use
            continue
        if any(k not in ns or not _same_value(ns[k], parameters[k]) for k in TABLE1_PARAMETERS):
            continue
        logs = "".join("".join(o.get("text", "")) for c in nb.get("cells", []) for o in c.get("outputs", []) or []
                       if o.get("output_type") == "stream")
        m = re.search(r"kernel (\S+); MPTCP scheduler", logs)
        for c in _cells_of_execution(f):
            rows.append({"commit": commit[:10], "committed_utc": when, "kernel": m.group(1) if m else "", **c})
    return pd.DataFrame(rows, columns=HISTORY_COLUMNS)


def _same_value(a, b) -> bool:
    if isinstance(a, (list, tuple, np.ndarray)) or isinstance(b, (list, tuple, np.ndarray)):
        try:
            a, b = list(a), list(b)
        except TypeError:
            return False
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return same(a, b)


# ---------------------------------------------------------------- the agreement rule
def agreement_band(stored_bps, floor_pct: float = LIVE_FLOOR_PCT) -> tuple[float, float, float]:
    """(low, high, half-width) of the band a live goodput must fall in to agree with the stored goodputs of the
    same run (recorded runs and, where known, earlier executions' runs): their min–max widened on each side by
    ``floor_pct`` % of their mean (the delay line's rate precision).  ValueError without a stored value."""
    v = np.asarray(stored_bps, dtype=float)
    v = v[np.isfinite(v)]
    if not len(v):
        raise ValueError("agreement_band needs at least one stored goodput")
    w = floor_pct / 100 * float(v.mean())
    return float(v.min() - w), float(v.max() + w), w


def outside_chance(n_runs: int) -> float:
    """The chance that one more run of the same kernel falls outside the range of ``n_runs`` earlier runs, when all
    are exchangeable (order statistics: 2 / (n + 1)); the band's widening makes it an upper bound."""
    if n_runs < 1:
        raise ValueError(f"n_runs must be >= 1, got {n_runs!r}")
    return 2 / (n_runs + 1)


def _label(row) -> str:
    if "calib_rate_bps" in row and pd.notna(row.get("calib_rate_bps")) and row.get("kind") is None:
        return f"calibration, Reno, {row['calib_rate_bps'] / 1e6:g} Mbit/s"
    if row.get("kind") == "tcp":
        return f"{row['congestion']}, TCP on the best path"
    d = round(float(row["delta_s"]) * 1e3)
    reading = "" if d == 0 else (" (RTT)" if row["meaning"] == "rtt" else " (one-way)")
    return f"{row['congestion']}, MPTCP, Δ = {d} ms{reading}"


LIVE_CHECK_COLUMNS = ["run", "recorded runs", "earlier runs", "stored min (Mbit/s)", "stored max (Mbit/s)",
                      "band low (Mbit/s)", "band high (Mbit/s)", "live (Mbit/s)", "recorded gain (%)", "live gain (%)",
                      "outside chance (%)", "agrees"]


def live_check(live: pd.DataFrame, recorded: pd.DataFrame, labels=("congestion", "kind", "meaning", "delta_s"),
               floor_pct: float = LIVE_FLOOR_PCT, history: pd.DataFrame | None = None) -> pd.DataFrame:
    """Each live run beside the stored runs of the same cell (same ``labels``; repetitions pooled): the recorded
    runs and, from ``history`` (:func:`history_from_git`), the earlier executions' runs of that cell; the stored
    goodput range, the :func:`agreement_band`, the live goodput and whether it lies in the band, and
    :func:`outside_chance` of the stored runs (%); for Table I rows also the gain over TCP on the best path of the
    same congestion control (recorded: over the recorded TCP mean; live: over the live TCP run).  Columns
    :data:`LIVE_CHECK_COLUMNS`."""
    rows = []
    if live is None or not len(live):
        return pd.DataFrame(columns=LIVE_CHECK_COLUMNS)
    has_kind = "kind" in live
    tcp_live = live[live.kind == "tcp"].groupby("congestion").throughput_bps.mean() if has_kind else {}
    tcp_rec = recorded[recorded.kind == "tcp"].groupby("congestion").throughput_bps.mean() if has_kind else {}
    for _, r in live.iterrows():
        same_cell = np.ones(len(recorded), dtype=bool)
        for c in labels:
            same_cell &= np.array([same(v, r[c]) for v in recorded[c]], dtype=bool)
        rec = recorded[same_cell]
        earlier = pd.DataFrame(columns=HISTORY_COLUMNS)
        if history is not None and len(history) and all(c in history for c in labels):
            sel = np.ones(len(history), dtype=bool)
            for c in labels:
                sel &= np.array([same(v, r[c]) for v in history[c]], dtype=bool)
            earlier = history[sel]
        stored = np.concatenate([rec.throughput_bps.to_numpy(float), earlier.min_bps.to_numpy(float),
                                 earlier.max_bps.to_numpy(float)])
        lo, hi, _ = agreement_band(stored, floor_pct)
        n = len(rec) + int(earlier.runs.sum())
        g_rec = g_live = np.nan
        if has_kind and r["kind"] == "mptcp":
            cc = r["congestion"]
            if cc in tcp_rec:
                g_rec = 100 * (rec.throughput_bps.mean() / tcp_rec[cc] - 1)
            if cc in tcp_live:
                g_live = 100 * (r["throughput_bps"] / tcp_live[cc] - 1)
        rows.append(dict(zip(LIVE_CHECK_COLUMNS, (
            _label(r if has_kind else {**r, "kind": None}), len(rec), int(earlier.runs.sum()), np.nanmin(stored) / 1e6,
            np.nanmax(stored) / 1e6, lo / 1e6, hi / 1e6, r["throughput_bps"] / 1e6, g_rec, g_live,
            100 * outside_chance(n), bool(lo <= r["throughput_bps"] <= hi)))))
    return pd.DataFrame(rows, columns=LIVE_CHECK_COLUMNS)


def executions(recording: Recording) -> pd.DataFrame:
    """Every stored execution's Table I cells in :data:`HISTORY_COLUMNS`: the earlier ones (``recording.history``)
    and the recording itself (``commit`` "recording")."""
    cur = [dict(commit="recording", committed_utc=str(recording.provenance.get("recorded_utc", [""])[0]),
                kernel=recording.provenance.get("kernel", ""), congestion=cc, kind=k, meaning=m, delta_s=d, runs=len(g),
                min_bps=g.throughput_bps.min(), max_bps=g.throughput_bps.max(), mean_bps=g.throughput_bps.mean())
           for (cc, k, m, d), g in recording.table1.groupby(["congestion", "kind", "meaning", "delta_s"])] \
        if len(recording.table1) else []
    parts = [h for h in (recording.history, pd.DataFrame(cur, columns=HISTORY_COLUMNS)) if h is not None and len(h)]
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=HISTORY_COLUMNS)


def band_backtest(recording: Recording, floor_pct: float = LIVE_FLOOR_PCT) -> pd.DataFrame:
    """The agreement rule tried on the stored executions themselves: for every execution and Table I cell, its
    lowest and highest run against the :func:`agreement_band` of all *other* executions of that cell.  One row per
    (execution, cell, extreme): ``commit``, the cell labels, ``goodput_bps``, ``low_bps``, ``high_bps``, ``inside``.
    With one execution only (no history) it is empty."""
    ex_ = executions(recording)
    rows = []
    for key, grp in ex_.groupby(["congestion", "kind", "meaning", "delta_s"]):
        if len(grp) < 2:
            continue
        for i, a in grp.iterrows():
            o = grp.drop(i)
            lo, hi, _ = agreement_band(np.r_[o.min_bps.to_numpy(float), o.max_bps.to_numpy(float)], floor_pct)
            for v in sorted({a.min_bps, a.max_bps}):
                rows.append(dict(zip(("congestion", "kind", "meaning", "delta_s"), key), commit=a.commit,
                                 goodput_bps=v, low_bps=lo, high_bps=hi, inside=bool(lo <= v <= hi)))
    return pd.DataFrame(rows, columns=["congestion", "kind", "meaning", "delta_s", "commit", "goodput_bps", "low_bps",
                                       "high_bps", "inside"])


def live_rule(floor_pct: float = LIVE_FLOOR_PCT) -> str:
    """The agreement rule in words."""
    return (f"live goodput inside the min–max of every stored run of the same configuration (this recording's and "
            f"earlier executions' with the same parameters), widened on each side by {floor_pct:g} % of their mean")


def live_summary(check: pd.DataFrame, recording: Recording | None = None) -> dict:
    """What the page and the comparison table say of the live subset: runs, how many agree, the rule, the kernels."""
    from . import kernel_info

    n = len(check)
    agree = int(check["agrees"].sum()) if n else 0
    rec_kernel = (recording.provenance.get("kernel") if recording is not None else None) or "?"
    return dict(runs=n, agree=agree, holds=n > 0 and agree == n, floor_pct=LIVE_FLOOR_PCT, rule=live_rule(),
                kernel=kernel_info()["kernel"], recorded_kernel=rec_kernel,
                disagree=", ".join(check.loc[~check["agrees"].astype(bool), "run"]) if n else "")


# ---------------------------------------------------------------- the chapter's runs: recorded and live
class KernelRuns:
    """Where each kernel run of the chapter comes from (see the module docstring), and the runs themselves.

    ``parameters``: the chapter's parameters (a mapping holding :data:`PARAMETERS` and
    :data:`LIVE_PARAMETERS`, e.g. the notebook's ``globals()``); ``recording``: default :func:`load` (read only
    with ``live="subset"``).  Each of :meth:`calibration`, :meth:`table1`, :meth:`fixed_buffers`, :meth:`arabi`
    runs what must run live (once, on its first call) and returns the rows in the order of the jobs, each with
    ``source`` ``"recorded"`` or ``"live"``; the live subset's own runs are in ``live_rows`` (``source``
    ``"live check"``).  ``live_seconds`` is the real time spent in live runs."""

    def __init__(self, parameters, *, recording: Recording | None = None):
        missing = [k for k in PARAMETERS + LIVE_PARAMETERS if k not in parameters]
        if missing:
            raise ValueError(f"KernelRuns needs the chapter's parameters; missing {missing}")
        self.p = {k: parameters[k] for k in PARAMETERS + LIVE_PARAMETERS}
        if self.p["live"] not in LIVE_MODES:
            raise ValueError(f"live must be one of {LIVE_MODES}, got {self.p['live']!r}")
        self.recording = (recording if recording is not None else load()) if self.p["live"] == "subset" \
            else empty_recording()
        self.live_seconds = 0.0
        self.live_rows: dict[str, pd.DataFrame] = {}
        self._done: dict = {}
        p = self.p
        self._cal_keys = calibration_keys(p)
        self._jobs = {"table1": table1_jobs(p), "fixed": fixed_buffer_jobs(p), "arabi": arabi_jobs(p)}
        rec = self.recording
        self._found = {"rates": find(self._cal_keys, rec.rates),
                       **{k: find([job_key(j) for j in jobs], getattr(rec, k)) for k, jobs in self._jobs.items()}}
        live_rates = {float(r) * 1e6 for r in p["live_calib_rates_mbps"]} if p["live"] == "subset" else set()
        self._check = {"rates": [i for i, k in enumerate(self._cal_keys)
                                 if self._found["rates"][i] is not None and k["calib_rate_bps"] in live_rates],
                       "table1": [i for i, j in enumerate(self._jobs["table1"])
                                  if self._found["table1"][i] is not None and self._in_subset(j["labels"])],
                       "fixed": [], "arabi": []}

    def _in_subset(self, lab: dict) -> bool:
        p = self.p
        if p["live"] != "subset" or lab["congestion"] not in list(p["live_congestions"]) \
                or lab["rep"] >= int(p["live_repetitions"]):
            return False
        return lab["kind"] == "tcp" or any(same(round(lab["delta_s"] * 1e3, 6), d) for d in p["live_deltas_ms"])

    # -------------------------------------------------------------- the plan
    def plan(self) -> pd.DataFrame:
        """Per experiment: runs asked for, served from the recording, run live because not recorded, and re-run
        live beside the recording (the live subset)."""
        rows = []
        for name, key in (("calibration (rates)", "rates"), ("Table I", "table1"),
                          ("Table I, fixed buffers", "fixed"), ("Arabi", "arabi")):
            found = self._found[key]
            n_rec = sum(f is not None for f in found)
            rows.append({"experiment": name, "runs": len(found), "from the recording": n_rec,
                         "live (not recorded)": len(found) - n_rec, "live beside the recording": len(self._check[key])})
        return pd.DataFrame(rows).set_index("experiment")

    @property
    def n_live(self) -> int:
        pl = self.plan()
        return int(pl["live (not recorded)"].sum() + pl["live beside the recording"].sum())

    @property
    def needs_kernel(self) -> bool:
        """Whether anything runs on this machine's kernel (else no root is needed)."""
        return self.n_live > 0

    def mismatched_parameters(self) -> list[str]:
        """The chapter parameters that differ from the recording's (empty with ``live="all"`` or no recording)."""
        rp = self.recording.provenance.get("parameters")
        if self.p["live"] != "subset" or not rp:
            return []
        out = []
        for k in PARAMETERS:
            a, b = self.p[k], rp.get(k)
            if isinstance(a, (list, tuple, np.ndarray)) or isinstance(b, (list, tuple)):
                a, b = list(a) if a is not None else None, list(b) if b is not None else None
                if a is None or b is None or len(a) != len(b) or not all(same(x, y) for x, y in zip(a, b)):
                    out.append(k)
            elif not same(a, b):
                out.append(k)
        return out

    def describe(self) -> str:
        """A paragraph for the page: what comes from the recording (when, which kernel), what ran live, and why."""
        pl = self.plan()
        n, n_rec = int(pl["runs"].sum()), int(pl["from the recording"].sum())
        n_live, n_check = int(pl["live (not recorded)"].sum()), int(pl["live beside the recording"].sum())
        if self.p["live"] == "all":
            return f"All {n} kernel runs of this page ran live on this machine's kernel (`live=\"all\"`)."
        text = [f"Of the {n} kernel runs this page's parameters ask for, {n_rec} come from the recording in "
                f"`data/testbed/` ({self.recording.describe()})"]
        if n_live:
            mism = self.mismatched_parameters()
            why = f" (parameters differing from the recording's: {', '.join(f'`{m}`' for m in mism)})" if mism else ""
            text.append(f"; {n_live} are not in the recording{why} and ran live on this machine's kernel")
        text.append(f". {n_check} recorded run{'s were' if n_check != 1 else ' was'} re-run live on this machine's kernel as a check"
                    if n_check else ". No recorded run was re-run live")
        return "".join(text) + "."

    # -------------------------------------------------------------- the runs
    def _timed(self, fn):
        t = time.monotonic()
        try:
            return fn()
        finally:
            self.live_seconds += time.monotonic() - t

    def calibration(self) -> tuple[pd.DataFrame, pd.DataFrame]:
        """(pings, rates) of every calibrated rate, recorded or live (``source``); the live subset's re-runs in
        ``live_rows["pings"]`` / ``live_rows["rates"]``."""
        if "calibration" not in self._done:
            rec, found = self.recording, self._found["rates"]
            pings, rates = [], []
            for i, keys in enumerate(self._cal_keys):
                if found[i] is not None:
                    rates.append({**rec.rates.loc[found[i]].to_dict(), "source": "recorded"})
                    sel = np.ones(len(rec.pings), dtype=bool)
                    for c, v in keys.items():
                        sel &= np.array([same(x, v) for x in rec.pings[c]], dtype=bool)
                    pings.append(rec.pings[sel].assign(source="recorded"))
                else:
                    pi, row = self._timed(lambda k=keys: self._calibrate(k))
                    pings.append(pi.assign(source="live"))
                    rates.append({**row, "source": "live"})
            lp, lr = [], []
            for i in self._check["rates"]:
                pi, row = self._timed(lambda k=self._cal_keys[i]: self._calibrate(k))
                lp.append(pi.assign(source="live check"))
                lr.append({**row, "source": "live check"})
            self.live_rows["pings"] = pd.concat(lp, ignore_index=True) if lp else pd.DataFrame()
            self.live_rows["rates"] = pd.DataFrame(lr)
            self._done["calibration"] = (pd.concat(pings, ignore_index=True), pd.DataFrame(rates))
        return self._done["calibration"]

    @staticmethod
    def _calibrate(k: dict):
        return ex.calibrate_rate(k["calib_rate_bps"], k["calib_one_way_s"], ping_count=k["calib_ping_count"],
                                 duration_s=k["calib_duration_s"], warmup_s=k["calib_warmup_s"])

    def _runs(self, key: str, desc: str) -> pd.DataFrame:
        if key not in self._done:
            jobs, found, rec = self._jobs[key], self._found[key], getattr(self.recording, key)
            todo = [j for j, f in zip(jobs, found) if f is None]
            live = self._timed(lambda: ex.run_jobs(todo, desc=desc)) if todo else pd.DataFrame()
            it = iter(live.to_dict("records"))
            rows = [{**rec.loc[f].to_dict(), "source": "recorded"} if f is not None else {**next(it), "source": "live"}
                    for f in found]
            check = [jobs[i] for i in self._check[key]]
            self.live_rows[key] = (self._timed(lambda: ex.run_jobs(check, desc=f"{desc}, live check"))
                                   .assign(source="live check") if check else pd.DataFrame())
            self._done[key] = pd.DataFrame(rows)
        return self._done[key]

    def table1(self) -> pd.DataFrame:
        """Every Table I run (:func:`table1_jobs`), recorded or live."""
        return self._runs("table1", "Table I (kernel)")

    def fixed_buffers(self) -> pd.DataFrame | None:
        """The fixed-buffer runs (:func:`fixed_buffer_jobs`), recorded or live; None when none are asked for."""
        return self._runs("fixed", "Table I, fixed buffers (kernel)") if self._jobs["fixed"] else None

    def arabi(self) -> pd.DataFrame:
        """The Arabi runs (:func:`arabi_jobs`), recorded or live."""
        return self._runs("arabi", "Arabi (kernel)")

    # -------------------------------------------------------------- the live subset beside the recording
    def beside(self, name: str) -> pd.DataFrame:
        """The rows of ``name`` (``"pings"``, ``"rates"``, ``"table1"``) with the live subset's re-runs after them
        (``source`` ``"live check"``): what the page shows; the verdicts use the rows without them."""
        main = {"pings": lambda: self.calibration()[0], "rates": lambda: self.calibration()[1],
                "table1": self.table1}
        if name not in main:
            raise ValueError(f"name must be one of {sorted(main)}, got {name!r}")
        rows = main[name]()
        extra = self.live_rows.get(name)
        return pd.concat([rows, extra], ignore_index=True) if extra is not None and len(extra) else rows

    def source_phrase(self) -> str:
        """Where the kernel runs come from, in a few words (the comparison table's setup row)."""
        pl = self.plan()
        n_rec, n = int(pl["from the recording"].sum()), int(pl["runs"].sum())
        if n_rec == 0:
            return "every kernel run live on this machine's kernel"
        p = self.recording.provenance
        return (f"{n_rec} of {n} kernel runs from the recording of {str(p.get('recorded_utc', ['?'])[0])[:10]}, "
                f"{self.n_live} run live here")

    def live_check(self) -> pd.DataFrame:
        """:func:`live_check` of the live subset (calibration rates first, then Table I), after the runs."""
        parts = []
        cal = self.live_rows.get("rates")
        if cal is not None and len(cal):
            _, rates = self.calibration()
            parts.append(live_check(cal, rates[rates.source == "recorded"], labels=("calib_rate_bps",)))
        t1 = self.live_rows.get("table1")
        if t1 is not None and len(t1):
            runs = self.table1()
            parts.append(live_check(t1, runs[runs.source == "recorded"], history=self.recording.history))
        return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=LIVE_CHECK_COLUMNS)

    def live_summary(self) -> dict | None:
        """:func:`live_summary` of :meth:`live_check`; None when no recorded run was re-run live."""
        check = self.live_check()
        return live_summary(check, self.recording) if len(check) else None

    def glue_values(self) -> dict:
        """The prose's numbers: ``tb_total_minutes`` (real time of the live kernel runs), ``tb_live_runs``,
        ``tb_recorded_runs``, ``tb_runs_phrase`` (:meth:`describe`), ``tb_live_agree`` / ``tb_live_checked`` and
        ``tb_live_phrase`` (the live subset's verdict in words), ``tb_kernels_phrase`` (the kernels and commit the runs
        were made on: the page's provenance line)."""
        pl = self.plan()
        s = self.live_summary()
        if s is None:
            phrase = "no recorded run was re-run live with these parameters"
        elif s["holds"]:
            phrase = f"all {s['runs']} live runs agree with the recorded ones ({s['rule']})"
        else:
            phrase = (f"{s['agree']} of {s['runs']} live runs agree with the recorded ones ({s['rule']}); outside "
                      f"the band: {s['disagree']} — a finding about this machine or kernel (both kernels are named "
                      "in the page's provenance line), not hidden; the verdicts above come from the recording")
        kernels = self.recording.provenance_phrase() + (
            f"; this page's live runs on kernel {s['kernel']}" if s is not None else "")
        bt = band_backtest(self.recording) if self.p["live"] == "subset" else pd.DataFrame(columns=["inside", "commit"])
        n_exec = len(set(executions(self.recording).commit)) if self.p["live"] == "subset" else 0
        return {"tb_live_backtest_inside": int(bt.inside.sum()), "tb_live_backtest_total": len(bt),
                "tb_live_executions": n_exec,
                "tb_total_minutes": self.live_seconds / 60, "tb_live_runs": self.n_live,
                "tb_recorded_runs": int(pl["from the recording"].sum()), "tb_runs_phrase": self.describe(),
                "tb_live_checked": 0 if s is None else s["runs"], "tb_live_agree": 0 if s is None else s["agree"],
                "tb_live_phrase": phrase, "tb_live_floor_pct": LIVE_FLOOR_PCT, "tb_kernels_phrase": kernels}


__all__ = ["DATA_DIR", "FILES", "PROVENANCE", "LIVE_MODES", "LIVE_FLOOR_PCT", "PARAMETERS", "LIVE_PARAMETERS",
           "SOURCES", "LIVE_CHECK_COLUMNS", "arabi_warmup_s", "calibration_keys", "table1_jobs", "fixed_buffer_jobs",
           "arabi_jobs", "run_key", "job_key", "same", "find", "Recording", "empty_recording", "load",
           "chapter_parameters", "record", "write_history", "verify_files", "TABLE1_PARAMETERS", "HISTORY",
           "HISTORY_COLUMNS", "stored_gains", "history_from_git", "executions", "band_backtest", "agreement_band", "outside_chance", "live_check",
           "live_rule", "live_summary",
           "KernelRuns"]
