"""Arabi, Bozed, Zerek — the paper's numbers, quotes and set-ups, once (comparison targets and inputs, never
results): the two scenarios of sec. 4, its congestion controls and reordering algorithms, and :data:`CLAIMS`,
every claim of secs. 4–6 the book decides, in the paper's words and order.  The chapter's modules read them
from here."""

from __future__ import annotations

from ...report.claims import Claim, Registry

#: Sec. 4: rates (bit/s) and ONE-WAY propagation delays (s) per link.
SCENARIOS = {
    1: {"rates_bps": (5e6, 2e6), "one_way_delays_s": (0.100, 0.100)},
    2: {"rates_bps": (5e6, 2e6, 7e6), "one_way_delays_s": (0.100, 0.010, 0.050)},
}
#: The paper's congestion controls (sec. 3.1–3.4) as registered names.
PAPER_CONGESTION = ("uncoupled", "fully_coupled", "lia", "rtt_compensation")
#: The paper's reordering algorithms (sec. 3.6–3.8) as registered names.
REORDERING = ("none", "dsack", "eifel", "frto")

#: The congestion controls of the claim "Eifel improves only with two subflows" (sec. 6).
EIFEL_CLAIM_CONGESTION = ("uncoupled", "lia", "rtt_compensation")

#: The paper's numbers (secs. 5–6), comparison targets only: the best combination in scenario 2 and its
#: throughput ("about 10 Mbps"), and "40 less" read as a change of −40 % against no algorithm.
PAPER = {"best_s2": ("uncoupled", "dsack", 10e6), "frto_eifel_vs_none_s2": -0.40}
#: Fig. 8 is scenario 1 under LIA, Fig. 9 scenario 2 under uncoupled congestion control (sec. 5's text).
FIG8 = (1, "lia")
FIG9 = (2, "uncoupled")

_CHAPTER = "arabi-figs8-9-reordering-algorithms"
_SIM = "papers-sim"

#: The declared reading of the two Fig. 8 sentences (sec. 5) and the other one the chapter shows.
FIG8_READING = ("LIA against uncoupled congestion control, the same algorithm, scenario 1: the paragraph "
                "opens with \"when using the linked increases congestion control algorithm\" and ends with \"the "
                "same as when using uncoupled congestion control algorithm\", so what \"stays the same\" or \"is "
                "decreased\" is read against uncoupled; the other reading (each algorithm against no algorithm, "
                "both under LIA) is shown beside it with its verdict")

