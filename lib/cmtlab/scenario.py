"""Scenarios and results shared by every simulator of the book (``cmtlab.sim`` and ``cmtlab.ns3``).

A :class:`StripedScenario` describes one bulk transfer of a single TCP NewReno connection
whose packets are striped below TCP over ``n`` point-to-point links by a round-robin
tunnel — the simulation topology of Song et al., Fig. 5.  With ``tunnel=False`` and one
link it is a plain single-path TCP flow over one point-to-point link.  Both simulators
take the same scenario and return the same :class:`TransferResult`, so every comparison
in the book is "same scenario object, two simulators".

Units: rates in bit/s, times in seconds, sizes in bytes.

Delays
------
``rtts_s`` are **round-trip propagation delays**, as in the analytical model
(:func:`cmtlab.papers.song.throughput`).  Point-to-point links are symmetric, so when the ACKs
return over the striped links (``ack_path`` ``"round_robin"``, ``"first"`` or
``"fastest"``) link *i* gets the one-way delay ``d_i / 2`` in each direction.  With
``ack_path="ideal"`` (the model's assumption that the receiver→sender delay is zero, Song
sec. 3) the ACKs return over a separate instantaneous path and link *i* gets the one-way
forward delay ``d_i``, so the round trip is still ``d_i``.  See
:meth:`StripedScenario.one_way_delays_s`.  The old name ``delays_s`` (it said nothing about
round trips) is deprecated: as a keyword it still works with a ``DeprecationWarning``, as a
scenario attribute it is an alias of ``rtts_s``, and scenario keys and ``to_dict()`` keep it so
that cached results stay valid.

Timing
------
The completion time is measured from the moment the first data segment is handed to the
network to the moment the receiver holds the last byte in order (connection set-up is
not counted), and ``throughput_bps = transfer_bytes * 8 / completion_time_s`` (Song
sec. 5.1: "A sends C bytes to B, B records the transfer finish time").
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import warnings
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ._validate import (as_float_array, check_bool, check_choice, check_duration_s, check_durations_s, check_int,
                        check_non_negative)

#: Where the ACKs travel back to the sender (see the module docstring).
ACK_PATHS = ("round_robin", "first", "fastest", "ideal")
#: Fast-recovery styles: classic NewReno (RFC 6582), Proportional Rate Reduction (RFC 6937), or
#: the Chihani–Collange ns-3 MPTCP model's halving without fast recovery (pair it with
#: ``variant="chihani"`` congestion control; :class:`cmtlab.sim.models.chihani.ChihaniRecovery`).
RECOVERY_STYLES = ("newreno", "prr", "linux_prr", "chihani", "chihani_ns3")
#: Loss detection: the duplicate-ACK threshold with RFC 6675 ``IsLost`` (``"dupack"``) or RACK-TLP
#: (RFC 8985, ``"rack-tlp"``, ``"rack-tlp-linux"``, ``"linux"``, ``"linux-probe-on-send"``; needs SACK).  See
#: :mod:`cmtlab.sim.mechanisms.recovery.loss_detection`.
LOSS_DETECTIONS = ("dupack", "rack-tlp", "rack-tlp-linux", "linux", "linux-probe-on-send")
#: How the retransmission timer is restarted: ``"ns3"`` — ns-3.44's ``NewAck``: on every ACK of new data but,
#: in fast recovery, on the first partial ACK only (RFC 6582 sec. 3.2 step 5, "Impatient"), and kept running
#: while nothing is outstanding (its ``ReTxTimeout`` then returns), so data sent after an idle period may meet
#: a timer about to expire; ``"rfc6298"`` — RFC 6298 sec. 5 as Linux's ``tcp_rearm_rto`` has it: restarted on
#: every ACK of new data, partial ACKs included (rule 5.3), stopped when every outstanding segment is
#: acknowledged (rule 5.2) and started by the next segment sent (rule 5.1).
RTO_TIMERS = ("ns3", "rfc6298")
#: ``TcpOptions.ack_policy``: ``"delayed"`` — an ACK every ``m_ack`` in-order segments or at the delayed-ACK timer
#: (RFC 5681 sec. 4.2; ns-3); ``"linux"`` — that, and Linux's quick ACKs while the receive window grows
#: (:mod:`cmtlab.sim.tcp.receive_window`).
ACK_POLICIES = ("delayed", "linux")
#: The two readings of a "delay difference" Δ between two paths, which Alheid et al. (sec. IV.A, Table I) leave
#: open: ``"rtt"`` — the round trips differ by Δ; ``"one_way"`` — the one-way delays differ by Δ (the round trips
#: by 2Δ).  The book's one list of them: the Alheid chapters (cmtlab's runs, the papers' simulator), the kernel
#: testbed's Table I runs and the notebook parameters read it from here.
DELAY_DIFFERENCE_MEANINGS = ("rtt", "one_way")
#: Loss models of a link's forward (data) direction.
LOSS_UNITS = ("none", "packet", "bit")
#: Upper bound on the work of one simulated run: data segments of a transfer (or that the paths can
#: carry in a duration-limited run).  The simulator processes some 10^5 segments per wall-clock second,
#: so this is minutes of work; a scenario above it is refused at once instead of running for days.
MAX_SEGMENTS = 20_000_000


def real_array(name: str, values) -> np.ndarray:
    """``values`` as a 1-D float array (``cmtlab._validate.as_float_array``), refusing what is not a
    real number — booleans, strings, ``None`` — instead of coercing it (``[True, True]`` is not 1 bit/s)."""
    items = values if isinstance(values, (list, tuple, np.ndarray)) else [values]
    for v in np.asarray(items, dtype=object).ravel():
        if v is None or isinstance(v, (bool, np.bool_, str, bytes)) or not isinstance(v, (int, float, np.number)):
            raise ValueError(f"{name} must hold real numbers, got {v!r} in {values!r}")
    return as_float_array(name, values)


def round_trips(rtts_s, keywords: dict, where: str):
    """The round-trip delays of a call: ``rtts_s``, or the deprecated keyword ``delays_s`` popped from
    ``keywords`` (with a ``DeprecationWarning``); both or neither is a ``TypeError``."""
    old = keywords.pop("delays_s", None)
    if old is not None:
        if rtts_s is not None:
            raise TypeError(f"{where}: give the round-trip delays once, as rtts_s (delays_s is its old name)")
        warnings.warn(f"{where}: 'delays_s' is deprecated, these are round-trip delays: pass rtts_s",
                      DeprecationWarning, stacklevel=3)
        return old
    if rtts_s is None:
        raise TypeError(f"{where}: missing rtts_s, the round-trip propagation delays (s), one per path")
    return rtts_s


def round_trip_keywords(changes: dict, where: str) -> dict:
    """``changes`` with a deprecated ``delays_s`` renamed ``rtts_s`` (for ``replace``)."""
    if "delays_s" in changes:
        changes = dict(changes)
        changes["rtts_s"] = round_trips(changes.pop("rtts_s", None), changes, where)
    return changes


def check_min_rate(name: str, rates_bps, packet_bytes: int, max_sim_time_s: float) -> None:
    """Every rate lets one ``packet_bytes`` packet through within ``max_sim_time_s`` (else nothing can happen)."""
    low = 8.0 * packet_bytes / max_sim_time_s
    bad = [r for r in np.atleast_1d(rates_bps) if not r >= low]
    if bad:
        raise ValueError(f"{name} must be >= {low:.4g} bit/s (one {packet_bytes}-byte packet within "
                         f"max_sim_time_s = {max_sim_time_s:g} s), got {bad[0]!r}")


def check_work(name: str, segments: float, bound_text: str) -> None:
    """Refuse a run of more than :data:`MAX_SEGMENTS` data segments (``bound_text`` says the allowed range)."""
    if segments > MAX_SEGMENTS:
        raise ValueError(f"{name} must be {bound_text} (at most {MAX_SEGMENTS:,} data segments per run), "
                         f"got {segments:,.0f} segments")


class KeyedScenario:
    """The key and the validated copy of a scenario, written once for the book's scenario classes.

    What :func:`cmtlab.sweep.run_sweep` needs of a scenario (:class:`cmtlab.sweep.api.SweepScenario`):
    :meth:`key` — the SHA-256 of the scenario's plain description (the result cache, the Alheid records and the
    recorded papers'-simulator rows are looked up by it) — and :meth:`replace` — a copy with some fields changed,
    validated as a new scenario is.  Used by :class:`StripedScenario`, :class:`cmtlab.sim.multipath.MptcpScenario`,
    :class:`cmtlab.papers_sim.model.PapersSimScenario` and :class:`cmtlab.papers.osia.experiments.OsiaRun`.

    A subclass is a frozen dataclass and gives

    * :meth:`to_dict` — its own plain, JSON-serialisable description, so that every class's keys stay what they
      were (a field added later is left out at its default, a renamed field keeps its old name);
    * :attr:`_key_default` — how ``json.dumps`` writes a value that JSON has no form for (``float`` or
      ``repr``, each class as it always did, so keys are byte-identical);
    * optionally :meth:`_rebuild` — the validating builder called with every field (default: the class itself,
      whose ``__post_init__`` validates) and :meth:`_changes` — the changes translated first (a deprecated
      keyword, a dict of option changes).
    """

    _key_default = float

    def to_dict(self) -> dict:  # pragma: no cover - every subclass has its own
        raise NotImplementedError

    def key(self) -> str:
        """Stable SHA-256 (hex) of :meth:`to_dict`: the same scenario gives the same key, across runs and machines."""
        blob = json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"), default=type(self)._key_default)
        return hashlib.sha256(blob.encode()).hexdigest()

    def replace(self, **changes):
        """A validated copy with some fields changed; an unknown field name raises ``ValueError`` naming the
        allowed ones."""
        current = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        changes = self._changes(dict(changes))
        unknown = set(changes) - set(current)
        if unknown:
            raise ValueError(f"unknown scenario field(s) {sorted(unknown)}; allowed: {sorted(current)}")
        current.update(changes)
        return self._rebuild(current)

    def _changes(self, changes: dict) -> dict:
        return changes

    @classmethod
    def _rebuild(cls, fields: dict):
        return cls(**fields)


def scenario_changes(scenario, changes: dict, where: str) -> dict:
    """The changes of a simulator scenario's ``replace``: ``delays_s`` (deprecated) renamed ``rtts_s``, and
    ``options`` given as a dict of option changes applied to the scenario's :class:`TcpOptions`."""
    changes = round_trip_keywords(changes, where)
    if isinstance(changes.get("options"), dict):
        changes["options"] = scenario.options.replace(**changes["options"])
    return changes

