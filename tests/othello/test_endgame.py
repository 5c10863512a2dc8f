"""The endgame solver against plain negamax: random positions, passes and finished games, each
special last-1..6 solver, flips, stable discs."""

# ruff: noqa: E741  (P, O: the mover's and the opponent's bitboards)
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardai.othello import endgame as E
from boardai.othello import kernels as K
from boardai.othello.search import solve, solve_position, solve_window
from tests.naive import othello as naive


def _position(seed: int, empties: int) -> tuple[int, int]:
    """A random game from the start, stopped at ``empties`` empty squares (or its end)."""
    state = np.uint64(seed)
    p, o = K.START_BLACK, K.START_WHITE
    while 64 - (int(p) | int(o)).bit_count() > empties and not K.is_terminal(p, o):
        state, a = K.random_action(p, o, np.uint64(state))
        p, o = (np.uint64(x) for x in K.play(p, o, a))
    return int(p), int(o)


def _check_solve(p: int, o: int) -> None:
    stats = np.array([0, 1 << 60, 0], np.int64)
    action, score = solve(np.uint64(p), np.uint64(o), stats)
    exact = naive.solve_window(p, o)
    assert score == exact
    if K.is_terminal(np.uint64(p), np.uint64(o)):
        assert action == -1
    else:  # any of several best moves will do
        assert int(action) in naive.legal_actions(p, o)
        assert -naive.solve_window(*naive.play(p, o, int(action))) == exact


def _check_bound(v: int, exact: int, alpha: int, beta: int) -> None:
    """Fail-soft: exact inside the window, a true bound outside it."""
    if v <= alpha:
        assert exact <= v
    elif v >= beta:
        assert exact >= v
    else:
        assert v == exact


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), empties=st.integers(0, 6))
def test_solve_equals_negamax(seed: int, empties: int) -> None:
    _check_solve(*_position(seed, empties))


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), empties=st.integers(7, 10))
def test_solve_equals_negamax_10_empties(seed: int, empties: int) -> None:
    _check_solve(*_position(seed, empties))


def _pass_positions(n: int) -> list[tuple[int, int]]:
    """Positions where the mover must pass but the game goes on."""
    out = []
    for p, o in K.random_positions(4000, np.uint64(5)):
        few = 64 - (int(p) | int(o)).bit_count() <= 9
        if few and K.legal_moves(p, o) == 0 and K.legal_moves(o, p) != 0:
            out.append((int(p), int(o)))
    assert len(out) >= n
    return out[:n]


def test_passes_and_finished_games() -> None:
    for p, o in _pass_positions(5):
        stats = np.array([0, 1 << 60, 0], np.int64)
        action, score = solve(np.uint64(p), np.uint64(o), stats)
        assert action == K.PASS and score == naive.solve(p, o)
    full = (1 << 64) - 1
    for p, o in [(full ^ 0xFF, 0xFF), (0xF0, 0x0F), (0, 1 << 20)]:  # over, with and without empties
        stats = np.array([0, 1 << 60, 0], np.int64)
        assert tuple(solve(np.uint64(p), np.uint64(o), stats)) == (-1, naive.final_score(p, o))


@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    empties=st.integers(1, E.SMALL),
    window=st.tuples(st.integers(-64, 64), st.integers(-64, 64)),
)
def test_last_empties_solvers(seed: int, empties: int, window: tuple[int, int]) -> None:
    """_last1, and _small (2..SMALL empties; two go to _last2) against negamax, any window."""
    p, o = _position(seed, empties)
    P, O = np.uint64(p), np.uint64(o)
    empty = ~(P | O)
    n = bin(int(empty)).count("1")
    exact = naive.solve(p, o)
    alpha, beta = min(window), max(window) + 1
    stats = np.array([0, 1 << 60, 0], np.int64)
    if n == 1:  # whoever can play the square (or nobody)
        assert E._last1(P, O, np.int64(int(empty).bit_length() - 1)) == exact
    elif n >= 2:
        v = E._small(P, O, np.int64(alpha), np.int64(beta), empty, E._NO, stats)
        _check_bound(int(v), exact, alpha, beta)
    _, v = solve_window(P, O, np.int64(alpha), np.int64(beta), stats)
    _check_bound(int(v), exact, alpha, beta)


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32), empties=st.integers(0, 59))
def test_flips_at_equals_naive(seed: int, empties: int) -> None:
    p, o = _position(seed, empties)
    for sq in range(64):
        if not (p | o) >> sq & 1:
            assert int(E.flips_at(np.int64(sq), np.uint64(p), np.uint64(o))) == naive.flips(
                p, o, sq
            )


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), empties=st.integers(4, 30))
def test_stable_discs_never_flip(seed: int, empties: int) -> None:
    """Play random games on from the position: no disc called stable ever changes colour."""
    p, o = _position(seed, empties)
    stable_o = int(E._stable(np.uint64(o), np.uint64(p | o)))
    stable_p = int(E._stable(np.uint64(p), np.uint64(p | o)))
    assert stable_o & ~o == 0 and stable_p & ~p == 0
    for game in range(5):
        state = np.uint64(seed + game)
        mover, other, flipped = np.uint64(p), np.uint64(o), False
        while not K.is_terminal(mover, other):
            state, a = K.random_action(mover, other, np.uint64(state))
            mover, other = (np.uint64(x) for x in K.play(mover, other, a))
            flipped = not flipped
            now_p, now_o = (int(other), int(mover)) if flipped else (int(mover), int(other))
            assert stable_o & ~now_o == 0 and stable_p & ~now_p == 0


