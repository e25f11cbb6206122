"""The four papers' texts: where a quoted sentence stands in its paper.

A claim of the book quotes its paper verbatim (book page "Verdict policy"); this module finds a
quote in the paper's text and names the part of the paper it stands in, so a test can require every
quote to be verbatim *under the heading its location names*.

Verbatim is read after the normalisation a reader would not notice (:func:`normalise`): white space
and line breaks, typographic quotes and dashes, a word hyphenated across a line break ("PR-" / "R"),
Markdown emphasis of the text extraction.  Nothing else: case, punctuation, digits and words count.

The texts are the plain-text copies under ``$CMTLAB_PAPERS_DIR`` (default: ``../shared/papers`` beside
the repository, :data:`PAPER_FILES`).  A quote that a figure caption or a page break interrupts in the
text is given in pieces; each piece must stand, in order, under the same part.

Parts (:func:`parts`): the abstract, every numbered section and subsection (``"5.4"``, ``"V.A"``,
``"3.3"``), the appendices (``"Appendix A"``), every figure and table caption (``"Fig. 4"``,
``"Table III"``) and the body of a table (the rows under its caption).  A section contains its
subsections: a quote under "V.A" also stands under "V".
"""

from __future__ import annotations

import functools
import os
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

#: The papers' text files, the primary one first (Song: the journal version, then the preprint).
PAPER_FILES = {
    "song": ("000_d94ec6f4f584e579.txt", "001_67a2c0d682549b6e.txt"),
    "alheid": ("002_678896474156c62f.txt",),
    "arabi": ("003_d1b5f54b48928ecb.txt",),
    "osia": ("004_91727879c3fb85dc.txt",),
}
PAPERS_DIR_ENV = "CMTLAB_PAPERS_DIR"

_DASHES = dict.fromkeys(map(ord, "‐‑‒–—―−﹘﹣－"), "-")
_QUOTES = {**dict.fromkeys(map(ord, "“”„‟″«»"), '"'), **dict.fromkeys(map(ord, "‘’‚‛′"), "'")}


def papers_dir() -> Path:
    """``$CMTLAB_PAPERS_DIR`` or ``../shared/papers`` beside the repository."""
    env = os.environ.get(PAPERS_DIR_ENV, "").strip()
    if env:
        return Path(env).expanduser().resolve()
    from .._paths import REPO

    return REPO.parent / "shared" / "papers"


def normalise(text: str) -> str:
    """``text`` as compared: Unicode NFKC, typographic quotes and dashes as ASCII, Markdown emphasis
    (``*``) and soft hyphens dropped, a word hyphenated across white space joined ("PR- R" → "PR-R"),
    white space folded to one space.

    >>> normalise("“PR-\\n\\nR fully” — **both**   links")
    '"PR-R fully" - both links'
    """
    text = unicodedata.normalize("NFKC", text).translate(_DASHES).translate(_QUOTES)
    text = text.replace("\u00ad", "").replace("*", "")
    text = re.sub(r"\s+", " ", text)
    return re.sub(r"(?<=\w)- (?=\w)", "-", text).strip()


@dataclass(frozen=True)
class Part:
    """A part of a paper: ``key`` (``"V.A"``, ``"Fig. 4"``, ``"Appendix A"``, ``"abstract"``), its
    heading as printed, and its span ``[start, end)`` in the normalised text."""

    key: str
    heading: str
    start: int
    end: int


# a heading line: "5.4. Evaluation Results", "V. PERFORMANCE EVALUATION", "A. Impact of Distance from AP",
# "3.4. Scheduling process", "Appendix A", "4. SIMULATION SCENARIOS"
_NUMBERED = re.compile(r"^(\d+(?:\.\d+)*)\.?\s+([A-Z].{0,100})$")
_ROMAN = re.compile(r"^([IVX]+)\.\s+([A-Z][A-Z ,&\-]{2,100})$")
_LETTER = re.compile(r"^([A-H])\.\s+([A-Z][a-z].{0,80})$")
_APPENDIX = re.compile(r"^(Appendix [A-Z])\s*$", re.IGNORECASE)
_CAPTION = re.compile(r"^(Fig\.|Figure|TABLE|Table)\s+([0-9IVX]+)(?:[.:]?\s+(.*))?$")
_END = re.compile(r"^(References|REFERENCES|8\. Acknowledgement)\s*$")
_ABSTRACT = re.compile(r"^(Abstract|ABSTRACT|A B S T R A C T)")


def _roman(s: str) -> int:
    values = {"I": 1, "V": 5, "X": 10}
    total = 0
    for a, b in zip(s, s[1:] + " "):
        total += -values[a] if values.get(b, 0) > values[a] else values[a]
    return total


def _table_key(number: str) -> str:
    return f"Table {number}"


