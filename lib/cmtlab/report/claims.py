"""The papers' claims as data: each claim of a paper once, in the paper's words, with where it
stands, what kind of claim it is, the reference that decides it and the chapter that decides it.

A paper's registry (``cmtlab.papers.<paper>.paper.CLAIMS``) is a :class:`Registry` of
:class:`Claim` records.  A chapter decides its claims (:class:`Decision`, built by the rules of
:mod:`cmtlab.report.verdicts` through :class:`cmtlab.report.Comparison`); the chapter's table, its
findings, the scoreboard and the intro are rendered from the registry and the decisions, never typed.

Rules of the registry (tested, ``tests/report/test_claims.py`` and the quote test):

* one sentence of a paper, one claim: a sentence measured several ways is one claim with several
  ``cases`` (sub-measures), each decided, the claim decided over them by the policy's rule for
  statements over cases;
* ``quote`` is verbatim in the paper's text, under the part ``location`` names
  (:mod:`cmtlab.report.quotes`); a number the paper gives only in a table or figure has no quote but
  its ``printed`` text, which must stand in that table;
* every claim names its deciding ``reference`` (:data:`REFERENCES`): the simulator the paper used
  wherever the book runs it, the kernel for a Linux column;
* every claim names the one ``chapter`` (notebook) that decides it; another chapter may show it, not
  count it.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field

#: Kinds of claim and the policy rule each takes by default (book page "Verdict policy").
KINDS = {
    "measured": "a number the paper measured",
    "computed": "a number the paper computed (closed form, printed numbers)",
    "trend": "a ratio or trend (higher, lower, improves, falls)",
    "same": "the same / comparable",
    "cases": "a qualitative statement over cases",
    "yes/no": "a yes/no statement",
    "set-up": "a set-up of the paper the book builds as stated (by construction)",
}

#: The references a claim can be decided on, and how a reader reads each.
REFERENCES = {
    "ns-3": "ns-3, the simulator the paper used (its TCP as ported by cmtlab.sim)",
    "papers-sim": "the papers' own simulator (ns-3.7 with the Chihani–Collange MPTCP model), built and run here",
    "papers-sim-p2p": "the papers' own simulator on point-to-point links (stand-in for the paper's Wi-Fi)",
    "papers-sim-wifi": "the papers' own simulator over ns-3.7's 802.11a Wi-Fi (the 802.11g stand-in)",
    "kernel": "the Linux kernel's MPTCP over emulated paths (cmtlab.testbed)",
    "model": "the paper's own closed form, evaluated here (and checked independently)",
    "cmtlab.sim": "this book's simulator (the paper's simulator is not available)",
    "paper": "the paper's own numbers (a consistency check of the paper)",
}

#: Reference columns shown beside a claim's deciding value, never counted.
RFC_COLUMN = "under RFC behaviour"
TODAY_COLUMN = "on today's stack"

_ID = re.compile(r"^[a-z0-9][a-z0-9.\-]*[a-z0-9]$")
# "sec. V.A", "secs. 5-6", "Fig. 4", "Table III", "Appendix A", "abstract", "eq. 22" (an equation is in a section)
_LOC_PART = re.compile(r"(?:secs?\.\s*(?P<sec>[0-9IVX]+(?:\.[0-9A-Z]+)*)|(?P<fig>Fig\.\s*[0-9]+)|"
                       r"(?P<table>Table\s*[0-9IVX]+)|(?P<app>Appendix\s+[A-Z])|(?P<abs>abstract))")


def location_parts(location: str) -> tuple[str, ...]:
    """The machine keys of the parts a location names (:func:`cmtlab.report.quotes.parts`).

    >>> location_parts("sec. V.A, Fig. 4 and Table III")
    ('V.A', 'Fig. 4', 'Table III')
    >>> location_parts("sec. 7 (Conclusion)"), location_parts("Appendix A, eq. 22")
    (('7',), ('Appendix A',))
    """
    keys = []
    for m in _LOC_PART.finditer(location):
        if m.group("sec"):
            keys.append(m.group("sec"))
        elif m.group("fig"):
            keys.append("Fig. " + m.group("fig").split(".")[-1].strip())
        elif m.group("table"):
            keys.append("Table " + m.group("table").split()[-1])
        elif m.group("app"):
            keys.append("Appendix " + m.group("app").split()[-1])
        else:
            keys.append("abstract")
    return tuple(keys)


@dataclass(frozen=True)
class Claim:
    """One claim of a paper, once.

    ``id`` is unique within the paper (lower case, dots and hyphens: ``"fig4.prr-gain-beyond-50m"``);
    ``title`` names it in a few words in tables; ``quote`` is the paper's words (a string, or its
    pieces in order where a caption or an omission "…" interrupts them; empty only when ``printed``
    gives the number as it stands in a table or figure); ``location`` where it stands, as a reader
    cites it ("sec. V.A", "Table III"); ``kind`` one of :data:`KINDS`; ``target`` the paper's number or
    statement as the paper column shows it; ``reference`` the deciding reference (:data:`REFERENCES`);
    ``chapter`` the notebook (file stem) that decides it; ``cases`` the cases or sub-measures a
    statement over cases is decided on; ``reading`` the book's declared reading where the words admit
    more than one (the chapter shows the other with its verdict); ``headline`` whether the intro and
    the scoreboard show its finding.
    """

    id: str
    paper: str
    title: str
    quote: tuple[str, ...] | str
    location: str
    kind: str
    target: str
    reference: str
    chapter: str
    cases: tuple[str, ...] = ()
    printed: str = ""
    reading: str = ""
    headline: bool = False

    def __post_init__(self):
        if not _ID.match(self.id):
            raise ValueError(f"claim id must be lower-case words with dots or hyphens, got {self.id!r}")
        if isinstance(self.quote, str):
            object.__setattr__(self, "quote", (self.quote,) if self.quote else ())
        if self.kind not in KINDS:
            raise ValueError(f"kind of claim {self.id!r} must be one of {sorted(KINDS)}, got {self.kind!r}")
        if self.reference not in REFERENCES:
            raise ValueError(f"reference of claim {self.id!r} must be one of {sorted(REFERENCES)}, "
                             f"got {self.reference!r}")
        if not self.quote and not self.printed:
            raise ValueError(f"claim {self.id!r} needs the paper's words (quote) or its printed number (printed)")
        if not location_parts(self.location):
            raise ValueError(f"location of claim {self.id!r} must name a section, figure, table, appendix or "
                             f"the abstract, got {self.location!r}")
        if self.kind == "cases" and not self.cases:
            raise ValueError(f"claim {self.id!r} is a statement over cases: name its cases")
        for name in ("title", "target", "chapter"):
            if not getattr(self, name):
                raise ValueError(f"claim {self.id!r} needs its {name}")

    @property
    def key(self) -> str:
        """``paper:id``, unique in the book."""
        return f"{self.paper}:{self.id}"

    def quote_text(self) -> str:
        """The quote as the table shows it: its pieces joined by " … ", in quotation marks."""
        return "“" + " … ".join(self.quote) + "”" if self.quote else ""


class Registry:
    """A paper's claims, in the paper's order, looked up by id (``registry["fig4.prr-gain"]``)."""

    def __init__(self, paper: str, claims):
        self.paper = paper
        self._claims: dict[str, Claim] = {}
        for c in claims:
            if c.paper != paper:
                raise ValueError(f"claim {c.id!r} belongs to paper {c.paper!r}, not {paper!r}")
            if c.id in self._claims:
                raise ValueError(f"claim id {c.id!r} appears twice in the registry of {paper!r}")
            self._claims[c.id] = c

    def __getitem__(self, claim_id: str) -> Claim:
        try:
            return self._claims[claim_id]
        except KeyError:
            close = [k for k in self._claims if claim_id.split(".")[0] in k][:5]
            raise KeyError(f"no claim {claim_id!r} in the registry of {self.paper!r}"
                           + (f" (close: {', '.join(close)})" if close else "")) from None

    def __iter__(self):
        return iter(self._claims.values())

    def __len__(self) -> int:
        return len(self._claims)

    def of_chapter(self, chapter: str) -> list[Claim]:
        """The claims ``chapter`` decides, in the paper's order."""
        return [c for c in self if c.chapter == chapter]

    def chapters(self) -> list[str]:
        return list(dict.fromkeys(c.chapter for c in self))