def test_time_and_node_limits_stop_the_solver() -> None:
    """FFO #40 (20 empties) takes seconds: a 0.1 s limit or a 1,000-node limit stops it."""
    cells = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X--------"
    p = sum(1 << i for i, ch in enumerate(cells) if ch == "X")  # black to move
    o = sum(1 << i for i, ch in enumerate(cells) if ch == "O")
    r = solve_position(p, o, seconds=0.1)
    assert not r.complete and r.seconds < 2
    r = solve_position(p, o, max_nodes=1000)
    assert not r.complete and r.nodes < 5000  # checked above the last-6 solver only


@settings(max_examples=200, deadline=None)
@given(mover=st.integers(0, 2**64 - 1), sq=st.integers(0, 63))
def test_count_last_equals_naive_flips(mover: int, sq: int) -> None:
    """On a board full but for ``sq`` the table count is the number of discs the move flips,
    for the mover's discs and for the opponent's (all the others; ``sq``'s own bit is ignored,
    so the complement of the mover's discs will do)."""
    p = mover & ~(1 << sq)
    o = ((1 << 64) - 1) ^ p ^ (1 << sq)
    assert E._count_last(np.uint64(p), np.int64(sq)) == naive.flips(p, o, sq).bit_count()
    want = naive.flips(o, p, sq).bit_count()
    assert E._count_last(np.uint64(o), np.int64(sq)) == want
    assert E._count_last(np.uint64(o | 1 << sq), np.int64(sq)) == want


@pytest.fixture(scope="module")
def fitted_order() -> tuple[object, object]:
    """The shipped fitted network's move-ordering evaluation."""
    from boardai.othello.agents.alphabeta import solver_order

    order = solver_order()
    assert order is not None
    return order


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32), empties=st.integers(E.ORDER_EVAL_MIN, E.ORDER_EVAL_MIN + 2))
def test_an_ordering_evaluation_keeps_the_values_exact(
    fitted_order: tuple[object, object], seed: int, empties: int
) -> None:
    """From ORDER_EVAL_MIN empties a fitted network's values join the order's keys: a solve
    with them reaches the same value as one without, and a best move by it."""
    p, o = _position(seed, empties)
    plain = solve_position(p, o)
    ordered = solve_position(p, o, order=fitted_order)  # type: ignore[arg-type]
    assert ordered.score == plain.score
    if ordered.action >= 0 and ordered.action != K.PASS:
        child = solve_position(*naive.play(p, o, ordered.action))
        assert -child.score == plain.score


@pytest.mark.slow
def test_an_ordering_evaluation_cuts_nodes(fitted_order: tuple[object, object]) -> None:
    """FFO #42 (22 empties): the fitted network's order visits under half the nodes (31M
    against 97M when measured), to the same score."""
    cells = "--OOO-------XX-OOOOOOXOO-OOOOXOOX-OOOXXO---OOXOO---OOOXO--OOOO--"
    p = sum(1 << i for i, ch in enumerate(cells) if ch == "X")  # black to move
    o = sum(1 << i for i, ch in enumerate(cells) if ch == "O")
    plain = solve_position(p, o)
    ordered = solve_position(p, o, order=fitted_order)  # type: ignore[arg-type]
    assert plain.score == ordered.score == 6
    assert ordered.nodes < plain.nodes / 2


def test_each_solver_order_has_its_own_scratch() -> None:
    """The shipped network is read once a process; each order shares its weights but writes
    its indices into a scratch array of its own (solvers may run in threads side by side)."""
    from boardai.othello.agents.alphabeta import solver_order

    a, b = solver_order(), solver_order()
    assert a is not None and b is not None
    assert a[1][1] is b[1][1]  # the weights
    assert a[1][6] is not b[1][6]  # the scratch
    assert len(a[1]) == len(b[1])
