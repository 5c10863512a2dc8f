"""The compiled n-tuple lookups and updates against the plain Python reference."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardai.errors import UsageError
from boardai.g2048 import Board
from boardai.g2048.downgrade import downgrade
from boardai.g2048.ntuple import (
    NTupleNetwork,
    evaluate,
    evaluate_at,
    feature_board,
    format_stages,
    lookup_indices_at,
    parse_stages,
    stage_mask,
    stage_of,
)
from boardai.g2048.ntuple_play import greedy_move, greedy_move_into
from boardai.learn.ntuple import add_at, add_at_tc, tc_arrays, tc_state
from tests.g2048.strategies import boards
from tests.naive import ntuple as naive

# Short patterns keep the tables small (16^3 entries) so random weights everywhere are cheap.
patterns_st = st.lists(
    st.lists(st.integers(0, 15), min_size=1, max_size=3, unique=True).map(tuple),
    min_size=1,
    max_size=3,
)
stages_st = st.sampled_from([(), (11,), (9, 14), "14,14+13", "9,9+8+7,11"])


@st.composite
def thresholds_st(draw: st.DrawFn) -> tuple[tuple[int, ...], ...]:
    """Increasing stage thresholds: random single tiles and combinations of 2-4 tiles, often
    near each other (so boards hit the edges: the tiles exactly, one missing, one larger)."""
    top = draw(st.integers(2, 15))
    combos = draw(
        st.lists(
            st.lists(st.integers(max(1, top - 4), top), min_size=1, max_size=4, unique=True),
            max_size=5,
        )
    )
    stages = {tuple(sorted(c, reverse=True)) for c in combos}
    return tuple(sorted(stages, key=stage_mask))


def _random_network(
    patterns, stages, seed: int
) -> tuple[NTupleNetwork, list[list[dict[int, float]]]]:
    net = NTupleNetwork(patterns, stages)
    rng = np.random.default_rng(seed)
    net.weights[:] = rng.normal(size=net.weights.size).astype(np.float32)
    return net, naive.tables_from(net.weights, net.offsets, net.patterns, net.n_stages)


def _features(board: Board) -> np.uint64:
    return np.uint64(feature_board(np.uint64(board.lo), np.uint64(board.hi)))


@settings(max_examples=60, deadline=None)
@given(boards(), patterns_st, stages_st, st.integers(0, 2**32))
def test_value_matches_reference(board: Board, patterns, stages, seed: int) -> None:
    net, tables = _random_network(patterns, stages, seed)
    expected = naive.value(board.exponents(), net.patterns, tables, net.stages)
    assert net.value(board) == pytest.approx(expected, rel=1e-9, abs=1e-9)
    assert evaluate(_features(board), net.data()) == pytest.approx(expected, rel=1e-9, abs=1e-9)


@settings(max_examples=40, deadline=None)
@given(boards(), patterns_st, stages_st, st.integers(0, 2**32), st.floats(-2, 2))
def test_update_matches_reference(board: Board, patterns, stages, seed: int, step: float) -> None:
    net, tables = _random_network(patterns, stages, seed)
    idx = np.empty(net.n_lookups, np.int64)
    lookup_indices_at(_features(board), _features(board), net.data(), idx)
    add_at(net.weights, idx, step)
    naive.update(board.exponents(), net.patterns, tables, np.float32(step), net.stages)
    size = int(net.offsets[-1])
    for s in range(net.n_stages):
        for p in range(len(net.patterns)):
            block = net.weights[s * size + net.offsets[p] : s * size + net.offsets[p + 1]]
            want = np.array([tables[s][p][i] for i in range(len(block))], np.float64)
            np.testing.assert_allclose(block, want, rtol=1e-6, atol=1e-6)


@settings(max_examples=40, deadline=None)
@given(boards(), st.integers(0, 2**32))
def test_symmetric_boards_have_the_same_value(board: Board, seed: int) -> None:
    net, _ = _random_network([(0, 1, 2), (5, 6, 10), (3, 7)], (), seed)
    grid = board.to_grid()
    mirrored = Board.from_grid([row[::-1] for row in grid])
    transposed = Board.from_grid([list(col) for col in zip(*grid, strict=True)])
    flipped = Board.from_grid(grid[::-1])
    v = net.value(board)
    for other in (mirrored, transposed, flipped):
        assert net.value(other) == pytest.approx(v, rel=1e-9, abs=1e-9)


@settings(max_examples=300, deadline=None)
@given(boards(), thresholds_st())
def test_stage_of_matches_reference(board: Board, stages) -> None:
    masks = np.array([stage_mask(s) for s in stages], np.int64)
    want = naive.stage(naive.grid_of(board.exponents()), stages)
    assert stage_of(_features(board), masks) == want


def test_combination_stages() -> None:
    """14,14+13: 16384 alone is stage 1; with 8192 (or once a 32768 is made) stage 2."""
    masks = np.array([stage_mask(s) for s in parse_stages("14,14+13")], np.int64)

    def stage(*tiles: int) -> int:
        board = Board.from_exponents(list(tiles) + [0] * (16 - len(tiles)))
        return stage_of(_features(board), masks)

    assert [stage(13, 13), stage(14), stage(14, 12, 11), stage(13, 14), stage(15), stage(16)] == [
        0,
        1,
        1,
        2,
        2,
        2,
    ]


def test_parse_stages() -> None:
    assert parse_stages("14, 14+13 15") == ((14,), (14, 13), (15,))
    assert parse_stages([14, [13, 14], "15+1"]) == ((14,), (14, 13), (15, 1))
    assert parse_stages("13+14") == ((14, 13),)  # written in any order, kept largest first
    assert format_stages(parse_stages("14,14+13")) == "14,14+13"
    assert parse_stages("") == ()
    for bad in ("14+13,14", "14,14", "0", "16", "14+14", "14+x", "+"):
        with pytest.raises(UsageError):
            parse_stages(bad)


def test_tc_update_rates() -> None:
    """Temporal coherence: the first update at full rate; opposite errors slow an entry down."""
    net = NTupleNetwork([(0, 1)])
    tc = tc_state(net.weights.size)
    idx = np.array([5], np.int64)
    add_at_tc(net.weights, tc, idx, 0.5, 1.0)  # rate 1
    assert net.weights[5] == pytest.approx(0.5)
    add_at_tc(net.weights, tc, idx, -0.5, -1.0)  # |E| / A = 1 / 1
    assert net.weights[5] == pytest.approx(0.0)
    add_at_tc(net.weights, tc, idx, 0.5, 1.0)  # |E| / A = 0 / 2: frozen
    assert net.weights[5] == pytest.approx(0.0)
    assert tuple(tc[5]) == (1.0, 3.0) and not np.delete(tc, 5, axis=0).any()
    saved = tc_arrays(tc)  # as files keep it: E and A apart, shaped like the weights
    assert (saved["tc_e"][5], saved["tc_a"][5]) == (1.0, 3.0)
    np.testing.assert_array_equal(tc_state(net.weights.size, saved), tc)
    with pytest.raises(ValueError, match="shaped like the weights"):
        tc_state(net.weights.size + 1, saved)


def test_big_tiles_saturate_in_features_only() -> None:
    net, _ = _random_network([(0, 1)], (), 7)
    b65536 = Board.from_exponents([16, 1] + [0] * 14)
    b32768 = Board.from_exponents([15, 1] + [0] * 14)
    assert b65536 != b32768
    assert net.value(b65536) == net.value(b32768)


def test_optimistic_fill_and_sizes() -> None:
    net = NTupleNetwork.create("2x4+2x6", stages=(14,))
    assert net.n_stages == 2 and net.n_lookups == 32
    assert net.weights.size == 2 * (2 * 16**4 + 2 * 16**6)
    small = NTupleNetwork.create("0123")
    small.fill(800.0)
    assert small.value(Board.from_exponents([1] * 16)) == pytest.approx(800.0)


@pytest.mark.parametrize(
    "patterns, stages",
    [([], ()), ([(0, 0)], ()), ([(16,)], ()), ([(0,)], (3, 2)), ([(0,)], (18,)), ([(0,)], "3+2,3")],
)
def test_bad_networks(patterns, stages) -> None:
    with pytest.raises(UsageError):
        NTupleNetwork(patterns, stages)


@settings(max_examples=50, deadline=None)
@given(boards())
def test_images_are_the_isomorphisms(board: Board) -> None:
    """Image i holds in cell c the board's cell isomorphisms()[i][c]."""
    from boardai.g2048.ntuple import images
    from boardai.g2048.patterns import isomorphisms

    cells = [min(e, 15) for e in board.exponents()]
    for image, iso in zip(images(_features(board)), isomorphisms(), strict=True):
        got = [(int(image) >> (4 * c)) & 0xF for c in range(16)]
        assert got == [cells[iso[c]] for c in range(16)]


