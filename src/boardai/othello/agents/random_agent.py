"""``random``: a uniformly random legal move."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from boardai.othello import kernels as K
from boardai.othello.agents import REGISTRY
from boardai.othello.board import Board


def seed_state(seed: int | None) -> np.uint64:
    """A splitmix64 state for an agent's compiled rng (fresh entropy when ``seed`` is None)."""
    if seed is None:
        seed = int(np.random.SeedSequence().generate_state(1, np.uint64)[0])
    return K.seed_stream(np.uint64(seed & ((1 << 64) - 1)), np.uint64(0x07E110))


@dataclass
class RandomOptions:
    """``random`` has no options."""


class RandomAgent:
    """Plays a uniformly random legal move (PASS when forced)."""

    def __init__(self, seed: int | None = None, name: str = "random") -> None:
        self.name = name
        self._state = seed_state(seed)

    def reset(self) -> None:
        """Nothing to clear: the rng stream carries on across games."""

    def reseed(self, seed: int) -> None:
        """Restart the rng from ``seed`` (matches do this per game)."""
        self._state = seed_state(seed)

    def act(self, state: Board) -> int:
        if state.is_terminal():
            raise ValueError("no legal move: the game is over")
        self._state, a = K.random_action(
            np.uint64(state.mover), np.uint64(state.opponent), np.uint64(self._state)
        )
        return int(a)


@REGISTRY.register("random", RandomOptions, public={})
def make_random(opts: RandomOptions, seed: int | None) -> RandomAgent:
    """A uniformly random legal move."""
    return RandomAgent(seed)
