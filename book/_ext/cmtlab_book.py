"""Sphinx extension of the cmtlab book (loaded through ``sphinx: local_extensions`` in _config.yml).

The repository link is ONE setting, ``repository: url:`` in _config.yml, and may be empty (the
book has no public address yet).  This extension makes that setting empty-safe:

- when the URL is set (on GitHub, GitLab or Bitbucket), the theme's repository and issues buttons
  are switched on;
- when it is empty, they stay off (Jupyter Book refuses the buttons without a URL), and readers
  get each page's source from the download button (.ipynb / .md), which needs no address.

Either way the substitution ``{{ repository }}`` (used on the "how to cite" page) says where
the source is.
"""

from __future__ import annotations

import fnmatch
import importlib
import json
import pkgutil
import posixpath
import re
import sys
from pathlib import Path

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.errors import ExtensionError
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import make_refnode, nested_parse_with_titles

LOGGER = logging.getLogger(__name__)

NO_REPOSITORY = (
    "This copy of the book was built without a public repository address. The source of every "
    "page is one click away: the download button at the top of each page gives the page's "
    "notebook (`.ipynb`) or Markdown file, and the book, the library and the tests are built "
    "from one source tree by `make book`."
)


#: The search's scorer (Sphinx's ``html_search_scorer``): chapters and the book's pages rank above the
#: API reference's entries, which would otherwise fill the top of every search ("Eifel", "PR-R").
SEARCH_SCORER = Path(__file__).with_name("search-scorer.js")


def _search_setting(app: Sphinx, config: Config) -> None:
    if not config.html_search_scorer:
        config.html_search_scorer = str(SEARCH_SCORER)


def _repository_setting(app: Sphinx, config: Config) -> None:
    options = dict(config.html_theme_options or {})
    url = (options.get("repository_url") or "").strip()
    if url:
        # sphinx-book-theme builds its links only for these hosts and fails on any other
        if not any(host in url for host in ("github", "gitlab", "bitbucket")):
            raise ExtensionError(
                f"repository.url in _config.yml is {url!r}: the theme can link only a GitHub, GitLab "
                "or Bitbucket repository; leave it empty to build the book without a repository link"
            )
        options["use_repository_button"] = True
        options["use_issues_button"] = True
        text = f"The source of the book, its library and its tests: <{url}>."
    else:
        options.pop("repository_url", None)
        for button in ("use_repository_button", "use_issues_button", "use_edit_page_button"):
            options[button] = False
        text = NO_REPOSITORY
    config.html_theme_options = options
    substitutions = dict(config.myst_substitutions or {})
    substitutions.setdefault("repository", text)
    config.myst_substitutions = substitutions



# ---------------------------------------------------------------- version and date
def book_version() -> dict:
    """The version of this build, computed when the book is built (never typed): the library's version
    (``cmtlab.__version__``), the release tag on the checked-out commit if there is one, the commit (short
    hash) and its date, whether the working tree differs from it, and the build date (UTC)."""
    import datetime

    import cmtlab
    from cmtlab._git import git

    commit = git("rev-parse", "--short=10", "HEAD")
    return {
        "version": cmtlab.__version__,
        "tag": git("describe", "--tags", "--exact-match", "HEAD") if commit else None,
        "commit": commit,
        "commit_date": git("log", "-1", "--format=%cs", "HEAD") if commit else None,
        "modified": bool(git("status", "--porcelain", "--", ".")) if commit else None,
        "built": datetime.datetime.now(datetime.timezone.utc).date().isoformat(),
        "first_year": (git("log", "--reverse", "--format=%cs") or "").split("\n")[0][:4] or None,
    }


def version_sentence(v: dict) -> str:
    """"Version 0.1.0, commit 8bd5198e1a of 2026-12-02; built on 2026-12-02." from :func:`book_version`."""
    text = f"Version {v['version']}"
    if v.get("tag"):
        text += f" (release {v['tag']})"
    if v.get("commit"):
        text += f", commit {v['commit']} of {v['commit_date']}"
        if v.get("modified"):
            text += " with local changes"
    else:
        text += " (built outside a git checkout: no commit known)"
    return text + f"; built on {v['built']}."


