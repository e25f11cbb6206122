"""Readable formatting of the book's tables: numbers without negative zeros, inline math, column names with
their units, values with their units (:func:`readable`, :func:`readable_name`, :func:`format_value`,
:func:`use_table_format`) — the chapters' other tables and the cells of the comparison tables.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd


def fmt_number(x: float, fmt: str = ".3g") -> str:
    """``x`` formatted with ``fmt``, never "-0" (a negative value that rounds to zero reads "0")."""
    x = float(x)
    if not math.isfinite(x):
        return "not computed" if math.isnan(x) else f"{x}"
    s = f"{x:{fmt}}"
    stripped = s.lstrip("-+").replace("0", "").replace(".", "").replace("%", "").strip()
    if s.startswith("-") and stripped == "":
        s = s[1:]
    return s



_NEGATIVE_ZERO = re.compile(r"(?<![\w.])-(?=0(?:\.0+)?(?![\d.])(?:\s?%)?)")
_INLINE_MATH = re.compile(r"(?<![\\$])\$(?=\S)([^$<>\n]+?)(?<=\S)\$(?![\d$])")
# the same in a cell's text before it is escaped to HTML (TeX may hold "<")
_RAW_INLINE_MATH = re.compile(r"(?<![\\$])\$(?=\S)([^$\n]+?)(?<=\S)\$(?![\d$])")


def no_negative_zero(text: str) -> str:
    """``text`` with every negative zero ("-0", "-0.0", "-0 %", "-0%") written without its sign.

    >>> no_negative_zero("rfc: -0%, F-RTO -9%, -0.00 and -0.5")
    'rfc: 0%, F-RTO -9%, 0.00 and -0.5'
    """
    return _NEGATIVE_ZERO.sub("", text)


def html_escape(text: str) -> str:
    import html

    return html.escape(str(text), quote=False)


def render_math(html_text: str) -> str:
    """Inline TeX ``$…$`` in table cells as MathJax inline math (a span of class ``math`` with TeX's
    inline delimiters), so the book typesets it instead of showing the dollars."""
    return _INLINE_MATH.sub(lambda m: f'<span class="math notranslate nohighlight">\\({m.group(1)}\\)</span>',
                            html_text)


# --------------------------------------------------------------------------- other tables of a chapter

#: Unit suffixes of the library's column names and how a reader sees them: (suffix, unit shown, factor).
#: Bit rates are shown in Mbit/s.
UNIT_SUFFIXES = (("_mbps", "Mbit/s", 1.0), ("_kbps", "kbit/s", 1.0), ("_bps", "Mbit/s", 1e-6),
                 ("_bytes", "bytes", 1.0), ("_kbyte", "Kbyte", 1.0), ("_pct", "%", 1.0), ("_ms", "ms", 1.0), ("_ns", "ns", 1.0),
                 ("_s", "s", 1.0), ("_m", "m", 1.0), ("_segs", "segments", 1.0))
#: Abbreviations of column names, spelt out.
WORDS = {"n": "", "ci": "95 % CI of", "rel": "relative", "abs": "absolute", "diff": "difference",
         "retrans": "retransmissions", "p90": "90th percentile of", "mc": "Monte-Carlo", "cwnd": "cwnd",
         "rtt": "RTT", "ada": "ADA", "aba": "ABA", "tcp": "TCP", "mptcp": "MPTCP", "ber": "BER",
         "dupack": "duplicate-ACK", "mathis": "Mathis law", "jain": "Jain's fairness index", "lia": "LIA",
         "rtts": "RTTs", "olia": "OLIA", "gthroughput": "gThroughput", "prr": "PR-R", "ooo": "OOO",
         "lu": "LU", "bo": "BO", "sndbuf": "send buffer", "pdr2": "PDR of subflow 2", "pdr": "PDR", "sf": "subflow",
         "ssthresh": "ssthresh", "pct": "%", "5pct": "5 %", "2pct": "2 %"}
#: Whole column names with a reader's name of their own.
NAMES = {"ooo_r": "OOO-R", "ci_ooo_r": "95 % CI of OOO-R", "dupack_events": "3-dupACK events", "n": "n",
         "ci_lo": "95 % CI, low", "ci_hi": "95 % CI, high", "sim_mean": "simulator mean",
         "vs_best_papers": "÷ best of the papers' mechanisms",
         "chihani_over_model": "chihani preset ÷ model", "chihani_ns3_over_model": "chihani_ns3 preset ÷ model",
         "share_within_2pct_or_1_packet": "share within 2 % or 1 packet",
         "max_abs_error_packets": "max. absolute error (packets)",
         "prr_ssthresh": "PR-R ssthresh at a fast retransmit", "rate_matches": "rate as in ns-3",
         "within_5pct": "within 5 %", "sndbuf_limited": "send-buffer limited", "n_paths": "paths",
         "n_links": "links", "spurious_retransmissions": "spurious retransmissions",
         "dsn_equals_seq": "DSN = sequence number", "same_cwnd_trace": "same cwnd trace",
         "at_mean_ber": "at the mean BER", "packet_bytes": "packet (bytes)"}

#: Names of presets inside column names: kept whole by :func:`readable_name` ("chihani_ns3 goodput").
IDENTIFIER_WORDS = ("chihani_ns3", "chihani_dupack")

#: Library identifiers that appear as values (row labels, cells): how a reader reads them.  An
#: identifier not listed here (a preset's name such as ``chihani_ns3``, an option such as
#: ``limited_transmit=True``) is shown as code: it is something a reader types.
VALUE_NAMES = {"one_way": "one-way", "fully_coupled": "fully coupled", "rtt_compensation": "RTT compensation",
               "tcp_door": "TCP-DOOR", "round_robin": "round-robin", "lowest_rtt": "lowest-RTT",
               "as_printed": "as printed", "one_outlier": "one outlier", "two_groups": "two groups",
               # plain words, replaced only when they are the whole cell or one term of "a + b"
               "dsack": "DSACK", "eifel": "Eifel", "frto": "F-RTO", "lia": "LIA", "olia": "OLIA",
               "newreno": "NewReno", "edpf": "EDPF", "True": "yes", "False": "no"}

# A mathematical symbol written with a subscript in plain text — x_ih, g_22, d_{h+1}, ST_i^h, Σ_{i≤h},
# f_LP, m_ACK, SGM_{i,j}: one letter (or 2–3 capitals, Σ) and a short or braced subscript, perhaps a
# superscript.  Typeset as
# symbol + subscript (a library name such as n_paths or ci_lo has a longer stem or subscript).
_SYMBOL = re.compile(r"(?<![\w\\{])([a-zA-Z]|[A-Z]{2,3}|Σ)_(\{[^{}<>]{1,12}\}|[A-Za-z0-9]{1,3})(?:\^(\{[^{}<>]{1,12}\}|[A-Za-z0-9]))?(?![\w{])")
_IDENTIFIER = re.compile(r"(?<![\w.\-/\\{&#])([a-z][a-z0-9]*(?:_[a-z0-9]+)+(?:=[^\s,;]+)?|[a-z][a-z0-9_]*=[^\s,;]+)"
                         r"(?![\w(])")


def readable_text(text) -> str:
    """A table cell's or label's text as HTML a reader reads: escaped, negative zeros without their
    sign, library identifiers by their reader's name (:data:`VALUE_NAMES`) and any other identifier
    (``chihani_ns3``, ``limited_transmit=True``) in code font; inline TeX ``$…$`` untouched.

    >>> readable_text("round_robin + lia"), readable_text("True"), readable_text("preset chihani_ns3: -0 %")
    ('round-robin + LIA', 'yes', 'preset <code>chihani_ns3</code>: 0 %')
    >>> readable_text("f_h = Σ_{i≤h} b_i(d_{h+1}−d_i); ST_i^h; n_paths")
    '<i>f</i><sub>h</sub> = Σ<sub>i≤h</sub> <i>b</i><sub>i</sub>(<i>d</i><sub>h+1</sub>−<i>d</i><sub>i</sub>); ST<sub>i</sub><sup>h</sup>; <code>n_paths</code>'
    >>> readable_text("sack=True, min_rto_s=0.2 ($x_{ih}$, $b_1 < 4 b_2$)")
    '<code>sack=True</code>, <code>min_rto_s=0.2</code> ($x_{ih}$, $b_1 &lt; 4 b_2$)'

    """
    text = str(text)
    whole = [t.strip() for t in text.split(" + ")]
    if all(t in VALUE_NAMES for t in whole):
        return html_escape(" + ".join(VALUE_NAMES[t] for t in whole))
    out, last = [], 0
    for m in _RAW_INLINE_MATH.finditer(text):     # TeX stays as written (render_math typesets it)
        out.append(_identifiers(html_escape(no_negative_zero(text[last:m.start()]))))
        out.append(html_escape(m.group(0)))
        last = m.end()
    out.append(_identifiers(html_escape(no_negative_zero(text[last:]))))
    return "".join(out)


def _identifiers(escaped: str) -> str:
    def name(m):
        word = m.group(1)
        if word in VALUE_NAMES:
            return VALUE_NAMES[word]
        return f"<code>{word}</code>"

    def symbol(m):
        base, sub, sup = m.group(1), m.group(2).strip("{}"), (m.group(3) or "").strip("{}")
        shown = f"<i>{base}</i>" if len(base) == 1 and base != "Σ" else base
        return shown + f"<sub>{sub}</sub>" + (f"<sup>{sup}</sup>" if sup else "")
    return _IDENTIFIER.sub(name, _SYMBOL.sub(symbol, escaped))


def format_label(x) -> str:
    """A cell, column or row label of a shown table: :func:`format_value`, then :func:`readable_text`."""
    return readable_text(format_value(x))


def readable_name(name) -> str:
    """A column name of the library as a reader reads it: words, the unit in parentheses.

    >>> readable_name("goodput_bps"), readable_name("throughput_bps_cmtlab"), readable_name("sub0_retrans")
    ('goodput (Mbit/s)', 'throughput cmtlab (Mbit/s)', 'subflow 1 retransmissions')
    >>> readable_name("ci_goodput_bps"), readable_name("n_seeds"), readable_name("completion_time_tcp_s")
    ('95 % CI of goodput (Mbit/s)', 'seeds', 'completion time TCP (s)')
    >>> readable_name("goodput_bps_chihani_ns3"), readable_name("fast_retransmits_chihani_ns3")
    ('goodput chihani_ns3 (Mbit/s)', 'fast retransmits chihani_ns3')
    """
    if not isinstance(name, str):
        return name
    if name in NAMES:
        return NAMES[name]
    if "_" not in name:
        return WORDS.get(name, name) or name
    unit, rest = "", name
    for word in IDENTIFIER_WORDS:           # a preset's name stays one word (shown in code font)
        rest = rest.replace(word, word.replace("_", "\0"))
    for suffix, shown, _ in UNIT_SUFFIXES:
        at = rest.find(suffix + "_") if not rest.endswith(suffix) else len(rest) - len(suffix)
        if at > 0:
            unit, rest = shown, rest[:at] + rest[at + len(suffix):]
            break
    words = []
    for w in rest.split("_"):
        m = re.fullmatch(r"sub(\d+)", w)
        w = f"subflow {int(m.group(1)) + 1}" if m else WORDS.get(w, w)
        if w:
            words.append(w)
    text = " ".join(words).replace("\0", "_")
    text = text[:-3] if text.endswith(" of") else text          # "ci_bps": "95 % CI", not "95 % CI of"
    return text + (f" ({unit})" if unit else "")


def _factor(name) -> float:
    if not isinstance(name, str):
        return 1.0
    for suffix, _, factor in UNIT_SUFFIXES:
        if name.endswith(suffix) or (suffix + "_") in name:
            return factor
    return 1.0


def format_value(x) -> str:
    """One cell of a table as text: integers without decimals, other numbers with four significant
    digits (thousands separated from 1000 on), never a negative zero; anything else as ``str``.

    >>> [format_value(v) for v in (2.0, -0.0, 96.906716, 1234567.8, 0.000123, "a", True, None)]
    ['2', '0', '96.91', '1,234,568', '0.000123', 'a', 'yes', '—']
    """
    if isinstance(x, (bool, np.bool_)):
        return "yes" if x else "no"
    if x is None or x is pd.NA or x is pd.NaT:
        return "—"
    if not isinstance(x, (int, float, np.integer, np.floating)):
        return str(x)
    x = float(x)
    if not math.isfinite(x):
        return "—" if math.isnan(x) else str(x)
    if x == int(x) and abs(x) < 1e15:
        return f"{int(x):,}" if abs(x) >= 10_000 else str(int(x))
    text = f"{x:,.0f}" if abs(x) >= 1000 else f"{x:.4g}"
    return no_negative_zero(text)


def readable(frame: pd.DataFrame, *, caption: str = ""):
    """A table of a chapter as readers see it (a pandas Styler): column and index names (and the
    names of both axes) spelt out with their units (:func:`readable_name`; bit rates in Mbit/s),
    numbers by :func:`format_value`, labels and cells by :func:`readable_text` (library identifiers
    by their reader's name or in code font), no index column when the index is a plain row number."""
    out = frame.copy()
    for col in out.columns:
        f = _factor(col if not isinstance(col, tuple) else col[0])
        if f != 1.0 and pd.api.types.is_numeric_dtype(out[col]):
            out[col] = out[col] * f
    rename = (lambda c: tuple(readable_name(x) for x in c)) if isinstance(out.columns, pd.MultiIndex) else readable_name
    out.columns = [rename(c) for c in out.columns] if not isinstance(out.columns, pd.MultiIndex) else \
        pd.MultiIndex.from_tuples([rename(c) for c in out.columns], names=out.columns.names)
    out.index = out.index.set_names([readable_name(n) for n in out.index.names])
    out.columns = out.columns.set_names([readable_name(n) for n in out.columns.names])
    styler = out.style.format(format_label).format_index(format_label, axis=0).format_index(format_label, axis=1)
    if isinstance(out.index, pd.RangeIndex):
        styler = styler.hide(axis="index")
    if caption:
        styler = styler.set_caption(html_escape(caption))
    return styler


def use_table_format() -> None:
    """Make every pandas table a notebook displays read as :func:`readable` shows it: a displayed
    DataFrame goes through :func:`readable` (readable names, :func:`format_value` numbers — "2", not
    "2.000000"; no "-0" — library identifiers spelt out), a Styler without its own format uses
    :func:`format_value`.  Called by :func:`cmtlab.report.style.use_style`."""
    pd.set_option("display.float_format", format_value)
    pd.set_option("styler.format.formatter", format_value)
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with Jupyter
        return
    shell = get_ipython()
    if shell is not None:  # a notebook: a displayed DataFrame is shown as readable() shows it
        from pandas.io.formats.style import Styler

        html = shell.display_formatter.formatters["text/html"]
        html.for_type(pd.DataFrame, _readable_html)
        html.for_type(Styler, _readable_styler_html)


#: A displayed DataFrame longer than this keeps pandas' own (truncated) HTML.
READABLE_MAX_ROWS = 500


def _readable_html(frame: pd.DataFrame) -> str:
    if len(frame) > READABLE_MAX_ROWS or not frame.columns.is_unique or not frame.index.is_unique:
        return frame.to_html(max_rows=60)
    return render_math(readable(frame).to_html())


def _column_label(name) -> str:
    # a column whose values a readable() table would convert (bit/s → Mbit/s) keeps its name
    return format_label(name if _factor(name) != 1.0 else readable_name(name))


def _readable_styler_html(styler) -> str:
    """A Styler a notebook built itself (its own number formats kept): its row and column labels and
    its text cells as :func:`readable` shows them (labels of numbers by :func:`format_value`,
    library names spelt out, booleans yes / no)."""
    data = styler.data
    if not (data.columns.is_unique and data.index.is_unique):
        return styler.to_html()
    # the axes' names spelt out on a shallow copy (the notebook's frame keeps its own names)
    data = styler.data = data.copy(deep=False)
    data.index = styler.index = data.index.set_names([readable_name(n) for n in data.index.names])
    data.columns = styler.columns = data.columns.set_names([readable_name(n) for n in data.columns.names])
    styler.format_index(format_label, axis=0)
    styler.format_index(lambda c: _column_label(c) if isinstance(c, str) else format_label(c), axis=1)
    text = [c for c in data.columns
            if pd.api.types.is_bool_dtype(data[c]) or not pd.api.types.is_numeric_dtype(data[c])]
    if text:
        styler.format(format_label, subset=text)
    return render_math(styler.to_html())
