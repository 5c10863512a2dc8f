"""The commands of the foundation: play (driven through a pseudo-terminal), random, bench."""

from __future__ import annotations

import json
import subprocess
import sys

import pexpect
import pytest

from boardai.cli import main
from boardai.g2048 import Game

BOARDAI = [sys.executable, "-m", "boardai"]


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*BOARDAI, *args], capture_output=True, text=True, timeout=300)


def test_help_lists_commands_and_examples() -> None:
    out = run_cli("--help").stdout
    for command in ("2048", "othello", "models"):
        assert f"\n    {command} " in out
    out = run_cli("2048", "--help").stdout
    for command in ("play", "random", "bench"):
        assert f"\n    {command} " in out
    assert "examples:" in run_cli("2048", "random", "--help").stdout
    assert "examples:" in run_cli("2048", "bench", "engine", "--help").stdout


def test_play_in_a_terminal() -> None:
    child = pexpect.spawn(
        BOARDAI[0],
        [*BOARDAI[1:], "2048", "play", "--seed", "7"],
        encoding="utf-8",
        codec_errors="replace",
        timeout=60,
    )
    child.expect("score 0")
    expected = Game(seed=7)
    legal = expected.board.legal_actions()
    keys = {0: "\x1b[A", 1: "\x1b[C", 2: "\x1b[B", 3: "\x1b[D"}
    reward = expected.move(legal[0])
    child.send(keys[legal[0]])  # an arrow key
    child.expect(f"score {reward} ")
    child.expect("moves 1")
    child.send("u")  # undo
    child.expect("moves 0")
    child.send("q")
    child.expect("bye")
    child.expect(pexpect.EOF)


def test_play_from_a_pipe_with_wasd_and_hjkl() -> None:
    g = Game(seed=3)
    names = {0: "w", 1: "d", 2: "s", 3: "a"}
    vi = {0: "k", 1: "l", 2: "j", 3: "h"}
    keys = ""
    for i in range(6):
        a = g.board.legal_actions()[0]
        g.move(a)
        keys += (names if i % 2 else vi)[a]
    out = subprocess.run(
        [*BOARDAI, "2048", "play", "--seed", "3"],
        input=keys + "q",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0
    assert f"bye: score {g.score}, best tile {g.board.max_tile()}" in out.stdout


def test_random_reports_the_baseline(tmp_path: pytest.TempPathFactory) -> None:
    path = tmp_path / "r.json"  # type: ignore[operator]
    out = run_cli("2048", "random", "--games", "500", "--seed", "4", "--json", str(path))
    assert out.returncode == 0, out.stderr
    assert "average score" in out.stdout and "reached" in out.stdout
    data = json.loads(path.read_text())
    assert len(data["games"]) == 500
    assert 800 < data["summary"]["mean"] < 1400  # seed 000's baseline: about 1,000 points
    again = run_cli("2048", "random", "--games", "500", "--seed", "4", "--json", str(path))
    assert json.loads(path.read_text()) == data and again.returncode == 0


def test_bench_engine_json() -> None:
    out = run_cli(
        "2048", "bench", "engine", "--json", "--games", "20", "--repeat", "1", "--py-boards", "200"
    )
    data = json.loads(out.stdout)
    assert data["slides_per_s"] > 0 and data["py_slides_per_s"] > 0


@pytest.mark.parametrize(
    "argv",
    [
        ["2048", "random", "--games", "0"],
        ["2048", "random", "--games", "ten"],
        ["2048", "random", "--p4", "2"],
        ["2048", "random", "--start-tiles", "17"],
        ["2048", "play", "--seed", "-1"],  # numpy's error, a traceback, before
        ["othello", "play", "--seed", "-1"],
        ["othello", "gtp", "--seed", "-1"],
        ["tui", "--seed", "-1"],
        ["nosuchcommand"],
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as e:
        code = main(argv)
        raise SystemExit(code)
    assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err and "Traceback" not in "\n".join(err)
    assert err[-1].startswith("boardai")
