"""Congestion control: how the congestion window grows on ACKs and shrinks on loss.

Interface
---------
A :class:`CongestionControl` owns no state of its own by default; it reads and writes the
window of the *subflow* it is called for (a :class:`cmtlab.sim.tcp.TcpSender`: attributes
``cwnd`` and ``ssthresh`` in bytes, ``seg`` the segment size in bytes).  The sender calls

* :meth:`CongestionControl.increase_window` with the number of segments a new cumulative
  ACK acknowledged, in the states where the window may grow (ns-3's
  ``TcpCongestionOps::IncreaseWindow``);
* :meth:`CongestionControl.ssthresh` with the bytes in flight when it detects a loss
  (fast retransmit or retransmission timeout) to get the new slow-start threshold
  (``GetSsThresh``).  What happens to ``cwnd`` then is the loss-recovery algorithm's
  business (:mod:`cmtlab.sim.mechanisms.recovery`) or the timeout's (cwnd = 1 segment).

Coupled multipath congestion control lives here too (after :class:`NewReno`): one instance
per subflow, registered by name (``"uncoupled"``, ``"fully_coupled"``, ``"rtt_compensation"``,
``"lia"``, ``"olia"``), reading the other subflows' ``cwnd`` and ``srtt`` through
``sub.connection.subflows``; with ``sub.connection is None`` each is exactly NewReno.  See
:class:`CoupledCongestionControl` for the common frame and the units (bytes; RFC 6356's
``bytes_acked`` is ``segments_acked * sub.seg``).  The Chihani–Collange model's versions
(``variant="chihani"``) are their own classes in :mod:`cmtlab.sim.models.chihani`.

One file per algorithm: ``base.py`` (the interface), ``newreno.py``, ``coupled.py`` (the frame of
the coupled ones and RFC 6356's alpha), ``uncoupled.py``, ``fully_coupled.py``, ``lia.py``,
``rtt_compensation.py``, ``olia.py``; ``cubic.py`` (RFC 9438 CUBIC, per subflow, uncoupled), ``linux_reno.py`` (Reno counting
acknowledged segments, as Linux).
"""

from .base import CongestionControl
from .cubic import Cubic
from .linux_reno import LinuxReno
from .coupled import COUNTINGS, CoupledCongestionControl, _rtt_s, rfc6356_alpha  # noqa: F401
from .fully_coupled import FullyCoupled
from .lia import Lia
from .newreno import NewReno
from .olia import Olia
from .rtt_compensation import RttCompensation
from .uncoupled import Uncoupled

__all__ = ["CongestionControl", "NewReno", "COUNTINGS", "rfc6356_alpha", "CoupledCongestionControl", "Uncoupled",
           "FullyCoupled", "Lia", "RttCompensation", "Olia", "Cubic", "LinuxReno"]
