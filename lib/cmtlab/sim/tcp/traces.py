"""Optional traces of a run and the reordering metrics, as tidy pandas DataFrames.

Nothing here runs unless a trace is requested (``trace=True`` or a set of the names in
:data:`TRACE_NAMES`); without traces a run keeps no per-packet state.

===============================================================================  ==================================================================================
name                                                                             DataFrame columns
===============================================================================  ==================================================================================
``cwnd``                                                                         ``time_s, cwnd_bytes, ssthresh_bytes, state`` — one row per change
``packets``                                                                      ``time_s, link, seq, retransmission, wire_bytes, arrival_s, dropped`` — every data
                                                                                 packet handed to a link (``dropped``: ``""``, ``"queue"`` or ``"loss"``;
                                                                                 ``arrival_s`` NaN when dropped)
``acks``                                                                         ``time_s, link, ack, sack_blocks, wire_bytes, arrival_s`` — every ACK sent
                                                                                 (``link`` = -1 on the ideal return path)
``dupacks``                                                                      ``start_s, end_s, ack, length`` — runs of duplicate ACKs seen by the sender
``events``                                                                       ``time_s, kind, seq, cwnd_bytes, ssthresh_bytes`` — ``fast_retransmit``,
                                                                                 ``partial_ack``, ``recovery_exit``, ``timeout``, ``dsack``
``reordering`` ``displacement, count, density`` — RFC 5236 reorder density (see
                                                                                 :class:`ReorderDensity`); scalar reordering statistics go to ``extra``
``rate``                                                                         ``time_s, throughput_bps, goodput_bps`` — per time bin, payload bits arriving
                                                                                 at the receiver (duplicates included) and payload bits delivered in order
===============================================================================  ==================================================================================
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from .state import STATE_NAMES

TRACE_NAMES = ("cwnd", "packets", "acks", "dupacks", "events", "reordering", "rate")


def normalize_trace(trace) -> frozenset:
    """``trace`` argument → set of trace names (``True`` = all, ``False``/``None`` = none)."""
    if trace is None or trace is False:
        return frozenset()
    if trace is True:
        return frozenset(TRACE_NAMES)
    if isinstance(trace, str):
        trace = (trace,)
    try:
        names = frozenset(trace)
    except TypeError as exc:
        raise ValueError(f"trace must be True, False or a set of names from {list(TRACE_NAMES)}, "
                         f"got {trace!r}") from exc
    unknown = names - set(TRACE_NAMES)
    if unknown:
        raise ValueError(f"trace names must be in {list(TRACE_NAMES)}, got unknown {sorted(unknown)}")
    return names


class ReorderDensity:
    """Reorder Density (RD), RFC 5236 sec. 4.1, computed on the fly at the receiver.

    Each packet that is not a duplicate gets a receive index ``RI`` (0, 1, 2, … in arrival
    order); its displacement is ``D = RI - S`` with ``S`` its sequence number (segment
    index, from 0): ``D < 0`` is an early packet, ``D > 0`` a late one.  RD is the
    frequency of each displacement in ``[-DT, DT]`` normalised by the number of
    non-duplicate packets; packets displaced by more than the threshold ``DT`` are
    counted in ``beyond_threshold`` (RFC 5236 treats them as lost).  Duplicates are
    discarded.  Memory is O(DT) plus the duplicate check, which the receiver does.

    TCP note: a segment whose first copy was dropped arrives as a (late) retransmission and
    is counted at that arrival; the segments that overtook it appear early by one.
    """

    __slots__ = ("threshold", "ri", "freq", "beyond", "duplicates")

    def __init__(self, threshold: int = 3):
        if isinstance(threshold, bool) or not isinstance(threshold, int) or threshold < 0:
            raise ValueError(f"threshold must be an integer >= 0 (displacement threshold DT), got {threshold!r}")
        self.threshold = threshold
        self.ri = 0
        self.freq = {}
        self.beyond = 0
        self.duplicates = 0

    def arrival(self, seq: int) -> None:
        d = self.ri - seq
        self.ri += 1
        if -self.threshold <= d <= self.threshold:
            self.freq[d] = self.freq.get(d, 0) + 1
        else:
            self.beyond += 1

    def duplicate(self, seq: int) -> None:
        self.duplicates += 1

    def table(self) -> pd.DataFrame:
        """``displacement, count, density`` for every D in ``[-DT, DT]`` (density sums to <= 1)."""
        ds = np.arange(-self.threshold, self.threshold + 1)
        counts = np.array([self.freq.get(int(d), 0) for d in ds], dtype=np.int64)
        total = self.ri
        dens = counts / total if total else np.zeros(len(ds))
        return pd.DataFrame({"displacement": ds, "count": counts, "density": dens})

    def in_order_fraction(self) -> float:
        """RD[0]: share of non-duplicate packets that arrived exactly where expected."""
        return self.freq.get(0, 0) / self.ri if self.ri else math.nan


def reorder_density(sequence, threshold: int = 3) -> pd.DataFrame:
    """RFC 5236 reorder density of an arrival ``sequence`` of sequence numbers (from 0)."""
    rd = ReorderDensity(threshold)
    seen = set()
    for s in sequence:
        s = int(s)
        if s in seen:
            rd.duplicate(s)
            continue
        seen.add(s)
        rd.arrival(s)
    return rd.table()


#: The recorded traces: their columns, in order, each with how it is stored (``"time"``: engine
#: ns, given as seconds from the first data segment; ``"arrival"``: the same, NaN when the packet
#: was dropped; ``"int"``, ``"bool"``, ``"object"``; ``"state"``: a congestion-state code, given as
#: its name).  The recording hook of each trace takes its columns as arguments, in this order.
RECORDED_COLUMNS = {
    "cwnd": (("time_s", "time"), ("cwnd_bytes", "int"), ("ssthresh_bytes", "int"), ("state", "state")),
    "packets": (("time_s", "time"), ("link", "int"), ("seq", "int"), ("retransmission", "bool"),
                ("wire_bytes", "int"), ("arrival_s", "arrival")),
    "acks": (("time_s", "time"), ("link", "int"), ("ack", "int"), ("sack_blocks", "int"), ("wire_bytes", "int"),
             ("arrival_s", "arrival")),
    "dupacks": (("start_s", "time"), ("end_s", "time"), ("ack", "int"), ("length", "int")),
    "events": (("time_s", "time"), ("kind", "object"), ("seq", "int"), ("cwnd_bytes", "int"),
               ("ssthresh_bytes", "int")),
}


class TraceRecorder:
    """Collects the requested traces during a run (one tuple per row, :data:`RECORDED_COLUMNS`);
    :meth:`frames` turns them into DataFrames."""

    def __init__(self, names, *, segment_bytes: int, n_segs: int, last_len: int, rate_bin_s: float | None = None):
        self.names = frozenset(names)
        self.seg = segment_bytes
        self.n_segs = n_segs
        self.last_len = last_len
        self.rate_bin_s = rate_bin_s
        self.want_cwnd = "cwnd" in self.names
        self.want_packets = "packets" in self.names or "rate" in self.names
        self.want_acks = "acks" in self.names
        self.want_events = "events" in self.names
        self.want_dupacks = "dupacks" in self.names
        self.want_rate = "rate" in self.names
        self._rows = {name: [] for name in RECORDED_COLUMNS}
        self._good = ([], [])

    # recording hooks (called by the sender, receiver and network)
    def cwnd(self, t, cwnd, ssthresh, state):
        if self.want_cwnd:
            self._rows["cwnd"].append((t, cwnd, ssthresh, state))

    def event(self, t, kind, seq, sub):
        if self.want_events:
            self._rows["events"].append((t, kind, seq, sub.cwnd, sub.ssthresh))

    def dupack_run(self, start, end, ack, length):
        if self.want_dupacks:
            self._rows["dupacks"].append((start, end, ack, length))

    def packet(self, t, link, seq, retx, wire, arrival):
        if self.want_packets:
            self._rows["packets"].append((t, link, seq, retx, wire, arrival))

    def ack(self, t, link, ack, nblocks, wire, arrival):
        if self.want_acks:
            self._rows["acks"].append((t, link, ack, nblocks, wire, arrival))

    def goodput(self, t, rcv_nxt):
        if self.want_rate:
            self._good[0].append(t)
            self._good[1].append(rcv_nxt)

    # conversion
    def frames(self, *, end_ns: int, t0_ns: int = 0, reorder: ReorderDensity | None = None) -> dict:
        """The requested traces as DataFrames.

        Recorded times are the engine's integer ns; the frames give seconds from ``t0_ns``
        (the moment the first data segment started onto the wire, the zero of the
        completion time).
        """
        self._t0 = t0_ns
        end_time = (end_ns - t0_ns) / 1e9
        out = {}
        for name in RECORDED_COLUMNS:
            if name in self.names or (name == "packets" and "rate" in self.names):
                out[name] = self._frame(name)
        if "packets" in out:
            arr = np.asarray([row[5] for row in self._rows["packets"]], np.int64)
            out["packets"]["dropped"] = np.where(arr == -1, "queue", np.where(arr == -2, "loss", ""))
        if "reordering" in self.names and reorder is not None:
            out["reordering"] = reorder.table()
        if "rate" in self.names:
            out["rate"] = self._rate_frame(out["packets"], end_time)
            if "packets" not in self.names:
                del out["packets"]
        return out

    def _frame(self, name: str) -> pd.DataFrame:
        """One recorded trace as a DataFrame (columns and types of :data:`RECORDED_COLUMNS`)."""
        spec = RECORDED_COLUMNS[name]
        rows = self._rows[name]
        columns = list(zip(*rows)) if rows else [()] * len(spec)
        data = {}
        for (col, kind), values in zip(spec, columns):
            if kind == "time":
                data[col] = self._sec(values)
            elif kind == "arrival":
                arr = np.asarray(values, np.int64)
                data[col] = np.where(arr < 0, np.nan, (arr - self._t0) / 1e9)
            elif kind == "state":
                data[col] = pd.Categorical([STATE_NAMES[s] for s in values], categories=list(STATE_NAMES))
            else:
                data[col] = np.asarray(values, {"int": np.int64, "bool": bool, "object": object}[kind])
        return pd.DataFrame(data)

    def _sec(self, values) -> np.ndarray:
        return (np.asarray(values, np.int64) - self._t0) / 1e9

    def _rate_frame(self, packets: pd.DataFrame, end_time: float) -> pd.DataFrame:
        if not math.isfinite(end_time) or end_time <= 0:
            end_time = float(np.nanmax(packets["arrival_s"])) if len(packets) else 0.0
        bin_s = self.rate_bin_s or max(end_time / 100.0, 1e-3)
        nbins = max(int(math.ceil(end_time / bin_s)), 1)
        edges = np.arange(nbins + 1) * bin_s
        payload = np.where(packets["seq"].to_numpy() == self.n_segs - 1, self.last_len, self.seg)
        arr = packets["arrival_s"].to_numpy()
        ok = np.isfinite(arr) & (arr <= end_time)
        thr, _ = np.histogram(arr[ok], bins=edges, weights=payload[ok] * 8.0)
        gt = self._sec(self._good[0])
        gn = np.asarray(self._good[1], np.int64)
        delivered_bytes = np.minimum(gn * self.seg, (self.n_segs - 1) * self.seg + self.last_len)
        inc = np.diff(np.concatenate([[0], delivered_bytes]))
        good, _ = np.histogram(gt, bins=edges, weights=inc * 8.0)
        return pd.DataFrame({"time_s": edges[:-1], "throughput_bps": thr / bin_s, "goodput_bps": good / bin_s})
