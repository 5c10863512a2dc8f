"""The one random number generator of compiled loops, shared by both games: splitmix64.

One ``uint64`` of state per stream; :func:`seed_stream` gives stream ``index`` of a seed, so
game i of a run draws the same numbers however the games are spread over workers.
See https://prng.di.unimi.it/splitmix64.c (Vigna).
"""

from __future__ import annotations

import numpy as np

from boardai._jit import njit

_GOLDEN = np.uint64(0x9E37_79B9_7F4A_7C15)
_MIX1 = np.uint64(0xBF58_476D_1CE4_E5B9)
_MIX2 = np.uint64(0x94D0_49BB_1331_11EB)


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
    """The rng state of stream ``index`` of ``seed`` (games of one seed get distinct streams)."""
    _, a = splitmix64(np.uint64(seed))
    _, b = splitmix64(a ^ (np.uint64(index) * _GOLDEN))
    return b
