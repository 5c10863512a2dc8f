"""``heuristic``: seed 001's one-move player."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings

from boardai.errors import UsageError
from boardai.g2048 import Board, Game
from boardai.g2048 import heuristic as weights_module
from boardai.g2048.agents import make_agent
from tests.g2048.strategies import boards


def test_weight_matrices_hold_eight_symmetries_each():
    m = weights_module.weight_matrices()
    assert m.shape == (4, 8, 16)
    snake = sorted(tuple(row) for row in m[0])
    assert len(set(snake)) == 8  # the snake has no symmetry of its own
    assert m[0].max() == 15


def test_keeps_the_big_tiles_in_the_corner():
    # Merging the 1024s upwards keeps them in the top-left corner.
    board = Board.from_grid([[1024, 512, 0, 0], [1024, 4, 0, 0], [8, 2, 0, 0], [2, 0, 0, 0]])
    assert make_agent("heuristic").act(board) == 0


def test_prefers_the_merge_of_the_largest_tiles():
    board = Board.from_grid([[1024, 1024, 2, 4], [8, 16, 4, 2], [2, 8, 16, 8], [4, 2, 4, 2]])
    assert make_agent("heuristic").act(board) in (1, 3)


def test_options_change_the_play_and_are_checked():
    game = Game(seed=2)
    a = make_agent("heuristic:snake=0,left=1,left_corner=0,corner=0")
    assert a.act(game.board) in game.board.legal_actions()
    with pytest.raises(UsageError, match="unknown option"):
        make_agent("heuristic:nosuch=1")


@given(boards())
@settings(max_examples=60, deadline=None)
def test_never_illegal(board):
    legal = board.legal_actions()
    if legal:
        assert make_agent("heuristic").act(board) in legal


def test_same_game_for_the_same_seed():
    def play(seed):
        g = Game(seed=seed)
        agent = make_agent("heuristic")
        while not g.is_over() and g.moves < 150:
            g.move(agent.act(g.board))
        return g.score, g.moves, g.board

    assert play(9) == play(9)
    assert np.isfinite(play(10)[0])
