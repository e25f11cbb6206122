"""An MPTCP transfer as data: :class:`MptcpScenario`, and :func:`mptcp_scenario`, which validates and builds one.

A scenario names everything a run needs — rates, round-trip delays, mechanism names and parameters, link
models, TCP options — so :mod:`cmtlab.sweep` can vary it and key its cache on it (:meth:`MptcpScenario.key`);
the multipath builder (:mod:`cmtlab.sim.multipath`) runs it.  :func:`mptcp_scenario` checks every argument
(errors name the parameter) and builds each mechanism and link model once through the registry, so a
scenario that exists can run.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import numpy as np

from ..._validate import check_choice, check_duration_s, check_durations_s, check_int, check_positive
from ...scenario import (MAX_SEGMENTS, PRESETS, KeyedScenario, TcpOptions, _as_loss, _options_dict, check_min_rate, check_work, options_preset, real_array, round_trips, scenario_changes, striped_scenario, as_queue_limits, queue_limit_of)
from .. import registry
from ..net.link import LinkModel
from ..net.rng import loss_rng
from .connection import RETRANSMIT_POLICIES


def _params(name: str, value) -> tuple:
    if value is None:
        return ()
    if isinstance(value, dict):
        items = value.items()
    else:
        try:
            items = [tuple(x) for x in value]
        except TypeError:
            raise ValueError(f"{name} must be a dict of keyword parameters, got {value!r}") from None
    out = []
    for kv in items:
        if len(kv) != 2 or not isinstance(kv[0], str):
            raise ValueError(f"{name} must be a dict of keyword parameters, got {value!r}")
        out.append((kv[0], kv[1]))
    return tuple(sorted(out))


@dataclass(frozen=True)
class MptcpScenario(KeyedScenario):
    """One MPTCP transfer (build it with :func:`mptcp_scenario`, which validates).

    ``rtts_s`` are round-trip propagation delays (one-way = half, each direction; ``delays_s`` is a
    deprecated alias, kept in :meth:`to_dict` so that scenario keys stay stable).
    Exactly one of ``transfer_bytes`` (run until the application holds them in order) and
    ``duration_s`` (run for that long) is set.  Mechanisms are registry names
    (:mod:`cmtlab.sim.registry`) with keyword parameters as sorted ``(name, value)`` tuples.
    ``links`` holds one ``(link model name, params)`` per path (registry kind ``"link"``; the
    model's :meth:`~cmtlab.sim.net.link.LinkModel.for_path` builds the path's access links), or
    is empty: point-to-point links everywhere.
    """

    bandwidths_bps: tuple
    rtts_s: tuple
    transfer_bytes: int | None = None
    duration_s: float | None = None
    congestion: str = "lia"
    congestion_params: tuple = ()
    scheduler: str = "round_robin"
    scheduler_params: tuple = ()
    reordering: str = "none"
    reordering_params: tuple = ()
    dupack_mode: str = "rfc"
    retransmit: str = "original"
    dss_bytes: int = 0
    receive_buffer_bytes: int = 131072
    segment_bytes: int = 536
    initial_window_bytes: int = 536
    ssthresh_bytes: int = 65535
    m_ack: int = 2
    queue_packets: int | tuple | None = 100
    loss: tuple = ()
    links: tuple = ()
    backbone_bps: float | None = None
    backbone_delay_s: float | None = None
    competing_flows: int = 0
    options: TcpOptions = field(default_factory=TcpOptions)
    seed: int = 0
    max_sim_time_s: float = 36_000.0
    queue_bytes: int | tuple | None = None

    @property
    def n_links(self) -> int:
        return len(self.bandwidths_bps)

    @property
    def n_subflows(self) -> int:
        return len(self.bandwidths_bps)

    @property
    def delays_s(self) -> tuple:
        """Deprecated alias of :attr:`rtts_s` (round-trip propagation delays, s)."""
        return self.rtts_s

    def to_dict(self) -> dict:
        # the key keeps the field's old name, in place: scenario keys (and cached results) stay what they were
        out = {("delays_s" if k == "rtts_s" else k): v for k, v in dataclasses.asdict(self).items()}
        out["options"] = _options_dict(out["options"])
        if out["queue_bytes"] is None:
            del out["queue_bytes"]  # a field added later is left out at its default (old keys hold)
        out["kind"] = "mptcp"
        return out

    _key_default = repr  # as the class always wrote its keys

    def _changes(self, changes: dict) -> dict:
        return scenario_changes(self, changes, "MptcpScenario.replace")

    @classmethod
    def _rebuild(cls, fields: dict) -> "MptcpScenario":
        return mptcp_scenario(**fields)


def mptcp_scenario(bandwidths_bps, rtts_s=None, *, transfer_bytes=None, duration_s=None, congestion="lia",
                   congestion_params=None, scheduler="round_robin", scheduler_params=None, reordering="none",
                   reordering_params=None, dupack_mode="rfc", retransmit="original", dss_bytes=0,
                   receive_buffer_bytes=None, segment_bytes=536, initial_window_bytes=536, ssthresh_bytes=65535,
                   m_ack=2, queue_packets=100, loss=None, links=None, backbone_bps=None, backbone_delay_s=None,
                   competing_flows=0, options=None, seed=0, max_sim_time_s=36_000.0, queue_bytes=None,
                   **option_changes) -> MptcpScenario:
    """Validate the arguments and build a :class:`MptcpScenario` (errors name the parameter).

    ``queue_packets`` / ``queue_bytes``: each path's drop-tail limits, one value for every path or one per
    path (:func:`cmtlab.scenario.as_queue_limits`); a backbone takes the one ``queue_packets`` of the scenario.

    ``links``: ``None`` (point-to-point links), a link model name, ``(name, params dict)``, or
    a list of those with one entry per path (e.g. ``"pareto_cross_traffic"`` of
    :mod:`cmtlab.sim.net.cross_traffic`, ``("wifi80211g", {"distance_m": 50})``).
    """
    rtts_s = round_trips(rtts_s, option_changes, "mptcp_scenario")
    b = real_array("bandwidths_bps", bandwidths_bps)
    d = real_array("rtts_s", rtts_s)
    if b.size != d.size:
        raise ValueError(f"bandwidths_bps and rtts_s must have the same length (one per subflow), "
                         f"got {b.size} and {d.size}")
    if np.any(b <= 0):
        raise ValueError(f"bandwidths_bps must be > 0 (bit/s), got {b.tolist()}")
    if np.any(d < 0):
        raise ValueError(f"rtts_s must be >= 0 (round-trip seconds), got {d.tolist()}")
    check_durations_s("rtts_s", d)
    if (transfer_bytes is None) == (duration_s is None):
        raise ValueError("exactly one of transfer_bytes (bytes) and duration_s (seconds) must be given, "
                         f"got transfer_bytes={transfer_bytes!r}, duration_s={duration_s!r}")
    E = check_int("transfer_bytes", transfer_bytes, minimum=1) if transfer_bytes is not None else None
    dur = check_duration_s("duration_s", duration_s) if duration_s is not None else None
    tmax = check_duration_s("max_sim_time_s", max_sim_time_s)
    for kind, name in (("congestion", congestion), ("scheduler", scheduler), ("reordering", reordering),
                       ("dupack_mode", dupack_mode)):
        registry.lookup(kind, name)  # ValueError listing the registered names
    check_choice("retransmit", retransmit, RETRANSMIT_POLICIES)
    dss = check_int("dss_bytes", dss_bytes, minimum=0, maximum=40)
    seg = check_int("segment_bytes", segment_bytes, minimum=1, maximum=65_000)
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
    if opts.ack_path not in ("round_robin", "first"):
        raise ValueError(f"ack_path must be 'round_robin' (each subflow's ACKs return on its own path) for an "
                         f"MPTCP connection, got {opts.ack_path!r}")
    rcvbuf = opts.receive_buffer_bytes if receive_buffer_bytes is None else receive_buffer_bytes
    rcvbuf = check_int("receive_buffer_bytes", rcvbuf, minimum=1)
    if rcvbuf < seg:
        raise ValueError(f"receive_buffer_bytes must be >= segment_bytes ({seg}), got {rcvbuf}")
    if min(opts.send_buffer_bytes, opts.receive_buffer_bytes) < seg:  # (what every subflow's sender refuses)
        raise ValueError(f"send_buffer_bytes and receive_buffer_bytes must be >= segment_bytes ({seg}) so that a "
                         f"segment can ever be sent, got {opts.send_buffer_bytes} and {opts.receive_buffer_bytes}")
    if backbone_bps is not None:
        backbone_bps = check_positive("backbone_bps", backbone_bps)
    if backbone_delay_s is not None:
        if backbone_bps is None:
            raise ValueError(f"backbone_delay_s needs backbone_bps (the backbone's rate, bit/s), got "
                             f"backbone_delay_s={backbone_delay_s!r} without a backbone")
        backbone_delay_s = check_duration_s("backbone_delay_s", backbone_delay_s, zero=True)
    comp = check_int("competing_flows", competing_flows, minimum=0, maximum=64)
    q, qb = as_queue_limits(queue_packets, queue_bytes, b.size, what="path")
    if backbone_bps is not None and (isinstance(q, tuple) or q is None or qb is not None):
        raise ValueError(f"queue_packets must be one integer and queue_bytes None with a backbone (its queue takes "
                         f"the scenario's one limit), got queue_packets={queue_packets!r}, queue_bytes={queue_bytes!r}")
    if E is not None:
        check_work("transfer_bytes", -(-E // seg) * (1 + comp),
                   f"<= {MAX_SEGMENTS // (1 + comp) * seg:,} bytes with segment_bytes = {seg} "
                   f"and {comp} competing flows")
    else:
        # a duration-limited run: what the paths can carry until the run ends
        rate = float(np.sum(b)) + comp * float(b[0])
        horizon = min(dur, tmax)
        check_work("duration_s", rate * horizon / 8 / seg,
                   f"<= {MAX_SEGMENTS * 8 * seg / rate:,.6g} s on these paths (segment_bytes = {seg})")
    losses = _as_loss(loss, b.size)
    path_links = _as_links(links, b.size)
    # the per-subflow TCP parameters are validated as a one-link striped scenario would be
    one = striped_scenario([b[0]], [d[0]], transfer_bytes=E or seg, segment_bytes=seg,
                     initial_window_bytes=initial_window_bytes, ssthresh_bytes=ssthresh_bytes, m_ack=m_ack,
                     queue_packets=queue_limit_of(q, 0) or 100, tunnel=False, options=opts, seed=seed,
                     max_sim_time_s=max_sim_time_s)
    check_min_rate("bandwidths_bps", b, one.data_packet_bytes() + dss, tmax)
    if backbone_bps is not None:
        check_min_rate("backbone_bps", backbone_bps, one.data_packet_bytes() + dss, tmax)
    sc = MptcpScenario(
        bandwidths_bps=tuple(float(x) for x in b), rtts_s=tuple(float(x) for x in d), transfer_bytes=E,
        duration_s=dur, congestion=congestion, congestion_params=_params("congestion_params", congestion_params),
        scheduler=scheduler, scheduler_params=_params("scheduler_params", scheduler_params),
        reordering=reordering, reordering_params=_params("reordering_params", reordering_params),
        dupack_mode=dupack_mode, retransmit=retransmit, dss_bytes=dss, receive_buffer_bytes=rcvbuf,
        segment_bytes=seg, initial_window_bytes=int(initial_window_bytes), ssthresh_bytes=int(ssthresh_bytes),
        m_ack=int(m_ack), queue_packets=q, queue_bytes=qb, loss=losses, links=path_links, backbone_bps=backbone_bps,
        backbone_delay_s=backbone_delay_s, competing_flows=comp, options=opts, seed=int(seed),
        max_sim_time_s=float(max_sim_time_s))
    _check_mechanisms(sc)
    return sc


def access_links(sc: MptcpScenario) -> list:
    """Each path's access links ``(forward, reverse)``, as the scenario's link models build them
    (:meth:`~cmtlab.sim.net.link.LinkModel.for_path`, one-way delay half the path's round trip):
    the multipath builder's links, and how :func:`mptcp_scenario` checks a link model's parameters."""
    models = sc.links or (("point_to_point", ()),) * sc.n_subflows
    # each path's queue limits (a byte limit is given only where there is one: every link model takes packets)
    return [registry.lookup("link", name).for_path(
                rate_bps=sc.bandwidths_bps[i], delay_s=sc.rtts_s[i] / 2.0,
                queue_packets=queue_limit_of(sc.queue_packets, i), loss=sc.loss[i], rng=loss_rng(sc.seed, i),
                seed=sc.seed, stream=i, **dict(params),
                **({} if queue_limit_of(sc.queue_bytes, i) is None else {"queue_bytes": queue_limit_of(sc.queue_bytes, i)}))
            for i, (name, params) in enumerate(models)]


def _check_mechanisms(sc: MptcpScenario) -> None:
    """What only the mechanisms and link models can check, checked when the scenario is made (a sweep fails
    when it is defined, not when it reaches the case): their parameters — each built once through the
    registry (:func:`cmtlab.sim.registry.make`; a link model through its ``for_path``) — and a reordering
    response's needs of the TCP options (:meth:`~cmtlab.sim.mechanisms.reordering.ReorderingResponse.check_options`:
    ``sack=True`` for D-SACK, ``timestamps=True`` for Eifel).  The order is the builder's (links, scheduler,
    congestion control, reordering response), so a scenario with several faults names the one it meets first."""
    access_links(sc)
    registry.make("scheduler", sc.scheduler, **dict(sc.scheduler_params))
    registry.make("congestion", sc.congestion, **dict(sc.congestion_params))
    reordering = registry.make("reordering", sc.reordering, **dict(sc.reordering_params))
    reordering.check_options(sc.options)



def _scenario_link_models() -> list:
    """Registered link models a scenario can name (those overriding :meth:`LinkModel.for_path`)."""
    base = LinkModel.for_path.__func__
    return [m for m in registry.names("link") if registry.lookup("link", m).for_path.__func__ is not base]


def _as_links(links, n: int) -> tuple:
    """Normalise ``links`` to one ``(name, sorted params tuple)`` per path (``()``: point-to-point)."""
    if links is None or (isinstance(links, (tuple, list)) and len(links) == 0):
        return ()
    if isinstance(links, (str, tuple)) and not (isinstance(links, tuple) and links and
                                               isinstance(links[0], (tuple, list))):
        links = [links] * n
    links = list(links)
    if len(links) != n:
        raise ValueError(f"links must give one link model per path ({n}), got {len(links)}")
    out = []
    for i, entry in enumerate(links):
        if isinstance(entry, str):
            name, params = entry, {}
        elif isinstance(entry, (tuple, list)) and len(entry) == 2 and isinstance(entry[0], str):
            name, params = entry[0], dict(entry[1] or {})
        else:
            raise ValueError(f"links[{i}] must be a link model name or (name, params dict), got {entry!r}")
        if name not in _scenario_link_models():
            raise ValueError(f"links[{i}] must name a link model with for_path, one of {_scenario_link_models()}, "
                             f"got {name!r}")
        out.append((name, _params(f"links[{i}] params", params)))
    if all(e == ("point_to_point", ()) for e in out):
        return ()
    return tuple(out)


__all__ = ["MptcpScenario", "mptcp_scenario", "access_links"]