IPV4_HEADER_BYTES = 20
TCP_HEADER_BYTES = 20
UDP_HEADER_BYTES = 8
PPP_HEADER_BYTES = 2
TIMESTAMP_OPTION_BYTES = 12  # RFC 7323 timestamps option incl. padding (10 + 2 NOP)


@dataclass(frozen=True)
class TcpOptions:
    """TCP details that change a striped flow's throughput by an order of magnitude.

    Every field is an explicit option on both simulators; a simulator that cannot model a
    value raises ``ValueError`` naming the field.  The defaults are plain RFC NewReno as
    Song et al. describe it (no SACK, no limited transmit, classic recovery).  Presets for
    particular ns-3 releases live in :data:`PRESETS`.

    sack
        Negotiate SACK (RFC 2018): the receiver sends SACK blocks (and D-SACK, RFC 2883,
        where the simulator supports it) and the sender keeps a scoreboard.
    sack_loss_detection
        With ``sack``: also enter loss recovery when the scoreboard declares the first
        unacknowledged segment lost (RFC 6675 ``IsLost``: ``dupack_threshold`` SACKed
        segments above it), not only on the ``dupack_threshold``-th duplicate ACK.
    limited_transmit
        RFC 3042: send one new segment on each of the first two duplicate ACKs.
    recovery
        ``"newreno"`` — classic NewReno fast recovery with partial ACKs (RFC 6582);
        ``"chihani"`` — the Chihani–Collange model's loss response (``cmtlab.sim.mechanisms.recovery``);
        ``"prr"`` — Proportional Rate Reduction (RFC 6937) as ns-3.44 counts it;
        ``"linux_prr"`` — PRR as Linux's ``tcp_cwnd_reduction`` counts it
        (:mod:`cmtlab.sim.mechanisms.recovery.linux_prr`).
    timestamps
        RFC 7323 timestamps (12 bytes on every segment; an RTT sample from every ACK).
    min_rto_s, initial_rto_s, clock_granularity_s
        RFC 6298 retransmission timer: lower bound, value before the first sample, and
        the clock granularity ``G`` in ``RTO = SRTT + max(G, 4 RTTVAR)``.
    delayed_ack_timeout_s
        Delayed-ACK timer: an ACK is sent at the latest this long after an unacknowledged
        in-order segment (the count ``m_ack`` is a scenario field).
    immediate_ack_on_out_of_order
        RFC 5681 sec. 4.2: ACK at once when an out-of-order segment arrives or a segment
        fills (part of) a gap.  Song's model assumes it (case II, Fig. 4).
    dupack_threshold
        Duplicate ACKs that trigger fast retransmit (3, RFC 5681).
    ack_path
        Where ACKs return: ``"round_robin"`` (the receiver's tunnel stripes them like the
        data, as the virtual device of Song Fig. 5 does), ``"first"`` (link 1 only),
        ``"fastest"`` (the link with the smallest round-trip delay), ``"ideal"`` (a
        separate zero-delay, unlimited path: the model's assumption).
    send_buffer_bytes, receive_buffer_bytes
        Socket buffers: the sender never has more than ``send_buffer_bytes`` unacknowledged
        bytes and the receiver advertises at most ``receive_buffer_bytes`` (ns-3's
        ``SndBufSize``/``RcvBufSize`` default to 131072 B).
    loss_detection
        ``"dupack"`` — fast retransmit on the ``dupack_threshold``-th duplicate ACK and RFC 6675
        ``IsLost`` (ns-3's rules); ``"rack-tlp"`` — RACK-TLP (RFC 8985, Linux's default since 4.18):
        time-based loss marking with a reordering window, and a tail loss probe (needs ``sack``;
        the receiver then sends D-SACK blocks); ``"rack-tlp-linux"`` — the same with the window growth
        Linux's ACK processing gives around it (SACKed segments count towards the window;
        ``LinuxRackTlpDetection`` of :mod:`cmtlab.sim.mechanisms.recovery.rack_tlp`); ``"linux"`` — that,
        with RACK's RTT samples taken as Linux's ``tcp_rack_advance`` takes them (``LinuxLossDetection``);
        ``"linux-probe-on-send"`` — that, with the tail-loss probe re-armed at every transmission of new data as
        Linux's ``tcp_write_xmit`` re-arms it (``LinuxProbeOnSendDetection``; off in the ``"linux-6.18"`` preset).
        ns-3.44 has only ``"dupack"``.  At its default
        the field is left out of :meth:`to_dict` and scenario keys (keys of existing scenarios
        stay what they were).
    rto_timer
        :data:`RTO_TIMERS`: ``"ns3"`` (the default; left out of keys like ``loss_detection``) or
        ``"rfc6298"`` (restarted on every ACK of new data and stopped when nothing is outstanding, as
        Linux's).
    ack_policy
        :data:`ACK_POLICIES`: ``"delayed"`` (the default; left out of keys) or ``"linux"`` (also Linux's quick
        ACKs: each segment acknowledged while the receive window grows, and the first data's;
        :class:`~cmtlab.sim.tcp.receive_window.LinuxReceiveWindow`; :func:`cmtlab.sim.simulate_mptcp` only).
    """

    sack: bool = False
    sack_loss_detection: bool = False
    limited_transmit: bool = False
    recovery: str = "newreno"
    timestamps: bool = False
    min_rto_s: float = 1.0
    initial_rto_s: float = 1.0
    clock_granularity_s: float = 0.001
    delayed_ack_timeout_s: float = 0.2
    immediate_ack_on_out_of_order: bool = True
    dupack_threshold: int = 3
    ack_path: str = "round_robin"
    send_buffer_bytes: int = 131072
    receive_buffer_bytes: int = 131072
    loss_detection: str = "dupack"
    rto_timer: str = "ns3"
    ack_policy: str = "delayed"

    def __post_init__(self):
        for name in ("sack", "sack_loss_detection", "limited_transmit", "timestamps",
                     "immediate_ack_on_out_of_order"):
            if not isinstance(getattr(self, name), (bool, np.bool_)):
                raise ValueError(f"{name} must be True or False, got {getattr(self, name)!r}")
        if self.sack_loss_detection and not self.sack:
            raise ValueError("sack_loss_detection requires sack=True")
        check_choice("recovery", self.recovery, RECOVERY_STYLES)
        check_choice("ack_path", self.ack_path, ACK_PATHS)
        check_choice("loss_detection", self.loss_detection, LOSS_DETECTIONS)
        check_choice("rto_timer", self.rto_timer, RTO_TIMERS)
        check_choice("ack_policy", self.ack_policy, ACK_POLICIES)
        if self.loss_detection != "dupack" and not self.sack:
            raise ValueError(f"loss_detection={self.loss_detection!r} requires sack=True (RFC 8985 marks losses from SACK "
                             "information)")
        check_duration_s("min_rto_s", self.min_rto_s)
        check_duration_s("initial_rto_s", self.initial_rto_s)
        check_duration_s("clock_granularity_s", self.clock_granularity_s, zero=True)
        check_duration_s("delayed_ack_timeout_s", self.delayed_ack_timeout_s)
        check_int("dupack_threshold", self.dupack_threshold, minimum=1, maximum=1000)
        check_int("send_buffer_bytes", self.send_buffer_bytes, minimum=1)
        check_int("receive_buffer_bytes", self.receive_buffer_bytes, minimum=1)

    def replace(self, **changes) -> "TcpOptions":
        """A copy with some fields changed (validated); unknown names raise ``ValueError``."""
        unknown = set(changes) - {f.name for f in dataclasses.fields(self)}
        if unknown:
            raise ValueError(f"unknown TcpOptions field(s) {sorted(unknown)}; "
                             f"allowed: {sorted(f.name for f in dataclasses.fields(self))}")
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict:
        return _options_dict(dataclasses.asdict(self))


