"""The compiled expectimax against a plain recursive reference, and its contract."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardai import jitref
from boardai._jit import njit
from boardai.g2048 import Board, heuristic, search
from tests.naive import expectimax as ref


@njit
def _tile_count(after: np.uint64, data: tuple[np.ndarray]) -> float:
    """A toy evaluator with its own data: weight per occupied cell."""
    total = 0.0
    for i in range(16):
        if (after >> np.uint64(4 * i)) & np.uint64(0xF):
            total += data[0][i]
    return total


_TOY = (np.arange(16, dtype=np.float64) * 0.5 - 3.0,)


def _toy_python(b: Board) -> float:
    return sum(_TOY[0][i] for i, e in enumerate(b.exponents()) if e)


def _kernel_values(
    board: Board,
    depth: int,
    evaluator=None,
    data=None,
    reward_weight=0.0,
    p4=0.1,
    table=None,
    stats=None,
    prob_cut=0.0,
):
    if evaluator is None:
        evaluator, data = heuristic.evaluate_rows, heuristic.row_table_data()
    evaluator = jitref.ref(evaluator)  # the kernels take a reference
    table = search.Table(12) if table is None else table
    stats = np.zeros(search.N_STATS, np.int64) if stats is None else stats
    return search.search_root(
        np.uint64(board.lo), depth, evaluator, None, data, reward_weight, prob_cut, p4,
        table.view(table.next_generation(), table.leaf_tag(evaluator, None, data)), stats,
    )  # fmt: skip


# Crowded boards keep the Python reference quick: 3 to 7 empty cells.
crowded = st.lists(st.integers(1, 11), min_size=16, max_size=16).flatmap(
    lambda cells: st.sets(st.integers(0, 15), min_size=3, max_size=7).map(
        lambda empty: Board.from_exponents([0 if i in empty else e for i, e in enumerate(cells)])
    )
)


@pytest.mark.parametrize("smoothness", [0.0, 55.0])
def test_row_table_matches_the_python_heuristic(smoothness):
    rng = np.random.default_rng(0)
    table = heuristic.row_heuristic_table(heuristic.RowWeights(smoothness=smoothness))
    for row in [*rng.integers(0, 65536, 300), 0, 0x1021, 0xF0F1]:
        line = [(int(row) >> (4 * i)) & 0xF for i in range(4)]
        assert table[row] == pytest.approx(ref.row_score(line, smoothness), rel=1e-12)


@given(crowded, st.sampled_from([1, 2]))
@settings(max_examples=25, deadline=None)
def test_heuristic_search_equals_the_reference(board, depth):
    got = _kernel_values(board, depth)
    want = ref.root_values(board, depth)
    for g, w in zip(got, want, strict=True):
        assert g == pytest.approx(w, rel=1e-9, abs=1e-6)


@given(crowded, st.sampled_from([1, 2]), st.sampled_from([0.0, 0.2]))
@settings(max_examples=20, deadline=None)
def test_pluggable_evaluator_with_rewards_equals_the_reference(board, depth, p4):
    got = _kernel_values(board, depth, _tile_count, _TOY, reward_weight=1.0, p4=p4)
    want = ref.root_values(board, depth, _toy_python, reward_weight=1.0, p4=p4)
    for g, w in zip(got, want, strict=True):
        assert g == pytest.approx(w, rel=1e-9, abs=1e-6)


def test_depth_3_with_table_equals_the_reference():
    board = Board.from_grid([[2, 4, 8, 16], [4, 8, 16, 32], [8, 16, 0, 2], [0, 2, 4, 0]])
    got = _kernel_values(board, 3)
    want = ref.root_values(board, 3)
    for g, w in zip(got, want, strict=True):
        assert g == pytest.approx(w, rel=1e-9)


def test_best_action_picks_the_winning_merge():
    # Merging the two 1024s (left or right) is the only sensible move.
    board = Board.from_grid([[1024, 1024, 2, 4], [8, 16, 4, 2], [2, 8, 16, 8], [4, 2, 4, 2]])
    action, _ = search.best_action(board, depth=2)
    assert action in (1, 3)


def test_only_legal_move_is_played():
    board = Board.from_grid([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 8, 8]])
    assert board.legal_actions() == [1, 3]
    assert search.best_action(board, depth=3)[0] in (1, 3)


def test_time_budget_still_answers():
    board = Board.from_grid([[2, 4, 8, 16], [0] * 4, [0] * 4, [0] * 4])
    result = search.search(board, 8, time_budget=0.0)
    assert result.depth == 1
    assert result.action in board.legal_actions()


def test_terminal_board_and_bad_depth_raise():
    full = Board.from_grid([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]])
    with pytest.raises(ValueError, match="no legal move"):
        search.best_action(full)
    with pytest.raises(ValueError, match="depth"):
        search.best_action(Board.from_grid([[2, 0, 0, 0]] + [[0] * 4] * 3), depth=0)


def test_wide_board_move_is_legal_on_the_exact_board():
    # 65536 and 32768: the search sees two 32768s and may want to merge them; only the exact
    # board's legal moves may come back.
    board = Board.from_grid([[65536, 32768, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]])
    legal = board.legal_actions()
    assert legal == [] or search.best_action(board, 2)[0] in legal
    board = Board.from_grid([[65536, 32768, 2, 0], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]])
    assert search.best_action(board, 2)[0] in board.legal_actions()


def test_approximate_board_caps_wide_tiles():
    b = Board.from_grid([[131072, 2, 0, 0]] + [[0] * 4] * 3)
    assert search.approximate_board(b.lo, b.hi) & 0xFF == 0x1F
    assert math.isfinite(search.search(b, 2).value)


def test_batch_search_matches_single_searches():
    from boardai.cli.g2048.bench_search import bench_positions

    boards = bench_positions(12)
    packed = np.array([int(b) for b in boards], np.uint64)
    table = search.Table(14)
    stats = np.zeros(search.N_STATS, np.int64)
    gen = table.next_generation(len(packed))
    evaluator, data = jitref.ref(heuristic.evaluate_rows), heuristic.row_table_data()
    actions, values = search.search_batch(
        packed,
        3,
        evaluator,
        None,
        data,
        0.0,
        1e-4,
        0.1,
        table.view(gen, table.leaf_tag(evaluator, None, data)),
        stats,
    )
    for b, a, v in zip(boards, actions, values, strict=True):
        single = search.search(b, 3, table=search.Table(14))
        assert (single.action, single.value) == (a, pytest.approx(v, rel=1e-12))
    assert stats[0] > 0


# Boards of any fill: many empty cells make many repeated leaves.
any_fill = st.lists(st.integers(0, 11), min_size=16, max_size=16).map(Board.from_exponents)


@given(any_fill, st.sampled_from([2, 3]), st.sampled_from([4, 10]), st.booleans())
@settings(max_examples=30, deadline=None)
def test_leaf_cache_changes_no_value(board, depth, leaf_bits, toy):
    """With a leaf cache (small: slots shared by many boards), every root value is the same
    bit for bit as without, and so are the counts of leaves and chance nodes."""
    if not board.legal_actions():
        return
    evaluator, data, weight = (_tile_count, _TOY, 1.0) if toy else (None, None, 0.0)
    counts = []
    values = []
    for bits in (0, leaf_bits):
        stats = np.zeros(search.N_STATS, np.int64)
        table = search.Table(10, leaf_bits=bits)
        kwargs = {"table": table, "stats": stats, "prob_cut": 1e-3}
        values.append(_kernel_values(board, depth, evaluator, data, weight, **kwargs))
        counts.append(stats)
    assert values[0].tolist() == values[1].tolist()
    assert (
        counts[0][: search.STAT_LEAF_HITS].tolist() == counts[1][: search.STAT_LEAF_HITS].tolist()
    )
    assert counts[0][search.STAT_LEAF_HITS] == 0
    assert counts[1][search.STAT_LEAF_HITS] <= counts[1][search.STAT_LEAVES]


def test_leaf_cache_hits_and_forgets_between_searches():
    """A roomy board repeats leaves (hits counted); a later search, here with other data,
    never reads an earlier search's leaves (the generation tags them)."""
    board = Board.from_grid([[2, 4, 8, 16], [0, 0, 2, 0], [0, 0, 0, 0], [0, 4, 0, 0]])
    table = search.Table(10, leaf_bits=10)
    stats = np.zeros(search.N_STATS, np.int64)
    _kernel_values(board, 3, _tile_count, _TOY, 1.0, table=table, stats=stats)
    assert stats[search.STAT_LEAF_HITS] > stats[search.STAT_LEAVES] // 4
    other = (np.ones(16) * 7.0,)
    again = _kernel_values(board, 3, _tile_count, other, 1.0, table=table)
    fresh = _kernel_values(board, 3, _tile_count, other, 1.0, table=search.Table(10))
    assert again.tolist() == fresh.tolist()


