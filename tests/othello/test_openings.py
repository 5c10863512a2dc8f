"""``boardai othello data openings`` and :mod:`boardai.othello.train.openings`: the positions
of the first plies up to symmetry, against a plain enumeration with the board's own moves and
squares moved one by one."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardai.cli import main
from boardai.othello.agents import make_agent
from boardai.othello.board import BLACK, Board
from boardai.othello.search import value_in_discs
from boardai.othello.train import openings as op
from boardai.othello.train.fit import read_positions
from tests.naive import othello as naive

bitboards = st.integers(0, 2**64 - 1)


def moved(x: int, t: int) -> int:
    """The squares of ``x`` moved one by one: columns reversed (bit 0 of ``t``), then rows
    (bit 1), then rows and columns swapped (bit 2)."""
    y = 0
    for sq in range(64):
        if x >> sq & 1:
            r, c = divmod(sq, 8)
            c = 7 - c if t & 1 else c
            r = 7 - r if t & 2 else r
            r, c = (c, r) if t & 4 else (r, c)
            y |= 1 << (8 * r + c)
    return y


def smallest(b: Board) -> tuple[int, int]:
    return min((moved(b.mover, t), moved(b.opponent, t)) for t in range(8))


def plain_openings(plies: int) -> set[tuple[int, int]]:
    """Every position within ``plies`` of the start by the board's own moves (a pass a ply),
    as its smallest image."""
    level = {smallest(Board.initial()): Board.initial()}
    seen = set(level)
    for _ in range(plies):
        following = {}
        for b in level.values():
            nexts = [b.play(a) for a in b.legal_actions()] if not b.is_terminal() else []
            for c in nexts:
                following.setdefault(smallest(c), c)
        level = following
        seen |= set(level)
    return seen


@settings(max_examples=200, deadline=None)
@given(bitboards, st.integers(0, 7))
def test_an_image_moves_each_square(x: int, t: int) -> None:
    assert int(op.image(np.uint64(x), np.int64(t))) == moved(x, t)


@settings(max_examples=100, deadline=None)
@given(bitboards, bitboards)
def test_the_canonical_form_is_the_smallest_image(a: int, b: int) -> None:
    p, o = a & ~b, b  # two sides' discs never share a square
    got = op.canonical(np.array([p], np.uint64), np.array([o], np.uint64))
    want = min((moved(p, t), moved(o, t)) for t in range(8))
    assert (int(got[0][0]), int(got[1][0])) == want


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 59))
def test_children_are_the_plain_rules_moves(seed: int, plies: int) -> None:
    rng = np.random.default_rng(seed)
    p, o = Board.initial().mover, Board.initial().opponent
    for _ in range(plies):
        actions = naive.legal_actions(p, o)
        if not actions:
            break
        p, o = naive.play(p, o, actions[int(rng.integers(len(actions)))])
    movers, opponents = op.children(np.array([p], np.uint64), np.array([o], np.uint64))
    got = sorted(zip(movers.tolist(), opponents.tolist(), strict=True))
    assert got == sorted(naive.play(p, o, a) for a in naive.legal_actions(p, o))


def test_the_openings_are_every_position_once_up_to_symmetry() -> None:
    for plies in range(6):
        movers, opponents = op.openings(plies)
        got = list(zip(movers.tolist(), opponents.tolist(), strict=True))
        assert len(set(got)) == len(got)
        assert set(got) == plain_openings(plies)
    discs = [bin(p | o).count("1") for p, o in got]
    assert discs == sorted(discs)  # by ply: no pass comes this early


def test_openings_refuse_negative_plies() -> None:
    with pytest.raises(ValueError, match="plies"):
        op.openings(-1)


def test_the_command_labels_each_opening_by_the_players_search(tmp_path: Path) -> None:
    out = tmp_path / "openings.npz"
    spec = "alphabeta:depth=2,endgame=0"
    argv = ["othello", "data", "openings", "--plies", "4", "--agent", spec, "--out", str(out)]
    assert main([*argv, "--workers", "1"]) == 0
    data, _ = read_positions([out])
    movers, opponents = op.openings(4)
    assert np.array_equal(data.mover, movers) and np.array_equal(data.opponent, opponents)
    agent = make_agent(spec)
    for p, o, value in zip(data.mover, data.opponent, data.label, strict=True):
        agent.reset()
        board = Board.from_mover(int(p), int(o), BLACK)
        assert value == np.float32(value_in_discs(agent.analyse(board).value))
    assert main([*argv, "--workers", "1"]) == 2  # --out exists: refused without --force


@pytest.mark.parametrize("plies", ["-1", "10", "x"])
def test_plies_out_of_range_are_one_line(
    tmp_path: Path, plies: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["othello", "data", "openings", "--plies", plies, "--agent", "alphabeta:depth=1"]
    with pytest.raises(SystemExit) as e:
        main([*argv, "--out", str(tmp_path / "x.npz")])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "--plies" in err
