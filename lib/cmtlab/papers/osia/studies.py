"""The OSIA Figs. 7–9 chapter's side studies as functions (the chapter calls them; figures in :mod:`.figures`).

* :func:`single_tcp_check` — what the path model of sec. 5.1 does to one TCP flow (round robin on one path);
* :func:`decision_study` — why lowest-RTT and EDPF coincide with round robin: their decisions per window;
* :func:`deep_cell` — the largest delay ratio under the paper's and the RFC's duplicate-ACK rules.
"""

from __future__ import annotations

import pandas as pd

from . import experiments as ex


def single_tcp_check(loads, *, shape: float, seeds, packets: int, workers: int = 1) -> pd.DataFrame:
    """One TCP flow (round robin over one path, :func:`cmtlab.papers.osia.experiments.fig9_cases` ``[1]``) under
    the path model at each cross load of ``loads``, without and with the varying bit-error rate: mean
    goodput (Mbit/s), timeouts and fast retransmits over ``seeds``."""
    single = ex.fig9_cases([1])
    rows = []
    for load in loads:
        for with_ber in (False, True):
            pm = ex.PathModel(cross_load=load, shape=shape, ber=with_ber)
            runs = ex.build_runs("fig9", single, schedulers=["round_robin"], seeds=seeds, packets=packets,
                                 path_model=pm)
            t = ex.run_experiment(runs, simulate_fn=ex.simulate_tunnel, progress=False, workers=workers)
            rows.append({"cross load": load, "BER": "on" if with_ber else "off",
                         "goodput (Mbit/s)": t.goodput_bps.mean() / 1e6, "timeouts": t.timeouts.mean(),
                         "fast retransmits": t.dupack_events.mean()})
    return pd.DataFrame(rows)


def decision_study(cases: pd.DataFrame, *, packets: int, path_model, windows=(1, 64),
                   schedulers=("round_robin", "lowest_rtt", "edpf")) -> pd.DataFrame:
    """The decisions of ``schedulers`` (:func:`cmtlab.papers.osia.experiments.decision_profiles`, seed 0) on
    ``cases`` for each initial window (segments) of ``windows``; one row per run with a ``window`` column."""
    rows = []
    for w in windows:
        runs = ex.build_runs("fig8", cases, schedulers=list(schedulers), seeds=[0], packets=packets,
                             path_model=path_model, initial_window_bytes=w * ex.SEGMENT_BYTES)
        rows.append(ex.decision_profiles(runs).assign(window=w))
    return pd.concat(rows, ignore_index=True)


def deep_cell(cases: pd.DataFrame, *, schedulers, seeds, packets: int, path_model, workers: int = 1,
              modes=("paper", "rfc")) -> pd.DataFrame:
    """Every scheduler of ``schedulers`` on ``cases`` (one grid cell) under each duplicate-ACK rule of
    ``modes``; one row per run with a ``dupack_mode`` column."""
    rows = []
    for mode in modes:
        runs = ex.build_runs("fig7", cases, schedulers=list(schedulers), seeds=seeds, packets=packets,
                             path_model=path_model, dupack_mode=mode)
        rows.append(ex.run_experiment(runs, workers=workers, progress=False).assign(dupack_mode=mode))
    return pd.concat(rows, ignore_index=True)