@functools.lru_cache(maxsize=None)
def _parsed(path: str) -> tuple[str, tuple[Part, ...]]:
    """The normalised text of one file and its parts."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    text = ""
    offsets: list[int] = []          # offset in the normalised text where each line starts
    for line in lines:
        n = normalise(line)
        if n and text:
            # a word hyphenated across the line break ("PR-" / "R fully") is joined
            text += "" if re.search(r"\w-$", text) and re.match(r"\w", n) else " "
        offsets.append(len(text))
        text += n
    # heads: (key, heading, line index, level); level 0 = abstract/appendix/top section
    heads: list[tuple[str, str, int, int]] = []
    roman_top = ""
    expected_top = 1
    for i, raw in enumerate(lines):
        line = raw.strip()
        if not line:
            continue
        m = _CAPTION.match(line)
        if m:
            kind = "Fig." if m.group(1) in ("Fig.", "Figure") else "Table"
            if kind == "Table" or re.match(r"^(Fig\.|Figure)\s+\S+[.:]\s", line):
                heads.append((f"{kind} {m.group(2)}", line[:100], i, 9))
                continue                     # "Figure 5 depicts ...": body text, not a caption
        if _ABSTRACT.match(line) and not any(h[0] == "abstract" for h in heads):
            heads.append(("abstract", line[:40], i, 0))
            continue
        if len(line) > 140:
            continue
        if _END.match(line):
            heads.append(("end", line, i, 0))
            break
        m = _APPENDIX.match(line)
        if m:
            heads.append((m.group(1).title(), line, i, 0))
            continue
        m = _ROMAN.match(line)
        if m and _roman(m.group(1)) == expected_top:
            roman_top = m.group(1)
            expected_top += 1
            heads.append((roman_top, line, i, 0))
            continue
        m = _LETTER.match(line)
        if m and roman_top:
            heads.append((f"{roman_top}.{m.group(1)}", line, i, 1))
            continue
        m = _NUMBERED.match(line)
        if m and not roman_top:
            number = m.group(1)
            top = int(number.split(".")[0])
            if number.count(".") == 0 and top != expected_top:
                continue                     # a numbered list item, not a section
            if number.count(".") == 0:
                expected_top += 1
            elif not heads or not any(h[0] == number.split(".")[0] for h in heads):
                continue
            heads.append((number, line, i, number.count(".")))
    # spans: a section runs to the next heading of its level or above (captions excepted);
    # a caption is its own line, and a table's caption is followed by its body up to the next heading
    parts: list[Part] = []
    for j, (key, heading, i, level) in enumerate(heads):
        if key == "end":
            continue
        start = offsets[i]
        if level == 9:
            end_line = i + 1
            if key.startswith("Table"):
                end_line = _table_end(lines, i)
            end = offsets[end_line] if end_line < len(offsets) else len(text)
        else:
            nxt = next((h for h in heads[j + 1:] if h[3] != 9 and h[3] <= level), None)
            end = offsets[nxt[2]] if nxt else len(text)
        parts.append(Part(key, heading, start, min(end, len(text))))
    return text, tuple(parts)


def _table_end(lines: list[str], caption: int) -> int:
    """The line after a table's body: its rows hold tabs; a line of text before them (a subtitle)
    belongs to it, the first line of text after them does not."""
    rows_seen, text_lines = False, 0
    for k in range(caption + 1, len(lines)):
        line = lines[k].strip()
        if not line:
            continue
        if "\t" in lines[k]:
            rows_seen = True
        elif rows_seen or text_lines >= 1:
            return k
        else:
            text_lines += 1
    return len(lines)


def _files(paper: str) -> list[Path]:
    if paper not in PAPER_FILES:
        raise ValueError(f"paper must be one of {sorted(PAPER_FILES)}, got {paper!r}")
    folder = papers_dir()
    files = [folder / name for name in PAPER_FILES[paper]]
    missing = [str(f) for f in files if not f.is_file()]
    if missing:
        raise FileNotFoundError(f"the text of paper {paper!r} is not at {', '.join(missing)} "
                                f"(set ${PAPERS_DIR_ENV} to the folder of the papers' texts)")
    return files


def available() -> str:
    """The reason the papers' texts cannot be read, or "" when all are there."""
    try:
        for paper in PAPER_FILES:
            _files(paper)
    except FileNotFoundError as exc:
        return str(exc)
    return ""


def parts(paper: str) -> tuple[Part, ...]:
    """The parts of ``paper``'s primary text (:class:`Part`), in order."""
    return _parsed(str(_files(paper)[0]))[1]


def _contains(part_key: str, key: str) -> bool:
    """Whether the part named ``key`` lies inside the part named ``part_key`` ("V" contains "V.A")."""
    return key == part_key or key.startswith(part_key + ".")


def find(paper: str, pieces) -> list[tuple[str, str]]:
    """Where the quote (a string, or its pieces in order) stands in ``paper``: a list of
    ``(file name, part key)`` for every part of every text of the paper (the innermost part first)
    that holds all the pieces in order.  Empty if the quote is not verbatim there."""
    if isinstance(pieces, str):
        pieces = (pieces,)
    # an omission marked in a quote ("…", "...") separates two pieces
    wanted = [normalise(w) for p in pieces for w in re.split(r"\s*(?:…|\.\.\.)\s*", p) if w.strip()]
    if not wanted:
        raise ValueError("a quote needs at least one non-empty piece")
    found = []
    for path in _files(paper):
        text, prts = _parsed(str(path))
        for part in sorted(prts, key=lambda p: p.end - p.start):
            pos = part.start
            for piece in wanted:
                at = text.find(piece, pos, part.end)
                if at < 0:
                    break
                pos = at + len(piece)
            else:
                found.append((path.name, part.key))
    return found


def stands_under(paper: str, pieces, location_keys) -> bool:
    """Whether the quote stands, verbatim, inside one of the parts ``location_keys`` names (a key,
    or several: a quote may stand in a section and in a caption), in any text of the paper."""
    if isinstance(location_keys, str):
        location_keys = (location_keys,)
    where = find(paper, pieces)
    return any(_contains(loc, key) for _, key in where for loc in location_keys)
