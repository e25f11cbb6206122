"""The tables of the simulator's validation chapters, decided by the book's verdict policy (:mod:`cmtlab.report`).

These chapters check this book's simulator against independent references (ns-3, RFC 6356's goals and
fluid equilibria, ns-3's Wi-Fi); only the statements of a published reference (an RFC, a paper) are
claims in the table — targets this book set itself are *checks of this book*.

* :func:`ns3_comparison` — ``cmtlab-vs-ns3-validation``;
* :func:`mptcp_comparison` — ``mptcp-validation`` (RFC 6356, RFC 8684);
* :func:`wifi_comparison` — ``alheid-wifi-model-check`` (this book's 802.11g model against ns-3.44's Wi-Fi).
"""

from __future__ import annotations

import pandas as pd

from ..report import Comparison, MEASURED

#: Targets this book set for its simulator against ns-3 (median of ``|cmtlab / ns-3 − 1|``).
NS3_ONE_LINK_TARGET = 0.05
NS3_STRIPED_TARGET = 0.10
#: The ns-3 throughputs the chapter was specified with (Mbit/s): plain NewReno and SACK-based loss detection.
NS3_SPEC_PLAIN_MBPS = 8.0
NS3_SPEC_SACK_MBPS = 0.3
#: Target of the Wi-Fi model against ns-3 (median of the ``|difference|``).
WIFI_TARGET = 0.05


def _band_check(t: Comparison, check: str, *, target: float, value: float, unit: str, note: str = "") -> None:
    """A check against a number this book measured when it specified the chapter: the measured-number band."""
    dev = MEASURED.deviation(target, value)
    t.add_check(check, target=f"about {target:g} {unit} (this book)", ours=f"{value:.2f} {unit}",
                holds=MEASURED.of_deviation(dev) == "reproduced",
                rule=f"|Δ| ≤ {100 * MEASURED.reproduced:g} % → met (the measured-number band)", note=note)


def ns3_comparison(*, med_a: float, p90_a: float, n_a: int, med_b: float, p90_b: float, n_b: int,
                   plain_mbps: float, sack_mbps: float) -> Comparison:
    """``cmtlab-vs-ns3-validation``: no paper claim; four checks of this book."""
    t = Comparison()
    t.add_check("(a) one link: median |cmtlab / ns-3 − 1|", target=f"≤ {100 * NS3_ONE_LINK_TARGET:g} % (this book)",
                ours=f"{100 * med_a:.2f} % over {n_a} runs (90th percentile {100 * p90_a:.2f} %)", holds=med_a <= NS3_ONE_LINK_TARGET,
                rule=f"median ≤ {100 * NS3_ONE_LINK_TARGET:g} % → met")
    t.add_check("(b) striped links: median |cmtlab / ns-3 − 1|", target=f"≤ {100 * NS3_STRIPED_TARGET:g} % (this book)",
                ours=f"{100 * med_b:.2f} % over {n_b} runs (90th percentile {100 * p90_b:.2f} %)", holds=med_b <= NS3_STRIPED_TARGET,
                rule=f"median ≤ {100 * NS3_STRIPED_TARGET:g} % → met")
    _band_check(t, "10 + 5 Mbit/s, RTT 20/60 ms, plain NewReno: ns-3 throughput", target=NS3_SPEC_PLAIN_MBPS,
                value=plain_mbps, unit="Mbit/s", note="'about 8 Mbit/s', measured with ns-3 3.44 when this chapter was "
                                                       "specified (5 MB)")
    _band_check(t, "same, ns-3 with SACK-based loss detection: ns-3 throughput", target=NS3_SPEC_SACK_MBPS,
                value=sack_mbps, unit="Mbit/s", note="'about 0.3 Mbit/s' with ns-3's defaults (5 MB)")
    return t


