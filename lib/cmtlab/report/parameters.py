"""Notebook parameters: the allowed type and range of each parameter, checked before any computation.

Every notebook declares its parameters once, beside its chapter's code (a :class:`NotebookSpec` in
``cmtlab.papers.<paper>.parameters``, :mod:`cmtlab.validation.parameters` or :mod:`cmtlab.today.parameters`);
its first code cell after the ``parameters`` cell calls :func:`validate_parameters` with that spec, so a bad
value fails there, naming the parameter and its range.  The types: :class:`Real`, :class:`Int`, :class:`Bool`,
:class:`Choice`, :class:`Text`, :class:`Mapping`, :class:`Seq`; :class:`Rule` for a constraint between
parameters; :func:`parameter_list` reads a list however papermill passed it.  The checks themselves are the
library's one validation vocabulary (``cmtlab._validate``: ``check_real``, ``check_int``, ``check_bool``,
``check_choice``); a type here adds what a notebook reader needs in the message (the allowed range with its unit,
"or None").  Shared values
(:data:`SEED`, :data:`WORKERS`, …) and rule helpers (:func:`subset`, :func:`divides`) are here too.
"""

from __future__ import annotations

from .._validate import check_bool, check_choice, check_int, check_real


def parameter_list(name: str, value) -> list:
    """A list-valued notebook parameter as a list, however papermill passed it.

    papermill's ``-p`` turns only ``True``/``False``/``None`` and numbers into Python values; a list
    arrives as its text: ``-p scenarios '[2]'`` injects ``scenarios = "[2]"``.  This accepts a list
    or tuple (as written in the ``parameters`` cell or passed with ``-y 'scenarios: [2]'``), the text
    of a Python/JSON list (``'[2]'``, ``'["lia", "uncoupled"]'``), comma-separated text
    (``'lia,uncoupled'``, ``'[lia, uncoupled]'``) or a single scalar (``2``, ``'rfc'``).  An empty
    result raises :class:`ValueError` naming the parameter.
    """
    import ast

    if isinstance(value, str):
        text = value.strip()
        try:
            parsed = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            parsed = [p.strip().strip("'\"") for p in text.strip("[]()").split(",") if p.strip()]
        value = parsed
    if isinstance(value, (list, tuple)):
        out = list(value)
    elif isinstance(value, (str, int, float)) and not isinstance(value, bool):
        out = [value]
    else:
        raise ValueError(f"{name} must be a list (or its text, e.g. '[1, 2]'), got {value!r}")
    if not out:
        raise ValueError(f"{name} must hold at least one value, got {value!r}")
    return out



class Param:
    """One parameter's allowed values: :meth:`check` returns the value (normalised, e.g. the text
    of a list as a list) or raises ValueError; :meth:`describe` says what is allowed."""

    none_ok = False

    def check(self, name: str, value):
        if value is None and self.none_ok:
            return None
        return self._check(name, value)

    def _check(self, name, value):  # pragma: no cover - abstract
        raise NotImplementedError

    def describe(self) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def _fail(self, name, value):
        raise ValueError(f"{name} must be {self.describe()}, got {value!r}")


def _bounds(lo, hi, lo_open, hi_open) -> str:
    if lo is not None and hi is not None:
        return f"in {'(' if lo_open else '['}{lo:g}, {hi:g}{')' if hi_open else ']'}"
    if lo is not None:
        return f"{'>' if lo_open else '>='} {lo:g}"
    if hi is not None:
        return f"{'<' if hi_open else '<='} {hi:g}"
    return ""


class Real(Param):
    """A finite real number (int, float or numpy scalar; not bool) within the bounds."""

    def __init__(self, lo=None, hi=None, *, lo_open=False, hi_open=False, none_ok=False, unit=""):
        self.lo, self.hi, self.lo_open, self.hi_open, self.none_ok, self.unit = lo, hi, lo_open, hi_open, none_ok, unit

    def describe(self):
        b = _bounds(self.lo, self.hi, self.lo_open, self.hi_open)
        s = f"a finite number{' ' + b if b else ''}{' ' + self.unit if self.unit else ''}"
        return s + (" or None" if self.none_ok else "")

    def _check(self, name, value):
        try:
            check_real(name, value, low=self.lo, high=self.hi, low_open=self.lo_open, high_open=self.hi_open)
        except ValueError:
            self._fail(name, value)
        return value


class Int(Param):
    """An integer (int or numpy integer; not bool, not float) within [lo, hi]."""

    def __init__(self, lo=None, hi=None, *, none_ok=False, unit=""):
        self.lo, self.hi, self.none_ok, self.unit = lo, hi, none_ok, unit

    def describe(self):
        b = _bounds(self.lo, self.hi, False, False)
        s = f"an integer{' ' + b if b else ''}{' ' + self.unit if self.unit else ''}"
        return s + (" or None" if self.none_ok else "")

    def _check(self, name, value):
        try:
            return check_int(name, value, minimum=self.lo, maximum=self.hi)
        except ValueError:
            self._fail(name, value)