class VersionLine(SphinxDirective):
    """``cmtlab-version``: the book's version line (:func:`version_sentence`), re-read on every build."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        self.env.note_reread()
        text = version_sentence(book_version())
        return [nodes.paragraph(text, text, classes=["cmtlab-version"])]


def _copyright_years(app: Sphinx, config: Config) -> None:
    """The copyright line's year is the span of the repository's history ("2026" or "2025–2026"), not a typed one."""
    v = book_version()
    first, last = v.get("first_year"), (v.get("commit_date") or v["built"])[:4]
    years = first if first == last or not first else f"{first}–{last}"
    if years and re.match(r"^\d{4}\b", config.copyright or ""):
        config.copyright = re.sub(r"^\d{4}(?:[–-]\d{4})?", years, config.copyright)


# ---------------------------------------------------------------- a citation without a year
#: What an author–year citation shows for a work whose year no record states (Arabi et al.): said so,
#: instead of sphinxcontrib-bibtex's "n.d." (the reference list says what is and is not known).
NO_YEAR = "year not stated"


def _citations_without_year() -> None:
    from pybtex.style.template import field, first_of, node, optional
    from sphinxcontrib.bibtex.style.referencing import basic_author_year, extra_year

    @node
    def year(children, data):
        assert not children
        return first_of[optional[field("year")], NO_YEAR].format_data(data)

    extra_year.year = year            # {cite:year}
    basic_author_year.year = year     # {cite}, {cite:p}, {cite:t} in the author–year style


# ---------------------------------------------------------------- API reference
class ApiReference(SphinxDirective):
    """``cmtlab-api``: the API reference of the packages and modules listed, one per line.

    Each listed name becomes a section with the module's docstring, followed by one subsection per
    public submodule (names not starting with ``_``, found recursively) with its documented
    members (autodoc).  Adding a package to the reference is adding its name as one line.
    """

    has_content = True
    #: ``:page:`` — the directive fills a page of its own whose title names the (first) package: the
    #: package's docstring follows the title without a heading of its own, its submodules are sections
    #: (the reference is one page per subpackage, book/api/*.md, not one 500,000-px page).
    #: ``:shallow:`` — only the package's own modules; each of its subpackages has a page of its own.
    option_spec = {"page": lambda arg: True, "shallow": lambda arg: True}

    def run(self) -> list[nodes.Node]:
        # MyST parses a directive's nested content as Markdown: headings and fenced directives
        lines: list[str] = []
        page = "page" in self.options
        for name in (line.strip() for line in self.content):
            if not name or name.startswith("#"):
                continue
            module = importlib.import_module(name)
            top = "" if page else "##"
            if not hasattr(module, "__path__"):  # a plain module: its members right here
                lines += _automodule(name, top, members=True)
                continue
            lines += _automodule(name, top, members=False)
            infos = (pkgutil.iter_modules(module.__path__, prefix=name + ".") if "shallow" in self.options
                     else pkgutil.walk_packages(module.__path__, prefix=name + "."))
            for sub in sorted(
                info.name
                for info in infos
                if not any(part.startswith("_") for part in info.name.split("."))
                and not ("shallow" in self.options and info.ispkg)
            ):
                # a subpackage re-exports its modules' names (__all__): document only what its
                # __init__ defines, each object once, under the module that defines it
                is_package = hasattr(importlib.import_module(sub), "__path__")
                lines += _automodule(sub, "##" if page else "###", members=True, own_only=is_package)
        container = nodes.section()
        container.document = self.state.document
        nested_parse_with_titles(self.state, StringList(lines, source="cmtlab-api"), container)
        return list(container.children)


def _automodule(name: str, heading: str, members: bool, own_only: bool = False) -> list[str]:
    # autodoc writes reStructuredText, so its directive goes in an eval-rst block
    options = [":members:" if members else ":no-members:"] + ([":ignore-module-all:"] if own_only else [])
    title = [f"{heading} `{name}`", ""] if heading else []
    return (["", *title, "```{eval-rst}", f".. automodule:: {name}"]
            + [f"   {o}" for o in options] + ["```", ""])


# ---------------------------------------------------------------- short names in docstrings
def _python_object(path: str):
    """The object a dotted path names (module, then attributes), or None."""
    parts = path.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        try:
            for attr in parts[cut:]:
                obj = getattr(obj, attr)
        except AttributeError:
            return None
        return obj
    return None


def _resolve_short_name(app: Sphinx, env, node, contnode):
    """Resolve a Python cross-reference the way a reader of the docstring would.

    Docstrings name objects as their module's code does: relative to the module
    (:func:`throughput`, :mod:`.model`), through a package's re-export (``cmtlab.papers.song.throughput``)
    or a class's method (``StripedScenario.data_packet_bytes``).  The name is looked up as Python
    would, from the referring module outwards; the reference goes to the object's own entry in the
    API reference, or to its module's entry when the object has no docstring of its own.  A name
    Python cannot find stays a warning (the build fails on it).
    """
    if node.get("refdomain") != "py":
        return None
    target = node["reftarget"].lstrip("~")
    module = node.get("py:module") or ""
    klass = node.get("py:class") or ""
    scopes = []
    if target.startswith("."):
        target = target.lstrip(".")
        scopes.append(module.rsplit(".", 1)[0] if "." in module else module)
    pieces = module.split(".") if module else []
    for cut in range(len(pieces), 0, -1):
        base = ".".join(pieces[:cut])
        if klass:
            scopes.append(f"{base}.{klass}")
        scopes.append(base)
    scopes.append("")
    domain = env.get_domain("py")
    for scope in scopes:
        path = f"{scope}.{target}" if scope else target
        obj = _python_object(path)
        if obj is None:
            continue
        owner = getattr(obj, "__module__", None)
        qualname = getattr(obj, "__qualname__", None)
        candidates = [path]
        if isinstance(obj, type(importlib)):
            candidates.insert(0, obj.__name__)
        elif owner and qualname:
            candidates.insert(0, f"{owner}.{qualname}")
        parent = path.rsplit(".", 1)[0]
        if not qualname:  # an attribute's value (True, 0.5 …): the attribute of its class's own entry
            holder = _python_object(parent)
            if getattr(holder, "__qualname__", None) and getattr(holder, "__module__", None):
                candidates.insert(0, f"{holder.__module__}.{holder.__qualname__}.{path.rsplit('.', 1)[1]}")
        candidates += [owner or "", parent]
        for name in candidates:
            if name and name in domain.objects:
                docname, node_id, objtype = domain.objects[name][:3]
                return make_refnode(app.builder, node["refdoc"], docname, node_id, contnode, name)
            if name and name in domain.modules:
                docname, node_id = domain.modules[name][:2]
                return make_refnode(app.builder, node["refdoc"], docname, node_id, contnode, name)
    # last resort: exactly one documented object whose dotted name ends like the target
    matches = [name for name in domain.objects if name.endswith("." + target)]
    if len(matches) == 1:
        docname, node_id = domain.objects[matches[0]][:2]
        return make_refnode(app.builder, node["refdoc"], docname, node_id, contnode, matches[0])
    return None


# ---------------------------------------------------------------- sums of glued counts
class glue_sum(nodes.Inline, nodes.TextElement):
    """Placeholder of a ``glue-sum`` role, replaced once every notebook's glue cache is written."""


