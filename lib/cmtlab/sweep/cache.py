"""The on-disk result cache: one JSON file per (simulator, code version, scenario)."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import tempfile
from pathlib import Path

import numpy as np

from ..scenario import StripedScenario
from .simulators import Simulator

__all__ = ["ResultCache", "default_cache_dir", "resolve_cache_dir", "CACHE_DIR_ENV", "CACHE_FORMAT"]

#: Environment variable naming the result-cache directory (overridden by ``cache_dir=``).
CACHE_DIR_ENV = "CMTLAB_CACHE_DIR"
#: Version of the cache-entry layout; bumping it invalidates every entry.
CACHE_FORMAT = 1


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


class ResultCache:
    """One JSON file per (simulator name, code version, scenario): ``<dir>/<name>/<kk>/<key>.json``.

    The file holds the key's ingredients (for inspection), the scenario as a dict and the
    result row.  Writes go to a temporary file in the same folder that is then renamed over
    the entry (atomic on POSIX and Windows), so a reader sees either nothing or a complete
    entry; an unreadable or foreign file is treated as a miss and overwritten.
    """

    def __init__(self, directory):
        self.directory = Path(directory)

    @staticmethod
    def key(simulator: Simulator, scenario: StripedScenario) -> str:
        blob = json.dumps({"format": CACHE_FORMAT, "simulator": simulator.name,
                           "code_version": simulator.code_version, "scenario": scenario.key()},
                          sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()

    def path(self, simulator: Simulator, scenario: StripedScenario) -> Path:
        key = self.key(simulator, scenario)
        folder = re.sub(r"[^A-Za-z0-9._-]", "_", simulator.name)
        return self.directory / folder / key[:2] / f"{key}.json"

    def load(self, simulator: Simulator, scenario: StripedScenario) -> dict | None:
        """The cached row, or ``None`` (missing, unreadable or not this key)."""
        path = self.path(simulator, scenario)
        try:
            entry = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if (not isinstance(entry, dict) or entry.get("format") != CACHE_FORMAT or entry.get("key") != path.stem
                or not isinstance(entry.get("row"), dict)):
            return None
        return entry["row"]

    def store(self, simulator: Simulator, scenario: StripedScenario, row: dict) -> Path:
        path = self.path(simulator, scenario)
        entry = {"format": CACHE_FORMAT, "key": path.stem, "simulator": simulator.name,
                 "code_version": simulator.code_version, "scenario_key": scenario.key(),
                 "scenario": scenario.to_dict(), "row": row}
        text = json.dumps(entry, default=_json_default, allow_nan=True, indent=1)  # row keys keep their order
        _write_atomic(path, text)
        return path


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

