"""Other implementations' versions of the mechanisms, each in one module.

* :mod:`~cmtlab.sim.models.chihani` — the Chihani–Collange ns-3 MPTCP model (2011) that Arabi
  et al. and Alheid et al. ran: its coupled congestion control, loss response, receiver and
  reordering responses (``variant="chihani"``, ``recovery="chihani"``, ``dupack_mode="chihani"``).
"""

from . import chihani  # noqa: F401  (registers the model's variants)
