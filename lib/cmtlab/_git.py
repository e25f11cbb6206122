"""The repository's git state, for the provenance of recorded results (``data/testbed/``)."""

from __future__ import annotations

import subprocess

from ._paths import REPO


def git(*args: str, repo=REPO) -> str | None:
    """``git <args>``'s standard output (stripped) in ``repo``, or ``None`` if git fails or is missing."""
    try:
        out = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() if out.returncode == 0 else None


def checkout_state(repo=REPO) -> tuple[str | None, bool | None]:
    """``(commit, lib_modified)``: the checked-out commit and whether ``lib/`` differs from it (``None``: unknown)."""
    commit = git("rev-parse", "HEAD", repo=repo) or None
    status = git("status", "--porcelain", "--", ":/lib", repo=repo) if commit else None
    return commit, (bool(status) if status is not None else None)