class Bool(Param):
    """True or False (papermill passes ``-p x True`` as a bool)."""

    def describe(self):
        return "True or False"

    def _check(self, name, value):
        try:
            return check_bool(name, value)
        except ValueError:
            self._fail(name, value)


class Choice(Param):
    """One of the given values (``options`` may be a callable returning them, evaluated when
    checked, so a library's registry is read only then)."""

    def __init__(self, options, *, none_ok=False):
        self._options, self.none_ok = options, none_ok

    @property
    def options(self):
        return tuple(self._options() if callable(self._options) else self._options)

    def describe(self):
        return "one of " + ", ".join(repr(o) for o in self.options) + (" or None" if self.none_ok else "")

    def _check(self, name, value):
        try:
            if isinstance(value, bool):  # True == 1: a boolean is not the option 1
                raise ValueError(name)
            return check_choice(name, value, self.options)
        except (ValueError, TypeError):  # (TypeError: options of mixed types cannot be sorted for the message)
            self._fail(name, value)


class Text(Param):
    """A string matching ``pattern`` (full match), described by ``what``."""

    def __init__(self, pattern: str, what: str):
        self.pattern, self.what = pattern, what

    def describe(self):
        return self.what

    def _check(self, name, value):
        import re
        if not isinstance(value, str) or not re.fullmatch(self.pattern, value):
            self._fail(name, value)
        return value


class Mapping(Param):
    """A dict with string keys (or its text, e.g. ``'{"m_ack": 1}'``)."""

    def describe(self):
        return "a dict with string keys (e.g. {} or {'m_ack': 1})"

    def _check(self, name, value):
        import ast
        if isinstance(value, str):
            try:
                value = ast.literal_eval(value.strip())
            except (ValueError, SyntaxError):
                self._fail(name, value)
        if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
            self._fail(name, value)
        return value


class Seq(Param):
    """A list of values each allowed by ``item`` (the text papermill's ``-p`` passes is parsed
    as :func:`parameter_list` does), ``min_len``..``max_len`` long, optionally without repeats
    and/or increasing.  Returns a list (a tuple when ``tuple_`` is set)."""

    def __init__(self, item: Param, *, min_len=1, max_len=None, unique=False, increasing=False, tuple_=False):
        self.item, self.min_len, self.max_len = item, min_len, max_len
        self.unique, self.increasing, self.tuple_ = unique, increasing, tuple_

    def describe(self):
        n = (f"exactly {self.min_len}" if self.max_len == self.min_len else
             f"{self.min_len}..{self.max_len}" if self.max_len is not None else f"at least {self.min_len}")
        extra = ", without repeats" if self.unique else ""
        extra += ", increasing" if self.increasing else ""
        return f"a list of {n} value(s){extra}, each {self.item.describe()}"

    def _check(self, name, value):
        if isinstance(value, str) and value.strip() in ("[]", "()", ""):
            value = []
        if isinstance(value, (list, tuple)) and not value:
            items = []
        else:
            try:
                items = parameter_list(name, value)
            except ValueError:
                self._fail(name, value)
        if len(items) < self.min_len or (self.max_len is not None and len(items) > self.max_len):
            self._fail(name, value)
        out = [self.item.check(f"{name}[{i}]", x) for i, x in enumerate(items)]
        if self.unique and len({repr(x) for x in out}) != len(out):
            raise ValueError(f"{name} must be {self.describe()}, got repeated values in {value!r}")
        if self.increasing and any(b <= a for a, b in zip(out, out[1:])):
            raise ValueError(f"{name} must be {self.describe()}, got {value!r}")
        return tuple(out) if self.tuple_ else out


class Rule:
    """A constraint between parameters: ``holds(values) -> bool``; the message says what is
    required (naming the parameters)."""

    def __init__(self, names, holds, message: str):
        self.names, self.holds, self.message = tuple(names), holds, message


class NotebookSpec:
    """The parameters of one notebook: its name (``notebook``, the file name without ``.ipynb``), ``params``
    (name -> :class:`Param`) and ``rules``."""

    def __init__(self, notebook: str, params: dict, rules=()):
        self.notebook, self.params, self.rules = str(notebook), dict(params), tuple(rules)

    def __repr__(self) -> str:
        return f"NotebookSpec({self.notebook!r}, {len(self.params)} parameters, {len(self.rules)} rules)"


