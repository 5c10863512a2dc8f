"""``greedy``: the largest immediate reward, seeded ties, never an illegal move."""

from __future__ import annotations

from hypothesis import given, settings

from boardai.g2048 import Board
from boardai.g2048.agents import make_agent
from tests.g2048.strategies import boards


def test_takes_the_biggest_merge():
    # Left and right both merge the 1024s (reward 2048); up and down merge two 2s.
    board = Board.from_grid([[1024, 1024, 8, 16], [2, 4, 16, 32], [2, 8, 32, 64], [4, 2, 4, 2]])
    assert set(board.legal_actions()) == {0, 1, 2, 3}
    agent = make_agent("greedy", seed=0)
    assert {agent.act(board) for _ in range(20)} <= {1, 3}


def test_ties_are_seeded():
    board = Board.from_grid([[2, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4])
    a = [make_agent("greedy", seed=4).act(board) for _ in range(1)]
    b = [make_agent("greedy", seed=4).act(board) for _ in range(1)]
    assert a == b


@given(boards())
@settings(max_examples=60, deadline=None)
def test_never_illegal(board):
    legal = board.legal_actions()
    if legal:
        assert make_agent("greedy", seed=1).act(board) in legal