def glue_sum_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """``{glue-sum}`PATTERNS::key```: the sum of the integer ``key`` glued by every notebook matched.

    ``PATTERNS`` is either ``@page`` — the notebooks whose ``key`` that page (relative path, e.g.
    ``@scoreboard``) shows with ``{glue:text}``, so a totals row follows its table's rows — or a
    comma-separated list of document paths as in ``{glue:text}`` (relative to the page, without
    ``.ipynb``), each possibly with ``*`` wildcards, e.g.
    ``../notebooks/alheid-*,../notebooks/linux-mptcp-validation::verdicts_reproduced``.  Every
    pattern must match a notebook of the book and every notebook matched must glue ``key`` as an
    integer; otherwise the build warns (and the strict build fails) — a sum never silently leaves a
    chapter out.  The notebooks summed are recorded on the node (``docnames``) for the tests.
    """
    env = inliner.document.settings.env
    if "::" not in text:
        msg = inliner.reporter.warning(f"glue-sum needs 'PATTERNS::key', got {text!r}", line=lineno)
        return [], [msg]
    patterns, key = text.rsplit("::", 1)
    here = posixpath.dirname(env.docname)
    if patterns.startswith("@"):  # the notebooks whose `key` that page glues with {glue:text}
        page = posixpath.normpath(posixpath.join(here, patterns[1:]))
        if page not in env.found_docs:
            msg = inliner.reporter.warning(f"glue-sum: no page {patterns[1:]!r} in the book", line=lineno)
            return [], [msg]
        node = glue_sum(rawtext, "", key=key.strip(), docnames=[], page=page)
        node.source, node.line = inliner.reporter.get_source_and_line(lineno)
        return [node], []
    notebooks = sorted(d for d in env.found_docs if str(env.doc2path(d)).endswith(".ipynb"))
    docnames: list[str] = []
    for pattern in (p.strip() for p in patterns.split(",")):
        target = posixpath.normpath(posixpath.join(here, pattern.removesuffix(".ipynb")))
        matched = [d for d in notebooks if fnmatch.fnmatchcase(d, target)]
        if not matched:
            msg = inliner.reporter.warning(f"glue-sum: {pattern!r} matches no notebook of the book", line=lineno)
            return [], [msg]
        docnames += [d for d in matched if d not in docnames]
    for d in docnames:
        env.note_dependency(env.doc2path(d))
    node = glue_sum(rawtext, "", key=key.strip(), docnames=docnames)
    node.source, node.line = inliner.reporter.get_source_and_line(lineno)
    return [node], []


class ReplaceGlueSums(SphinxPostTransform):
    """Replace each ``glue_sum`` node by the sum of its notebooks' glued integers (myst-nb glue caches).

    Runs before myst-nb's own cross-document glue (priority 5), which replaces the page's pending
    ``{glue:text}`` references that an ``@page`` sum reads."""

    default_priority = 4

    def apply(self, **kwargs) -> None:
        from myst_nb.ext.glue.crossref import read_glue_cache

        folder = self.env.mystnb_config.output_folder
        for node in list(self.document.findall(glue_sum)):
            total, missing = 0, []
            docnames = node["docnames"]
            if node.get("page"):
                from myst_nb.ext.glue.utils import PendingGlueReference

                tree = self.document if node["page"] == self.env.docname else self.env.get_doctree(node["page"])
                docnames = sorted({ref.refdoc for ref in tree.findall(PendingGlueReference) if ref.key == node["key"]})
                if not docnames:
                    LOGGER.warning(f"glue-sum: {node['page']} glues no {node['key']!r}", location=node)
            for docname in docnames:
                output = read_glue_cache(folder, docname).get(node["key"])
                try:
                    total += int(output["data"]["text/plain"])
                except (TypeError, KeyError, ValueError):
                    missing.append(docname)
            if missing:
                LOGGER.warning(f"glue-sum: {node['key']!r} is not an integer glued by {', '.join(missing)}",
                               location=node)
                node.replace_self(nodes.inline("", "?", classes=["glue-sum", "missing"]))
                continue
            node.replace_self(nodes.inline(str(total), str(total), classes=["glue-sum"]))