@dataclass
class Decision:
    """What a chapter obtained for one claim: the value here as shown (``here``, with its 95 % CI and
    the number of seeds or runs), the rule's text, the verdict, the per-case values and verdicts of a
    statement over cases, the other reading with its verdict, the reference columns (RFC behaviour,
    today's stack, other references — shown, never counted) and a note."""

    claim: str                       # Claim.key
    here: str
    rule: str
    verdict: str
    value: float | None = None
    ci: tuple[float, float] | None = None
    n: int | None = None
    cases: dict = field(default_factory=dict)          # case -> {"here": str, "verdict": str}
    alternative: dict | None = None                    # {"reading": str, "here": str, "verdict": str}
    references: dict = field(default_factory=dict)     # column -> text
    note: str = ""

    def to_json(self) -> dict:
        d = asdict(self)
        if d["ci"] is not None:
            d["ci"] = list(d["ci"])
        return d

    @classmethod
    def from_json(cls, data: dict) -> "Decision":
        data = dict(data)
        if data.get("ci") is not None:
            data["ci"] = tuple(data["ci"])
        return cls(**data)


def dumps(decisions) -> str:
    """The decisions of a chapter as JSON text (what the chapter glues, :data:`GLUE_KEY`)."""
    return json.dumps([d.to_json() for d in decisions], ensure_ascii=False, sort_keys=True)


