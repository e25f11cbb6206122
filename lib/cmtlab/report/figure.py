"""Numbered, captioned figures with their data: one helper for every figure of the book (issue 38).

A chapter shows a figure with :func:`show`::

    fig = figures.plot_fig6(...)
    show(fig, figures.fig6_caption(...))

It displays the figure (the PNG of :func:`cmtlab.report.style.use_style`, with its text metadata), then a
caption block: **"Figure N."** (N counts the figures of the notebook, in order), the caption's text —
what is shown, the paper figure it reproduces and the paper's values where the paper gives them — and
a link to the data behind the figure as CSV (:func:`figure_data`: the plotted values, read from the
figure's artists, or a table the caller gives).

In a notebook the CSV link is a ``data:`` address; the book's extension (``book/_ext/cmtlab_figures.py``)
writes each CSV as a file next to the page's HTML, points the link at it and sets the figure's ``alt``
text from the caption.  The caption text lives in the library beside the function that draws the figure
(a :class:`Caption` per figure), never in the notebook.
"""

from __future__ import annotations

import base64
import html
import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

#: CSS class of the caption block (the book's extension and the browser test look for it).
CAPTION_CLASS = "cmtlab-figcaption"
#: CSS class of the CSV link inside the caption block.
DATA_CLASS = "cmtlab-figdata"
#: Columns of :func:`figure_data`.
DATA_COLUMNS = ["panel", "series", "x", "y", "low", "high", "value"]

_NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,79}$")


@dataclass(frozen=True)
class Caption:
    """A figure's caption, written beside the function that draws the figure.

    ``name``: a short slug, unique in its chapter (the figure's anchor and its CSV file name);
    ``shows``: what the figure shows (one or two sentences); ``reproduces``: the paper figure it
    reproduces (e.g. ``"Song et al., Fig. 6"``; empty for a check that reproduces no paper figure);
    ``paper``: the paper's values where the paper gives them (targets, read from the paper's
    registry, never inputs); ``look``: what to look at.
    """

    name: str
    shows: str
    reproduces: str = ""
    paper: str = ""
    look: str = ""

    def __post_init__(self):
        if not isinstance(self.name, str) or not _NAME.match(self.name):
            raise ValueError(f"Caption name must be a lower-case slug (a-z, 0-9, '-'; 1-80 characters), "
                             f"got {self.name!r}")
        if not str(self.shows).strip():
            raise ValueError(f"Caption {self.name!r}: 'shows' must say what the figure shows, got an empty text")

    def text(self) -> str:
        """The caption as one paragraph of plain text (no figure number)."""
        parts = [_sentence(self.shows)]
        if self.reproduces:
            parts.append(_sentence(f"Reproduces {self.reproduces}"))
        else:
            parts.append("It reproduces no figure of a paper.")
        if self.paper:
            parts.append(_sentence(f"The paper: {self.paper}"))
        if self.look:
            parts.append(_sentence(self.look))
        return " ".join(parts)


def _sentence(text: str) -> str:
    text = " ".join(str(text).split())
    return text if text.endswith((".", "!", "?")) else text + "."


# ---------------------------------------------------------------- the data behind a figure
def _tick_labels(axis) -> dict[float, str]:
    labels = {}
    for pos, lab in zip(axis.get_ticklocs(), axis.get_ticklabels()):
        text = lab.get_text().strip()
        if text and "$" not in text and not _numeric(text):  # category names only, not numbers
            labels[float(pos)] = text
    return labels


def _numeric(text: str) -> bool:
    try:
        float(text.replace("\u2212", "-").replace(",", ""))
        return True
    except ValueError:
        return False


def _category(value: float, labels: dict[float, str]):
    for pos, text in labels.items():
        if abs(pos - value) < 1e-9:
            return text
    return value


def _panel_name(ax, index: int) -> str:
    title = " ".join(ax.get_title(loc=loc) for loc in ("left", "center", "right") if ax.get_title(loc=loc)).strip()
    return " ".join(title.split()) or f"panel {index + 1}"


def _series_name(artist, fallback: str) -> str:
    label = str(artist.get_label() or "")
    return fallback if not label or label.startswith("_") else label


