"""The Board value API: construction, round trips, immutability and bad input."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given

from boardai.g2048 import Board, Game
from tests.g2048.strategies import boards


@given(boards())
def test_round_trips(board: Board) -> None:
    assert Board.from_grid(board.to_grid()) == board
    assert Board.from_str(str(board)) == board
    assert Board(int(board)) == board
    assert Board.from_exponents(board.exponents()) == board
    assert eval(repr(board)) == board
    assert hash(Board(int(board))) == hash(board)


def test_packed_layout() -> None:
    b = Board.from_grid([[2, 0, 0, 0], [0, 4, 0, 0], [0, 0, 0, 0], [0, 0, 0, 32768]])
    assert int(b) == (1 << 0) | (2 << 4 * 5) | (15 << 4 * 15)
    big = Board.from_grid([[65536, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4])
    assert big.hi == 1 and big.lo == 0  # exponent 16: nibble 0 plus the hi bit
    assert big.max_tile() == 65536 and big.empty_cells() == list(range(1, 16))


def test_immutable() -> None:
    b = Board()
    with pytest.raises(AttributeError):
        b._lo = 5  # type: ignore[misc]


@pytest.mark.parametrize(
    ("grid", "message"),
    [
        ([[0] * 4] * 3, "4 rows"),
        ([[0] * 4, [0] * 4, [0] * 3, [0] * 4], "row 2 needs 4 cells"),
        ([[0, 0, 0, 3], [0] * 4, [0] * 4, [0] * 4], r"cell \(row 0, column 3\): 3"),
        ([[0] * 4, [0, 1, 0, 0], [0] * 4, [0] * 4], r"cell \(row 1, column 1\): 1"),
        ([[0] * 4, [0] * 4, [-2, 0, 0, 0], [0] * 4], r"cell \(row 2, column 0\)"),
        ([[0] * 4, [0] * 4, [0] * 4, [0, 0, 1 << 31, 0]], "above 2"),
        ([[0] * 4, [0] * 4, [0] * 4, [0, 0, 2.0, 0]], r"cell \(row 3, column 2\)"),
    ],
)
def test_from_grid_rejects_bad_grids(grid: list[list[int]], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Board.from_grid(grid)


@pytest.mark.parametrize("action", [-1, 4, 1.5, "sideways", None, True])
def test_slide_rejects_bad_actions(action: object) -> None:
    with pytest.raises(ValueError):
        Board().slide(action)  # type: ignore[arg-type]


def test_bad_input_elsewhere() -> None:
    with pytest.raises(ValueError, match="not a tile value"):
        Board.from_str("2 2 x 0\n0 0 0 0\n0 0 0 0\n0 0 0 0")
    with pytest.raises(ValueError, match="out of range"):
        Board(-1)
    with pytest.raises(ValueError, match="not an empty cell"):
        Board.from_grid([[2, 0, 0, 0]] + [[0] * 4] * 3).place(0, 2)
    with pytest.raises(ValueError, match="2 or 4"):
        Board().place(0, 8)
    with pytest.raises(ValueError, match="16 cells"):
        Board.from_exponents([0] * 15)
    with pytest.raises(ValueError, match="p4"):
        Game(p4=1.5)
    with pytest.raises(ValueError, match="illegal"):
        g = Game(seed=0)
        g.board = Board.from_grid([[2, 4, 2, 4]] + [[0] * 4] * 3)
        g.move("up")


def test_illegal_move_returns_same_board_and_zero() -> None:
    b = Board.from_grid([[2, 4, 8, 16], [0] * 4, [0] * 4, [0] * 4])
    assert b.slide(3) == (b, 0)
    assert b.slide(0) == (b, 0)


def test_terminal_board_has_no_legal_action() -> None:
    b = Board.from_grid([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]])
    assert b.is_terminal() and b.legal_actions() == []


@given(boards())
def test_chance_outcomes_sum_to_one(board: Board) -> None:
    outcomes = board.chance_outcomes()
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    empties = board.empty_cells()
    if empties:
        assert len(outcomes) == 2 * len(empties)
        assert all(len(o.empty_cells()) == len(empties) - 1 for o, _ in outcomes)


def test_spawn_is_uniform_over_empties_with_a_9_to_1_split() -> None:
    b = Board.from_grid([[2, 0, 4, 0], [0, 8, 0, 0], [0, 0, 0, 16], [32, 0, 0, 0]])
    empties = b.empty_cells()
    rng = np.random.default_rng(12345)
    n = 20000
    counts = {cell: 0 for cell in empties}
    fours = 0
    for _ in range(n):
        s = b.spawn(rng)
        (cell,) = set(b.empty_cells()) - set(s.empty_cells())
        counts[cell] += 1
        fours += s.exponents()[cell] == 2
    observed = np.array(list(counts.values()))
    expected = n / len(empties)
    # Chi-square critical values at p = 0.001: 10 degrees of freedom 29.59, 1 degree 10.83.
    assert len(empties) == 11
    assert ((observed - expected) ** 2 / expected).sum() < 29.59
    split = ((n - fours) - 0.9 * n) ** 2 / (0.9 * n) + (fours - 0.1 * n) ** 2 / (0.1 * n)
    assert split < 10.83


def test_full_board_spawns_nothing() -> None:
    b = Board.from_grid([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]])
    assert b.spawn(np.random.default_rng(0)) == b
    assert b.chance_outcomes() == [(b, 1.0)]
