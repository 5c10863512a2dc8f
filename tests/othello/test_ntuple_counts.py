"""Counts besides an n-tuple network's tuples (mobility, potential mobility): the compiled
counts against the square by square reference, their weights in the network's value, the
search's evaluator and the fitter, model files with and without them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardai.errors import UsageError
from boardai.othello import Board
from boardai.othello.ntuple import (
    COUNT_VALUES,
    FEATURES,
    NTupleNetwork,
    count_value,
    parse_features,
    stage_of,
    update,
)
from boardai.othello.ntuple_eval import SCALE, evaluate_ntuple, search_data
from boardai.othello.ntuple_file import load_model, save_network
from tests.naive import othello_counts as naive

# Disjoint discs: each square empty, the mover's or the opponent's.
boards = st.lists(st.integers(0, 2), min_size=64, max_size=64).map(
    lambda cells: (
        sum(1 << s for s, c in enumerate(cells) if c == 1),
        sum(1 << s for s, c in enumerate(cells) if c == 2),
    )
)


def game_position(seed: int, plies: int) -> Board:
    rng = np.random.default_rng(seed)
    b = Board.initial()
    for _ in range(plies):
        if b.is_terminal():
            break
        b = b.play(int(rng.choice(b.legal_actions())))
    return b


@given(boards)
@settings(max_examples=200, deadline=None)
def test_counts_are_the_square_by_square_ones(board: tuple[int, int]) -> None:
    p, o = board
    for code in range(5):
        got = int(count_value(np.uint64(p), np.uint64(o), code))
        assert got == naive.count(p, o, code), code
        assert 0 <= got < COUNT_VALUES


def test_counts_of_the_start_position() -> None:
    b = Board.initial()
    # 4 moves each; the 14 squares around the two centre discs of a colour, 4 of them taken.
    got = [int(count_value(np.uint64(b.mover), np.uint64(b.opponent), c)) for c in range(5)]
    assert got == [4, 4, 10, 10, 60]
    assert int(count_value(np.uint64(0), np.uint64(0), 4)) == COUNT_VALUES - 1


def reference_raw(net: NTupleNetwork, tuples_only: NTupleNetwork, p: int, o: int) -> float:
    """The value with counts: the tuples' sum (a network without counts holding the same
    tuple weights) plus each count's weight at the position's count, in its stage's table."""
    stage = int(stage_of(np.uint64(p), np.uint64(o), net.stages))
    per_stage = net.weights.size // net.stages
    tuples_size = tuples_only.weights.size // net.stages
    total = naive.tuple_sum(tuples_only, p, o)
    codes = [code for name in net.features for code in FEATURES[name]]
    for j, code in enumerate(codes):
        k = stage * per_stage + tuples_size + j * COUNT_VALUES + naive.count(p, o, code)
        total += float(net.weights[k])
    return total


def with_tuple_weights(net: NTupleNetwork, tuples: str) -> NTupleNetwork:
    """A network of ``net``'s tuples only, its tuple weights ``net``'s."""
    plain = NTupleNetwork.create(tuples, net.stages, net.output)
    per_stage = net.weights.size // net.stages
    plain.weights = np.ascontiguousarray(
        net.weights.reshape(net.stages, per_stage)[:, : plain.weights.size // net.stages]
    ).reshape(-1)
    return plain


@pytest.mark.parametrize("features", ["mobility", "potential", "empties", ",".join(FEATURES)])
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 60), stages=st.integers(1, 4))
@settings(max_examples=25, deadline=None)
def test_count_weights_join_the_sum(features: str, seed: int, plies: int, stages: int) -> None:
    tuples = "corner3x3,diag8"
    net = NTupleNetwork.create(tuples, stages, "linear", features)
    net.weights = np.random.default_rng(seed).normal(0, 2, net.weights.size).astype(np.float32)
    b = game_position(seed, plies)
    want = reference_raw(net, with_tuple_weights(net, tuples), b.mover, b.opponent)
    assert net.raw_value(b.mover, b.opponent) == pytest.approx(want, abs=1e-3)
    got = evaluate_ntuple(np.uint64(b.mover), np.uint64(b.opponent), search_data(net))
    assert got == net.value(b.mover, b.opponent)  # bit for bit


