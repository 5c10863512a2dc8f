"""Tile downgrading against the plain reference, and what it must keep: order and merges."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardai.g2048 import Board
from boardai.g2048.downgrade import downgrade
from boardai.g2048.ntuple import NTupleNetwork, evaluate
from tests.g2048.strategies import small_boards
from tests.naive import ntuple as naive

min_exponents = st.integers(1, 16)


def _down(board: Board, m: int) -> Board:
    return Board._make(int(downgrade(np.uint64(board.lo), m)))


@settings(max_examples=300, deadline=None)
@given(small_boards(), min_exponents)
def test_downgrade_matches_the_reference(board: Board, m: int) -> None:
    assert _down(board, m).exponents() == naive.downgrade(board.exponents(), m)


@settings(max_examples=2000, deadline=None)
@given(st.integers(0, 2**64 - 1), min_exponents)
def test_downgrade_of_any_word_matches_the_reference(word: int, m: int) -> None:
    # every nibble pattern, dense boards of many distinct tiles too (several gaps filled)
    exponents = [(word >> (4 * i)) & 15 for i in range(16)]
    down = int(downgrade(np.uint64(word), m))
    assert [(down >> (4 * i)) & 15 for i in range(16)] == naive.downgrade(exponents, m)


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
@given(small_boards(), min_exponents, st.integers(0, 2**31 - 1), st.integers(0, 3))
def test_search_leaf_reads_the_downgraded_board_in_the_stage_of_the_board(
    board: Board, m: int, seed: int, below: int
) -> None:
    """The leaf value with downgrading from ``2**m``: the network on the downgraded board, in
    the weights of the stage of the board as it is (stages from ``2**(m - below)``), as the
    reference values it; without downgrading, the network on the board."""
    from boardai.g2048.ntuple_play import evaluate_leaf, search_data

    top = max(1, min(15, m - below))
    net = NTupleNetwork.create("012,4567,37", ((top,), (top, top - 1)) if top > 1 else ((top,),))
    net.weights[:] = np.random.default_rng(seed).normal(size=net.weights.shape)
    tables = naive.tables_from(net.weights, net.offsets, net.patterns, net.n_stages)
    x = board.exponents()
    want = naive.value(naive.downgrade(x, m), net.patterns, tables, net.stages, stage_exponents=x)
    got = evaluate_leaf(np.uint64(board.lo), search_data(net.data(), m))
    assert got == pytest.approx(want, rel=1e-9, abs=1e-9)
    plain = evaluate_leaf(np.uint64(board.lo), search_data(net.data(), 0))
    assert plain == evaluate(np.uint64(board.lo), net.data())


def test_late_stages_are_read_by_the_late_boards_downgrading_reads_as_early() -> None:
    """Stages from 16384 with downgrading from 16384: a 16384 board with a gap reads the
    downgraded features in the 16384 stage's weights, not in the first stage's."""
    from boardai.g2048.ntuple_play import evaluate_leaf, search_data

    net = NTupleNetwork.create("0123,4567", "14")
    half = net.weights.size // 2
    net.weights[:half] = 1.0  # the first stage: 1 a lookup
    net.weights[half:] = 2.0  # the stage from 16384: 2 a lookup
    late = Board.from_grid([[16384, 2048, 2, 0], [0] * 4, [0] * 4, [0] * 4])
    early = _down(late, 14)
    assert max(early.exponents()) == 13
    data = search_data(net.data(), 14)
    assert evaluate_leaf(np.uint64(early.lo), data) == 16 * 1.0
    assert evaluate_leaf(np.uint64(late.lo), data) == 16 * 2.0
