"""Recorded runs: results simulated once and stored in the repository, served after live runs reproduce them.

A chapter that needs the papers' seed counts (Alheid et al. ran 30 seeds per point) cannot
simulate them all inside the book's build budget.  Because :mod:`cmtlab.sim` is deterministic
— the same scenario and seed give the same row, bit for bit, on any machine — a run simulated
once can be stored and served later, *provided the simulator still produces it*.  This module
makes that proviso a check rather than a hope:

* :func:`record_runs` simulates scenarios × seeds (through :func:`~cmtlab.sweep.run_sweep`) and
  writes them to a gzipped JSON-lines file: a header with provenance (simulator, its code version
  — the hash of every source file it runs —, the UTC time, the git commit and whether ``lib/``
  differed from it, the command that regenerates it) and one result row per run,
  keyed by the scenario's ``key()`` (which covers every field of the scenario *and* its seed, so
  a row is never served for another scenario).
* :func:`sweep` is a chapter's one call: :func:`~cmtlab.sweep.run_sweep`, or :func:`run_with_records` when
  it is given recorded runs;
* :func:`run_with_records` runs a sweep in which the seeds in ``live_seeds`` are always
  simulated here (or taken from the result cache of the current code) and compared, column by
  column, with their recorded rows; only a case whose live runs equal the record exactly gets its
  other seeds from the record.  A difference raises :class:`RecordedRunsMismatch` naming the
  case, the seed and the columns, and the command that re-records the file — a stale record is
  never published.  A case or seed the file does not hold (a reader changed the points by
  papermill) is simulated, so a record never limits what can be asked.

Columns that a repeat run cannot reproduce (:data:`UNREPEATABLE_COLUMNS`: wall-clock time, the
rate per wall-clock second and the code version) are stored but not compared.
"""

from __future__ import annotations

import datetime
import gzip
import json
import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from .._git import checkout_state
from .api import _parse_scenarios, _parse_seeds, run_sweep
from .cache import _json_default, check_row
from .simulators import as_simulator

__all__ = ["RecordedRuns", "RecordedRunsMismatch", "record_runs", "run_with_records", "sweep", "describe_records",
           "UNREPEATABLE_COLUMNS", "RECORD_FORMAT"]

#: Version of the file layout.
RECORD_FORMAT = 1
#: Result columns a repeated run does not reproduce: stored, never compared.
UNREPEATABLE_COLUMNS = ("wall_time_s", "segments_per_second", "code_version")
_RESULT_KEY = "scenario_key"


class RecordedRunsMismatch(RuntimeError):
    """A live run differs from its recorded row: the record is stale and must be re-recorded."""


def _missing(v) -> bool:
    return v is None or (isinstance(v, (float, np.floating)) and math.isnan(v))


def _plain(v):
    """A table cell as a plain Python scalar (``None`` for a missing value)."""
    if isinstance(v, np.generic):
        v = v.item()
    return None if _missing(v) else v


def differences(live: dict, recorded: dict, *, ignore=UNREPEATABLE_COLUMNS) -> list[tuple[str, object, object]]:
    """``(column, live value, recorded value)`` for every compared column whose values differ.

    Missing values (``None``/NaN) are equal to each other; numbers compare exactly (``==``); a
    column present on one side only differs unless it is missing on the other.
    """
    out = []
    for name in sorted(set(live) | set(recorded)):
        if name in ignore:
            continue
        a, b = _plain(live.get(name)), _plain(recorded.get(name))
        if a is None and b is None:
            continue
        if a is None or b is None or isinstance(a, bool) != isinstance(b, bool) or a != b:
            out.append((name, a, b))
    return out


@dataclass(frozen=True)
class RecordedRuns:
    """The rows of one record file, by scenario key (see :func:`record_runs`)."""

    path: Path
    header: dict
    rows: dict = field(repr=False)

    @classmethod
    def load(cls, path) -> "RecordedRuns":
        """Read ``path``; ``ValueError`` naming the file and line for anything that is not a valid record."""
        path = Path(path)
        try:
            with gzip.open(path, "rt", encoding="utf-8") as fh:
                lines = fh.read().splitlines()
        except FileNotFoundError:
            raise FileNotFoundError(f"recorded runs {path} not found (re-record them: see the header of "
                                    f"that module's record command)") from None
        except (OSError, EOFError) as exc:
            raise ValueError(f"recorded runs {path}: not a readable gzip file ({exc})") from None
        if not lines:
            raise ValueError(f"recorded runs {path}: empty file")
        try:
            header = json.loads(lines[0])
        except ValueError as exc:
            raise ValueError(f"recorded runs {path}, line 1: not JSON ({exc})") from None
        if not isinstance(header, dict) or header.get("format") != RECORD_FORMAT:
            raise ValueError(f"recorded runs {path}: header format {header.get('format') if isinstance(header, dict) else header!r}"
                             f", expected {RECORD_FORMAT}")
        rows = {}
        for i, line in enumerate(lines[1:], start=2):
            try:
                row = json.loads(line)
            except ValueError as exc:
                raise ValueError(f"recorded runs {path}, line {i}: not JSON ({exc})") from None
            key = row.get(_RESULT_KEY) if isinstance(row, dict) else None
            if not isinstance(key, str) or not key:
                raise ValueError(f"recorded runs {path}, line {i}: a row without a {_RESULT_KEY!r}")
            if key in rows:
                raise ValueError(f"recorded runs {path}, line {i}: scenario key {key[:12]} recorded twice")
            rows[key] = row
        if header.get("rows") != len(rows):
            raise ValueError(f"recorded runs {path}: the header says {header.get('rows')} rows, the file holds {len(rows)}"
                             f" (truncated or edited)")
        return cls(path=path, header=header, rows=rows)

    def get(self, scenario) -> dict | None:
        """The recorded row of exactly this scenario (every field and the seed), or ``None``."""
        row = self.rows.get(scenario.key())
        return None if row is None else dict(row)

    def __len__(self) -> int:
        return len(self.rows)


