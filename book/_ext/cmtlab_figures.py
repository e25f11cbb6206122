"""The book's captioned figures (issue 38): alt text from the caption, the data behind each figure as a file.

A chapter shows a figure through :func:`cmtlab.report.figure.show`: the figure's PNG, then a caption
block (class ``cmtlab-figcaption``) with "Figure N.", the caption and the figure's data as a CSV
``data:`` link.  For every such block this extension, when it writes HTML:

* sets the ``alt`` text of the figure just above it (the last image before the block) to the block's
  ``data-alt`` ("Figure N. <caption>"), so a screen reader reads the caption, not the image's hash name;
* writes the CSV to ``_figure-data/<page>/<name>.csv`` next to the HTML and points the link there.
"""

from __future__ import annotations

import base64
import html
import posixpath
import re
from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx

CAPTION_CLASS = "cmtlab-figcaption"
DATA_DIR = "_figure-data"
_ALT = re.compile(r'data-alt="([^"]*)"')
_CSV = re.compile(r'href="data:text/csv;charset=utf-8;base64,([A-Za-z0-9+/=]*)"\s+download="([a-z0-9-]+\.csv)"')


def _captions(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    if app.builder.format != "html":
        return
    last_image = None
    for node in list(doctree.findall(lambda n: isinstance(n, (nodes.image, nodes.raw)))):
        if isinstance(node, nodes.image):
            last_image = node
            continue
        text = node.astext()
        if CAPTION_CLASS not in text:
            continue
        alt = _ALT.search(text)
        if alt and last_image is not None:
            last_image["alt"] = html.unescape(alt.group(1))
            last_image = None
        match = _CSV.search(text)
        if match:
            target = posixpath.join(DATA_DIR, docname, match.group(2))
            path = Path(app.builder.outdir) / target
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(base64.b64decode(match.group(1)))
            href = posixpath.relpath(target, posixpath.dirname(docname) or ".")
            text = text[:match.start()] + f'href="{href}" download="{match.group(2)}"' + text[match.end():]
            node.replace_self(nodes.raw(text, text, format=node.get("format", "html"), classes=node.get("classes", [])))


def setup(app: Sphinx) -> dict:
    app.connect("doctree-resolved", _captions)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
