"""The Othello commands given a bad engine, an output path that cannot be written, or a position
too large to solve: one line on stderr (or a warning) before the work, never a traceback, and
never a match of forfeits that exits 0."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest

from boardai.cli import main

#: Six empty squares, black to move: solved in a few hundred nodes.
SMALL = "XXXOX-X-XXOOXXXOXXOOXXXOXXOOXOXOXXOOXXXOXOOXXXXO-OXXXXO-O-XXXX-O X\n"
#: The start position: 60 empty squares, which no exact solve finishes.
START = "-" * 27 + "OX------XO" + "-" * 27 + " X\n"


def _one_error_line(err: str) -> str:
    """The single ``boardai: error:`` line of ``err`` (and no traceback)."""
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.startswith("boardai: error: ")]
    assert len(lines) == 1, err
    return lines[0]


def test_solve_checks_its_json_path_before_solving(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "p.obf"
    f.write_text(SMALL)
    assert main(["othello", "solve", str(f), "--json", "/proc/x/s.json"]) == 2
    out, err = capsys.readouterr()
    assert "--json /proc/x/s.json: cannot write there" in _one_error_line(err)
    assert out == ""  # nothing was solved, then lost


def test_solve_warns_before_a_position_too_large_to_finish(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from boardai.cli.othello import solve

    f = tmp_path / "p.obf"
    f.write_text(SMALL + START)
    solve._warn_if_slow(str(f), solve.read_positions(str(f)))
    err = capsys.readouterr().err
    assert (
        err.startswith(f"boardai: warning: {f}:2: 60 empty squares") and len(err.splitlines()) == 1
    )
    assert "more than a year" in err and "--time S" in err
    solve._warn_if_slow(str(f), solve.read_positions(str(f))[:1])  # 6 empties: nothing to say
    assert capsys.readouterr().err == ""
    # with a limit there is nothing to warn of: the run stops at it
    out = tmp_path / "s.json"
    assert main(["othello", "solve", str(f), "--nodes", "20000", "--json", str(out)]) == 0
    assert capsys.readouterr().err == ""
    assert [p["score"] for p in json.loads(out.read_text())["positions"]] == [-12, None]


NO_ENGINE = "gtp:cmd=/no/such/boardai-engine -l 3"
#: A program that exits at once, as an engine given a flag it does not know: it "died while
#: answering 'boardsize 8'" or "is not running", as the race goes.
EXITS = f"gtp:cmd={sys.executable} -c pass,timeout=10"
UNQUOTED = 'gtp:cmd=engine "-l 3'


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (
            ["othello", "match", "--black", NO_ENGINE, "--white", "random"],
            "cannot start engine '/no/such/boardai-engine -l 3'",
        ),
        (["othello", "match", "--black", "random", "--white", EXITS], "-c pass' "),
        (["othello", "tournament", "--agents", "random", "wpc", EXITS], "-c pass' "),
        (["othello", "match", "--black", UNQUOTED, "--white", "random"], "No closing quotation"),
    ],
)
def test_a_match_with_an_engine_that_does_not_start_is_one_line(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Not a forfeit of every game and exit code 0, as a typo in the engine's name was."""
    assert main([*argv, "--games", "4", "--workers", "1"]) == 2
    out, err = capsys.readouterr()
    line = _one_error_line(err)
    assert says in line and line.startswith("boardai: error: ")
    assert out == "" and "games" not in err  # no game was played, no progress bar shown


def test_an_engine_is_not_started_here_for_a_remote_cluster() -> None:
    """On a cluster the engine may exist only on the machines that play the games: the check
    starts it here only for games played here (no cluster, or a local one)."""
    from boardai.cli.othello.match import check_players
    from boardai.errors import UsageError

    check_players([NO_ENGINE, "random"], "auto")  # built and closed, never started
    for here in (None, "local"):
        with pytest.raises(UsageError, match="cannot start engine"):
            check_players([NO_ENGINE, "random"], here)


def test_play_and_gtp_with_an_engine_that_does_not_start_are_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    monkeypatch.setattr("builtins.input", lambda prompt="": "quit")
    monkeypatch.setattr(sys, "stdin", io.StringIO("genmove black\nquit\n"))
    for argv in (["othello", "play", "--ai", NO_ENGINE], ["othello", "gtp", "--agent", EXITS]):
        assert main([*argv]) == 2
        out, err = capsys.readouterr()
        line = _one_error_line(err)
        assert "cannot start engine" in line or "-c pass' " in line
        assert out == ""  # no board shown, no GTP answer given


#: An engine that answers every command, plays d3 as its first move, then dies.
DIES = """
import sys
moves = 0
for line in sys.stdin:
    if line.startswith("genmove"):
        moves += 1
        if moves == 2:
            sys.exit(3)
        print("= D3\\n", flush=True)
    else:
        print("=\\n", flush=True)
"""


def test_play_keeps_the_record_when_the_engine_dies_mid_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    script = tmp_path / "engine.py"
    script.write_text(textwrap.dedent(DIES))
    moves = iter(["c5"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(moves))
    record = tmp_path / "game.json"
    ai = f"gtp:cmd={sys.executable} {script},timeout=10"
    argv = ["othello", "play", "--ai", ai, "--color", "white", "--record", str(record)]
    assert main(argv) == 2
    out, err = capsys.readouterr()
    line = _one_error_line(err)
    assert "the AI failed" in line and "died while answering 'genmove black'" in line
    assert json.loads(record.read_text())["moves"] == ["d3", "c5"]
    assert "AI plays d3" in out
