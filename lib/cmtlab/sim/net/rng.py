"""Random numbers for link loss: L'Ecuyer's MRG32k3a with ns-3's stream layout.

ns-3 draws every random variable from MRG32k3a (L'Ecuyer, Simard, Chen & Kelton 2002,
"An object-oriented random-number package with many long streams and substreams") and
identifies a stream by ``RngSeedManager`` seed, a stream index and the run number: the
generator state starts as six copies of the seed and is advanced by
``stream * 2**127 + run * 2**76`` steps; streams set explicitly (``AssignStreams``) use
index ``2**63 + n``.

:class:`Mrg32k3a` reproduces that generator (``random()`` returns the same sequence as
ns-3's ``UniformRandomVariable(0, 1)::GetValue()``), so cmtlab.sim can draw its losses from
exactly the stream :mod:`cmtlab.ns3` gives the ``RateErrorModel`` of the same link — the
two simulators then see the same random losses (common random numbers), which takes
sampling noise out of simulator comparisons.  The generator is also simply a good,
seedable, platform-independent generator.
"""

from __future__ import annotations

import functools

M1 = 4294967087
M2 = 4294944443
_NORM = 2.328306549295727688e-10  # 1 / (M1 + 1)
_A12, _A13N = 1403580, 810728
_A21, _A23N = 527612, 1370589

_A1 = ((0, 1, 0), (0, 0, 1), (M1 - _A13N, _A12, 0))
_A2 = ((0, 1, 0), (0, 0, 1), (M2 - _A23N, 0, _A21))

#: ``RngSeedManager`` seed :mod:`cmtlab.ns3` uses for every run.
NS3_SEED = 1
#: First stream index of ns-3's deterministic (``AssignStreams``) streams.
NS3_ASSIGNED_STREAM_BASE = 1 << 63


def _matmul(a, b, m):
    (a0, a1, a2), (a3, a4, a5), (a6, a7, a8) = a
    (b0, b1, b2), (b3, b4, b5), (b6, b7, b8) = b
    return (((a0 * b0 + a1 * b3 + a2 * b6) % m, (a0 * b1 + a1 * b4 + a2 * b7) % m, (a0 * b2 + a1 * b5 + a2 * b8) % m),
            ((a3 * b0 + a4 * b3 + a5 * b6) % m, (a3 * b1 + a4 * b4 + a5 * b7) % m, (a3 * b2 + a4 * b5 + a5 * b8) % m),
            ((a6 * b0 + a7 * b3 + a8 * b6) % m, (a6 * b1 + a7 * b4 + a8 * b7) % m, (a6 * b2 + a7 * b5 + a8 * b8) % m))


_POW2_CACHE: dict = {}


def _pow2(a, k, m):
    """``a ** (2 ** k) mod m`` (cached: the jump matrices are shared by every generator)."""
    key = (a, k)
    r = _POW2_CACHE.get(key)
    if r is None:
        r = a if k == 0 else _matmul(_pow2(a, k - 1, m), _pow2(a, k - 1, m), m)
        _POW2_CACHE[key] = r
    return r


@functools.lru_cache(maxsize=1024)
def _matpow(a, e, m):
    """``a ** e mod m`` (cached: a scenario's generators sit at the same few stream positions in every run)."""
    result = ((1, 0, 0), (0, 1, 0), (0, 0, 1))
    k = 0
    while e:
        if e & 1:
            result = _matmul(result, _pow2(a, k, m), m)
        e >>= 1
        k += 1
    return result


def _apply(a, v, m):
    return [sum(a[i][k] * v[k] for k in range(3)) % m for i in range(3)]


@functools.lru_cache(maxsize=4096)
def _start_state(seed: int, stream: int, substream: int) -> tuple:
    """The six-integer state of ``RngStream(seed, stream, substream)`` (cached: a scenario's
    generators start at the same few stream positions in every run)."""
    steps = (stream << 127) + (substream << 76)
    s1 = _apply(_matpow(_A1, steps, M1), [seed] * 3, M1)
    s2 = _apply(_matpow(_A2, steps, M2), [seed] * 3, M2)
    return tuple(s1 + s2)


class Mrg32k3a:
    """MRG32k3a positioned like ns-3's ``RngStream(seed, stream, substream)``.

    ``random()`` returns a float in (0, 1), bit-identical to ns-3's ``RngStream::RandU01``.
    """

    __slots__ = ("_s",)

    def __init__(self, seed: int = NS3_SEED, stream: int = 0, substream: int = 0):
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 < seed < M2:
            raise ValueError(f"seed must be an integer in [1, {M2 - 1}], got {seed!r}")
        if isinstance(stream, bool) or not isinstance(stream, int) or stream < 0:
            raise ValueError(f"stream must be an integer >= 0, got {stream!r}")
        if isinstance(substream, bool) or not isinstance(substream, int) or substream < 0:
            raise ValueError(f"substream must be an integer >= 0, got {substream!r}")
        self._s = list(_start_state(seed, stream, substream))

    @classmethod
    def ns3_assigned(cls, stream: int, run: int, seed: int = NS3_SEED) -> "Mrg32k3a":
        """The stream ns-3 gives a random variable after ``AssignStreams(stream)`` in run ``run``."""
        return cls(seed, NS3_ASSIGNED_STREAM_BASE + stream, run)

    def random(self) -> float:
        s = self._s
        p1 = (_A12 * s[1] - _A13N * s[0]) % M1
        p2 = (_A21 * s[5] - _A23N * s[3]) % M2
        self._s = [s[1], s[2], p1, s[4], s[5], p2]
        return (p1 - p2) * _NORM if p1 > p2 else (p1 - p2 + M1) * _NORM


def loss_rng(seed: int, link: int) -> Mrg32k3a:
    """Loss generator of data link ``link``: the MRG32k3a stream ns-3 gives the link's
    ``RateErrorModel`` in :mod:`cmtlab.ns3` (``AssignStreams(link)``, run ``seed + 1``)."""
    return Mrg32k3a.ns3_assigned(link, seed + 1)
