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


# ------------------------------------------------------------------------------------------------ the claims
from ...report.claims import Claim, Registry  # noqa: E402  (the registry below; the numbers above stay plain)

#: The chapters that decide Alheid's claims (notebook stems).
TABLE1 = "alheid-table1-mptcp-gain"
FIG4 = "alheid-fig4-table3-distance"
FIG5 = "alheid-fig5-table4-pdr"
FIG6 = "alheid-fig6-cwnd"
#: Table I is decided on the papers' simulator (ns-3.7 + the Chihani–Collange model, two disjoint point-to-point
#: subflows of equal bandwidth: the paper does not say over which links its Table I ran).  Figs. 4–6 and Tables III–IV ran over 802.11g in
#: the paper: the papers' model over ns-3.7's Wi-Fi (``papers-sim-wifi``) decides where its rows are recorded
#: (:func:`cmtlab.papers.alheid.papers_sim.wifi_recorded`), until then the point-to-point stand-in
#: (``papers-sim-p2p``, every row says so).  The book's own Wi-Fi imitation (``cmtlab.sim``, preset "paper") is a
#: reference column, never counted.  (:func:`figs_reference`)
WIFI_PLANS = {FIG4: "alheid-fig4", FIG5: "alheid-fig5", FIG6: "alheid-fig6-cwnd"}


def _wifi_recorded_plans() -> set:
    """The plans recorded on the papers' model over Wi-Fi (``data/papers-sim/wifi/provenance.json``; read, not
    checked: the chapters check every CSV against its SHA-256 when they load it)."""
    import json

    from ...papers_sim.wifi_record import PROVENANCE

    try:
        return set(json.loads(PROVENANCE.read_text()).get("sets", {})) if PROVENANCE.is_file() else set()
    except (OSError, ValueError):
        return set()


def figs_reference(chapter: str) -> str:
    """The deciding reference of a Figs. 4–6 chapter: ``papers-sim-wifi`` where its plan is recorded, else
    ``papers-sim-p2p``."""
    return "papers-sim-wifi" if WIFI_PLANS[chapter] in _wifi_recorded_plans() else "papers-sim-p2p"

#: "delay difference" (Table I): read as a difference of the round-trip times; the one-way reading beside.
DELAY_READING = ("“delay difference” read as the difference of the two paths' round-trip times (the RTT reading); "
                 "the one-way reading is shown beside with its verdict")


def _c(id_, title, quote, location, kind, target, chapter, **kw) -> Claim:
    reference = kw.pop("reference", "papers-sim" if chapter == TABLE1 else figs_reference(chapter))
    return Claim(id_, "alheid", title, quote, location, kind, target, reference, chapter, **kw)