# ---------------------------------------------------------------- findings rendered from the claims
#: The chapters' glued decisions are read when every notebook has been executed (a post-transform);
#: the directives below only leave a placeholder where the rendered HTML goes.
class claims_view(nodes.General, nodes.Element):
    """Placeholder of a ``cmtlab-findings`` / ``cmtlab-headlines`` / ``cmtlab-scoreboard`` / ``cmtlab-checks`` /
    ``cmtlab-claims-grid`` directive."""


def _claims_directive(kind: str):
    class ClaimsDirective(SphinxDirective):
        has_content = False
        optional_arguments = 0

        def run(self) -> list[nodes.Node]:
            env = self.env
            for d in _notebooks(env):
                env.note_dependency(env.doc2path(d))
            node = claims_view(kind=kind)
            node.source, node.line = self.get_source_info()
            return [node]
    ClaimsDirective.__name__ = f"Claims{kind.title().replace('-', '')}"
    return ClaimsDirective


def _notebooks(env) -> list[str]:
    return sorted(d for d in env.found_docs if str(env.doc2path(d)).endswith(".ipynb"))


def _decisions(env, folder) -> tuple[dict, list[str]]:
    """``{docname: [Decision, …]}`` of every notebook that glued its decisions, and the problems."""
    import ast

    from myst_nb.ext.glue.crossref import read_glue_cache

    from cmtlab.report import claims

    out, problems = {}, []
    for docname in _notebooks(env):
        output = read_glue_cache(folder, docname).get(claims.GLUE_KEY)
        if output is None:
            continue
        try:
            out[docname] = claims.loads(ast.literal_eval(output["data"]["text/plain"]))
        except (KeyError, ValueError, SyntaxError, TypeError) as exc:
            problems.append(f"{docname}: its glued {claims.GLUE_KEY!r} cannot be read ({exc})")
    return out, problems


def _html(text: str) -> str:
    import html

    out = html.escape(text, quote=False)
    return re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", out)


class RenderClaims(SphinxPostTransform):
    """Replace each ``claims_view`` by the findings, headlines or scoreboard rendered from the chapters'
    decisions and the papers' registries; warn (the strict build fails) when a registered claim is decided
    by no chapter, by two, or by another chapter than its registry names."""

    default_priority = 4

    def apply(self, **kwargs) -> None:
        views = list(self.document.findall(claims_view))
        if not views:
            return
        decided, problems = _decisions(self.env, self.env.mystnb_config.output_folder)
        from cmtlab.papers import all_claims

        registry = all_claims()
        by_key: dict[str, list[tuple[str, object]]] = {}
        for docname, decisions in decided.items():
            for d in decisions:
                by_key.setdefault(d.claim, []).append((docname, d))
        for key, where in by_key.items():
            if key not in registry:
                problems.append(f"{where[0][0]} decides {key!r}, which no registry holds")
            elif len(where) > 1:
                problems.append(f"claim {key!r} is decided by {len(where)} chapters: "
                                f"{', '.join(w[0] for w in where)} (one sentence, one claim)")
            elif posixpath.basename(where[0][0]) != registry[key].chapter:
                problems.append(f"claim {key!r} is decided by {where[0][0]}, its registry names "
                                f"{registry[key].chapter}")
        missing = [k for k, c in registry.items()
                   if k not in by_key and any(posixpath.basename(d) == c.chapter for d in _notebooks(self.env))]
        if missing:
            problems.append(f"{len(missing)} registered claims are decided by no chapter: {', '.join(missing[:8])}")
        for view in views:
            for p in problems:
                LOGGER.warning(f"claims: {p}", location=view)
            render = {"findings": _render_findings, "headlines": _render_headlines,
                      "scoreboard": _render_scoreboard, "checks": _render_checks,
                      "claims-grid": _render_claims_grid}[view["kind"]]
            html_text = render(self, registry, by_key, decided)
            view.replace_self(nodes.raw("", html_text, format="html"))


def _link(transform, docname: str, text: str) -> str:
    import html

    uri = transform.app.builder.get_relative_uri(transform.env.docname, docname)
    return f'<a class="reference internal" href="{html.escape(uri)}">{html.escape(text)}</a>'


def _count_row(label_html: str, verdicts: list[str], extra: str = "") -> str:
    from cmtlab.report import verdicts as v

    kinds = [v.UNDECIDED if x.startswith(v.UNDECIDED) else x for x in verdicts]
    cells = "".join(f"<td>{kinds.count(k)}</td>" for k in v.VERDICTS)
    return f"<tr><td>{label_html}</td>{cells}<td>{len(kinds)}</td>{extra}</tr>"


def _header(first: str, extra: str = "") -> str:
    from cmtlab.report import verdicts as v

    cols = "".join(f"<th>{k}</th>" for k in v.VERDICTS)
    return f"<thead><tr><th>{first}</th>{cols}<th>claims</th>{extra}</tr></thead>"


