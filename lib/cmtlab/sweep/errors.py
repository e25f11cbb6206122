"""Errors of a sweep: a simulator failed on a scenario, or a process holds outdated simulator code."""

from __future__ import annotations

__all__ = ["SimulationError", "StaleSimulatorError"]


class StaleSimulatorError(RuntimeError):
    """A process holds other simulator code than the sweep's code version says (the source
    changed after that process imported it); its results must not enter the cache."""


class SimulationError(RuntimeError):
    """A simulator failed on one scenario (it raised, or returned something else than a
    :class:`~cmtlab.scenario.TransferResult` or a dict row for that scenario).

    Attributes: ``simulator`` (name), ``scenario`` (the scenario, seed applied), ``position``
    (index of the scenario in the sweep's input, when known), ``labels``, ``error_type`` (class
    name of the original exception) and ``worker_traceback`` (the traceback text in the process
    that ran it).
    """

    simulator: str | None = None
    scenario: object | None = None
    task_id: int | None = None
    position: int | None = None
    labels: dict | None = None
    error_type: str | None = None
    worker_traceback: str | None = None


def _simulation_error(message: str, **attributes) -> SimulationError:
    err = SimulationError(message)
    for k, v in attributes.items():  # instance attributes travel with pickle (BaseException.__reduce__)
        setattr(err, k, v)
    return err

