"""Tile downgrading against the plain reference, and what it must keep: order and merges."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from boardai.g2048 import Board
from boardai.g2048.downgrade import downgrade, unread_stages
from boardai.g2048.ntuple import NTupleNetwork, evaluate, stage_mask, stage_of
from tests.g2048.strategies import small_boards
from tests.naive import ntuple as naive

min_exponents = st.integers(1, 16)


def _down(board: Board, m: int) -> Board:
    return Board._make(int(downgrade(np.uint64(board.lo), m)))


@settings(max_examples=300, deadline=None)
@given(small_boards(), min_exponents)
def test_downgrade_matches_the_reference(board: Board, m: int) -> None:
    assert _down(board, m).exponents() == naive.downgrade(board.exponents(), m)


@settings(max_examples=300, deadline=None)
@given(small_boards(), min_exponents)
def test_downgrade_keeps_order_and_merges(board: Board, m: int) -> None:
    down = _down(board, m)
    a, b = board.exponents(), down.exponents()
    for i in range(16):
        assert (a[i] == 0) == (b[i] == 0)
        for j in range(16):
            assert (a[i] < a[j]) == (b[i] < b[j])
    assert down.legal_actions() == board.legal_actions()
    for action in board.legal_actions():
        after, _ = board.slide(action)
        down_after, _ = down.slide(action)
        # The same cells end up empty, merged or kept: the boards stay in step.
        assert [e == 0 for e in after.exponents()] == [e == 0 for e in down_after.exponents()]


def test_downgrade_leaves_early_boards_alone() -> None:
    board = Board.from_grid([[8192, 2048, 2, 0], [0] * 4, [0] * 4, [0] * 4])
    assert _down(board, 14) == board
    late = Board.from_grid([[16384, 2048, 2, 0], [0] * 4, [0] * 4, [0] * 4])
    # Missing 8192 and 4096: 16384 halves once, to 8192, below the threshold.
    assert _down(late, 14).to_grid()[0] == [8192, 2048, 2, 0]
    # With the threshold at 4096 it goes on while the largest tile is 4096 or more: 16384 ->
    # 8192 -> 4096, then (1024 missing) 4096 and 2048 -> 2048 and 1024.
    assert _down(late, 12).to_grid()[0] == [2048, 1024, 2, 0]


@settings(max_examples=100, deadline=None)
@given(small_boards(), min_exponents, st.integers(0, 2**31 - 1))
def test_search_leaf_is_the_network_on_the_downgraded_board(
    board: Board, m: int, seed: int
) -> None:
    from boardai.g2048.ntuple_play import evaluate_leaf, search_data

    net = NTupleNetwork.create("012,4567,37")
    net.weights[:] = np.random.default_rng(seed).normal(size=net.weights.shape)
    down = Board.from_exponents(naive.downgrade(board.exponents(), m))
    got = evaluate_leaf(np.uint64(board.lo), search_data(net.data(), m))
    assert got == evaluate(np.uint64(down.lo), net.data())
    plain = evaluate_leaf(np.uint64(board.lo), search_data(net.data(), 0))
    assert plain == evaluate(np.uint64(board.lo), net.data())


def _stage_after_downgrade(board: Board, stages: tuple[tuple[int, ...], ...], m: int) -> int:
    masks = np.array([stage_mask(t) for t in stages], np.int64)
    return int(stage_of(np.uint64(downgrade(np.uint64(board.lo), m)), masks))


@settings(max_examples=300, deadline=None)
@given(small_boards(), st.integers(1, 15), st.integers(1, 15), st.integers(1, 15))
def test_unread_stages_are_read_only_by_boards_of_many_distinct_tiles(
    board: Board, m: int, top: int, second: int
) -> None:
    threshold = (top, second) if second < top else (top,)
    unread = unread_stages((threshold,), m)
    assert bool(unread) == (top >= m)
    if unread and _stage_after_downgrade(board, unread, m):
        assert len(set(board.exponents()) - {0}) >= top


def test_a_board_with_every_tile_keeps_its_late_stage() -> None:
    every = [[2, 4, 8, 16], [32, 64, 128, 256], [512, 1024, 2048, 4096], [8192, 16384, 0, 0]]
    stages = unread_stages(((13,), (14,), (14, 13)), 14)
    assert stages == ((14,), (14, 13))
    assert _stage_after_downgrade(Board.from_grid(every), stages, 14) == 2
    every[0][0] = 0  # no 2: every tile above it halves, 16384 included
    assert _stage_after_downgrade(Board.from_grid(every), stages, 14) == 0
