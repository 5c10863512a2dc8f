"""The one game loop plays a state through its ``step`` (2048's: one ``Game.move``, the
arena's hot path) exactly as through the contract's apply and chance draws, and a screen's
``unasked`` forced move is played without asking the player."""

from __future__ import annotations

from typing import Any

import pytest

from boardai.arena.play import board_of, play
from boardai.g2048 import Game
from boardai.g2048.agents import make_agent
from boardai.g2048.contract_game import State2048


class ContractOnly:
    """A state seen through the contract alone: no ``step``, so the loop applies the move,
    then chance's outcome as the seed draws it."""

    def __init__(self, state: State2048) -> None:
        self.state = state
        self.game = state.game

    def __getattr__(self, name: str) -> Any:
        if name == "step":
            raise AttributeError(name)
        return getattr(self.state, name)


@pytest.mark.parametrize("spec", ["random", "greedy"])
def test_a_2048_game_through_step_is_the_game_through_apply_and_chance(spec: str) -> None:
    for index in range(6):
        agent = make_agent(spec, seed=index)
        fast = Game(seed=11, index=index)
        turns_fast = [t.action for t in play(State2048(fast), [agent], observe=board_of)]
        agent.reseed(index)
        agent.reset()
        slow = Game(seed=11, index=index)
        state: Any = ContractOnly(State2048(slow))
        assert not hasattr(state, "step")
        turns_slow = [t.action for t in play(state, [agent], observe=board_of)]
        assert turns_fast == turns_slow and fast.is_over()
        assert fast.to_record() == slow.to_record()


def test_an_unasked_forced_move_is_played_without_the_player() -> None:
    from boardai.othello.board import PASS, Board
    from boardai.othello.contract_game import StateOthello
    from boardai.othello.game import Game as GameOthello

    # black to move with no move but a pass: white holds a1, black b1 and nothing else
    start = Board.from_mover(1 << 1, 1 << 0, 0)
    assert start.legal_actions() == [PASS]

    class Refuses:
        name = "refuses"
        asked = 0

        def act(self, board: Board) -> int:
            self.asked += 1
            raise AssertionError("asked for a forced pass")

        def reset(self) -> None:
            pass

        def reseed(self, seed: int) -> None:
            pass

    refuses = Refuses()
    game = GameOthello(start)
    turns = list(play(StateOthello(game), [refuses, None], observe=board_of, unasked=PASS))
    assert [(t.action, t.mover) for t in turns] == [(PASS, 0)] and refuses.asked == 0
    with pytest.raises(AssertionError, match="asked for a forced pass"):
        next(play(StateOthello(GameOthello(start)), [refuses, None], observe=board_of))
