"""The rng of the 2048 players that draw (``random``; ``greedy`` breaks ties): a numpy
``Generator`` seeded when the player is built and again by the arena before every game
(``reseed``), so a game depends only on its seed."""

from __future__ import annotations

import numpy as np


class SeededAgent:
    """A player whose moves draw from its own rng, ``self.rng``.

    >>> a, b = SeededAgent(7), SeededAgent(8)
    >>> b.reseed(7)
    >>> int(a.rng.integers(1000)) == int(b.rng.integers(1000))
    True
    """

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def reset(self) -> None:
        """Nothing to clear: the rng stream carries on across games."""

    def reseed(self, seed: int) -> None:
        """Restart the rng from ``seed`` (the arena does this before every game)."""
        self.rng = np.random.default_rng(seed)
