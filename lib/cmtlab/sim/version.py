"""The simulator's code version: a short hash of its sources and of the data it reads at run time.

:data:`CODE_VERSION` (re-exported as ``cmtlab.sim.CODE_VERSION``) is part of every sweep cache key and of every
result's ``code_version``; a module of its own so that the builders (:mod:`cmtlab.sim.striped`,
:mod:`cmtlab.sim.multipath`) read it without importing the package face that imports them.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from .._paths import DATA


def _code_version() -> str:
    import importlib.util

    from .registry import PLUGIN_PACKAGES

    here = Path(__file__).resolve().parent  # cmtlab/sim
    # (a .pxd file gives C types to the module beside it: cmtlab.compiled)
    files = sorted(here.rglob("*.py")) + sorted(here.rglob("*.pxd")) + [here.parent / "scenario.py",
                                                                         here.parent / "_validate.py"]
    # the plug-in packages a scenario may load (found, not imported): their code decides results too
    for package in sorted(set(PLUGIN_PACKAGES.values())):
        spec = importlib.util.find_spec(package)
        if spec is not None and spec.origin:
            files += sorted(Path(spec.origin).resolve().parent.rglob("*.py"))
    # data the simulator reads at run time: the Wi-Fi frame-error table (cmtlab.sim.net.wifi; a copy of
    # the library without data/ hashes it as missing: runs that need it fail there anyway)
    table = DATA / "wifi" / "ns3-3.44-table-based-per.csv"
    if table.is_file():
        files.append(table)
    h = hashlib.sha256()
    for f in files:
        h.update(f.name.encode())
        h.update(b"\0")
        h.update(f.read_bytes())
        h.update(b"\0")
    return h.hexdigest()[:12]


#: Short hash of the simulator's sources (this package, ``scenario.py``, ``_validate.py`` and the
#: plug-in packages of :data:`cmtlab.sim.registry.PLUGIN_PACKAGES`) and of the data it reads at run
#: time (the Wi-Fi frame-error table).
CODE_VERSION: str = _code_version()


__all__ = ["CODE_VERSION"]
