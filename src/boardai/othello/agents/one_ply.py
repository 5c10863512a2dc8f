"""``greedy`` (most discs after the move) and ``wpc`` (the Othello League's standard weighted
piece counter), both 1-ply with ties broken at random."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from boardai.othello import evaluation as E
from boardai.othello.agents import REGISTRY
from boardai.othello.agents._seeded import SeededAgent
from boardai.othello.board import Board


@dataclass
class OnePlyOptions:
    """1-ply players have no options."""


class OnePlyAgent(SeededAgent):
    """Plays the move whose afterstate scores best under a compiled 1-ply evaluation."""

    def __init__(self, kind: int, name: str, seed: int | None = None) -> None:
        super().__init__(seed)
        self.name = name
        self.kind = kind

    def act(self, state: Board) -> int:
        if state.is_terminal():
            raise ValueError("no legal move: the game is over")
        self._state, a = E.best_one_ply(
            np.uint64(state.mover),
            np.uint64(state.opponent),
            self.kind,
            E.WPC_WEIGHTS,
            np.uint64(self._state),
        )
        return int(a)


@REGISTRY.register("greedy", OnePlyOptions, public={})
def make_greedy(opts: OnePlyOptions, seed: int | None) -> OnePlyAgent:
    """The move that leaves the most own discs (ties at random)."""
    return OnePlyAgent(E.GREEDY, "greedy", seed)


@REGISTRY.register("wpc", OnePlyOptions, public={})
def make_wpc(opts: OnePlyOptions, seed: int | None) -> OnePlyAgent:
    """The Othello League's standard weighted piece counter, 1-ply (ties at random)."""
    return OnePlyAgent(E.WPC, "wpc", seed)