def test_leaves_outlive_a_search_until_the_data_changes():
    """The same evaluator and data: a second search of a board answers its leaves from the
    first search's entries, with the same values; clear_leaves (or other data) forgets them."""
    board = Board.from_grid([[2, 4, 8, 16], [0, 0, 2, 0], [0, 0, 0, 0], [0, 4, 0, 0]])
    table = search.Table(10, leaf_bits=16)
    runs = []
    for clear in (False, False, True):
        if clear:
            table.clear_leaves()
        stats = np.zeros(search.N_STATS, np.int64)
        values = _kernel_values(board, 3, _tile_count, _TOY, 1.0, table=table, stats=stats)
        runs.append((values.tolist(), stats.copy()))
    (first, s1), (second, s2), (third, s3) = runs
    assert first == second == third
    misses = [s[search.STAT_LEAVES] - s[search.STAT_LEAF_HITS] for s in (s1, s2)]
    assert misses[1] < misses[0] // 20  # the rest: leaves that share a slot
    assert s3.tolist() == s1.tolist()


@given(
    boards=st.lists(any_fill, min_size=2, max_size=5),
    leaf_bits=st.sampled_from([4, 6, 12]),
)
@settings(max_examples=20, deadline=None)
def test_a_kept_leaf_cache_changes_no_value(boards, leaf_bits):
    """Searches one after another with one table (leaves kept, small caches: many slots
    shared) give every value bit for bit as each search with a table of its own."""
    table = search.Table(10, leaf_bits=leaf_bits)
    for board in boards:
        if not board.legal_actions():
            continue
        kept = _kernel_values(board, 2, _tile_count, _TOY, 1.0, table=table, prob_cut=1e-3)
        fresh = _kernel_values(board, 2, _tile_count, _TOY, 1.0, prob_cut=1e-3)
        assert kept.tolist() == fresh.tolist()


