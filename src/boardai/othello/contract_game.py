"""Othello under the game contract (:mod:`boardai.contract`): a thin state over
:class:`~boardai.othello.game.Game`, and the compiled random games.

Othello has no chance nodes: the seed only reaches the players, through their stream
(:func:`~boardai.rng.agent_stream`). Player 0 is black, 1 white; a forced pass is the one
legal action :data:`~boardai.othello.board.PASS`.

>>> s = RULES.new(seed=0)
>>> s.turn(), len(s.legal_actions())
(0, 4)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from boardai._jit import njit
from boardai.contract import TERMINAL
from boardai.othello import kernels as K
from boardai.othello.board import BLACK
from boardai.othello.game import Game
from boardai.rng import agent_stream, below, splitmix64


class StateOthello:
    """One Othello game under the contract."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def turn(self) -> int:
        return TERMINAL if self.game.is_over() else self.game.board.to_move

    def legal_actions(self) -> list[int]:
        return self.game.board.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return []

    def sample_chance(self) -> int:
        raise ValueError("Othello has no chance nodes")

    def apply(self, action: int) -> None:
        if self.game.is_over():
            raise ValueError("the game is over")
        self.game.play(action)

    def is_over(self) -> bool:
        return self.game.is_over()

    def outcome(self) -> tuple[float, ...]:
        r = float(self.game.board.result(BLACK)) if self.game.is_over() else 0.0
        return (r, -r)

    def to_record(self) -> dict[str, Any]:
        return self.game.to_record()


class RulesOthello:
    """Othello's entry in the per-game table."""

    name = "othello"
    players = 2

    def new(self, seed: int, index: int = 0) -> StateOthello:
        return StateOthello(Game())

    def from_record(self, record: dict[str, Any]) -> StateOthello:
        return StateOthello(Game.from_record(record))

    def key(self, state: Any) -> Any:
        b = state.game.board
        return (b.black, b.white, b.to_move)

    def play_random(self, seed: int, first: int, n: int) -> np.ndarray:
        black = play_random_games(np.uint64(seed), np.int64(first), np.int64(n))
        return np.stack([black, -black], axis=1).astype(np.float64)


@njit
def play_random_games(seed: np.uint64, first: np.int64, n: np.int64) -> np.ndarray:
    """Kernel: the result for black (+1, 0, -1) of games ``first .. first+n-1`` of ``seed``,
    both sides the contract's random player: one draw of the players' stream a decision (a
    forced pass too), the k-th legal square counted from the lowest."""
    out = np.zeros(n, np.int64)
    for g in range(n):
        state = agent_stream(seed, np.uint64(first + g))
        p, o = K.START_BLACK, K.START_WHITE
        black = True
        while not K.is_terminal(p, o):
            moves = K.legal_moves(p, o)
            state, bits = splitmix64(state)
            if moves == 0:
                a = np.int64(K.PASS)
            else:
                a = K.nth_square(moves, below(bits, np.int64(K.popcount(moves))))
            p, o = K.play(p, o, a)
            black = not black
        s = K.final_score(p, o)
        s = s if black else -s
        out[g] = 1 if s > 0 else (-1 if s < 0 else 0)
    return out


RULES = RulesOthello()
