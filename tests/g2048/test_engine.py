"""The compiled 2048 kernels against the slow reference in tests/naive/g2048.py."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardai.g2048 import Board
from boardai.g2048 import kernels as K
from tests.g2048.strategies import boards, small_boards
from tests.naive import g2048 as naive

actions = st.integers(0, 3)


@given(boards(), actions)
def test_slide_matches_reference(board: Board, action: int) -> None:
    grid = board.to_grid()
    expected, reward = naive.slide(grid, action)
    after, got = board.slide(action)
    assert after.to_grid() == expected
    assert got == reward


@given(small_boards(), actions)
def test_fast_path_matches_reference_or_flags_overflow(board: Board, action: int) -> None:
    expected, reward = naive.slide(board.to_grid(), action)
    after, got = K.slide(np.uint64(board.lo), action)
    if max(max(row) for row in expected) > 32768:
        assert got >= K.OVERFLOW  # the caller must take the wide path
    else:
        assert got == reward
        assert Board(int(after)).to_grid() == expected


@given(boards())
def test_legal_actions_empty_cells_max_tile(board: Board) -> None:
    grid = board.to_grid()
    assert board.legal_actions() == naive.legal_actions(grid)
    assert board.is_terminal() == (not naive.legal_actions(grid))
    assert board.empty_cells() == naive.empty_cells(grid)
    assert board.max_tile() == max(max(row) for row in grid)


@given(small_boards())
def test_fast_kernels_agree_with_exact(board: Board) -> None:
    lo = np.uint64(board.lo)
    assert K.count_empty(lo) == len(board.empty_cells())
    assert K.can_move_fast(lo) == (not board.is_terminal())
    assert K.max_exponent_fast(lo) == max(board.exponents())


@given(boards(), actions)
def test_slide_keeps_tile_sum(board: Board, action: int) -> None:
    assert board.slide(action)[0].tile_sum() == board.tile_sum()


def _transpose(b: Board) -> Board:
    return Board.from_grid(naive.transpose(b.to_grid()))


def _mirror(b: Board) -> Board:
    return Board.from_grid(naive.mirror(b.to_grid()))


# Mirroring left-right swaps left and right; transposing swaps up with left, down with right.
MIRROR_ACTION = {0: 0, 1: 3, 2: 2, 3: 1}
TRANSPOSE_ACTION = {0: 3, 1: 2, 2: 1, 3: 0}


@given(boards(), actions)
def test_slide_commutes_with_mirror(board: Board, action: int) -> None:
    after, reward = board.slide(action)
    m_after, m_reward = _mirror(board).slide(MIRROR_ACTION[action])
    assert m_after == _mirror(after)
    assert m_reward == reward


@given(boards(), actions)
def test_slide_commutes_with_transpose(board: Board, action: int) -> None:
    after, reward = board.slide(action)
    t_after, t_reward = _transpose(board).slide(TRANSPOSE_ACTION[action])
    assert t_after == _transpose(after)
    assert t_reward == reward


@given(small_boards())
def test_kernel_transpose(board: Board) -> None:
    assert Board(int(K.transpose(np.uint64(board.lo)))) == _transpose(board)


@pytest.mark.parametrize(
    ("row", "left", "reward"),
    [
        ([2, 2, 2, 2], [4, 4, 0, 0], 8),
        ([4, 4, 8, 8], [8, 16, 0, 0], 24),
        ([2, 2, 4, 0], [4, 4, 0, 0], 4),  # a merged tile does not merge again
        ([0, 2, 0, 2], [4, 0, 0, 0], 4),
        ([2, 4, 8, 16], [2, 4, 8, 16], 0),
        ([32768, 32768, 0, 0], [65536, 0, 0, 0], 65536),
        ([65536, 65536, 2, 2], [131072, 4, 0, 0], 131076),
        ([32768, 32768, 32768, 32768], [65536, 65536, 0, 0], 131072),
        ([65536, 0, 0, 2], [65536, 2, 0, 0], 0),
    ],
)
def test_known_rows(row: list[int], left: list[int], reward: int) -> None:
    board = Board.from_grid([row, [0] * 4, [0] * 4, [0] * 4])
    after, got = board.slide(3)
    assert after.to_grid()[0] == left
    assert got == reward
    # The same row as a column, moved up.
    col = Board.from_grid([[v, 0, 0, 0] for v in row])
    after, got = col.slide(0)
    assert [r[0] for r in after.to_grid()] == left
    assert got == reward


def test_big_tiles_stay_exact() -> None:
    b = Board.from_grid([[65536, 65536, 0, 0], [0] * 4, [0] * 4, [0] * 4])
    after, reward = b.slide(1)
    assert after.max_tile() == 131072
    assert reward == 131072
    assert after.legal_actions() == [2, 3]  # it sits in the top right corner
    assert after.empty_cells() == [i for i in range(16) if i != 3]
    assert Board(int(after)) == after


def test_slide_all_matches_single_slides() -> None:
    boards_ = K.random_game_boards(5, np.uint64(3), 0.1)
    after, rewards = K.slide_all(boards_)
    for i in range(0, len(boards_), 7):
        for a in range(4):
            out, r = Board(int(boards_[i])).slide(a)
            assert int(after[i, a]) == int(out)
            assert rewards[i, a] == r


def test_random_games_are_reproducible_and_independent_of_batching() -> None:
    s1, m1, n1 = K.play_random_games(200, np.uint64(9), 0.1, 2, 0.1)
    s2, m2, n2 = K.play_random_games(200, np.uint64(9), 0.1, 2, 0.1)
    s3, _, _ = K.play_random_games(50, np.uint64(9), 0.1, 2, 0.1)
    assert (s1 == s2).all() and (m1 == m2).all() and (n1 == n2).all()
    assert (s1[:50] == s3).all()  # game i depends only on (seed, i)
    assert 700 < s1.mean() < 1500  # random play averages about 1,000 points


def test_random_game_scores_are_the_sum_of_merges() -> None:
    # Scores are consistent with boards: a final board's tile sum is at least what it spawned
    # and the score of a 2048 game is determined by its merges, so replay one game in Python.
    rng = np.random.default_rng(0)
    from boardai.g2048 import Game

    g = Game(seed=5)
    total = 0
    while not g.is_over():
        total += g.move(int(rng.choice(g.board.legal_actions())))
    assert total == g.score
    merges = g.board.tile_sum() - sum(s.value for s in g.steps) - sum(v for _, v in g.start)
    assert merges == 0  # slides keep the tile sum: it only grows by spawns


@given(boards(), st.integers(0, 2**64 - 1), st.sampled_from([0.0, 0.1, 0.5, 1.0]))
def test_spawn_matches_reference(board: Board, bits: int, p4: float) -> None:
    """Both spawn kernels put the tile the slow reference puts; ``spawn`` (one word) on the
    boards with no tile above 32768, ``spawn_wide`` on every board (a 65536 cell is taken)."""
    expected = naive.spawn(board.to_grid(), bits, p4)
    lo = K.spawn_wide(np.uint64(board.lo), np.uint64(board.hi), np.uint64(bits), p4)
    assert Board._make(int(lo), board.hi).to_grid() == expected
    if board.hi == 0:
        assert int(K.spawn(np.uint64(board.lo), np.uint64(bits), p4)) == int(lo)


def test_spawn_kernel_is_uniform_with_a_9_to_1_split() -> None:
    b = np.uint64(int(Board.from_grid([[2, 0, 4, 0], [0, 8, 0, 0], [0, 0, 0, 16], [32, 0, 0, 0]])))
    state = np.uint64(77)
    n = 22000
    cells = np.zeros(16, np.int64)
    fours = 0
    for _ in range(n):
        state, bits = K.splitmix64(state)
        out = K.spawn(b, bits, 0.1)
        diff = int(out) ^ int(b)
        cell = (diff.bit_length() - 1) // 4
        cells[cell] += 1
        fours += (diff >> (4 * cell)) == 2
    empties = Board(int(b)).empty_cells()
    assert set(np.flatnonzero(cells)) == set(empties)
    expected = n / len(empties)
    # Chi-square critical values at p = 0.001: 10 degrees of freedom 29.59, 1 degree 10.83.
    assert ((cells[empties] - expected) ** 2 / expected).sum() < 29.59
    assert ((n - fours) - 0.9 * n) ** 2 / (0.9 * n) + (fours - 0.1 * n) ** 2 / (0.1 * n) < 10.83
