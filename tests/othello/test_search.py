"""Alpha-beta against plain minimax; the endgame solver against exhaustive search."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardai.othello import Board
from boardai.othello import evaluation as E
from boardai.othello import kernels as K
from boardai.othello.agents import make_agent
from boardai.othello.search import Searcher, solve
from tests.naive import othello as naive


def _wpc(p: int, o: int) -> float:
    w = E.WPC_WEIGHTS
    return float(
        sum(w[i] for i in range(64) if p >> i & 1) - sum(w[i] for i in range(64) if o >> i & 1)
    )


def _classic(p: int, o: int) -> float:
    return float(E.classic(np.uint64(p), np.uint64(o)))


def _positions(n: int, seed: int) -> list[tuple[int, int]]:
    out = []
    for p, o in K.random_positions(n, np.uint64(seed)):
        if not K.is_terminal(p, o):
            out.append((int(p), int(o)))
    return out


@pytest.mark.parametrize(
    ("evaluator", "data", "evaluate"),
    [(E.evaluate_wpc, E.wpc_data(), _wpc), (E.evaluate_classic, E.CLASSIC_DATA, _classic)],
)
def test_alphabeta_equals_minimax(evaluator: object, data: object, evaluate: object) -> None:
    for p, o in _positions(3, seed=21):
        for depth in (1, 3):
            # A fresh table: entries from deeper searches would (rightly) change the value.
            result = Searcher(evaluator, data, tt_bits=12).search(p, o, depth)
            assert result.value == pytest.approx(naive.minimax(p, o, depth, evaluate))
            child = naive.play(p, o, result.action)
            assert -naive.minimax(*child, depth - 1, evaluate) == pytest.approx(result.value)


def _endgame_positions(n: int, empties: int, seed: int = 0) -> list[tuple[int, int]]:
    out = []
    while len(out) < n:
        state = np.uint64(seed)
        p, o = K.START_BLACK, K.START_WHITE
        while 64 - (int(p) | int(o)).bit_count() > empties and not K.is_terminal(p, o):
            state, a = K.random_action(p, o, np.uint64(state))
            p, o = (np.uint64(x) for x in K.play(p, o, a))
        if not K.is_terminal(p, o):
            out.append((int(p), int(o)))
        seed += 1
    return out


def test_endgame_solver_equals_exhaustive_search() -> None:
    for p, o in _endgame_positions(6, empties=5):
        stats = np.array([0, 1 << 60, 0], np.int64)
        action, score = solve(np.uint64(p), np.uint64(o), stats)
        exact = naive.solve(p, o)
        assert score == exact
        assert -naive.solve(*naive.play(p, o, int(action))) == exact


def test_searcher_solves_endgame_and_respects_time() -> None:
    p, o = _endgame_positions(1, empties=5)[0]
    r = Searcher().search(p, o, depth=2, endgame=8)
    assert r.exact and r.value == naive.solve(p, o)
    opening = Board.initial()
    r = Searcher().search(opening.mover, opening.opponent, depth=30, seconds=0.05)
    assert r.action in opening.legal_actions() and r.depth < 30


@pytest.mark.parametrize("own", [False, True])
def test_the_deadline_stops_a_compiled_solve_that_its_node_budget_would_not(own: bool) -> None:
    # Node budgets come from measured speeds, which a machine that slows down mid-move makes
    # too large (here: no budget at all); the watchdog thread still stops the compiled code,
    # which runs without the GIL, at the deadline: the whole search's, or the array's own
    # (the solve's three quarters of a move's time).
    import time

    from boardai.othello.search import _Watchdog

    p, o = _endgame_positions(1, empties=24, seed=3)[0]  # seconds to minutes to solve
    stats = np.zeros(3, np.int64)
    stats[1] = 1 << 62  # the node limit
    solve(np.uint64(p), np.uint64(o), np.array([0, 1000, 0], np.int64))  # compiled
    start = time.perf_counter()
    with _Watchdog(start + (60 if own else 0.2)) as watchdog:
        solve(np.uint64(p), np.uint64(o), watchdog.watch(stats, start + 0.2 if own else None))
    assert stats[2] == 1  # aborted
    assert time.perf_counter() - start < 1.0  # 0.2 s, with room for a busy box


def test_alphabeta_agent_options() -> None:
    agent = make_agent("alphabeta:depth=2,eval=classic,endgame=6", seed=0)
    b = Board.initial()
    assert agent.act(b) in b.legal_actions()
    with pytest.raises(ValueError, match="depth"):
        make_agent("alphabeta:depth=61")
    static = make_agent("alphabeta:depth=0")  # the evaluation itself; it plays as depth 1
    assert static.act(b) in b.legal_actions() and static.analyse(b).depth == 0


def test_search_needs_nothing_from_the_learned_model() -> None:
    import subprocess
    import sys

    code = (
        "import sys, boardai.othello.search; "
        "print(sorted(m for m in sys.modules if 'ntuple' in m or 'learn' in m))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_ntuple_evaluator_is_the_scaled_network_value() -> None:
    from boardai.othello.ntuple import NTupleNetwork
    from boardai.othello.ntuple_eval import SCALE, evaluate_ntuple, search_data

    net = NTupleNetwork.create("corner3x3,edge2x", stages=2)
    net.weights[:] = np.random.default_rng(3).normal(0, 0.1, net.weights.size)
    for p, o in _positions(5, seed=4):
        got = evaluate_ntuple(np.uint64(p), np.uint64(o), search_data(net))
        assert got == SCALE * net.value(p, o)


def _network_evaluator() -> tuple[object, object, object]:
    from boardai.othello.ntuple import NTupleNetwork
    from boardai.othello.ntuple_eval import SCALE, evaluate_ntuple, search_data

    net = NTupleNetwork.create("corner3x3,edge2x", stages=2)
    net.weights[:] = np.random.default_rng(5).normal(0, 0.2, net.weights.size)
    return evaluate_ntuple, search_data(net), lambda p, o: SCALE * net.value(p, o)


def _plain_negamax(p: int, o: int, depth: int, evaluate: Callable[[int, int], float]) -> float:
    """:func:`tests.naive.othello.minimax` on the compiled move generator (fast enough for
    depth 4, where PVS re-searches start to matter): no pruning, no table, no order."""
    bp, bo = np.uint64(p), np.uint64(o)
    moves = int(K.legal_moves(bp, bo))
    if not moves:
        if not K.legal_moves(bo, bp):
            return naive.terminal_value(p, o)
        if depth == 0:
            return evaluate(p, o)
        return -_plain_negamax(o, p, depth - 1, evaluate)
    if depth == 0:
        return evaluate(p, o)
    best = -np.inf
    for sq in range(64):
        if moves >> sq & 1:
            o2, p2 = K.play(bp, bo, np.int64(sq))
            best = max(best, -_plain_negamax(int(o2), int(p2), depth - 1, evaluate))
    return best


_EVALUATORS = {
    "wpc": (
        E.evaluate_wpc,
        E.wpc_data(),
        lambda p, o: float(E.wpc(np.uint64(p), np.uint64(o), E.WPC_WEIGHTS)),
    ),
    "classic": (E.evaluate_classic, E.CLASSIC_DATA, _classic),
    "ntuple": _network_evaluator(),
}


def _random_position(seed: int, plies: int) -> tuple[int, int]:
    state = np.uint64(seed)
    p, o = K.START_BLACK, K.START_WHITE
    for _ in range(plies):
        if K.is_terminal(p, o):
            break
        state, a = K.random_action(p, o, state)
        state = np.uint64(state)
        p, o = (np.uint64(x) for x in K.play(p, o, np.int64(a)))
    return int(p), int(o)


@pytest.mark.parametrize("name", sorted(_EVALUATORS))
@settings(max_examples=25)
@given(
    seed=st.integers(0, 2**32 - 1),
    plies=st.integers(0, 60),
    depth=st.integers(1, 4),
    window=st.sampled_from([0.0, 0.5, 30.0]),
)
def test_pvs_equals_plain_negamax(
    name: str, seed: int, plies: int, depth: int, window: float
) -> None:
    """PVS with null windows, the table across iterations, aspiration windows (0.5: nearly
    every depth falls outside and is searched again) and move ordering change the work, never
    the value: it is the plain negamax value, and the chosen move reaches it."""
    evaluator, data, evaluate = _EVALUATORS[name]
    p, o = _random_position(seed, plies)
    result = Searcher(evaluator, data, tt_bits=12, window=window).search(p, o, depth)
    assert result.value == pytest.approx(_plain_negamax(p, o, depth, evaluate))
    if naive.legal_actions(p, o):
        child = naive.play(p, o, result.action)
        assert -_plain_negamax(*child, depth - 1, evaluate) == pytest.approx(result.value)
    else:
        assert result.action == -1


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), depth=st.integers(8, 9))
def test_pvs_with_shallow_search_ordering_equals_plain_negamax(seed: int, depth: int) -> None:
    """From 8 plies deep each node orders its moves by a shallow search of every child (into
    the same table), and the root too: the value is still the plain negamax value. Positions
    with 8 empties keep the plain search small; passes and finished games within the horizon
    are scored by the rules, the rest by the evaluator."""
    evaluator, data, evaluate = _EVALUATORS["wpc"]
    p, o = _endgame_positions(1, empties=8, seed=seed)[0]
    result = Searcher(evaluator, data, tt_bits=12).search(p, o, depth)
    assert result.value == pytest.approx(_plain_negamax(p, o, depth, evaluate))
    child = naive.play(p, o, result.action)
    assert -_plain_negamax(*child, depth - 1, evaluate) == pytest.approx(result.value)


@pytest.mark.parametrize("name", ["wpc", "ntuple"])
@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    plies=st.integers(4, 40),
    budget=st.integers(1, 3000),
    window=st.sampled_from([0.5, 30.0]),
)
def test_a_depth_cut_short_tells_a_move_no_better_than_it_is(
    name: str, seed: int, plies: int, budget: int, window: float
) -> None:
    """Under a node limit the last depth may stop part way; the move it tells is legal, and
    its value is the plain negamax value of that move at that depth, or below it (a bound
    from a fail-high). A search that finishes gives the plain negamax value, as ever."""
    evaluator, data, evaluate = _EVALUATORS[name]
    p, o = _random_position(seed, plies)
    if not naive.legal_squares(p, o):
        return
    result = Searcher(evaluator, data, tt_bits=12, window=window).search(p, o, 4, nodes=budget)
    assert result.action in naive.legal_squares(p, o)
    moved = -_plain_negamax(*naive.play(p, o, result.action), result.depth - 1, evaluate)
    best = _plain_negamax(p, o, result.depth, evaluate)
    assert result.value <= moved + 1e-9 and moved <= best + 1e-9
    full = Searcher(evaluator, data, tt_bits=12, window=window).search(p, o, result.depth)
    if result.nodes < budget:  # nothing stopped it
        assert result.value == pytest.approx(best) == pytest.approx(full.value)


def test_a_node_limit_gives_the_same_move_every_run() -> None:
    evaluator, data, _ = _EVALUATORS["ntuple"]
    for p, o in _positions(6, seed=4):
        runs = {
            (r.action, r.value, r.depth)
            for r in (Searcher(evaluator, data).search(p, o, 12, nodes=20_000) for _ in range(2))
        }
        assert len(runs) == 1
