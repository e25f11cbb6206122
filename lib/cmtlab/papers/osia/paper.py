"""Wang, Liao, Li (OSIA) — the paper's numbers and set-ups, once (inputs, never results), and its claims
(:data:`CLAIMS`): Table 1's path sets, the paths and packets of secs. 5.1–5.2, the scheduling period and the
paper's schedulers.  The chapters' modules read them from here.

The paper simulated with OPNET 10.0.A and the authors' cmpSCTP (sec. 5.1), neither of which the book can run:
Figs. 7–9 are decided on this book's simulator (reference ``cmtlab.sim``, every such row says so); the analysis
of secs. 3–4 and Appendix A on the paper's own closed forms and theorems (reference ``model``), evaluated as
printed where the claim is the printed form, against an independent linear program, a per-packet timeline
and a Monte-Carlo of the RTO estimator.
"""

from __future__ import annotations

from ...report.claims import Claim, Registry

#: Table 1 of the paper: (rates in Mbit/s, propagation delays in ms) per number of paths.
TABLE1 = {
    1: ([4.0], [60.0]),
    2: ([3.0, 1.0], [40.0, 80.0]),
    3: ([2.0, 1.25, 0.75], [40.0, 80.0, 60.0]),
    4: ([1.25, 1.0, 1.0, 0.75], [40.0, 20.0, 100.0, 80.0]),
}
#: Sec. 5.4: "two, three, four, and five paths" (Table 1 lists one to four).
TEXT_PATH_COUNTS = (2, 3, 4, 5)
#: Sec. 5.4: "the overall bandwidth, summing the bandwidths of all paths, is equal to 4 Mbps".
TOTAL_RATE_MBPS = 4.0
#: The paper's schedulers (Figs. 7–9), as registered names.
PAPER_SCHEDULERS = ("round_robin", "cwnd_aware", "flow_level", "osia")
#: Sec. 5.2: path 1 of the two-path experiments (one-way delay, rate).
PATH1_DELAY_S = 0.050
PATH1_RATE_BPS = 1e6
#: TCP payload per packet (sec. 5.1, 1 KB).
SEGMENT_BYTES = 1000
#: "The scheduling periods of all schemes are set as 1 s."
SCHEDULING_PERIOD_S = 1.0
#: Sec. 5.1: the bit error rate's range and mean.
BER_RANGE = (1e-5, 1e-3)
BER_MEAN = 2e-5
#: Appendix A.1: the two-path threshold on g_22 for K = 4, and the rate ratio it gives.
PAPER_G22_THRESHOLD = 0.125
PAPER_RATE_RATIO = 7.0

FIGS3_5 = "osia-figs3-5-water-filling"
FIGS7_9 = "osia-figs7-9-scheduler-grids"


def _c(id_, title, quote, location, kind, target, chapter, **kw) -> Claim:
    reference = "model" if chapter == FIGS3_5 else "cmtlab.sim"
    return Claim(id_, "osia", title, quote, location, kind, target, kw.pop("reference", reference), chapter, **kw)


