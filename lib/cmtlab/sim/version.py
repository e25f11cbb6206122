"""The simulator's code version, as the sweep computes it for every simulator (one mechanism, issue 33).

The version is :func:`cmtlab.sweep.simulators.module_version` of :mod:`cmtlab.sim`: the hash of every source file
the simulator can import (:func:`cmtlab.sweep.versions.import_closure`: the whole ``cmtlab.sim`` package with its
``.pxd`` files, ``scenario.py``, ``_validate.py``, …, and the plug-in packages the registry imports by name —
:data:`cmtlab.sim.registry.PLUGIN_PACKAGES`, followed as the literal module names they are) and of the data files
the simulator declares here, :data:`CODE_DATA_FILES`.  It is part of every sweep cache key and of every result's
``extra["code_version"]`` (:func:`code_version`).  A module of its own so that the builders
(:mod:`cmtlab.sim.striped`, :mod:`cmtlab.sim.multipath`) read it without importing the package face that imports
them.
"""

from __future__ import annotations

import sys

from .._paths import DATA

#: Data the simulator reads at run time, hashed into its code version by the sweep (``CODE_DATA_FILES``,
#: :func:`cmtlab.sweep.simulators.module_version`): the Wi-Fi frame-error table (:mod:`cmtlab.sim.net.wifi_phy`; a copy
#: of the library without ``data/`` hashes it as missing: runs that need it fail there anyway).
CODE_DATA_FILES = (DATA / "wifi" / "ns3-3.44-table-based-per.csv",)


def code_version() -> str:
    """The simulator's code version: the sweep's :func:`~cmtlab.sweep.simulators.module_version` of
    :mod:`cmtlab.sim` (hashed once per process, when it first asks)."""
    from ..sweep.simulators import module_version

    # (importing any module of the simulator has run the package face, cmtlab.sim, first)

    return module_version(sys.modules[__package__])


__all__ = ["CODE_DATA_FILES", "code_version"]
