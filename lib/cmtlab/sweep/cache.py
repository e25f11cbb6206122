"""The on-disk result cache: one JSON file per (simulator, code version, scenario)."""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import re
import stat
import tempfile
from pathlib import Path

import numpy as np

from .simulators import Simulator

__all__ = ["ResultCache", "CacheEntryWarning", "check_row", "row_fields", "scenario_capacity_bps", "default_cache_dir",
           "resolve_cache_dir", "CACHE_DIR_ENV", "CACHE_FORMAT", "MAX_ENTRY_BYTES"]

#: Environment variable naming the result-cache directory (overridden by ``cache_dir=``).
CACHE_DIR_ENV = "CMTLAB_CACHE_DIR"
#: Version of the cache-entry layout; bumping it invalidates every entry.
CACHE_FORMAT = 2
#: Largest cache entry read (bytes): an entry is one row and its scenario, a few kB (a papers'-simulator
#: row with a throughput bin per 0.1 s of a 300 s run, about 0.2 MB).  A larger file is a miss, read not at all.
MAX_ENTRY_BYTES = 8 * 2**20


def _json_default(value):
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError(f"value {value!r} of type {type(value).__name__} cannot be stored in a result row")


def _normalise_row(row: dict) -> dict:
    """The row as it reads back from the cache (plain Python scalars), so fresh = cached."""
    return json.loads(json.dumps(row, default=_json_default, allow_nan=True))


