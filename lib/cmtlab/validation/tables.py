"""The tables of the simulator's validation chapters, decided by the book's verdict policy (:mod:`cmtlab.report`).

These chapters check this book's simulator against references: ns-3.44 (which ``cmtlab.sim`` ports, so
agreement there checks the port's fidelity, not an independent model), RFC 6356's goals and fluid
equilibria, ns-3's Wi-Fi.  RFC 6356's goals, the agreement with ns-3 and the targets this book set itself
are *checks of this book*, counted apart; only the Wi-Fi chapter decides claims of a paper
(Alheid et al., sec. V).

* :func:`ns3_comparison` — ``cmtlab-vs-ns3-validation``;
* :func:`mptcp_comparison` — ``mptcp-validation`` (RFC 6356, RFC 8684);
* :func:`wifi_comparison` — ``alheid-wifi-model-check`` (this book's 802.11g model against ns-3.44's Wi-Fi).
"""

from __future__ import annotations

import pandas as pd

from ..report import MEASURED, Band, Comparison

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


#: What the agreement with ns-3 checks (audit item 31): the port's fidelity, not an independent validation.
PORT_NOTE = ("a port's fidelity, not an independent validation: cmtlab.sim follows ns-3.44's TCP down to its "
             "tie-breaking rules and draws the same MRG32k3a random streams, so agreement is what a faithful port "
             "gives by construction; a difference points at a porting error")


def ns3_comparison(*, med_a: float, p90_a: float, n_a: int, med_b: float, p90_b: float, n_b: int,
                   plain_mbps: float, sack_mbps: float) -> Comparison:
    """``cmtlab-vs-ns3-validation``: no paper claim; four checks of this book — the port's fidelity to
    ns-3.44 on (a) one link and (b) striped links (:data:`PORT_NOTE`), and ns-3.44's own throughput in
    (c) against what it gave when the chapter was specified (a regression check of the set-up)."""
    t = Comparison()
    t.add_check("(a) one link: the port replicates ns-3.44, median |cmtlab / ns-3 − 1|",
                target=f"≤ {100 * NS3_ONE_LINK_TARGET:g} % (this book)",
                ours=f"{100 * med_a:.2f} % over {n_a} runs (90th percentile {100 * p90_a:.2f} %)",
                holds=med_a <= NS3_ONE_LINK_TARGET, rule=f"median ≤ {100 * NS3_ONE_LINK_TARGET:g} % → met",
                note=PORT_NOTE)
    t.add_check("(b) striped links: the port replicates ns-3.44, median |cmtlab / ns-3 − 1|",
                target=f"≤ {100 * NS3_STRIPED_TARGET:g} % (this book)",
                ours=f"{100 * med_b:.2f} % over {n_b} runs (90th percentile {100 * p90_b:.2f} %)",
                holds=med_b <= NS3_STRIPED_TARGET, rule=f"median ≤ {100 * NS3_STRIPED_TARGET:g} % → met",
                note=PORT_NOTE)
    _band_check(t, "(c) 10 + 5 Mbit/s, RTT 20/60 ms, plain NewReno: ns-3.44's throughput as when specified",
                target=NS3_SPEC_PLAIN_MBPS, value=plain_mbps, unit="Mbit/s",
                note="a regression check of ns-3.44 and the set-up: about 8 Mbit/s, measured with ns-3.44 when "
                     "this chapter was specified (5 MB)")
    _band_check(t, "(c) same, ns-3.44 with SACK-based loss detection: its throughput as when specified",
                target=NS3_SPEC_SACK_MBPS, value=sack_mbps, unit="Mbit/s",
                note="a regression check of ns-3.44 and the set-up: about 0.3 Mbit/s with ns-3's defaults (5 MB)")
    return t