def loads(text: str) -> list[Decision]:
    return [Decision.from_json(d) for d in json.loads(text)]


#: The glue key under which a chapter stores its decisions (read by the book's findings tables).
GLUE_KEY = "claims_decided"


#: The papers as a finding names them.
PAPER_NAMES = {"song": "Song et al.", "osia": "Wang et al. (OSIA)", "arabi": "Arabi et al.", "alheid": "Alheid et al."}
#: How a finding states a verdict.
VERDICT_WORDS = {"reproduced": "reproduced", "partly": "partly reproduced", "not reproduced": "not reproduced",
                 "by construction": "holds by construction (not a result)", "not assessed": "not assessed"}
#: How a finding names the deciding reference.
REFERENCE_WORDS = {"ns-3": "in ns-3", "papers-sim": "on the papers' own simulator",
                   "papers-sim-p2p": "on the papers' own simulator (point-to-point stand-in for Wi-Fi)",
                   "papers-sim-wifi": "on the papers' own simulator over Wi-Fi (802.11a as the 802.11g stand-in)",
                   "kernel": "on the Linux kernel", "model": "in the paper's own model", "cmtlab.sim":
                   "in this book's simulator", "paper": "from the paper's own numbers"}


def finding(claim: Claim, decision: Decision) -> str:
    """The one sentence a headline shows for ``claim``, from its decision (Markdown): the paper and
    where, the claim in the paper's words (or its title and printed number), the value here on the
    deciding reference against the paper's, and the verdict.

    >>> c = Claim("t1.gain-500", "alheid", "gain at 500 ms", "23% higher when the delay difference is 500 ms",
    ...           "sec. IV.A", "measured", "23 %", "papers-sim", "alheid-table1-mptcp-gain")
    >>> d = Decision(c.key, "41 %", "|Δ| ≤ 10 % → reproduced", "not reproduced")
    >>> finding(c, d)
    "Alheid et al., sec. IV.A: “23% higher when the delay difference is 500 ms” — 41 % on the papers' own simulator (paper: 23 %): **not reproduced**."
    """
    if decision.claim != claim.key:
        raise ValueError(f"decision is of claim {decision.claim!r}, not {claim.key!r}")
    title = claim.title
    if title.startswith(f"{claim.location}: "):  # "Table III: …" under the location "Table III": once
        title = title[len(claim.location) + 2:]
    # a claim over a table's cells carries one printed cell only to find the table: not a value to show
    said = claim.quote_text() or (title if claim.kind == "cases" else f"{title} ({claim.printed})")
    verdict = decision.verdict
    words = VERDICT_WORDS.get(verdict, verdict)
    return (f"{PAPER_NAMES[claim.paper]}, {claim.location}: {said} — {decision.here} "
            f"{REFERENCE_WORDS[claim.reference]} (paper: {claim.target}): **{words}**.")
