"""The scoreboard's one lost-marking loop (Scoreboard._mark_lost), used by RFC 6675 IsLost
(_update_lost_count) and by F-RTO's fall-back to conventional RTO recovery (UndoApi)."""

import random

import pytest

from cmtlab.sim.tcp.flags import LOST, RETRANS, SACKED
from cmtlab.sim.tcp.undo import UndoApi


class Board(UndoApi):
    """Just the attributes the two operations read and write (a TcpSender has them all; UndoApi
    derives from Scoreboard)."""

    def __init__(self, flags, una, high, *, sack=True):
        self.mask = len(flags) - 1
        self.flags = bytearray(flags)
        self.una, self.high, self.sack = una, high, sack
        self.lost_out = sum(1 for k in range(una, high) if flags[k & self.mask] & LOST)
        self.lost_pending = self.sacked_out = 0
        self.highest_sack = -1
        self.lost_cursor = self.lost_marked_upto = una
        self.seg, self.cwnd, self.trace = 1000, 10_000, None


def random_board(rng, **kw):
    flags = [rng.choice([0, SACKED, LOST, RETRANS, LOST | RETRANS, SACKED | RETRANS]) for _ in range(64)]
    una = rng.randrange(0, 40)
    return Board(flags, una, una + rng.randrange(1, 20), **kw)


@pytest.mark.parametrize("seed", range(20))
def test_mark_lost_marks_exactly_the_unsacked_unlost(seed):
    rng = random.Random(seed)
    b = random_board(rng)
    before = list(b.flags)
    lo, hi = b.una + rng.randrange(0, 3), b.high
    lost_out, pending = b.lost_out, b.lost_pending
    marked = b._mark_lost(lo, hi)
    new = [k for k in range(lo, hi) if not before[k & b.mask] & (SACKED | LOST)]
    assert marked == bool(new)
    assert b.lost_out - lost_out == len(new)
    assert b.lost_pending - pending == sum(1 for k in new if not before[k & b.mask] & RETRANS)
    for k in range(64):
        expect = before[k] | LOST if any((j & b.mask) == k for j in new) else before[k]
        assert b.flags[k] == expect


@pytest.mark.parametrize("sack", [True, False])
def test_conventional_rto_recovery_loses_every_unsacked_segment(sack):
    rng = random.Random(7)
    for _ in range(20):
        b = random_board(rng, sack=sack)
        b.conventional_rto_recovery(0)
        for k in range(b.una, b.high):
            f = b.flags[k & b.mask]
            assert f & LOST or (sack and f & SACKED)
        assert b.lost_cursor == b.una and b.lost_marked_upto == b.high
        assert b.lost_out == sum(1 for k in range(b.una, b.high) if b.flags[k & b.mask] & LOST)
        assert b.cwnd <= 3 * b.seg