def _render_findings(transform, registry, by_key, decided) -> str:
    from cmtlab.report import claims

    rows, total = [], []
    for paper, name in claims.PAPER_NAMES.items():
        keys = [k for k, c in registry.items() if c.paper == paper]
        verdicts = [by_key[k][0][1].verdict for k in keys if k in by_key]
        first = next((c.chapter for k, c in registry.items() if c.paper == paper), "")
        docs = [d for d in decided if posixpath.basename(d) == first]
        label = _link(transform, docs[0], name) if docs else name
        rows.append(_count_row(label, verdicts))
        total += verdicts
    rows.append(_count_row("<strong>all four papers</strong>", total).replace("<td>", "<td><strong>")
                .replace("</td>", "</strong></td>"))
    return ('<table class="table findings-table" id="findings-verdicts"><caption>Verdicts of the papers\' claims, '
            'each claim counted once, in the chapter that decides it (computed when the book is built).</caption>'
            + _header("paper") + "<tbody>" + "".join(rows) + "</tbody></table>")


def _render_headlines(transform, registry, by_key, decided) -> str:
    from cmtlab.report import claims

    items = []
    for key, claim in registry.items():
        if not claim.headline or key not in by_key:
            continue
        docname, decision = by_key[key][0]
        items.append(f"<li>{_html(claims.finding(claim, decision))} — {_link(transform, docname, 'chapter')}</li>")
    return '<ul class="cmtlab-headlines">' + "".join(items) + "</ul>"


def _render_scoreboard(transform, registry, by_key, decided) -> str:
    from cmtlab.report import claims

    rows, total = [], []
    for paper, name in claims.PAPER_NAMES.items():
        chapters = list(dict.fromkeys(c.chapter for c in registry.values() if c.paper == paper))
        for chapter in chapters:
            keys = [k for k, c in registry.items() if c.paper == paper and c.chapter == chapter]
            verdicts = [by_key[k][0][1].verdict for k in keys if k in by_key]
            docs = [d for d in decided if posixpath.basename(d) == chapter]
            title = transform.env.titles[docs[0]].astext() if docs else chapter
            label = f"{name}: " + (_link(transform, docs[0], title) if docs else title)
            rows.append(_count_row(label, verdicts))
            total += verdicts
    rows.insert(0, _count_row("<strong>all chapters</strong>", total).replace("<td>", "<td><strong>")
                .replace("</td>", "</strong></td>"))
    return ('<table class="table cmtlab-scoreboard" id="scoreboard-verdicts"><caption>Verdicts per chapter: the '
            'claims each chapter decides (computed when the book is built); the first row sums the rows below.'
            '</caption>' + _header("chapter") + "<tbody>" + "".join(rows) + "</tbody></table>")


def _render_checks(transform, registry, by_key, decided) -> str:
    """The checks of this book (the simulator against ns-3, RFC 6356's goals, the kernel, today's stack):
    per chapter the checks met of the checks run, read from each chapter's glued ``verdicts_checks_met`` and
    ``verdicts_checks`` — targets the book set itself, never counted with the papers' claims."""
    from myst_nb.ext.glue.crossref import read_glue_cache

    folder = transform.env.mystnb_config.output_folder
    rows, met_all, all_ = [], 0, 0
    for docname in _notebooks(transform.env):
        cache = read_glue_cache(folder, docname)
        try:
            n = int(cache["verdicts_checks"]["data"]["text/plain"])
            met = int(cache["verdicts_checks_met"]["data"]["text/plain"])
        except (KeyError, TypeError, ValueError):
            continue
        if n == 0:
            continue
        title = transform.env.titles[docname].astext()
        rows.append(f"<tr><td>{_link(transform, docname, title)}</td><td>{met}</td><td>{n}</td></tr>")
        met_all, all_ = met_all + met, all_ + n
    rows.insert(0, f"<tr><td><strong>all chapters</strong></td><td><strong>{met_all}</strong></td>"
                   f"<td><strong>{all_}</strong></td></tr>")
    return ('<table class="table cmtlab-checks" id="checks-met"><caption>Checks of this book (the simulator '
            'against ns-3 and the RFCs, the papers\' simulator against an independent build, the kernel, '
            'today\'s stack): targets the book set itself, not claims of the papers (computed when the book is '
            'built).</caption><thead><tr><th>chapter</th><th>met</th><th>checks</th></tr></thead><tbody>'
            + "".join(rows) + "</tbody></table>")


