"""Arabi, Bozed, Zerek — the paper's numbers, quotes and set-ups, once (comparison targets and inputs, never
results): the two scenarios of sec. 4, its congestion controls and reordering algorithms, and the sentences
of secs. 5–6 its claims are read from.  The chapter's modules read them from here."""

from __future__ import annotations

#: Sec. 4: rates (bit/s) and ONE-WAY propagation delays (s) per link.
SCENARIOS = {
    1: {"rates_bps": (5e6, 2e6), "one_way_delays_s": (0.100, 0.100)},
    2: {"rates_bps": (5e6, 2e6, 7e6), "one_way_delays_s": (0.100, 0.010, 0.050)},
}
#: The paper's congestion controls (sec. 3.1–3.4) as registered names.
PAPER_CONGESTION = ("uncoupled", "fully_coupled", "lia", "rtt_compensation")
#: The paper's reordering algorithms (sec. 3.6–3.8) as registered names.
REORDERING = ("none", "dsack", "eifel", "frto")

#: The congestion controls of the claim "Eifel improves only with two subflows" (sec. 5).
EIFEL_CLAIM_CONGESTION = ("uncoupled", "lia", "rtt_compensation")

#: Sec. 5 and 6 of the paper, quoted (the figures themselves are not in the text).
QUOTE_FIG8 = ("when using the linked increases congestion control algorithm the throughput of using DSACK stays the "
              "same. However, the throughput of both the Eifel and FRTO algorithms is decreased when they detects a "
              "spurious retransmission and the throughput when no packet reordering algorithm is used remains the same "
              "as when using uncoupled congestion control algorithm")
QUOTE_FIG9 = ("the best result is the throughput for DSACK as it reaches about 10 Mbps and the throughput of both FRTO "
              "and Eifel algorithms is 40 less than the one when no packet reordering algorithms have been used")
QUOTE_BEST = ("The best throughput can be obtained in the scenario of three subflows is when using DSACK with uncoupled "
              "algorithm which is about 10Mbps")
QUOTE_EIFEL = ("The Eifel algorithm can improve the performance of the connection only when using two subflows with "
               "uncoupled, linked increases and RTT compensation congestion control algorithms")
QUOTE_RANK = ("a good results but is not the best can be obtained when using DSACK packet reordering algorithm with RTT "
              "compensation congestion control algorithm in the first scenario when using two subflows")
QUOTE_FRTO = ("The throughput of FRTO increases exponentially in each scenario however; when a spurious retransmission "
              "is detected it decreases and stays in the recovery state")
QUOTE_NONE_OPTIMAL = ("none of the three packet reordering algorithms is the optimal solution for the out of order "
                      "packets in the MPTCP scenario, although they improve the performance of the connection")

#: The paper's statements (sec. 5–6), comparison targets only.
PAPER = {"best_s2": ("uncoupled", "dsack", 10e6), "frto_eifel_vs_none_s2": -0.40}


__all__ = ["SCENARIOS", "PAPER_CONGESTION", "REORDERING", "EIFEL_CLAIM_CONGESTION", "QUOTE_FIG8", "QUOTE_FIG9",
           "QUOTE_BEST", "QUOTE_EIFEL", "QUOTE_RANK", "QUOTE_FRTO", "QUOTE_NONE_OPTIMAL", "PAPER"]
