"""``boardai othello solve``: the position file parser, the output, the limits."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from boardai.cli import main
from boardai.othello import Board
from tests.naive import othello as naive

#: Positions from random games with 6 empties (black to move, then white).
OBF = (
    "XXXOX-X-XXOOXXXOXXOOXXXOXXOOXOXOXXOOXXXOXOOXXXXO-OXXXXO-O-XXXX-O X; from a random game\n"
    "XXX-OOX-XXXXXOX-XXXXXXOOXXXXXXOOXXOOOXO-XXOOOXX-XXOXXXXXX-OOOOOO o\n"
)


def _obf_board(line: str) -> Board:
    cells, side = line.split(";")[0].split()
    black = sum(1 << i for i, ch in enumerate(cells) if ch == "X")
    white = sum(1 << i for i, ch in enumerate(cells) if ch == "O")
    return Board(black, white, 0 if side in "Xx" else 1)


def test_solves_obf_and_board_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    last = Board((1 << 60) - 1, 0b111 << 60)  # h8 empty: black plays it and wins 64-0
    f = tmp_path / "p.obf"
    f.write_text(f"% comment\n{OBF}\n{last}\n")
    out = tmp_path / "r.json"
    assert main(["othello", "solve", str(f), "--json", str(out)]) == 0
    r = json.loads(out.read_text())
    assert len(r["positions"]) == 3 and r["nodes"] == sum(p["nodes"] for p in r["positions"])
    boards = [_obf_board(line) for line in OBF.splitlines()] + [last]
    for row, board in zip(r["positions"], boards, strict=True):
        exact = naive.solve(board.mover, board.opponent)
        assert row["score"] == exact and row["seconds"] >= 0
        after = board.play(row["move"])
        assert -naive.solve(after.mover, after.opponent) == exact  # the move is a best one
    assert [p["line"] for p in r["positions"]] == [2, 3, 5]
    text = capsys.readouterr().out
    assert "+64    h8" in text and text.splitlines()[-1].startswith("total: 3 positions")


def test_wld_and_node_limit(tmp_path: Path) -> None:
    f = tmp_path / "p.obf"
    f.write_text(OBF)
    out = tmp_path / "r.json"
    assert main(["othello", "solve", str(f), "--wld", "--json", str(out)]) == 0
    boards = [_obf_board(line) for line in OBF.splitlines()]
    signs = [(s > 0) - (s < 0) for s in (naive.solve(b.mover, b.opponent) for b in boards)]
    assert [p["score"] for p in json.loads(out.read_text())["positions"]] == signs
    assert main(["othello", "solve", str(f), "--nodes", "5", "--json", str(out)]) == 0
    assert [p["score"] for p in json.loads(out.read_text())["positions"]] == [None, None]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (OBF + "XXO X\n", ":3: the board has 3 squares, not 64"),
        (OBF + "X" * 63 + "Z X\n", ":3: bad character 'Z'"),
        ("\n" + "X" * 63 + "O\n", ":2: no side to move"),
        ("X" * 63 + "O Y\n", ":1: bad side to move 'Y'"),
        ("X" * 64 + " X\n", ":1: the game is over"),
        ("1 X X X X X X X X\nblack to move\n", ":1: an Othello grid needs 8 rows"),
        ("1 X X X X X X X X\n", ":1: board text without"),
        ("% nothing\n", "no positions"),
        (OBF, ":1: 6 empty squares, more than --empties-max 5"),
    ],
)
def test_bad_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    f = tmp_path / "bad.obf"
    f.write_text(text)
    assert main(["othello", "solve", str(f), "--empties-max", "5"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and message in err
    assert err.startswith(f"boardai: error: {f}")


def test_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["othello", "solve", str(tmp_path / "none.obf")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_order_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--order none`` and the default fitted network give the same exact scores; a network
    not valued in discs, or no file, is one line and exit 2."""
    f = tmp_path / "p.obf"
    f.write_text(OBF)
    scores = []
    for order in ("othello-fit", "none"):
        out = tmp_path / f"{order}.json"
        assert main(["othello", "solve", str(f), "--order", order, "--json", str(out)]) == 0
        scores.append([row["score"] for row in json.loads(out.read_text())["positions"]])
    assert scores[0] == scores[1] and len(scores[0]) == 2
    capsys.readouterr()
    for bad, message in (("othello-ntuple", "not a network valued in discs"), ("no.npz", "no")):
        assert main(["othello", "solve", str(f), "--order", bad]) == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and message in err
