"""``boardai othello analyze FILE --agent SPEC``: each position's value and the player's move,
exact where the search solved it, the static evaluation at depth 0; every bad line named."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from boardai.cli import main
from boardai.cli.othello._positions import read_positions
from boardai.othello.board import action_text
from boardai.othello.search import solve_position

EXAMPLES = Path(__file__).parents[2] / "examples" / "positions.obf"


def _analyze(tmp_path: Path, spec: str) -> list[dict[str, object]]:
    out = tmp_path / f"{spec.replace(':', '_')}.json"
    assert main(["othello", "analyze", str(EXAMPLES), "--agent", spec, "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["agent"] == spec and not data["interrupted"]
    return data["positions"]  # type: ignore[no-any-return]


def test_solved_positions_are_exact_disc_differences(tmp_path: Path) -> None:
    positions = read_positions(str(EXAMPLES))
    rows = _analyze(tmp_path, "alphabeta:depth=2,endgame=20")
    assert len(rows) == len(positions) >= 3
    for pos, row in zip(positions, rows, strict=True):
        solved = solve_position(pos.mover, pos.opponent)
        assert row["unit"] == "discs" and row["value"] == solved.score, (pos.line, row)
        assert row["line"] == pos.line and row["empties"] == pos.empties
        after = pos.board().play(str(row["move"]))  # a legal move, and a best one
        assert -solve_position(after.mover, after.opponent).score == solved.score or (
            after.to_move == pos.side and solve_position(after.mover, after.opponent).score
            == solved.score
        )  # fmt: skip


def test_depth_0_is_the_static_evaluation(tmp_path: Path) -> None:
    from boardai.othello.evaluation import WPC_WEIGHTS

    weights = np.asarray(WPC_WEIGHTS, np.float64).ravel()
    for pos, row in zip(
        read_positions(str(EXAMPLES)), _analyze(tmp_path, "alphabeta:depth=0"), strict=True
    ):
        board = pos.board()
        # the weighted piece counter written out: the mover's weights minus the opponent's
        mine = sum(weights[i] for i in range(64) if board.mover >> i & 1)
        theirs = sum(weights[i] for i in range(64) if board.opponent >> i & 1)
        assert row["unit"] == "eval" and row["value"] == pytest.approx(mine - theirs)
        assert row["move"] in [action_text(a) for a in board.legal_actions()]


def test_a_game_the_search_sees_end_is_worth_its_discs(tmp_path: Path) -> None:
    # X takes O's one disc at c1 and the game is over: all 64 squares are X's (the empty ones
    # go to the winner), seen by a 2-ply search without the endgame solver
    positions = tmp_path / "wipeout.obf"
    positions.write_text("XO" + "-" * 62 + " X\n")
    out = tmp_path / "w.json"
    spec = "alphabeta:depth=2,endgame=0"
    assert main(["othello", "analyze", str(positions), "--agent", spec, "--json", str(out)]) == 0
    (row,) = json.loads(out.read_text())["positions"]
    assert (row["move"], row["value"], row["unit"]) == ("c1", 64.0, "discs")


def test_players_without_a_search(tmp_path: Path) -> None:
    for spec, unit in (("ntuple", "eval"), ("random", None)):
        for row in _analyze(tmp_path, spec):
            assert row["unit"] == unit and (row["value"] is None) == (unit is None)


def test_every_bad_line_is_named_and_nothing_is_analysed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = EXAMPLES.read_text().splitlines()[2]
    f = tmp_path / "p.obf"
    f.write_text("\n".join([good, "X" * 63 + " X", good, good[:64] + " Z", "not a board"]) + "\n")
    assert main(["othello", "analyze", str(f), "--agent", "alphabeta:depth=1"]) == 2
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert [line.split(": ")[2].rsplit(":", 1)[1] for line in lines[:3]] == ["2", "4", "5"]
    assert lines[-1] == f"boardai: error: {f}: 3 bad lines" and len(lines) == 4
    assert out == "" and "Traceback" not in err