def _render_claims_grid(transform, registry, by_key, decided) -> str:
    """Every registered claim at a glance: one line per paper, one small cell per claim (grouped by the
    chapter that decides it, in the paper's order), coloured by its verdict and marked with the verdict's
    sign (:data:`cmtlab.report.table.VERDICT_MARKS`, for readers who do not see the colours); each cell
    links to the claim's row in its chapter (``#claim-<key>``, :func:`cmtlab.report.table.row_id`) and names
    the claim, its place in the paper and its verdict on hover.  A claim no chapter of this build decided
    is a grey cell "not decided in this build".  A legend gives each colour with its count."""
    import html

    from cmtlab.report import claims
    from cmtlab.report import verdicts as v
    from cmtlab.report.table import VERDICT_COLOURS, VERDICT_MARKS, row_id

    def kind(verdict: str) -> str:
        return v.UNDECIDED if verdict.startswith(v.UNDECIDED) else verdict

    counts = {k: 0 for k in v.VERDICTS}
    undecided_here = 0
    papers = []
    for paper, name in claims.PAPER_NAMES.items():
        groups = []
        for chapter in dict.fromkeys(c.chapter for c in registry.values() if c.paper == paper):
            cells = []
            docs = [d for d in _notebooks(transform.env) if posixpath.basename(d) == chapter]
            title = transform.env.titles[docs[0]].astext() if docs else chapter
            for key, claim in registry.items():
                if claim.paper != paper or claim.chapter != chapter:
                    continue
                label = f"{claim.title} ({claim.location})"
                if key in by_key:
                    docname, decision = by_key[key][0]
                    k = kind(decision.verdict)
                    counts[k] = counts.get(k, 0) + 1
                    uri = transform.app.builder.get_relative_uri(transform.env.docname, docname) + "#" + row_id(key)
                    tip = f"{label}: {decision.verdict} — {title}"
                    cells.append(f'<a class="cmtlab-grid-cell" href="{html.escape(uri)}" title="{html.escape(tip)}" '
                                 f'aria-label="{html.escape(tip)}" style="background-color: {VERDICT_COLOURS.get(k, "#fff")}"'
                                 f'>{VERDICT_MARKS.get(k, "")}</a>')
                else:
                    undecided_here += 1
                    tip = f"{label}: not decided in this build — {title}"
                    cells.append(f'<span class="cmtlab-grid-cell cmtlab-grid-missing" title="{html.escape(tip)}" '
                                 f'aria-label="{html.escape(tip)}"></span>')
            if cells:
                groups.append(f'<span class="cmtlab-grid-chapter" title="{html.escape(title)}">{"".join(cells)}</span>')
        n = sum(1 for c in registry.values() if c.paper == paper)
        count = f"({n})" if n else ""
        inner = "".join(groups) if n else '<span class="cmtlab-grid-none">no claim registered in this build</span>'
        papers.append(f'<div class="cmtlab-grid-paper"><div class="cmtlab-grid-name">{html.escape(name)} '
                      f'<span class="cmtlab-grid-count">{count}</span></div>'
                      f'<div class="cmtlab-grid-cells">{inner}</div></div>')
    legend = [f'<span><span class="cmtlab-grid-swatch" style="background-color: {VERDICT_COLOURS[k]}"></span>'
              f'{VERDICT_MARKS.get(k, "")} {html.escape(k)}: {n}</span>' for k, n in counts.items() if n]
    if undecided_here:
        legend.append(f'<span><span class="cmtlab-grid-swatch cmtlab-grid-missing"></span>not decided in this '
                      f'build: {undecided_here}</span>')
    return ('<div class="cmtlab-claims-grid" id="claims-at-a-glance" role="figure" aria-label="Every claim of the four '
            'papers by verdict">' + "".join(papers)
            + '<div class="cmtlab-grid-legend">' + "".join(legend) + "</div>"
            + '<p class="cmtlab-grid-caption">Every claim of the four papers, one cell each, grouped by the chapter '
            'that decides it (separated by a bar) in the paper\'s order; colour and sign give the verdict. Hover '
            'over a cell for the claim, open it for its row in the chapter (computed when the book is built).</p>'
            "</div>")


# ---------------------------------------------------------------- each chapter opens with its result
#: The findings a chapter's result box shows before "All N findings" (headline claims first).
RESULT_FINDINGS_SHOWN = 3
#: The class of a chapter's Markdown block (```` ```{container} cmtlab-provenance ````) that states its
#: provenance (its run time, what a recording was made on): it leaves the body for the page's foot.
PROVENANCE_CLASS = "cmtlab-provenance"
#: A printed line of a chapter that repeats its verdict counts (the result box at the top gives them) or
#: states the table checker's consistency (for the notebook tests, not the reader).
_VERDICT_PRINT = re.compile(r"^\s*(?:verdicts:|verdict counts = the table's verdict column)")


def _glued_int(cache: dict, key: str) -> int | None:
    try:
        return int(cache[key]["data"]["text/plain"])
    except (KeyError, TypeError, ValueError):
        return None


