"""The book's one figure style and small figure helpers.

All figures use ``cmtlab.mplstyle`` (next to this module) through :func:`use_style`.
Figures are named after the paper figure they reproduce (see :func:`figure_name`).
"""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt

STYLE_PATH = Path(__file__).with_name("cmtlab.mplstyle")

#: One colour per number of links (1…8), used by every Song figure.
LINK_COLOURS = ["#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d", "#666666"]


def use_style() -> None:
    """Apply the book's matplotlib style (call once at the top of a notebook)."""
    plt.style.use(STYLE_PATH)


def figure_name(paper: str, figure: str, panel: str = "") -> str:
    """Canonical figure title, e.g. ``figure_name("Song", "7", "d")`` → ``"Song Fig. 7(d)"``."""
    return f"{paper} Fig. {figure}" + (f"({panel})" if panel else "")
