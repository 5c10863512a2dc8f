"""Indices read a line at a time (:mod:`boardai.othello.ntuple_lines`) against the square by
square reference, ``feature_index``, and the search's evaluator against the network's value."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardai.othello.ntuple import OUTPUTS, TUPLE_SETS, TUPLES, NTupleNetwork, feature_index
from boardai.othello.ntuple_eval import SCALE, evaluate_ntuple, search_data
from boardai.othello.ntuple_lines import line_groups, line_index, transpose

# Disjoint discs: each square empty, the mover's or the opponent's.
boards = st.lists(st.integers(0, 2), min_size=64, max_size=64).map(
    lambda cells: (
        sum(1 << s for s, c in enumerate(cells) if c == 1),
        sum(1 << s for s, c in enumerate(cells) if c == 2),
    )
)


def _naive_transpose(x: int) -> int:
    return sum(1 << (8 * (s % 8) + s // 8) for s in range(64) if x >> s & 1)


@given(st.integers(0, 2**64 - 1))
def test_transpose_mirrors_the_a1_h8_diagonal(x: int) -> None:
    assert int(transpose(np.uint64(x))) == _naive_transpose(x)


@pytest.mark.parametrize("tuples", ["standard", "all2x3", "all3x3", "all4", "all3"])
@given(board=boards)
@settings(max_examples=30, deadline=None)
def test_every_image_index_is_the_square_by_square_one(tuples: str, board: tuple[int, int]) -> None:
    net = NTupleNetwork.create(tuples)
    g = line_groups(net.squares)
    mover, other = np.uint64(board[0]), np.uint64(board[1])
    args = (mover, other, np.uint64(transpose(mover)), np.uint64(transpose(other)))
    for i in range(net.squares.shape[0]):
        want = feature_index(mover, other, net.squares, i)
        got = line_index(*args, i, g.start, g.transposed, g.mask, g.table)
        assert got == want


@given(
    st.lists(st.sampled_from(sorted(TUPLES)), min_size=1, max_size=4),
    boards,
    st.sampled_from(["", "mobility", "potential", "empties", "mobility,potential,empties"]),
    st.sampled_from(OUTPUTS),
)
@settings(max_examples=60, deadline=None)
def test_any_tuples_evaluate_as_the_network(
    names: list[str], board: tuple[int, int], features: str, output: str
) -> None:
    """The search's evaluator gives the network's own value, bit for bit, with stages and
    counts."""
    net = NTupleNetwork.create(",".join(names), stages=3, output=output, features=features)
    net.weights[:] = np.random.default_rng(len(names)).normal(0, 0.3, net.weights.size)
    got = evaluate_ntuple(np.uint64(board[0]), np.uint64(board[1]), search_data(net))
    assert got == (1.0 if net.linear else SCALE) * net.value(board[0], board[1])


def test_standard_images_need_few_groups() -> None:
    """The point of it: far fewer steps than squares (116 groups for 632 squares)."""
    net = NTupleNetwork.create("standard")
    g = line_groups(net.squares)
    squares = int((net.squares >= 0).sum())
    assert len(g.mask) * 5 < squares
    assert g.table.shape == (len(g.mask), 256)
    assert set(TUPLE_SETS["standard"].split(",")) == set(net.names)
