"""Song et al. — the paper's numbers, once: the field measurements of sec. 3, the prediction accuracy of sec. 5.4
and the figures' numbers of secs. 6.1–6.2, and the paper's claims as data (:data:`CLAIMS`).  The numbers are
comparison targets.  The max data rates, measured results of the paper, are also inputs (besides the set-ups
every chapter takes as stated): they seed the reconstruction of the field data (:mod:`cmtlab.papers.song.field`),
so the Fig. 1 claims that rest on them are *by construction*."""

from __future__ import annotations

from ...report.claims import Claim, Registry

#: Sec. 3: the max download data rates of CT1…CM2 = links I–VIII (Mbit/s).
PAPER_MAX_DR_MBPS = (35.9, 18.4, 33.3, 14.7, 14.8, 4.4, 22.5, 12.5)
#: Sec. 3: ratio highest/lowest of the max and of the average download DR.
PAPER_MAX_DR_RATIO, PAPER_AVG_DR_RATIO = 8.2, 15.1
#: Sec. 5.4: prediction accuracy (%) for 2…8 links and its average.
PAPER_ACCURACY_PCT = {2: 89.68, 3: 83.14, 4: 79.26, 5: 75.99, 6: 73.24, 7: 71.06, 8: 69.50}
PAPER_ACCURACY_AVG_PCT = 77.41
#: Sec. 6.1: 4 links, throughput falls by these factors (ABA 0 → max at max ADA; ADA 0 → max at max ABA).
PAPER_FIG7_ABA_FALL, PAPER_FIG7_ADA_FALL = 1.8, 2.8
#: Sec. 6.2: ADA (ms) at which 4 links = 1 link, minimum delay 5 and 50 ms.
PAPER_FIG8_CROSS_5MS, PAPER_FIG8_CROSS_50MS = 35.6, 30.6


#: The paper's claims that the book decides, once each, in the paper's order (cmtlab.report.claims).  The deciding
#: reference: ns-3 for the paper's simulations (Fig. 6), the paper's own model evaluated here for its model results
#: and closed forms (sec. 4, Figs. 7–8), the paper's own numbers for a consistency check of them (Fig. 1's 8.2).
_S = "song"
_FIG1, _CHECK, _FIG6 = "song-fig1-field-measurements", "song-model-check", "song-fig6-model-vs-simulation"
_FIG7, _FIG8 = "song-fig7-asymmetry-surfaces", "song-fig8-throughput-vs-ada"
#: Figs. 7–8: the paper does not say how it builds a link set with a given ADA/ABA (the chapters compare several).
_LINK_SETS = ("link sets evenly spaced from the stated minimum delay and bandwidth (d_k = d_min + (k−1)Δ, the same "
              "for bandwidths; link 1 has both the smallest delay and the smallest bandwidth), transfer size 1 MB, the corrected eqs. 3 "
              "and 9; the paper states none of these, the chapter shows the other constructions")
#: Fig. 6: which TCP the paper's ns-3 ran.
_NS3_2018 = ("ns-3 as the paper ran it (reference [37], accessed 20 March 2018: ns-3.27): TcpNewReno congestion "
             "control with that release's defaults — SACK with RFC 6675 loss detection, limited transmit, "
             "timestamps, classic NewReno recovery (cmtlab.scenario.PRESETS['ns3-2018']); in ns-3 'TCP NewReno' "
             "names the congestion control, the socket's SACK default stays on.  Plain NewReno of RFC 6582 "
             "(no SACK, reference [36]) is shown beside as the RFC column")

