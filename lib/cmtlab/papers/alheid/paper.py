"""Alheid, Doufexi, Kaleshi — the paper's numbers, quotes and set-ups, once (comparison targets and inputs, never
results): the set-up of sec. IV.A and Table II, Table I's two columns, the numbers of secs. V.A–V.B and
Tables III–IV, and the sentences the claims are read from.  The chapters' modules read them from here."""

from __future__ import annotations

#: Sec. IV.A.
SEGMENT_BYTES = 1400
BACKBONE_BPS = 100e6
BACKBONE_DELAY_S = 0.010
PHY_RATE_BPS = 54e6
OOO_BUFFER_BYTES = 10_000_000
DURATION_S = 50.0
N_SEEDS_PAPER = 30
#: Scenario 1 (Table II): distance to both APs; scenario 2: PDR of SF 2 at 10 m.
DISTANCES_M = tuple(range(10, 101, 10))
PDRS = tuple(round(0.001 * k, 4) for k in range(0, 10))
SCENARIO2_DISTANCE_M = 10.0

#: Table I of the paper (comparison targets only): delay difference (ms) → gain (%).
PAPER_LINUX_GAIN_PCT = {0: 94.0, 100: 89.0, 500: 23.0}
PAPER_NS3_GAIN_PCT = {0: 90.0, 100: 80.0, 500: 20.0}
DELTAS_MS = (0, 100, 500)

#: Sec. V.A (Fig. 4): TCP-DOOR's and PR-R's gThroughput gain over NoPR up to 50 m (%).
PAPER_GAIN_UP_TO_50M_PCT = 64.0
#: Sec. V.A: PR-R's and D-SACK's average gain over NoPR beyond 50 m (%).
PAPER_PRR_GAIN_BEYOND_50M_PCT = 50.0
PAPER_DSACK_GAIN_BEYOND_50M_PCT = 22.7
#: Sec. V (introduction): "maximum 5 Mbps" for single TCP over Wi-Fi (Mbit/s).
PAPER_SINGLE_TCP_MAX_INTRO_MBPS = 5.0
#: Sec. V.B: "the maximum throughput of a single TCP over one link", which NoPR does not exceed (Mbit/s).
PAPER_SINGLE_TCP_MAX_VB_MBPS = 15.0
#: Sec. V.B (Fig. 5): TCP-DOOR's gain over NoPR at PDR 0 and PR-R's average gain over the PDRs (%).
PAPER_TCPDOOR_GAIN_PDR0_PCT = 62.0
PAPER_PRR_GAIN_PDRS_PCT = 60.0
#: Sec. V.B: D-SACK's largest gThroughput over the PDRs (Mbit/s).
PAPER_DSACK_MAX_MBPS = 21.5
#: Table III (scenario 1, PDR 0): (distance m, solution) → (OOO-BO Kbyte, OOO-R %, LU %).
PAPER_TABLE3 = {
    (50, "NoPR"): (196, 5.8, 12.26), (50, "D-SACK"): (84, 12.5, 14.06), (50, "TCP-DOOR"): (145, 39.8, 19.43),
    (50, "PR-R"): (442, 42.8, 19.88), (70, "NoPR"): (77, 16.8, 9.76), (70, "D-SACK"): (106, 17.5, 9.67),
    (70, "TCP-DOOR"): (126, 24.8, 8.62), (70, "PR-R"): (252, 61.4, 13.69)}
#: Table IV (scenario 2, 10 m): (PDR of subflow 2, solution) → (OOO-BO Kbyte, OOO-R %, LU %).
PAPER_TABLE4 = {
    (0.001, "NoPR"): (128, 8.9, 14.82), (0.001, "D-SACK"): (106, 12.6, 19.38), (0.001, "TCP-DOOR"): (131, 22.1, 19.71),
    (0.001, "PR-R"): (513, 45.2, 23.67), (0.009, "NoPR"): (68, 11.7, 8.09), (0.009, "D-SACK"): (145, 9.0, 20.58),
    (0.009, "TCP-DOOR"): (152, 10.7, 14.89), (0.009, "PR-R"): (259, 57.9, 21.31)}

#: Sec. IV.A, quoted.
QUOTE_TABLE1 = ("the gThroughput of MPTCP using two disjoint SFs with equal bandwidths is 94% higher than the throughput "
                "of the single TCP would be on the best SF with no delay difference between SFs, and 23% higher when "
                "the delay difference is 500 ms")
QUOTE_NS3_CLOSE = "The NS-3 results are close to the Linux study as shown in Table I"
QUOTE_BUFFER = "The size of the OOO received buffer is set to be large (10 MB) to avoid its effect on the performance"
#: Sec. V.A, quoted.
QUOTE_GAIN_UP_TO_50M = ("both the TCP-DOOR and PR-R methods outperform others up to 50 m by providing a 64% improvement "
                        "in gThroughput")
QUOTE_BEYOND_50M = ("Beyond 50 m, PR-R is the best in terms of gThroughput by providing a 50% improvement on average, "
                    "compared to the NoPR, while D-SACK comes second with a 22.7% improvement on average")
QUOTE_SINGLE_TCP_INTRO = ("the performance of single TCP over Wi-Fi was also evaluated and found to be maximum 5 Mbps")
QUOTE_SINGLE_TCP_VB = ("The gThroughput measurements of the legacy MPTCP or NoPR do not exceed 15 Mbps, which is the "
                       "maximum throughput of a single TCP throughput over one link")


__all__ = ["SEGMENT_BYTES", "BACKBONE_BPS", "BACKBONE_DELAY_S", "PHY_RATE_BPS", "OOO_BUFFER_BYTES", "DURATION_S",
           "N_SEEDS_PAPER", "DISTANCES_M", "PDRS", "SCENARIO2_DISTANCE_M", "PAPER_LINUX_GAIN_PCT", "PAPER_NS3_GAIN_PCT",
           "DELTAS_MS", "PAPER_GAIN_UP_TO_50M_PCT", "PAPER_PRR_GAIN_BEYOND_50M_PCT", "PAPER_DSACK_GAIN_BEYOND_50M_PCT",
           "PAPER_SINGLE_TCP_MAX_INTRO_MBPS", "PAPER_SINGLE_TCP_MAX_VB_MBPS", "PAPER_TCPDOOR_GAIN_PDR0_PCT",
           "PAPER_PRR_GAIN_PDRS_PCT", "PAPER_DSACK_MAX_MBPS", "PAPER_TABLE3", "PAPER_TABLE4", "QUOTE_TABLE1",
           "QUOTE_NS3_CLOSE", "QUOTE_BUFFER", "QUOTE_GAIN_UP_TO_50M", "QUOTE_BEYOND_50M", "QUOTE_SINGLE_TCP_INTRO",
           "QUOTE_SINGLE_TCP_VB"]