def figure_data(fig) -> pd.DataFrame:
    """The values a figure plots, one row per point, read from its artists.

    Columns :data:`DATA_COLUMNS`: ``panel`` (the axes' title, else "panel k"), ``series`` (the legend
    label, else the artist kind and number), ``x`` and ``y`` (data coordinates; a category's tick
    label where the axis is categorical), ``low``/``high`` (an error bar's ends) and ``value`` (a heat
    map's cell, at column ``x`` and row ``y``).  Lines, markers, bars, error bars, reference lines
    (``axhline``: only ``y``; ``axvline``: only ``x``) and heat maps (``imshow``, ``pcolormesh``) are
    read; text, shaded bands and decorations are not.  Colour-bar axes are skipped.
    """
    from matplotlib.collections import PathCollection, QuadMesh
    from matplotlib.container import BarContainer, ErrorbarContainer
    from matplotlib.image import AxesImage

    rows: list[dict] = []
    colorbar_axes = {id(getattr(im, "colorbar", None) and im.colorbar.ax)
                     for ax in fig.axes for im in list(ax.images) + list(ax.collections)
                     if getattr(im, "colorbar", None) is not None}
    for i, ax in enumerate(fig.axes):
        if id(ax) in colorbar_axes or not ax.get_visible():
            continue
        panel = _panel_name(ax, i)
        xlabels, ylabels = _tick_labels(ax.xaxis), _tick_labels(ax.yaxis)
        xcat = ax.xaxis.get_converter() is not None if hasattr(ax.xaxis, "get_converter") else False
        in_containers = set()
        for k, cont in enumerate(ax.containers):
            name = _series_name(cont, f"series {k + 1}")
            if isinstance(cont, BarContainer):
                horizontal = getattr(cont, "orientation", "vertical") == "horizontal"
                for patch in cont.patches:
                    in_containers.add(id(patch))
                    if horizontal:
                        y = patch.get_y() + patch.get_height() / 2
                        rows.append(dict(panel=panel, series=name, x=patch.get_x() + patch.get_width(),
                                         y=_category(y, ylabels), low=patch.get_x()))
                    else:
                        x = patch.get_x() + patch.get_width() / 2
                        rows.append(dict(panel=panel, series=name, x=_category(x, xlabels),
                                         y=patch.get_y() + patch.get_height(),
                                         low=patch.get_y() if patch.get_y() else None))
            elif isinstance(cont, ErrorbarContainer):
                line, _caps, bars = cont.lines
                if line is not None:
                    in_containers.add(id(line))
                for coll in bars:
                    in_containers.add(id(coll))
                if line is None:
                    continue
                xs, ys = np.asarray(line.get_xdata(), float), np.asarray(line.get_ydata(), float)
                lows, highs = [None] * len(xs), [None] * len(xs)
                if cont.has_yerr and bars:
                    segs = bars[-1].get_segments() if not cont.has_xerr else bars[1].get_segments()
                    if len(segs) == len(xs) and all(np.ndim(seg) == 2 and len(seg) for seg in segs):
                        lows = [float(np.min(np.asarray(seg)[:, 1])) for seg in segs]
                        highs = [float(np.max(np.asarray(seg)[:, 1])) for seg in segs]
                for x, y, lo, hi in zip(xs, ys, lows, highs):
                    rows.append(dict(panel=panel, series=name, x=_category(float(x), xlabels) if not xcat else x,
                                     y=float(y), low=lo, high=hi))
        for k, line in enumerate(ax.get_lines()):
            if id(line) in in_containers or not line.get_visible():
                continue
            name = _series_name(line, f"line {k + 1}")
            xs, ys = np.asarray(line.get_xdata()), np.asarray(line.get_ydata())
            tr = line.get_transform()
            if tr == ax.get_yaxis_transform():      # axhline: x spans the axes
                rows.append(dict(panel=panel, series=name, y=float(ys[0])))
                continue
            if tr == ax.get_xaxis_transform():      # axvline
                rows.append(dict(panel=panel, series=name, x=float(xs[0])))
                continue
            if tr != ax.transData:
                continue
            for x, y in zip(xs, ys):
                rows.append(dict(panel=panel, series=name, x=_value(x), y=_value(y)))
        for k, coll in enumerate(ax.collections):
            if id(coll) in in_containers or not coll.get_visible():
                continue
            if isinstance(coll, PathCollection) and coll.get_offset_transform() == ax.transData:
                name = _series_name(coll, f"markers {k + 1}")
                for x, y in np.asarray(coll.get_offsets()):
                    rows.append(dict(panel=panel, series=name, x=float(x), y=float(y)))
            elif isinstance(coll, QuadMesh):
                rows.extend(_quadmesh_rows(coll, panel))
        for im in ax.images:
            if isinstance(im, AxesImage):
                rows.extend(_image_rows(im, panel, xlabels, ylabels))
    frame = pd.DataFrame(rows, columns=DATA_COLUMNS)
    return frame.dropna(axis=1, how="all")


