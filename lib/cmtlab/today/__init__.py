"""Today's answers to the papers' problem (issue 21): CUBIC, RACK-TLP, BLEST, ECF and Linux's MPTCP
scheduler beside the papers' mechanisms.  Library side of the chapter; the mechanisms themselves
live in :mod:`cmtlab.sim.mechanisms`.

* :mod:`cmtlab.today.cubic_ns3` — :class:`cmtlab.sim.mechanisms.congestion.Cubic` against ns-3.44's
  ``TcpCubic`` on the same single-path scenarios.
"""
