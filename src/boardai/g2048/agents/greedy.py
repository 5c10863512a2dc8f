"""``greedy``: the legal move with the largest immediate reward, ties broken at random."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from boardai.g2048.agents import REGISTRY
from boardai.g2048.board import Board


@dataclass
class GreedyOptions:
    """``greedy`` has no options."""


class GreedyAgent:
    """Plays the legal move that makes the most points now (seeded random tie-break)."""

    def __init__(self, seed: int | None = None, name: str = "greedy") -> None:
        self.name = name
        self.rng = np.random.default_rng(seed)

    def reset(self) -> None:
        """Nothing to clear: the rng stream carries on across games."""

    def reseed(self, seed: int) -> None:
        """Restart the rng from ``seed`` (the arena does this before every game)."""
        self.rng = np.random.default_rng(seed)

    def act(self, state: Board) -> int:
        legal = state.legal_actions()
        if not legal:
            raise ValueError("no legal move: the game is over")
        rewards = [state.slide(a)[1] for a in legal]
        top = max(rewards)
        best = [a for a, r in zip(legal, rewards, strict=True) if r == top]
        return best[int(self.rng.integers(len(best)))]


@REGISTRY.register("greedy", GreedyOptions, public={})
def make_greedy(opts: GreedyOptions, seed: int | None) -> GreedyAgent:
    """The legal move with the largest immediate reward (ties at random)."""
    return GreedyAgent(seed)