def default_cache_dir() -> Path:
    """Per-user default: ``$XDG_CACHE_HOME/cmtlab/sweeps`` (``~/.cache/cmtlab/sweeps``)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "cmtlab" / "sweeps"


def resolve_cache_dir(cache_dir=None) -> Path:
    """``cache_dir`` if given, else ``$CMTLAB_CACHE_DIR``, else :func:`default_cache_dir`."""
    if cache_dir is not None:
        if not isinstance(cache_dir, (str, os.PathLike)) or not str(cache_dir):
            raise ValueError(f"cache_dir must be a non-empty path, got {cache_dir!r}")
        return Path(cache_dir).expanduser()
    env = os.environ.get(CACHE_DIR_ENV, "").strip()
    return Path(env).expanduser() if env else default_cache_dir()


class CacheEntryWarning(UserWarning):
    """A cached result failed its checks (and was recomputed), or a result could not be cached."""


#: Columns every row of a :class:`~cmtlab.scenario.TransferResult` has (``TransferResult.to_row``).
TRANSFER_FIELDS = ("simulator", "completed", "completion_time_s", "throughput_bps", "data_segments_sent",
                   "retransmissions", "fast_retransmits", "timeouts", "seed", "scenario_key")
#: Rate columns (bit/s): never negative or infinite, NaN only for a run that did not complete,
#: at most the scenario's capacity (:func:`scenario_capacity_bps`).
RATE_FIELDS = ("throughput_bps", "goodput_bps")
#: Counters: integers >= 0 (``spurious_retransmissions`` may be -1: "cannot tell"); also a
#: subflow's or a path's (``sf0_retransmissions``, ``path1_queue_drops``) and any ``*_drops`` column.
COUNT_FIELDS = ("data_segments_sent", "retransmissions", "fast_retransmits", "timeouts", "dupack_events",
                "spurious_retransmissions", "segments_sent")
_PER_PATH = re.compile(r"^(?:sf\d+|path\d+)_(.+)$")
#: ``stop_reason`` values (:class:`cmtlab.sim.engine.loop.StopReason`) of a run that completed: a
#: transfer delivered, or a duration-limited run that reached its duration.
_COMPLETED_REASONS = ("completed", "duration")
#: Links whose rate is the scenario's rate for that path (cross traffic only takes from it).
_RATE_BOUNDED_LINKS = ("point_to_point", "pareto_cross_traffic", "varying_ber")


def scenario_capacity_bps(scenario) -> float | None:
    """An upper bound (bit/s) on any goodput of ``scenario``, or ``None`` when it cannot tell.

    A scenario's own ``capacity_bps()`` if it has one; else the sum of its per-path rates
    (``bandwidths_bps`` or ``rates_bps``) when every path is a wired link of that rate (payload
    is less than what goes on the wire, so no transfer beats the summed link rates).
    """
    own = getattr(scenario, "capacity_bps", None)
    if callable(own):
        value = own()
        return None if value is None else float(value)
    rates = getattr(scenario, "bandwidths_bps", None)
    if rates is None:
        rates = getattr(scenario, "rates_bps", None)
    if rates is None:
        return None
    links = getattr(scenario, "links", ())
    if isinstance(links, (tuple, list)):  # a scenario's link specs (a method that builds links says nothing)
        for spec in links:
            name = spec[0] if isinstance(spec, (tuple, list)) and spec else spec
            if name not in _RATE_BOUNDED_LINKS:
                return None
    try:
        total = float(sum(float(r) for r in rates))
    except (TypeError, ValueError):
        return None
    return total if math.isfinite(total) and total > 0 else None


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def row_fields(scenario) -> tuple:
    """The columns every result row of ``scenario`` holds: the scenario type's ``ROW_FIELDS`` when it
    declares them (an :class:`~cmtlab.papers.osia.experiments.OsiaRun`'s row); else, for a transfer (a
    scenario with ``transfer_bytes``: striped, MPTCP, the papers' model), :data:`TRANSFER_FIELDS`
    (a :class:`~cmtlab.scenario.TransferResult`'s); else none.  The schema is the scenario's, never
    a cache entry's: an entry cannot make a row of four made-up fields acceptable.
    """
    own = getattr(scenario, "ROW_FIELDS", None)
    if own is not None:
        return tuple(own)
    if hasattr(scenario, "transfer_bytes"):  # a transfer (striped, MPTCP, the papers' model): a TransferResult
        return TRANSFER_FIELDS
    return ()  # a scenario that says nothing of its rows: the checks of values by column name only


def _count_name(name: str) -> str | None:
    """The counter ``name`` is (``sf0_retransmissions`` → ``retransmissions``), or ``None``."""
    m = _PER_PATH.match(name)
    base = m.group(1) if m else name
    if base in COUNT_FIELDS or base.endswith("_drops"):
        return base
    return None


def _not_flat(row: dict) -> str | None:
    """Why ``row`` is not one flat row of values (``None`` if it is)."""
    for name, v in row.items():
        if not isinstance(name, str):
            return f"column name {name!r:.40} is not a string"
        if v is not None and not isinstance(v, (bool, int, float, str)):
            return f"{name} holds a {type(v).__name__}, not a value (None, a boolean, a number or a string)"
    return None


def check_row(row, scenario) -> str | None:
    """Why ``row`` cannot be a result of ``scenario`` (``None`` if nothing is wrong).

    Checked: a non-empty flat row (every value ``None``, a boolean, a number or a string); the
    fields of the scenario's schema (:func:`row_fields`); the row's ``scenario_key``, ``seed``,
    ``transfer_bytes`` and ``n_links`` against the scenario's; ``completed`` a boolean, and
    consistent with ``stop_reason`` where the row has one; times (``completion_time_s``) not
    negative or infinite, NaN only when the run did not complete, within the run (at most
    ``sim_time_s`` and the scenario's ``max_sim_time_s``); rates (:data:`RATE_FIELDS`, bit/s)
    the same, at most the scenario's capacity, and for a completed transfer equal to its bytes
    over its completion time; counters (:data:`COUNT_FIELDS`, per subflow and per path too)
    integers >= 0; no more retransmissions than segments sent.
    """
    if not isinstance(row, dict) or not row:
        return "the row is empty" if isinstance(row, dict) else f"the row is a {type(row).__name__}, not a dict"
    problem = _not_flat(row)
    if problem:
        return problem
    missing = [f for f in row_fields(scenario) if f not in row]
    if missing:
        return f"fields {missing} are missing"
    if "scenario_key" in row and row["scenario_key"] != scenario.key():
        return f"the row belongs to scenario {str(row['scenario_key'])[:12]}, not {scenario.key()[:12]}"
    for name in ("seed", "transfer_bytes", "n_links"):
        mine = getattr(scenario, name, None)
        if name in row and mine is not None and row[name] != mine:
            return f"{name} = {row[name]!r} in the row, {mine!r} in the scenario"
    done = row.get("completed", False)
    if not isinstance(done, bool):
        return f"completed = {done!r} is not a boolean"
    reason = row.get("stop_reason")
    if isinstance(reason, str) and done != (reason in _COMPLETED_REASONS):
        return f"completed = {done} contradicts stop_reason = {reason!r}"
    t = row.get("completion_time_s")
    if "completion_time_s" in row:
        if not _is_number(t) or t < 0 or math.isinf(t) or (math.isnan(t) and done):
            return f"completion_time_s = {t!r} is impossible for a run with completed = {done}"
        if done and t == 0 and (getattr(scenario, "transfer_bytes", None) or 0) > 0:
            return "completion_time_s = 0 for a completed transfer"
        limit = getattr(scenario, "max_sim_time_s", None)
        if _is_number(limit) and done and t > limit * (1 + 1e-9):
            return f"completion_time_s = {t:.9g} s is after the scenario's max_sim_time_s = {limit:g} s"
        span = row.get("sim_time_s")
        if _is_number(span) and math.isfinite(span) and done and t > span * (1 + 1e-9) + 1e-9:
            return f"completion_time_s = {t:.9g} s is after the run's end (sim_time_s = {span:.9g} s)"
    capacity = scenario_capacity_bps(scenario)
    transfer = getattr(scenario, "transfer_bytes", None)
    for name in RATE_FIELDS:
        if name not in row:
            continue
        v = row[name]
        if v is None and not done:
            continue
        if not _is_number(v) or v < 0 or math.isinf(v) or (math.isnan(v) and done):
            return f"{name} = {v!r} bit/s is impossible for a run with completed = {done}"
        if capacity is not None and v > capacity * (1 + 1e-6) + 1.0:  # slack: simulators round link rates
            return f"{name} = {v:.6g} bit/s exceeds the scenario's capacity {capacity:.6g} bit/s"
        if done and _is_number(transfer) and transfer > 0 and _is_number(t) and t > 0:
            expected = transfer * 8.0 / t
            if not math.isclose(v, expected, rel_tol=1e-6):
                return (f"{name} = {v:.9g} bit/s, but {transfer} bytes in completion_time_s = {t:.9g} s is "
                        f"{expected:.9g} bit/s")
    for name, v in row.items():
        counter = _count_name(name)
        if counter is None:
            continue
        low = -1 if counter == "spurious_retransmissions" else 0
        if counter != name and (v is None or (isinstance(v, float) and (math.isnan(v) or (v.is_integer()
                                                                                     and v >= low)))):
            continue  # a subflow's or a path's counter from a table (a float; None or NaN: no such subflow)
        if not isinstance(v, int) or isinstance(v, bool) or v < low:
            return f"{name} = {v!r} is not an integer >= {low}"
    if isinstance(row.get("retransmissions"), int) and isinstance(row.get("data_segments_sent"), int) \
            and row["retransmissions"] > row["data_segments_sent"]:
        return (f"retransmissions = {row['retransmissions']} exceeds data_segments_sent = "
                f"{row['data_segments_sent']}")
    return None


def _row_digest(row: dict) -> str:
    blob = json.dumps(row, sort_keys=True, separators=(",", ":"), default=_json_default, allow_nan=True)
    return hashlib.sha256(blob.encode()).hexdigest()


class ResultCache:
    """One JSON file per (simulator name, code version, scenario): ``<dir>/<name>/<kk>/<key>.json``.

    The file holds the key's ingredients (simulator, code version, the scenario's key), the
    scenario as a dict (for inspection), the result row and its SHA-256.  Writes go to
    a temporary file in the same folder that is then renamed over the entry (atomic on POSIX
    and Windows), so a reader sees either nothing or a complete entry.

    An entry is served only if it is this key's, was written for this very scenario, its row
    is unchanged since it was written and passes :func:`check_row` (no impossible value);
    otherwise :meth:`lookup` says why, and :func:`~cmtlab.sweep.run_sweep` recomputes the run
    with a :class:`CacheEntryWarning` and overwrites the entry.
    """

    def __init__(self, directory):
        self.directory = Path(directory)

    @staticmethod
    def key(simulator: Simulator, scenario) -> str:
        blob = json.dumps({"format": CACHE_FORMAT, "simulator": simulator.name,
                           "code_version": simulator.code_version, "scenario": scenario.key()},
                          sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()

    def path(self, simulator: Simulator, scenario) -> Path:
        key = self.key(simulator, scenario)
        folder = re.sub(r"[^A-Za-z0-9._-]", "_", simulator.name)
        return self.directory / folder / key[:2] / f"{key}.json"

    def lookup(self, simulator: Simulator, scenario) -> tuple[dict | None, str | None]:
        """``(row, None)`` for a valid entry; ``(None, None)`` if there is none; ``(None, why)`` if
        the entry exists but must not be served (unreadable, foreign, altered or impossible).

        Never raises and never blocks on what it finds at the entry's path: the file is opened
        without blocking (a FIFO there is a miss, not a hang), anything but a regular file of at
        most :data:`MAX_ENTRY_BYTES` is a miss without reading it, and every failure to decode or
        parse it (bytes that are not UTF-8, JSON nested too deeply, a value of the wrong type) is
        a miss with the reason.  The row's schema and checks are the scenario's (:func:`check_row`),
        whatever the entry says about itself.
        """
        path = self.path(simulator, scenario)
        text, why = _read_entry(path)
        if text is None:
            return None, why
        try:
            return _parse_entry(text, path, simulator, scenario)
        except (ValueError, TypeError, RecursionError, MemoryError) as exc:  # a malformed entry is a miss
            return None, f"unreadable ({type(exc).__name__}: {str(exc)[:200]})"

    def load(self, simulator: Simulator, scenario) -> dict | None:
        """The cached row, or ``None`` (missing, or failing the checks of :meth:`lookup`)."""
        return self.lookup(simulator, scenario)[0]

    def store(self, simulator: Simulator, scenario, row: dict) -> Path:
        """Write ``row`` as the entry of ``(simulator, scenario)``; ``ValueError`` if it fails :func:`check_row`."""
        problem = check_row(row, scenario)
        if problem:
            raise ValueError(f"result of scenario {scenario.key()[:12]} not cached: {problem}")
        path = self.path(simulator, scenario)
        to_dict = getattr(scenario, "to_dict", None)
        entry = {"format": CACHE_FORMAT, "key": path.stem, "simulator": simulator.name,
                 "code_version": simulator.code_version, "scenario_key": scenario.key(),
                 "scenario": to_dict() if callable(to_dict) else repr(scenario),
                 "row_sha256": _row_digest(row), "row": row}
        text = json.dumps(entry, default=_json_default, allow_nan=True, indent=1)  # row keys keep their order
        _write_atomic(path, text)
        return path


def _read_entry(path: Path) -> tuple[str | None, str | None]:
    """The text of the entry at ``path``: ``(text, None)``, ``(None, None)`` when there is none, or
    ``(None, why)`` when what is there cannot be an entry.  Opened with ``O_NONBLOCK`` and checked
    with ``fstat`` before any read, so a FIFO, a device or a huge file is never read."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except (FileNotFoundError, NotADirectoryError):
        return None, None
    except OSError as exc:
        return None, f"unreadable ({exc})"
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = ("a directory" if stat.S_ISDIR(info.st_mode) else "a FIFO" if stat.S_ISFIFO(info.st_mode)
                    else "a socket" if stat.S_ISSOCK(info.st_mode) else "a device" if stat.S_ISCHR(info.st_mode)
                    or stat.S_ISBLK(info.st_mode) else "not a regular file")
            return None, f"{kind} is at the entry's path, not a regular file"
        if info.st_size > MAX_ENTRY_BYTES:
            return None, f"{info.st_size:,} bytes, more than any entry (at most {MAX_ENTRY_BYTES:,}): not read"
        chunks, size = [], 0
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            size += len(chunk)
            if size > MAX_ENTRY_BYTES:  # grew while being read
                return None, f"more than {MAX_ENTRY_BYTES:,} bytes, more than any entry: not read"
            chunks.append(chunk)
    except OSError as exc:
        return None, f"unreadable ({exc})"
    finally:
        os.close(fd)
    try:
        return b"".join(chunks).decode("utf-8"), None
    except UnicodeDecodeError as exc:
        return None, f"not UTF-8 text (byte {exc.start}: {exc.reason})"


def _parse_entry(text: str, path: Path, simulator: Simulator, scenario) -> tuple[dict | None, str | None]:
    """:meth:`ResultCache.lookup` on the entry's text (may raise on a malformed entry: the caller's miss)."""
    try:
        entry = json.loads(text)
    except ValueError as exc:
        return None, f"not valid JSON ({exc})"
    if not isinstance(entry, dict):
        return None, "not a cache entry"
    expected = {"format": CACHE_FORMAT, "key": path.stem, "simulator": simulator.name,
                "code_version": simulator.code_version, "scenario_key": scenario.key()}
    for field, value in expected.items():
        found = entry.get(field)
        if type(found) is not type(value) or found != value:
            return None, f"its {field} is {found!r:.80}, expected {value!r}"
    row = entry.get("row")
    if not isinstance(row, dict):
        return None, "it holds no row"
    problem = _not_flat(row)  # before the digest serialises it
    if problem:
        return None, problem
    if entry.get("row_sha256") != _row_digest(row):
        return None, "its row was altered after it was written (SHA-256 mismatch)"
    problem = check_row(row, scenario)
    if problem:
        return None, problem
    return row, None


def _write_atomic(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem[:16]}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise

