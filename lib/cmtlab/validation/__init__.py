"""The simulator and its validation: the book's simulator against its references (layer 5: above the papers,
whose set-ups it reads, below today's transport).

* :mod:`.ns3` — :mod:`cmtlab.sim` against ns-3.44 (the chapter "cmtlab against ns-3");
* :mod:`.mptcp`, :mod:`.theory`, :mod:`.round_model` — MPTCP's coupled congestion control against
  RFC 6356's goals and their closed forms;
* :mod:`.papers_sim` — the papers' model presets against the papers' own simulator (:mod:`cmtlab.papers_sim`);
* :mod:`.kernel`, :mod:`.kernel_sim`, :mod:`.kernel_table`, :mod:`.kernel_figures` — the Linux kernel's
  MPTCP as reference (:mod:`cmtlab.testbed`): the chapter's tables and glued numbers, the simulator
  configured like the kernel, the comparison table, the figures;
* :mod:`.wifi` — the 802.11g link model against ns-3's Wi-Fi;
* :mod:`.tables` — the verdict tables of these chapters;
* :mod:`.parameters` — the allowed values of their notebooks' parameters.
"""