def _options_dict(d: dict) -> dict:
    """``TcpOptions`` as a dict for keys: a field added later is left out at its default (old keys hold)."""
    for name, default in (("loss_detection", "dupack"), ("rto_timer", "ns3"), ("ack_policy", "delayed")):
        if d.get(name) == default:
            d = {k: v for k, v in d.items() if k != name}
    return d


#: Named option sets.  ``"rfc-newreno"`` is the default of :class:`TcpOptions`.
#:
#: ``"ns3-3.44-defaults"`` is what ns-3 3.44 does out of the box, checked against the attribute
#: initial values of the installed ns-3 (``cmtlab.ns3.attribute_defaults``; test
#: ``tests/references/test_ns3.py``): ``TcpSocketBase::Sack``/``LimitedTransmit``/``Timestamp`` true (SACK
#: implies RFC 6675 ``IsLost`` loss detection), ``TcpL4Protocol::RecoveryType`` =
#: ``TcpPrrRecovery``, ``MinRto`` 1 s, ``RttEstimator::InitialEstimation`` 1 s,
#: ``ClockGranularity`` 1 ms, ``DelAckTimeout`` 0.2 s, ``ReTxThreshold`` 3, ``SndBufSize`` =
#: ``RcvBufSize`` = 131072 B.  (Not option fields: ns-3 3.44 also defaults to TCP CUBIC,
#: ``InitialCwnd`` 10 segments and an unlimited initial ssthresh; the scenario fixes NewReno and
#: its own window and ssthresh.)
#:
#: ``"ns3-2018"`` is ns-3 as Song et al. used it (accessed March 2018: ns-3.27, Oct 2017, or
#: ns-3.28, Mar 2018).  Evidence: ns-3 RELEASE_NOTES/CHANGES — 3.27 "The SACK option and the
#: RFC 6675 loss recovery algorithm are now supported" (new ``TcpSocketBase::Sack`` attribute);
#: 3.28 adds pacing (off by default) and splits the ``CongestionWindowInflated`` trace; PRR
#: ("Added PRR as recovery algorithm", the ``TcpRecoveryOps`` classes) arrives only in 3.29.
#: The ``TcpSocketBase`` attribute table of an ns-3-dev snapshot between 3.27 and 3.28 (SACK
#: merged, no ``CongestionWindowInflated`` yet) has ``Sack`` true, ``LimitedTransmit`` true,
#: ``Timestamp`` true, ``WindowScaling`` true, ``MinRto`` 1 s, ``ClockGranularity`` 1 ms,
#: ``ReTxThreshold`` 3.  So: SACK with RFC 6675 loss detection, limited transmit, timestamps,
#: and classic NewReno fast recovery (ns-3.27 inflated cwnd during recovery; 3.28 no longer does
#: internally, CHANGES "Changed behavior" of 3.28).  In ns-3 3.44 ``recovery="newreno"`` is
#: ``TcpClassicRecovery``, the 3.29 refactoring of that code.
PRESETS: dict[str, TcpOptions] = {
    "rfc-newreno": TcpOptions(),
    "ns3-3.44-defaults": TcpOptions(sack=True, sack_loss_detection=True, limited_transmit=True, recovery="prr",
                                    timestamps=True),
    "ns3-2018": TcpOptions(sack=True, sack_loss_detection=True, limited_transmit=True, recovery="newreno",
                           timestamps=True),
}