CLAIMS = Registry("song", (
    # sec. 3, Fig. 1: the field measurements (the data is not public: a reconstruction made to satisfy them)
    Claim("fig1.rtt-significantly-higher", _S, "RTT of CT1, CU3, CM1, CM2 significantly higher than CT2, CU1, CU2",
          "the RTT of CT1, CU3, CM1 and CM2 are significantly higher than those of CT2, CU1, CU2",
          "sec. 3", "yes/no", "stated (IQRs disjoint)", "paper", _FIG1,
          reading="the paper's own criterion (sec. 3): two data sets differ significantly when their IQRs do not "
                  "overlap, for each of the 12 pairs"),
    Claim("fig1.rtt-different-from-others", _S, "RTT of CT1, CU3, CM1 different from the others",
          "the RTT of CT1, CU3 and CM1 are different from the others", "sec. 3", "yes/no",
          "stated (medians outside the IQRs)", "paper", _FIG1,
          reading="strong reading: against all seven other modems, each median outside the other's IQR, and only "
                  "these three modems"),
    Claim("fig1.max-dr-ratio", _S, "max-DR ratio highest/lowest (CT1/CU3)",
          "For maximum download DR, the ratio between the highest (CT1) and the lowest (CU3) is 8.2",
          "sec. 3", "computed", "8.2", "paper", _FIG1),
    Claim("fig1.avg-dr-ratio", _S, "average-DR ratio highest/lowest",
          "As for average download DR, this ratio is even more pronounced, reaching 15.1",
          "sec. 3", "computed", "15.1", "paper", _FIG1),
    # sec. 4.1: the closed forms, checked against a Monte-Carlo of arrival orders (and FIFO links for eq. 3)
    Claim("eq3.arrival-time", _S, "eq. 3: arrival time D_{i,j} of the j-th segment",
          "which is the sum of queuing delay and propagation delay experienced by $SGM_{i,j}$",
          "sec. 4.1, eq. 3", "computed", "(⌊j/n⌋ + 1) s / b + d", "model", _CHECK),
    Claim("eq4.first-arrival", _S, "eq. 4: P(F) = 1/C", "Hence $P(F)$ approximately equals $1/C_i$",
          "sec. 4.1, eq. 4", "computed", "1/C", "model", _CHECK),
    Claim("eq5-6.case-one", _S, "eqs. 5–6: P(m < m_ACK | F), P(m ≥ m_ACK | F)",
          ("The probability $P(m < m_{ACK} | F)$ can be calculated as",
           "The corresponding probability $P(m \\geq m_{ACK} | F)$ can be calculated as"),
          "sec. 4.1, eqs. 5–6", "computed", "printed closed form", "model", _CHECK),
    Claim("eq7-8.case-one-means", _S, "eqs. 7–8: E'(T), E'(A)",
          "$E'(T_i)$ and $E'(A_{i+1})$ can be derived as", "sec. 4.1, eqs. 7–8", "computed",
          "printed closed form", "model", _CHECK,
          reading="decided on eq. 8, the mean ACK size; eq. 7 weights the arrival times with the same "
                  "probabilities (eqs. 5–6) and holds with them"),
    Claim("eq9.case-two", _S, "eq. 9: P(q = k | F̄)", "The probability of $P(q = k | \\bar{F})$ is derived as follows",
          "sec. 4.1, eq. 9", "computed", "printed closed form", "model", _CHECK),
    Claim("eq10-11.case-two-means", _S, "eqs. 10–11: E''(T), E''(A)",
          "Let $E''(T_i)$ and $E''(A_{i+1})$ denote the expected value of T_i and A_{i+1} under the condition that "
          "$SGM_{i,1}$ is not the first to reach the receiver, which can be derived as",
          "sec. 4.1, eqs. 10–11", "computed", "printed closed form", "model", _CHECK,
          reading="decided on eq. 11, the mean ACK size; eq. 10 (T = D_{i,1}) is the definition of case II"),
    # sec. 5: the model against ns-3 (Fig. 6)
    Claim("fig6.link-bandwidths", _S, "link bandwidths = max DR of CT1…CM2",
          "The bandwidth of link I to link VII are set as the maximum measured download data rates shown in Figure "
          "1(b), which are respectively 35.9Mbps, 18.4Mbps, 33.3Mbps, 14.7Mbps, 14.8Mbps, 4.4Mbps, 22.5Mbps and "
          "12.5Mbps", "sec. 5.3", "set-up", "35.9, 18.4, 33.3, 14.7, 14.8, 4.4, 22.5, 12.5 Mbit/s", "paper", _FIG6),
    Claim("fig6.accuracy-per-link-count", _S, "prediction accuracy, 2…8 links",
          "With the number of links employed for concurrent transmission varying from 2 to 8, the prediction "
          "accuracies are 89.68%, 83.14%, 79.26%, 75.99%, 73.24%, 71.06% and 69.50%",
          "sec. 5.4", "measured", "89.68 … 69.50 %", "ns-3", _FIG6,
          cases=tuple(f"{n} links" for n in range(2, 9)), reading=_NS3_2018),
    Claim("fig6.accuracy-drops", _S, "accuracy drops slightly as the number of links grows",
          "The prediction accuracies slightly drop as the number of utilized links increases",
          "sec. 5.4", "trend", "89.68 → 69.50 %", "ns-3", _FIG6, reading=_NS3_2018),
    Claim("fig6.accuracy-average", _S, "average prediction accuracy", "the average prediction accuracy can reach 77.41%",
          "sec. 5.4", "measured", "77.41 %", "ns-3", _FIG6, reading=_NS3_2018, headline=True),
    # sec. 6.1: Fig. 7, the paper's model on a grid of delay and bandwidth asymmetry
    Claim("fig7.grid", _S, "grid: min delay 5 ms and bandwidth 100 kbit/s, ADA 0–35 ms, ABA 0–700 kbit/s",
          ("The minimum delay and bandwidth are 5ms and 100kbps",
           "The Average Delay Asymmetry and Average Bandwidth Asymmetry are set to vary from 0ms to 35ms and from "
           "0kbps to 700kbps"), "sec. 6.1", "set-up", "5 ms, 100 kbit/s; 0–35 ms, 0–700 kbit/s", "model", _FIG7),
    Claim("fig7.aba-fall", _S, "4 links at max ADA: throughput as ABA goes 0 → max",
          "under highest level of Average Delay Asymmetry, the average throughput decreases by 1.8 times as the "
          "Average Bandwidth Asymmetry varies from zero to maximum", "sec. 6.1", "computed", "falls 1.8×", "model",
          _FIG7, reading=_LINK_SETS, headline=True),
    Claim("fig7.ada-fall", _S, "4 links at max ABA: throughput as ADA goes 0 → max",
          "when Average Bandwidth Asymmetry remains at highest level, and the Average Delay Asymmetry varies from zero "
          "to maximum, the average throughput is reduced by 2.8 times", "sec. 6.1", "computed", "falls 2.8×", "model",
          _FIG7, reading=_LINK_SETS),
    # sec. 6.2: Fig. 8, the paper's model against ADA for 1–4 links
    Claim("fig8.grid", _S, "1–4 links of 100 kbit/s, ADA 10–90 ms, min delay 5/20/35/50 ms",
          ("up to 4 links are utilized and the bandwidth of each link is 100kbps",
           "Along with the Average Delay Asymmetry varying from 10ms to 90ms, the throughput is derived using the "
           "proposed model under the minimum delay of 5ms, 20ms, 35ms and 50ms respectively"),
          "sec. 6.2", "set-up", "100 kbit/s; 10–90 ms; 5, 20, 35, 50 ms", "model", _FIG8),
    Claim("fig8.ada-compromises-aggregation", _S, "ADA compromises the gain of aggregating links",
          "the Average Delay Asymmetry of heterogeneous networks compromised the benefits of aggregating bandwidth by "
          "utilizing multiple links", "sec. 6.2", "cases", "stated", "model", _FIG8,
          cases=("min delay 5 ms", "min delay 20 ms", "min delay 35 ms", "min delay 50 ms"),
          reading="at each minimum delay (the four panels), the gain of 2, 3 and 4 links over one link shrinks as the "
                  "ADA grows from 10 to 90 ms: (n links / 1 link at 90 ms) / (at 10 ms) ≤ 0.95 for every n; "
                  + _LINK_SETS),
    Claim("fig8.min-delay-exacerbates", _S, "a larger minimum delay lowers the 4-links = 1-link threshold",
          "large minimum delay exacerbates the effect of Average Delay Asymmetry on throughput performance using "
          "multiple links", "sec. 6.2", "trend", "35.6 → 30.6 ms (× 0.86)", "model", _FIG8,
          reading="as the paper's next sentence measures it: the ADA at which four links fall to one link is lower at "
                  "a 50 ms than at a 5 ms minimum delay; " + _LINK_SETS),
    Claim("fig8.threshold-5ms", _S, "ADA at which 4 links = 1 link, min delay 5 ms",
          "Under the minimum delay of 5ms, when the Average Delay Asymmetry increases to 35.6ms, the throughput of TCP "
          "concurrently transferred over four links decreases to that of TCP using only one link",
          "sec. 6.2", "computed", "35.6 ms", "model", _FIG8, reading=_LINK_SETS, headline=True),
    Claim("fig8.threshold-50ms", _S, "ADA at which 4 links = 1 link, min delay 50 ms",
          "When minimum delay increases from 5ms to 50ms, such threshold of Average Delay Asymmetry at which the "
          "throughput of four links equals to that of one link decreases from 35.6ms to 30.6ms",
          "sec. 6.2", "computed", "30.6 ms", "model", _FIG8,
          reading="decided on the 50 ms threshold, the number this sentence adds (its 35.6 ms is the previous "
                  "sentence's claim, its decrease that of 'large minimum delay exacerbates'); " + _LINK_SETS),
    Claim("fig8.two-links-best", _S, "min delay > 5 ms and ADA > 20 ms: two links give the highest throughput",
          "when the minimum delay is more than 5ms and the Average Delay Asymmetry is more than 20ms, utilizing two "
          "links to transfer the TCP flow will achieve maximum throughput", "sec. 6.2", "cases", "two links best",
          "model", _FIG8, cases=("min delay 20 ms", "min delay 35 ms", "min delay 50 ms"),
          reading="at every grid point of ADA 20–90 ms (exclusive of 20) at the minimum delays above 5 ms of Fig. 8 "
                  "(20, 35, 50 ms), two links give the highest throughput of 1–4 links; " + _LINK_SETS),
    # sec. 7: the conclusion the paper draws from Fig. 7
    Claim("sec7.delay-asymmetry-dominant", _S, "delay asymmetry is the dominant factor",
          "compared to bandwidth asymmetry, delay asymmetry is the dominant factor that affects the performance of TCP "
          "over heterogeneous networks", "sec. 7 (Conclusion)", "cases", "stated", "model", _FIG7,
          cases=("2 links", "3 links", "4 links"),
          reading="on Fig. 7's grid, for 2, 3 and 4 links: the throughput changes more (|log| of the ratio) as the ADA "
                  "goes from zero to its maximum at the maximum ABA than as the ABA does at the maximum ADA; "
                  + _LINK_SETS),
))


__all__ = ["CLAIMS", "PAPER_MAX_DR_MBPS", "PAPER_MAX_DR_RATIO", "PAPER_AVG_DR_RATIO", "PAPER_ACCURACY_PCT", "PAPER_ACCURACY_AVG_PCT",
           "PAPER_FIG7_ABA_FALL", "PAPER_FIG7_ADA_FALL", "PAPER_FIG8_CROSS_5MS", "PAPER_FIG8_CROSS_50MS"]
