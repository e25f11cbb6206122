"""Song et al. — the paper's numbers, once (comparison targets, never inputs): the field measurements of sec. 3,
the prediction accuracy of sec. 5.4 and the figures' numbers of secs. 6.1–6.2.  The chapters' modules read them
from here.  (The max data rates also seed the reconstruction of the field data, :mod:`cmtlab.measurements.field`,
which sits below the papers and keeps its own copy.)"""

from __future__ import annotations

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


__all__ = ["PAPER_MAX_DR_MBPS", "PAPER_MAX_DR_RATIO", "PAPER_AVG_DR_RATIO", "PAPER_ACCURACY_PCT", "PAPER_ACCURACY_AVG_PCT",
           "PAPER_FIG7_ABA_FALL", "PAPER_FIG7_ADA_FALL", "PAPER_FIG8_CROSS_5MS", "PAPER_FIG8_CROSS_50MS"]
