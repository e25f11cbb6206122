"""The network: links, paths and random streams.

* :mod:`~cmtlab.sim.net.link` — :class:`~cmtlab.sim.net.link.LinkModel` (one direction of a link:
  serialisation, FIFO queue, propagation, random loss), point-to-point and ideal links;
* :mod:`~cmtlab.sim.net.wifi` — an 802.11g link whose directions share one medium;
* :mod:`~cmtlab.sim.net.cross_traffic` — links with Pareto on/off cross traffic and varying bit
  error rates (the path model of Wang et al., sec. 5.1);
* :mod:`~cmtlab.sim.net.trace_link` — a link whose rate is replayed from a measured trace
  (``"rate_trace"``: the public 5G / Starlink per-second rates);
* :mod:`~cmtlab.sim.net.jitter` — a point-to-point link with per-packet delay variation (``"jitter"``:
  reordering, as the testbed's delay line makes it);
* :mod:`~cmtlab.sim.net.delay_line` — the testbed's delay line (``"delay_line"``): its own random drops
  (before the queue) and delay variation, drawn from the very streams the testbed seeds, so that a
  simulated run and the kernel's run with the same seed lose the same packets;
* :mod:`~cmtlab.sim.net.topology` — paths as chains of links (shared bottlenecks);
* :mod:`~cmtlab.sim.net.rng` — ns-3's MRG32k3a streams (the loss draws agree with :mod:`cmtlab.ns3`).
"""
