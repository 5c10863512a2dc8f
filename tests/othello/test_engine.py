"""Rules engine: perft, legal moves against the slow reference, passes, game end, results."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardai.othello import BLACK, PASS, WHITE, Board, Game
from boardai.othello import kernels as K
from tests.naive import othello as naive

PERFT = [4, 12, 56, 244, 1396, 8200, 55092]


@pytest.mark.parametrize("depth", range(1, 8))
def test_perft_from_start(depth: int) -> None:
    assert K.perft(K.START_BLACK, K.START_WHITE, depth) == PERFT[depth - 1]


def _random_position(seed: int) -> tuple[int, int]:
    p, o = K.random_positions(1, np.uint64(seed))[0]
    return int(p), int(o)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32))
def test_legal_moves_and_flips_match_reference(seed: int) -> None:
    p, o = _random_position(seed)
    assert int(K.legal_moves(np.uint64(p), np.uint64(o))) == sum(
        1 << s for s in naive.legal_squares(p, o)
    )
    for sq in naive.legal_squares(p, o):
        assert int(K.flips(np.uint64(1 << sq), np.uint64(p), np.uint64(o))) == naive.flips(p, o, sq)
        assert tuple(int(x) for x in K.play(np.uint64(p), np.uint64(o), sq)) == naive.play(p, o, sq)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1))
def test_legal_moves_on_arbitrary_bitboards(a: int, b: int) -> None:
    p, o = a & ~b, b  # any disjoint pair, including ones no game reaches (edge wraps)
    assert int(K.legal_moves(np.uint64(p), np.uint64(o))) == sum(
        1 << s for s in naive.legal_squares(p, o)
    )


def test_board_value_api() -> None:
    b = Board.initial()
    assert b.discs() == (2, 2) and b.to_move == BLACK
    assert [Board.action_text(a) for a in b.legal_actions()] == ["d3", "c4", "f5", "e6"]
    after = b.play("d3")
    assert after == b.play(19) and after.to_move == WHITE and after.discs() == (4, 1)
    assert Board.from_str(str(after)) == after
    assert hash(after) == hash(Board.from_str(str(after)))
    with pytest.raises(ValueError, match="illegal move a1"):
        b.play("a1")
    with pytest.raises(ValueError, match="illegal move pass"):
        b.play(PASS)
    with pytest.raises(ValueError, match="unknown move"):
        b.play("z9")


# Black X on a1, b1; white O on c1. White to move has nothing; black plays d1 after a pass.
FORCED_PASS = """
X X O . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
white to move
"""


def test_forced_pass() -> None:
    b = Board.from_str(FORCED_PASS)
    assert not b.is_terminal()
    assert b.legal_actions() == [PASS]
    with pytest.raises(ValueError, match="illegal move"):
        b.play("d1")
    after = b.play("pass")
    assert after.to_move == BLACK and after.legal_actions() == [3]
    end = after.play("d1")
    assert end.is_terminal() and end.legal_actions() == []
    assert end.discs() == (4, 0)
    assert end.result(BLACK) == 1 and end.result(WHITE) == -1 and end.winner() == BLACK
    assert end.score(BLACK) == 64  # a wipe-out: all empties to the winner
    with pytest.raises(ValueError, match="game is over"):
        end.play("pass")


def test_wipe_out_ends_the_game() -> None:
    # Black plays c1 capturing the last white disc: no white discs remain.
    b = Board.from_str("X O . . . . . .\n" + ". . . . . . . .\n" * 7 + "black to move")
    end = b.play("c1")
    assert end.discs() == (3, 0) and end.is_terminal()
    assert end.result(WHITE) == -1


def _full_board(black_squares: int) -> Board:
    black = (1 << black_squares) - 1
    return Board(black, ((1 << 64) - 1) & ~black, WHITE)


def test_full_board_and_draw() -> None:
    draw = _full_board(32)
    assert draw.is_terminal() and draw.legal_actions() == []
    assert draw.result(BLACK) == 0 and draw.result(WHITE) == 0 and draw.winner() is None
    win = _full_board(33)
    assert win.result(BLACK) == 1 and win.result(WHITE) == -1 and win.score(WHITE) == -2
    with pytest.raises(ValueError, match="not over"):
        Board.initial().result()


def test_action_mask() -> None:
    mask = Board.initial().action_mask()
    assert mask.dtype == np.int8 and mask.shape == (65,)
    assert list(np.flatnonzero(mask)) == [19, 26, 37, 44]
    assert list(np.flatnonzero(Board.from_str(FORCED_PASS).action_mask())) == [PASS]


def test_game_undo_and_record() -> None:
    g = Game(players=("wpc", "random"))
    for move in ["d3", "c5", "f6"]:
        g.play(move)
    rec = g.to_record()
    assert rec["game"] == "othello" and rec["moves"] == ["d3", "c5", "f6"]
    assert Game.from_record(rec).board == g.board
    assert g.undo() and g.move_texts() == ["d3", "c5"] and len(g.history) == 3
    assert g.undo_turn(BLACK) and g.moves == [] and g.board == Board.initial()
    bad = {**rec, "moves": ["d3", "a1"]}
    with pytest.raises(ValueError, match="move 2: illegal move a1"):
        Game.from_record(bad)