def options_preset(name: str, **changes) -> TcpOptions:
    """A named :data:`PRESETS` entry, optionally with some fields changed."""
    check_choice("preset", name, PRESETS)
    return PRESETS[name].replace(**changes) if changes else PRESETS[name]


@dataclass(frozen=True)
class LossModel:
    """Random loss on a link's forward (data) direction.

    ``unit="none"``; ``unit="packet"`` drops each packet with probability ``rate``
    (Bernoulli); ``unit="bit"`` drops a packet of ``L`` bytes with probability
    ``1 - (1 - rate)^(8 L)`` (independent bit errors at bit-error rate ``rate``).
    """

    unit: str = "none"
    rate: float = 0.0

    def __post_init__(self):
        check_choice("loss unit", self.unit, LOSS_UNITS)
        r = check_non_negative("loss rate", self.rate)
        if not r < 1:
            raise ValueError(f"loss rate must be in [0, 1) (a rate of 1 never delivers anything), got {r!r}")
        if self.unit == "none" and r != 0:
            raise ValueError(f"loss rate must be 0 when unit='none', got {r!r}")

    def drop_probability(self, packet_bytes: float) -> float:
        """Probability that a packet of ``packet_bytes`` bytes (on the wire) is lost."""
        if self.unit == "none" or self.rate == 0:
            return 0.0
        if self.unit == "packet":
            return self.rate
        return float(-np.expm1(8.0 * packet_bytes * np.log1p(-self.rate)))