def record_runs(path, simulator, scenarios, *, seeds, command: str, workers=None, progress=True,
                cache=True, cache_dir=None, repo=None) -> pd.DataFrame:
    """Simulate ``scenarios`` × ``seeds`` and write them to ``path`` (gzipped JSON lines); returns the sweep table.

    ``command`` is the shell command that regenerates the file (stored in the header, and quoted
    by :class:`RecordedRunsMismatch`).  Every row must pass :func:`~cmtlab.sweep.cache.check_row`.
    """
    if not isinstance(command, str) or not command.strip():
        raise ValueError("command must be the shell command that regenerates the record, e.g. 'make alheid-records'")
    sim = as_simulator(simulator)
    seed_list = _parse_seeds(seeds)
    if seed_list is None:
        raise ValueError("seeds must be a sequence of seeds (e.g. range(30)), got None")
    items = _parse_scenarios(scenarios)
    table = run_sweep(sim, items, seeds=seed_list, workers=workers, progress=progress, cache=cache,
                      cache_dir=cache_dir)
    label_cols = {name for labels, _ in items for name in labels}
    runs = {}
    for (_, sc), start in zip(items, range(0, len(table), len(seed_list))):
        for j, s in enumerate(seed_list):
            run = sc.replace(seed=s)
            rec = table.iloc[start + j].to_dict()
            row = {k: _plain(v) for k, v in rec.items() if k not in label_cols or k == _RESULT_KEY}
            if row.get(_RESULT_KEY) != run.key():
                raise RuntimeError(f"record_runs: row {start + j} is not the run of scenario {run.key()[:12]}")
            problem = check_row(row, run, kind="transfer")
            if problem:
                raise ValueError(f"record_runs: seed {s} of scenario {run.key()[:12]} has an impossible row: {problem}")
            runs[run.key()] = row
    path = Path(path)
    header = {"format": RECORD_FORMAT, "simulator": sim.name, "code_version": sim.code_version,
              "recorded_utc": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
              **dict(zip(("git_commit", "git_lib_modified"),
                         checkout_state(Path(repo) if repo is not None else path.resolve().parent))),
              "command": command, "seeds": seed_list, "cases": len(items), "rows": len(runs),
              "unrepeatable_columns": list(UNREPEATABLE_COLUMNS)}
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with gzip.GzipFile(tmp, "wb", mtime=0) as gz:   # mtime 0: the same rows give the same bytes
        lines = [json.dumps(header, sort_keys=True)]
        lines += [json.dumps(runs[k], default=_json_default, allow_nan=True) for k in sorted(runs)]
        gz.write(("\n".join(lines) + "\n").encode("utf-8"))
    tmp.replace(path)
    return table


