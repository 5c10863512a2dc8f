"""Index code compiled for a pattern set against the generic run-table code: the same
indices, the same sums bit for bit."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardai._jit import njit
from boardai.g2048.ntuple import NTupleNetwork, evaluate, lookup_indices_at
from boardai.g2048.ntuple_index import (
    IndexLayout,
    IndexLayoutType,
    kernel_source,
    sum_weights,
)
from boardai.g2048.patterns import PATTERN_SETS, parse_patterns
from tests.g2048.strategies import boards


@njit
def _probe(feature_boards: np.ndarray, data):  # type: ignore[no-untyped-def]
    """Every board's lookups and value, as the training loop and the search read them."""
    n = 8 * data[2].shape[0]
    out = np.zeros((feature_boards.shape[0], n), np.int64)
    values = np.zeros(feature_boards.shape[0], np.float64)
    for k in range(feature_boards.shape[0]):
        lookup_indices_at(feature_boards[k], feature_boards[k], data, out[k])
        values[k] = evaluate(feature_boards[k], data)
    return out, values


def _twins(patterns, stages) -> tuple[NTupleNetwork, NTupleNetwork]:  # type: ignore[no-untyped-def]
    """The same network twice, generic and specialised, sharing one weight array."""
    generic = NTupleNetwork(patterns, stages, specialise=False)
    special = NTupleNetwork(patterns, stages, generic.weights, specialise=True)
    return generic, special


def _random_feature_boards(seed: int, n: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    cells = rng.integers(0, 16, (n, 16), dtype=np.uint64)
    return (cells << (4 * np.arange(16, dtype=np.uint64))).sum(axis=1, dtype=np.uint64)


def _check_same(generic: NTupleNetwork, special: NTupleNetwork, feature_boards, seed: int) -> None:
    want_idx, _ = _probe(feature_boards, generic.data())
    # weights only where these boards look (the tables of 6-tuples stay untouched zero pages)
    rng = np.random.default_rng(seed)
    generic.weights[want_idx.ravel()] = rng.normal(size=want_idx.size).astype(np.float32)
    want_idx, want_values = _probe(feature_boards, generic.data())
    got_idx, got_values = _probe(feature_boards, special.data())
    np.testing.assert_array_equal(got_idx, want_idx)
    np.testing.assert_array_equal(got_values, want_values)  # bit for bit: the same order
    assert want_values.any()


#: Each set compiles its own kernels (15-35 s here): the shipped layout (staged) and a mixed one
#: run by default, the rest with ``-m slow``; the generator itself is the same for all, and
#: the property test below gives it random pattern sets.
_QUICK_SETS = ("4x6", "2x4+2x6")


@pytest.mark.parametrize(
    "name",
    [
        n if n in _QUICK_SETS else pytest.param(n, marks=pytest.mark.slow)
        for n in sorted(PATTERN_SETS)
    ],
)
def test_named_sets_match_the_generic_code(name: str) -> None:
    stages = "14,14+13" if name == "4x6" else ()
    generic, special = _twins(parse_patterns(name), stages)
    feature_boards = _random_feature_boards(len(name), 300)
    _check_same(generic, special, feature_boards, seed=1)


@settings(max_examples=4, deadline=None)
@given(
    st.lists(
        st.lists(st.integers(0, 15), min_size=1, max_size=4, unique=True).map(tuple),
        min_size=1,
        max_size=3,
    ),
    st.sampled_from([(), (11,), "9,9+8+7,11"]),
    st.lists(boards(max_exponent=15), min_size=1, max_size=20),
    st.integers(0, 2**32),
)
def test_any_patterns_match_the_generic_code(patterns, stages, board_list, seed: int) -> None:
    generic, special = _twins(patterns, stages)
    feature_boards = np.array([b.lo for b in board_list], np.uint64)
    _check_same(generic, special, feature_boards, seed)


def test_which_networks_are_specialised() -> None:
    """Tables of 16**5 entries and up get their own code; small networks share the generic."""
    assert NTupleNetwork.create("4x6").index_layout.key is not None
    assert NTupleNetwork.create("0123,4567").index_layout.key is None
    assert NTupleNetwork.create("0123,4567,01234").index_layout.key is not None
    net = NTupleNetwork.create("4x6")
    assert net.data()[-1] is net.index_layout


def test_one_statement_a_lookup() -> None:
    net = NTupleNetwork.create("5x6")
    for kind, statement in (("write", "out["), ("sum", "v += weights[")):
        source = kernel_source(net.index_layout.key, kind)
        assert source.count(statement) == net.n_lookups
        assert "runs" not in source  # every shift and mask is a constant


def test_layout_types_survive_the_compile_cache() -> None:
    """Numba's cache pickles argument types: a layout type must come back as itself."""
    for layout in (NTupleNetwork.create("4x6").index_layout, IndexLayout(None)):
        typ = layout.numba_type
        assert pickle.loads(pickle.dumps(typ)) is typ
        assert isinstance(typ, IndexLayoutType)
    assert IndexLayout(None).numba_type is not NTupleNetwork.create("4x6").index_layout.numba_type


def test_kernels_run_in_compiled_code_only() -> None:
    with pytest.raises(NotImplementedError):
        sum_weights((), 0, ())