def mptcp_comparison(*, bridge_same: int, bridge_total: int, bridge_ok: bool, dj: pd.DataFrame, sh: pd.DataFrame,
                     cc: pd.DataFrame, dd: pd.DataFrame, n_paths: int, loss_rate: float, bottleneck_bps: float,
                     bottleneck_rtts_s, congested_loss_rates, settings: dict) -> Comparison:
    """``mptcp-validation``: RFC 6356's fluid equilibria and goals as the reference's claims (with 95 % CIs
    over seeds), the RFC 8684 receiver against the papers' one, and the one-subflow bridge as a check.

    ``settings``: {setting label: short label}, byte counting first (e.g. ``{"packet, byte counting
    (RFC 6356)": "byte counting", "packet, ACK counting": "ACK counting"}``).
    """
    t = Comparison()
    t.add_check("one subflow sends exactly what the single-path TCP sends (packets, cwnd, counters)",
                target="identical (this book)", ours=f"identical in {bridge_same} of {bridge_total} cases",
                holds=bridge_ok, rule="identical in every case → met")
    labels = list(settings.items())
    byte = labels[0][0]
    for setting, label in labels:
        for alg in (["uncoupled"] if setting == byte else []) + ["lia", "olia"]:
            row = dj.loc[(setting, alg)]
            n = int(row.n_seeds)
            t.add_value(f"{n_paths} disjoint paths, p = {loss_rate:g}: {alg} in single TCPs ({label})",
                        where="RFC 6356 (fluid equilibrium)", paper=float(row.expected_ratio),
                        ours=float(row.ratio_to_single), fmt=".2f",
                        ci=(row.ratio_to_single - row.ci_ratio, row.ratio_to_single + row.ci_ratio), n_seeds=n,
                        note="byte counting under delayed ACKs grows 2x faster than the reference NewReno"
                        if setting == byte and alg != "uncoupled" else "")
    for setting, label in labels:
        for alg in (["uncoupled"] if setting == byte else []) + ["lia", "olia"]:
            row = sh.loc[(setting, alg)]
            t.add_value(f"shared {bottleneck_bps / 1e6:g} Mbit/s bottleneck: {alg} in TCP shares ({label})",
                        where="RFC 6356 sec. 2 (goal 1)", paper=float(row.expected_ratio), ours=float(row.ratio_to_tcp),
                        fmt=".2f", ci=(row.ratio_to_tcp - row.ci_ratio, row.ratio_to_tcp + row.ci_ratio),
                        note=f"mean and 95 % CI over the RTTs {', '.join(f'{r * 1e3:g}' for r in bottleneck_rtts_s)} ms "
                             f"(one run each); single runs {row.min_ratio:.2f}-{row.max_ratio:.2f}")
    unc = cc.loc[(byte, "uncoupled")]
    for alg in ("lia", "olia"):
        row = cc.loc[(byte, alg)]
        t.add_claim(f"congested ({congested_loss_rates[0]:g}) + clean ({congested_loss_rates[1]:g}) path: {alg} "
                    "moves traffic off the congested path", where="RFC 6356 sec. 2 (goal 3)",
                    quote="move as much traffic as possible off its most congested paths", paper="less on the congested path",
                    ours=f"share on the congested path {row.congested_share:.3f} ± {row.ci_share:.3f} "
                         f"vs uncoupled {unc.congested_share:.3f} ± {unc.ci_share:.3f}",
                    holds=bool(row.congested_share + row.ci_share < unc.congested_share - unc.ci_share),
                    rule="the 95 % CIs of the shares do not overlap, the coupled one lower")
    row = cc.loc[(byte, "lia")]
    t.add_value("congested + clean path: LIA's share on the congested path", where="RFC 6356 (fluid equilibrium)",
                paper=float(row.expected_share), ours=float(row.congested_share), fmt=".3f",
                ci=(row.congested_share - row.ci_share, row.congested_share + row.ci_share),
                n_seeds=int(row["n_seeds"]) if "n_seeds" in row.index else None)
    r_rfc, r_paper = dd.loc[("rfc", "original")], dd.loc[("paper", "original")]
    t.add_claim("RFC 8684 receiver (subflow-level duplicate ACKs only) is not slowed by data-level reordering, "
                "the papers' receiver is", where="RFC 8684 sec. 3.3; the papers' receiver (Alheid Fig. 1)",
                paper="expected from the definitions",
                ours=f"{r_rfc.goodput_bps / 1e6:.2f} ± {r_rfc.ci_goodput_bps / 1e6:.2f} vs "
                     f"{r_paper.goodput_bps / 1e6:.2f} ± {r_paper.ci_goodput_bps / 1e6:.2f} Mbit/s",
                holds=bool(r_rfc.goodput_bps - r_rfc.ci_goodput_bps > r_paper.goodput_bps + r_paper.ci_goodput_bps),
                rule="the 95 % CIs do not overlap, RFC 8684's goodput higher")
    return t


def wifi_comparison(table: pd.DataFrame, agreement: pd.DataFrame) -> Comparison:
    """``alheid-wifi-model-check``: the model-vs-ns-3 agreement as checks of this book (no paper claim: Alheid's
    single-TCP sentences of sec. V and sec. V.B are decided once each, on the papers' model, in the Fig. 4 and
    Fig. 5 chapters; ``cmtlab.papers.alheid.paper.CLAIMS``).  ``table``: per distance ``model_rate_mbps``,
    ``ns3_tcp_mbps``; ``agreement``: index ``UDP``/``TCP``, ``median_abs_rel_diff``, ``max_abs_rel_diff``."""
    t = Comparison()
    for proto in ("UDP", "TCP"):
        med, mx = float(agreement.loc[proto, "median_abs_rel_diff"]), float(agreement.loc[proto, "max_abs_rel_diff"])
        t.add_check(f"model vs ns-3: median |{proto} difference| over 10-100 m", target=f"≤ {100 * WIFI_TARGET:g} % (this book)",
                    ours=f"{100 * med:.1f} % (max {100 * mx:.1f} %)", holds=med <= WIFI_TARGET,
                    rule=f"median ≤ {100 * WIFI_TARGET:g} % → met")
    return t


__all__ = ["NS3_ONE_LINK_TARGET", "NS3_STRIPED_TARGET", "NS3_SPEC_PLAIN_MBPS", "NS3_SPEC_SACK_MBPS", "WIFI_TARGET",
           "ns3_comparison", "mptcp_comparison", "wifi_comparison"]
