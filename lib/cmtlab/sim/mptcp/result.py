"""The result of an MPTCP run: :class:`MptcpResult`, a :class:`~cmtlab.scenario.TransferResult` with one row per subflow."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ...scenario import TransferResult


class _RowsFrame:
    """A result's table given as a DataFrame or as its rows (a list of dicts): read, it is a
    DataFrame, built from the rows on first reading (a run that no one reads the table of does
    not pay pandas' cost, about 0.15 ms)."""

    def __set_name__(self, owner, name):
        self.slot = "_" + name

    def __get__(self, obj, objtype=None):
        if obj is None:
            return None  # the field's default: an empty table
        value = obj.__dict__[self.slot]
        if not isinstance(value, pd.DataFrame):
            value = pd.DataFrame(value if value is not None else [])
            obj.__dict__[self.slot] = value
        return value

    def __set__(self, obj, value):
        if value is self:  # the dataclass default (field(default=...) hands over the descriptor itself)
            value = None
        if value is not None and not isinstance(value, (pd.DataFrame, list)):
            raise TypeError(f"subflows must be a DataFrame or a list of row dicts, got {type(value).__name__}")
        obj.__dict__[self.slot] = value


@dataclass
class MptcpResult(TransferResult):
    """A :class:`~cmtlab.scenario.TransferResult` with per-subflow columns (``subflows``) and :meth:`row`."""

    subflows: pd.DataFrame = field(default=_RowsFrame(), repr=False)
    delivered_bytes: int = 0

    @property
    def throughput_bps(self) -> float:
        sc = self.scenario
        if sc.transfer_bytes is not None:
            return super().throughput_bps
        t = self.extra.get("sim_time_s", float("nan"))
        return self.delivered_bytes * 8.0 / t if t > 0 else float("nan")

    def row(self) -> dict:
        """One tidy row: scenario fields, connection metrics, per-subflow metrics as ``sf<i>_<name>``."""
        sc = self.scenario
        row = {"simulator": self.simulator, "n_subflows": sc.n_subflows, "congestion": sc.congestion,
               "scheduler": sc.scheduler, "reordering": sc.reordering, "dupack_mode": sc.dupack_mode,
               "transfer_bytes": sc.transfer_bytes, "duration_s": sc.duration_s, "seed": sc.seed,
               "completed": self.completed, "completion_time_s": self.completion_time_s,
               "throughput_bps": self.throughput_bps, "data_segments_sent": self.data_segments_sent,
               "retransmissions": self.retransmissions, "fast_retransmits": self.fast_retransmits,
               "timeouts": self.timeouts, "spurious_retransmissions": self.spurious_retransmissions,
               "wall_time_s": self.wall_time_s, "scenario_key": sc.key()}
        row.update({k: v for k, v in self.extra.items() if np.isscalar(v)})
        for rec in self.subflows.to_dict("records"):
            i = rec.pop("subflow")
            row.update({f"sf{i}_{k}": v for k, v in rec.items()})
        return row

    to_row = row


__all__ = ["MptcpResult"]