def ns3_facts(*, table_a: pd.DataFrame, table_b: pd.DataFrame, sens: pd.DataFrame, traced: dict,
              table: Comparison) -> dict:
    """Every value the ``cmtlab-vs-ns3-validation`` chapter's prose (and the intro and scoreboard) shows,
    glued in one call (:func:`cmtlab.report.glue_all`): ``table_a``/``table_b`` the (a)/(b) cross-checks
    (:func:`cmtlab.validation.ns3.cross_check`), ``sens`` (c), ``traced`` the cwnd traces
    (:func:`~cmtlab.validation.ns3.cwnd_trace_runs`), ``table`` the checks."""
    from .ns3 import agreement_summary, mathis_ratios

    sa, sb = agreement_summary(table_a), agreement_summary(table_b)
    n_mathis, ratio = mathis_ratios(table_a)
    cw18 = traced["ns3-2018"][0].traces["cwnd"]
    out = {"validation_median_a": 100 * float(sa.median_abs_diff.iloc[0]),
           "validation_median_b": 100 * float(sb.median_abs_diff.iloc[0]),
           "validation_p90_a": 100 * float(sa.p90_abs_diff.iloc[0]),
           "validation_p90_b": 100 * float(sb.p90_abs_diff.iloc[0]),
           "validation_runs_a": int(len(table_a)), "validation_runs_b": int(len(table_b)),
           "mathis_runs": int(n_mathis),
           "mathis_ratio_cmtlab": float(ratio["cmtlab"]), "mathis_ratio_ns3": float(ratio["ns-3"]),
           "cwnd_2018_max_segments": float(cw18.cwnd_bytes.max() / cw18.cwnd_bytes.iloc[0]),
           "checks_met": sum(c["verdict"] == "met" for c in table.checks), "checks_all": len(table.checks)}
    if "same_counters" in sa.columns:
        out["same_counters_a_pct"] = 100 * float(sa.same_counters.iloc[0])
        out["same_counters_b_pct"] = 100 * float(sb.same_counters.iloc[0])
    return out


def ns3_chapter_table(*, table_a: pd.DataFrame, table_b: pd.DataFrame, sens: pd.DataFrame) -> Comparison:
    """:func:`ns3_comparison` from the chapter's three tables."""
    from .ns3 import agreement_summary

    sa, sb = agreement_summary(table_a), agreement_summary(table_b)
    plain = sens.loc["plain NewReno (no SACK, no limited transmit)"]
    era = sens.loc["SACK + RFC 6675 loss detection, classic recovery (ns-3 early 2018)"]
    return ns3_comparison(med_a=float(sa.median_abs_diff.iloc[0]), p90_a=float(sa.p90_abs_diff.iloc[0]),
                          n_a=len(table_a), med_b=float(sb.median_abs_diff.iloc[0]),
                          p90_b=float(sb.p90_abs_diff.iloc[0]), n_b=len(table_b),
                          plain_mbps=float(plain["ns-3 (Mbit/s)"]), sack_mbps=float(era["ns-3 (Mbit/s)"]))


#: The band of the RFC 6356 checks: a simulated number against its fluid-model or design-goal value.
RFC_BAND = Band(0.10, 0.10, reason="the policy's measured-number band: the engine against the RFC's fluid model")


def _ci_order(a: float, ha: float, b: float, hb: float) -> bool | None:
    """``a`` above ``b`` by their 95 % CIs: True (a's interval above b's), False (below), None (they overlap)."""
    if a - ha > b + hb:
        return True
    if a + ha < b - hb:
        return False
    return None


