"""``boardai othello watch``: two players play one game, drawn in place on a terminal."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from boardai.cli import main

CHEAP = ["othello", "watch", "--black", "wpc", "--white", "random", "--delay", "0"]


def test_watch_plays_one_game_and_records_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from boardai.othello.game import Game

    record = tmp_path / "w.jsonl"
    argv = [*CHEAP, "--seed", "3", "--epsilon", "0.2"]
    assert main([*argv, "--record", str(record)]) == 0
    out = capsys.readouterr().out
    found = re.search(r"game over: .*black (\d+) - white (\d+); (\d+) plies", out)
    assert found, out
    rec = json.loads(record.read_text())
    game = Game.from_record(rec)
    assert game.is_over() and len(game.moves) == int(found[3])
    assert game.board.discs() == (int(found[1]), int(found[2]))
    assert rec["players"] == {"black": "wpc", "white": "random"}
    assert "a b c d e f g h" in out  # the final board, off a terminal
    # the same seed is the same game, random moves and all; another seed another game
    again = tmp_path / "again.jsonl"
    assert main([*argv, "--record", str(again)]) == 0
    assert json.loads(again.read_text())["moves"] == rec["moves"]
    other = tmp_path / "other.jsonl"
    assert main([*CHEAP, "--seed", "4", "--epsilon", "0.2", "--record", str(other)]) == 0
    assert json.loads(other.read_text())["moves"] != rec["moves"]


def test_watch_of_a_bad_player_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["othello", "watch", "--black", "wpc", "--white", "nope"]) == 2
    out, err = capsys.readouterr()
    assert "unknown othello agent 'nope'" in err and "Traceback" not in err and out == ""
    with pytest.raises(SystemExit) as stop:
        main(["othello", "watch", "--epsilon", "2"])
    assert stop.value.code == 2 and "--epsilon: 2.0 is not in [0, 1]" in capsys.readouterr().err


def test_watch_keeps_the_record_when_an_engine_dies_mid_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import textwrap

    from tests.cli.test_othello_mistakes import DIES

    script = tmp_path / "engine.py"
    script.write_text(textwrap.dedent(DIES))
    record = tmp_path / "game.jsonl"
    engine = f"gtp:cmd={sys.executable} {script},timeout=10"
    argv = ["othello", "watch", "--black", engine, "--white", "wpc", "--seed", "1"]
    assert main([*argv, "--delay", "0", "--record", str(record)]) == 2
    out, err = capsys.readouterr()
    assert "a player failed" in err and "died while answering 'genmove black'" in err
    assert "Traceback" not in err
    assert "stopped: black" in out
    moves = json.loads(record.read_text())["moves"]
    assert len(moves) == 2 and moves[0] == "d3"  # the engine's move and wpc's reply


def test_watch_in_a_terminal_redraws_and_ends(tmp_path: Path) -> None:
    import pexpect

    args = ["-m", "boardai", *CHEAP, "--seed", "1"]
    child = pexpect.spawn(
        sys.executable, args, encoding="utf-8", codec_errors="replace", timeout=120
    )
    child.expect("wpc \\(black\\) against random \\(white\\)")  # the live panel's title
    child.expect("black played")
    child.expect(r"game over: .* black \d+ - white \d+; \d+ plies")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_ctrl_c_stops_the_game_where_it_stands(tmp_path: Path) -> None:
    import pexpect

    from boardai.othello.game import Game

    record = tmp_path / "w.jsonl"
    args = ["-m", "boardai", *CHEAP[:-1], "60", "--record", str(record)]  # a minute a move
    child = pexpect.spawn(
        sys.executable, args, encoding="utf-8", codec_errors="replace", timeout=120
    )
    child.expect("black played")
    child.sendintr()
    child.expect(r"stopped: black \d+ - white \d+ after 1 ply,")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    game = Game.from_record(json.loads(record.read_text()))
    assert len(game.moves) == 1 and not game.is_over()
