"""``random``: a uniformly random legal move (seed 000's baseline, about 1,000 points)."""

from __future__ import annotations

from dataclasses import dataclass

from boardai.g2048.agents import REGISTRY
from boardai.g2048.agents._seeded import SeededAgent
from boardai.g2048.board import Board


@dataclass
class RandomOptions:
    """``random`` has no options."""


class RandomAgent(SeededAgent):
    """Plays a uniformly random legal move."""

    def __init__(self, seed: int | None = None, name: str = "random") -> None:
        super().__init__(seed)
        self.name = name

    def act(self, state: Board) -> int:
        legal = state.legal_actions()
        if not legal:
            raise ValueError("no legal move: the game is over")
        return legal[self.rng.integers(len(legal))]


@REGISTRY.register("random", RandomOptions, public={})
def make_random(opts: RandomOptions, seed: int | None) -> RandomAgent:
    """A uniformly random legal move."""
    return RandomAgent(seed)