def mptcp_comparison(*, bridge_same: int, bridge_total: int, bridge_ok: bool, dj: pd.DataFrame, sh: pd.DataFrame,
                     cc: pd.DataFrame, dd: pd.DataFrame, n_paths: int, loss_rate: float, bottleneck_bps: float,
                     bottleneck_rtts_s, congested_loss_rates, settings: dict) -> Comparison:
    """``mptcp-validation``: checks only (RFC 6356's goals are checks of the simulator, not paper
    claims) — the one-subflow bridge, RFC 6356's fluid equilibria and goals 1 and 3 (95 % CIs over seeds;
    a CI across the tolerance is *undecided at n seeds*), and the RFC 8684 receiver against the papers' one.

    The shared-bottleneck runs carry no random process: each RTT of ``bottleneck_rtts_s`` is another
    configuration with one run, so those checks decide on the mean over the RTTs and show the RTTs' range —
    not a confidence interval, which would treat configurations as samples.

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
            t.add_check_band(f"{n_paths} disjoint paths, p = {loss_rate:g}: {alg} in single TCPs ({label})",
                             expected=float(row.expected_ratio), value=float(row.ratio_to_single), band=RFC_BAND,
                             target=f"{float(row.expected_ratio):.2f} single TCPs (RFC 6356, fluid equilibrium)",
                             fmt=".2f", ci=(row.ratio_to_single - row.ci_ratio, row.ratio_to_single + row.ci_ratio),
                             n_seeds=n,
                             note="byte counting under delayed ACKs grows 2x faster than the reference NewReno"
                             if setting == byte and alg != "uncoupled" else "")
    rtts = ", ".join(f"{r * 1e3:g}" for r in bottleneck_rtts_s)
    for setting, label in labels:
        for alg in (["uncoupled"] if setting == byte else []) + ["lia", "olia"]:
            row = sh.loc[(setting, alg)]
            t.add_check_band(f"shared {bottleneck_bps / 1e6:g} Mbit/s bottleneck: {alg} in TCP shares ({label})",
                             expected=float(row.expected_ratio), value=float(row.ratio_to_tcp), band=RFC_BAND,
                             target=f"{float(row.expected_ratio):.2f} TCP shares (RFC 6356 sec. 2, goal 2: do no harm)", fmt=".2f",
                             note=f"mean over the RTTs {rtts} ms, one deterministic run each (configurations, not "
                                  f"samples: no confidence interval); single runs {row.min_ratio:.2f} to "
                                  f"{row.max_ratio:.2f}, within 10 % at {int(row.n_rtts_within)} of "
                                  f"{int(row.n_rtts)} RTTs")
    unc = cc.loc[(byte, "uncoupled")]
    for alg in ("lia", "olia"):
        row = cc.loc[(byte, alg)]
        lower = _ci_order(unc.congested_share, unc.ci_share, row.congested_share, row.ci_share)
        t.add_check(f"congested ({congested_loss_rates[0]:g}) + clean ({congested_loss_rates[1]:g}) path: {alg} "
                    "moves traffic off the congested path", target="less on the congested path than uncoupled "
                    "(RFC 6356 sec. 2, goal 3)",
                    ours=f"share on the congested path {row.congested_share:.3f} ± {row.ci_share:.3f} "
                         f"vs uncoupled {unc.congested_share:.3f} ± {unc.ci_share:.3f}",
                    holds=lower, n_seeds=int(row.n_seeds),
                    rule="the 95 % CIs of the shares apart, the coupled one lower → met; apart, higher → not met; "
                         "overlapping → undecided")
    row = cc.loc[(byte, "lia")]
    t.add_check_band("congested + clean path: LIA's share on the congested path", expected=float(row.expected_share),
                     value=float(row.congested_share), band=RFC_BAND, fmt=".3f",
                     target=f"{float(row.expected_share):.3f} (RFC 6356, LIA's fluid equilibrium)",
                     ci=(row.congested_share - row.ci_share, row.congested_share + row.ci_share),
                     n_seeds=int(row.n_seeds))
    r_rfc, r_paper = dd.loc[("rfc", "original")], dd.loc[("paper", "original")]
    t.add_check("RFC 8684 receiver (subflow-level duplicate ACKs only) is not slowed by data-level reordering, "
                "the papers' receiver is", target="RFC 8684's goodput higher (follows from the two definitions; "
                "the papers' receiver: Alheid et al., Fig. 1)",
                ours=f"{r_rfc.goodput_bps / 1e6:.2f} ± {r_rfc.ci_goodput_bps / 1e6:.2f} vs "
                     f"{r_paper.goodput_bps / 1e6:.2f} ± {r_paper.ci_goodput_bps / 1e6:.2f} Mbit/s",
                holds=_ci_order(r_rfc.goodput_bps, r_rfc.ci_goodput_bps, r_paper.goodput_bps, r_paper.ci_goodput_bps),
                n_seeds=int(r_rfc.n_seeds),
                rule="the 95 % CIs apart, RFC 8684's goodput higher → met; apart, lower → not met; overlapping → "
                     "undecided")
    return t


def mptcp_facts(*, bridge: pd.DataFrame, disjoint: pd.DataFrame, shared_mean: pd.DataFrame,
                congested: pd.DataFrame, dup: pd.DataFrame, n_paths: int, dupack_loss_rate: float,
                table: Comparison) -> dict:
    """Every value the ``mptcp-validation`` chapter's prose (and ``book/simulator.md``) shows, glued in one
    call (:func:`cmtlab.report.glue_all`).  ``bridge`` (:func:`cmtlab.validation.mptcp.single_subflow_bridge`),
    ``disjoint``, ``shared_mean``, ``congested``, ``dup`` the chapter's tables, ``table`` its checks."""
    from .mptcp import ACKS, BYTES, NO_DELACK, ROUNDS

    out: dict = {"bridge_cases": int(len(bridge)), "bridge_packets": int(bridge.packets_mptcp.sum()),
                 "n_paths_text": int(n_paths), "dup_loss_pct": 100 * float(dupack_loss_rate)}
    dj = disjoint.set_index(["setting", "congestion"])
    for key, setting in (("bytes", BYTES), ("ack", ACKS), ("mack1", NO_DELACK), ("round", ROUNDS)):
        for alg in ("uncoupled", "lia", "olia"):
            if (setting, alg) in dj.index:
                out[f"dj_{key}_{alg}"] = float(dj.loc[(setting, alg), "ratio_to_single"])
                out[f"dj_{key}_{alg}_ci"] = float(dj.loc[(setting, alg), "ci_ratio"])
    out["dj_single_over_mathis"] = float(dj.loc[(BYTES, "single"), "single_over_mathis"])
    sh = shared_mean.set_index(["setting", "congestion"])
    for key, setting in (("bytes", BYTES), ("ack", ACKS)):
        for alg in ("uncoupled", "lia", "olia"):
            for col in ("ratio_to_tcp", "min_ratio", "max_ratio", "n_rtts_within", "n_rtts"):
                v = sh.loc[(setting, alg), col]
                out[f"sh_{key}_{alg}_{col}"] = int(v) if col.startswith("n_") else float(v)
    cc = congested.set_index(["setting", "congestion"])
    for key, setting in (("bytes", BYTES), ("ack", ACKS), ("round", ROUNDS)):
        for alg in ("uncoupled", "lia", "olia"):
            out[f"cc_{key}_{alg}"] = float(cc.loc[(setting, alg), "congested_share"])
            out[f"cc_{key}_{alg}_ci"] = float(cc.loc[(setting, alg), "ci_share"])
    for alg in ("uncoupled", "lia"):
        out[f"cc_expected_{alg}"] = float(cc.loc[(BYTES, alg), "expected_share"])
    dd = dup.set_index(["dupack_mode", "retransmit"])
    for m in ("rfc", "paper", "chihani"):
        for r in ("original", "reinject"):
            out[f"dup_{m}_{r}_mbps"] = float(dd.loc[(m, r), "goodput_bps"]) / 1e6
            out[f"dup_{m}_{r}_reinj"] = float(dd.loc[(m, r), "reinjections"])
        out[f"dup_{m}_fr"] = float(dd.loc[(m, "original"), "fast_retransmits"])
        out[f"dup_{m}_spurious"] = float(dd.loc[(m, "original"), "spurious_retransmissions"])
    out["checks_met"] = sum(c["verdict"] == "met" for c in table.checks)
    out["checks_undecided"] = sum(c["verdict"].startswith("undecided") for c in table.checks)
    out["checks_all"] = len(table.checks)
    return out


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
           "RFC_BAND", "PORT_NOTE", "ns3_comparison", "ns3_chapter_table", "ns3_facts", "mptcp_comparison", "mptcp_facts", "wifi_comparison"]
