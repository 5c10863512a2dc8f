"""Multi-prob-cut: off is the exact search, on stays near it with fewer nodes, the endgame
solver never cuts, and the option is checked."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardai.errors import UsageError
from boardai.othello import Board, probcut
from boardai.othello import evaluation as E
from boardai.othello import kernels as K
from boardai.othello.agents import make_agent
from boardai.othello.search import Searcher, solve
from tests.othello.test_search import _endgame_positions, _random_position

WPC = (E.evaluate_wpc, E.wpc_data())


def _midgame(seed: int, plies: int) -> tuple[int, int]:
    p, o = _random_position(seed, plies)
    while K.is_terminal(np.uint64(p), np.uint64(o)):  # rare: a game over early
        seed += 1
        p, o = _random_position(seed, plies)
    return p, o


def test_shallow_depths_are_shallower_and_of_the_same_parity() -> None:
    for d in range(probcut.MIN_DEPTH, 40):
        ds = probcut.shallow_depth(d)
        assert 1 <= ds < d and ds % 2 == d % 2


@pytest.mark.parametrize("name", ["wpc", "classic", "ntuple", "fitted"])
def test_fits_cover_every_stage_and_depth(name: str) -> None:
    _, stages, rows = probcut.table(name, 1.0)
    assert set(stages[20:51]) == set(range(rows.shape[0]))
    for d in range(probcut.MIN_DEPTH, probcut.MAX_DEPTH + 1):
        for stage in range(rows.shape[0]):
            ds, a, _, sigma = rows[stage, d, 0]
            assert ds == probcut.shallow_depth(d) and 0.5 < a < 1.5 and sigma > 0
    assert (rows[:, : probcut.MIN_DEPTH, :, 0] < 0).all()  # no cut-off at depth 0..2


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(4, 44), depth=st.integers(1, 5))
def test_threshold_zero_is_the_exact_search(seed: int, plies: int, depth: int) -> None:
    """mpc=0 runs the search without prob-cut: same move, value and nodes as no table."""
    p, o = _midgame(seed, plies)
    plain = Searcher(*WPC, tt_bits=12).search(p, o, depth)
    zero = Searcher(*WPC, tt_bits=12, mpc=probcut.table("wpc", 0.0)).search(p, o, depth)
    assert (zero.action, zero.value, zero.nodes) == (plain.action, plain.value, plain.nodes)


def test_cuts_save_nodes_and_stay_near_the_exact_value() -> None:
    """At depth 7 on 24 midgame positions prob-cut (t = 1.5) visits fewer nodes; its value
    is the exact one on most positions and off by less than the evaluation's spread on all."""
    exact_nodes = cut_nodes = 0
    errors = []
    for i in range(24):
        p, o = _midgame(100 + i, 16 + i)
        exact = Searcher(*WPC, tt_bits=16).search(p, o, 7)
        cut = Searcher(*WPC, tt_bits=16, mpc=probcut.table("wpc", 1.5)).search(p, o, 7)
        assert cut.action in Board.from_mover(p, o, 0).legal_actions()
        exact_nodes += exact.nodes
        cut_nodes += cut.nodes
        errors.append(abs(cut.value - exact.value))
    assert cut_nodes < 0.8 * exact_nodes
    assert sum(e == 0 for e in errors) >= len(errors) // 2
    assert max(errors) < 100  # WPC values of these positions span several hundred


def test_endgame_solver_never_cuts() -> None:
    for p, o in _endgame_positions(3, empties=9):
        r = Searcher(*WPC, mpc=probcut.table("wpc", 0.5)).search(p, o, depth=20, endgame=10)
        exact = solve(np.uint64(p), np.uint64(o), np.array([0, 1 << 60, 0], np.int64))[1]
        assert r.exact and r.value == exact


def test_players_take_the_threshold_and_play_legal_moves() -> None:
    b = Board.initial()
    for spec in ("alphabeta:depth=5,mpc=1.5", "ntuple:depth=3,mpc=1", "alphabeta:mpc=0"):
        agent = make_agent(spec, seed=0)
        for _ in range(6):
            a = agent.act(b)
            assert a in b.legal_actions()
            b = b.play(a)


@pytest.mark.parametrize("bad", ["mpc=0.2", "mpc=-1", "mpc=9", "mpc=x"])
@pytest.mark.parametrize("player", ["alphabeta", "ntuple:depth=3"])
def test_bad_threshold_is_one_usage_line(player: str, bad: str) -> None:
    spec = f"{player},{bad}" if ":" in player else f"{player}:{bad}"
    with pytest.raises(UsageError, match="mpc") as e:
        make_agent(spec)
    assert "\n" not in str(e.value)


def test_default_threshold_follows_the_evaluator() -> None:
    """Each player's default is its evaluator's (off unless measured to win), a given one
    replaces it."""
    for spec, evaluator in [
        ("alphabeta:depth=3", "wpc"),
        ("alphabeta:depth=3,eval=classic", "classic"),
        ("alphabeta:depth=3,eval=ntuple", "ntuple"),
        ("ntuple:depth=3", "ntuple"),
        ("ntuple:model=othello-eval,depth=3", "fitted"),
    ]:
        assert make_agent(spec).searcher.mpc[0] == probcut.default(evaluator)
    assert make_agent("ntuple:depth=3,mpc=1.5").searcher.mpc[0] == 1.5
    assert make_agent("alphabeta:depth=3,mpc=2").searcher.mpc[0] == 2
    assert make_agent("alphabeta:depth=3,mpc=0").searcher.mpc[0] == 0