#: Alheid et al.'s claims the book decides, once each, in the paper's order (cmtlab.report.claims).
CLAIMS = Registry("alheid", (
    _c("sec4a.buffer-10mb", "a 10 MB out-of-order buffer, large enough not to matter",
       QUOTE_BUFFER, "sec. IV.A", "set-up", "10 MB, no effect on the results", TABLE1),
    _c("sec4a.ns3-close-to-linux", "Table I: the NS-3 gains (90 / 80 / 20 %), close to Linux",
       QUOTE_NS3_CLOSE, "sec. IV.A, Table I", "measured", "NS-3 column: 90 / 80 / 20 % at Δ = 0 / 100 / 500 ms",
       TABLE1, cases=("Δ = 0 ms", "Δ = 100 ms", "Δ = 500 ms"), headline=True,
       reading="the NS-3 column of Table I as the paper's result: the papers' simulator's gain against it at each "
               "Δ (D-SACK, coupled CC), " + DELAY_READING + "; Barré's Linux column (94 / 89 / 23 %) is a "
               "citation of [18], shown beside and re-asked on today's kernel in the Linux chapter, not decided"),
    _c("sec5.single-tcp-5mbps", "single TCP over Wi-Fi: maximum 5 Mbit/s", QUOTE_SINGLE_TCP_INTRO,
       "sec. V", "measured", "5 Mbit/s", FIG4,
       reading="the largest goodput of one TCP flow over one of the two Wi-Fi paths over the distances of "
               "scenario 1 (sec. V.B says 15 Mbit/s for the same quantity: the paper contradicts itself)"),
    _c("sec5a.gain-up-to-50m", "up to 50 m TCP-DOOR and PR-R outperform others, +64 %", QUOTE_GAIN_UP_TO_50M,
       "sec. V.A, Fig. 4", "cases", "both best, +64 % each", FIG4,
       cases=("TCP-DOOR +64 %", "PR-R +64 %", "both outperform NoPR and D-SACK"), headline=True,
       reading="“64% improvement” read as the mean over the distances ≤ 50 m of the gain over NoPR (the paper's "
               "“on average” of the next sentence); “outperform others” as ≥ 5 % above the better of NoPR and "
               "D-SACK at every distance ≤ 50 m"),
    _c("sec5a.beyond-50m", "beyond 50 m PR-R best (+50 %), D-SACK second (+22.7 %)", QUOTE_BEYOND_50M,
       "sec. V.A, Fig. 4", "cases", "PR-R best +50 %, D-SACK second +22.7 % (averages)", FIG4,
       cases=("PR-R best", "PR-R +50 % on average", "D-SACK second", "D-SACK +22.7 % on average"), headline=True),
    _c("sec5a.prr-utilizes-both", "PR-R utilises both links more than the others (LU)",
       "The PR-R utilizes both links more than the others along all distances", "sec. V.A, Table III", "cases",
       "highest LU at every distance", FIG4, cases=("50 m", "70 m"),
       reading="the highest LU of the four at each distance Table III gives (the figure has no LU at other "
               "distances)"),
    _c("sec5a.prr-more-buffer", "PR-R needs more buffer than TCP-DOOR, at comparable throughput",
       "It is clear that PR-R requires more buffer size than TCP-DOOR, which provides a comparable throughput "
       "improvement for high SINR cases", "sec. V.A, Table III", "cases",
       "PR-R's OOO-BO above TCP-DOOR's; their gThroughput comparable up to 50 m", FIG4,
       cases=("more buffer at 50 m", "more buffer at 70 m", "comparable gThroughput up to 50 m"),
       reading="“high SINR cases” read as the distances ≤ 50 m; “comparable” as a ratio within the policy's "
               "same-band"),
    _c("table3.cells", "Table III: OOO-BO, OOO-R and LU at 50 and 70 m", "", "Table III", "cases",
       "the 24 cells of Table III", FIG4, printed="442",
       cases=tuple(f"{d} m · {s}: {m}" for d in (50, 70) for s in ("NoPR", "D-SACK", "TCP-DOOR", "PR-R")
                   for m in ("OOO-BO", "OOO-R", "LU"))),
    _c("sec5b.tcpdoor-62-lossless", "TCP-DOOR +62 % at PDR 0",
       "In Scenario 2, TCP-DOOR provides a 62% improvement in gThroughput with lossless case (PDR = 0)",
       "sec. V.B, Fig. 5", "measured", "+62 %", FIG5),
    _c("sec5b.tcpdoor-decreases", "TCP-DOOR's gThroughput decreases dramatically with the PDR",
       "However, when the PDR increases, the gThroughput decreases dramatically, as shown in Fig. 5",
       "sec. V.B, Fig. 5", "trend", "decreases dramatically", FIG5,
       reading="“dramatically” read as at least 30 % lower at the largest PDR than at PDR 0 (10–30 %: partly)"),
    _c("sec5b.prr-60-stable", "PR-R +60 % on average, stable against the PDR",
       "The PR-R improves the gThroughput of MPTCP by 60% on average and provides a stable performance against "
       "the increasing rate of packet drops", "sec. V.B, Fig. 5", "cases", "+60 % on average; stable", FIG5,
       cases=("+60 % on average", "stable"), headline=True,
       reading="“on average”: the mean over the PDRs of the gain over NoPR; “stable”: at the largest PDR at least "
               "85 % of its PDR-0 gThroughput"),
    _c("sec5b.nopr-15-dsack-21.5", "NoPR ≤ 15 Mbit/s = one TCP flow; D-SACK second, 21.5 Mbit/s at most",
       "The gThroughput measurements of the legacy MPTCP or NoPR do not exceed 15 Mbps, which is the maximum "
       "throughput of a single TCP throughput over one link, while D-SACK is the second best after PR-R with "
       "21.5 Mbps at maximum", "sec. V.B, Fig. 5", "cases", "NoPR ≤ 15; single TCP 15; D-SACK second, 21.5 Mbit/s",
       FIG5, cases=("NoPR does not exceed 15 Mbit/s", "single TCP over one link: 15 Mbit/s",
                    "NoPR does not exceed one TCP flow", "D-SACK second after PR-R", "D-SACK 21.5 Mbit/s at maximum"),
       reading="“do not exceed” with the policy's 5 % no-change band, decided on the 95 % CI; “second best” on "
               "the mean gThroughput over the PDRs"),
    _c("sec5b.prr-fully-utilizes", "PR-R fully utilises both links and outperforms the others",
       "PR-R fully utilizes both links, as illustrated in Table IV, and outperforms other PR solutions in terms of "
       "gThroughput", "sec. V.B, Table IV", "cases", "highest LU; highest gThroughput", FIG5,
       cases=("highest LU at PDR 0.1 %", "highest LU at PDR 0.9 %", "highest gThroughput over the PDRs")),
    _c("sec5b.prr-highest-ooo-r", "PR-R has the highest OOO-R",
       "In terms of OOO packets and memory requirements, PR R provides the highest OOO-R compared to others",
       "sec. V.B", "cases", "highest OOO-R", FIG5, cases=("PDR 0.1 %", "PDR 0.9 %"),
       reading="at the two PDRs of Table IV"),
    _c("sec5b.prr-more-buffer-than-dsack", "Table IV: PR-R the highest OOO-R and more buffer than D-SACK",
       "It is clearly shown in Table IV, which represents a typical set of results that are also applicable to "
       "other cases, that PR-R has the highest OOO-R and requires more buffer space compared to D-SACK",
       "sec. V.B, Table IV", "cases", "highest OOO-R; OOO-BO above D-SACK's", FIG5,
       cases=("highest OOO-R at PDR 0.1 %", "highest OOO-R at PDR 0.9 %", "more buffer at PDR 0.1 %",
              "more buffer at PDR 0.9 %")),
    _c("table4.cells", "Table IV: OOO-BO, OOO-R and LU at PDR 0.1 and 0.9 %", "", "Table IV", "cases",
       "the 24 cells of Table IV", FIG5, printed="513",
       cases=tuple(f"{p} % · {s}: {m}" for p in ("0.1", "0.9") for s in ("NoPR", "D-SACK", "TCP-DOOR", "PR-R")
                   for m in ("OOO-BO", "OOO-R", "LU"))),
    _c("sec5b.nopr-cwnd-small", "Fig. 6: both of NoPR's windows small",
       "it is clearly shown in Fig. 6 that the size of both CWNDs is small when using the MPTCP-NoPR",
       "sec. V.B, Fig. 6", "yes/no", "small", FIG6,
       reading="“small”: NoPR's total of both subflows' mean windows below PR-R's and D-SACK's"),
    _c("sec5b.nopr-unable", "NoPR cannot use the available bandwidth, even without loss",
       "Consequently, MPTCP-NoPR is unable to utilize the available bandwidth, even with lossless networks",
       "sec. V.B", "trend", "unable to utilize", FIG4,
       reading="NoPR's gThroughput less than 1.2 × one TCP flow over one link, on average over the lossless "
               "distances of scenario 1 (using both links would give about 2)"),
    _c("sec5b.tcpdoor-cwnd-small", "Fig. 6: TCP-DOOR's windows small under loss",
       "Similarly, TCP-DOOR suffers from the small size of both CWNDs under high PDR networks",
       "sec. V.B, Fig. 6", "yes/no", "small", FIG6,
       reading="“small”: TCP-DOOR's total and lossy-subflow mean windows below PR-R's"),
    _c("sec5b.prr-robust", "Fig. 6: PR-R robust, maintains its windows",
       "The results show that PR-R is more robust to the PDR because it triggers a retransmission when receiving "
       "the third DUPACK and maintains the value of CWND", "sec. V.B, Fig. 6", "yes/no",
       "maintains its CWND (large windows)", FIG6,
       reading="PR-R has the largest total of both subflows' mean windows of the four (partly: at least 1.5 × "
               "NoPR's and TCP-DOOR's)"),
    _c("sec5b.dsack-one-sf-better", "Fig. 6: D-SACK favours one subflow",
       "The double increase in the CWND makes the related SF to increase its transmission rate faster than the "
       "other SF, which makes the utilization of one SF better than the other", "sec. V.B, Fig. 6", "yes/no",
       "one SF better than the other", FIG6,
       reading="D-SACK's ratio of its two subflows' mean windows (either way) at least 1.5 and the largest of the "
               "four"),
))

__all__ += ["CLAIMS", "TABLE1", "FIG4", "FIG5", "FIG6", "WIFI_PLANS", "figs_reference", "DELAY_READING"]