def validate_parameters(spec: NotebookSpec, namespace: dict) -> None:
    """Check a notebook's parameters against its spec (declared beside its chapter's code:
    ``cmtlab.papers.<paper>.parameters``, :mod:`cmtlab.validation.parameters`, :mod:`cmtlab.today.parameters`).

    Call it in the notebook's first code cell **after** the ``parameters`` cell — papermill
    inserts its ``injected-parameters`` cell right after ``parameters``, so a value given with
    ``-p``/``-y`` is seen only from the next cell on::

        from cmtlab.papers.song.parameters import FIG8_THROUGHPUT_VS_ADA
        from cmtlab.report.parameters import validate_parameters

        validate_parameters(FIG8_THROUGHPUT_VS_ADA, globals())

    A bad value raises ValueError naming the notebook, the parameter and its allowed range,
    before any computation.  So does a parameter papermill injected that the notebook does not
    declare (a misspelt ``-p transfer_byte 5`` would otherwise run the defaults): the message
    names the closest declared parameter (:func:`injected_parameters` reads papermill's cell from
    the kernel's input history).  Normalised values (e.g. the text ``'[2]'`` of a list that
    papermill's ``-p`` passes) replace the originals in ``namespace``.  Every parameter of the
    spec must be in ``namespace``.  Returns None (so the cell shows no output).
    """
    if not isinstance(spec, NotebookSpec):
        raise TypeError(f"spec must be a NotebookSpec (the notebook's, from its chapter's parameters module), "
                        f"got {spec!r}")
    notebook = spec.notebook
    unknown = [n for n in (injected_parameters(namespace) or []) if n not in spec.params]
    if unknown:
        import difflib

        name = unknown[0]
        close = difflib.get_close_matches(name, list(spec.params), n=1, cutoff=0.5)
        hint = f"did you mean {close[0]!r}? " if close else ""
        raise ValueError(f"{notebook}: unknown parameter {name!r} (passed with papermill -p/-y); {hint}"
                         f"the notebook's parameters are {sorted(spec.params)}")
    missing = [n for n in spec.params if n not in namespace]
    if missing:
        raise ValueError(f"{notebook}: parameters {missing} are not defined (the parameters cell defines them)")
    out = {}
    for name, p in spec.params.items():
        try:
            out[name] = p.check(name, namespace[name])
        except ValueError as exc:
            raise ValueError(f"{notebook}: parameter {exc}") from None
    for rule in spec.rules:
        if not rule.holds(out):
            got = ", ".join(f"{n}={out[n]!r}" for n in rule.names)
            raise ValueError(f"{notebook}: {rule.message} (got {got})")
    namespace.update(out)


#: The first line of the cell papermill injects after ``parameters`` (its Python translator's comment).
PAPERMILL_CELL_HEADER = "# Parameters"


def injected_parameters(namespace: dict) -> list[str] | None:
    """The names papermill injected into this kernel (``-p``/``-y``), or ``None`` when it injected nothing.

    papermill runs its ``injected-parameters`` cell — ``# Parameters`` then one assignment per parameter —
    right after the ``parameters`` cell; the kernel keeps the text of every cell it ran in its input
    history (``In``), so the latest such cell before the current one says which names were passed.
    Without IPython (``exec`` of a cell) or without papermill there is no such cell: ``None``.
    """
    import ast

    history = namespace.get("In")
    if not isinstance(history, list) or len(history) < 2:
        return None
    for text in reversed(history[:-1]):  # the cells before this one, latest first
        if isinstance(text, str) and text.lstrip().startswith(PAPERMILL_CELL_HEADER):
            try:
                tree = ast.parse(text)
            except SyntaxError:
                return None
            return [t.id for node in tree.body if isinstance(node, (ast.Assign, ast.AnnAssign))
                    for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
                    if isinstance(t, ast.Name)]
    return None


# ---------------------------------------------------------------- values and rules the chapters share
SEED = Int(0, 2**32 - 1)
WORKERS = Int(1, 256, none_ok=True, unit="(worker processes; None: all cores)")
N_SEEDS = Int(1, 10_000, unit="(runs)")
SIM_DURATION_S = Real(0, 36_000, lo_open=True, unit="s")
PROBABILITY = Real(0, 1, hi_open=True)
BYTES = Int(1, 10**10, unit="bytes")


def subset(points, within) -> bool:
    """Every value of ``points`` is one of ``within`` (compared as floats)."""
    have = {float(x) for x in within}
    return all(float(x) in have for x in points)


def divides(step, whole, tol=1e-9) -> bool:
    """``whole`` is a whole multiple of ``step`` (up to ``tol`` relative)."""
    k = whole / step
    return abs(k - round(k)) < tol * max(1.0, k)


__all__ = ["parameter_list", "Param", "Real", "Int", "Bool", "Choice", "Text", "Mapping", "Seq", "Rule", "NotebookSpec",
           "validate_parameters", "injected_parameters", "SEED", "WORKERS", "N_SEEDS", "SIM_DURATION_S", "PROBABILITY", "BYTES", "subset",
           "divides"]
