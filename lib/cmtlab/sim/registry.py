"""Mechanism registry: names in a scenario → small classes behind one interface each.

A scenario names its mechanisms (``congestion="lia"``, ``scheduler="round_robin"``,
``reordering="dsack"``, …) so that :func:`cmtlab.sweep.run_sweep` can vary them and its
cache can key on them; the engine turns a name (plus keyword parameters) into an instance
with :func:`make`.  The engine never branches on a mechanism's name or type.

Kinds (each the interface of one module of :mod:`cmtlab.sim`):

==============  =====================================================  ==========================
kind            interface                                               module
==============  =====================================================  ==========================
``congestion``  :class:`~cmtlab.sim.congestion.CongestionControl`       ``congestion.py``
``recovery``    :class:`~cmtlab.sim.recovery.RecoveryAlgorithm`         ``recovery.py``
``reordering``  :class:`~cmtlab.sim.reordering.ReorderingResponse`      ``reordering.py``
``scheduler``   :class:`~cmtlab.sim.scheduler.ConnectionScheduler`      ``scheduler.py``
``link``        :class:`~cmtlab.sim.link.LinkModel`                     ``link.py`` (and others)
==============  =====================================================  ==========================

Register a class where it is defined::

    @register("congestion", "lia")
    class Lia(CongestionControl):
        ...

and build one with ``make("congestion", "lia")`` or ``make("congestion", "olia", **params)``.
Unknown kinds or names raise ``ValueError`` listing what is registered.
"""

from __future__ import annotations

from typing import Callable

KINDS = ("congestion", "recovery", "reordering", "scheduler", "link")

_REGISTRY: dict[str, dict[str, type]] = {k: {} for k in KINDS}


def _check_kind(kind: str) -> dict[str, type]:
    try:
        return _REGISTRY[kind]
    except KeyError:
        raise ValueError(f"mechanism kind must be one of {list(KINDS)}, got {kind!r}") from None


def register(kind: str, name: str) -> Callable[[type], type]:
    """Class decorator: make ``cls`` available as ``make(kind, name)``.

    Registering a different class under a name already taken raises ``ValueError``
    (re-registering the same class, e.g. on module reload, is allowed).
    """
    table = _check_kind(kind)
    if not isinstance(name, str) or not name:
        raise ValueError(f"mechanism name must be a non-empty string, got {name!r}")

    def deco(cls: type) -> type:
        old = table.get(name)
        if old is not None and old.__qualname__ != cls.__qualname__:
            raise ValueError(f"{kind} mechanism {name!r} is already registered as {old.__qualname__}")
        table[name] = cls
        if not getattr(cls, "name", None) or cls.__dict__.get("name") is None:
            cls.name = name
        return cls

    return deco


def names(kind: str) -> list[str]:
    """Registered names of one kind, sorted."""
    _load_builtin()
    return sorted(_check_kind(kind))


def lookup(kind: str, name: str) -> type:
    """The class registered as ``name``; ``ValueError`` naming the allowed names otherwise."""
    _load_builtin()
    table = _check_kind(kind)
    try:
        return table[name]
    except (KeyError, TypeError):
        raise ValueError(f"{kind} must be one of {sorted(table)}, got {name!r}") from None


def make(kind: str, name: str, **params):
    """A new instance of the mechanism ``name`` of ``kind`` built with ``params``.

    A parameter the class does not accept raises ``ValueError`` naming the mechanism.
    """
    cls = lookup(kind, name)
    try:
        return cls(**params)
    except TypeError as exc:
        raise ValueError(f"{kind} {name!r}: invalid parameters {sorted(params)} ({exc})") from None


def _load_builtin() -> None:
    """Import the modules that register the built-in mechanisms (idempotent)."""
    from . import congestion, osia_scheduler, recovery, reordering, scheduler, wifi  # noqa: F401


__all__ = ["KINDS", "register", "names", "lookup", "make"]