def test_a_network_without_counts_is_unchanged() -> None:
    plain = NTupleNetwork.create("standard", 8, "linear")
    net = NTupleNetwork.create("standard", 8, "linear", "mobility")
    assert plain.features == [] and "features" not in plain.layout()
    assert net.features == ["mobility"] and net.layout()["features"] == "mobility"
    assert net.weights.size == plain.weights.size + 8 * 2 * COUNT_VALUES
    assert np.array_equal(net.squares[: plain.n_images], plain.squares)
    assert search_data(plain)[-1].size == 0
    assert list(search_data(net)[-1]) == list(FEATURES["mobility"])


def test_an_update_moves_the_count_weights_of_the_stage() -> None:
    net = NTupleNetwork.create("small", stages=2, features="mobility")
    b = Board.initial().play("d3")
    update(np.uint64(b.mover), np.uint64(b.opponent), *net.data(), 0.5)
    per_stage = net.weights.size // 2
    counts = net.weights[per_stage - 2 * COUNT_VALUES : per_stage]
    moved = np.flatnonzero(counts)
    mover_moves, opponent_moves = len(b.legal_actions()), naive.mobility(b.opponent, b.mover)
    assert list(moved) == [mover_moves, COUNT_VALUES + opponent_moves]


def test_features_parse_and_bad_ones_are_usage_errors() -> None:
    assert parse_features("") == [] and parse_features(" mobility ") == ["mobility"]
    with pytest.raises(UsageError, match="unknown feature 'stability'"):
        parse_features("mobility,stability")
    with pytest.raises(UsageError, match="unknown feature"):
        NTupleNetwork.create("small", features="mob")


def test_model_files_record_their_counts(tmp_path: Path) -> None:
    net = NTupleNetwork.create("corner3x3,diag8", 3, "linear", "empties,mobility,potential")
    net.weights = np.random.default_rng(3).normal(0, 4, net.weights.size).astype(np.float32)
    path = tmp_path / "m.npz"
    save_network(path, net)
    back, meta = load_model(path)
    assert meta["features"] == "mobility,potential,empties" and back.features == net.features
    assert np.array_equal(back.weights, net.weights) and np.array_equal(back.squares, net.squares)
    b = game_position(5, 30)
    assert back.value(b.mover, b.opponent) == net.value(b.mover, b.opponent)


@pytest.mark.parametrize("name", ["othello-fit.npz", "othello-ntuple.npz", "othello-eval.npz"])
def test_shipped_models_value_as_their_tuples_and_counts(name: str) -> None:
    """The shipped networks: the TD one and the first fitted one (written before counts) have
    none, ``othello-eval`` mobility; each row of a file without counts is a tuple's image,
    and the search's value is the plain sum of tuple and count weights."""
    path = Path(__file__).parents[2] / "models" / name
    if not path.exists():
        pytest.skip(f"{name} is not in this checkout")
    net, meta = load_model(path)
    assert net.features == (["mobility"] if name == "othello-eval.npz" else [])
    assert meta.get("features", "") == ",".join(net.features)
    data = search_data(net)
    if not net.features:
        assert (net.squares[:, 0] >= 0).all() and data[-1].size == 0
        assert net.weights.size == NTupleNetwork.weights_size(net.layout())
    tuples = with_tuple_weights(net, "standard")
    for seed in range(5):
        b = game_position(seed, 10 + 9 * seed)
        p, o = b.mover, b.opponent
        assert net.raw_value(p, o) == pytest.approx(reference_raw(net, tuples, p, o), abs=1e-3)
        scale = 1.0 if net.linear else SCALE
        assert evaluate_ntuple(np.uint64(p), np.uint64(o), data) == scale * net.value(p, o)