def result_box_html(registry, decisions, checks: tuple[int, int] | None, figure_id: str | None) -> str:
    """The box under a chapter's title: its verdict counts (the registered claims it decides, counted as the
    scoreboard counts them), each finding in one sentence (:func:`cmtlab.report.claims.finding`, headline
    claims first, the rest folded), the checks of this book it met and a link to its key figure."""
    import html

    from cmtlab.report import claims
    from cmtlab.report import verdicts as v
    from cmtlab.report.table import VERDICT_COLOURS, row_id

    def kind(verdict: str) -> str:
        return v.UNDECIDED if verdict.startswith(v.UNDECIDED) else verdict

    mine = [d for d in decisions if d.claim in registry]
    counts = {k: 0 for k in v.VERDICTS}
    for d in mine:
        counts[kind(d.verdict)] = counts.get(kind(d.verdict), 0) + 1
    data = html.escape(json.dumps(counts, ensure_ascii=False))
    parts = [f'<aside class="cmtlab-result" id="result" aria-label="Result of this chapter" data-counts="{data}" '
             f'data-claims="{len(mine)}">']
    head = []
    if mine:
        papers = list(dict.fromkeys(claims.PAPER_NAMES[registry[d.claim].paper] for d in mine))
        chips = "".join(
            f'<span class="cmtlab-result-count" data-verdict="{html.escape(k)}" data-n="{n}" '
            f'style="background-color: {VERDICT_COLOURS.get(k, "#eee")}">{n} {html.escape(k)}</span>'
            for k, n in counts.items() if n)
        head.append(f'<strong>Result.</strong> {len(mine)} claim{"s" if len(mine) != 1 else ""} of '
                    f'{html.escape(" and ".join(papers))} decided here: {chips}')
    else:
        head.append("<strong>Result.</strong> No claim of the papers is decided here.")
    if checks:
        met, n = checks
        head.append(f'<span class="cmtlab-result-checks" data-met="{met}" data-checks="{n}">Checks of this book '
                    f'met: <strong>{met} of {n}</strong> (targets the book set itself, not paper claims).</span>')
    links = ['<a href="#claims-table">the claim table</a>' if mine else ""]
    if figure_id:
        links.append(f'<a href="#{figure_id}">the key figure</a>')
    links = [x for x in links if x]
    if links:
        head.append("Details: " + " and ".join(links) + " below.")
    parts.append('<p class="cmtlab-result-head">' + " ".join(head) + "</p>")
    if mine:
        order = sorted(mine, key=lambda d: not registry[d.claim].headline)
        items = [f'<li>{_html(claims.finding(registry[d.claim], d))} '
                 f'<a class="cmtlab-result-row" href="#{row_id(d.claim)}" aria-label="its row">(row)</a></li>'
                 for d in order]
        shown, rest = items[:RESULT_FINDINGS_SHOWN], items[RESULT_FINDINGS_SHOWN:]
        parts.append('<ul class="cmtlab-result-findings">' + "".join(shown) + "</ul>")
        if rest:
            parts.append(f'<details class="cmtlab-result-more"><summary>All {len(items)} findings</summary>'
                         f'<ul class="cmtlab-result-findings">{"".join(rest)}</ul></details>')
    parts.append("</aside>")
    return "".join(parts)


class ResultFirst(SphinxPostTransform):
    """Every chapter (notebook) opens with its result and reads quietly:

    * under its title, the result box (:func:`result_box_html`), from the same data as the scoreboard (the
      papers' registries and the chapter's glued ``claims_decided``) and its glued checks;
    * printed text outputs leave the body: a line that only repeats the verdict counts, stderr and a bare
      ``text/plain`` result (a dict of glued facts) are dropped; the other printed values (checked by the
      notebook tests) are folded together at the chapter's end;
    * the chapter's :data:`PROVENANCE_CLASS` blocks (run time, what a recording was made on) move to one
      provenance line at the page's foot."""

    default_priority = 4

    def apply(self, **kwargs) -> None:
        from myst_nb.ext.glue.crossref import read_glue_cache

        env = self.env
        docname = env.docname
        if not str(env.doc2path(docname)).endswith(".ipynb"):
            return
        sections = [s for s in self.document.findall(nodes.section)]
        if not sections:
            return
        top = sections[0]
        folder = env.mystnb_config.output_folder
        decided, _ = _decisions(env, folder)
        from cmtlab.papers import all_claims

        registry = all_claims()
        cache = read_glue_cache(folder, docname)
        n_checks, met = _glued_int(cache, "verdicts_checks"), _glued_int(cache, "verdicts_checks_met")
        checks = (met, n_checks) if n_checks else None

        printed = self._quiet_outputs()
        provenance = self._provenance_cells()

        figure_id = None
        for image in self.document.findall(nodes.image):
            holder = image.parent
            while holder is not None and not (isinstance(holder, nodes.container) and "cell" in holder["classes"]):
                holder = holder.parent
            holder = holder if holder is not None else image
            if not holder["ids"]:
                holder["ids"].append("key-figure")
            figure_id = holder["ids"][0]
            break
        for table in self.document.findall(nodes.raw):   # the claim table (or verdict grid) of the registered claims
            if 'id="claim-' in table.astext():
                table.parent.insert(table.parent.index(table), nodes.raw("", '<span id="claims-table"></span>',
                                                                         format="html"))
                break
        box = result_box_html(registry, decided.get(docname, []), checks, figure_id)
        top.insert(1, nodes.raw("", box, format="html"))

        if printed:
            body = "".join(f"<pre>{_escape(t)}</pre>" for t in printed)
            top.append(nodes.raw("", '<details class="cmtlab-printed"><summary>Values this page\'s code prints '
                                 '(the notebook tests compare them with the stored ones)</summary>' + body
                                 + "</details>", format="html"))
        if provenance:
            footer = nodes.container(classes=[PROVENANCE_CLASS], ids=["provenance"])
            footer += nodes.rubric("", "Provenance of this page")
            footer.extend(provenance)
            top.append(footer)

    def _quiet_outputs(self) -> list[str]:
        printed = []
        for block in list(self.document.findall(nodes.literal_block)):
            classes = block["classes"]
            if "output" not in classes or not {"stream", "stderr", "text_plain"} & set(classes):
                continue
            text = block.astext()
            if "stream" in classes and text.strip() and not all(_VERDICT_PRINT.match(x) for x in text.strip().splitlines()):
                printed.append(text.rstrip())
            output = block.parent
            output.remove(block)
            if isinstance(output, nodes.container) and "cell_output" in output["classes"] and not output.children:
                cell = output.parent
                cell.remove(output)
                # a folded cell left without output would show a lone "show code" toggle: the code stays in the
                # page's notebook (download button)
                if "tag_hide-input" in cell["classes"] and not any(
                        isinstance(c, nodes.container) and "cell_output" in c["classes"] for c in cell.children):
                    cell.parent.remove(cell)
        return printed

    def _provenance_cells(self) -> list[nodes.Node]:
        """The ``{container} cmtlab-provenance`` blocks of the chapter's Markdown, taken out of its body."""
        out = []
        for block in list(self.document.findall(nodes.container)):
            if PROVENANCE_CLASS in block["classes"]:
                block.parent.remove(block)
                out += block.children
        return out


