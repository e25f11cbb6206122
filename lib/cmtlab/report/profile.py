"""Run profiles: the published book uses the *full* setting, CI the *quick* one.

A notebook's ``parameters`` cell picks its heavy parameters with :func:`choose`, the published book's value
first, then the quick profile's::

    mc_samples = choose(200_000, 20_000)      # from cmtlab.report.profile import choose

(positional in the notebooks, so that each line of the ``parameters`` cell holds a single ``=`` and papermill
recognises every parameter it declares; ``choose(full=..., quick=...)`` means the same).

The profile comes from the environment variable ``CMTLAB_PROFILE`` (``full`` by
default, ``quick`` in ``make test`` / CI), or, inside a ``with`` block of :func:`using`, from
that block (code that reads a notebook's parameters under another profile, e.g.
:func:`cmtlab.testbed.recorded.chapter_parameters`, never writes the environment).
papermill parameters injected after the cell override whatever :func:`choose` returned, so a
reader can still ask for any value explicitly.
"""

from __future__ import annotations

import contextlib
import contextvars
import os

PROFILES = ("full", "quick")
ENV_VAR = "CMTLAB_PROFILE"
#: The profile of the innermost :func:`using` block (None: the environment decides).
_ACTIVE: contextvars.ContextVar[str | None] = contextvars.ContextVar("cmtlab_profile", default=None)


def profile() -> str:
    """The active profile name, ``"full"`` or ``"quick"``: that of the innermost :func:`using` block,
    else ``CMTLAB_PROFILE``."""
    active = _ACTIVE.get()
    if active is not None:
        return active
    value = os.environ.get(ENV_VAR, "full").strip().lower() or "full"
    if value not in PROFILES:
        raise ValueError(f"{ENV_VAR} must be one of {PROFILES}, got {value!r}")
    return value


@contextlib.contextmanager
def using(name: str):
    """Run the ``with`` block under profile ``name`` (``"full"`` or ``"quick"``), whatever ``CMTLAB_PROFILE``
    says; the previous profile is back when the block ends, however it ends."""
    if name not in PROFILES:
        raise ValueError(f"profile must be one of {PROFILES}, got {name!r}")
    token = _ACTIVE.set(name)
    try:
        yield name
    finally:
        _ACTIVE.reset(token)


def choose(full, quick):
    """Return ``quick`` under the quick profile, else ``full`` (the published book's value)."""
    return quick if profile() == "quick" else full


__all__ = ["PROFILES", "ENV_VAR", "profile", "using", "choose"]
