"""Where the repository is: the one root every file the library reads or writes beside its sources hangs from.

``lib/cmtlab/_paths.py`` → the checkout (the folder holding ``lib/``, ``data/``, ``notebooks/``).
Modules name their files from :data:`REPO` and :data:`DATA` instead of counting ``parents[N]`` of their
own location, so moving a module does not move the files it reads.
"""

from __future__ import annotations

from pathlib import Path

#: The repository (checkout) root.
REPO = Path(__file__).resolve().parents[2]
#: The repository's data folder (recorded runs, measurements, tables the simulator reads).
DATA = REPO / "data"

__all__ = ["REPO", "DATA"]
