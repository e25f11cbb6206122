"""One run's lifecycle, the same for both topologies (:mod:`cmtlab.sim.striped`, :mod:`cmtlab.sim.multipath`).

A builder wires links, endpoints and the handlers of their events, and works out the connection set-up
(:func:`~cmtlab.sim.engine.handshake.setup`); a :class:`Run` then takes it through the same steps:

1. :meth:`Run.finish_handshake` — each flow's RTT estimator takes its SYN/SYN-ACK sample and the
   handshake's final ACK goes first on the flow's first data link (it delays the first data segment
   on that link by its serialisation time and takes one loss draw);
2. :meth:`Run.first_window` — the senders send their first window with every segment's start onto the
   wire noted: the earliest is the run's zero, as the completion clock starts when the first data
   segment starts onto the wire (no connection set-up in the completion time);
3. :meth:`Run.events` — the event loop (:func:`~cmtlab.sim.engine.loop.run_events`) until the transfer
   completes, a duration-limited run's duration ends, or a limit is reached: simulated time counted
   from the run's zero, an event budget;
4. the counters every result carries, whatever the topology: :meth:`Run.extra` (why and when the run
   stopped, its events and data segments), :meth:`Run.segments_per_second` and :meth:`Run.stamp`
   (the simulator's code version).
"""

from __future__ import annotations

import time

from .loop import StopReason, run_events


class Run:
    """The lifecycle of one run over the event ``queue``, starting at ``start_ns`` (<= 0: the connection
    set-up's end, :attr:`~cmtlab.sim.engine.handshake.Setup.start_ns`); wall-clock time counts from here."""

    def __init__(self, queue, start_ns: int):
        self.wall0 = time.perf_counter()
        self.queue = queue
        self.start_ns = start_ns
        self.t0_ns = 0  # the run's zero: the first data segment's start onto the wire (first_window)
        self.wall_s = float("nan")  # wall-clock seconds from the start to the end of the event loop (events)
        queue.order_ns = start_ns

    def finish_handshake(self, flows) -> None:
        """The end of the connection set-up, flow by flow: ``flows`` holds ``(sender, first data link, RTT
        sample ns, final ACK bytes)``; a flow whose sample is ``None`` (no set-up) is left alone."""
        start = self.start_ns
        for sender, link, rtt_ns, ack_bytes in flows:
            if rtt_ns is None:
                continue
            sender.rtt_sample(rtt_ns)
            link.handshake_ack(start, ack_bytes)

    def first_window(self, senders, wire_start_of, begin) -> int:
        """Run ``begin()`` — the senders' first window — with every segment's start onto the wire noted
        (``wire_start_of(f)`` after sender ``f`` sent one: the ``last_start_ns`` of the link it went on);
        the senders' ways out (``net_send``) are as before afterwards.  Returns the earliest start, the
        run's zero (:attr:`t0_ns`; 0 if nothing was sent)."""
        starts = []
        plain = [snd.net_send for snd in senders]
        for f, snd in enumerate(senders):
            def noted(now, k, nbytes, retx, _send=plain[f], _f=f):
                _send(now, k, nbytes, retx)
                starts.append(wire_start_of(_f))
            snd.net_send = noted
        begin()
        for snd, send in zip(senders, plain):
            snd.net_send = send
        self.t0_ns = min(starts) if starts else 0
        return self.t0_ns

    def events(self, *, max_sim_time_ns: int, budget: int, duration_ns: int | None = None
               ) -> tuple[StopReason, int, int]:
        """The event loop from the run's zero: at most ``max_sim_time_ns`` of simulated time (and, for a
        duration-limited run, ``duration_ns``) counted from it, at most ``budget`` events.  Returns
        ``(reason, now_ns, events)`` (:func:`~cmtlab.sim.engine.loop.run_events`)."""
        t0 = self.t0_ns
        out = run_events(self.queue, tmax_ns=t0 + max_sim_time_ns, budget=budget,
                         t_end_ns=t0 + duration_ns if duration_ns is not None else None)
        self.wall_s = time.perf_counter() - self.wall0
        return out

    @staticmethod
    def extra(stop: str, events: int, sim_time_s: float, segments: int) -> dict:
        """The first entries of every result's ``extra``: why the run stopped (a
        :class:`~cmtlab.sim.engine.loop.StopReason` value), its events, its simulated seconds from its zero,
        its data-level segments."""
        return {"stop_reason": stop, "events": events, "sim_time_s": sim_time_s, "segments": segments}

    def segments_per_second(self, segments_sent: int) -> float:
        """Data segments sent per wall-clock second of the run (NaN before :meth:`events`)."""
        return segments_sent / self.wall_s if self.wall_s > 0 else float("nan")

    @staticmethod
    def stamp(extra: dict) -> dict:
        """The last entry of every result's ``extra``: the simulator's code version (:mod:`cmtlab.sim.version`)."""
        from ..version import code_version  # (hashed once per process, when first asked)

        extra["code_version"] = code_version()
        return extra


__all__ = ["Run"]