def _read(after: Board, dg: int, net: NTupleNetwork) -> float:
    """:func:`evaluate_at` of the afterstate downgraded (``dg > 0``), in its own stage."""
    fb = np.uint64(feature_board(np.uint64(after.lo), np.uint64(after.hi)))
    return evaluate_at(np.uint64(downgrade(fb, dg)) if dg else fb, fb, net.data())


@settings(max_examples=60, deadline=None)
@given(boards(), patterns_st, stages_st, st.integers(0, 2**32), st.sampled_from([0, 5, 11]))
def test_greedy_move_matches_reference(board: Board, patterns, stages, seed: int, dg: int) -> None:
    """The greedy move (lookups made once per afterstate, four sums side by side) against the
    spelled-out argmax of ``r + V``: the same action, ``r + V`` as :func:`evaluate` sums it
    (bit for bit) and as the reference does; a buffer full of stale lookups changes nothing."""
    net, tables = _random_network(patterns, stages, seed)
    buf = np.full((4, net.n_lookups + 3), 2**40, np.int64)  # stale, out of range: overwritten
    lo, hi = np.uint64(board.lo), np.uint64(board.hi)
    got = greedy_move_into(lo, hi, net.data(), dg, buf)
    assert got[:5] == greedy_move(lo, hi, net.data(), dg)
    best = None
    for a in board.legal_actions():
        after, r = board.slide(a)
        exact = r + _read(after, dg, net)
        x = [min(e, 15) for e in after.exponents()]  # features saturate, then downgrade
        read = naive.downgrade(x, dg) if dg else x
        want = r + naive.value(read, net.patterns, tables, net.stages, stage_exponents=x)
        assert exact == pytest.approx(want, rel=1e-9, abs=1e-9)
        if best is None or exact > best[1]:
            best = (a, exact, after, r)
    if best is None:
        assert got[0] == -1
        return
    a, q, after, r = best
    assert (got[0], got[3], got[4]) == (a, r, q)
    assert (int(got[1]), int(got[2])) == (after.lo, after.hi)
    # Weights of wildly different sizes: a sum in any other order than evaluate's differs.
    rng = np.random.default_rng(seed)
    net.weights *= np.exp2(rng.integers(-60, 60, net.weights.size)).astype(np.float32)
    got = greedy_move_into(lo, hi, net.data(), dg, buf)
    after, r = board.slide(got[0])
    assert got[4] == r + _read(after, dg, net)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.floats(-1, 1, allow_nan=False),
            st.one_of(st.just(0.0), st.floats(1e-4, 1e13, allow_nan=False)),
        ),
        min_size=1,
        max_size=50,
    )
)
def test_tc_pack_round_trip(pairs: list[tuple[float, float]]) -> None:
    """tc_pack/tc_unpack against the plain definition: a weight never updated (A == 0) stays
    one, every other keeps its rate E / A to within half a 127th and A to within 9% (a
    quarter octave's half)."""
    from boardai.learn.ntuple import tc_pack, tc_unpack

    tc = np.array([(r * a, a) for r, a in pairs], np.float32).reshape(-1, 2)
    back = tc_unpack(tc_pack(tc), len(tc))
    for (e, a), (e2, a2) in zip(tc.tolist(), back.tolist(), strict=True):
        if a == 0:
            assert (e2, a2) == (0.0, 0.0)
            continue
        assert a2 > 0 and abs(a2 / a - 1) <= 2 ** (1 / 8) - 1 + 1e-6
        assert abs(e2 / a2 - e / a) <= 0.5 / 127 + 1e-6