NO_LOSS = LossModel()


def as_queue_limits(queue_packets, queue_bytes, n: int, *, what: str = "link") -> tuple:
    """Per-link drop-tail limits as a scenario stores them: ``(queue_packets, queue_bytes)``.

    Each may be one value for every link or a sequence of ``n`` values, one per link; a sequence whose values
    are all equal is stored as that one value (so the scenario, and its key, are those of the same limit given
    once).  ``queue_packets``: an integer >= 1, or ``None`` for a link with a ``queue_bytes`` limit only;
    ``queue_bytes``: ``None`` (no byte limit: the default) or an integer >= 1.  ValueError naming the parameter
    and the link otherwise."""

    def per_link(name, value, allow_none):
        vals = list(value) if isinstance(value, (list, tuple, np.ndarray)) else [value] * n
        if len(vals) != n:
            raise ValueError(f"{name} must be one value or a sequence of {n} (one per {what}), got {value!r}")
        out = []
        for i, v in enumerate(vals):
            if v is None and allow_none:
                out.append(None)
                continue
            label = name if not isinstance(value, (list, tuple, np.ndarray)) else f"{name}[{i}]"
            out.append(check_int(label, v, minimum=1))
        return out

    qp = per_link("queue_packets", queue_packets, allow_none=True)
    qb = per_link("queue_bytes", queue_bytes, allow_none=True)
    for i, (p, b) in enumerate(zip(qp, qb)):
        if p is None and b is None:
            raise ValueError(f"queue_packets must be an integer >= 1 for {what} {i}, which has no queue_bytes either "
                             f"(a drop-tail queue needs a limit)")

    def pack(vals):
        return vals[0] if len(set(vals)) == 1 else tuple(vals)

    return pack(qp), pack(qb)


