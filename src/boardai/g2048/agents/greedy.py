"""``greedy``: the legal move with the largest immediate reward, ties broken at random."""

from __future__ import annotations

from dataclasses import dataclass

from boardai.g2048.agents import REGISTRY
from boardai.g2048.agents._seeded import SeededAgent
from boardai.g2048.board import Board


@dataclass
class GreedyOptions:
    """``greedy`` has no options."""


class GreedyAgent(SeededAgent):
    """Plays the legal move that makes the most points now (seeded random tie-break)."""

    def __init__(self, seed: int | None = None, name: str = "greedy") -> None:
        super().__init__(seed)
        self.name = name

    def act(self, state: Board) -> int:
        legal = state.legal_actions()
        if not legal:
            raise ValueError("no legal move: the game is over")
        rewards = [state.slide(a)[1] for a in legal]
        top = max(rewards)
        best = [a for a, r in zip(legal, rewards, strict=True) if r == top]
        return best[self.rng.integers(len(best))]


@REGISTRY.register("greedy", GreedyOptions, public={})
def make_greedy(opts: GreedyOptions, seed: int | None) -> GreedyAgent:
    """The legal move with the largest immediate reward (ties at random)."""
    return GreedyAgent(seed)
