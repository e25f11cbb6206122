"""Shared by the tests that run the real kernel (test_testbed*.py): ``live`` skips them where the testbed cannot run.

Outside CI a missing requirement (root, TUN, ``ip``/``ss``, MPTCP, a C compiler) skips the live tests; in CI it is
an error at collection, so that CI never passes by skipping the kernel.
"""

import os

import pytest

import cmtlab.testbed as tb

IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def _missing() -> str | None:
    try:
        tb.check_environment(mptcp=True)
    except RuntimeError as exc:
        return str(exc)
    return None


KERNEL_MISSING = _missing()
if KERNEL_MISSING and IN_CI:
    raise RuntimeError(f"cmtlab.testbed cannot run in CI: {KERNEL_MISSING}")
live = pytest.mark.skipif(KERNEL_MISSING is not None, reason=f"cmtlab.testbed unavailable: {KERNEL_MISSING}")
