"""GTP: boardai's server driven by boardai's client; engines that die or fall silent."""

from __future__ import annotations

import shutil
import sys
import textwrap
from pathlib import Path

import pytest

from boardai.arena.match import play_game, play_match
from boardai.othello import Board
from boardai.othello.agents import make_agent
from boardai.othello.gtp import EngineError, GTPClient, GTPServer, vertex

SERVER = f"{sys.executable} -m boardai othello gtp --agent random --seed 1"


def test_server_answers_commands() -> None:
    server = GTPServer(make_agent("wpc", seed=0))
    assert server.handle("1 protocol_version") == "=1 2\n\n"
    assert server.handle("boardsize 9").startswith("? ")
    assert server.handle("play black d3") == "=\n\n"
    assert server.handle("play black c5").startswith("? illegal move")
    move = server.handle("genmove white")[2:].strip()
    assert Board.initial().play("d3").is_legal(move.lower())
    assert server.handle("undo") == "=\n\n" and server.board == Board.initial().play("d3")


def _a_forced_pass() -> Board:
    """A position whose mover must pass while the game goes on (random games, seeded)."""
    import random

    from boardai.othello.board import PASS

    rng = random.Random(7)
    while True:
        board = Board.initial()
        while not board.is_terminal():
            legal = board.legal_actions()
            if legal == [PASS]:
                return board
            board = board.play(rng.choice(legal))


@pytest.mark.parametrize("command", ["play", "genmove"])
def test_undo_takes_back_the_pass_a_controller_skipped(command: str) -> None:
    from boardai.othello.board import COLOR_NAMES

    stuck = _a_forced_pass()
    other = COLOR_NAMES[1 - stuck.to_move]
    server = GTPServer(make_agent("wpc", seed=0))
    server.history = [stuck]
    move = stuck.play("pass").legal_actions()[0]
    line = f"play {other} {vertex(move)}" if command == "play" else f"genmove {other}"
    assert server.handle(line).startswith("=")
    assert len(server.history) == 3  # the pass went in, then the move
    assert server.handle("undo") == "=\n\n"
    assert server.board == stuck  # as before the command: the pass is taken back too
    assert server.handle("undo").startswith("? cannot undo")


def test_round_trip_plays_a_legal_game() -> None:
    engine = make_agent(f"gtp:cmd={SERVER},timeout=30")
    try:
        game, forfeit = play_game(engine, make_agent("wpc", seed=2), seed=3)
    finally:
        engine.close()
    assert forfeit is None and game.is_over()
    assert len(game.moves) >= 50


FAKE = """
import sys
genmoves = 0
for line in sys.stdin:
    cmd = line.split()
    if not cmd:
        continue
    if cmd[0] == "genmove":
        genmoves += 1
        if genmoves == 2:
            {action}
        reply = {{1: "D3", 2: "C5"}}.get(genmoves, "PASS")
        print("= " + reply + "\\n", flush=True)
    else:
        print("=\\n", flush=True)
"""


def _fake_engine(tmp_path: Path, action: str) -> str:
    script = tmp_path / "engine.py"
    script.write_text(textwrap.dedent(FAKE.format(action=action)))
    return f"{sys.executable} {script}"


def test_engine_that_dies_mid_game_loses(tmp_path: Path) -> None:
    cmd = _fake_engine(tmp_path, "sys.exit(3)")
    result = play_match(f"gtp:cmd={cmd},timeout=10", "wpc", games=2, workers=1)
    assert result.losses == 2 and result.score == 0.0
    assert "died while answering 'genmove black'" in result.forfeits[0]


def test_silent_engine_times_out(tmp_path: Path) -> None:
    cmd = _fake_engine(tmp_path, "import time; time.sleep(60)")
    _, forfeit = play_game(make_agent(f"gtp:cmd={cmd},timeout=0.5"), make_agent("wpc"))
    assert forfeit is not None and "did not answer" in forfeit


def test_missing_engine_is_a_clear_error() -> None:
    with pytest.raises(EngineError, match="cannot start engine"):
        GTPClient("no-such-engine-boardai")


@pytest.mark.skipif(
    shutil.which("gtp-rhino") is None and not Path("/usr/games/gtp-rhino").exists(),
    reason="gtp-rhino is missing (apt-get install grhino)",
)
def test_gtp_rhino_plays_a_legal_game() -> None:
    path = shutil.which("gtp-rhino") or "/usr/games/gtp-rhino"
    engine = make_agent(f"gtp:cmd={path} -l 1,timeout=30")
    try:
        game, forfeit = play_game(make_agent("wpc", seed=1), engine, seed=1)
    finally:
        engine.close()
    assert forfeit is None and game.is_over()


def test_find_path_follows_new_discs() -> None:
    from boardai.othello.gtp import find_path

    a, b = make_agent("random", seed=4), make_agent("random", seed=5)
    game, _ = play_game(a, b, seed=6)
    history = game.history
    path = find_path(history[20], history[27])
    assert path is not None and len(path) == 7
    board = history[20]
    for action in path:
        board = board.play(action)
    assert board == history[27]
    assert find_path(history[27], history[20]) is None


def test_quit_as_an_argument_does_not_stop_the_server() -> None:
    """A controller asking ``known_command quit`` expects ``= true`` and an engine still there."""
    import io

    server = GTPServer(make_agent("random", seed=0), name="e")
    out = io.StringIO()
    server.serve(io.StringIO("known_command quit\nplay black quit\n7 QUIT\nname\n"), out)
    assert (
        out.getvalue() == "= true\n\n? illegal move (unknown move 'quit': expected a square "
        "a1..h8 or 'pass')\n\n=7\n\n"
    )


def test_a_failing_engine_behind_the_server_is_an_error_answer() -> None:
    """The server (say, a proxy for a gtp player) answers ``?`` and goes on; the failed move
    leaves the game as it was."""

    class Failing:
        name = "failing"

        def act(self, state: Board) -> int:
            raise EngineError("engine 'x' did not answer 'genmove white' within 1 s")

        def reset(self) -> None:
            pass

    server = GTPServer(Failing())
    assert server.handle("play black d3") == "=\n\n"
    answer = server.handle("5 genmove white")
    assert answer == "?5 engine 'x' did not answer 'genmove white' within 1 s\n\n"
    assert server.board == Board.initial().play("d3") and len(server.history) == 2
    assert server.handle("play white c5") == "=\n\n"
