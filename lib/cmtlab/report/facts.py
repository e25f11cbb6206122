"""A chapter's facts: the values its prose shows, computed by one library function of the chapter's paper
(``comparison.<figure>_facts(...) -> dict``) and glued in one call (:func:`glue_all`), so no notebook cell
computes a number or a sentence for its prose ("facts from the library")."""

from __future__ import annotations

import re

_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class Facts(dict):
    """The facts :func:`glue_all` glued: a dict that a notebook cell ending with the call does not print
    (the values are in the prose, not in an output)."""

    def _ipython_display_(self) -> None:
        return None


class MarkdownText(str):
    """A fact the prose shows as Markdown (``{glue:md}`key```, e.g. a claim's finding with its verdict in
    bold): a string that :func:`glue_all` glues with its ``text/markdown``."""


def glue_all(facts: dict) -> dict:
    """Glue every ``key: value`` of ``facts`` (myst-nb, not displayed) for the chapter's prose
    (``{glue:text}`key```; a :class:`MarkdownText` value for ``{glue:md}`key```); returns ``facts``.  Keys are identifiers; a value is a number, a string or a
    boolean (what the prose can show)."""
    from myst_nb import glue

    if not isinstance(facts, dict):
        raise TypeError(f"facts must be a dict of glue keys to values, got {type(facts).__name__}")
    for key, value in facts.items():
        if not isinstance(key, str) or not _KEY.match(key):
            raise ValueError(f"a glue key must be an identifier, got {key!r}")
        if not isinstance(value, (int, float, str, bool)) and not hasattr(value, "__float__"):
            raise TypeError(f"fact {key!r} must be a number, a string or a boolean, got {type(value).__name__}")
    for key, value in facts.items():
        if isinstance(value, MarkdownText):
            from IPython.display import Markdown

            value = Markdown(str(value))
        glue(key, value, display=False)
    return Facts(facts)


__all__ = ["glue_all", "MarkdownText"]