#: Every claim of the paper the book decides, once, in the paper's order (sec. 4, then 5, then 6).
CLAIMS = Registry("arabi", (
    Claim("sec4.scenario-1", "arabi", "scenario 1: two links, 5 and 2 Mbit/s, 100 ms each",
          "The first link with 5Mbps data rate and the second link with data rate of 2Mbps both links have a path "
          "delay of 100ms", "sec. 4", "set-up", "5 and 2 Mbit/s, 100 ms each", _SIM, _CHAPTER),
    Claim("sec4.scenario-2", "arabi", "scenario 2: three links, 5/2/7 Mbit/s, 100/10/50 ms",
          "The first link has a data rate of 5Mbps with delay of 100ms, the data rate of the second link is 2Mbps "
          "and the delay is 10ms and the third link has 7Mbps data rate with a delay of 50ms", "sec. 4", "set-up",
          "5/2/7 Mbit/s, 100/10/50 ms", _SIM, _CHAPTER),
    Claim("fig8.lia-dsack-same", "arabi", "Fig. 8 (LIA, scenario 1): DSACK's throughput stays the same",
          "It can be seen from Figure 8 that when using the linked increases congestion control algorithm the "
          "throughput of using DSACK stays the same", "sec. 5", "same", "DSACK: the same", _SIM, _CHAPTER,
          reading=FIG8_READING),
    Claim("fig8.lia-eifel-frto-decrease", "arabi",
          "Fig. 8 (LIA, scenario 1): Eifel and F-RTO decrease, no algorithm the same as uncoupled",
          "However, the throughput of both the Eifel and FRTO algorithms is decreased when they detects a spurious "
          "retransmission and the throughput when no packet reordering algorithm is used remains the same as when "
          "using uncoupled congestion control algorithm", "sec. 5", "cases",
          "Eifel, F-RTO lower; no algorithm the same", _SIM, _CHAPTER,
          cases=("Eifel decreases", "F-RTO decreases", "no algorithm: LIA the same as uncoupled"),
          reading=FIG8_READING),
    Claim("fig9.s2-uncoupled", "arabi",
          "Fig. 9 (uncoupled, scenario 2): higher, DSACK best at about 10 Mbit/s, F-RTO and Eifel 40 less",
          ("It can be seen that the throughput is increased and the best result is the throughput",
           "for DSACK as it reaches about 10 Mbps and the throughput of both FRTO and Eifel algorithms is 40 less "
           "than the one when no packet reordering algorithms have been used"), "sec. 5, Fig. 9", "cases",
          "higher than Fig. 8; DSACK best, about 10 Mbit/s; F-RTO, Eifel −40 %", _SIM, _CHAPTER,
          cases=("throughput higher than in Fig. 8", "DSACK the best algorithm", "DSACK about 10 Mbit/s",
                 "F-RTO 40 % less than no algorithm", "Eifel 40 % less than no algorithm"),
          reading="\"40 less\" (no unit printed) read as 40 % less than no algorithm; \"the throughput is "
                  "increased\" read as Fig. 9's throughput above Fig. 8's for every algorithm; decided on the "
                  "model's logged global throughput, the quantity the figure plots",
          headline=True),
    Claim("fig9.eifel-frto-no-improvement", "arabi", "Fig. 9: Eifel and F-RTO do not improve the connection",
          "As a result both the Eifel and FRTO do not improve the performance of the connection", "sec. 5",
          "cases", "not above no algorithm", _SIM, _CHAPTER, cases=("Eifel", "F-RTO"),
          reading="\"as a result\" of Fig. 9: scenario 2, uncoupled congestion control, against no algorithm"),
    Claim("sec6.dsack-rttc-good-not-best", "arabi", "scenario 1: DSACK + RTT compensation good, not the best",
          "It can be seen from all the graphs that a good results but is not the best can be obtained when using "
          "DSACK packet reordering algorithm with RTT compensation congestion control algorithm in the first "
          "scenario when using two subflows", "sec. 6", "cases", "good, not the best", _SIM, _CHAPTER,
          cases=("good: in the best quarter of the 16", "not the best"),
          reading="\"good\": among the best quarter (rank ≤ 4) of the 16 combinations of scenario 1, the upper half "
                  "partly; \"not the best\": not rank 1 (ties share the lower rank)"),
    Claim("sec6.eifel-two-subflows-only", "arabi",
          "Eifel improves only with two subflows (uncoupled, LIA, RTT compensation)",
          "The Eifel algorithm can improve the performance of the connection only when using two subflows with "
          "uncoupled, linked increases and RTT compensation congestion control algorithms", "sec. 6", "cases", "gain in scenario 1 with those three; none elsewhere", _SIM, _CHAPTER,
          cases=("scenario 1, uncoupled: improves", "scenario 1, LIA: improves",
                 "scenario 1, RTT compensation: improves", "only: scenario 1, fully coupled",
                 "only: scenario 2, uncoupled", "only: scenario 2, fully coupled", "only: scenario 2, LIA",
                 "only: scenario 2, RTT compensation"),
          reading="\"only\" read over both conditions: no gain with three subflows, and none with fully coupled "
                  "congestion control",
          headline=True),
    Claim("sec6.best-s2-dsack-uncoupled", "arabi", "scenario 2: the best is DSACK + uncoupled, about 10 Mbit/s",
          "The best throughput can be obtained in the scenario of three subflows is when using DSACK with uncoupled "
          "algorithm which is about 10Mbps", "sec. 6", "cases", "DSACK + uncoupled, about 10 Mbit/s", _SIM, _CHAPTER,
          cases=("DSACK + uncoupled the best of the 16 combinations", "about 10 Mbit/s"), headline=True),
    Claim("sec6.frto-drops-and-stays", "arabi",
          "F-RTO: rises, then drops after a detection and stays low",
          "The throughput of FRTO increases exponentially in each scenario however; when a spurious retransmission "
          "is detected it decreases and stays in the recovery state", "sec. 6", "cases",
          "drops after a detection, stays low", _SIM, _CHAPTER,
          cases=("increases exponentially (slow start)", "a spurious retransmission is detected",
                 "scenario 1, uncoupled: stays low", "scenario 1, fully coupled: stays low",
                 "scenario 1, LIA: stays low", "scenario 1, RTT compensation: stays low",
                 "scenario 2, uncoupled: stays low", "scenario 2, fully coupled: stays low",
                 "scenario 2, LIA: stays low", "scenario 2, RTT compensation: stays low"),
          reading="\"stays low\": F-RTO's throughput over the second half of each run below no algorithm's"),
    Claim("sec6.improve-none-optimal", "arabi", "the three algorithms improve the connection, none is optimal",
          "none of the three packet reordering algorithms is the optimal solution for the out of order packets in "
          "the MPTCP scenario, although they improve the performance of the connection", "sec. 6", "cases",
          "each improves; none optimal", _SIM, _CHAPTER,
          cases=("DSACK improves", "Eifel improves", "F-RTO improves", "none is optimal"),
          reading="an algorithm \"improves\" in a scenario × congestion control where it gains more than 5 % on no "
                  "algorithm, and does so in every one of the 8 (at least half: partly); \"none is optimal\": no "
                  "algorithm is the best in all 8"),
))


__all__ = ["SCENARIOS", "PAPER_CONGESTION", "REORDERING", "EIFEL_CLAIM_CONGESTION", "PAPER", "FIG8", "FIG9",
           "FIG8_READING", "CLAIMS"]
