"""Mechanism registry: names in a scenario → small classes behind one interface each.

A scenario names its mechanisms (``congestion="lia"``, ``scheduler="round_robin"``,
``reordering="dsack"``, …) so that :func:`cmtlab.sweep.run_sweep` can vary them and its
cache can key on them; the engine turns a name (plus keyword parameters) into an instance
with :func:`make`.  The engine never branches on a mechanism's name or type.

Kinds (each the interface of one package of :mod:`cmtlab.sim`):

==================  ======================================================================  ===========================
kind                interface                                                               where
==================  ======================================================================  ===========================
``congestion``      :class:`~cmtlab.sim.mechanisms.congestion.CongestionControl`            ``mechanisms/congestion/``
``recovery``        :class:`~cmtlab.sim.mechanisms.recovery.RecoveryAlgorithm`              ``mechanisms/recovery/``
``reordering``      :class:`~cmtlab.sim.mechanisms.reordering.ReorderingResponse`           ``mechanisms/reordering/``
``scheduler``       :class:`~cmtlab.sim.mechanisms.schedulers.ConnectionScheduler`          ``mechanisms/schedulers/``
``link``            :class:`~cmtlab.sim.net.link.LinkModel`                                 ``net/``
``loss_detection``  :class:`~cmtlab.sim.mechanisms.recovery.loss_detection.LossDetection`   ``mechanisms/recovery/``
``dupack_mode``     :class:`~cmtlab.sim.mptcp.out_of_order.OutOfOrderPolicy`                ``mptcp/out_of_order.py``
==================  ======================================================================  ===========================

Register a class where it is defined::

    @register("congestion", "lia")
    class Lia(CongestionControl):
        ...

and build one with ``make("congestion", "lia")`` or ``make("congestion", "olia", **params)``.
Unknown kinds or names raise ``ValueError`` listing what is registered.

Model variants
--------------
A mechanism as another simulator or a paper's code implements it (e.g. the Chihani–Collange
ns-3 MPTCP model, :mod:`cmtlab.sim.models.chihani`) is its own class, a subclass of the
mechanism it varies, registered with :func:`register_variant`::

    @register_variant("congestion", "lia", "chihani")
    class ChihaniLia(ChihaniCoupled, Lia):
        ...

``make("congestion", "lia", variant="chihani")`` then builds that class: scenarios keep naming
``variant`` as a parameter, and no mechanism branches on it.

Where mechanisms come from
--------------------------
This module imports none: the built-in ones register when :mod:`cmtlab.sim` is imported (its
``__init__`` imports the mechanism packages), a plug-in when its own package is imported (the
OSIA planner of :mod:`cmtlab.papers.osia`).  :func:`lookup` names the package to import when a name is
unknown but provided by a known plug-in package (:data:`PLUGIN_PACKAGES`).
"""

from __future__ import annotations

import importlib
from typing import Callable

KINDS = ("congestion", "recovery", "reordering", "scheduler", "link", "loss_detection", "dupack_mode")

_REGISTRY: dict[str, dict[str, type]] = {k: {} for k in KINDS}
_VARIANTS: dict[str, dict[tuple[str, str], type]] = {k: {} for k in KINDS}

#: Packages outside the simulator that register mechanisms when imported, by (kind, name): a
#: scenario may name them before the package was imported (the sweep's worker processes).
PLUGIN_PACKAGES: dict[tuple[str, str], str] = {("scheduler", "osia"): "cmtlab.papers.osia"}


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


def register_variant(kind: str, name: str, variant: str) -> Callable[[type], type]:
    """Class decorator: ``make(kind, name, variant=variant)`` builds ``cls`` (a model variant, see above)."""
    table = _check_kind(kind)
    if not all(isinstance(x, str) and x for x in (name, variant)):
        raise ValueError(f"mechanism name and variant must be non-empty strings, got {name!r}, {variant!r}")
    vtable = _VARIANTS[kind]

    def deco(cls: type) -> type:
        old = vtable.get((name, variant))
        if old is not None and old.__qualname__ != cls.__qualname__:
            raise ValueError(f"{kind} {name!r} variant {variant!r} is already registered as {old.__qualname__}")
        base = table.get(name)
        if base is not None and not issubclass(cls, base):
            raise ValueError(f"{cls.__qualname__} must subclass {base.__qualname__} to be its variant {variant!r}")
        vtable[(name, variant)] = cls
        cls.name = name
        cls.VARIANT = variant
        return cls

    return deco


def variants(kind: str, name: str) -> list[str]:
    """Registered model variants of one mechanism (besides its own), in registration order."""
    return [v for (n, v) in _VARIANTS[kind] if n == name] if kind in _VARIANTS else []


def names(kind: str) -> list[str]:
    """Registered names of one kind, sorted."""
    return sorted(_check_kind(kind))


def lookup(kind: str, name: str) -> type:
    """The class registered as ``name``; ``ValueError`` naming the allowed names otherwise."""
    table = _check_kind(kind)
    if isinstance(name, str) and name not in table and (kind, name) in PLUGIN_PACKAGES:
        importlib.import_module(PLUGIN_PACKAGES[(kind, name)])  # the plug-in registers itself
    try:
        return table[name]
    except (KeyError, TypeError):
        raise ValueError(f"{kind} must be one of {sorted(set(table) | {n for k, n in PLUGIN_PACKAGES if k == kind})}, "
                         f"got {name!r}") from None


def make(kind: str, name: str, **params):
    """A new instance of the mechanism ``name`` of ``kind`` built with ``params``.

    ``variant=`` naming a registered model variant builds that class.  A parameter the class
    does not accept raises ``ValueError`` naming the mechanism.
    """
    cls = lookup(kind, name)
    variant = params.get("variant")
    if isinstance(variant, str):
        cls = _VARIANTS[kind].get((name, variant), cls)
    try:
        return cls(**params)
    except TypeError as exc:
        raise ValueError(f"{kind} {name!r}: invalid parameters {sorted(params)} ({exc})") from None


def check_variant(kind: str, mechanism, variant: str) -> str:
    """Validate ``variant`` in a mechanism's ``__init__``: its own (``type(mechanism).VARIANT``) or
    a ``ValueError`` naming the allowed ones (a registered model variant is another class, built
    by :func:`make`)."""
    cls = type(mechanism)
    own = cls.VARIANT
    if variant == own:
        return variant
    name = getattr(cls, "name", "?")
    base = _REGISTRY[kind].get(name)
    allowed = [base.VARIANT if base is not None else own] + variants(kind, name)
    if variant in allowed:
        raise ValueError(f"{kind} {name!r} with variant={variant!r} is its own class: build it with "
                         f"cmtlab.sim.registry.make({kind!r}, {name!r}, variant={variant!r})")
    raise ValueError(f"variant must be one of {sorted(allowed)} for {kind} {name!r}, got {variant!r}")


__all__ = ["KINDS", "PLUGIN_PACKAGES", "register", "register_variant", "variants", "names", "lookup", "make",
           "check_variant"]
