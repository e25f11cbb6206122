"""Captions of the figures of "Today's transport" (:class:`cmtlab.report.figure.Caption`): checks of today's
stack and the papers' conclusions re-tested on it; no figure of a paper is reproduced here."""

from __future__ import annotations

from ..report.figure import Caption


def kernel_agreement() -> Caption:
    return Caption("today-kernel-agreement", "Per cell and metric, the kernel's min–max over its repetitions (bar) "
                   "and each simulator configuration's mean (marker): goodput and retransmissions relative to the "
                   "kernel's mean (clipped at 3), spurious retransmissions per run (symmetric-log axis)",
                   look="A marker inside its bar is a cell inside the kernel's spread")


def replay_check() -> Caption:
    return Caption("today-replay-check", "One panel per recorded trace: the scheduled rate per interval (steps) and "
                   "what each replay delivered in it (the testbed's delay line and cmtlab.sim's RateTraceLink, both "
                   "saturated by one CUBIC flow)",
                   look="An open marker is an interval in which the line was not backlogged")


def axes_goodput() -> Caption:
    return Caption("today-axes-goodput", "Mean goodput (95 % CI) per mechanism, one panel per axis and scenario: "
                   "the papers' mechanisms in grey, today's in colour")


__all__ = ["kernel_agreement", "replay_check", "axes_goodput"]
