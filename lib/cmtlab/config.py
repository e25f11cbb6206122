"""Run profiles: the published book uses the *full* setting, CI the *quick* one.

A notebook's ``parameters`` cell picks its heavy parameters with :func:`choose`::

    mc_samples = cmtlab.config.choose(full=200_000, quick=20_000)

The profile comes from the environment variable ``CMTLAB_PROFILE`` (``full`` by
default, ``quick`` in ``make test`` / CI).  papermill parameters injected after the
cell override whatever :func:`choose` returned, so a reader can still ask for any
value explicitly.
"""

from __future__ import annotations

import os

PROFILES = ("full", "quick")
ENV_VAR = "CMTLAB_PROFILE"


def profile() -> str:
    """The active profile name, ``"full"`` or ``"quick"``."""
    value = os.environ.get(ENV_VAR, "full").strip().lower() or "full"
    if value not in PROFILES:
        raise ValueError(f"{ENV_VAR} must be one of {PROFILES}, got {value!r}")
    return value


def choose(*, full, quick):
    """Return ``quick`` under the quick profile, else ``full``."""
    return quick if profile() == "quick" else full