def _value(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return v


def _quadmesh_rows(mesh, panel: str) -> list[dict]:
    values = np.ma.asarray(mesh.get_array())
    coords = mesh.get_coordinates()  # (ny+1, nx+1, 2) cell corners
    cx = (coords[:-1, :-1, 0] + coords[1:, 1:, 0]) / 2
    cy = (coords[:-1, :-1, 1] + coords[1:, 1:, 1]) / 2
    values = values.reshape(cx.shape)
    name = _series_name(mesh, "heat map")
    return [dict(panel=panel, series=name, x=float(cx[r, c]), y=float(cy[r, c]),
                 value=None if np.ma.is_masked(values[r, c]) else float(values[r, c]))
            for r in range(cx.shape[0]) for c in range(cx.shape[1])]


def _image_rows(im, panel: str, xlabels, ylabels) -> list[dict]:
    values = np.ma.asarray(im.get_array())
    if values.ndim != 2:
        return []
    name = _series_name(im, "heat map")
    return [dict(panel=panel, series=name, x=_category(float(c), xlabels), y=_category(float(r), ylabels),
                 value=None if np.ma.is_masked(values[r, c]) or not np.isfinite(values[r, c]) else float(values[r, c]))
            for r in range(values.shape[0]) for c in range(values.shape[1])]


#: At most this many rows of data per figure (a notebook and its page carry the CSV): longer series — a
#: congestion-window trace of a million steps — are thinned to evenly spaced points, first and last kept.
MAX_ROWS = 10_000


def thin(data: pd.DataFrame, max_rows: int = MAX_ROWS) -> tuple[pd.DataFrame, bool]:
    """``data`` with about ``max_rows`` rows at most, each (panel, series) thinned in proportion to its length
    to evenly spaced rows (first and last kept; a series of 50 rows or fewer stays whole); and whether
    anything was thinned."""
    if max_rows < 10:
        raise ValueError(f"max_rows must be >= 10, got {max_rows}")
    if len(data) <= max_rows:
        return data, False
    keys = [c for c in ("panel", "series") if c in data.columns]
    groups = data.groupby(keys, sort=False, dropna=False) if keys else [((), data)]
    parts = []
    for _, g in groups:
        keep = max(min(len(g), 50), int(np.ceil(len(g) * max_rows / len(data))))  # short series stay whole
        idx = np.unique(np.linspace(0, len(g) - 1, min(keep, len(g))).round().astype(int))
        parts.append(g.iloc[idx])
    return pd.concat(parts), True


def data_csv(data: pd.DataFrame) -> str:
    """The CSV text of a figure's data (``%.6g`` floats, no index)."""
    if not isinstance(data, pd.DataFrame) or data.empty:
        raise ValueError("the data behind a figure must be a non-empty DataFrame")
    return data.to_csv(index=False, float_format="%.6g", lineterminator="\n")


# ---------------------------------------------------------------- showing a figure
_numbers: dict[str, int] = {}


def reset_numbering() -> None:
    """Start the figure numbers again at 1 (a notebook's kernel starts with an empty count)."""
    _numbers.clear()


def figure_number(name: str) -> int:
    """The figure's number in this notebook: the order of first display (re-showing keeps it)."""
    if name not in _numbers:
        _numbers[name] = len(_numbers) + 1
    return _numbers[name]


def caption_html(caption: Caption, number: int, csv_text: str, thinned: bool = False) -> str:
    """The caption block shown under a figure (see the module's docstring); ``thinned``: the CSV holds evenly
    spaced points of the longest series (:func:`thin`), and the link says so."""
    text = caption.text()
    alt = f"Figure {number}. {text}"
    payload = base64.b64encode(csv_text.encode("utf-8")).decode("ascii")
    return (f'<div class="{CAPTION_CLASS}" id="fig-{caption.name}" data-alt="{html.escape(alt, quote=True)}">'
            f'<p><span class="cmtlab-fignum">Figure {number}.</span> {html.escape(text, quote=False)} '
            f'<a class="{DATA_CLASS}" href="data:text/csv;charset=utf-8;base64,{payload}" '
            f'download="{caption.name}.csv">Data behind this figure (CSV{", long series thinned to evenly spaced points" if thinned else ""})</a></p></div>')


def show(fig, caption: Caption, data: pd.DataFrame | None = None) -> None:
    """Display ``fig`` with its numbered caption and data link, then close it (returns nothing: a chapter's
    cell ending in ``show(...)`` prints no value).

    ``data``: the table behind the figure, if the caller has a better one than :func:`figure_data`.
    """
    import matplotlib.pyplot as plt
    from IPython.display import HTML, display

    if not isinstance(caption, Caption):
        raise TypeError(f"caption must be a cmtlab.report.figure.Caption, got {type(caption).__name__}")
    frame, thinned = thin(figure_data(fig) if data is None else data)
    csv_text = data_csv(frame)
    number = figure_number(caption.name)
    display(fig)
    display(HTML(caption_html(caption, number, csv_text, thinned)))
    plt.close(fig)
