"""The one random number generator of both games, and the one seeding rule: splitmix64.

One ``uint64`` of state per stream; :func:`seed_stream` gives stream ``index`` of a seed, so
game i of a run draws the same numbers however the games are spread over workers.
See https://prng.di.unimi.it/splitmix64.c (Vigna).

**The seeding rule.** Game ``i`` of seed ``S`` draws its chance events (2048's spawns) from
``seed_stream(S, i)``, and its players draw their own moves (a random mover, epsilon, ties)
from :func:`agent_stream` ``(S, i)``, a separate stream, so a player that draws never shifts
the spawns. Every path that plays game i of seed S follows it: the compiled loops, the
:class:`~boardai.g2048.game.Game` and the arena, the environments' seeded resets, and
training-time evaluation; so the same seed gives the same games whichever command plays them.

The compiled functions run in compiled loops; :class:`Stream` is the same generator in plain
Python (a numba call from Python costs more than the arithmetic), for games played move by
move.

>>> Stream(seed_stream(5, 0)).next() == int(splitmix64(seed_stream(5, 0))[1])
True
"""

from __future__ import annotations

import numpy as np

from boardai._jit import njit

_GOLDEN = np.uint64(0x9E37_79B9_7F4A_7C15)
_MIX1 = np.uint64(0xBF58_476D_1CE4_E5B9)
_MIX2 = np.uint64(0x94D0_49BB_1331_11EB)
#: Set in the index of a player's stream: games never reach 2^63, so no spawn stream has it.
AGENT_BIT = np.uint64(1 << 63)

_M64 = (1 << 64) - 1
_GOLDEN_INT = int(_GOLDEN)
_MIX1_INT = int(_MIX1)
_MIX2_INT = int(_MIX2)


@njit("UniTuple(u8, 2)(u8)")
def splitmix64(state: np.uint64) -> tuple[np.uint64, np.uint64]:
    """One step of splitmix64: (next state, 64 random bits)."""
    state = state + _GOLDEN
    z = state
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return state, z ^ (z >> np.uint64(31))


@njit("u8(u8, u8)")
def seed_stream(seed: np.uint64, index: np.uint64) -> np.uint64:
    """The rng state of stream ``index`` of ``seed``: game ``index``'s chance events."""
    _, a = splitmix64(np.uint64(seed))
    _, b = splitmix64(a ^ (np.uint64(index) * _GOLDEN))
    return b


@njit("u8(u8, u8)")
def agent_stream(seed: np.uint64, index: np.uint64) -> np.uint64:
    """The rng state of the players' own draws in game ``index`` of ``seed``."""
    return seed_stream(seed, np.uint64(index) | AGENT_BIT)


@njit("i8(u8, i8)")
def below(bits: np.uint64, n: int) -> np.int64:
    """A number in ``0 .. n-1`` from the high 32 bits of ``bits`` (Lemire's multiply-shift:
    uniform up to 2^-32, no division)."""
    return np.int64(((bits >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


def _mix(state: int) -> tuple[int, int]:
    state = (state + _GOLDEN_INT) & _M64
    z = state
    z = ((z ^ (z >> 30)) * _MIX1_INT) & _M64
    z = ((z ^ (z >> 27)) * _MIX2_INT) & _M64
    return state, z ^ (z >> 31)


def game_stream(seed: int, index: int) -> int:
    """:func:`seed_stream` in plain Python: the state of game ``index`` of ``seed``'s spawns."""
    _check(seed, index)
    return _stream(seed, index)


def player_stream(seed: int, index: int) -> int:
    """:func:`agent_stream` in plain Python: the players' draws in game ``index`` of ``seed``."""
    _check(seed, index)
    return _stream(seed, index | (1 << 63))


def _stream(seed: int, index: int) -> int:
    _, a = _mix(seed & _M64)
    return _mix(a ^ ((index * _GOLDEN_INT) & _M64))[1]


def _check(seed: int, index: int) -> None:
    if seed < 0 or not 0 <= index < 1 << 63:
        raise ValueError(f"seed and index must be >= 0 (index < 2^63), got {seed}, {index}")


class Stream:
    """A splitmix64 stream in plain Python, drawing exactly as the compiled loops do.

    >>> s = Stream(7)
    >>> a = [s.integers(4) for _ in range(3)]
    >>> s.state = 7
    >>> [s.integers(4) for _ in range(3)] == a
    True
    """

    def __init__(self, state: int) -> None:
        self.state = int(state) & _M64

    def next(self) -> int:
        """64 random bits."""
        self.state, bits = _mix(self.state)
        return bits

    def integers(self, n: int) -> int:
        """A number in ``0 .. n-1`` (:func:`below` of the next draw)."""
        return ((self.next() >> 32) * n) >> 32
