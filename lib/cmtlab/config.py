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


def parameter_list(name: str, value) -> list:
    """A list-valued notebook parameter as a list, however papermill passed it.

    papermill's ``-p`` turns only ``True``/``False``/``None`` and numbers into Python values; a list
    arrives as its text: ``-p scenarios '[2]'`` injects ``scenarios = "[2]"``.  This accepts a list
    or tuple (as written in the ``parameters`` cell or passed with ``-y 'scenarios: [2]'``), the text
    of a Python/JSON list (``'[2]'``, ``'["lia", "uncoupled"]'``), comma-separated text
    (``'lia,uncoupled'``, ``'[lia, uncoupled]'``) or a single scalar (``2``, ``'rfc'``).  An empty
    result raises :class:`ValueError` naming the parameter.
    """
    import ast

    if isinstance(value, str):
        text = value.strip()
        try:
            parsed = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            parsed = [p.strip().strip("'\"") for p in text.strip("[]()").split(",") if p.strip()]
        value = parsed
    if isinstance(value, (list, tuple)):
        out = list(value)
    elif isinstance(value, (str, int, float)) and not isinstance(value, bool):
        out = [value]
    else:
        raise ValueError(f"{name} must be a list (or its text, e.g. '[1, 2]'), got {value!r}")
    if not out:
        raise ValueError(f"{name} must hold at least one value, got {value!r}")
    return out
