"""The one generator and seeding rule (:mod:`boardai.rng`): the plain-Python stream draws
exactly what the compiled one does, and a Game spawns as the compiled kernels do."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardai.g2048 import kernels as K
from boardai.g2048.board import Board
from boardai.g2048.game import Game, spawn_of
from boardai.rng import (
    Stream,
    agent_stream,
    below,
    game_stream,
    player_stream,
    seed_stream,
    splitmix64,
)

U64 = st.integers(0, 2**64 - 1)
INDEX = st.integers(0, 2**63 - 1)


@given(U64, INDEX)
def test_python_streams_are_the_compiled_ones(seed: int, index: int) -> None:
    assert game_stream(seed, index) == int(seed_stream(np.uint64(seed), np.uint64(index)))
    assert player_stream(seed, index) == int(agent_stream(np.uint64(seed), np.uint64(index)))
    assert player_stream(seed, index) != game_stream(seed, index)


@given(U64, st.integers(1, 2**31))
def test_python_draws_are_the_compiled_ones(state: int, n: int) -> None:
    s = Stream(state)
    compiled = np.uint64(state)
    for _ in range(3):
        compiled, bits = splitmix64(compiled)
        assert s.next() == int(bits) and s.state == int(compiled)
    assert Stream(state).integers(n) == int(below(splitmix64(np.uint64(state))[1], n))
    assert 0 <= Stream(state).integers(n) < n


@given(st.lists(st.integers(0, 11), min_size=16, max_size=16), U64, st.sampled_from([0, 0.1, 1]))
def test_a_spawn_is_the_compiled_kernels(exponents: list[int], bits: int, p4: float) -> None:
    board = Board.from_exponents(exponents)
    cell, value = spawn_of(board, bits, p4)
    spawned = int(K.spawn_wide(np.uint64(board.lo), np.uint64(board.hi), np.uint64(bits), p4))
    if cell < 0:
        assert spawned == board.lo and not board.empty_cells()
    else:
        assert board.place(cell, value).lo == spawned


def test_game_i_of_a_seed_is_the_compiled_loops() -> None:
    for index in range(5):
        lo, state = K.start_board(seed_stream(np.uint64(9), np.uint64(index)), 2, 0.1)
        game = Game(seed=9, index=index)
        assert game.board.lo == int(lo) and game.rng.state == int(state)


def test_a_seed_needs_a_whole_index() -> None:
    with pytest.raises(ValueError):
        game_stream(1, -1)
    with pytest.raises(ValueError):
        player_stream(1, 2**63)