def _escape(text: str) -> str:
    import html

    return html.escape(text, quote=False)


# ---------------------------------------------------------------- module constants stay reST
_CONSTANT_DOCSTRINGS: dict[str, list[str]] = {}


def _keep_constant_docstring(app, what, name, obj, options, lines):
    """Before napoleon: remember the ``#:`` comment of a module constant or attribute."""
    if what in ("data", "attribute", "property"):
        _CONSTANT_DOCSTRINGS[name] = list(lines)


def _restore_constant_docstring(app, what, name, obj, options, lines):
    """After napoleon: put it back.  Napoleon reads "text: more text" in such a comment (or a property's
    docstring) as
    "type: description" (e.g. "Default RTO deviation factor K of eq. 15 (Theorem 2: ...)"), which
    turns prose into a broken type reference; these comments are prose, not typed fields."""
    if what in ("data", "attribute", "property") and name in _CONSTANT_DOCSTRINGS:
        lines[:] = _CONSTANT_DOCSTRINGS.pop(name)


# ---------------------------------------------------------------- no paths of the build machine
def _path_free_data_documenter():
    """autodoc's documenter of module data, without the value of a ``pathlib`` path: its repr is a
    path of the machine that built the book (``/home/…/data/wifi/…``), not part of the API."""
    from pathlib import PurePath

    from sphinx.ext.autodoc import DataDocumenter

    class PathFreeDataDocumenter(DataDocumenter):
        def should_suppress_value_header(self) -> bool:
            return isinstance(self.object, PurePath) or super().should_suppress_value_header()

    return PathFreeDataDocumenter


# ---------------------------------------------------------------- relative module references
_RELATIVE_MOD = re.compile(r":mod:`(~?)\.(\w[\w.]*)`")


def _absolute_module_refs(app, what, name, obj, options, lines):
    """``:mod:`.figures``` in a docstring of a module of ``cmtlab.papers.osia`` means ``cmtlab.papers.osia.figures``, as
    Python's relative import would; Sphinx instead searches every module named ``figures`` and warns
    when there are several.  Rewrite such references to the absolute name before they are parsed."""
    module = name if what == "module" else getattr(obj, "__module__", None) or name.rsplit(".", 1)[0]
    mod = sys.modules.get(module)
    package = module if mod is not None and hasattr(mod, "__path__") else module.rsplit(".", 1)[0]
    for i, line in enumerate(lines):
        if ":mod:`" not in line:
            continue
        lines[i] = _RELATIVE_MOD.sub(lambda m: f":mod:`{m.group(1) or '~'}{package}.{m.group(2)}`", line)
        underline = lines[i + 1] if i + 1 < len(lines) else ""
        if re.fullmatch(r"([=\-~^\"'`#*+])\1+", underline.strip()) and len(underline.strip()) < len(lines[i].strip()):
            lines[i + 1] = underline.strip()[0] * len(lines[i].strip())   # a section title stays underlined


def setup(app: Sphinx) -> dict:
    # the API reference documents the Python sources, not their compiled copies (cmtlab.compiled);
    # notebooks run in their own kernels and use the copies
    from cmtlab import compiled

    compiled.python_sources_only()
    _citations_without_year()
    # after myst-parser has registered myst_substitutions (priority 500 is the default)
    app.connect("config-inited", _repository_setting, priority=900)
    app.connect("config-inited", _search_setting, priority=900)
    app.connect("config-inited", _copyright_years, priority=900)
    app.setup_extension("cmtlab_figures")  # numbered captions: alt text and CSV files (cmtlab_figures.py)
    app.add_directive("cmtlab-version", VersionLine)
    app.add_directive("cmtlab-api", ApiReference)
    app.setup_extension("sphinx.ext.autodoc")
    app.add_autodocumenter(_path_free_data_documenter(), override=True)
    app.add_node(glue_sum)
    app.add_role("glue-sum", glue_sum_role)
    app.add_post_transform(ReplaceGlueSums)
    app.add_node(claims_view)
    for kind in ("findings", "headlines", "scoreboard", "checks", "claims-grid"):
        app.add_directive(f"cmtlab-{kind}", _claims_directive(kind))
    app.add_post_transform(RenderClaims)
    app.add_post_transform(ResultFirst)
    app.connect("missing-reference", _resolve_short_name)
    app.connect("autodoc-process-docstring", _absolute_module_refs, priority=50)
    app.connect("autodoc-process-docstring", _keep_constant_docstring, priority=100)
    app.connect("autodoc-process-docstring", _restore_constant_docstring, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