@njit(cache=False)  # inlines search's kernels: a cached copy would not see them change
def _spawn_moves_both(after: np.uint64, cell: np.int64, tile: np.uint64) -> tuple:
    """A spawn's moves the chance node's way (:func:`search._spawn_moves`, from the
    afterstate's) and afresh (:func:`search._moves`)."""
    t_after = search.transpose(after)
    r, c = np.uint64(cell >> 2), np.uint64(cell & 3)
    rows, cols = search._line_rewards(after, t_after)
    row, col, row_reward, col_reward = search._spawn_lines(after, t_after, r, c, rows, cols, True)
    fast = search._spawn_moves(
        search._moves(after, t_after, False)[0], row_reward, col_reward,
        row | (tile << (np.uint64(4) * c)), col | (tile << (np.uint64(4) * r)), r, c, True,
    )  # fmt: skip
    board = after | (tile << np.uint64(4 * cell))
    return fast, search._moves(board, search.transpose(board), True)


# Any tiles up to 32768, pairs of 32768 (a merge past the one-word board) included.
high_boards = st.lists(st.integers(0, 15), min_size=16, max_size=16)


@given(high_boards, st.integers(0, 15), st.sampled_from([1, 2]))
@settings(max_examples=300, deadline=None)
def test_a_spawn_moves_as_the_board_afresh(exponents, cell, tile):
    """Moving only the spawn's row and column gives every afterstate and reward as moving the
    whole board again."""
    exponents[cell] = 0
    after = np.uint64(Board.from_exponents(exponents).lo)
    fast, fresh = _spawn_moves_both(after, cell, np.uint64(tile))
    assert [int(x) for x in fast[0]] == [int(x) for x in fresh[0]]
    assert [int(x) for x in fast[1]] == [int(x) for x in fresh[1]]


def test_bad_leaf_bits():
    with pytest.raises(ValueError, match="leaf cache bits"):
        search.Table(10, leaf_bits=2)
    assert search.Table(10).leaf_keys.shape == (0,)


def test_ntuple_player_searches_with_a_leaf_cache(tmp_path):
    """The n-tuple player's search keeps leaves, and plays as a search without the cache."""
    from boardai.g2048 import Game
    from boardai.g2048.agents import make_agent
    from boardai.g2048.agents.expectimax import ExpectimaxAgent
    from boardai.g2048.train.trainer import TrainConfig, Trainer

    trainer = Trainer(TrainConfig(patterns="0123,4567,0145", seed=2))
    trainer.train(30)
    trainer.save(tmp_path / "n.npz")
    player = make_agent(f"ntuple:model={tmp_path / 'n.npz'},depth=2", seed=0)
    assert player.table.leaf_keys.shape[0] > 0
    plain = ExpectimaxAgent(player.opts, player.evaluator, player.data, reward_weight=1.0)
    assert plain.table.leaf_keys.shape[0] == 0
    g = Game(seed=4)
    hits = 0
    for _ in range(40):
        if g.is_over():
            break
        a = player.act(g.board)
        assert a == plain.act(g.board)
        assert player.last.values.tolist() == plain.last.values.tolist()
        hits += player.last.leaf_hits
        g.move(a)
    assert hits > 0


def test_search_serves_tables_with_and_without_a_leaf_cache():
    """One evaluator and data, searched through a table without a leaf cache and one with:
    numba types the two tables apart (empty leaf arrays count as contiguous), and search()
    calls each its own compiled code, so both give the same values and the cache hits."""
    board = Board.from_grid([[2, 4, 8, 16], [0, 0, 2, 0], [0, 0, 0, 0], [0, 4, 0, 0]])
    kwargs = {"evaluator": _tile_count, "data": _TOY, "reward_weight": 1.0}
    plain = search.search(board, 3, table=search.Table(10), **kwargs)
    cached = search.Table(10, leaf_bits=10)
    first = search.search(board, 3, table=cached, **kwargs)
    second = search.search(board, 3, table=cached, **kwargs)
    again = search.search(board, 3, table=search.Table(10), **kwargs)
    assert plain.values.tolist() == first.values.tolist() == second.values.tolist()
    assert again.values.tolist() == plain.values.tolist()
    assert (plain.leaf_hits, again.leaf_hits) == (0, 0)
    assert second.leaf_hits > first.leaf_hits > 0  # the first search's leaves kept
