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

from ..tcp import STATE_NAMES

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


class TraceRecorder:
    """Collects the requested traces during a run; :meth:`frames` turns them into DataFrames."""

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
        self._cwnd = ([], [], [], [])
        self._pk = ([], [], [], [], [], [], [])
        self._ack = ([], [], [], [], [], [])
        self._dup = ([], [], [], [])
        self._ev = ([], [], [], [], [])
        self._good = ([], [])

    # recording hooks (called by the sender, receiver and network)
    def cwnd(self, t, cwnd, ssthresh, state):
        if self.want_cwnd:
            c = self._cwnd
            c[0].append(t)
            c[1].append(cwnd)
            c[2].append(ssthresh)
            c[3].append(state)

    def event(self, t, kind, seq, sub):
        if self.want_events:
            e = self._ev
            e[0].append(t)
            e[1].append(kind)
            e[2].append(seq)
            e[3].append(sub.cwnd)
            e[4].append(sub.ssthresh)

    def dupack_run(self, start, end, ack, length):
        if self.want_dupacks:
            d = self._dup
            d[0].append(start)
            d[1].append(end)
            d[2].append(ack)
            d[3].append(length)

    def packet(self, t, link, seq, retx, wire, arrival):
        if self.want_packets:
            p = self._pk
            p[0].append(t)
            p[1].append(link)
            p[2].append(seq)
            p[3].append(retx)
            p[4].append(wire)
            p[5].append(arrival)

    def ack(self, t, link, ack, nblocks, wire, arrival):
        if self.want_acks:
            a = self._ack
            a[0].append(t)
            a[1].append(link)
            a[2].append(ack)
            a[3].append(nblocks)
            a[4].append(wire)
            a[5].append(arrival)

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
        if "cwnd" in self.names:
            c = self._cwnd
            out["cwnd"] = pd.DataFrame({"time_s": self._sec(c[0]), "cwnd_bytes": np.asarray(c[1], np.int64),
                                        "ssthresh_bytes": np.asarray(c[2], np.int64),
                                        "state": pd.Categorical([STATE_NAMES[s] for s in c[3]],
                                                                categories=list(STATE_NAMES))})
        if "packets" in self.names or "rate" in self.names:
            p = self._pk
            arr = np.asarray(p[5], np.int64)
            dropped = np.where(arr == -1, "queue", np.where(arr == -2, "loss", ""))
            packets = pd.DataFrame({"time_s": self._sec(p[0]), "link": np.asarray(p[1], np.int64),
                                    "seq": np.asarray(p[2], np.int64), "retransmission": np.asarray(p[3], bool),
                                    "wire_bytes": np.asarray(p[4], np.int64),
                                    "arrival_s": np.where(arr < 0, np.nan, (arr - t0_ns) / 1e9), "dropped": dropped})
            if "packets" in self.names:
                out["packets"] = packets
        if "acks" in self.names:
            a = self._ack
            arr = np.asarray(a[5], np.int64)
            out["acks"] = pd.DataFrame({"time_s": self._sec(a[0]), "link": np.asarray(a[1], np.int64),
                                        "ack": np.asarray(a[2], np.int64), "sack_blocks": np.asarray(a[3], np.int64),
                                        "wire_bytes": np.asarray(a[4], np.int64),
                                        "arrival_s": np.where(arr < 0, np.nan, (arr - t0_ns) / 1e9)})
        if "dupacks" in self.names:
            d = self._dup
            out["dupacks"] = pd.DataFrame({"start_s": self._sec(d[0]), "end_s": self._sec(d[1]),
                                           "ack": np.asarray(d[2], np.int64), "length": np.asarray(d[3], np.int64)})
        if "events" in self.names:
            e = self._ev
            out["events"] = pd.DataFrame({"time_s": self._sec(e[0]), "kind": np.asarray(e[1], object),
                                          "seq": np.asarray(e[2], np.int64), "cwnd_bytes": np.asarray(e[3], np.int64),
                                          "ssthresh_bytes": np.asarray(e[4], np.int64)})
        if "reordering" in self.names and reorder is not None:
            out["reordering"] = reorder.table()
        if "rate" in self.names:
            out["rate"] = self._rate_frame(packets, end_time)
        return out

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
