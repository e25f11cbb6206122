"""The book's one figure style and small figure helpers.

All figures use ``cmtlab.mplstyle`` (next to this module) through :func:`use_style`.
Figures are named after the paper figure they reproduce (see :func:`figure_name`).

**Sized for the page they live on.**  The book's text column is about 780 px wide (1400 px
window); a figure is drawn at :data:`DPI` = 110, so :data:`COLUMN_WIDTH_IN` = 7.0 in gives about
770 px and is shown at its natural size: 10 pt text is then about 11.5 pt on screen, 9 pt (the
smallest size the style uses) about 10.3 pt.  A wider figure is scaled down by the browser and
its text shrinks with it, so every figure function sizes itself with :func:`figsize` (at most two
panels per row unless the panels are small multiples).  :func:`use_style` also makes every
figure shown in a notebook carry, in its PNG, the smallest font size it uses and its dpi
(:func:`text_metadata`): the browser test ``tests/browser/test_legibility.py`` reads them and
checks that the text of every figure is at least 9 pt as displayed.

**One colour and marker per series across the book** (:func:`series_style`): a scheduler, a
reordering response, a congestion control or a simulator has the same colour and marker in every
chapter.
"""

from __future__ import annotations

import sys
from pathlib import Path

import matplotlib.pyplot as plt
from matplotlib.figure import Figure
from matplotlib.text import Text

STYLE_PATH = Path(__file__).with_name("cmtlab.mplstyle")

#: Resolution of the PNGs the notebooks embed (the style's ``figure.dpi``).
DPI = 110
#: Width of a figure that fills the text column at its natural size (7.0 in × 110 dpi ≈ 770 px).
COLUMN_WIDTH_IN = 7.0
#: The smallest font size (pt, in the figure) the book's figures use: legends, colour-bar ticks.
MIN_FONT_PT = 9.0

#: One colour per number of links (1…8), used by every Song figure.
LINK_COLOURS = ["#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d", "#666666"]

# Okabe–Ito colours (distinguishable with the common colour-vision deficiencies) + black/grey.
_BLUE, _ORANGE, _GREEN, _VERMILLION = "#0072B2", "#E69F00", "#009E73", "#D55E00"
_PURPLE, _SKY, _YELLOW, _GREY, _BLACK = "#CC79A7", "#56B4E9", "#C9B200", "#7F7F7F", "#000000"

#: Colour and marker of every named series of the book.  Keys are lower-case names with
#: "-", " " and "_" removed (see :func:`series_style`), so ``"PR-R"``, ``"pr_r"`` and ``"prr"``
#: are the same series.  The same mechanism has the same style in every chapter.
SERIES_STYLES: dict[str, dict] = {
    # schedulers (OSIA, Arabi, Alheid, MPTCP validation)
    "roundrobin": dict(color=_BLUE, marker="o"),
    "cwndaware": dict(color=_ORANGE, marker="s"),
    "flowlevel": dict(color=_GREEN, marker="^"),
    "osia": dict(color=_VERMILLION, marker="D"),
    "osiaeveryperiod": dict(color=_PURPLE, marker="P"),
    "lowestrtt": dict(color=_SKY, marker="v"),
    "edpf": dict(color=_BLACK, marker="x"),
    # reordering responses (Arabi, Alheid)
    "nopr": dict(color=_GREY, marker="o"),
    "none": dict(color=_GREY, marker="o"),
    "dsack": dict(color=_BLUE, marker="s"),
    "eifel": dict(color=_ORANGE, marker="^"),
    "frto": dict(color=_GREEN, marker="v"),
    "tcpdoor": dict(color=_PURPLE, marker="D"),
    "prr": dict(color=_VERMILLION, marker="P"),
    "ooobo": dict(color=_SKY, marker="<"),
    "ooor": dict(color=_YELLOW, marker=">"),
    "lu": dict(color=_BLACK, marker="x"),
    # congestion controls
    "uncoupled": dict(color=_BLUE, marker="o"),
    "coupled": dict(color=_ORANGE, marker="s"),
    "fullycoupled": dict(color=_ORANGE, marker="s"),
    "lia": dict(color=_GREEN, marker="^"),
    "rttcompensation": dict(color=_PURPLE, marker="D"),
    "rttcomp": dict(color=_PURPLE, marker="D"),
    "olia": dict(color=_VERMILLION, marker="v"),
    # simulators and references
    "model": dict(color=_BLACK, marker="o"),
    "ns3": dict(color=_BLUE, marker="s"),
    "cmtlabsim": dict(color=_VERMILLION, marker="^"),
    "linux": dict(color=_GREEN, marker="D"),
    "kernel": dict(color=_GREEN, marker="D"),
    "paper": dict(color=_GREY, marker="*"),
}

