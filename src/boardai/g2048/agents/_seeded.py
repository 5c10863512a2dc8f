"""The rng of the 2048 players that draw (``random``; ``greedy`` breaks ties): a splitmix64
:class:`~boardai.rng.Stream`, seeded when the player is built and again by the arena before
every game (``reseed``, with :func:`~boardai.rng.player_stream`), so a game depends only on
its seed, and draws as the compiled loops' players do."""

from __future__ import annotations

import secrets

from boardai.rng import Stream


class SeededAgent:
    """A player whose moves draw from its own rng, ``self.rng``.

    >>> a, b = SeededAgent(7), SeededAgent(8)
    >>> b.reseed(7)
    >>> a.rng.integers(1000) == b.rng.integers(1000)
    True
    """

    def __init__(self, seed: int | None = None) -> None:
        self.rng = Stream(secrets.randbits(64) if seed is None else seed)

    def reset(self) -> None:
        """Nothing to clear: the rng stream carries on across games."""

    def reseed(self, seed: int) -> None:
        """Restart the rng from state ``seed`` (the arena does this before every game)."""
        self.rng = Stream(seed)
