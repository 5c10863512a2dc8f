"""``expectimax``: presets, options, known best moves, legality on any board."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from boardai.errors import UsageError
from boardai.g2048 import Board, Game
from boardai.g2048.agents import make_agent
from boardai.g2048.agents.expectimax import ExpectimaxAgent, ExpectimaxOptions
from tests.g2048.strategies import boards


def test_avoids_a_move_that_loses_at_once():
    # Up and down fill the board for good whatever spawns; left keeps the game alive.
    board = Board.from_grid([[16, 128, 8, 2], [2, 4, 16, 128], [0, 32, 8, 64], [8, 16, 64, 2]])
    assert board.legal_actions() == [0, 2, 3]
    for spec in ("expectimax:preset=fast", "expectimax:depth=3,prob_cut=0"):
        assert make_agent(spec).act(board) == 3


def test_takes_the_winning_merge():
    board = Board.from_grid([[1024, 1024, 2, 4], [8, 16, 4, 2], [2, 8, 16, 8], [4, 2, 4, 2]])
    assert make_agent("expectimax:preset=fast").act(board) in (1, 3)


def test_presets_and_adaptive_depth():
    opts = ExpectimaxOptions(preset="strong")
    assert (opts.min_depth, opts.prob_cut) == (4, 1e-4)
    agent = ExpectimaxAgent(ExpectimaxOptions(preset="default"))
    few = Board.from_grid([[2, 4, 0, 0], [0] * 4, [0] * 4, [0] * 4])
    many = Board.from_grid([[2, 4, 8, 16], [32, 64, 128, 256], [0] * 4, [0] * 4])
    assert agent.depth_for(few) == 2
    assert agent.depth_for(many) == 4
    assert ExpectimaxAgent(ExpectimaxOptions(depth=5)).depth_for(few) == 5


@settings(max_examples=200, deadline=None)
@given(boards(max_exponent=17))
def test_adaptive_depth_counts_distinct_tiles_capped_at_32768(board):
    # Spelled out on the grid: tiles above 32768 count as 32768 (the one-word board the search
    # sees), then one less than the distinct tiles, kept within min_depth..max_depth.
    distinct = {min(v, 32768) for row in board.to_grid() for v in row if v}
    for lo, hi in ((2, 4), (4, 12), (1, 3)):
        agent = ExpectimaxAgent(ExpectimaxOptions(min_depth=lo, max_depth=hi))
        assert agent.depth_for(board) == min(hi, max(lo, len(distinct) - 1))


@pytest.mark.parametrize(
    "spec",
    [
        "expectimax:depth=-1",
        "expectimax:depth=13",
        "expectimax:preset=huge",
        "expectimax:prob_cut=2",
        "expectimax:min_depth=5,max_depth=3",
        "expectimax:depth=x",
        "expectimax:smoothness=-1",
    ],
)
def test_bad_options_are_usage_errors(spec):
    with pytest.raises(UsageError):
        make_agent(spec)


def test_smoothness_option_changes_the_evaluation():
    board = Board.from_grid([[2, 64, 4, 128], [0, 2, 0, 0], [0] * 4, [0] * 4])
    plain = make_agent("expectimax:depth=1")
    smooth = make_agent("expectimax:depth=1,smoothness=100")
    plain.act(board)
    smooth.act(board)
    assert plain.last is not None and smooth.last is not None
    assert smooth.last.value < plain.last.value


def test_time_budget_and_last_search_are_exposed():
    # A budget far below one search still answers, from depth 1.
    agent = make_agent("expectimax:depth=6,time_ms=0.000001")
    board = Game(seed=1).board
    assert agent.act(board) in board.legal_actions()
    assert agent.last is not None and agent.last.depth == 1


@given(boards())
@settings(max_examples=60, deadline=None)
def test_never_illegal_even_with_huge_tiles(board):
    legal = board.legal_actions()
    if legal:
        assert make_agent("expectimax:preset=fast").act(board) in legal


def test_same_game_for_the_same_seed():
    def play(seed):
        g = Game(seed=seed)
        agent = make_agent("expectimax:preset=fast", seed=seed)
        while not g.is_over() and g.moves < 200:
            g.move(agent.act(g.board))
        return g.score, g.board

    assert play(3) == play(3)