def queue_limit_of(value, i: int):
    """Link ``i``'s limit from a scenario's ``queue_packets`` / ``queue_bytes`` (one value or one per link)."""
    return value[i] if isinstance(value, tuple) else value


def _as_loss(value, n: int) -> tuple[LossModel, ...]:
    if value is None:
        return (NO_LOSS,) * n
    if isinstance(value, LossModel):
        return (value,) * n
    msg = (f"loss must be a LossModel or a sequence of {n} LossModel (one per link), e.g. "
           f"LossModel('packet', 0.01) for 1 % packet loss (rate in [0, 1)), got {value!r}")
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise ValueError(msg)  # a bare number or name: which unit is meant is not said
    losses = tuple(value)
    if len(losses) != n or not all(isinstance(x, LossModel) for x in losses):
        raise ValueError(msg)
    return losses


def data_packet_bytes(segment_bytes: int, options, *, tunnel: bool = False) -> int:
    """Bytes of a data segment of ``segment_bytes`` on the wire: payload + TCP/IP (+ timestamps,
    as ``options`` says) + PPP, + the tunnel's IP/UDP header with ``tunnel``."""
    size = segment_bytes + IPV4_HEADER_BYTES + TCP_HEADER_BYTES + PPP_HEADER_BYTES
    if options.timestamps:
        size += TIMESTAMP_OPTION_BYTES
    if tunnel:
        size += IPV4_HEADER_BYTES + UDP_HEADER_BYTES
    return size


