"""The rng of the Othello players that draw (``random``; ``greedy`` and ``wpc`` break ties):
a splitmix64 state that their compiled kernels advance, seeded when the player is built and
again by matches before every game (``reseed``), so a game depends only on its seed."""

from __future__ import annotations

import numpy as np

from boardai.othello import kernels as K


def seed_state(seed: int | None) -> np.uint64:
    """A splitmix64 state for an agent's compiled rng (fresh entropy when ``seed`` is None)."""
    if seed is None:
        seed = int(np.random.SeedSequence().generate_state(1, np.uint64)[0])
    return K.seed_stream(np.uint64(seed & ((1 << 64) - 1)), np.uint64(0x07E110))


class SeededAgent:
    """A player whose moves draw from its own rng stream, ``self._state``.

    >>> a, b = SeededAgent(7), SeededAgent(8)
    >>> b.reseed(7)
    >>> a._state == b._state
    True
    """

    def __init__(self, seed: int | None = None) -> None:
        self._state = seed_state(seed)

    def reset(self) -> None:
        """Nothing to clear: the rng stream carries on across games."""

    def reseed(self, seed: int) -> None:
        """Restart the rng from ``seed`` (matches do this per game)."""
        self._state = seed_state(seed)