_FALLBACK = [dict(color=c, marker=m) for c, m in zip(
    [_BLUE, _ORANGE, _GREEN, _VERMILLION, _PURPLE, _SKY, _YELLOW, _BLACK],
    ["o", "s", "^", "D", "v", "P", "<", "x"])]


def series_style(name: str, index: int = 0) -> dict:
    """Colour and marker of the series ``name`` (e.g. ``"osia"``, ``"PR-R"``, ``"lia"``, ``"ns-3"``).

    Unknown names get the ``index``-th style of a fixed fallback cycle, so several unknown series
    in one figure still differ.  Returns a new dict (``color``, ``marker``) for ``ax.plot(**...)``.
    """
    key = "".join(ch for ch in str(name).lower() if ch.isalnum())
    style = SERIES_STYLES.get(key)
    if style is None:
        style = _FALLBACK[index % len(_FALLBACK)]
    return dict(style)


def figsize(ncols: int = 1, nrows: int = 1, *, panel_height_in: float = 2.9,
            width_in: float = COLUMN_WIDTH_IN) -> tuple[float, float]:
    """Figure size (in) for ``nrows`` × ``ncols`` panels in the text column.

    The width is the column's (:data:`COLUMN_WIDTH_IN`) whatever the number of columns — more
    columns make narrower panels, never a wider figure — and each row is ``panel_height_in`` high.
    """
    if ncols < 1 or nrows < 1:
        raise ValueError(f"ncols and nrows must be >= 1, got ncols={ncols}, nrows={nrows}")
    if not 0 < width_in <= 2 * COLUMN_WIDTH_IN:
        raise ValueError(f"width_in must be in (0, {2 * COLUMN_WIDTH_IN}] in, got {width_in}")
    return (width_in, panel_height_in * nrows)


def grid_shape(n_panels: int, max_cols: int = 2) -> tuple[int, int]:
    """(rows, columns) for ``n_panels`` panels with at most ``max_cols`` per row."""
    if n_panels < 1:
        raise ValueError(f"n_panels must be >= 1, got {n_panels}")
    ncols = min(max_cols, n_panels)
    return (-(-n_panels // ncols), ncols)


def figure_name(paper: str, figure: str, panel: str = "") -> str:
    """Canonical figure title, e.g. ``figure_name("Song", "7", "d")`` → ``"Song Fig. 7(d)"``."""
    return f"{paper} Fig. {figure}" + (f"({panel})" if panel else "")


def text_sizes_pt(fig: Figure) -> list[float]:
    """Font sizes (pt) of every visible, non-empty text of ``fig`` (tick labels included)."""
    fig.draw_without_rendering()  # places ticks and their labels
    renderer_free = []
    for text in fig.findobj(Text):
        if not text.get_visible() or not text.get_text().strip():
            continue
        axes = text.axes
        if axes is not None and not axes.get_visible():
            continue
        renderer_free.append(float(text.get_fontsize()))
    return renderer_free


def text_metadata(fig: Figure) -> dict[str, str]:
    """PNG text chunks that let a browser test measure the figure's text as displayed.

    ``cmtlab:min-font-pt`` — the smallest font size (pt) of any visible text;
    ``cmtlab:dpi`` — the resolution the PNG is drawn at.  The displayed size of that text is
    ``min-font-pt / 72 × dpi`` PNG pixels, times the ratio of displayed to natural image width.
    """
    sizes = text_sizes_pt(fig)
    return {"cmtlab:min-font-pt": f"{min(sizes) if sizes else 0.0:.2f}", "cmtlab:dpi": f"{fig.dpi:.2f}"}


def _png_with_text_metadata(fig: Figure):
    from IPython.core.pylabtools import print_figure

    if not fig.axes and not fig.lines:
        return None
    return print_figure(fig, fmt="png", bbox_inches="tight", base64=True, metadata=text_metadata(fig))


def _install_png_formatter() -> bool:
    """Inside IPython: render figures as PNG with :func:`text_metadata` (else do nothing)."""
    if "IPython" not in sys.modules:
        return False
    from IPython import get_ipython

    shell = get_ipython()
    if shell is None or not hasattr(shell, "display_formatter"):
        return False
    try:  # load the backend first: the inline backend registers its own PNG formatter on load
        plt._get_backend_mod()
    except Exception:  # pragma: no cover - any backend problem shows up when plotting
        pass
    shell.display_formatter.formatters["image/png"].for_type(Figure, _png_with_text_metadata)
    return True


def use_style() -> None:
    """Apply the book's matplotlib style (call once at the top of a notebook).

    In a notebook it also makes every figure carry :func:`text_metadata` in its PNG, and every
    table show its numbers as readers read them (:func:`cmtlab.report.readable.use_table_format`).
    """
    from .readable import use_table_format

    plt.style.use(STYLE_PATH)
    _install_png_formatter()
    use_table_format()