def ack_packet_bytes(options, sack_blocks: int = 0, *, tunnel: bool = False) -> int:
    """Bytes of a pure ACK on the wire.

    TCP options are padded *together* to a multiple of 4 bytes, as ns-3's ``TcpHeader``
    serialises them: timestamps (10 bytes) and a SACK option (2 + 8 per block) take
    ``12 + 8 k`` bytes together; a SACK option alone ``2 + 8 k`` padded to 4; timestamps
    alone 12.
    """
    size = IPV4_HEADER_BYTES + TCP_HEADER_BYTES + PPP_HEADER_BYTES
    opts = 10 if options.timestamps else 0
    if sack_blocks:
        opts += 2 + 8 * sack_blocks
    size += 4 * ((opts + 3) // 4)
    if tunnel:
        size += IPV4_HEADER_BYTES + UDP_HEADER_BYTES
    return size


@dataclass(frozen=True)
class StripedScenario(KeyedScenario):
    """One bulk transfer over ``n`` links (Song Fig. 5 when ``tunnel=True``).

    Build it with :func:`striped_scenario`, which validates and converts its arguments.
    Fields: ``bandwidths_bps``, ``rtts_s`` (round-trip propagation delays, see the module docstring),
    ``transfer_bytes``, ``segment_bytes`` (TCP payload per segment), ``initial_window_bytes``,
    ``ssthresh_bytes``, ``m_ack`` (delayed-ACK count), ``queue_packets`` (drop-tail limit of
    each link's transmit queue, per direction: one value, or one per link), ``queue_bytes`` (``None``, or
    a limit in bytes, one value or one per link: :func:`as_queue_limits`), ``loss`` (one :class:`LossModel` per link),
    ``tunnel`` (UDP/IP encapsulation by the round-robin virtual device; required for more
    than one link), ``options`` (:class:`TcpOptions`), ``seed`` and ``max_sim_time_s`` (a
    run that has not finished by then stops and reports ``completed=False``).
    """

    bandwidths_bps: tuple
    rtts_s: tuple
    transfer_bytes: int
    segment_bytes: int = 536
    initial_window_bytes: int = 536
    ssthresh_bytes: int = 65535
    m_ack: int = 2
    queue_packets: int | tuple | None = 100
    loss: tuple = ()
    tunnel: bool = True
    options: TcpOptions = field(default_factory=TcpOptions)
    seed: int = 0
    max_sim_time_s: float = 36_000.0
    queue_bytes: int | tuple | None = None

    @property
    def n_links(self) -> int:
        return len(self.bandwidths_bps)

    @property
    def delays_s(self) -> tuple:
        """Deprecated alias of :attr:`rtts_s` (round-trip propagation delays, s)."""
        return self.rtts_s

    def one_way_delays_s(self) -> np.ndarray:
        """Forward one-way propagation delay of each link (s): ``d/2``, or ``d`` with ``ack_path="ideal"``."""
        d = np.asarray(self.rtts_s, dtype=float)
        return d if self.options.ack_path == "ideal" else d / 2.0

    def ack_links(self) -> tuple[int, ...] | None:
        """0-based links the ACKs return over, in round-robin order; ``None`` for the ideal path."""
        path = self.options.ack_path
        if path == "ideal":
            return None
        if path == "round_robin":
            return tuple(range(self.n_links))
        if path == "first":
            return (0,)
        return (int(np.argmin(self.rtts_s)),)  # fastest

    def data_packet_bytes(self) -> int:
        """Bytes of one full data segment on the wire (payload + TCP/IP (+ timestamps) + tunnel + PPP)."""
        return data_packet_bytes(self.segment_bytes, self.options, tunnel=self.tunnel)

    def ack_packet_bytes(self, sack_blocks: int = 0) -> int:
        """Bytes of a pure ACK on the wire (:func:`ack_packet_bytes`)."""
        return ack_packet_bytes(self.options, sack_blocks, tunnel=self.tunnel)

    def to_dict(self) -> dict:
        """Plain, JSON-serialisable description (the sweep cache keys on it)."""
        out = dataclasses.asdict(self)
        out["options"] = _options_dict(out["options"])
        if out["queue_bytes"] is None:
            del out["queue_bytes"]  # a field added later is left out at its default (old keys hold)
        out["bandwidths_bps"] = [float(x) for x in self.bandwidths_bps]
        # the key keeps the field's old name, in place: scenario keys (and cached results) stay what they were
        return {("delays_s" if k == "rtts_s" else k): ([float(x) for x in v] if k == "rtts_s" else v)
                for k, v in out.items()}

    def _changes(self, changes: dict) -> dict:
        # ``options`` may be a dict of option changes; ``delays_s`` is the deprecated name of ``rtts_s``
        return scenario_changes(self, changes, "StripedScenario.replace")

    @classmethod
    def _rebuild(cls, fields: dict) -> "StripedScenario":
        return striped_scenario(**fields)


def striped_scenario(bandwidths_bps, rtts_s=None, *, transfer_bytes, segment_bytes=536, initial_window_bytes=536,
                     ssthresh_bytes=65535, m_ack=2, queue_packets=100, loss=None, tunnel=True, options=None,
                     seed=0, max_sim_time_s=36_000.0, queue_bytes=None, **option_changes) -> StripedScenario:
    """Validate the arguments and build a :class:`StripedScenario`.

    ``rtts_s``: round-trip propagation delays (s), one per link (``delays_s=``: deprecated name).

    ``options`` is a :class:`TcpOptions`, a preset name from :data:`PRESETS`, or ``None``
    (the defaults); any extra keyword is a :class:`TcpOptions` field applied on top, e.g.
    ``striped_scenario(..., sack=True, ack_path="ideal")``.  Errors name the parameter.
    """
    rtts_s = round_trips(rtts_s, option_changes, "striped_scenario")
    b = real_array("bandwidths_bps", bandwidths_bps)
    d = real_array("rtts_s", rtts_s)
    if b.size != d.size:
        raise ValueError(f"bandwidths_bps and rtts_s must have the same length (one per link), "
                         f"got {b.size} and {d.size}")
    if np.any(b <= 0):
        raise ValueError(f"bandwidths_bps must be > 0 (bit/s), got {b.tolist()}")
    if np.any(d < 0):
        raise ValueError(f"rtts_s must be >= 0 (round-trip seconds), got {d.tolist()}")
    check_durations_s("rtts_s", d)
    seg = check_int("segment_bytes", segment_bytes, minimum=1, maximum=65_000)
    E = check_int("transfer_bytes", transfer_bytes, minimum=1)
    check_work("transfer_bytes", -(-E // seg), f"<= {MAX_SEGMENTS * seg:,} bytes with segment_bytes = {seg}")
    iw = check_int("initial_window_bytes", initial_window_bytes, minimum=1)
    if iw < seg:
        raise ValueError(f"initial_window_bytes must be >= segment_bytes ({seg}), got {iw}")
    ss = check_int("ssthresh_bytes", ssthresh_bytes, minimum=1)
    m = check_int("m_ack", m_ack, minimum=1, maximum=64)
    q, qb = as_queue_limits(queue_packets, queue_bytes, b.size)
    check_bool("tunnel", tunnel)
    if b.size > 1 and not tunnel:
        raise ValueError("tunnel must be True for more than one link (striping needs the round-robin tunnel)")
    if options is None:
        opts = TcpOptions()
    elif isinstance(options, str):
        opts = options_preset(options)
    elif isinstance(options, TcpOptions):
        opts = options
    else:
        raise ValueError(f"options must be a TcpOptions, a preset name {sorted(PRESETS)} or None, got {options!r}")
    if option_changes:
        opts = opts.replace(**option_changes)
    sd = check_int("seed", seed, minimum=0)
    tmax = check_duration_s("max_sim_time_s", max_sim_time_s)
    sc = StripedScenario(bandwidths_bps=tuple(float(x) for x in b), rtts_s=tuple(float(x) for x in d),
                         transfer_bytes=E, segment_bytes=seg, initial_window_bytes=iw, ssthresh_bytes=ss,
                         m_ack=m, queue_packets=q, loss=_as_loss(loss, b.size), tunnel=bool(tunnel),
                         options=opts, seed=sd, max_sim_time_s=tmax, queue_bytes=qb)
    check_min_rate("bandwidths_bps", b, sc.data_packet_bytes(), tmax)
    return sc


@dataclass
class TransferResult:
    """What one simulated transfer returns, from either simulator.

    ``throughput_bps`` is ``transfer_bytes * 8 / completion_time_s`` (NaN when the run did
    not complete).  Counters: data segments sent (including retransmissions),
    retransmissions, fast retransmits (entries into fast recovery), retransmission
    timeouts, and ``spurious_retransmissions`` (retransmitted segments the receiver already
    held, when the simulator can tell).  ``traces`` holds optional tidy DataFrames
    (``"cwnd"``, ``"packets"``, …) when the run was asked to record them.
    """

    simulator: str
    scenario: StripedScenario
    completed: bool
    completion_time_s: float
    data_segments_sent: int = 0
    retransmissions: int = 0
    fast_retransmits: int = 0
    timeouts: int = 0
    spurious_retransmissions: int = -1
    wall_time_s: float = float("nan")
    traces: dict = field(default_factory=dict, repr=False)
    extra: dict = field(default_factory=dict)

    @property
    def throughput_bps(self) -> float:
        if not self.completed or not self.completion_time_s > 0:
            return float("nan")
        return self.scenario.transfer_bytes * 8.0 / self.completion_time_s

    def to_row(self) -> dict:
        """One flat row: scenario key fields, options, and the results."""
        sc = self.scenario
        row = {"simulator": self.simulator, "n_links": sc.n_links, "transfer_bytes": sc.transfer_bytes,
               "completed": self.completed, "completion_time_s": self.completion_time_s,
               "throughput_bps": self.throughput_bps, "data_segments_sent": self.data_segments_sent,
               "retransmissions": self.retransmissions, "fast_retransmits": self.fast_retransmits,
               "timeouts": self.timeouts, "spurious_retransmissions": self.spurious_retransmissions,
               "wall_time_s": self.wall_time_s, "seed": sc.seed, "scenario_key": sc.key()}
        row.update({k: v for k, v in self.extra.items() if np.isscalar(v)})
        return row

    def to_frame(self) -> pd.DataFrame:
        """The one-row table form of :meth:`to_row`."""
        return pd.DataFrame([self.to_row()])
