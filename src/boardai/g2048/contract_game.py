"""2048 under the game contract (:mod:`boardai.contract`): a thin state over
:class:`~boardai.g2048.game.Game`.

A move is two steps of the contract: the player's slide (the state is then at a chance node,
holding the afterstate) and the spawn, a chance outcome ``cell + 16 * (tile == 4)``. The
game's own spawn stream decides :meth:`State2048.sample_chance`; applying any outcome advances
it by one draw, as :meth:`Game.move` with a forced spawn does, so a seeded game stays in step
with its seed whatever outcomes are applied.

>>> s = RULES.new(seed=1)
>>> s.turn(), s.legal_actions()[:1]
(0, [0])
>>> s.apply(0); s.turn()
-1
>>> s.apply(s.sample_chance()); s.turn()
0
"""

from __future__ import annotations

from typing import Any

import numpy as np

from boardai.contract import CHANCE, TERMINAL
from boardai.g2048.board import Board
from boardai.g2048.game import Game, spawn_of
from boardai.rng import Stream

#: A spawned 4's outcome is its cell plus this.
FOUR = 16


class State2048:
    """One 2048 game under the contract."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.pending: int | None = None  # the slide played, its spawn not yet applied
        self.after: Board | None = None

    def turn(self) -> int:
        if self.pending is not None:
            return CHANCE
        return TERMINAL if self.game.is_over() else 0

    def legal_actions(self) -> list[int]:
        if self.pending is not None:
            return [o for o, _ in self.chance_outcomes()]
        return self.game.board.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.after is None:
            return []
        empties = self.after.empty_cells()
        p4 = self.game.p4
        outcomes = [(c, (1 - p4) / len(empties)) for c in empties]
        outcomes += [(c + FOUR, p4 / len(empties)) for c in empties]
        return [(o, p) for o, p in outcomes if p > 0]

    def sample_chance(self) -> int:
        if self.after is None:
            raise ValueError("not a chance node")
        cell, value = spawn_of(self.after, Stream(self.game.rng.state).next(), self.game.p4)
        return cell + (FOUR if value == 4 else 0)

    def apply(self, action: int) -> None:
        if self.pending is None:
            if action not in self.game.board.legal_actions():
                raise ValueError(f"action {action} is illegal here")
            after, _ = self.game.board.slide(action)
            self.pending, self.after = action, after
            return
        assert self.after is not None
        cell, four = action % FOUR, action // FOUR
        if not 0 <= action < 2 * FOUR or cell not in self.after.empty_cells():
            raise ValueError(f"outcome {action} is not a spawn on an empty cell")
        self.game.move(self.pending, spawn=(cell, 4 if four else 2))
        self.pending = self.after = None

    def step(self, action: int) -> None:
        """The player's ``action`` and the spawn the seed draws after it, in one
        :meth:`Game.move` (the arena's play loop: one slide and one spawn a move, not two).

        Raises:
            ValueError: the action is illegal, or the state is at a chance node.
        """
        if self.pending is not None:
            raise ValueError("a chance node: apply its outcome")
        self.game.move(action)

    def is_over(self) -> bool:
        return self.pending is None and self.game.is_over()

    def outcome(self) -> tuple[float, ...]:
        return (float(self.game.score),)

    def to_record(self) -> dict[str, Any]:
        return self.game.to_record()


class Rules2048:
    """2048's entry in the per-game table."""

    name = "2048"
    players = 1

    def new(self, seed: int, index: int = 0) -> State2048:
        return State2048(Game(seed, index=index))

    def from_record(self, record: dict[str, Any]) -> State2048:
        return State2048(Game.from_record(record))

    def key(self, state: Any) -> Any:
        return (int(state.game.board), state.pending, state.game.score)

    def play_random(self, seed: int, first: int, n: int) -> np.ndarray:
        from boardai.g2048.kernels import play_random_games

        scores, _, _ = play_random_games(n, np.uint64(seed), 0.1, 2, 0.1, first)
        return scores.astype(np.float64).reshape(n, 1)


RULES = Rules2048()
