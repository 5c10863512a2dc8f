"""``random``: a uniformly random legal move."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from boardai.othello import kernels as K
from boardai.othello.agents import REGISTRY
from boardai.othello.agents._seeded import SeededAgent
from boardai.othello.board import Board


@dataclass
class RandomOptions:
    """``random`` has no options."""


class RandomAgent(SeededAgent):
    """Plays a uniformly random legal move (PASS when forced)."""

    def __init__(self, seed: int | None = None, name: str = "random") -> None:
        super().__init__(seed)
        self.name = name

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