#: The paper's claims the book decides, once each, in the paper's order (cmtlab.report.claims).  Figs. 7–9
#: (reference ``cmtlab.sim``): the paper's OPNET/cmpSCTP cannot be run; the book's multipath simulator with the
#: path model of sec. 5.1 decides, without the bit errors (see ``sec5.1.ber``), and every row says so.
CLAIMS = Registry("osia", (
    _c("abstract.alleviates-reordering", "OSIA alleviates reordering and enhances performance",
       "Simulation results show that our scheme significantly alleviates reordering and enhances transmission "
       "performance",
       "abstract", "cases", "fewer 3-dupACK events and more goodput (Figs. 7–8)", FIGS7_9,
       cases=("reordering: 3-dupACK events (Fig. 7)", "transmission performance: goodput (Fig. 8)"),
       reading="against each of the three schedulers sec. 5.1 compares OSIA with (grid means): fewer events than "
               "the fewest of them, more goodput than the best of them, beyond the policy's 5 % no-change band; "
               "the alternative reading, against round robin only, is shown beside"),
    _c("sec3.2.theorem1", "Theorem 1: probabilistic scheduling with the start times of eq. 1 arrives in order",
       "The probabilistic scheduling ensures that the packets can arrive in order at receiver, if their sending "
       "times meet the following conditions",
       "sec. 3.2, Theorem 1", "yes/no", "in-order arrival", FIGS3_5,
       reading="the probabilistic faucets as the paper draws them (each packet of chunk h onto path i with "
               "probability g_ih), the chunks and start times in their consistent form; deterministic faucets "
               "(this book's OSIA) are shown beside"),
    _c("sec3.2.corollary1", "Corollary 1 (eq. 3): ST_i^h = ST_{i+1}^{h+1}",
       "we can infer a discipline that the time when the i th path starts to send packets of the h th chunk is the "
       "same as the time when the $i+1$ th path starts to send packets of the $h+1$ th chunk",
       "sec. 3.2, Corollary 1 (eq. 3)", "yes/no", "follows from Theorem 1", FIGS3_5),
    _c("sec3.3.pwf-solves", "PWF solves the optimisation problem of eqs. 5–6 in closed form",
       "we propose a “Progressive Water-Filling” (PWF) algorithm for solving the above optimization problem "
       "$AT(SP_N, t_x)$ directly",
       "sec. 3.3, eqs. 7–12", "computed", "eqs. 7–12 solve eqs. 5–6", FIGS3_5),
    _c("sec3.3.eq13", "Eq. 13: the chunk fraction f_h",
       "The fraction of the h th chunk filled into i buckets, is",
       "sec. 3.3, eq. 13", "computed", "f_h = Σ_{i≤h} b_i(d_{h+1}−d_i) / Σ_i b_i(d_N−d_i)", FIGS3_5, headline=True,
       reading="the equation as printed (the claim is the printed form); the errata's corrected form is shown "
               "beside"),
    _c("sec3.3.complexity", "The scheduling scheme costs O(N²)",
       "Using our approach, the scheduling scheme can be easily performed with $O(N^2)$ complexity, where N is the "
       "number of paths available",
       "sec. 3.3", "yes/no", "O(N²) in the number of paths", FIGS3_5,
       reading="the arithmetic operations of the closed form as printed (preprocessing, eqs. 11–13 and the start "
               "times of eq. 1, each sum evaluated as written) grow at most as N²"),
    _c("sec3.4.theorem2", "Theorem 2: no timeout caused by the path delay difference",
       "If (14) is satisfied, there is no timeout caused by the path delay difference",
       "sec. 3.4, Theorem 2", "yes/no", "no spurious timeout where eq. 14 (= eq. 22) holds", FIGS3_5,
       reading="the RTO estimator of eqs. 15–17 run packet by packet, as a TCP sender runs it, without a minimum "
               "RTO (the paper gives none); the averaged estimator of Appendix A's proof is shown beside"),
    _c("sec4.1.first-bucket", "Sec. 4.1: the first bucket's fraction f_1",
       "When a TCP-like flow is regulated by the first leaky bucket with a faucet at the first chunk, usually the "
       "special portion of traffic is conformed with (12) and (13)",
       "sec. 4.1", "computed", "f_1 = b_1(d_2−d_1) / Σ_{i=1}^{N−1} b_i(d_N−d_i)", FIGS3_5,
       reading="the fraction f_1 the sentence spells out; its “g_11 = f_1” read as the share of the flow the first "
               "bucket leaks to path 1 (g_11 = 1 by eq. 12)"),
    _c("sec4.1.second-bucket", "Sec. 4.1: the second bucket's f_2 and faucets g_12, g_22",
       ("Then, the remaining flow is redirected to the second leaky bucket with its ratio computed as",
        "while the probability that a packet is assigned to path 1 and 2 is"),
       "sec. 4.1", "cases", "f_2 = b_2(d_3−d_2)/Σ; g_12 = b_1/(b_1+b_2); g_22 = b_2/(b_1+b_2)", FIGS3_5,
       cases=("f_2", "g_12", "g_22")),
    _c("appendix-a.two-path-threshold", "Appendix A.1: two paths need g_22 > 0.125 (b_1 < 7 b_2)",
       "It forces us to set the value of g_{22} greater than 0.125, that is $b_1 < 7b_2$",
       "Appendix A (A.1, eqs. 22–25)", "computed", "g_22 > 0.125 (K = 4)", FIGS3_5,
       reading="the algebra the sentence rests on: eq. 22 at h = 2 (eqs. 23–25) with K = 4 and g_22 = b_2/(b_1+b_2) "
               "(eq. 12), evaluated in exact rational arithmetic; the averaged RTO of eqs. 19–21 run packet by "
               "packet (RFC 6298's deviation, and eq. 17 as printed) is shown beside, not deciding"),
    _c("appendix-a.eq28", "Appendix A.2: eq. 26 reduces to eq. 28",
       ("by taking into account", "(27) is shortened to"),
       "Appendix A (A.2, eq. 28)", "yes/no", "eq. 28 where r_2 > r̄", FIGS3_5),
    _c("appendix-a.eq29", "Appendix A.2: eq. 26 reduces to eq. 29",
       "similar to above simplification, we can reduce (26) to",
       "Appendix A (A.2, eq. 29)", "yes/no", "eq. 29 (g_33 > 1/(2K)) where r_2 < r̄", FIGS3_5),
    _c("appendix-a.eqs30-31", "Appendix A.2: the bounds of eqs. 30–31",
       "Considering (13) and (15), the inequality of (14) can be restated as",
       "Appendix A (A.2, eqs. 30–31)", "cases", "bounds on g_23 (eq. 30) and g_13 (eq. 31)", FIGS3_5,
       cases=("eq. 30", "eq. 31")),
    _c("sec5.1.cross-traffic", "Path model: Pareto on-off cross traffic",
       "Our cross-traffic in each path is generated according to a Pareto process with an on-off period that takes "
       "value in the range [10 ms, 1 s]",
       "sec. 5.1", "set-up", "Pareto on-off, periods in [10 ms, 1 s]", FIGS7_9),
    _c("sec5.1.ber", "Path model: the varying bit error rate",
       "The bit error rate on a link dynamically changes within the range between 1×10^{-3} to 1×10^{-5} (with the "
       "average of 2×10^{-5}), and all links have the same bit error rate",
       "sec. 5.1", "set-up", "BER in [1e-5, 1e-3], mean 2e-5", FIGS7_9),
    _c("sec5.1.packet-size", "Path model: 1 KB MTU, packets of “1 kb”",
       "The path Maximum Transmission Unit (MTU) at each path is 1 Kbytes, and the packet size is 1 kb",
       "sec. 5.1", "set-up", "MTU 1 Kbytes, packet 1 kb", FIGS7_9,
       reading="1000-byte packets (the MTU); “1 kb” read as 1 kilobyte (1000-bit packets shown beside)"),
    _c("sec5.2.path1", "Figs. 7–8 grid: path 1 at 50 ms and 1 Mbit/s",
       "we assume that the average delay and the bandwidth of path 1 are fixed to 50 ms and 1 Mbps, respectively",
       "sec. 5.2", "set-up", "path 1: 50 ms, 1 Mbit/s; D2/D1 × BW2/BW1 varied", FIGS7_9),
    _c("sec5.2.rr-many-events", "Fig. 7(a): round robin causes many events, nearly independent of the delays",
       "Although round robin data is simple, it causes a lot of 3 dupACKs events when the paths have different "
       "characteristics, while the number of 3 dupACKs events is nearly independent of the delays of the paths",
       "sec. 5.2, Fig. 7(a)", "cases", "many events; nearly independent of D2/D1", FIGS7_9,
       cases=("a lot of events", "nearly independent of the delays"),
       reading="“a lot” read as the most of the four schedulers in each cell where the paths differ; “nearly "
               "independent” as: round robin's events vary less than half as much along D2/D1 as along BW2/BW1"),
    _c("sec5.2.cwnd-lessens", "Fig. 7(b): CWND-aware scheduling lessens the 3-dupACK events",
       "As can be observed, the CWND-aware scheduling can lessen the occurring of 3 dupACKs, which exploits the "
       "knowledge of the CWND",
       "sec. 5.2, Fig. 7(b)", "trend", "fewer events than round robin", FIGS7_9),
    _c("sec5.2.flow-osia-comparable", "Fig. 7(c–d): flow-level and OSIA comparable",
       "comparing the simulation results of Fig. 7(c) and (d), we can see that the performance of flow-level and "
       "OSIA scheme are comparable",
       "sec. 5.2, Fig. 7(c–d)", "same", "comparable (ratio 1)", FIGS7_9),
    _c("sec5.2.osia-prevents", "Fig. 7(d): OSIA considerably prevents the reordering events",
       "Clearly, the packet reordering events are considerably prevented by our OSIA scheduling scheme, which fully "
       "exploits the available resources",
       "sec. 5.2, Fig. 7(d)", "yes/no", "OSIA has the fewest 3-dupACK events", FIGS7_9, headline=True,
       reading="in each cell of Fig. 7's grid OSIA has the fewest 3-dupACK events of the four schedulers (the "
               "figure compares them cell by cell); the alternative, fewer than round robin, is shown beside"),
    _c("sec5.3.rr-slow", "Fig. 8(a): round robin's goodput increases much slow",
       "According to Fig. 8(a), the aggregate goodput obtained by Round-Robin scheduling scheme (Saadawi and Lee, "
       "2004) increases much slow, due to a mass number of unnecessary fast retransmissions",
       "sec. 5.3, Fig. 8(a)", "trend", "the lowest goodput", FIGS7_9,
       reading="“increases much slow” read as: round robin's mean goodput is below that of each other scheduler, "
               "beyond the 5 % no-change band"),
    _c("sec5.3.cwnd-different-delays", "Fig. 8(b): CWND-aware loses goodput when the delays differ",
       "However, it reduces the end-to-end goodput when the paths have different delays",
       "sec. 5.3, Fig. 8(b)", "trend", "lower goodput at different delays", FIGS7_9,
       reading="CWND-aware's goodput relative to the mean of the four schedulers, at the largest D2/D1 against "
               "D2/D1 = 1 (the paths' delays equal)"),
    _c("sec5.3.flow-level-hurt", "Fig. 8(c): flow-level's poor split hurts its goodput",
       "Figure 8(c) shows that the poor accuracy of flow splitting in the flow-level scheduling can hurt the network "
       "goodput",
       "sec. 5.3, Fig. 8(c)", "trend", "lower goodput than OSIA", FIGS7_9,
       reading="“hurt” against OSIA, the scheme the next sentences set it against (“Our scheme … on the other "
               "hand”)"),
    _c("sec5.3.osia-succeeds", "Fig. 8(d): OSIA succeeds in splitting a TCP-like flow",
       "It is worth noting here that our OSIA scheduling scheme succeeds in splitting a TCP-like flow among "
       "multiple paths with different available bandwidth and delay",
       "sec. 5.3, Fig. 8(d)", "yes/no", "succeeds where bandwidth and delay differ", FIGS7_9,
       reading="in each cell where the paths differ, OSIA's goodput is not below the best of the other three "
               "schedulers by more than the 5 % no-change band (the paper does not say “best”; the strict "
               "reading, the highest goodput in each cell, is shown beside)"),
    _c("sec5.4.path-counts", "Fig. 9 set-up: two to five paths, Table 1",
       "we run a set of simulations with two nodes connected by two, three, four, and five paths",
       "sec. 5.4, Table 1", "set-up", "2–5 paths (text); 1–4 paths (Table 1)", FIGS7_9,
       reading="Table 1's one to four paths (the text's five paths have no row in Table 1)"),
    _c("sec5.4.rr-smallest", "Fig. 9: round robin's goodput is the smallest",
       "According to Fig. 9, the aggregate goodput obtained by Round-Robin scheduling scheme is the smallest",
       "sec. 5.4, Fig. 9", "cases", "the smallest", FIGS7_9, cases=("2 paths", "3 paths", "4 paths")),
    _c("sec5.4.cwnd-flow-reduced", "Fig. 9: CWND-aware and flow-level fall as paths are added",
       "With the increase of number of paths, the goodput gained by CWND-aware and Flow-level scheduling gets "
       "reduced",
       "sec. 5.4, Fig. 9", "cases", "gets reduced", FIGS7_9, cases=("CWND-aware", "flow-level"),
       reading="goodput on Table 1's four paths against two paths, beyond the 5 % no-change band"),
    _c("sec5.4.osia-80ms", "Fig. 9: OSIA splits over paths 80 ms apart without hurting goodput",
       "Second, OSIA scheduling scheme can split the same flow among multiple paths whose one-way delays are "
       "different by as much as 80 ms, without hurting the overall goodput",
       "sec. 5.4, Fig. 9", "same", "goodput not hurt by more paths", FIGS7_9, headline=True,
       reading="OSIA's lowest goodput on Table 1's two to four paths against its goodput on the one path of the "
               "same 4 Mbit/s, with the policy's same-band (a gain also holds)"),
))


def table1_paths(n_paths: int):
    """``(rates_bps, delays_s)`` of Table 1 for 1…4 paths (the paper's inputs, not results)."""
    if n_paths not in TABLE1:
        raise ValueError(f"n_paths must be one of {sorted(TABLE1)} (Table 1), got {n_paths!r}")
    rates, delays = TABLE1[n_paths]
    return [r * 1e6 for r in rates], [d / 1e3 for d in delays]


__all__ = ["CLAIMS", "TABLE1", "TEXT_PATH_COUNTS", "TOTAL_RATE_MBPS", "PAPER_SCHEDULERS", "PATH1_DELAY_S",
           "PATH1_RATE_BPS", "SEGMENT_BYTES", "SCHEDULING_PERIOD_S", "BER_RANGE", "BER_MEAN", "PAPER_G22_THRESHOLD",
           "PAPER_RATE_RATIO", "FIGS3_5", "FIGS7_9", "table1_paths"]