def run_with_records(simulator, scenarios, *, seeds, records, live_seeds, workers=None, progress=True,
                     cache=True, cache_dir=None) -> pd.DataFrame:
    """Like :func:`~cmtlab.sweep.run_sweep` (same arguments, same table), with recorded runs filling in seeds.

    ``records`` is a :class:`RecordedRuns` (or a path to one; ``None``: everything is simulated).
    ``live_seeds`` (a non-empty subset of ``seeds``) are simulated for every case and must equal
    their recorded rows in every compared column (:func:`differences`), else
    :class:`RecordedRunsMismatch`.  A case's other seeds come from the record only if at least one
    of its live seeds was recorded and matched; every run the record lacks is simulated.  The
    table's ``attrs["records"]`` says how many runs were served, simulated and verified.
    """
    sim = as_simulator(simulator)
    seed_list = _parse_seeds(seeds)
    if seed_list is None:
        raise ValueError("seeds must be a sequence of seeds (e.g. range(30)), got None")
    live = _parse_seeds(live_seeds)
    if live is None or not set(live) <= set(seed_list):
        raise ValueError(f"live_seeds must be a non-empty subset of seeds {seed_list}: the recorded runs are served "
                         f"only after live runs of these seeds reproduce them; got {live_seeds!r}")
    items = _parse_scenarios(scenarios)
    if records is None:
        table = run_sweep(sim, items, seeds=seed_list, workers=workers, progress=progress, cache=cache,
                          cache_dir=cache_dir)
        table.attrs["records"] = None
        return table
    if not isinstance(records, RecordedRuns):
        records = RecordedRuns.load(records)
    if records.header.get("simulator") != sim.name:
        raise ValueError(f"records {records.path} hold runs of simulator {records.header.get('simulator')!r}, "
                         f"not {sim.name!r}")

    plan = []  # per case: (labels, {seed: run}, {seed: recorded row or None})
    for labels, sc in items:
        runs = {s: sc.replace(seed=s) for s in seed_list}
        recorded = {s: records.get(r) for s, r in runs.items()}
        plan.append((labels, runs, recorded))

    todo, where = [], {}
    for pos, (labels, runs, recorded) in enumerate(plan):
        checkable = any(recorded[s] is not None for s in live)
        for s in seed_list:
            if s in live or recorded[s] is None or not checkable:
                where[(pos, s)] = len(todo)
                todo.append((dict(labels), runs[s]))
    live_table = (run_sweep(sim, todo, seeds=None, workers=workers, progress=progress, cache=cache,
                            cache_dir=cache_dir) if todo
                  else pd.DataFrame())

    out, verified, served = [], 0, 0
    for pos, (labels, runs, recorded) in enumerate(plan):
        for s in seed_list:
            if (pos, s) in where:
                row = live_table.iloc[where[(pos, s)]].to_dict()
                rec = recorded[s]
                if rec is not None and s in live:
                    diff = differences({k: v for k, v in row.items() if k not in labels}, rec)
                    if diff:
                        shown = "; ".join(f"{c}: live {a!r}, recorded {b!r}" for c, a, b in diff[:5])
                        raise RecordedRunsMismatch(
                            f"the simulator no longer reproduces {records.path} (recorded "
                            f"{records.header.get('recorded_utc')}, code version {records.header.get('code_version')}):"
                            f" case {labels}, seed {s} differs in {len(diff)} column(s) — {shown}.  Re-record with "
                            f"`{records.header.get('command')}`, or pass records=None to simulate every seed")
                    verified += 1
                out.append(row)
            else:
                out.append({**recorded[s], **labels})
                served += 1
    label_cols = list(dict.fromkeys(name for labels, _, _ in plan for name in labels))
    cols = list(dict.fromkeys([*label_cols, *(c for r in out for c in r)]))
    table = pd.DataFrame(out, columns=cols)
    table.attrs["sweep"] = dict(live_table.attrs.get("sweep", {}), runs=len(out))
    table.attrs["records"] = {"path": str(records.path), "recorded_utc": records.header.get("recorded_utc"),
                              "code_version": records.header.get("code_version"),
                              "git_commit": records.header.get("git_commit"), "served": served,
                              "simulated": len(todo), "verified": verified, "live_seeds": live,
                              "from_cache": int(live_table.attrs.get("sweep", {}).get("cached", 0)),
                              "seeds": seed_list, "cases": len(plan)}
    return table


def sweep(cases, *, seeds, workers=None, progress=True, records: RecordedRuns | None = None, live_seeds=None,
          simulator="cmtlab") -> pd.DataFrame:
    """``cases`` × ``seeds`` as one sweep table: :func:`cmtlab.sweep.run_sweep`, or with ``records`` (recorded
    runs, :class:`RecordedRuns`) :func:`run_with_records` over them with ``live_seeds`` simulated.
    ``simulator``: the registered simulator (the book's, ``"cmtlab"``, by default)."""
    if records is None:
        return run_sweep(simulator, cases, seeds=list(seeds), workers=workers, progress=progress)
    return run_with_records(simulator, cases, seeds=list(seeds), records=records,
                            live_seeds=list(live_seeds) if live_seeds is not None else None, workers=workers,
                            progress=progress)


def describe_records(table: pd.DataFrame) -> str:
    """One sentence for a chapter: how many runs came from the record and how they were checked."""
    info = table.attrs.get("records")
    if not info:
        return f"All {len(table)} runs were simulated for this page."
    total = info["served"] + info["simulated"]
    if not info["served"]:
        return (f"All {total} runs were simulated for this page (the record "
                f"`{Path(info['path']).name}` holds none of these cases).")
    cached = info.get("from_cache", 0)
    source = ("simulated for this page" if not cached else
              f"run by the simulator as it is now ({cached} of them from its result cache)")
    return (f"{info['served']} of the {total} runs ({len(info['seeds'])} seeds × {info['cases']} cases) come "
            f"from the record `{Path(info['path']).name}` (recorded {info['recorded_utc'][:10]}); the other "
            f"{info['simulated']} were {source}, and the {info['verified']} of them that are also "
            f"in the record (seeds {', '.join(map(str, info['live_seeds']))}) equal their recorded rows in every "
            f"column but wall-clock time.")
